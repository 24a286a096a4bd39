#include "dereth/render/renderer.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include <glad/gl.h>

#include "dereth/render/portal.hpp"

#include "frame_lights.hpp"
#include "gpu_assets.hpp"
#include "mesh_pass.hpp"
#include "portal_pass.hpp"
#include "render_context.hpp"
#include "sky_pass.hpp"
#include "terrain_assets.hpp"
#include "terrain_pass.hpp"

namespace dereth::render {

namespace {

constexpr int kMaxTargetSize = 8192;
constexpr std::size_t kSkyStrips = 1;  // the sky scissor's vertical strips

core::Error gl_error(std::string field, std::string detail) {
  return core::Error{core::ErrorKind::Unsupported, "OpenGL", std::move(field), 0, std::move(detail)};
}

}  // namespace

// The renderer: the GPU assets, the passes that draw a frame from them, and
// its own framebuffer. A frame walks the snapshot into the terrain's blocks
// and the mesh pass's lists, then draws the sky (first or behind the opaque
// world), the terrain, the opaque and clip lists and the alpha list, and
// the portal pass's veil over them in the world's fades; a portal-space
// frame draws the tunnel alone.
struct Renderer::Impl {
  RenderContext ctx;
  GpuAssets assets{ctx};
  TerrainAssets terrain_assets{ctx};
  FrameLights lights{ctx};
  TerrainPass terrain_pass{ctx, terrain_assets, lights};
  MeshPass mesh_pass{ctx, assets, lights};
  SkyPass sky_pass{ctx, terrain_assets, assets, mesh_pass};
  PortalPass portal_pass;

  GLuint fbo = 0;
  GLuint color_rb = 0;
  GLuint depth_rb = 0;
  int fbo_width = 0;
  int fbo_height = 0;

  FrameTiming timing;
  TimingTotals totals;
  bool world_frame = false;       // the last frame drew the world (not portal space)
  bool terrain_expected = false;  // ... and had a terrain square to draw
  // Landblock keys (0xXXYY0000) asked for since the last frame
  // (prepare_landblock), and of those, the ones ready after it (sorted).
  std::vector<std::uint32_t> wanted_blocks;
  std::vector<std::uint32_t> prepared_blocks;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() { release(); }

  void release() {
    assets.release();
    terrain_assets.release();
    if (fbo != 0) glDeleteFramebuffers(1, &fbo);
    if (color_rb != 0) glDeleteRenderbuffers(1, &color_rb);
    if (depth_rb != 0) glDeleteRenderbuffers(1, &depth_rb);
    mesh_pass.release();
    terrain_pass.release();
    portal_pass.release();
    fbo = color_rb = depth_rb = 0;
  }

  // The programs in a fixed order (the mesh programs, the terrain's, then the
  // instance buffer and the surface cache's composite), so every GL name is
  // the one it always was.
  core::Result<void> build_programs() {
    DERETH_CHECK(mesh_pass.build_programs());
    DERETH_CHECK(terrain_pass.build_program());
    assets.create_instance_buffer();
    return terrain_assets.cache.create_gl();
  }

  // ---- per frame -------------------------------------------------------------------------------

