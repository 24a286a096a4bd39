#include "dereth/app/frame_loop.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "dereth/protocol/login.hpp"
#include "dereth/render/renderer.hpp"
#include "dereth/sim/cells/dat_landscape_loader.hpp"
#include "dereth/sim/object/digest.hpp"

namespace dereth::app {

namespace {

using SteadyClock = std::chrono::steady_clock;

double seconds_between(SteadyClock::time_point a, SteadyClock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// An output file of the run (digest, trace), opened once, truncated.
core::Result<void> open_output(std::ofstream& file, const std::filesystem::path& path) {
  if (file.is_open()) return {};
  file.open(path, std::ios::binary | std::ios::trunc);
  if (!file) return std::unexpected(core::Error{core::ErrorKind::Io, path.string(), "", 0, "cannot be written"});
  return {};
}

// Flushes an output file; an error names it when not everything was written.
core::Result<void> finish_output(std::ofstream& file, const std::filesystem::path& path) {
  file.flush();
  if (!file) {
    return std::unexpected(core::Error{core::ErrorKind::Io, path.string(), "", 0, "could not be written completely"});
  }
  return {};
}

}  // namespace

double percentile(std::vector<float> values, double p) {
  if (values.empty()) return 0.0;
  // Nearest rank: the smallest value with at least p of the values at or below it.
  const double rank = std::ceil(std::clamp(p, 0.0, 1.0) * static_cast<double>(values.size()));
  const std::size_t index = std::min(values.size() - 1, static_cast<std::size_t>(std::max(rank, 1.0)) - 1);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index), values.end());
  return static_cast<double>(values[index]);
}

FrameInfo LooseFrames::next(double now, std::optional<net::TransportStats> network) {
  if (last_ && now > *last_) {
    const double seconds = now - *last_;
    fps_ = fps_ == 0.0 ? 1.0 / seconds : 0.9 * fps_ + 0.1 / seconds;  // as FrameLoop::run
  }
  last_ = now;
  FrameInfo info;
  info.frame = frames_++;
  info.fps = fps_;
  info.network = std::move(network);
  return info;
}

FrameLoop::FrameLoop(World& world, net::MessageInbox& inbox, core::ManualClock* virtual_clock, Presenter* presenter,
                     audio::AudioSystem* audio, LoopOptions options)
    : world_(&world),
      inbox_(&inbox),
      virtual_clock_(virtual_clock),
      presenter_(presenter),
      audio_(audio),
      options_(std::move(options)) {
  // The camera asks this loop's world while the loop lives (the destructor
  // takes it back: a presenter may outlive its loop and world).
  if (presenter_ != nullptr) {
    // The renderer reads its records through the world's cache and draws
    // with the world's Region; it never decodes its own. The records first:
    // a window's warm-up frame (use_region) reads through them.
    presenter_->use_records(world_->shared_records(), world_->shared_cell_records());
    presenter_->use_region(world_->region());
    presenter_->viewer_placer = world_;
    if (auto* loader = world_->landscape_loader(); loader != nullptr)
      loader->set_render_ready(presenter_->render_ready_hook());
  }
}

FrameLoop::~FrameLoop() {
  if (presenter_ != nullptr) {
    presenter_->viewer_placer = nullptr;
    presenter_->use_records(nullptr, nullptr);
    if (auto* loader = world_->landscape_loader(); loader != nullptr) loader->set_render_ready({});
  }
  if (trace_) world_->set_trace(nullptr);  // the world outlives the trace this loop wrote
}

void FrameLoop::note_portal_trip(double now, LoopReport& report) {
  const sim::GmSmartBoxUi& ui = world_->smart_box_ui();
  const bool began = ui.teleport_in_progress() && !trip_in_progress_;  // the teleport's first tick
  trip_in_progress_ = ui.teleport_in_progress();
  if (!trip_) {
    if (!began) return;
    trip_ = PortalTrip{now, 0.0, 0.0, 0};
    trip_wall_ = SteadyClock::now();
    trip_tunnel_seen_ = false;
  }
  ++trip_->frames;
  trip_tunnel_seen_ = trip_tunnel_seen_ || ui.portal_space_visible();
  if (trip_tunnel_seen_ && !ui.portal_space_visible()) {
    trip_->sim_seconds = now - trip_->began;
    trip_->wall_seconds = seconds_between(trip_wall_, SteadyClock::now());
    report.portal_trips.push_back(*trip_);
    trip_.reset();
  }
}

void FrameLoop::record_frame(std::uint64_t frame, const FramePhases& phases) {
  FramePacing& pacing = report_.pacing;
  const double interval = phases.interval();
  const double work = phases.work();
  if (pacing.interval_ms.empty() || interval > pacing.longest.interval()) {
    pacing.longest_frame = frame;
    pacing.longest = phases;
  }
  if (pacing.work_ms.empty() || work > pacing.busiest.work()) {
    pacing.busiest_frame = frame;
    pacing.busiest = phases;
  }
  pacing.interval_ms.push_back(static_cast<float>(interval * 1000.0));
  pacing.work_ms.push_back(static_cast<float>(work * 1000.0));
}

