#include "gpu_assets.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include <glm/geometric.hpp>

#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/surface.hpp"

namespace dereth::render {

namespace {

// EXT/ARB_texture_filter_anisotropic (core in 4.6); glad's 3.3 core loader does not name them.
constexpr GLenum kTextureMaxAnisotropy = 0x84FE;
constexpr GLenum kMaxTextureMaxAnisotropy = 0x84FF;

// Mesa's software rasterisers, by their GL_RENDERER string.
bool is_software_rasteriser(std::string_view renderer) noexcept {
  return renderer.find("llvmpipe") != std::string_view::npos || renderer.find("softpipe") != std::string_view::npos ||
         renderer.find("swrast") != std::string_view::npos;
}

// Why the record cache could not give a record (it logged and remembered it).
std::string why_missing(const dat::RecordCache& records, const char* kind, dat::Did id) {
  const auto m = records.find_missing(kind, id);
  return m.has_value() ? m->why : std::string("no record");
}

// A GfxObj's degrade levels; none (drawn as posed, mode 1) when they do not
// read, and then `why` says why.
std::optional<dat::GfxObjDegradeInfo> read_degrade_info(dat::RecordCache& records, dat::Did id, std::string& why) {
  if ((id >> 24) != 0x11) {
    why = "not a GfxObjDegradeInfo id";
    return std::nullopt;
  }
  const auto info = records.gfx_obj_degrade_info(id);
  if (!info) {
    why = why_missing(records, "GfxObjDegradeInfo", id);
    return std::nullopt;
  }
  return *info;
}

// Reads a GfxObj and builds its triangles; with `decode`, also reads and
// decodes what its upload will use: every batch's surface, then the surfaces
// in order up to the first with a palette (CPhysicsPart::DetermineBasePal's
// search), and its degrade levels. Touches nothing but `records` (an asset
// worker runs it).
PreparedMesh prepare_mesh(const std::shared_ptr<dat::RecordCache>& records, dat::Did gfx_obj, bool decode) {
  PreparedMesh p;
  p.gfx_obj = gfx_obj;
  p.obj = records->gfx_obj(gfx_obj);
  if (!p.obj) {
    p.why = why_missing(*records, "GfxObj", gfx_obj);
    return p;
  }
  p.data = build_gfx_obj_mesh(*p.obj);
  p.materials.resize(p.obj->surfaces.size());
  if (!decode || p.data.indices.empty()) return p;
  const auto decode_at = [&](std::size_t i) -> const core::Result<Material>& {
    if (!p.materials[i]) p.materials[i] = load_material(*records, p.obj->surfaces[i]);
    return *p.materials[i];
  };
  for (const MeshBatch& b : p.data.batches) {
    if (b.surface_index < p.materials.size()) decode_at(b.surface_index);
  }
  for (std::size_t i = 0; i < p.materials.size(); ++i) {
    const auto& m = decode_at(i);
    if (m && m->original_palette != 0) break;
  }
  p.degrades_read = true;
  if ((p.obj->flags & dat::GfxObj::kHasDidDegrade) != 0 && p.obj->degrade_id != 0) {
    p.degrades = read_degrade_info(*records, p.obj->degrade_id, p.degrade_why);
  }
  return p;
}

// An EnvCell's CellStruct triangles from the snapshot's Environment; with
// `decode`, its surfaces decoded too. Touches nothing but `records` and the
// cell's own data (an asset worker runs it).
PreparedCell prepare_cell(dat::RecordCache* records, const sim::CellSnapshot& c, bool decode) {
  PreparedCell p;
  const dat::Did env_id = c.environment_id;
  const dat::CellStruct* cs = c.environment ? dat::find_cell_struct(*c.environment, c.cell_struct) : nullptr;
  if (!c.environment) {
    p.why = "Environment " + hex_id(env_id) + " not available";
  } else if (cs == nullptr) {
    p.why = "Environment " + hex_id(env_id) + " has no cell struct " + std::to_string(c.cell_struct);
  } else {
    p.data = build_cell_struct_mesh(*cs, c.surfaces.size());
    if (p.data.indices.empty()) p.why = "no drawable polygons";
  }
  p.materials.resize(c.surfaces.size());
  if (!decode || records == nullptr || !p.why.empty()) return p;
  for (const MeshBatch& b : p.data.batches) {
    if (b.surface_index < p.materials.size() && !p.materials[b.surface_index]) {
      p.materials[b.surface_index] = load_material(*records, c.surfaces[b.surface_index]);
    }
  }
  return p;
}

// A texture (0x05/0x06) as a billboard's material: it blends by its alpha
// (a Base1Image | Alpha surface).
core::Result<Material> load_billboard(dat::RecordCache& records, dat::Did texture) {
  bool palettized = false;
  auto image = load_texture(records, texture, 0, false, &palettized);
  if (!image) return std::unexpected(image.error());
  Material m;
  m.surface = texture;
  m.type = dat::surface_type::kBase1Image | dat::surface_type::kAlpha;
  m.image = std::move(*image);
  m.has_texture = true;
  m.palettized = palettized;
  return m;
}

// An ObjDesc's palette composed from the DAT's palettes (Palette::makeModifiedPalette).
core::Result<dat::Palette> compose_palette(dat::RecordCache* records, const sim::PaletteChange& change) {
  std::vector<dat::Subpalette> subs;
  subs.reserve(change.subpalettes.size());
  for (const auto& sp : change.subpalettes) subs.push_back({sp.palette, sp.offset, sp.num_colors});
  return dat::make_modified_palette(change.base_palette, subs, [records](dat::Did id) -> const dat::Palette* {
    if (records == nullptr || (id >> 24) != 0x04) return nullptr;
    return records->palette(id).get();
  });
}

}  // namespace

bool GpuAssets::on_workers() const noexcept {
  return ctx_.records && ctx_.has_asset_workers();
}

template <class Key, class Prepared, class Make>
bool GpuAssets::begin_load(bool use_workers, WorkerLoads<Key, Prepared>& loads, const Key& key, Make make,
                           std::optional<Prepared>& made) {
  if (!use_workers) return ctx_.may_load();
  collect();
  if (loads.ready(key) && !ctx_.may_load()) return false;
  made = loads.take_or_start(ctx_.workers(), key, ctx_.records, std::move(make));
  if (!made) ++ctx_.stats.loads_deferred;  // waits on its worker
  return made.has_value();
}

std::shared_ptr<GpuMaterial> GpuAssets::adopt_material(dat::Did log_id, core::Result<Material> decoded) {
  if (!decoded) {
    ctx_.log_once(log_id, decoded.error().message());
    return nullptr;
  }
  return make_material(std::move(*decoded));
}

void GpuAssets::release() {
  ctx_.asset_pool.reset();  // joins them (what they hold is their own)
  mesh_loads_.clear();
  cell_loads_.clear();
  texture_loads_.clear();
  palette_loads_.clear();
  const auto free_mesh = [](GpuMesh& m) {
    if (m.ebo != 0) glDeleteBuffers(1, &m.ebo);
    if (m.vbo != 0) glDeleteBuffers(1, &m.vbo);
    if (m.vao != 0) glDeleteVertexArrays(1, &m.vao);
    m = GpuMesh{};
  };
  const auto free_material = [](const std::shared_ptr<GpuMaterial>& m) {
    if (m && m->texture != 0) glDeleteTextures(1, &m->texture);
  };
  for (auto& [id, m] : meshes_) {
    if (m) free_mesh(*m);
  }
  for (auto& [id, m] : cell_meshes_) {
    if (m) free_mesh(*m);
  }
  cell_meshes_.clear();
  for (auto& [id, m] : materials_) free_material(m);
  for (auto& [id, m] : billboards_) free_material(m);
  for (auto& [id, m] : changed_materials_) free_material(m);
  for (auto& [id, m] : palette_materials_) free_material(m);
  free_material(white);
  free_mesh(cube);
  free_mesh(quad);
  meshes_.clear();
  materials_.clear();
  billboards_.clear();
  changed_materials_.clear();
  palette_materials_.clear();
  palette_keys_.clear();
  composed_.clear();
  if (instance_vbo != 0) glDeleteBuffers(1, &instance_vbo);
  instance_vbo = 0;
  if (expanded_vao != 0) glDeleteVertexArrays(1, &expanded_vao);
  if (expanded_vbo != 0) glDeleteBuffers(1, &expanded_vbo);
  if (expanded_ebo != 0) glDeleteBuffers(1, &expanded_ebo);
  expanded_vao = expanded_vbo = expanded_ebo = 0;
  mesh_bytes_ = 0;
  texture_bytes_ = 0;
}

void GpuAssets::trim(std::size_t budget) {
  if (budget == 0 || cached_bytes() <= budget) return;
  const std::uint64_t now = ctx_.frame_number;
  // The meshes the current frame did not ask for, least recently used first.
  struct Candidate {
    std::uint64_t last_used;
    bool cell;
    std::uint32_t id;
  };
  std::vector<Candidate> old;
  for (const auto& [id, m] : meshes_) {
    if (m && m->last_used < now) old.push_back({m->last_used, false, id});
  }
  for (const auto& [id, m] : cell_meshes_) {
    if (m && m->last_used < now) old.push_back({m->last_used, true, id});
  }
  std::ranges::sort(old, [](const Candidate& a, const Candidate& b) {
    return std::tie(a.last_used, a.cell, a.id) < std::tie(b.last_used, b.cell, b.id);
  });
  // A texture goes once nothing but the cache holds it.
  const auto free_unheld_textures = [&] {
    for (auto it = materials_.begin(); it != materials_.end();) {
      const auto& m = it->second;
      if (m && m.use_count() == 1 && m->last_used < now) {
        if (m->texture != 0) glDeleteTextures(1, &m->texture);
        texture_bytes_ -= std::min(texture_bytes_, m->bytes);
        ++evicted_;
        it = materials_.erase(it);
      } else {
        ++it;
      }
    }
  };
  for (const Candidate& c : old) {
    if (cached_bytes() <= budget) break;
    auto& map = c.cell ? cell_meshes_ : meshes_;
    const auto it = map.find(c.id);
    GpuMesh& m = *it->second;
    if (m.ebo != 0) glDeleteBuffers(1, &m.ebo);
    if (m.vbo != 0) glDeleteBuffers(1, &m.vbo);
    if (m.vao != 0) glDeleteVertexArrays(1, &m.vao);
    mesh_bytes_ -= std::min(mesh_bytes_, m.bytes);
    ++evicted_;
    map.erase(it);
  }
  free_unheld_textures();
}

// Trilinear, plus anisotropic filtering where the context has it: retail's
// highest Render.TextureFiltering choice ("Anisotropic").
void GpuAssets::set_filtering(GLenum target) const {
  glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  if (anisotropy > 1.0F) glTexParameterf(target, kTextureMaxAnisotropy, anisotropy);
}

void GpuAssets::detect_anisotropy() {
  anisotropy = 1.0F;
  if (!(ctx_.options.max_anisotropy > 1.0F)) return;
  const auto* renderer_name = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  software = renderer_name != nullptr && is_software_rasteriser(renderer_name);
  if (software && !ctx_.options.anisotropic_on_software) return;
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
  anisotropy = std::clamp(ctx_.options.max_anisotropy, 1.0F, std::max(most, 1.0F));
}

GLuint GpuAssets::upload_texture(const Image& image) const {
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

std::shared_ptr<GpuMaterial> GpuAssets::make_material(Material m) const {
  auto g = std::make_shared<GpuMaterial>();
  g->texture = upload_texture(m.image);
  // RGBA8 with its mip chain (a third more).
  g->bytes = static_cast<std::size_t>(m.image.width) * static_cast<std::size_t>(m.image.height) * 4U * 4U / 3U;
  m.image.pixels.clear();
  m.image.pixels.shrink_to_fit();
  g->info = std::move(m);
  return g;
}

void GpuAssets::create_instance_buffer() {
  glGenBuffers(1, &instance_vbo);
  // The expanded draws' vertex array: the mesh attributes 0..2 and the
  // instance attributes 3..11 in the formats a mesh's VAO gives them, all
  // per vertex, from one interleaved ExpandedVertex buffer.
  glGenVertexArrays(1, &expanded_vao);
  glGenBuffers(1, &expanded_vbo);
  glGenBuffers(1, &expanded_ebo);
  glBindVertexArray(expanded_vao);
  glBindBuffer(GL_ARRAY_BUFFER, expanded_vbo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, expanded_ebo);
  const auto stride = static_cast<GLsizei>(sizeof(ExpandedVertex));
  point_vertex_attributes(offsetof(ExpandedVertex, vertex), stride);
  point_instance_attributes(offsetof(ExpandedVertex, instance), stride);
  for (GLuint a = 0; a < kInstanceAttribute + kInstanceAttributes; ++a) glEnableVertexAttribArray(a);
  glBindVertexArray(0);
}

// Attributes 0..2, a MeshVertex's fields, from the buffer bound as
// GL_ARRAY_BUFFER: the first at byte `base`, the next `stride` bytes on.
void GpuAssets::point_vertex_attributes(std::size_t base, GLsizei stride) {
  const auto at = [base](std::size_t offset) { return reinterpret_cast<const void*>(base + offset); };
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, at(offsetof(MeshVertex, position)));
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, at(offsetof(MeshVertex, normal)));
  glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, at(offsetof(MeshVertex, uv)));
}

