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

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/mat3x3.hpp>
#include <glm/vec3.hpp>

#include "dereth/core/sincos.hpp"

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(DERETH_FRAME_SCALAR)
#include <emmintrin.h>
#define DERETH_FRAME_SSE2 1
#endif

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

// The turn Frame::grotate forms from a world axis-angle (detail::turn_of),
// kept with the axis-angle's bits: an object spinning at a steady rate over
// ticks of one length turns by the same axis-angle, bit for bit, tick after
// tick, and the cache gives the same turn without the square root, sine and
// cosine. A default cache holds the zero axis-angle, which turns nothing.
class TurnCache {
 public:
  // detail::turn_of(axis_angle, turn), from the cache when axis_angle has the
  // bits of the last call's.
  bool turn(const glm::vec3& axis_angle, glm::quat& turn) noexcept;

 private:
  glm::vec3 axis_angle_{0.0f, 0.0f, 0.0f};
  glm::quat turn_{1.0f, 0.0f, 0.0f, 0.0f};
  bool turns_ = false;
};

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
  // Frame::combine(a, b) followed by grotate(axis_angle) on the result (what
  // PhysicsObj's UpdatePositionInternal and UpdatePhysicsInternal do to an
  // object each tick), bit for bit, with the matrix formed once, for the
  // final orientation: combine's would be replaced by grotate's. The turn
  // comes through `turns`.
  [[nodiscard]] static Frame combine_turned(const Frame& a, const Frame& b, const glm::vec3& axis_angle,
                                            TurnCache& turns) noexcept;
  // combine_turned(*this, b, axis_angle, turns) written over this frame: the
  // same bits, without a copy (an object with no parts commits the whole
  // candidate frame, so it can be built where it is committed).
  void combine_turn(const Frame& b, const glm::vec3& axis_angle, TurnCache& turns) noexcept;
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

