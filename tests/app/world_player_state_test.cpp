// World::handle for the player's own state: each new message reaches the
// sim/player object that keeps it (qualities, the toolbar's target health,
// the spell bars) or the chat window.
#include <catch2/catch.hpp>

#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/magic.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/player_updates.hpp"

using namespace dereth;

namespace {
constexpr std::uint32_t kPlayer = 0x50000001;

std::vector<std::uint8_t> description() {
  protocol::PlayerDescription d;
  d.vector_flags = protocol::quality_vector_flag::Attribute;
  d.vitals[0] = protocol::SecondaryAttributeWire{10, 5, 0, 12};
  d.options = protocol::PlayerOptionsWire{protocol::option_data_flag::SpellLists8, 0};
  d.spell_lists = protocol::SpellListsWire{{}, {{0x05E9}, {}, {}, {}, {}, {}, {}, {0x0401}}};
  return protocol::encode_game_event(kPlayer, 1, protocol::login_opcode::PlayerDescriptionEvent,
                                     protocol::encode_player_description_qualities(d));
}
}  // namespace

TEST_CASE("World::handle: the private vital update, the health answer, the spell bars and deaths reach sim/player",
          "[app][world]") {
  core::ManualClock clock{core::Seconds{0.0}};
  app::World world(clock, nullptr);
  world.assume_player(kPlayer);
  // Before the PlayerDescription there are no qualities: an update is dropped, not a crash.
  world.handle(protocol::encode(
      protocol::PrivateUpdateStatLevel{protocol::quality_opcode::PrivateUpdateAttribute2ndLevel, 1, 2, 3}));
  CHECK(world.player_qualities() == nullptr);
  world.handle(description());
  REQUIRE(world.player_qualities() != nullptr);
  CHECK(world.player_module().favorite_spells(0) == std::vector<std::uint32_t>{0x05E9});
  CHECK(world.player_module().favorite_spells(7) == std::vector<std::uint32_t>{0x0401});
  std::uint32_t health = 0;
  world.handle(protocol::encode(
      protocol::PrivateUpdateStatLevel{protocol::quality_opcode::PrivateUpdateAttribute2ndLevel, 2, 2, 9}));
  REQUIRE(world.player_qualities()->inq_attribute_2nd(2, health));
  CHECK(health == 9);
  CHECK(world.stats().decode_errors == 0);

  // The toolbar takes the answer for its selection only.
  world.toolbar().selection_changed(0x80000A01, true);
  world.handle(protocol::encode(protocol::QueryHealthResponse{0x80000A02, 0.9F}, kPlayer, 3));
  CHECK_FALSE(world.toolbar().health());
  world.handle(protocol::encode(protocol::QueryHealthResponse{0x80000A01, 0.4F}, kPlayer, 4));
  CHECK(world.toolbar().health() == 0.4F);

  // An enchantment reaches the registry.
  protocol::EnchantmentWire e;
  e.spell_id = 0x0401;
  e.layer = 1;
  e.stat_mod_type = 0x8000;  // additive
  world.handle(
      protocol::encode(protocol::MagicUpdateEnchantments{protocol::magic_event::UpdateEnchantment, {e}}, kPlayer, 5));
  CHECK(world.player_qualities()->enchantments().is_enchanted(0x0401));

  // Another's death is a line; the player's own is not; a failed cast says why.
  (void)world.take_chat();
  world.handle(protocol::encode(protocol::PlayerKilled{"Ann was killed by a Drudge.", 0x50000002, 0x80000A01}));
  world.handle(protocol::encode(protocol::PlayerKilled{"You died.", kPlayer, 0x80000A01}));
  world.handle(protocol::encode(protocol::UseDone{0x0401}, kPlayer, 6));
  world.handle(protocol::encode(protocol::UseDone{0}, kPlayer, 7));
  const auto chat = world.take_chat();
  REQUIRE(chat.size() == 2);
  CHECK(chat[0].text == "Ann was killed by a Drudge.");
  CHECK(chat[1].text == "You have too little mana to cast this spell.");
  // None of these went to the SmartBox.
  CHECK(world.stats().handled == 0);
}
