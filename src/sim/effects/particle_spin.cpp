#include "dereth/sim/effects/particle_spin.hpp"

#include <array>
#include <cstddef>
#include <cstring>
#include <limits>
#include <utility>

#include "dereth/core/sincos.hpp"

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(DERETH_SPIN_SCALAR)
#include <emmintrin.h>
#define DERETH_SPIN_SSE2 1
#endif
// AVX is compiled in for GCC and Clang on x86 whatever the build's flags
// (the functions that use it carry target("avx")) and taken only where the
// CPU has it. "avx" alone, never "fma" (nor "avx2", not needed here): with
// FMA available the compiler could contract a product and a sum into one
// rounding, and the bits would change.
#if defined(DERETH_SPIN_SSE2) && (defined(__GNUC__) || defined(__clang__)) && \
    (defined(__x86_64__) || defined(__i386__)) && !defined(DERETH_SPIN_NO_AVX)
#include <immintrin.h>
#define DERETH_SPIN_AVX 1
#define DERETH_TARGET_AVX __attribute__((target("avx")))
#define DERETH_TARGET_AVX_INLINE __attribute__((target("avx"), always_inline))
#endif

namespace dereth::sim {

namespace {

[[maybe_unused]] constexpr float kEpsilonSq = core::kEpsilon * core::kEpsilon;

// The lanes of a group are written out whole, in glm::quat's memory order
// (x, y, z, w without GLM_FORCE_QUAT_DATA_WXYZ).
static_assert(sizeof(glm::quat) == 4 * sizeof(float));
static_assert(offsetof(glm::quat, x) == 0 && offsetof(glm::quat, y) == 4 && offsetof(glm::quat, z) == 8 &&
              offsetof(glm::quat, w) == 12);

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

void sincos_scalar(const float* x, float* s, float* c, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    const core::SinCos sc = core::sincos(x[i]);
    s[i] = sc.sin;
    c[i] = sc.cos;
  }
}

#if defined(DERETH_SPIN_AVX)
// core::sincos_detail::horner, four lanes a step: c[0] + z * (c[1] + z *
// (...)), from the highest term down, written out step by step (GCC at -O2
// keeps a loop). No lambdas in the AVX functions: a lambda does not inherit
// its function's target.
template <std::size_t kCount, std::size_t... kStep>
DERETH_TARGET_AVX_INLINE inline __m256d horner_avx(const std::array<double, kCount>& c, __m256d z,
                                                   std::index_sequence<kStep...> /*steps*/) noexcept {
  __m256d acc = _mm256_set1_pd(c[kCount - 1]);
  ((acc = _mm256_add_pd(_mm256_set1_pd(c[kCount - 2 - kStep]), _mm256_mul_pd(z, acc))), ...);
  return acc;
}
template <std::size_t kCount>
DERETH_TARGET_AVX_INLINE inline __m256d horner_avx(const std::array<double, kCount>& c, __m256d z) noexcept {
  return horner_avx(c, z, std::make_index_sequence<kCount - 1>{});
}

// a where mask is set, else b (mask lanes all ones or all zeros). And, andnot
// and or rather than blendv, which GCC lowers lane by lane without AVX2.
DERETH_TARGET_AVX_INLINE inline __m256d select_avx(__m256d mask, __m256d a, __m256d b) noexcept {
  return _mm256_or_pd(_mm256_and_pd(mask, a), _mm256_andnot_pd(mask, b));
}
DERETH_TARGET_AVX_INLINE inline __m256 select_avx(__m256 mask, __m256 a, __m256 b) noexcept {
  return _mm256_or_ps(_mm256_and_ps(mask, a), _mm256_andnot_ps(mask, b));
}

// core::sincos of four floats widened to doubles, four doubles a step: the
// same reduction, the same Horner steps and the same one rounding to float
// as core::sincos, each an IEEE double operation (a sum and a product are
// commutative bit for bit, so operand order inside one does not matter). The
// quadrant's selects and signs, which core::sincos takes from the low bits
// of the shifted sum, are taken here from n itself: q = n - 4 * floor(n / 4)
// is exact (|n| < 2^20) and is that same n mod 4 for negative n too, and a
// select or a sign flip changes no bit of the value it moves. The caller
// checks that every lane is finite and under core::sincos's 2^20 limit.
DERETH_TARGET_AVX_INLINE inline void sincos_avx_in_range(__m256d xd, __m128& sin_out, __m128& cos_out) noexcept {
  using namespace core::sincos_detail;
  const __m256d magic = _mm256_set1_pd(kRoundMagic);
  const __m256d shifted = _mm256_add_pd(_mm256_mul_pd(xd, _mm256_set1_pd(kTwoOverPi)), magic);
  const __m256d n = _mm256_sub_pd(shifted, magic);
  const __m256d r = _mm256_sub_pd(_mm256_sub_pd(_mm256_sub_pd(xd, _mm256_mul_pd(n, _mm256_set1_pd(kPiOver2Hi))),
                                                _mm256_mul_pd(n, _mm256_set1_pd(kPiOver2Mid))),
                                  _mm256_mul_pd(n, _mm256_set1_pd(kPiOver2Lo)));
  const __m256d z = _mm256_mul_pd(r, r);
  const __m256d one = _mm256_set1_pd(1.0);
  const __m256d sv = _mm256_mul_pd(r, _mm256_add_pd(one, _mm256_mul_pd(z, horner_avx(kSine, z))));
  const __m256d cv = _mm256_add_pd(one, _mm256_mul_pd(z, horner_avx(kCosine, z)));
  const __m256d q =
      _mm256_sub_pd(n, _mm256_mul_pd(_mm256_set1_pd(4.0), _mm256_floor_pd(_mm256_mul_pd(n, _mm256_set1_pd(0.25)))));
  const __m256d two = _mm256_set1_pd(2.0);
  const __m256d odd =
      _mm256_or_pd(_mm256_cmp_pd(q, one, _CMP_EQ_OQ), _mm256_cmp_pd(q, _mm256_set1_pd(3.0), _CMP_EQ_OQ));
  const __m256d sign_bit = _mm256_set1_pd(-0.0);
  // sin is negated in quadrants 2 and 3, cos in 1 and 2.
  const __m256d sin_sign = _mm256_and_pd(_mm256_cmp_pd(q, two, _CMP_GE_OQ), sign_bit);
  const __m256d cos_sign =
      _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(q, one, _CMP_GE_OQ), _mm256_cmp_pd(q, two, _CMP_LE_OQ)), sign_bit);
  sin_out = _mm256_cvtpd_ps(_mm256_xor_pd(select_avx(odd, cv, sv), sin_sign));
  cos_out = _mm256_cvtpd_ps(_mm256_xor_pd(select_avx(odd, sv, cv), cos_sign));
}

