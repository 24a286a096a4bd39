#include "mesh_pass.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

#include <glm/gtc/matrix_inverse.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "dereth/dat/surface.hpp"

#include "gl_program.hpp"
#include "shaders.hpp"

namespace dereth::render {

namespace {

GLenum gl_blend(BlendFactor f) noexcept {
  switch (f) {
    case BlendFactor::Zero: return GL_ZERO;
    case BlendFactor::One: return GL_ONE;
    case BlendFactor::SrcAlpha: return GL_SRC_ALPHA;
    case BlendFactor::InvSrcAlpha: return GL_ONE_MINUS_SRC_ALPHA;
  }
  return GL_ONE;
}

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

core::Result<void> MeshPass::build_programs() {
  using namespace shaders;
  DERETH_TRY(programs_[0][0].id, gl::build_program("OpenGL", "mesh", {kVersion, kMeshVertex},
                                                   {kVersion, kMeshFragmentHead, kLighting, kMeshFragmentMain}));
  DERETH_TRY(programs_[0][1].id,
             gl::build_program("OpenGL", "mesh (alpha test)", {kVersion, kMeshVertex},
                               {kVersion, kAlphaTest, kMeshFragmentHead, kLighting, kMeshFragmentMain}));
  DERETH_TRY(programs_[1][0].id, gl::build_program("OpenGL", "sky mesh", {kVersion, kVertexLit, kLighting, kMeshVertex},
                                                   {kVersion, kVertexLit, kMeshFragmentHead, kMeshFragmentMain}));
  DERETH_TRY(programs_[1][1].id,
             gl::build_program("OpenGL", "sky mesh (alpha test)", {kVersion, kVertexLit, kLighting, kMeshVertex},
                               {kVersion, kAlphaTest, kVertexLit, kMeshFragmentHead, kMeshFragmentMain}));
  for (auto& pair : programs_) {
    for (MeshProgram& p : pair) {
      p.lighting.locate(p.id);
      p.texture = glGetUniformLocation(p.id, "u_texture");
      p.alpha_ref = glGetUniformLocation(p.id, "u_alpha_ref");
      p.uv_offset = glGetUniformLocation(p.id, "u_uv_offset");
    }
  }
  return {};
}

void MeshPass::release() {
  for (auto& pair : programs_) {
    for (MeshProgram& p : pair) {
      if (p.id != 0) glDeleteProgram(p.id);
      p.id = 0;
    }
  }
}

// A part's batches into the opaque, clip or alpha list (D3DPolyRender::DrawMesh's delay test).
void MeshPass::add_batches(const GpuMesh& m, const glm::mat4& model, const glm::mat3& normal_matrix,
                           float part_translucency, float luminosity, float diffuse, const PartTag& tag,
                           DrawLists& lists, const GpuMaterial* override_material, const glm::vec4& tint,
                           std::span<const sim::TextureChange> texture_changes, std::uint32_t palette_key) {
  for (const auto& b : m.batches) {
    const GpuMaterial* mat = override_material != nullptr ? override_material : b.material.get();
    if (mat == nullptr) continue;
    if (!texture_changes.empty() && mat->info.has_texture) {
      // The ObjDesc's texture changes: the last one naming this texture wins.
      for (auto c = texture_changes.rbegin(); c != texture_changes.rend(); ++c) {
        if (c->old_texture == mat->info.texture && c->new_texture != mat->info.texture) {
          if (const GpuMaterial* swapped = assets_.material(mat->info.surface, c->new_texture).get()) mat = swapped;
          break;
        }
      }
    }
    // The ObjDesc's composed palette on a palettized texture (CPhysicsPart::UsePalette 0x0050DED0).
    if (palette_key != kNoPalette && override_material == nullptr && mat->info.has_texture && mat->info.palettized) {
      if (const GpuMaterial* recoloured = assets_.material(mat->info.surface, mat->info.texture, palette_key).get()) {
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
    item.seen_from = tag.seen_from;
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
std::uint32_t MeshPass::degrade_mode(const GpuMesh& m, const ViewerDistance& vd, float scale_z,
                                     bool player) const noexcept {
  if (!m.degrades || player) return 1;
  return get_degrade(*m.degrades, vd.distance / scale_z, ctx_.options.degrade).mode;
}

// Whether a mesh drawn with `model` (relative to the view's origin; its
// largest axis scale `scale`) lies wholly outside the view (frustum
// culling by its bounding sphere).
bool MeshPass::outside_view(const FrameView& view, const GpuMesh& m, const glm::mat4& model,
                            float scale) const noexcept {
  if (!ctx_.options.frustum_cull) return false;
  const glm::vec3 centre(model * glm::vec4(m.bound_center, 1.0F));
  return view.frustum.sphere_outside(centre, m.bound_radius * scale);
}

// The objects' parts (or a marker for an object with none loaded) into the
// opaque and blended lists, then the landscape's buildings and EnvCells.
void MeshPass::gather_objects(const sim::RenderSnapshot& snapshot, const FrameView& view, DrawLists& lists) {
  ctx_.stats.objects = snapshot.objects.size();
  gather_object_list(snapshot.objects, view, lists);
  if (snapshot.landscape) {
    gather_object_list(snapshot.landscape->buildings, view, lists);
    gather_cells(snapshot.landscape->cells, view, lists);
  }
}

void MeshPass::prepare_objects(const sim::RenderSnapshot& snapshot, std::span<const std::uint32_t> keys,
                               std::vector<std::uint32_t>& waiting) {
  const auto wanted = [&](std::uint32_t cell_id) { return std::ranges::binary_search(keys, cell_id & 0xFFFF0000U); };
  // A load refused by the budget leaves its key waiting; a failed one (logged) does not.
  const auto load = [&](std::uint32_t cell_id, auto&& loader) {
    const std::size_t deferred_before = ctx_.stats.loads_deferred;
    loader();
    if (ctx_.stats.loads_deferred != deferred_before) waiting.push_back(cell_id & 0xFFFF0000U);
  };
  const auto prepare_list = [&](const std::vector<sim::ObjectSnapshot>& objects) {
    for (const auto& obj : objects) {
      if (obj.hidden || obj.no_draw || !wanted(obj.cell_id)) continue;
      for (const auto& part : obj.parts) {
        if (part.no_draw || part.gfx_obj == 0) continue;
        load(obj.cell_id, [&] { (void)assets_.mesh(part.gfx_obj); });
      }
    }
  };
  prepare_list(snapshot.objects);
  if (!snapshot.landscape) return;
  prepare_list(snapshot.landscape->buildings);
  for (const auto& c : snapshot.landscape->cells) {
    if (wanted(c.cell_id)) load(c.cell_id, [&] { (void)assets_.cell_mesh(c); });
  }
}

void MeshPass::gather_object_list(const std::vector<sim::ObjectSnapshot>& objects, const FrameView& view,
                                  DrawLists& lists) {
  const glm::vec3& origin = view.origin;
  for (const auto& obj : objects) {
    if (obj.hidden || obj.no_draw) {
      ++ctx_.stats.objects_skipped;
      ctx_.ready_objects.push_back(obj.id);
      continue;
    }
    // An object that waits on the load budget is drawn whole or not at all:
    // what it added to the lists goes again if any of its loads waited.
    const std::size_t deferred_before = ctx_.stats.loads_deferred;
    const std::array<std::size_t, 3> listed{lists.opaque.size(), lists.clip.size(), lists.alpha.size()};
    const std::size_t drawn_before = ctx_.stats.parts_drawn;
    bool any_drawable = false;
    bool any_loaded = false;
    const std::uint32_t object_palette = assets_.composed_palette(obj.palette);
    for (const auto& part : obj.parts) {
      if (part.no_draw) continue;
      any_drawable = true;
      PhysicsPart draw_state;
      draw_state.set_translucency(part.translucency);
      if (!draw_state.drawn()) {
        any_loaded = true;  // invisible on purpose
        continue;
      }
      const GpuMesh* m = part.gfx_obj != 0 ? assets_.mesh(part.gfx_obj) : nullptr;
      if (m == nullptr) {
        if (ctx_.stats.loads_deferred == deferred_before) ++ctx_.stats.parts_missing;
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
        ++ctx_.stats.parts_culled;
        continue;
      }
      PartTag tag{DrawKind::Part, obj.id, part.gfx_obj, vd.distance, mode};
      tag.light_set = lights_.object_lights(*m, model, std::max({abs_scale.x, abs_scale.y, abs_scale.z}));
      // CPartArray::SetPalette 0x00518E10: the composition reaches the parts whose own palette is its base.
      const std::uint32_t part_palette =
          object_palette != kNoPalette && m->original_palette == obj.palette.base_palette ? object_palette : kNoPalette;
      add_batches(*m, model, glm::inverseTranspose(glm::mat3(model)), draw_state.translucency(), part.luminosity,
                  part.diffuse, tag, lists, nullptr, glm::vec4(1.0F), part.texture_changes, part_palette);
      ++ctx_.stats.parts_drawn;
    }
    if (ctx_.stats.loads_deferred != deferred_before) {
      lists.opaque.resize(listed[0]);
      lists.clip.resize(listed[1]);
      lists.alpha.resize(listed[2]);
      ctx_.stats.parts_drawn = drawn_before;
      ++ctx_.stats.objects_deferred;
      ctx_.waiting_landblocks.push_back(obj.cell_id & 0xFFFF0000U);
      continue;
    }
    ctx_.ready_objects.push_back(obj.id);
    if (obj.parts.empty() || (any_drawable && !any_loaded)) {
      const float s = ctx_.options.marker_size * (obj.scale > 0.0F && std::isfinite(obj.scale) ? obj.scale : 1.0F);
      const glm::vec3 pos = obj.root.origin - origin + glm::vec3(0.0F, 0.0F, s * 0.5F);
      if (!finite(pos)) continue;
      PhysicsPart draw_state;
      draw_state.set_translucency(obj.translucency);
      if (!draw_state.drawn()) continue;
      const glm::mat4 model = glm::translate(glm::mat4(1.0F), pos) * glm::mat4(obj.root.matrix()) *
                              glm::scale(glm::mat4(1.0F), glm::vec3(s));
      if (outside_view(view, assets_.cube, model, s)) {
        ++ctx_.stats.parts_culled;
        continue;
      }
      const float distance = glm::length(pos - view.eye_rel);
      PartTag tag{DrawKind::Marker, obj.id, 0, distance, 1};
      tag.light_set = lights_.object_lights(assets_.cube, model, s);
      add_batches(assets_.cube, model, glm::mat3(obj.root.matrix()), draw_state.translucency(), 0.35F, 1.0F, tag, lists,
                  nullptr, glm::vec4(marker_color(obj), 1.0F));
      ++ctx_.stats.markers;
    }
  }
}

// Two draws that one instanced call can make: the same batch of the same
// mesh with the same surface, state and texture scroll.
bool MeshPass::same_call(const DrawItem& a, const DrawItem& b) noexcept {
  return a.mesh == b.mesh && a.batch == b.batch && a.material == b.material && a.state == b.state &&
         a.uv_offset == b.uv_offset && a.light_set == b.light_set && a.seen_from == b.seen_from;
}

// The opaque list in state order (texture, then mesh and batch), so equal
// draws sit together for batching; opaque draws need no order of their own.
void MeshPass::order_by_state(std::vector<DrawItem>& items) {
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
// program, blend, depth writes and texture. A run of a small mesh
// (kExpandedVertices or fewer vertices: a particle's quad, the billboard
// square) goes out expanded (options.expand_small_runs): its vertices
// copied once per item beside the item's attributes and drawn by one
// non-instanced call, in the same order with the same attribute values, so
// the same pixels; a software rasteriser shades and sets up an instance at
// a time, a few vertices each, and the copies cost less than that. `depth`
// is what the draw list records.
void MeshPass::submit(const std::vector<DrawItem>& items, const FrameView& view, const FrameSky& sky, DepthMode depth,
                      bool vertex_lit) {
  if (items.empty()) return;
  instances_.resize(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const DrawItem& item = items[i];
    Instance& in = instances_[i];
    std::copy_n(glm::value_ptr(item.model), 16, in.model.begin());
    std::copy_n(glm::value_ptr(item.normal_matrix), 9, in.normal.begin());
    std::copy_n(glm::value_ptr(item.tint), 4, in.tint.begin());
    in.params = {item.alpha, item.luminosity, item.diffuse};
  }
  // The calls, and the expanded runs' vertices and indices.
  runs_.clear();
  expanded_vertices_.clear();
  expanded_indices_.clear();
  for (std::size_t i = 0; i < items.size();) {
    const DrawItem& item = items[i];
    Run run;
    run.first_item = i;
    if (ctx_.options.batch_draws) {
      while (i + run.n < items.size() && same_call(item, items[i + run.n])) ++run.n;
    }
    // A flat mesh seen from one side: its back faces from there, which GL
    // would cull, are not sent (the same fragments, fewer triangles set up).
    run.first_index = item.batch->first_index;
    run.index_count = item.batch->index_count;
    if (item.seen_from < 0) {
      run.first_index = item.batch->seen_from_below_first;
      run.index_count = item.batch->seen_from_below_count;
    } else if (item.seen_from > 0) {
      run.first_index = item.batch->seen_from_above_first;
      run.index_count = item.batch->seen_from_above_count;
    }
    const std::vector<MeshVertex>& vertices = item.mesh->small_vertices;
    const std::vector<std::uint32_t>& indices = item.mesh->small_indices;
    if (ctx_.options.expand_small_runs && run.n > 1 && !vertices.empty() &&
        std::size_t{run.first_index} + run.index_count <= indices.size()) {
      run.expanded = true;
      run.expanded_first = expanded_indices_.size();
      for (std::size_t k = 0; k < run.n; ++k) {
        const auto base = static_cast<std::uint32_t>(expanded_vertices_.size());
        for (const MeshVertex& v : vertices) expanded_vertices_.push_back(ExpandedVertex{v, instances_[i + k]});
        for (std::uint32_t t = run.first_index; t < run.first_index + run.index_count; ++t) {
          expanded_indices_.push_back(base + indices[t]);
        }
      }
    }
    runs_.push_back(run);
    i += run.n;
  }
  if (!expanded_vertices_.empty()) {
    // The element buffer binds to the vertex array bound: the expanded one.
    glBindVertexArray(assets_.expanded_vao);
    glBindBuffer(GL_ARRAY_BUFFER, assets_.expanded_vbo);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(expanded_vertices_.size() * sizeof(ExpandedVertex)),
                 expanded_vertices_.data(), GL_STREAM_DRAW);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, assets_.expanded_ebo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(expanded_indices_.size() * sizeof(std::uint32_t)),
                 expanded_indices_.data(), GL_STREAM_DRAW);
  }
  // point_instances reads the instance buffer bound as GL_ARRAY_BUFFER.
  glBindBuffer(GL_ARRAY_BUFFER, assets_.instance_vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(instances_.size() * sizeof(Instance)), instances_.data(),
               GL_STREAM_DRAW);
  auto& programs = programs_[vertex_lit ? 1 : 0];
  for (MeshProgram& p : programs) {
    glUseProgram(p.id);
    set_lighting(p.lighting, view, lights_.light_sets.front(), sky, sky.mesh_ambient);
    glUniform1i(p.texture, 0);
  }
  std::array<std::uint16_t, 2> program_lights{0, 0};  // the light set each program holds
  glActiveTexture(GL_TEXTURE0);
  const MeshProgram* current = nullptr;
  for (const Run& run : runs_) {
    const std::size_t i = run.first_item;
    const std::size_t n = run.n;
    const DrawItem& item = items[i];
    const std::size_t which = item.state.alpha_test ? 1 : 0;
    const MeshProgram& program = programs[which];
    if (&program != current) {
      glUseProgram(program.id);
      current = &program;
    }
    if (item.light_set != program_lights[which] && item.light_set < lights_.light_sets.size()) {
      set_point_lights(program.lighting, lights_.light_sets[item.light_set]);
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
    const std::uint32_t count = run.index_count;
    if (run.expanded) {
      glBindVertexArray(assets_.expanded_vao);
      glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(std::size_t{count} * n), GL_UNSIGNED_INT,
                     reinterpret_cast<const void*>(run.expanded_first * sizeof(std::uint32_t)));
      ++ctx_.stats.expanded_draws;
    } else {
      glBindVertexArray(item.mesh->vao);
      GpuAssets::point_instances(i);
      glDrawElementsInstanced(
          GL_TRIANGLES, static_cast<GLsizei>(count), GL_UNSIGNED_INT,
          reinterpret_cast<const void*>(static_cast<std::size_t>(run.first_index) * sizeof(std::uint32_t)),
          static_cast<GLsizei>(n));
    }
    ctx_.stats.back_faces_left_out += static_cast<std::size_t>((item.batch->index_count - count) / 3) * n;
    for (std::size_t k = i; k < i + n; ++k) {
      const DrawItem& d = items[k];
      if (ctx_.options.record_draw_list) {
        DrawRecord r{d.kind,  d.alpha_class, d.owner,        d.gfx_obj, d.material->info.surface,
                     d.block, d.distance,    d.degrade_mode, d.state,   depth};
        r.lights = d.light_set < lights_.light_sets.size() ? lights_.light_sets[d.light_set].size() : 0;
        ctx_.draw_list.push_back(r);
      }
    }
    ++ctx_.stats.draw_calls;
    ctx_.stats.batches += n;
    ctx_.stats.triangles += static_cast<std::size_t>(count / 3) * n;
  }
}

// The mesh passes: the opaque draws, then the clip list (solid), or the
// alpha list (D3DPolyRender::FlushAlphaList 0x0059D2E0); the delayed lists
// back to front.
void MeshPass::draw_meshes(const DrawLists& lists, const FrameView& view, const FrameSky& sky, bool alpha_list) {
  // Lit per vertex, as retail's fixed-function D3D lights every mesh.
  const bool vertex_lit = ctx_.options.vertex_lighting;
  if (alpha_list) {
    submit(lists.alpha, view, sky, DepthMode::Test, vertex_lit);
    return;
  }
  submit(lists.opaque, view, sky, DepthMode::Test, vertex_lit);
  submit(lists.clip, view, sky, DepthMode::Test, vertex_lit);
}

// A delayed list in retail's visiting order: farthest part first
// (CShadowPart::insertion_sort 0x006B5130), a part's batches together.
void MeshPass::order_back_to_front(std::vector<DrawItem>& items) {
  if (items.size() < 2) return;
  std::vector<float> distances(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) distances[i] = items[i].distance;
  const std::vector<std::size_t> order = back_to_front(distances);
  std::vector<DrawItem> sorted;
  sorted.reserve(items.size());
  for (const std::size_t i : order) sorted.push_back(items[i]);
  items = std::move(sorted);
}

// Each EnvCell's structure at its frame, lit and sorted as a part.
void MeshPass::gather_cells(const std::vector<sim::CellSnapshot>& cells, const FrameView& view, DrawLists& lists) {
  for (const sim::CellSnapshot& c : cells) {
    const glm::vec3 pos = c.frame.origin - view.origin;
    if (!finite(pos)) continue;
    const std::size_t deferred_before = ctx_.stats.loads_deferred;
    const GpuMesh* m = assets_.cell_mesh(c);
    if (m == nullptr) {
      if (ctx_.stats.loads_deferred != deferred_before) ctx_.waiting_landblocks.push_back(c.cell_id & 0xFFFF0000U);
      continue;
    }
    const glm::mat4 model = glm::translate(glm::mat4(1.0F), pos) * glm::mat4(c.frame.matrix());
    if (outside_view(view, *m, model, 1.0F)) {
      ++ctx_.stats.cells_culled;
      continue;
    }
    const float distance = glm::length(view.eye - c.frame.localtoglobal(m->sort_center));
    const std::array<std::size_t, 3> before{lists.opaque.size(), lists.clip.size(), lists.alpha.size()};
    PartTag tag{DrawKind::Cell, sim::LocalId::None, c.environment_id, distance, 1};
    // Render::minimize_envcell_lighting 0x0054C170: a cell takes the dynamic lights.
    if (lights_.world_lights) {
      tag.light_set = lights_.intern_light_set(lights_.world_lights->minimize_envcell_lighting());
    }
    add_batches(*m, model, glm::mat3(c.frame.matrix()), 0.0F, 0.0F, 1.0F, tag, lists);
    // The draw list names the cell as terrain names its landblock.
    bool drawn = false;
    const std::array<std::vector<DrawItem>*, 3> added{&lists.opaque, &lists.clip, &lists.alpha};
    for (std::size_t l = 0; l < added.size(); ++l) {
      for (std::size_t i = before[l]; i < added[l]->size(); ++i) (*added[l])[i].block = c.cell_id;
      drawn = drawn || added[l]->size() > before[l];
    }
    if (drawn) ++ctx_.stats.cells_drawn;
  }
}

}  // namespace dereth::render
