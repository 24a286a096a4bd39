#include "dereth/sim/player/qualities.hpp"

#include <algorithm>
#include <cmath>

namespace dereth::sim {

namespace {

// CBaseQualities int properties movement reads.
constexpr std::uint32_t kEncumbranceVal = 5;  // PropertyInt EncumbranceVal
constexpr std::uint32_t kAugmentationIncreasedCarryingCapacity = 0xE6;
constexpr std::uint32_t kAugmentationSkilledSpec = 0x146;  // +5 to every skill
constexpr std::uint32_t kLumAugSkilledSpec = 0x158;        // +2 each to specialized skills
constexpr std::uint32_t kEnlightenment = 0x16D;            // + its value to every skill
constexpr std::uint32_t kPlayerKillerStatus = 0x86;        // PropertyInt PlayerKillerStatus
constexpr std::uint32_t kLastPkAttackTimestamp = 0x91;     // PropertyFloat LastPKAttackTimestamp
constexpr std::uint32_t kLumAugVitality = 0x17B;           // + its value to maximum health

constexpr std::uint32_t kSpecialized = 3;

std::uint32_t max_level(const dat::XpTable& t, ExperienceType type) {
  const auto last = [](std::size_t n) { return n == 0 ? 0u : static_cast<std::uint32_t>(n - 1); };
  switch (type) {
    case ExperienceType::Attribute: return last(t.attribute.size());
    case ExperienceType::Attribute2nd: return last(t.vital.size());
    case ExperienceType::TrainedSkill: return last(t.trained_skill.size());
    case ExperienceType::SpecializedSkill: return last(t.specialized_skill.size());
    case ExperienceType::Level: return last(t.level.size());
  }
  return 0;
}

// The retail search's step: floor((span + 1) / 2) computed in doubles.
std::uint32_t half_step(std::uint32_t span) {
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>((static_cast<double>(span) + 1.0) * 0.5));
}

}  // namespace

// EncumbranceSystem::EncumbranceCapacity 0x004FCC00
int encumbrance_capacity(int strength, int encumb_augmentations) {
  if (strength <= 0) return 0;
  int bonus = 30 * encumb_augmentations;
  if (bonus < 0) return 150 * strength;
  if (bonus > 150) bonus = 150;
  return 150 * strength + strength * bonus;
}

// EncumbranceSystem::Load 0x004FCC40
double encumbrance_load(int encumb_capacity, int encumb_val) {
  if (encumb_capacity <= 0) return 3.0;
  if (encumb_val < 0) return 0.0;
  return static_cast<double>(encumb_val) / static_cast<double>(encumb_capacity);
}

// EncumbranceSystem::LoadMod 0x004FCC70
double encumbrance_load_mod(float load) {
  if (load < 1.0f) return 1.0;
  if (load >= 2.0f) return 0.0;
  return 2.0 - static_cast<double>(load);
}

// MovementSystem::GetRunRate 0x006B0950
double get_run_rate(float load, int runskill, float scaling) {
  const double mod = encumbrance_load_mod(load);
  const double skill = static_cast<double>(runskill);
  if (skill == 800.0) return 18.0 / 4.0;
  return (mod * (skill / (skill + 200.0) * 11.0) + 4.0) / static_cast<double>(scaling) / 4.0;
}

// MovementSystem::GetJumpHeight 0x006B09B0
double get_jump_height(float load, int jumpskill, float power, float scaling) {
  if (power > 1.0f) {
    power = 1.0f;
  } else if (power < 0.0f) {
    power = 0.0f;
  }
  const double skill = static_cast<double>(static_cast<float>(jumpskill));
  const double height = encumbrance_load_mod(load) *
                        (skill / (skill + 1300.0) * static_cast<double>(22.2f) + static_cast<double>(0.05f)) *
                        static_cast<double>(power) / static_cast<double>(scaling);
  const double floor = static_cast<double>(0.35f);
  return height < floor ? floor : height;
}

