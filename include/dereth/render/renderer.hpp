#pragma once
// The OpenGL renderer: draws one sim::RenderSnapshot, and nothing else, with
// the DAT assets it names (terrain, objects' parts, the landscape's buildings
// and EnvCells, particles, lights, fog and sky: docs/render.md lists what and
// why). It draws into its own framebuffer (render) or the caller's
// (render_to_current, for a window); a bad or missing record is logged once
// and draws nothing (or a marker). One Renderer per GL context, every call
// (destruction included) on the thread where that context is current.

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/error.hpp"
#include "dereth/dat/cell_record_cache.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/render/camera.hpp"
#include "dereth/render/draw_order.hpp"
#include "dereth/render/gl_loader.hpp"
#include "dereth/render/image.hpp"
#include "dereth/render/material.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::dat {
struct Region;
}  // namespace dereth::dat

namespace dereth::render {

struct RendererOptions {
  bool draw_terrain = true;
  int terrain_radius = 1;  // landblocks around the camera centre: (2r+1)^2
  // The far terrain at lower detail, as retail's LScape: blocks two away
  // from the camera centre's block drawn at 4 cells a side, three and four
  // away at 2, farther at 1, stitched at the ring edges (docs/render.md
  // "Terrain"). False draws every block at full detail.
  bool terrain_lod = true;
  // The terrain's blocks drawn nearest first where the picture stays the
  // grid order's (a block drawn before a neighbour that precedes it in the
  // grid goes with its triangles reversed and GL_LESS: docs/render.md
  // "Terrain"), so llvmpipe's early depth test skips shading the land that
  // nearer hills hide. False draws the blocks in grid order (for tests and
  // profiling).
  bool terrain_front_to_back = true;
  int terrain_layer_size = 64;                   // texels per terrain texture layer (and per cell of the surface cache)
  std::size_t terrain_cache_bytes = 64U << 20U;  // the landscape surface cache's memory bound
  // The GfxObj and EnvCell meshes' and the Surfaces' textures' memory bound
  // (GpuAssets::trim after each frame: the least recently used not drawn
  // in that frame are freed and loaded again when next drawn); 0: none.
  std::size_t mesh_cache_bytes = std::size_t{512} << 20U;
  std::array<float, 4> clear_color{0.47F, 0.63F, 0.86F, 1.0F};  // sky (the fog's colour when the Region fogs)
  glm::vec3 ambient{0.45F};
  glm::vec3 sun_color{0.65F};
  glm::vec3 sun_towards{0.4F, -0.5F, 0.77F};  // direction towards the sun (normalised on use)
  // ambient, sun_color and sun_towards light the frame when the Region
  // (0x13000000) has no SkyDesc; with one, its keyframes at the time of day
  // give the sun, the ambient and the world fog (docs/render.md "Sky light
  // and fog"). The time of day is the snapshot's (RenderSnapshot::sky: the
  // game clock once the server's TimeSync arrived, whose day picks retail's
  // day group, SkyDesc::CalcPresentDayGroup); without one, the fixed hour
  // time_of_day in day_group.
  bool use_region_sky = true;
  float time_of_day = 0.5F;   // fraction of the day [0, 1) without a game time: the demo's fixed hour, noon
  std::size_t day_group = 0;  // the SkyDesc day group without a game time
  // The day group's sky objects (dome, sun, moon, clouds: GameSky) at the
  // time of day, around the eye, behind everything (docs/render.md "Sky
  // objects"); the snapshot's game clock (SkyTime::seconds, 0 without one)
  // scrolls their textures by each object's texture velocity. sky_first
  // draws them as retail orders it, first with the depth test off; by
  // default they go after the opaque world and the clip list at the far
  // plane, before the alpha list: the same picture without shading the sky
  // under the terrain.
  bool draw_sky_objects = true;
  bool sky_first = false;
  // The sky objects drawn behind the world only in the rows of the frame
  // the terrain does not cover whole: a scissor above the rows where every
  // pixel's ray is sure to meet a full-detail terrain block well inside the
  // far plane (sky_cover_rows, docs/render.md "Sky objects"), so the
  // rasteriser never visits the fragments the depth test would reject. The
  // same picture; false rasterises the whole sky (for tests and profiling).
  bool sky_scissor = true;
  // Meshes lit per vertex (Gouraud), as retail's fixed-function D3D lit
  // them; false lights every fragment (smoother, dearer on llvmpipe).
  bool vertex_lighting = true;
  float marker_size = 0.6F;       // the no-parts marker cube's edge, metres
  bool finish_each_frame = true;  // glFinish at the end of render, so timings include rasterising
  DegradeSettings degrade;        // Render::deg_mul and s_rDegradeDistance for GfxObj degrade modes
  bool record_draw_list = false;  // keep the frame's draws in order for last_draw_list()
  float max_anisotropy = 16.0F;   // texture filtering: trilinear, plus anisotropic up to this where supported
  // Anisotropic filtering on a software rasteriser too (llvmpipe, softpipe,
  // swrast). Off by default: on llvmpipe any degree above 1 costs 2.5-3x the
  // frame time (docs/benchmarks.md), so there the filtering is trilinear.
  bool anisotropic_on_software = false;
  // Parts, particles, markers, EnvCells and terrain blocks wholly outside the
  // view frustum (by their bounding sphere or box) are not drawn.
  bool frustum_cull = true;
  // Runs of draws of one (GfxObj, surface) with one state go out as one
  // instanced draw call; the opaque list is sorted by texture and mesh first
  // (the clip and alpha lists keep their back-to-front order). Off: one call
  // per batch, in the same order (the same pixels; for tests and profiling).
  bool batch_draws = true;
  // A flat particle mesh (every vertex at local y = 0: a spark's two-sided
  // quad, the billboard square) seen clearly from one side of its plane
  // sends only the triangles that face the eye; the others are back faces,
  // which GL culls anyway, so the pixels are the same with fewer vertices
  // shaded and triangles set up. Off: every triangle is sent (for tests and
  // profiling).
  bool skip_flat_back_faces = true;
  // A run of one small mesh (16 vertices or fewer: a particle's quad, the
  // billboard square, the marker cube) goes out as one non-instanced draw of
  // its vertices copied once per draw beside that draw's attributes, not as
  // an instanced draw: the same vertices, attributes and order, so the same
  // pixels, and on a software rasteriser, which shades and sets up an
  // instance at a time, far less work (docs/benchmarks.md). Off: instanced
  // (for tests and profiling).
  bool expand_small_runs = true;
  // First-use asset loads (a GfxObj's mesh and its surfaces, a changed or
  // recoloured surface, a particle texture, an EnvCell, a terrain block)
  // start in a frame only until its loads have taken this many
  // milliseconds; what is left waits for the next frames and is not drawn
  // until then (an object waits whole, with no marker in its place; see
  // Renderer::render_ready). The frame's first load always proceeds, so
  // one load longer than the budget still makes progress. 0, the default:
  // every asset a frame needs loads in that frame (headless frames and
  // screenshots; the window sets it from the config's
  // render_load_budget_ms, docs/render.md "Load budget").
  double load_budget_ms = 0.0;
  // Threads that read and decode GfxObj meshes and their surfaces' textures
  // off the frame loop's thread while a load budget is set (the window:
  // the config's stream_workers); a mesh waits, not drawn, until its worker
  // is done, and is uploaded within the budget. 0: read in the frame that
  // needs it. Fixed at the first mesh a worker is asked for.
  int asset_workers = 0;
};

// One draw call of a frame, in submission order (RendererOptions::record_draw_list).
enum class DrawKind : std::uint8_t { Terrain, Part, Marker, Particle, Cell, Sky };
// How a draw meets the depth buffer: tested as usual, always passing (sky
// objects drawn first), or at the far plane (sky objects behind the world).
enum class DepthMode : std::uint8_t { Test, Always, FarPlane };
struct DrawRecord {
  DrawKind kind = DrawKind::Part;
  AlphaClass alpha = AlphaClass::Opaque;  // which pass: opaque, then the clip list, then the alpha list
  sim::LocalId owner = sim::LocalId::None;
  std::uint32_t gfx_obj = 0;  // the GfxObj (particles: the emitter's; cells: the Environment; sky: the sky object's), 0
                              // for terrain and markers
  std::uint32_t surface = 0;  // the Surface (0x08...) or billboard texture, 0 for terrain and markers
  std::uint32_t block = 0;    // terrain: the landblock id; cells: the EnvCell id
  float distance = 0.0F;      // CYpt: metres from the eye to the part's sort centre
  std::uint32_t degrade_mode = 1;  // the draw frame's mode (2: facing the eye)
  SurfaceState state;              // blend, alpha test, depth writes
  DepthMode depth = DepthMode::Test;
  std::size_t lights = 0;  // point lights lighting it (Render::minimize_object_lighting, at most 8)
};

// What the last frame drew.
struct RenderStats {
  std::size_t mesh_cache_bytes = 0;      // after the frame: meshes and Surface textures kept (mesh_cache_bytes)
  std::uint64_t mesh_cache_evicted = 0;  // meshes and textures freed to stay within it, since the start
  std::size_t objects = 0;               // in the snapshot
  std::size_t objects_skipped = 0;       // Hidden or NoDraw
  std::size_t parts_drawn = 0;
  std::size_t parts_missing = 0;  // parts whose GfxObj could not be loaded
  std::size_t markers = 0;        // objects drawn as the marker cube
  std::size_t particles_drawn = 0;
  std::size_t sky_objects_drawn = 0;
  int sky_rows_covered = 0;  // rows at the bottom of the frame the sky scissor left out
  // First-use loads refused for the load budget (RendererOptions::load_budget_ms),
  // and the objects and terrain blocks left undrawn for them.
  std::size_t loads_deferred = 0;
  std::size_t objects_deferred = 0;
  std::size_t terrain_blocks_deferred = 0;
  // GfxObj meshes handed to the asset workers (RendererOptions::asset_workers) and not yet
  // uploaded after the frame: with a worker, or back and waiting to be asked for again.
  std::size_t meshes_preparing = 0;
  // The same for the rest the asset workers load: EnvCell meshes, Surfaces, changed and
  // recoloured textures, billboard textures, composed palettes, the Region's terrain
  // layers and the terrain blocks (read and meshed).
  std::size_t others_preparing = 0;
  std::size_t terrain_blocks = 0;      // drawn
  std::size_t terrain_blocks_far = 0;  // of those, drawn at a lower detail (far terrain)
  // ... drawn before a grid predecessor, triangles reversed (terrain_front_to_back)
  std::size_t terrain_blocks_reversed = 0;
  std::size_t terrain_triangles = 0;    // the terrain's share of `triangles`
  std::size_t back_faces_left_out = 0;  // flat particles' triangles not sent (skip_flat_back_faces)
  std::size_t expanded_draws = 0;       // draw calls of small meshes' runs expanded (expand_small_runs)
  std::size_t cells_drawn = 0;          // EnvCells (the snapshot's landscape cells)
  std::size_t lights = 0;               // in the frame's static and dynamic light lists (each draw uses at most 8)
  std::size_t draw_calls = 0;           // GL draw calls (an instanced run of batches is one)
  std::size_t batches = 0;  // mesh batches drawn (one per part/particle/cell and surface), terrain blocks included
  std::size_t triangles = 0;
  // Left out by frustum culling (RendererOptions::frustum_cull).
  std::size_t parts_culled = 0;  // parts and markers
  std::size_t particles_culled = 0;
  std::size_t cells_culled = 0;
  std::size_t terrain_blocks_culled = 0;
  // The frame was portal space: the tunnel alone, no world (RenderSnapshot::portal).
  bool portal_space = false;
};

// The landscape surface cache (docs/render.md, "Terrain"): one composited
// surface texture per landblock, built when the block arrives and freed when
// it is unloaded (leaves the square within terrain_radius + 1 of the camera
// centre's block) or evicted for the memory bound.
struct TerrainCacheStats {
  std::uint64_t built = 0;         // surfaces composited: one per landblock arrival
  std::uint64_t freed = 0;         // surfaces released: unloaded, evicted or at teardown
  std::uint64_t evicted = 0;       // of those, released to stay within terrain_cache_bytes
  std::size_t resident = 0;        // landblocks held now
  std::size_t resident_bytes = 0;  // their surfaces' memory, every mip level
  std::size_t peak_bytes = 0;      // the most resident_bytes has been
  // Far-terrain meshes (a block at a lower detail: LScape::get_block_orient's
  // size 2, 4 or 8 with its edge transition) made and uploaded: one per
  // (block, size, transition) while the block stays loaded, never per frame.
  std::uint64_t lod_meshes_built = 0;
};

// Wall-clock seconds per phase, for the frame-time report (the app times
// building the snapshot itself).
struct FrameTiming {
  double load = 0.0;      // DAT reads, decoding and uploads of assets first seen this frame
  double prepare = 0.0;   // walking the snapshot into draw lists (culling, sorting), loads excluded
  double submit = 0.0;    // issuing GL calls
  double finish = 0.0;    // glFinish: the (software) rasteriser completing the frame
  double readback = 0.0;  // read_pixels, when called
  [[nodiscard]] double total() const noexcept { return load + prepare + submit + finish + readback; }
};

struct TimingTotals {
  std::uint64_t frames = 0;
  FrameTiming sum;
  FrameTiming max;
};

class Renderer {
 public:
  // Loads the GL entry points through `loader` (the context must be current),
  // compiles the shaders and creates the fixed meshes. `portal` and `cell`
  // may be null (then every object draws as a marker and there is no
  // terrain); they are copied (DatFile copies share one open file).
  [[nodiscard]] static core::Result<std::unique_ptr<Renderer>> create(GlProcLoader loader, const dat::DatFile* portal,
                                                                      const dat::DatFile* cell,
                                                                      RendererOptions options = {});
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  // The portal's Region (0x13000000) to draw with: the terrain's heights and
  // types, and the SkyDesc's light, fog and sky objects. The renderer never
  // reads it itself: whoever decoded it (the world, through its record
  // cache) hands it over, so it is decoded once. Null, as at creation: no
  // terrain and the fixed light. Another Region than held replaces it (its
  // terrain layers are uploaded at the next frame).
  void set_region(std::shared_ptr<const dat::Region> region);
  // The record cache the GPU caches read GfxObjs, Surfaces, textures,
  // Palettes and DegradeInfos through: the world's (World::shared_records),
  // so each is decoded once whether the simulation or the renderer asks
  // first. Null, as at creation: a cache of the renderer's own over its
  // portal DAT. What is already uploaded stays (same DAT, same ids).
  void set_records(std::shared_ptr<dat::RecordCache> records);
  // The cell records the terrain reads its LandBlocks through: the world's
  // (World::shared_cell_records), so a block the landscape holds is read
  // once. Null, as at creation: a cache of the renderer's own over its cell DAT.
  void set_cell_records(std::shared_ptr<dat::CellRecordCache> cells);

