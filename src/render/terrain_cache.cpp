#include "terrain_cache.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <limits>

#include "gl_program.hpp"
#include "shaders.hpp"

namespace dereth::render {

namespace {

int block_coordinate_x(std::uint32_t id) noexcept {
  return static_cast<int>(id >> 24);
}
int block_coordinate_y(std::uint32_t id) noexcept {
  return static_cast<int>((id >> 16) & 0xFFU);
}
bool outside(std::uint32_t id, int x, int y, int keep) noexcept {
  return std::abs(block_coordinate_x(id) - x) > keep || std::abs(block_coordinate_y(id) - y) > keep;
}

// The lowest and highest vertex of a mesh (frustum culling's box); an empty
// mesh leaves them as they are.
void z_range(const TerrainMesh& mesh, float& min_z, float& max_z) noexcept {
  if (mesh.vertices.empty()) return;
  min_z = max_z = mesh.vertices.front().position.z;
  for (const TerrainVertex& v : mesh.vertices) {
    min_z = std::min(min_z, v.position.z);
    max_z = std::max(max_z, v.position.z);
  }
}

// Each cell's lowest and highest triangle corner (a full-detail mesh: two
// triangles a cell; a cell with none keeps the block's range).
void cell_ranges(const TerrainMesh& mesh, float min_z, float max_z,
                 std::array<glm::vec2, LandBlockStruct::kCellCount>& cells) noexcept {
  constexpr int kSide = static_cast<int>(LandBlockStruct::kSideCellCount);
  constexpr float kCellLength = kLandBlockLength / static_cast<float>(kSide);
  cells.fill(glm::vec2(std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity()));
  for (std::size_t t = 0; t + 2 < mesh.vertices.size(); t += 3) {
    const glm::vec3 centre =
        (mesh.vertices[t].position + mesh.vertices[t + 1].position + mesh.vertices[t + 2].position) / 3.0F;
    const int i = std::clamp(static_cast<int>(std::floor(centre.x / kCellLength)), 0, kSide - 1);
    const int j = std::clamp(static_cast<int>(std::floor(centre.y / kCellLength)), 0, kSide - 1);
    glm::vec2& cell = cells[static_cast<std::size_t>(j * kSide + i)];
    for (std::size_t k = t; k < t + 3; ++k) {
      cell.x = std::min(cell.x, mesh.vertices[k].position.z);
      cell.y = std::max(cell.y, mesh.vertices[k].position.z);
    }
  }
  for (glm::vec2& cell : cells) {
    if (!(cell.x <= cell.y)) cell = glm::vec2(min_z, max_z);
  }
}

}  // namespace

TerrainSurfaceCache::~TerrainSurfaceCache() {
  clear();
}

core::Result<void> TerrainSurfaceCache::create_gl() {
  if (program_ != 0) return {};
  DERETH_TRY(program_, gl::build_program("OpenGL", "terrain composite", {shaders::kTerrainCompositeVertex},
                                         {shaders::kTerrainCompositeFragment}));
  u_layers_ = glGetUniformLocation(program_, "u_layers");
  glGenFramebuffers(1, &fbo_);
  return {};
}

const TerrainBlock* TerrainSurfaceCache::find(std::uint32_t block_id, bool& absent) {
  absent = absent_.contains(block_id);
  const auto it = blocks_.find(block_id);
  if (it == blocks_.end()) return nullptr;
  it->second.last_drawn = frame_;
  return it->second.complete ? &it->second : nullptr;
}

bool TerrainSurfaceCache::arriving(std::uint32_t block_id) const {
  const auto it = blocks_.find(block_id);
  return it != blocks_.end() && !it->second.complete;
}

const TerrainBlock* TerrainSurfaceCache::advance(std::uint32_t block_id, GLuint layers, int bands) {
  const auto it = blocks_.find(block_id);
  if (it == blocks_.end()) return nullptr;
  TerrainBlock& block = it->second;
  block.last_drawn = frame_;
  if (!block.complete) step(block, layers, bands);
  return block.complete ? &block : nullptr;
}

void TerrainSurfaceCache::step(TerrainBlock& block, GLuint layers, int bands) {
  const int side = block.surface_side;
  if (bands <= 1) {
    composite(block, layers, 0, side);
    block.composited_rows = side;
  } else if (block.composited_rows < side) {
    const int rows = std::min((side + bands - 1) / bands, side - block.composited_rows);
    composite(block, layers, block.composited_rows, rows);
    block.composited_rows += rows;
    glFinish();
    return;
  }
  glBindTexture(GL_TEXTURE_2D, block.surface);
  glGenerateMipmap(GL_TEXTURE_2D);
  if (bands > 1) glFinish();
  block.complete = true;
  ++stats_.built;
}

TerrainBlock* TerrainSurfaceCache::arrive(const TerrainMesh& mesh, std::shared_ptr<const dat::LandBlock> source,
                                          GLuint layers, int side, std::size_t budget_bytes, int bands) {
  if (program_ == 0 || blocks_.contains(mesh.block_id)) return nullptr;
  make_room(surface_bytes(side), budget_bytes);

  TerrainBlock block;
  block.id = mesh.block_id;
  block.source = std::move(source);
  block.origin = mesh.origin;
  block.vertex_count = static_cast<GLsizei>(mesh.vertices.size());
  block.last_drawn = frame_;
  z_range(mesh, block.min_z, block.max_z);
  cell_ranges(mesh, block.min_z, block.max_z, block.cell_z);
  upload(mesh, block.vao, block.vbo);

  block.surface_side = side;
  block.bytes = surface_bytes(side);
  glGenTextures(1, &block.surface);
  glBindTexture(GL_TEXTURE_2D, block.surface);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, side, side, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  // EXT/ARB_texture_filter_anisotropic's GL_TEXTURE_MAX_ANISOTROPY (the renderer checked the extension).
  if (anisotropy_ > 1.0F) glTexParameterf(GL_TEXTURE_2D, 0x84FE, anisotropy_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);

  ++stats_.resident;
  stats_.resident_bytes += block.bytes;
  stats_.peak_bytes = std::max(stats_.peak_bytes, stats_.resident_bytes);
  TerrainBlock& kept = blocks_.emplace(mesh.block_id, block).first->second;
  step(kept, layers, bands);
  return &kept;
}

void TerrainSurfaceCache::upload(const TerrainMesh& mesh, GLuint& vao, GLuint& vbo) {
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glGenBuffers(1, &vbo);
  glBindBuffer(GL_ARRAY_BUFFER, vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(mesh.vertices.size() * sizeof(TerrainVertex)),
               mesh.vertices.data(), GL_STATIC_DRAW);
  const auto stride = static_cast<GLsizei>(sizeof(TerrainVertex));
  const auto attrib = [stride](GLuint index, GLint size, std::size_t offset) {
    glEnableVertexAttribArray(index);
    glVertexAttribPointer(index, size, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(offset));
  };
  attrib(0, 3, offsetof(TerrainVertex, position));
  attrib(1, 3, offsetof(TerrainVertex, normal));
  attrib(2, 2, offsetof(TerrainVertex, uv));
  attrib(3, 3, offsetof(TerrainVertex, weight));
  attrib(4, 3, offsetof(TerrainVertex, layers));
  glBindVertexArray(0);
}

const TerrainLod* TerrainSurfaceCache::lod(std::uint32_t block_id, BlockOrient orient, const dat::LandDefs& defs) {
  const auto it = blocks_.find(block_id);
  if (it == blocks_.end()) return nullptr;
  TerrainBlock& block = it->second;
  if (orient.size != 2 && orient.size != 4 && orient.size != 8) orient.size = 1;
  if (orient.size == 1 || orient.size == 8) orient.dir = LandDirection::InViewerBlock;
  for (const TerrainLod& l : block.lods) {
    if (l.poly_size == orient.size && l.trans_dir == orient.dir) return &l;
  }
  TerrainLod made;
  made.poly_size = orient.size;
  made.trans_dir = orient.dir;
  if (orient.size == 1) {  // the arrival's full mesh
    made.vao = block.vao;
    made.vertex_count = block.vertex_count;
    made.min_z = block.min_z;
    made.max_z = block.max_z;
  } else {
    const TerrainMesh mesh = build_terrain_mesh(*block.source, defs, orient.size, orient.dir);
    made.vertex_count = static_cast<GLsizei>(mesh.vertices.size());
    z_range(mesh, made.min_z, made.max_z);
    upload(mesh, made.vao, made.vbo);
    ++stats_.lod_meshes_built;
  }
  block.lods.push_back(made);
  return &block.lods.back();
}

// The block's triangles laid flat over the texture (x east, y north), each
// texel the blend of its triangle's corner layers at that point.
void TerrainSurfaceCache::composite(const TerrainBlock& block, GLuint layers, int first_row, int rows) const {
  GLint previous_draw = 0;
  GLint viewport[4] = {};
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_draw);
  glGetIntegerv(GL_VIEWPORT, viewport);
  const GLboolean depth_test = glIsEnabled(GL_DEPTH_TEST);
  const GLboolean cull = glIsEnabled(GL_CULL_FACE);
  const GLboolean blend = glIsEnabled(GL_BLEND);
  GLboolean color_mask[4] = {};
  glGetBooleanv(GL_COLOR_WRITEMASK, color_mask);
  const bool band = first_row > 0 || rows < block.surface_side;
  const GLboolean scissor = glIsEnabled(GL_SCISSOR_TEST);
  GLint scissor_box[4] = {};
  glGetIntegerv(GL_SCISSOR_BOX, scissor_box);

  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, block.surface, 0);
  glViewport(0, 0, block.surface_side, block.surface_side);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  if (band) {
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, first_row, block.surface_side, rows);
  } else {
    glDisable(GL_SCISSOR_TEST);
  }
  glUseProgram(program_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D_ARRAY, layers);
  glUniform1i(u_layers_, 0);
  glBindVertexArray(block.vao);
  glDrawArrays(GL_TRIANGLES, 0, block.vertex_count);
  glBindVertexArray(0);
  glUseProgram(0);
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);

  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(previous_draw));
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
  glColorMask(color_mask[0], color_mask[1], color_mask[2], color_mask[3]);
  if (depth_test == GL_TRUE) glEnable(GL_DEPTH_TEST);
  if (cull == GL_TRUE) glEnable(GL_CULL_FACE);
  if (blend == GL_TRUE) glEnable(GL_BLEND);
  if (scissor == GL_TRUE)
    glEnable(GL_SCISSOR_TEST);
  else
    glDisable(GL_SCISSOR_TEST);
  glScissor(scissor_box[0], scissor_box[1], scissor_box[2], scissor_box[3]);
}

