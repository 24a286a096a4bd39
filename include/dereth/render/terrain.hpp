#pragma once
// Landblock terrain without GL: retail's vertex grid and cell triangulation
// (CLandBlockStruct), and the triangle lists and texture layers the renderer
// draws.
//
// A landblock is 9x9 vertices 24 m apart (8x8 cells of 192 m in all); vertex
// (x, y) has index x*9 + y and sits at (x*24, y*24, landHeightTable[height])
// in block-local metres (spec/dat-format.md 3.10, spec/physics.md 6). Each
// cell is split into two triangles along a diagonal chosen by a hash of the
// cell's global coordinates.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/render/image.hpp"

namespace dereth::render {

inline constexpr float kLandBlockLength = 192.0F;  // metres per landblock side

// The global origin (south-west corner) of landblock 0xXXYY....: (XX*192, YY*192, 0).
[[nodiscard]] glm::vec3 land_block_origin(std::uint32_t block_id) noexcept;
// The landblock id 0xXXYYFFFF holding a global position (nothing outside 0..255).
[[nodiscard]] bool land_block_at(const glm::vec3& global, std::uint32_t& block_id) noexcept;

class LandBlockStruct {
 public:
  static constexpr std::size_t kSideVertexCount = 9;
  static constexpr std::size_t kSideCellCount = 8;
  static constexpr std::size_t kSidePolygonCount = 8;
  static constexpr std::size_t kVertexCount = kSideVertexCount * kSideVertexCount;
  static constexpr std::size_t kCellCount = kSideCellCount * kSideCellCount;
  static constexpr std::size_t kPolygonCount = 2 * kCellCount;

  using Triangle = std::array<std::uint16_t, 3>;  // vertex indices

  // CLandBlockStruct::ConstructVertices 0x005328D0: vertex (x, y) at
  // (x * 24, y * 24, land_height(height[x*9 + y])), block-local.
  void construct_vertices(const dat::LandBlock& block, const dat::LandDefs& defs);
  // CLandBlockStruct::ConstructPolygons 0x00531D10: for cell (x, y), polygons
  // 2*(x*8 + y) and 2*(x*8 + y) + 1. SW->NE cut: (SW, SE, NE), (SW, NE, NW);
  // otherwise (SW, SE, NW), (NE, NW, SE); the diagonal is
  // dat::land_cell_split_sw_ne. The block's x and y come from the id's top
  // two bytes (retail leaves them unset for id 0; here they are 0).
  void construct_polygons(std::uint32_t block_id);

  // Height of the terrain surface at block-local (x, y), on the cell's
  // triangle (spec/physics.md 6.4); clamped into the block.
  [[nodiscard]] float height_at(float x, float y) const noexcept;

  // CLandBlockStruct::calc_lighting 0x00531700 (after construct_vertices and
  // construct_polygons): each vertex's normal is the normalised sum of the
  // unit normals of this block's polygons that use it ((0, 0, 1) when the sum
  // is shorter than 0.0002), and its light is, per channel,
  // min(sun_color * max(normal . sunlight, 0) + ambient, 1), where `sunlight`
  // points towards the sun and `ambient` is retail's ambient colour times its
  // ambient level. The renderer draws these normals and evaluates the same
  // term per vertex in its terrain vertex shader (with the point lights).
  void calc_lighting(const glm::vec3& sunlight, const glm::vec3& sun_color, const glm::vec3& ambient);

  std::array<glm::vec3, kVertexCount> vertices{};
  std::array<glm::vec3, kVertexCount> vertex_normals{};   // calc_lighting
  std::array<glm::vec3, kVertexCount> vertex_lighting{};  // calc_lighting, RGB in [0, 1]
  std::array<bool, kCellCount> sw_to_ne{};         // index x*8 + y
  std::array<Triangle, kPolygonCount> polygons{};  // index 2*(x*8 + y) + {0, 1}
};

struct TerrainVertex {
  glm::vec3 position{0.0F};            // block-local metres
  glm::vec3 normal{0.0F, 0.0F, 1.0F};  // the vertex's normal (LandBlockStruct::calc_lighting)
  glm::vec2 uv{0.0F};      // one texture repeat per 24 m cell
  glm::vec3 weight{0.0F};  // barycentric weight of the triangle's three corners
  glm::vec3 layers{0.0F};  // the terrain types of the triangle's three corners (texture layers)
};

struct TerrainMesh {
  std::uint32_t block_id = 0;
  glm::vec3 origin{0.0F};               // global position of the block's south-west corner
  std::vector<TerrainVertex> vertices;  // 3 per triangle, 128 triangles
};

// Builds the 128 triangles of one landblock, each corner with its vertex's
// normal as retail's calc_lighting makes it. Each corner's texture layer is
// its terrain type (bits 2-6 of the terrain word); the fragment blends the
// three corners' layers by barycentric weight. Roads and retail's offline
// texture merge (corner and side alpha maps) are not modelled.
[[nodiscard]] TerrainMesh build_terrain_mesh(const dat::LandBlock& block, const dat::LandDefs& defs);

inline constexpr std::size_t kTerrainLayerCount = 32;  // terrain types 0..31

// One square image per terrain type: the Region's TerrainTex texture for that
// type (resampled to `size`), else a flat image of the TerrainType's colour,
// else mid grey. `failures` counts textures that were named but did not load.
struct TerrainLayers {
  int size = 0;
  std::vector<Image> layers;  // kTerrainLayerCount images of size x size
  std::size_t failures = 0;
};
[[nodiscard]] TerrainLayers build_terrain_layers(const dat::Region& region, const dat::DatFile* portal, int size = 64);

// Sizing the landscape surface cache (the renderer's composited landblock
// surfaces): the memory of a side x side RGBA8 texture with its full mip chain.
[[nodiscard]] std::size_t surface_bytes(int side) noexcept;
// A landblock surface's texels a side: `cell_texels` a cell (8 cells a side),
// halved while `view_blocks` surfaces of that size exceed `budget_bytes`,
// never under one texel a cell.
[[nodiscard]] int surface_side(int cell_texels, std::size_t view_blocks, std::size_t budget_bytes) noexcept;

// Nearest-neighbour resample to w x h.
[[nodiscard]] Image resample_nearest(const Image& src, int w, int h);

}  // namespace dereth::render
