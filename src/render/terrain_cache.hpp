#pragma once
// The landscape surface cache (private header): each landblock on screen keeps
// its geometry and one texture with its whole surface composited once, on
// arrival, so terrain samples one texture per pixel (retail's LandSurf cache,
// per landblock here). Its memory bound and eviction: docs/render.md "The
// landscape surface cache". Every call needs the GL context current.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <glad/gl.h>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "dereth/core/error.hpp"
#include "dereth/render/renderer.hpp"
#include "dereth/render/terrain.hpp"

namespace dereth::render {

// One far-terrain mesh of a block: the block at a lower detail
// (build_terrain_mesh with a poly_size and transition), drawn over the same
// cached surface.
struct TerrainLod {
  std::uint32_t poly_size = 1;
  LandDirection trans_dir = LandDirection::InViewerBlock;
  GLuint vao = 0;
  GLuint vbo = 0;
  GLsizei vertex_count = 0;
  float min_z = 0.0F;
  float max_z = 0.0F;
};

struct TerrainBlock {
  std::uint32_t id = 0;                          // the landblock (0xXXYYFFFF)
  std::shared_ptr<const dat::LandBlock> source;  // its record (never null), for the far-terrain meshes
  GLuint vao = 0;
  GLuint vbo = 0;
  GLsizei vertex_count = 0;
  glm::vec3 origin{0.0F};  // global south-west corner
  float min_z = 0.0F;      // the lowest and highest vertex, block-local (its box for frustum culling)
  float max_z = 0.0F;
  // Each 24 m cell's lowest and highest triangle corner, block-local, cell
  // (i, j) at cell_z[j * LandBlockStruct::kSideCellCount + i] (the sky scissor's bounds).
  std::array<glm::vec2, LandBlockStruct::kCellCount> cell_z{};
  GLuint surface = 0;     // the composited surface, RGBA8 with mipmaps, (0,0) at the south-west corner
  int surface_side = 0;   // texels a side
  std::size_t bytes = 0;  // the surface's memory, every mip level
  std::uint64_t last_drawn = 0;
  std::vector<TerrainLod> lods;  // the lower-detail meshes made so far (freed with the block)
  // Arrival in steps (TerrainSurfaceCache::arrive's `bands`): the rows of the
  // surface composited so far, and whether it is whole and mipmapped (drawn
  // only then).
  int composited_rows = 0;
  bool complete = false;
};

class TerrainSurfaceCache {
 public:
  TerrainSurfaceCache() = default;
  TerrainSurfaceCache(const TerrainSurfaceCache&) = delete;
  TerrainSurfaceCache& operator=(const TerrainSurfaceCache&) = delete;
  ~TerrainSurfaceCache();

  // The composite program and framebuffer; once, before the first arrive.
  [[nodiscard]] core::Result<void> create_gl();
  // Starts a frame: what this frame draws is never evicted for a newcomer.
  void begin_frame() noexcept { ++frame_; }

  // The block, when it is loaded and complete (marked drawn this frame, as
  // is one still arriving); nullptr when it is not, or known absent (then
  // `absent` is set).
  const TerrainBlock* find(std::uint32_t block_id, bool& absent);
  // A landblock arrives: uploads its triangles and composites its surface,
  // `side` texels a side (surface_side), from the terrain layers (a 2D array
  // texture, one layer per terrain type), evicting for `budget_bytes` first.
  // With `bands` 1 the whole surface is composited and mipmapped at once;
  // with more, this call composites the first of `bands` strips of rows and
  // each advance() the next, then one more makes the mipmaps, each step
  // waiting for the GL to finish it (so a frame's load budget sees its
  // cost). Returns the block, complete or still arriving; null when it
  // cannot be made (no composite program, or already there).
  TerrainBlock* arrive(const TerrainMesh& mesh, std::shared_ptr<const dat::LandBlock> source, GLuint layers, int side,
                       std::size_t budget_bytes, int bands = 1);
  // Whether the block has arrived and is not complete yet.
  [[nodiscard]] bool arriving(std::uint32_t block_id) const;
  // The next step of an arriving block; the block once it is complete, else null.
  const TerrainBlock* advance(std::uint32_t block_id, GLuint layers, int bands);
  // The mesh to draw block `block_id` with at `orient`'s detail: the full
  // mesh (as a TerrainLod) for size 1, else the block's mesh of that size and
  // transition, made and uploaded the first time it is asked for (sizes 1 and
  // 8 have no transition: TransAdjust touches only 2 and 4 cells a side).
  // Null when the block is not loaded.
  const TerrainLod* lod(std::uint32_t block_id, BlockOrient orient, const dat::LandDefs& defs);
  // A landblock that is not in the cell DAT (or did not read): remembered so
  // it is not read again until it is unloaded.
  void mark_absent(std::uint32_t block_id);
  // Unloads every block (and absence) outside the square of blocks within
  // `keep` of block (x, y).
  void unload_outside(int x, int y, int keep);
  // Frees everything (the renderer's teardown).
  void clear();

  [[nodiscard]] const TerrainCacheStats& stats() const noexcept { return stats_; }
  // The anisotropic filtering degree surfaces are created with (1: trilinear only).
  void set_anisotropy(float degree) noexcept { anisotropy_ = degree; }

 private:
  void free_block(TerrainBlock& block);
  static void upload(const TerrainMesh& mesh, GLuint& vao, GLuint& vbo);
  // Frees least recently drawn blocks not drawn this frame until `bytes`
  // more fit in `budget`, or none is left to free.
  void make_room(std::size_t bytes, std::size_t budget);
  // One step of an arrival: `bands` strips of rows, then the mipmaps.
  void step(TerrainBlock& block, GLuint layers, int bands);
  // Composites rows [first_row, first_row + rows) of the block's surface (a
  // scissor unless that is all of it).
  void composite(const TerrainBlock& block, GLuint layers, int first_row, int rows) const;

  std::unordered_map<std::uint32_t, TerrainBlock> blocks_;
  std::unordered_set<std::uint32_t> absent_;
  TerrainCacheStats stats_;
  std::uint64_t frame_ = 0;
  GLuint program_ = 0;
  GLint u_layers_ = -1;
  GLuint fbo_ = 0;
  float anisotropy_ = 1.0F;
};

}  // namespace dereth::render
