// The chat box in the window (SDL's offscreen driver): Enter opens the input
// line, typed text and Backspace edit it, Enter hands the line to the
// controls, Esc cancels, and movement keys do not reach the player while the
// line is open.
#include <catch2/catch.hpp>

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <SDL.h>

#include "dereth/app/character_picker.hpp"
#include "dereth/app/controls.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/key_map.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/net/inbox.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/render/overlay.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"
#include "dereth/sim/player/command_interpreter.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

#include "run_cli.hpp"
#include "served_support.hpp"
#include "support/temp_dir.hpp"
#include "window_support.hpp"

namespace {

using dereth::test::push_key;

void text(const char* utf8) {
  SDL_Event e{};
  e.type = SDL_TEXTINPUT;
  SDL_strlcpy(e.text.text, utf8, sizeof(e.text.text));
  SDL_PushEvent(&e);
}

}  // namespace

TEST_CASE("The window's chat box: Enter, type, Backspace and Enter sends, Esc cancels, keys do not walk meanwhile",
          "[app][window][chat]") {
  auto window = dereth::test::offscreen_window(160, 120);
  if (!window) return;
  std::vector<std::string> said;
  std::vector<std::pair<std::uint32_t, bool>> moves;
  struct Input final : dereth::app::PlayerInput {
    std::vector<std::string>* said = nullptr;
    std::vector<std::pair<std::uint32_t, bool>>* moves = nullptr;
    void on_chat_input(const std::string& line) override { said->push_back(line); }
    void on_motion_key(std::uint32_t command, bool pressed) override { moves->emplace_back(command, pressed); }
  } input;
  input.said = &said;
  input.moves = &moves;
  window->player_input = &input;

  push_key(SDLK_RETURN);
  text("hellp");
  push_key(SDLK_BACKSPACE);
  text("o");
  push_key(SDLK_w);  // typed, not walked
  push_key(SDLK_RETURN);
  REQUIRE(window->poll_input());
  CHECK(said == std::vector<std::string>{"hello"});
  CHECK(moves.empty());

  // Esc closes the line without sending and without quitting.
  push_key(SDLK_RETURN);
  text("never sent");
  push_key(SDLK_ESCAPE);
  CHECK(window->poll_input());
  CHECK(said.size() == 1);

  // Up brings the last line back.
  push_key(SDLK_RETURN);
  push_key(SDLK_UP);
  push_key(SDLK_RETURN);
  CHECK(window->poll_input());
  CHECK(said == std::vector<std::string>{"hello", "hello"});

  // With the line closed, W walks again, and Esc opens the game menu (no
  // selection to clear here), whose Quit quits.
  push_key(SDLK_w);
  push_key(SDLK_w, false);
  CHECK(window->poll_input());
  CHECK(moves.size() == 2);
  push_key(SDLK_ESCAPE);
  CHECK(window->poll_input());
  CHECK(window->dialogs().menu_open());
  push_key(SDLK_UP);
  push_key(SDLK_RETURN);
  CHECK_FALSE(window->poll_input());
}

