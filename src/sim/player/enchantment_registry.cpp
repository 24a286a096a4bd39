#include "dereth/sim/player/enchantment_registry.hpp"

#include <algorithm>

#include "dereth/dat/quality_filter.hpp"

namespace dereth::sim {

namespace {

using protocol::EnchantmentList;
using protocol::EnchantmentWire;

// CEnchantmentRegistry::ReplaceEnchantmentInList: every entry of the same id
// takes the new one's fields.
bool replace_in_list(std::vector<EnchantmentWire>& list, const EnchantmentWire& e) {
  bool replaced = false;
  for (EnchantmentWire& held : list) {
    if (enchantment_id(held) != enchantment_id(e)) continue;
    const EnchantmentList kept = held.list;
    held = e;
    held.list = kept;
    replaced = true;
  }
  return replaced;
}

bool remove_from_list(std::vector<EnchantmentWire>& list, std::uint32_t id) {
  const auto it =
      std::find_if(list.begin(), list.end(), [id](const EnchantmentWire& e) { return enchantment_id(e) == id; });
  if (it == list.end()) return false;
  list.erase(it);
  return true;
}

// A duration of -1 is a permanent enchantment (an item's), which no purge takes.
bool permanent(const EnchantmentWire& e) {
  return e.duration == -1.0;
}

// CEnchantmentRegistry::PurgeEnchantmentList / PurgeBadEnchantmentList.
bool purge_list(std::vector<EnchantmentWire>& list, bool keep_beneficial) {
  const auto before = list.size();
  std::erase_if(list, [keep_beneficial](const EnchantmentWire& e) {
    if (permanent(e)) return false;
    return !(keep_beneficial && (e.stat_mod_type & enchantment_type::Beneficial) != 0);
  });
  return list.size() != before;
}

}  // namespace

EnchantmentRegistry::EnchantmentRegistry(const std::vector<EnchantmentWire>& described) {
  for (const EnchantmentWire& e : described) {
    switch (e.list) {
      case EnchantmentList::Multiplicative: mult_.push_back(e); break;
      case EnchantmentList::Additive: add_.push_back(e); break;
      case EnchantmentList::Cooldown: cooldown_.push_back(e); break;
      case EnchantmentList::Vitae: vitae_ = e; break;
    }
  }
}

// CEnchantmentRegistry::UpdateEnchantment 0x00593E70
bool EnchantmentRegistry::update_enchantment(const EnchantmentWire& e) {
  namespace et = enchantment_type;
  const std::uint32_t t = e.stat_mod_type;
  // The binary's test of the type: bit 14 of t ^ ((t ^ (t >> 9)) >> 1), that
  // is multiplicative ^ additive ^ cooldown.
  if ((((t >> 14) ^ (t >> 15) ^ (t >> 24)) & 1U) == 0) return false;
  if ((t & et::Vitae) != 0) {
    // CEnchantmentRegistry::UpdateVitae
    vitae_ = e;
    vitae_->list = EnchantmentList::Vitae;
    return true;
  }
  if ((t & et::Cooldown) != 0 && replace_in_list(cooldown_, e)) return true;
  if ((t & et::Multiplicative) != 0) {
    if (replace_in_list(mult_, e)) return true;
  } else if ((t & et::Additive) != 0 && replace_in_list(add_, e)) {
    return true;
  }
  EnchantmentWire added = e;
  if ((t & et::Cooldown) != 0) {
    added.list = EnchantmentList::Cooldown;
    cooldown_.push_back(added);
  } else if ((t & et::Multiplicative) != 0) {
    added.list = EnchantmentList::Multiplicative;
    mult_.push_back(added);
  } else if ((t & et::Additive) != 0) {
    added.list = EnchantmentList::Additive;
    add_.push_back(added);
  }
  return true;
}

// CEnchantmentRegistry::RemoveEnchantment 0x005944E0
bool EnchantmentRegistry::remove_enchantment(std::uint32_t id) {
  if (vitae_ && enchantment_id(*vitae_) == id) {
    vitae_.reset();
    return true;
  }
  return remove_from_list(cooldown_, id) || remove_from_list(mult_, id) || remove_from_list(add_, id);
}

// CEnchantmentRegistry::PurgeEnchantments 0x00594DE0
bool EnchantmentRegistry::purge_enchantments() {
  const bool mult = purge_list(mult_, false);
  return purge_list(add_, false) || mult;
}

// CEnchantmentRegistry::PurgeBadEnchantments 0x00594E00
bool EnchantmentRegistry::purge_bad_enchantments() {
  const bool mult = purge_list(mult_, true);
  return purge_list(add_, true) || mult;
}

// CEnchantmentRegistry::IsEnchanted 0x00593F80
bool EnchantmentRegistry::is_enchanted(std::uint16_t spell) const noexcept {
  if (spell == 0) return false;
  constexpr std::uint16_t kVitaeSpell = 666;
  if (spell == kVitaeSpell) return vitae_.has_value();
  const auto has = [spell](const std::vector<EnchantmentWire>& list) {
    return std::any_of(list.begin(), list.end(), [spell](const EnchantmentWire& e) { return e.spell_id == spell; });
  };
  return has(cooldown_) || has(mult_) || has(add_);
}

// Enchantment::Duel 0x005CACE0
bool enchantment_duel(const EnchantmentWire& held, const EnchantmentWire& challenger) noexcept {
  return held.power_level > challenger.power_level ||
         (held.power_level == challenger.power_level && challenger.start_time < held.start_time);
}

// Enchantment::Enchant 0x005CAD10
bool enchantment_enchant(const EnchantmentWire& e, float& value) noexcept {
  if ((e.stat_mod_type & enchantment_type::Additive) != 0) {
    value = e.stat_mod_value + value;
    return true;
  }
  if ((e.stat_mod_type & enchantment_type::Multiplicative) != 0) {
    value = e.stat_mod_value * value;
    return true;
  }
  return false;
}

// Enchantment::AffectsAttackSkills 0x005CADE0
bool enchantment_affects_attack_skills(const EnchantmentWire& e, std::uint32_t key) noexcept {
  if ((e.stat_mod_type & enchantment_type::AttackSkills) == 0) return false;
  switch (key) {
    case 0x21:
    case 0x22:
    case 0x29:
    case 0x2B:
    case 0x2C:
    case 0x2D:
    case 0x2E:
    case 0x2F:
    case 0x31: return true;
    default: return false;
  }
}

// Enchantment::AffectsDefenseSkills 0x005CAE30
bool enchantment_affects_defense_skills(const EnchantmentWire& e, std::uint32_t key) noexcept {
  if ((e.stat_mod_type & enchantment_type::DefenseSkills) == 0) return false;
  switch (key) {
    case 0x06:
    case 0x07:
    case 0x0F:
    case 0x30: return true;
    default: return false;
  }
}

// CEnchantmentRegistry::Duel 0x005942B0
bool enchantment_registry_duel(const EnchantmentWire& challenger, std::vector<EnchantmentWire>& affecting) {
  const auto held = std::find_if(affecting.begin(), affecting.end(),
                                 [&](const EnchantmentWire& e) { return e.category == challenger.category; });
  if (held != affecting.end()) {
    if (enchantment_duel(*held, challenger)) return false;
    // PackableList::Remove of the first entry with the loser's id: the loser
    // itself, since an earlier entry of its id would be of its category.
    if (enchantment_id(*held) != 0) affecting.erase(held);
  }
  affecting.push_back(challenger);
  return true;
}

// CEnchantmentRegistry::CullEnchantmentsFromList 0x00594470
bool cull_enchantments_from_list(const std::vector<EnchantmentWire>& list, std::uint32_t type, std::uint32_t key,
                                 std::vector<EnchantmentWire>& affecting) {
  bool added = false;
  for (const EnchantmentWire& e : list) {
    if ((e.stat_mod_type & type) == 0) continue;
    if ((e.stat_mod_type & enchantment_type::MultipleStat) != 0 || e.stat_mod_key == key ||
        enchantment_affects_attack_skills(e, key) || enchantment_affects_defense_skills(e, key)) {
      added = enchantment_registry_duel(e, affecting) || added;
    }
  }
  return added;
}

namespace {

// The winners of `kind` on `key` (CullEnchantmentsFromList over the
// multiplicative list, then the additive one) applied to `value` in order
// (CEnchantmentRegistry::Enchant 0x00593B50). True when any applied.
bool enchant_winners(const std::vector<EnchantmentWire>& mult, const std::vector<EnchantmentWire>& add,
                     std::uint32_t kind, std::uint32_t key, float& value) {
  std::vector<EnchantmentWire> affecting;
  cull_enchantments_from_list(mult, kind, key, affecting);
  cull_enchantments_from_list(add, kind, key, affecting);
  bool any = false;
  for (const EnchantmentWire& e : affecting) any = enchantment_enchant(e, value) || any;
  return any;
}

// The enchanted value held at least 1, and at least `least` from a value
// of `least` or more, rounded as retail stores it
// ((unsigned __int64)(tmp + 0.5), kept to 32 bits).
std::uint32_t floored_stat(std::uint32_t val, float tmp, std::uint32_t least) noexcept {
  if (val < least) {
    if (tmp < 1.0F) tmp = 1.0F;
  } else if (tmp < static_cast<float>(least)) {
    tmp = static_cast<float>(least);
  }
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(static_cast<double>(tmp) + 0.5));
}

}  // namespace

