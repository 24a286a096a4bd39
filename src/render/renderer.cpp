#include "dereth/render/renderer.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <glad/gl.h>
#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>

#include "dereth/core/log.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/gfx_obj_degrade_info.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/palette.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/dat/surface.hpp"
#include "dereth/render/draw_order.hpp"
#include "dereth/render/lighting.hpp"
#include "dereth/render/material.hpp"
#include "dereth/render/mesh.hpp"
#include "dereth/render/sky.hpp"
#include "dereth/render/terrain.hpp"
#include "dereth/render/world_lights.hpp"

#include "gl_program.hpp"
#include "shaders.hpp"
#include "terrain_cache.hpp"

namespace dereth::render {

namespace {

using Clock = std::chrono::steady_clock;

constexpr dat::Did kRegionId = 0x13000000;
constexpr int kMaxLights = 8;  // Render::minimize_object_lighting's hardware cap
constexpr int kMaxTargetSize = 8192;
constexpr float kBlockSide = 192.0F;  // metres a landblock side
// EXT/ARB_texture_filter_anisotropic (core in 4.6); glad's 3.3 core loader does not name them.
constexpr GLenum kTextureMaxAnisotropy = 0x84FE;
constexpr GLenum kMaxTextureMaxAnisotropy = 0x84FF;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string hex_id(std::uint32_t id) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", id);
  return buf;
}

core::Error gl_error(std::string field, std::string detail) {
  return core::Error{core::ErrorKind::Unsupported, "OpenGL", std::move(field), 0, std::move(detail)};
}

GLenum gl_blend(BlendFactor f) noexcept {
  switch (f) {
    case BlendFactor::Zero: return GL_ZERO;
    case BlendFactor::One: return GL_ONE;
    case BlendFactor::SrcAlpha: return GL_SRC_ALPHA;
    case BlendFactor::InvSrcAlpha: return GL_ONE_MINUS_SRC_ALPHA;
  }
  return GL_ONE;
}

// Mesa's software rasterisers, by their GL_RENDERER string.
bool is_software_rasteriser(std::string_view renderer) noexcept {
  return renderer.find("llvmpipe") != std::string_view::npos || renderer.find("softpipe") != std::string_view::npos ||
         renderer.find("swrast") != std::string_view::npos;
}

bool finite(const glm::vec3& v) noexcept {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Uniform locations shared by both programs (lighting).
struct LightingUniforms {
  GLint view_projection = -1;
  GLint ambient = -1;
  GLint sun_color = -1;
  GLint sun_towards = -1;
  GLint light_count = -1;
  GLint eye = -1;
  GLint fog = -1;
  GLint fog_color = -1;
  // Per element: GL 3.3 does not promise consecutive locations within an array.
  std::array<GLint, kMaxLights> light_position{};
  std::array<GLint, kMaxLights> light_color{};
  std::array<GLint, kMaxLights> light_intensity{};
  std::array<GLint, kMaxLights> light_falloff{};

  void locate(GLuint program) {
    view_projection = glGetUniformLocation(program, "u_view_projection");
    ambient = glGetUniformLocation(program, "u_ambient");
    sun_color = glGetUniformLocation(program, "u_sun_color");
    sun_towards = glGetUniformLocation(program, "u_sun_towards");
    light_count = glGetUniformLocation(program, "u_light_count");
    eye = glGetUniformLocation(program, "u_eye");
    fog = glGetUniformLocation(program, "u_fog");
    fog_color = glGetUniformLocation(program, "u_fog_color");
    for (std::size_t i = 0; i < static_cast<std::size_t>(kMaxLights); ++i) {
      const std::string index = "[" + std::to_string(i) + "]";
      light_position[i] = glGetUniformLocation(program, ("u_light_position" + index).c_str());
      light_color[i] = glGetUniformLocation(program, ("u_light_color" + index).c_str());
      light_intensity[i] = glGetUniformLocation(program, ("u_light_intensity" + index).c_str());
      light_falloff[i] = glGetUniformLocation(program, ("u_light_falloff" + index).c_str());
    }
  }
};

struct GpuMaterial {
  GLuint texture = 0;
  Material info;  // image pixels released after upload
};

struct GpuBatch {
  std::uint32_t first_index = 0;
  std::uint32_t index_count = 0;
  std::shared_ptr<GpuMaterial> material;  // null: the Surface did not load (skipped)
};

struct GpuMesh {
  GLuint vao = 0;
  GLuint vbo = 0;
  GLuint ebo = 0;
  std::vector<GpuBatch> batches;
  glm::vec3 sort_center{0.0F};                      // the GfxObj's, for the viewer distance
  glm::vec3 bound_center{0.0F};                     // the vertices' bounding sphere, mesh-local (frustum culling)
  float bound_radius = 0.0F;
  std::optional<dat::GfxObjDegradeInfo> degrades;  // its degrade levels (draw modes), when it names any
  dat::Did original_palette = 0;  // CPhysicsPart::DetermineBasePal: its first Surface's with one (0: none)
};

// No ObjDesc palette on a part.
constexpr std::uint32_t kNoPalette = 0xFFFFFFFFU;

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
  std::uint32_t block = 0;  // an EnvCell's id (DrawRecord::block)
  glm::vec2 uv_offset{0.0F};  // texture scrolling (sky objects)
  std::uint16_t light_set = 0;  // the frame's light set lighting it (0: none)
};

// What add_batches tags a part's items with.
// A terrain block to draw and the detail LScape gives it.
struct TerrainDraw {
  const TerrainBlock* block = nullptr;
  BlockOrient orient;
};

struct PartTag {
  DrawKind kind = DrawKind::Part;
  sim::LocalId owner = sim::LocalId::None;
  std::uint32_t gfx_obj = 0;
  float distance = 0.0F;
  std::uint32_t degrade_mode = 1;
  std::uint16_t light_set = 0;
};

// The frame's mesh draws by pass: opaque at once, then retail's clip list,
// then its alpha list (D3DPolyRender::FlushAlphaList).
struct DrawLists {
  std::vector<DrawItem> opaque;
  std::vector<DrawItem> clip;
  std::vector<DrawItem> alpha;
};

// The frame's sun, ambient and fog: the Region's SkyDesc at the time of day,
// or the fixed options without one.
struct FrameSky {
  glm::vec3 mesh_ambient{0.0F};     // Render::world_lights.ambient_color (SmartBox::SetWorldAmbientLight)
  glm::vec3 terrain_ambient{0.0F};  // LScape's ambient colour times level (CLandBlockStruct::calc_lighting)
  glm::vec3 sun_color{0.0F};        // sunlight colour times the sunlight's length
  glm::vec3 sun_towards{0.0F, 0.0F, 1.0F};
  bool fog = false;
  float fog_min = 0.0F;
  float fog_max = 0.0F;
  glm::vec3 fog_color{0.0F};
};

glm::vec3 unit_color(const Rgb8& c) noexcept {
  return glm::vec3(static_cast<float>(c[0]), static_cast<float>(c[1]), static_cast<float>(c[2])) / 255.0F;
}

// The lights one draw is lit by (Render::minimize_object_lighting's pick).
using LightSet = std::vector<const RenderLight*>;

// One DrawItem's per-instance vertex attributes (kMeshVertex locations 3..11).
struct Instance {
  std::array<float, 16> model;   // columns
  std::array<float, 9> normal;   // columns
  std::array<float, 4> tint;
  std::array<float, 3> params;   // alpha, luminosity, diffuse
};
static_assert(sizeof(Instance) == 32 * sizeof(float));
constexpr GLuint kInstanceAttribute = 3;  // the first per-instance attribute
constexpr GLuint kInstanceAttributes = 9;

// A mesh program: the opaque one, or the one for alpha-tested surfaces.
struct MeshProgram {
  GLuint id = 0;
  LightingUniforms lighting;
  GLint texture = -1;
  GLint alpha_ref = -1;
  GLint uv_offset = -1;
};

}  // namespace

glm::vec3 marker_color(const sim::ObjectSnapshot& object) noexcept {
  if (object.is_player) return {1.0F, 0.85F, 0.1F};
  // A small integer hash of the GUID picks one of a few saturated hues.
  std::uint32_t h = object.guid * 2654435761U;
  h ^= h >> 15;
  const float hue = static_cast<float>(h % 360U);
  const float x = 1.0F - std::abs(std::fmod(hue / 60.0F, 2.0F) - 1.0F);
  glm::vec3 c;
  if (hue < 60.0F) {
    c = {1.0F, x, 0.0F};
  } else if (hue < 120.0F) {
    c = {x, 1.0F, 0.0F};
  } else if (hue < 180.0F) {
    c = {0.0F, 1.0F, x};
  } else if (hue < 240.0F) {
    c = {0.0F, x, 1.0F};
  } else if (hue < 300.0F) {
    c = {x, 0.0F, 1.0F};
  } else {
    c = {1.0F, 0.0F, x};
  }
  return c * 0.85F + glm::vec3(0.1F);
}

struct Renderer::Impl {
  RendererOptions options;
  std::optional<dat::DatFile> portal;
  std::optional<dat::DatFile> cell;

