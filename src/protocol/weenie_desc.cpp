#include "dereth/protocol/weenie_desc.hpp"

#include <bit>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "read_if.hpp"

namespace dereth::protocol {

namespace wf = weenie_flag;
namespace wf2 = weenie_flag2;

namespace {

std::uint32_t set_bit(std::uint32_t bits, std::uint32_t flag, bool present) {
  return present ? (bits | flag) : (bits & ~flag);
}

bool same_bits(const std::optional<double>& a, const std::optional<double>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || std::bit_cast<std::uint64_t>(*a) == std::bit_cast<std::uint64_t>(*b);
}

}  // namespace

// RestrictionDB::UnPack 0x005AE990: the layout by the first u32. At or
// above 0x10000002 (what servers send): bitmask, monarch, then the table
// (u16 count, u16 buckets, count x {guid, value}). Another with a high word:
// bitmask, monarch, then an OldPHashTable. No high word: that u32 is the
// open flag (RestrictionDB::SetOpenHouse: bitmask bit 0), then an
// OldPHashTable.
Result<HouseRestrictions> read_house_restrictions(ByteReader& r) {
  HouseRestrictions h;
  DERETH_CHECK(read_house_restrictions(r, h));
  return h;
}

Result<void> read_house_restrictions(ByteReader& r, HouseRestrictions& h) {
  h.monarch_guid = 0;
  h.buckets = 0;
  h.old_buckets_log = 0;
  h.entries.clear();
  DERETH_TRY(const std::uint32_t first, r.u32("WeenieDesc.house_restrictions.version"));
  if ((first & 0xFFFF0000u) != 0) {
    h.version = first;
    DERETH_CHECK(r.require(8, "WeenieDesc.house_restrictions.bitmask"));
    h.open_status = *r.u32("WeenieDesc.house_restrictions.bitmask");
    h.monarch_guid = *r.u32("WeenieDesc.house_restrictions.monarch_guid");
  } else {
    h.version = 0;
    h.open_status = first != 0 ? 1u : 0u;
  }
  if (h.version >= HouseRestrictions::kCurrentVersion) {
    DERETH_CHECK(r.require(4, "WeenieDesc.house_restrictions.count"));
    const std::uint16_t count = *r.u16("WeenieDesc.house_restrictions.count");
    h.buckets = *r.u16("WeenieDesc.house_restrictions.buckets");
    DERETH_TRY(const std::size_t n, r.checked_count(count, 8, "WeenieDesc.house_restrictions.count"));
    h.entries.resize(n);
    for (auto& e : h.entries) {
      e.guid = *r.u32("WeenieDesc.house_restrictions.guid");
      e.value = *r.u32("WeenieDesc.house_restrictions.value");
    }
    return {};
  }
  // OldPHashTable::UnPack 0x005AE750: u32 header, the top byte log2(buckets)
  // + 1 (at most 0x20; 0: no buckets and no entries), the low 24 bits the
  // count; then count x {guid, value}, a guid twice refused
  // (OldHashTable::add).
  DERETH_TRY(const std::uint32_t header, r.u32("WeenieDesc.house_restrictions.old_table"));
  const std::uint32_t log = header >> 24;
  const std::uint32_t count = header & 0xFFFFFFu;
  constexpr std::string_view kOld = "WeenieDesc.house_restrictions.old_table";
  if (log > 0x20) {
    return std::unexpected(r.error_at(r.position() - 4, core::ErrorKind::Invalid, kOld, "more than 2^31 buckets"));
  }
  if (log == 0) {
    if (count != 0) {
      return std::unexpected(r.error_at(r.position() - 4, core::ErrorKind::Invalid, kOld, "entries without buckets"));
    }
    return {};
  }
  h.buckets = static_cast<std::uint16_t>(log > 16 ? 0 : (1u << (log - 1)) & 0xFFFFu);
  h.old_buckets_log = static_cast<std::uint8_t>(log);
  DERETH_TRY(const std::size_t n, r.checked_count(count, 8, "WeenieDesc.house_restrictions.old_table.count"));
  h.entries.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    RestrictionEntry& e = h.entries[i];
    e.guid = *r.u32("WeenieDesc.house_restrictions.guid");
    e.value = *r.u32("WeenieDesc.house_restrictions.value");
    for (std::size_t j = 0; j < i; ++j) {
      if (h.entries[j].guid == e.guid) {
        return std::unexpected(r.error_at(r.position() - 8, core::ErrorKind::Invalid,
                                          "WeenieDesc.house_restrictions.guid",
                                          fmt::format("guid {:#010x} twice", e.guid)));
      }
    }
  }
  return {};
}

