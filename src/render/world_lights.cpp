#include "dereth/render/world_lights.hpp"

#include <cmath>
#include <cstdint>

#include <glm/geometric.hpp>

namespace dereth::render {

namespace {

// Retail converts with a 64-bit x87 store: NaN and out-of-range values give
// 0x8000000000000000, whose low 32 bits are 0.
std::uint32_t to_count(double v) noexcept {
  if (!(v >= -9.2e18 && v <= 9.2e18)) return 0;
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(static_cast<std::int64_t>(v)));
}

// (unsigned __int64)(c * 255.0), one byte of the packed colour.
float quantise(float c) noexcept {
  const double v = static_cast<double>(c) * 255.0;
  std::uint64_t bits = 0x8000000000000000ULL;
  if (v >= -9.2e18 && v <= 9.2e18) bits = static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
  return static_cast<float>(static_cast<double>(bits & 0xFFU) * 0.0039215689);
}

}  // namespace

// Render::SetDegradeLevelInternal 0x0054C3C0
DegradeLimits set_degrade_level_internal(float deg_mul) noexcept {
  const double m = deg_mul;
  double object = 0;
  double particle = 0;
  double statics = 0;
  double dynamic = 0;
  if (!(m >= 0.0)) {  // below 0, or unordered (NaN)
    object = (25.0 - 8.0) * m + 25.0;
    particle = (16.0 - 8.0) * m + 16.0;
    statics = m * 20.0 + 40.0;
    dynamic = m + m + 7.0;
  } else {
    object = 25.0 - (25.0 - 50.0) * m;
    particle = 16.0 - (16.0 - 25.0) * m;
    statics = 40.0 - m * -20.0;
    dynamic = 7.0 - m * -3.0;
  }
  DegradeLimits out;
  out.max_static_lights = to_count(statics);
  out.max_dynamic_lights = to_count(dynamic);
  out.object_distance_2dsq = static_cast<float>(object * object);
  out.particle_distance_2dsq = static_cast<float>(particle * particle);
  return out;
}

// Render::insert_light 0x0054D1B0
void insert_light(std::uint32_t max_lights, std::vector<RenderLight>& sorted, const LightSource& light,
                  std::size_t source, const glm::vec3& viewer) {
  // Retail places a first light even with a zero maximum and then writes past
  // its array; a zero maximum keeps nothing here (docs/deviations.md).
  if (max_lights == 0) return;
  const glm::vec3 d = light.position - viewer;
  const float distancesq = d.z * d.z + d.y * d.y + d.x * d.x;
  std::size_t at = 0;
  while (at < sorted.size() && !(distancesq < sorted[at].distancesq)) ++at;
  if (sorted.size() >= max_lights) {
    if (at >= sorted.size()) return;
    sorted.pop_back();  // the farthest gives up its slot
  }
  RenderLight r;
  r.source = source;
  r.position = light.position;
  r.color = {quantise(light.color.r), quantise(light.color.g), quantise(light.color.b)};
  r.intensity = light.intensity;
  r.falloff = light.falloff;
  r.distancesq = distancesq;
  sorted.insert(sorted.begin() + static_cast<std::ptrdiff_t>(at), r);
}

// CObjCell::add_static_to_global_lights 0x0052B350 / add_dynamic_to_global_lights 0x0052B390
void WorldLights::add(const LightSource& light, std::size_t source) {
  if (light.is_static) {
    add_static_light(light, source);
  } else {
    add_dynamic_light(light, source);
  }
}

// Render::add_static_light 0x0054D3E0
void WorldLights::add_static_light(const LightSource& light, std::size_t source) {
  insert_light(limits_.max_static_lights, static_, light, source, viewer_);
}

// Render::add_dynamic_light 0x0054D420
void WorldLights::add_dynamic_light(const LightSource& light, std::size_t source) {
  insert_light(limits_.max_dynamic_lights, dynamic_, light, source, viewer_);
}

// Render::remove_object_light 0x0054C1B0
bool remove_object_light(const RenderLight& light, const glm::vec3& centre, float radius) noexcept {
  const glm::vec3 d = light.position - centre;
  const float reach = light.falloff + radius;
  const float dist2 = d.x * d.x + d.y * d.y + d.z * d.z;
  return dist2 >= reach * reach;  // unordered (NaN): kept
}

// Render::minimize_object_lighting 0x0054D480
std::vector<const RenderLight*> WorldLights::minimize_object_lighting(const glm::vec3& centre, float radius) const {
  std::vector<const RenderLight*> active;
  for (const RenderLight& l : dynamic_) {
    if (active.size() >= kMaxObjectLights || remove_object_light(l, centre, radius)) continue;
    active.push_back(&l);
  }
  for (const RenderLight& l : static_) {
    if (active.size() < kMaxObjectLights && !remove_object_light(l, centre, radius)) active.push_back(&l);
  }
  return active;
}

// Render::minimize_envcell_lighting 0x0054C170 (Render::add_active_light keeps
// the first eight in the hardware's slots)
std::vector<const RenderLight*> WorldLights::minimize_envcell_lighting() const {
  std::vector<const RenderLight*> active;
  for (const RenderLight& l : dynamic_) {
    if (active.size() >= kMaxObjectLights) break;
    active.push_back(&l);
  }
  return active;
}

}  // namespace dereth::render
