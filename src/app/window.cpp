#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <SDL.h>

// Under AddressSanitizer (GCC's macro, or clang's feature test) the window
// keeps the GL driver loaded; see keep_gl_driver_loaded.
#if defined(__SANITIZE_ADDRESS__)
#define DERETH_KEEP_GL_DRIVER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DERETH_KEEP_GL_DRIVER 1
#endif
#endif
#if defined(DERETH_KEEP_GL_DRIVER)
#include <dlfcn.h>
#include <link.h>
#endif

#include <fmt/format.h>

#include "dereth/app/game_screen.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/targeting.hpp"
#include "dereth/core/log.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

namespace dereth::app {

namespace {
constexpr std::size_t kChatLines = 8;
constexpr float kCreatorScale = 0.6F;  // the creation screen's text, of the overlay's scale
// Beside the model the panels keep to this much of the width, so the model
// on the right stays clear (longer lines end in "..").
constexpr float kPreviewPanelWidth = 0.6F;
constexpr std::size_t kChatCapacity = 200;
constexpr std::size_t kChatColumns = 72;
constexpr float kFlySpeed = 0.5F;  // metres per frame with a fly key held
// The backdrop behind the preview model: a dark slate, as retail's screens
// are dark, so the text panels and the lit model both stand out.
constexpr std::array<float, 4> kPreviewBackdrop{0.10F, 0.12F, 0.16F, 1.0F};
constexpr unsigned kGlFramebuffer = 0x8D40;  // GL_FRAMEBUFFER
constexpr std::uint64_t kNoteMs = 5000;      // how long a note (F12's "saved to") stays on screen

// Sanitizer builds only (the `debug` preset): keeps the GL driver module that
// the new context loaded (Mesa's swrast_dri.so, or a libgallium) mapped until
// the process ends. Mesa keeps a few blocks in the driver's own globals and
// never frees them; eglTerminate, inside SDL_Quit, dlcloses the driver, and
// LeakSanitizer then calls those blocks lost, with frames it cannot name.
// Kept loaded, the blocks stay reachable from the driver's data, as they are
// in a process that never unloads it. docs/sanitizers.md has the proof.
void keep_gl_driver_loaded() {
#if defined(DERETH_KEEP_GL_DRIVER)
  std::vector<std::string> drivers;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) -> int {
        const std::string_view name = info->dlpi_name != nullptr ? info->dlpi_name : "";
        if (name.ends_with("_dri.so") || name.find("/libgallium") != std::string_view::npos) {
          static_cast<std::vector<std::string>*>(out)->emplace_back(name);
        }
        return 0;
      },
      &drivers);
  for (const auto& d : drivers) {
    // RTLD_NOLOAD: only a module already loaded; RTLD_NODELETE: never unmapped.
    if (dlopen(d.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE) != nullptr) {
      core::logger(core::Module::App)->debug("window: {} kept loaded (sanitizer build)", d);
    }
  }
#endif
}
}  // namespace

struct WindowPresenter::Sdl {
  SDL_Window* window = nullptr;
  SDL_GLContext gl = nullptr;
  bool fullscreen = false;
  bool dragging = false;  // right button held
  bool orbiting = false;  // middle button held
  bool turned = false;    // mouse look moved this poll
  ~Sdl() {
    if (gl != nullptr) SDL_GL_DeleteContext(gl);
    if (window != nullptr) SDL_DestroyWindow(window);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
    // dereth uses SDL for the window only. SDL_QuitSubSystem keeps SDL's
    // D-Bus connection and the hints; SDL_Quit frees them.
    SDL_Quit();
  }
};

