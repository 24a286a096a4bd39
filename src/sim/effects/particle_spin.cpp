#include "dereth/sim/effects/particle_spin.hpp"

#include <cstddef>
#include <cstring>
#include <limits>

#include "dereth/core/sincos.hpp"

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(DERETH_SPIN_SCALAR)
#include <emmintrin.h>
#define DERETH_SPIN_SSE2 1
#endif

namespace dereth::sim {

namespace {

#if defined(DERETH_SPIN_SSE2)
constexpr float kEpsilonSq = core::kEpsilon * core::kEpsilon;

// The four lanes of a group are written out whole, in glm::quat's memory
// order (x, y, z, w without GLM_FORCE_QUAT_DATA_WXYZ).
static_assert(sizeof(glm::quat) == 4 * sizeof(float));
static_assert(offsetof(glm::quat, x) == 0 && offsetof(glm::quat, y) == 4 && offsetof(glm::quat, z) == 8 &&
              offsetof(glm::quat, w) == 12);
#else
// One lane: Frame::grotate's product and set_rotate's normalisation, the old
// orientation kept wherever Frame::rotate keeps it (core::Frame's own steps,
// as core::Frame::rotated takes them).
glm::quat turn_one(const glm::vec3& world_axis_angle, const glm::quat& q) noexcept {
  glm::quat product;
  glm::quat normalised;
  if (core::detail::grotation(q, world_axis_angle, product) && core::detail::normalise(product, normalised)) {
    return normalised;
  }
  return q;
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
  // One pass, four lanes at a time.
  for (std::size_t i = 0; i < n; i += 4) {
    __m128 wx = _mm_load_ps(&wx_[i]);
    __m128 wy = _mm_load_ps(&wy_[i]);
    __m128 wz = _mm_load_ps(&wz_[i]);
    __m128 qw;
    __m128 qx;
    __m128 qy;
    __m128 qz;
    if (shared_ != nullptr) {
      // Frame::localtoglobalvec: m * v, as glm forms it.
      const __m128 lx = wx;
      const __m128 ly = wy;
      const __m128 lz = wz;
      wx = _mm_add_ps(_mm_add_ps(_mm_mul_ps(m00, lx), _mm_mul_ps(m10, ly)), _mm_mul_ps(m20, lz));
      wy = _mm_add_ps(_mm_add_ps(_mm_mul_ps(m01, lx), _mm_mul_ps(m11, ly)), _mm_mul_ps(m21, lz));
      wz = _mm_add_ps(_mm_add_ps(_mm_mul_ps(m02, lx), _mm_mul_ps(m12, ly)), _mm_mul_ps(m22, lz));
      qw = _mm_set1_ps(q.w);
      qx = _mm_set1_ps(q.x);
      qy = _mm_set1_ps(q.y);
      qz = _mm_set1_ps(q.z);
    } else {
      qw = _mm_load_ps(&qw_[i]);
      qx = _mm_load_ps(&qx_[i]);
      qy = _mm_load_ps(&qy_[i]);
      qz = _mm_load_ps(&qz_[i]);
    }
    // Frame::grotate's angle. Nothing turns when |w|^2 < EPSILON^2 (NaN
    // turns, and is then refused by the normalisation).
    const __m128 angle_sq = _mm_add_ps(_mm_add_ps(_mm_mul_ps(wx, wx), _mm_mul_ps(wy, wy)), _mm_mul_ps(wz, wz));
    const __m128 turns = _mm_cmpnlt_ps(angle_sq, eps_sq);
    __m128 ow = qw;
    __m128 ox = qx;
    __m128 oy = qy;
    __m128 oz = qz;
    if (_mm_movemask_ps(turns) != 0) {
      // core::sincos of each half angle (lanes that do not turn are taken
      // too, and their results never kept).
      const __m128 angle = _mm_sqrt_ps(angle_sq);
      alignas(16) std::array<float, 4> half;
      alignas(16) std::array<float, 4> sine;
      alignas(16) std::array<float, 4> cosine;
      _mm_store_ps(half.data(), _mm_mul_ps(angle, half_factor));
      core::sincos4(half.data(), sine.data(), cosine.data());
      const __m128 k = _mm_div_ps(_mm_load_ps(sine.data()), angle);
      const __m128 rw = _mm_load_ps(cosine.data());
      const __m128 rx = _mm_mul_ps(wx, k);
      const __m128 ry = _mm_mul_ps(wy, k);
      const __m128 rz = _mm_mul_ps(wz, k);
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
    const glm::vec3 w(wx_[i], wy_[i], wz_[i]);
    if (shared_ != nullptr) {
      out_[i]->set_orientation(shared_->rotated(w));
    } else {
      out_[i]->set_orientation(turn_one(w, glm::quat(qw_[i], qx_[i], qy_[i], qz_[i])));
    }
  }
#endif
}

}  // namespace dereth::sim
