// The enchantment events (F7B0 0x02C2..0x02C8, 0x0312, as the retail
// dispatcher routes them to CM_Magic::DispatchUI_*) and the spell-bar
// actions (CM_Character::Event_AddSpellFavorite / Event_RemoveSpellFavorite):
// hand-written bytes, our writers, the inbound table, every cut and hostile counts.

#include "dereth/protocol/magic.hpp"

#include <catch2/catch.hpp>

#include "dereth/protocol/messages.hpp"

#include "fixtures.hpp"

using namespace dereth;
using namespace dereth::protocol;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;

EnchantmentWire armor_self() {
  EnchantmentWire e;
  e.spell_id = 0x0401;
  e.layer = 2;
  e.category = 0x00A1;
  e.has_spell_set_id = 1;
  e.power_level = 250;
  e.start_time = -5.0;
  e.duration = 1800.0;
  e.caster = kPlayer;
  e.stat_mod_type = 0x2008080;  // beneficial, additive, armor
  e.stat_mod_key = 0;
  e.stat_mod_value = 20.0F;
  e.spell_set_id = 0;
  return e;
}

}  // namespace

TEST_CASE(
    "CM_Magic::DispatchUI_UpdateEnchantment: F7B0 0x02C2 carries one Enchantment (Enchantment::UnPack 0x005CB040)",
    "[retail]") {
  MagicUpdateEnchantments m{magic_event::UpdateEnchantment, {armor_self()}};
  const auto bytes = encode(m, kPlayer, 4);
  // The F7B0 header, then spell 0x0401 and layer 2 first.
  REQUIRE(bytes.size() == 16 + 64);
  CHECK(std::vector<std::uint8_t>(bytes.begin() + 12, bytes.begin() + 20) == test::from_hex("C2020000 0104 0200"));
  const auto back = decode_magic_update_enchantments(bytes);
  REQUIRE(back);
  CHECK(*back == m);
  for (std::size_t n = 0; n < bytes.size(); ++n)
    CHECK_FALSE(decode_magic_update_enchantments(std::span(bytes).first(n)));
  const auto via_table = decode_message(bytes);
  REQUIRE(via_table);
  REQUIRE(std::holds_alternative<MagicUpdateEnchantments>(*via_table));
  CHECK(std::get<MagicUpdateEnchantments>(*via_table) == m);
}

TEST_CASE("CM_Magic::DispatchUI_UpdateMultipleEnchantments: F7B0 0x02C4, a count and the enchantments", "[retail]") {
  EnchantmentWire second = armor_self();
  second.spell_id = 0x0402;
  second.has_spell_set_id = 0;  // 60 bytes: no spell set id
  MagicUpdateEnchantments m{magic_event::UpdateMultipleEnchantments, {armor_self(), second}};
  const auto bytes = encode(m, kPlayer, 5);
  REQUIRE(bytes.size() == 16 + 4 + 64 + 60);
  const auto back = decode_magic_update_enchantments(bytes);
  REQUIRE(back);
  CHECK(*back == m);
  for (std::size_t n = 0; n < bytes.size(); ++n)
    CHECK_FALSE(decode_magic_update_enchantments(std::span(bytes).first(n)));
  // A hostile count is refused before anything is kept.
  auto hostile = bytes;
  hostile[16] = 0xFF;
  hostile[17] = 0xFF;
  hostile[18] = 0xFF;
  hostile[19] = 0x7F;
  const auto refused = decode_magic_update_enchantments(hostile);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().kind == core::ErrorKind::TooLarge);
}

