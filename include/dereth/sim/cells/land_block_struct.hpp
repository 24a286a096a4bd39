#pragma once
// LandBlockStruct (retail CLandBlockStruct, RE ccell/CLandBlockStruct.c;
// spec/physics.md 6 and 5.7): a landblock's terrain as collision sees it, from
// a dat::LandBlock and the Region's height table, with CLandCell's pure geometry
// the transition needs (find_terrain_poly, the water depth). Block-local metres;
// cell (x, y) is index x*8 + y, outdoor cell id block | (1 + x*8 + y), polygons
// 2*(x*8 + y) and 2*(x*8 + y) + 1. docs/sim.md "Terrain and cells".

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include <glm/vec3.hpp>

#include "dereth/core/error.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::sim {

// Retail enum LandDefs::WaterType.
enum class WaterType : std::uint32_t { NotWater = 0, PartiallyWater = 1, EntirelyWater = 2 };

// Retail enum SURFCHAR.
enum class SurfChar : std::uint32_t { Solid = 0, Water = 1 };

// TERRAIN_SURF_CHAR[32] (acclient_data.h): terrain types 16..20 are water,
// every other type solid. The type is masked to 0..31.
[[nodiscard]] SurfChar terrain_surf_char(std::uint32_t terrain_type) noexcept;

// LandDefs::set_height_table 0x005A99E0: retail accepts a height table only
// when every one of its 256 entries is in [0, 800] (1000 sky height minus
// 200 max object height); NaN fails the compare. Refused here with the
// Region's id, the entry and its value; retail keeps the previous table.
[[nodiscard]] core::Result<void> check_height_table(const std::array<float, 256>& table, dat::Did region_id);

// A CPolygon of the land: three vertex indices (polygon order) and its plane.
struct LandPolygon {
  dat::LandTriangle vertex_ids{};
  dat::Plane plane;
  // CLandBlockStruct::AddPolygon: pos_surface 1 when any vertex z is not 0.
  bool pos_surface = false;
};

class LandBlockStruct {
 public:
  // The full-detail CLandBlockStruct::generate for the player's own blocks:
  // ConstructVertices, ConstructPolygons, CalcWater. Refused, naming the DAT
  // id: a height table entry outside [0, 800], NaN or infinite
  // (check_height_table, the Region's id); a block id that is not
  // 0xXXYYFFFF of a block on the world (XX, YY < 0xFF).
  [[nodiscard]] static core::Result<LandBlockStruct> build(const dat::LandBlock& block, const dat::LandDefs& defs,
                                                           dat::Did region_id);
  // The same from the record's bytes: dat::read_land_block's errors (a
  // record that is not exactly 252 bytes, a wrong DID) come back as they are.
  [[nodiscard]] static core::Result<LandBlockStruct> build(std::span<const std::uint8_t> bytes, dat::Did block_id,
                                                           const dat::LandDefs& defs, dat::Did region_id);

  // CLandCell::find_terrain_poly 0x00532CF0: the first of cell `cell_index`'s
  // two triangles (x*8 + y) whose 2D projection holds the block-local point
  // (point_in_poly2D, Positive side), or null: a point outside the cell, or an
  // index past 63. A point on the diagonal is in the first triangle.
  [[nodiscard]] const LandPolygon* find_terrain_poly(std::size_t cell_index, const glm::vec3& point) const noexcept;
  // The same in the cell under the point, cell (floor(x/24), floor(y/24))
  // with the block's east and north edges in the last cell; null off the
  // block (or NaN).
  [[nodiscard]] const LandPolygon* find_terrain_poly(const glm::vec3& point) const noexcept;

  // The terrain height under block-local (x, y): Plane::set_height on the
  // triangle find_terrain_poly gives (spec/physics.md 6.4); none off the
  // block.
  [[nodiscard]] std::optional<float> height_at(float x, float y) const noexcept;
  // The unit normal of the triangle under (x, y); none off the block.
  [[nodiscard]] std::optional<glm::vec3> normal_at(float x, float y) const noexcept;
  // Whether a triangle can be stood on: CPhysicsObj::is_valid_walkable on its
  // normal (normal.z >= floor_z 0.66417414).
  [[nodiscard]] static bool is_walkable(const LandPolygon& polygon) noexcept;