core::Result<std::unique_ptr<WindowPresenter>> WindowPresenter::create(const dat::DatFile* portal,
                                                                       const dat::DatFile* cell,
                                                                       WindowOptions options) {
  const auto fail = [](const std::string& what) {
    return std::unexpected(core::Error{core::ErrorKind::Io, "SDL", "", 0, what + " failed: " + SDL_GetError()});
  };
  // The display the environment names, and only that: with DISPLAY set and
  // no X server behind it, SDL must fail (and dereth go headless), not fall
  // through to another backend. SDL_VIDEODRIVER, when set, decides instead.
  const char* chosen = std::getenv("SDL_VIDEODRIVER");
  if (chosen == nullptr || *chosen == '\0') {
    std::string drivers;
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    const char* x11 = std::getenv("DISPLAY");
    if (wayland != nullptr && *wayland != '\0') drivers = "wayland";
    if (x11 != nullptr && *x11 != '\0') drivers += drivers.empty() ? "x11" : ",x11";
    if (!drivers.empty()) SDL_SetHintWithPriority(SDL_HINT_VIDEODRIVER, drivers.c_str(), SDL_HINT_OVERRIDE);
  }
  if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) {
    auto failed = fail("opening the display");
    SDL_Quit();  // what the failed init left (the D-Bus connection, the hint above)
    return failed;
  }
  core::logger(core::Module::App)->info("window: SDL video driver {}", SDL_GetCurrentVideoDriver());
  auto sdl = std::make_unique<Sdl>();
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
  Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_RESIZABLE;
  if (options.fullscreen) flags |= SDL_WINDOW_FULLSCREEN_DESKTOP;
  sdl->window = SDL_CreateWindow(options.title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, options.width,
                                 options.height, flags);
  if (sdl->window == nullptr) return fail("SDL_CreateWindow");
  sdl->fullscreen = options.fullscreen;
  sdl->gl = SDL_GL_CreateContext(sdl->window);
  if (sdl->gl == nullptr) return fail("SDL_GL_CreateContext");
  if (SDL_GL_MakeCurrent(sdl->window, sdl->gl) != 0) return fail("SDL_GL_MakeCurrent");
  keep_gl_driver_loaded();
  SDL_GL_SetSwapInterval(options.vsync ? 1 : 0);
  auto loader = reinterpret_cast<render::GlProcLoader>(&SDL_GL_GetProcAddress);
  DERETH_TRY(std::unique_ptr<render::Renderer> renderer, render::Renderer::create(loader, portal, cell));
  renderer->options().terrain_cache_bytes = options.terrain_cache_bytes;
  renderer->options().mesh_cache_bytes = options.mesh_cache_bytes;
  renderer->options().asset_workers = options.asset_workers;
  DERETH_TRY(std::unique_ptr<render::Overlay> overlay, render::Overlay::create());
  return std::unique_ptr<WindowPresenter>(
      new WindowPresenter(std::move(sdl), std::move(renderer), std::move(overlay), options, portal));
}

WindowPresenter::WindowPresenter(std::unique_ptr<Sdl> sdl, std::unique_ptr<render::Renderer> renderer,
                                 std::unique_ptr<render::Overlay> overlay, WindowOptions options,
                                 const dat::DatFile* portal)
    : sdl_(std::move(sdl)),
      renderer_(std::move(renderer)),
      overlay_(std::move(overlay)),
      options_(std::move(options)),
      chat_(kChatCapacity, kChatColumns),
      dialogs_(options_.options_file) {
  if (options_.free_camera) rig_.camera().mode = render::CameraMode::Free;
  if (portal != nullptr) {
    portal_ = *portal;  // a copy shares the open file
    preview_ = std::make_unique<CharacterPreview>(*portal_);
    // The terrain and sky before any world hands its own Region (use_region).
    renderer_->set_region(preview_->records().region());
  }
}

std::function<bool(std::uint32_t)> WindowPresenter::render_ready_hook() {
  return [renderer = renderer_.get()](std::uint32_t landblock) { return renderer->prepare_landblock(landblock); };
}

void WindowPresenter::use_region(std::shared_ptr<const dat::Region> region) {
  renderer_->set_region(std::move(region));
  // A frame drawn now, not shown (the next frame clears over it), so the
  // region's first-use work (its terrain layers composited and uploaded, the
  // sky's records) happens here, before the frame loop, instead of making
  // the loop's first frame hundreds of milliseconds long (--stats).
  int w = 0;
  int h = 0;
  SDL_GL_GetDrawableSize(sdl_->window, &w, &h);
  if (w > 0 && h > 0) {
    const sim::RenderSnapshot empty;
    if (auto drawn = renderer_->render_to_current(empty, rig_.camera(), w, h); !drawn) {
      core::logger(core::Module::App)->warn("the warm-up frame was not drawn: {}", drawn.error().message());
    }
  }
}

void WindowPresenter::use_records(std::shared_ptr<dat::RecordCache> records,
                                  std::shared_ptr<dat::CellRecordCache> cells) {
  renderer_->set_records(std::move(records));
  renderer_->set_cell_records(std::move(cells));
}

WindowPresenter::~WindowPresenter() {
  if (sdl_ && sdl_->gl != nullptr) SDL_GL_MakeCurrent(sdl_->window, sdl_->gl);
  overlay_.reset();
  renderer_.reset();
  sdl_.reset();
}