// The hot orientation steps, always inline so the object tick (PhysicsObj's
// UpdatePositionInternal and UpdatePhysicsInternal) runs them without calls
// (docs/benchmarks.md, "The object loop").
namespace detail {

// sqrtf, always the one instruction: std::sqrt keeps errno's contract, and
// GCC calls libm's sqrtf for it wherever it deems the code cold (the
// normalisation of a spinning object's orientation, every tick). The bits
// are the same: both are the correctly rounded root, NaN and negative
// inputs included (glibc's sqrtf is this instruction; only errno differs,
// and no caller reads it).
[[gnu::always_inline]] inline float sqrt_rounded(float x) noexcept {
#if defined(DERETH_FRAME_SSE2)
  return _mm_cvtss_f32(_mm_sqrt_ss(_mm_set_ss(x)));
#else
  return std::sqrt(x);
#endif
}

#if defined(DERETH_FRAME_SSE2)
// The four floats of a glm::quat in one register, in its memory order
// (x, y, z, w without GLM_FORCE_QUAT_DATA_WXYZ), and back.
static_assert(sizeof(glm::quat) == 4 * sizeof(float) && sizeof(glm::mat3) == 9 * sizeof(float));
[[gnu::always_inline]] inline __m128 lanes(const glm::quat& q) noexcept {
  __m128 v;
  std::memcpy(&v, &q, sizeof(v));
  return v;
}
[[gnu::always_inline]] inline glm::quat quat_of(__m128 v) noexcept {
  glm::quat q;
  std::memcpy(&q, &v, sizeof(q));
  return q;
}
// The register whose lane k is v's lane i_k.
template <int kI0, int kI1, int kI2, int kI3>
[[gnu::always_inline]] inline __m128 pick(__m128 v) noexcept {
  return _mm_shuffle_ps(v, v, _MM_SHUFFLE(kI3, kI2, kI1, kI0));
}
#endif

// Frame::set_rotate's normalisation: false (out untouched) when q or the
// result is not finite or q has no length. A finite, non-zero length bounds
// every |q_i * inv| near 1, so the result is finite exactly when inv is (an
// infinite inv makes some component infinite or NaN). A length of exactly 1
// gives inv = 1 and out = q bit for bit, so the square root, the division
// and the products are skipped there (the normalised quaternions a spinning
// object carries from tick to tick mostly have it): sqrtf is correctly
// rounded and increasing, and the floats whose root rounds to 1.0f are
// exactly 1.0f and the next one up, 0x3F800001 (the one below, 0x3F7FFFFF,
// has the root 1 - 2^-25 - ..., which rounds down: tests/core/frame_test.cpp).
[[gnu::always_inline]] inline bool normalise(const glm::quat& q, glm::quat& out) noexcept {
#if defined(DERETH_FRAME_SSE2)
  // The squares four lanes at once, summed (((w w + x x) + y y) + z z) as the
  // scalar expression sums them; the quotients four lanes at once.
  const __m128 v = lanes(q);
  const __m128 squares = _mm_mul_ps(v, v);
  const float length_sq =
      _mm_cvtss_f32(_mm_add_ss(_mm_add_ss(_mm_add_ss(pick<3, 3, 3, 3>(squares), squares), pick<1, 1, 1, 1>(squares)),
                               pick<2, 2, 2, 2>(squares)));
#else
  const float length_sq = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
#endif
  if (std::bit_cast<std::uint32_t>(length_sq) - std::bit_cast<std::uint32_t>(1.0f) <= 1u) {
    out = q;
    return true;
  }
  const float length = sqrt_rounded(length_sq);
  if (!(length > 0.0f) || !std::isfinite(length)) {
    return false;
  }
  const float inv = 1.0f / length;
  if (!std::isfinite(inv)) {
    return false;
  }
#if defined(DERETH_FRAME_SSE2)
  out = quat_of(_mm_mul_ps(v, _mm_set1_ps(inv)));
#else
  out = glm::quat(q.w * inv, q.x * inv, q.y * inv, q.z * inv);
#endif
  return true;
}

// Frame::cache (RE cgeometry/CFrame.c), which every orientation change runs
// through adopt: the matrix of q, formed as glm::mat3_cast forms it (the same
// products and sums in the same order, so the same bits), written in place
// without its identity fill first. With SSE2 the nine entries are three
// registers of three: the diagonal 1 - 2 (yy + zz), 1 - 2 (xx + zz),
// 1 - 2 (xx + yy); the sums 2 (xy + wz), 2 (yz + wx), 2 (xz + wy); the
// differences 2 (xz - wy), 2 (xy - wz), 2 (yz - wx).
[[gnu::always_inline]] inline void matrix_of(const glm::quat& q, glm::mat3& m) noexcept {
#if defined(DERETH_FRAME_SSE2)
  const __m128 v = lanes(q);
  const __m128 squares = _mm_mul_ps(v, v);                                    // xx, yy, zz
  const __m128 cross = _mm_mul_ps(pick<0, 0, 1, 3>(v), pick<2, 1, 2, 3>(v));  // xz, xy, yz
  const __m128 by_w = _mm_mul_ps(pick<3, 3, 3, 3>(v), v);                     // wx, wy, wz
  const __m128 two = _mm_set1_ps(2.0f);
  const __m128 diagonal =
      _mm_sub_ps(_mm_set1_ps(1.0f),
                 _mm_mul_ps(two, _mm_add_ps(pick<1, 0, 0, 3>(squares), pick<2, 2, 1, 3>(squares))));  // m00, m11, m22
  const __m128 sums = _mm_mul_ps(two, _mm_add_ps(pick<1, 2, 0, 3>(cross), pick<2, 0, 1, 3>(by_w)));   // m01, m12, m20
  const __m128 differences = _mm_mul_ps(two, _mm_sub_ps(cross, pick<1, 2, 0, 3>(by_w)));              // m02, m10, m21
  // Column-major memory: m00 m01 m02 | m10 m11 m12 | m20 m21 m22.
  const __m128 low = _mm_unpacklo_ps(diagonal, sums);  // m00, m01, m11, m12
  const __m128 first = _mm_shuffle_ps(low, differences, _MM_SHUFFLE(1, 0, 1, 0));
  const __m128 second = _mm_shuffle_ps(low, _mm_unpackhi_ps(sums, differences), _MM_SHUFFLE(1, 0, 3, 2));
  auto* bytes = reinterpret_cast<unsigned char*>(&m);
  std::memcpy(bytes, &first, sizeof(first));
  std::memcpy(bytes + sizeof(first), &second, sizeof(second));
  const float last = _mm_cvtss_f32(pick<2, 2, 2, 2>(diagonal));
  std::memcpy(bytes + 2 * sizeof(first), &last, sizeof(last));
#else
  const float qxx = q.x * q.x;
  const float qyy = q.y * q.y;
  const float qzz = q.z * q.z;
  const float qxz = q.x * q.z;
  const float qxy = q.x * q.y;
  const float qyz = q.y * q.z;
  const float qwx = q.w * q.x;
  const float qwy = q.w * q.y;
  const float qwz = q.w * q.z;
  m[0][0] = 1.0f - 2.0f * (qyy + qzz);
  m[0][1] = 2.0f * (qxy + qwz);
  m[0][2] = 2.0f * (qxz - qwy);
  m[1][0] = 2.0f * (qxy - qwz);
  m[1][1] = 1.0f - 2.0f * (qxx + qzz);
  m[1][2] = 2.0f * (qyz + qwx);
  m[2][0] = 2.0f * (qxz + qwy);
  m[2][1] = 2.0f * (qyz - qwx);
  m[2][2] = 1.0f - 2.0f * (qxx + qyy);
#endif
}

// The same four floats, signed zeros told apart: the matrix of one is the
// matrix of the other.
[[gnu::always_inline]] inline bool same_bits(const glm::quat& a, const glm::quat& b) noexcept {
  return std::memcmp(&a, &b, sizeof(glm::quat)) == 0;
}

// a.origin + R(a)*offset. With a zero offset every product in R(a)*offset is
// a signed zero (R is finite), and adding a signed zero to a non-zero, non-NaN
// coordinate leaves its bits alone; only a zero coordinate, whose sign the
// sum could flip, needs the product. Bit for bit the full formula either way.
[[gnu::always_inline]] inline glm::vec3 offset_origin(const glm::vec3& origin, const glm::mat3& m,
                                                      const glm::vec3& offset) noexcept {
  const auto bits = [](float f) noexcept { return std::bit_cast<std::uint32_t>(f); };
  // Non-zero and not NaN: the magnitude's bits in [1, 0x7F800000].
  const auto nonzero = [&bits](float f) noexcept { return (bits(f) & 0x7FFFFFFFu) - 1u < 0x7F800000u; };
  const bool zero_offset = ((bits(offset.x) | bits(offset.y) | bits(offset.z)) << 1) == 0;
  if (zero_offset & nonzero(origin.x) & nonzero(origin.y) & nonzero(origin.z)) return origin;
  return origin + m * offset;
}

// a * b as glm's operator*= writes it: w = ((a.w b.w - a.x b.x) - a.y b.y)
// - a.z b.z, x = ((a.w b.x + a.x b.w) + a.y b.z) - a.z b.y, y = ((a.w b.y +
// a.y b.w) + a.z b.x) - a.x b.z, z = ((a.w b.z + a.z b.w) + a.x b.y) -
// a.y b.x: the same products and sums in the same order, so the same bits,
// always inline (GCC keeps glm's out of line where the object tick calls it).
// With SSE2 the four components are four lanes: each of the four columns of
// products is one multiply, each lane's multiplicand first as in the scalar
// expression, and the w lane subtracts where the others add (both are formed
// and the w lane taken from the difference, so even a NaN keeps its sign).
[[gnu::always_inline]] inline glm::quat product(const glm::quat& a, const glm::quat& b) noexcept {
#if defined(DERETH_FRAME_SSE2)
  const __m128 va = lanes(a);  // x, y, z, w
  const __m128 vb = lanes(b);
  // Lanes in the order (w, x, y, z) of the result.
  const __m128 t1 = _mm_mul_ps(pick<3, 3, 3, 3>(va), pick<3, 0, 1, 2>(vb));  // aw bw, aw bx, aw by, aw bz
  const __m128 t2 = _mm_mul_ps(pick<0, 0, 1, 2>(va), pick<0, 3, 3, 3>(vb));  // ax bx, ax bw, ay bw, az bw
  const __m128 t3 = _mm_mul_ps(pick<1, 1, 2, 0>(va), pick<1, 2, 0, 1>(vb));  // ay by, ay bz, az bx, ax by
  const __m128 t4 = _mm_mul_ps(pick<2, 2, 0, 1>(va), pick<2, 1, 2, 0>(vb));  // az bz, az by, ax bz, ay bx
  const __m128 s1 = _mm_move_ss(_mm_add_ps(t1, t2), _mm_sub_ps(t1, t2));
  const __m128 s2 = _mm_move_ss(_mm_add_ps(s1, t3), _mm_sub_ps(s1, t3));
  return quat_of(pick<1, 2, 3, 0>(_mm_sub_ps(s2, t4)));
#else
  return glm::quat(a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   a.w * b.y + a.y * b.w + a.z * b.x - a.x * b.z, a.w * b.z + a.z * b.w + a.x * b.y - a.y * b.x);
#endif
}

// Frame::set_rotate's body on a frame's orientation and matrix: the matrix is
// recomputed only when the normalised q differs in its bits from the one
// held, so m == matrix_of(q) always holds.
[[gnu::always_inline]] inline bool adopt(glm::quat& held, glm::mat3& matrix, const glm::quat& q) noexcept {
  glm::quat normalised;
  if (!normalise(q, normalised)) {
    return false;
  }
  if (!same_bits(normalised, held)) {
    held = normalised;
    matrix_of(held, matrix);
  }
  return true;
}

// Frame::grotate's turn r for the world axis-angle w: (cos(|w|/2),
// w * sin(|w|/2) / |w|); false when |w|^2 < kEpsilon^2 (nothing to turn).
[[gnu::always_inline]] inline bool turn_of(const glm::vec3& axis_angle, glm::quat& turn) noexcept {
  const float angle_sq = glm::dot(axis_angle, axis_angle);
  if (angle_sq < kEpsilon * kEpsilon) {
    return false;
  }
  const float angle = sqrt_rounded(angle_sq);
  const float half = angle * 0.5f;
  const SinCos half_sincos = sincos(half);
  const glm::vec3 axis = axis_angle * (half_sincos.sin / angle);
  const glm::quat r(half_sincos.cos, axis.x, axis.y, axis.z);
  turn = r;
  return true;
}

// Frame::grotate's product r * q, before set_rotate normalises it; false when
// |w|^2 < kEpsilon^2 (nothing to turn).
[[gnu::always_inline]] inline bool grotation(const glm::quat& q, const glm::vec3& axis_angle,
                                             glm::quat& product) noexcept {
  glm::quat r;
  if (!turn_of(axis_angle, r)) return false;
  product = detail::product(r, q);
  return true;
}

}  // namespace detail