// MovementSystem::JumpStaminaCost 0x006B0A40
std::uint64_t jump_stamina_cost(float power, float load, bool pk) {
  // The float arguments are widened to double; the double truncates toward
  // zero into the 64-bit result (extents and loads are never negative here).
  const double cost = pk ? (static_cast<double>(power) + 1.0) * 100.0
                         : std::ceil((static_cast<double>(load) + 0.5) * static_cast<double>(power) * 8.0 + 2.0);
  return static_cast<std::uint64_t>(static_cast<std::int64_t>(cost));
}

// SkillFormula::Calculate 0x00591960
bool skill_formula_calculate(const dat::SkillFormula& f, std::uint32_t attr1, std::uint32_t attr2,
                             std::uint32_t& retval) {
  if (f.z == 0) return false;
  const std::uint32_t sum = f.w + attr2 * f.y + attr1 * f.x;  // u32 arithmetic, as retail's
  retval = static_cast<std::uint32_t>(
      static_cast<std::uint64_t>(std::floor(static_cast<double>(sum) / static_cast<double>(f.z) + 0.5)));
  return true;
}

// ExperienceTable::GetExperienceForLevel(type, level) 0x005C9CD0
std::uint32_t experience_for_level(const dat::XpTable& t, ExperienceType type, std::uint32_t level) {
  const std::vector<std::uint32_t>* table = nullptr;
  switch (type) {
    case ExperienceType::Attribute: table = &t.attribute; break;
    case ExperienceType::Attribute2nd: table = &t.vital; break;
    case ExperienceType::TrainedSkill: table = &t.trained_skill; break;
    case ExperienceType::SpecializedSkill: table = &t.specialized_skill; break;
    case ExperienceType::Level: return 0xFFFFFFFFu;  // the u64 overload answers levels
  }
  if (table == nullptr || level >= table->size()) return 0xFFFFFFFFu;
  return (*table)[level];
}

// ExperienceTable::GetLevelForExperience 0x005C9D40: at most 16 halvings
// between the last level known reached and the table's top.
std::uint32_t level_for_experience(const dat::XpTable& t, ExperienceType type, std::uint32_t pp) {
  std::uint32_t low = 0;
  std::uint32_t high = max_level(t, type);
  std::uint32_t mid = half_step(high);
  for (int i = 1; i <= 16; ++i) {
    const std::uint32_t at_mid = experience_for_level(t, type, mid);
    if (pp > experience_for_level(t, type, mid + 1) - 1u) {
      low = mid;
      const std::uint32_t step = half_step(high - mid);
      if (step == 0) return mid;
      mid += step;
    } else {
      if (pp >= at_mid) return mid;
      high = mid;
      const std::uint32_t step = half_step(mid - low);
      if (step == 0) break;
      mid -= step;
    }
  }
  return mid;
}

// ExperienceSystem::SkillLevelFromExperience 0x005C8440
std::uint32_t skill_level_from_experience(const dat::XpTable* table, std::uint32_t sac, std::uint32_t pp) {
  if (table == nullptr) return 0;
  if (sac == 2) return level_for_experience(*table, ExperienceType::TrainedSkill, pp);
  if (sac == 3) return level_for_experience(*table, ExperienceType::SpecializedSkill, pp);
  return 0;
}

// Skill::SanityCheck 0x005CA9C0
bool Skill::sanity_check(const dat::XpTable* table) {
  bool ok = true;
  if (sac != 1 && sac != 2 && sac != 3) {
    sac = 1;
    level_from_pp = skill_level_from_experience(table, 1, pp);
    ok = false;
  }
  const std::uint32_t level = skill_level_from_experience(table, sac, pp);
  if (level == level_from_pp) return ok;
  level_from_pp = level;
  return false;
}

// Skill::AdjPP 0x005CA960
bool Skill::adj_pp(const dat::XpTable* table, std::uint32_t& amount) {
  const std::uint32_t before = level_from_pp;
  const std::uint32_t sum = amount + pp;
  if (sum >= pp) {
    pp = sum;
  } else {
    amount = 0xFFFFFFFFu - pp;
    pp = 0xFFFFFFFFu;
  }
  level_from_pp = skill_level_from_experience(table, sac, pp);
  return before != level_from_pp;
}

