#include "dereth/app/headless.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <memory>

#include <fmt/format.h>

#include "dereth/app/controls.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/loopback_inbox.hpp"
#include "dereth/app/qa_report.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/byte_reader.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/net/capture_reader.hpp"
#include "dereth/net/inbox.hpp"
#include "dereth/scenario/loopback.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/sim/object/digest.hpp"
#include "dereth/sim/object/smart_box.hpp"
#include "dereth/sim/object/verdict.hpp"

namespace dereth::app {

namespace {

core::Error io_error(const std::filesystem::path& path, std::string detail) {
  return core::Error{core::ErrorKind::Io, path.string(), "", 0, std::move(detail)};
}

// The scenario run's length when none is given: the stream plus a margin.
double scenario_duration(const scenario::Scenario& scenario, double asked) {
  if (asked > 0.0) return asked;
  const double stream_end = scenario.stream.empty() ? 0.0 : scenario.stream.back().time;
  double duration = scenario.loop_period ? 3.0 * *scenario.loop_period + 2.0 : stream_end + 2.0;
  // The login, and world entry's portal space (up to 7 s): the stream starts
  // with the client's LoginComplete.
  return duration + 10.0;
}

// The one loop, headless: World + FrameLoop on a virtual clock with no
// presenter, fed by a capture (paced by its own clock) or by the scenario
// server over the in-process loopback (with the same Controls as the demo).
// A capture's progress: the records read of those it holds.
class CaptureProgress final : public ProgressSource {
 public:
  CaptureProgress(const net::CapturePlayer* player, double records) : player_(player), records_(records) {}
  [[nodiscard]] double fraction_done() const override {
    return static_cast<double>(player_->stats().records) / records_;
  }

 private:
  const net::CapturePlayer* player_;
  double records_;
};

// A scenario's progress: the simulated seconds of its duration.
class ScenarioProgress final : public ProgressSource {
 public:
  ScenarioProgress(const core::Clock& clock, double duration) : clock_(&clock), duration_(duration) {}
  [[nodiscard]] double fraction_done() const override { return clock_->now().count() / duration_; }

