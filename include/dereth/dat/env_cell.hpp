#pragma once
// EnvCell (cell dat 0xXXYY0100..0xXXYYFFFD): an indoor cell, its surfaces,
// Environment geometry, frame, portals, visible cells and static objects
// (CEnvCell::UnPack, RE:src/PORTAL/ccell/CEnvCell.c). Layout: docs/dat.md
// "LandBlockInfo, EnvCell".

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

namespace env_cell_flags {
inline constexpr std::uint32_t kSeenOutside = 0x1;
inline constexpr std::uint32_t kHasStaticObjs = 0x2;
inline constexpr std::uint32_t kHasRestrictionObj = 0x8;
}  // namespace env_cell_flags

inline constexpr std::uint16_t kCellPortalOutside = 0xFFFF;

struct CellPortal {
  std::uint16_t flags = 0;
  std::uint16_t polygon_index = 0;  // the portal polygon in the CellStruct
  std::uint16_t other_cell_id = 0;  // low 16 bits; kCellPortalOutside leads outdoors
  std::uint16_t other_portal_id = 0;
  bool operator==(const CellPortal&) const = default;
};

struct EnvCell {
  Did id = 0;
  // Decides which optional parts are on disk: static_objects iff
  // kHasStaticObjs, restriction_obj iff kHasRestrictionObj.
  std::uint32_t flags = 0;
  std::vector<std::uint16_t> surfaces;  // low 16 bits of 0x08xxxxxx Surface DIDs (at most 255)
  std::uint16_t environment_id = 0;     // low 16 bits of a 0x0Dxxxxxx Environment
  std::uint16_t cell_struct = 0;        // CellStruct id within that Environment
  Frame position;
  std::vector<CellPortal> portals;           // at most 255
  std::vector<std::uint16_t> visible_cells;  // low 16 bits of cell ids
  std::vector<Stab> static_objects;
  std::uint32_t restriction_obj = 0;

  [[nodiscard]] Did surface_did(std::size_t i) const { return 0x08000000U | surfaces.at(i); }
  [[nodiscard]] Did environment_did() const noexcept { return 0x0D000000U | environment_id; }
  bool operator==(const EnvCell&) const = default;
};

// Fails (Invalid) when the stored cellId differs from the DID.
Result<EnvCell> read_env_cell(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_env_cell(const EnvCell& cell);
void write_json(core::JsonWriter& j, const EnvCell& cell);

}  // namespace dereth::dat
