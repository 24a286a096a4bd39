#pragma once
// One window for the window tests: SDL's offscreen driver, set only while
// the window is made, vsync off. Null, with a warning, where this machine
// has no offscreen window (the test then passes without drawing).

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include <SDL.h>

#include "dereth/app/controls.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/net/inbox.hpp"
#include "dereth/protocol/outbound.hpp"

#include "served_support.hpp"

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

// A key pressed and released.
inline void press(SDL_Keycode sym) {
  push_key(sym);
  push_key(sym, false);
}

// A live window run's player steps (a thread beside `dereth play` against
// `served`): until the window polls SDL's events and the server has the
// client's CharacterEnterWorld; false when `stop` came first.
inline bool wait_in_world(const app::test::Served& served, const std::atomic<bool>& stop) {
  return app::test::wait_for(
      [&] {
        return SDL_WasInit(SDL_INIT_EVENTS) != 0 &&
               served.heard([](const auto& m) { return m.enter_world.has_value(); });
      },
      stop);
}

// Magic mode (Backslash), then Tab every 300 ms until the client asks the
// server for the selected creature's health (QueryHealth) or `stop`.
inline void magic_mode_and_select(const app::test::Served& served, const std::atomic<bool>& stop) {
  press(SDLK_BACKSLASH);
  const auto queried = [&] {
    return served.heard([](const auto& m) { return m.opcode == 0xF7B1 && m.action == protocol::opcode::QueryHealth; });
  };
  while (!stop && !queried()) {
    press(SDLK_TAB);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
  }
}

// A world with no session behind it, its frame loop and the controls over
// `window`, on a manual clock: what the player's keys send (stamps from 100
// up) is kept in `sent`.
struct WindowControls {
  struct NoInbox final : net::MessageInbox {
    std::vector<net::SessionMessage> drain(double) override { return {}; }
    [[nodiscard]] bool finished() const override { return false; }
  };
  explicit WindowControls(app::WindowPresenter& window)
      : loop{world, inbox, &clock, &window, nullptr, app::LoopOptions{}},
        controls{world, loop, &window,
                 [this](std::vector<std::uint8_t> m, std::uint16_t) { sent.push_back(std::move(m)); },
                 [this] { return stamp++; }} {}
  core::ManualClock clock{core::Seconds{1.0}};
  app::World world{clock, nullptr};
  NoInbox inbox;
  app::FrameLoop loop;
  std::vector<std::vector<std::uint8_t>> sent;
  std::uint32_t stamp = 100;
  app::Controls controls;
};

}  // namespace dereth::test
