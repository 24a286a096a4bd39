#pragma once
// The embedded demo, headless: the demo scenario (data/demo/demo.scenario)
// played by the scenario server paired in-process with the client over the
// real protocol on a virtual clock, the synthetic demo world built in
// memory, the offscreen renderer and the null audio backend. Every run gives
// the same frames, so golden images can pin them.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "dereth/app/controls.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/loopback_inbox.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/world.hpp"
#include "dereth/audio/audio_system.hpp"
#include "dereth/dat/dat_file.hpp"

namespace dereth::app {

// The demo's first camera, the same for the window and headless: close
// behind the player, nearly level, looking past it at the NPCs' bolt lanes
// (data/demo/demo.scenario) so the first bolt and its trail fill part of the
// screen. Afterwards the camera follows the player as always.
[[nodiscard]] CameraFraming demo_camera_framing() noexcept;

// The demo scenario server's settings: its run rate answers with the
// client's qualities rules over the SkillTable and XpTable of the client's
// portal, so the run it relays to observers is at the rate the mover's
// client runs. Absent or unreadable records give no Run skill (rate 1).
[[nodiscard]] scenario::ServerConfig demo_server_config(const dat::DatFile* portal);

struct HeadlessDemoOptions {
  int width = 1280;
  int height = 720;
  bool render_every_frame = false;  // for frame-time measurements
  // DATs to read instead of the embedded demo world (both must outlive the demo).
  const dat::DatFile* portal = nullptr;
  const dat::DatFile* cell = nullptr;
  // Message verdicts and per-tick object lines (docs/trace.md).
  std::optional<std::filesystem::path> trace;
  // Every `record_every`'th tick's frame as DIR/tick_NNNNNN.png (a clip).
  std::optional<std::filesystem::path> record_frames;
  std::uint64_t record_every = 1;
  // A scenario's text to play instead of the demo's (tests that need another walk).
  std::optional<std::string> scenario_text;
};

class HeadlessDemo {
 public:
  static core::Result<std::unique_ptr<HeadlessDemo>> create(HeadlessDemoOptions options = {});
  ~HeadlessDemo();
  HeadlessDemo(const HeadlessDemo&) = delete;
  HeadlessDemo& operator=(const HeadlessDemo&) = delete;

  // Runs frames until the physics has ticked `tick` times in all (from world
  // entry's login on), then draws that frame; with `screenshot`, saves it.
  core::Result<void> run_to_tick(std::uint64_t tick, std::optional<std::filesystem::path> screenshot = std::nullopt);
  // The latest snapshot and the last drawn picture.
  [[nodiscard]] const sim::RenderSnapshot& snapshot() const { return *world_->snapshot(); }
  [[nodiscard]] render::Image picture() { return presenter_->renderer().read_pixels(); }
  // Draws `snapshot` with the demo's camera (tests draw edited snapshots).
  core::Result<render::Image> draw(const sim::RenderSnapshot& snapshot);

  [[nodiscard]] World& world() noexcept { return *world_; }
  [[nodiscard]] OffscreenPresenter& presenter() noexcept { return *presenter_; }
  [[nodiscard]] audio::AudioSystem& audio() noexcept { return *audio_; }
  [[nodiscard]] const LoopReport& report() const noexcept { return loop_->report(); }
  [[nodiscard]] LoopbackInbox& inbox() noexcept { return *inbox_; }
  [[nodiscard]] Controls& controls() noexcept { return *controls_; }

 private:
  HeadlessDemo() = default;
  HeadlessDemoOptions options_;
  std::optional<dat::DatFile> own_portal_;
  std::optional<dat::DatFile> own_cell_;
  core::ManualClock clock_;
  std::unique_ptr<LoopbackInbox> inbox_;
  std::unique_ptr<World> world_;
  std::unique_ptr<OffscreenPresenter> presenter_;
  std::unique_ptr<audio::AudioSystem> audio_;
  std::unique_ptr<FrameLoop> loop_;
  std::unique_ptr<Controls> controls_;
};

}  // namespace dereth::app
