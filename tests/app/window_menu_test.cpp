// The window's dialogs and notes (SDL's offscreen driver): Esc with nothing
// selected opens the game menu, drawn by the overlay and walked by keys and
// clicks, Log out asks once; a PopupString is a dialog the player dismisses,
// not a chat line; F12 says on screen where the picture went; the HUD before
// the world shows the session's counters. The pictures are kept under the
// test's folder (DERETH_KEEP_PICTURES=DIR copies them there to look at).
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <SDL.h>

#include "dereth/app/frame_loop.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/render/overlay.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

#include "run_cli.hpp"
#include "support/temp_dir.hpp"
#include "window_support.hpp"

namespace {

void key(SDL_Keycode sym) {
  SDL_Event e{};
  e.type = SDL_KEYDOWN;
  e.key.keysym.sym = sym;
  SDL_PushEvent(&e);
}

std::unique_ptr<dereth::app::WindowPresenter> make_window(const std::filesystem::path& shots, bool hud) {
  dereth::app::WindowOptions o;
  o.width = 640;
  o.height = 480;
  o.hud = hud;
  o.screenshot_dir = shots;
  o.options_file = "/home/player/.config/dereth/dereth.conf";
  return dereth::test::offscreen_window(o);
}

// The panel of the last frame whose first line is `first`, if any.
const dereth::render::TextPanel* panel_starting(const dereth::render::OverlayFrame& frame, const std::string& first) {
  for (const auto& p : frame.panels) {
    if (!p.lines.empty() && p.lines.front() == first) return &p;
  }
  return nullptr;
}

bool any_line(const dereth::render::OverlayFrame& frame, const std::string& part) {
  for (const auto& p : frame.panels) {
    for (const auto& l : p.lines) {
      if (l.find(part) != std::string::npos) return true;
    }
  }
  return false;
}

void keep(const std::filesystem::path& picture) {
  if (const char* dir = std::getenv("DERETH_KEEP_PICTURES"); dir != nullptr && *dir != '\0') {
    std::error_code ec;
    std::filesystem::copy_file(picture, std::filesystem::path(dir) / picture.filename(),
                               std::filesystem::copy_options::overwrite_existing, ec);
  }
}

}  // namespace

TEST_CASE("The window's Esc menu: opened with nothing selected, drawn, walked by keys and clicks, Log out asked once",
          "[app][window][menu]") {
  const dereth::test::TempDir tmp("window-menu");
  auto window = make_window(tmp.path(), false);
  if (!window) return;
  bool selected = true;
  int logged_out = 0;
  struct Input final : dereth::app::PlayerInput, dereth::app::GameMenuActions {
    bool* selected = nullptr;
    int* logged_out = nullptr;
    bool on_key_action(dereth::app::KeyAction a, bool) override {
      if (a == dereth::app::KeyAction::ClearSelection) return std::exchange(*selected, false);
      return true;
    }
    void on_log_out() override { ++*logged_out; }
  } input;
  input.selected = &selected;
  input.logged_out = &logged_out;
  window->player_input = &input;
  window->game_menu = &input;
  static const dereth::sim::RenderSnapshot empty;
  dereth::app::FrameInfo info;
  info.in_world = true;

  // The first Esc clears the selection; the second opens the menu.
  key(SDLK_ESCAPE);
  REQUIRE(window->poll_input());
  CHECK_FALSE(window->dialogs().active());
  key(SDLK_ESCAPE);
  REQUIRE(window->poll_input());
  REQUIRE(window->dialogs().menu_open());
  REQUIRE(window->present(empty, info).has_value());
  const auto* menu = panel_starting(window->last_overlay(), "Menu");
  REQUIRE(menu != nullptr);
  CHECK(menu->anchor == dereth::render::Anchor::Centre);
  CHECK(std::find(menu->lines.begin(), menu->lines.end(), "> Resume <") != menu->lines.end());
  key(SDLK_F12);
  REQUIRE(window->poll_input());
  REQUIRE(window->present(empty, info).has_value());
  const auto menu_picture = tmp / "dereth_tick_000000.png";
  REQUIRE(std::filesystem::exists(menu_picture));
  std::filesystem::rename(menu_picture, tmp / "window_menu.png");
  keep(tmp / "window_menu.png");

  // Esc on the menu resumes; keys typed meanwhile reach neither the chat box nor the player.
  key(SDLK_ESCAPE);
  REQUIRE(window->poll_input());
  CHECK_FALSE(window->dialogs().active());

  // Down twice and Enter: Log out, which asks; Down and Enter answers No.
  key(SDLK_ESCAPE);
  key(SDLK_DOWN);
  key(SDLK_DOWN);
  key(SDLK_RETURN);
  REQUIRE(window->poll_input());
  REQUIRE(window->present(empty, info).has_value());
  const auto* question = panel_starting(window->last_overlay(), "Log out?");
  REQUIRE(question != nullptr);
  CHECK(question->lines.back() == "  No");
  key(SDLK_DOWN);
  key(SDLK_RETURN);
  REQUIRE(window->poll_input());
  CHECK(logged_out == 0);
  CHECK(window->dialogs().menu_open());
  // Enter on Log out again, then Yes: the run ends, logged out.
  key(SDLK_RETURN);
  key(SDLK_RETURN);
  CHECK_FALSE(window->poll_input());
  CHECK(logged_out == 1);
  CHECK_FALSE(window->dialogs().active());

  // A click on Quit, where the last frame drew it. (The poll that ended the
  // run left SDL's end-of-poll mark in the queue: one poll passes it first.)
  REQUIRE(window->poll_input());
  key(SDLK_ESCAPE);
  REQUIRE(window->poll_input());
  REQUIRE(window->dialogs().menu_open());
  REQUIRE(window->present(empty, info).has_value());
  const auto& frame = window->last_overlay();
  const auto* shown = panel_starting(frame, "Menu");
  REQUIRE(shown != nullptr);
  const auto layout = dereth::render::layout_overlay(frame, 640, 480, dereth::render::OverlayOptions{});
  const auto index = static_cast<std::size_t>(shown - frame.panels.data());
  REQUIRE(index < layout.panels.size());
  const auto& text = layout.panels[index].text;
  const float row = text.height() / static_cast<float>(layout.panels[index].lines);
  SDL_Event click{};
  click.type = SDL_MOUSEBUTTONDOWN;
  click.button.button = SDL_BUTTON_LEFT;
  click.button.x = static_cast<int>((text.x0 + text.x1) / 2.0F);
  click.button.y = static_cast<int>(
      text.y0 +
      row * (static_cast<float>(window->dialogs().shown()->button_line(dereth::app::GameMenu::kQuit)) + 0.5F));
  SDL_PushEvent(&click);
  CHECK_FALSE(window->poll_input());
  CHECK(logged_out == 1);  // Quit asks nothing and is not a logout
}