bool WindowPresenter::poll_input() {
  const bool was_turning = sdl_->turned;
  sdl_->turned = false;
  SDL_Event e;
  while (SDL_PollEvent(&e) != 0) {
    switch (e.type) {
      case SDL_QUIT: return false;
      case SDL_KEYUP:
        // Releases always pass, even while typing, so no key stays held.
        if (auto action =
                options_.keys.action_for(e.key.keysym.sym, player_input != nullptr && player_input->magic_mode())) {
          if (auto command = motion_command_for(*action)) {
            if (rig_.camera().mode == render::CameraMode::Follow && player_input != nullptr) {
              player_input->on_motion_key(*command, false);
            }
          } else if (player_input != nullptr && *action != KeyAction::ClearSelection) {
            player_input->on_key_action(*action, false);
          }
        }
        break;
      case SDL_TEXTINPUT:
        if (swallow_key_text_) {
          swallow_key_text_ = false;
        } else if (dialogs_.active() && creator_ == nullptr) {
          // A dialog has the keyboard: nothing typed reaches the chat box.
        } else if (creator_ != nullptr) {
          creator_->type(e.text.text);
        } else {
          input_.insert(e.text.text);
        }
        break;
      case SDL_KEYDOWN:
        swallow_key_text_ = false;
        if (e.key.keysym.sym == SDLK_F12) {
          // A picture of whatever is shown: the world, a dialog, the list.
          screenshot_requested_ = true;
          break;
        }
        if (creator_ != nullptr) {
          // The creation screen has the keyboard until it is sent or left.
          const SDL_Keycode k = e.key.keysym.sym;
          const bool big = (e.key.keysym.mod & KMOD_SHIFT) != 0;
          if (k == SDLK_ESCAPE) creator_outcome(CharacterCreator::Outcome::Back);
          if (k == SDLK_UP) creator_->up();
          if (k == SDLK_DOWN || k == SDLK_TAB) creator_->down();
          if (k == SDLK_LEFT) creator_->left(big);
          if (k == SDLK_RIGHT) creator_->right(big);
          if (k == SDLK_BACKSPACE) creator_->backspace();
          if (k == SDLK_RETURN || k == SDLK_KP_ENTER) creator_outcome(creator_->enter());
          break;
        }
        if (picker_ != nullptr) {
          // The character list has the keyboard until a character is chosen.
          const SDL_Keycode k = e.key.keysym.sym;
          if (k == SDLK_ESCAPE) return false;
          if (k == SDLK_UP) picker_->up();
          if (k == SDLK_DOWN) picker_->down();
          if (k == SDLK_RETURN || k == SDLK_KP_ENTER) act(picker_->activate());
          if (k == SDLK_c) {
            act(picker_->create());
            swallow_key_text_ = creator_ != nullptr;
          }
          if (k == SDLK_DELETE) act(picker_->remove());
          if (k >= SDLK_1 && k <= SDLK_9) choose(picker_->choose_number(static_cast<std::size_t>(k - SDLK_0)));
          break;
        }
        if (dialogs_.active()) {
          // The game menu or a popup has the keyboard until it closes.
          if (!dialog_input(e.key.keysym.sym)) return false;
          break;
        }
        if (input_.active()) {
          // The chat box has the keyboard: Enter sends, Esc cancels.
          switch (e.key.keysym.sym) {
            case SDLK_RETURN:
            case SDLK_KP_ENTER:
              if (auto typed = input_.submit(); typed && player_input != nullptr) player_input->on_chat_input(*typed);
              SDL_StopTextInput();
              break;
            case SDLK_ESCAPE:
              input_.cancel();
              SDL_StopTextInput();
              break;
            case SDLK_BACKSPACE: input_.backspace(); break;
            case SDLK_UP: input_.history_up(); break;
            case SDLK_DOWN: input_.history_down(); break;
            default: break;
          }
          break;
        }
        if (const auto action =
                options_.keys.action_for(e.key.keysym.sym, player_input != nullptr && player_input->magic_mode());
            action == KeyAction::Chat || e.key.keysym.sym == SDLK_KP_ENTER) {
          input_.open();
          SDL_StartTextInput();
          break;
        } else if (action && e.key.repeat == 0 &&
                   (rig_.camera().mode == render::CameraMode::Follow || *action == KeyAction::ClearSelection)) {
          // The free camera keeps the keys for flying (only Esc acts).
          if (auto command = motion_command_for(*action)) {
            if (player_input != nullptr) player_input->on_motion_key(*command, true);
          } else {
            const bool used = player_input != nullptr && player_input->on_key_action(*action, true);
            // Escape with nothing to clear opens the game menu.
            if (*action == KeyAction::ClearSelection && !used) dialogs_.open_menu();
          }
          break;
        }
        switch (e.key.keysym.sym) {
          case SDLK_ESCAPE: dialogs_.open_menu(); break;
          case SDLK_F11:
            sdl_->fullscreen = !sdl_->fullscreen;
            SDL_SetWindowFullscreen(sdl_->window, sdl_->fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
            break;
          case SDLK_F1: options_.hud = !options_.hud; break;
          case SDLK_F2: {
            auto& cam = rig_.camera();
            if (cam.mode == render::CameraMode::Follow) {
              cam.position = cam.eye();
              cam.mode = render::CameraMode::Free;
            } else {
              cam.mode = render::CameraMode::Follow;
            }
            break;
          }
          default: break;
        }
        break;
      case SDL_MOUSEBUTTONDOWN:
        if (e.button.button == SDL_BUTTON_LEFT) {
          if (creator_ != nullptr) {
            if (creator_panel_) {
              if (auto at = panel_line(*creator_panel_, e.button.x, e.button.y)) {
                creator_outcome(creator_->click(at->first, at->second));
              }
            }
          } else if (picker_ != nullptr) {
            click(e.button.x, e.button.y);
          } else if (dialogs_.active()) {
            if (!dialog_panel_) break;
            if (auto at = panel_line(*dialog_panel_, e.button.x, e.button.y)) {
              if (!dialog_outcome(dialogs_.click(at->first))) return false;
            }
          } else if (!spellbook_click(e.button.x, e.button.y, e.button.clicks >= 2)) {
            pick(e.button.x, e.button.y);
          }
        }
        if (e.button.button == SDL_BUTTON_RIGHT) sdl_->dragging = true;
        if (e.button.button == SDL_BUTTON_MIDDLE) sdl_->orbiting = true;
        break;
      case SDL_MOUSEBUTTONUP:
        if (e.button.button == SDL_BUTTON_RIGHT) {
          sdl_->dragging = false;
          if (player_input != nullptr) player_input->on_mouse_turn(0);
        }
        if (e.button.button == SDL_BUTTON_MIDDLE) sdl_->orbiting = false;
        break;
      case SDL_MOUSEMOTION: {
        // Follow camera: the right button turns the player (mouse look), the
        // middle one orbits the camera. Free camera: the right button orbits.
        const bool follow = rig_.camera().mode == render::CameraMode::Follow;
        if (sdl_->dragging && follow && player_input != nullptr && e.motion.xrel != 0) {
          player_input->on_mouse_turn(e.motion.xrel > 0 ? 1 : -1);
          sdl_->turned = true;
        }
        if ((sdl_->dragging && !follow) || sdl_->orbiting) {
          rig_.camera().orbit(static_cast<float>(e.motion.xrel) * options_.mouse_sensitivity,
                              static_cast<float>(e.motion.yrel) * options_.mouse_sensitivity);
        }
        break;
      }
      case SDL_MOUSEWHEEL: rig_.camera().zoom(static_cast<float>(e.wheel.y)); break;
      default: break;
    }
  }
  // Mouse look stops when the mouse does.
  if (was_turning && !sdl_->turned && sdl_->dragging && player_input != nullptr) player_input->on_mouse_turn(0);
  if (rig_.camera().mode == render::CameraMode::Free && !input_.active()) {
    const Uint8* keys = SDL_GetKeyboardState(nullptr);
    const float f = (keys[SDL_SCANCODE_W] != 0 ? kFlySpeed : 0.0F) - (keys[SDL_SCANCODE_S] != 0 ? kFlySpeed : 0.0F);
    const float r = (keys[SDL_SCANCODE_D] != 0 ? kFlySpeed : 0.0F) - (keys[SDL_SCANCODE_A] != 0 ? kFlySpeed : 0.0F);
    const float u = (keys[SDL_SCANCODE_E] != 0 ? kFlySpeed : 0.0F) - (keys[SDL_SCANCODE_Q] != 0 ? kFlySpeed : 0.0F);
    if (f != 0.0F || r != 0.0F || u != 0.0F) rig_.camera().move(f, r, u);
  }
  return true;
}

core::Result<void> WindowPresenter::present(const sim::RenderSnapshot& snapshot, const FrameInfo& info) {
  rig_.update(snapshot, viewer_placer);
  int w = 0;
  int h = 0;
  SDL_GL_GetDrawableSize(sdl_->window, &w, &h);
  if (w <= 0 || h <= 0) return {};  // minimised
  // The character list and the creation screen draw their turning model
  // instead of the world (which is empty before the player enters).
  const sim::RenderSnapshot* drawn = &snapshot;
  last_camera_ = rig_.camera();
  last_was_preview_ = false;
  if (auto model = preview_model()) {
    const double seconds = preview_time_.value_or(static_cast<double>(SDL_GetTicks64()) / 1000.0);
    drawn = &preview_->snapshot(*model, seconds);
    last_camera_ = preview_->camera(*model, w, h);
    last_was_preview_ = true;
  }
  last_snapshot_ = drawn;
  DERETH_CHECK(draw_scene(*drawn, w, h, false));
  last_time_ = info.sim_time;
  render::OverlayFrame overlay;
  if (options_.hud) {
    const auto& rs = renderer_->stats();
    render::HudStats hud;
    hud.fps = info.fps;
    hud.frame_ms = info.frame_ms;
    hud.objects = snapshot.objects.size();
    hud.objects_drawn = rs.objects - rs.objects_skipped;
    for (const auto& e : snapshot.emitters) hud.particles += e.particles.size();
    hud.draw_calls = rs.draw_calls;
    hud.triangles = rs.triangles;
    if (info.network) {
      hud.online = true;
      hud.packets_in = info.network->packets_received;
      hud.packets_out = info.network->packets_sent;
      hud.messages_in = info.network->messages_received;
      hud.messages_out = info.network->messages_sent;
      hud.resends = info.network->retransmits_sent;
      hud.naks = info.network->naks_sent;
      hud.bad_packets = info.network->dropped();  // every drop, whatever its counter
      if (info.network->echo_round_trip) hud.rtt_ms = *info.network->echo_round_trip * 1000.0;
    }
    overlay.panels.push_back(
        render::TextPanel{render::Anchor::TopLeft, render::format_hud(hud), {255, 255, 255, 255}, 0.6F, {}});
  }
  spellbook_panel_.reset();
  if (!last_was_preview_) spellbook_panel_ = add_game_screen(overlay, *this, options_.radar, options_.panels);
  if (input_.active()) {
    overlay.panels.push_back(
        render::TextPanel{render::Anchor::BottomLeft, {"> " + input_.text() + "_"}, {255, 255, 255, 255}, 0.7F, {}});
  }
  if (chat_.size() > 0) {
    overlay.panels.push_back(render::TextPanel{render::Anchor::BottomLeft,
                                               chat_.recent(kChatLines),
                                               {255, 240, 180, 255},
                                               0.5F,
                                               chat_.recent_colors(kChatLines)});
  }
  picker_panel_.reset();
  creator_panel_.reset();
  // With the model on the right, the list and the creation screen keep to the left.
  const render::Anchor screen_anchor = last_was_preview_ ? render::Anchor::CentreLeft : render::Anchor::Centre;
  overlay_->options().max_panel_width = last_was_preview_ ? kPreviewPanelWidth * static_cast<float>(w) : 0.0F;
  if (creator_ != nullptr) {
    // As many rows as the window holds: one line's height from the layout.
    render::OverlayFrame probe;
    probe.panels.push_back(render::TextPanel{screen_anchor, {"M"}, {}, kCreatorScale, {}});
    const auto probed = render::layout_overlay(probe, w, h, overlay_->options());
    if (!probed.panels.empty() && probed.panels[0].text.height() > 0) {
      const float room = static_cast<float>(h) - 2.0F * (overlay_->options().margin + overlay_->options().padding);
      creator_->set_max_lines(std::min(static_cast<std::size_t>(std::max(room / probed.panels[0].text.height(), 1.0F)),
                                       overlay_->options().max_panel_lines));
    }
    render::TextPanel panel{screen_anchor, creator_->lines(), {220, 220, 220, 255}, kCreatorScale, {}};
    const auto kinds = creator_->line_kinds();
    const std::size_t selected_line = creator_->line_of_row(creator_->selected());
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      render::Rgba8 c = panel.color;
      switch (kinds[i]) {
        case CharacterCreator::LineKind::Title: c = {255, 255, 255, 255}; break;
        case CharacterCreator::LineKind::Row:
          c = i == selected_line ? render::Rgba8{255, 230, 90, 255} : panel.color;
          break;
        case CharacterCreator::LineKind::Info: c = {150, 200, 255, 255}; break;
        case CharacterCreator::LineKind::Problem: c = {255, 110, 90, 255}; break;
        case CharacterCreator::LineKind::Status:
          c = creator_->status_is_error() ? render::Rgba8{255, 110, 90, 255} : render::Rgba8{140, 240, 140, 255};
          break;
      }
      panel.line_colors.push_back(c);
    }
    creator_panel_ = overlay.panels.size();
    overlay.panels.push_back(std::move(panel));
  } else if (picker_ != nullptr) {
    render::TextPanel list{screen_anchor, picker_->lines(), {220, 220, 220, 255}, 0.75F, {}};
    list.line_colors.assign(list.lines.size(), list.color);
    for (std::size_t i = 0; i < picker_->size(); ++i) {
      if (picker_->list().characters[i].seconds_greyed_out > 0) {
        list.line_colors[CharacterPicker::line_of(i)] = {140, 140, 140, 255};
      }
    }
    for (std::size_t i = picker_->size(); i < picker_->slots(); ++i) {
      list.line_colors[CharacterPicker::line_of(i)] = {150, 170, 190, 255};
    }
    list.line_colors[CharacterPicker::line_of(picker_->selected())] = {255, 230, 90, 255};
    list.line_colors[picker_->actions_line()] = {150, 200, 255, 255};
    if (!picker_->message().empty()) {
      list.line_colors.back() =
          picker_->message_is_error() ? render::Rgba8{255, 110, 90, 255} : render::Rgba8{140, 240, 140, 255};
    }
    picker_panel_ = overlay.panels.size();
    overlay.panels.push_back(std::move(list));
  } else if (!info.in_world && options_.loading_bar) {
    overlay.progress = render::ProgressBar{0.5F, "Entering the world...", 0.6F};
  }
  dialog_panel_.reset();
  if (creator_ == nullptr && picker_ == nullptr && dialogs_.active()) {
    dialog_panel_ = overlay.panels.size();
    dialog_panel(overlay);
  }
  if (!note_.empty() && SDL_GetTicks64() < note_until_ms_) {
    overlay.panels.push_back(render::TextPanel{render::Anchor::TopLeft, {note_}, {140, 240, 140, 255}, 0.8F, {}});
  }
  if (auto shown = overlay_->draw(overlay, w, h); !shown) {
    core::logger(core::Module::App)->warn("overlay not drawn: {}", shown.error().message());
  }
  last_overlay_ = std::move(overlay);
  last_width_ = w;
  last_height_ = h;
  if (screenshot_requested_) {
    screenshot_requested_ = false;
    const auto path = options_.screenshot_dir / fmt::format("dereth_tick_{:06}.png", info.tick);
    std::error_code ec;
    const auto shown_path = std::filesystem::absolute(path, ec);
    if (auto saved = save_picture(*drawn, path, w, h); !saved) {
      core::logger(core::Module::App)->warn("screenshot not saved: {}", saved.error().message());
      note_ = "Screenshot not saved: " + saved.error().message();
    } else {
      core::logger(core::Module::App)->info("screenshot saved to {}", path.string());
      note_ = "Screenshot saved to " + (ec ? path : shown_path).string();
    }
    // On screen from the next frame on (this one is already drawn and saved).
    note_until_ms_ = SDL_GetTicks64() + kNoteMs;
  }
  SDL_GL_SwapWindow(sdl_->window);
  return {};
}