  // The mesh programs by [vertex lit][alpha test]: surfaces without an alpha
  // test get a program without discard, so the depth test comes before
  // shading; sky objects are lit per vertex (shaders::kVertexLit).
  std::array<std::array<MeshProgram, 2>, 2> mesh_programs;
  GLuint terrain_program = 0;
  LightingUniforms terrain_lighting;
  GLuint instance_vbo = 0;  // the per-instance attributes of the draws being submitted
  std::vector<Instance> instances;
  GLint u_offset = -1;
  GLint u_surface = -1;

  GpuMesh cube;                        // the marker
  GpuMesh quad;                        // texture billboards (batch material set per draw)
  std::shared_ptr<GpuMaterial> white;  // the marker's surface

  std::unordered_map<dat::Did, std::shared_ptr<GpuMesh>> meshes;          // null: failed
  std::unordered_map<std::uint32_t, std::shared_ptr<GpuMesh>> cell_meshes;  // by EnvCell id, null: failed
  std::unordered_map<dat::Did, std::shared_ptr<GpuMaterial>> materials;   // surfaces (0x08), null: failed
  std::unordered_map<dat::Did, std::shared_ptr<GpuMaterial>> billboards;  // textures (0x05/0x06), null: failed
  std::unordered_map<std::uint64_t, std::shared_ptr<GpuMaterial>> changed_materials;  // (surface << 32 | texture), null: failed
  // ObjDesc palettes: the DAT's palettes, each composition once (its key is
  // its index in `composed`, null: it makes none), and the surfaces drawn
  // through one, per (surface, texture, composition).
  std::unordered_map<dat::Did, std::shared_ptr<const dat::Palette>> palettes;  // null: failed
  std::map<sim::PaletteChange, std::uint32_t> palette_keys;
  std::vector<std::shared_ptr<const dat::Palette>> composed;
  std::map<std::tuple<dat::Did, dat::Did, std::uint32_t>, std::shared_ptr<GpuMaterial>> palette_materials;
  TerrainSurfaceCache terrain;                                            // landblocks: geometry and composited surface
  std::unordered_set<std::uint32_t> logged;
  bool region_tried = false;
  std::optional<dat::Region> region;
  GameSky game_sky;  // the sky objects between frames
  GLuint terrain_layers = 0;  // 2D array, one layer per terrain type (the composite's input)
  int terrain_layer_texels = 0;

  GLuint fbo = 0;
  GLuint color_rb = 0;
  GLuint depth_rb = 0;
  int fbo_width = 0;
  int fbo_height = 0;

  RenderStats stats;
  std::vector<DrawRecord> draw_list;
  std::optional<WorldLights> world_lights;     // this frame's (gather_lights)
  std::vector<LightSet> light_sets{LightSet{}};  // this frame's sets; [0] lights nothing
  float anisotropy = 1.0F;  // the degree textures are created with (1: trilinear only)
  bool software = false;    // the context is a software rasteriser (llvmpipe, softpipe, swrast)
  FrameTiming timing;
  TimingTotals totals;
  double load_seconds = 0.0;  // accumulated by loads during the current frame
  int load_depth = 0;         // nested loads (a mesh loading its surfaces) count once

  // Times the outermost asset load of a nest into load_seconds.
  class LoadScope {
   public:
    explicit LoadScope(Impl& impl) : impl_(impl), start_(Clock::now()) { ++impl_.load_depth; }
    LoadScope(const LoadScope&) = delete;
    LoadScope& operator=(const LoadScope&) = delete;
    ~LoadScope() {
      if (--impl_.load_depth == 0) impl_.load_seconds += seconds_since(start_);
    }

   private:
    Impl& impl_;
    Clock::time_point start_;
  };

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() { release(); }

  void release() {
    const auto free_mesh = [](GpuMesh& m) {
      if (m.ebo != 0) glDeleteBuffers(1, &m.ebo);
      if (m.vbo != 0) glDeleteBuffers(1, &m.vbo);
      if (m.vao != 0) glDeleteVertexArrays(1, &m.vao);
      m = GpuMesh{};
    };
    const auto free_material = [](const std::shared_ptr<GpuMaterial>& m) {
      if (m && m->texture != 0) glDeleteTextures(1, &m->texture);
    };
    for (auto& [id, m] : meshes) {
      if (m) free_mesh(*m);
    }
    for (auto& [id, m] : cell_meshes) {
      if (m) free_mesh(*m);
    }
    cell_meshes.clear();
    for (auto& [id, m] : materials) free_material(m);
    for (auto& [id, m] : billboards) free_material(m);
    for (auto& [id, m] : changed_materials) free_material(m);
    for (auto& [id, m] : palette_materials) free_material(m);
    free_material(white);
    free_mesh(cube);
    free_mesh(quad);
    meshes.clear();
    materials.clear();
    billboards.clear();
    changed_materials.clear();
    palette_materials.clear();
    palettes.clear();
    palette_keys.clear();
    composed.clear();
    terrain.clear();
    if (terrain_layers != 0) glDeleteTextures(1, &terrain_layers);
    if (fbo != 0) glDeleteFramebuffers(1, &fbo);
    if (color_rb != 0) glDeleteRenderbuffers(1, &color_rb);
    if (depth_rb != 0) glDeleteRenderbuffers(1, &depth_rb);
    for (auto& pair : mesh_programs) {
      for (MeshProgram& p : pair) {
        if (p.id != 0) glDeleteProgram(p.id);
        p.id = 0;
      }
    }
    if (terrain_program != 0) glDeleteProgram(terrain_program);
    if (instance_vbo != 0) glDeleteBuffers(1, &instance_vbo);
    terrain_layers = fbo = color_rb = depth_rb = terrain_program = instance_vbo = 0;
  }

  void log_once(std::uint32_t id, const std::string& what) {
    if (logged.insert(id).second) core::logger(core::Module::Render)->warn("{} {}: {}", hex_id(id), "not drawn", what);
  }

  // ---- setup -----------------------------------------------------------------------------------

  core::Result<void> build_programs() {
    using namespace shaders;
    DERETH_TRY(mesh_programs[0][0].id,
               gl::build_program("OpenGL", "mesh", {kVersion, kMeshVertex},
                                 {kVersion, kMeshFragmentHead, kLighting, kMeshFragmentMain}));
    DERETH_TRY(mesh_programs[0][1].id,
               gl::build_program("OpenGL", "mesh (alpha test)", {kVersion, kMeshVertex},
                                 {kVersion, kAlphaTest, kMeshFragmentHead, kLighting, kMeshFragmentMain}));
    DERETH_TRY(mesh_programs[1][0].id,
               gl::build_program("OpenGL", "sky mesh", {kVersion, kVertexLit, kLighting, kMeshVertex},
                                 {kVersion, kVertexLit, kMeshFragmentHead, kMeshFragmentMain}));
    DERETH_TRY(mesh_programs[1][1].id,
               gl::build_program("OpenGL", "sky mesh (alpha test)", {kVersion, kVertexLit, kLighting, kMeshVertex},
                                 {kVersion, kAlphaTest, kVertexLit, kMeshFragmentHead, kMeshFragmentMain}));
    DERETH_TRY(terrain_program,
               gl::build_program("OpenGL", "terrain",
                                 {shaders::kTerrainVertexHead, shaders::kLighting, shaders::kTerrainVertexMain},
                                 {shaders::kTerrainFragment}));
    for (auto& pair : mesh_programs) {
      for (MeshProgram& p : pair) {
        p.lighting.locate(p.id);
        p.texture = glGetUniformLocation(p.id, "u_texture");
        p.alpha_ref = glGetUniformLocation(p.id, "u_alpha_ref");
        p.uv_offset = glGetUniformLocation(p.id, "u_uv_offset");
      }
    }
    terrain_lighting.locate(terrain_program);
    glGenBuffers(1, &instance_vbo);
    u_offset = glGetUniformLocation(terrain_program, "u_offset");
    u_surface = glGetUniformLocation(terrain_program, "u_surface");
    return terrain.create_gl();
  }

  // Trilinear, plus anisotropic filtering where the context has it: retail's
  // highest Render.TextureFiltering choice ("Anisotropic").
  void set_filtering(GLenum target) const {
    glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    if (anisotropy > 1.0F) glTexParameterf(target, kTextureMaxAnisotropy, anisotropy);
  }

  void detect_anisotropy() {
    anisotropy = 1.0F;
    if (!(options.max_anisotropy > 1.0F)) return;
    const auto* renderer_name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    software = renderer_name != nullptr && is_software_rasteriser(renderer_name);
    if (software && !options.anisotropic_on_software) return;
    GLint count = 0;
    glGetIntegerv(GL_NUM_EXTENSIONS, &count);
    bool found = false;
    for (GLint i = 0; i < count && !found; ++i) {
      const auto* name = reinterpret_cast<const char*>(glGetStringi(GL_EXTENSIONS, static_cast<GLuint>(i)));
      if (name == nullptr) continue;
      const std::string_view n(name);
      found = n == "GL_EXT_texture_filter_anisotropic" || n == "GL_ARB_texture_filter_anisotropic";
    }
    if (!found) return;
    GLfloat most = 1.0F;
    glGetFloatv(kMaxTextureMaxAnisotropy, &most);
    anisotropy = std::clamp(options.max_anisotropy, 1.0F, std::max(most, 1.0F));
  }

  GLuint upload_texture(const Image& image) const {
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, image.width, image.height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 image.pixels.data());
    glGenerateMipmap(GL_TEXTURE_2D);
    set_filtering(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
    return tex;
  }

