#pragma once
// LandBlockInfo (cell dat 0xXXYYFFFE): a landblock's EnvCell count, static
// objects, buildings and restriction table (CLandBlockInfo::UnPack,
// RE:src/PORTAL/ccell/CLandBlockInfo.c; CBldPortal::UnPack). Layout:
// docs/dat.md "LandBlockInfo, EnvCell".

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

// A static object placement (also used by EnvCell).
struct Stab {
  Did id = 0;  // Setup 0x02... or GfxObj 0x01...
  Frame frame;
  bool operator==(const Stab&) const = default;
};

Result<Stab> read_stab(ByteReader& r, std::string_view field);
void write_stab(ByteWriter& w, const Stab& stab);

namespace building_portal_flags {
inline constexpr std::uint16_t kExactMatch = 0x1;
inline constexpr std::uint16_t kPortalSide = 0x2;
}  // namespace building_portal_flags

struct BuildingPortal {
  std::uint16_t flags = 0;
  std::uint16_t other_cell_id = 0;
  std::uint16_t other_portal_id = 0;
  std::vector<std::uint16_t> stab_list;  // cells (low 16 bits) that see through this portal
  bool operator==(const BuildingPortal&) const = default;
};

struct BuildingInfo {
  Did model_id = 0;
  Frame frame;
  std::uint32_t num_leaves = 0;
  std::vector<BuildingPortal> portals;
  bool operator==(const BuildingInfo&) const = default;
};

struct RestrictionEntry {
  std::uint32_t key = 0;    // land cell id
  std::uint32_t value = 0;  // restriction object id
  bool operator==(const RestrictionEntry&) const = default;
};

inline constexpr std::uint16_t kLandBlockInfoHasRestrictions = 0x1;

struct LandBlockInfo {
  Did id = 0;
  std::uint32_t num_cells = 0;
  std::vector<Stab> objects;
  std::vector<BuildingInfo> buildings;
  // The u16 beside numBuildings. Bit 0 decides whether the restriction table
  // is on disk; the other bits are kept as read.
  std::uint16_t pack_flags = 0;
  std::uint16_t restriction_buckets = 8;  // stored only with the table
  std::vector<RestrictionEntry> restrictions;
  [[nodiscard]] bool has_restrictions() const noexcept { return (pack_flags & kLandBlockInfoHasRestrictions) != 0; }
  bool operator==(const LandBlockInfo&) const = default;
};

Result<LandBlockInfo> read_land_block_info(std::span<const std::uint8_t> bytes, Did id);
// Writes the restriction table iff has_restrictions().
std::vector<std::uint8_t> write_land_block_info(const LandBlockInfo& info);
void write_json(core::JsonWriter& j, const LandBlockInfo& info);

}  // namespace dereth::dat
