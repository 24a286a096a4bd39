#pragma once
// The renderer's GPU assets (private header): meshes, EnvCell structures,
// textures, palettes, the marker cube and billboard square, each loaded once on
// first use and kept (null: it failed, logged once). What each is:
// docs/render.md "Meshes and GPU assets".

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include <glad/gl.h>
#include <glm/vec3.hpp>

#include "dereth/core/worker_pool.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/gfx_obj_degrade_info.hpp"
#include "dereth/dat/palette.hpp"
#include "dereth/render/material.hpp"
#include "dereth/render/mesh.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

#include "render_context.hpp"
#include "worker_loads.hpp"

namespace dereth::render {

struct GpuMaterial {
  GLuint texture = 0;
  Material info;  // image pixels released after upload
  // What the asset cache's bound counts (RendererOptions::mesh_cache_bytes):
  // the texture's bytes with its mips, and the frame that last asked for it.
  std::size_t bytes = 0;
  std::uint64_t last_used = 0;
};

struct GpuBatch {
  std::uint32_t first_index = 0;
  std::uint32_t index_count = 0;
  // A flat mesh's (GpuMesh::flat) triangles of this batch, in their order,
  // less those facing +y (seen from -y, the back faces GL culls), and less
  // those facing -y: where in the index buffer, and how many indices.
  std::uint32_t seen_from_below_first = 0;
  std::uint32_t seen_from_below_count = 0;
  std::uint32_t seen_from_above_first = 0;
  std::uint32_t seen_from_above_count = 0;
  std::shared_ptr<GpuMaterial> material;  // null: the Surface did not load (skipped)
};

struct GpuMesh {
  GLuint vao = 0;
  GLuint vbo = 0;
  GLuint ebo = 0;
  std::vector<GpuBatch> batches;
  bool flat = false;             // every vertex at local y = 0 (a particle's quad, the billboard square)
  glm::vec3 sort_center{0.0F};   // the GfxObj's, for the viewer distance
  glm::vec3 bound_center{0.0F};  // the vertices' bounding sphere, mesh-local (frustum culling)
  float bound_radius = 0.0F;
  // A small mesh's vertices and indices (the side lists included) kept here
  // too, for runs of it drawn as one expanded draw (MeshPass::submit); empty
  // for a mesh of more than kExpandedVertices vertices.
  std::vector<MeshVertex> small_vertices;
  std::vector<std::uint32_t> small_indices;
  std::optional<dat::GfxObjDegradeInfo> degrades;  // its degrade levels (draw modes), when it names any
  dat::Did original_palette = 0;  // CPhysicsPart::DetermineBasePal: its first Surface's with one (0: none)
  std::size_t bytes = 0;          // its vertex and index buffers
  std::uint64_t last_used = 0;    // the frame that last asked for it
};

// No ObjDesc palette on a part.
constexpr std::uint32_t kNoPalette = 0xFFFFFFFFU;

// What is read and decoded for a GfxObj's mesh before its GL upload: on an
// asset worker (RendererOptions::asset_workers, under a load budget) or on the
// frame loop's thread. The upload (GpuAssets::adopt_mesh) is always the frame
// loop's. Everything here is made from the record cache alone.
struct PreparedMesh {
  dat::Did gfx_obj = 0;
  std::shared_ptr<const dat::GfxObj> obj;  // null: none (`why`)
  std::string why;
  MeshData data;
  // Per surface of the GfxObj (its index): the decoded material, or why not;
  // empty where it was not decoded here (the upload then loads it, if used).
  std::vector<std::optional<core::Result<Material>>> materials;
  bool degrades_read = false;  // the two below were read here (else the upload reads them)
  std::optional<dat::GfxObjDegradeInfo> degrades;
  std::string degrade_why;  // set when its GfxObjDegradeInfo does not read
};

// What is read and decoded for an EnvCell's mesh before its GL upload
// (GpuAssets::cell_mesh): its CellStruct's triangles from the snapshot's
// Environment, and its surfaces decoded, per index of the cell's surfaces.
struct PreparedCell {
  MeshData data;
  std::string why;  // set when there is nothing to upload
  std::vector<std::optional<core::Result<Material>>> materials;
};

// A texture load an asset worker can do, by what the frame asked for: a
// Surface, a Surface with an ObjDesc's texture change, the same through a
// composed palette (`palette_key`), or a bare texture for a billboard.
struct TextureKey {
  enum class Kind : std::uint8_t { Surface, Changed, Recoloured, Billboard };
  Kind kind = Kind::Surface;
  dat::Did surface = 0;
  dat::Did texture = 0;
  std::uint32_t palette_key = 0;
  auto operator<=>(const TextureKey&) const = default;
};

// One DrawItem's per-instance vertex attributes (kMeshVertex locations 3..11).
struct Instance {
  std::array<float, 16> model;  // columns
  std::array<float, 9> normal;  // columns
  std::array<float, 4> tint;
  std::array<float, 3> params;  // alpha, luminosity, diffuse
};
static_assert(sizeof(Instance) == 32 * sizeof(float));
constexpr GLuint kInstanceAttribute = 3;  // the first per-instance attribute
constexpr GLuint kInstanceAttributes = 9;

// One vertex of a run drawn expanded (RendererOptions::expand_small_runs):
// the mesh's vertex and its instance's attributes side by side, every
// attribute per vertex, so the vertex shader reads the same values an
// instanced draw gives it.
struct ExpandedVertex {
  MeshVertex vertex;
  Instance instance;
};
static_assert(sizeof(ExpandedVertex) == sizeof(MeshVertex) + sizeof(Instance));
// The most vertices a mesh may have to be drawn expanded (a particle's
// quad, the billboard square, the marker cube).
constexpr std::size_t kExpandedVertices = 16;

class GpuAssets {
 public:
  explicit GpuAssets(RenderContext& context) : ctx_(context) {}
  GpuAssets(const GpuAssets&) = delete;
  GpuAssets& operator=(const GpuAssets&) = delete;

