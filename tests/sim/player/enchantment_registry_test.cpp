// CEnchantmentRegistry: where an enchantment goes, what replaces what, what
// the purges leave.

#include "dereth/sim/player/enchantment_registry.hpp"

#include <catch2/catch.hpp>

#include "dereth/dat/quality_filter.hpp"

using namespace dereth;
using namespace dereth::sim;
using protocol::EnchantmentList;
using protocol::EnchantmentWire;

namespace {
EnchantmentWire enchantment(std::uint16_t spell, std::uint16_t layer, std::uint32_t type, double duration = 60.0) {
  EnchantmentWire e;
  e.spell_id = spell;
  e.layer = layer;
  e.stat_mod_type = type;
  e.duration = duration;
  return e;
}
}  // namespace

TEST_CASE("CEnchantmentRegistry::UpdateEnchantment 0x00593E70 files by type and replaces the same spell and layer",
          "[retail]") {
  namespace et = enchantment_type;
  EnchantmentRegistry r;
  CHECK(r.update_enchantment(enchantment(10, 1, et::Multiplicative)));
  CHECK(r.update_enchantment(enchantment(11, 1, et::Additive)));
  CHECK(r.update_enchantment(enchantment(12, 1, et::Cooldown)));
  CHECK(r.mult_list().size() == 1);
  CHECK(r.add_list().size() == 1);
  CHECK(r.cooldown_list().size() == 1);
  CHECK(r.cooldown_list()[0].list == EnchantmentList::Cooldown);
  // The same id again replaces; another layer is another enchantment.
  EnchantmentWire stronger = enchantment(10, 1, et::Multiplicative);
  stronger.stat_mod_value = 1.5F;
  CHECK(r.update_enchantment(stronger));
  REQUIRE(r.mult_list().size() == 1);
  CHECK(r.mult_list()[0].stat_mod_value == 1.5F);
  CHECK(r.update_enchantment(enchantment(10, 2, et::Multiplicative)));
  CHECK(r.mult_list().size() == 2);
  // The vitae (spell 666) is one enchantment, replaced whole.
  CHECK(r.update_enchantment(enchantment(666, 0, et::Vitae | et::Multiplicative)));
  CHECK(r.vitae().has_value());
  CHECK(r.is_enchanted(666));
  // A type that is both multiplicative and additive, or neither, is refused.
  CHECK_FALSE(r.update_enchantment(enchantment(20, 1, et::Multiplicative | et::Additive)));
  CHECK_FALSE(r.update_enchantment(enchantment(21, 1, 0)));
  CHECK(r.size() == 5);
}

TEST_CASE("CEnchantmentRegistry::RemoveEnchantment 0x005944E0 and the purges 0x00594DE0 / 0x00594E00", "[retail]") {
  namespace et = enchantment_type;
  // The PlayerDescription's registry keeps each entry in the list it came in.
  EnchantmentWire item = enchantment(30, 1, et::Additive | et::Beneficial, -1.0);
  item.list = EnchantmentList::Additive;
  EnchantmentWire bane = enchantment(31, 1, et::Multiplicative);
  EnchantmentWire boon = enchantment(32, 1, et::Multiplicative | et::Beneficial);
  EnchantmentWire cooldown = enchantment(33, 1, et::Cooldown);
  cooldown.list = EnchantmentList::Cooldown;
  EnchantmentWire vitae = enchantment(666, 0, et::Vitae);
  vitae.list = EnchantmentList::Vitae;
  EnchantmentRegistry r({item, bane, boon, cooldown, vitae});
  CHECK(r.size() == 5);
  CHECK(r.purge_bad_enchantments());  // the bane goes; the boon, the item's and the cooldown stay
  CHECK_FALSE(r.is_enchanted(31));
  CHECK(r.is_enchanted(32));
  CHECK(r.purge_enchantments());  // the boon goes; permanent, cooldown and vitae stay
  CHECK_FALSE(r.is_enchanted(32));
  CHECK(r.is_enchanted(30));
  CHECK(r.is_enchanted(33));
  CHECK_FALSE(r.purge_enchantments());  // nothing left to purge
  CHECK(r.remove_enchantment(enchantment_id(666, 0)));
  CHECK_FALSE(r.vitae().has_value());
  CHECK(r.remove_enchantment(enchantment_id(33, 1)));
  CHECK_FALSE(r.remove_enchantment(enchantment_id(33, 1)));  // already gone
  CHECK(r.size() == 1);
}

