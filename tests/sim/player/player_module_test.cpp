// PlayerModule's spell bars: the PlayerDescription's lists and the player's
// own changes to them.

#include "dereth/sim/player/player_module.hpp"

#include <catch2/catch.hpp>

#include "dereth/sim/player/client_combat_system.hpp"

using namespace dereth;
using dereth::sim::PlayerModule;

TEST_CASE("PlayerModule keeps the PlayerDescription's favourites lists and shortcuts") {
  protocol::SpellListsWire wire;
  wire.shortcuts = {{1, 0x80000123, 0, 0}};
  wire.favorite_spells = {{0x05E9, 0x0401}, {}, {0x0402}};
  const PlayerModule m(wire);
  CHECK(m.favorite_spells(0) == std::vector<std::uint32_t>{0x05E9, 0x0401});
  CHECK(m.favorite_spells(2) == std::vector<std::uint32_t>{0x0402});
  CHECK(m.favorite_spells(7).empty());  // a list the message left out
  CHECK(m.favorite_spells(8).empty());  // no ninth list
  CHECK(m.favorite_spells(-1).empty());
  CHECK(m.shortcuts() == wire.shortcuts);
}

TEST_CASE(
    "PlayerModule::AddSpellFavorite 0x005D43E0 inserts at the index, RemoveSpellFavorite 0x005D4910 takes the "
    "first",
    "[retail]") {
  PlayerModule m;
  m.add_spell_favorite(1, 0, 0);
  m.add_spell_favorite(2, 0, 0);   // before the first
  m.add_spell_favorite(3, 99, 0);  // past the end: appended
  m.add_spell_favorite(4, 1, 0);
  CHECK(m.favorite_spells(0) == std::vector<std::uint32_t>{2, 4, 1, 3});
  m.add_spell_favorite(2, 4, 0);  // kept twice, as retail does
  m.remove_spell_favorite(2, 0);
  CHECK(m.favorite_spells(0) == std::vector<std::uint32_t>{4, 1, 3, 2});
  m.remove_spell_favorite(99, 0);  // not there: nothing
  // Lists outside 0..7 are ignored.
  m.add_spell_favorite(5, 0, 8);
  m.add_spell_favorite(5, 0, -1);
  m.remove_spell_favorite(4, 8);
  CHECK(m.favorite_spells(0).size() == 4);
  m.add_spell_favorite(6, 0, 7);
  CHECK(m.favorite_spells(7) == std::vector<std::uint32_t>{6});
}

TEST_CASE(
    "ClientCombatSystem::HandlePlayerDeathEvent 0x0056C320 shows another's death in chat type 0, not the player's",
    "[retail]") {
  constexpr std::uint32_t kPlayer = 0x50000001;
  const protocol::PlayerKilled other{"Ann was killed by a Drudge.", 0x50000002, 0x80000A01};
  const auto line = sim::handle_player_death_event(other, kPlayer);
  REQUIRE(line);
  CHECK(line->text == "Ann was killed by a Drudge.");
  CHECK(line->chat_type == protocol::chat_type::Broadcast);
  CHECK(line->sender.empty());
  // The player's own death or kill: the Victim / Killer notification says it instead.
  CHECK_FALSE(sim::handle_player_death_event({"You died.", kPlayer, 0x80000A01}, kPlayer));
  CHECK_FALSE(sim::handle_player_death_event({"You killed Ann.", 0x50000002, kPlayer}, kPlayer));
  CHECK_FALSE(sim::handle_player_death_event({"", 0x50000002, 0x80000A01}, kPlayer));
}

TEST_CASE(
    "PlayerModule::UnPack 0x005D49D0 takes the spell lists and CharacterOptions1 each only when the description "
    "carries it (PlayerModule::ToggleRun 0x005D2DA0)",
    "[retail]") {
  PlayerModule m;
  CHECK_FALSE(m.toggle_run());
  protocol::PlayerDescription options_only;
  options_only.options = protocol::PlayerOptionsWire{0, protocol::character_options1::ToggleRun};
  m.unpack(options_only);
  CHECK(m.toggle_run());
  CHECK_FALSE(m.disable_house_restriction_effects());

  protocol::PlayerDescription lists_only;
  lists_only.spell_lists = protocol::SpellListsWire{};
  lists_only.spell_lists->favorite_spells = {{0x05E9}};
  m.unpack(lists_only);
  CHECK(m.favorite_spells(0) == std::vector<std::uint32_t>{0x05E9});
  CHECK(m.toggle_run());  // the options the description left out are kept

  protocol::PlayerDescription neither;
  m.unpack(neither);
  CHECK(m.favorite_spells(0) == std::vector<std::uint32_t>{0x05E9});
  options_only.options->options1 = protocol::character_options1::DisableHouseRestrictionEffects;
  m.unpack(options_only);
  CHECK_FALSE(m.toggle_run());
  CHECK(m.disable_house_restriction_effects());
  CHECK(m.favorite_spells(0) == std::vector<std::uint32_t>{0x05E9});
}
