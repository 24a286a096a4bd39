#include "dereth/dat/spell_table.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace dereth::dat {

namespace {

// u32 key, two strings (>= 4 bytes each: entries start aligned), the 13 fixed
// u32/f32 fields, the formula and the 36 bytes of effects and the rest.
constexpr std::size_t kMinSpellSize = 4 + 4 + 4 + 13 * 4 + kSpellFormulaSize * 4 + 36;
constexpr std::size_t kMinSetSize = 4 + 4;   // key + an empty tier table
constexpr std::size_t kMinTierSize = 4 + 4;  // key + a zero count

bool has_enchantment_fields(std::uint32_t type) noexcept {
  return type == spell_type::Enchantment || type == spell_type::FellowEnchantment;
}

Result<void> read_spell(ByteReader& r, SpellBase& s) {
  DERETH_TRY(s.name, read_obfuscated_string(r, "spells.name"));
  DERETH_TRY(s.description, read_obfuscated_string(r, "spells.description"));
  DERETH_CHECK(r.require(13 * 4, "spells.fields"));
  s.school = *r.u32("spells.school");
  s.icon = *r.u32("spells.icon");
  s.category = *r.u32("spells.category");
  s.bitfield = *r.u32("spells.bitfield");
  s.base_mana = *r.u32("spells.base_mana");
  s.base_range_constant = *r.f32("spells.base_range_constant");
  s.base_range_mod = *r.f32("spells.base_range_mod");
  s.power = *r.u32("spells.power");
  s.spell_economy_mod = *r.f32("spells.spell_economy_mod");
  s.formula_version = *r.u32("spells.formula_version");
  s.component_loss = *r.f32("spells.component_loss");
  const std::size_t type_at = r.position();
  s.meta_spell_type = *r.u32("spells.meta_spell_type");
  s.meta_spell_id = *r.u32("spells.meta_spell_id");
  if (s.meta_spell_type < spell_type::Enchantment || s.meta_spell_type > spell_type::EnchantmentProjectile) {
    return std::unexpected(r.error_at(type_at, core::ErrorKind::Invalid, "spells.meta_spell_type",
                                      fmt::format("unknown spell type {}", s.meta_spell_type)));
  }
  if (has_enchantment_fields(s.meta_spell_type)) {
    DERETH_CHECK(r.require(16, "spells.duration"));
    s.duration = *r.f64("spells.duration");
    s.degrade_modifier = *r.f32("spells.degrade_modifier");
    s.degrade_limit = *r.f32("spells.degrade_limit");
  } else if (s.meta_spell_type == spell_type::PortalSummon) {
    DERETH_TRY(s.portal_lifetime, r.f64("spells.portal_lifetime"));
  }
  DERETH_CHECK(r.require(kSpellFormulaSize * 4 + 36, "spells.formula"));
  for (auto& c : s.stored_formula) c = *r.u32("spells.formula");
  s.caster_effect = *r.u32("spells.caster_effect");
  s.target_effect = *r.u32("spells.target_effect");
  s.fizzle_effect = *r.u32("spells.fizzle_effect");
  s.recovery_interval = *r.f64("spells.recovery_interval");
  s.recovery_amount = *r.f32("spells.recovery_amount");
  s.display_order = *r.u32("spells.display_order");
  s.non_component_target_type = *r.u32("spells.non_component_target_type");
  s.mana_mod = *r.u32("spells.mana_mod");
  return {};
}

void write_spell(ByteWriter& w, const SpellBase& s) {
  write_obfuscated_string(w, s.name);
  write_obfuscated_string(w, s.description);
  w.u32(s.school);
  w.u32(s.icon);
  w.u32(s.category);
  w.u32(s.bitfield);
  w.u32(s.base_mana);
  w.f32(s.base_range_constant);
  w.f32(s.base_range_mod);
  w.u32(s.power);
  w.f32(s.spell_economy_mod);
  w.u32(s.formula_version);
  w.f32(s.component_loss);
  w.u32(s.meta_spell_type);
  w.u32(s.meta_spell_id);
  if (has_enchantment_fields(s.meta_spell_type)) {
    w.f64(s.duration);
    w.f32(s.degrade_modifier);
    w.f32(s.degrade_limit);
  } else if (s.meta_spell_type == spell_type::PortalSummon) {
    w.f64(s.portal_lifetime);
  }
  for (const auto c : s.stored_formula) w.u32(c);
  w.u32(s.caster_effect);
  w.u32(s.target_effect);
  w.u32(s.fizzle_effect);
  w.f64(s.recovery_interval);
  w.f32(s.recovery_amount);
  w.u32(s.display_order);
  w.u32(s.non_component_target_type);
  w.u32(s.mana_mod);
}

Result<void> read_set(ByteReader& r, SpellSet& set) {
  DERETH_TRY(const HashTableHeader header, read_hash_table_header(r, kMinTierSize, "sets.tiers.count"));
  set.buckets = header.buckets;
  set.tiers.reserve(header.count);
  for (std::size_t i = 0; i < header.count; ++i) {
    SpellSetTier tier;
    DERETH_TRY(tier.pieces, r.u32("sets.tiers.key"));
    DERETH_TRY(const std::size_t n, read_count(r, 4, "sets.tiers.spells.count"));
    tier.spells.reserve(n);
    for (std::size_t k = 0; k < n; ++k) tier.spells.push_back(*r.u32("sets.tiers.spells"));
    set.tiers.push_back(std::move(tier));
  }
  return {};
}

}  // namespace

