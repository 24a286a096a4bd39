#pragma once
// What the SmartBox did with each message, so a trace can answer "why did
// this update not apply?" (docs/sim.md, "Verdicts").

#include <cstdint>
#include <optional>
#include <string_view>

#include "dereth/core/clock.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

enum class Verdict : std::uint8_t {
  Applied,                // the gates passed and the message took effect (retail result 1)
  StaleTimestamp,         // exact Instance, but the channel stamp was not strictly newer
  WrongInstance,          // the live generation is newer than the one the message names (retail 2)
  StaleGeneration,        // CreateObject for an older Instance than the live one (retail 2)
  NewGeneration,          // CreateObject/UpdateObject replaced the live generation
  QueuedForAbsentObject,  // no object for the GUID yet: held whole until it appears (retail 4)
  QueuedFutureInstance,   // names an Instance newer than the live one: held on that GUID (retail 4)
  Replayed,               // a held message applied when its object appeared
  RejectedLocalPlayer,    // DeleteObject for the local player, or a second PlayerCreate (retail 3)
  QueuedBeforePlayer,     // arrived before PlayerCreate: held (ACSmartBox::IsReadyToDispatchEvent)
  DroppedQueueFull,       // would have been held, but a pending-queue cap was reached
  Ignored,                // understood but nothing to do (retail result 3: no player, no script)
};

// "applied", "stale-timestamp", "wrong-instance", ... (the trace spelling).
[[nodiscard]] std::string_view to_string(Verdict verdict) noexcept;

// One handled message, as a trace prints it.
struct MessageRecord {
  core::Seconds time{0.0};
  std::uint32_t opcode = 0;
  std::uint32_t guid = 0;                    // the object the message is about (0 for F751)
  std::optional<std::uint16_t> instance_ts;  // the Instance the message carried, if any
  std::optional<std::uint16_t> channel_ts;   // its channel stamp (State, Vector, Position, ...)
  Verdict verdict = Verdict::Applied;
  bool replayed = false;             // dispatched from a pending queue
  LocalId local_id = LocalId::None;  // the object's local id when it has one
};

class TraceSink {
 public:
  TraceSink() = default;
  TraceSink(const TraceSink&) = delete;
  TraceSink& operator=(const TraceSink&) = delete;
  virtual ~TraceSink() = default;
  virtual void on_message(const MessageRecord& record) = 0;
};

}  // namespace dereth::sim