// Frame::set_rotate (RE cgeometry/CFrame.c). Retail re-caches the matrix on
// every call; it is a function of q alone, so it is recomputed only when the
// normalised q differs from the one held (an unchanged q keeps its matrix).
[[gnu::always_inline]] inline bool Frame::set_rotate(const glm::quat& q) noexcept {
  return detail::adopt(q_, m_, q);
}

// Frame::combine (RE canim/CSequence.c line 773). The result starts from a's
// orientation and matrix, so an offset that leaves the orientation as it was
// (the identity offset of an object with no root motion) costs no matrix.
[[gnu::always_inline]] inline Frame Frame::combine(const Frame& a, const Frame& b) noexcept {
  Frame out = a;
  out.origin = detail::offset_origin(a.origin, a.m_, b.origin);
  if (!detail::adopt(out.q_, out.m_, detail::product(a.q_, b.q_))) {
    out.q_ = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);  // retail's result frame starts as the identity
    out.m_ = glm::mat3(1.0f);
  }
  return out;
}

[[gnu::always_inline]] inline bool TurnCache::turn(const glm::vec3& axis_angle, glm::quat& turn) noexcept {
  if (std::memcmp(&axis_angle, &axis_angle_, sizeof(glm::vec3)) != 0) {
    axis_angle_ = axis_angle;
    turns_ = detail::turn_of(axis_angle, turn_);
  }
  turn = turn_;
  return turns_;
}

