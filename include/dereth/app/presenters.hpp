#pragma once
// The two presenters of the frame loop: offscreen (EGL surfaceless, for
// headless runs, screenshots and golden images) and the SDL2 window.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "dereth/app/character_creator.hpp"
#include "dereth/app/character_picker.hpp"
#include "dereth/app/character_preview.hpp"
#include "dereth/app/chat.hpp"
#include "dereth/app/dialog.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/key_map.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/render/camera.hpp"
#include "dereth/render/headless_context.hpp"
#include "dereth/render/overlay.hpp"
#include "dereth/render/renderer.hpp"

namespace dereth::app {

// How the first snapshot places the follow camera when the default (behind
// the player, along its heading) is not wanted: the demo frames its action.
// `toward` zero looks along the player's heading.
struct CameraFraming {
  glm::vec3 toward{0.0F, 1.0F, 0.0F};  // world direction from the player the camera looks along (z ignored)
  float distance = 6.0F;               // metres behind the player
  float pitch = 0.3F;                  // radians below the horizon
  float fov_y_degrees = 45.0F;         // vertical lens
  float target_height = 1.5F;          // metres above the player's origin the camera looks at
  bool after_teleport = false;         // place the camera by this framing after every teleport too
};

// Keeps a follow camera on the player: the first snapshot places it behind
// the player (or as the framing says); afterwards it tracks the player's
// position, keeping its direction (the user orbits). A teleport (a jump of
// over 20 m) places the follow camera behind the player afresh. With a
// viewer placer, the follow camera's eye is where retail's viewer sphere
// stops on its way from the target to the wanted point (short of walls).
class CameraRig {
 public:
  void update(const sim::RenderSnapshot& snapshot, ViewerPlacer* placer = nullptr);
  // Before the first snapshot: place the camera by `framing` instead.
  void set_framing(const CameraFraming& framing) noexcept { framing_ = framing; }
  [[nodiscard]] render::Camera& camera() noexcept { return camera_; }
  [[nodiscard]] const render::Camera& camera() const noexcept { return camera_; }
  [[nodiscard]] audio::Listener listener() const;

 private:
  render::Camera camera_;
  std::optional<CameraFraming> framing_;
  // Places or tracks the camera on the snapshot's player.
  void place(const sim::RenderSnapshot& snapshot);
  glm::vec3 last_origin_{0.0F};
  bool placed_ = false;
};

struct OffscreenOptions {
  int width = 1280;
  int height = 720;
  bool every_frame = false;  // render every frame (frame-time measurements), not only for pictures
};

class OffscreenPresenter final : public Presenter {
 public:
  static core::Result<std::unique_ptr<OffscreenPresenter>> create(const dat::DatFile* portal, const dat::DatFile* cell,
                                                                  OffscreenOptions options);
  ~OffscreenPresenter() override;
  [[nodiscard]] bool wants_frame(bool screenshot_due) const override { return screenshot_due || options_.every_frame; }
  void follow(const sim::RenderSnapshot& snapshot) override { rig_.update(snapshot, viewer_placer); }
  void use_region(std::shared_ptr<const dat::Region> region) override { renderer_->set_region(std::move(region)); }
  void use_records(std::shared_ptr<dat::RecordCache> records, std::shared_ptr<dat::CellRecordCache> cells) override {
    renderer_->set_records(std::move(records));
    renderer_->set_cell_records(std::move(cells));
  }
  core::Result<void> present(const sim::RenderSnapshot& snapshot, const FrameInfo& info) override;
  core::Result<void> screenshot(const std::filesystem::path& path) override;
  [[nodiscard]] audio::Listener listener() const override { return rig_.listener(); }
  [[nodiscard]] render::Renderer& renderer() noexcept { return *renderer_; }
  [[nodiscard]] const render::FrameTiming* last_render_timing() const override { return &renderer_->last_timing(); }
  [[nodiscard]] const render::Renderer* report_renderer() const override { return renderer_.get(); }
  [[nodiscard]] const std::string& gl_description() const noexcept { return gl_description_; }
  [[nodiscard]] CameraRig& rig() noexcept { return rig_; }