void write_house_restrictions(ByteWriter& w, const HouseRestrictions& h) {
  if ((h.version & 0xFFFF0000u) != 0) {
    w.u32(h.version);
    w.u32(h.open_status);
    w.u32(h.monarch_guid);
  } else {
    w.u32(h.open_status & 1u);
  }
  if (h.version >= HouseRestrictions::kCurrentVersion) {
    w.u16(static_cast<std::uint16_t>(h.entries.size()));
    w.u16(h.buckets);
  } else {
    const std::uint32_t count = static_cast<std::uint32_t>(h.entries.size()) & 0xFFFFFFu;
    w.u32((static_cast<std::uint32_t>(h.old_buckets_log) << 24) | count);
  }
  for (const auto& e : h.entries) {
    w.u32(e.guid);
    w.u32(e.value);
  }
}

std::uint32_t WeenieDesc::encoded_flags() const {
  const std::pair<std::uint32_t, bool> fields[] = {
      {wf::PluralName, plural_name.has_value()},
      {wf::ItemsCapacity, items_capacity.has_value()},
      {wf::ContainersCapacity, containers_capacity.has_value()},
      {wf::AmmoType, ammo_type.has_value()},
      {wf::Value, value.has_value()},
      {wf::Usable, usable.has_value()},
      {wf::UseRadius, use_radius.has_value()},
      {wf::TargetType, target_type.has_value()},
      {wf::UiEffects, ui_effects.has_value()},
      {wf::CombatUse, combat_use.has_value()},
      {wf::Structure, structure.has_value()},
      {wf::MaxStructure, max_structure.has_value()},
      {wf::StackSize, stack_size.has_value()},
      {wf::MaxStackSize, max_stack_size.has_value()},
      {wf::ContainerId, container_id.has_value()},
      {wf::WielderId, wielder_id.has_value()},
      {wf::ValidLocations, valid_locations.has_value()},
      {wf::CurrentlyWieldedLocation, currently_wielded_location.has_value()},
      {wf::Priority, priority.has_value()},
      {wf::RadarBlipColor, radar_blip_color.has_value()},
      {wf::RadarBehavior, radar_behavior.has_value()},
      {wf::PScript, pscript.has_value()},
      {wf::Workmanship, workmanship.has_value()},
      {wf::Burden, burden.has_value()},
      {wf::Spell, spell.has_value()},
      {wf::HouseOwner, house_owner.has_value()},
      {wf::HouseRestrictions, house_restrictions.has_value()},
      {wf::HookItemTypes, hook_item_types.has_value()},
      {wf::Monarch, monarch.has_value()},
      {wf::HookType, hook_type.has_value()},
      {wf::IconOverlay, icon_overlay.has_value()},
      {wf::MaterialType, material_type.has_value()},
  };
  std::uint32_t bits = weenie_flags;
  for (const auto& [flag, present] : fields) bits = set_bit(bits, flag, present);
  return bits;
}

std::uint32_t WeenieDesc::encoded_flags2() const {
  std::uint32_t bits = weenie_flags2.value_or(0);
  bits = set_bit(bits, wf2::IconUnderlay, icon_underlay.has_value());
  bits = set_bit(bits, wf2::CooldownId, cooldown_id.has_value());
  bits = set_bit(bits, wf2::CooldownDuration, cooldown_duration.has_value());
  bits = set_bit(bits, wf2::PetOwner, pet_owner.has_value());
  return bits;
}

