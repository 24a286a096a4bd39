#pragma once
// The sine and cosine of a float, as dereth's frame math takes them
// (core::Frame's turns and the spinning particles). Retail's Frame::grotate
// takes x87 `sin`/`cos` of the half angle in extended precision; dereth keeps
// its frame math in float, so it takes both here in double precision and
// rounds each once to float. That is the correctly rounded float almost
// always (the double result is within about 2^-52 of the true value, so only
// a true value that close to a tie between two floats can round the other
// way), it is the same on every x86-64 CPU (libm's `sinf` picks its code by
// CPU), and it runs four lanes at once (sincos4) with the same bits.
//
// Range: |x| < 2^20. Beyond that, and for NaN and infinities, the answer is
// libm's `std::sin`/`std::cos` of the float (no frame turns that far).
#include <bit>
#include <cmath>
#include <cstdint>

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(DERETH_SINCOS_SCALAR)
#include <emmintrin.h>
#define DERETH_SINCOS_SSE2 1
#endif

namespace dereth::core {

struct SinCos {
  float sin;
  float cos;
};

namespace sincos_detail {

inline constexpr double kLimit = 0x1p20;
inline constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
// pi/2 in three parts (Cody and Waite): the first two have 33 significant
// bits, so n * part is exact for |n| < 2^20.
inline constexpr double kPiOver2Hi = 0x1.921fb544p+0;
inline constexpr double kPiOver2Mid = 0x1.0b4611a6p-34;
inline constexpr double kPiOver2Lo = 0x1.3198a2e037073p-69;
// Adding 1.5 * 2^52 rounds to the nearest integer, which then sits in the
// low bits of the sum's mantissa.
inline constexpr double kRoundMagic = 0x1.8p52;
// Taylor coefficients: on |r| <= pi/4 the first omitted terms (r^17/17!,
// r^18/18!) are below half a double ulp of the result.
inline constexpr double kS1 = -1.0 / 6.0;
inline constexpr double kS2 = 1.0 / 120.0;
inline constexpr double kS3 = -1.0 / 5040.0;
inline constexpr double kS4 = 1.0 / 362880.0;
inline constexpr double kS5 = -1.0 / 39916800.0;
inline constexpr double kS6 = 1.0 / 6227020800.0;
inline constexpr double kS7 = -1.0 / 1307674368000.0;
inline constexpr double kC1 = -1.0 / 2.0;
inline constexpr double kC2 = 1.0 / 24.0;
inline constexpr double kC3 = -1.0 / 720.0;
inline constexpr double kC4 = 1.0 / 40320.0;
inline constexpr double kC5 = -1.0 / 3628800.0;
inline constexpr double kC6 = 1.0 / 479001600.0;
inline constexpr double kC7 = -1.0 / 87178291200.0;
inline constexpr double kC8 = 1.0 / 20922789888000.0;

}  // namespace sincos_detail

// Sine and cosine of x, each rounded once from double precision.
[[gnu::always_inline]] inline SinCos sincos(float x) noexcept {
  using namespace sincos_detail;
  const double xd = x;
  if (!(std::fabs(xd) < kLimit)) return {std::sin(x), std::cos(x)};
  const double shifted = xd * kTwoOverPi + kRoundMagic;
  const double n = shifted - kRoundMagic;
  const auto quadrant = static_cast<std::uint32_t>(std::bit_cast<std::uint64_t>(shifted)) & 3u;
  const double r = ((xd - n * kPiOver2Hi) - n * kPiOver2Mid) - n * kPiOver2Lo;
  const double z = r * r;
  // r * (1 + z * P), not r + r * z * P: the latter turns sin(-0) into +0.
  const double s = r * (1.0 + z * (kS1 + z * (kS2 + z * (kS3 + z * (kS4 + z * (kS5 + z * (kS6 + z * kS7)))))));
  const double c = 1.0 + z * (kC1 + z * (kC2 + z * (kC3 + z * (kC4 + z * (kC5 + z * (kC6 + z * (kC7 + z * kC8)))))));
  double sin_x = (quadrant & 1u) != 0 ? c : s;
  double cos_x = (quadrant & 1u) != 0 ? s : c;
  if ((quadrant & 2u) != 0) sin_x = -sin_x;
  if (((quadrant + 1u) & 2u) != 0) cos_x = -cos_x;
  return {static_cast<float>(sin_x), static_cast<float>(cos_x)};
}

// sincos of four lanes: s[i], c[i] get exactly sincos(x[i]). The arrays may
// not overlap x.
inline void sincos4(const float* x, float* s, float* c) noexcept {
#if defined(DERETH_SINCOS_SSE2)
  using namespace sincos_detail;
  const __m128 xf = _mm_loadu_ps(x);
  const __m128d limit = _mm_set1_pd(kLimit);
  const __m128d abs_mask = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffff));
  const __m128d lo = _mm_cvtps_pd(xf);
  const __m128d hi = _mm_cvtps_pd(_mm_movehl_ps(xf, xf));
  // Any lane out of range (or NaN) takes the scalar path, lane by lane.
  const int in_range = _mm_movemask_pd(_mm_cmplt_pd(_mm_and_pd(lo, abs_mask), limit)) &
                       _mm_movemask_pd(_mm_cmplt_pd(_mm_and_pd(hi, abs_mask), limit));
  if (in_range != 3) {
    for (int i = 0; i < 4; ++i) {
      const SinCos sc = sincos(x[i]);
      s[i] = sc.sin;
      c[i] = sc.cos;
    }
    return;
  }
  const auto half = [&](__m128d xd, __m128& sin_out, __m128& cos_out) {
    const __m128d magic = _mm_set1_pd(kRoundMagic);
    const __m128d shifted = _mm_add_pd(_mm_mul_pd(xd, _mm_set1_pd(kTwoOverPi)), magic);
    const __m128d n = _mm_sub_pd(shifted, magic);
    const __m128d r = _mm_sub_pd(
        _mm_sub_pd(_mm_sub_pd(xd, _mm_mul_pd(n, _mm_set1_pd(kPiOver2Hi))), _mm_mul_pd(n, _mm_set1_pd(kPiOver2Mid))),
        _mm_mul_pd(n, _mm_set1_pd(kPiOver2Lo)));
    const __m128d z = _mm_mul_pd(r, r);
    const auto step = [&](__m128d acc, double k) { return _mm_add_pd(_mm_set1_pd(k), _mm_mul_pd(z, acc)); };
    __m128d ps = _mm_set1_pd(kS7);
    ps = step(ps, kS6);
    ps = step(ps, kS5);
    ps = step(ps, kS4);
    ps = step(ps, kS3);
    ps = step(ps, kS2);
    ps = step(ps, kS1);
    const __m128d sv = _mm_mul_pd(r, _mm_add_pd(_mm_set1_pd(1.0), _mm_mul_pd(z, ps)));
    __m128d pc = _mm_set1_pd(kC8);
    pc = step(pc, kC7);
    pc = step(pc, kC6);
    pc = step(pc, kC5);
    pc = step(pc, kC4);
    pc = step(pc, kC3);
    pc = step(pc, kC2);
    pc = step(pc, kC1);
    const __m128d cv = _mm_add_pd(_mm_set1_pd(1.0), _mm_mul_pd(z, pc));
    // Each lane's quadrant in both halves of its 64 bits.
    const __m128i q = _mm_shuffle_epi32(_mm_castpd_si128(shifted), _MM_SHUFFLE(2, 2, 0, 0));
    const __m128i one = _mm_set1_epi32(1);
    const __m128i two = _mm_set1_epi32(2);
    const __m128d odd = _mm_castsi128_pd(_mm_cmpeq_epi32(_mm_and_si128(q, one), one));
    const __m128i sign_bit = _mm_set1_epi64x(static_cast<std::int64_t>(0x8000000000000000ull));
    const __m128d sin_sign = _mm_castsi128_pd(_mm_and_si128(_mm_slli_epi32(_mm_and_si128(q, two), 30), sign_bit));
    const __m128d cos_sign =
        _mm_castsi128_pd(_mm_and_si128(_mm_slli_epi32(_mm_and_si128(_mm_add_epi32(q, one), two), 30), sign_bit));
    const __m128d sin_x = _mm_xor_pd(_mm_or_pd(_mm_and_pd(odd, cv), _mm_andnot_pd(odd, sv)), sin_sign);
    const __m128d cos_x = _mm_xor_pd(_mm_or_pd(_mm_and_pd(odd, sv), _mm_andnot_pd(odd, cv)), cos_sign);
    sin_out = _mm_cvtpd_ps(sin_x);
    cos_out = _mm_cvtpd_ps(cos_x);
  };
  __m128 sin_lo;
  __m128 cos_lo;
  __m128 sin_hi;
  __m128 cos_hi;
  half(lo, sin_lo, cos_lo);
  half(hi, sin_hi, cos_hi);
  _mm_storeu_ps(s, _mm_movelh_ps(sin_lo, sin_hi));
  _mm_storeu_ps(c, _mm_movelh_ps(cos_lo, cos_hi));
#else
  for (int i = 0; i < 4; ++i) {
    const SinCos sc = sincos(x[i]);
    s[i] = sc.sin;
    c[i] = sc.cos;
  }
#endif
}

}  // namespace dereth::core