// core::sincos of eight floats: in range, two groups of four doubles; a
// group with any lane out of range (or NaN) takes core::sincos lane by lane,
// as core::sincos4 does.
DERETH_TARGET_AVX_INLINE inline void sincos8_avx(__m256 x, __m256& sin_out, __m256& cos_out) noexcept {
  const __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(x));
  const __m256d hi = _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1));
  const __m256d abs_mask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffff));
  const __m256d limit = _mm256_set1_pd(core::sincos_detail::kLimit);
  const int in_range = _mm256_movemask_pd(_mm256_cmp_pd(_mm256_and_pd(lo, abs_mask), limit, _CMP_LT_OQ)) &
                       _mm256_movemask_pd(_mm256_cmp_pd(_mm256_and_pd(hi, abs_mask), limit, _CMP_LT_OQ));
  if (in_range != 0xF) [[unlikely]] {
    alignas(32) std::array<float, 8> xs;
    alignas(32) std::array<float, 8> ss;
    alignas(32) std::array<float, 8> cs;
    _mm256_store_ps(xs.data(), x);
    sincos_scalar(xs.data(), ss.data(), cs.data(), 8);
    sin_out = _mm256_load_ps(ss.data());
    cos_out = _mm256_load_ps(cs.data());
    return;
  }
  __m128 sin_lo;
  __m128 cos_lo;
  __m128 sin_hi;
  __m128 cos_hi;
  sincos_avx_in_range(lo, sin_lo, cos_lo);
  sincos_avx_in_range(hi, sin_hi, cos_hi);
  sin_out = _mm256_insertf128_ps(_mm256_castps128_ps256(sin_lo), sin_hi, 1);
  cos_out = _mm256_insertf128_ps(_mm256_castps128_ps256(cos_lo), cos_hi, 1);
}

