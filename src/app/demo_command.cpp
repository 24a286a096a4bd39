#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

#include <fmt/format.h>

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

// ---- demo ---------------------------------------------------------------------------

int demo(const DemoArgs& args, const Config& config, std::ostream& out, std::ostream& err) {
  auto dats = open_dats(config.dats_folder, err);
  if (!dats) {
    err << "dereth: cannot open the DATs: " << dats.error().message() << "\n";
    return 1;
  }
  bool headless = args.headless;
  if (!args.record_frames.empty() && !headless) {
    // Recording needs the virtual clock: every tick drawn, the same frames every run.
    err << "dereth: --record-frames records the headless demo: add --headless\n";
    return 2;
  }
  if (!headless && !display_available()) {
    err << "dereth: no display (neither DISPLAY nor WAYLAND_DISPLAY is set): running the demo headless\n";
    headless = true;
  }
  std::unique_ptr<WindowPresenter> window;
  if (!headless) {
    const WindowOptions wo = window_options(config, "dereth demo");
    auto created = WindowPresenter::create(dats->portal_ptr(), dats->cell_ptr(), wo);
    if (!created) {
      err << "dereth: cannot open a window (" << created.error().message() << "): running the demo headless\n";
      headless = true;
    } else {
      window = std::move(*created);
      window->rig().set_framing(demo_camera_framing());
    }
  }

  if (headless) {
    // In-process loopback on a virtual clock: the same frames every run.
    HeadlessDemoOptions ho;
    ho.width = config.window_width;
    ho.height = config.window_height;
    ho.render_every_frame = args.stats;
    ho.portal = dats->portal_ptr();
    ho.cell = dats->cell_ptr();
    if (!args.trace.empty()) ho.trace = fs::path(args.trace);
    if (!args.record_frames.empty()) ho.record_frames = fs::path(args.record_frames);
    ho.record_every = args.record_every;
    auto run = HeadlessDemo::create(ho);
    if (!run) {
      err << "dereth: cannot run the demo headless: " << run.error().message() << "\n";
      return 1;
    }
    const fs::path shot = args.screenshot.empty() ? fs::path("dereth-demo.png") : fs::path(args.screenshot);
    if (auto done = (*run)->run_to_tick(args.ticks.value_or(kDemoDefaultTicks), shot); !done) {
      err << "dereth: " << done.error().message() << "\n";
      return 1;
    }
    print_report(out, "demo", (*run)->report(), (*run)->world());
    if (args.stats) {
      print_timing(out, (*run)->report(), (*run)->world(), &(*run)->presenter().renderer(), ho.width, ho.height);
      print_pacing(out, (*run)->report());
      out << "gl: " << (*run)->presenter().gl_description() << "\n";
    }
    std::error_code ec;
    if (!args.record_frames.empty()) {
      out << fmt::format("dereth: {} frames ({}x{}, every {} tick{}) are in {}\n",
                         (*run)->report().periodic_screenshots, ho.width, ho.height, args.record_every,
                         args.record_every == 1 ? "" : "s", fs::absolute(args.record_frames, ec).string());
    }
    out << "dereth: the demo's picture is in " << fs::absolute(shot, ec).string() << "\n";
    return 0;
  }

  // A window: the scenario server on loopback UDP, dereth's client over the real protocol,
  // logging in with the scenario's first account.
  auto parsed = scenario::demo_scenario();
  if (!parsed) {
    err << "dereth: the embedded demo scenario does not parse: " << parsed.error().message() << "\n";
    return 1;
  }
  // The scripted walk plays in the window too (the player's keys take over).
  const std::vector<scenario::InputEvent> inputs = parsed->inputs;
  net::UdpClientOptions co;
  if (!parsed->accounts.empty()) {
    co.session.account = parsed->accounts.front().name;
    co.session.password = parsed->accounts.front().password;
  }
  scenario::UdpServerOptions server_options;
  server_options.server = demo_server_config(dats->portal_ptr());
  scenario::UdpScenarioServer server(std::move(*parsed), std::move(server_options));
  if (auto started = server.start(); !started) {
    err << "dereth: cannot start the demo's scenario server: " << started.error().message() << "\n";
    return 1;
  }
  co.host = "127.0.0.1";
  co.port = server.port();
  co.session.server_name = fmt::format("the demo server on 127.0.0.1:{}", server.port());
  auto client = net::UdpClient::connect(co);
  if (!client) {
    err << "dereth: cannot reach the demo server: " << client.error().message() << "\n";
    return 1;
  }
  LoopOptions lo;
  lo.max_ticks = args.ticks;
  lo.frame_stats = args.stats;
  if (window) {
    // Headless stays inline over retail's whole grid (its digests and pictures).
    lo.stream_workers = config.stream_workers;
    lo.landscape_radius = config.landscape_radius;
  }
  if (!args.screenshot.empty()) lo.screenshot_at_end = fs::path(args.screenshot);
  if (!args.trace.empty()) lo.trace = fs::path(args.trace);
  return run_live("demo", **client, dats->portal_ptr(), dats->cell_ptr(), window.get(), make_audio_backend(config, err),
                  std::move(lo), out, err, {}, inputs);
}

}  // namespace dereth::app::commands
