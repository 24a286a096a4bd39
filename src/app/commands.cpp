#include "commands.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <termios.h>
#include <unistd.h>

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

namespace dereth::app::commands {

namespace {
std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);
struct sigaction g_saved_int {};
struct sigaction g_saved_term {};

extern "C" void on_stop_signal(int signal) {
  if (g_stop_signal.load() != 0) {
    // The second: what the signal would have done without dereth's handler.
    std::signal(signal, SIG_DFL);
    std::raise(signal);
    return;
  }
  g_stop_signal.store(signal);
}
}  // namespace

StopSignals::StopSignals() {
  g_stop_signal.store(0);
  struct sigaction a {};
  a.sa_handler = &on_stop_signal;
  sigemptyset(&a.sa_mask);
  a.sa_flags = SA_RESTART;
  // A signal the parent had ignored stays ignored (a shell's background job
  // is not stopped by the terminal's Ctrl-C), as every program does.
  sigaction(SIGINT, nullptr, &g_saved_int);
  sigaction(SIGTERM, nullptr, &g_saved_term);
  if (g_saved_int.sa_handler != SIG_IGN) sigaction(SIGINT, &a, nullptr);
  if (g_saved_term.sa_handler != SIG_IGN) sigaction(SIGTERM, &a, nullptr);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &g_saved_int, nullptr);
  sigaction(SIGTERM, &g_saved_term, nullptr);
  g_stop_signal.store(0);
}

int StopSignals::raised() noexcept {
  return g_stop_signal.load();
}

