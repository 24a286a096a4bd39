#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "dereth/app/chat.hpp"
#include "dereth/app/config.hpp"
#include "dereth/app/controls.hpp"
#include "dereth/app/demo.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/headless.hpp"
#include "dereth/app/loopback_inbox.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/qa_report.hpp"
#include "dereth/app/world.hpp"
#include "dereth/audio/null_backend.hpp"
#include "dereth/audio/open_audio.hpp"
#include "dereth/core/log.hpp"
#include "dereth/core/version.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/net/pcap_recorder.hpp"
#include "dereth/net/udp_client.hpp"
#include "dereth/scenario/demo_scenario.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

#include "commands.hpp"

namespace dereth::app::commands {

// ---- replay -------------------------------------------------------------------------

namespace {

// Headless, the chat window is standard output when asked (--chat); else
// the lines are counted (a capture's spell text runs to hundreds of lines).
class CountedChat final : public ChatSink {
 public:
  CountedChat(std::ostream& out, bool show) : out_(&out), show_(show) {}
  void on_chat(const protocol::ChatLine& line) override {
    ++lines_;
    if (show_) *out_ << headless_chat_line(line) << "\n";
  }
  [[nodiscard]] std::uint64_t lines() const noexcept { return lines_; }

 private:
  std::ostream* out_;
  bool show_;
  std::uint64_t lines_ = 0;
};

// A capture as the frame loop sees it: its TimeSync headers.
class CaptureSession final : public LoopSession {
 public:
  explicit CaptureSession(const net::CapturePlayer& player) : player_(&player) {}
  std::optional<double> time_sync() override { return player_->last_time_sync(); }

 private:
  const net::CapturePlayer* player_;
};

}  // namespace

int replay(const ReplayArgs& args, const Config& config, std::ostream& out, std::ostream& err) {
  if (args.screenshot_every > 0 && args.out_dir.empty()) {
    err << "dereth: --screenshot-every needs --out DIR\n";
    return 2;
  }
  if (!(args.speed > 0.0)) {
    err << "dereth: --speed must be above 0\n";
    return 2;
  }
  auto kind = detect_input(args.file);
  if (!kind) {
    err << "dereth: " << kind.error().message() << "\n";
    return 1;
  }
  if (*kind != InputKind::Capture) {
    err << "dereth: " << args.file << " is not a pcap or pcapng capture\n";
    return 1;
  }
  const auto filter = args.port ? net::CaptureFilter::port(*args.port) : net::CaptureFilter{};
  auto check = net::admit_capture(args.file, filter, args.allow_truncated);
  if (!check) {
    err << "dereth: " << check.error().message() << "\n";
    return 1;
  }
  auto player = net::CapturePlayer::open(args.file, args.speed, filter);
  if (!player) {
    err << "dereth: " << player.error().message() << "\n";
    return 1;
  }
  const bool want_pictures = args.screenshot_every > 0;
  bool headless = args.headless || !display_available();
  if (!args.headless && headless) err << "dereth: no display: replaying headless\n";
  // The same DATs in a window, headless and with pictures, and the same as
  // dereth-sim's (the folder named, else the embedded demo world), so their
  // digests agree.
  std::optional<Dats> dats;
  if (!args.no_dats) {
    auto opened = open_dats(config.dats_folder, err);
    if (!opened) {
      err << "dereth: cannot open the DATs: " << opened.error().message() << "\n";
      return 1;
    }
    dats = std::move(*opened);
  }
  const dat::DatFile* portal = dats ? dats->portal_ptr() : nullptr;
  const dat::DatFile* cell = dats ? dats->cell_ptr() : nullptr;

  std::unique_ptr<Presenter> presenter;
  if (!headless) {
    WindowOptions wo = window_options(config, "dereth replay - " + fs::path(args.file).filename().string());
    wo.loading_bar = false;  // no login to wait for
    auto created = WindowPresenter::create(portal, cell, wo);
    if (!created) {
      err << "dereth: cannot open a window (" << created.error().message() << "): replaying headless\n";
      headless = true;
    } else {
      presenter = std::move(*created);
    }
  }
  if (headless && want_pictures) {
    OffscreenOptions oo;
    oo.width = config.window_width;
    oo.height = config.window_height;
    auto created = OffscreenPresenter::create(portal, cell, oo);
    if (!created) {
      err << "dereth: cannot render headless: " << created.error().message() << "\n";
      return 1;
    }
    presenter = std::move(*created);
  }
  core::ManualClock virtual_clock;
  core::RealClock real_clock;
  const bool virtual_time = args.fast;
  World world(virtual_time ? static_cast<const core::Clock&>(virtual_clock) : real_clock, portal);
  world.use_terrain(cell);
  std::unique_ptr<audio::AudioSystem> sound;
  if (!headless) sound = std::make_unique<audio::AudioSystem>(make_audio_backend(config, err), &world.records());
  LoopOptions lo;
  lo.virtual_clock = virtual_time;
  lo.stop_when_inbox_finished = true;
  lo.max_ticks = args.ticks;
  if (!args.digest.empty()) lo.digest = fs::path(args.digest);
  if (!args.trace.empty()) lo.trace = fs::path(args.trace);
  lo.screenshot_every = args.screenshot_every;
  lo.screenshot_dir = args.out_dir;
  QaReport qa;  // always: it also says why a replay simulated nothing
  world.set_report(&qa);
  FrameLoop loop(world, *player, virtual_time ? &virtual_clock : nullptr, presenter.get(), sound.get(), lo);
  CountedChat chat(out, args.chat);
  if (headless) loop.set_chat_sink(&chat);
  // The capture's TimeSync headers drive the game clock, as the live server's did.
  CaptureSession capture(*player);
  loop.set_session(&capture);
  auto report = loop.run();
  world.set_report(nullptr);
  qa.set_player(world.box().player_id(), world.game_event_guid());
  if (report && !args.report.empty()) {
    qa.set_assets_missing(world.records().missing());
    if (auto written = qa.write_file(args.report); !written) {
      err << "dereth: " << written.error().message() << "\n";
      return 1;
    }
  }
  if (!report) {
    err << "dereth: " << report.error().message() << "\n";
    return 1;
  }
  print_report(out, "replay", *report, world);
  const auto& cs = player->stats();
  out << fmt::format("capture: packets={} fragments={} messages_s2c={} messages_c2s={} framing_errors={}{}\n",
                     cs.packets, cs.fragments, cs.messages_s2c, cs.messages_c2s, cs.framing_errors,
                     report->screenshots > 0 ? fmt::format(" screenshots={}", report->screenshots) : "");
  if (check->damage) out << "dereth: " << check->damage_summary() << "\n";
  if (headless && !args.chat && chat.lines() > 0) {
    err << "dereth: " << chat.lines() << " chat lines not shown (--chat prints them)\n";
  }
  if (const std::string why = qa.why_empty(QaReport::AssumeHint::DerethSim); !why.empty()) {
    err << "dereth: " << why << "\n";
  }
  return 0;
}

}  // namespace dereth::app::commands
