#pragma once
// The enchantment events the server sends the player after the
// PlayerDescription (the registry's updates and removals, as the retail
// dispatcher routes F7B0 0x02C2..0x02C8 and 0x0312 to CM_Magic::DispatchUI_*)
// and the spell-bar actions the client sends (CM_Character::
// Event_AddSpellFavorite / Event_RemoveSpellFavorite). Layouts checked
// against ACE's GameEventType, GameActionType and their writers and
// readers. Wire layouts: docs/protocol.md, "The player's state".

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/protocol/player_description.hpp"
#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

namespace magic_event {
inline constexpr std::uint32_t UpdateEnchantment = 0x02C2;           // one Enchantment
inline constexpr std::uint32_t RemoveEnchantment = 0x02C3;           // u16 spell, u16 layer
inline constexpr std::uint32_t UpdateMultipleEnchantments = 0x02C4;  // u32 count, Enchantments
inline constexpr std::uint32_t RemoveMultipleEnchantments = 0x02C5;  // u32 count, (u16 spell, u16 layer)s
inline constexpr std::uint32_t PurgeEnchantments = 0x02C6;           // nothing
inline constexpr std::uint32_t DispelEnchantment = 0x02C7;           // u16 spell, u16 layer
inline constexpr std::uint32_t DispelMultipleEnchantments = 0x02C8;  // u32 count, (u16 spell, u16 layer)s
inline constexpr std::uint32_t PurgeBadEnchantments = 0x0312;        // nothing
inline constexpr std::uint32_t UpdateSpell = 0x02C1;                 // u32 spell: learnt
inline constexpr std::uint32_t RemoveSpell = 0x01A8;                 // u32 spell: forgotten
}  // namespace magic_event

namespace magic_action {
inline constexpr std::uint32_t AddSpellFavorite = 0x01E3;     // u32 spell, u32 index, u32 list
inline constexpr std::uint32_t RemoveSpellFavorite = 0x01E4;  // u32 spell, u32 list
inline constexpr std::uint32_t CastUntargetedSpell = 0x0048;  // u32 spell (CM_Magic::Event_CastUntargetedSpell)
inline constexpr std::uint32_t CastTargetedSpell = 0x004A;    // u32 target, u32 spell (Event_CastTargetedSpell)
}  // namespace magic_action

// An enchantment's identity in the registry (LayeredSpellID).
struct LayeredSpell {
  std::uint16_t spell_id = 0;
  std::uint16_t layer = 0;
  bool operator==(const LayeredSpell&) const = default;
};

// 0x02C2 and 0x02C4: the enchantments to add or replace. The wire form does
// not say which list each belongs to; `list` stays Multiplicative here and
// the registry sorts them (docs/protocol.md).
struct MagicUpdateEnchantments {
  std::uint32_t event = magic_event::UpdateEnchantment;
  std::vector<EnchantmentWire> enchantments;  // exactly one for 0x02C2
  bool operator==(const MagicUpdateEnchantments&) const = default;
};

// 0x02C3, 0x02C5, 0x02C7 and 0x02C8: the enchantments to take away (a
// dispel is a removal the player is told about differently).
struct MagicRemoveEnchantments {
  std::uint32_t event = magic_event::RemoveEnchantment;
  std::vector<LayeredSpell> spells;  // exactly one for 0x02C3 and 0x02C7
  bool operator==(const MagicRemoveEnchantments&) const = default;
};

// 0x02C6 (every enchantment) and 0x0312 (the harmful ones).
struct MagicPurgeEnchantments {
  bool bad_only = false;
  bool operator==(const MagicPurgeEnchantments&) const = default;
};

// 0x02C1 (CM_Magic::DispatchUI_UpdateSpell 0x006A3010): a spell goes into
// the spell book. Retail reads one u32 after the event type; ACE writes the
// id as a u16 and a u16 layer of 0, the same four bytes.
struct MagicUpdateSpell {
  std::uint32_t spell = 0;
  bool operator==(const MagicUpdateSpell&) const = default;
};
// 0x01A8 (CM_Magic::DispatchUI_RemoveSpell 0x006A2FE0): a spell leaves the
// spell book; the same layout.
struct MagicRemoveSpell {
  std::uint32_t spell = 0;
  bool operator==(const MagicRemoveSpell&) const = default;
};

