#pragma once
// The player's qualities (CACQualities) as far as movement reads them: the run
// rate and jump velocity that ACCWeenieObject::InqRunRate / InqJumpVelocity
// give the player, from its skills, attributes and burden, built from a decoded
// PlayerDescription, the SkillTable and the XpTable (retail's ExperienceTable);
// then kept up to date by the server's private updates (apply_update, as
// ClientObjMaintSystem::UpdateStat does for the player: the WTimeStamper
// first, then CACQualities::Set*) and the enchantment events (the
// registry). Enchantments change the vitals' maxima and what is asked
// without `raw`; movement and the load read raw values (docs/deviations.md). The rules: docs/sim.md "The local player
// moves".
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "dereth/dat/quality_filter.hpp"
#include "dereth/dat/skill_table.hpp"
#include "dereth/dat/vital_table.hpp"
#include "dereth/dat/xp_table.hpp"
#include "dereth/protocol/magic.hpp"
#include "dereth/protocol/player_description.hpp"
#include "dereth/protocol/player_updates.hpp"
#include "dereth/sim/player/enchantment_registry.hpp"
#include "dereth/sim/player/spell_book.hpp"
#include "dereth/sim/player/w_time_stamper.hpp"

namespace dereth::sim {

// STypeSkill numbers movement reads.
namespace skill_type {
inline constexpr std::uint32_t Jump = 0x16;
inline constexpr std::uint32_t Run = 0x18;
}  // namespace skill_type

// ExperienceType (ExperienceTable::GetLevelForExperience's table choice).
enum class ExperienceType : std::uint32_t {
  Attribute = 1,
  Attribute2nd = 2,
  TrainedSkill = 3,
  SpecializedSkill = 4,
  Level = 5
};

// EncumbranceSystem::EncumbranceCapacity 0x004FCC00
int encumbrance_capacity(int strength, int encumb_augmentations);
// EncumbranceSystem::Load 0x004FCC40
double encumbrance_load(int encumb_capacity, int encumb_val);
// EncumbranceSystem::LoadMod 0x004FCC70
double encumbrance_load_mod(float load);
// MovementSystem::GetRunRate 0x006B0950
double get_run_rate(float load, int runskill, float scaling);
// MovementSystem::GetJumpHeight 0x006B09B0
double get_jump_height(float load, int jumpskill, float power, float scaling);
// MovementSystem::JumpStaminaCost 0x006B0A40: (power + 1) x 100 for a PK
// lately in a PK fight, else ceil((load + 0.5) x power x 8 + 2), truncated.
std::uint64_t jump_stamina_cost(float power, float load, bool pk);
// SkillFormula::Calculate 0x00591960: false (and `retval` untouched) when the divisor is 0.
bool skill_formula_calculate(const dat::SkillFormula& formula, std::uint32_t attr1, std::uint32_t attr2,
                             std::uint32_t& retval);
// ExperienceTable::GetExperienceForLevel(type, level) 0x005C9CD0: 0xFFFFFFFF past the table.
std::uint32_t experience_for_level(const dat::XpTable& table, ExperienceType type, std::uint32_t level);
// ExperienceTable::GetLevelForExperience 0x005C9D40: retail's 16-step search.
std::uint32_t level_for_experience(const dat::XpTable& table, ExperienceType type, std::uint32_t pp);
// ExperienceSystem::SkillLevelFromExperience 0x005C8440: 0 for an untrained
// skill or without the table.
std::uint32_t skill_level_from_experience(const dat::XpTable* table, std::uint32_t sac, std::uint32_t pp);

// Skill (the stored form after Skill::UnPack's checks).
struct Skill {
  std::uint32_t sac = 0;
  std::uint32_t pp = 0;
  std::uint32_t init_level = 0;
  std::uint32_t level_from_pp = 0;
  std::uint32_t resistance_of_last_check = 0;

  // Skill::SanityCheck 0x005CA9C0: an unknown class becomes untrained; the
  // level comes from the experience table. True when nothing changed.
  bool sanity_check(const dat::XpTable* table);
  // Skill::AdjPP 0x005CA960: pp += amount (saturating at 0xFFFFFFFF, the
  // amount then what fitted), the level recomputed. True when the level changed.
  bool adj_pp(const dat::XpTable* table, std::uint32_t& amount);
};

class Qualities {
 public:
  // `skills` and `xp` may be null (no portal, or the record missing): skill
  // base levels are then unknown and trained levels 0, as retail's
  // DBObj::GetByEnum failing gives.
  Qualities(const protocol::PlayerDescription& description, std::optional<dat::SkillTable> skills,
            std::optional<dat::XpTable> xp);

