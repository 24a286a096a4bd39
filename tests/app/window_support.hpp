#pragma once
// One window for the window tests: SDL's offscreen driver, set only while
// the window is made, vsync off. Null, with a warning, where this machine
// has no offscreen window (the test then passes without drawing).

#include <catch2/catch.hpp>

#include <cstdlib>
#include <memory>
#include <utility>

#include <SDL.h>

#include "dereth/app/presenters.hpp"

namespace dereth::test {

inline std::unique_ptr<app::WindowPresenter> offscreen_window(app::WindowOptions options) {
  options.vsync = false;
  ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
  auto window = app::WindowPresenter::create(nullptr, nullptr, options);
  ::unsetenv("SDL_VIDEODRIVER");
  if (!window) {
    WARN("no offscreen window here: " << window.error().message());
    return nullptr;
  }
  return std::move(*window);
}

// A window of `width` x `height` with the other options at their defaults.
inline std::unique_ptr<app::WindowPresenter> offscreen_window(int width, int height) {
  app::WindowOptions options;
  options.width = width;
  options.height = height;
  return offscreen_window(options);
}

// A key pressed (down) or released, pushed into SDL's queue as the keyboard
// gives it (no repeat, no modifiers); SDL_PushEvent may be called from any
// thread.
inline void push_key(SDL_Keycode sym, bool down = true) {
  SDL_Event e{};
  e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
  e.key.keysym.sym = sym;
  e.key.repeat = 0;
  SDL_PushEvent(&e);
}

}  // namespace dereth::test