TEST_CASE("Typing in the window's chat box sends no movement: the releases of the typed keys move nothing",
          "[app][window][chat][controls]") {
  auto window = dereth::test::offscreen_window(160, 120);
  if (!window) return;
  namespace protocol = dereth::protocol;
  dereth::test::WindowControls h{*window};
  auto& world = h.world;
  auto& controls = h.controls;
  auto& sent = h.sent;
  protocol::CreateObject player;
  player.guid = 0x50000001;
  player.physics.state = 0x00400C08;
  player.physics.position = protocol::Position{0xA9B40021, {10, 10, 0}, {1, 0, 0, 0}};
  player.weenie.name = "Tester";
  player.weenie.item_type = 0x10;
  player.weenie.object_description_flags = 0x8;
  world.handle(protocol::encode(player));
  world.handle(protocol::encode(protocol::PlayerCreate{player.guid}));
  controls.interpreter().take_control_from_server();
  sent.clear();
  const auto move_to_states = [&] {
    std::size_t n = 0;
    for (const auto& b : sent) n += protocol::peek_wrapped_type(b) == protocol::opcode::MoveToState;
    return n;
  };

  // "walked with W", typed as the keyboard sends it: each key down, its
  // text, its key up.
  push_key(SDLK_RETURN);
  for (const char c : std::string("walked with W")) {
    const auto sym = static_cast<SDL_Keycode>(c == ' ' ? SDLK_SPACE : std::tolower(static_cast<unsigned char>(c)));
    push_key(sym);
    const char typed[2] = {c, 0};
    text(typed);
    push_key(sym, false);
  }
  push_key(SDLK_RETURN);
  REQUIRE(window->poll_input());
  h.loop.run_outbound(h.clock.now().count());
  CHECK(move_to_states() == 0);
  CHECK(controls.chat_sent() == 1);  // the Talk

  // W held before the chat box opens and let go while typing: that release
  // still stops the player.
  sent.clear();
  push_key(SDLK_w);
  push_key(SDLK_RETURN);
  push_key(SDLK_w, false);
  push_key(SDLK_ESCAPE);
  REQUIRE(window->poll_input());
  CHECK(move_to_states() == 2);
}

TEST_CASE("The window's key map and mouse: actions, rebinding, Esc clears before it opens the menu, mouse look turns",
          "[app][window][controls]") {
  dereth::app::WindowOptions o;
  o.width = 160;
  o.height = 120;
  auto rebind = dereth::app::parse_key_rebind("attack_high", "H");
  REQUIRE(rebind);
  o.keys.rebind(*rebind);
  auto window = dereth::test::offscreen_window(o);
  if (!window) return;
  using dereth::app::KeyAction;
  std::vector<std::pair<KeyAction, bool>> actions;
  std::vector<std::pair<std::uint32_t, bool>> moves;
  std::vector<int> turns;
  bool selected = true;
  struct Input final : dereth::app::PlayerInput {
    std::vector<std::pair<KeyAction, bool>>* actions = nullptr;
    std::vector<std::pair<std::uint32_t, bool>>* moves = nullptr;
    std::vector<int>* turns = nullptr;
    bool* selected = nullptr;
    bool on_key_action(KeyAction a, bool pressed) override {
      actions->emplace_back(a, pressed);
      if (a == KeyAction::ClearSelection) return std::exchange(*selected, false);
      return true;
    }
    void on_motion_key(std::uint32_t command, bool pressed) override { moves->emplace_back(command, pressed); }
    void on_mouse_turn(int d) override { turns->push_back(d); }
  } input;
  input.actions = &actions;
  input.moves = &moves;
  input.turns = &turns;
  input.selected = &selected;
  window->player_input = &input;

  push_key(SDLK_END);
  push_key(SDLK_END, false);
  push_key(SDLK_h);         // attack_high rebound to H
  push_key(SDLK_PAGEDOWN);  // no longer bound
  push_key(SDLK_x);         // retail's backward
  push_key(SDLK_TAB);
  REQUIRE(window->poll_input());
  CHECK(actions == std::vector<std::pair<KeyAction, bool>>{{KeyAction::AttackMedium, true},
                                                           {KeyAction::AttackMedium, false},
                                                           {KeyAction::AttackHigh, true},
                                                           {KeyAction::SelectNextMonster, true}});
  CHECK(moves == std::vector<std::pair<std::uint32_t, bool>>{{dereth::sim::command::WalkBackwards, true}});

  // Right button held and the mouse moving right: the player turns right;
  // when the mouse stops the turn ends, and a release ends it too.
  SDL_Event down{};
  down.type = SDL_MOUSEBUTTONDOWN;
  down.button.button = SDL_BUTTON_RIGHT;
  SDL_PushEvent(&down);
  SDL_Event motion{};
  motion.type = SDL_MOUSEMOTION;
  motion.motion.xrel = 7;
  SDL_PushEvent(&motion);
  REQUIRE(window->poll_input());
  CHECK(turns == std::vector<int>{1});
  REQUIRE(window->poll_input());
  CHECK(turns == std::vector<int>{1, 0});
  motion.motion.xrel = -3;
  SDL_PushEvent(&motion);
  SDL_Event up = down;
  up.type = SDL_MOUSEBUTTONUP;
  SDL_PushEvent(&up);
  REQUIRE(window->poll_input());
  CHECK(turns == std::vector<int>{1, 0, -1, 0});

  // Esc clears the selection first, then opens the game menu (whose Quit quits).
  push_key(SDLK_ESCAPE);
  CHECK(window->poll_input());
  CHECK_FALSE(window->dialogs().active());
  push_key(SDLK_ESCAPE);
  CHECK(window->poll_input());
  CHECK(window->dialogs().menu_open());
  push_key(SDLK_UP);  // from Resume up to Quit
  push_key(SDLK_RETURN);
  CHECK_FALSE(window->poll_input());
}

