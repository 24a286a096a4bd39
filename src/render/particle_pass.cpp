// The particles' part of the mesh pass: each emitter's particles as parts of
// its GfxObj, or as texture billboards, into the frame's draw lists.
#include <cmath>
#include <cstdint>

#include <glm/geometric.hpp>

#include "dereth/render/draw_order.hpp"
#include "dereth/render/material.hpp"

#include "mesh_pass.hpp"

namespace dereth::render {

// The particles: each a part of its emitter's GfxObj at the particle's
// position, orientation and uniform scale, turned by the GfxObj's degrade
// mode (2: facing the eye) as retail draws parts; texture billboards always
// face the eye.
void MeshPass::gather_particles(const sim::RenderSnapshot& snapshot, const FrameView& view, DrawLists& lists) {
  const glm::vec3& origin = view.origin;
  for (const auto& emitter : snapshot.emitters) {
    const GpuMesh* m = nullptr;
    const GpuMaterial* override_material = nullptr;
    const std::size_t deferred_before = ctx_.stats.loads_deferred;
    if (emitter.gfx_obj != 0) {
      m = assets_.mesh(emitter.gfx_obj);
    } else if (emitter.texture != 0) {
      override_material = assets_.billboard_material(emitter.texture).get();
      if (override_material != nullptr) m = &assets_.quad;
    }
    if (m == nullptr) {
      if (ctx_.stats.loads_deferred != deferred_before) ctx_.waiting_objects.push_back(emitter.owner);
      continue;
    }
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
      // translate(pos) * rotation * scale(p.scale), written out: the
      // products of those two matrix multiplications by their ones and
      // zeros are these entries exactly.
      const glm::mat3& r = draw_frame.matrix();
      const glm::mat4 model(glm::vec4(r[0] * p.scale, 0.0F), glm::vec4(r[1] * p.scale, 0.0F),
                            glm::vec4(r[2] * p.scale, 0.0F), glm::vec4(pos, 1.0F));
      if (outside_view(view, *m, model, p.scale)) {
        ++ctx_.stats.particles_culled;
        continue;
      }
      PartTag tag{DrawKind::Particle, emitter.owner, emitter.gfx_obj != 0 ? emitter.gfx_obj : emitter.texture,
                  vd.distance, mode};
      tag.light_set = lights_.object_lights(*m, model, p.scale);
      // A flat particle (all its vertices at local y = 0: the spark quad,
      // the billboard square) seen clearly from one side of its plane, as
      // a billboard always is: the triangles facing away, GL's back faces,
      // are left out (RendererOptions::skip_flat_back_faces). "Clearly":
      // the eye within 60 degrees of the plane's normal, far from the edge
      // on where rounding could turn a triangle.
      if (m->flat && ctx_.options.skip_flat_back_faces) {
        const glm::vec3 normal(model[1]);  // local +y in the world, times the scale
        const glm::vec3 to_eye = view.eye_rel - glm::vec3(model[3]);
        const float side = glm::dot(to_eye, normal);
        const float bound = 0.5F * glm::length(to_eye) * glm::length(normal);
        if (std::isfinite(side) && std::isfinite(bound) && bound > 0.0F) {
          if (side < -bound) tag.seen_from = -1;
          if (side > bound) tag.seen_from = 1;
        }
      }
      add_batches(*m, model, glm::mat3(draw_frame.matrix()), draw_state.translucency(), 0.0F, 1.0F, tag, lists,
                  override_material);
      ++ctx_.stats.particles_drawn;
    }
  }
}

}  // namespace dereth::render