  std::shared_ptr<GpuMaterial> make_material(Material m) const {
    auto g = std::make_shared<GpuMaterial>();
    g->texture = upload_texture(m.image);
    m.image.pixels.clear();
    m.image.pixels.shrink_to_fit();
    g->info = std::move(m);
    return g;
  }

  // Per-instance attributes 3..11 of a mesh's VAO, `first` instances into instance_vbo (bound as GL_ARRAY_BUFFER).
  static void point_instances(std::size_t first) {
    const auto stride = static_cast<GLsizei>(sizeof(Instance));
    const std::size_t base = first * sizeof(Instance);
    const auto at = [base](std::size_t offset) { return reinterpret_cast<const void*>(base + offset); };
    for (GLuint c = 0; c < 4; ++c) {
      glVertexAttribPointer(kInstanceAttribute + c, 4, GL_FLOAT, GL_FALSE, stride,
                            at(offsetof(Instance, model) + c * 4 * sizeof(float)));
    }
    for (GLuint c = 0; c < 3; ++c) {
      glVertexAttribPointer(kInstanceAttribute + 4 + c, 3, GL_FLOAT, GL_FALSE, stride,
                            at(offsetof(Instance, normal) + c * 3 * sizeof(float)));
    }
    glVertexAttribPointer(kInstanceAttribute + 7, 4, GL_FLOAT, GL_FALSE, stride, at(offsetof(Instance, tint)));
    glVertexAttribPointer(kInstanceAttribute + 8, 3, GL_FLOAT, GL_FALSE, stride, at(offsetof(Instance, params)));
  }