  // CBaseQualities::InqInt (the table only; no enchantment).
  bool inq_int(std::uint32_t stype, int& retval) const;
  // CBaseQualities::InqFloat (the table only; no enchantment).
  bool inq_float(std::uint32_t stype, double& retval) const;
  // AttributeCache::InqAttribute 0x005CC4E0 (level_from_cp + init_level)
  // through CACQualities::InqAttribute 0x00591A00, raw: what movement and
  // the load read (their enchantments: docs/deviations.md).
  bool inq_attribute(std::uint32_t stype, std::uint32_t& retval) const;
  // CACQualities::InqAttribute 0x00591A00: not raw, the value through
  // CACQualities::EnchantAttribute (CEnchantmentRegistry::EnchantAttribute).
  bool inq_attribute(std::uint32_t stype, std::uint32_t& retval, bool raw) const;
  // AttributeCache::InqAttribute2nd 0x005CC5D0: 1/3/5 the maximum's base
  // (level_from_cp + init_level), 2/4/6 the current value.
  bool inq_attribute_2nd(std::uint32_t stype, std::uint32_t& retval) const;
  // CACQualities::InqSkillBaseLevel 0x00592140
  bool inq_skill_base_level(std::uint32_t stype, int& retval) const;
  // CACQualities::InqSkill 0x00592660 (the level with ranks, augmentations).
  bool inq_skill(std::uint32_t stype, int& retval, bool raw) const;
  // CACQualities::InqLoad 0x0058F130
  bool inq_load(float& load) const;
  // CACQualities::InqRunRate 0x00592800
  bool inq_run_rate(float& rate) const;
  // CACQualities::InqJumpVelocity 0x00592980
  bool inq_jump_velocity(float extent, float& v_z) const;
  // CACQualities::CanJump 0x00591B50: the load is under 2 (the extent is not read).
  [[nodiscard]] bool can_jump(float extent) const;
  // CACQualities::JumpStaminaCost 0x00591B90: the cost of a jump at `extent`;
  // the PK rate when PlayerKillerStatus (0x86) is PK (4) or PKLite (64) and
  // LastPKAttackTimestamp (0x91) + 20 is after `cur_time` (Timer::cur_time).
  bool jump_stamina_cost(float extent, double cur_time, int& cost) const;

  [[nodiscard]] const Skill* find_skill(std::uint32_t stype) const;

  // The VitalTable (0x0E000003) the maximum vitals come from. Without it
  // CACQualities::InqAttribute2nd cannot give a maximum, and a current vital
  // is then bounded below only (docs/deviations.md: retail drops the update).
  void set_vital_table(std::optional<dat::VitalTable> table) { vital_table_ = std::move(table); }
  // The QualityFilter (0x0E010001) of the vitals enchantments may change
  // (ACQualityFilter::QueryAttribute2nd); without it none changes them.
  void set_quality_filter(std::optional<dat::QualityFilter> filter) { quality_filter_ = std::move(filter); }
  // CACQualities::InqAttribute2ndBaseLevel 0x00591D20: the maximum's part
  // from the attributes (the VitalTable's formula for stype 1, 3 or 5), the
  // attributes enchanted unless raw.
  bool inq_attribute_2nd_base_level(std::uint32_t stype, std::uint32_t& retval, bool raw) const;
  // CACQualities::InqAttribute2nd 0x00592020: 1/3/5 the maximum (the
  // formula's part, the ranks and starting value, and for health
  // LumAugVitality), 2/4/6 the current value; unless raw, through
  // CACQualities::EnchantAttribute2nd 0x0058F090.
  bool inq_attribute_2nd_level(std::uint32_t stype, std::uint32_t& retval, bool raw) const;

  // ClientObjMaintSystem::UpdateStat<...> for the player (Handle_Qualities__
  // PrivateUpdate*, 0x00558E80..0x00558FD0): the update is taken when its
  // timestamp is not older than the last one of the same quality
  // (WTimeStamper::UpdateTS), then stored by the CACQualities setter below.
  // True when it was taken.
  bool apply_update(const protocol::PrivateUpdateAttribute& m);
  bool apply_update(const protocol::PrivateUpdateAttribute2nd& m);
  bool apply_update(const protocol::PrivateUpdateSkill& m);
  bool apply_update(const protocol::PrivateUpdateStatLevel& m);