  // CLandBlockStruct::calc_water_depth 0x005315F0: for a partly-water cell,
  // the depth an object sinks by: 0.45 when the cell corner in the point's
  // quadrant is a water type, else 0.1. The quadrant: west when x <= the cell
  // centre's x (a NaN x counts as east), south when y <= its y (a NaN y
  // counts as south), so a point on a centre line takes the south or west
  // corner. Only the low word of `cell_id` matters; a cell id that is not an
  // outdoor cell on the world gives 0 (retail reads outside the terrain array).
  [[nodiscard]] float calc_water_depth(std::uint32_t cell_id, const glm::vec3& point) const noexcept;

  [[nodiscard]] std::uint32_t block_id() const noexcept { return block_id_; }
  [[nodiscard]] const std::array<glm::vec3, dat::kLandBlockVertices>& vertices() const noexcept { return vertices_; }
  [[nodiscard]] const std::array<LandPolygon, dat::kLandBlockTriangles>& polygons() const noexcept { return polygons_; }
  [[nodiscard]] const std::array<std::uint16_t, dat::kLandBlockVertices>& terrain() const noexcept { return terrain_; }
  // SWtoNEcut[x*8 + y] (false past cell 63, as every accessor below answers
  // an index past 63 with the empty value instead of throwing).
  [[nodiscard]] bool sw_to_ne_cut(std::size_t cell_index) const noexcept {
    return cell_index < sw_to_ne_cut_.size() && sw_to_ne_cut_[cell_index];
  }
  // The land cell's id (lcoord_to_gid of its lcoord) and its position's
  // origin, the cell centre ((2x + 1) * 12, (2y + 1) * 12, 0).
  [[nodiscard]] std::uint32_t cell_id(std::size_t cell_index) const noexcept {
    return cell_index < cell_ids_.size() ? cell_ids_[cell_index] : 0;
  }
  [[nodiscard]] static glm::vec3 cell_origin(std::size_t cell_index) noexcept;
  // The land cell's water_type (CalcWater) and the block's.
  [[nodiscard]] WaterType cell_water_type(std::size_t cell_index) const noexcept {
    return cell_index < cell_water_.size() ? cell_water_[cell_index] : WaterType::NotWater;
  }
  [[nodiscard]] WaterType water_type() const noexcept { return water_type_; }

 private:
  // CLandBlockStruct::ConstructPolygons 0x00531D10 (dat/land_block_geometry.hpp)
  void construct_polygons(std::uint32_t block_id) noexcept;
  // CLandBlockStruct::AddPolygon 0x005310D0
  void add_polygon(std::size_t index, const dat::LandTriangle& ids) noexcept;
  // CLandBlockStruct::CalcCellWater 0x00531550: whether any / every corner of
  // the cell is a water type.
  void calc_cell_water(std::size_t cell_x, std::size_t cell_y, bool& has_water, bool& all_water) const noexcept;
  // CLandBlockStruct::CalcWater 0x005327E0
  void calc_water() noexcept;

  std::uint32_t block_id_ = 0;
  std::array<std::uint16_t, dat::kLandBlockVertices> terrain_{};
  std::array<glm::vec3, dat::kLandBlockVertices> vertices_{};
  std::array<LandPolygon, dat::kLandBlockTriangles> polygons_{};
  std::array<bool, dat::kLandBlockCells> sw_to_ne_cut_{};
  std::array<std::uint32_t, dat::kLandBlockCells> cell_ids_{};
  std::array<WaterType, dat::kLandBlockCells> cell_water_{};
  WaterType water_type_ = WaterType::NotWater;
};

// CObjCell::get_water_depth 0x0052B8A0 for a land cell: 0 for a cell that is
// not water, 0.9 for one entirely water, and for a partly-water cell the
// block's calc_water_depth (0.1 when the cell has no landblock).
[[nodiscard]] float get_water_depth(WaterType cell_water_type, const LandBlockStruct* block, std::uint32_t cell_id,
                                    const glm::vec3& point) noexcept;

}  // namespace dereth::sim