  GpuMesh upload_mesh(const MeshData& data) const {
    GpuMesh m;
    glGenVertexArrays(1, &m.vao);
    glBindVertexArray(m.vao);
    glGenBuffers(1, &m.vbo);
    glBindBuffer(GL_ARRAY_BUFFER, m.vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.vertices.size() * sizeof(MeshVertex)),
                 data.vertices.data(), GL_STATIC_DRAW);
    glGenBuffers(1, &m.ebo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m.ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.indices.size() * sizeof(std::uint32_t)),
                 data.indices.data(), GL_STATIC_DRAW);
    const auto stride = static_cast<GLsizei>(sizeof(MeshVertex));
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(offsetof(MeshVertex, position)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<const void*>(offsetof(MeshVertex, normal)));
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(offsetof(MeshVertex, uv)));
    glBindBuffer(GL_ARRAY_BUFFER, instance_vbo);
    for (GLuint a = kInstanceAttribute; a < kInstanceAttribute + kInstanceAttributes; ++a) {
      glEnableVertexAttribArray(a);
      glVertexAttribDivisor(a, 1);
    }
    point_instances(0);
    glBindVertexArray(0);
    for (const auto& b : data.batches) m.batches.push_back(GpuBatch{b.first_index, b.index_count, nullptr});
    m.bound_center = (data.bounds_min + data.bounds_max) * 0.5F;
    m.bound_radius = glm::length(data.bounds_max - data.bounds_min) * 0.5F;
    return m;
  }

  // A unit cube centred on the origin (the marker) and a two-sided unit
  // square in the XZ plane facing -Y (texture billboards).
  void build_fixed_meshes() {
    dat::GfxObj box;
    box.surfaces = {0};
    const glm::vec3 lo(-0.5F);
    const glm::vec3 hi(0.5F);
    const glm::vec3 c[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {lo.x, hi.y, lo.z},
                            {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
    const auto quad_poly = [](dat::GfxObj& g, std::array<glm::vec3, 4> corners, glm::vec3 normal, std::int32_t sides) {
      const auto base = static_cast<std::int16_t>(g.vertices.size());
      const dat::UvCoord uv[4] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
      for (std::size_t i = 0; i < 4; ++i) {
        dat::SwVertex v;
        v.id = static_cast<std::uint16_t>(g.vertices.size());
        v.origin = corners[i];
        v.normal = normal;
        v.uvs = {uv[i]};
        g.vertices.push_back(v);
      }
      dat::Polygon p;
      p.sides_type = sides;
      p.vertex_ids = {base, static_cast<std::int16_t>(base + 1), static_cast<std::int16_t>(base + 2),
                      static_cast<std::int16_t>(base + 3)};
      p.pos_uv_indices = {0, 0, 0, 0};
      g.polygons.push_back(std::move(p));
    };
    quad_poly(box, {c[4], c[5], c[6], c[7]}, {0, 0, 1}, 0);
    quad_poly(box, {c[3], c[2], c[1], c[0]}, {0, 0, -1}, 0);
    quad_poly(box, {c[0], c[1], c[5], c[4]}, {0, -1, 0}, 0);
    quad_poly(box, {c[2], c[3], c[7], c[6]}, {0, 1, 0}, 0);
    quad_poly(box, {c[1], c[2], c[6], c[5]}, {1, 0, 0}, 0);
    quad_poly(box, {c[3], c[0], c[4], c[7]}, {-1, 0, 0}, 0);
    Material white_material;
    white_material.type = dat::surface_type::kBase1Solid;
    white_material.image = Image(1, 1, {255, 255, 255, 255});
    white = make_material(std::move(white_material));
    cube = upload_mesh(build_gfx_obj_mesh(box));
    for (auto& b : cube.batches) b.material = white;

    dat::GfxObj square;
    square.surfaces = {0};
    quad_poly(square, {glm::vec3{-0.5F, 0, -0.5F}, {0.5F, 0, -0.5F}, {0.5F, 0, 0.5F}, {-0.5F, 0, 0.5F}}, {0, -1, 0}, 1);
    quad = upload_mesh(build_gfx_obj_mesh(square));
  }

  // ---- assets ----------------------------------------------------------------------------------

  // A Surface drawn with another SurfaceTexture (an ObjDesc texture change),
  // loaded once per (surface, texture).
  std::shared_ptr<GpuMaterial> material(dat::Did surface, dat::Did texture) {
    const std::uint64_t key = (std::uint64_t{surface} << 32U) | texture;
    if (auto it = changed_materials.find(key); it != changed_materials.end()) return it->second;
    const LoadScope scope(*this);
    std::shared_ptr<GpuMaterial> result;
    if (!portal) {
      log_once(texture, "no portal DAT");
    } else if (auto m = load_material(*portal, surface, texture); !m) {
      log_once(texture, m.error().message());
    } else {
      result = make_material(std::move(*m));
    }
    changed_materials.emplace(key, result);
    return result;
  }

  // A palette of the DAT, loaded once; null when it is missing or malformed.
  const dat::Palette* palette(dat::Did id) {
    if (auto it = palettes.find(id); it != palettes.end()) return it->second.get();
    std::shared_ptr<const dat::Palette> result;
    if (portal && (id >> 24) == 0x04) {
      if (auto bytes = portal->read(id); !bytes) {
        log_once(id, bytes.error().message());
      } else if (auto p = dat::read_palette(*bytes, id); !p) {
        log_once(id, p.error().message());
      } else {
        result = std::make_shared<const dat::Palette>(std::move(*p));
      }
    }
    palettes.emplace(id, result);
    return result.get();
  }

  // The key of an ObjDesc's composed palette (dat::make_modified_palette),
  // composed once; kNoPalette when it makes none (logged once), so the parts
  // keep their own palettes as retail's failed CPartArray::SetPalette does.
  std::uint32_t composed_palette(const sim::PaletteChange& change) {
    if (change.empty()) return kNoPalette;
    if (auto it = palette_keys.find(change); it != palette_keys.end()) {
      return composed[it->second] ? it->second : kNoPalette;
    }
    const LoadScope scope(*this);
    std::vector<dat::Subpalette> subs;
    subs.reserve(change.subpalettes.size());
    for (const auto& sp : change.subpalettes) subs.push_back({sp.palette, sp.offset, sp.num_colors});
    std::shared_ptr<const dat::Palette> made;
    if (auto p = dat::make_modified_palette(change.base_palette, subs, [this](dat::Did id) { return palette(id); }); !p) {
      log_once(change.base_palette, p.error().message());
    } else {
      made = std::make_shared<const dat::Palette>(std::move(*p));
    }
    const auto key = static_cast<std::uint32_t>(composed.size());
    composed.push_back(std::move(made));
    palette_keys.emplace(change, key);
    return composed[key] ? key : kNoPalette;
  }

  // A Surface (with its texture, changed or not) drawn through a composed
  // palette, loaded once per (surface, texture, composition).
  std::shared_ptr<GpuMaterial> material(dat::Did surface, dat::Did texture, std::uint32_t palette_key) {
    const auto key = std::make_tuple(surface, texture, palette_key);
    if (auto it = palette_materials.find(key); it != palette_materials.end()) return it->second;
    const LoadScope scope(*this);
    std::shared_ptr<GpuMaterial> result;
    const dat::Palette* p = palette_key < composed.size() ? composed[palette_key].get() : nullptr;
    if (!portal || p == nullptr) {
      log_once(surface, "no portal DAT or composed palette");
    } else if (auto m = load_material(*portal, surface, texture, p); !m) {
      log_once(texture, m.error().message());
    } else {
      result = make_material(std::move(*m));
    }
    palette_materials.emplace(key, result);
    return result;
  }

  std::shared_ptr<GpuMaterial> material(dat::Did surface) {
    if (auto it = materials.find(surface); it != materials.end()) return it->second;
    const LoadScope scope(*this);
    std::shared_ptr<GpuMaterial> result;
    if (!portal) {
      log_once(surface, "no portal DAT");
    } else if (auto m = load_material(*portal, surface); !m) {
      log_once(surface, m.error().message());
    } else {
      result = make_material(std::move(*m));
    }
    materials.emplace(surface, result);
    return result;
  }

  std::shared_ptr<GpuMaterial> billboard_material(dat::Did texture) {
    if ((texture >> 24) == 0x08) return material(texture);
    if (auto it = billboards.find(texture); it != billboards.end()) return it->second;
    const LoadScope scope(*this);
    std::shared_ptr<GpuMaterial> result;
    bool palettized = false;
    if (!portal) {
      log_once(texture, "no portal DAT");
    } else if (auto image = load_texture(*portal, texture, 0, false, &palettized); !image) {
      log_once(texture, image.error().message());
    } else {
      // A bare texture blends by its alpha (a Base1Image | Alpha surface).
      Material m;
      m.surface = texture;
      m.type = dat::surface_type::kBase1Image | dat::surface_type::kAlpha;
      m.image = std::move(*image);
      m.has_texture = true;
      m.palettized = palettized;
      result = make_material(std::move(m));
    }
    billboards.emplace(texture, result);
    return result;
  }

  const GpuMesh* mesh(dat::Did gfx_obj) {
    if (auto it = meshes.find(gfx_obj); it != meshes.end()) return it->second.get();
    const LoadScope scope(*this);
    std::shared_ptr<GpuMesh> result;
    if (!portal) {
      log_once(gfx_obj, "no portal DAT");
    } else if ((gfx_obj >> 24) != 0x01) {
      log_once(gfx_obj, "not a GfxObj id");
    } else if (auto bytes = portal->read(gfx_obj); !bytes) {
      log_once(gfx_obj, bytes.error().message());
    } else if (auto obj = dat::read_gfx_obj(*bytes, gfx_obj, dat::BspMode::Skip); !obj) {
      log_once(gfx_obj, obj.error().message());
    } else {
      const MeshData data = build_gfx_obj_mesh(*obj);
      if (data.skipped_polygons > 0) {
        core::logger(core::Module::Render)
            ->warn("{}: {} malformed polygons skipped", hex_id(gfx_obj), data.skipped_polygons);
      }
      if (data.indices.empty()) {
        log_once(gfx_obj, "no drawable polygons");
      } else {
        result = std::make_shared<GpuMesh>(upload_mesh(data));
        for (std::size_t i = 0; i < data.batches.size(); ++i) {
          result->batches[i].material = material(obj->surfaces[data.batches[i].surface_index]);
        }
        // CPhysicsPart::DetermineBasePal 0x0050DC80: the first Surface with a palette names the part's.
        for (const dat::Did surface : obj->surfaces) {
          const GpuMaterial* m = material(surface).get();
          if (m != nullptr && m->info.original_palette != 0) {
            result->original_palette = m->info.original_palette;
            break;
          }
        }
        result->sort_center = finite(obj->sort_center) ? obj->sort_center : glm::vec3(0.0F);
        if ((obj->flags & dat::GfxObj::kHasDidDegrade) != 0 && obj->degrade_id != 0) {
          result->degrades = degrade_info(obj->degrade_id);
        }
      }
    }
    meshes.emplace(gfx_obj, result);
    return result.get();
  }

  // An EnvCell's structure (defined below the Impl): its Environment's CellStruct
  // with the cell's surfaces, loaded the first time the cell is drawn.
  const GpuMesh* cell_mesh(const sim::CellSnapshot& c);

  // A GfxObj's degrade levels; none (drawn as posed, mode 1) when they do not read.
  std::optional<dat::GfxObjDegradeInfo> degrade_info(dat::Did id) {
    if ((id >> 24) != 0x11) {
      log_once(id, "not a GfxObjDegradeInfo id");
      return std::nullopt;
    }
    auto bytes = portal->read(id);
    if (!bytes) {
      log_once(id, bytes.error().message());
      return std::nullopt;
    }
    auto info = dat::read_gfx_obj_degrade_info(*bytes, id);
    if (!info) {
      log_once(id, info.error().message());
      return std::nullopt;
    }
    return std::move(*info);
  }

  void ensure_region() {
    if (region_tried) return;
    region_tried = true;
    const LoadScope scope(*this);
    if (!portal) return;
    auto bytes = portal->read(kRegionId);
    if (!bytes) {
      log_once(kRegionId, bytes.error().message());
      return;
    }
    auto r = dat::read_region(*bytes, kRegionId);
    if (!r) {
      log_once(kRegionId, r.error().message());
      return;
    }
    region = std::move(*r);
    const TerrainLayers layers = build_terrain_layers(*region, &*portal, options.terrain_layer_size);
    terrain_layer_texels = layers.size;
    glGenTextures(1, &terrain_layers);
    glBindTexture(GL_TEXTURE_2D_ARRAY, terrain_layers);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, layers.size, layers.size, static_cast<GLsizei>(layers.layers.size()),
                 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    for (std::size_t i = 0; i < layers.layers.size(); ++i) {
      glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, static_cast<GLint>(i), layers.size, layers.size, 1, GL_RGBA,
                      GL_UNSIGNED_BYTE, layers.layers[i].pixels.data());
    }
    glGenerateMipmap(GL_TEXTURE_2D_ARRAY);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_WRAP_S, GL_REPEAT);
    glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_WRAP_T, GL_REPEAT);
  }

  [[nodiscard]] int terrain_radius() const noexcept { return std::clamp(options.terrain_radius, 0, 8); }

  // A landblock arriving: read from the cell DAT, its surface composited
  // into the cache; null (and remembered as absent) when it is not in the
  // cell DAT or does not read.
  const TerrainBlock* load_terrain_block(std::uint32_t block_id) {
    const LoadScope scope(*this);
    const TerrainBlock* result = nullptr;
    auto entry = cell->find(block_id);
    if (!entry) {
      log_once(block_id, entry.error().message());
    } else if (entry->has_value()) {  // an absent landblock is simply not there
      auto bytes = cell->read(**entry);
      if (!bytes) {
        log_once(block_id, bytes.error().message());
      } else if (auto block = dat::read_land_block(*bytes, block_id); !block) {
        log_once(block_id, block.error().message());
      } else {
        const auto side = static_cast<std::size_t>(2 * terrain_radius() + 1);
        result = terrain.arrive(build_terrain_mesh(*block, region->land_defs), *block, terrain_layers,
                                surface_side(terrain_layer_texels, side * side, options.terrain_cache_bytes),
                                options.terrain_cache_bytes);
      }
    }
    if (result == nullptr) terrain.mark_absent(block_id);
    return result;
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

  // A part's batches into the opaque, clip or alpha list (D3DPolyRender::DrawMesh's delay test).
  void add_batches(const GpuMesh& m, const glm::mat4& model, const glm::mat3& normal_matrix, float part_translucency,
                   float luminosity, float diffuse, const PartTag& tag, DrawLists& lists,
                   const GpuMaterial* override_material = nullptr, const glm::vec4& tint = glm::vec4(1.0F),
                   std::span<const sim::TextureChange> texture_changes = {},
                   std::uint32_t palette_key = kNoPalette) {
    for (const auto& b : m.batches) {
      const GpuMaterial* mat = override_material != nullptr ? override_material : b.material.get();
      if (mat == nullptr) continue;
      if (!texture_changes.empty() && mat->info.has_texture) {
        // The ObjDesc's texture changes: the last one naming this texture wins.
        for (auto c = texture_changes.rbegin(); c != texture_changes.rend(); ++c) {
          if (c->old_texture == mat->info.texture && c->new_texture != mat->info.texture) {
            if (const GpuMaterial* swapped = material(mat->info.surface, c->new_texture).get()) mat = swapped;
            break;
          }
        }
      }
      // The ObjDesc's composed palette on a palettized texture (CPhysicsPart::UsePalette 0x0050DED0).
      if (palette_key != kNoPalette && override_material == nullptr && mat->info.has_texture && mat->info.palettized) {
        if (const GpuMaterial* recoloured = material(mat->info.surface, mat->info.texture, palette_key).get()) {
          mat = recoloured;
        }
      }
      DrawItem item;
      item.mesh = &m;
      item.batch = &b;
      item.material = mat;
      item.model = model;
      item.normal_matrix = normal_matrix;
      item.tint = tint;
      item.state = surface_state(mat->info, part_translucency);
      // The surface's (1 - t) is already in a solid colour's texel; a
      // textured Translucent surface takes it from SetSurface's alpha.
      const float surface_alpha = mat->info.has_texture ? static_cast<float>(item.state.alpha) / 255.0F : 1.0F;
      item.alpha = surface_alpha * (1.0F - std::clamp(part_translucency, 0.0F, 1.0F));
      const bool luminous = (mat->info.type & dat::surface_type::kLuminous) != 0;
      item.luminosity = std::max(luminosity, luminous ? mat->info.luminosity : 0.0F);
      item.diffuse = diffuse;
      item.alpha_class = alpha_class(mat->info.type, part_translucency > 0.0F);
      item.distance = tag.distance;
      item.kind = tag.kind;
      item.owner = tag.owner;
      item.gfx_obj = tag.gfx_obj;
      item.degrade_mode = tag.degrade_mode;
      item.light_set = tag.light_set;
      switch (item.alpha_class) {
        case AlphaClass::Opaque: lists.opaque.push_back(item); break;
        case AlphaClass::Clip: lists.clip.push_back(item); break;
        case AlphaClass::Alpha: lists.alpha.push_back(item); break;
      }
    }
  }

  // The degrade mode a part is drawn with (CPhysicsPart::UpdateViewerDistance
  // 0x0050E030): its GfxObj's degrade level at the distance over the part's
  // z scale; mode 1 without degrade info and for the player's own parts.
  [[nodiscard]] std::uint32_t degrade_mode(const GpuMesh& m, const ViewerDistance& vd, float scale_z,
                                           bool player) const noexcept {
    if (!m.degrades || player) return 1;
    return get_degrade(*m.degrades, vd.distance / scale_z, options.degrade).mode;
  }

  // What one frame is drawn from: everything relative to the camera's
  // centre, so positions far from the world origin keep their precision.
  struct FrameView {
    glm::vec3 origin{0.0F};
    glm::mat4 view_projection{1.0F};
    glm::vec3 eye{0.0F};      // world space
    glm::vec3 eye_rel{0.0F};  // relative to origin
    Frustum frustum;          // of view_projection: relative to origin
  };

  // Whether a mesh drawn with `model` (relative to the view's origin; its
  // largest axis scale `scale`) lies wholly outside the view (frustum
  // culling by its bounding sphere).
  [[nodiscard]] bool outside_view(const FrameView& view, const GpuMesh& m, const glm::mat4& model,
                                  float scale) const noexcept {
    if (!options.frustum_cull) return false;
    const glm::vec3 centre(model * glm::vec4(m.bound_center, 1.0F));
    return view.frustum.sphere_outside(centre, m.bound_radius * scale);
  }

  // Terrain blocks around the camera centre, in a fixed order. Blocks beyond
  // the next ring are unloaded; every block in view is marked drawn before
  // any newcomer arrives, so a newcomer never evicts one of them.
  //
  // Each block's detail is LScape's (update_block's get_block_orient with the
  // camera centre's block in the middle): full within one block of it, 4
  // cells a side at two, 2 at three and four, 1 beyond, with the edge
  // transitions that stitch the rings (docs/render.md "Terrain").
  std::vector<TerrainDraw> gather_terrain(const glm::vec3& origin) {
    std::vector<const TerrainBlock*> blocks;
    std::vector<TerrainDraw> draws;
    std::uint32_t centre_block = 0;
    if (options.draw_terrain && cell) ensure_region();
    if (options.draw_terrain && cell && region && land_block_at(origin, centre_block)) {
      const int bx = static_cast<int>(centre_block >> 24);
      const int by = static_cast<int>((centre_block >> 16) & 0xFFU);
      const int r = terrain_radius();
      terrain.begin_frame();
      terrain.unload_outside(bx, by, r + 1);
      std::vector<std::uint32_t> ids;  // each slot's block (a null slot is still to load)
      for (int x = std::max(0, bx - r); x <= std::min(255, bx + r); ++x) {
        for (int y = std::max(0, by - r); y <= std::min(255, by + r); ++y) {
          const std::uint32_t id =
              (static_cast<std::uint32_t>(x) << 24) | (static_cast<std::uint32_t>(y) << 16) | 0xFFFFU;
          bool absent = false;
          const TerrainBlock* t = terrain.find(id, absent);
          if (t == nullptr && absent) continue;
          blocks.push_back(t);
          ids.push_back(id);
        }
      }
      for (std::size_t i = 0; i < blocks.size(); ++i) {
        if (blocks[i] == nullptr) blocks[i] = load_terrain_block(ids[i]);
      }
      for (const TerrainBlock* t : blocks) {
        if (t == nullptr) continue;
        const int x = static_cast<int>(t->id >> 24);
        const int y = static_cast<int>((t->id >> 16) & 0xFFU);
        draws.push_back({t, options.terrain_lod ? LScape::get_block_orient(r, x - bx + r, y - by + r) : BlockOrient{}});
      }
    }
    stats.terrain_blocks = draws.size();
    return draws;
  }

  // The frame's lights (Render::world_lights): the snapshot's lights, relative
  // to the frame's origin, in the static and dynamic lists sorted from the
  // eye and capped by the degrade level (Render::SetDegradeLevelInternal).
  // Retail hands over the lights of the cells it draws; every published
  // light is offered here (docs/render.md, "Which lights light an object").
  void gather_lights(const sim::RenderSnapshot& snapshot, const FrameView& view) {
    light_sets.assign(1, LightSet{});
    world_lights.emplace(set_degrade_level_internal(options.degrade.deg_mul), view.eye_rel);
    for (std::size_t i = 0; i < snapshot.lights.size(); ++i) {
      const sim::LightSnapshot& l = snapshot.lights[i];
      if (!finite(l.position) || !(l.falloff > 0.0F) || !std::isfinite(l.intensity)) continue;
      world_lights->add(LightSource{l.position - view.origin, glm::vec3(l.color), l.intensity, l.falloff, l.is_static},
                        i);
    }
    stats.lights = world_lights->static_lights().size() + world_lights->dynamic_lights().size();
  }

  // The frame's id of a set of lights (0: none), so draws lit alike batch.
  std::uint16_t intern_light_set(LightSet set) {
    if (set.empty()) return 0;
    for (std::size_t i = 1; i < light_sets.size(); ++i) {
      if (light_sets[i] == set) return static_cast<std::uint16_t>(i);
    }
    if (light_sets.size() > 0xFFFF) return 0;
    light_sets.push_back(std::move(set));
    return static_cast<std::uint16_t>(light_sets.size() - 1);
  }

  // Render::minimize_object_lighting 0x0054D480 for a mesh drawn with
  // `model` (relative to the frame's origin): the lights reaching its
  // bounding sphere, eight at most.
  std::uint16_t object_lights(const GpuMesh& m, const glm::mat4& model, float scale) {
    if (!world_lights) return 0;
    const glm::vec3 centre(model * glm::vec4(m.bound_center, 1.0F));
    return intern_light_set(world_lights->minimize_object_lighting(centre, m.bound_radius * scale));
  }

  // The objects' parts (or a marker for an object with none loaded) into the
  // opaque and blended lists, then the landscape's buildings and EnvCells.
  void gather_objects(const sim::RenderSnapshot& snapshot, const FrameView& view, DrawLists& lists) {
    stats.objects = snapshot.objects.size();
    gather_object_list(snapshot.objects, view, lists);
    if (snapshot.landscape) {
      gather_object_list(snapshot.landscape->buildings, view, lists);
      gather_cells(snapshot.landscape->cells, view, lists);
    }
  }

  void gather_cells(const std::vector<sim::CellSnapshot>& cells, const FrameView& view, DrawLists& lists);

  void gather_object_list(const std::vector<sim::ObjectSnapshot>& objects, const FrameView& view, DrawLists& lists) {
    const glm::vec3& origin = view.origin;
    for (const auto& obj : objects) {
      if (obj.hidden || obj.no_draw) {
        ++stats.objects_skipped;
        continue;
      }
      bool any_drawable = false;
      bool any_loaded = false;
      const std::uint32_t object_palette = composed_palette(obj.palette);
      for (const auto& part : obj.parts) {
        if (part.no_draw) continue;
        any_drawable = true;
        PhysicsPart draw_state;
        draw_state.set_translucency(part.translucency);
        if (!draw_state.drawn()) {
          any_loaded = true;  // invisible on purpose
          continue;
        }
        const GpuMesh* m = part.gfx_obj != 0 ? mesh(part.gfx_obj) : nullptr;
        if (m == nullptr) {
          ++stats.parts_missing;
          continue;
        }
        any_loaded = true;
        const glm::vec3 pos = part.frame.origin - origin;
        if (!finite(pos) || !finite(part.scale) || std::abs(part.scale.x * part.scale.y * part.scale.z) < 1e-12F) {
          continue;
        }
        const ViewerDistance vd = viewer_distance(view.eye, part.frame, m->sort_center, part.scale);
        const std::uint32_t mode = degrade_mode(*m, vd, part.scale.z, obj.is_player);
        const core::Frame draw_frame = calc_draw_frame(part.frame, mode, vd.heading);
        const glm::mat4 model = glm::translate(glm::mat4(1.0F), pos) * glm::mat4(draw_frame.matrix()) *
                                glm::scale(glm::mat4(1.0F), part.scale);
        const glm::vec3 abs_scale = glm::abs(part.scale);
        if (outside_view(view, *m, model, std::max({abs_scale.x, abs_scale.y, abs_scale.z}))) {
          ++stats.parts_culled;
          continue;
        }
        PartTag tag{DrawKind::Part, obj.id, part.gfx_obj, vd.distance, mode};
        tag.light_set = object_lights(*m, model, std::max({abs_scale.x, abs_scale.y, abs_scale.z}));
        // CPartArray::SetPalette 0x00518E10: the composition reaches the parts whose own palette is its base.
        const std::uint32_t part_palette =
            object_palette != kNoPalette && m->original_palette == obj.palette.base_palette ? object_palette
                                                                                            : kNoPalette;
        add_batches(*m, model, glm::inverseTranspose(glm::mat3(model)), draw_state.translucency(), part.luminosity,
                    part.diffuse, tag, lists, nullptr, glm::vec4(1.0F), part.texture_changes, part_palette);
        ++stats.parts_drawn;
      }
      if (obj.parts.empty() || (any_drawable && !any_loaded)) {
        const float s = options.marker_size * (obj.scale > 0.0F && std::isfinite(obj.scale) ? obj.scale : 1.0F);
        const glm::vec3 pos = obj.root.origin - origin + glm::vec3(0.0F, 0.0F, s * 0.5F);
        if (!finite(pos)) continue;
        PhysicsPart draw_state;
        draw_state.set_translucency(obj.translucency);
        if (!draw_state.drawn()) continue;
        const glm::mat4 model = glm::translate(glm::mat4(1.0F), pos) * glm::mat4(obj.root.matrix()) *
                                glm::scale(glm::mat4(1.0F), glm::vec3(s));
        if (outside_view(view, cube, model, s)) {
          ++stats.parts_culled;
          continue;
        }
        const float distance = glm::length(pos - view.eye_rel);
        PartTag tag{DrawKind::Marker, obj.id, 0, distance, 1};
        tag.light_set = object_lights(cube, model, s);
        add_batches(cube, model, glm::mat3(obj.root.matrix()), draw_state.translucency(), 0.35F, 1.0F, tag, lists,
                    nullptr, glm::vec4(marker_color(obj), 1.0F));
        ++stats.markers;
      }
    }
  }

  // The particles: each a part of its emitter's GfxObj at the particle's
  // position, orientation and uniform scale, turned by the GfxObj's degrade
  // mode (2: facing the eye) as retail draws parts; texture billboards always
  // face the eye.
  void gather_particles(const sim::RenderSnapshot& snapshot, const FrameView& view, DrawLists& lists) {
    const glm::vec3& origin = view.origin;
    for (const auto& emitter : snapshot.emitters) {
      const GpuMesh* m = nullptr;
      const GpuMaterial* override_material = nullptr;
      if (emitter.gfx_obj != 0) {
        m = mesh(emitter.gfx_obj);
      } else if (emitter.texture != 0) {
        override_material = billboard_material(emitter.texture).get();
        if (override_material != nullptr) m = &quad;
      }
      if (m == nullptr) continue;
      for (const auto& p : emitter.particles) {
        PhysicsPart draw_state;
        draw_state.set_translucency(1.0F - p.alpha);
        if (!draw_state.drawn() || !(p.scale > 0.0F) || !std::isfinite(p.scale)) continue;
        const glm::vec3 pos = p.position - origin;
        if (!finite(pos)) continue;
        const core::Frame frame(p.position, p.orientation);  // an invalid quaternion leaves the identity
        const glm::vec3 scale(p.scale);
        const ViewerDistance vd = viewer_distance(view.eye, frame, m->sort_center, scale);
        const std::uint32_t mode = override_material != nullptr ? 2U : degrade_mode(*m, vd, p.scale, false);
        const core::Frame draw_frame = calc_draw_frame(frame, mode, vd.heading);
        const glm::mat4 model = glm::translate(glm::mat4(1.0F), pos) * glm::mat4(draw_frame.matrix()) *
                                glm::scale(glm::mat4(1.0F), scale);
        if (outside_view(view, *m, model, p.scale)) {
          ++stats.particles_culled;
          continue;
        }
        PartTag tag{DrawKind::Particle, emitter.owner, emitter.gfx_obj != 0 ? emitter.gfx_obj : emitter.texture,
                    vd.distance, mode};
        tag.light_set = object_lights(*m, model, p.scale);
        add_batches(*m, model, glm::mat3(draw_frame.matrix()), draw_state.translucency(), 0.0F, 1.0F, tag, lists,
                    override_material);
        ++stats.particles_drawn;
      }
    }
  }

  // The day group drawn: retail's for the game day (CRegionDesc::CalcDayGroup
  // -> SkyDesc::CalcPresentDayGroup 0x00500E10) when there is one, else
  // options.day_group (group 0 when out of range).
  [[nodiscard]] std::size_t day_group_now(const dat::SkyDesc& sky) const noexcept {
    if (options.game_day) {
      return calc_present_day_group(options.game_day->day, options.game_day->days_per_year, options.game_day->year,
                                    sky.day_groups.size());
    }
    return options.day_group < sky.day_groups.size() ? options.day_group : 0;
  }

  // The sun, ambient and fog of this frame: from the Region's SkyDesc at
  // options.time_of_day as LScape::PreFetchCells and set_landscape_lighting
  // use it (SkyDesc::GetLighting, SkyDesc::GetWorldFog), else the options'
  // fixed light and no fog.
  [[nodiscard]] FrameSky frame_sky() const {
    FrameSky f;
    if (!region || !region->sky || region->sky->day_groups.empty() || !options.use_region_sky) {
      f.mesh_ambient = f.terrain_ambient = options.ambient;
      f.sun_color = options.sun_color;
      f.sun_towards = glm::length(options.sun_towards) > 0.0F ? glm::normalize(options.sun_towards)
                                                               : glm::vec3(0.0F, 0.0F, 1.0F);
      return f;
    }
    const dat::SkyDesc& sky = *region->sky;
    const std::size_t group = day_group_now(sky);
    const SkyLighting l = get_lighting(sky, group, options.time_of_day);
    const float level = std::isfinite(l.ambient_level) ? std::max(l.ambient_level, 0.0F) : 0.0F;  // min_ambient 0
    const float strength = std::isfinite(glm::length(l.sunlight)) ? glm::length(l.sunlight) : 0.0F;
    const glm::vec3 ambient = unit_color(l.ambient_color);
    f.terrain_ambient = ambient * level;
    f.mesh_ambient = ambient * (strength * 0.2F + level);
    f.sun_color = unit_color(l.sunlight_color) * strength;
    f.sun_towards = strength > core::kEpsilon ? l.sunlight / strength : glm::vec3(0.0F, 0.0F, 1.0F);
    if (const auto fog = get_world_fog(sky, group, options.time_of_day);
        fog && std::isfinite(fog->min) && std::isfinite(fog->max) && fog->max > fog->min) {
      f.fog = true;
      f.fog_min = fog->min;
      f.fog_max = fog->max;
      f.fog_color = unit_color(fog->color);
    }
    return f;
  }

  // The lighting uniforms every lit program shares: sun, ambient, fog and the frame's point lights.
  void set_lighting(const LightingUniforms& u, const FrameView& view, const LightSet& lights, const FrameSky& sky,
                    const glm::vec3& ambient) const {
    glUniformMatrix4fv(u.view_projection, 1, GL_FALSE, glm::value_ptr(view.view_projection));
    glUniform3fv(u.ambient, 1, glm::value_ptr(ambient));
    glUniform3fv(u.sun_color, 1, glm::value_ptr(sky.sun_color));
    glUniform3fv(u.sun_towards, 1, glm::value_ptr(sky.sun_towards));
    glUniform3fv(u.eye, 1, glm::value_ptr(view.eye_rel));
    // No fog: a range so far away that every vertex is clear.
    glUniform2f(u.fog, sky.fog ? sky.fog_min : 1e30F, sky.fog ? sky.fog_max : 2e30F);
    glUniform3fv(u.fog_color, 1, glm::value_ptr(sky.fog_color));
    set_point_lights(u, lights);
  }

  // The point lights of one draw (at most kMaxLights = 8 slots).
  static void set_point_lights(const LightingUniforms& u, const LightSet& lights) {
    const std::size_t n = std::min(lights.size(), static_cast<std::size_t>(kMaxLights));
    glUniform1i(u.light_count, static_cast<GLint>(n));
    for (std::size_t i = 0; i < n; ++i) {
      glUniform3fv(u.light_position[i], 1, glm::value_ptr(lights[i]->position));
      glUniform3fv(u.light_color[i], 1, glm::value_ptr(lights[i]->color));
      glUniform1f(u.light_intensity[i], lights[i]->intensity);
      glUniform1f(u.light_falloff[i], lights[i]->falloff);
    }
  }

  // The terrain pass: one draw per landblock, over its cached surface.
  void draw_terrain(const std::vector<TerrainDraw>& blocks, const FrameView& view, const FrameSky& sky) {
    if (blocks.empty()) return;
    const glm::vec3& origin = view.origin;
    glUseProgram(terrain_program);
    set_lighting(terrain_lighting, view, light_sets.front(), sky, sky.terrain_ambient);
    std::uint16_t block_lights = 0;
    glActiveTexture(GL_TEXTURE0);
    glUniform1i(u_surface, 0);
    std::size_t drawn = 0;
    for (const TerrainDraw& d : blocks) {
      const TerrainBlock* t = d.block;
      const TerrainLod* mesh = nullptr;
      {
        const LoadScope scope(*this);  // a far-terrain mesh is made the first time it is drawn
        mesh = terrain.lod(t->id, d.orient, region->land_defs);
      }
      if (mesh == nullptr) continue;
      const glm::vec3 offset = t->origin - origin;
      const float min_z = std::min(t->min_z, mesh->min_z);  // TransAdjust may lower an edge below the block
      const float max_z = std::max(t->max_z, mesh->max_z);
      if (options.frustum_cull && view.frustum.box_outside(offset + glm::vec3(0.0F, 0.0F, min_z),
                                                           offset + glm::vec3(kBlockSide, kBlockSide, max_z))) {
        ++stats.terrain_blocks_culled;
        continue;
      }
      ++drawn;
      // A block is lit as an object of its bounds (minimize_object_lighting).
      if (world_lights) {
        const glm::vec3 half(kBlockSide * 0.5F, kBlockSide * 0.5F, (max_z - min_z) * 0.5F);
        const glm::vec3 centre = offset + glm::vec3(half.x, half.y, min_z + half.z);
        const std::uint16_t set = intern_light_set(world_lights->minimize_object_lighting(centre, glm::length(half)));
        if (set != block_lights) {
          set_point_lights(terrain_lighting, light_sets[set]);
          block_lights = set;
        }
      }
      glUniform3fv(u_offset, 1, glm::value_ptr(offset));
      glBindTexture(GL_TEXTURE_2D, t->surface);
      glBindVertexArray(mesh->vao);
      glDrawArrays(GL_TRIANGLES, 0, mesh->vertex_count);
      if (options.record_draw_list) {
        DrawRecord r;
        r.kind = DrawKind::Terrain;
        r.block = t->id;
        draw_list.push_back(r);
      }
      ++stats.draw_calls;
      ++stats.batches;
      stats.triangles += static_cast<std::size_t>(mesh->vertex_count) / 3;
      stats.terrain_triangles += static_cast<std::size_t>(mesh->vertex_count) / 3;
      if (d.orient.size > 1) ++stats.terrain_blocks_far;
    }
    stats.terrain_blocks = drawn;
  }

  // Two draws that one instanced call can make: the same batch of the same
  // mesh with the same surface, state and texture scroll.
  static bool same_call(const DrawItem& a, const DrawItem& b) noexcept {
    return a.mesh == b.mesh && a.batch == b.batch && a.material == b.material && a.state == b.state &&
           a.uv_offset == b.uv_offset && a.light_set == b.light_set;
  }

  // The opaque list in state order (texture, then mesh and batch), so equal
  // draws sit together for batching; opaque draws need no order of their own.
  static void order_by_state(std::vector<DrawItem>& items) {
    std::stable_sort(items.begin(), items.end(), [](const DrawItem& a, const DrawItem& b) {
      if (a.material->texture != b.material->texture) return a.material->texture < b.material->texture;
      if (a.mesh->vao != b.mesh->vao) return a.mesh->vao < b.mesh->vao;
      if (a.batch->first_index != b.batch->first_index) return a.batch->first_index < b.batch->first_index;
      return a.light_set < b.light_set;
    });
  }

  // Draws the items in their order: their per-instance attributes uploaded
  // at once, then each run of items that same_call joins as one instanced
  // draw (one call per item without options.batch_draws), with the run's
  // program, blend, depth writes and texture. `depth` is what the draw
  // list records.
  void submit(const std::vector<DrawItem>& items, const FrameView& view, const FrameSky& sky, DepthMode depth,
              bool vertex_lit = false) {
    if (items.empty()) return;
    instances.resize(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      const DrawItem& item = items[i];
      Instance& in = instances[i];
      std::copy_n(glm::value_ptr(item.model), 16, in.model.begin());
      std::copy_n(glm::value_ptr(item.normal_matrix), 9, in.normal.begin());
      std::copy_n(glm::value_ptr(item.tint), 4, in.tint.begin());
      in.params = {item.alpha, item.luminosity, item.diffuse};
    }
    glBindBuffer(GL_ARRAY_BUFFER, instance_vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(instances.size() * sizeof(Instance)), instances.data(),
                 GL_STREAM_DRAW);
    auto& programs = mesh_programs[vertex_lit ? 1 : 0];
    for (MeshProgram& p : programs) {
      glUseProgram(p.id);
      set_lighting(p.lighting, view, light_sets.front(), sky, sky.mesh_ambient);
      glUniform1i(p.texture, 0);
    }
    std::array<std::uint16_t, 2> program_lights{0, 0};  // the light set each program holds
    glActiveTexture(GL_TEXTURE0);
    const MeshProgram* current = nullptr;
    std::size_t i = 0;
    while (i < items.size()) {
      const DrawItem& item = items[i];
      std::size_t n = 1;
      if (options.batch_draws) {
        while (i + n < items.size() && same_call(item, items[i + n])) ++n;
      }
      const std::size_t which = item.state.alpha_test ? 1 : 0;
      const MeshProgram& program = programs[which];
      if (&program != current) {
        glUseProgram(program.id);
        current = &program;
      }
      if (item.light_set != program_lights[which] && item.light_set < light_sets.size()) {
        set_point_lights(program.lighting, light_sets[item.light_set]);
        program_lights[which] = item.light_set;
      }
      if (item.state.blend) {
        glEnable(GL_BLEND);
        glBlendFuncSeparate(gl_blend(item.state.src), gl_blend(item.state.dst), GL_ZERO, GL_ONE);
      } else {
        glDisable(GL_BLEND);
      }
      glDepthMask(item.state.depth_write ? GL_TRUE : GL_FALSE);
      if (item.state.alpha_test) {
        glUniform1f(program.alpha_ref, static_cast<float>(item.state.alpha_ref) / 255.0F);
      }
      glUniform2fv(program.uv_offset, 1, glm::value_ptr(item.uv_offset));
      glBindTexture(GL_TEXTURE_2D, item.material->texture);
      glBindVertexArray(item.mesh->vao);
      point_instances(i);
      glDrawElementsInstanced(
          GL_TRIANGLES, static_cast<GLsizei>(item.batch->index_count), GL_UNSIGNED_INT,
          reinterpret_cast<const void*>(static_cast<std::size_t>(item.batch->first_index) * sizeof(std::uint32_t)),
          static_cast<GLsizei>(n));
      for (std::size_t k = i; k < i + n; ++k) {
        const DrawItem& d = items[k];
        if (options.record_draw_list) {
          DrawRecord r{d.kind, d.alpha_class, d.owner, d.gfx_obj, d.material->info.surface, d.block,
                       d.distance, d.degrade_mode, d.state, depth};
          r.lights = d.light_set < light_sets.size() ? light_sets[d.light_set].size() : 0;
          draw_list.push_back(r);
        }
      }
      ++stats.draw_calls;
      stats.batches += n;
      stats.triangles += static_cast<std::size_t>(item.batch->index_count / 3) * n;
      i += n;
    }
  }

  // The mesh passes: the opaque draws, then the clip list (solid), or the
  // alpha list (D3DPolyRender::FlushAlphaList 0x0059D2E0); the delayed lists
  // back to front.
  void draw_meshes(const DrawLists& lists, const FrameView& view, const FrameSky& sky, bool alpha_list) {
    // Lit per vertex, as retail's fixed-function D3D lights every mesh.
    const bool vertex_lit = options.vertex_lighting;
    if (alpha_list) {
      submit(lists.alpha, view, sky, DepthMode::Test, vertex_lit);
      return;
    }
    submit(lists.opaque, view, sky, DepthMode::Test, vertex_lit);
    submit(lists.clip, view, sky, DepthMode::Test, vertex_lit);
  }

  // The sky objects (GameSky::Draw 0x00506FF0 with after = 0): GameSky::UseTime
  // at the time of day, then each object the draw keeps, in SkyObject
  // order, around the eye (the view without its translation) under a far
  // plane four times the camera's (Render::zfar * 4), with no depth writes
  // and no fog. Retail draws them before the landblocks with the depth test
  // always passing (options.sky_first); by default they are drawn after the
  // opaque world and the clip list at the far plane, which leaves the same
  // picture (each sky object still over the last, everything drawn so far in
  // front) without shading the sky under the terrain (docs/deviations.md).
  // An object's batches go at once: opaque, then clip, then alpha.
  void draw_sky(const Camera& camera, int width, int height, const FrameSky& sky) {
    if (!options.draw_sky_objects || !region || !region->sky || !options.use_region_sky) return;
    const dat::SkyDesc& desc = *region->sky;
    const std::size_t group = day_group_now(desc);
    game_sky.use_time(desc, group, options.time_of_day);
    const std::vector<const SkyObjectState*> objects = game_sky.draw_before();
    if (objects.empty()) return;
    Camera far_camera = camera;
    far_camera.far_plane = camera.far_plane * 4.0F;
    FrameView view;
    view.origin = camera.eye();
    view.view_projection = far_camera.view_projection(width, height, view.origin);
    view.eye = view.origin;
    FrameSky unfogged = sky;
    unfogged.fog = false;
    std::vector<DrawItem> items;
    if (options.sky_first) {
      glDepthFunc(GL_ALWAYS);
    } else {
      glDepthRange(1.0, 1.0);  // every sky fragment at the far plane: behind whatever was drawn
    }
    for (const SkyObjectState* o : objects) {
      const GpuMesh* m = mesh(o->gfx_obj);
      if (m == nullptr) continue;
      PhysicsPart draw_state;
      draw_state.set_translucency(o->translucency);
      if (!draw_state.drawn()) continue;
      const glm::mat4 model(o->frame.matrix());
      DrawLists lists;
      add_batches(*m, model, glm::mat3(model), draw_state.translucency(), o->luminosity, o->diffusion,
                  PartTag{DrawKind::Sky, sim::LocalId::None, o->gfx_obj, 0.0F, 1}, lists);
      const double scroll = options.sky_seconds;
      const glm::vec2 offset(static_cast<float>(std::fmod(static_cast<double>(o->tex_velocity.x) * scroll, 1.0)),
                             static_cast<float>(std::fmod(static_cast<double>(o->tex_velocity.y) * scroll, 1.0)));
      for (auto* list : {&lists.opaque, &lists.clip, &lists.alpha}) {
        for (DrawItem& item : *list) {
          item.state.depth_write = false;
          item.uv_offset = std::isfinite(offset.x) && std::isfinite(offset.y) ? offset : glm::vec2(0.0F);
          items.push_back(item);
        }
      }
      ++stats.sky_objects_drawn;
    }
    submit(items, view, unfogged, options.sky_first ? DepthMode::Always : DepthMode::FarPlane, true);
    glDepthRange(0.0, 1.0);
    glDepthFunc(GL_LEQUAL);
    glDepthMask(GL_TRUE);
  }

  // A delayed list in retail's visiting order: farthest part first
  // (CShadowPart::insertion_sort 0x006B5130), a part's batches together.
  static void order_back_to_front(std::vector<DrawItem>& items) {
    if (items.size() < 2) return;
    std::vector<float> distances(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) distances[i] = items[i].distance;
    const std::vector<std::size_t> order = back_to_front(distances);
    std::vector<DrawItem> sorted;
    sorted.reserve(items.size());
    for (const std::size_t i : order) sorted.push_back(items[i]);
    items = std::move(sorted);
  }

  core::Result<void> draw(const sim::RenderSnapshot& snapshot, const Camera& camera, int width, int height,
                          bool own_target) {
    if (width <= 0 || height <= 0 || width > kMaxTargetSize || height > kMaxTargetSize) {
      return std::unexpected(core::Error{core::ErrorKind::Invalid, "Renderer", "size", 0,
                                         "width and height must be 1.." + std::to_string(kMaxTargetSize)});
    }
    stats = RenderStats{};
    draw_list.clear();
    timing = FrameTiming{};
    load_seconds = 0.0;
    const auto prepare_start = Clock::now();

    FrameView view;
    view.origin = camera.center();
    view.view_projection = camera.view_projection(width, height, view.origin);
    view.eye = camera.eye();
    view.eye_rel = view.eye - view.origin;
    view.frustum = Frustum::from_matrix(view.view_projection);
    if (own_target) DERETH_CHECK(ensure_target(width, height));

    const std::vector<TerrainDraw> blocks = gather_terrain(view.origin);
    if (portal) ensure_region();  // the SkyDesc lights the frame even without terrain
    const FrameSky sky = frame_sky();
    gather_lights(snapshot, view);
    DrawLists lists;
    gather_objects(snapshot, view, lists);
    gather_particles(snapshot, view, lists);
    if (options.batch_draws) order_by_state(lists.opaque);
    order_back_to_front(lists.clip);
    order_back_to_front(lists.alpha);
    timing.prepare = std::max(0.0, seconds_since(prepare_start) - load_seconds);

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
    const glm::vec3 background = sky.fog ? sky.fog_color
                                         : glm::vec3(options.clear_color[0], options.clear_color[1],
                                                     options.clear_color[2]);
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

    if (options.sky_first) draw_sky(camera, width, height, sky);
    draw_terrain(blocks, view, sky);
    draw_meshes(lists, view, sky, false);
    if (!options.sky_first) draw_sky(camera, width, height, sky);
    draw_meshes(lists, view, sky, true);

    glBindVertexArray(0);
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glUseProgram(0);
    if (own_target) glBindFramebuffer(GL_DRAW_FRAMEBUFFER, static_cast<GLuint>(previous_framebuffer));
    if (const GLenum e = glGetError(); e != GL_NO_ERROR) log_once(0xFFFFFFFFU, "GL error " + hex_id(e));
    timing.submit = seconds_since(submit_start);
    if (options.finish_each_frame) {
      const auto finish_start = Clock::now();
      glFinish();
      timing.finish = seconds_since(finish_start);
    }
    timing.load = load_seconds;
    accumulate();
    return {};
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

// ---- EnvCells ------------------------------------------------------------------------------------

const GpuMesh* Renderer::Impl::cell_mesh(const sim::CellSnapshot& c) {
  if (auto it = cell_meshes.find(c.cell_id); it != cell_meshes.end()) return it->second.get();
  const LoadScope scope(*this);
  std::shared_ptr<GpuMesh> result;
  const dat::Did env_id = c.environment_id;
  if (!portal) {
    log_once(c.cell_id, "no portal DAT");
  } else if (auto bytes = portal->read(env_id); !bytes) {
    log_once(c.cell_id, bytes.error().message());
  } else if (auto env = dat::read_environment(*bytes, env_id); !env) {
    log_once(c.cell_id, env.error().message());
  } else if (const dat::CellStruct* cs = dat::find_cell_struct(*env, c.cell_struct); cs == nullptr) {
    log_once(c.cell_id, "Environment " + hex_id(env_id) + " has no cell struct " + std::to_string(c.cell_struct));
  } else {
    const MeshData data = build_cell_struct_mesh(*cs, c.surfaces.size());
    if (data.skipped_polygons > 0) {
      core::logger(core::Module::Render)
          ->warn("{}: {} malformed polygons skipped", hex_id(c.cell_id), data.skipped_polygons);
    }
    if (data.indices.empty()) {
      log_once(c.cell_id, "no drawable polygons");
    } else {
      result = std::make_shared<GpuMesh>(upload_mesh(data));
      for (std::size_t i = 0; i < data.batches.size(); ++i) {
        result->batches[i].material = material(c.surfaces[data.batches[i].surface_index]);
      }
      result->sort_center = (data.bounds_min + data.bounds_max) * 0.5F;
    }
  }
  cell_meshes.emplace(c.cell_id, result);
  return result.get();
}

// Each EnvCell's structure at its frame, lit and sorted as a part.
void Renderer::Impl::gather_cells(const std::vector<sim::CellSnapshot>& cells, const FrameView& view,
                                  DrawLists& lists) {
  for (const sim::CellSnapshot& c : cells) {
    const glm::vec3 pos = c.frame.origin - view.origin;
    if (!finite(pos)) continue;
    const GpuMesh* m = cell_mesh(c);
    if (m == nullptr) continue;
    const glm::mat4 model = glm::translate(glm::mat4(1.0F), pos) * glm::mat4(c.frame.matrix());
    if (outside_view(view, *m, model, 1.0F)) {
      ++stats.cells_culled;
      continue;
    }
    const float distance = glm::length(view.eye - c.frame.localtoglobal(m->sort_center));
    const std::array<std::size_t, 3> before{lists.opaque.size(), lists.clip.size(), lists.alpha.size()};
    PartTag tag{DrawKind::Cell, sim::LocalId::None, c.environment_id, distance, 1};
    // Render::minimize_envcell_lighting 0x0054C170: a cell takes the dynamic lights.
    if (world_lights) tag.light_set = intern_light_set(world_lights->minimize_envcell_lighting());
    add_batches(*m, model, glm::mat3(c.frame.matrix()), 0.0F, 0.0F, 1.0F, tag, lists);
    // The draw list names the cell as terrain names its landblock.
    bool drawn = false;
    const std::array<std::vector<DrawItem>*, 3> added{&lists.opaque, &lists.clip, &lists.alpha};
    for (std::size_t l = 0; l < added.size(); ++l) {
      for (std::size_t i = before[l]; i < added[l]->size(); ++i) (*added[l])[i].block = c.cell_id;
      drawn = drawn || added[l]->size() > before[l];
    }
    if (drawn) ++stats.cells_drawn;
  }
}

Renderer::Renderer(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
Renderer::~Renderer() = default;

core::Result<std::unique_ptr<Renderer>> Renderer::create(GlProcLoader loader, const dat::DatFile* portal,
                                                         const dat::DatFile* cell, RendererOptions options) {
  const GlVersion version = load_gl_functions(loader);
  if (version.major < 3 || (version.major == 3 && version.minor < 3)) {
    return std::unexpected(gl_error("load_gl_functions", "OpenGL 3.3 core is not available in the current context"));
  }
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  if (portal != nullptr) impl->portal = *portal;
  if (cell != nullptr) impl->cell = *cell;
  impl->detect_anisotropy();
  impl->terrain.set_anisotropy(impl->anisotropy);
  DERETH_CHECK(impl->build_programs());
  impl->build_fixed_meshes();
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    return std::unexpected(gl_error("setup", "GL error " + hex_id(e)));
  }
  return std::unique_ptr<Renderer>(new Renderer(std::move(impl)));
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
  return impl_->stats;
}
const std::vector<DrawRecord>& Renderer::last_draw_list() const noexcept {
  return impl_->draw_list;
}
float Renderer::anisotropy() const noexcept {
  return impl_->anisotropy;
}
const TerrainCacheStats& Renderer::terrain_cache_stats() const noexcept {
  return impl_->terrain.stats();
}
const FrameTiming& Renderer::last_timing() const noexcept {
  return impl_->timing;
}
const TimingTotals& Renderer::timing_totals() const noexcept {
  return impl_->totals;
}
const RendererOptions& Renderer::options() const noexcept {
  return impl_->options;
}
RendererOptions& Renderer::options() noexcept {
  return impl_->options;
}

}  // namespace dereth::render