TEST_CASE("The window: a PopupString is a dialog the player dismisses, not a chat line", "[app][window][popup]") {
  const dereth::test::TempDir tmp("window-popup");
  auto window = make_window(tmp.path(), false);
  if (!window) return;
  static const dereth::sim::RenderSnapshot empty;
  dereth::app::FrameInfo info;
  info.in_world = true;
  dereth::protocol::ChatLine popup;
  popup.channel = "popup";
  popup.text = "Welcome to Dereth!";
  window->chat(popup);
  dereth::protocol::ChatLine said;
  said.channel = "type-0x02";
  said.sender = "Aerin";
  said.text = "hello";
  said.chat_type = 2;
  window->chat(said);
  REQUIRE(window->dialogs().popups() == 1);
  REQUIRE(window->present(empty, info).has_value());
  const auto* dialog = panel_starting(window->last_overlay(), "Message");
  REQUIRE(dialog != nullptr);
  CHECK(dialog->lines == std::vector<std::string>{"Message", "", "Welcome to Dereth!", "", "> OK <"});
  // Not in the chat panel: only the speech is.
  CHECK(any_line(window->last_overlay(), "hello"));
  int chat_lines_with_welcome = 0;
  for (const auto& p : window->last_overlay().panels) {
    if (&p == dialog) continue;
    for (const auto& l : p.lines) chat_lines_with_welcome += l.find("Welcome") != std::string::npos ? 1 : 0;
  }
  CHECK(chat_lines_with_welcome == 0);
  key(SDLK_F12);
  REQUIRE(window->poll_input());
  REQUIRE(window->present(empty, info).has_value());
  std::filesystem::rename(tmp / "dereth_tick_000000.png", tmp / "window_popup.png");
  keep(tmp / "window_popup.png");
  // Enter dismisses it (and does not open the chat box); so do Esc and a click.
  key(SDLK_RETURN);
  REQUIRE(window->poll_input());
  CHECK_FALSE(window->dialogs().active());
  window->chat(popup);
  key(SDLK_ESCAPE);
  REQUIRE(window->poll_input());
  CHECK_FALSE(window->dialogs().active());
  REQUIRE(window->present(empty, info).has_value());
  CHECK(panel_starting(window->last_overlay(), "Message") == nullptr);
  CHECK_FALSE(any_line(window->last_overlay(), "> _"));  // no chat box was opened
}