std::uint32_t WeenieDesc::encoded_object_description_flags() const {
  const bool second = weenie_flags2.has_value() || icon_underlay || cooldown_id || cooldown_duration || pet_owner;
  return set_bit(object_description_flags, kIncludesSecondHeader, second);
}

bool WeenieDesc::operator==(const WeenieDesc& o) const {
  return weenie_flags == o.weenie_flags && name == o.name && weenie_class_id == o.weenie_class_id &&
         icon_id == o.icon_id && item_type == o.item_type && object_description_flags == o.object_description_flags &&
         weenie_flags2 == o.weenie_flags2 && plural_name == o.plural_name && items_capacity == o.items_capacity &&
         containers_capacity == o.containers_capacity && ammo_type == o.ammo_type && value == o.value &&
         usable == o.usable && same_bits(use_radius, o.use_radius) && target_type == o.target_type &&
         ui_effects == o.ui_effects && combat_use == o.combat_use && structure == o.structure &&
         max_structure == o.max_structure && stack_size == o.stack_size && max_stack_size == o.max_stack_size &&
         container_id == o.container_id && wielder_id == o.wielder_id && valid_locations == o.valid_locations &&
         currently_wielded_location == o.currently_wielded_location && priority == o.priority &&
         radar_blip_color == o.radar_blip_color && radar_behavior == o.radar_behavior && pscript == o.pscript &&
         same_bits(workmanship, o.workmanship) && burden == o.burden && spell == o.spell &&
         house_owner == o.house_owner && house_restrictions == o.house_restrictions &&
         hook_item_types == o.hook_item_types && monarch == o.monarch && hook_type == o.hook_type &&
         icon_overlay == o.icon_overlay && icon_underlay == o.icon_underlay && material_type == o.material_type &&
         cooldown_id == o.cooldown_id && same_bits(cooldown_duration, o.cooldown_duration) && pet_owner == o.pet_owner;
}

Result<WeenieDesc> read_weenie_desc(ByteReader& r) {
  WeenieDesc d;
  DERETH_CHECK(read_weenie_desc(r, d));
  return d;
}