Qualities::Qualities(const protocol::PlayerDescription& d, std::optional<dat::SkillTable> skills,
                     std::optional<dat::XpTable> xp)
    : ints_((d.property_flags & protocol::quality_flag::Int) != 0 ? d.ints : decltype(d.ints){}),
      floats_((d.property_flags & protocol::quality_flag::Float) != 0 ? d.floats : decltype(d.floats){}),
      attributes_(d.attributes),
      vitals_(d.vitals),
      has_attributes_((d.vector_flags & protocol::quality_vector_flag::Attribute) != 0),
      has_skills_((d.vector_flags & protocol::quality_vector_flag::Skill) != 0),
      skill_table_(std::move(skills)),
      xp_table_(std::move(xp)),
      enchantments_((d.vector_flags & protocol::quality_vector_flag::Enchantment) != 0 ? d.enchantments
                                                                                       : decltype(d.enchantments){}) {
  if ((d.vector_flags & protocol::quality_vector_flag::Spell) != 0) {
    spell_book_ = SpellBook::unpack(d.spell_buckets, d.spells);
  }
  if (!has_skills_) return;
  skills_.reserve(d.skills.size());
  for (const auto& [stype, w] : d.skills) skills_.emplace_back(stype, skill_from_wire(w));
}

// Skill::UnPack 0x005CAAC0: the checks after the fields are read.
Skill Qualities::skill_from_wire(const protocol::SkillWire& w) const {
  const dat::XpTable* table = xp_table_ ? &*xp_table_ : nullptr;
  Skill s;
  s.level_from_pp = w.level_from_pp;
  s.sac = w.sac;
  s.pp = w.pp;
  s.init_level = w.init_level;
  s.resistance_of_last_check = w.resistance_of_last_check;
  s.sanity_check(table);
  if (w.adjusted == 0) {
    // An old-form skill: its init_level was experience; it moves into pp.
    if (s.init_level != 0) s.adj_pp(table, s.init_level);
    s.init_level = 0;
  }
  return s;
}

Skill* Qualities::find_skill_mut(std::uint32_t stype) {
  for (auto& [key, skill] : skills_) {
    if (key == stype) return &skill;
  }
  return nullptr;
}

const Skill* Qualities::find_skill(std::uint32_t stype) const {
  if (!has_skills_) return nullptr;
  for (const auto& [key, skill] : skills_) {
    if (key == stype) return &skill;
  }
  return nullptr;
}

bool Qualities::inq_int(std::uint32_t stype, int& retval) const {
  for (const auto& [key, value] : ints_) {
    if (key == stype) {
      retval = value;
      return true;
    }
  }
  return false;
}

bool Qualities::inq_float(std::uint32_t stype, double& retval) const {
  for (const auto& [key, value] : floats_) {
    if (key == stype) {
      retval = value;
      return true;
    }
  }
  return false;
}

// CACQualities::InqAttribute 0x00591A00 over AttributeCache::InqAttribute 0x005CC4E0
bool Qualities::inq_attribute(std::uint32_t stype, std::uint32_t& retval) const {
  if (!has_attributes_ || stype < 1 || stype > 6) return false;
  const auto& a = attributes_[stype - 1];
  if (!a) return false;
  retval = a->level_from_cp + a->init_level;
  return true;
}

// CACQualities::InqAttribute 0x00591A00
bool Qualities::inq_attribute(std::uint32_t stype, std::uint32_t& retval, bool raw) const {
  if (!inq_attribute(stype, retval)) return false;
  if (!raw) enchantments_.enchant_attribute(stype, retval);  // CACQualities::EnchantAttribute
  return true;
}

// AttributeCache::InqAttribute2nd 0x005CC5D0
bool Qualities::inq_attribute_2nd(std::uint32_t stype, std::uint32_t& retval) const {
  if (!has_attributes_ || stype < 1 || stype > 6) return false;
  const auto& v = vitals_[(stype - 1) / 2];
  if (!v) return false;
  retval = (stype % 2) == 1 ? v->level_from_cp + v->init_level : v->current_level;
  return true;
}