// Attributes 3..11, an Instance's fields, the same way.
void GpuAssets::point_instance_attributes(std::size_t base, GLsizei stride) {
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

// Per-instance attributes 3..11 of a mesh's VAO, `first` instances into instance_vbo (bound as GL_ARRAY_BUFFER).
void GpuAssets::point_instances(std::size_t first) {
  point_instance_attributes(first * sizeof(Instance), static_cast<GLsizei>(sizeof(Instance)));
}

GpuMesh GpuAssets::upload_mesh(const MeshData& data) const {
  GpuMesh m;
  glGenVertexArrays(1, &m.vao);
  glBindVertexArray(m.vao);
  glGenBuffers(1, &m.vbo);
  glBindBuffer(GL_ARRAY_BUFFER, m.vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(data.vertices.size() * sizeof(MeshVertex)),
               data.vertices.data(), GL_STATIC_DRAW);
  // A mesh flat in local y = 0 also gets each batch's triangles without
  // those facing +y, and without those facing -y (after the whole list):
  // seen clearly from one side, the others are back faces (MeshPass::submit).
  std::vector<std::uint32_t> indices = data.indices;
  std::vector<std::array<std::uint32_t, 4>> sides(data.batches.size());
  m.flat = !data.vertices.empty() &&
           std::ranges::all_of(data.vertices, [](const MeshVertex& v) { return v.position.y == 0.0F; }) &&
           std::ranges::all_of(data.indices, [&](std::uint32_t i) { return i < data.vertices.size(); });
  for (std::size_t k = 0; m.flat && k < data.batches.size(); ++k) {
    const MeshBatch& b = data.batches[k];
    if (b.first_index + b.index_count > data.indices.size() || b.index_count % 3 != 0) {
      m.flat = false;
      break;
    }
    for (const int side : {-1, 1}) {
      const auto first = static_cast<std::uint32_t>(indices.size());
      for (std::uint32_t t = b.first_index; t < b.first_index + b.index_count; t += 3) {
        const glm::vec3& a = data.vertices[data.indices[t]].position;
        const glm::vec3& p = data.vertices[data.indices[t + 1]].position;
        const glm::vec3& c = data.vertices[data.indices[t + 2]].position;
        // y of (p - a) x (c - a): the side its counter-clockwise face looks to.
        const float facing = (p.z - a.z) * (c.x - a.x) - (p.x - a.x) * (c.z - a.z);
        if (side < 0 ? facing > 0.0F : facing < 0.0F) continue;  // a back face from that side
        indices.insert(indices.end(), {data.indices[t], data.indices[t + 1], data.indices[t + 2]});
      }
      const std::size_t at = side < 0 ? 0 : 2;
      sides[k][at] = first;
      sides[k][at + 1] = static_cast<std::uint32_t>(indices.size()) - first;
    }
  }
  glGenBuffers(1, &m.ebo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, m.ebo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * sizeof(std::uint32_t)), indices.data(),
               GL_STATIC_DRAW);
  for (GLuint a = 0; a < kInstanceAttribute; ++a) glEnableVertexAttribArray(a);
  point_vertex_attributes(0, static_cast<GLsizei>(sizeof(MeshVertex)));
  glBindBuffer(GL_ARRAY_BUFFER, instance_vbo);
  for (GLuint a = kInstanceAttribute; a < kInstanceAttribute + kInstanceAttributes; ++a) {
    glEnableVertexAttribArray(a);
    glVertexAttribDivisor(a, 1);
  }
  point_instances(0);
  glBindVertexArray(0);
  for (std::size_t k = 0; k < data.batches.size(); ++k) {
    const MeshBatch& b = data.batches[k];
    m.batches.push_back(GpuBatch{b.first_index, b.index_count, sides[k][0], sides[k][1], sides[k][2], sides[k][3]});
  }
  if (data.vertices.size() <= kExpandedVertices) {
    m.small_vertices = data.vertices;
    m.small_indices = indices;
  }
  m.bytes = data.vertices.size() * sizeof(MeshVertex) + indices.size() * sizeof(std::uint32_t);
  m.bound_center = (data.bounds_min + data.bounds_max) * 0.5F;
  m.bound_radius = glm::length(data.bounds_max - data.bounds_min) * 0.5F;
  return m;
}

