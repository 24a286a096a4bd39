// The character list and the creation screen in the window (SDL's offscreen
// driver), driven by SDL events: keys and clicks reach the list and the
// creation screen, and the F656 the scenario server receives is what was
// chosen on the screen.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <SDL.h>

#include "dereth/app/character_creator.hpp"
#include "dereth/app/character_picker.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/protocol/character_create.hpp"
#include "dereth/render/overlay.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

#include "chargen_server.hpp"
#include "run_cli.hpp"
#include "served_support.hpp"
#include "support/temp_dir.hpp"
#include "window_support.hpp"

namespace {

namespace proto = dereth::protocol;

void key(SDL_Keycode sym, Uint16 mod = KMOD_NONE) {
  SDL_Event e{};
  e.type = SDL_KEYDOWN;
  e.key.keysym.sym = sym;
  e.key.keysym.mod = mod;
  SDL_PushEvent(&e);
  e.type = SDL_KEYUP;
  SDL_PushEvent(&e);
}

void text(const char* utf8) {
  SDL_Event e{};
  e.type = SDL_TEXTINPUT;
  SDL_strlcpy(e.text.text, utf8, sizeof(e.text.text));
  SDL_PushEvent(&e);
}

// A printable key as SDL reports it while text input is on: the key going
// down, the text it types, the key coming up.
void typed_key(SDL_Keycode sym, const char* utf8) {
  SDL_Event e{};
  e.type = SDL_KEYDOWN;
  e.key.keysym.sym = sym;
  SDL_PushEvent(&e);
  text(utf8);
  e.type = SDL_KEYUP;
  SDL_PushEvent(&e);
}

void click_at(int x, int y) {
  SDL_Event e{};
  e.type = SDL_MOUSEBUTTONDOWN;
  e.button.button = SDL_BUTTON_LEFT;
  e.button.x = x;
  e.button.y = y;
  SDL_PushEvent(&e);
}

const dereth::chargen::CharGenData& demo_data() {
  static const dereth::chargen::CharGenData data = [] {
    auto world = dereth::demo::build_demo_world();
    REQUIRE(world);
    auto portal = dereth::dat::DatFile::from_bytes(world->portal, "client_portal.dat");
    REQUIRE(portal);
    dereth::dat::RecordCache records(&*portal);
    auto d = dereth::chargen::load_char_gen_data(records);
    REQUIRE(d);
    return std::move(*d);
  }();
  return data;
}

// Where the centred panel of `lines` puts line `line` in a w x h window,
// `across` (0..1) of the way across it.
std::pair<int, int> where(const std::vector<std::string>& lines, float scale, std::size_t line, float across, int w,
                          int h) {
  dereth::render::OverlayFrame frame;
  frame.panels.push_back(dereth::render::TextPanel{dereth::render::Anchor::Centre, lines, {}, scale, {}});
  const auto layout = dereth::render::layout_overlay(frame, w, h, dereth::render::OverlayOptions{});
  REQUIRE(layout.panels.size() == 1);
  const auto& t = layout.panels[0].text;
  const float row = t.height() / static_cast<float>(layout.panels[0].lines);
  return {static_cast<int>(t.x0 + t.width() * across),
          static_cast<int>(t.y0 + row * (static_cast<float>(line) + 0.5F))};
}

using dereth::app::test::chargen_server_options;

}  // namespace