DERETH_TARGET_AVX void sincos_avx(const float* x, float* s, float* c, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 sv;
    __m256 cv;
    sincos8_avx(_mm256_loadu_ps(x + i), sv, cv);
    _mm256_storeu_ps(s + i, sv);
    _mm256_storeu_ps(c + i, cv);
  }
  sincos_scalar(x + i, s + i, c + i, n - i);
}
#endif

}  // namespace

bool spin_path_available(SpinPath path) noexcept {
  switch (path) {
    case SpinPath::Scalar: return true;
    case SpinPath::Sse2:
#if defined(DERETH_SPIN_SSE2)
      return true;
#else
      return false;
#endif
    case SpinPath::Avx:
#if defined(DERETH_SPIN_AVX)
      return __builtin_cpu_supports("avx") != 0;
#else
      return false;
#endif
  }
  return false;
}

SpinPath best_spin_path() noexcept {
  static const SpinPath best = spin_path_available(SpinPath::Avx)    ? SpinPath::Avx
                               : spin_path_available(SpinPath::Sse2) ? SpinPath::Sse2
                                                                     : SpinPath::Scalar;
  return best;
}

void spin_sincos(SpinPath path, const float* x, float* s, float* c, std::size_t n) noexcept {
  switch (path) {
    case SpinPath::Scalar: break;
    case SpinPath::Sse2: {
      std::size_t i = 0;
      for (; i + 4 <= n; i += 4) core::sincos4(x + i, s + i, c + i);
      sincos_scalar(x + i, s + i, c + i, n - i);
      return;
    }
    case SpinPath::Avx:
#if defined(DERETH_SPIN_AVX)
      sincos_avx(x, s, c, n);
      return;
#else
      break;
#endif
  }
  sincos_scalar(x, s, c, n);
}

// The three ways to run a batch's lanes (SpinBatch's friend).
struct SpinKernels {
  static void scalar(SpinBatch& b, std::size_t n) noexcept {
    for (std::size_t i = 0; i < n; ++i) {
      const glm::vec3 w(b.wx_[i], b.wy_[i], b.wz_[i]);
      if (b.shared_ != nullptr) {
        b.out_[i]->set_orientation(b.shared_->rotated(w));
      } else {
        b.out_[i]->set_orientation(turn_one(w, glm::quat(b.qw_[i], b.qx_[i], b.qy_[i], b.qz_[i])));
      }
    }
  }

  // Pads the lanes from n to a whole group of `group` with the identity and
  // no turn.
  static void pad(SpinBatch& b, std::size_t n, std::size_t group) noexcept {
    for (std::size_t i = n; i % group != 0; ++i) {
      b.wx_[i] = b.wy_[i] = b.wz_[i] = 0.0f;
      b.qw_[i] = 1.0f;
      b.qx_[i] = b.qy_[i] = b.qz_[i] = 0.0f;
    }
  }

#if defined(DERETH_SPIN_SSE2)
  static void sse2(SpinBatch& b, std::size_t n) noexcept;
#endif
#if defined(DERETH_SPIN_AVX)
  DERETH_TARGET_AVX static void avx(SpinBatch& b, std::size_t n) noexcept;
#endif
};

#if defined(DERETH_SPIN_SSE2)
// Four lanes at a time with SSE2.
void SpinKernels::sse2(SpinBatch& b, std::size_t n) noexcept {
  pad(b, n, 4);
  const __m128 eps_sq = _mm_set1_ps(kEpsilonSq);
  const __m128 half_factor = _mm_set1_ps(0.5f);
  const __m128 one = _mm_set1_ps(1.0f);
  const __m128 zero = _mm_setzero_ps();
  const __m128 largest = _mm_set1_ps(std::numeric_limits<float>::max());
  // A shared parent's matrix and orientation, in every lane.
  const core::Frame* shared = b.shared_;
  const glm::mat3 m = shared != nullptr ? shared->matrix() : glm::mat3(1.0f);
  const glm::quat q = shared != nullptr ? shared->orientation() : glm::quat(1, 0, 0, 0);
  const __m128 m00 = _mm_set1_ps(m[0][0]), m10 = _mm_set1_ps(m[1][0]), m20 = _mm_set1_ps(m[2][0]);
  const __m128 m01 = _mm_set1_ps(m[0][1]), m11 = _mm_set1_ps(m[1][1]), m21 = _mm_set1_ps(m[2][1]);
  const __m128 m02 = _mm_set1_ps(m[0][2]), m12 = _mm_set1_ps(m[1][2]), m22 = _mm_set1_ps(m[2][2]);
  // One pass, four lanes at a time.
  for (std::size_t i = 0; i < n; i += 4) {
    __m128 wx = _mm_load_ps(&b.wx_[i]);
    __m128 wy = _mm_load_ps(&b.wy_[i]);
    __m128 wz = _mm_load_ps(&b.wz_[i]);
    __m128 qw;
    __m128 qx;
    __m128 qy;
    __m128 qz;
    if (shared != nullptr) {
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
      qw = _mm_load_ps(&b.qw_[i]);
      qx = _mm_load_ps(&b.qx_[i]);
      qy = _mm_load_ps(&b.qy_[i]);
      qz = _mm_load_ps(&b.qz_[i]);
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
      b.out_[i + lane]->set_orientation(q_lane);
    };
    write(0, ox);
    write(1, oy);
    write(2, oz);
    write(3, ow);
  }
}
#endif