core::Result<LoopReport> FrameLoop::run() {
  if (options_.virtual_clock && virtual_clock_ == nullptr) {
    return std::unexpected(core::Error{core::ErrorKind::Invalid, "frame loop", "clock", 0,
                                       "a virtual-clock run needs the world's manual clock"});
  }
  std::ofstream& digest = digest_;
  if (options_.digest) DERETH_CHECK(open_output(digest, *options_.digest));
  if (options_.trace && !trace_) {
    DERETH_CHECK(open_output(trace_file_, *options_.trace));
    trace_ = std::make_unique<sim::JsonlTrace>(trace_file_, &world_->context().clock());
    world_->set_trace(trace_.get());
  }
  if (options_.screenshot_every > 0 && !options_.screenshot_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(options_.screenshot_dir, ec);
    if (ec) {
      return std::unexpected(core::Error{core::ErrorKind::Io, options_.screenshot_dir.string(), "", 0,
                                         "cannot be created: " + ec.message()});
    }
  }

  // A later run() continues where the last one stopped (same clock, counters).
  LoopReport& report = report_;
  const core::RealClock real_clock;
  const SteadyClock::time_point wall_start = SteadyClock::now();
  SteadyClock::time_point last_frame = wall_start;
  std::optional<double>& inbox_finished_at = inbox_finished_at_;
  double& fps = fps_;
  const double frame_step = core::exact_frame_step(options_.frame_rate);
  if (!real_start_) real_start_ = real_clock.now().count();
  const double real_start = *real_start_;
  const double wall_before = report.wall_seconds;

  for (std::uint64_t frame = report.frames;; ++frame) {
    const SteadyClock::time_point frame_start = SteadyClock::now();
    FramePhases phases;
    if ((presenter_ != nullptr && !presenter_->poll_input()) ||
        (session_ != nullptr && session_->stop_requested())) {  // 1. input
      report.quit_by_user = true;
      break;
    }
    SteadyClock::time_point mark = SteadyClock::now();
    phases.input = seconds_between(frame_start, mark);
    // The seconds since `mark`, moving it on.
    const auto lap = [&mark] {
      const SteadyClock::time_point t = SteadyClock::now();
      const double seconds = seconds_between(mark, t);
      mark = t;
      return seconds;
    };
    // The clock for this frame.
    double now = 0.0;
    if (options_.virtual_clock) {
      now = static_cast<double>(frame) * frame_step;
      virtual_clock_->set(core::Seconds{now});
    } else {
      now = real_clock.now().count() - real_start;
    }
    // 2. inbox, in arrival order
    for (const net::SessionMessage& m : inbox_->drain(now)) {
      if (!first_arrival_) first_arrival_ = m.time;
      world_->handle(m.bytes, m.time - *first_arrival_);
    }
    // Server text the world routed for the chat panel.
    for (const protocol::ChatLine& line : world_->take_chat()) {
      if (presenter_ != nullptr) presenter_->chat(line);
      if (chat_sink_ != nullptr) chat_sink_->on_chat(line);
    }
    if (inbox_->finished() && !inbox_finished_at) inbox_finished_at = now;

    // The last TimeSync to the world's game clock, whose sky time the snapshot carries.
    if (session_ != nullptr) {
      if (const std::optional<double> sync = session_->time_sync()) world_->time_sync(*sync);
    }
    phases.inbox = lap();
    // 3 + 4. the tick and its snapshot
    const double snapshot_before = world_->stats().snapshot_seconds;
    const bool ticked = world_->step();
    phases.snapshot = world_->stats().snapshot_seconds - snapshot_before;
    phases.tick = std::max(lap() - phases.snapshot, 0.0);
    const sim::RenderSnapshot& snapshot = *world_->snapshot();
    note_portal_trip(now, report);
    bool screenshot_due = false;
    if (ticked) {
      ++report.ticks;
      if (digest) {
        const std::uint64_t effects = sim::snapshot_digest(snapshot);
        sim::write_digest_line(digest, snapshot.tick, world_->context().now(), world_->box(), &effects);
      }
      screenshot_due = options_.screenshot_every > 0 && report.ticks % options_.screenshot_every == 0;
      std::size_t particles = 0;
      for (const auto& e : snapshot.emitters) particles += e.particles.size();
      report.max_particles = std::max(report.max_particles, particles);
      // The camera follows every tick, drawn or not (and the listener is the camera).
      if (presenter_ != nullptr) presenter_->follow(snapshot);
      // 5b. audio: this tick's sound events, once.
      report.sound_events += snapshot.sounds.size();
      const audio::Listener listener = presenter_ != nullptr ? presenter_->listener() : audio::Listener{};
      // gmSmartBoxUI's portal sounds begun since the last tick, after the world's.
      const std::vector<sim::SoundEvent> ui_sounds =
          portal_sounds_.take(snapshot.portal, &world_->records(), listener.position, world_->context().now());
      report.ui_sounds += ui_sounds.size();
      if (audio_ != nullptr) {
        if (ui_sounds.empty()) {
          audio_->update(snapshot.sounds, listener, world_->context().now());
        } else {
          std::vector<sim::SoundEvent> all = snapshot.sounds;
          all.insert(all.end(), ui_sounds.begin(), ui_sounds.end());
          audio_->update(all, listener, world_->context().now());
        }
      }
    }
    const bool last_tick = options_.max_ticks && report.ticks >= *options_.max_ticks;
    const bool end_shot = last_tick && options_.screenshot_at_end;
    phases.audio = lap();
    // 5a. render
    if (presenter_ != nullptr && presenter_->wants_frame(screenshot_due || end_shot)) {
      const auto t0 = SteadyClock::now();
      FrameInfo info;
      info.frame = frame;
      info.tick = snapshot.tick;
      info.sim_time = now;
      info.fps = fps;
      info.frame_ms = last_frame_ms_;  // the whole of the last frame: input to audio, without the pacing sleep
      info.world = &world_->stats();
      info.in_world = snapshot.player != sim::LocalId::None;
      if (session_ != nullptr) info.network = session_->network_stats();
      DERETH_CHECK(presenter_->present(snapshot, info));
      report.present_seconds += seconds_between(t0, SteadyClock::now());
      if (const render::FrameTiming* timing = presenter_->last_render_timing(); timing != nullptr) {
        phases.load = timing->load;
        phases.prepare = timing->prepare;
        phases.submit = timing->submit;
        phases.finish = timing->finish;
      }
      ++report.presented;
      phases.present = lap();
      if (screenshot_due) {
        const auto path = options_.screenshot_dir / fmt::format("tick_{:06}.png", report.ticks);
        DERETH_CHECK(presenter_->screenshot(path));
        ++report.screenshots;
        ++report.periodic_screenshots;
      }
      if (end_shot) {
        DERETH_CHECK(presenter_->screenshot(*options_.screenshot_at_end));
        ++report.screenshots;
      }
    }
    // 6. outbound: the command interpreter's MoveToState / AutonomousPosition
    // from this frame's state (the session flushes acks on its own thread).
    // (5b: the screenshots' readback and PNG, apart from present; with no
    // frame presented both are 0.)
    phases.screenshot = lap();
    run_outbound(now);
    const auto frame_end = SteadyClock::now();
    phases.outbound = seconds_between(mark, frame_end);
    last_frame_ms_ = seconds_between(frame_start, frame_end) * 1000.0;
    const double frame_seconds = seconds_between(last_frame, frame_end);
    if (frame_seconds > 0) fps = fps == 0.0 ? 1.0 / frame_seconds : 0.9 * fps + 0.1 / frame_seconds;
    last_frame = frame_end;
    report.frames = frame + 1;
    report.sim_seconds = now;
    if (options_.progress != nullptr && (frame % 30) == 0) {
      if (options_.progress_of != nullptr) {
        options_.progress->progress(std::clamp(options_.progress_of->fraction_done(), 0.0, 1.0));
      } else if (options_.max_ticks) {
        options_.progress->progress(static_cast<double>(report.ticks) / static_cast<double>(*options_.max_ticks));
      }
    }
    // Stop conditions.
    const bool stop =
        last_tick || (options_.max_seconds && now >= *options_.max_seconds) ||
        (options_.stop_when_inbox_finished && inbox_finished_at && now >= *inbox_finished_at + options_.tail);
    // On the real clock a frame takes at least 1/frame_rate: the loop sleeps
    // out the rest instead of spinning (a vsynced window has waited already).
    if (!stop && !options_.virtual_clock) {
      std::this_thread::sleep_until(frame_start + std::chrono::duration_cast<SteadyClock::duration>(
                                                      std::chrono::duration<double>(1.0 / options_.frame_rate)));
      phases.sleep = seconds_between(frame_end, SteadyClock::now());
    }
    if (options_.frame_stats) record_frame(frame, phases);
    if (stop) break;
  }
  report.wall_seconds = wall_before + seconds_between(wall_start, SteadyClock::now());
  if (options_.digest) DERETH_CHECK(finish_output(digest, *options_.digest));
  if (trace_) DERETH_CHECK(finish_output(trace_file_, *options_.trace));
  if (options_.progress != nullptr) options_.progress->progress(1.0);
  return report;
}

}  // namespace dereth::app