Result<SpellTable> read_spell_table(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "SpellTable");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  SpellTable t;
  t.id = id;
  DERETH_TRY(const HashTableHeader spells, read_hash_table_header(r, kMinSpellSize, "spells.count"));
  t.spell_buckets = spells.buckets;
  t.spells.reserve(spells.count);
  for (std::size_t i = 0; i < spells.count; ++i) {
    SpellTableEntry e;
    DERETH_TRY(e.spell, r.u32("spells.key"));
    DERETH_CHECK(read_spell(r, e.base));
    t.spells.push_back(std::move(e));
  }
  DERETH_TRY(const HashTableHeader sets, read_hash_table_header(r, kMinSetSize, "sets.count"));
  t.set_buckets = sets.buckets;
  t.sets.reserve(sets.count);
  for (std::size_t i = 0; i < sets.count; ++i) {
    SpellSet set;
    DERETH_TRY(set.set, r.u32("sets.key"));
    DERETH_CHECK(read_set(r, set));
    t.sets.push_back(std::move(set));
  }
  DERETH_CHECK(r.expect_end());
  return t;
}

std::vector<std::uint8_t> write_spell_table(const SpellTable& table) {
  ByteWriter w;
  w.u32(table.id);
  const std::size_t n = std::min<std::size_t>(table.spells.size(), 0xFFFF);
  write_hash_table_header(w, n, table.spell_buckets);
  for (std::size_t i = 0; i < n; ++i) {
    w.u32(table.spells[i].spell);
    write_spell(w, table.spells[i].base);
  }
  const std::size_t m = std::min<std::size_t>(table.sets.size(), 0xFFFF);
  write_hash_table_header(w, m, table.set_buckets);
  for (std::size_t i = 0; i < m; ++i) {
    const auto& set = table.sets[i];
    w.u32(set.set);
    const std::size_t k = std::min<std::size_t>(set.tiers.size(), 0xFFFF);
    write_hash_table_header(w, k, set.buckets);
    for (std::size_t t = 0; t < k; ++t) {
      w.u32(set.tiers[t].pieces);
      w.u32(static_cast<std::uint32_t>(set.tiers[t].spells.size()));
      for (const auto s : set.tiers[t].spells) w.u32(s);
    }
  }
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const SpellTable& table) {
  j.begin_object();
  j.key("type").string("SpellTable");
  j.key("id").hex(table.id);
  j.key("spells").begin_array();
  for (const auto& e : table.spells) {
    const auto& s = e.base;
    j.begin_object();
    j.key("spell").number(e.spell);
    j.key("name").string(s.name);
    j.key("description").string(s.description);
    j.key("school").number(s.school);
    j.key("icon").hex(s.icon);
    j.key("category").number(s.category);
    j.key("bitfield").hex(s.bitfield);
    j.key("base_mana").number(s.base_mana);
    j.key("base_range_constant").f32(s.base_range_constant);
    j.key("base_range_mod").f32(s.base_range_mod);
    j.key("power").number(s.power);
    j.key("spell_economy_mod").f32(s.spell_economy_mod);
    j.key("formula_version").number(s.formula_version);
    j.key("component_loss").f32(s.component_loss);
    j.key("meta_spell_type").number(s.meta_spell_type);
    j.key("meta_spell_id").number(s.meta_spell_id);
    if (has_enchantment_fields(s.meta_spell_type)) {
      j.key("duration").f64(s.duration);
      j.key("degrade_modifier").f32(s.degrade_modifier);
      j.key("degrade_limit").f32(s.degrade_limit);
    } else if (s.meta_spell_type == spell_type::PortalSummon) {
      j.key("portal_lifetime").f64(s.portal_lifetime);
    }
    j.key("components").begin_array();
    for (const auto c : spell_formula(s)) j.number(c);
    j.end_array();
    j.key("caster_effect").hex(s.caster_effect);
    j.key("target_effect").hex(s.target_effect);
    j.key("fizzle_effect").hex(s.fizzle_effect);
    j.key("recovery_interval").f64(s.recovery_interval);
    j.key("recovery_amount").f32(s.recovery_amount);
    j.key("display_order").number(s.display_order);
    j.key("non_component_target_type").hex(s.non_component_target_type);
    j.key("mana_mod").number(s.mana_mod);
    j.end_object();
  }
  j.end_array();
  j.key("sets").begin_array();
  for (const auto& set : table.sets) {
    j.begin_object();
    j.key("set").number(set.set);
    j.key("tiers").begin_array();
    for (const auto& tier : set.tiers) {
      j.begin_object();
      j.key("pieces").number(tier.pieces);
      j.key("spells").begin_array();
      for (const auto s : tier.spells) j.number(s);
      j.end_array();
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

const SpellBase* find_spell(const SpellTable& table, std::uint32_t spell) noexcept {
  for (const auto& e : table.spells) {
    if (e.spell == spell) return &e.base;
  }
  return nullptr;
}

std::uint32_t spell_string_hash(std::string_view text) noexcept {
  std::uint32_t h = 0;
  for (const char c : text) {
    h = h * 16U + static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<signed char>(c)));
    if ((h & 0xF0000000U) != 0) h = (h ^ ((h & 0xF0000000U) >> 24)) & 0x0FFFFFFFU;
  }
  return h == 0xFFFFFFFFU ? 0xFFFFFFFEU : h;
}

std::uint32_t spell_formula_key(std::string_view name, std::string_view description) noexcept {
  return (spell_string_hash(name) % 0x12107680U) + (spell_string_hash(description) % 0xBEADCF45U);
}

std::array<std::uint32_t, kSpellFormulaSize> spell_formula(const SpellBase& spell) noexcept {
  const std::uint32_t key = spell_formula_key(spell.name, spell.description);
  std::array<std::uint32_t, kSpellFormulaSize> out{};
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = spell.stored_formula[i] == 0 ? 0 : spell.stored_formula[i] - key;
  }
  return out;
}

void set_spell_formula(SpellBase& spell, const std::array<std::uint32_t, kSpellFormulaSize>& components) noexcept {
  const std::uint32_t key = spell_formula_key(spell.name, spell.description);
  for (std::size_t i = 0; i < components.size(); ++i) {
    spell.stored_formula[i] = components[i] == 0 ? 0 : components[i] + key;
  }
}

}  // namespace dereth::dat