// CACQualities::InqSkillBaseLevel 0x00592140
bool Qualities::inq_skill_base_level(std::uint32_t stype, int& retval) const {
  if (!skill_table_) return false;
  const dat::SkillBase* base = dat::find_skill(*skill_table_, stype);
  if (base == nullptr) return false;
  std::uint32_t sac = 1;
  if (const Skill* s = find_skill(stype)) sac = s->sac;
  if (sac < base->min_level) {
    retval = 0;
    return true;
  }
  std::uint32_t attr1 = 0;
  std::uint32_t attr2 = 0;
  if (base->formula.attr1 != 0) inq_attribute(base->formula.attr1, attr1);
  if (base->formula.attr2 != 0) inq_attribute(base->formula.attr2, attr2);
  std::uint32_t out = 0;
  if (!skill_formula_calculate(base->formula, attr1, attr2, out)) return false;
  retval = static_cast<int>(out);
  return true;
}

// CACQualities::InqSkill 0x00592660
bool Qualities::inq_skill(std::uint32_t stype, int& retval, bool raw) const {
  if (!inq_skill_base_level(stype, retval)) return false;
  const Skill* skill = find_skill(stype);
  if (skill != nullptr) retval += static_cast<int>(skill->init_level + skill->level_from_pp);
  int enlightenment = 0;
  if (inq_int(kEnlightenment, enlightenment) && enlightenment > 0) retval += enlightenment;
  // The skill-group augmentations: +10 when the group's augmentation is held.
  std::uint32_t group_aug = 0;
  switch (stype) {
    case 0x29:
    case 0x2C:
    case 0x2D:
    case 0x2E:
    case 0x31: group_aug = 300; break;
    case 0x2F: group_aug = 301; break;
    case 0x1F:
    case 0x20:
    case 0x21:
    case 0x22:
    case 0x2B: group_aug = 302; break;
    default: break;
  }
  if (group_aug != 0) {
    int held = 0;
    inq_int(group_aug, held);
    if (held > 0) retval += 10;
  }
  if (!raw) {
    // CACQualities::EnchantSkill: no enchantment registry is kept.
    int all_skills = 0;
    if (inq_int(kAugmentationSkilledSpec, all_skills) && all_skills > 0) retval += 5;
    int lum = 0;
    inq_int(kLumAugSkilledSpec, lum);
    if (lum > 0 && skill != nullptr && skill->sac == kSpecialized) retval += 2 * lum;
  }
  return true;
}

// CACQualities::InqLoad 0x0058F130: always answers (Strength 10 when unknown).
bool Qualities::inq_load(float& load) const {
  std::uint32_t strength = 10;
  inq_attribute(1, strength);
  int augmentations = 0;
  inq_int(kAugmentationIncreasedCarryingCapacity, augmentations);
  const int capacity = encumbrance_capacity(static_cast<int>(strength), augmentations);
  int burden = 0;
  inq_int(kEncumbranceVal, burden);
  load = static_cast<float>(encumbrance_load(capacity, burden));
  return true;
}

// The body InqRunRate and InqJumpVelocity share: the skill's base level, its
// ranks, enlightenment and the augmentations (not the skill-group +10), and
// nothing at all without stamina.
bool Qualities::movement_skill(std::uint32_t stype, int& skill_level) const {
  std::uint32_t stamina = 0;
  if (!inq_attribute_2nd(4, stamina)) return false;  // EnchantAttribute2nd: none
  if (!inq_skill_base_level(stype, skill_level)) return false;
  const Skill* skill = find_skill(stype);
  if (skill != nullptr) skill_level += static_cast<int>(skill->init_level + skill->level_from_pp);
  int enlightenment = 0;
  if (inq_int(kEnlightenment, enlightenment) && enlightenment > 0) skill_level += enlightenment;
  int all_skills = 0;
  if (inq_int(kAugmentationSkilledSpec, all_skills) && all_skills > 0) skill_level += 5;
  int lum = 0;
  inq_int(kLumAugSkilledSpec, lum);
  if (lum > 0 && skill != nullptr && skill->sac == kSpecialized) skill_level += 2 * lum;
  if (stamina == 0) skill_level = 0;
  return true;
}