TEST_CASE("CM_Magic::DispatchUI_RemoveEnchantment and its multiple and dispel forms: layered spell ids", "[retail]") {
  // F7B0 0x02C3: spell 0x0401, layer 2 (ACE's GameEventMagicRemoveEnchantment).
  const auto one = test::from_hex("B0F70000 01000050 06000000 C3020000 0104 0200");
  const auto m = decode_magic_remove_enchantments(one);
  REQUIRE(m);
  CHECK(*m == MagicRemoveEnchantments{magic_event::RemoveEnchantment, {{0x0401, 2}}});
  CHECK(encode(*m, kPlayer, 6) == one);
  for (std::size_t n = 0; n < one.size(); ++n) CHECK_FALSE(decode_magic_remove_enchantments(std::span(one).first(n)));
  // 0x02C5: count 2, then the pairs.
  const auto many = test::from_hex("B0F70000 01000050 07000000 C5020000 02000000 0104 0200 0204 0100");
  const auto mm = decode_magic_remove_enchantments(many);
  REQUIRE(mm);
  CHECK(mm->spells == std::vector<LayeredSpell>{{0x0401, 2}, {0x0402, 1}});
  CHECK(encode(*mm, kPlayer, 7) == many);
  for (std::size_t n = 0; n < many.size(); ++n) CHECK_FALSE(decode_magic_remove_enchantments(std::span(many).first(n)));
  auto hostile = many;
  hostile[17] = 0x10;  // a count of 4098 in 8 bytes
  CHECK_FALSE(decode_magic_remove_enchantments(hostile));
  // The dispel forms read the same and keep their event.
  for (const std::uint32_t e : {magic_event::DispelEnchantment, magic_event::DispelMultipleEnchantments}) {
    const MagicRemoveEnchantments d{e, {{0x0401, 2}}};
    const auto back = decode_message(encode(d, kPlayer, 8));
    REQUIRE(back);
    REQUIRE(std::holds_alternative<MagicRemoveEnchantments>(*back));
    CHECK(std::get<MagicRemoveEnchantments>(*back) == d);
  }
}

TEST_CASE("CM_Magic::DispatchUI_PurgeEnchantments and DispatchUI_PurgeBadEnchantments carry nothing", "[retail]") {
  const auto all = test::from_hex("B0F70000 01000050 08000000 C6020000");
  const auto bad = test::from_hex("B0F70000 01000050 09000000 12030000");
  const auto a = decode_magic_purge_enchantments(all);
  const auto b = decode_magic_purge_enchantments(bad);
  REQUIRE(a);
  REQUIRE(b);
  CHECK_FALSE(a->bad_only);
  CHECK(b->bad_only);
  CHECK(encode(*a, kPlayer, 8) == all);
  CHECK(encode(*b, kPlayer, 9) == bad);
  auto longer = all;
  longer.push_back(0);
  CHECK_FALSE(decode_magic_purge_enchantments(longer));
  const auto via_table = decode_message(bad);
  REQUIRE(via_table);
  CHECK(std::holds_alternative<MagicPurgeEnchantments>(*via_table));
  // Another event is refused by name.
  CHECK_FALSE(decode_magic_purge_enchantments(test::from_hex("B0F70000 01000050 09000000 C3020000")));
}

TEST_CASE("CM_Magic::DispatchUI_UpdateSpell 0x006A3010 and DispatchUI_RemoveSpell 0x006A2FE0 read one u32 spell",
          "[retail]") {
  // 0x02C1: the spell learnt; ACE writes a u16 id and a u16 layer 0, which
  // retail reads as the one u32.
  const auto learnt = test::from_hex("B0F70000 01000050 0A000000 C1020000 1B000000");
  const auto u = decode_magic_update_spell(learnt);
  REQUIRE(u);
  CHECK(u->spell == 27);
  CHECK(encode(*u, kPlayer, 10) == learnt);
  test::every_prefix_fails(learnt, decode_magic_update_spell);
  // A non-zero "layer" half is part of the id, as retail reads it.
  const auto layered = decode_magic_update_spell(test::from_hex("B0F70000 01000050 0A000000 C1020000 1B000100"));
  REQUIRE(layered);
  CHECK(layered->spell == 0x0001001Bu);
  auto longer = learnt;
  longer.push_back(0);
  CHECK_FALSE(decode_magic_update_spell(longer));
  // 0x01A8: the spell forgotten.
  const auto forgot = test::from_hex("B0F70000 01000050 0B000000 A8010000 1B000000");
  const auto r = decode_magic_remove_spell(forgot);
  REQUIRE(r);
  CHECK(r->spell == 27);
  CHECK(encode(*r, kPlayer, 11) == forgot);
  test::every_prefix_fails(forgot, decode_magic_remove_spell);
  // Through the dispatcher each is its own message.
  const auto a = decode_message(learnt);
  const auto b = decode_message(forgot);
  REQUIRE(a);
  REQUIRE(b);
  CHECK(std::get<MagicUpdateSpell>(*a) == MagicUpdateSpell{27});
  CHECK(std::get<MagicRemoveSpell>(*b) == MagicRemoveSpell{27});
  // Each decoder refuses the other's event, naming what it read.
  const auto wrong = decode_magic_update_spell(forgot);
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().message().find("MagicUpdateSpell") != std::string::npos);
}

