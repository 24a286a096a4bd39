#pragma once
// The headless run: a capture or a scenario through the one World and
// FrameLoop (the same as the demo's, `dereth play`'s and `dereth replay`'s)
// with no presenter, on a virtual clock as fast as the CPU allows, with an
// optional per-tick digest and trace (docs/trace.md). `dereth-sim` is a thin
// command line over it.

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "dereth/app/frame_hooks.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/error.hpp"
#include "dereth/sim/object/verdict.hpp"

namespace dereth::dat {
class DatFile;
}

namespace dereth::app {

enum class InputKind : std::uint8_t { Capture, Scenario };

// By content: pcap / pcapng by their magic numbers, a scenario when the file
// is text. An empty file, a folder or other bytes is an error (one sentence
// naming the file; the bytes are never echoed).
[[nodiscard]] core::Result<InputKind> detect_input(const std::filesystem::path& path);
[[nodiscard]] const char* to_string(InputKind kind) noexcept;

struct HeadlessOptions {
  std::filesystem::path input;
  std::optional<std::filesystem::path> digest;  // one JSON line per tick
  std::optional<std::filesystem::path> trace;   // message verdicts and per-tick object state
  std::optional<std::filesystem::path> report;  // the QA report (app/qa_report.hpp, docs/trace.md)
  // Frames per simulated second: SmartBox::use_time runs once per frame and
  // the physics ticks whenever 1/30 s has passed (CPhysics::UseTime).
  double frame_rate = 60.0;
  // Scenario input: simulated seconds to run. 0: until the stream has played
  // plus 2 s (a looping stream: three periods).
  double duration = 0.0;
  // Capture input: simulated seconds to keep ticking after the last message.
  double tail = 1.0;
  std::uint32_t seed = 1;
  // Capture input: only server ports N and N+1 (default: found by the protocol).
  std::optional<std::uint16_t> port;
  // Capture input: replay a damaged capture up to the damage (else an error).
  bool allow_truncated = false;
  // Capture input: take this GUID as the player before the first message (a
  // capture that starts after world entry has no PlayerCreate).
  std::optional<std::uint32_t> assume_player;
  const dat::DatFile* portal = nullptr;  // DAT data for the objects (optional)
  const dat::DatFile* cell = nullptr;    // the landblocks objects collide with (optional, needs the portal)
  // Told now and then the fraction done (0..1); null: not told. Not owned.
  ProgressSink* progress = nullptr;
};

struct HeadlessReport {
  InputKind kind = InputKind::Capture;
  std::uint64_t messages = 0;                           // messages the run saw from the server
  std::uint64_t handled = 0;                            // decoded and given to the SmartBox
  std::uint64_t not_object_messages = 0;                // opcodes the SmartBox does not take (chat, login, ...)
  std::uint64_t decode_errors = 0;                      // of a decoded kind, but malformed: dropped and counted
  std::uint64_t client_messages = 0;                    // client-to-server messages in a capture (not simulated)
  std::array<std::uint64_t, kVerdictCount> verdicts{};  // by sim::Verdict, replays included
  std::uint64_t ticks = 0;
  std::uint64_t frames = 0;
  std::size_t objects_at_end = 0;
  std::size_t max_particles = 0;   // most live particles published after one tick
  std::uint64_t sound_events = 0;  // sound events published
  double simulated_seconds = 0.0;
  std::uint64_t final_digest = 0;
  std::string note;  // one sentence about the input (checksum verification, login)
  // Capture input that simulated nothing: why, in one sentence (QaReport::why_empty); else "".
  std::string why_empty;
};

[[nodiscard]] core::Result<HeadlessReport> run_headless(const HeadlessOptions& options);

}  // namespace dereth::app
