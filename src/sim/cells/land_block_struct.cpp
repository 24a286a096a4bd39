#include "dereth/sim/cells/land_block_struct.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "dereth/dat/land_block_geometry.hpp"
#include "dereth/sim/cells/land_defs.hpp"
#include "dereth/sim/collision/polygon.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

namespace {

// Retail's static ceilings for the height table (LandDefs::get_vars).
constexpr float kSkyHeight = 1000.0f;
constexpr float kMaxObjHeight = 200.0f;

core::Error land_error(dat::Did id, const char* type_name, std::string field, std::string detail) {
  core::Error e;
  e.kind = core::ErrorKind::Invalid;
  e.context = dat::record_context(id, type_name);
  e.field = std::move(field);
  e.detail = std::move(detail);
  return e;
}

}  // namespace

SurfChar terrain_surf_char(std::uint32_t terrain_type) noexcept {
  // TERRAIN_SURF_CHAR
  const std::uint32_t t = terrain_type & 0x1Fu;
  return t >= 16 && t <= 20 ? SurfChar::Water : SurfChar::Solid;
}

// LandDefs::set_height_table 0x005A99E0
core::Result<void> check_height_table(const std::array<float, 256>& table, dat::Did region_id) {
  const double ceiling = static_cast<double>(kSkyHeight) - static_cast<double>(kMaxObjHeight);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto h = static_cast<double>(table[i]);
    if (!(h >= 0.0 && ceiling >= h)) {
      return std::unexpected(land_error(region_id, "Region", "land_defs.land_height_table[" + std::to_string(i) + "]",
                                        "height " + std::to_string(table[i]) + " is not in [0, 800]"));
    }
  }
  return {};
}

core::Result<LandBlockStruct> LandBlockStruct::build(const dat::LandBlock& block, const dat::LandDefs& defs,
                                                     dat::Did region_id) {
  DERETH_CHECK(check_height_table(defs.land_height_table, region_id));
  if ((block.id & 0xFFFFu) != LandDefs::kLandBlockCell || !LandDefs::blockid_to_lcoord(block.id)) {
    return std::unexpected(
        land_error(block.id, "LandBlock", "id", "not the id 0xXXYYFFFF of a landblock on the world"));
  }
  LandBlockStruct s;
  s.block_id_ = block.id;
  s.terrain_ = block.terrain;
  // CLandBlockStruct::ConstructVertices 0x005328D0 (dat's one port)
  dat::construct_land_vertices(block, defs, dat::kLandBlockCellSide, s.vertices_);
  s.construct_polygons(block.id);
  s.calc_water();
  return s;
}

core::Result<LandBlockStruct> LandBlockStruct::build(std::span<const std::uint8_t> bytes, dat::Did block_id,
                                                     const dat::LandDefs& defs, dat::Did region_id) {
  DERETH_TRY(const dat::LandBlock block, dat::read_land_block(bytes, block_id));
  return build(block, defs, region_id);
}

// CLandBlockStruct::AddPolygon 0x005310D0
void LandBlockStruct::add_polygon(std::size_t index, const dat::LandTriangle& ids) noexcept {
  LandPolygon& p = polygons_[index];
  p.vertex_ids = ids;
  const std::array<glm::vec3, 3> v{vertices_[ids[0]], vertices_[ids[1]], vertices_[ids[2]]};
  p.plane = make_plane(v);
  p.pos_surface = v[0].z != 0.0f || v[1].z != 0.0f || v[2].z != 0.0f;
}

// CLandBlockStruct::ConstructPolygons 0x00531D10 (dat's one port), each
// polygon through AddPolygon, and each land cell's id.
void LandBlockStruct::construct_polygons(std::uint32_t block_id) noexcept {
  // build() only passes ids of blocks on the world, so the lcoord exists.
  const LCoord base = LandDefs::blockid_to_lcoord(block_id).value_or(LCoord{});
  dat::construct_land_polygons(
      block_id, dat::kLandBlockCellSide,
      [&](std::size_t cell, bool cut, const dat::LandTriangle& first, const dat::LandTriangle& second) {
        sw_to_ne_cut_[cell] = cut;
        add_polygon(2 * cell, first);
        add_polygon(2 * cell + 1, second);
        const int gx = base.x + static_cast<int>(cell / dat::kLandBlockCellSide);
        const int gy = base.y + static_cast<int>(cell % dat::kLandBlockCellSide);
        cell_ids_[cell] = LandDefs::lcoord_to_gid(gx, gy);
      });
}

glm::vec3 LandBlockStruct::cell_origin(std::size_t cell_index) noexcept {
  const auto x = static_cast<float>(2 * (cell_index / dat::kLandBlockCellSide) + 1);
  const auto y = static_cast<float>(2 * (cell_index % dat::kLandBlockCellSide) + 1);
  return {x * LandDefs::kHalfSquareLength, y * LandDefs::kHalfSquareLength, 0.0f};
}

// CLandBlockStruct::CalcCellWater 0x00531550
void LandBlockStruct::calc_cell_water(std::size_t cell_x, std::size_t cell_y, bool& has_water,
                                      bool& all_water) const noexcept {
  has_water = false;
  all_water = true;
  for (std::size_t vx = cell_x; vx <= cell_x + 1; ++vx) {
    for (std::size_t vy = cell_y; vy <= cell_y + 1; ++vy) {
      if (terrain_surf_char(dat::terrain_type(terrain_[vx * dat::kLandBlockSide + vy])) == SurfChar::Water) {
        has_water = true;
      } else {
        all_water = false;
      }
    }
  }
}