std::optional<PreviewModel> WindowPresenter::preview_model() {
  if (!preview_) return std::nullopt;
  if (creator_ != nullptr) return app::preview_model(creator_->builder());
  if (picker_ != nullptr && picker_->selected() < picker_->size()) {
    // F658 gives no appearance: the heritage's default model.
    if (const auto* data = preview_->char_gen()) return default_preview_model(*data);
  }
  return std::nullopt;
}

core::Result<void> WindowPresenter::draw_scene(const sim::RenderSnapshot& snapshot, int w, int h, bool offscreen) {
  auto& o = renderer_->options();
  const auto saved = o;
  // A shown frame spreads first-use loads over frames; a picture loads
  // everything it shows (the same picture headless would draw).
  o.load_budget_ms = offscreen ? 0.0 : static_cast<double>(options_.load_budget_ms);
  if (last_was_preview_) {
    // A studio: no terrain or sky, the backdrop, and a fixed light from the
    // camera's upper left (the Region's sky would fog the backdrop to its colour).
    o.draw_terrain = false;
    o.draw_sky_objects = false;
    o.use_region_sky = false;
    o.clear_color = kPreviewBackdrop;
    o.ambient = glm::vec3(0.5F);
    o.sun_color = glm::vec3(0.6F);
    o.sun_towards = glm::vec3(-0.4F, -0.8F, 0.6F);
  }
  auto drawn = offscreen ? renderer_->render(snapshot, last_camera_, w, h)
                         : renderer_->render_to_current(snapshot, last_camera_, w, h);
  o = saved;
  return drawn;
}

