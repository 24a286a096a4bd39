#include "dereth/core/frame.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

namespace dereth::core {

namespace {

using detail::adopt;
using detail::grotation;
using detail::normalise;

constexpr float kDegreesToRadians = 0.017453292519943295f;
constexpr float kRadiansToDegrees = 57.29577951308232f;

}  // namespace

Frame::Frame(const glm::vec3& origin_in, const glm::quat& orientation) noexcept : origin(origin_in) {
  adopt(q_, m_, orientation);
}

// Frame::combine with scale (RE cphysobj/CPartArray.c line 1553): b's
// origin scaled first, the rotation not.
Frame Frame::combine(const Frame& a, const Frame& b, const glm::vec3& scale) noexcept {
  Frame scaled = b;
  scaled.origin = b.origin * scale;
  return combine(a, scaled);
}

// Frame::subtract1 (RE cgeometry/CFrame.c)
Frame Frame::subtract1(const Frame& a, const Frame& b) noexcept {
  Frame out;
  adopt(out.q_, out.m_, a.q_ * glm::conjugate(b.q_));
  // Retail rotates by the resulting orientation, not by b's.
  out.origin = a.origin - out.m_ * b.origin;
  return out;
}

// Frame::localtoglobal (RE smartbox/SmartBox.c)
glm::vec3 Frame::localtoglobal(const glm::vec3& point) const noexcept {
  return origin + m_ * point;
}

// Frame::globaltolocal (RE smartbox/SmartBox.c)
glm::vec3 Frame::globaltolocal(const glm::vec3& point) const noexcept {
  return glm::transpose(m_) * (point - origin);
}

// Frame::localtoglobalvec (RE smartbox/SmartBox.c)
glm::vec3 Frame::localtoglobalvec(const glm::vec3& vec) const noexcept {
  return m_ * vec;
}

// Frame::globaltolocalvec (RE smartbox/SmartBox.c)
glm::vec3 Frame::globaltolocalvec(const glm::vec3& vec) const noexcept {
  return glm::transpose(m_) * vec;
}

// Frame::rotate (RE cgeometry/CFrame.c)
void Frame::rotate(const glm::vec3& axis_angle) noexcept {
  grotate(localtoglobalvec(axis_angle));
}

// Frame::rotate's orientation alone: grotation and set_rotate's
// normalisation, the old orientation kept wherever rotate keeps it.
glm::quat Frame::rotated(const glm::vec3& axis_angle) const noexcept {
  glm::quat product;
  glm::quat normalised;
  if (grotation(q_, localtoglobalvec(axis_angle), product) && normalise(product, normalised)) return normalised;
  return q_;
}

// Frame::interpolate_rotation (RE cgeometry/CFrame.c)
void Frame::interpolate_rotation(const Frame& from, const Frame& to, float t) noexcept {
  adopt(q_, m_, core::interpolate_rotation(from.q_, to.q_, t));
}

// Frame::set_heading (RE cgeometry/CFrame.c)
void Frame::set_heading(float degrees) noexcept {
  const float radians = degrees * kDegreesToRadians;
  set_vector_heading(glm::vec3(std::sin(radians), std::cos(radians), m_[1].z));
}

// Frame::get_heading (RE cgeometry/CFrame.c)
float Frame::get_heading() const noexcept {
  return compass_heading(m_[1]);
}

// Frame::set_vector_heading 0x00535DB0
void Frame::set_vector_heading(const glm::vec3& direction) noexcept {
  const float length = std::sqrt(glm::dot(direction, direction));
  if (!(length >= kEpsilon) || !std::isfinite(length)) {
    return;
  }
  const glm::vec3 d = direction / length;
  const float heading = compass_heading(d) * kDegreesToRadians;
  const float pitch = std::asin(std::clamp(d.z, -1.0f, 1.0f));
  // euler_set_rotate(pitch, 0, -heading): pitch about local X first, then yaw
  // about world Z by -heading (compass headings run clockwise seen from +Z).
  const glm::quat yaw(std::cos(heading * 0.5f), 0.0f, 0.0f, -std::sin(heading * 0.5f));
  const glm::quat tilt(std::cos(pitch * 0.5f), std::sin(pitch * 0.5f), 0.0f, 0.0f);
  adopt(q_, m_, yaw * tilt);
}

// Frame::interpolate_rotation (RE cgeometry/CFrame.c)
glm::quat interpolate_rotation(const glm::quat& from, const glm::quat& to, float t) noexcept {
  float dot = from.w * to.w + from.x * to.x + from.y * to.y + from.z * to.z;
  glm::quat target = to;
  if (dot < 0.0f) {
    dot = -dot;
    target = glm::quat(-to.w, -to.x, -to.y, -to.z);
  }
  float w_from = 1.0f - t;
  float w_to = t;
  if (1.0f - dot > kEpsilon) {
    const float theta = std::acos(std::min(dot, 1.0f));
    const float sin_theta = std::sin(theta);
    const float slerp_from = std::sin((1.0f - t) * theta) / sin_theta;
    const float slerp_to = std::sin(t * theta) / sin_theta;
    if (slerp_from >= 0.0f && slerp_from <= 1.0f && slerp_to >= 0.0f && slerp_to <= 1.0f) {
      w_from = slerp_from;
      w_to = slerp_to;
    }
  }
  glm::quat out(w_from * from.w + w_to * target.w, w_from * from.x + w_to * target.x, w_from * from.y + w_to * target.y,
                w_from * from.z + w_to * target.z);
  const float length = std::sqrt(out.w * out.w + out.x * out.x + out.y * out.y + out.z * out.z);
  if (length > 0.0f && std::isfinite(length)) {
    const float inv = 1.0f / length;
    out = glm::quat(out.w * inv, out.x * inv, out.y * inv, out.z * inv);
  }
  return out;
}

float compass_heading(const glm::vec3& direction) noexcept {
  const float degrees = std::atan2(direction.y, direction.x) * kRadiansToDegrees;
  float heading = std::fmod(450.0f - degrees, 360.0f);
  if (heading < 0.0f) {
    heading += 360.0f;
  }
  // fmod of a value just under a multiple of 360 can round up to 360.
  if (heading >= 360.0f) {
    heading = 0.0f;
  }
  return heading;
}

// Frame::is_equal 0x00424C30
bool Frame::is_equal(const Frame& other) const noexcept {
  const Frame& a = *this;
  const Frame& b = other;
  // Vector3Math::AreEqual: inclusive, against the float epsilon.
  const double e = static_cast<double>(kEpsilon);
  if (!(x87_diff(a.origin.x, b.origin.x) <= e && x87_diff(a.origin.y, b.origin.y) <= e &&
        x87_diff(a.origin.z, b.origin.z) <= e)) {
    return false;
  }
  // Frame::is_quaternion_equal 0x00424C70: strict, against the double literal.
  const glm::quat& qa = a.orientation();
  const glm::quat& qb = b.orientation();
  return x87_diff(qa.w, qb.w) < kEpsilonDouble && x87_diff(qa.x, qb.x) < kEpsilonDouble &&
         x87_diff(qa.y, qb.y) < kEpsilonDouble && x87_diff(qa.z, qb.z) < kEpsilonDouble;
}

// Frame::IsValid 0x00534ED0
bool Frame::is_valid() const noexcept {
  const Frame& f = *this;
  const glm::quat& q = f.orientation();
  if (std::isnan(f.origin.x) || std::isnan(f.origin.y) || std::isnan(f.origin.z) || std::isnan(q.w) ||
      std::isnan(q.x) || std::isnan(q.y) || std::isnan(q.z)) {
    return false;
  }
  const float norm = q.z * q.z + q.y * q.y + q.x * q.x + q.w * q.w;
  return !std::isnan(norm) && !(kEpsilonDouble * 5.0 < std::fabs(static_cast<double>(norm) - 1.0));
}

}  // namespace dereth::core
