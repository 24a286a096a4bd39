#include "dereth/render/terrain.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "dereth/core/log.hpp"
#include "dereth/dat/land_block_geometry.hpp"
#include "dereth/render/material.hpp"

namespace dereth::render {

namespace {
constexpr int kMinSide = static_cast<int>(LandBlockStruct::kSideCellCount);  // one texel a cell
}  // namespace

glm::vec3 land_block_origin(std::uint32_t block_id) noexcept {
  return {static_cast<float>(block_id >> 24) * kLandBlockLength,
          static_cast<float>((block_id >> 16) & 0xFFU) * kLandBlockLength, 0.0F};
}

bool land_block_at(const glm::vec3& global, std::uint32_t& block_id) noexcept {
  if (!std::isfinite(global.x) || !std::isfinite(global.y)) return false;
  const float bx = std::floor(global.x / kLandBlockLength);
  const float by = std::floor(global.y / kLandBlockLength);
  if (bx < 0.0F || by < 0.0F || bx > 255.0F || by > 255.0F) return false;
  block_id = (static_cast<std::uint32_t>(bx) << 24) | (static_cast<std::uint32_t>(by) << 16) | 0xFFFFU;
  return true;
}

LandBlockStruct::LandBlockStruct() {
  init_pv_arrays();
}

// CLandBlockStruct::generate 0x00532BB0
bool LandBlockStruct::generate(const dat::LandBlock& block, const dat::LandDefs& defs, std::uint32_t poly_size,
                               LandDirection tdir) {
  if (poly_size != 1 && poly_size != 2 && poly_size != 4 && poly_size != 8) return false;
  const std::size_t cells = 8 / poly_size;
  if (side_cell_count == cells && trans_dir == tdir) return false;
  const bool resized = side_cell_count != cells;
  if (resized) {
    side_cell_count = side_polygon_count = cells;
    side_vertex_count = cells + 1;
    init_pv_arrays();
  }
  trans_dir = tdir;
  construct_vertices(block, defs);
  if (trans_dir != LandDirection::InViewerBlock && side_cell_count > 1 && side_cell_count < 8) {
    trans_adjust(block, defs);
  }
  // Retail then constructs the polygons (and UVs, water) on a resize, else
  // only remakes the planes; the triangles here hold indices, not planes.
  if (resized) construct_polygons(block.id);
  return resized;
}

// CLandBlockStruct::InitPVArrays 0x00530E90
void LandBlockStruct::init_pv_arrays() {
  const std::size_t num_vert = side_vertex_count * side_vertex_count;
  const std::size_t num_poly = side_polygon_count * side_polygon_count;
  vertices.assign(num_vert, glm::vec3(0.0F));
  vertex_normals.assign(num_vert, glm::vec3(0.0F));
  vertex_lighting.assign(num_vert, glm::vec3(0.0F));
  sw_to_ne.assign(num_poly, false);
  polygons.assign(2 * num_poly, Triangle{});
}

// CLandBlockStruct::ConstructVertices 0x005328D0 (dat's one port)
void LandBlockStruct::construct_vertices(const dat::LandBlock& block, const dat::LandDefs& defs) {
  dat::construct_land_vertices(block, defs, side_cell_count, vertices);
}

// CLandBlockStruct::ConstructPolygons 0x00531D10 (dat's one port)
void LandBlockStruct::construct_polygons(std::uint32_t block_id) {
  dat::construct_land_polygons(block_id, side_cell_count,
                               [this](std::size_t cell, bool cut, const Triangle& first, const Triangle& second) {
                                 sw_to_ne[cell] = cut;
                                 polygons[2 * cell] = first;
                                 polygons[2 * cell + 1] = second;
                               });
}

// CLandBlockStruct::TransAdjust 0x005323D0
void LandBlockStruct::trans_adjust(const dat::LandBlock& block, const dat::LandDefs& defs) {
  const std::size_t n = side_vertex_count;
  const std::size_t last = side_polygon_count;  // the far edge's vertex index
  const auto z = [&](std::size_t ix, std::size_t iy) -> float& { return vertices[ix * n + iy].z; };
  const auto d = trans_dir;
  using enum LandDirection;
  if (d == NorthwestOfViewer || d == NorthOfViewer || d == NortheastOfViewer) {  // the north edge
    for (std::size_t i = 1; i < last; i += 2) z(i, last) = (z(i - 1, last) + z(i + 1, last)) * 0.5F;
  }
  if (d == NorthwestOfViewer || d == WestOfViewer || d == SouthwestOfViewer) {  // the west edge
    for (std::size_t i = 1; i < last; i += 2) z(0, i) = (z(0, i - 1) + z(0, i + 1)) * 0.5F;
  }
  if (d == SouthwestOfViewer || d == SouthOfViewer || d == SoutheastOfViewer) {  // the south edge
    for (std::size_t i = 1; i < last; i += 2) z(i, 0) = (z(i - 1, 0) + z(i + 1, 0)) * 0.5F;
  }
  if (d == SoutheastOfViewer || d == EastOfViewer || d == NortheastOfViewer) {  // the east edge
    for (std::size_t i = 1; i < last; i += 2) z(last, i) = (z(last, i - 1) + z(last, i + 1)) * 0.5F;
  }
  if (side_cell_count != 4) return;
  // The edge towards the viewer, against the full-detail heights along it:
  // coarse vertex i is full vertex 2i; h(k) is full vertex 2i + k - 2.
  const auto h = [&](std::size_t fx, std::size_t fy) {
    return dat::land_height(defs, block.height[dat::land_block_vertex(fx, fy)]);
  };
  const auto lower = [](float& v, float a, float b) { v = std::min(v, a + a - b); };
  for (std::size_t i = 1; i < last; i += 2) {
    const std::size_t f = 2 * i;
    switch (d) {
      case NorthOfViewer:  // its south edge (y 0) borders the viewer's ring
        lower(z(i, 0), h(f - 1, 0), h(f - 2, 0));
        lower(z(i, 0), h(f + 1, 0), h(f + 2, 0));
        break;
      case SouthOfViewer:  // its north edge (y 8)
        lower(z(i, last), h(f - 1, 8), h(f - 2, 8));
        lower(z(i, last), h(f + 1, 8), h(f + 2, 8));
        break;
      case EastOfViewer:  // its west edge (x 0)
        lower(z(0, i), h(0, f - 1), h(0, f - 2));
        lower(z(0, i), h(0, f + 1), h(0, f + 2));
        break;
      case WestOfViewer:  // its east edge (x 8)
        lower(z(last, i), h(8, f - 1), h(8, f - 2));
        lower(z(last, i), h(8, f + 1), h(8, f + 2));
        break;
      default: break;
    }
  }
}

float LandBlockStruct::height_at(float x, float y) const noexcept {
  const float cell = kLandBlockLength / static_cast<float>(side_cell_count);
  const float max = static_cast<float>(side_cell_count) - 1e-4F;
  const float fx = std::clamp(std::isfinite(x) ? x / cell : 0.0F, 0.0F, max);
  const float fy = std::clamp(std::isfinite(y) ? y / cell : 0.0F, 0.0F, max);
  const auto cx = static_cast<std::size_t>(fx);
  const auto cy = static_cast<std::size_t>(fy);
  const float u = fx - static_cast<float>(cx);
  const float v = fy - static_cast<float>(cy);
  const std::size_t n = side_vertex_count;
  const float h00 = vertices[cx * n + cy].z;
  const float h10 = vertices[(cx + 1) * n + cy].z;
  const float h01 = vertices[cx * n + cy + 1].z;
  const float h11 = vertices[(cx + 1) * n + cy + 1].z;
  if (sw_to_ne[cx * side_polygon_count + cy]) {
    return u >= v ? h00 + u * (h10 - h00) + v * (h11 - h10) : h00 + v * (h01 - h00) + u * (h11 - h01);
  }
  return u + v <= 1.0F ? h00 + u * (h10 - h00) + v * (h01 - h00)
                       : h11 + (1.0F - u) * (h01 - h11) + (1.0F - v) * (h10 - h11);
}

// CLandBlockStruct::calc_lighting 0x00531700
void LandBlockStruct::calc_lighting(const glm::vec3& sunlight, const glm::vec3& sun_color, const glm::vec3& ambient) {
  std::vector<glm::vec3> sum(vertices.size(), glm::vec3(0.0F));
  for (const auto& tri : polygons) {
    const glm::vec3 n = glm::cross(vertices[tri[1]] - vertices[tri[0]], vertices[tri[2]] - vertices[tri[0]]);
    const float len = glm::length(n);
    const glm::vec3 unit = len > 0.0F ? n / len : glm::vec3(0.0F);
    for (const std::uint16_t v : tri) sum[v] += unit;
  }
  for (std::size_t v = 0; v < vertices.size(); ++v) {
    const float len = glm::length(sum[v]);
    vertex_normals[v] = len < 0.0002F ? glm::vec3(0.0F, 0.0F, 1.0F) : sum[v] * (1.0F / len);
    const float sun = std::max(glm::dot(vertex_normals[v], sunlight), 0.0F);
    vertex_lighting[v] = glm::min(sun_color * sun + ambient, glm::vec3(1.0F));
  }
}

TerrainMesh build_terrain_mesh(const dat::LandBlock& block, const dat::LandDefs& defs) {
  return build_terrain_mesh(block, defs, 1, LandDirection::InViewerBlock);
}

TerrainMesh build_terrain_mesh(const dat::LandBlock& block, const dat::LandDefs& defs, std::uint32_t poly_size,
                               LandDirection trans_dir) {
  TerrainMesh mesh;
  mesh.block_id = block.id;
  mesh.origin = land_block_origin(block.id);
  mesh.poly_size = poly_size;
  mesh.trans_dir = trans_dir;
  LandBlockStruct s;
  if (poly_size == 1) {
    s.construct_vertices(block, defs);
    s.construct_polygons(block.id);
  } else if (!s.generate(block, defs, poly_size, trans_dir)) {
    return mesh;
  }
  s.calc_lighting(glm::vec3(0.0F, 0.0F, 1.0F), glm::vec3(0.0F), glm::vec3(0.0F));  // the normals
  mesh.vertices.reserve(s.polygons.size() * 3);
  const float cell = kLandBlockLength / static_cast<float>(LandBlockStruct::kSideCellCount);
  const std::size_t step = LandBlockStruct::kSideCellCount / s.side_cell_count;
  const auto terrain_at = [&](std::uint16_t v) {  // the full-detail vertex under coarse vertex v
    const std::size_t ix = v / s.side_vertex_count;
    const std::size_t iy = v % s.side_vertex_count;
    return static_cast<float>(dat::terrain_type(block.terrain[dat::land_block_vertex(ix * step, iy * step)]));
  };
  for (const auto& tri : s.polygons) {
    const glm::vec3 layers(terrain_at(tri[0]), terrain_at(tri[1]), terrain_at(tri[2]));
    for (std::size_t k = 0; k < 3; ++k) {
      TerrainVertex v;
      v.position = s.vertices[tri[k]];
      v.normal = s.vertex_normals[tri[k]];
      v.uv = glm::vec2(v.position.x / cell, v.position.y / cell);
      v.weight = glm::vec3(k == 0 ? 1.0F : 0.0F, k == 1 ? 1.0F : 0.0F, k == 2 ? 1.0F : 0.0F);
      v.layers = layers;
      mesh.vertices.push_back(v);
    }
  }
  return mesh;
}

std::size_t surface_bytes(int side) noexcept {
  std::size_t bytes = 0;
  for (auto s = static_cast<std::size_t>(std::max(side, 1));; s = std::max<std::size_t>(s / 2, 1)) {
    bytes += s * s * 4;
    if (s == 1) break;
  }
  return bytes;
}

int surface_side(int cell_texels, std::size_t view_blocks, std::size_t budget_bytes) noexcept {
  int side = std::max(cell_texels, 1) * static_cast<int>(LandBlockStruct::kSideCellCount);
  const std::size_t share = budget_bytes / std::max<std::size_t>(view_blocks, 1);
  while (side > kMinSide && surface_bytes(side) > share) side /= 2;
  return std::max(side, kMinSide);
}

Image resample_nearest(const Image& src, int w, int h) {
  Image out(w, h);
  if (src.empty() || out.empty() || src.pixels.size() != src.byte_size()) return out;
  for (int y = 0; y < h; ++y) {
    const int sy = static_cast<int>((static_cast<long long>(y) * src.height) / h);
    for (int x = 0; x < w; ++x) {
      const int sx = static_cast<int>((static_cast<long long>(x) * src.width) / w);
      out.set(x, y, src.at(sx, sy));
    }
  }
  return out;
}

TerrainLayers build_terrain_layers(const dat::Region& region, dat::RecordCache* records, int size) {
  TerrainLayers out;
  out.size = std::clamp(size, 1, 1024);
  out.layers.reserve(kTerrainLayerCount);
  const auto& types = region.terrain.terrain_types;
  for (std::size_t t = 0; t < kTerrainLayerCount; ++t) {
    std::array<std::uint8_t, 4> fill{128, 128, 128, 255};
    if (t < types.size()) {
      const std::uint32_t c = types[t].color;
      fill = {static_cast<std::uint8_t>((c >> 16) & 0xFF), static_cast<std::uint8_t>((c >> 8) & 0xFF),
              static_cast<std::uint8_t>(c & 0xFF), 255};
    }
    out.layers.emplace_back(out.size, out.size, fill);
  }
  if (records == nullptr) return out;
  for (const auto& tex : region.terrain.tex_merge.terrain_textures) {
    if (tex.terrain_type >= kTerrainLayerCount || tex.texture == 0) continue;
    auto image = load_texture(*records, tex.texture, 0, false);
    if (!image) {
      ++out.failures;
      core::logger(core::Module::Render)
          ->warn("terrain type {} texture: {}", tex.terrain_type, image.error().message());
      continue;
    }
    Image layer = resample_nearest(*image, out.size, out.size);
    for (std::size_t i = 3; i < layer.pixels.size(); i += 4) layer.pixels[i] = 255;
    out.layers[tex.terrain_type] = std::move(layer);
  }
  return out;
}

}  // namespace dereth::render