// Any of the update, remove or purge events; another event or a short body
// is an error naming the field. Counts are checked against the bytes left.
Result<MagicUpdateEnchantments> decode_magic_update_enchantments(std::span<const std::uint8_t> body);
Result<MagicRemoveEnchantments> decode_magic_remove_enchantments(std::span<const std::uint8_t> body);
Result<MagicPurgeEnchantments> decode_magic_purge_enchantments(std::span<const std::uint8_t> body);
std::vector<std::uint8_t> encode(const MagicUpdateEnchantments& m, std::uint32_t target, std::uint32_t sequence);
std::vector<std::uint8_t> encode(const MagicRemoveEnchantments& m, std::uint32_t target, std::uint32_t sequence);
std::vector<std::uint8_t> encode(const MagicPurgeEnchantments& m, std::uint32_t target, std::uint32_t sequence);
// The spell book's two events: exactly the event type and the spell.
Result<MagicUpdateSpell> decode_magic_update_spell(std::span<const std::uint8_t> body);
Result<MagicRemoveSpell> decode_magic_remove_spell(std::span<const std::uint8_t> body);
std::vector<std::uint8_t> encode(const MagicUpdateSpell& m, std::uint32_t target, std::uint32_t sequence);
std::vector<std::uint8_t> encode(const MagicRemoveSpell& m, std::uint32_t target, std::uint32_t sequence);

// F7B1 0x01E3: put `spell` at `index` of favourites list `list` (0..7).
struct AddSpellFavorite {
  std::uint32_t sequence = 0;
  std::uint32_t spell = 0;
  std::uint32_t index = 0;
  std::uint32_t list = 0;
  bool operator==(const AddSpellFavorite&) const = default;
};
// F7B1 0x01E4: take `spell` off favourites list `list`.
struct RemoveSpellFavorite {
  std::uint32_t sequence = 0;
  std::uint32_t spell = 0;
  std::uint32_t list = 0;
  bool operator==(const RemoveSpellFavorite&) const = default;
};
std::vector<std::uint8_t> encode(const AddSpellFavorite& m);
std::vector<std::uint8_t> encode(const RemoveSpellFavorite& m);
Result<AddSpellFavorite> decode_add_spell_favorite(std::span<const std::uint8_t> body);
Result<RemoveSpellFavorite> decode_remove_spell_favorite(std::span<const std::uint8_t> body);

// F7B1 0x004A CastTargetedSpell (CM_Magic::Event_CastTargetedSpell
// 0x006A3040, ClientMagicSystem::FreeHandsAndCastSpell with a target): the
// target's guid, then the spell id; 20 bytes in all.
struct CastTargetedSpell {
  std::uint32_t sequence = 0;
  std::uint32_t target = 0;
  std::uint32_t spell = 0;
  bool operator==(const CastTargetedSpell&) const = default;
};
// F7B1 0x0048 CastUntargetedSpell (CM_Magic::Event_CastUntargetedSpell
// 0x006A3150): the spell id alone; 16 bytes in all.
struct CastUntargetedSpell {
  std::uint32_t sequence = 0;
  std::uint32_t spell = 0;
  bool operator==(const CastUntargetedSpell&) const = default;
};
std::vector<std::uint8_t> encode(const CastTargetedSpell& m);
std::vector<std::uint8_t> encode(const CastUntargetedSpell& m);
// The action whole; another action, a short body or bytes left over is an
// error naming the field.
Result<CastTargetedSpell> decode_cast_targeted_spell(std::span<const std::uint8_t> body);
Result<CastUntargetedSpell> decode_cast_untargeted_spell(std::span<const std::uint8_t> body);

}  // namespace dereth::protocol
