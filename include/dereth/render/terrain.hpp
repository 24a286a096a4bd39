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
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/render/image.hpp"

namespace dereth::render {

inline constexpr float kLandBlockLength = 192.0F;  // metres per landblock side

// The global origin (south-west corner) of landblock 0xXXYY....: (XX*192, YY*192, 0).
[[nodiscard]] glm::vec3 land_block_origin(std::uint32_t block_id) noexcept;
// The landblock id 0xXXYYFFFF holding a global position (nothing outside 0..255).
[[nodiscard]] bool land_block_at(const glm::vec3& global, std::uint32_t& block_id) noexcept;

// LandDefs::Direction, a block's detail and LScape::get_block_orient are
// dat's (the sim's collision grid reads the same rule).
using LandDirection = dat::LandDirection;
using BlockOrient = dat::BlockOrient;

struct LScape {
  // LScape::get_block_orient 0x00504F90 (dat::get_block_orient)
  [[nodiscard]] static BlockOrient get_block_orient(int mid_radius, int ix, int iy) noexcept {
    return dat::get_block_orient(mid_radius, ix, iy);
  }
};

class LandBlockStruct {
 public:
  // The full-detail counts (the default and what physics uses).
  static constexpr std::size_t kSideVertexCount = 9;
  static constexpr std::size_t kSideCellCount = 8;
  static constexpr std::size_t kSidePolygonCount = 8;
  static constexpr std::size_t kVertexCount = kSideVertexCount * kSideVertexCount;
  static constexpr std::size_t kCellCount = kSideCellCount * kSideCellCount;
  static constexpr std::size_t kPolygonCount = 2 * kCellCount;

  using Triangle = std::array<std::uint16_t, 3>;  // vertex indices

  // Full detail (8 cells a side), arrays allocated (InitPVArrays).
  LandBlockStruct();

  // CLandBlockStruct::generate 0x00532BB0: the block at 8 / poly_size cells
  // a side (poly_size 1, 2, 4 or 8; any other is refused: false, nothing
  // changed) with edge transition `tdir`. Nothing is done when both are
  // what the block already has. Otherwise the arrays are reallocated when
  // the size changes, the vertices constructed, TransAdjust applied when
  // tdir is not 0 and the block has 2 or 4 cells a side, and the polygons
  // constructed when the size changed. True when the size changed (retail
  // then recomputes the lighting; call calc_lighting).
  bool generate(const dat::LandBlock& block, const dat::LandDefs& defs, std::uint32_t poly_size, LandDirection tdir);

  // CLandBlockStruct::InitPVArrays 0x00530E90: sizes the vertex, polygon,
  // cut and lighting arrays for the side counts.
  void init_pv_arrays();

  // CLandBlockStruct::ConstructVertices 0x005328D0: vertex (x, y), index
  // x * side_vertex_count + y, at (x * p, y * p, land_height(height[(x*s)*9
  // + y*s])) block-local, with p = 192 / side_polygon_count and s = 8 /
  // side_cell_count: a coarse block samples every s-th height.
  void construct_vertices(const dat::LandBlock& block, const dat::LandDefs& defs);
  // CLandBlockStruct::ConstructPolygons 0x00531D10: for cell (x, y), polygons
  // 2*(x*n + y) and 2*(x*n + y) + 1 (n cells a side). SW->NE cut: (SW, SE,
  // NE), (SW, NE, NW); otherwise (SW, SE, NW), (NE, NW, SE); the diagonal is
  // dat::land_cell_split_sw_ne of (block x * 8 + x, block y * 8 + y) at
  // every size (a coarse cell takes the cut of the full-detail cell with its
  // index, as retail does). The block's x and y come from the id's top two
  // bytes (retail leaves them unset for id 0; here they are 0).
  void construct_polygons(std::uint32_t block_id);
  // CLandBlockStruct::TransAdjust 0x005323D0: stitches a coarse block to its
  // coarser neighbour: on each edge that `trans_dir` points away from the
  // viewer (north for 1, 5, 7; west for 4, 5, 6; south for 2, 6, 8; east for
  // 3, 7, 8) every odd vertex takes the mean height of its two neighbours on
  // the edge, so the edge is the neighbour's (half as many cells). A block of
  // 4 cells a side on the N/S/E/W ring (trans_dir 1..4) also lowers each odd
  // vertex of the edge facing the viewer (its full-detail neighbour) to at
  // most 2h1 - h0 and 2h3 - h4 of the full-detail heights h0..h4 around it,
  // so that edge runs at or below the finer edge everywhere: seen from the
  // viewer's side the step hides the seam. `block` holds the full heights.
  void trans_adjust(const dat::LandBlock& block, const dat::LandDefs& defs);

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