  // The anisotropic degree textures are made with (RendererOptions::max_anisotropy
  // where the context has the extension and is not a software rasteriser).
  void detect_anisotropy();
  // The per-instance attribute buffer; before the first mesh is uploaded.
  // And the expanded draws' vertex array, buffers and attributes.
  void create_instance_buffer();
  // The marker cube and the billboard square with the marker's white surface.
  void build_fixed_meshes();
  // Frees every GL object it made (the context current).
  void release();

  // Trilinear, plus anisotropic filtering where the context has it.
  void set_filtering(GLenum target) const;
  [[nodiscard]] GLuint upload_texture(const Image& image) const;
  [[nodiscard]] std::shared_ptr<GpuMaterial> make_material(Material m) const;
  // Per-instance attributes 3..11 of a mesh's VAO, `first` instances into instance_vbo (bound as GL_ARRAY_BUFFER).
  static void point_instances(std::size_t first);
  // The attribute layouts every mesh draw reads, instanced or expanded:
  // 0..2 a MeshVertex's fields, 3..11 an Instance's, from the buffer bound
  // as GL_ARRAY_BUFFER, the first at byte `base` and each next `stride` on.
  static void point_vertex_attributes(std::size_t base, GLsizei stride);
  static void point_instance_attributes(std::size_t base, GLsizei stride);
  [[nodiscard]] GpuMesh upload_mesh(const MeshData& data) const;

  std::shared_ptr<GpuMaterial> material(dat::Did surface);
  // A surface's material from a decode done beforehand (`decoded`, or read
  // now when empty); inside a load under way.
  std::shared_ptr<GpuMaterial> material_from(dat::Did surface, std::optional<core::Result<Material>>& decoded);
  std::shared_ptr<GpuMaterial> material(dat::Did surface, dat::Did texture);
  std::shared_ptr<GpuMaterial> material(dat::Did surface, dat::Did texture, std::uint32_t palette_key);
  std::shared_ptr<GpuMaterial> billboard_material(dat::Did texture);
  std::uint32_t composed_palette(const sim::PaletteChange& change);
  // A GfxObj's mesh; null when it failed (logged once) or waits: on the load
  // budget, or, with asset workers under a budget, on a worker reading and
  // decoding it (stats.loads_deferred counts both). A prepared mesh is
  // uploaded when next asked for, within the budget. EnvCell meshes,
  // Surfaces, changed and recoloured textures, billboards and composed
  // palettes wait on the workers the same way.
  const GpuMesh* mesh(dat::Did gfx_obj);
  // Loads handed to the asset workers and not yet uploaded (still with a
  // worker, or back and waiting for a frame to ask for them again): GfxObj
  // meshes, and the rest (EnvCell meshes, textures, composed palettes).
  [[nodiscard]] std::size_t meshes_preparing() const noexcept { return mesh_loads_.size(); }
  [[nodiscard]] std::size_t others_preparing() const noexcept {
    return cell_loads_.size() + texture_loads_.size() + palette_loads_.size();
  }
  // Waits until the asset workers are idle (tests).
  void wait_for_workers();
  const GpuMesh* cell_mesh(const sim::CellSnapshot& c);
  // Between frames: while the GfxObj and EnvCell meshes and the Surfaces'
  // textures take more than `budget` bytes, frees the least recently used
  // of those the current frame did not ask for (a texture once no kept mesh
  // holds it); a freed one is loaded again when next asked for.
  void trim(std::size_t budget);
  [[nodiscard]] std::size_t cached_bytes() const noexcept { return mesh_bytes_ + texture_bytes_; }
  [[nodiscard]] std::uint64_t evicted() const noexcept { return evicted_; }

