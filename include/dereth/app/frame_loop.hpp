#pragma once
// The frame loop of docs/architecture.md, once per frame: input, inbox,
// UseTime tick, snapshot, render and audio, outbound. One loop serves the
// demo, play and replay, windowed or headless; what differs is the inbox
// (loopback scenario, live UDP session, capture), the clock (virtual for
// deterministic runs, real otherwise) and the presenter (window or
// offscreen).

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dereth/app/frame_hooks.hpp"
#include "dereth/app/key_map.hpp"
#include "dereth/app/portal_sounds.hpp"
#include "dereth/app/targeting.hpp"
#include "dereth/app/world.hpp"
#include "dereth/audio/audio_system.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/core/error.hpp"
#include "dereth/net/inbox.hpp"
#include "dereth/net/transport.hpp"
#include "dereth/protocol/character_create.hpp"
#include "dereth/render/overlay.hpp"
#include "dereth/sim/object/digest.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::render {
struct FrameTiming;
class Renderer;
}  // namespace dereth::render

namespace dereth::app {

// Where one frame's wall time went, in seconds (--stats): the loop's steps
// in order, the renderer's phases inside present, and the pacing sleep that
// follows the frame on the real clock. They add up to the frame's interval,
// from its start to the next frame's.
struct FramePhases {
  double input = 0.0;       // 1. poll_input
  double inbox = 0.0;       // 2. draining and handling the server's messages
  double tick = 0.0;        // 3. World::step's UseTime
  double snapshot = 0.0;    // 4. building the render snapshot
  double audio = 0.0;       // the camera following the snapshot, and this tick's sounds
  double present = 0.0;     // 5a. present(): all of it, the renderer's phases below included
  double load = 0.0;        // inside present: the renderer's DAT reads, decoding and first uploads
  double prepare = 0.0;     // inside present: culling and sorting into draw lists
  double submit = 0.0;      // inside present: issuing GL calls
  double finish = 0.0;      // inside present: glFinish, the rasteriser completing the frame
  double screenshot = 0.0;  // 5b. reading the frame back and writing its PNG (--screenshot, --screenshot-every)
  double outbound = 0.0;    // 6. the command interpreter's messages
  double sleep = 0.0;       // the pacing sleep on the real clock (0 on the virtual clock)
  [[nodiscard]] double work() const noexcept {
    return input + inbox + tick + snapshot + audio + present + screenshot + outbound;
  }
  [[nodiscard]] double interval() const noexcept { return work() + sleep; }
};

// One trip through portal space (world entry included): from the SmartBox's
// teleport (F751 PlayerTeleport, or the player's creation) to
// gmSmartBoxUI's SmartBox::Show, when the world is drawn again.
struct PortalTrip {
  double began = 0.0;         // sim seconds into the run
  double sim_seconds = 0.0;   // on the world's clock
  double wall_seconds = 0.0;  // on the steady clock
  std::uint64_t frames = 0;   // frames of the loop it took
};

// Every frame's interval and work, for the distribution --stats prints, and
// the phases of the longest frame (by interval) and of the frame doing the
// most work. Kept only when LoopOptions::frame_stats asks (4 bytes a frame
// a series: an hour at 60 frames a second is under 2 MB).
struct FramePacing {
  std::vector<float> interval_ms;   // one frame's start to the next's: what the player sees
  std::vector<float> work_ms;       // the same without the pacing sleep
  std::uint64_t longest_frame = 0;  // the frame number of the longest interval
  FramePhases longest;
  std::uint64_t busiest_frame = 0;  // the frame number of the most work
  FramePhases busiest;
};

// The median (p = 0.5), p90 ... of `values` (nearest rank; 0 when empty).
[[nodiscard]] double percentile(std::vector<float> values, double p);

// What a presenter is told about the frame it shows (HUD lines, timing).
struct FrameInfo {
  std::uint64_t frame = 0;
  std::uint64_t tick = 0;
  double sim_time = 0.0;
  double fps = 0.0;       // frames per second of wall time (window) or 0
  double frame_ms = 0.0;  // wall milliseconds the last frame took (input to audio, not the pacing sleep)
  const WorldStats* world = nullptr;
  std::optional<net::TransportStats> network;  // a live session's transport counters
  bool in_world = false;                       // the player exists (else: still loading)
};

// Frames drawn outside the loop (the character list and the creation
// screen, before the world): each one's FrameInfo with the frame rate
// measured over them as the loop measures its own, and the live session's
// counters, so the HUD reads as it does in the world, not "FPS 0.0 ... net
// offline" while connected.
class LooseFrames {
 public:
  // The frame ending at `now` (seconds on any steady clock).
  FrameInfo next(double now, std::optional<net::TransportStats> network);

