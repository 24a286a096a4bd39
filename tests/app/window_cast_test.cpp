// Casting in the window (SDL's offscreen driver), as a player does it:
// Backslash for magic mode, Tab for the nearest creature, End (retail's
// CombatCastCurrentSpell in magic mode): the window's keys reach the
// controls, which send ChangeCombatMode 8 and CastTargetedSpell with the
// spell bar's spell and the selection.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>
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
#include "dereth/protocol/player_description.hpp"

#include "window_support.hpp"

namespace {

namespace protocol = dereth::protocol;

void key(SDL_Keycode sym, bool down = true) {
  SDL_Event e{};
  e.type = down ? SDL_KEYDOWN : SDL_KEYUP;
  e.key.keysym.sym = sym;
  e.key.repeat = 0;
  SDL_PushEvent(&e);
}

struct NoInbox final : dereth::net::MessageInbox {
  std::vector<dereth::net::SessionMessage> drain(double) override { return {}; }
  [[nodiscard]] bool finished() const override { return false; }
};

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
  dereth::core::ManualClock clock{dereth::core::Seconds{1.0}};
  dereth::app::World world{clock, nullptr};
  NoInbox inbox;
  dereth::app::FrameLoop loop{world, inbox, &clock, window.get(), nullptr, dereth::app::LoopOptions{}};
  std::vector<std::vector<std::uint8_t>> sent;
  std::uint32_t stamp = 100;
  dereth::app::Controls controls{world, loop, window.get(),
                                 [&](std::vector<std::uint8_t> m, std::uint16_t) { sent.push_back(std::move(m)); },
                                 [&] { return stamp++; }};
  constexpr std::uint32_t kPlayer = 0x50000001;
  constexpr std::uint32_t kDrudge = 0x80000010;
  // The PlayerDescription with Flame Bolt I (27) on the spell bar's first tab.
  protocol::PlayerDescription d;
  d.weenie_type = 1;
  d.vector_flags = protocol::quality_vector_flag::Attribute;
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

  key(SDLK_BACKSLASH);
  key(SDLK_BACKSLASH, false);
  key(SDLK_TAB);
  key(SDLK_TAB, false);
  key(SDLK_END);
  key(SDLK_END, false);
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
