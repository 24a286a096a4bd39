#pragma once
// GfxObj and CellStruct drawing polygons to indexed triangles, without GL: each
// polygon a fan, its sides as its sides_type says, one batch per surface
// index; malformed polygons are skipped and counted. The rules: docs/render.md
// "Meshes and GPU assets".

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