 private:
  std::uint64_t frames_ = 0;
  std::optional<double> last_;
  double fps_ = 0.0;
};

class CharacterPicker;
class CharacterCreator;
struct PickerAction;

// Shows frames: a window or an offscreen target. Owns the camera.
class Presenter {
 public:
  Presenter() = default;
  Presenter(const Presenter&) = delete;
  Presenter& operator=(const Presenter&) = delete;
  virtual ~Presenter() = default;
  // Handles pending input; false when the user asked to quit.
  virtual bool poll_input() { return true; }
  // Whether present() should run this frame (an offscreen presenter renders
  // only when a picture is wanted).
  [[nodiscard]] virtual bool wants_frame(bool /*screenshot_due*/) const { return true; }
  // Every tick's snapshot, drawn or not: the camera follows the player on
  // every tick, so where it stands never depends on which frames were drawn.
  virtual void follow(const sim::RenderSnapshot& /*snapshot*/) {}
  // Keeps the follow camera out of walls; a frame loop sets it to its world
  // for as long as the loop lives. Null: the camera stands where it wants.
  // Not owned.
  ViewerPlacer* viewer_placer = nullptr;
  // The world's Region (World::region, decoded once by its record cache) to
  // draw the terrain and sky with; a frame loop hands over its world's.
  virtual void use_region(std::shared_ptr<const dat::Region> /*region*/) {}
  // The renderer's answer to the teleport gate (Renderer::prepare_landblock),
  // which a frame loop hands its world's landscape loader
  // (DatLandscapeLoader::set_render_ready) for as long as the loop lives;
  // empty (the default): a landblock is ready when its records are
  // published. Only a presenter that draws every frame may give one, or the
  // gate would wait for frames that never come.
  [[nodiscard]] virtual std::function<bool(std::uint32_t)> render_ready_hook() { return {}; }
  // The world's record caches (World::shared_records, shared_cell_records)
  // for the renderer to read its GfxObjs, Surfaces, textures and LandBlocks
  // through; a frame loop hands over its world's and takes them back (null)
  // when it ends.
  virtual void use_records(std::shared_ptr<dat::RecordCache> /*records*/,
                           std::shared_ptr<dat::CellRecordCache> /*cells*/) {}
  // Draws the snapshot (and the HUD) for this frame.
  virtual core::Result<void> present(const sim::RenderSnapshot& snapshot, const FrameInfo& info) = 0;
  // The renderer's phases of the last present() (--stats); null: no renderer.
  [[nodiscard]] virtual const render::FrameTiming* last_render_timing() const { return nullptr; }
  // The renderer, for the run's report (its GPU caches, --stats); null: none.
  [[nodiscard]] virtual const render::Renderer* report_renderer() const { return nullptr; }
  // Saves the last presented frame as a PNG (atomically).
  virtual core::Result<void> screenshot(const std::filesystem::path& path) = 0;
  // Where sounds are heard from: the camera.
  [[nodiscard]] virtual audio::Listener listener() const { return {}; }
  // A chat line for the chat panel.
  virtual void chat(const protocol::ChatLine& /*line*/) {}
  // What the player does in the world through this presenter (Controls
  // takes it); null: nothing takes it. Not owned.
  PlayerInput* player_input = nullptr;
  // The character list after login (a window shows it and takes the
  // player's choice; null hides it). Not owned; it must outlive its showing.
  virtual void show_characters(CharacterPicker* /*picker*/) {}
  // The choices made on the character list and the creation screen (the
  // login flow); null: none taken. Not owned.
  CharacterScreens* character_screens = nullptr;
  // The character-creation screen (a window shows it over the list and
  // takes the keyboard and mouse; null hides it). Not owned.
  virtual void show_creator(CharacterCreator* /*creator*/) {}
  // The game menu's Log out (the run ends and logs off); null: none. Not owned.
  GameMenuActions* game_menu = nullptr;
  // The selected target's name for the HUD (empty: none); the app sets it.
  std::string hud_target;
  // The selected object's health as the server last answered QueryHealth
  // (sim::GmToolbarUi); none before an answer.
  std::optional<float> hud_target_health;
  // The radar (app::radar_panel) while the player is in the world; none
  // hides it. The app sets it each frame.
  std::optional<render::RadarPanel> hud_radar;
  // The vitals (app::vitals_panel) once the player has qualities, the
  // combat mode and attack power bar (app::combat_panel) and the spell bar
  // in magic mode (app::spell_bar_panel) while the player is in the world;
  // none hides each. The app sets them each frame.
  std::optional<render::VitalsPanel> hud_vitals;
  std::optional<render::CombatPanel> hud_combat;
  std::optional<render::SpellBarPanel> hud_spell_bar;
  // The spellbook window (app::spellbook_panel) while the player has it
  // open; none hides it. Its lines after the title are the spells, which
  // a click reports to player_input (PlayerInput::on_spellbook_click).
  std::optional<render::TextPanel> hud_spellbook;
};

struct LoopOptions {
  // Virtual clock: each frame advances simulated time by 1/frame_rate (as
  // core::exact_frame_step, docs/trace.md) as fast as the CPU allows, so runs
  // are repeatable.
  // Otherwise the real clock drives the world.
  bool virtual_clock = true;
  double frame_rate = 60.0;
  std::optional<std::uint64_t> max_ticks;  // stop after this many physics ticks
  std::optional<double> max_seconds;       // stop once simulated time passes this
  bool stop_when_inbox_finished = false;   // stop `tail` seconds after the inbox has finished
  double tail = 1.0;
  std::optional<std::filesystem::path> digest;  // per-tick digest lines (docs/trace.md)
  std::optional<std::filesystem::path> trace;   // message verdicts and per-tick object lines (docs/trace.md)
  std::uint64_t screenshot_every = 0;           // ticks between screenshots (0: none)
  std::filesystem::path screenshot_dir;         // where those go: tick_000090.png ...
  std::optional<std::filesystem::path> screenshot_at_end;
  // Told now and then the fraction done (of max_ticks, or what progress_of
  // says); null: not told. Neither is owned.
  ProgressSink* progress = nullptr;
  const ProgressSource* progress_of = nullptr;
  // Keep every frame's interval and work, and the phases of the longest
  // (LoopReport::pacing, for --stats).
  bool frame_stats = false;
  // Landblock loading threads for run_live's world (Config::stream_workers);
  // 0: inline.
  int stream_workers = 0;
  // LScape's grid radius for run_live's world (Config::landscape_radius,
  // World::set_mid_radius); 0: retail's 5.
  int landscape_radius = 0;
};

struct LoopReport {
  std::uint64_t frames = 0;
  std::uint64_t ticks = 0;
  std::uint64_t presented = 0;
  std::uint64_t screenshots = 0;           // every PNG written: the periodic ones and the end's
  std::uint64_t periodic_screenshots = 0;  // those of screenshot_every alone
  double sim_seconds = 0.0;
  double wall_seconds = 0.0;
  double present_seconds = 0.0;  // wall time in present() (render submission + rasterising)
  bool quit_by_user = false;
  std::uint64_t sound_events = 0;
  std::uint64_t ui_sounds = 0;           // portal-space sounds played from the UI sound table (PortalSounds)
  std::size_t max_particles = 0;         // most live particles published after one tick
  FramePacing pacing;                    // with LoopOptions::frame_stats
  std::vector<PortalTrip> portal_trips;  // each one completed (--stats prints them)
};

class FrameLoop {
 public:
  // `clock` must be the world's clock: a ManualClock when options.virtual_clock.
  FrameLoop(World& world, net::MessageInbox& inbox, core::ManualClock* virtual_clock, Presenter* presenter,
            audio::AudioSystem* audio, LoopOptions options);
  ~FrameLoop();
  FrameLoop(const FrameLoop&) = delete;
  FrameLoop& operator=(const FrameLoop&) = delete;
  // Runs until a stop condition (or the user quits). Calling it again
  // continues from the frame it stopped at (raise max_ticks first).
  core::Result<LoopReport> run();
  void set_max_ticks(std::optional<std::uint64_t> ticks) noexcept { options_.max_ticks = ticks; }
  void set_screenshot_at_end(std::optional<std::filesystem::path> path) {
    options_.screenshot_at_end = std::move(path);
  }
  [[nodiscard]] const LoopReport& report() const noexcept { return report_; }
  // Step 6 of each frame (Controls); null: none. Not owned.
  void set_outbound(OutboundStep* step) noexcept { outbound_ = step; }
  [[nodiscard]] OutboundStep* outbound() const noexcept { return outbound_; }
  // Runs step 6 now, as run() does after each frame's render.
  void run_outbound(double now) {
    if (outbound_ != nullptr) outbound_->outbound(now);
  }
  // The chat lines the world routed, besides the presenter; null: nowhere.
  // Not owned.
  void set_chat_sink(ChatSink* sink) noexcept { chat_sink_ = sink; }
  // The session the loop runs beside; null: none. Not owned.
  void set_session(LoopSession* session) noexcept { session_ = session; }

 private:
  void record_frame(std::uint64_t frame, const FramePhases& phases);

  World* world_;
  net::MessageInbox* inbox_;
  core::ManualClock* virtual_clock_;
  Presenter* presenter_;
  audio::AudioSystem* audio_;
  OutboundStep* outbound_ = nullptr;
  ChatSink* chat_sink_ = nullptr;
  LoopSession* session_ = nullptr;
  LoopOptions options_;
  LoopReport report_;
  std::ofstream digest_;
  std::ofstream trace_file_;
  std::unique_ptr<sim::JsonlTrace> trace_;
  std::optional<double> inbox_finished_at_;
  std::optional<double> real_start_;
  double fps_ = 0.0;
  double last_frame_ms_ = 0.0;
  std::optional<double> first_arrival_;
  PortalSounds portal_sounds_;
  // The portal trip under way (note_portal_trip), if any.
  std::optional<PortalTrip> trip_;
  std::chrono::steady_clock::time_point trip_wall_;
  bool trip_tunnel_seen_ = false;
  bool trip_in_progress_ = false;  // gmSmartBoxUI's teleport_in_progress at the last frame
  void note_portal_trip(double now, LoopReport& report);
};

}  // namespace dereth::app