core::Result<void> WindowPresenter::save_picture(const sim::RenderSnapshot& snapshot, const std::filesystem::path& path,
                                                 int w, int h) {
  auto result = draw_scene(snapshot, w, h, true);
  if (result && renderer_->bind_framebuffer()) {
    if (auto shown = overlay_->draw(last_overlay_, w, h); !shown) {
      core::logger(core::Module::App)->warn("overlay not drawn in the picture: {}", shown.error().message());
    }
    result = renderer_->write_screenshot(path);
  }
  // The window's own framebuffer again.
  using BindFramebuffer = void (*)(unsigned, unsigned);
  if (auto bind = reinterpret_cast<BindFramebuffer>(SDL_GL_GetProcAddress("glBindFramebuffer"))) {
    bind(kGlFramebuffer, 0);
  }
  return result;
}

void WindowPresenter::choose(std::optional<std::uint32_t> guid) {
  if (!guid) return;
  picker_ = nullptr;
  if (character_screens != nullptr) character_screens->on_character_chosen(*guid);
}

void WindowPresenter::show_creator(CharacterCreator* creator) {
  creator_ = creator;
  if (creator_ != nullptr) {
    SDL_StartTextInput();
  } else if (!input_.active()) {
    SDL_StopTextInput();
  }
}

