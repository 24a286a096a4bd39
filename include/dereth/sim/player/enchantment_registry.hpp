#pragma once
// CEnchantmentRegistry: the enchantments on the player, in retail's four
// places (the multiplicative, additive and cooldown lists and the one
// vitae), as the PlayerDescription gives them and the F7B0 magic events
// change them. An enchantment is known by its id, the spell in the low
// half and the layer in the high half (what RemoveEnchantment's wire word
// is). The type bits are StatMod's (ACE's EnchantmentTypeFlags).
#include <cstdint>
#include <optional>
#include <vector>

#include "dereth/protocol/player_description.hpp"

namespace dereth::dat {
struct QualityFilter;
}

namespace dereth::sim {

namespace enchantment_type {
inline constexpr std::uint32_t Attribute = 0x1;        // what CullEnchantmentsFromList asks for an attribute
inline constexpr std::uint32_t SecondAttribute = 0x2;  // ... a vital's maximum
inline constexpr std::uint32_t Skill = 0x10;           // ... a skill
inline constexpr std::uint32_t MultipleStat = 0x2000;  // every key of its kind
inline constexpr std::uint32_t Multiplicative = 0x4000;
inline constexpr std::uint32_t Additive = 0x8000;
inline constexpr std::uint32_t Vitae = 0x800000;
inline constexpr std::uint32_t Cooldown = 0x1000000;
inline constexpr std::uint32_t Beneficial = 0x2000000;
inline constexpr std::uint32_t AttackSkills = 0x10000;   // every attack skill
inline constexpr std::uint32_t DefenseSkills = 0x20000;  // every defense skill
}  // namespace enchantment_type

// Enchantment::Duel 0x005CACE0: whether `held` stays against `challenger` of
// its category: a higher power, or the same power and the challenger
// started earlier.
[[nodiscard]] bool enchantment_duel(const protocol::EnchantmentWire& held,
                                    const protocol::EnchantmentWire& challenger) noexcept;
// Enchantment::Enchant 0x005CAD10: an additive enchantment (0x8000) adds its
// value, else a multiplicative one (0x4000) multiplies by it, in float; false
// (nothing done) for neither.
bool enchantment_enchant(const protocol::EnchantmentWire& e, float& value) noexcept;
// Enchantment::AffectsAttackSkills 0x005CADE0 / AffectsDefenseSkills
// 0x005CAE30: the type's every-attack (every-defense) bit and a skill of
// that group.
[[nodiscard]] bool enchantment_affects_attack_skills(const protocol::EnchantmentWire& e, std::uint32_t key) noexcept;
[[nodiscard]] bool enchantment_affects_defense_skills(const protocol::EnchantmentWire& e, std::uint32_t key) noexcept;
// CEnchantmentRegistry::Duel 0x005942B0: `challenger` against the first of
// `affecting` of its category: it loses to a stronger one (not added), else
// that one goes and the challenger is appended. True when added.
bool enchantment_registry_duel(const protocol::EnchantmentWire& challenger,
                               std::vector<protocol::EnchantmentWire>& affecting);
// CEnchantmentRegistry::CullEnchantmentsFromList 0x00594470: each of `list`
// of a type with a bit of `type` whose key is `key` (or every key:
// MultipleStat, or a skill of its attack or defense group) duels into
// `affecting`, in list order. True when any was added.
bool cull_enchantments_from_list(const std::vector<protocol::EnchantmentWire>& list, std::uint32_t type,
                                 std::uint32_t key, std::vector<protocol::EnchantmentWire>& affecting);

// The spell and layer as one id (Enchantment::_id).
[[nodiscard]] constexpr std::uint32_t enchantment_id(std::uint16_t spell, std::uint16_t layer) noexcept {
  return static_cast<std::uint32_t>(spell) | (static_cast<std::uint32_t>(layer) << 16);
}
[[nodiscard]] constexpr std::uint32_t enchantment_id(const protocol::EnchantmentWire& e) noexcept {
  return enchantment_id(e.spell_id, e.layer);
}

class EnchantmentRegistry {
 public:
  EnchantmentRegistry() = default;
  // The registry the PlayerDescription carries (each entry in the list it came in).
  explicit EnchantmentRegistry(const std::vector<protocol::EnchantmentWire>& described);

  // CEnchantmentRegistry::UpdateEnchantment 0x00593E70: a vitae replaces the
  // vitae; otherwise an enchantment of the same id in its list (cooldown,
  // multiplicative or additive by its type) is replaced, else it is added
  // there. A type that is not exactly one of those kinds is refused (false).
  bool update_enchantment(const protocol::EnchantmentWire& e);
  // CEnchantmentRegistry::RemoveEnchantment 0x005944E0: the vitae, else the first
  // list (cooldown, multiplicative, additive) that holds `id`. False when
  // nothing had it.
  bool remove_enchantment(std::uint32_t id);
  // CEnchantmentRegistry::PurgeEnchantments 0x00594DE0: every multiplicative and
  // additive enchantment but the permanent ones (duration -1).
  bool purge_enchantments();
  // CEnchantmentRegistry::PurgeBadEnchantments 0x00594E00: as purge_enchantments, but
  // the beneficial ones stay too.
  bool purge_bad_enchantments();

  [[nodiscard]] const std::vector<protocol::EnchantmentWire>& mult_list() const noexcept { return mult_; }
  [[nodiscard]] const std::vector<protocol::EnchantmentWire>& add_list() const noexcept { return add_; }
  [[nodiscard]] const std::vector<protocol::EnchantmentWire>& cooldown_list() const noexcept { return cooldown_; }
  [[nodiscard]] const std::optional<protocol::EnchantmentWire>& vitae() const noexcept { return vitae_; }
  // CEnchantmentRegistry::IsEnchanted 0x00593F80: any enchantment of `spell` (any layer).
  [[nodiscard]] bool is_enchanted(std::uint16_t spell) const noexcept;
  // CEnchantmentRegistry::EnchantAttribute 0x00594570: the attribute `val`
  // through the winners of its enchantments (multiplicative list, then
  // additive), at least 1 (10 from a value of 10 or more), rounded. True
  // when an enchantment applied.
  bool enchant_attribute(std::uint32_t stype, std::uint32_t& val) const;
  // CEnchantmentRegistry::EnchantAttribute2nd 0x00594670: a vital (its
  // maximum, 1/3/5) the `filter` lets enchantments change (the portal's
  // QualityFilter; none: nothing changes): the vitae, then the winners as
  // above, at least 1 (5 from a value of 5 or more), rounded.
  bool enchant_attribute_2nd(std::uint32_t stype, std::uint32_t& val, const dat::QualityFilter* filter) const;
  [[nodiscard]] std::size_t size() const noexcept;

 private:
  std::vector<protocol::EnchantmentWire> mult_;
  std::vector<protocol::EnchantmentWire> add_;
  std::vector<protocol::EnchantmentWire> cooldown_;
  std::optional<protocol::EnchantmentWire> vitae_;
};

}  // namespace dereth::sim
