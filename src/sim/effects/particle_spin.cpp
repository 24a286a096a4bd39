#include "dereth/sim/effects/particle_spin.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(DERETH_SPIN_SCALAR)
#include <emmintrin.h>
#define DERETH_SPIN_SSE2 1
#endif

namespace dereth::sim {

namespace {

constexpr float kEpsilonSq = core::kEpsilon * core::kEpsilon;

#if defined(DERETH_SPIN_SSE2)
// The four lanes of a group are written out whole, in glm::quat's memory
// order (x, y, z, w without GLM_FORCE_QUAT_DATA_WXYZ).
static_assert(sizeof(glm::quat) == 4 * sizeof(float));
static_assert(offsetof(glm::quat, x) == 0 && offsetof(glm::quat, y) == 4 && offsetof(glm::quat, z) == 8 &&
              offsetof(glm::quat, w) == 12);
#endif

#if !defined(DERETH_SPIN_SSE2)
// One lane: Frame::grotate's product and set_rotate's normalisation, the old
// orientation kept wherever Frame::rotate keeps it (as core::Frame::rotated).
glm::quat turn_one(float wx, float wy, float wz, const glm::quat& q) noexcept {
  const float angle_sq = wx * wx + wy * wy + wz * wz;
  if (angle_sq < kEpsilonSq) return q;
  const float angle = std::sqrt(angle_sq);
  const float half = angle * 0.5f;
  const float k = std::sin(half) / angle;
  const glm::quat r(std::cos(half), wx * k, wy * k, wz * k);
  const glm::quat p = r * q;
  const float length = std::sqrt(p.w * p.w + p.x * p.x + p.y * p.y + p.z * p.z);
  if (!(length > 0.0f) || !std::isfinite(length)) return q;
  const float inv = 1.0f / length;
  if (!std::isfinite(inv)) return q;
  return glm::quat(p.w * inv, p.x * inv, p.y * inv, p.z * inv);
}
#endif

}  // namespace

// Frame::rotate (RE cgeometry/CFrame.c) on copies of the staged parents,
// four lanes at a time: every product, sum, quotient and square root is the
// IEEE single-precision operation core::Frame::rotate performs, in its order,
// so each lane's bits are Frame::rotate's.
void SpinBatch::flush() noexcept {
  const std::size_t n = count_;
  count_ = 0;
  if (n == 0) return;
#if defined(DERETH_SPIN_SSE2)
  // Pad to whole groups of four with the identity and no turn.
  for (std::size_t i = n; i % 4 != 0; ++i) {
    wx_[i] = wy_[i] = wz_[i] = 0.0f;
    qw_[i] = 1.0f;
    qx_[i] = qy_[i] = qz_[i] = 0.0f;
  }
  const __m128 eps_sq = _mm_set1_ps(kEpsilonSq);
  const __m128 half_factor = _mm_set1_ps(0.5f);
  const __m128 one = _mm_set1_ps(1.0f);
  const __m128 zero = _mm_setzero_ps();
  const __m128 largest = _mm_set1_ps(std::numeric_limits<float>::max());
  // A shared parent's matrix and orientation, in every lane.
  const glm::mat3 m = shared_ != nullptr ? shared_->matrix() : glm::mat3(1.0f);
  const glm::quat q = shared_ != nullptr ? shared_->orientation() : glm::quat(1, 0, 0, 0);
  const __m128 m00 = _mm_set1_ps(m[0][0]), m10 = _mm_set1_ps(m[1][0]), m20 = _mm_set1_ps(m[2][0]);
  const __m128 m01 = _mm_set1_ps(m[0][1]), m11 = _mm_set1_ps(m[1][1]), m21 = _mm_set1_ps(m[2][1]);
  const __m128 m02 = _mm_set1_ps(m[0][2]), m12 = _mm_set1_ps(m[1][2]), m22 = _mm_set1_ps(m[2][2]);
  if (shared_ != nullptr) {
    for (std::size_t i = 0; i < n; i += 4) {
      // Frame::localtoglobalvec: m * v, as glm forms it.
      const __m128 lx = _mm_load_ps(&wx_[i]);
      const __m128 ly = _mm_load_ps(&wy_[i]);
      const __m128 lz = _mm_load_ps(&wz_[i]);
      _mm_store_ps(&wx_[i], _mm_add_ps(_mm_add_ps(_mm_mul_ps(m00, lx), _mm_mul_ps(m10, ly)), _mm_mul_ps(m20, lz)));
      _mm_store_ps(&wy_[i], _mm_add_ps(_mm_add_ps(_mm_mul_ps(m01, lx), _mm_mul_ps(m11, ly)), _mm_mul_ps(m21, lz)));
      _mm_store_ps(&wz_[i], _mm_add_ps(_mm_add_ps(_mm_mul_ps(m02, lx), _mm_mul_ps(m12, ly)), _mm_mul_ps(m22, lz)));
      _mm_store_ps(&qw_[i], _mm_set1_ps(q.w));
      _mm_store_ps(&qx_[i], _mm_set1_ps(q.x));
      _mm_store_ps(&qy_[i], _mm_set1_ps(q.y));
      _mm_store_ps(&qz_[i], _mm_set1_ps(q.z));
    }
  }
  // Pass 1, four lanes at a time: Frame::grotate's angle. Nothing turns when
  // |w|^2 < EPSILON^2 (NaN turns, and is then refused by the normalisation).
  std::uint32_t turn_bits = 0;
  for (std::size_t i = 0; i < n; i += 4) {
    const __m128 wx = _mm_load_ps(&wx_[i]);
    const __m128 wy = _mm_load_ps(&wy_[i]);
    const __m128 wz = _mm_load_ps(&wz_[i]);
    const __m128 angle_sq = _mm_add_ps(_mm_add_ps(_mm_mul_ps(wx, wx), _mm_mul_ps(wy, wy)), _mm_mul_ps(wz, wz));
    const __m128 turns = _mm_cmpnlt_ps(angle_sq, eps_sq);
    turn_bits |= static_cast<std::uint32_t>(_mm_movemask_ps(turns)) << i;
    _mm_store_ps(&turn_[i], turns);
    const __m128 angle = _mm_sqrt_ps(angle_sq);
    _mm_store_ps(&angle_[i], angle);
    _mm_store_ps(&sin_[i], _mm_mul_ps(angle, half_factor));  // the half angle, until pass 2
    _mm_store_ps(&cos_[i], zero);                            // pass 2 fills the lanes that turn
  }
  // Pass 2, one lane at a time: libm's sine and cosine of each half angle.
  for (std::size_t i = 0; i < n; ++i) {
    if ((turn_bits & (std::uint32_t{1} << i)) == 0) continue;
    const float half = sin_[i];
    sin_[i] = std::sin(half);
    cos_[i] = std::cos(half);
  }
  // Pass 3, four lanes at a time: r * q and set_rotate's normalisation, then
  // each lane's quaternion stored whole into its particle.
  for (std::size_t i = 0; i < n; i += 4) {
    const __m128 turns = _mm_load_ps(&turn_[i]);
    const __m128 qw = _mm_load_ps(&qw_[i]);
    const __m128 qx = _mm_load_ps(&qx_[i]);
    const __m128 qy = _mm_load_ps(&qy_[i]);
    const __m128 qz = _mm_load_ps(&qz_[i]);
    __m128 ow = qw;
    __m128 ox = qx;
    __m128 oy = qy;
    __m128 oz = qz;
    if (_mm_movemask_ps(turns) != 0) {
      const __m128 k = _mm_div_ps(_mm_load_ps(&sin_[i]), _mm_load_ps(&angle_[i]));
      const __m128 rw = _mm_load_ps(&cos_[i]);
      const __m128 rx = _mm_mul_ps(_mm_load_ps(&wx_[i]), k);
      const __m128 ry = _mm_mul_ps(_mm_load_ps(&wy_[i]), k);
      const __m128 rz = _mm_mul_ps(_mm_load_ps(&wz_[i]), k);
      // r * q as glm::qua::operator*= forms it.
      const __m128 pw = _mm_sub_ps(_mm_sub_ps(_mm_sub_ps(_mm_mul_ps(rw, qw), _mm_mul_ps(rx, qx)), _mm_mul_ps(ry, qy)),
                                   _mm_mul_ps(rz, qz));
      const __m128 px = _mm_sub_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(rw, qx), _mm_mul_ps(rx, qw)), _mm_mul_ps(ry, qz)),
                                   _mm_mul_ps(rz, qy));
      const __m128 py = _mm_sub_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(rw, qy), _mm_mul_ps(ry, qw)), _mm_mul_ps(rz, qx)),
                                   _mm_mul_ps(rx, qz));
      const __m128 pz = _mm_sub_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(rw, qz), _mm_mul_ps(rz, qw)), _mm_mul_ps(rx, qy)),
                                   _mm_mul_ps(ry, qx));
      // Frame::set_rotate's normalisation: refused (the parent's orientation
      // kept) unless the length is finite and positive and its inverse finite.
      const __m128 length_sq = _mm_add_ps(
          _mm_add_ps(_mm_add_ps(_mm_mul_ps(pw, pw), _mm_mul_ps(px, px)), _mm_mul_ps(py, py)), _mm_mul_ps(pz, pz));
      const __m128 length = _mm_sqrt_ps(length_sq);
      const __m128 inv = _mm_div_ps(one, length);
      const __m128 adopt = _mm_and_ps(_mm_and_ps(turns, _mm_cmpgt_ps(length, zero)),
                                      _mm_and_ps(_mm_cmple_ps(length, largest), _mm_cmple_ps(inv, largest)));
      const auto select = [&](__m128 turned, __m128 kept) {
        return _mm_or_ps(_mm_and_ps(adopt, turned), _mm_andnot_ps(adopt, kept));
      };
      ow = select(_mm_mul_ps(pw, inv), qw);
      ox = select(_mm_mul_ps(px, inv), qx);
      oy = select(_mm_mul_ps(py, inv), qy);
      oz = select(_mm_mul_ps(pz, inv), qz);
    }
    // One register a lane, in glm::quat's (x, y, z, w) memory order.
    _MM_TRANSPOSE4_PS(ox, oy, oz, ow);
    const auto write = [&](std::size_t lane, __m128 value) {
      if (i + lane >= n) return;
      glm::quat q_lane;
      std::memcpy(&q_lane, &value, sizeof(q_lane));
      out_[i + lane]->set_orientation(q_lane);
    };
    write(0, ox);
    write(1, oy);
    write(2, oz);
    write(3, ow);
  }
#else
  for (std::size_t i = 0; i < n; ++i) {
    if (shared_ != nullptr) {
      const glm::vec3 w = shared_->matrix() * glm::vec3(wx_[i], wy_[i], wz_[i]);
      out_[i]->set_orientation(turn_one(w.x, w.y, w.z, shared_->orientation()));
    } else {
      out_[i]->set_orientation(turn_one(wx_[i], wy_[i], wz_[i], glm::quat(qw_[i], qx_[i], qy_[i], qz_[i])));
    }
  }
#endif
}

}  // namespace dereth::sim
