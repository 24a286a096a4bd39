#include "dereth/sim/player/enchantment_registry.hpp"

#include <algorithm>

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

std::size_t EnchantmentRegistry::size() const noexcept {
  return mult_.size() + add_.size() + cooldown_.size() + (vitae_ ? 1 : 0);
}

}  // namespace dereth::sim