  core::Result<void> ensure_target(int width, int height) {
    if (fbo != 0 && fbo_width == width && fbo_height == height) return {};
    if (fbo == 0) {
      glGenFramebuffers(1, &fbo);
      glGenRenderbuffers(1, &color_rb);
      glGenRenderbuffers(1, &depth_rb);
    }
    glBindRenderbuffer(GL_RENDERBUFFER, color_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, depth_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
    GLint previous_draw = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_draw);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_rb);
    glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_rb);
    const GLenum status = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(previous_draw));
    if (status != GL_FRAMEBUFFER_COMPLETE) {
      fbo_width = fbo_height = 0;
      return std::unexpected(gl_error("framebuffer", "incomplete framebuffer, status " + hex_id(status)));
    }
    fbo_width = width;
    fbo_height = height;
    return {};
  }

  core::Result<void> draw(const sim::RenderSnapshot& snapshot, const Camera& camera, int width, int height,
                          bool own_target) {
    if (width <= 0 || height <= 0 || width > kMaxTargetSize || height > kMaxTargetSize) {
      return std::unexpected(core::Error{core::ErrorKind::Invalid, "Renderer", "size", 0,
                                         "width and height must be 1.." + std::to_string(kMaxTargetSize)});
    }
    ctx.stats = RenderStats{};
    ++ctx.frame_number;
    ctx.draw_list.clear();
    ctx.ready_objects.clear();
    ctx.waiting_objects.clear();
    ctx.waiting_landblocks.clear();
    ctx.terrain_blocks_known.clear();
    world_frame = false;
    timing = FrameTiming{};
    ctx.load_seconds = 0.0;
    ctx.loads_started = 0;
    const auto prepare_start = Clock::now();

    FrameView view;
    view.origin = camera.center();
    view.view_projection = camera.view_projection(width, height, view.origin);
    view.eye = camera.eye();
    view.eye_rel = view.eye - view.origin;
    view.frustum = Frustum::from_matrix(view.view_projection);
    view.far_plane = camera.far_plane;
    view.forward = camera.forward();
    if (own_target) DERETH_CHECK(ensure_target(width, height));
    prepare_wanted(snapshot);
    // Portal space hides the world (SmartBox::Hide): nothing of it is gathered or drawn.
    const PortalFrame portal = portal_frame(snapshot.portal);
    if (portal.tunnel) return draw_portal_space(snapshot.portal, portal, width, height, own_target, prepare_start);

    const std::vector<TerrainDraw> blocks = terrain_pass.gather_terrain(view.origin);
    if (ctx.portal) terrain_assets.ensure_region();  // the SkyDesc lights the frame even without terrain
    const FrameSky sky = sky_pass.frame_sky(snapshot);
    lights.gather_lights(snapshot, view);
    DrawLists lists;
    mesh_pass.gather_objects(snapshot, view, lists);
    mesh_pass.gather_particles(snapshot, view, lists);
    if (ctx.options.batch_draws) MeshPass::order_by_state(lists.opaque);
    MeshPass::order_back_to_front(lists.clip);
    MeshPass::order_back_to_front(lists.alpha);
    note_readiness();
    timing.prepare = std::max(0.0, seconds_since(prepare_start) - ctx.load_seconds);

    // ---- submit ----
    const auto submit_start = Clock::now();
    GLint previous_framebuffer = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_framebuffer);
    if (own_target) glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
    glViewport(0, 0, width, height);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDepthMask(GL_TRUE);
    // With the Region's fog the background is the fog's colour, so the ground
    // fades into it at the horizon where no sky object covers it; otherwise
    // the fixed clear colour. The sky objects are drawn over it first.
    const glm::vec3 background =
        sky.fog ? sky.fog_color
                : glm::vec3(ctx.options.clear_color[0], ctx.options.clear_color[1], ctx.options.clear_color[2]);
    glClearColor(background.r, background.g, background.b, 1.0F);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE);  // destination alpha stays 1
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LEQUAL);
    glEnable(GL_CULL_FACE);
    glCullFace(GL_BACK);
    glFrontFace(GL_CCW);
    glDisable(GL_BLEND);

    if (ctx.options.sky_first) sky_pass.draw_sky(snapshot, camera, width, height, sky, {});
    const TerrainCover cover = terrain_pass.draw_terrain(blocks, view, sky);
    mesh_pass.draw_meshes(lists, view, sky, false);
    if (!ctx.options.sky_first) {
      // Behind the world: not in the rows the terrain covers whole.
      std::array<int, kSkyStrips> covered{};
      if (ctx.options.sky_scissor) sky_cover_strips(view.view_projection, cover, width, height, covered);
      sky_pass.draw_sky(snapshot, camera, width, height, sky, covered);
    }
    mesh_pass.draw_meshes(lists, view, sky, true);
    // The world's fades: black over the whole frame.
    core::Result<void> veiled;
    if (portal.veil > 0.0F) veiled = portal_pass.draw_veil(portal.veil);

    glBindVertexArray(0);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glUseProgram(0);
    end_frame(own_target, previous_framebuffer, submit_start);
    return veiled;
  }

  // The landblocks the teleport gate asked about, loaded first (within the
  // budget) whatever the frame shows: the destination uploads behind the
  // portal-space tunnel.
  void prepare_wanted(const sim::RenderSnapshot& snapshot) {
    prepared_blocks.clear();
    if (wanted_blocks.empty()) return;
    std::ranges::sort(wanted_blocks);
    std::vector<std::uint32_t> waiting;
    for (const std::uint32_t key : wanted_blocks) {
      if (!terrain_pass.prepare_block(key | 0xFFFFU)) waiting.push_back(key);
    }
    mesh_pass.prepare_objects(snapshot, wanted_blocks, waiting);
    std::ranges::sort(waiting);
    std::ranges::set_difference(wanted_blocks, waiting, std::back_inserter(prepared_blocks));
    wanted_blocks.clear();
  }

  // What the world frame gathered, sorted for the render_ready queries.
  void note_readiness() {
    for (auto* ids : {&ctx.waiting_landblocks, &ctx.terrain_blocks_known}) std::ranges::sort(*ids);
    std::ranges::sort(ctx.ready_objects);
    std::ranges::sort(ctx.waiting_objects);
    world_frame = true;
    terrain_expected = ctx.options.draw_terrain && ctx.cells && ctx.cells->cell() != nullptr && terrain_assets.region;
  }

  [[nodiscard]] bool object_ready(sim::LocalId id) const noexcept {
    return world_frame && std::ranges::binary_search(ctx.ready_objects, id) &&
           !std::ranges::binary_search(ctx.waiting_objects, id);
  }

  [[nodiscard]] bool landblock_ready(std::uint32_t landblock) const noexcept {
    const std::uint32_t key = landblock & 0xFFFF0000U;
    if (!world_frame || std::ranges::binary_search(ctx.waiting_landblocks, key)) return false;
    return !terrain_expected || std::ranges::binary_search(ctx.terrain_blocks_known, key | 0xFFFFU);
  }

  // A frame of portal space: the tunnel alone over the cleared target.
  core::Result<void> draw_portal_space(const sim::PortalSpace& space, const PortalFrame& portal, int width, int height,
                                       bool own_target, Clock::time_point prepare_start) {
    ctx.stats.portal_space = true;
    timing.prepare = seconds_since(prepare_start);
    const auto submit_start = Clock::now();
    GLint previous_framebuffer = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previous_framebuffer);
    if (own_target) glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
    glViewport(0, 0, width, height);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glDepthMask(GL_TRUE);
    glClearColor(0.0F, 0.0F, 0.0F, 1.0F);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    const core::Result<void> drawn = portal_pass.draw_tunnel(space, portal.tunnel_brightness, width, height);
    glUseProgram(0);
    end_frame(own_target, previous_framebuffer, submit_start);
    return drawn;
  }

  // A frame's end, either kind: the caller's framebuffer back, a GL error
  // logged once, the submit (and, when asked, the finish) timed, the frame's
  // loads and timings added up.
  void end_frame(bool own_target, GLint previous_framebuffer, Clock::time_point submit_start) {
    if (own_target) glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(previous_framebuffer));
    if (const GLenum e = glGetError(); e != GL_NO_ERROR) ctx.log_once(0xFFFFFFFFU, "GL error " + hex_id(e));
    timing.submit = seconds_since(submit_start);
    if (ctx.options.finish_each_frame) {
      const auto finish_start = Clock::now();
      glFinish();
      timing.finish = seconds_since(finish_start);
    }
    timing.load = ctx.load_seconds;
    accumulate();
    // The frame is submitted: nothing of it points into the caches any more.
    assets.trim(ctx.options.mesh_cache_bytes);
    ctx.stats.mesh_cache_bytes = assets.cached_bytes();
    ctx.stats.mesh_cache_evicted = assets.evicted();
    ctx.stats.meshes_preparing = assets.meshes_preparing();
    ctx.stats.others_preparing = assets.others_preparing() + terrain_assets.preparing();
  }

  void accumulate() {
    ++totals.frames;
    totals.sum.load += timing.load;
    totals.sum.prepare += timing.prepare;
    totals.sum.submit += timing.submit;
    totals.sum.finish += timing.finish;
    totals.max.load = std::max(totals.max.load, timing.load);
    totals.max.prepare = std::max(totals.max.prepare, timing.prepare);
    totals.max.submit = std::max(totals.max.submit, timing.submit);
    totals.max.finish = std::max(totals.max.finish, timing.finish);
  }

  Image read_back() {
    if (fbo == 0 || fbo_width <= 0 || fbo_height <= 0) return Image{};
    const auto start = Clock::now();
    Image image(fbo_width, fbo_height);
    GLint previous_read = 0;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &previous_read);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, fbo_width, fbo_height, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
    glBindFramebuffer(GL_READ_FRAMEBUFFER, static_cast<GLuint>(previous_read));
    flip_rows(image);
    timing.readback = seconds_since(start);
    totals.sum.readback += timing.readback;
    totals.max.readback = std::max(totals.max.readback, timing.readback);
    return image;
  }
};