  // CBaseQualities::SetInt 0x00590730: the int property replaced, or added.
  void set_int(std::uint32_t stype, std::int32_t value);
  // CACQualities::SetAttribute 0x00591A50 (whole) and 0x00591AA0 (the
  // starting value): a stype outside 1..6 is ignored.
  void set_attribute(std::uint32_t stype, const protocol::AttributeWire& value);
  void set_attribute(std::uint32_t stype, std::uint32_t init_level);
  // CACQualities::SetAttribute2nd 0x00592530: a current value (stype 2, 4,
  // 6) above the maximum is cut to it; with no maximum known nothing is kept.
  void set_attribute_2nd(std::uint32_t stype, const protocol::SecondaryAttributeWire& value);
  // CACQualities::SetAttribute2nd 0x00592CF0 -> 0x005925F0: BoundsCheck
  // (0x005920E0: a negative current value becomes 0, one above the maximum
  // the maximum), then 1/3/5 set the starting value and 2/4/6 the current.
  void set_attribute_2nd(std::uint32_t stype, std::uint32_t value);
  // CACQualities::SetSkill 0x00592240, SetSkillLevel 0x00592340 (the
  // starting level), SetSkillAdvancementClass 0x00592430 (the level again
  // from the experience for the new class).
  void set_skill(std::uint32_t stype, const Skill& value);
  void set_skill_level(std::uint32_t stype, std::uint32_t init_level);
  void set_skill_advancement_class(std::uint32_t stype, std::uint32_t sac);

  // ClientMagicSystem::Handle_Magic__UpdateEnchantment 0x00567930 and its
  // siblings (UpdateMultipleEnchantments 0x005679E0, RemoveEnchantment
  // 0x00568950, RemoveMultipleEnchantments 0x00568A30, DispelEnchantment
  // 0x00568B10, DispelMultipleEnchantments 0x00568B20, PurgeEnchantments
  // 0x00567A70, PurgeBadEnchantments 0x00567B00): the magic events into the registry (CACQualities::
  // UpdateEnchantment, RemoveEnchantment, PurgeEnchantments,
  // PurgeBadEnchantments). True when the registry changed.
  bool apply_update(const protocol::MagicUpdateEnchantments& m);
  bool apply_update(const protocol::MagicRemoveEnchantments& m);
  bool apply_update(const protocol::MagicPurgeEnchantments& m);

  // The spell book: the PlayerDescription's when it carries one
  // (CSpellBook::UnPack 0x00595BB0), then the magic events'.
  // CACQualities::AddSpell 0x0058F220: the book made (64 buckets) when there
  // is none, then CSpellBook::AddSpell with a likelihood of 0.
  void add_spell(std::uint32_t spell);
  // CACQualities::RemoveSpell 0x0058F280: false without a book or the spell.
  bool remove_spell(std::uint32_t spell);
  // CACQualities::IsSpellKnown 0x0058EEC0: false without a book.
  [[nodiscard]] bool is_spell_known(std::uint32_t spell) const;
  // CACQualities::HasSpellBook
  [[nodiscard]] bool has_spell_book() const noexcept { return spell_book_.has_value(); }
  // CACQualities::TranscribeSpells 0x0058EEE0: empty without a book.
  [[nodiscard]] std::vector<std::uint32_t> transcribe_spells() const;

  // The enchantments on the player (the PlayerDescription's, then the
  // magic events').
  [[nodiscard]] EnchantmentRegistry& enchantments() noexcept { return enchantments_; }
  [[nodiscard]] const EnchantmentRegistry& enchantments() const noexcept { return enchantments_; }

 private:
  // The movement skills' shared tail of InqRunRate / InqJumpVelocity: the
  // skill with ranks and augmentations, 0 without stamina.
  bool movement_skill(std::uint32_t stype, int& skill) const;

  std::vector<std::pair<std::uint32_t, std::int32_t>> ints_;
  std::vector<std::pair<std::uint32_t, double>> floats_;
  std::array<std::optional<protocol::AttributeWire>, 6> attributes_{};
  std::array<std::optional<protocol::SecondaryAttributeWire>, 3> vitals_{};
  bool has_attributes_ = false;
  std::vector<std::pair<std::uint32_t, Skill>> skills_;
  bool has_skills_ = false;
  std::optional<dat::SkillTable> skill_table_;
  std::optional<dat::XpTable> xp_table_;
  std::optional<dat::VitalTable> vital_table_;
  std::optional<dat::QualityFilter> quality_filter_;
  WTimeStamper stamper_;
  EnchantmentRegistry enchantments_;
  std::optional<SpellBook> spell_book_;

  Skill* find_skill_mut(std::uint32_t stype);
  // Skill::UnPack 0x005CAAC0's checks on a skill as the wire gives it.
  [[nodiscard]] Skill skill_from_wire(const protocol::SkillWire& w) const;
};

}  // namespace dereth::sim