  std::size_t side_cell_count = kSideCellCount;
  std::size_t side_polygon_count = kSidePolygonCount;
  std::size_t side_vertex_count = kSideVertexCount;
  LandDirection trans_dir = LandDirection::Unknown;  // retail's constructor and Destroy: 9
  std::vector<glm::vec3> vertices;                   // side_vertex_count^2
  std::vector<glm::vec3> vertex_normals;             // calc_lighting
  std::vector<glm::vec3> vertex_lighting;            // calc_lighting, RGB in [0, 1]
  std::vector<bool> sw_to_ne;                        // index x*side_polygon_count + y
  std::vector<Triangle> polygons;                    // index 2*(x*side_polygon_count + y) + {0, 1}
};

struct TerrainVertex {
  glm::vec3 position{0.0F};            // block-local metres
  glm::vec3 normal{0.0F, 0.0F, 1.0F};  // the vertex's normal (LandBlockStruct::calc_lighting)
  glm::vec2 uv{0.0F};                  // one texture repeat per 24 m cell
  glm::vec3 weight{0.0F};              // barycentric weight of the triangle's three corners
  glm::vec3 layers{0.0F};              // the terrain types of the triangle's three corners (texture layers)
};

struct TerrainMesh {
  std::uint32_t block_id = 0;
  glm::vec3 origin{0.0F};       // global position of the block's south-west corner
  std::uint32_t poly_size = 1;  // the detail (BlockOrient::size)
  LandDirection trans_dir = LandDirection::InViewerBlock;
  std::vector<TerrainVertex> vertices;  // 3 per triangle: 2 * (8 / poly_size)^2 triangles
};

// Builds the 128 triangles of one landblock, each corner with its vertex's
// normal as retail's calc_lighting makes it. Each corner's texture layer is
// its terrain type (bits 2-6 of the terrain word); the fragment blends the
// three corners' layers by barycentric weight. Roads and retail's offline
// texture merge (corner and side alpha maps) are not modelled.
[[nodiscard]] TerrainMesh build_terrain_mesh(const dat::LandBlock& block, const dat::LandDefs& defs);
// The block at a lower detail for the far terrain (LScape::update_block's
// CLandBlockStruct::generate with get_block_orient's size and direction),
// then calc_lighting's normals: 2 * (8 / poly_size)^2 triangles, each corner
// layered with the terrain type of the full-detail vertex it stands on.
// poly_size 1 (any direction) is the full mesh; an invalid poly_size gives
// an empty mesh.
[[nodiscard]] TerrainMesh build_terrain_mesh(const dat::LandBlock& block, const dat::LandDefs& defs,
                                             std::uint32_t poly_size, LandDirection trans_dir);

inline constexpr std::size_t kTerrainLayerCount = 32;  // terrain types 0..31

// One square image per terrain type: the Region's TerrainTex texture for that
// type (resampled to `size`), else a flat image of the TerrainType's colour,
// else mid grey. `failures` counts textures that were named but did not load.
struct TerrainLayers {
  int size = 0;
  std::vector<Image> layers;  // kTerrainLayerCount images of size x size
  std::size_t failures = 0;
};
[[nodiscard]] TerrainLayers build_terrain_layers(const dat::Region& region, dat::RecordCache* records, int size = 64);

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