void TerrainSurfaceCache::make_room(std::size_t bytes, std::size_t budget) {
  while (stats_.resident_bytes + bytes > budget) {
    auto victim = blocks_.end();
    std::uint64_t oldest = std::numeric_limits<std::uint64_t>::max();
    for (auto it = blocks_.begin(); it != blocks_.end(); ++it) {
      if (it->second.last_drawn < frame_ && it->second.last_drawn < oldest) {
        oldest = it->second.last_drawn;
        victim = it;
      }
    }
    if (victim == blocks_.end()) return;
    free_block(victim->second);
    ++stats_.evicted;
    blocks_.erase(victim);
  }
}

void TerrainSurfaceCache::mark_absent(std::uint32_t block_id) {
  absent_.insert(block_id);
}

void TerrainSurfaceCache::unload_outside(int x, int y, int keep) {
  for (auto it = blocks_.begin(); it != blocks_.end();) {
    if (outside(it->first, x, y, keep)) {
      free_block(it->second);
      it = blocks_.erase(it);
    } else {
      ++it;
    }
  }
  std::erase_if(absent_, [&](std::uint32_t id) { return outside(id, x, y, keep); });
}

void TerrainSurfaceCache::free_block(TerrainBlock& block) {
  for (const TerrainLod& l : block.lods) {
    if (l.vbo == 0) continue;  // the full mesh: the block's own buffers
    glDeleteBuffers(1, &l.vbo);
    glDeleteVertexArrays(1, &l.vao);
  }
  if (block.surface != 0) glDeleteTextures(1, &block.surface);
  if (block.vbo != 0) glDeleteBuffers(1, &block.vbo);
  if (block.vao != 0) glDeleteVertexArrays(1, &block.vao);
  ++stats_.freed;
  --stats_.resident;
  stats_.resident_bytes -= block.bytes;
  block = TerrainBlock{};
}

void TerrainSurfaceCache::clear() {
  for (auto& [id, block] : blocks_) free_block(block);
  blocks_.clear();
  absent_.clear();
  if (fbo_ != 0) glDeleteFramebuffers(1, &fbo_);
  if (program_ != 0) glDeleteProgram(program_);
  fbo_ = program_ = 0;
}

}  // namespace dereth::render
