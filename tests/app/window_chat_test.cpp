// The chat box in the window (SDL's offscreen driver): Enter opens the input
// line, typed text and Backspace edit it, Enter hands the line to the
// controls, Esc cancels, and movement keys do not reach the player while the
// line is open.
#include <catch2/catch.hpp>

#include <SDL.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "dereth/app/presenters.hpp"

namespace {

void key(SDL_Keycode sym, bool down = true) {
  SDL_Event e{};
  e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
  e.key.keysym.sym = sym;
  e.key.repeat = 0;
  SDL_PushEvent(&e);
}

void text(const char* utf8) {
  SDL_Event e{};
  e.type = SDL_TEXTINPUT;
  SDL_strlcpy(e.text.text, utf8, sizeof(e.text.text));
  SDL_PushEvent(&e);
}

}  // namespace

TEST_CASE("The window's chat box: Enter, type, Backspace and Enter sends, Esc cancels, keys do not walk meanwhile",
          "[app][window][chat]") {
  ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
  dereth::app::WindowOptions o;
  o.width = 160;
  o.height = 120;
  o.vsync = false;
  auto window = dereth::app::WindowPresenter::create(nullptr, nullptr, o);
  ::unsetenv("SDL_VIDEODRIVER");
  if (!window) {
    WARN("no offscreen window here: " << window.error().message());
    return;
  }
  std::vector<std::string> said;
  std::vector<std::pair<std::uint32_t, bool>> moves;
  (*window)->on_chat_input = [&](const std::string& line) { said.push_back(line); };
  (*window)->on_motion_key = [&](std::uint32_t command, bool pressed) { moves.emplace_back(command, pressed); };

  key(SDLK_RETURN);
  text("hellp");
  key(SDLK_BACKSPACE);
  text("o");
  key(SDLK_w);  // typed, not walked
  key(SDLK_RETURN);
  REQUIRE((*window)->poll_input());
  CHECK(said == std::vector<std::string>{"hello"});
  CHECK(moves.empty());

  // Esc closes the line without sending and without quitting.
  key(SDLK_RETURN);
  text("never sent");
  key(SDLK_ESCAPE);
  CHECK((*window)->poll_input());
  CHECK(said.size() == 1);

  // Up brings the last line back.
  key(SDLK_RETURN);
  key(SDLK_UP);
  key(SDLK_RETURN);
  CHECK((*window)->poll_input());
  CHECK(said == std::vector<std::string>{"hello", "hello"});

  // With the line closed, W walks again, and Esc quits.
  key(SDLK_w);
  key(SDLK_w, false);
  CHECK((*window)->poll_input());
  CHECK(moves.size() == 2);
  key(SDLK_ESCAPE);
  CHECK_FALSE((*window)->poll_input());
}
