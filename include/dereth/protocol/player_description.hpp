#pragma once
// F7B0 game event 0x0013 PlayerDescription: the player's qualities, as
// retail unpacks them (CBaseQualities::UnPack 0x00595F10, then
// CACQualities::UnPack 0x00593420), read as far as the skills; what follows
// them (body, spell book, enchantments, options, inventory) is not read.
//
// Layout after the F7B0 header (u32 target, u32 sequence, u32 event 0x13):
//   u32 property flags, u32 weenie type, then the property tables whose flag
//   is set, in this order: 0x01 int (i32), 0x80 int64, 0x02 bool (i32),
//   0x04 float (f64), 0x10 string (String16L), 0x08 data id (u32),
//   0x40 instance id (u32), 0x20 position (32-byte Position); each a
//   PackableHashTable: u16 count, u16 bucket count, count x (u32 key, value).
//   u32 vector flags, u32 has_health; 0x01 attributes (AttributeCache::UnPack
//   0x005CCFB0: u32 mask, then Strength..Self (mask 0x01..0x20) as u32
//   level_from_cp, u32 init_level, u32 cp_spent, and Health/Stamina/Mana
//   (0x40/0x80/0x100) with a u32 current_level after); 0x02 skills
//   (PackableHashTable<u32, Skill>, Skill::UnPack 0x005CAAC0: u32 word whose
//   low 16 bits are level_from_pp and high 16 bits the "already adjusted"
//   flag, u32 advancement class, u32 pp, u32 init_level, u32 resistance at
//   last check, f64 seconds since last used).
//
// A table's bucket count above 0x10000, a count without buckets, a count
// above 0x10000 or a repeated key refuses the message, as
// PackableHashTable::UnPack refuses it.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

namespace quality_flag {
inline constexpr std::uint32_t Int = 0x01;
inline constexpr std::uint32_t Bool = 0x02;
inline constexpr std::uint32_t Float = 0x04;
inline constexpr std::uint32_t DataId = 0x08;
inline constexpr std::uint32_t String = 0x10;
inline constexpr std::uint32_t Position = 0x20;
inline constexpr std::uint32_t InstanceId = 0x40;
inline constexpr std::uint32_t Int64 = 0x80;
}  // namespace quality_flag

namespace quality_vector_flag {
inline constexpr std::uint32_t Attribute = 0x01;
inline constexpr std::uint32_t Skill = 0x02;
}  // namespace quality_vector_flag

// Attribute (primary): the ranks bought, the starting value, the XP spent.
struct AttributeWire {
  std::uint32_t level_from_cp = 0;
  std::uint32_t init_level = 0;
  std::uint32_t cp_spent = 0;
  bool operator==(const AttributeWire&) const = default;
};

// SecondaryAttribute (a vital): an Attribute and the current value.
struct SecondaryAttributeWire {
  std::uint32_t level_from_cp = 0;
  std::uint32_t init_level = 0;
  std::uint32_t cp_spent = 0;
  std::uint32_t current_level = 0;
  bool operator==(const SecondaryAttributeWire&) const = default;
};

struct SkillWire {
  std::uint16_t level_from_pp = 0;
  std::uint16_t adjusted = 1;  // the word's high half; Skill::Pack writes 1
  std::uint32_t sac = 0;       // SKILL_ADVANCEMENT_CLASS: 1 untrained, 2 trained, 3 specialized
  std::uint32_t pp = 0;
  std::uint32_t init_level = 0;
  std::uint32_t resistance_of_last_check = 0;
  double last_used = 0.0;  // seconds since the skill was last used
  // Doubles compare by their bits (a NaN equals the NaN it was written from).
  bool operator==(const SkillWire& o) const noexcept;
};

struct PlayerDescription {
  std::uint32_t property_flags = 0;
  std::uint32_t weenie_type = 0;
  std::vector<std::pair<std::uint32_t, std::int32_t>> ints;
  std::vector<std::pair<std::uint32_t, std::int64_t>> int64s;
  std::vector<std::pair<std::uint32_t, std::int32_t>> bools;
  std::vector<std::pair<std::uint32_t, double>> floats;
  std::vector<std::pair<std::uint32_t, std::string>> strings;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> data_ids;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> instance_ids;
  std::vector<std::pair<std::uint32_t, Position>> positions;
  std::uint32_t vector_flags = 0;
  std::uint32_t has_health = 1;
  // Strength, Endurance, Quickness, Coordination, Focus, Self (STypeAttribute 1..6).
  std::array<std::optional<AttributeWire>, 6> attributes{};
  // Health, Stamina, Mana (STypeAttribute2nd 1, 3, 5).
  std::array<std::optional<SecondaryAttributeWire>, 3> vitals{};
  std::uint16_t skill_buckets = 32;
  std::vector<std::pair<std::uint32_t, SkillWire>> skills;  // stored order
  bool operator==(const PlayerDescription& o) const noexcept;
};

// The whole F7B0 message (header included). The property and vector flags
// come from the struct; a table whose flag is clear is not written.
Result<PlayerDescription> decode_player_description(std::span<const std::uint8_t> body);
// The event payload (after the F7B0 header) through the skills; a sender
// appends the rest (options, inventory) itself.
std::vector<std::uint8_t> encode_player_description_qualities(const PlayerDescription& m);

}  // namespace dereth::protocol