TEST_CASE("The window's character list: keys, numbers and a click choose, Esc quits", "[app][window][characters]") {
  dereth::app::WindowOptions o;
  o.width = 640;
  o.height = 480;
  o.hud = false;
  auto window = dereth::test::offscreen_window(o);
  if (!window) return;
  dereth::protocol::CharacterList list;
  list.characters = {{0x50000001, "Aerin", 0}, {0x50000002, "Borin the Bold", 0}, {0x50000003, "Cid", 0}};
  list.max_slots = 11;
  std::vector<std::uint32_t> chosen;
  struct Screens final : dereth::app::CharacterScreens {
    std::vector<std::uint32_t>* chosen = nullptr;
    void on_character_chosen(std::uint32_t guid) override { chosen->push_back(guid); }
  } screens;
  screens.chosen = &chosen;
  window->character_screens = &screens;

  dereth::app::CharacterPicker picker(list);
  window->show_characters(&picker);
  push_key(SDLK_DOWN);
  push_key(SDLK_RETURN);
  push_key(SDLK_RETURN);  // the list is gone after the first choice: this one opens the chat box instead
  REQUIRE(window->poll_input());
  CHECK(chosen == std::vector<std::uint32_t>{0x50000002});

  dereth::app::CharacterPicker again(list);
  window->show_characters(&again);
  push_key(SDLK_3);
  REQUIRE(window->poll_input());
  CHECK(chosen.back() == 0x50000003);

  // A click on the first character's line, where the last frame drew it.
  dereth::app::CharacterPicker by_mouse(list);
  window->show_characters(&by_mouse);
  static const dereth::sim::RenderSnapshot empty;
  REQUIRE(window->present(empty, dereth::app::FrameInfo{}).has_value());
  const auto lines = by_mouse.lines();
  dereth::render::OverlayFrame frame;
  frame.panels.push_back(dereth::render::TextPanel{dereth::render::Anchor::Centre, lines, {}, 0.75F, {}});
  const auto layout = dereth::render::layout_overlay(frame, 640, 480, dereth::render::OverlayOptions{});
  REQUIRE(layout.panels.size() == 1);
  const auto& text = layout.panels[0].text;
  const float row = text.height() / static_cast<float>(layout.panels[0].lines);
  SDL_Event click{};
  click.type = SDL_MOUSEBUTTONDOWN;
  click.button.button = SDL_BUTTON_LEFT;
  click.button.x = static_cast<int>((text.x0 + text.x1) / 2.0F);
  click.button.y =
      static_cast<int>(text.y0 + row * (static_cast<float>(dereth::app::CharacterPicker::line_of(0)) + 0.5F));
  SDL_PushEvent(&click);
  REQUIRE(window->poll_input());
  CHECK(chosen.back() == 0x50000001);
  CHECK(chosen.size() == 3);

  dereth::app::CharacterPicker quit(list);
  window->show_characters(&quit);
  push_key(SDLK_ESCAPE);
  CHECK_FALSE(window->poll_input());
}