TEST_CASE("CM_Character::Event_AddSpellFavorite and Event_RemoveSpellFavorite: F7B1 0x01E3 / 0x01E4", "[retail]") {
  const auto add = encode(AddSpellFavorite{3, 0x05E9, 2, 1});
  CHECK(add == test::from_hex("B1F70000 03000000 E3010000 E9050000 02000000 01000000"));
  const auto a = decode_add_spell_favorite(add);
  REQUIRE(a);
  CHECK(*a == AddSpellFavorite{3, 0x05E9, 2, 1});
  test::every_prefix_fails(add, decode_add_spell_favorite);
  const auto remove = encode(RemoveSpellFavorite{4, 0x05E9, 1});
  CHECK(remove == test::from_hex("B1F70000 04000000 E4010000 E9050000 01000000"));
  const auto r = decode_remove_spell_favorite(remove);
  REQUIRE(r);
  CHECK(*r == RemoveSpellFavorite{4, 0x05E9, 1});
  test::every_prefix_fails(remove, decode_remove_spell_favorite);
  CHECK_FALSE(decode_add_spell_favorite(remove));
  CHECK_FALSE(decode_remove_spell_favorite(add));
}

TEST_CASE("CM_Magic::Event_CastTargetedSpell 0x006A3040: F7B1 0x004A, the target then the spell", "[retail]") {
  // Written from the layout: opcode, stamp 7, action 0x4A, target 0x80000011, spell 27 (Flame Bolt I).
  const auto bytes = test::from_hex("B1F70000 07000000 4A000000 11000080 1B000000");
  CHECK(encode(CastTargetedSpell{7, 0x80000011, 27}) == bytes);
  const auto back = decode_cast_targeted_spell(bytes);
  REQUIRE(back);
  CHECK(*back == CastTargetedSpell{7, 0x80000011, 27});
  test::every_prefix_fails(bytes, decode_cast_targeted_spell);
  // One byte too many, or the untargeted action, is refused.
  auto longer = bytes;
  longer.push_back(0);
  CHECK_FALSE(decode_cast_targeted_spell(longer));
  const auto other = decode_cast_targeted_spell(test::from_hex("B1F70000 07000000 48000000 11000080 1B000000"));
  REQUIRE_FALSE(other);
  CHECK(other.error().field == "action_type");
}

TEST_CASE("CM_Magic::Event_CastUntargetedSpell 0x006A3150: F7B1 0x0048, the spell alone", "[retail]") {
  const auto bytes = test::from_hex("B1F70000 08000000 48000000 1B000000");
  CHECK(encode(CastUntargetedSpell{8, 27}) == bytes);
  const auto back = decode_cast_untargeted_spell(bytes);
  REQUIRE(back);
  CHECK(*back == CastUntargetedSpell{8, 27});
  test::every_prefix_fails(bytes, decode_cast_untargeted_spell);
  CHECK_FALSE(decode_cast_untargeted_spell(encode(CastTargetedSpell{8, 0x80000011, 27})));
  CHECK_FALSE(decode_cast_targeted_spell(bytes));
}
