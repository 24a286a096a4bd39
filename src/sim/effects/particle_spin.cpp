#include "dereth/sim/effects/particle_spin.hpp"

#include <cmath>
#include <limits>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define DERETH_SPIN_SSE2 1
#endif

namespace dereth::sim {

namespace {

constexpr float kEpsilonSq = core::kEpsilon * core::kEpsilon;

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
  for (std::size_t i = 0; i < n; i += 4) {
    const __m128 wx = _mm_load_ps(&wx_[i]);
    const __m128 wy = _mm_load_ps(&wy_[i]);
    const __m128 wz = _mm_load_ps(&wz_[i]);
    // Frame::grotate: nothing to turn when |w|^2 < EPSILON^2 (NaN turns, and
    // is then refused by the normalisation below).
    const __m128 angle_sq = _mm_add_ps(_mm_add_ps(_mm_mul_ps(wx, wx), _mm_mul_ps(wy, wy)), _mm_mul_ps(wz, wz));
    const __m128 turns = _mm_cmpnlt_ps(angle_sq, eps_sq);
    const int turn_bits = _mm_movemask_ps(turns);
    if (turn_bits == 0) {  // every lane keeps its parent's orientation
      for (std::size_t lane = 0; lane < 4 && i + lane < n; ++lane) {
        out_[i + lane]->set_orientation(glm::quat(qw_[i + lane], qx_[i + lane], qy_[i + lane], qz_[i + lane]));
      }
      continue;
    }
    const __m128 angle = _mm_sqrt_ps(angle_sq);
    alignas(16) float half[4];
    _mm_store_ps(half, _mm_mul_ps(angle, half_factor));
    alignas(16) float sines[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    alignas(16) float cosines[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int lane = 0; lane < 4; ++lane) {
      if ((turn_bits & (1 << lane)) == 0) continue;
      sines[lane] = std::sin(half[lane]);
      cosines[lane] = std::cos(half[lane]);
    }
    const __m128 k = _mm_div_ps(_mm_load_ps(sines), angle);
    const __m128 rw = _mm_load_ps(cosines);
    const __m128 rx = _mm_mul_ps(wx, k);
    const __m128 ry = _mm_mul_ps(wy, k);
    const __m128 rz = _mm_mul_ps(wz, k);
    const __m128 qw = _mm_load_ps(&qw_[i]);
    const __m128 qx = _mm_load_ps(&qx_[i]);
    const __m128 qy = _mm_load_ps(&qy_[i]);
    const __m128 qz = _mm_load_ps(&qz_[i]);
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
    alignas(16) float ow[4];
    alignas(16) float ox[4];
    alignas(16) float oy[4];
    alignas(16) float oz[4];
    const auto select = [&](__m128 turned, __m128 kept) {
      return _mm_or_ps(_mm_and_ps(adopt, turned), _mm_andnot_ps(adopt, kept));
    };
    _mm_store_ps(ow, select(_mm_mul_ps(pw, inv), qw));
    _mm_store_ps(ox, select(_mm_mul_ps(px, inv), qx));
    _mm_store_ps(oy, select(_mm_mul_ps(py, inv), qy));
    _mm_store_ps(oz, select(_mm_mul_ps(pz, inv), qz));
    for (std::size_t lane = 0; lane < 4 && i + lane < n; ++lane) {
      out_[i + lane]->set_orientation(glm::quat(ow[lane], ox[lane], oy[lane], oz[lane]));
    }
  }
#else
  for (std::size_t i = 0; i < n; ++i) {
    out_[i]->set_orientation(turn_one(wx_[i], wy_[i], wz_[i], glm::quat(qw_[i], qx_[i], qy_[i], qz_[i])));
  }
#endif
}

}  // namespace dereth::sim
