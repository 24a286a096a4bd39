#include "dereth/render/mesh.hpp"

#include <algorithm>
#include <map>
#include <type_traits>

#include <glm/common.hpp>

namespace dereth::render {

namespace {

template <class Vertex>
glm::vec2 uv_of(const Vertex& v, const std::vector<std::uint8_t>& uv_indices, std::size_t point) {
  if (point >= uv_indices.size()) return glm::vec2(0.0F);
  const std::size_t i = uv_indices[point];
  if (i >= v.uvs.size()) return glm::vec2(0.0F);
  return {v.uvs[i].u, v.uvs[i].v};
}

// One side of one polygon: a fan of vertices appended to `out`'s vertex list,
// its triangle indices to `indices`. GfxObj and CellStruct polygons alike.
template <class Vertex, class Poly>
void emit_side(const std::vector<Vertex>& vertices, const Poly& poly, bool negative, MeshData& out,
               std::vector<std::uint32_t>& indices) {
  const std::vector<std::uint8_t>& uv_indices =
      negative && poly.sides_type == 2 ? poly.neg_uv_indices
                                       : (poly.has_pos_uvs() ? poly.pos_uv_indices : std::vector<std::uint8_t>{});
  const auto base = static_cast<std::uint32_t>(out.vertices.size());
  const std::size_t n = poly.vertex_ids.size();
  for (std::size_t p = 0; p < n; ++p) {
    const auto& v = vertices[static_cast<std::size_t>(poly.vertex_ids[p])];
    MeshVertex mv;
    mv.position = v.origin;
    mv.normal = negative ? -v.normal : v.normal;
    mv.uv = uv_of(v, uv_indices, p);
    out.vertices.push_back(mv);
  }
  for (std::size_t p = 1; p + 1 < n; ++p) {
    const auto a = base;
    const auto b = base + static_cast<std::uint32_t>(p);
    const auto c = base + static_cast<std::uint32_t>(p + 1);
    if (negative) {
      indices.insert(indices.end(), {a, c, b});
    } else {
      indices.insert(indices.end(), {a, b, c});
    }
  }
}

// The polygons (but those `skip` names) to batches by surface index.
template <class Vertex, class Poly, class Skip>
MeshData build_mesh(const std::vector<Vertex>& vertices, const std::vector<Poly>& polygons, std::size_t surface_count,
                    Skip skip) {
  MeshData out;
  std::map<std::uint32_t, std::vector<std::uint32_t>> by_surface;
  for (std::size_t i = 0; i < polygons.size(); ++i) {
    const Poly& poly = polygons[i];
    if (skip(i)) continue;
    const bool vertices_ok =
        poly.vertex_ids.size() >= 3 && std::all_of(poly.vertex_ids.begin(), poly.vertex_ids.end(), [&](auto id) {
          if constexpr (std::is_signed_v<decltype(id)>) {
            if (id < 0) return false;
          }
          return static_cast<std::size_t>(id) < vertices.size();
        });
    const bool two_sided = poly.sides_type == 1 || poly.sides_type == 2;
    const std::int16_t neg_surface = poly.sides_type == 2 ? poly.neg_surface : poly.pos_surface;
    const auto surface_ok = [&](std::int16_t s) { return s >= 0 && static_cast<std::size_t>(s) < surface_count; };
    if (!vertices_ok || !surface_ok(poly.pos_surface) || (two_sided && !surface_ok(neg_surface))) {
      ++out.skipped_polygons;
      continue;
    }
    emit_side(vertices, poly, false, out, by_surface[static_cast<std::uint32_t>(poly.pos_surface)]);
    if (two_sided) emit_side(vertices, poly, true, out, by_surface[static_cast<std::uint32_t>(neg_surface)]);
  }
  for (auto& [surface, indices] : by_surface) {
    if (indices.empty()) continue;
    MeshBatch batch;
    batch.surface_index = surface;
    batch.first_index = static_cast<std::uint32_t>(out.indices.size());
    batch.index_count = static_cast<std::uint32_t>(indices.size());
    out.indices.insert(out.indices.end(), indices.begin(), indices.end());
    out.batches.push_back(batch);
  }
  if (!out.vertices.empty()) {
    out.bounds_min = out.bounds_max = out.vertices.front().position;
    for (const auto& v : out.vertices) {
      out.bounds_min = glm::min(out.bounds_min, v.position);
      out.bounds_max = glm::max(out.bounds_max, v.position);
    }
  }
  return out;
}

}  // namespace

MeshData build_gfx_obj_mesh(const dat::GfxObj& obj) {
  return build_mesh(obj.vertices, obj.polygons, obj.surfaces.size(), [](std::size_t) { return false; });
}

MeshData build_cell_struct_mesh(const dat::CellStruct& cs, std::size_t surface_count) {
  return build_mesh(cs.vertices, cs.polygons, surface_count, [&cs](std::size_t i) {
    return std::find(cs.portals.begin(), cs.portals.end(), i) != cs.portals.end();
  });
}

}  // namespace dereth::render
