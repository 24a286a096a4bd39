#pragma once
// Retail Frame: an origin plus a unit quaternion, with the cached 3x3 rotation
// matrix retail keeps beside it (spec/physics.md section 4.1).
//
// AC world axes: +X east, +Y north, +Z up. A frame's local +Y is its forward
// axis, local +Z its up axis. Compass headings are degrees clockwise seen from
// +Z: 0 = north (+Y), 90 = east (+X).
//
// Quaternions are glm::quat, built as glm::quat(w, x, y, z): the same order as
// AC's wire format. GLM's in-memory layout is x, y, z, w, so never memcpy wire
// bytes into a glm::quat; read the four floats and construct it.

#include <cmath>

#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

namespace dereth::core {

// PhysicsGlobals EPSILON (retail 0.00019999999): the small-value threshold
// for normalisation, rotation and heading tests. The one place the literal is
// written: kEpsilon where retail compares it as a float, kEpsilonDouble where
// the binary compares against the double literal (x87 code).
inline constexpr float kEpsilon = 0.00019999999f;
inline constexpr double kEpsilonDouble = 0.00019999999;

// The difference of two floats as the x87 code forms it (exact in double),
// for the comparisons against kEpsilonDouble.
[[nodiscard]] inline double x87_diff(float a, float b) noexcept {
  return std::fabs(static_cast<double>(a) - static_cast<double>(b));
}

class Frame {
 public:
  // Identity: origin (0,0,0), orientation (w=1, 0, 0, 0).
  Frame() noexcept = default;
  // The orientation goes through set_rotate: it is normalised, and an invalid
  // (zero, NaN or infinite) quaternion leaves the identity in place.
  Frame(const glm::vec3& origin, const glm::quat& orientation) noexcept;

  // The position, freely assignable (it has no cached state).
  glm::vec3 origin{0.0f, 0.0f, 0.0f};

  [[nodiscard]] const glm::quat& orientation() const noexcept { return q_; }
  // The cached rotation matrix, column-major: m[0] is local +X in world
  // coordinates, m[1] local +Y (forward), m[2] local +Z (up).
  [[nodiscard]] const glm::mat3& matrix() const noexcept { return m_; }
  [[nodiscard]] glm::vec3 right() const noexcept { return m_[0]; }
  [[nodiscard]] glm::vec3 forward() const noexcept { return m_[1]; }
  [[nodiscard]] glm::vec3 up() const noexcept { return m_[2]; }

  // Frame::set_rotate (RE cgeometry/CFrame.c): normalise q; when the result is
  // valid (finite, non-zero length) adopt it and recompute the matrix,
  // otherwise keep the old orientation. Returns whether q was adopted.
  bool set_rotate(const glm::quat& q) noexcept;

  // Frame::combine (RE canim/CSequence.c line 773): b expressed in a's space.
  // origin = a.origin + R(a)*b.origin; q = a.q * b.q.
  [[nodiscard]] static Frame combine(const Frame& a, const Frame& b) noexcept;
  // Frame::combine with scale (RE cphysobj/CPartArray.c line 1553): as above
  // with b.origin scaled component-wise first; the rotation is not scaled.
  [[nodiscard]] static Frame combine(const Frame& a, const Frame& b, const glm::vec3& scale) noexcept;
  // Frame::subtract1 (RE cgeometry/CFrame.c): the inverse of combine;
  // q = a.q * conj(b.q), origin = a.origin - R(q_new)*b.origin, so
  // subtract1(combine(x, b), b) == x.
  [[nodiscard]] static Frame subtract1(const Frame& a, const Frame& b) noexcept;

  // Frame::is_equal 0x00424C30: origins within 0.0002 inclusive on each axis
  // (Vector3Math::AreEqual, float epsilon), then Frame::is_quaternion_equal
  // 0x00424C70: each quaternion component strictly within 0.00019999999.
  [[nodiscard]] bool is_equal(const Frame& other) const noexcept;
  // Frame::IsValid 0x00534ED0: no NaN among the seven floats and a quaternion
  // whose squared length is within 0.001 of 1.
  [[nodiscard]] bool is_valid() const noexcept;

  // Frame::localtoglobal (RE smartbox/SmartBox.c): origin + m*p.
  [[nodiscard]] glm::vec3 localtoglobal(const glm::vec3& point) const noexcept;
  // Frame::globaltolocal (RE smartbox/SmartBox.c): mT*(p - origin).
  [[nodiscard]] glm::vec3 globaltolocal(const glm::vec3& point) const noexcept;
  // Frame::localtoglobalvec (RE smartbox/SmartBox.c): m*v (no translation).
  [[nodiscard]] glm::vec3 localtoglobalvec(const glm::vec3& vec) const noexcept;
  // Frame::globaltolocalvec (RE smartbox/SmartBox.c): mT*v (no translation).
  [[nodiscard]] glm::vec3 globaltolocalvec(const glm::vec3& vec) const noexcept;

  // Frame::grotate (RE cgeometry/CFrame.c): rotate about the world axis w by
  // |w| radians (q = r*q); nothing when |w|^2 < kEpsilon^2.
  void grotate(const glm::vec3& axis_angle) noexcept;
  // Frame::rotate (RE cgeometry/CFrame.c): rotate about the local axis w by
  // |w| radians; equal to grotate(localtoglobalvec(w)).
  void rotate(const glm::vec3& axis_angle) noexcept;
  // The orientation rotate(axis_angle) would leave, bit for bit, without
  // changing this frame or forming the new matrix (the particles that spin
  // read only the orientation).
  [[nodiscard]] glm::quat rotated(const glm::vec3& axis_angle) const noexcept;

  // Frame::interpolate_rotation (RE cgeometry/CFrame.c): this frame's
  // orientation becomes the blend of from's and to's at t (see the free
  // function below); the origin is untouched.
  void interpolate_rotation(const Frame& from, const Frame& to, float t) noexcept;

  // Frame::set_heading (RE cgeometry/CFrame.c): compass degrees; builds the
  // direction (sin h, cos h, forward().z) and calls set_vector_heading.
  void set_heading(float degrees) noexcept;
  // Frame::get_heading (RE cgeometry/CFrame.c): the compass heading of the
  // forward axis, (450 - atan2deg(fwd.y, fwd.x)) mod 360, in [0, 360).
  [[nodiscard]] float get_heading() const noexcept;
  // Frame::set_vector_heading 0x00535DB0: normalise the full 3D direction
  // (nothing when |d| < kEpsilon), then yaw about Z by -heading(d) and pitch
  // about local X by asin(d.z), so local +Y points along d. Not yaw-only.
  void set_vector_heading(const glm::vec3& direction) noexcept;

 private:
  glm::quat q_{1.0f, 0.0f, 0.0f, 0.0f};
  glm::mat3 m_{1.0f};
};

// Frame::interpolate_rotation (RE cgeometry/CFrame.c), on bare quaternions:
// slerp along the shortest path (to is negated when dot < 0); when
// 1 - dot <= kEpsilon or either slerp weight falls outside [0, 1] the weights
// are (1 - t, t) instead (nlerp). The result is normalised.
[[nodiscard]] glm::quat interpolate_rotation(const glm::quat& from, const glm::quat& to, float t) noexcept;

// The compass heading of a direction's horizontal part in degrees [0, 360):
// (450 - atan2deg(d.y, d.x)) mod 360. Zero-length input gives 90 (atan2(0,0) = 0).
[[nodiscard]] float compass_heading(const glm::vec3& direction) noexcept;

}  // namespace dereth::core
