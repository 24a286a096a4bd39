// The player's qualities after the PlayerDescription: the private updates as
// ClientObjMaintSystem::UpdateStat applies them for the player (the stamp,
// then CACQualities::Set*), the bounds on a current vital, and the
// enchantment events into the registry.

#include <catch2/catch.hpp>

#include "dereth/sim/player/qualities.hpp"

#include "player/qualities_support.hpp"

using namespace dereth;
using namespace dereth::sim;
namespace q = protocol::quality_opcode;

namespace {

// Health = Endurance / 2, stamina = Endurance, mana = Self (retail's VitalTable formulas).
dat::VitalTable vital_table() {
  dat::VitalTable t;
  t.max_health = dat::SkillFormula{0, 1, 0, 2, 2, 0};
  t.max_stamina = dat::SkillFormula{0, 1, 0, 1, 2, 0};
  t.max_mana = dat::SkillFormula{0, 1, 0, 1, 6, 0};
  return t;
}

// Endurance 100 and health ranks 5, start 0, current 40 (maximum 50 + 5 = 55).
std::unique_ptr<Qualities> player(bool with_vital_table = true) {
  protocol::PlayerDescription d = test::movement_description({});
  d.attributes[1] = protocol::AttributeWire{0, 100, 0};
  d.vitals[0] = protocol::SecondaryAttributeWire{5, 0, 0, 40};
  auto qualities = std::make_unique<Qualities>(d, test::movement_skill_table(), test::small_xp_table());
  if (with_vital_table) qualities->set_vital_table(vital_table());
  return qualities;
}

std::uint32_t current_health(const Qualities& qualities) {
  std::uint32_t v = 0;
  REQUIRE(qualities.inq_attribute_2nd(2, v));
  return v;
}

}  // namespace

TEST_CASE("CACQualities::InqAttribute2nd 0x00592020: a maximum is the VitalTable's formula plus ranks and start",
          "[retail]") {
  auto qualities = player();
  std::uint32_t max = 0;
  REQUIRE(qualities->inq_attribute_2nd_level(1, max, false));
  CHECK(max == 55);
  std::uint32_t current = 0;
  REQUIRE(qualities->inq_attribute_2nd_level(2, current, false));
  CHECK(current == 40);
  // Without the VitalTable, retail's InqAttribute2ndBaseLevel fails: no maximum.
  CHECK_FALSE(player(false)->inq_attribute_2nd_level(1, max, false));
}

TEST_CASE(
    "ClientObjMaintSystem::Handle_Qualities__PrivateUpdateAttribute2ndLevel 0x00558F10 changes the current vital, and "
    "CACQualities::BoundsCheck 0x005920E0 cuts it to the maximum and a negative to 0",
    "[retail]") {
  auto qualities = player();
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateAttribute2ndLevel, 1, 2, 30}));
  CHECK(current_health(*qualities) == 30);
  // Above the maximum (55): held at 55.
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateAttribute2ndLevel, 2, 2, 9000}));
  CHECK(current_health(*qualities) == 55);
  // A negative value (as the binary reads the word, signed): 0.
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateAttribute2ndLevel, 3, 2, 0xFFFFFFF0}));
  CHECK(current_health(*qualities) == 0);
  // A stale stamp is dropped (WTimeStamper::UpdateTS 0x006B2D70).
  CHECK_FALSE(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateAttribute2ndLevel, 2, 2, 20}));
  CHECK(current_health(*qualities) == 0);
  // Stamina has its own stamp: a low one is still the first.
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateAttribute2ndLevel, 0, 4, 70}));
  std::uint32_t stamina = 0;
  REQUIRE(qualities->inq_attribute_2nd(4, stamina));
  CHECK(stamina == 70);
}

TEST_CASE("CACQualities::SetAttribute2nd: a current vital without a known maximum", "[retail]") {
  // Mana is not in the description: retail's BoundsCheck has no maximum and keeps nothing.
  auto qualities = player();
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateAttribute2ndLevel, 1, 6, 30}));
  std::uint32_t mana = 0;
  // Self is not held either: the formula gives 0 and there is no mana vital, so no maximum.
  CHECK_FALSE(qualities->inq_attribute_2nd(6, mana));
  // Without the VitalTable (dereth's deviation): the value is kept, bounded below only.
  auto bare = player(false);
  CHECK(bare->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateAttribute2ndLevel, 1, 2, 9000}));
  CHECK(current_health(*bare) == 9000);
  CHECK(bare->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateAttribute2ndLevel, 2, 2, 0x80000000}));
  CHECK(current_health(*bare) == 0);
}