// CACQualities::InqRunRate 0x00592800
bool Qualities::inq_run_rate(float& rate) const {
  float load = 1.0f;
  inq_load(load);
  int runskill = 0;
  if (!movement_skill(skill_type::Run, runskill)) return false;
  rate = static_cast<float>(get_run_rate(load, runskill, 1.0f));
  return true;
}

// CACQualities::InqJumpVelocity 0x00592980
bool Qualities::inq_jump_velocity(float extent, float& v_z) const {
  float load = 1.0f;
  inq_load(load);
  int jumpskill = 1;
  if (!movement_skill(skill_type::Jump, jumpskill)) return false;
  const double height = get_jump_height(load, jumpskill, extent, 1.0f);
  v_z = static_cast<float>(std::sqrt(height * 19.6));
  return true;
}

// CACQualities::CanJump 0x00591B50
bool Qualities::can_jump(float /*extent*/) const {
  float load = 0.0f;
  return inq_load(load) && load < 2.0f;
}

// CACQualities::JumpStaminaCost 0x00591B90
bool Qualities::jump_stamina_cost(float extent, double cur_time, int& cost) const {
  float load = 0.0f;
  if (!inq_load(load)) return false;
  bool pk = false;
  int pk_status = 8;  // NPK when none is told
  inq_int(kPlayerKillerStatus, pk_status);
  if (pk_status == 4 || pk_status == 64) {
    double last_pk_attack = 0.0;
    if (inq_float(kLastPkAttackTimestamp, last_pk_attack) && last_pk_attack + 20.0 > cur_time) pk = true;
  }
  cost = static_cast<int>(sim::jump_stamina_cost(extent, load, pk));
  return true;
}

// CACQualities::InqAttribute2ndBaseLevel 0x00591D20
bool Qualities::inq_attribute_2nd_base_level(std::uint32_t stype, std::uint32_t& retval, bool raw) const {
  if (!vital_table_) return false;
  const dat::SkillFormula* formula = stype == 1   ? &vital_table_->max_health
                                     : stype == 3 ? &vital_table_->max_stamina
                                     : stype == 5 ? &vital_table_->max_mana
                                                  : nullptr;
  if (formula == nullptr) return false;
  std::uint32_t attr1 = 0;
  std::uint32_t attr2 = 0;
  if (formula->attr1 != 0) inq_attribute(formula->attr1, attr1, raw);
  if (formula->attr2 != 0) inq_attribute(formula->attr2, attr2, raw);
  return skill_formula_calculate(*formula, attr1, attr2, retval);
}

// CACQualities::InqAttribute2nd 0x00592020
bool Qualities::inq_attribute_2nd_level(std::uint32_t stype, std::uint32_t& retval, bool raw) const {
  std::uint32_t base = 0;
  if (stype == 1 || stype == 3 || stype == 5) {
    if (!inq_attribute_2nd_base_level(stype, base, raw)) return false;
  }
  if (stype == 1) {
    int vitality = 0;
    if (inq_int(kLumAugVitality, vitality)) base += static_cast<std::uint32_t>(vitality);
  }
  std::uint32_t held = 0;
  if (inq_attribute_2nd(stype, held)) {
    retval = held + base;
  } else {
    if (base == 0) return false;
    retval = base;
  }
  // CACQualities::EnchantAttribute2nd 0x0058F090
  if (!raw) enchantments_.enchant_attribute_2nd(stype, retval, quality_filter_ ? &*quality_filter_ : nullptr);
  return true;
}

// CBaseQualities::SetInt 0x00590730
void Qualities::set_int(std::uint32_t stype, std::int32_t value) {
  for (auto& [key, held] : ints_) {
    if (key == stype) {
      held = value;
      return;
    }
  }
  ints_.emplace_back(stype, value);
}

