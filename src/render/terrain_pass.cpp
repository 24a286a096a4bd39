#include "terrain_pass.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "dereth/dat/land_block_geometry.hpp"

#include "gl_program.hpp"
#include "shaders.hpp"

namespace dereth::render {

namespace {

constexpr float kBlockSide = 192.0F;  // metres a landblock side

constexpr std::size_t kMaxScheduled = 9;  // blocks in view that schedule_near_first orders

// A block of the frame's terrain to draw, for the order it is drawn in.
struct Scheduled {
  const TerrainDraw* draw = nullptr;
  const TerrainLod* mesh = nullptr;
  glm::vec3 offset{0.0F};
  float min_z = 0.0F;
  float max_z = 0.0F;
  int x = 0;  // the block's grid coordinates
  int y = 0;
  float distance = 0.0F;  // the eye's horizontal distance to the block's square
  bool reversible = false;
  bool prefer_reversed = false;  // its triangles last to first run more nearly away from the eye
  bool reversed = false;
};

// The terrain nearest first with the picture of the grid order
// (RendererOptions::terrain_front_to_back). In the grid order (blocks by x,
// then y; each block's triangles in construct_land_polygons' order) a pixel
// shows, of the triangles nearest the eye there, the last drawn (GL_LEQUAL).
// Two triangles can only be equally near on one pixel where they touch, so
// only blocks side by side or corner to corner can tell two orders apart.
// So a block may be drawn before its grid predecessors, if every neighbour
// drawn before it comes after it in the grid: it is then drawn with its
// triangles reversed and GL_LESS, so that among equals the first drawn,
// which is the last in the grid order, stays, against its own triangles
// and those neighbours alike. A block whose neighbours drawn before it all
// come before it in the grid is drawn as before (and one with no neighbour
// drawn before it either way, whichever runs more nearly away from the
// eye). Blocks are taken nearest
// first among those that can be (a small search; the grid order if none is
// found, or with more than a 3x3 square's worth of blocks in view), so the
// near hills are in the depth buffer before the land they hide, whose
// fragments llvmpipe's early depth test then leaves unshaded. `reversible`:
// only blocks wholly inside nine tenths of the far plane, where no fragment
// lies at the cleared depth, which GL_LESS would not pass.
void schedule_near_first(std::vector<Scheduled>& blocks) {
  const std::size_t n = blocks.size();
  if (n < 2 || n > kMaxScheduled) return;
  const auto grid_before = [](const Scheduled& a, const Scheduled& b) { return a.x != b.x ? a.x < b.x : a.y < b.y; };
  std::vector<std::size_t> by_distance(n);
  for (std::size_t i = 0; i < n; ++i) by_distance[i] = i;
  std::ranges::stable_sort(by_distance, {}, [&](std::size_t i) { return blocks[i].distance; });
  std::vector<std::size_t> order;
  std::vector<bool> placed(n, false);
  std::vector<bool> reversed(n, false);
  int budget = 512;  // search steps before the grid order is kept
  // Whether block i can come next, and how: 0 no, 1 as in the grid, 2 reversed.
  const auto fits = [&](std::size_t i) {
    bool before = false;
    bool after = false;
    for (const std::size_t j : order) {
      if (std::abs(blocks[j].x - blocks[i].x) > 1 || std::abs(blocks[j].y - blocks[i].y) > 1) continue;
      (grid_before(blocks[j], blocks[i]) ? before : after) = true;
    }
    if (before && after) return 0;
    if (after) return blocks[i].reversible ? 2 : 0;
    if (!before && blocks[i].prefer_reversed && blocks[i].reversible) return 2;  // free: the better way
    return 1;
  };
  const auto search = [&](const auto& self) -> bool {
    if (order.size() == n) return true;
    for (const std::size_t i : by_distance) {
      if (placed[i]) continue;
      if (--budget < 0) return false;
      const int how = fits(i);
      if (how == 0) continue;
      placed[i] = true;
      reversed[i] = how == 2;
      order.push_back(i);
      if (self(self)) return true;
      order.pop_back();
      placed[i] = false;
    }
    return false;
  };
  if (!search(search)) return;
  std::vector<Scheduled> sorted;
  sorted.reserve(n);
  for (const std::size_t i : order) {
    sorted.push_back(blocks[i]);
    sorted.back().reversed = reversed[i];
  }
  blocks = std::move(sorted);
}

}  // namespace

core::Result<void> TerrainPass::build_program() {
  DERETH_TRY(program_, gl::build_program("OpenGL", "terrain",
                                         {shaders::kTerrainVertexHead, shaders::kLighting, shaders::kTerrainVertexMain},
                                         {shaders::kTerrainFragment}));
  lighting_.locate(program_);
  u_offset_ = glGetUniformLocation(program_, "u_offset");
  u_surface_ = glGetUniformLocation(program_, "u_surface");
  return {};
}

void TerrainPass::release() {
  if (program_ != 0) glDeleteProgram(program_);
  if (order_ebo_ != 0) glDeleteBuffers(1, &order_ebo_);
  program_ = 0;
  order_ebo_ = 0;
}

// Terrain blocks around the camera centre, in a fixed order. Blocks beyond
// the next ring are unloaded; every block in view is marked drawn before
// any newcomer arrives, so a newcomer never evicts one of them.
//
// Each block's detail is LScape's (update_block's get_block_orient with the
// camera centre's block in the middle): full within one block of it, 4
// cells a side at two, 2 at three and four, 1 beyond, with the edge
// transitions that stitch the rings (docs/render.md "Terrain").
std::vector<TerrainDraw> TerrainPass::gather_terrain(const glm::vec3& origin) {
  std::vector<const TerrainBlock*> blocks;
  std::vector<TerrainDraw> draws;
  std::uint32_t centre_block = 0;
  const bool cells = ctx_.cells && ctx_.cells->cell() != nullptr;
  // Until the Region's terrain layers are up (a worker decoding them) no block may arrive.
  const bool layers = !(ctx_.options.draw_terrain && cells) || assets_.ensure_region();
  if (ctx_.options.draw_terrain && cells && assets_.region && land_block_at(origin, centre_block)) {
    const int bx = static_cast<int>(centre_block >> 24);
    const int by = static_cast<int>((centre_block >> 16) & 0xFFU);
    const int r = assets_.terrain_radius();
    assets_.cache.begin_frame();
    assets_.cache.unload_outside(bx, by, r + 1);
    std::vector<std::uint32_t> ids;  // each slot's block (a null slot is still to load)
    for (int x = std::max(0, bx - r); x <= std::min(255, bx + r); ++x) {
      for (int y = std::max(0, by - r); y <= std::min(255, by + r); ++y) {
        const std::uint32_t id =
            (static_cast<std::uint32_t>(x) << 24) | (static_cast<std::uint32_t>(y) << 16) | 0xFFFFU;
        bool absent = false;
        const TerrainBlock* t = assets_.cache.find(id, absent);
        if (t == nullptr && absent) {
          ctx_.terrain_blocks_known.push_back(id);
          continue;
        }
        blocks.push_back(t);
        ids.push_back(id);
      }
    }
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      if (blocks[i] != nullptr) {
        ctx_.terrain_blocks_known.push_back(ids[i]);
        continue;
      }
      if (layers && ctx_.may_load()) {
        blocks[i] = assets_.load_terrain_block(ids[i]);
        if (blocks[i] != nullptr || !assets_.loading(ids[i])) {
          ctx_.terrain_blocks_known.push_back(ids[i]);  // uploaded, or absent from the DAT
          continue;
        }
      }
      ++ctx_.stats.terrain_blocks_deferred;  // waits for a later frame's load budget, arrival step or worker
      ctx_.waiting_landblocks.push_back(ids[i] & 0xFFFF0000U);
    }
    for (const TerrainBlock* t : blocks) {
      if (t == nullptr) continue;
      const int x = static_cast<int>(t->id >> 24);
      const int y = static_cast<int>((t->id >> 16) & 0xFFU);
      draws.push_back(
          {t, ctx_.options.terrain_lod ? LScape::get_block_orient(r, x - bx + r, y - by + r) : BlockOrient{}});
    }
  }
  ctx_.stats.terrain_blocks = draws.size();
  return draws;
}