TEST_CASE("dereth play in a window (SDL offscreen): the character list is shown and the second character chosen",
          "[app][e2e][live][window][characters]") {
  dereth::app::test::Served served("/tests/scenario/data/basic.scenario");
  auto& server = served.server;
  const dereth::test::TempDir tmp("window-characters");
  const auto pw = tmp / "password";
  std::ofstream(pw) << "secret\n";
  ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
  std::atomic<bool> done{false};
  // The player presses 2 on the list (keys before the window exists go
  // nowhere), until the server hears the choice: pressing stops long before
  // the window (and SDL) is torn down.
  std::thread presser([&] {
    while (!done) {
      bool entered = false;
      for (const auto& m : server.client_messages()) entered = entered || m.enter_world.has_value();
      if (entered) break;
      if (SDL_WasInit(SDL_INIT_EVENTS) != 0) push_key(SDLK_2);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  std::string out, err;
  const int rc = dereth::app::test::run(
      {"dereth", "play", "--server", served.where, "--account", "tester", "--password-file", pw.string(), "--no-record",
       "--ticks", "15", "--set", "window_width=320", "--set", "window_height=200", "--set", "audio=false"},
      out, err);
  done = true;
  presser.join();
  ::unsetenv("SDL_VIDEODRIVER");
  INFO(out << err);
  REQUIRE(err.find("playing headless") == std::string::npos);  // it really was the window
  CHECK(rc == 0);
  CHECK(out.find("(player 0x50000002)") != std::string::npos);  // Borin the Bold, chosen from the list
}

TEST_CASE("dereth play in a window (SDL offscreen): combat mode, Tab and the attack key reach the server",
          "[app][e2e][live][window][combat]") {
  dereth::app::test::Served served("/tests/scenario/data/combat.scenario");
  auto& server = served.server;
  const dereth::test::TempDir tmp("window-combat");
  const auto pw = tmp / "password";
  std::ofstream(pw) << "secret\n";
  ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
  std::atomic<bool> done{false};
  const auto attacked = [&] {
    for (const auto& m : server.client_messages()) {
      if (m.attack) return true;
    }
    return false;
  };
  // Once in the world (and the drudge with it): ` for melee, Tab for the
  // nearest creature, End held for half a second, until the server hears
  // the attack. Pressing stops before the window is torn down.
  std::thread presser([&] {
    bool armed = false;
    while (!done && !attacked()) {
      bool entered = false;
      for (const auto& m : server.client_messages()) entered = entered || m.enter_world.has_value();
      if (entered && SDL_WasInit(SDL_INIT_EVENTS) != 0) {
        if (!armed) {
          std::this_thread::sleep_for(std::chrono::milliseconds(300));
          push_key(SDLK_BACKQUOTE);
          push_key(SDLK_BACKQUOTE, false);
          armed = true;
        }
        push_key(SDLK_TAB);  // again each round: the drudge may not have been there the first time
        push_key(SDLK_TAB, false);
        push_key(SDLK_END);
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        push_key(SDLK_END, false);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  std::string out, err;
  const int rc =
      dereth::app::test::run({"dereth", "play", "--server", served.where, "--account", "tester", "--password-file",
                              pw.string(), "--character", "Aerin", "--no-record", "--ticks", "240", "--set",
                              "window_width=320", "--set", "window_height=200", "--set", "audio=false"},
                             out, err);
  done = true;
  presser.join();
  ::unsetenv("SDL_VIDEODRIVER");
  INFO(out << err);
  REQUIRE(err.find("playing headless") == std::string::npos);  // it really was the window
  CHECK(rc == 0);
  std::optional<dereth::protocol::TargetedAttack> attack;
  bool combat_mode = false;
  for (const auto& m : server.client_messages()) {
    if (m.attack && !attack) attack = m.attack;
    combat_mode = combat_mode || m.action == dereth::protocol::combat_action::ChangeCombatMode;
    CHECK(m.decode_error.empty());
  }
  CHECK(combat_mode);
  REQUIRE(attack.has_value());
  CHECK(attack->action == dereth::protocol::combat_action::TargetedMeleeAttack);
  CHECK(attack->target == 0x80000010u);
  CHECK(attack->height == 2u);  // End: medium
  CHECK(attack->power > 0.0f);
  CHECK(attack->power <= 1.0f);
}