  // Draws the snapshot into the renderer's framebuffer object, created or
  // resized to width x height (1..8192).
  [[nodiscard]] core::Result<void> render(const sim::RenderSnapshot& snapshot, const Camera& camera, int width,
                                          int height);
  // Draws into whatever framebuffer is bound (a window's), viewport 0,0,w,h.
  [[nodiscard]] core::Result<void> render_to_current(const sim::RenderSnapshot& snapshot, const Camera& camera,
                                                     int width, int height);
  // Binds the framebuffer object render() drew into as the draw framebuffer
  // and sets the viewport to its size, so an Overlay can draw over the frame
  // before read_pixels or write_screenshot. False, binding nothing, before
  // the first render(). The binding stays: rebind the caller's afterwards.
  bool bind_framebuffer();
  // The owned framebuffer's pixels (after render), top row first, alpha 255.
  [[nodiscard]] Image read_pixels();
  // read_pixels, then write_png (atomic): what `--screenshot PATH` calls
  // after render(). An error when nothing was rendered offscreen yet.
  [[nodiscard]] core::Result<void> write_screenshot(const std::filesystem::path& path);

  [[nodiscard]] const RenderStats& stats() const noexcept;
  // The last frame's draws in the order they were submitted; empty unless
  // RendererOptions::record_draw_list.
  [[nodiscard]] const std::vector<DrawRecord>& last_draw_list() const noexcept;
  // The anisotropic filtering degree textures are created with: 1 (trilinear
  // only) without GL_ARB/EXT_texture_filter_anisotropic, and on a software
  // rasteriser unless RendererOptions::anisotropic_on_software.
  [[nodiscard]] float anisotropy() const noexcept;
  [[nodiscard]] const TerrainCacheStats& terrain_cache_stats() const noexcept;
  [[nodiscard]] const FrameTiming& last_timing() const noexcept;
  [[nodiscard]] const TimingTotals& timing_totals() const noexcept;

