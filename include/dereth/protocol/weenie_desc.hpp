#pragma once
// PublicWeenieDesc ("WeenieDesc"), the last section of CreateObject and
// UpdateObject: the header and every optional field of spec/protocol.md
// section 5.1, in wire order.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

namespace weenie_flag {
inline constexpr std::uint32_t PluralName = 0x00000001;
inline constexpr std::uint32_t ItemsCapacity = 0x00000002;
inline constexpr std::uint32_t ContainersCapacity = 0x00000004;
inline constexpr std::uint32_t Value = 0x00000008;
inline constexpr std::uint32_t Usable = 0x00000010;
inline constexpr std::uint32_t UseRadius = 0x00000020;
inline constexpr std::uint32_t Monarch = 0x00000040;
inline constexpr std::uint32_t UiEffects = 0x00000080;
inline constexpr std::uint32_t AmmoType = 0x00000100;
inline constexpr std::uint32_t CombatUse = 0x00000200;
inline constexpr std::uint32_t Structure = 0x00000400;
inline constexpr std::uint32_t MaxStructure = 0x00000800;
inline constexpr std::uint32_t StackSize = 0x00001000;
inline constexpr std::uint32_t MaxStackSize = 0x00002000;
inline constexpr std::uint32_t ContainerId = 0x00004000;
inline constexpr std::uint32_t WielderId = 0x00008000;
inline constexpr std::uint32_t ValidLocations = 0x00010000;
inline constexpr std::uint32_t CurrentlyWieldedLocation = 0x00020000;
inline constexpr std::uint32_t Priority = 0x00040000;
inline constexpr std::uint32_t TargetType = 0x00080000;
inline constexpr std::uint32_t RadarBlipColor = 0x00100000;
inline constexpr std::uint32_t Burden = 0x00200000;
inline constexpr std::uint32_t Spell = 0x00400000;
inline constexpr std::uint32_t RadarBehavior = 0x00800000;
inline constexpr std::uint32_t Workmanship = 0x01000000;
inline constexpr std::uint32_t HouseOwner = 0x02000000;
inline constexpr std::uint32_t HouseRestrictions = 0x04000000;
inline constexpr std::uint32_t PScript = 0x08000000;
inline constexpr std::uint32_t HookType = 0x10000000;
inline constexpr std::uint32_t HookItemTypes = 0x20000000;
inline constexpr std::uint32_t IconOverlay = 0x40000000;
inline constexpr std::uint32_t MaterialType = 0x80000000;
}  // namespace weenie_flag

namespace weenie_flag2 {
inline constexpr std::uint32_t IconUnderlay = 0x1;
inline constexpr std::uint32_t CooldownId = 0x2;
inline constexpr std::uint32_t CooldownDuration = 0x4;
inline constexpr std::uint32_t PetOwner = 0x8;
}  // namespace weenie_flag2

// objectDescriptionFlags bit that announces the second header word.
inline constexpr std::uint32_t kIncludesSecondHeader = 0x04000000;

struct RestrictionEntry {
  std::uint32_t guid = 0;
  std::uint32_t value = 0;
  bool operator==(const RestrictionEntry&) const = default;
};

// RestrictionDB (house access list), in any of RestrictionDB::UnPack
// 0x005AE990's three layouts (read_house_restrictions).
struct HouseRestrictions {
  static constexpr std::uint32_t kCurrentVersion = 0x10000002;
  // As read; 0 for the unversioned layout (an open flag, no monarch).
  std::uint32_t version = kCurrentVersion;
  std::uint32_t open_status = 0;  // the bitmask (bit 0: open)
  std::uint32_t monarch_guid = 0;
  std::uint16_t buckets = 0;  // the table's bucket count (an old table's, when it fits 16 bits)
  std::vector<RestrictionEntry> entries;
  // An older layout's OldPHashTable header top byte (log2(buckets) + 1; 0:
  // an empty table); unused by the current layout.
  std::uint8_t old_buckets_log = 0;
  bool operator==(const HouseRestrictions&) const = default;
};

struct WeenieDesc {
  std::uint32_t weenie_flags = 0;  // as received; the writer derives field bits from presence
  std::string name;
  std::uint32_t weenie_class_id = 0;
  std::uint32_t icon_id = 0;  // 0x06000000 base
  std::uint32_t item_type = 0;
  std::uint32_t object_description_flags = 0;
  std::optional<std::uint32_t> weenie_flags2;  // when object_description_flags has 0x04000000

  std::optional<std::string> plural_name;
  std::optional<std::uint8_t> items_capacity;
  std::optional<std::uint8_t> containers_capacity;
  std::optional<std::uint16_t> ammo_type;
  std::optional<std::uint32_t> value;
  std::optional<std::uint32_t> usable;
  std::optional<float> use_radius;
  std::optional<std::uint32_t> target_type;
  std::optional<std::uint32_t> ui_effects;
  std::optional<std::uint8_t> combat_use;
  std::optional<std::uint16_t> structure;
  std::optional<std::uint16_t> max_structure;
  std::optional<std::uint16_t> stack_size;
  std::optional<std::uint16_t> max_stack_size;
  std::optional<std::uint32_t> container_id;
  std::optional<std::uint32_t> wielder_id;
  std::optional<std::uint32_t> valid_locations;
  std::optional<std::uint32_t> currently_wielded_location;
  std::optional<std::uint32_t> priority;
  std::optional<std::uint8_t> radar_blip_color;
  std::optional<std::uint8_t> radar_behavior;
  std::optional<std::uint16_t> pscript;
  std::optional<float> workmanship;
  std::optional<std::uint16_t> burden;
  std::optional<std::uint16_t> spell;
  std::optional<std::uint32_t> house_owner;
  std::optional<HouseRestrictions> house_restrictions;
  std::optional<std::uint32_t> hook_item_types;
  std::optional<std::uint32_t> monarch;
  std::optional<std::uint16_t> hook_type;
  std::optional<std::uint32_t> icon_overlay;   // 0x06000000 base
  std::optional<std::uint32_t> icon_underlay;  // flags2 0x1, 0x06000000 base
  std::optional<std::uint32_t> material_type;
  std::optional<std::uint32_t> cooldown_id;  // flags2 0x2
  std::optional<double> cooldown_duration;   // flags2 0x4
  std::optional<std::uint32_t> pet_owner;    // flags2 0x8

  [[nodiscard]] std::uint32_t encoded_flags() const;
  [[nodiscard]] std::uint32_t encoded_flags2() const;
  [[nodiscard]] std::uint32_t encoded_object_description_flags() const;
  bool operator==(const WeenieDesc&) const;
};

// RestrictionDB as WeenieDesc and the UpdateRestrictions event carry it.
Result<HouseRestrictions> read_house_restrictions(ByteReader& r);
// Into caller-owned storage (the entries keep their capacity).
Result<void> read_house_restrictions(ByteReader& r, HouseRestrictions& out);
void write_house_restrictions(ByteWriter& w, const HouseRestrictions& h);

Result<WeenieDesc> read_weenie_desc(ByteReader& r);
// The same, into caller-owned storage: every field is overwritten (absent
// ones cleared) and the strings keep their capacity, so a description of the
// shape `out` already holds is read without allocating. On failure `out`
// holds a partial read.
Result<void> read_weenie_desc(ByteReader& r, WeenieDesc& out);
void write_weenie_desc(ByteWriter& w, const WeenieDesc& d);

}  // namespace dereth::protocol
