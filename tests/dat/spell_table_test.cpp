#include "dereth/dat/spell_table.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

SpellBase spell(std::string name, std::uint32_t type) {
  SpellBase s;
  s.name = std::move(name);
  s.description = "Made up.";
  s.school = 1;
  s.icon = 0x06000006;
  s.category = 7;
  s.base_mana = 15;
  s.base_range_constant = 10.0F;
  s.base_range_mod = 0.5F;
  s.power = 3;
  s.spell_economy_mod = 1.0F;
  s.component_loss = 0.05F;
  s.meta_spell_type = type;
  s.meta_spell_id = 9;
  set_spell_formula(s, {1, 2, 3, 4, 5, 0, 0, 0});
  s.caster_effect = 0x58;
  s.recovery_interval = 2.5;
  s.display_order = 4;
  s.non_component_target_type = 0x10;
  s.mana_mod = 2;
  return s;
}

SpellTable sample() {
  SpellTable t;
  t.spell_buckets = 32;
  SpellBase enchant = spell("Stone Hide", spell_type::Enchantment);
  enchant.duration = 1800.0;
  enchant.degrade_modifier = 0.25F;
  enchant.degrade_limit = -1.0F;
  SpellBase summon = spell("Gate", spell_type::PortalSummon);
  summon.portal_lifetime = 60.0;
  t.spells = {{1, spell("Ember Dart", spell_type::Projectile)}, {2, enchant}, {3, summon}};
  t.set_buckets = 8;
  SpellSet set;
  set.set = 5;
  set.buckets = 4;
  set.tiers = {{2, {2}}, {4, {2, 1}}};
  t.sets = {set, SpellSet{6, 2, {}}};
  return t;
}

}  // namespace

TEST_CASE("SpellTable: layout and round trip", "[dat][spell_table]") {
  const SpellTable t = sample();
  const auto bytes = write_spell_table(t);
  // A projectile spell "Ember Dart": key, name 2+10 (pad 0), description 2+8+2, 13 fields,
  // formula, effects: 4 + 12 + 12 + 52 + 32 + 36 = 148 bytes.
  CHECK(bytes[4] == 3);
  CHECK(bytes[6] == 32);
  auto back = read_spell_table(bytes, kSpellTableId);
  REQUIRE(back.has_value());
  CHECK(*back == t);
  CHECK(write_spell_table(*back) == bytes);
  // Type-specific fields: an enchantment spell is 16 bytes longer, a portal summon 8.
  CHECK(bytes.size() == 4 + 4 + 148 + (4 + 12 + 12 + 52 + 16 + 32 + 36) + (4 + 8 + 12 + 52 + 8 + 32 + 36) + 4 +
                            (4 + 4 + (4 + 4 + 4) + (4 + 4 + 8)) + (4 + 4));
  const SpellBase* hide = find_spell(*back, 2);
  REQUIRE(hide != nullptr);
  CHECK(hide->duration == 1800.0);
  CHECK(hide->degrade_limit == -1.0F);
  CHECK(spell_formula(*hide) == std::array<std::uint32_t, 8>{1, 2, 3, 4, 5, 0, 0, 0});
  CHECK(find_spell(*back, 99) == nullptr);

  dereth::core::JsonWriter j;
  write_json(j, t);
  CHECK(j.str().find(R"("spell":1,"name":"Ember Dart")") != std::string::npos);
  CHECK(j.str().find(R"("components":[1,2,3,4,5,0,0,0])") != std::string::npos);
  CHECK(j.str().find(R"("portal_lifetime":60)") != std::string::npos);
}

TEST_CASE("SpellTable: the formula key and its hash", "[dat][spell_table]") {
  CHECK(spell_string_hash("") == 0);
  CHECK(spell_string_hash("A") == 0x41);
  CHECK(spell_string_hash("AB") == 0x41 * 16 + 0x42);
  // Eight characters push bits into the top nibble, which is folded back in.
  std::uint32_t h = 0;
  for (const char c : std::string("Lightning")) {
    h = h * 16 + static_cast<std::uint32_t>(c);
    if ((h & 0xF0000000U) != 0) h = (h ^ ((h & 0xF0000000U) >> 24)) & 0x0FFFFFFFU;
  }
  CHECK(spell_string_hash("Lightning") == h);
  // Bytes above 0x7F count as negative (signed char).
  CHECK(spell_string_hash("\xE9") == ((0xFFFFFFE9U ^ 0xF0U) & 0x0FFFFFFFU));
  CHECK(spell_formula_key("A", "AB") == (0x41U % 0x12107680U) + (0x452U % 0xBEADCF45U));

  SpellBase s;
  s.name = "Ember Dart";
  s.description = "Made up.";
  set_spell_formula(s, {1, 2, 0, 0, 0, 0, 0, 198});
  const std::uint32_t key = spell_formula_key(s.name, s.description);
  CHECK(s.stored_formula[0] == 1 + key);
  CHECK(s.stored_formula[2] == 0);  // absent components stay 0
  CHECK(spell_formula(s) == std::array<std::uint32_t, 8>{1, 2, 0, 0, 0, 0, 0, 198});
}

TEST_CASE("SpellTable: truncation, absurd counts, unknown spell types, trailing bytes", "[dat][spell_table]") {
  const auto bytes = write_spell_table(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_spell_table(std::span<const std::uint8_t>(bytes.data(), n), kSpellTableId);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
  }
  auto huge = bytes;
  huge[5] = 0x10;  // 0x1003 spells
  auto r = read_spell_table(huge, kSpellTableId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "spells.count");
  CHECK(r.error().offset == 4);

  // The first spell's meta spell type sits after key, two strings and 11 fields.
  const std::size_t type_at = 8 + 4 + 12 + 12 + 44;
  REQUIRE(bytes[type_at] == spell_type::Projectile);
  for (const std::uint8_t bad : {std::uint8_t{0}, std::uint8_t{16}}) {
    auto broken = bytes;
    broken[type_at] = bad;
    r = read_spell_table(broken, kSpellTableId);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().kind == ErrorKind::Invalid);
    CHECK(r.error().field == "spells.meta_spell_type");
    CHECK(r.error().offset == type_at);
  }

  // A tier's spell count past the end.
  SpellTable one;
  one.sets = {SpellSet{1, 1, {{2, {7}}}}};
  auto tiers = write_spell_table(one);
  tiers[tiers.size() - 8] = 0xFF;  // the tier's u32 spell count
  r = read_spell_table(tiers, kSpellTableId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "sets.tiers.spells.count");

  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_spell_table(trailing, kSpellTableId).error().kind == ErrorKind::Trailing);
}
