#pragma once
// LandDefs (retail LandDefs, RE geometry/LandDefs.c and helpers the linker
// placed elsewhere; spec/physics.md 4.2): the world grid of landblocks and
// outdoor cells, and the conversions between cell ids, lcoords and block
// offsets. The id scheme and lcoords: docs/dat.md "Format, as implemented";
// each function's retail quirks: docs/sim.md "Terrain and cells".
// `sim::Position` (position.hpp) keeps its free functions; they call these.

#include <cstdint>
#include <optional>

#include <glm/vec3.hpp>

namespace dereth::sim {

// A global land-cell coordinate (retail passes it as two ints).
struct LCoord {
  int x = 0;  // east
  int y = 0;  // north
  bool operator==(const LCoord&) const = default;
};

// The retail LandDefs functions are static: a struct, not an object.
struct LandDefs {
  static constexpr int kLandLength = 2040;           // cells across the world (255 * 8)
  static constexpr int kBlockSide = 8;               // cells per landblock side
  static constexpr float kSquareLength = 24.0f;      // metres per cell
  static constexpr float kBlockLength = 192.0f;      // metres per landblock (flt_8EDE44 = 24 * 8)
  static constexpr float kHalfSquareLength = 12.0f;  // flt_8EDE48 = 24 * 0.5
  static constexpr std::uint32_t kLastOutdoorCell = 0x40;
  static constexpr std::uint32_t kFirstEnvCell = 0x100;
  static constexpr std::uint32_t kLastEnvCell = 0xFFFD;
  static constexpr std::uint32_t kLandBlockCell = 0xFFFF;

  // The cell-range test that opens inbound_valid_cellid, get_outside_lcoord
  // and adjust_to_outside: the low word is 1..0x40, 0x100..0xFFFD or 0xFFFF
  // (0xFFFE, the LandBlockInfo, and 0x41..0xFF are not cells).
  [[nodiscard]] static bool is_valid_cell(std::uint32_t cell_id) noexcept;
  // The low word is an outdoor land cell (1..0x40).
  [[nodiscard]] static bool is_outdoor_cell(std::uint32_t cell_id) noexcept;
  // The outdoor cell index of cell (cx, cy) in 0..7: 1 + cx*8 + cy.
  [[nodiscard]] static constexpr std::uint32_t outdoor_cell_index(std::uint32_t cx, std::uint32_t cy) noexcept {
    return 1u + cx * 8u + cy;
  }
  // The block's own id 0xXXYYFFFF for any cell id in it.
  [[nodiscard]] static constexpr std::uint32_t block_id(std::uint32_t cell_id) noexcept {
    return (cell_id & 0xFFFF0000u) | kLandBlockCell;
  }

  // LandDefs::in_bounds 0x0043D650: 0 <= x, y < 2040.
  [[nodiscard]] static bool in_bounds(int x, int y) noexcept;
  // LandDefs::inbound_valid_cellid 0x004979A0: a valid cell range whose
  // block's lcoord is in the world (block 0xFF.. is not: its x is 2040).
  [[nodiscard]] static bool inbound_valid_cellid(std::uint32_t cell_id) noexcept;
  // LandDefs::blockid_to_lcoord 0x0043D680: the lcoord of the block's
  // south-west cell, (XX*8, YY*8); none for id 0 or a block off the world
  // (XX or YY 0xFF).
  [[nodiscard]] static std::optional<LCoord> blockid_to_lcoord(std::uint32_t block_id) noexcept;
  // LandDefs::gid_to_lcoord 0x00497A90: the lcoord of an outdoor cell; none
  // for an EnvCell, the landblock, an invalid cell or a block off the world.
  [[nodiscard]] static std::optional<LCoord> gid_to_lcoord(std::uint32_t cell_id) noexcept;
  // LandDefs::lcoord_to_gid 0x004A19A0: the outdoor cell id of an lcoord,
  // 0 when it is off the world.
  [[nodiscard]] static std::uint32_t lcoord_to_gid(int x, int y) noexcept;
  // LandDefs::get_outside_lcoord 0x005A9B00: the lcoord the block-local
  // point `loc` lies in, counted from the block of `cell_id` (its own cell
  // index is not used): (XX*8 + floor(x/24), YY*8 + floor(y/24)); none for an
  // invalid cell range or an lcoord off the world. As in retail the floors
  // go through a 64-bit float-to-int conversion whose low 32 bits are kept:
  // NaN, infinity and |floor| >= 2^63 give 0 (the "integer indefinite"), and
  // larger floors wrap, so such points land in the block's own column or row.
  [[nodiscard]] static std::optional<LCoord> get_outside_lcoord(std::uint32_t cell_id, const glm::vec3& loc) noexcept;
  // LandDefs::adjust_to_outside 0x005A9BC0: re-homes a block-local position
  // into the outdoor cell that holds it. |x| or |y| under EPSILON snaps to 0;
  // the cell becomes lcoord_to_gid(get_outside_lcoord) and x, y lose whole
  // landblocks (x -= floor(x/192)*192, in double, stored as float). Fails
  // (cell = 0, the origin as snapped) for an invalid cell range or a point off
  // the world. z is never touched.
  static bool adjust_to_outside(std::uint32_t& cell_id, glm::vec3& loc) noexcept;
  // LandDefs::get_block_offset 0x0043E630: the metres from the block of
  // `cell_from` to the block of `cell_to`: zero when the top 16 bits agree,
  // else ((toX - fromX)*24, (toY - fromY)*24, 0) over the blocks' lcoords.
  // Retail's zero-id cases are kept: a 0 `cell_from` counts as lcoord (0, 0);
  // a 0 `cell_to` uses `cell_from` itself as its lcoord x and y (a
  // meaningless huge offset, not a crash).
  [[nodiscard]] static glm::vec3 get_block_offset(std::uint32_t cell_from, std::uint32_t cell_to) noexcept;
  // LandDefs::within_block 0x0050E800: radius <= x, y < 192 - radius.
  [[nodiscard]] static bool within_block(const glm::vec3& point, float radius) noexcept;
};

}  // namespace dereth::sim
