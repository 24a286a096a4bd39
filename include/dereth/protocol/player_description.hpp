#pragma once
// F7B0 game event 0x0013 PlayerDescription: the player's qualities, as
// retail unpacks them (CBaseQualities::UnPack 0x00595F10, then
// CACQualities::UnPack 0x00593420: attributes, skills, spell book,
// enchantments), then PlayerModule::UnPack 0x005D49D0 as far as the spell
// bars (the option flags, CharacterOptions1, the shortcuts and the
// favourites lists); what follows them (the other options, inventory) is
// not read. A message with
// CACQualities blocks dereth does not read (vector flags 0x4 body, 0x8 event
// filter, 0x10 emote table, 0x20 creation profiles, 0x40 page data, 0x80,
// 0x400, 0x800 generators; ACE sends none of them for a player) is read
// through the skills, its options left unknown; one that ends after the
// skills with no spell book or enchantments flagged has no options either.
//
// The wire layout: docs/protocol.md, "PlayerDescription (F7B0 0x0013)".
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
inline constexpr std::uint32_t Spell = 0x100;
inline constexpr std::uint32_t Enchantment = 0x200;
// The CACQualities blocks dereth does not read (body, event filter, emote
// table, creation profiles, page data, generator table, registry, queue).
inline constexpr std::uint32_t NotRead = 0x04 | 0x08 | 0x10 | 0x20 | 0x40 | 0x80 | 0x400 | 0x800;
}  // namespace quality_vector_flag

// CharacterOptions1 (PlayerModule::options_) bits.
namespace character_options1 {
// PlayerModule::ToggleRun 0x005D2DA0: bit 10, "run as the default
// movement" (ACE's CharacterOptions1.ToggleRun; its default set has it).
inline constexpr std::uint32_t ToggleRun = 0x00000400;
// PlayerModule::DisableHouseRestrictionEffects 0x005D3160: bit 25.
inline constexpr std::uint32_t DisableHouseRestrictionEffects = 0x02000000;
}  // namespace character_options1

// CEnchantmentRegistry's lists, in unpack order.
enum class EnchantmentList : std::uint8_t { Multiplicative, Additive, Cooldown, Vitae };

// Enchantment (Enchantment::UnPack 0x005CB040).
struct EnchantmentWire {
  EnchantmentList list = EnchantmentList::Multiplicative;
  std::uint16_t spell_id = 0;
  std::uint16_t layer = 0;
  std::uint16_t category = 0;
  std::uint16_t has_spell_set_id = 1;  // non-zero: spell_set_id follows
  std::uint32_t power_level = 0;
  double start_time = 0.0;  // relative to now
  double duration = 0.0;
  std::uint32_t caster = 0;
  float degrade_modifier = 0.0f;
  float degrade_limit = 0.0f;
  double last_time_degraded = 0.0;  // relative to now
  std::uint32_t stat_mod_type = 0;
  std::uint32_t stat_mod_key = 0;
  float stat_mod_value = 0.0f;
  std::uint32_t spell_set_id = 0;
  // Floating fields compare by their bits.
  bool operator==(const EnchantmentWire& o) const noexcept;
};

// PlayerModule::UnPack's option flags (ACE's CharacterOptionDataFlag): the
// blocks that follow CharacterOptions1.
namespace option_data_flag {
inline constexpr std::uint32_t Shortcut = 0x001;
inline constexpr std::uint32_t MultiSpellList = 0x004;           // spell lists 1..4 follow list 0
inline constexpr std::uint32_t ExtendedMultiSpellLists = 0x010;  // lists 1..6
inline constexpr std::uint32_t SpellLists8 = 0x400;              // lists 1..7
}  // namespace option_data_flag

// The most favourites lists (spell bar tabs) PlayerModule keeps.
inline constexpr std::size_t kSpellListCount = 8;

// ShortCutData (12 bytes): the toolbar slot, the object in it, a spell.
struct ShortcutWire {
  std::uint32_t index = 0;
  std::uint32_t object_id = 0;
  std::uint16_t spell_id = 0;
  std::uint16_t layer = 0;
  bool operator==(const ShortcutWire&) const = default;
};

// PlayerModule::UnPack 0x005D49D0 after CharacterOptions1: the shortcuts
// (flag 0x1: u32 count, ShortCutData each), then favourites list 0 (u32
// count, u32 spell ids), then lists 1..4, 1..6 or 1..7 by the flags 0x4,
// 0x10, 0x400 (first set wins). What follows (components, filters,
// options 2, inventory) is not read.
struct SpellListsWire {
  std::vector<ShortcutWire> shortcuts;
  std::vector<std::vector<std::uint32_t>> favorite_spells;  // 1, 5, 7 or 8 lists
  bool operator==(const SpellListsWire&) const = default;
};

// PlayerModule::UnPack's first two words.
struct PlayerOptionsWire {
  std::uint32_t option_flags = 0;
  std::uint32_t options1 = 0;  // CharacterOptions1
  bool operator==(const PlayerOptionsWire&) const = default;
};

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
  // CSpellBook: each spell and its casting likelihood, stored order.
  std::uint16_t spell_buckets = 64;
  std::vector<std::pair<std::uint32_t, float>> spells;
  // CEnchantmentRegistry, in unpack order (multiplicative, additive,
  // cooldown, vitae).
  std::vector<EnchantmentWire> enchantments;
  // None when the message does not reach them (above).
  std::optional<PlayerOptionsWire> options;
  // None when the message ends at CharacterOptions1 (a sender of the
  // qualities and options alone) or does not reach the options.
  std::optional<SpellListsWire> spell_lists;
  bool operator==(const PlayerDescription& o) const noexcept;
};

// The whole F7B0 message (header included). The property and vector flags
// come from the struct; a table whose flag is clear is not written.
Result<PlayerDescription> decode_player_description(std::span<const std::uint8_t> body);
// The event payload (after the F7B0 header) through the enchantments (the
// spell book and the registry when their vector flags are set), then the
// options when given, then the shortcuts and spell lists when given (the
// list count from the option flags); a sender appends the rest (inventory)
// itself.
std::vector<std::uint8_t> encode_player_description_qualities(const PlayerDescription& m);

}  // namespace dereth::protocol
