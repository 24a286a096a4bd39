// Casting in the window (SDL's offscreen driver), as a player does it:
// Backslash for magic mode, Tab for the nearest creature, End (retail's
// CombatCastCurrentSpell in magic mode): the window's keys reach the
// controls, which send ChangeCombatMode 8 and CastTargetedSpell with the
// spell bar's spell and the selection; and `dereth play` in the window
// against the scenario server, the pictures (F12) checked for the target's
// health bar and the bolt.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <SDL.h>

#include "dereth/app/controls.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/byte_writer.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/net/inbox.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/magic.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/protocol/player_description.hpp"
#include "dereth/render/image.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

#include "run_cli.hpp"
#include "served_support.hpp"
#include "support/temp_dir.hpp"
#include "window_support.hpp"

namespace {

namespace protocol = dereth::protocol;

using dereth::test::push_key;

protocol::CreateObject object(std::uint32_t guid, float y, std::string name, std::uint32_t flags) {
  protocol::CreateObject m;
  m.guid = guid;
  m.physics.state = 0x00400C08;
  m.physics.position = protocol::Position{0xA9B40021, {10, y, 0}, {1, 0, 0, 0}};
  m.weenie.name = std::move(name);
  m.weenie.item_type = 0x10;
  m.weenie.object_description_flags = flags;
  return m;
}

}  // namespace

TEST_CASE("The window (SDL offscreen): Backslash, Tab and End send ChangeCombatMode 8 and CastTargetedSpell",
          "[app][window][controls][magic]") {
  auto window = dereth::test::offscreen_window(160, 120);
  if (!window) return;
  dereth::test::WindowControls h{*window};
  auto& world = h.world;
  auto& controls = h.controls;
  auto& sent = h.sent;
  constexpr std::uint32_t kPlayer = 0x50000001;
  constexpr std::uint32_t kDrudge = 0x80000010;
  // The PlayerDescription with Flame Bolt I (27) in the spell book and on the spell bar's first tab.
  protocol::PlayerDescription d;
  d.weenie_type = 1;
  d.vector_flags = protocol::quality_vector_flag::Attribute | protocol::quality_vector_flag::Spell;
  d.spells = {{27, 0.0F}};
  for (auto& a : d.attributes) a = protocol::AttributeWire{0, 100, 0};
  d.options = protocol::PlayerOptionsWire{0, 0};
  dereth::core::ByteWriter w;
  w.bytes(protocol::encode_player_description_qualities(d));
  w.u32(1);
  w.u32(27);
  w.u32(0);
  w.u32(0);
  world.handle(
      protocol::encode_game_event(kPlayer, 1, protocol::login_opcode::PlayerDescriptionEvent, std::move(w).take()));
  world.handle(protocol::encode(object(kPlayer, 10, "Tester", 0x8)));
  world.handle(protocol::encode(protocol::PlayerCreate{kPlayer}));
  world.handle(protocol::encode(object(kDrudge, 20, "Drudge Skulker", 0x10)));
  controls.interpreter().take_control_from_server();
  sent.clear();

  push_key(SDLK_BACKSLASH);
  push_key(SDLK_BACKSLASH, false);
  push_key(SDLK_TAB);
  push_key(SDLK_TAB, false);
  push_key(SDLK_END);
  push_key(SDLK_END, false);
  REQUIRE(window->poll_input());
  std::vector<protocol::CastTargetedSpell> casts;
  bool magic_mode = false;
  for (const auto& m : sent) {
    if (auto c = protocol::decode_cast_targeted_spell(m)) casts.push_back(*c);
    if (auto mode = protocol::decode_change_combat_mode(m)) magic_mode = magic_mode || mode->mode == 8;
  }
  CHECK(magic_mode);
  REQUIRE(casts.size() == 1);
  CHECK(casts[0].target == kDrudge);
  CHECK(casts[0].spell == 27u);
  CHECK(controls.combat().combat_mode == dereth::sim::CombatMode::Magic);
}

namespace {

// The pixels of a screenshot the window saved (F12), RGBA rows top first.
struct Picture {
  int w = 0;
  int h = 0;
  std::vector<std::uint8_t> px;
  [[nodiscard]] const std::uint8_t* at(int x, int y) const {
    return px.data() + (static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x)) * 4;
  }
};

// The target panel's health bar (centred at the top, the overlay's
// health_color fill on its progress_track): the fill's length in pixels and
// the track's, on the row with the most of either; {0, 0} without one.
struct Bar {
  int fill = 0;
  int track = 0;
};
Bar target_bar(const Picture& p) {
  Bar best;
  for (int y = 0; y < p.h / 4; ++y) {
    Bar row;
    for (int x = p.w / 2 - 110; x < p.w / 2 + 110; ++x) {
      const auto* c = p.at(x, y);
      if (c[0] == 200 && c[1] == 30 && c[2] == 30) ++row.fill;  // OverlayOptions::health_color
      if (c[0] == 60 && c[1] == 60 && c[2] == 60) ++row.track;  // OverlayOptions::progress_track
    }
    if (row.fill + row.track > best.fill + best.track) best = row;
  }
  return best;
}