Renderer::Renderer(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
Renderer::~Renderer() = default;

core::Result<std::unique_ptr<Renderer>> Renderer::create(GlProcLoader loader, const dat::DatFile* portal,
                                                         const dat::DatFile* cell, RendererOptions options) {
  const GlVersion version = load_gl_functions(loader);
  if (version.major < 3 || (version.major == 3 && version.minor < 3)) {
    return std::unexpected(gl_error("load_gl_functions", "OpenGL 3.3 core is not available in the current context"));
  }
  auto impl = std::make_unique<Impl>();
  impl->ctx.options = options;
  if (portal != nullptr) impl->ctx.portal = *portal;
  if (cell != nullptr) impl->ctx.cell = *cell;
  if (impl->ctx.portal) impl->ctx.own_records = std::make_shared<dat::RecordCache>(&*impl->ctx.portal);
  impl->ctx.records = impl->ctx.own_records;
  if (impl->ctx.cell) impl->ctx.own_cells = std::make_shared<dat::CellRecordCache>(&*impl->ctx.cell);
  impl->ctx.cells = impl->ctx.own_cells;
  impl->assets.detect_anisotropy();
  impl->terrain_assets.cache.set_anisotropy(impl->assets.anisotropy);
  DERETH_CHECK(impl->build_programs());
  impl->assets.build_fixed_meshes();
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    return std::unexpected(gl_error("setup", "GL error " + hex_id(e)));
  }
  return std::unique_ptr<Renderer>(new Renderer(std::move(impl)));
}

