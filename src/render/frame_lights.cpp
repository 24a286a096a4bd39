#include "frame_lights.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <glm/gtc/type_ptr.hpp>

namespace dereth::render {

void LightingUniforms::locate(GLuint program) {
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

// The frame's lights (Render::world_lights): the snapshot's lights, relative
// to the frame's origin, in the static and dynamic lists sorted from the
// eye and capped by the degrade level (Render::SetDegradeLevelInternal).
// Retail hands over the lights of the cells it draws; every published
// light is offered here (docs/render.md, "Which lights light an object").
void FrameLights::gather_lights(const sim::RenderSnapshot& snapshot, const FrameView& view) {
  light_sets.assign(1, LightSet{});
  world_lights.emplace(set_degrade_level_internal(ctx_.options.degrade.deg_mul), view.eye_rel);
  for (std::size_t i = 0; i < snapshot.lights.size(); ++i) {
    const sim::LightSnapshot& l = snapshot.lights[i];
    if (!finite(l.position) || !(l.falloff > 0.0F) || !std::isfinite(l.intensity)) continue;
    world_lights->add(LightSource{l.position - view.origin, glm::vec3(l.color), l.intensity, l.falloff, l.is_static},
                      i);
  }
  ctx_.stats.lights = world_lights->static_lights().size() + world_lights->dynamic_lights().size();
}

// The frame's id of a set of lights (0: none), so draws lit alike batch.
std::uint16_t FrameLights::intern_light_set(LightSet set) {
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
std::uint16_t FrameLights::object_lights(const GpuMesh& m, const glm::mat4& model, float scale) {
  // No light in the world: the empty set, without placing the sphere.
  if (!world_lights || (world_lights->static_lights().empty() && world_lights->dynamic_lights().empty())) return 0;
  const glm::vec3 centre(model * glm::vec4(m.bound_center, 1.0F));
  return intern_light_set(world_lights->minimize_object_lighting(centre, m.bound_radius * scale));
}

// The lighting uniforms every lit program shares: sun, ambient, fog and the frame's point lights.
void set_lighting(const LightingUniforms& u, const FrameView& view, const LightSet& lights, const FrameSky& sky,
                  const glm::vec3& ambient) {
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
void set_point_lights(const LightingUniforms& u, const LightSet& lights) {
  const std::size_t n = std::min(lights.size(), static_cast<std::size_t>(kMaxLights));
  glUniform1i(u.light_count, static_cast<GLint>(n));
  for (std::size_t i = 0; i < n; ++i) {
    glUniform3fv(u.light_position[i], 1, glm::value_ptr(lights[i]->position));
    glUniform3fv(u.light_color[i], 1, glm::value_ptr(lights[i]->color));
    glUniform1f(u.light_intensity[i], lights[i]->intensity);
    glUniform1f(u.light_falloff[i], lights[i]->falloff);
  }
}

}  // namespace dereth::render