const char* StopSignals::name(int signal) noexcept {
  return signal == SIGINT ? "Ctrl-C" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

core::Result<Dats> open_dats(const fs::path& folder, std::ostream& err) {
  Dats d;
  if (folder.empty()) {
    err << "dereth: building the embedded demo world...\n";
    DERETH_TRY(demo::DemoWorld world, demo::build_demo_world());
    DERETH_TRY(d.portal, dat::DatFile::from_bytes(std::move(world.portal), "demo client_portal.dat"));
    DERETH_TRY(d.cell, dat::DatFile::from_bytes(std::move(world.cell), "demo client_cell_1.dat"));
    d.description = "the embedded demo world";
    return d;
  }
  err << "dereth: opening the DATs in " << folder.string() << "...\n";
  // Each file checked whole before anything runs (dat::open_whole): a
  // cut-short or foreign file is one sentence, not a run of warnings later.
  DERETH_TRY(d.portal, dat::open_whole(folder / "client_portal.dat"));
  const fs::path cell_path = folder / "client_cell_1.dat";
  std::error_code ec;
  if (fs::exists(cell_path, ec)) {
    DERETH_TRY(d.cell, dat::open_whole(cell_path));
  } else {
    err << "dereth: no terrain: there is no client_cell_1.dat in " << folder.string() << "\n";
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

std::unique_ptr<audio::AudioBackend> make_audio_backend(const Config& config, std::ostream& err) {
  if (!config.audio) return std::make_unique<audio::NullBackend>();
  audio::AudioOptions o;
  o.device = config.audio_device;
  o.sound.effect_volume = config.volume;
  audio::OpenedAudio opened = audio::open_audio(o);
  if (!opened.fallback_reason.empty()) err << "dereth: no sound: " << opened.fallback_reason << "\n";
  return std::move(opened.backend);
}

WindowOptions window_options(const Config& config, std::string title) {
  WindowOptions wo;
  wo.width = config.window_width;
  wo.height = config.window_height;
  wo.fullscreen = config.fullscreen;
  wo.vsync = config.vsync;
  wo.hud = config.hud;
  wo.radar = config.radar;
  wo.panels = config.panels;
  wo.title = std::move(title);
  wo.free_camera = config.camera_mode == CameraMode::Free;
  wo.mouse_sensitivity = config.mouse_sensitivity;
  wo.load_budget_ms = config.render_load_budget_ms;
  wo.terrain_cache_bytes = static_cast<std::size_t>(config.terrain_cache_mb) << 20U;
  wo.mesh_cache_bytes = static_cast<std::size_t>(config.mesh_cache_mb) << 20U;
  wo.asset_workers = config.stream_workers;
  wo.keys.apply(config.key_bindings);
  wo.options_file = config.file.string();
  return wo;
}

void print_report(std::ostream& out, const std::string& what, const LoopReport& r, const World& world) {
  const WorldStats& w = world.stats();
  out << fmt::format(
      "{}: messages={} handled={} not_object={} decode_errors={} ticks={} frames={} simulated_s={:.2f} "
      "objects={} sound_events={} landblocks={}\n",
      what, w.messages, w.handled, w.not_object, w.decode_errors, r.ticks, r.frames, r.sim_seconds,
      world.snapshot()->objects.size(), r.sound_events,
      world.landscape() != nullptr ? world.landscape()->block_count() : std::size_t{0});
}

namespace {
void print_network(std::ostream& out, const net::TransportStats& t) {
  // Every drop counter (docs/net.md, "Hostile datagrams"); dropped is their sum.
  out << fmt::format(
      "network: packets_in={} packets_out={} messages_in={} resends={} naks={} dropped={} bad_packets={} "
      "bad_checksums={} out_of_window={} unverified_content={} acks_beyond_sent={} requests_unsent={} "
      "requests_throttled={} rejects_ignored={} keyless_skipped={} held_overflow={} fragments_dropped={} "
      "partials_evicted={} oversized_messages={} handshake_dropped={} foreign_datagrams={} queue_overflow={}\n",
      t.packets_received, t.packets_sent, t.messages_received, t.retransmits_sent, t.naks_sent, t.dropped(),
      t.bad_packets, t.bad_checksums, t.out_of_window, t.unverified_content, t.acks_beyond_sent, t.requests_unsent,
      t.requests_throttled, t.rejects_ignored, t.keyless_skipped, t.held_overflow, t.fragments_dropped,
      t.partials_evicted, t.oversized_messages, t.handshake_dropped, t.foreign_datagrams, t.queue_overflow);
}
// The live client as a frame loop sees it. Ctrl-C or SIGTERM (StopSignals,
// where the command installed it) ends the loop as quitting the window
// does: the logoff and the report follow.
class LiveSession final : public LoopSession {
 public:
  explicit LiveSession(const net::UdpClient& client) : client_(&client) {}
  bool stop_requested() override { return StopSignals::raised() != 0; }
  std::optional<net::TransportStats> network_stats() override { return client_->status().transport; }
  std::optional<double> time_sync() override { return client_->status().time_sync; }

 private:
  const net::UdpClient* client_;
};

// Headless, the chat window is a stream: one line per chat line.
class StreamChat final : public ChatSink {
 public:
  explicit StreamChat(std::ostream& out) : out_(&out) {}
  void on_chat(const protocol::ChatLine& line) override { *out_ << headless_chat_line(line) << "\n"; }

 private:
  std::ostream* out_;
};

}  // namespace

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

void print_pacing(std::ostream& out, const LoopReport& r) {
  const FramePacing& p = r.pacing;
  if (p.interval_ms.empty()) return;
  const auto spread = [](const std::vector<float>& ms) {
    const double median = percentile(ms, 0.5);
    const double longest = percentile(ms, 1.0);
    const auto slow = std::count_if(ms.begin(), ms.end(), [&](float v) { return v > 1.5 * median; });
    return fmt::format(
        "median {:.2f} ms, p90 {:.2f} ms, p99 {:.2f} ms, longest {:.2f} ms ({:.2f}x the median; {} over 1.5x)", median,
        percentile(ms, 0.9), percentile(ms, 0.99), longest, median > 0.0 ? longest / median : 0.0, slow);
  };
  const auto phases = [](const FramePhases& f) {
    const auto ms = [](double seconds) { return seconds * 1000.0; };
    // The renderer's loads are timed where they happen, inside prepare (which
    // excludes them) or inside submit (which includes them).
    return fmt::format(
        "input {:.2f}, inbox {:.2f}, tick {:.2f}, snapshot {:.2f}, audio {:.2f}, present {:.2f} (render loads "
        "{:.2f}, prepare {:.2f}, submit {:.2f}, finish {:.2f}), screenshot {:.2f}, outbound {:.2f}, sleep {:.2f} ms",
        ms(f.input), ms(f.inbox), ms(f.tick), ms(f.snapshot), ms(f.audio), ms(f.present), ms(f.load), ms(f.prepare),
        ms(f.submit), ms(f.finish), ms(f.screenshot), ms(f.outbound), ms(f.sleep));
  };
  out << fmt::format("frame pacing over {} frames: interval {}\n", p.interval_ms.size(), spread(p.interval_ms));
  out << fmt::format("frame work (without the pacing sleep): {}\n", spread(p.work_ms));
  out << fmt::format("longest frame {} ({:.2f} ms): {}\n", p.longest_frame, p.longest.interval() * 1000.0,
                     phases(p.longest));
  for (const PortalTrip& t : r.portal_trips) {
    out << fmt::format("portal space at {:.2f} s: {:.2f} s to the world shown ({:.2f} s of wall time, {} frames)\n",
                       t.began, t.sim_seconds, t.wall_seconds, t.frames);
  }
  if (p.busiest_frame != p.longest_frame) {
    out << fmt::format("busiest frame {} ({:.2f} ms of work): {}\n", p.busiest_frame, p.busiest.work() * 1000.0,
                       phases(p.busiest));
  }
}

void print_gpu_caches(std::ostream& out, const render::Renderer& renderer) {
  const render::RenderStats& s = renderer.stats();
  const render::TerrainCacheStats& t = renderer.terrain_cache_stats();
  const render::RendererOptions& o = renderer.options();
  const auto mib = [](std::size_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); };
  const std::string mesh_bound =
      o.mesh_cache_bytes == 0 ? std::string("no bound") : fmt::format("{:.1f} MiB", mib(o.mesh_cache_bytes));
  out << fmt::format(
      "GPU caches: meshes and textures {:.1f} MiB kept of {} (mesh_cache_mb), {} freed for it; terrain "
      "surfaces {:.1f} MiB at most of {:.1f} MiB (terrain_cache_mb), {} evicted for it\n",
      mib(s.mesh_cache_bytes), mesh_bound, s.mesh_cache_evicted, mib(t.peak_bytes), mib(o.terrain_cache_bytes),
      t.evicted);
}

int run_live(const std::string& what, net::UdpClient& client, const dat::DatFile* portal, const dat::DatFile* cell,
             Presenter* presenter, std::unique_ptr<audio::AudioBackend> audio_backend, LoopOptions options,
             std::ostream& out, std::ostream& err, const std::vector<std::pair<double, std::string>>& says,
             const std::vector<scenario::InputEvent>& inputs, bool* logged_out_out) {
  core::RealClock clock;
  World world(clock, portal);
  StreamOptions streaming;
  streaming.workers = options.stream_workers;
  world.use_terrain(cell, streaming);
  if (options.landscape_radius > 0) world.set_mid_radius(options.landscape_radius);
  std::unique_ptr<audio::AudioSystem> sound;
  if (audio_backend) sound = std::make_unique<audio::AudioSystem>(std::move(audio_backend), &world.records());
  options.virtual_clock = false;
  // The session ending (the server closed it, went silent or away) ends the run.
  options.stop_when_inbox_finished = true;
  options.tail = 0.0;
  const bool frame_stats = options.frame_stats;
  FrameLoop loop(world, client, nullptr, presenter, sound.get(), std::move(options));
  Controls controls(
      world, loop, presenter,
      [&client](std::vector<std::uint8_t> m, std::uint16_t queue) { client.send_message(std::move(m), queue); },
      [&client]() { return client.next_action_sequence(); });
  for (const auto& [time, typed] : says) controls.say_at(time, typed);
  controls.schedule_inputs(inputs);
  LiveSession live(client);
  loop.set_session(&live);
  // Headless, the chat window is standard output.
  StreamChat chat(out);
  if (presenter == nullptr) loop.set_chat_sink(&chat);
  // The game menu's Log out (confirmed) ends the loop as Quit does, said so.
  struct LogOut final : GameMenuActions {
    void on_log_out() override { chosen = true; }
    bool chosen = false;
  } log_out;
  if (presenter != nullptr) presenter->game_menu = &log_out;
  auto report = loop.run();
  if (presenter != nullptr) presenter->game_menu = nullptr;
  const bool logged_out = log_out.chosen;
  const int stopped_by = StopSignals::raised();
  const std::string failure = stopped_by != 0 ? std::string() : client.status().failure;
  client.logout();
  if (stopped_by != 0) err << "dereth: " << StopSignals::name(stopped_by) << ": logged off\n";
  if (logged_out) out << "dereth: logged out\n";
  if (logged_out_out != nullptr) *logged_out_out = logged_out;
  if (!report) {
    err << "dereth: " << report.error().message() << "\n";
    return 1;
  }
  print_report(out, what, *report, world);
  print_network(out, client.status().transport);
  if (frame_stats) print_pacing(out, *report);
  if (frame_stats && presenter != nullptr) {
    if (const render::Renderer* renderer = presenter->report_renderer(); renderer != nullptr) {
      print_gpu_caches(out, *renderer);
    }
  }
  if (!failure.empty()) {
    err << "dereth: " << failure << "\n";
    return 1;
  }
  return 0;
}

}  // namespace dereth::app::commands