void WindowPresenter::act(const PickerAction& action) {
  switch (action.kind) {
    case PickerAction::Kind::Enter: choose(action.guid); break;
    case PickerAction::Kind::Create:
    case PickerAction::Kind::Delete:
      if (character_screens != nullptr) character_screens->on_picker_action(action);
      break;
    case PickerAction::Kind::None: break;
  }
}

void WindowPresenter::creator_outcome(CharacterCreator::Outcome outcome) {
  if (creator_ == nullptr) return;
  if (outcome == CharacterCreator::Outcome::Submit && character_screens != nullptr) {
    character_screens->on_create_character(creator_->message());
  }
  if (outcome == CharacterCreator::Outcome::Back) {
    show_creator(nullptr);
    if (character_screens != nullptr) character_screens->on_creator_back();
  }
}

std::optional<std::pair<std::size_t, float>> WindowPresenter::panel_line(std::size_t panel, int x, int y) const {
  if (last_width_ <= 0 || last_height_ <= 0) return std::nullopt;
  int ww = 0;
  int wh = 0;
  SDL_GetWindowSize(sdl_->window, &ww, &wh);
  const float px = ww > 0 ? static_cast<float>(x) * static_cast<float>(last_width_) / static_cast<float>(ww) : 0.0F;
  const float py = wh > 0 ? static_cast<float>(y) * static_cast<float>(last_height_) / static_cast<float>(wh) : 0.0F;
  const auto layout = render::layout_overlay(last_overlay_, last_width_, last_height_, overlay_->options());
  if (panel >= layout.panels.size()) return std::nullopt;
  const render::PanelPlacement& p = layout.panels[panel];
  if (p.lines == 0 || px < p.box.x0 || px > p.box.x1 || py < p.text.y0 || py >= p.text.y1) return std::nullopt;
  const auto line = static_cast<std::size_t>((py - p.text.y0) / (p.text.height() / static_cast<float>(p.lines)));
  const float across = p.text.width() > 0 ? (px - p.text.x0) / p.text.width() : 0.0F;
  return std::pair{line, std::clamp(across, 0.0F, 1.0F)};
}