// CLandBlockStruct::CalcWater 0x005327E0
void LandBlockStruct::calc_water() noexcept {
  bool block_has_water = false;
  bool block_all_water = true;
  for (std::size_t x = 0; x < dat::kLandBlockCellSide; ++x) {
    for (std::size_t y = 0; y < dat::kLandBlockCellSide; ++y) {
      bool has_water = false;
      bool all_water = false;
      calc_cell_water(x, y, has_water, all_water);
      WaterType& cell = cell_water_[x * dat::kLandBlockCellSide + y];
      if (!has_water) {
        block_all_water = false;
        cell = WaterType::NotWater;
      } else if (all_water) {
        block_has_water = true;
        cell = WaterType::EntirelyWater;
      } else {
        block_has_water = true;
        block_all_water = false;
        cell = WaterType::PartiallyWater;
      }
    }
  }
  if (!block_has_water) {
    water_type_ = WaterType::NotWater;
  } else {
    water_type_ = block_all_water ? WaterType::EntirelyWater : WaterType::PartiallyWater;
  }
}

// CLandBlockStruct::calc_water_depth 0x005315F0
float LandBlockStruct::calc_water_depth(std::uint32_t cell_id, const glm::vec3& point) const noexcept {
  if (!LandDefs::inbound_valid_cellid(cell_id) || !LandDefs::is_outdoor_cell(cell_id)) return 0.0f;
  const std::uint32_t index = (cell_id & 0xFFFFu) - 1u;
  const std::size_t cx = index >> 3;
  const std::size_t cy = index & 7u;
  const auto half = static_cast<double>(LandDefs::kHalfSquareLength);
  const double centre_x = (static_cast<double>(cx) + static_cast<double>(cx) + 1.0) * half;
  const double centre_y = (static_cast<double>(cy) + static_cast<double>(cy) + 1.0) * half;
  // The x87 compares: west is "centre >= x" (false for NaN); south is "not
  // y > centre" (the unordered flags read as south).
  const bool west = centre_x >= static_cast<double>(point.x);
  const bool south = !(static_cast<double>(point.y) > centre_y);
  const std::size_t vx = west ? cx : cx + 1;
  const std::size_t vy = south ? cy : cy + 1;
  const SurfChar corner = terrain_surf_char(dat::terrain_type(terrain_[vx * dat::kLandBlockSide + vy]));
  return corner == SurfChar::Water ? 0.45f : 0.1f;
}

// CLandCell::find_terrain_poly 0x00532CF0
const LandPolygon* LandBlockStruct::find_terrain_poly(std::size_t cell_index, const glm::vec3& point) const noexcept {
  if (cell_index >= dat::kLandBlockCells) return nullptr;
  for (std::size_t k = 0; k < 2; ++k) {
    const LandPolygon& p = polygons_[2 * cell_index + k];
    const std::array<glm::vec3, 3> v{vertices_[p.vertex_ids[0]], vertices_[p.vertex_ids[1]],
                                     vertices_[p.vertex_ids[2]]};
    if (point_in_poly2d(v, point, Sidedness::Positive)) return &p;
  }
  return nullptr;
}

const LandPolygon* LandBlockStruct::find_terrain_poly(const glm::vec3& point) const noexcept {
  const float side = LandDefs::kBlockLength;
  if (!(point.x >= 0.0f && point.x <= side && point.y >= 0.0f && point.y <= side)) return nullptr;
  const auto last = static_cast<int>(dat::kLandBlockCellSide) - 1;
  const int cx = std::min(static_cast<int>(std::floor(point.x / LandDefs::kSquareLength)), last);
  const int cy = std::min(static_cast<int>(std::floor(point.y / LandDefs::kSquareLength)), last);
  return find_terrain_poly(static_cast<std::size_t>(cx) * dat::kLandBlockCellSide + static_cast<std::size_t>(cy),
                           point);
}

std::optional<float> LandBlockStruct::height_at(float x, float y) const noexcept {
  glm::vec3 p(x, y, 0.0f);
  const LandPolygon* poly = find_terrain_poly(p);
  if (poly == nullptr || !set_height(poly->plane, p)) return std::nullopt;
  return p.z;
}

std::optional<glm::vec3> LandBlockStruct::normal_at(float x, float y) const noexcept {
  const LandPolygon* poly = find_terrain_poly(glm::vec3(x, y, 0.0f));
  if (poly == nullptr) return std::nullopt;
  return poly->plane.normal;
}

bool LandBlockStruct::is_walkable(const LandPolygon& polygon) noexcept {
  return is_valid_walkable(polygon.plane.normal.z);
}

// CObjCell::get_water_depth 0x0052B8A0
float get_water_depth(WaterType cell_water_type, const LandBlockStruct* block, std::uint32_t cell_id,
                      const glm::vec3& point) noexcept {
  switch (cell_water_type) {
    case WaterType::NotWater: return 0.0f;
    case WaterType::EntirelyWater: return 0.9f;
    case WaterType::PartiallyWater: return block != nullptr ? block->calc_water_depth(cell_id, point) : 0.1f;
  }
  return 0.0f;
}

}  // namespace dereth::sim
