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

namespace dereth::sim {

namespace enchantment_type {
inline constexpr std::uint32_t Multiplicative = 0x4000;
inline constexpr std::uint32_t Additive = 0x8000;
inline constexpr std::uint32_t Vitae = 0x800000;
inline constexpr std::uint32_t Cooldown = 0x1000000;
inline constexpr std::uint32_t Beneficial = 0x2000000;
}  // namespace enchantment_type

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
  [[nodiscard]] std::size_t size() const noexcept;

 private:
  std::vector<protocol::EnchantmentWire> mult_;
  std::vector<protocol::EnchantmentWire> add_;
  std::vector<protocol::EnchantmentWire> cooldown_;
  std::optional<protocol::EnchantmentWire> vitae_;
};

}  // namespace dereth::sim