TEST_CASE("The window: F12 says on screen where the picture went", "[app][window][screenshot]") {
  const dereth::test::TempDir tmp("window-f12");
  auto window = make_window(tmp.path(), true);
  if (!window) return;
  static const dereth::sim::RenderSnapshot empty;
  dereth::app::FrameInfo info;
  info.in_world = true;
  info.tick = 42;
  key(SDLK_F12);
  REQUIRE(window->poll_input());
  REQUIRE(window->present(empty, info).has_value());
  const auto picture = std::filesystem::absolute(tmp / "dereth_tick_000042.png");
  REQUIRE(std::filesystem::exists(picture));
  // The next frame carries the note (the picture itself was taken before it).
  REQUIRE(window->present(empty, info).has_value());
  CHECK(any_line(window->last_overlay(), "Screenshot saved to " + picture.string()));
}

TEST_CASE("The window before the world: the HUD shows the live session's counters and a frame rate, not offline",
          "[app][window][hud]") {
  const dereth::test::TempDir tmp("window-hud");
  auto window = make_window(tmp.path(), true);
  if (!window) return;
  static const dereth::sim::RenderSnapshot empty;
  dereth::net::TransportStats net;
  net.packets_received = 12;
  net.packets_sent = 7;
  net.messages_received = 5;
  dereth::app::LooseFrames frames;
  dereth::app::FrameInfo info;
  for (int i = 0; i < 10; ++i) info = frames.next(100.0 + i / 30.0, net);
  CHECK(info.frame == 9);
  CHECK(info.fps == Approx(30.0).epsilon(0.01));
  REQUIRE(info.network.has_value());
  REQUIRE(window->present(empty, info).has_value());
  CHECK(any_line(window->last_overlay(), "FPS 30.0"));
  CHECK(any_line(window->last_overlay(), "net in 12 pkt / 5 msg"));
  CHECK_FALSE(any_line(window->last_overlay(), "net offline"));
}

TEST_CASE("dereth play in a window (SDL offscreen): the menu's Log out, confirmed, logs off and returns to the list",
          "[app][e2e][live][window][menu]") {
  auto scenario =
      dereth::scenario::load_scenario_file(std::string(DERETH_SOURCE_DIR) + "/tests/scenario/data/basic.scenario");
  REQUIRE(scenario.has_value());
  dereth::scenario::UdpScenarioServer server(std::move(*scenario));
  REQUIRE(server.start().has_value());
  const dereth::test::TempDir tmp("window-logout");
  const auto pw = tmp / "password";
  std::ofstream(pw) << "secret\n";
  ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
  std::atomic<bool> done{false};
  const auto count = [&](auto pred) {
    int n = 0;
    for (const auto& m : server.client_messages()) n += pred(m) ? 1 : 0;
    return n;
  };
  const auto entered = [&] { return count([](const auto& m) { return m.enter_world.has_value(); }); };
  // On the list: 1 enters the first character. In the world: Esc (nothing
  // selected: the menu), Down, Down, Enter (Log out), Enter (Yes). Back on
  // the list (a second login): Esc quits.
  std::thread presser([&] {
    int stage = 0;
    while (!done) {
      if (SDL_WasInit(SDL_INIT_EVENTS) != 0) {
        if (stage == 0 && entered() == 0) key(SDLK_1);
        if (stage == 0 && entered() == 1) {
          std::this_thread::sleep_for(std::chrono::milliseconds(700));  // into the world loop
          for (SDL_Keycode k : {SDLK_ESCAPE, SDLK_DOWN, SDLK_DOWN, SDLK_RETURN, SDLK_RETURN}) key(k);
          stage = 1;
        }
        if (stage == 1 && server.stats().logins >= 2) {
          std::this_thread::sleep_for(std::chrono::milliseconds(700));  // the list again
          key(SDLK_ESCAPE);
          stage = 2;
        }
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  std::string out, err;
  const int rc =
      dereth::app::test::run({"dereth", "play", "--server", "127.0.0.1:" + std::to_string(server.port()), "--account",
                              "tester", "--password-file", pw.string(), "--no-record", "--timeout", "20", "--set",
                              "window_width=320", "--set", "window_height=200", "--set", "audio=false"},
                             out, err);
  done = true;
  presser.join();
  ::unsetenv("SDL_VIDEODRIVER");
  INFO(out << err);
  REQUIRE(err.find("playing headless") == std::string::npos);  // it really was the window
  CHECK(rc == 0);
  CHECK(out.find("dereth: logged out\n") != std::string::npos);
  CHECK(entered() == 1);  // the second time the player left from the list
  CHECK(server.stats().logins == 2);
  bool logged_off = false;
  for (const auto& e : server.events()) logged_off = logged_off || e.text == "the character logged off";
  CHECK(logged_off);
}
