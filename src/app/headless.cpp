#include "dereth/app/headless.hpp"

#include <array>
#include <cmath>
#include <fstream>
#include <memory>

#include "dereth/core/clock.hpp"
#include "dereth/net/capture_reader.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/scenario/loopback.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/sim/digest.hpp"
#include "dereth/sim/effects.hpp"
#include "dereth/sim/snapshot_builder.hpp"
#include "dereth/sim/physics_obj.hpp"
#include "dereth/sim/sim_context.hpp"
#include "dereth/sim/smart_box.hpp"

namespace dereth::app {

namespace {

core::Error io_error(const std::filesystem::path& path, std::string detail) {
  return core::Error{core::ErrorKind::Io, path.string(), "", 0, std::move(detail)};
}

// Counts verdicts and forwards to the trace when one is written.
class CountingSink final : public sim::TraceSink {
 public:
  CountingSink(HeadlessReport& report, sim::JsonlTrace* trace) : report_(&report), trace_(trace) {}
  void on_message(const sim::MessageRecord& record) override {
    const auto index = static_cast<std::size_t>(record.verdict);
    if (index < report_->verdicts.size()) ++report_->verdicts[index];
    if (trace_ != nullptr) trace_->on_message(record);
  }

 private:
  HeadlessReport* report_;
  sim::JsonlTrace* trace_;
};

class Runner {
 public:
  explicit Runner(const HeadlessOptions& options)
      : options_(options), context_(clock_, options.seed), effects_(options.portal), box_(context_) {
    context_.set_effects(&effects_);
  }

  core::Result<void> open_outputs() {
    if (options_.digest) {
      digest_.open(*options_.digest, std::ios::binary | std::ios::trunc);
      if (!digest_) return std::unexpected(io_error(*options_.digest, "cannot be written"));
    }
    if (options_.trace) {
      trace_file_.open(*options_.trace, std::ios::binary | std::ios::trunc);
      if (!trace_file_) return std::unexpected(io_error(*options_.trace, "cannot be written"));
      trace_.emplace(trace_file_, &clock_);
      effects_.set_trace_sink(&*trace_);
    }
    sink_.emplace(report_, trace_ ? &*trace_ : nullptr);
    box_.set_trace_sink(&*sink_);
    return {};
  }

  // Runs every frame whose time is at or before `t`.
  void frames_until(double t) {
    while (frame_time(frame_) <= t) {
      clock_.set(core::Seconds{frame_time(frame_)});
      step_frame();
      ++frame_;
    }
  }

  void handle(const std::vector<std::uint8_t>& bytes, double t) {
    ++report_.messages;
    if (t > clock_.now().count()) clock_.set(core::Seconds{t});
    if (!protocol::is_decoded_opcode(protocol::peek_opcode(bytes))) {
      ++report_.not_object_messages;
      return;
    }
    auto decoded = protocol::decode_message(bytes);
    if (!decoded) {
      ++report_.decode_errors;
      return;
    }
    ++report_.handled;
    box_.handle(*decoded);
  }

  core::Result<void> finish() {
    report_.frames = frame_;
    report_.ticks = box_.physics().tick_count();
    report_.objects_at_end = box_.objects().object_count();
    report_.simulated_seconds = clock_.now().count();
    report_.final_digest = sim::world_digest(box_);
    if (options_.digest) {
      digest_.flush();
      if (!digest_) return std::unexpected(io_error(*options_.digest, "could not be written completely"));
    }
    if (options_.trace) {
      trace_file_.flush();
      if (!trace_file_) return std::unexpected(io_error(*options_.trace, "could not be written completely"));
    }
    return {};
  }

  HeadlessReport& report() { return report_; }
  // Frame k's time. The step is a nanosecond longer than 1/frame_rate so
  // that rounding never makes two frames 1/30 s apart look closer than
  // MIN_QUANTUM (the physics then ticks every frame at 30 Hz, every second
  // frame at 60 Hz, without drift worth the name).
  [[nodiscard]] double frame_time(std::uint64_t k) const {
    return static_cast<double>(k) * (1.0 / options_.frame_rate + 1e-9);
  }

 private:
  void step_frame() {
    const std::uint64_t before = box_.physics().tick_count();
    box_.use_time();
    const std::uint64_t tick = box_.physics().tick_count();
    if (tick == before) return;
    // The world publishes its snapshot after every tick, as the app does.
    const sim::SnapshotPtr snapshot = sim::build_render_snapshot(box_, tick);
    std::size_t particles = 0;
    for (const auto& e : snapshot->emitters) particles += e.particles.size();
    report_.max_particles = std::max(report_.max_particles, particles);
    report_.sound_events += snapshot->sounds.size();
    if (options_.digest) {
      const std::uint64_t effects = sim::snapshot_digest(*snapshot);
      sim::write_digest_line(digest_, tick, clock_.now(), box_, &effects);
    }
    if (trace_) trace_->write_tick(tick, clock_.now(), box_);
  }

