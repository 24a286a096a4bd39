// Casting in the window (SDL's offscreen driver), as a player does it:
// Backslash for magic mode, Tab for the nearest creature, End (retail's
// CombatCastCurrentSpell in magic mode): the server hears CastTargetedSpell
// with the spell bar's spell and the selection, and answers with the bolt.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include <SDL.h>

#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/magic.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

#include "run_cli.hpp"
#include "support/temp_dir.hpp"

namespace {

void key(SDL_Keycode sym, bool down = true) {
  SDL_Event e{};
  e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
  e.key.keysym.sym = sym;
  e.key.repeat = 0;
  SDL_PushEvent(&e);
}

}  // namespace

TEST_CASE("dereth play in a window (SDL offscreen): Backslash, Tab and End cast the spell bar's spell at the creature",
          "[app][e2e][live][window][magic]") {
  auto scenario =
      dereth::scenario::load_scenario_file(std::string(DERETH_SOURCE_DIR) + "/tests/scenario/data/cast.scenario");
  REQUIRE(scenario.has_value());
  dereth::scenario::UdpScenarioServer server(std::move(*scenario));
  REQUIRE(server.start().has_value());
  const dereth::test::TempDir tmp("window-cast");
  const auto pw = tmp / "password";
  std::ofstream(pw) << "secret\n";
  ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
  std::atomic<bool> done{false};
  const auto cast = [&]() -> std::optional<dereth::protocol::CastTargetedSpell> {
    for (const auto& m : server.client_messages()) {
      if (m.cast) return m.cast;
    }
    return std::nullopt;
  };
  // Once in the world: Backslash once for magic mode, then Tab and End each
  // round until the server hears the cast.
  std::thread presser([&] {
    bool armed = false;
    while (!done && !cast()) {
      bool entered = false;
      for (const auto& m : server.client_messages()) entered = entered || m.enter_world.has_value();
      if (entered && SDL_WasInit(SDL_INIT_EVENTS) != 0) {
        if (!armed) {
          std::this_thread::sleep_for(std::chrono::milliseconds(300));
          key(SDLK_BACKSLASH);
          key(SDLK_BACKSLASH, false);
          armed = true;
        }
        key(SDLK_TAB);
        key(SDLK_TAB, false);
        key(SDLK_END);
        key(SDLK_END, false);
        std::this_thread::sleep_for(std::chrono::milliseconds(400));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  std::string out, err;
  const int rc =
      dereth::app::test::run({"dereth", "play", "--server", "127.0.0.1:" + std::to_string(server.port()), "--account",
                              "tester", "--password-file", pw.string(), "--no-record", "--ticks", "240", "--set",
                              "window_width=320", "--set", "window_height=200", "--set", "audio=false"},
                             out, err);
  done = true;
  presser.join();
  ::unsetenv("SDL_VIDEODRIVER");
  INFO(out << err);
  REQUIRE(err.find("playing headless") == std::string::npos);  // it really was the window
  CHECK(rc == 0);
  bool magic_mode = false;
  for (const auto& m : server.client_messages()) {
    CHECK(m.decode_error.empty());
    if (m.action == dereth::protocol::combat_action::ChangeCombatMode && m.bytes.size() == 16) {
      magic_mode = magic_mode || m.bytes[12] == 8;
    }
  }
  CHECK(magic_mode);
  const auto c = cast();
  REQUIRE(c.has_value());
  CHECK(c->target == 0x80000010u);
  CHECK(c->spell == 27u);
  // The server launched the bolt for it.
  bool launched = false;
  for (const auto& e : server.events())
    launched = launched || e.text.find("Flame Bolt 0x80001000 launched") != std::string::npos;
  CHECK(launched);
}