  // Whether the last frame drew what its snapshot asked for, for a gate
  // that keeps the world hidden until it is drawn (issue 32's teleport):
  // render_ready, nothing of the world waited on the load budget
  // (RendererOptions::load_budget_ms; always true without one, after a
  // world frame); object_ready, the object of that id was in the last
  // world frame's snapshot and every mesh and surface of it is uploaded
  // (Hidden and NoDraw objects count as drawn); landblock_ready (0xXXYY....,
  // the low 16 bits ignored), its terrain block was in the last frame's
  // terrain square and uploaded (or is absent from the cell DAT, or no
  // terrain is drawn) and no object of the snapshot whose cell is in it
  // waited. A portal-space frame draws no world: all three are false
  // after one.
  [[nodiscard]] bool render_ready() const noexcept;
  // Blocks until the asset workers (RendererOptions::asset_workers) have
  // nothing queued or running (tests; a frame never waits on them).
  void wait_for_asset_workers();
  // The teleport gate's question (sim::DatLandscapeLoader::set_render_ready):
  // whether the landblock (0xXXYY...., the low 16 bits ignored) was ready
  // at the last frame, and a wish that the next frames make it so. Each
  // frame first loads, within the load budget and whatever it shows (portal
  // space included), the terrain block and the meshes and surfaces of every
  // object, building and EnvCell of its snapshot standing in a landblock
  // asked about since the frame before; a landblock is ready when none of
  // that waits. A landblock never asked about is not ready; one not asked
  // about again is forgotten after the next frame.
  [[nodiscard]] bool prepare_landblock(std::uint32_t landblock);
  [[nodiscard]] bool object_ready(sim::LocalId id) const noexcept;
  [[nodiscard]] bool landblock_ready(std::uint32_t landblock) const noexcept;

  [[nodiscard]] const RendererOptions& options() const noexcept;
  RendererOptions& options() noexcept;

 private:
  struct Impl;
  explicit Renderer(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

// The colour of an object's marker cube: the player's is yellow, others'
// come from their GUID (stable across runs).
[[nodiscard]] glm::vec3 marker_color(const sim::ObjectSnapshot& object) noexcept;

}  // namespace dereth::render
