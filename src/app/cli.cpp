#include "dereth/app/cli.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

#include <termios.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
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
#include "dereth/dat/demo_world.hpp"
#include "dereth/net/pcap_recorder.hpp"
#include "dereth/net/udp_client.hpp"
#include "dereth/scenario/demo_scenario.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"
#include "dereth/sim/command_interpreter.hpp"

namespace dereth::app {

namespace {

namespace fs = std::filesystem;

// The headless demo's length: 8 s of world time after the login (the world
// entry, several projectiles launching, flying and exploding, and the recall).
constexpr std::uint64_t kDemoDefaultTicks = 240;

// The DATs a run reads: a folder's client_portal.dat and client_cell_1.dat,
// or the embedded demo world built in memory.
struct Dats {
  std::optional<dat::DatFile> portal;
  std::optional<dat::DatFile> cell;
  std::string description;
  [[nodiscard]] const dat::DatFile* portal_ptr() const { return portal ? &*portal : nullptr; }
  [[nodiscard]] const dat::DatFile* cell_ptr() const { return cell ? &*cell : nullptr; }
};

core::Result<Dats> open_dats(const fs::path& folder, std::ostream& err) {
  Dats d;
  if (folder.empty()) {
    err << "dereth: building the embedded demo world...\n";
    DERETH_TRY(dat::demo::DemoWorld world, dat::demo::build_demo_world());
    DERETH_TRY(d.portal, dat::DatFile::from_bytes(std::move(world.portal), "demo client_portal.dat"));
    DERETH_TRY(d.cell, dat::DatFile::from_bytes(std::move(world.cell), "demo client_cell_1.dat"));
    d.description = "the embedded demo world";
    return d;
  }
  err << "dereth: opening the DATs in " << folder.string() << "...\n";
  DERETH_TRY(d.portal, dat::DatFile::open(folder / "client_portal.dat"));
  auto cell = dat::DatFile::open(folder / "client_cell_1.dat");
  if (cell) {
    d.cell = std::move(*cell);
  } else {
    err << "dereth: no terrain: " << cell.error().message() << "\n";
  }
  d.description = folder.string();
  return d;
}

// Reads a password from the terminal without echoing it (a plain line when
// stdin is not a terminal).
std::string prompt_password(const std::string& account, std::ostream& err) {
  err << "password for " << account << ": " << std::flush;
  std::string password;
  termios saved{};
  const bool tty = isatty(STDIN_FILENO) != 0 && tcgetattr(STDIN_FILENO, &saved) == 0;
  if (tty) {
    termios quiet = saved;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
  }
  std::getline(std::cin, password);
  if (tty) {
    tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    err << "\n";
  }
  return password;
}

bool read_password(const std::string& path, std::string& out) {
  std::ifstream in(path);
  if (!in) return false;
  std::getline(in, out);
  if (!out.empty() && out.back() == '\r') out.pop_back();
  return true;
}

// Whether a window can be opened here at all (X11 or Wayland, or an explicit SDL driver).
bool display_available() {
  const char* driver = std::getenv("SDL_VIDEODRIVER");
  if (driver != nullptr && *driver != '\0') return true;
  const char* x = std::getenv("DISPLAY");
  const char* wl = std::getenv("WAYLAND_DISPLAY");
  return (x != nullptr && *x != '\0') || (wl != nullptr && *wl != '\0');
}

std::unique_ptr<audio::AudioSystem> make_audio(bool headless, const Config& config, const Dats& dats,
                                               std::ostream& err) {
  if (headless || !config.audio) {
    return std::make_unique<audio::AudioSystem>(std::make_unique<audio::NullBackend>(), dats.portal_ptr());
  }
  audio::AudioOptions o;
  o.device = config.audio_device;
  o.sound.effect_volume = config.volume;
  audio::OpenedAudio opened = audio::open_audio(o);
  if (!opened.fallback_reason.empty()) err << "dereth: no sound: " << opened.fallback_reason << "\n";
  return std::make_unique<audio::AudioSystem>(std::move(opened.backend), dats.portal_ptr());
}

WindowOptions window_options(const Config& config, std::string title) {
  WindowOptions wo;
  wo.width = config.window_width;
  wo.height = config.window_height;
  wo.fullscreen = config.fullscreen;
  wo.vsync = config.vsync;
  wo.hud = config.hud;
  wo.title = std::move(title);
  wo.free_camera = config.camera_mode == CameraMode::Free;
  wo.mouse_sensitivity = config.mouse_sensitivity;
  return wo;
}

void print_report(std::ostream& out, const std::string& what, const LoopReport& r, const World& world) {
  const WorldStats& w = world.stats();
  out << fmt::format(
      "{}: messages={} handled={} not_object={} decode_errors={} ticks={} frames={} simulated_s={:.2f} "
      "objects={} sound_events={}\n",
      what, w.messages, w.handled, w.not_object, w.decode_errors, r.ticks, r.frames, r.sim_seconds,
      world.snapshot()->objects.size(), r.sound_events);
}

void print_timing(std::ostream& out, const LoopReport& r, const World& world, const render::Renderer* renderer,
                  int width, int height) {
  if (r.presented == 0) return;
  const double frames = static_cast<double>(r.presented);
  const WorldStats& w = world.stats();
  out << fmt::format("frame time at {}x{}: {:.2f} ms per presented frame ({} frames)\n", width, height,
                     r.present_seconds * 1000.0 / frames, r.presented);
  out << fmt::format("cpu per frame: tick {:.3f} ms, snapshot {:.3f} ms (per tick: {:.3f} ms, {:.3f} ms)\n",
                     w.tick_seconds * 1000.0 / static_cast<double>(std::max<std::uint64_t>(r.frames, 1)),
                     w.snapshot_seconds * 1000.0 / static_cast<double>(std::max<std::uint64_t>(r.frames, 1)),
                     w.tick_seconds * 1000.0 / static_cast<double>(std::max<std::uint64_t>(r.ticks, 1)),
                     w.snapshot_seconds * 1000.0 / static_cast<double>(std::max<std::uint64_t>(r.ticks, 1)));
  if (renderer != nullptr) {
    const auto& t = renderer->timing_totals();
    const double n = static_cast<double>(std::max<std::uint64_t>(t.frames, 1));
    out << fmt::format(
        "render per frame: load {:.3f} ms, prepare {:.3f} ms, submit {:.3f} ms, finish (rasterise) {:.3f} ms, "
        "readback {:.3f} ms\n",
        t.sum.load * 1000.0 / n, t.sum.prepare * 1000.0 / n, t.sum.submit * 1000.0 / n, t.sum.finish * 1000.0 / n,
        t.sum.readback * 1000.0 / n);
    const auto& st = renderer->stats();
    out << fmt::format(
        "last frame drew: {} objects ({} skipped), {} parts ({} missing), {} markers, {} particles, {} terrain "
        "blocks, {} lights, {} draw calls, {} triangles\n",
        st.objects, st.objects_skipped, st.parts_drawn, st.parts_missing, st.markers, st.particles_drawn,
        st.terrain_blocks, st.lights, st.draw_calls, st.triangles);
  }
}

// A number in [lo, hi], said in plain numbers when it is not ("--ticks: 0 is
// outside 1..10000000 (ticks)").
CLI::Validator in_range(double lo, double hi, std::string unit) {
  return CLI::Validator(
      [lo, hi, unit](std::string& text) -> std::string {
        double v = 0.0;
        try {
          std::size_t used = 0;
          v = std::stod(text, &used);
          if (used != text.size()) throw std::invalid_argument(text);
        } catch (...) {
          return fmt::format("\"{}\" is not a number", text);
        }
        if (!(v >= lo && v <= hi)) return fmt::format("{} is outside {}..{} ({})", text, lo, hi, unit);
        return {};
      },
      fmt::format("{}..{}", lo, hi));
}

constexpr double kMaxTicks = 10'000'000;  // about 92 hours at 30 ticks a second

// ---- demo ---------------------------------------------------------------------------

struct DemoArgs {
  bool headless = false;
  std::optional<std::uint64_t> ticks;
  std::string screenshot;
  std::string trace;
  bool stats = false;
};

int demo(const DemoArgs& args, const Config& config, std::ostream& out, std::ostream& err) {
  auto dats = open_dats(config.dats_folder, err);
  if (!dats) {
    err << "dereth: cannot open the DATs: " << dats.error().message() << "\n";
    return 1;
  }
  bool headless = args.headless;
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
      out << "gl: " << (*run)->presenter().gl_description() << "\n";
    }
    std::error_code ec;
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
  net::UdpClientOptions co;
  if (!parsed->accounts.empty()) {
    co.session.account = parsed->accounts.front().name;
    co.session.password = parsed->accounts.front().password;
  }
  scenario::UdpScenarioServer server(std::move(*parsed));
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
  core::RealClock clock;
  World world(clock, dats->portal_ptr());
  auto sound = make_audio(false, config, *dats, err);
  LoopOptions lo;
  lo.virtual_clock = false;
  lo.max_ticks = args.ticks;
  lo.stop_when_inbox_finished = true;  // the session ending ends the run
  lo.tail = 0.0;
  if (!args.screenshot.empty()) lo.screenshot_at_end = fs::path(args.screenshot);
  if (!args.trace.empty()) lo.trace = fs::path(args.trace);
  FrameLoop loop(world, **client, nullptr, window.get(), sound.get(), lo);
  net::UdpClient& session = **client;
  Controls controls(world, loop, window.get(),
                    [&session](std::vector<std::uint8_t> m, std::uint16_t queue) { session.send_message(std::move(m), queue); },
                    [&session]() { return session.next_action_sequence(); });
  loop.network_stats = [&client]() -> std::optional<net::TransportStats> { return (*client)->status().transport; };
  auto report = loop.run();
  const std::string failure = (*client)->status().failure;
  (*client)->logout();
  if (!report) {
    err << "dereth: " << report.error().message() << "\n";
    return 1;
  }
  print_report(out, "demo", *report, world);
  if (!failure.empty()) {
    err << "dereth: " << failure << "\n";
    return 1;
  }
  return 0;
}

// ---- replay -------------------------------------------------------------------------

struct ReplayArgs {
  std::string file;
  bool fast = false;
  double speed = 1.0;
  bool headless = false;
  std::string digest;
  std::string trace;
  std::string report;
  std::uint64_t screenshot_every = 0;
  std::string out_dir;
  std::optional<std::uint64_t> ticks;
  std::optional<std::uint16_t> port;
  bool allow_truncated = false;
};

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
  std::optional<Dats> dats;
  if (!config.dats_folder.empty() || want_pictures || !headless) {
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
  render::Renderer* renderer = nullptr;
  if (!headless) {
    const WindowOptions wo = window_options(config, "dereth replay - " + fs::path(args.file).filename().string());
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
    renderer = &(*created)->renderer();
    presenter = std::move(*created);
  }
  (void)renderer;
  core::ManualClock virtual_clock;
  core::RealClock real_clock;
  const bool virtual_time = args.fast;
  World world(virtual_time ? static_cast<const core::Clock&>(virtual_clock) : real_clock, portal);
  std::unique_ptr<audio::AudioSystem> sound;
  if (!headless) sound = make_audio(false, config, *dats, err);
  LoopOptions lo;
  lo.virtual_clock = virtual_time;
  lo.stop_when_inbox_finished = true;
  lo.max_ticks = args.ticks;
  if (!args.digest.empty()) lo.digest = fs::path(args.digest);
  if (!args.trace.empty()) lo.trace = fs::path(args.trace);
  lo.screenshot_every = args.screenshot_every;
  lo.screenshot_dir = args.out_dir;
  QaReport qa;
  if (!args.report.empty()) world.set_report(&qa);
  FrameLoop loop(world, *player, virtual_time ? &virtual_clock : nullptr, presenter.get(), sound.get(), lo);
  auto report = loop.run();
  if (report && !args.report.empty()) {
    world.set_report(nullptr);
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
  if (check->damage) {
    out << fmt::format("dereth: read {} records ({} bytes) before the damage: {}\n", check->stats.records,
                       check->stats.bytes_read, check->damage->message());
  }
  return 0;
}

// ---- play ---------------------------------------------------------------------------

struct PlayArgs {
  std::string server;
  std::string account;
  std::string password_file;
  std::string character;
  double timeout = 60.0;
  double connect_timeout = 8.0;
  double silence_timeout = 60.0;
  bool headless = false;
  std::optional<std::uint64_t> ticks;
  std::string record;
  std::string trace;
  bool no_record = false;
};

int play(const PlayArgs& args, const Config& config, std::ostream& out, std::ostream& err) {
  const auto colon = args.server.rfind(':');
  int port = 0;
  if (colon == std::string::npos || colon == 0) {
    err << "dereth: --server must be HOST:PORT, e.g. 127.0.0.1:9000\n";
    return 2;
  }
  try {
    port = std::stoi(args.server.substr(colon + 1));
  } catch (...) {
    port = 0;
  }
  if (port <= 0 || port > 65534) {
    err << "dereth: \"" << args.server.substr(colon + 1) << "\" is not a port (1-65534)\n";
    return 2;
  }
  // Everything that can fail here fails before a packet is sent: the DATs,
  // the window, the password.
  bool headless = args.headless || !display_available();
  std::optional<Dats> dats;
  if (!headless || !config.dats_folder.empty()) {
    auto opened = open_dats(config.dats_folder, err);
    if (!opened) {
      err << "dereth: cannot open the DATs: " << opened.error().message() << "\n";
      return 1;
    }
    dats = std::move(*opened);
  }
  std::unique_ptr<Presenter> presenter;
  if (!headless) {
    const WindowOptions wo = window_options(config, "dereth - " + args.server);
    auto created = WindowPresenter::create(dats->portal_ptr(), dats->cell_ptr(), wo);
    if (!created) {
      err << "dereth: cannot open a window (" << created.error().message() << "): playing headless\n";
      headless = true;
    } else {
      presenter = std::move(*created);
    }
  }
  std::string password;
  if (args.password_file.empty()) {
    password = prompt_password(args.account, err);
  } else if (!read_password(args.password_file, password)) {
    err << "dereth: cannot read the password file " << args.password_file << "\n";
    return 2;
  }
  if (password.empty()) {
    err << (args.password_file.empty() ? "dereth: no password given (standard input was empty or closed)\n"
                                       : "dereth: the password file " + args.password_file + " holds no password\n");
    return 2;
  }
  net::UdpClientOptions o;
  o.host = args.server.substr(0, colon);
  o.port = static_cast<std::uint16_t>(port);
  o.session.account = args.account;
  o.session.password = password;
  o.session.server_name = args.server;
  o.session.login_timeout = args.connect_timeout;
  o.session.transport.silence_timeout = args.silence_timeout;
  if (!args.character.empty()) o.session.character = args.character;
  if (!args.no_record) {
    fs::path folder = !args.record.empty()         ? fs::path(args.record)
                      : !config.record_folder.empty() ? config.record_folder
                                                      : net::PcapRecorder::default_folder();
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) {
      err << "dereth: cannot create the recording folder " << folder.string() << ": " << ec.message() << "\n";
      return 1;
    }
    o.record_to = folder / net::PcapRecorder::default_file_name(std::time(nullptr));
  }
  auto client = net::UdpClient::connect(o);
  if (!client) {
    err << "dereth: cannot reach " << args.server << ": " << client.error().message() << "\n";
    return 1;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(args.timeout);
  bool in_world = false;
  while (std::chrono::steady_clock::now() < deadline) {
    const auto s = (*client)->status();
    if (s.state == net::SessionState::InWorld) {
      out << "dereth: in the world on " << args.server << " (player 0x" << std::hex << s.player_guid << std::dec
          << ")\n";
      in_world = true;
      break;
    }
    if (s.state == net::SessionState::Failed) {
      err << "dereth: " << s.failure << "\n";
      return 1;
    }
    if (presenter != nullptr && !presenter->poll_input()) {
      (*client)->logout();
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!in_world) {
    err << "dereth: did not reach the world on " << args.server << " within " << args.timeout
        << " s (state: " << net::to_string((*client)->status().state) << ")\n";
    return 1;
  }
  if (!(*client)->recording().empty()) {
    out << "dereth: recording this session to " << (*client)->recording().string() << "\n";
  }
  if (headless && !args.ticks) {
    out << "dereth: no window: logging off (give --ticks N to stay N ticks headless)\n";
    (*client)->logout();
    return 0;
  }
  core::RealClock clock;
  World world(clock, dats ? dats->portal_ptr() : nullptr);
  std::unique_ptr<audio::AudioSystem> sound;
  if (!headless) sound = make_audio(false, config, *dats, err);
  LoopOptions lo;
  lo.virtual_clock = false;
  lo.max_ticks = args.ticks;
  // The session ending (the server closed it, or went silent) ends the run.
  lo.stop_when_inbox_finished = true;
  lo.tail = 0.0;
  if (!args.trace.empty()) lo.trace = fs::path(args.trace);
  FrameLoop loop(world, **client, nullptr, presenter.get(), sound.get(), lo);
  net::UdpClient& session = **client;
  Controls controls(world, loop, presenter.get(),
                    [&session](std::vector<std::uint8_t> m, std::uint16_t queue) { session.send_message(std::move(m), queue); },
                    [&session]() { return session.next_action_sequence(); });
  loop.network_stats = [&client]() -> std::optional<net::TransportStats> { return (*client)->status().transport; };
  auto report = loop.run();
  const std::string failure = (*client)->status().failure;
  (*client)->logout();
  if (!report) {
    err << "dereth: " << report.error().message() << "\n";
    return 1;
  }
  print_report(out, "play", *report, world);
  if (!failure.empty()) {
    err << "dereth: " << failure << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

int run_cli(int argc, char** argv) { return run_cli(argc, argv, std::cout, std::cerr); }

int run_cli(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "dereth: a retail-faithful Asheron's Call client.\n"
      "With no command it runs the embedded demo (the same as `dereth demo`): a window where a display exists,\n"
      "otherwise headless to a PNG whose path it prints.\n"
      "Exit status: 0 on success, 1 when the run failed (one sentence on stderr says why), 2 for bad arguments.",
      "dereth"};
  app.set_version_flag("--version", std::string("dereth ") + std::string(core::version()));
  std::string log_level = "info";
  std::string config_file;
  std::vector<std::string> sets;
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error, critical or off")
      ->capture_default_str()
      ->type_name("LEVEL");
  app.add_option("--config", config_file, "The config file (default: " + default_config_path().string() + ")")
      ->type_name("FILE");
  bool save = false;
  app.add_flag("--save-config", save,
               "Write the settings in effect (defaults < config file < --set) to the config file, atomically; with "
               "a command, then run it");
  app.add_option("--set", sets, "Override a config key for this run: --set key=value (repeatable)")
      ->type_name("KEY=VALUE")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);

  DemoArgs demo_args;
  auto* demo_cmd = app.add_subcommand("demo", "Run the embedded demo world (the default command)");
  demo_cmd->add_flag("--headless", demo_args.headless, "No window: render offscreen and write a PNG");
  demo_cmd->add_option("--ticks", demo_args.ticks,
                       fmt::format("Stop after N physics ticks (30 a second; headless default {})", kDemoDefaultTicks))
      ->check(in_range(1, kMaxTicks, "ticks"))
      ->type_name("N");
  demo_cmd->add_option("--screenshot", demo_args.screenshot,
                       "Write the last frame to this PNG (headless default: ./dereth-demo.png)")
      ->type_name("PNG");
  demo_cmd->add_option("--trace", demo_args.trace,
                       "Write message verdicts and every object's state after each tick to FILE (docs/trace.md)")
      ->type_name("FILE");
  demo_cmd->add_flag("--stats", demo_args.stats,
                     "Headless: render every frame and print frame time split into tick, snapshot and render");

  PlayArgs play_args;
  auto* play_cmd = app.add_subcommand("play", "Log into an ACE server and play");
  play_cmd->add_option("--server", play_args.server, "HOST:PORT of the server's first port, e.g. 127.0.0.1:9000")
      ->required()
      ->type_name("HOST:PORT");
  play_cmd->add_option("--account", play_args.account, "The account name")->required()->type_name("NAME");
  play_cmd->add_option("--password-file", play_args.password_file,
                       "A file whose first line is the password (else it is prompted for)")
      ->type_name("FILE");
  play_cmd->add_option("--character", play_args.character, "The character's name (default: the first)")
      ->type_name("NAME");
  play_cmd->add_option("--dats", [&](const CLI::results_t& r) { sets.push_back("dats_folder=" + r.front()); return true; },
                       "The folder with client_portal.dat and client_cell_1.dat (config key dats_folder)")
      ->type_name("DIR");
  play_cmd->add_option("--record", play_args.record,
                       "Record the session as a pcap into this folder (default: config record_folder, else " +
                           net::PcapRecorder::default_folder().string() + ")")
      ->type_name("DIR");
  play_cmd->add_flag("--no-record", play_args.no_record, "Do not record the session");
  play_cmd->add_option("--trace", play_args.trace,
                       "Write message verdicts and every object's state after each tick to FILE (docs/trace.md)")
      ->type_name("FILE");
  play_cmd->add_flag("--headless", play_args.headless, "No window (with --ticks: stay that many ticks, then log off)");
  play_cmd->add_option("--ticks", play_args.ticks, "Log off after N physics ticks in the world (N/30 s)")
      ->check(in_range(1, kMaxTicks, "ticks"))
      ->type_name("N");
  play_cmd->add_option("--timeout", play_args.timeout, "Seconds to wait for the world")
      ->capture_default_str()
      ->check(in_range(0.1, 3600, "seconds"))
      ->type_name("S");
  play_cmd->add_option("--connect-timeout", play_args.connect_timeout,
                       "Seconds to wait for the server to answer the login (resent every 2 s)")
      ->capture_default_str()
      ->check(in_range(0.1, 600, "seconds"))
      ->type_name("S");
  play_cmd->add_option("--silence-timeout", play_args.silence_timeout,
                       "Seconds without a packet from the server that end the session")
      ->capture_default_str()
      ->check(in_range(0.5, 3600, "seconds"))
      ->type_name("S");

  ReplayArgs replay_args;
  auto* replay_cmd = app.add_subcommand("replay", "Play a recorded session (pcap or pcapng)");
  replay_cmd->add_option("FILE", replay_args.file, "The capture")->required()->type_name("FILE");
  auto* fast = replay_cmd->add_flag("--fast", replay_args.fast,
                                    "As fast as possible on the capture's own clock (repeatable digests)");
  replay_cmd->add_option("--speed", replay_args.speed, "Playback speed on the wall clock (1 = real time)")
      ->capture_default_str()
      ->check(in_range(0.01, 1000, "times real time"))
      ->type_name("X")
      ->excludes(fast);
  replay_cmd->add_flag("--headless", replay_args.headless, "No window");
  replay_cmd->add_option("--digest", replay_args.digest, "Write one digest line per tick (docs/trace.md)")
      ->type_name("FILE");
  replay_cmd->add_option("--report", replay_args.report,
                         "Write the QA report: dereth's prediction against every server Position, verdicts, decode "
                         "errors (docs/trace.md)")
      ->type_name("FILE");
  replay_cmd->add_option("--trace", replay_args.trace,
                         "Write message verdicts and every object's state after each tick to FILE (docs/trace.md)")
      ->type_name("FILE");
  replay_cmd->add_option("--screenshot-every", replay_args.screenshot_every, "Save a PNG every N ticks (needs --out)")
      ->check(in_range(1, kMaxTicks, "ticks"))
      ->type_name("N");
  replay_cmd->add_option("--out", replay_args.out_dir, "The folder for --screenshot-every")->type_name("DIR");
  replay_cmd->add_option("--dats", [&](const CLI::results_t& r) { sets.push_back("dats_folder=" + r.front()); return true; },
                         "The folder with client_portal.dat and client_cell_1.dat (config key dats_folder)")
      ->type_name("DIR");
  replay_cmd->add_option("--ticks", replay_args.ticks, "Stop after N physics ticks")
      ->check(in_range(1, kMaxTicks, "ticks"))
      ->type_name("N");
  replay_cmd->add_option("--port", replay_args.port,
                         "Only traffic to or from server ports N and N+1 (default: AC traffic found by the protocol)")
      ->check(in_range(1, 65534, "a UDP port"))
      ->type_name("N");
  replay_cmd->add_flag("--allow-truncated", replay_args.allow_truncated,
                       "Replay a damaged capture up to the damage (else exit 1)");

  // The global options may also follow the command.
  for (auto* sub : {demo_cmd, play_cmd, replay_cmd}) sub->fallthrough();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every bad argument exits 2.
    return app.exit(e, out, err) == 0 ? 0 : 2;
  }
  spdlog::level::level_enum level = spdlog::level::info;
  if (!core::parse_log_level(log_level, level)) {
    err << "dereth: --log-level must be trace, debug, info, warn, error, critical or off\n";
    return 2;
  }
  const fs::path config_path = config_file.empty() ? default_config_path() : fs::path(config_file);
  if (!config_file.empty() && !save && !fs::exists(config_path)) {
    err << "dereth: the config file " << config_path.string() << " does not exist\n";
    return 2;
  }
  std::vector<std::string> warnings;
  auto config = layered_config(config_path, sets, &warnings);
  if (!config) {
    const core::Error& e = config.error();
    std::size_t index = 0;
    if (std::sscanf(e.context.c_str(), "--set %zu", &index) == 1 && index >= 1 && index <= sets.size()) {
      // "dereth: --set window_height=180: 180 is outside 200..16384"
      err << "dereth: --set " << sets[index - 1] << ": " << e.detail << "\n";
    } else {
      err << "dereth: " << e.message() << "\n";
    }
    return 2;
  }
  for (const auto& w : warnings) err << "dereth: " << w << "\n";
  if (save) {
    if (auto saved = save_config(config_path, *config); !saved) {
      err << "dereth: " << saved.error().message() << "\n";
      return 1;
    }
    out << "dereth: settings written to " << config_path.string() << "\n";
    if (!*demo_cmd && !*play_cmd && !*replay_cmd) return 0;  // saving was the whole job
  }
  // --log-level given on the command line wins over the file's.
  bool level_given = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]).starts_with("--log-level")) level_given = true;
  }
  core::init_logging(level_given ? level : config->log_level);

  if (*play_cmd) return play(play_args, *config, out, err);
  if (*replay_cmd) return replay(replay_args, *config, out, err);
  return demo(demo_args, *config, out, err);
}

}  // namespace dereth::app