// A left click on the spellbook window: a spell line goes to the player's
// controls; its title and help lines take the click and do nothing.
bool WindowPresenter::spellbook_click(int x, int y, bool double_click) {
  if (!spellbook_panel_) return false;
  const auto at = panel_line(*spellbook_panel_, x, y);
  if (!at) return false;
  if (at->first >= kSpellbookTitleLines && player_input != nullptr) {
    player_input->on_spellbook_click(at->first - kSpellbookTitleLines, double_click);
  }
  return true;
}

// A left click on the character list: the line under the pointer, found from
// where the last frame's overlay put the panel (window to drawable pixels).
void WindowPresenter::click(int x, int y) {
  if (!picker_panel_) return;
  if (auto at = panel_line(*picker_panel_, x, y)) act(picker_->click(at->first, at->second));
}

// A left click in the world: the ray through the pointer, from the camera
// the last frame was drawn with (window to drawable pixels).
void WindowPresenter::pick(int x, int y) {
  if (player_input == nullptr || last_width_ <= 0 || last_height_ <= 0) return;
  int ww = 0;
  int wh = 0;
  SDL_GetWindowSize(sdl_->window, &ww, &wh);
  const float px = ww > 0 ? static_cast<float>(x) * static_cast<float>(last_width_) / static_cast<float>(ww) : 0.0F;
  const float py = wh > 0 ? static_cast<float>(y) * static_cast<float>(last_height_) / static_cast<float>(wh) : 0.0F;
  player_input->on_pick(camera_ray(rig_.camera(), px, py, last_width_, last_height_));
}