TEST_CASE("ClientObjMaintSystem::Handle_Qualities__PrivateUpdateAttribute2nd 0x00558EE0 replaces the whole vital",
          "[retail]") {
  auto qualities = player();
  // Health's maximum stype 1: ranks 10, start 5, current 61 (maximum 50 + 15 = 65).
  CHECK(qualities->apply_update(protocol::PrivateUpdateAttribute2nd{4, 1, {10, 5, 100, 61}}));
  std::uint32_t max = 0;
  REQUIRE(qualities->inq_attribute_2nd_level(1, max, false));
  CHECK(max == 65);
  CHECK(current_health(*qualities) == 61);
  // The same stamp again is taken (equal is not older); an older one is not.
  CHECK(qualities->apply_update(protocol::PrivateUpdateAttribute2nd{4, 1, {10, 5, 100, 62}}));
  CHECK_FALSE(qualities->apply_update(protocol::PrivateUpdateAttribute2nd{3, 1, {0, 0, 0, 0}}));
  CHECK(current_health(*qualities) == 62);
  // A stype outside 1..6 changes nothing.
  CHECK(qualities->apply_update(protocol::PrivateUpdateAttribute2nd{1, 9, {1, 1, 1, 1}}));
  REQUIRE(qualities->inq_attribute_2nd_level(1, max, false));
  CHECK(max == 65);
}

TEST_CASE("ClientObjMaintSystem::Handle_Qualities__PrivateUpdateAttribute 0x00558E80 and AttributeLevel 0x00558EB0",
          "[retail]") {
  auto qualities = player();
  std::uint32_t endurance = 0;
  CHECK(qualities->apply_update(protocol::PrivateUpdateAttribute{1, 2, {20, 100, 500}}));
  REQUIRE(qualities->inq_attribute(2, endurance));
  CHECK(endurance == 120);
  // The level form sets the starting value only.
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateAttributeLevel, 2, 2, 50}));
  REQUIRE(qualities->inq_attribute(2, endurance));
  CHECK(endurance == 70);
  // An attribute not held yet is made (Self).
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateAttributeLevel, 1, 6, 40}));
  std::uint32_t self = 0;
  REQUIRE(qualities->inq_attribute(6, self));
  CHECK(self == 40);
  // The maximum health follows Endurance (70 / 2 + 5).
  std::uint32_t max = 0;
  REQUIRE(qualities->inq_attribute_2nd_level(1, max, false));
  CHECK(max == 40);
}

TEST_CASE(
    "ClientObjMaintSystem::Handle_Qualities__PrivateUpdateSkill 0x00558F40, SkillLevel 0x00558F70, SkillAC "
    "0x00558FA0",
    "[retail]") {
  auto qualities = player();
  // Run trained with 30 experience: rank 2 of the small table.
  CHECK(qualities->apply_update(protocol::PrivateUpdateSkill{1, skill_type::Run, {0, 1, 2, 30, 5, 0, 0.0}}));
  const Skill* run = qualities->find_skill(skill_type::Run);
  REQUIRE(run != nullptr);
  CHECK(run->sac == 2);
  CHECK(run->level_from_pp == 2);  // Skill::UnPack's SanityCheck recomputes the rank
  CHECK(run->init_level == 5);
  // SkillLevel sets the starting level.
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateSkillLevel, 2, skill_type::Run, 9}));
  CHECK(qualities->find_skill(skill_type::Run)->init_level == 9);
  // SkillAC: specialized, the rank again from the specialized table (30 -> 3).
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateSkillAC, 3, skill_type::Run, 3}));
  CHECK(qualities->find_skill(skill_type::Run)->sac == 3);
  CHECK(qualities->find_skill(skill_type::Run)->level_from_pp == 3);
  // A skill the description did not hold is added.
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateSkillLevel, 1, 0x2B, 4}));
  REQUIRE(qualities->find_skill(0x2B) != nullptr);
  CHECK(qualities->find_skill(0x2B)->init_level == 4);
  // Skills share the key space 0x40000: a stale stamp for Run is dropped.
  CHECK_FALSE(
      qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateSkillLevel, 1, skill_type::Run, 1}));
  CHECK(qualities->find_skill(skill_type::Run)->init_level == 9);
}

