#pragma once
// What one frame is lit and seen by (private header): the view (everything
// relative to the camera's centre), the sun, ambient and fog of the frame,
// the frame's point lights in retail's eye-sorted lists with the sets of at
// most eight that each draw takes, and the lighting uniforms every lit
// program shares (the mesh, sky and terrain passes set them alike).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glad/gl.h>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "dereth/render/camera.hpp"
#include "dereth/render/world_lights.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

#include "gpu_assets.hpp"
#include "render_context.hpp"

namespace dereth::render {

constexpr int kMaxLights = 8;  // Render::minimize_object_lighting's hardware cap

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

  void locate(GLuint program);
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

// What one frame is drawn from: everything relative to the camera's
// centre, so positions far from the world origin keep their precision.
struct FrameView {
  glm::vec3 origin{0.0F};
  glm::mat4 view_projection{1.0F};
  glm::vec3 eye{0.0F};                  // world space
  glm::vec3 eye_rel{0.0F};              // relative to origin
  Frustum frustum;                      // of view_projection: relative to origin
  float far_plane = 1500.0F;            // the camera's (Camera::far_plane)
  glm::vec3 forward{0.0F, 1.0F, 0.0F};  // the camera's view direction (Camera::forward)
};

// The lights one draw is lit by (Render::minimize_object_lighting's pick).
using LightSet = std::vector<const RenderLight*>;

// The frame's lights (Render::world_lights) and the sets its draws take.
class FrameLights {
 public:
  explicit FrameLights(RenderContext& context) : ctx_(context) {}

  void gather_lights(const sim::RenderSnapshot& snapshot, const FrameView& view);
  // The frame's id of a set of lights (0: none), so draws lit alike batch.
  std::uint16_t intern_light_set(LightSet set);
  std::uint16_t object_lights(const GpuMesh& m, const glm::mat4& model, float scale);

  std::optional<WorldLights> world_lights;       // this frame's (gather_lights)
  std::vector<LightSet> light_sets{LightSet{}};  // this frame's sets; [0] lights nothing

 private:
  RenderContext& ctx_;
};

// The lighting uniforms every lit program shares: sun, ambient, fog and the frame's point lights.
void set_lighting(const LightingUniforms& u, const FrameView& view, const LightSet& lights, const FrameSky& sky,
                  const glm::vec3& ambient);
// The point lights of one draw (at most kMaxLights = 8 slots).
void set_point_lights(const LightingUniforms& u, const LightSet& lights);

}  // namespace dereth::render