namespace {

using detail::FieldSize;
using detail::read_if;
using detail::read_if_rare;
using detail::RunSize;
using detail::size_if;
using detail::through;
using detail::Unchecked;

// A String16L into a string that keeps its capacity.
// string16l_view is out of line: it reads the caller's reader (through).
DERETH_READ_INLINE ReadResult<void> read_string(ByteReader& r, ByteReader& spill, std::string& out,
                                                std::string_view field) {
  DERETH_TRY(const std::string_view text,
             through(r, spill, [field](ByteReader& s) { return s.string16l_view(field); }));
  // Resized and copied: a name of the length the string has needs no more
  // than resize's test (assign goes through replace, which allows for text
  // that overlaps the string's own; this text is the message's). Not
  // resize_and_overwrite: GCC 12's hands the operation the new capacity
  // instead of the length when the string grows (the test "a name and
  // plural name longer than a short string" catches it).
  out.resize(text.size());
  detail::copy_bytes(out.data(), text.data(), text.size());
  return {};
}

// The fixed-size fields from ItemsCapacity to HouseOwner, field by field:
// each read checks its own bytes (the path of a message cut short inside
// them).
[[gnu::noinline]] Result<void> read_item_fields_checked(ByteReader& r, WeenieDesc& d, std::uint32_t f) {
  DERETH_CHECK(read_if(f & wf::ItemsCapacity, d.items_capacity, [&] { return r.u8("WeenieDesc.items_capacity"); }));
  DERETH_CHECK(read_if(f & wf::ContainersCapacity, d.containers_capacity,
                       [&] { return r.u8("WeenieDesc.containers_capacity"); }));
  DERETH_CHECK(read_if(f & wf::AmmoType, d.ammo_type, [&] { return r.u16("WeenieDesc.ammo_type"); }));
  DERETH_CHECK(read_if(f & wf::Value, d.value, [&] { return r.u32("WeenieDesc.value"); }));
  DERETH_CHECK(read_if(f & wf::Usable, d.usable, [&] { return r.u32("WeenieDesc.usable"); }));
  DERETH_CHECK(read_if(f & wf::UseRadius, d.use_radius, [&] { return r.f32("WeenieDesc.use_radius"); }));
  DERETH_CHECK(read_if(f & wf::TargetType, d.target_type, [&] { return r.u32("WeenieDesc.target_type"); }));
  DERETH_CHECK(read_if(f & wf::UiEffects, d.ui_effects, [&] { return r.u32("WeenieDesc.ui_effects"); }));
  DERETH_CHECK(read_if(f & wf::CombatUse, d.combat_use, [&] { return r.u8("WeenieDesc.combat_use"); }));
  DERETH_CHECK(read_if(f & wf::Structure, d.structure, [&] { return r.u16("WeenieDesc.structure"); }));
  DERETH_CHECK(read_if(f & wf::MaxStructure, d.max_structure, [&] { return r.u16("WeenieDesc.max_structure"); }));
  DERETH_CHECK(read_if(f & wf::StackSize, d.stack_size, [&] { return r.u16("WeenieDesc.stack_size"); }));
  DERETH_CHECK(read_if(f & wf::MaxStackSize, d.max_stack_size, [&] { return r.u16("WeenieDesc.max_stack_size"); }));
  DERETH_CHECK(read_if(f & wf::ContainerId, d.container_id, [&] { return r.u32("WeenieDesc.container_id"); }));
  DERETH_CHECK(read_if(f & wf::WielderId, d.wielder_id, [&] { return r.u32("WeenieDesc.wielder_id"); }));
  DERETH_CHECK(read_if(f & wf::ValidLocations, d.valid_locations, [&] { return r.u32("WeenieDesc.valid_locations"); }));
  DERETH_CHECK(read_if(f & wf::CurrentlyWieldedLocation, d.currently_wielded_location,
                       [&] { return r.u32("WeenieDesc.currently_wielded_location"); }));
  DERETH_CHECK(read_if(f & wf::Priority, d.priority, [&] { return r.u32("WeenieDesc.priority"); }));
  DERETH_CHECK(
      read_if(f & wf::RadarBlipColor, d.radar_blip_color, [&] { return r.u8("WeenieDesc.radar_blip_color"); }));
  DERETH_CHECK(read_if(f & wf::RadarBehavior, d.radar_behavior, [&] { return r.u8("WeenieDesc.radar_behavior"); }));
  DERETH_CHECK(read_if(f & wf::PScript, d.pscript, [&] { return r.u16("WeenieDesc.pscript"); }));
  DERETH_CHECK(read_if(f & wf::Workmanship, d.workmanship, [&] { return r.f32("WeenieDesc.workmanship"); }));
  DERETH_CHECK(read_if(f & wf::Burden, d.burden, [&] { return r.u16("WeenieDesc.burden"); }));
  DERETH_CHECK(read_if(f & wf::Spell, d.spell, [&] { return r.u16("WeenieDesc.spell"); }));
  DERETH_CHECK(read_if(f & wf::HouseOwner, d.house_owner, [&] { return r.u32("WeenieDesc.house_owner"); }));
  return {};
}

constexpr RunSize kItemRun({{wf::ItemsCapacity, 1},
                            {wf::ContainersCapacity, 1},
                            {wf::AmmoType, 2},
                            {wf::Value, 4},
                            {wf::Usable, 4},
                            {wf::UseRadius, 4},
                            {wf::TargetType, 4},
                            {wf::UiEffects, 4},
                            {wf::CombatUse, 1},
                            {wf::Structure, 2},
                            {wf::MaxStructure, 2},
                            {wf::StackSize, 2},
                            {wf::MaxStackSize, 2},
                            {wf::ContainerId, 4},
                            {wf::WielderId, 4},
                            {wf::ValidLocations, 4},
                            {wf::CurrentlyWieldedLocation, 4},
                            {wf::Priority, 4},
                            {wf::RadarBlipColor, 1},
                            {wf::RadarBehavior, 1},
                            {wf::PScript, 2},
                            {wf::Workmanship, 4},
                            {wf::Burden, 2},
                            {wf::Spell, 2},
                            {wf::HouseOwner, 4}});

// The same fields when all their bytes are there (one check for the run).
DERETH_READ_INLINE Result<void> read_item_fields(ByteReader& r, ByteReader& spill, WeenieDesc& d, std::uint32_t f) {
  const std::size_t size = kItemRun.of(f);
  if (size > r.remaining()) [[unlikely]] {
    return through(r, spill, [&](ByteReader& s) { return read_item_fields_checked(s, d, f); });
  }
  // Every field set or cleared, each with no test of what it held; with no
  // bit of the run set (most objects), bits is a constant and each is one
  // store.
  const auto take_all = [&d](Unchecked u, auto bits) {
    u.take_if_rare(bits & wf::ItemsCapacity, d.items_capacity);
    u.take_if_rare(bits & wf::ContainersCapacity, d.containers_capacity);
    u.take_if_rare(bits & wf::AmmoType, d.ammo_type);
    u.take_if_rare(bits & wf::Value, d.value);
    u.take_if_rare(bits & wf::Usable, d.usable);
    u.take_if_rare(bits & wf::UseRadius, d.use_radius);
    u.take_if_rare(bits & wf::TargetType, d.target_type);
    u.take_if_rare(bits & wf::UiEffects, d.ui_effects);
    u.take_if_rare(bits & wf::CombatUse, d.combat_use);
    u.take_if_rare(bits & wf::Structure, d.structure);
    u.take_if_rare(bits & wf::MaxStructure, d.max_structure);
    u.take_if_rare(bits & wf::StackSize, d.stack_size);
    u.take_if_rare(bits & wf::MaxStackSize, d.max_stack_size);
    u.take_if_rare(bits & wf::ContainerId, d.container_id);
    u.take_if_rare(bits & wf::WielderId, d.wielder_id);
    u.take_if_rare(bits & wf::ValidLocations, d.valid_locations);
    u.take_if_rare(bits & wf::CurrentlyWieldedLocation, d.currently_wielded_location);
    u.take_if_rare(bits & wf::Priority, d.priority);
    u.take_if_rare(bits & wf::RadarBlipColor, d.radar_blip_color);
    u.take_if_rare(bits & wf::RadarBehavior, d.radar_behavior);
    u.take_if_rare(bits & wf::PScript, d.pscript);
    u.take_if_rare(bits & wf::Workmanship, d.workmanship);
    u.take_if_rare(bits & wf::Burden, d.burden);
    u.take_if_rare(bits & wf::Spell, d.spell);
    u.take_if_rare(bits & wf::HouseOwner, d.house_owner);
  };
  if (size == 0) {
    take_all(Unchecked(nullptr), std::integral_constant<std::uint32_t, 0>{});
  } else {
    take_all(Unchecked((*r.bytes(size, "WeenieDesc")).data()), f);
  }
  return {};
}

// HookItemTypes, Monarch and HookType, field by field.
[[gnu::noinline]] Result<void> read_hook_fields_checked(ByteReader& r, WeenieDesc& d, std::uint32_t f) {
  DERETH_CHECK(read_if(f & wf::HookItemTypes, d.hook_item_types, [&] { return r.u32("WeenieDesc.hook_item_types"); }));
  DERETH_CHECK(read_if(f & wf::Monarch, d.monarch, [&] { return r.u32("WeenieDesc.monarch"); }));
  DERETH_CHECK(read_if(f & wf::HookType, d.hook_type, [&] { return r.u16("WeenieDesc.hook_type"); }));
  return {};
}

constexpr RunSize kHookRun({{wf::HookItemTypes, 4}, {wf::Monarch, 4}, {wf::HookType, 2}});

// The same when all their bytes are there.
DERETH_READ_INLINE Result<void> read_hook_fields(ByteReader& r, ByteReader& spill, WeenieDesc& d, std::uint32_t f) {
  const std::size_t size = kHookRun.of(f);
  if (size > r.remaining()) [[unlikely]] {
    return through(r, spill, [&](ByteReader& s) { return read_hook_fields_checked(s, d, f); });
  }
  Unchecked u((*r.bytes(size, "WeenieDesc")).data());
  u.take_if_rare(f & wf::HookItemTypes, d.hook_item_types);
  u.take_if_rare(f & wf::Monarch, d.monarch);
  u.take_if_rare(f & wf::HookType, d.hook_type);
  return {};
}

// MaterialType, the second header's cooldown and pet owner, and the
// alignment, field by field.
[[gnu::noinline]] Result<void> read_tail_checked(ByteReader& r, WeenieDesc& d, std::uint32_t f, std::uint32_t f2) {
  DERETH_CHECK(read_if(f & wf::MaterialType, d.material_type, [&] { return r.u32("WeenieDesc.material_type"); }));
  DERETH_CHECK(read_if(f2 & wf2::CooldownId, d.cooldown_id, [&] { return r.u32("WeenieDesc.cooldown_id"); }));
  DERETH_CHECK(
      read_if(f2 & wf2::CooldownDuration, d.cooldown_duration, [&] { return r.f64("WeenieDesc.cooldown_duration"); }));
  DERETH_CHECK(read_if(f2 & wf2::PetOwner, d.pet_owner, [&] { return r.u32("WeenieDesc.pet_owner"); }));
  DERETH_CHECK(r.align4("WeenieDesc.align"));
  return {};
}

// The same when all their bytes and the padding are there.
DERETH_READ_INLINE Result<void> read_tail(ByteReader& r, ByteReader& spill, WeenieDesc& d, std::uint32_t f,
                                          std::uint32_t f2) {
  const std::size_t fields = size_if(f, wf::MaterialType, 4) + size_if(f2, wf2::CooldownId, 4) +
                             size_if(f2, wf2::CooldownDuration, 8) + size_if(f2, wf2::PetOwner, 4);
  const std::size_t size = fields + ((4 - ((r.position() + fields) & 3U)) & 3U);
  if (size > r.remaining()) [[unlikely]] {
    return through(r, spill, [&](ByteReader& s) { return read_tail_checked(s, d, f, f2); });
  }
  Unchecked u((*r.bytes(size, "WeenieDesc")).data());
  u.take_if_rare(f & wf::MaterialType, d.material_type);
  u.take_if_rare(f2 & wf2::CooldownId, d.cooldown_id);
  u.take_if_rare(f2 & wf2::CooldownDuration, d.cooldown_duration);
  u.take_if_rare(f2 & wf2::PetOwner, d.pet_owner);
  return {};
}

DERETH_READ_INLINE Result<void> read_weenie_desc_body(ByteReader& r, ByteReader& spill, WeenieDesc& d) {
  DERETH_TRY(d.weenie_flags, r.u32("WeenieDesc.weenie_flags"));
  DERETH_CHECK(read_string(r, spill, d.name, "WeenieDesc.name"));
  DERETH_TRY(d.weenie_class_id, r.packed_dword("WeenieDesc.weenie_class_id"));
  DERETH_TRY(d.icon_id, r.packed_did(kIconBase, "WeenieDesc.icon_id"));
  DERETH_TRY(d.item_type, r.u32("WeenieDesc.item_type"));
  DERETH_TRY(d.object_description_flags, r.u32("WeenieDesc.object_description_flags"));
  DERETH_CHECK(r.align4("WeenieDesc.header_align"));
  DERETH_CHECK(read_if_rare(d.object_description_flags & kIncludesSecondHeader, d.weenie_flags2,
                            [&] { return r.u32("WeenieDesc.weenie_flags2"); }));
  const std::uint32_t f = d.weenie_flags;
  const std::uint32_t f2 = d.weenie_flags2.value_or(0);

  if (f & wf::PluralName) [[unlikely]] {
    if (!d.plural_name) d.plural_name.emplace();
    DERETH_CHECK(read_string(r, spill, *d.plural_name, "WeenieDesc.plural_name"));
  } else {
    d.plural_name.reset();
  }
  DERETH_CHECK(read_item_fields(r, spill, d, f));
  if (f & wf::HouseRestrictions) [[unlikely]] {
    if (!d.house_restrictions) d.house_restrictions.emplace();
    DERETH_CHECK(through(r, spill, [&](ByteReader& s) { return read_house_restrictions(s, *d.house_restrictions); }));
  } else {
    d.house_restrictions.reset();
  }
  DERETH_CHECK(read_hook_fields(r, spill, d, f));
  DERETH_CHECK(read_if_rare(f & wf::IconOverlay, d.icon_overlay,
                            [&] { return r.packed_did(kIconBase, "WeenieDesc.icon_overlay"); }));
  DERETH_CHECK(read_if_rare(f2 & wf2::IconUnderlay, d.icon_underlay,
                            [&] { return r.packed_did(kIconBase, "WeenieDesc.icon_underlay"); }));
  return read_tail(r, spill, d, f, f2);
}

}  // namespace