// Fire-coloured pixels (the Flame Bolt's ball and its explosion) in the view
// between the target panel and the spell bar, left of the radar.
int fire_pixels(const Picture& p) {
  int n = 0;
  for (int y = p.h / 5; y < p.h * 3 / 4; ++y) {
    for (int x = p.w / 5; x < p.w * 7 / 10; ++x) {
      const auto* c = p.at(x, y);
      n += c[0] >= 200 && c[1] >= 60 && c[1] <= 190 && c[2] <= 100 ? 1 : 0;
    }
  }
  return n;
}

}  // namespace

TEST_CASE(
    "dereth play in a window (SDL offscreen): Tab shows the target's health from the server, End casts, the bolt is "
    "in the picture and the bar follows the server's UpdateHealth",
    "[app][e2e][live][window][magic]") {
  dereth::app::test::Served served("/tests/scenario/data/cast_window.scenario");
  auto& server = served.server;
  dereth::app::test::WindowPlayRun run_dir("window-cast");
  const auto& shots = run_dir.shots;
  const auto event_text = [&](const std::string& part) { return served.event_text(part); };
  using dereth::app::test::wait_for;
  using dereth::test::press;
  std::atomic<bool> done{false};
  int bolt_shots = 0;
  // The player: once in the world, \ for magic mode and Tab for the drudge
  // (again until the client asks the server for its health), a picture
  // (F12) half a second after the query; End to cast Flame Bolt I, a picture
  // every 80 ms from the launch until the server's hit; a last picture
  // half a second after the hit.
  std::thread player([&] {
    if (!dereth::test::wait_in_world(served, done)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    dereth::test::magic_mode_and_select(served, done);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    press(SDLK_F12);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    press(SDLK_END);
    if (!wait_for([&] { return event_text(" launched at ").has_value(); }, done)) return;
    while (!done && !event_text(" hit by ")) {
      press(SDLK_F12);
      ++bolt_shots;
      std::this_thread::sleep_for(std::chrono::milliseconds(80));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    press(SDLK_F12);
  });
  std::string out, err;
  const int rc = run_dir.play_as_aerin(
      served.where,
      {"--ticks", "420", "--set", "window_width=800", "--set", "window_height=450", "--set", "audio=false"}, out, err);
  done = true;
  player.join();
  run_dir.finish();
  INFO(out << err);
  REQUIRE(err.find("playing headless") == std::string::npos);  // it really was the window
  CHECK(rc == 0);
  // At the server: the query, then the cast of Flame Bolt I at the drudge.
  std::optional<protocol::CastTargetedSpell> cast;
  for (const auto& m : server.client_messages()) {
    if (m.cast && !cast) cast = m.cast;
  }
  REQUIRE(cast.has_value());
  CHECK(cast->spell == 27u);
  CHECK(cast->target == 0x80000010u);
  // The server's hit: "sandbox: 'Drudge Skulker' hit by Flame Bolt I for N (H left)" of 20.
  const auto hit = event_text(" hit by ");
  REQUIRE(hit.has_value());
  const auto open = hit->rfind('(');
  REQUIRE(open != std::string::npos);
  const int left = std::stoi(hit->substr(open + 1));
  REQUIRE(left > 0);
  REQUIRE(left < 20);
  // The pictures in the order taken (named by tick): the selection, the
  // bolt's flight, after the hit.
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(shots)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  INFO(files.size() << " pictures, " << bolt_shots << " asked for in flight");
  REQUIRE(files.size() >= 3);
  std::vector<Picture> pictures;
  for (const auto& f : files) {
    auto image = dereth::render::read_png(f);
    REQUIRE(image.has_value());
    pictures.push_back(Picture{image->width, image->height, std::move(image->pixels)});
  }
  // Selected: the drudge's bar, full, as the server answered the query.
  const Bar selected = target_bar(pictures.front());
  CHECK(selected.track == 0);
  CHECK(selected.fill >= 190);
  // After the hit: the fill is the server's fraction of the bar.
  const Bar after = target_bar(pictures.back());
  const int width = after.fill + after.track;
  CHECK(width == selected.fill + selected.track);
  CHECK(std::abs(after.fill - width * left / 20) <= 1);
  CHECK(after.track > 0);
  // In flight: the bolt (its fire) in some picture between, none before.
  const int before = fire_pixels(pictures.front());
  int most = 0;
  for (std::size_t i = 1; i + 1 < pictures.size(); ++i) most = std::max(most, fire_pixels(pictures[i]));
  INFO("fire pixels: before " << before << ", in flight up to " << most);
  // DERETH_TEST_KEEP_PICTURES=DIR keeps the pictures, to look at them.
  if (const char* keep = std::getenv("DERETH_TEST_KEEP_PICTURES")) {
    for (const auto& f : files) std::filesystem::copy_file(f, std::filesystem::path(keep) / f.filename());
  }
  CHECK(most >= before + 30);
}
