#pragma once
// Private to the protocol module: the quality records the PlayerDescription
// and the later private updates and enchantment events share (Attribute,
// Skill and Enchantment as their retail UnPack reads them).

#include <string_view>

#include "dereth/protocol/player_description.hpp"

namespace dereth::protocol {

// Attribute::UnPack: level_from_cp, init_level, cp_spent (12 bytes).
Result<AttributeWire> read_attribute(ByteReader& r, std::string_view field);
// Skill::UnPack: u16 ranks, u16 adjust, sac, pp, init_level, resistance, f64 last used (32 bytes).
Result<SkillWire> read_skill(ByteReader& r);
void write_skill(ByteWriter& w, const SkillWire& s);
// Enchantment::UnPack 0x005CB040: 60 bytes, 64 with a spell set id.
Result<EnchantmentWire> read_enchantment(ByteReader& r, EnchantmentList list);
void write_enchantment(ByteWriter& w, const EnchantmentWire& e);

}  // namespace dereth::protocol