#if defined(DERETH_SPIN_AVX)
// Eight lanes at a time with AVX: SSE2's operations one for one, on eight
// floats (and the sines on four doubles) a step.
DERETH_TARGET_AVX void SpinKernels::avx(SpinBatch& b, std::size_t n) noexcept {
  pad(b, n, 8);
  const __m256 eps_sq = _mm256_set1_ps(kEpsilonSq);
  const __m256 half_factor = _mm256_set1_ps(0.5f);
  const __m256 one = _mm256_set1_ps(1.0f);
  const __m256 zero = _mm256_setzero_ps();
  const __m256 largest = _mm256_set1_ps(std::numeric_limits<float>::max());
  const core::Frame* shared = b.shared_;
  const glm::mat3 m = shared != nullptr ? shared->matrix() : glm::mat3(1.0f);
  const glm::quat q = shared != nullptr ? shared->orientation() : glm::quat(1, 0, 0, 0);
  const __m256 m00 = _mm256_set1_ps(m[0][0]), m10 = _mm256_set1_ps(m[1][0]), m20 = _mm256_set1_ps(m[2][0]);
  const __m256 m01 = _mm256_set1_ps(m[0][1]), m11 = _mm256_set1_ps(m[1][1]), m21 = _mm256_set1_ps(m[2][1]);
  const __m256 m02 = _mm256_set1_ps(m[0][2]), m12 = _mm256_set1_ps(m[1][2]), m22 = _mm256_set1_ps(m[2][2]);
  for (std::size_t i = 0; i < n; i += 8) {
    __m256 wx = _mm256_load_ps(&b.wx_[i]);
    __m256 wy = _mm256_load_ps(&b.wy_[i]);
    __m256 wz = _mm256_load_ps(&b.wz_[i]);
    __m256 qw;
    __m256 qx;
    __m256 qy;
    __m256 qz;
    if (shared != nullptr) {
      const __m256 lx = wx;
      const __m256 ly = wy;
      const __m256 lz = wz;
      wx = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(m00, lx), _mm256_mul_ps(m10, ly)), _mm256_mul_ps(m20, lz));
      wy = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(m01, lx), _mm256_mul_ps(m11, ly)), _mm256_mul_ps(m21, lz));
      wz = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(m02, lx), _mm256_mul_ps(m12, ly)), _mm256_mul_ps(m22, lz));
      qw = _mm256_set1_ps(q.w);
      qx = _mm256_set1_ps(q.x);
      qy = _mm256_set1_ps(q.y);
      qz = _mm256_set1_ps(q.z);
    } else {
      qw = _mm256_load_ps(&b.qw_[i]);
      qx = _mm256_load_ps(&b.qx_[i]);
      qy = _mm256_load_ps(&b.qy_[i]);
      qz = _mm256_load_ps(&b.qz_[i]);
    }
    const __m256 angle_sq =
        _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(wx, wx), _mm256_mul_ps(wy, wy)), _mm256_mul_ps(wz, wz));
    // _mm_cmpnlt_ps: not less than, true when unordered.
    const __m256 turns = _mm256_cmp_ps(angle_sq, eps_sq, _CMP_NLT_UQ);
    __m256 ow = qw;
    __m256 ox = qx;
    __m256 oy = qy;
    __m256 oz = qz;
    if (_mm256_movemask_ps(turns) != 0) {
      const __m256 angle = _mm256_sqrt_ps(angle_sq);
      __m256 sine;
      __m256 rw;
      sincos8_avx(_mm256_mul_ps(angle, half_factor), sine, rw);
      const __m256 k = _mm256_div_ps(sine, angle);
      const __m256 rx = _mm256_mul_ps(wx, k);
      const __m256 ry = _mm256_mul_ps(wy, k);
      const __m256 rz = _mm256_mul_ps(wz, k);
      const __m256 pw = _mm256_sub_ps(
          _mm256_sub_ps(_mm256_sub_ps(_mm256_mul_ps(rw, qw), _mm256_mul_ps(rx, qx)), _mm256_mul_ps(ry, qy)),
          _mm256_mul_ps(rz, qz));
      const __m256 px = _mm256_sub_ps(
          _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(rw, qx), _mm256_mul_ps(rx, qw)), _mm256_mul_ps(ry, qz)),
          _mm256_mul_ps(rz, qy));
      const __m256 py = _mm256_sub_ps(
          _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(rw, qy), _mm256_mul_ps(ry, qw)), _mm256_mul_ps(rz, qx)),
          _mm256_mul_ps(rx, qz));
      const __m256 pz = _mm256_sub_ps(
          _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(rw, qz), _mm256_mul_ps(rz, qw)), _mm256_mul_ps(rx, qy)),
          _mm256_mul_ps(ry, qx));
      const __m256 length_sq = _mm256_add_ps(
          _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(pw, pw), _mm256_mul_ps(px, px)), _mm256_mul_ps(py, py)),
          _mm256_mul_ps(pz, pz));
      const __m256 length = _mm256_sqrt_ps(length_sq);
      const __m256 inv = _mm256_div_ps(one, length);
      // _mm_cmpgt_ps / _mm_cmple_ps: ordered, false for NaN.
      const __m256 adopt = _mm256_and_ps(
          _mm256_and_ps(turns, _mm256_cmp_ps(length, zero, _CMP_GT_OQ)),
          _mm256_and_ps(_mm256_cmp_ps(length, largest, _CMP_LE_OQ), _mm256_cmp_ps(inv, largest, _CMP_LE_OQ)));
      ow = select_avx(adopt, _mm256_mul_ps(pw, inv), qw);
      ox = select_avx(adopt, _mm256_mul_ps(px, inv), qx);
      oy = select_avx(adopt, _mm256_mul_ps(py, inv), qy);
      oz = select_avx(adopt, _mm256_mul_ps(pz, inv), qz);
    }
    // _MM_TRANSPOSE4_PS within each half: afterwards r0 holds lane 0's
    // (x, y, z, w) in its low half and lane 4's in its high half, and so on.
    const __m256 t0 = _mm256_unpacklo_ps(ox, oy);
    const __m256 t1 = _mm256_unpackhi_ps(ox, oy);
    const __m256 t2 = _mm256_unpacklo_ps(oz, ow);
    const __m256 t3 = _mm256_unpackhi_ps(oz, ow);
    __m256 rows[4];
    rows[0] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
    rows[1] = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
    rows[2] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
    rows[3] = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
    for (std::size_t lane = 0; lane < 4 && i + lane < n; ++lane) {
      glm::quat q_lane;
      _mm_storeu_ps(&q_lane.x, _mm256_castps256_ps128(rows[lane]));
      b.out_[i + lane]->set_orientation(q_lane);
      if (i + lane + 4 < n) {
        _mm_storeu_ps(&q_lane.x, _mm256_extractf128_ps(rows[lane], 1));
        b.out_[i + lane + 4]->set_orientation(q_lane);
      }
    }
  }
}
#endif

// Frame::rotate (RE cgeometry/CFrame.c) on copies of the staged parents,
// several lanes at a time: every product, sum, quotient and square root is
// the IEEE single-precision operation core::Frame::rotate performs, in its
// order, so each lane's bits are Frame::rotate's.
void SpinBatch::flush() noexcept {
  const std::size_t n = count_;
  count_ = 0;
  if (n == 0) return;
  switch (path_) {
#if defined(DERETH_SPIN_AVX)
    case SpinPath::Avx: SpinKernels::avx(*this, n); return;
#endif
#if defined(DERETH_SPIN_SSE2)
    case SpinPath::Sse2: SpinKernels::sse2(*this, n); return;
#endif
    default: SpinKernels::scalar(*this, n); return;
  }
}

}  // namespace dereth::sim