  const HeadlessOptions& options_;
  core::ManualClock clock_;
  sim::SimContext context_;
  sim::Effects effects_;
  sim::SmartBox box_;
  HeadlessReport report_;
  std::ofstream digest_;
  std::ofstream trace_file_;
  std::optional<sim::JsonlTrace> trace_;
  std::optional<CountingSink> sink_;
  std::uint64_t frame_ = 0;
};

core::Result<HeadlessReport> run_capture(const HeadlessOptions& options) {
  const auto filter = options.port ? net::CaptureFilter::port(*options.port) : net::CaptureFilter{};
  DERETH_TRY(const net::CaptureCheck check, net::admit_capture(options.input, filter, options.allow_truncated));
  auto replay = net::CaptureReplay::open(options.input, filter);
  if (!replay) return std::unexpected(replay.error());
  // The capture's length for progress: its file size is the honest measure.
  std::error_code ec;
  const auto file_size = std::filesystem::file_size(options.input, ec);
  Runner runner(options);
  DERETH_CHECK(runner.open_outputs());
  runner.report().kind = InputKind::Capture;
  std::optional<double> start;
  double last = 0.0;
  std::uint64_t seen = 0;
  while (auto m = replay->next_message()) {
    if (!start) start = m->time;
    const double t = std::max(last, m->time - *start);  // a capture clock that steps back is held
    last = t;
    if (!m->server_to_client) {
      ++runner.report().client_messages;
      continue;
    }
    runner.frames_until(t);
    runner.handle(m->bytes, t);
    if (options.progress && (++seen % 256) == 0 && file_size > 0) {
      options.progress(std::min(1.0, static_cast<double>(replay->stats().records) /
                                         std::max(1.0, static_cast<double>(file_size) / 200.0)));
    }
  }
  runner.frames_until(last + options.tail);
  runner.report().note = replay->checksum_note();
  if (check.damage) {
    runner.report().note += "; read " + std::to_string(check.stats.records) + " records (" +
                            std::to_string(check.stats.bytes_read) + " bytes) before the damage: " +
                            check.damage->message();
  }
  DERETH_CHECK(runner.finish());
  if (options.progress) options.progress(1.0);
  return runner.report();
}

core::Result<HeadlessReport> run_scenario(const HeadlessOptions& options) {
  DERETH_TRY(scenario::Scenario scenario, scenario::load_scenario_file(options.input));
  double duration = options.duration;
  if (duration <= 0.0) {
    const double stream_end = scenario.stream.empty() ? 0.0 : scenario.stream.back().time;
    duration = scenario.loop_period ? 3.0 * *scenario.loop_period + 2.0 : stream_end + 2.0;
    duration += 3.0;  // the login and world entry before the stream starts
  }
  DERETH_TRY(scenario::Loopback loopback, scenario::Loopback::create(std::move(scenario)));
  Runner runner(options);
  DERETH_CHECK(runner.open_outputs());
  runner.report().kind = InputKind::Scenario;
  std::uint64_t k = 0;
  for (;; ++k) {
    const double t = runner.frame_time(k);
    if (t > duration) break;
    for (const net::SessionMessage& m : loopback.advance(t)) runner.handle(m.bytes, t);
    if (loopback.state() == net::SessionState::Failed) {
      return std::unexpected(core::Error{core::ErrorKind::Invalid, options.input.string(), "login", 0,
                                         loopback.failure()});
    }
    runner.frames_until(t);
    if (options.progress && (k % 60) == 0) options.progress(t / duration);
  }
  runner.report().note = "logged in over the loopback scenario server (" +
                         std::to_string(loopback.datagrams()) + " datagrams exchanged)";
  DERETH_CHECK(runner.finish());
  if (options.progress) options.progress(1.0);
  return runner.report();
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
    const std::uint32_t le = static_cast<std::uint32_t>(head[0]) | (static_cast<std::uint32_t>(head[1]) << 8) |
                             (static_cast<std::uint32_t>(head[2]) << 16) |
                             (static_cast<std::uint32_t>(head[3]) << 24);
    switch (le) {
      case 0xA1B2C3D4u:  // pcap, microseconds
      case 0xD4C3B2A1u:
      case 0xA1B23C4Du:  // pcap, nanoseconds
      case 0x4D3CB2A1u:
      case 0x0A0D0D0Au:  // pcapng section header
        return InputKind::Capture;
      default:
        break;
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
  return kind == InputKind::Capture ? run_capture(options) : run_scenario(options);
}

}  // namespace dereth::app