// A unit cube centred on the origin (the marker) and a two-sided unit
// square in the XZ plane facing -Y (texture billboards).
void GpuAssets::build_fixed_meshes() {
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

// A Surface drawn with another SurfaceTexture (an ObjDesc texture change),
// loaded once per (surface, texture).
std::shared_ptr<GpuMaterial> GpuAssets::material(dat::Did surface, dat::Did texture) {
  const std::uint64_t key = (std::uint64_t{surface} << 32U) | texture;
  if (auto it = changed_materials_.find(key); it != changed_materials_.end()) return it->second;
  std::optional<core::Result<Material>> decoded;
  if (!begin_load(
          on_workers(), texture_loads_, TextureKey{TextureKey::Kind::Changed, surface, texture, 0},
          [records = ctx_.records, surface, texture] { return load_material(*records, surface, texture); }, decoded)) {
    return nullptr;
  }
  const RenderContext::LoadScope scope(ctx_);
  std::shared_ptr<GpuMaterial> result;
  if (!ctx_.records) {
    ctx_.log_once(texture, "no portal DAT");
  } else {
    if (!decoded) decoded = load_material(*ctx_.records, surface, texture);
    result = adopt_material(texture, std::move(*decoded));
  }
  changed_materials_.emplace(key, result);
  return result;
}

// The key of an ObjDesc's composed palette (dat::make_modified_palette),
// composed once; kNoPalette when it makes none (logged once), so the parts
// keep their own palettes as retail's failed CPartArray::SetPalette does.
std::uint32_t GpuAssets::composed_palette(const sim::PaletteChange& change) {
  if (change.empty()) return kNoPalette;
  if (auto it = palette_keys_.find(change); it != palette_keys_.end()) {
    return composed_[it->second] ? it->second : kNoPalette;
  }
  std::optional<core::Result<dat::Palette>> composed;
  if (!begin_load(
          on_workers(), palette_loads_, change,
          [records = ctx_.records, change] { return compose_palette(records.get(), change); }, composed)) {
    return kNoPalette;
  }
  const RenderContext::LoadScope scope(ctx_);
  if (!composed) composed = compose_palette(ctx_.records.get(), change);
  std::shared_ptr<const dat::Palette> made;
  if (!*composed) {
    ctx_.log_once(change.base_palette, composed->error().message());
  } else {
    made = std::make_shared<const dat::Palette>(std::move(**composed));
  }
  const auto key = static_cast<std::uint32_t>(composed_.size());
  composed_.push_back(std::move(made));
  palette_keys_.emplace(change, key);
  return composed_[key] ? key : kNoPalette;
}

// A Surface (with its texture, changed or not) drawn through a composed
// palette, loaded once per (surface, texture, composition).
std::shared_ptr<GpuMaterial> GpuAssets::material(dat::Did surface, dat::Did texture, std::uint32_t palette_key) {
  const auto key = std::make_tuple(surface, texture, palette_key);
  if (auto it = palette_materials_.find(key); it != palette_materials_.end()) return it->second;
  const std::shared_ptr<const dat::Palette> p = palette_key < composed_.size() ? composed_[palette_key] : nullptr;
  std::optional<core::Result<Material>> decoded;
  if (!begin_load(
          on_workers() && p != nullptr, texture_loads_,
          TextureKey{TextureKey::Kind::Recoloured, surface, texture, palette_key},
          [records = ctx_.records, surface, texture, p] { return load_material(*records, surface, texture, p.get()); },
          decoded)) {
    return nullptr;
  }
  const RenderContext::LoadScope scope(ctx_);
  std::shared_ptr<GpuMaterial> result;
  if (!ctx_.records || p == nullptr) {
    ctx_.log_once(surface, "no portal DAT or composed palette");
  } else {
    if (!decoded) decoded = load_material(*ctx_.records, surface, texture, p.get());
    result = adopt_material(texture, std::move(*decoded));
  }
  palette_materials_.emplace(key, result);
  return result;
}

std::shared_ptr<GpuMaterial> GpuAssets::material(dat::Did surface) {
  if (auto it = materials_.find(surface); it != materials_.end()) {
    if (it->second) it->second->last_used = ctx_.frame_number;
    return it->second;
  }
  std::optional<core::Result<Material>> decoded;
  if (!begin_load(
          on_workers(), texture_loads_, TextureKey{TextureKey::Kind::Surface, surface, 0, 0},
          [records = ctx_.records, surface] { return load_material(*records, surface); }, decoded)) {
    return nullptr;
  }
  const RenderContext::LoadScope scope(ctx_);
  if (!ctx_.records) {
    ctx_.log_once(surface, "no portal DAT");
    materials_.emplace(surface, nullptr);
    return nullptr;
  }
  return material_from(surface, decoded);
}

std::shared_ptr<GpuMaterial> GpuAssets::material_from(dat::Did surface,
                                                      std::optional<core::Result<Material>>& decoded) {
  if (auto it = materials_.find(surface); it != materials_.end()) {
    if (it->second) it->second->last_used = ctx_.frame_number;
    return it->second;
  }
  if (!decoded) decoded = load_material(*ctx_.records, surface);
  std::shared_ptr<GpuMaterial> result;
  if (!*decoded) {
    ctx_.log_once(surface, decoded->error().message());
  } else {
    result = make_material(std::move(**decoded));
    result->last_used = ctx_.frame_number;
    texture_bytes_ += result->bytes;
  }
  materials_.emplace(surface, result);
  return result;
}

std::shared_ptr<GpuMaterial> GpuAssets::billboard_material(dat::Did texture) {
  if ((texture >> 24) == 0x08) return material(texture);
  if (auto it = billboards_.find(texture); it != billboards_.end()) return it->second;
  std::optional<core::Result<Material>> decoded;
  if (!begin_load(
          on_workers(), texture_loads_, TextureKey{TextureKey::Kind::Billboard, 0, texture, 0},
          [records = ctx_.records, texture] { return load_billboard(*records, texture); }, decoded)) {
    return nullptr;
  }
  const RenderContext::LoadScope scope(ctx_);
  std::shared_ptr<GpuMaterial> result;
  if (!ctx_.records) {
    ctx_.log_once(texture, "no portal DAT");
  } else {
    if (!decoded) decoded = load_billboard(*ctx_.records, texture);
    result = adopt_material(texture, std::move(*decoded));
  }
  billboards_.emplace(texture, result);
  return result;
}

const GpuMesh* GpuAssets::mesh(dat::Did gfx_obj) {
  if (auto it = meshes_.find(gfx_obj); it != meshes_.end()) {
    if (it->second) it->second->last_used = ctx_.frame_number;
    return it->second.get();
  }
  std::optional<PreparedMesh> prepared;
  if (!begin_load(
          on_workers() && (gfx_obj >> 24) == 0x01, mesh_loads_, gfx_obj,
          [records = ctx_.records, gfx_obj] { return prepare_mesh(records, gfx_obj, true); }, prepared)) {
    return nullptr;
  }
  const RenderContext::LoadScope scope(ctx_);
  if (prepared) return adopt_mesh(std::move(*prepared));
  if (!ctx_.records || (gfx_obj >> 24) != 0x01) {
    ctx_.log_once(gfx_obj, !ctx_.records ? "no portal DAT" : "not a GfxObj id");
    meshes_.emplace(gfx_obj, nullptr);
    return nullptr;
  }
  // Here and now; its surfaces are read as the upload uses them.
  return adopt_mesh(prepare_mesh(ctx_.records, gfx_obj, false));
}

void GpuAssets::collect() {
  // Loaded meanwhile without a budget (a screenshot): dropped.
  mesh_loads_.collect(ctx_.records, [&](dat::Did id) { return !meshes_.contains(id); });
  cell_loads_.collect(ctx_.records, [&](std::uint32_t id) { return !cell_meshes_.contains(id); });
  texture_loads_.collect(ctx_.records, [](const TextureKey&) { return true; });
  palette_loads_.collect(ctx_.records, [&](const sim::PaletteChange& c) { return !palette_keys_.contains(c); });
}

void GpuAssets::wait_for_workers() {
  if (ctx_.asset_pool) ctx_.asset_pool->wait_idle();
}

// Uploads a prepared GfxObj (inside a load under way), logging once what failed.
const GpuMesh* GpuAssets::adopt_mesh(PreparedMesh prepared) {
  const dat::Did gfx_obj = prepared.gfx_obj;
  std::shared_ptr<GpuMesh> result;
  const std::shared_ptr<const dat::GfxObj> obj = prepared.obj;
  if (!obj) {
    ctx_.log_once(gfx_obj, prepared.why);
  } else {
    const MeshData& data = prepared.data;
    if (data.skipped_polygons > 0) {
      core::logger(core::Module::Render)
          ->warn("{}: {} malformed polygons skipped", hex_id(gfx_obj), data.skipped_polygons);
    }
    if (data.indices.empty()) {
      ctx_.log_once(gfx_obj, "no drawable polygons");
    } else {
      result = std::make_shared<GpuMesh>(upload_mesh(data));
      result->last_used = ctx_.frame_number;
      mesh_bytes_ += result->bytes;
      for (std::size_t i = 0; i < data.batches.size(); ++i) {
        const std::size_t at = data.batches[i].surface_index;
        result->batches[i].material = material_from(obj->surfaces[at], prepared.materials[at]);
      }
      // CPhysicsPart::DetermineBasePal 0x0050DC80: the first Surface with a palette names the part's.
      for (std::size_t i = 0; i < obj->surfaces.size(); ++i) {
        const GpuMaterial* m = material_from(obj->surfaces[i], prepared.materials[i]).get();
        if (m != nullptr && m->info.original_palette != 0) {
          result->original_palette = m->info.original_palette;
          break;
        }
      }
      result->sort_center = finite(obj->sort_center) ? obj->sort_center : glm::vec3(0.0F);
      if ((obj->flags & dat::GfxObj::kHasDidDegrade) != 0 && obj->degrade_id != 0) {
        if (!prepared.degrades_read) {
          prepared.degrades = read_degrade_info(*ctx_.records, obj->degrade_id, prepared.degrade_why);
        }
        if (!prepared.degrade_why.empty()) ctx_.log_once(obj->degrade_id, prepared.degrade_why);
        result->degrades = std::move(prepared.degrades);
      }
    }
  }
  meshes_.emplace(gfx_obj, result);
  return result.get();
}

// ---- EnvCells ------------------------------------------------------------------------------------

const GpuMesh* GpuAssets::cell_mesh(const sim::CellSnapshot& c) {
  if (auto it = cell_meshes_.find(c.cell_id); it != cell_meshes_.end()) {
    if (it->second) it->second->last_used = ctx_.frame_number;
    return it->second.get();
  }
  // A worker builds from the snapshot's own Environment and surfaces.
  std::optional<PreparedCell> prepared;
  if (!begin_load(
          on_workers(), cell_loads_, c.cell_id,
          [records = ctx_.records, c] { return prepare_cell(records.get(), c, true); }, prepared)) {
    return nullptr;
  }
  const RenderContext::LoadScope scope(ctx_);
  return adopt_cell(c, prepared ? std::move(*prepared) : prepare_cell(ctx_.records.get(), c, false));
}

// Uploads a prepared EnvCell mesh (inside a load under way), logging once what failed.
const GpuMesh* GpuAssets::adopt_cell(const sim::CellSnapshot& c, PreparedCell prepared) {
  std::shared_ptr<GpuMesh> result;
  const MeshData& data = prepared.data;
  if (data.skipped_polygons > 0) {
    core::logger(core::Module::Render)
        ->warn("{}: {} malformed polygons skipped", hex_id(c.cell_id), data.skipped_polygons);
  }
  if (!prepared.why.empty()) {
    ctx_.log_once(c.cell_id, prepared.why);
  } else {
    result = std::make_shared<GpuMesh>(upload_mesh(data));
    result->last_used = ctx_.frame_number;
    mesh_bytes_ += result->bytes;
    for (std::size_t i = 0; i < data.batches.size(); ++i) {
      const std::size_t at = data.batches[i].surface_index;
      result->batches[i].material =
          ctx_.records ? material_from(c.surfaces[at], prepared.materials[at]) : material(c.surfaces[at]);
    }
    result->sort_center = (data.bounds_min + data.bounds_max) * 0.5F;
  }
  cell_meshes_.emplace(c.cell_id, result);
  return result.get();
}

}  // namespace dereth::render