namespace {
namespace et = enchantment_type;

// A stat enchantment: `kind` (Attribute, SecondAttribute, Skill) with the
// list bit, on `key`, of `category` and `power`, started at `start`.
EnchantmentWire stat(std::uint16_t spell, std::uint32_t type, std::uint32_t key, float value, std::uint16_t category,
                     std::uint32_t power, double start = 0.0) {
  EnchantmentWire e = enchantment(spell, 1, type);
  e.stat_mod_key = key;
  e.stat_mod_value = value;
  e.category = category;
  e.power_level = power;
  e.start_time = start;
  return e;
}

dat::QualityFilter vitals_filter() {
  dat::QualityFilter f;
  f.attribute2nd_stats = {1, 3, 5};
  return f;
}
}  // namespace

TEST_CASE("Enchantment::Duel 0x005CACE0 and CEnchantmentRegistry::Duel 0x005942B0: the stronger of a category stays",
          "[retail]") {
  const auto a = stat(1, et::Multiplicative | et::Attribute, 1, 1.1F, 7, 100, -50.0);
  const auto b = stat(2, et::Multiplicative | et::Attribute, 1, 1.2F, 7, 200, -40.0);
  CHECK(enchantment_duel(b, a));        // higher power stays
  CHECK_FALSE(enchantment_duel(a, b));  // lower power goes
  // The same power: the held one stays only against a challenger that started earlier.
  const auto older = stat(3, et::Multiplicative | et::Attribute, 1, 1.3F, 7, 100, -60.0);
  const auto newer = stat(4, et::Multiplicative | et::Attribute, 1, 1.3F, 7, 100, -10.0);
  CHECK(enchantment_duel(newer, older));
  CHECK_FALSE(enchantment_duel(older, newer));
  CHECK_FALSE(enchantment_duel(older, older));  // an equal start: the challenger wins
  std::vector<EnchantmentWire> affecting;
  CHECK(enchantment_registry_duel(a, affecting));
  const auto other = stat(5, et::Additive | et::Attribute, 1, 5.0F, 8, 1);
  CHECK(enchantment_registry_duel(other, affecting));
  CHECK(enchantment_registry_duel(b, affecting));  // a goes, b is appended after the other category
  REQUIRE(affecting.size() == 2);
  CHECK(affecting[0].spell_id == 5);
  CHECK(affecting[1].spell_id == 2);
  CHECK_FALSE(enchantment_registry_duel(a, affecting));  // a loses to b: not added
  CHECK(affecting.size() == 2);
}

TEST_CASE("Enchantment::Enchant 0x005CAD10: additive adds, else multiplicative multiplies, in float", "[retail]") {
  float v = 10.0F;
  CHECK(enchantment_enchant(stat(1, et::Additive, 0, 2.5F, 1, 1), v));
  CHECK(v == 12.5F);
  CHECK(enchantment_enchant(stat(1, et::Multiplicative, 0, 0.1F, 1, 1), v));
  CHECK(v == 0.1F * 12.5F);
  // Both bits: the additive test comes first.
  v = 10.0F;
  CHECK(enchantment_enchant(stat(1, et::Additive | et::Multiplicative, 0, 3.0F, 1, 1), v));
  CHECK(v == 13.0F);
  CHECK_FALSE(enchantment_enchant(stat(1, et::Cooldown, 0, 3.0F, 1, 1), v));
  CHECK(v == 13.0F);
}

TEST_CASE(
    "CEnchantmentRegistry::CullEnchantmentsFromList 0x00594470 with Enchantment::AffectsAttackSkills 0x005CADE0 and "
    "AffectsDefenseSkills 0x005CAE30: the kind bit, then its key, every key, or the skill group",
    "[retail]") {
  const std::vector<EnchantmentWire> list = {
      stat(1, et::Additive | et::Skill, 0x2D, 10.0F, 1, 1),                           // Heavy Weapons itself
      stat(2, et::Additive | et::Skill | et::AttackSkills, 0, 5.0F, 2, 1),            // every attack skill
      stat(3, et::Additive | et::Skill | et::DefenseSkills, 0, 5.0F, 3, 1),           // every defense skill
      stat(4, et::Additive | et::Skill | et::MultipleStat, 0, 1.0F, 4, 1),            // every skill
      stat(5, et::Additive | et::Attribute, 0x2D, 7.0F, 5, 1),                        // an attribute's: another kind
      stat(6, et::Additive | et::SecondAttribute | et::MultipleStat, 0, 1.0F, 6, 1),  // another kind, every key
  };
  std::vector<EnchantmentWire> heavy;
  CHECK(cull_enchantments_from_list(list, et::Skill, 0x2D, heavy));
  REQUIRE(heavy.size() == 3);
  CHECK(heavy[0].spell_id == 1);
  CHECK(heavy[1].spell_id == 2);
  CHECK(heavy[2].spell_id == 4);
  std::vector<EnchantmentWire> melee_defense;
  CHECK(cull_enchantments_from_list(list, et::Skill, 0x06, melee_defense));
  REQUIRE(melee_defense.size() == 2);
  CHECK(melee_defense[0].spell_id == 3);
  CHECK(melee_defense[1].spell_id == 4);
  std::vector<EnchantmentWire> run;
  CHECK(cull_enchantments_from_list(list, et::Skill, 0x18, run));  // Run: every skill's alone
  REQUIRE(run.size() == 1);
  CHECK(run[0].spell_id == 4);
  std::vector<EnchantmentWire> nothing;
  CHECK_FALSE(cull_enchantments_from_list({}, et::Skill, 0x18, nothing));
  CHECK(nothing.empty());
}

