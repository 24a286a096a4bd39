#pragma once
// SpellTable (0x0E00000E): every spell's SpellBase and the spell sets, which
// the servers read at start (layout: docs/dat.md, "Tables for third-party
// servers"). A meta spell type outside 1..15 is Invalid: the servers build
// nothing for it and would lose their place in the stream.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

inline constexpr Did kSpellTableId = 0x0E00000E;

namespace spell_type {
inline constexpr std::uint32_t Enchantment = 1;
inline constexpr std::uint32_t Projectile = 2;
inline constexpr std::uint32_t Boost = 3;
inline constexpr std::uint32_t Transfer = 4;
inline constexpr std::uint32_t PortalLink = 5;
inline constexpr std::uint32_t PortalRecall = 6;
inline constexpr std::uint32_t PortalSummon = 7;
inline constexpr std::uint32_t PortalSending = 8;
inline constexpr std::uint32_t Dispel = 9;
inline constexpr std::uint32_t LifeProjectile = 10;
inline constexpr std::uint32_t FellowBoost = 11;
inline constexpr std::uint32_t FellowEnchantment = 12;
inline constexpr std::uint32_t FellowPortalSending = 13;
inline constexpr std::uint32_t FellowDispel = 14;
inline constexpr std::uint32_t EnchantmentProjectile = 15;
}  // namespace spell_type

inline constexpr std::size_t kSpellFormulaSize = 8;

struct SpellBase {
  std::string name;
  std::string description;
  std::uint32_t school = 0;  // 1 war, 2 life, 3 item, 4 creature, 5 void
  Did icon = 0;
  std::uint32_t category = 0;
  std::uint32_t bitfield = 0;
  std::uint32_t base_mana = 0;
  float base_range_constant = 0;
  float base_range_mod = 0;
  std::uint32_t power = 0;
  float spell_economy_mod = 0;
  std::uint32_t formula_version = 0;
  float component_loss = 0;
  std::uint32_t meta_spell_type = spell_type::Projectile;
  std::uint32_t meta_spell_id = 0;
  // Enchantment / FellowEnchantment only (written only for those types).
  double duration = 0;
  float degrade_modifier = 0;
  float degrade_limit = 0;
  // PortalSummon only.
  double portal_lifetime = 0;
  // As stored: each non-zero component plus spell_formula_key(name, description).
  std::array<std::uint32_t, kSpellFormulaSize> stored_formula{};
  std::uint32_t caster_effect = 0;  // PlayScript
  std::uint32_t target_effect = 0;
  std::uint32_t fizzle_effect = 0;
  double recovery_interval = 0;
  float recovery_amount = 0;
  std::uint32_t display_order = 0;
  std::uint32_t non_component_target_type = 0;
  std::uint32_t mana_mod = 0;
  bool operator==(const SpellBase&) const = default;
};

struct SpellTableEntry {
  std::uint32_t spell = 0;
  SpellBase base;
  bool operator==(const SpellTableEntry&) const = default;
};

struct SpellSetTier {
  std::uint32_t pieces = 0;  // equipped pieces (or combined item level) that unlock the tier
  std::vector<std::uint32_t> spells;
  bool operator==(const SpellSetTier&) const = default;
};

struct SpellSet {
  std::uint32_t set = 0;  // the equipment set id
  std::uint16_t buckets = 0;
  std::vector<SpellSetTier> tiers;
  bool operator==(const SpellSet&) const = default;
};

struct SpellTable {
  Did id = kSpellTableId;
  std::uint16_t spell_buckets = 0;  // kept as stored
  std::vector<SpellTableEntry> spells;
  std::uint16_t set_buckets = 0;
  std::vector<SpellSet> sets;
  bool operator==(const SpellTable&) const = default;
};

Result<SpellTable> read_spell_table(std::span<const std::uint8_t> bytes, Did id);
// Hash tables are capped at 65535 entries (u16 counts); the type-specific
// fields are written for their types only.
std::vector<std::uint8_t> write_spell_table(const SpellTable& table);
void write_json(core::JsonWriter& j, const SpellTable& table);

[[nodiscard]] const SpellBase* find_spell(const SpellTable& table, std::uint32_t spell) noexcept;

// The string hash the formula key is made of (PString::compute_hash in the
// servers): h = h * 16 + c over the bytes as signed chars, in 32 bits; when
// the top nibble is set, h = (h ^ (top nibble >> 24)) & 0x0FFFFFFF;
// 0xFFFFFFFF becomes 0xFFFFFFFE.
[[nodiscard]] std::uint32_t spell_string_hash(std::string_view text) noexcept;
// (hash(name) % 0x12107680) + (hash(description) % 0xBEADCF45).
[[nodiscard]] std::uint32_t spell_formula_key(std::string_view name, std::string_view description) noexcept;
// The component ids (0 = none) from the stored formula, and the reverse.
[[nodiscard]] std::array<std::uint32_t, kSpellFormulaSize> spell_formula(const SpellBase& spell) noexcept;
void set_spell_formula(SpellBase& spell, const std::array<std::uint32_t, kSpellFormulaSize>& components) noexcept;

}  // namespace dereth::dat