 private:
  OffscreenPresenter(render::HeadlessContext context, std::unique_ptr<render::Renderer> renderer,
                     OffscreenOptions options);
  render::HeadlessContext context_;
  std::unique_ptr<render::Renderer> renderer_;
  OffscreenOptions options_;
  CameraRig rig_;
  std::string gl_description_;
};

struct WindowOptions {
  int width = 1280;
  int height = 720;
  bool fullscreen = false;
  bool vsync = true;
  bool hud = true;
  bool radar = true;   // the radar while in the world (Presenter::hud_radar)
  bool panels = true;  // the other game-screen panels (target, vitals, combat mode, spell bar)
  std::string title = "dereth";
  std::filesystem::path screenshot_dir = ".";  // where F12 saves
  bool free_camera = false;                    // start with the free camera (config camera_mode)
  float mouse_sensitivity = 1.0F;              // multiplies mouse orbiting (config mouse_sensitivity)
  // The renderer's load budget for a shown frame (RendererOptions::load_budget_ms;
  // 0: none); the config's render_load_budget_ms (default 4) sets it for the
  // app's windows. Screenshots load everything.
  float load_budget_ms = 0.0F;
  // The terrain surface cache's GPU bound (RendererOptions::terrain_cache_bytes;
  // the config's terrain_cache_mb).
  std::size_t terrain_cache_bytes = std::size_t{64} << 20U;
  // The meshes' and their textures' GPU bound (RendererOptions::mesh_cache_bytes;
  // the config's mesh_cache_mb; 0: none).
  std::size_t mesh_cache_bytes = std::size_t{512} << 20U;
  // Threads reading and decoding meshes and textures for shown frames
  // (RendererOptions::asset_workers; the config's stream_workers; 0: none).
  int asset_workers = 0;
  KeyMap keys = KeyMap::retail_default();  // the key bindings (config key.<action>)
  // "Entering the world..." until the player exists: a live session's
  // login; a replay has none to wait for (its capture may start after it).
  bool loading_bar = true;
  // Where the options are kept (the config file), for the Esc menu's Options page.
  std::string options_file;
};

// SDL2 window with an OpenGL 3.3 core context, the HUD (frame rate, object
// and particle counts, network statistics) and a chat panel of server text
// drawn over the frame, and a progress bar until the player is in the world.
// Before the world: the character list (CharacterPicker: Up/Down, Enter, a
// number, C creates, Delete twice deletes, clicks) and the creation screen
// (CharacterCreator: Up/Down, Left/Right, typing, Enter, Esc, clicks).
// Keys: the key map's (options.keys: movement, combat, selection, chat;
// Esc clears the selection, or with none opens the game menu: dialog.hpp),
// F11 toggles fullscreen, F1 toggles the HUD, F12 saves a screenshot (and
// says where, on screen), F2 switches follow/free camera;
// a left click selects what it hits, the right mouse button held turns the
// player (mouse look; in the free camera it orbits), the middle one orbits,
// the wheel zooms, WASD/QE fly the free camera.
class WindowPresenter final : public Presenter {
 public:
  // Fails (with SDL's reason) when no display can be opened.
  static core::Result<std::unique_ptr<WindowPresenter>> create(const dat::DatFile* portal, const dat::DatFile* cell,
                                                               WindowOptions options);
  ~WindowPresenter() override;
  bool poll_input() override;
  void follow(const sim::RenderSnapshot& snapshot) override { rig_.update(snapshot, viewer_placer); }
  // Before any world (the character screens) the window draws with the
  // Region its character screens' records read; a world's replaces it.
  void use_region(std::shared_ptr<const dat::Region> region) override;
  // Renderer::prepare_landblock: the window draws every frame, portal space
  // included, so the teleport gate waits for the destination to be uploaded.
  [[nodiscard]] std::function<bool(std::uint32_t)> render_ready_hook() override;
  void use_records(std::shared_ptr<dat::RecordCache> records, std::shared_ptr<dat::CellRecordCache> cells) override;
  core::Result<void> present(const sim::RenderSnapshot& snapshot, const FrameInfo& info) override;
  core::Result<void> screenshot(const std::filesystem::path& path) override;
  [[nodiscard]] audio::Listener listener() const override { return rig_.listener(); }
  [[nodiscard]] CameraRig& rig() noexcept { return rig_; }
  [[nodiscard]] const render::FrameTiming* last_render_timing() const override { return &renderer_->last_timing(); }
  [[nodiscard]] const render::Renderer* report_renderer() const override { return renderer_.get(); }
  void chat(const protocol::ChatLine& line) override;
  void show_characters(CharacterPicker* picker) override { picker_ = picker; }
  void show_creator(CharacterCreator* creator) override;
  // The preview model's turn is taken at these seconds instead of the wall
  // clock (tests: the same pose in two pictures); nothing: the wall clock.
  void set_preview_time(std::optional<double> seconds) noexcept { preview_time_ = seconds; }
  // The game menu and the server's popups (a PopupString arrives through
  // chat() and opens one instead of a chat line).
  [[nodiscard]] const Dialogs& dialogs() const noexcept { return dialogs_; }
  // What the last frame's overlay held (tests read the HUD, the dialog and
  // the screenshot's note from it).
  [[nodiscard]] const render::OverlayFrame& last_overlay() const noexcept { return last_overlay_; }