// CACQualities::SetAttribute 0x00591A50 -> AttributeCache::SetAttribute
void Qualities::set_attribute(std::uint32_t stype, const protocol::AttributeWire& value) {
  if (stype < 1 || stype > 6) return;
  has_attributes_ = true;
  attributes_[stype - 1] = value;
}

// CACQualities::SetAttribute 0x00591AA0 -> AttributeCache::SetAttribute(stype, val)
void Qualities::set_attribute(std::uint32_t stype, std::uint32_t init_level) {
  if (stype < 1 || stype > 6) return;
  has_attributes_ = true;
  auto& a = attributes_[stype - 1];
  if (!a) a = protocol::AttributeWire{};
  a->init_level = init_level;
}

// CACQualities::SetAttribute2nd 0x00592530
void Qualities::set_attribute_2nd(std::uint32_t stype, const protocol::SecondaryAttributeWire& value) {
  if (stype < 1 || stype > 6) return;
  protocol::SecondaryAttributeWire bounded = value;
  if (stype % 2 == 0) {
    std::uint32_t max = 0;
    if (vital_table_) {
      if (!inq_attribute_2nd_level(stype - 1, max, false)) return;
      bounded.current_level = std::min(bounded.current_level, max);
    }
  }
  has_attributes_ = true;
  vitals_[(stype - 1) / 2] = bounded;
}

// CACQualities::SetAttribute2nd 0x00592CF0 -> 0x005925F0, BoundsCheck 0x005920E0
void Qualities::set_attribute_2nd(std::uint32_t stype, std::uint32_t value) {
  if (stype < 1 || stype > 6) return;
  std::uint32_t bounded = value;
  if (stype % 2 == 0) {
    if (static_cast<std::int32_t>(value) < 0) {
      bounded = 0;
    } else if (vital_table_) {
      std::uint32_t max = 0;
      if (!inq_attribute_2nd_level(stype - 1, max, false)) return;
      bounded = std::min(bounded, max);
    }
  }
  has_attributes_ = true;
  auto& v = vitals_[(stype - 1) / 2];
  if (!v) v = protocol::SecondaryAttributeWire{};
  if (stype % 2 == 1) {
    v->init_level = bounded;
  } else {
    v->current_level = bounded;
  }
}

// CACQualities::SetSkill 0x00592240
void Qualities::set_skill(std::uint32_t stype, const Skill& value) {
  has_skills_ = true;
  if (Skill* held = find_skill_mut(stype)) {
    *held = value;
    return;
  }
  skills_.emplace_back(stype, value);
}

// CACQualities::SetSkillLevel 0x00592340
void Qualities::set_skill_level(std::uint32_t stype, std::uint32_t init_level) {
  has_skills_ = true;
  if (Skill* held = find_skill_mut(stype)) {
    held->init_level = init_level;
    return;
  }
  Skill s;
  s.init_level = init_level;
  skills_.emplace_back(stype, s);
}

// CACQualities::SetSkillAdvancementClass 0x00592430 -> Skill::SetSkillAdvancementClass
void Qualities::set_skill_advancement_class(std::uint32_t stype, std::uint32_t sac) {
  has_skills_ = true;
  Skill* held = find_skill_mut(stype);
  if (held == nullptr) {
    skills_.emplace_back(stype, Skill{});
    held = &skills_.back().second;
  }
  held->sac = sac;
  held->level_from_pp = skill_level_from_experience(xp_table_ ? &*xp_table_ : nullptr, sac, held->pp);
}

// ClientObjMaintSystem::Handle_Qualities__PrivateUpdateAttribute 0x00558E80
bool Qualities::apply_update(const protocol::PrivateUpdateAttribute& m) {
  if (!stamper_.update_ts(m.stype | stamp_key::Attribute, m.wts)) return false;
  set_attribute(m.stype, m.value);
  return true;
}

// ClientObjMaintSystem::Handle_Qualities__PrivateUpdateAttribute2nd 0x00558EE0
bool Qualities::apply_update(const protocol::PrivateUpdateAttribute2nd& m) {
  if (!stamper_.update_ts(m.stype | stamp_key::Attribute2nd, m.wts)) return false;
  set_attribute_2nd(m.stype, m.value);
  return true;
}