TEST_CASE("The window's list and creation screen: C and Delete, typing, arrows and clicks",
          "[app][window][characters][create]") {
  dereth::app::WindowOptions o;
  o.width = 800;
  o.height = 600;
  o.hud = false;
  auto window = dereth::test::offscreen_window(o);
  if (!window) return;
  auto& w = *window;
  proto::CharacterList list;
  list.characters = {{0x50000001, "Aerin", 0}};
  list.max_slots = 3;
  std::vector<dereth::app::PickerAction> actions;
  std::vector<proto::CharacterCreate> sent;
  int backs = 0;
  dereth::app::CharacterPicker picker(list);
  dereth::app::CharacterCreator creator(demo_data());
  struct Screens final : dereth::app::CharacterScreens {
    dereth::app::Presenter* w = nullptr;
    dereth::app::CharacterCreator* creator = nullptr;
    std::vector<dereth::app::PickerAction>* actions = nullptr;
    std::vector<proto::CharacterCreate>* sent = nullptr;
    int* backs = nullptr;
    void on_picker_action(const dereth::app::PickerAction& a) override {
      actions->push_back(a);
      if (a.kind == dereth::app::PickerAction::Kind::Create) w->show_creator(creator);
    }
    void on_create_character(const proto::CharacterCreate& m) override { sent->push_back(m); }
    void on_creator_back() override { ++*backs; }
  } screens;
  screens.w = &w;
  screens.creator = &creator;
  screens.actions = &actions;
  screens.sent = &sent;
  screens.backs = &backs;
  w.character_screens = &screens;
  w.show_characters(&picker);

  key(SDLK_DELETE);
  key(SDLK_DELETE);
  REQUIRE(w.poll_input());
  REQUIRE(actions.size() == 1);
  CHECK(actions[0] == dereth::app::PickerAction{dereth::app::PickerAction::Kind::Delete, 0x50000001});

  // C opens the creation screen; its own text ("c") is not the name's first letter.
  typed_key(SDLK_c, "c");
  REQUIRE(w.poll_input());
  REQUIRE(actions.size() == 2);
  CHECK(actions[1].kind == dereth::app::PickerAction::Kind::Create);

  // The creation screen has the keyboard now: Sex to Female, Strength down
  // by 10 (Shift), the name typed with a slip corrected.
  key(SDLK_DOWN);
  key(SDLK_RIGHT);
  text("Aerfallx");
  key(SDLK_BACKSPACE);
  text("e");
  REQUIRE(w.poll_input());
  CHECK(creator.builder().gender() == 2);
  CHECK(creator.builder().name() == "Aerfalle");
  REQUIRE(creator.select(dereth::app::CharacterCreator::RowKind::Attribute, 0));
  key(SDLK_LEFT, KMOD_LSHIFT);
  REQUIRE(w.poll_input());
  CHECK(creator.builder().attribute(dereth::chargen::Attribute::Strength) == 50);

  // A click on the right half of the Focus row raises it; one on Create sends.
  static const dereth::sim::RenderSnapshot empty;
  REQUIRE(creator.select(dereth::app::CharacterCreator::RowKind::Attribute, 4));
  REQUIRE(w.present(empty, dereth::app::FrameInfo{}).has_value());
  const auto focus_line = creator.line_of_row(creator.selected());
  auto [fx, fy] = where(creator.lines(), 0.6F, focus_line, 0.8F, 800, 600);
  click_at(fx, fy);
  REQUIRE(w.poll_input());
  CHECK(creator.builder().attribute(dereth::chargen::Attribute::Focus) == 51);
  REQUIRE(creator.select(dereth::app::CharacterCreator::RowKind::Create));
  REQUIRE(w.present(empty, dereth::app::FrameInfo{}).has_value());
  // The rows scroll to fit the window: Create is shown, the top rows are not.
  CHECK(creator.lines().size() <= 30);
  CHECK(creator.lines()[1] == "  ... more above (Up)");
  auto [cx, cy] = where(creator.lines(), 0.6F, creator.line_of_row(creator.selected()), 0.5F, 800, 600);
  click_at(cx, cy);
  REQUIRE(w.poll_input());
  REQUIRE(sent.size() == 1);
  CHECK(sent[0].name == "Aerfalle");
  CHECK(sent[0].gender == 2);
  CHECK(sent[0].abilities == std::array<std::uint32_t, 6>{50, 60, 50, 50, 51, 60});

  // Esc leaves the creation screen (not the program); the list has the keys again.
  key(SDLK_ESCAPE);
  REQUIRE(w.poll_input());
  CHECK(backs == 1);
  key(SDLK_ESCAPE);
  CHECK_FALSE(w.poll_input());
}

TEST_CASE("dereth play in a window (SDL offscreen): Create on the list, the creation screen, and the F656 sent",
          "[app][e2e][live][window][characters][create]") {
  dereth::app::test::Served served("/tests/scenario/data/no_characters.scenario", chargen_server_options());
  auto& server = served.server;
  const dereth::test::TempDir tmp("window-create");
  const auto pw = tmp / "password";
  std::ofstream(pw) << "secret\n";
  ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
  std::atomic<bool> done{false};
  auto f656 = [&]() -> std::optional<proto::CharacterCreate> {
    for (const auto& m : server.client_messages()) {
      if (m.opcode != proto::login_opcode::CharacterCreate) continue;
      if (auto c = proto::decode_character_create(m.bytes)) return *c;
    }
    return std::nullopt;
  };
  std::thread player([&] {
    // Wait for the window and the character list (the session is connected
    // and the list has had time to arrive), then play the screen.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!done && std::chrono::steady_clock::now() < until) {
      bool connected = false;
      for (const auto& s : server.sessions())
        connected = connected || s.state == dereth::scenario::SessionState::Connected;
      if (connected && SDL_WasInit(SDL_INIT_EVENTS) != 0) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    if (done || SDL_WasInit(SDL_INIT_EVENTS) == 0) return;
    key(SDLK_RETURN);  // Enter on the selected empty slot: Create
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    key(SDLK_DOWN);
    key(SDLK_RIGHT);  // Female
    text("Cadrel");
    for (int i = 0; i < 80; ++i) key(SDLK_DOWN);  // to Back, the last row
    key(SDLK_UP);                                 // Create
    key(SDLK_RETURN);
    while (!done && !f656() && std::chrono::steady_clock::now() < until) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    key(SDLK_RETURN);  // created and selected on the list: enter the world with it
    // Whatever happened, the run ends: Esc until it does.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!done && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    while (!done && SDL_WasInit(SDL_INIT_EVENTS) != 0) {
      key(SDLK_ESCAPE);
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
  });
  std::string out, err;
  const int rc =
      dereth::app::test::run({"dereth", "play", "--server", served.where, "--account", "tester", "--password-file",
                              pw.string(), "--no-record", "--ticks", "15", "--timeout", "20", "--set",
                              "window_width=640", "--set", "window_height=480", "--set", "audio=false"},
                             out, err);
  done = true;
  player.join();
  ::unsetenv("SDL_VIDEODRIVER");
  INFO(out << err);
  REQUIRE(err.find("playing headless") == std::string::npos);  // it really was the window
  CHECK(rc == 0);
  const auto c = f656();
  REQUIRE(c.has_value());
  CHECK(c->account == "Tester");
  CHECK(c->name == "Cadrel");
  CHECK(c->gender == 2);
  CHECK(c->heritage == 1);
  CHECK(c->slot == 0);
  CHECK(c->skills.size() == proto::kCharacterCreateSkillCount);
  CHECK(out.find("in the world") != std::string::npos);
}
