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
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>

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
// Taylor coefficients, (-1)^(k+1) / (first + 2k)! for k = 0, 1, ...: the
// sine's from r^3 (seven, to r^15), the cosine's from r^2 (eight, to r^16).
// On |r| <= pi/4 the first omitted terms (r^17/17!, r^18/18!) are below half
// a double ulp of the result. Each factorial is exact in a double (n <= 18),
// so each coefficient is the one rounding of 1 / n!.
template <int kFirst, std::size_t kCount>
consteval std::array<double, kCount> taylor_terms() {
  std::array<double, kCount> out{};
  double factorial = 1.0;
  int n = 1;
  for (std::size_t k = 0; k < kCount; ++k) {
    while (n < kFirst + 2 * static_cast<int>(k)) factorial *= ++n;
    out[k] = (k % 2 == 0 ? -1.0 : 1.0) / factorial;
  }
  return out;
}
inline constexpr auto kSine = taylor_terms<3, 7>();
inline constexpr auto kCosine = taylor_terms<2, 8>();

// Horner's rule from the highest term down: c[0] + z * (c[1] + z * (...)),
// in one lane and in two.
template <std::size_t kCount>
[[gnu::always_inline]] inline double horner(const std::array<double, kCount>& c, double z) noexcept {
  // Written out term by term here and in the two-lane form (GCC at -O2
  // keeps a loop, three instructions a term more): acc = c[k] + z * acc for
  // k = kCount - 2 down to 0.
  return [&]<std::size_t... kI>(std::index_sequence<kI...>) __attribute__((always_inline)) {
    double acc = c[kCount - 1];
    ((acc = c[kCount - 2 - kI] + z * acc), ...);
    return acc;
  }
  (std::make_index_sequence<kCount - 1>{});
}
#if defined(DERETH_SINCOS_SSE2)
template <std::size_t kCount>
[[gnu::always_inline]] inline __m128d horner(const std::array<double, kCount>& c, __m128d z) noexcept {
  return [&]<std::size_t... kI>(std::index_sequence<kI...>) __attribute__((always_inline)) {
    __m128d acc = _mm_set1_pd(c[kCount - 1]);
    ((acc = _mm_add_pd(_mm_set1_pd(c[kCount - 2 - kI]), _mm_mul_pd(z, acc))), ...);
    return acc;
  }
  (std::make_index_sequence<kCount - 1>{});
}
#endif

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
  const double s = r * (1.0 + z * horner(kSine, z));
  const double c = 1.0 + z * horner(kCosine, z);
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
    const __m128d sv = _mm_mul_pd(r, _mm_add_pd(_mm_set1_pd(1.0), _mm_mul_pd(z, horner(kSine, z))));
    const __m128d cv = _mm_add_pd(_mm_set1_pd(1.0), _mm_mul_pd(z, horner(kCosine, z)));
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