// ClientObjMaintSystem::Handle_Qualities__PrivateUpdateSkill 0x00558F40
bool Qualities::apply_update(const protocol::PrivateUpdateSkill& m) {
  if (!stamper_.update_ts(m.stype | stamp_key::Skill, m.wts)) return false;
  set_skill(m.stype, skill_from_wire(m.value));
  return true;
}

// ClientObjMaintSystem::Handle_Qualities__PrivateUpdateAttribute2ndLevel
// 0x00558F10, ...AttributeLevel 0x00558EB0, ...SkillLevel 0x00558F70,
// ...SkillAC 0x00558FA0
bool Qualities::apply_update(const protocol::PrivateUpdateStatLevel& m) {
  namespace q = protocol::quality_opcode;
  switch (m.opcode) {
    case q::PrivateUpdateInt:
      // ClientObjMaintSystem::Handle_Qualities__PrivateUpdateInt 0x00558FD0
      if (!stamper_.update_ts(m.stype | stamp_key::Int, m.wts)) return false;
      set_int(m.stype, static_cast<std::int32_t>(m.value));
      return true;
    case q::PrivateUpdateAttribute2ndLevel:
      if (!stamper_.update_ts(m.stype | stamp_key::Attribute2nd, m.wts)) return false;
      set_attribute_2nd(m.stype, m.value);
      return true;
    case q::PrivateUpdateAttributeLevel:
      if (!stamper_.update_ts(m.stype | stamp_key::Attribute, m.wts)) return false;
      set_attribute(m.stype, m.value);
      return true;
    case q::PrivateUpdateSkillLevel:
      if (!stamper_.update_ts(m.stype | stamp_key::Skill, m.wts)) return false;
      set_skill_level(m.stype, m.value);
      return true;
    case q::PrivateUpdateSkillAC:
      if (!stamper_.update_ts(m.stype | stamp_key::Skill, m.wts)) return false;
      set_skill_advancement_class(m.stype, m.value);
      return true;
    default: return false;
  }
}

// ClientMagicSystem::Handle_Magic__UpdateEnchantment 0x00567930 / UpdateMultipleEnchantments 0x005679E0
bool Qualities::apply_update(const protocol::MagicUpdateEnchantments& m) {
  bool changed = false;
  for (const protocol::EnchantmentWire& e : m.enchantments) changed = enchantments_.update_enchantment(e) || changed;
  return changed;
}

// ClientMagicSystem::Handle_Magic__RemoveEnchantment 0x00568950 (and the
// multiple and dispel forms, which remove the same way)
bool Qualities::apply_update(const protocol::MagicRemoveEnchantments& m) {
  bool changed = false;
  for (const protocol::LayeredSpell& s : m.spells) {
    changed = enchantments_.remove_enchantment(enchantment_id(s.spell_id, s.layer)) || changed;
  }
  return changed;
}

// ClientMagicSystem::Handle_Magic__PurgeEnchantments 0x00567A70 / PurgeBadEnchantments 0x00567B00
bool Qualities::apply_update(const protocol::MagicPurgeEnchantments& m) {
  return m.bad_only ? enchantments_.purge_bad_enchantments() : enchantments_.purge_enchantments();
}

// CACQualities::AddSpell 0x0058F220
void Qualities::add_spell(std::uint32_t spell) {
  if (!spell_book_) spell_book_.emplace();
  spell_book_->add_spell(spell, 0.0F);
}

// CACQualities::RemoveSpell 0x0058F280
bool Qualities::remove_spell(std::uint32_t spell) {
  return spell_book_ && spell_book_->remove_spell(spell);
}

// CACQualities::IsSpellKnown 0x0058EEC0
bool Qualities::is_spell_known(std::uint32_t spell) const {
  return spell_book_ && spell_book_->exists(spell);
}

// CACQualities::TranscribeSpells 0x0058EEE0
std::vector<std::uint32_t> Qualities::transcribe_spells() const {
  return spell_book_ ? spell_book_->transcribe_spells() : std::vector<std::uint32_t>{};
}

}  // namespace dereth::sim
