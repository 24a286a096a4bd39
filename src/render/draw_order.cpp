#include "dereth/render/draw_order.hpp"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>

#include "dereth/dat/surface.hpp"

namespace dereth::render {

namespace {

// AC1Legacy::Vector3::normalize_check_small: true, `v` untouched, when shorter than epsilon.
bool normalize_check_small(glm::vec3& v) noexcept {
  const float length = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  if (!(length >= core::kEpsilon)) return true;
  v /= length;
  return false;
}

}  // namespace

// CPhysicsPart::UpdateViewerDistance 0x0050E030
ViewerDistance viewer_distance(const glm::vec3& viewer, const core::Frame& part_frame, const glm::vec3& sort_center,
                               const glm::vec3& scale) noexcept {
  const glm::vec3 offset = part_frame.localtoglobal(scale * sort_center) - viewer;
  ViewerDistance out;
  out.distance = std::sqrt(offset.z * offset.z + offset.y * offset.y + offset.x * offset.x);
  if (out.distance <= core::kEpsilon) {
    out.heading = glm::vec3(0.0F, 0.0F, 1.0F);
  } else {
    const float inverse = 1.0F / out.distance;
    out.heading = offset * inverse;
  }
  return out;
}

// GfxObjDegradeInfo::get_degrade 0x0051E4B0
DegradeLevel get_degrade(const dat::GfxObjDegradeInfo& info, float distance, const DegradeSettings& settings) noexcept {
  const auto& levels = info.degrades;
  if (levels.empty()) return DegradeLevel{};  // retail would read before the array
  float d = std::fabs(distance) - settings.degrade_distance;
  if (!(d >= 0.0F)) d = 0.0F;
  const float scale = settings.deg_mul;
  const auto count = static_cast<std::uint32_t>(levels.size());
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto& l = levels[i];
    const bool beyond = scale >= 0.0F ? d >= l.ideal_dist - (l.ideal_dist - l.max_dist) * scale
                                      : (l.ideal_dist - l.min_dist) * scale + l.ideal_dist <= d;
    if (!beyond) return DegradeLevel{i, l.degrade_mode};
  }
  return DegradeLevel{count - 1, levels.back().degrade_mode};
}

// Frame::rotate_around_axis_to_vector 0x00535A40
void rotate_around_axis_to_vector(core::Frame& frame, int axis, const glm::vec3& dir) noexcept {
  if (axis < 0 || axis > 2) return;
  constexpr int kPrev[3] = {2, 0, 1};
  glm::mat3 m = frame.matrix();  // m[i]: local axis i in world coordinates
  const glm::vec3 a = m[axis];
  const float along = a.z * dir.z + a.y * dir.y + a.x * dir.x;
  glm::vec3 normal = dir - a * along;
  if (normalize_check_small(normal)) normal = m[kPrev[axis]];
  if (0.0002F * 5.0F >= std::fabs(normal.z * a.z + normal.y * a.y + normal.x * a.x)) {
    const int turned = kPrev[axis];
    m[turned] = normal;
    m[kPrev[turned]] =
        glm::vec3(normal.y * a.z - normal.z * a.y, normal.z * a.x - a.z * normal.x, a.y * normal.x - normal.y * a.x);
    frame.set_rotate(glm::quat_cast(m));  // Frame::cache_quaternion
  }
}

// CPhysicsPart::calc_draw_frame 0x0050DFA0
core::Frame calc_draw_frame(const core::Frame& frame, std::uint32_t mode, const glm::vec3& heading) noexcept {
  core::Frame draw = frame;
  switch (mode) {
    case 2: draw.set_vector_heading(heading); break;
    case 3: rotate_around_axis_to_vector(draw, 0, heading); break;
    case 4: rotate_around_axis_to_vector(draw, 1, heading); break;
    case 5: rotate_around_axis_to_vector(draw, 2, heading); break;
    default: break;  // 1 and unknown modes: the part's own frame
  }
  return draw;
}

// D3DPolyRender::ConstructMesh 0x0059DFA0 (the isStippledOrAlphaedMask
// marks) with D3DPolyRender::DrawMesh 0x0059D4A0's delay test
AlphaClass alpha_class(std::uint32_t surface_type, bool material_has_alpha) noexcept {
  using namespace dat::surface_type;
  if ((surface_type & (kAlpha | kInvAlpha | kAdditive)) != 0) return AlphaClass::Alpha;
  if ((surface_type & kBase1ClipMap) != 0) return AlphaClass::Clip;
  if ((surface_type & kTranslucent) != 0) return AlphaClass::Alpha;
  return material_has_alpha ? AlphaClass::Alpha : AlphaClass::Opaque;
}

// CShadowPart::insertion_sort 0x006B5130
std::vector<std::size_t> back_to_front(std::span<const float> distances) {
  std::vector<std::size_t> order(distances.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const std::size_t len = order.size();
  if (len < 2) return order;
  // Retail's insertion sort is a stable sort, farthest first. With finite
  // keys a stable sort gives exactly its order in O(n log n) (a frame's
  // alpha list can hold thousands of particles; retail sorts one cell's few).
  const bool finite_keys = std::all_of(distances.begin(), distances.end(), [](float d) { return std::isfinite(d); });
  if (finite_keys) {
    std::stable_sort(order.begin(), order.end(),
                     [&distances](std::size_t a, std::size_t b) { return distances[a] > distances[b]; });
    return order;
  }
  // Otherwise the insertion sort itself, so NaN keys fall where retail's
  // compares put them: from the second last element down, carry it right
  // past every later element whose key is not <= its own.
  for (std::size_t i = len - 1; i-- > 0;) {
    const std::size_t moving = order[i];
    std::size_t j = i + 1;
    while (j < len && !(distances[order[j]] <= distances[moving])) {
      order[j - 1] = order[j];
      ++j;
    }
    order[j - 1] = moving;
  }
  return order;
}

}  // namespace dereth::render