  GpuMesh cube;                        // the marker
  GpuMesh quad;                        // texture billboards (batch material set per draw)
  std::shared_ptr<GpuMaterial> white;  // the marker's surface
  GLuint instance_vbo = 0;             // the per-instance attributes of the draws being submitted
  GLuint expanded_vao = 0;             // the expanded draws': every attribute per vertex, from expanded_vbo
  GLuint expanded_vbo = 0;             // ExpandedVertex, the submitted list's expanded runs
  GLuint expanded_ebo = 0;             // their indices into expanded_vbo
  float anisotropy = 1.0F;             // the degree textures are created with (1: trilinear only)
  bool software = false;               // the context is a software rasteriser (llvmpipe, softpipe, swrast)

 private:
  const GpuMesh* adopt_mesh(PreparedMesh prepared);
  const GpuMesh* adopt_cell(const sim::CellSnapshot& c, PreparedCell prepared);
  // A decoded material uploaded, or its error logged once under `log_id` (null).
  std::shared_ptr<GpuMaterial> adopt_material(dat::Did log_id, core::Result<Material> decoded);
  // Whether first-use loads go to the asset workers: asset workers, a load
  // budget and a record cache.
  [[nodiscard]] bool on_workers() const noexcept;
  // Whether a first-use load of `key` goes on now (in a LoadScope the caller
  // opens). With `use_workers`, once a worker has made it (into `made`) and
  // the budget lets its upload start; until then handed to a worker (running
  // `make`) and counted deferred. Without, when the budget lets it start
  // (`made` stays empty: the caller reads and decodes it here).
  template <class Key, class Prepared, class Make>
  bool begin_load(bool use_workers, WorkerLoads<Key, Prepared>& loads, const Key& key, Make make,
                  std::optional<Prepared>& made);
  void collect();

  RenderContext& ctx_;
  WorkerLoads<dat::Did, PreparedMesh> mesh_loads_;
  WorkerLoads<std::uint32_t, PreparedCell> cell_loads_;  // by EnvCell id
  WorkerLoads<TextureKey, core::Result<Material>> texture_loads_;
  WorkerLoads<sim::PaletteChange, core::Result<dat::Palette>> palette_loads_;
  std::unordered_map<dat::Did, std::shared_ptr<GpuMesh>> meshes_;            // null: failed
  std::unordered_map<std::uint32_t, std::shared_ptr<GpuMesh>> cell_meshes_;  // by EnvCell id, null: failed
  std::unordered_map<dat::Did, std::shared_ptr<GpuMaterial>> materials_;     // surfaces (0x08), null: failed
  std::unordered_map<dat::Did, std::shared_ptr<GpuMaterial>> billboards_;    // textures (0x05/0x06), null: failed
  std::unordered_map<std::uint64_t, std::shared_ptr<GpuMaterial>>
      changed_materials_;  // (surface << 32 | texture), null: failed
  // ObjDesc palettes: the DAT's palettes, each composition once (its key is
  // its index in `composed_`, null: it makes none), and the surfaces drawn
  // through one, per (surface, texture, composition).
  std::map<sim::PaletteChange, std::uint32_t> palette_keys_;
  std::vector<std::shared_ptr<const dat::Palette>> composed_;
  std::size_t mesh_bytes_ = 0;     // meshes_ and cell_meshes_
  std::size_t texture_bytes_ = 0;  // materials_
  std::uint64_t evicted_ = 0;      // meshes and textures trim freed
  std::map<std::tuple<dat::Did, dat::Did, std::uint32_t>, std::shared_ptr<GpuMaterial>> palette_materials_;
};

}  // namespace dereth::render
