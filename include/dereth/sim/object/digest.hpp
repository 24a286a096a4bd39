#pragma once
// Per-tick state digests and the JSON-lines trace of a headless run
// (docs/trace.md). Both are deterministic: the same message stream on the
// same clock writes the same bytes.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>

#include "dereth/core/clock.hpp"
#include "dereth/sim/effects/effects.hpp"
#include "dereth/sim/object/verdict.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::sim {

class PhysicsObj;
class SmartBox;

// FNV-1a, 64 bit: the digest's hash (stable across platforms and runs).
class Fnv1a64 {
 public:
  void bytes(const void* data, std::size_t size) noexcept;
  void u32(std::uint32_t v) noexcept { bytes(&v, sizeof v); }
  void u64(std::uint64_t v) noexcept { bytes(&v, sizeof v); }
  void f32(float v) noexcept { bytes(&v, sizeof v); }  // by bits: NaN payloads and -0 count
  void f64(double v) noexcept { bytes(&v, sizeof v); }
  [[nodiscard]] std::uint64_t value() const noexcept { return h_; }

 private:
  std::uint64_t h_ = 0xCBF29CE484222325ull;
};

// One object's digest input: GUID, local id, the nine stamps, state and
// transient state, cell, frame (origin and rotation), velocity, omega.
void hash_object(Fnv1a64& h, const PhysicsObj& object);
// Every live object in local-id order.
[[nodiscard]] std::uint64_t world_digest(const SmartBox& box);
// The presentation part of a render snapshot: every part pose, emitter and
// particle, light and sound event (objects' physics are in world_digest).
[[nodiscard]] std::uint64_t snapshot_digest(const RenderSnapshot& snapshot);

// {"tick":N,"time":T,"objects":K,"hash":"0x...","effects":"0x..."}
// (`effects` only when a snapshot digest is given).
void write_digest_line(std::ostream& out, std::uint64_t tick, core::Seconds time, const SmartBox& box,
                       const std::uint64_t* effects_hash = nullptr);

// The trace: one line per handled message (TraceSink), one per effects
// event (EffectsTraceSink: script resolutions and enqueues, hooks, emitter
// lifetimes) and, on each write_tick, one line per live object
// (docs/trace.md). `clock` stamps the effects lines that carry no time of
// their own; it may be null (time 0).
class JsonlTrace : public TraceSink, public EffectsTraceSink {
 public:
  explicit JsonlTrace(std::ostream& out, const core::Clock* clock = nullptr) : out_(&out), clock_(clock) {}
  void on_message(const MessageRecord& record) override;
  void on_script_resolved(LocalId owner, std::uint32_t table, std::uint32_t script_type, float intensity,
                          std::uint32_t chosen) override;
  void on_script_enqueued(LocalId owner, std::uint32_t script, core::Seconds start) override;
  void on_hook_executed(LocalId owner, dat::HookType type, core::Seconds time) override;
  void on_emitter(LocalId owner, std::uint32_t emitter_info_id, std::uint32_t emitter_id, EmitterEvent event) override;
  void write_tick(std::uint64_t tick, core::Seconds time, const SmartBox& box);
  // {"kind":"chat","time":T,"channel":...,"sender":...,"text":...}
  void write_chat(core::Seconds time, std::string_view channel, std::string_view sender, std::string_view text);
  // When the message being handled arrived (seconds since the input's first
  // message); message lines carry it as "arrival" beside the frame "time".
  void set_arrival(std::optional<double> arrival) noexcept { arrival_ = arrival; }
  [[nodiscard]] std::ostream& stream() const noexcept { return *out_; }

 private:
  [[nodiscard]] double now() const { return clock_ != nullptr ? clock_->now().count() : 0.0; }
  std::ostream* out_;
  const core::Clock* clock_;
  std::optional<double> arrival_;
};

}  // namespace dereth::sim
