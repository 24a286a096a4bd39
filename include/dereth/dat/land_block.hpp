#pragma once
// LandBlock (cell dat 0xXXYYFFFF): a landblock's 9 x 9 terrain words and height
// bytes (CLandBlock::UnPack + CLandBlockStruct::UnPack,
// RE:src/PORTAL/ccell/CLandBlock.c, CLandBlockStruct.c), and the retail cell
// diagonal and triangle order that the renderer and the collision terrain share.
// Layout, vertex indexing and the terrain word's bits: docs/dat.md "LandBlock".

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

inline constexpr std::size_t kLandBlockSide = 9;  // vertices per side
inline constexpr std::size_t kLandBlockVertices = kLandBlockSide * kLandBlockSide;
inline constexpr std::size_t kLandBlockSize = 252;                     // whole record, DID included
inline constexpr float kLandCellLength = 24.0F;                        // metres between vertices
inline constexpr std::size_t kLandBlockCellSide = kLandBlockSide - 1;  // cells per side
inline constexpr std::size_t kLandBlockCells = kLandBlockCellSide * kLandBlockCellSide;
inline constexpr std::size_t kLandBlockTriangles = 2 * kLandBlockCells;  // two per cell

struct LandBlock {
  Did id = 0;
  std::uint32_t has_objects = 0;  // 1 when a LandBlockInfo 0xXXYYFFFE exists
  std::array<std::uint16_t, kLandBlockVertices> terrain{};
  std::array<std::uint8_t, kLandBlockVertices> height{};
  bool operator==(const LandBlock&) const = default;
};

// Exactly 252 bytes; the pad byte is ignored on read and written as 0.
Result<LandBlock> read_land_block(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_land_block(const LandBlock& block);
// Flags, counts and the corner vertex; not all 81 words.
void write_json(core::JsonWriter& j, const LandBlock& block);

[[nodiscard]] constexpr std::size_t land_block_vertex(std::size_t x, std::size_t y) noexcept {
  return x * kLandBlockSide + y;
}
// Terrain type, bits 2-6 (0 BarrenRock ... 31 DesolateLands).
[[nodiscard]] constexpr std::uint32_t terrain_type(std::uint16_t word) noexcept {
  return (word & 0x7CU) >> 2;
}
// Road bits, bits 0-1.
[[nodiscard]] constexpr std::uint32_t terrain_road(std::uint16_t word) noexcept {
  return word & 0x3U;
}
// Scenery index, bits 11-15.
[[nodiscard]] constexpr std::uint32_t terrain_scenery(std::uint16_t word) noexcept {
  return (word >> 11) & 0x1FU;
}
[[nodiscard]] constexpr std::uint16_t make_terrain_word(std::uint32_t road, std::uint32_t type,
                                                        std::uint32_t scenery) noexcept {
  return static_cast<std::uint16_t>((road & 0x3U) | ((type & 0x1FU) << 2) | ((scenery & 0x1FU) << 11));
}

// The diagonal that splits global land cell (gx, gy) = (block x * 8 + cell x,
// block y * 8 + cell y) into two triangles (CLandBlockStruct::ConstructPolygons
// 0x00531D10, acclient.c 354000): in wrapping uint32 arithmetic
//   s = gy * (214614067 * gx + 1813693831) - 1109124029 * gx - 1369149221
// and the cut runs south-west to north-east when s * 2^-32 >= 0.5 (retail
// multiplies by the float constant 2.3283064e-10, which is exactly 2^-32, in
// double, so this is s >= 0x80000000). Otherwise it runs north-west to
// south-east. One function for the renderer and the collision terrain.
[[nodiscard]] constexpr bool land_cell_split_sw_ne(std::uint32_t global_x, std::uint32_t global_y) noexcept {
  const std::uint32_t s = global_y * (214614067U * global_x + 1813693831U) - 1109124029U * global_x - 1369149221U;
  return static_cast<double>(s) * 0x1p-32 >= 0.5;
}

// The two triangles of land cell (x, y), as vertex indices (x*9 + y), in the
// order ConstructPolygons hands them to AddPolygon (spec/physics.md 6.3), with
// SW = (x, y), SE = (x+1, y), NW = (x, y+1), NE = (x+1, y+1):
//   SW->NE cut: (SW, SE, NE), (SW, NE, NW);  NW->SE cut: (SW, SE, NW), (NE, NW, SE).
// Every triangle winds counter-clockwise seen from above. x, y in 0..7.
using LandTriangle = std::array<std::uint16_t, 3>;
[[nodiscard]] constexpr std::array<LandTriangle, 2> land_cell_triangles(std::size_t x, std::size_t y,
                                                                        bool sw_ne) noexcept {
  const auto sw = static_cast<std::uint16_t>(land_block_vertex(x, y));
  const auto se = static_cast<std::uint16_t>(land_block_vertex(x + 1, y));
  const auto nw = static_cast<std::uint16_t>(land_block_vertex(x, y + 1));
  const auto ne = static_cast<std::uint16_t>(land_block_vertex(x + 1, y + 1));
  if (sw_ne) return {LandTriangle{sw, se, ne}, LandTriangle{sw, ne, nw}};
  return {LandTriangle{sw, se, nw}, LandTriangle{ne, nw, se}};
}

// LandDefs::Direction: where a landblock lies from the viewer's landblock,
// which of its edges border a coarser neighbour (CLandBlockStruct::TransAdjust).
enum class LandDirection : std::uint8_t {
  InViewerBlock = 0,
  NorthOfViewer = 1,
  SouthOfViewer = 2,
  EastOfViewer = 3,
  WestOfViewer = 4,
  NorthwestOfViewer = 5,
  SouthwestOfViewer = 6,
  NortheastOfViewer = 7,
  SoutheastOfViewer = 8,
  Unknown = 9,
};

// A landblock's detail in LScape's grid around the load point: `size` is
// the polygon size in cells (1, 2, 4 or 8: the block is 8 / size cells a
// side, CLandBlock::side_cell_count; only size 1 has land cells to collide
// with) and `dir` the edge transition.
struct BlockOrient {
  std::uint32_t size = 1;
  LandDirection dir = LandDirection::InViewerBlock;
  friend bool operator==(const BlockOrient&, const BlockOrient&) = default;
};

// LScape::get_block_orient 0x00504F90: for the block (ix, iy) of the grid
// centred on (mid_radius, mid_radius), with d the larger of |ix - mid| and
// |iy - mid|: size 1 within d 1, 2 at d 2, 4 at d 3 and 4, else 8 (and
// direction 0). The direction names the ring side the block is on, but
// only for blocks on the outer ring of their size (d == size: rings 1, 2
// and 4); the inner ring of size 4 (d 3) gets 0.
[[nodiscard]] BlockOrient get_block_orient(int mid_radius, int ix, int iy) noexcept;

}  // namespace dereth::dat
