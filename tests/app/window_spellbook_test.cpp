// The spellbook in the window (SDL's offscreen driver), as a player uses it
// against the scenario server: B opens the spellbook, a double-click on a
// spell puts it on the empty spell bar (the server hears AddSpellFavorite),
// and the spell is then cast at a creature; the picture shows the spellbook
// with the spell picked.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <SDL.h>

#include "dereth/app/game_screen.hpp"
#include "dereth/protocol/magic.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/render/image.hpp"
#include "dereth/render/overlay.hpp"

#include "run_cli.hpp"
#include "served_support.hpp"
#include "support/temp_dir.hpp"
#include "window_support.hpp"

namespace {

namespace protocol = dereth::protocol;
namespace render = dereth::render;

constexpr int kWidth = 800;
constexpr int kHeight = 450;

// A left button press and release at (x, y); `clicks` 2 is the second of a double click.
void click_at(int x, int y, int clicks) {
  SDL_Event e{};
  e.type = SDL_MOUSEBUTTONDOWN;
  e.button.button = SDL_BUTTON_LEFT;
  e.button.clicks = static_cast<Uint8>(clicks);
  e.button.x = x;
  e.button.y = y;
  SDL_PushEvent(&e);
  e.type = SDL_MOUSEBUTTONUP;
  SDL_PushEvent(&e);
}

// Where the spellbook of Stone Hide and Flame Bolt I puts its lines in the
// window without the HUD: in the top-left stack under the vitals (the
// window's overlay options are the defaults).
render::PanelPlacement spellbook_placement() {
  render::OverlayFrame frame;
  frame.vitals = render::VitalsPanel{};
  frame.panels.push_back(
      render::TextPanel{render::Anchor::TopLeft,
                        {"Spellbook (2 spells)", "Stone Hide", "Flame Bolt I", "Double-click: onto spell bar tab 1"},
                        {},
                        0.75F,
                        {}});
  const auto layout = render::layout_overlay(frame, kWidth, kHeight, render::OverlayOptions{});
  REQUIRE(layout.panels.size() == 1);
  return layout.panels[0];
}

}  // namespace

TEST_CASE(
    "dereth play in a window (SDL offscreen): B opens the spellbook, a double-click fills the spell bar, End "
    "casts",
    "[app][e2e][live][window][magic]") {
  dereth::app::test::Served served("/tests/scenario/data/spellbook_window.scenario");
  auto& server = served.server;
  dereth::app::test::WindowPlayRun run_dir("window-spellbook");
  const auto& shots = run_dir.shots;
  using dereth::app::test::wait_for;
  using dereth::test::press;
  const render::PanelPlacement book = spellbook_placement();
  const float row = book.text.height() / static_cast<float>(book.lines);
  const int flame_x = static_cast<int>(book.text.x0 + 20.0F);
  const int flame_y = static_cast<int>(book.text.y0 + row * 2.5F);  // line 2: Flame Bolt I
  std::atomic<bool> done{false};
  std::thread player([&] {
    if (!dereth::test::wait_in_world(served, done)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    press(SDLK_b);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    click_at(flame_x, flame_y, 1);
    click_at(flame_x, flame_y, 2);
    if (!wait_for([&] { return served.heard([](const auto& m) { return m.add_favorite.has_value(); }); }, done)) return;
    dereth::test::magic_mode_and_select(served, done);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    press(SDLK_F12);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    press(SDLK_END);
  });
  std::string out, err;
  const int rc =
      run_dir.play_as_aerin(served.where,
                            {"--ticks", "300", "--set", "window_width=" + std::to_string(kWidth), "--set",
                             "window_height=" + std::to_string(kHeight), "--set", "audio=false", "--set", "hud=false"},
                            out, err);
  done = true;
  player.join();
  run_dir.finish();
  INFO(out << err);
  REQUIRE(err.find("playing headless") == std::string::npos);  // it really was the window
  CHECK(rc == 0);
  // At the server: Flame Bolt I onto tab 1 at index 1 (the tab's new count,
  // as retail sends it), and nothing taken off; then the cast of it.
  std::optional<protocol::AddSpellFavorite> added;
  std::optional<protocol::CastTargetedSpell> cast;
  bool removed = false;
  for (const auto& m : server.client_messages()) {
    if (m.add_favorite && !added) added = m.add_favorite;
    if (m.cast && !cast) cast = m.cast;
    removed = removed || m.remove_favorite.has_value();
  }
  REQUIRE(added.has_value());
  CHECK(added->spell == 27U);
  CHECK(added->index == 1U);
  CHECK(added->list == 0U);
  CHECK_FALSE(removed);
  REQUIRE(cast.has_value());
  CHECK(cast->spell == 27U);
  CHECK(cast->target == 0x80000010U);
  // The picture: the spellbook open with Flame Bolt I lit (the panel's
  // selected colour) on its line, and Stone Hide's line not.
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(shots)) files.push_back(e.path());
  REQUIRE(files.size() == 1);
  auto image = dereth::render::read_png(files[0]);
  REQUIRE(image.has_value());
  REQUIRE(image->width == kWidth);
  const auto lit_in_line = [&](std::size_t line) {
    int n = 0;
    const int y0 = static_cast<int>(book.text.y0 + row * static_cast<float>(line));
    for (int y = y0; y < static_cast<int>(static_cast<float>(y0) + row); ++y) {
      for (int x = static_cast<int>(book.text.x0); x < static_cast<int>(book.text.x1); ++x) {
        const auto* c = image->pixels.data() + (static_cast<std::size_t>(y) * kWidth + static_cast<std::size_t>(x)) * 4;
        n += c[0] == 255 && c[1] == 230 && c[2] == 90 ? 1 : 0;
      }
    }
    return n;
  };
  if (const char* keep = std::getenv("DERETH_TEST_KEEP_PICTURES")) {
    std::filesystem::copy_file(files[0], std::filesystem::path(keep) / "spellbook.png");
  }
  CHECK(lit_in_line(2) > 50);
  CHECK(lit_in_line(1) == 0);
}