 private:
  struct Sdl;
  WindowPresenter(std::unique_ptr<Sdl> sdl, std::unique_ptr<render::Renderer> renderer,
                  std::unique_ptr<render::Overlay> overlay, WindowOptions options, const dat::DatFile* portal);
  std::unique_ptr<Sdl> sdl_;
  std::unique_ptr<render::Renderer> renderer_;
  std::unique_ptr<render::Overlay> overlay_;
  WindowOptions options_;
  CameraRig rig_;
  render::ChatLog chat_;
  ChatInput input_;                          // the chat box's input line (Enter opens it)
  CharacterPicker* picker_ = nullptr;        // the character list, while shown
  render::OverlayFrame last_overlay_;        // what the last frame's overlay held, for clicks
  std::optional<std::size_t> picker_panel_;  // its index in last_overlay_.panels
  CharacterCreator* creator_ = nullptr;      // the creation screen, while shown (over the list)
  // The list's C opened the creation screen: the text that key types next
  // ("c") is not the name's. Cleared by that text or by the next key down.
  bool swallow_key_text_ = false;
  std::optional<std::size_t> creator_panel_;
  // The list's and the creation screen's turning model (null without a portal DAT).
  std::optional<dat::DatFile> portal_;
  std::unique_ptr<CharacterPreview> preview_;
  std::optional<double> preview_time_;
  // The model the screen shown now previews, if any.
  std::optional<PreviewModel> preview_model();
  // How the last frame was drawn, for screenshot(): its camera, and whether
  // it was the preview (no terrain, no sky objects, the dark backdrop).
  render::Camera last_camera_;
  bool last_was_preview_ = false;
  // Draws `snapshot` offscreen as the window drew it, the overlay over it,
  // and saves the picture: what the user sees is what the picture shows.
  core::Result<void> save_picture(const sim::RenderSnapshot& snapshot, const std::filesystem::path& path, int w, int h);
  core::Result<void> draw_scene(const sim::RenderSnapshot& snapshot, int w, int h, bool offscreen);
  void act(const PickerAction& action);
  void creator_outcome(CharacterCreator::Outcome outcome);
  // Panel `panel` of the last frame's overlay under window point (x, y): the
  // line and how far across the panel (0..1), or nothing.
  std::optional<std::pair<std::size_t, float>> panel_line(std::size_t panel, int x, int y) const;
  int last_width_ = 0;
  int last_height_ = 0;
  void choose(std::optional<std::uint32_t> guid);
  void click(int x, int y);
  // A click on the spellbook window (true: it took the click).
  bool spellbook_click(int x, int y, bool double_click);
  void pick(int x, int y);
  double last_time_ = 0.0;
  bool screenshot_requested_ = false;
  // Esc's menu and the popups: keys and clicks while one is up, its panel.
  Dialogs dialogs_;
  std::optional<std::size_t> dialog_panel_;     // its index in last_overlay_.panels
  std::optional<std::size_t> spellbook_panel_;  // the spellbook's index in last_overlay_.panels
  bool dialog_input(std::int32_t sdl_key);      // an SDL_Keycode; false: quit
  bool dialog_outcome(GameMenu::Outcome outcome);
  void dialog_panel(render::OverlayFrame& overlay) const;
  // A note on screen for a few seconds (where F12's picture went).
  std::string note_;
  std::uint64_t note_until_ms_ = 0;
  // The snapshot last presented (valid until the world's next tick, which is
  // after the frame loop's screenshot call).
  const sim::RenderSnapshot* last_snapshot_ = nullptr;
};

}  // namespace dereth::app