Result<void> read_weenie_desc(ByteReader& r, WeenieDesc& d) {
  ByteReader local = r;  // read_if.hpp, through: the cursor stays in registers
  auto result = read_weenie_desc_body(local, r, d);
  r = local;
  return result;
}

void write_weenie_desc(ByteWriter& w, const WeenieDesc& d) {
  const std::uint32_t odf = d.encoded_object_description_flags();
  w.u32(d.encoded_flags());
  w.string16l(d.name);
  w.packed_dword(d.weenie_class_id);
  w.packed_did(d.icon_id, kIconBase);
  w.u32(d.item_type);
  w.u32(odf);
  w.align4();
  if (odf & kIncludesSecondHeader) w.u32(d.encoded_flags2());

  if (d.plural_name) w.string16l(*d.plural_name);
  if (d.items_capacity) w.u8(*d.items_capacity);
  if (d.containers_capacity) w.u8(*d.containers_capacity);
  if (d.ammo_type) w.u16(*d.ammo_type);
  if (d.value) w.u32(*d.value);
  if (d.usable) w.u32(*d.usable);
  if (d.use_radius) w.f32(*d.use_radius);
  if (d.target_type) w.u32(*d.target_type);
  if (d.ui_effects) w.u32(*d.ui_effects);
  if (d.combat_use) w.u8(*d.combat_use);
  if (d.structure) w.u16(*d.structure);
  if (d.max_structure) w.u16(*d.max_structure);
  if (d.stack_size) w.u16(*d.stack_size);
  if (d.max_stack_size) w.u16(*d.max_stack_size);
  if (d.container_id) w.u32(*d.container_id);
  if (d.wielder_id) w.u32(*d.wielder_id);
  if (d.valid_locations) w.u32(*d.valid_locations);
  if (d.currently_wielded_location) w.u32(*d.currently_wielded_location);
  if (d.priority) w.u32(*d.priority);
  if (d.radar_blip_color) w.u8(*d.radar_blip_color);
  if (d.radar_behavior) w.u8(*d.radar_behavior);
  if (d.pscript) w.u16(*d.pscript);
  if (d.workmanship) w.f32(*d.workmanship);
  if (d.burden) w.u16(*d.burden);
  if (d.spell) w.u16(*d.spell);
  if (d.house_owner) w.u32(*d.house_owner);
  if (d.house_restrictions) write_house_restrictions(w, *d.house_restrictions);
  if (d.hook_item_types) w.u32(*d.hook_item_types);
  if (d.monarch) w.u32(*d.monarch);
  if (d.hook_type) w.u16(*d.hook_type);
  if (d.icon_overlay) w.packed_did(*d.icon_overlay, kIconBase);
  if (d.icon_underlay) w.packed_did(*d.icon_underlay, kIconBase);
  if (d.material_type) w.u32(*d.material_type);
  if (d.cooldown_id) w.u32(*d.cooldown_id);
  if (d.cooldown_duration) w.f64(*d.cooldown_duration);
  if (d.pet_owner) w.u32(*d.pet_owner);
  w.align4();
}

}  // namespace dereth::protocol