core::Result<void> WindowPresenter::screenshot(const std::filesystem::path& path) {
  // The window's frame was drawn into the default framebuffer: draw the same
  // snapshot offscreen at the frame's size, its overlay over it, and save that.
  if (last_snapshot_ == nullptr) {
    return std::unexpected(core::Error{core::ErrorKind::Invalid, path.string(), "", 0, "nothing has been drawn yet"});
  }
  // Drawn at the last frame's size, so the overlay's layout is that frame's.
  return save_picture(*last_snapshot_, path, std::max(last_width_, 1), std::max(last_height_, 1));
}

void WindowPresenter::chat(const protocol::ChatLine& line) {
  if (line.channel == "popup") {
    // PopupString: a dialog the player dismisses, not a chat line.
    dialogs_.popup(line.text);
    core::logger(core::Module::App)->info("{}", headless_chat_line(line));
    return;
  }
  const auto c = chat_color(line.chat_type);
  // The player's guid, from the frame last drawn, so its own speech reads "You say".
  std::uint32_t player = 0;
  if (last_snapshot_ != nullptr) {
    for (const auto& o : last_snapshot_->objects) {
      if (o.is_player) player = o.guid;
    }
  }
  chat_.add(last_time_, format_chat_line(line, player), render::Rgba8{c[0], c[1], c[2], c[3]});
  // One log record per line of the message.
  const std::string logged = headless_chat_line(line);
  for (std::size_t pos = 0; pos <= logged.size();) {
    const std::size_t newline = std::min(logged.find('\n', pos), logged.size());
    core::logger(core::Module::App)->info("{}", std::string_view(logged).substr(pos, newline - pos));
    pos = newline + 1;
  }
}

// A key while a dialog is up: Up/Down (Tab, W/S) move, Enter (or Space)
// chooses, Esc cancels. False when the menu's Quit or Log out ends the run.
bool WindowPresenter::dialog_input(std::int32_t sdl_key) {
  switch (sdl_key) {
    case SDLK_UP:
    case SDLK_w: return dialog_outcome(dialogs_.key(DialogKey::Up));
    case SDLK_DOWN:
    case SDLK_s:
    case SDLK_TAB: return dialog_outcome(dialogs_.key(DialogKey::Down));
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
    case SDLK_SPACE: return dialog_outcome(dialogs_.key(DialogKey::Enter));
    case SDLK_ESCAPE: return dialog_outcome(dialogs_.key(DialogKey::Escape));
    default: return true;
  }
}

bool WindowPresenter::dialog_outcome(GameMenu::Outcome outcome) {
  switch (outcome) {
    case GameMenu::Outcome::Quit: return false;
    case GameMenu::Outcome::LogOut:
      if (game_menu != nullptr) game_menu->on_log_out();
      return false;
    case GameMenu::Outcome::None:
    case GameMenu::Outcome::Resume: break;
  }
  return true;
}

// The dialog on top as a centred panel: the title white, the text grey, the
// selected button yellow.
void WindowPresenter::dialog_panel(render::OverlayFrame& overlay) const {
  const Dialog* d = dialogs_.shown();
  if (d == nullptr) return;
  render::TextPanel panel{render::Anchor::Centre, d->lines(), {200, 200, 200, 255}, 0.85F, {}};
  panel.line_colors.assign(panel.lines.size(), panel.color);
  panel.line_colors[d->title_line()] = {255, 255, 255, 255};
  for (std::size_t i = 0; i < d->buttons(); ++i) panel.line_colors[d->button_line(i)] = {150, 200, 255, 255};
  panel.line_colors[d->button_line(d->selected())] = {255, 230, 90, 255};
  overlay.panels.push_back(std::move(panel));
}

}  // namespace dereth::app
