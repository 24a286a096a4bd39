#pragma once
// The commands of `dereth` (cli.cpp parses the options): the demo, play and
// replay, each in a file of its own, and what they share. Private to
// dereth_app.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "dereth/app/config.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/world.hpp"
#include "dereth/audio/audio_system.hpp"
#include "dereth/core/error.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/net/udp_client.hpp"
#include "dereth/render/renderer.hpp"
#include "dereth/scenario/scenario.hpp"

namespace dereth::app::commands {

namespace fs = std::filesystem;

// The headless demo's length: 8 s of world time after the login (the world
// entry, several projectiles launching, flying and exploding, and the recall).
constexpr std::uint64_t kDemoDefaultTicks = 240;

// Ctrl-C (SIGINT) and SIGTERM while one lives: instead of ending the process
// at once (exit 130, no logoff), they raise a flag the run polls, so a live
// session logs off, writes its report and exits 0. A second signal ends the
// process as the default would (a logoff that hangs is never a trap). The
// handlers before it come back when it goes.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  // The signal that asked the run to stop (SIGINT or SIGTERM), 0 while none did.
  [[nodiscard]] static int raised() noexcept;
  // "Ctrl-C" or "SIGTERM", for the sentence said on stopping.
  [[nodiscard]] static const char* name(int signal) noexcept;
};

// The DATs a run reads: a folder's client_portal.dat and client_cell_1.dat,
// or the embedded demo world built in memory.
struct Dats {
  std::optional<dat::DatFile> portal;
  std::optional<dat::DatFile> cell;
  std::string description;
  [[nodiscard]] const dat::DatFile* portal_ptr() const { return portal ? &*portal : nullptr; }
  [[nodiscard]] const dat::DatFile* cell_ptr() const { return cell ? &*cell : nullptr; }
};

// The DATs in `folder` (client_portal.dat; client_cell_1.dat when there), or
// the embedded demo world when `folder` is empty; progress on `err`.
core::Result<Dats> open_dats(const fs::path& folder, std::ostream& err);
// The password from the terminal without echo (a plain line when stdin is
// not a terminal).
std::string prompt_password(const std::string& account, std::ostream& err);
// The first line of `path` (a trailing CR removed); false when unreadable.
bool read_password(const std::string& path, std::string& out);
// Whether a window can be opened here at all (X11 or Wayland, or an explicit SDL driver).
bool display_available();
// The sound device the config asks for (the null backend when audio is off
// or no device opens; why is said on `err`).
std::unique_ptr<audio::AudioBackend> make_audio_backend(const Config& config, std::ostream& err);
WindowOptions window_options(const Config& config, std::string title);
void print_report(std::ostream& out, const std::string& what, const LoopReport& r, const World& world);
// A live session in the one loop on the real clock: the World over
// `client`'s inbox with the local player's Controls, until max_ticks, the
// user quits, or the session ends; then logs off. `what` names the run in the
// report line. Sound plays through `audio_backend` (none: silent), with the
// waves read through the world's record cache. Exit status 0, or 1 with one
// sentence when the session failed.
// `says` are (time, typed line) pairs for the chat box (Controls::say_at);
// `inputs` a scenario's scripted keys (Controls::schedule_inputs: the demo's
// walk, in a window as headless; the player's own keys take over).
// `logged_out`, when given, is set when the game menu's Log out ended the run.
int run_live(const std::string& what, net::UdpClient& client, const dat::DatFile* portal, const dat::DatFile* cell,
             Presenter* presenter, std::unique_ptr<audio::AudioBackend> audio_backend, LoopOptions options,
             std::ostream& out, std::ostream& err, const std::vector<std::pair<double, std::string>>& says = {},
             const std::vector<scenario::InputEvent>& inputs = {}, bool* logged_out = nullptr);
void print_timing(std::ostream& out, const LoopReport& r, const World& world, const render::Renderer* renderer,
                  int width, int height);
// --stats, headless or in a window: the distribution of frame intervals and
// of frame work (median, p90, p99, longest) and where the longest frame's
// time went, phase by phase (LoopOptions::frame_stats).
void print_pacing(std::ostream& out, const LoopReport& r);
// The renderer's GPU caches against their bounds (the config's
// mesh_cache_mb and terrain_cache_mb), after a --stats run in a window.
void print_gpu_caches(std::ostream& out, const render::Renderer& renderer);

struct DemoArgs {
  bool headless = false;
  std::optional<std::uint64_t> ticks;
  std::string screenshot;
  std::string trace;
  bool stats = false;
  std::string record_frames;       // headless: a folder for every K'th tick's PNG
  std::uint64_t record_every = 1;  // that K
};

// The embedded demo: headless on the loopback (virtual clock), or in a window
// over loopback UDP on the real clock.
int demo(const DemoArgs& args, const Config& config, std::ostream& out, std::ostream& err);

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
  bool no_dats = false;  // simulate without DATs (else the config's folder or the demo world)
  bool chat = false;     // headless: chat lines on standard output
};

// A capture through the whole client, in a window or headless.
int replay(const ReplayArgs& args, const Config& config, std::ostream& out, std::ostream& err);

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
  // Lines to say (as typed in the chat box), the i-th at the i-th `at`
  // (seconds after the world loop starts; 1 s when not given).
  std::vector<std::string> say;
  std::vector<double> at;
  // Keys to press, each a scenario `input` line without its directive
  // ("cast_spell down at=2"; seconds after world entry).
  std::vector<std::string> input;
  // --create NAME: create this character first (chargen::CharacterBuilder
  // over the DATs' CharGen), then enter with it. Unset choices keep the
  // builder's (the first heritage, sex, template and town).
  std::string create;
  std::optional<std::uint32_t> heritage;
  std::optional<std::uint32_t> sex;
  std::optional<std::uint32_t> template_index;
  std::optional<std::uint32_t> start_area;
  std::vector<std::uint32_t> attributes;  // six, or none
  std::vector<std::uint32_t> train;
  std::vector<std::uint32_t> specialize;
  std::vector<std::uint32_t> untrain;
};

// A live session against a server.
int play(const PlayArgs& args, const Config& config, std::ostream& out, std::ostream& err);

}  // namespace dereth::app::commands
