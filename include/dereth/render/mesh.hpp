#pragma once
// GfxObj and CellStruct drawing polygons to indexed triangles, without GL.
//
// Each polygon is a convex fan: points p0..pn-1 give triangles (p0, pi, pi+1)
// in the stored order, which is counter-clockwise seen from the polygon's
// positive side in AC's right-handed Z-up world. Sides (spec 3.1):
//   sides_type 0 (and 3): the positive side only, pos surface and pos UVs;
//   sides_type 1: both sides, the negative side reuses the pos surface and UVs;
//   sides_type 2: both sides, the negative side with neg surface and neg UVs.
// The negative side is the same fan wound the other way with negated normals.
// Triangles are grouped into one batch per GfxObj surface index.
//
// DAT data is untrusted: a polygon with fewer than 3 points, a vertex id past
// the vertex array or a surface index past the surface list is skipped and
// counted; a missing UV (NoPos stippling, an index past the vertex's UVs)
// reads as (0, 0).

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"

namespace dereth::render {

struct MeshVertex {
  glm::vec3 position{0.0F};
  glm::vec3 normal{0.0F, 0.0F, 1.0F};
  glm::vec2 uv{0.0F};
  bool operator==(const MeshVertex&) const = default;
};

struct MeshBatch {
  std::uint32_t surface_index = 0;  // into GfxObj::surfaces
  std::uint32_t first_index = 0;    // into MeshData::indices
  std::uint32_t index_count = 0;    // a multiple of 3
  bool operator==(const MeshBatch&) const = default;
};

struct MeshData {
  std::vector<MeshVertex> vertices;
  std::vector<std::uint32_t> indices;
  std::vector<MeshBatch> batches;  // ascending surface_index, none empty
  std::size_t skipped_polygons = 0;
  glm::vec3 bounds_min{0.0F};
  glm::vec3 bounds_max{0.0F};

  [[nodiscard]] std::size_t triangle_count() const noexcept { return indices.size() / 3; }
};

[[nodiscard]] MeshData build_gfx_obj_mesh(const dat::GfxObj& obj);

// An EnvCell's structure: the CellStruct's drawing polygons but its portals
// (the doorways one sees through), with the same rules; surface indices
// index the EnvCell's surface list, `surface_count` long.
[[nodiscard]] MeshData build_cell_struct_mesh(const dat::CellStruct& cs, std::size_t surface_count);

}  // namespace dereth::render