void Renderer::set_region(std::shared_ptr<const dat::Region> region) {
  impl_->terrain_assets.set_region(std::move(region));
}

void Renderer::set_records(std::shared_ptr<dat::RecordCache> records) {
  impl_->ctx.records = records ? std::move(records) : impl_->ctx.own_records;
}

void Renderer::wait_for_asset_workers() {
  impl_->assets.wait_for_workers();
}

void Renderer::set_cell_records(std::shared_ptr<dat::CellRecordCache> cells) {
  impl_->ctx.cells = cells ? std::move(cells) : impl_->ctx.own_cells;
}

core::Result<void> Renderer::render(const sim::RenderSnapshot& snapshot, const Camera& camera, int width, int height) {
  return impl_->draw(snapshot, camera, width, height, true);
}

core::Result<void> Renderer::render_to_current(const sim::RenderSnapshot& snapshot, const Camera& camera, int width,
                                               int height) {
  return impl_->draw(snapshot, camera, width, height, false);
}

bool Renderer::bind_framebuffer() {
  if (impl_->fbo == 0 || impl_->fbo_width <= 0 || impl_->fbo_height <= 0) return false;
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, impl_->fbo);
  glViewport(0, 0, impl_->fbo_width, impl_->fbo_height);
  return true;
}

Image Renderer::read_pixels() {
  return impl_->read_back();
}

core::Result<void> Renderer::write_screenshot(const std::filesystem::path& path) {
  const Image image = impl_->read_back();
  if (image.empty()) {
    return std::unexpected(core::Error{core::ErrorKind::Invalid, "Renderer", "screenshot", 0,
                                       "nothing rendered into the renderer's framebuffer yet"});
  }
  return write_png(path, image);
}

const RenderStats& Renderer::stats() const noexcept {
  return impl_->ctx.stats;
}
const std::vector<DrawRecord>& Renderer::last_draw_list() const noexcept {
  return impl_->ctx.draw_list;
}
float Renderer::anisotropy() const noexcept {
  return impl_->assets.anisotropy;
}
const TerrainCacheStats& Renderer::terrain_cache_stats() const noexcept {
  return impl_->terrain_assets.cache.stats();
}
const FrameTiming& Renderer::last_timing() const noexcept {
  return impl_->timing;
}
const TimingTotals& Renderer::timing_totals() const noexcept {
  return impl_->totals;
}
bool Renderer::render_ready() const noexcept {
  // A block whose surface is still arriving in steps waited too, though no load was refused.
  return impl_->world_frame && impl_->ctx.stats.loads_deferred == 0 && impl_->ctx.stats.terrain_blocks_deferred == 0;
}
bool Renderer::prepare_landblock(std::uint32_t landblock) {
  const std::uint32_t key = landblock & 0xFFFF0000U;
  // Asked every tick, drawn perhaps less often (a window not presenting):
  // each block once until a frame takes them.
  if (std::ranges::find(impl_->wanted_blocks, key) == impl_->wanted_blocks.end()) impl_->wanted_blocks.push_back(key);
  return std::ranges::binary_search(impl_->prepared_blocks, key);
}
bool Renderer::object_ready(sim::LocalId id) const noexcept {
  return impl_->object_ready(id);
}
bool Renderer::landblock_ready(std::uint32_t landblock) const noexcept {
  return impl_->landblock_ready(landblock);
}
const RendererOptions& Renderer::options() const noexcept {
  return impl_->ctx.options;
}
RendererOptions& Renderer::options() noexcept {
  return impl_->ctx.options;
}

}  // namespace dereth::render