// CEnchantmentRegistry::EnchantAttribute 0x00594570
bool EnchantmentRegistry::enchant_attribute(std::uint32_t stype, std::uint32_t& val) const {
  auto tmp = static_cast<float>(val);
  const bool any = enchant_winners(mult_, add_, enchantment_type::Attribute, stype, tmp);
  val = floored_stat(val, tmp, 10);
  return any;
}

// CEnchantmentRegistry::EnchantAttribute2nd 0x00594670
bool EnchantmentRegistry::enchant_attribute_2nd(std::uint32_t stype, std::uint32_t& val,
                                                const dat::QualityFilter* filter) const {
  // ACQualityFilter::QueryAttribute2nd 0x005CBC70: the filter lists the stype.
  if (filter == nullptr || std::find(filter->attribute2nd_stats.begin(), filter->attribute2nd_stats.end(), stype) ==
                               filter->attribute2nd_stats.end()) {
    return false;
  }
  auto tmp = static_cast<float>(val);
  bool any = vitae_ && enchantment_enchant(*vitae_, tmp);
  any = enchant_winners(mult_, add_, enchantment_type::SecondAttribute, stype, tmp) || any;
  val = floored_stat(val, tmp, 5);
  return any;
}

std::size_t EnchantmentRegistry::size() const noexcept {
  return mult_.size() + add_.size() + cooldown_.size() + (vitae_ ? 1 : 0);
}

}  // namespace dereth::sim