// Frame::combine (RE canim/CSequence.c line 773) and Frame::grotate (RE
// cgeometry/CFrame.c) in one: the orientation steps of both as they are, the
// matrix only at the end and only when the orientation's bits changed, so
// m == matrix_of(q) holds as after the two calls. A failed combine leaves the
// identity, whose matrix is glm::mat3(1.0f) bit for bit.
[[gnu::always_inline]] inline void Frame::combine_turn(const Frame& b, const glm::vec3& axis_angle,
                                                       TurnCache& turns) noexcept {
  origin = detail::offset_origin(origin, m_, b.origin);
  glm::quat q;
  if (!detail::normalise(detail::product(q_, b.q_), q)) q = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  glm::quat turn;
  glm::quat turned;
  if (turns.turn(axis_angle, turn) && detail::normalise(detail::product(turn, q), turned)) q = turned;
  if (!detail::same_bits(q, q_)) {
    q_ = q;
    detail::matrix_of(q, m_);
  }
}

[[gnu::always_inline]] inline Frame Frame::combine_turned(const Frame& a, const Frame& b, const glm::vec3& axis_angle,
                                                          TurnCache& turns) noexcept {
  Frame out = a;
  out.combine_turn(b, axis_angle, turns);
  return out;
}

// Frame::grotate (RE cgeometry/CFrame.c)
[[gnu::always_inline]] inline void Frame::grotate(const glm::vec3& axis_angle) noexcept {
  if (glm::quat product; detail::grotation(q_, axis_angle, product)) detail::adopt(q_, m_, product);
}

}  // namespace dereth::core