TEST_CASE(
    "ClientMagicSystem::Handle_Magic__UpdateEnchantment 0x00567930, RemoveEnchantment 0x00568950 and the purges "
    "change the player's registry",
    "[retail]") {
  auto qualities = player();
  protocol::EnchantmentWire e;
  e.spell_id = 0x0401;
  e.layer = 1;
  e.duration = 60.0;
  e.stat_mod_type = enchantment_type::Additive | enchantment_type::Beneficial;
  CHECK(qualities->apply_update(protocol::MagicUpdateEnchantments{protocol::magic_event::UpdateEnchantment, {e}}));
  CHECK(qualities->enchantments().add_list().size() == 1);
  protocol::EnchantmentWire curse = e;
  curse.spell_id = 0x0500;
  curse.stat_mod_type = enchantment_type::Multiplicative;
  CHECK(qualities->apply_update(
      protocol::MagicUpdateEnchantments{protocol::magic_event::UpdateMultipleEnchantments, {curse}}));
  CHECK(qualities->enchantments().is_enchanted(0x0500));
  // The harmful one goes with PurgeBadEnchantments; the beneficial one stays.
  CHECK(qualities->apply_update(protocol::MagicPurgeEnchantments{true}));
  CHECK_FALSE(qualities->enchantments().is_enchanted(0x0500));
  CHECK(qualities->enchantments().is_enchanted(0x0401));
  // Removing a spell at another layer changes nothing; at its layer it goes.
  CHECK_FALSE(qualities->apply_update(
      protocol::MagicRemoveEnchantments{protocol::magic_event::RemoveEnchantment, {{0x0401, 2}}}));
  CHECK(qualities->apply_update(
      protocol::MagicRemoveEnchantments{protocol::magic_event::DispelEnchantment, {{0x0401, 1}}}));
  CHECK(qualities->enchantments().size() == 0);
}

TEST_CASE(
    "ClientObjMaintSystem::Handle_Qualities__PrivateUpdateInt 0x00558FD0 sets an int property "
    "(CBaseQualities::SetInt 0x00590730)",
    "[retail]") {
  auto qualities = player();
  int burden = 0;
  REQUIRE(qualities->inq_int(5, burden));
  CHECK(burden == 0);
  // A heavier pack: EncumbranceVal 5 = 1200 (signed on the wire).
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateInt, 1, 5, 1200}));
  REQUIRE(qualities->inq_int(5, burden));
  CHECK(burden == 1200);
  float load = 0.0F;
  REQUIRE(qualities->inq_load(load));
  CHECK(load > 0.0F);
  // A property not held yet is added; a negative value stays negative.
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateInt, 1, 0x2B, 0xFFFFFFFF}));
  int deaths = 0;
  REQUIRE(qualities->inq_int(0x2B, deaths));
  CHECK(deaths == -1);
  // The int stamps are their own (key 0x10000): a stale one is dropped.
  CHECK_FALSE(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateInt, 0, 5, 1}));
  REQUIRE(qualities->inq_int(5, burden));
  CHECK(burden == 1200);
}

TEST_CASE(
    "CACQualities::InqAttribute2nd 0x00592020 not raw: the maximum from the enchanted Endurance through "
    "CACQualities::EnchantAttribute2nd 0x0058F090, and BoundsCheck 0x005920E0 bounds by it",
    "[retail]") {
  namespace et = enchantment_type;
  auto qualities = player();
  dat::QualityFilter filter;
  filter.attribute2nd_stats = {1, 3, 5};
  qualities->set_quality_filter(filter);
  protocol::EnchantmentWire endurance;  // Endurance +20
  endurance.spell_id = 1;
  endurance.layer = 1;
  endurance.category = 20;
  endurance.stat_mod_type = et::Additive | et::Attribute;
  endurance.stat_mod_key = 2;
  endurance.stat_mod_value = 20.0F;
  protocol::EnchantmentWire health = endurance;  // maximum health +10
  health.spell_id = 2;
  health.category = 21;
  health.stat_mod_type = et::Additive | et::SecondAttribute;
  health.stat_mod_key = 1;
  health.stat_mod_value = 10.0F;
  protocol::MagicUpdateEnchantments update;
  update.event = protocol::magic_event::UpdateMultipleEnchantments;
  update.enchantments = {endurance, health};
  CHECK(qualities->apply_update(update));
  std::uint32_t max = 0;
  REQUIRE(qualities->inq_attribute_2nd_level(1, max, false));
  CHECK(max == 75);  // (100 + 20) / 2 + 5 + 10
  REQUIRE(qualities->inq_attribute_2nd_level(1, max, true));
  CHECK(max == 55);  // raw: neither
  // The current vital is held up to the enchanted maximum, not the raw one.
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateAttribute2ndLevel, 1, 2, 70}));
  CHECK(current_health(*qualities) == 70);
  CHECK(qualities->apply_update(protocol::PrivateUpdateStatLevel{q::PrivateUpdateAttribute2ndLevel, 2, 2, 90}));
  CHECK(current_health(*qualities) == 75);
  // Without the QualityFilter the vital's own enchantment does nothing; Endurance's still counts.
  qualities->set_quality_filter(std::nullopt);
  REQUIRE(qualities->inq_attribute_2nd_level(1, max, false));
  CHECK(max == 65);
}