 private:
  const core::Clock* clock_;
  double duration_;
};

core::Result<HeadlessReport> run_loop(const HeadlessOptions& options, InputKind kind) {
  core::ManualClock clock;
  World world(clock, options.portal, options.seed);
  world.use_terrain(options.cell);
  LoopOptions lo;
  lo.virtual_clock = true;
  lo.frame_rate = options.frame_rate;
  lo.digest = options.digest;
  lo.trace = options.trace;
  HeadlessReport report;
  report.kind = kind;

  std::unique_ptr<net::MessageInbox> inbox;
  net::CapturePlayer* player = nullptr;
  LoopbackInbox* loopback = nullptr;
  std::optional<net::CaptureCheck> check;
  std::vector<scenario::InputEvent> inputs;  // the scenario's local keys
  std::optional<CaptureProgress> capture_progress;
  std::optional<ScenarioProgress> scenario_progress;
  if (kind == InputKind::Capture) {
    const auto filter = options.port ? net::CaptureFilter::port(*options.port) : net::CaptureFilter{};
    DERETH_TRY(check, net::admit_capture(options.input, filter, options.allow_truncated));
    DERETH_TRY(net::CapturePlayer opened, net::CapturePlayer::open(options.input, 1.0, filter));
    auto owned = std::make_unique<net::CapturePlayer>(std::move(opened));
    player = owned.get();
    inbox = std::move(owned);
    lo.stop_when_inbox_finished = true;
    lo.tail = options.tail;
    const double records = static_cast<double>(std::max<std::uint64_t>(check->stats.records, 1));
    lo.progress_of = &capture_progress.emplace(player, records);
  } else {
    DERETH_TRY(scenario::Scenario scenario, scenario::load_scenario_file(options.input));
    const double duration = scenario_duration(scenario, options.duration);
    inputs = scenario.inputs;
    DERETH_TRY(scenario::Loopback pair, scenario::Loopback::create(std::move(scenario)));
    auto owned = std::make_unique<LoopbackInbox>(std::move(pair));
    loopback = owned.get();
    inbox = std::move(owned);
    lo.max_seconds = duration;
    lo.progress_of = &scenario_progress.emplace(clock, duration);
  }
  lo.progress = options.progress;
  QaReport qa;  // always: it also says why a run simulated nothing
  world.set_report(&qa);
  if (options.assume_player) world.assume_player(*options.assume_player);
  FrameLoop loop(world, *inbox, &clock, nullptr, nullptr, lo);
  std::optional<Controls> controls;
  if (loopback != nullptr) {
    // The local player is the command interpreter's, as in the demo and `dereth play`.
    controls.emplace(
        world, loop, nullptr,
        [loopback](std::vector<std::uint8_t> m, std::uint16_t queue) { loopback->loopback().send(m, queue); },
        [loopback]() { return loopback->loopback().next_action_sequence(); });
    controls->schedule_inputs(inputs);
  }
  DERETH_TRY(const LoopReport run, loop.run());
  if (loopback != nullptr && loopback->loopback().state() == net::SessionState::Failed) {
    return std::unexpected(
        core::Error{core::ErrorKind::Invalid, options.input.string(), "login", 0, loopback->loopback().failure()});
  }

  world.set_report(nullptr);
  qa.set_player(world.box().player_id(), world.game_event_guid());
  if (options.report) {
    qa.set_assets_missing(world.records().missing());
    DERETH_CHECK(qa.write_file(*options.report));
  }
  const WorldStats& w = world.stats();
  report.messages = w.messages;
  report.handled = w.handled;
  report.not_object_messages = w.not_object;
  report.decode_errors = w.decode_errors;
  report.verdicts = world.verdicts();
  report.ticks = world.box().physics().tick_count();
  report.frames = run.frames;
  report.objects_at_end = world.box().objects().object_count();
  report.max_particles = run.max_particles;
  report.sound_events = run.sound_events;
  report.simulated_seconds = clock.now().count();
  report.final_digest = sim::world_digest(world.box());
  if (player != nullptr) {
    report.client_messages = player->stats().messages_c2s;
    report.note = player->checksum_note();
    report.why_empty = qa.why_empty();
    if (check && check->damage) report.note += "; " + check->damage_summary();
  } else {
    report.note = "logged in over the loopback scenario server (" + std::to_string(loopback->loopback().datagrams()) +
                  " datagrams exchanged)";
  }
  return report;
}

}  // namespace

const char* to_string(InputKind kind) noexcept {
  return kind == InputKind::Capture ? "a capture" : "a scenario";
}

core::Result<InputKind> detect_input(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return std::unexpected(io_error(path, "is a folder, not a file"));
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(io_error(path, "cannot be opened"));
  std::array<unsigned char, 4096> head{};
  in.read(reinterpret_cast<char*>(head.data()), static_cast<std::streamsize>(head.size()));
  const auto n = static_cast<std::size_t>(in.gcount());
  if (n == 0) return std::unexpected(io_error(path, "is empty"));
  if (n >= 4) {
    const std::uint32_t le = core::load_le<std::uint32_t>(head.data());
    switch (le) {
      case 0xA1B2C3D4u:  // pcap, microseconds
      case 0xD4C3B2A1u:
      case 0xA1B23C4Du:  // pcap, nanoseconds
      case 0x4D3CB2A1u:
      case 0x0A0D0D0Au:  // pcapng section header
        return InputKind::Capture;
      default: break;
    }
  }
  // A scenario is text: no NUL and no control bytes other than tab, CR, LF.
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char c = head[i];
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      return std::unexpected(
          core::Error{core::ErrorKind::Invalid, path.string(), "", 0,
                      "is neither a capture (pcap or pcapng) nor a scenario (a text file, docs/scenario.md)"});
    }
  }
  return InputKind::Scenario;
}

core::Result<HeadlessReport> run_headless(const HeadlessOptions& options) {
  if (!(options.frame_rate >= 30.0 && options.frame_rate <= 1000.0)) {
    return std::unexpected(core::Error{core::ErrorKind::Invalid, "options", "frame_rate", 0,
                                       "the frame rate must be between 30 and 1000 frames per second"});
  }
  DERETH_TRY(const InputKind kind, detect_input(options.input));
  return run_loop(options, kind);
}

}  // namespace dereth::app