bool TerrainPass::prepare_block(std::uint32_t id) {
  if (!ctx_.options.draw_terrain || !ctx_.cells || ctx_.cells->cell() == nullptr) return true;
  const bool layers = assets_.ensure_region();
  if (!assets_.region) return true;
  bool absent = false;
  if (assets_.cache.find(id, absent) != nullptr || absent) return true;
  if (layers && ctx_.may_load() && (assets_.load_terrain_block(id) != nullptr || !assets_.loading(id))) {
    return true;  // uploaded, or absent from the DAT
  }
  ++ctx_.stats.terrain_blocks_deferred;
  return false;
}

// The terrain pass: one draw per landblock, over its cached surface.
TerrainCover TerrainPass::draw_terrain(const std::vector<TerrainDraw>& blocks, const FrameView& view,
                                       const FrameSky& sky) {
  if (blocks.empty()) return {};
  // The full-detail blocks drawn (or culled), for the cover: their grid
  // corners and count (a square only when every slot of it is one of them).
  TerrainCover cover;
  int cover_blocks = 0;
  int lo_x = 256;
  int lo_y = 256;
  int hi_x = -1;
  int hi_y = -1;
  struct CoverBlock {
    int x;
    int y;
    const TerrainBlock* block;
    float z;  // the offset's height
  };
  std::array<CoverBlock, 9> cover_list{};
  auto add_to_cover = [&](const TerrainDraw& d, const glm::vec3& offset, float min_z, float max_z) {
    if (d.orient.size > 1) return;
    const int x = static_cast<int>(d.block->id >> 24);
    const int y = static_cast<int>((d.block->id >> 16) & 0xFFU);
    if (cover_blocks < static_cast<int>(cover_list.size())) {
      cover_list[static_cast<std::size_t>(cover_blocks)] = {x, y, d.block, offset.z};
    }
    if (cover_blocks == 0) {
      cover.lo = cover.hi = glm::vec2(offset);
      cover.min_z = offset.z + min_z;
      cover.max_z = offset.z + max_z;
    }
    ++cover_blocks;
    lo_x = std::min(lo_x, x);
    lo_y = std::min(lo_y, y);
    hi_x = std::max(hi_x, x);
    hi_y = std::max(hi_y, y);
    cover.lo = glm::min(cover.lo, glm::vec2(offset));
    cover.hi = glm::max(cover.hi, glm::vec2(offset) + glm::vec2(kBlockSide));
    cover.min_z = std::min(cover.min_z, offset.z + min_z);
    cover.max_z = std::max(cover.max_z, offset.z + max_z);
  };
  const glm::vec3& origin = view.origin;
  glUseProgram(program_);
  set_lighting(lighting_, view, lights_.light_sets.front(), sky, sky.terrain_ambient);
  std::uint16_t block_lights = 0;
  glActiveTexture(GL_TEXTURE0);
  glUniform1i(u_surface_, 0);
  // The blocks in the grid order: each one's mesh (a far-terrain mesh is
  // made the first time it is asked for), its box culled, its square added
  // to the cover; then drawn in the order schedule_near_first gives.
  std::vector<Scheduled> visible;
  for (const TerrainDraw& d : blocks) {
    const TerrainBlock* t = d.block;
    const TerrainLod* mesh = nullptr;
    {
      const RenderContext::LoadScope scope(ctx_);
      mesh = assets_.cache.lod(t->id, d.orient, assets_.region->land_defs);
    }
    if (mesh == nullptr) continue;
    const glm::vec3 offset = t->origin - origin;
    const float min_z = std::min(t->min_z, mesh->min_z);  // TransAdjust may lower an edge below the block
    const float max_z = std::max(t->max_z, mesh->max_z);
    add_to_cover(d, offset, min_z, max_z);
    if (ctx_.options.frustum_cull && view.frustum.box_outside(offset + glm::vec3(0.0F, 0.0F, min_z),
                                                              offset + glm::vec3(kBlockSide, kBlockSide, max_z))) {
      ++ctx_.stats.terrain_blocks_culled;
      continue;
    }
    Scheduled b{&d, mesh, offset, min_z, max_z, static_cast<int>(t->id >> 24), static_cast<int>((t->id >> 16) & 0xFFU)};
    const glm::vec2 lo(offset);
    const glm::vec2 eye(view.eye_rel);
    b.distance = glm::length(glm::max(glm::max(lo - eye, eye - (lo + glm::vec2(kBlockSide))), glm::vec2(0.0F)));
    float farthest = 0.0F;
    for (int c = 0; c < 8; ++c) {
      const glm::vec3 corner = offset + glm::vec3((c & 1) != 0 ? kBlockSide : 0.0F, (c & 2) != 0 ? kBlockSide : 0.0F,
                                                  (c & 4) != 0 ? max_z : min_z);
      farthest = std::max(farthest, glm::length(corner - view.eye_rel));
    }
    b.reversible = std::isfinite(farthest) && farthest < 0.9F * view.far_plane;
    // A mesh's triangles run by columns west to east, each south to north:
    // reversed, they run more nearly away from the eye looking west, or
    // south where the view is more north-south than east-west.
    const glm::vec3& f = view.forward;
    b.prefer_reversed = std::abs(f.x) > std::abs(f.y) ? f.x < 0.0F : f.y < 0.0F;
    visible.push_back(b);
  }
  if (ctx_.options.terrain_front_to_back) schedule_near_first(visible);
  for (const Scheduled& b : visible) {
    const TerrainDraw& d = *b.draw;
    const TerrainBlock* t = d.block;
    const TerrainLod* mesh = b.mesh;
    const glm::vec3& offset = b.offset;
    // A block is lit as an object of its bounds (minimize_object_lighting).
    if (lights_.world_lights) {
      const glm::vec3 half(kBlockSide * 0.5F, kBlockSide * 0.5F, (b.max_z - b.min_z) * 0.5F);
      const glm::vec3 centre = offset + glm::vec3(half.x, half.y, b.min_z + half.z);
      const std::uint16_t set =
          lights_.intern_light_set(lights_.world_lights->minimize_object_lighting(centre, glm::length(half)));
      if (set != block_lights) {
        set_point_lights(lighting_, lights_.light_sets[set]);
        block_lights = set;
      }
    }
    glUniform3fv(u_offset_, 1, glm::value_ptr(offset));
    glBindTexture(GL_TEXTURE_2D, t->surface);
    glBindVertexArray(mesh->vao);
    if (b.reversed) {
      // The triangles last to first, each with its corners in their order
      // (bound into the block's vertex array, which draws no other elements).
      reversed_.clear();
      for (GLsizei v = mesh->vertex_count - 3; v >= 0; v -= 3) {
        for (GLsizei k = 0; k < 3; ++k) reversed_.push_back(static_cast<GLuint>(v + k));
      }
      if (order_ebo_ == 0) glGenBuffers(1, &order_ebo_);
      glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, order_ebo_);
      glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(reversed_.size() * sizeof(GLuint)),
                   reversed_.data(), GL_STREAM_DRAW);
      glDepthFunc(GL_LESS);
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(reversed_.size()), GL_UNSIGNED_INT, nullptr);
      glDepthFunc(GL_LEQUAL);
    } else {
      glDrawArrays(GL_TRIANGLES, 0, mesh->vertex_count);
    }
    if (ctx_.options.record_draw_list) {
      DrawRecord r;
      r.kind = DrawKind::Terrain;
      r.block = t->id;
      ctx_.draw_list.push_back(r);
    }
    ++ctx_.stats.draw_calls;
    ++ctx_.stats.batches;
    ctx_.stats.triangles += static_cast<std::size_t>(mesh->vertex_count) / 3;
    ctx_.stats.terrain_triangles += static_cast<std::size_t>(mesh->vertex_count) / 3;
    if (d.orient.size > 1) ++ctx_.stats.terrain_blocks_far;
    if (b.reversed) ++ctx_.stats.terrain_blocks_reversed;
  }
  const std::size_t drawn = visible.size();
  ctx_.stats.terrain_blocks = drawn;
  cover.whole = cover_blocks > 0 && cover_blocks == (hi_x - lo_x + 1) * (hi_y - lo_y + 1) &&
                std::isfinite(cover.min_z) && std::isfinite(cover.max_z);
  // Each cell's own range, where the square is small enough to hold them
  // (the full-detail mesh's: TransAdjust lowers only the far meshes' edges).
  constexpr int kCells = static_cast<int>(LandBlockStruct::kSideCellCount);
  if (cover.whole && cover_blocks <= static_cast<int>(cover_list.size()) &&
      (hi_x - lo_x + 1) * kCells <= TerrainCover::kMaxCells && (hi_y - lo_y + 1) * kCells <= TerrainCover::kMaxCells) {
    cover.grid_x = (hi_x - lo_x + 1) * kCells;
    cover.grid_y = (hi_y - lo_y + 1) * kCells;
    for (int n = 0; n < cover_blocks; ++n) {
      const CoverBlock& b = cover_list[static_cast<std::size_t>(n)];
      for (int j = 0; j < kCells; ++j) {
        for (int i = 0; i < kCells; ++i) {
          const glm::vec2 z = b.block->cell_z[static_cast<std::size_t>(j * kCells + i)] + glm::vec2(b.z);
          const int gx = (b.x - lo_x) * kCells + i;
          const int gy = (b.y - lo_y) * kCells + j;
          cover.heights[static_cast<std::size_t>(gy * cover.grid_x + gx)] = z;
        }
      }
    }
    // The cells' corners, from the records the full-detail meshes are built of.
    cover.planes = true;
    for (int n = 0; n < cover_blocks; ++n) {
      const CoverBlock& b = cover_list[static_cast<std::size_t>(n)];
      std::array<glm::vec3, 81> v{};
      dat::construct_land_vertices(*b.block->source, assets_.region->land_defs, 8, v);
      const auto bx = static_cast<std::uint32_t>(b.x) * 8U;
      const auto by = static_cast<std::uint32_t>(b.y) * 8U;
      for (int j = 0; j < kCells; ++j) {
        for (int i = 0; i < kCells; ++i) {
          const auto at = [&](int x, int y) { return v[static_cast<std::size_t>(x * 9 + y)].z + b.z; };
          const auto cell =
              static_cast<std::size_t>(((b.y - lo_y) * kCells + j) * cover.grid_x + (b.x - lo_x) * kCells + i);
          cover.corners[cell] = glm::vec4(at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1));
          cover.cut_sw_ne[cell] =
              dat::land_cell_split_sw_ne(bx + static_cast<std::uint32_t>(i), by + static_cast<std::uint32_t>(j));
        }
      }
    }
  }
  return cover;
}

}  // namespace dereth::render