TEST_CASE(
    "CEnchantmentRegistry::EnchantAttribute 0x00594570: the winners, multiplicative list first, at least 10 from 10 "
    "and 1 below",
    "[retail]") {
  EnchantmentRegistry r;
  // Strength (1): a weaker and a stronger buff of one category, a debuff of another.
  r.update_enchantment(stat(1, et::Multiplicative | et::Attribute, 1, 1.1F, 7, 100));
  r.update_enchantment(stat(2, et::Additive | et::Attribute, 1, 20.0F, 9, 100));
  r.update_enchantment(stat(3, et::Multiplicative | et::Attribute, 1, 1.5F, 7, 200));
  r.update_enchantment(stat(4, et::Additive | et::Attribute, 2, 50.0F, 10, 100));  // Endurance's
  std::uint32_t strength = 100;
  CHECK(r.enchant_attribute(1, strength));
  CHECK(strength == 170);  // 100 * 1.5 + 20 (the 1.1 lost its duel)
  std::uint32_t coordination = 60;
  CHECK_FALSE(r.enchant_attribute(4, coordination));
  CHECK(coordination == 60);
  // The floor: 10 from a value of 10 or more, 1 below.
  EnchantmentRegistry weak;
  weak.update_enchantment(stat(5, et::Multiplicative | et::Attribute, 1, 0.01F, 7, 1));
  std::uint32_t v = 50;
  CHECK(weak.enchant_attribute(1, v));
  CHECK(v == 10);
  v = 9;
  CHECK(weak.enchant_attribute(1, v));
  CHECK(v == 1);
  // Rounding: to nearest, half up (12.5 -> 13).
  EnchantmentRegistry half;
  half.update_enchantment(stat(6, et::Multiplicative | et::Attribute, 1, 1.25F, 7, 1));
  v = 10;
  CHECK(half.enchant_attribute(1, v));
  CHECK(v == 13);
}

TEST_CASE(
    "CEnchantmentRegistry::EnchantAttribute2nd 0x00594670: only a filtered vital, the vitae first, at least 5 from 5 "
    "and 1 below",
    "[retail]") {
  EnchantmentRegistry r;
  EnchantmentWire vitae = stat(666, et::Multiplicative | et::Vitae, 0, 0.9F, 204, 0);
  r.update_enchantment(vitae);
  r.update_enchantment(stat(2, et::Additive | et::SecondAttribute, 1, 40.0F, 11, 100));  // max health +40
  r.update_enchantment(stat(3, et::Additive | et::SecondAttribute, 5, 30.0F, 12, 100));  // max mana +30
  const dat::QualityFilter filter = vitals_filter();
  std::uint32_t health = 100;
  CHECK(r.enchant_attribute_2nd(1, health, &filter));
  CHECK(health == 130);  // 100 * 0.9 + 40
  // Not in the filter, or no filter at all: nothing changes.
  std::uint32_t current = 80;
  CHECK_FALSE(r.enchant_attribute_2nd(2, current, &filter));
  CHECK(current == 80);
  std::uint32_t mana = 100;
  CHECK_FALSE(r.enchant_attribute_2nd(5, mana, nullptr));
  CHECK(mana == 100);
  // The floor: a vital of 5 or more stays at least 5, below it at least 1.
  EnchantmentRegistry drained;
  drained.update_enchantment(stat(4, et::Additive | et::SecondAttribute, 3, -1000.0F, 13, 1));
  std::uint32_t stamina = 50;
  CHECK(drained.enchant_attribute_2nd(3, stamina, &filter));
  CHECK(stamina == 5);
  stamina = 4;
  CHECK(drained.enchant_attribute_2nd(3, stamina, &filter));
  CHECK(stamina == 1);
}
