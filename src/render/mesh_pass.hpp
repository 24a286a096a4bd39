#pragma once
// The mesh pass (private header): the objects' parts (or their marker
// cubes), the landscape's buildings and EnvCells, and the particles
// (particle_pass.cpp) into the frame's opaque, clip and alpha lists, each
// part culled, degraded, lit and tagged as retail draws it; then the lists
// submitted as instanced runs with the mesh programs. The sky pass submits
// its objects through the same path.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <glad/gl.h>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec4.hpp>

#include "dereth/core/error.hpp"
#include "dereth/render/draw_order.hpp"
#include "dereth/render/material.hpp"
#include "dereth/render/renderer.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

#include "frame_lights.hpp"
#include "gpu_assets.hpp"
#include "render_context.hpp"

namespace dereth::render {

struct DrawItem {
  const GpuMesh* mesh = nullptr;
  const GpuBatch* batch = nullptr;
  const GpuMaterial* material = nullptr;
  glm::mat4 model{1.0F};
  glm::mat3 normal_matrix{1.0F};
  glm::vec4 tint{1.0F};
  float alpha = 1.0F;
  float luminosity = 0.0F;
  float diffuse = 1.0F;
  SurfaceState state;
  AlphaClass alpha_class = AlphaClass::Opaque;
  float distance = 0.0F;  // CYpt: the part's sort centre from the eye, for back-to-front order
  DrawKind kind = DrawKind::Part;
  sim::LocalId owner = sim::LocalId::None;
  std::uint32_t gfx_obj = 0;
  std::uint32_t degrade_mode = 1;
  std::uint32_t block = 0;      // an EnvCell's id (DrawRecord::block)
  glm::vec2 uv_offset{0.0F};    // texture scrolling (sky objects)
  std::uint16_t light_set = 0;  // the frame's light set lighting it (0: none)
  // A flat mesh (GpuMesh::flat) seen clearly from below (-1) or above (+1)
  // its plane: only the triangles not back faces from there are sent.
  std::int8_t seen_from = 0;
};

// What add_batches tags a part's items with.
struct PartTag {
  DrawKind kind = DrawKind::Part;
  sim::LocalId owner = sim::LocalId::None;
  std::uint32_t gfx_obj = 0;
  float distance = 0.0F;
  std::uint32_t degrade_mode = 1;
  std::uint16_t light_set = 0;
  std::int8_t seen_from = 0;  // DrawItem::seen_from
};

// The frame's mesh draws by pass: opaque at once, then retail's clip list,
// then its alpha list (D3DPolyRender::FlushAlphaList).
struct DrawLists {
  std::vector<DrawItem> opaque;
  std::vector<DrawItem> clip;
  std::vector<DrawItem> alpha;
};

// A mesh program: the opaque one, or the one for alpha-tested surfaces.
struct MeshProgram {
  GLuint id = 0;
  LightingUniforms lighting;
  GLint texture = -1;
  GLint alpha_ref = -1;
  GLint uv_offset = -1;
};

class MeshPass {
 public:
  MeshPass(RenderContext& context, GpuAssets& assets, FrameLights& lights)
      : ctx_(context), assets_(assets), lights_(lights) {}
  MeshPass(const MeshPass&) = delete;
  MeshPass& operator=(const MeshPass&) = delete;

  // The four mesh programs and their uniform locations.
  [[nodiscard]] core::Result<void> build_programs();
  void release();

  void add_batches(const GpuMesh& m, const glm::mat4& model, const glm::mat3& normal_matrix, float part_translucency,
                   float luminosity, float diffuse, const PartTag& tag, DrawLists& lists,
                   const GpuMaterial* override_material = nullptr, const glm::vec4& tint = glm::vec4(1.0F),
                   std::span<const sim::TextureChange> texture_changes = {}, std::uint32_t palette_key = kNoPalette);
  [[nodiscard]] std::uint32_t degrade_mode(const GpuMesh& m, const ViewerDistance& vd, float scale_z,
                                           bool player) const noexcept;
  [[nodiscard]] bool outside_view(const FrameView& view, const GpuMesh& m, const glm::mat4& model,
                                  float scale) const noexcept;

  void gather_objects(const sim::RenderSnapshot& snapshot, const FrameView& view, DrawLists& lists);
  void gather_object_list(const std::vector<sim::ObjectSnapshot>& objects, const FrameView& view, DrawLists& lists);
  void gather_cells(const std::vector<sim::CellSnapshot>& cells, const FrameView& view, DrawLists& lists);
  // Loads (within the frame's load budget) the meshes and surfaces of every
  // object, building and EnvCell of the snapshot standing in one of the
  // sorted landblock keys (0xXXYY0000), seen or not; each key one of them
  // still waits for is added to `waiting`.
  void prepare_objects(const sim::RenderSnapshot& snapshot, std::span<const std::uint32_t> keys,
                       std::vector<std::uint32_t>& waiting);
  // particle_pass.cpp
  void gather_particles(const sim::RenderSnapshot& snapshot, const FrameView& view, DrawLists& lists);

  static bool same_call(const DrawItem& a, const DrawItem& b) noexcept;
  static void order_by_state(std::vector<DrawItem>& items);
  static void order_back_to_front(std::vector<DrawItem>& items);
  void submit(const std::vector<DrawItem>& items, const FrameView& view, const FrameSky& sky, DepthMode depth,
              bool vertex_lit = false);
  void draw_meshes(const DrawLists& lists, const FrameView& view, const FrameSky& sky, bool alpha_list);

 private:
  RenderContext& ctx_;
  GpuAssets& assets_;
  FrameLights& lights_;
  // The mesh programs by [vertex lit][alpha test]: surfaces without an alpha
  // test get a program without discard, so the depth test comes before
  // shading; sky objects are lit per vertex (shaders::kVertexLit).
  std::array<std::array<MeshProgram, 2>, 2> programs_;
  std::vector<Instance> instances_;
  // The submitted list's draw calls: `n` items from `first_item` that one
  // call draws, the index range of their batch (the side a flat mesh is
  // seen from), and for a run drawn expanded where its indices start in
  // expanded_indices_.
  struct Run {
    std::size_t first_item = 0;
    std::size_t n = 1;
    std::uint32_t first_index = 0;
    std::uint32_t index_count = 0;
    bool expanded = false;
    std::size_t expanded_first = 0;
  };
  std::vector<Run> runs_;
  std::vector<ExpandedVertex> expanded_vertices_;
  std::vector<std::uint32_t> expanded_indices_;
};

}  // namespace dereth::render
