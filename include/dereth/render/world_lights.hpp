#pragma once
// Retail's light selection (docs/render.md "Which lights light an object"):
// each frame the lights of the drawn objects go into two lists sorted by
// their distance from the viewer, static lights (their owner's PhysicsState
// Static bit, CPartArray::InitLights) and dynamic ones, each capped by the
// degrade level; each object is then lit by at most eight of them, the
// dynamic ones first, only those whose falloff reaches the object's sphere.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

namespace dereth::render {

// The limits Render::SetDegradeLevelInternal 0x0054C3C0 derives from deg_mul.
struct DegradeLimits {
  std::uint32_t max_static_lights = 40;
  std::uint32_t max_dynamic_lights = 7;
  float object_distance_2dsq = 625.0F;    // 25 m at deg_mul 0
  float particle_distance_2dsq = 256.0F;  // 16 m at deg_mul 0
};

// Render::SetDegradeLevelInternal 0x0054C3C0. deg_mul below 0 (or NaN) scales
// down towards -1 (8 m objects, 8 m particles, 20 static and 5 dynamic
// lights), from 0 up towards 1 (50 m, 25 m, 60 and 10). Counts are truncated
// as retail's 64-bit conversion does (NaN gives 0).
[[nodiscard]] DegradeLimits set_degrade_level_internal(float deg_mul) noexcept;

// One light of the frame's lists (retail's RenderLight).
struct RenderLight {
  std::size_t source = 0;    // index of the light in the caller's input (the snapshot)
  glm::vec3 position{0.0F};  // world position
  glm::vec3 color{1.0F};     // 0..1, quantised to 8 bits a channel as retail does
  float intensity = 0.0F;
  float falloff = 0.0F;
  float distancesq = 0.0F;  // from the viewer
};

// A light as the cells hand it over (LIGHTOBJ + LIGHTINFO). Setup lights are
// all point lights: the DAT's LightInfo carries no type (LIGHTINFO::type 0).
struct LightSource {
  glm::vec3 position{0.0F};
  glm::vec3 color{1.0F};
  float intensity = 0.0F;
  float falloff = 0.0F;
  bool is_static = false;  // the owner's PhysicsState Static bit
};

// Render::world_lights: the frame's sorted static and dynamic lights.
class WorldLights {
 public:
  explicit WorldLights(const DegradeLimits& limits, const glm::vec3& viewer) noexcept
      : limits_(limits), viewer_(viewer) {}

  // CObjCell::add_static_to_global_lights 0x0052B350 /
  // add_dynamic_to_global_lights 0x0052B390: a light goes to the list of its
  // kind. source is returned in RenderLight::source.
  void add(const LightSource& light, std::size_t source);
  // Render::add_static_light 0x0054D3E0
  void add_static_light(const LightSource& light, std::size_t source);
  // Render::add_dynamic_light 0x0054D420
  void add_dynamic_light(const LightSource& light, std::size_t source);

  [[nodiscard]] const std::vector<RenderLight>& static_lights() const noexcept { return static_; }
  [[nodiscard]] const std::vector<RenderLight>& dynamic_lights() const noexcept { return dynamic_; }

  // Render::minimize_object_lighting 0x0054D480: the lights (at most 8) that
  // light an object whose bounding sphere is (centre, radius): the dynamic
  // lights in viewer order that reach it, then the static ones.
  [[nodiscard]] std::vector<const RenderLight*> minimize_object_lighting(const glm::vec3& centre, float radius) const;
  // Render::minimize_envcell_lighting 0x0054C170: an EnvCell is lit by the
  // dynamic lights, in viewer order, as many as the eight slots hold.
  [[nodiscard]] std::vector<const RenderLight*> minimize_envcell_lighting() const;

 private:
  DegradeLimits limits_;
  glm::vec3 viewer_;
  std::vector<RenderLight> static_;
  std::vector<RenderLight> dynamic_;
};

// Render::insert_light 0x0054D1B0: insert by distance from the viewer into a
// list kept sorted nearest first; a light no nearer than every one of a full
// list is dropped, otherwise the farthest falls off the end. Equal distances
// keep their arrival order.
void insert_light(std::uint32_t max_lights, std::vector<RenderLight>& sorted, const LightSource& light,
                  std::size_t source, const glm::vec3& viewer);

// Render::remove_object_light 0x0054C1B0: a point light is left out for an
// object when its squared distance to the object's centre is at least
// (falloff + radius)^2 (NaN distances keep it).
[[nodiscard]] bool remove_object_light(const RenderLight& light, const glm::vec3& centre, float radius) noexcept;

// The hardware light slots minimize_object_lighting fills.
inline constexpr std::size_t kMaxObjectLights = 8;

}  // namespace dereth::render
