#include "dereth/core/sincos.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

namespace {

using dereth::core::SinCos;
using dereth::core::sincos;
using dereth::core::sincos4;

std::uint32_t bits(float f) {
  return std::bit_cast<std::uint32_t>(f);
}

// The float nearest the true sine and cosine: x87 `sinl`/`cosl` (64-bit
// significands, like retail's fsin) rounded to float.
SinCos reference(float x) {
  return {static_cast<float>(std::sin(static_cast<long double>(x))),
          static_cast<float>(std::cos(static_cast<long double>(x)))};
}

// Random floats in (-limit, limit), plus the floats nearest to multiples of
// pi/2 (where the reduction cancels most) and tiny ones.
std::vector<float> samples(float limit, std::size_t count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-limit, limit);
  std::vector<float> out;
  out.reserve(count + 2000);
  for (std::size_t i = 0; i < count; ++i) out.push_back(uniform(rng));
  for (int k = -500; k <= 500; ++k) {
    const float near = static_cast<float>(k * std::numbers::pi / 2.0);
    if (std::fabs(near) < limit) {
      out.push_back(near);
      out.push_back(std::nextafter(near, 0.0f));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("core::sincos is the correctly rounded float sine and cosine over the frame math range", "[core][sincos]") {
  // Frame::grotate (0x005357A0) takes sin and cos of the half angle in extended
  // precision; dereth rounds a double-precision result once. Seeded samples
  // of every magnitude up to 2^20 agree with the extended-precision answer
  // rounded to float, bit for bit (libm's sinf misses it on about 1 in 60).
  std::size_t checked = 0;
  for (const float limit : {0.01f, 1.0f, 4.0f, 100.0f, 5000.0f, 1048575.0f}) {
    for (const float x : samples(limit, 50'000, 7u + static_cast<std::uint32_t>(limit))) {
      const SinCos got = sincos(x);
      const SinCos want = reference(x);
      INFO("x = " << x);
      REQUIRE(bits(got.sin) == bits(want.sin));
      REQUIRE(bits(got.cos) == bits(want.cos));
      ++checked;
    }
  }
  CHECK(checked > 300'000);
}

TEST_CASE("core::sincos keeps the sign of zero and returns tiny angles as they are", "[core][sincos]") {
  CHECK(bits(sincos(0.0f).sin) == bits(0.0f));
  CHECK(bits(sincos(-0.0f).sin) == bits(-0.0f));
  CHECK(sincos(0.0f).cos == 1.0f);
  CHECK(sincos(-0.0f).cos == 1.0f);
  for (const float x : {1e-20f, -1e-20f, 1e-5f, -2e-4f, std::numeric_limits<float>::denorm_min()}) {
    INFO("x = " << x);
    CHECK(bits(sincos(x).sin) == bits(x));
    CHECK(sincos(x).cos == 1.0f);
  }
}

TEST_CASE("core::sincos hands angles beyond 2^20 and non-finite ones to libm", "[core][sincos]") {
  for (const float x : {1048576.0f, -2097152.5f, 3.0e9f, -1.0e30f}) {
    INFO("x = " << x);
    CHECK(bits(sincos(x).sin) == bits(std::sin(x)));
    CHECK(bits(sincos(x).cos) == bits(std::cos(x)));
  }
  CHECK(std::isnan(sincos(std::numeric_limits<float>::quiet_NaN()).sin));
  CHECK(std::isnan(sincos(std::numeric_limits<float>::quiet_NaN()).cos));
  CHECK(std::isnan(sincos(std::numeric_limits<float>::infinity()).sin));
  CHECK(std::isnan(sincos(-std::numeric_limits<float>::infinity()).cos));
}

TEST_CASE("core::sincos4 gives each lane exactly what core::sincos gives it", "[core][sincos]") {
  std::vector<float> xs = samples(200.0f, 40'000, 99u);
  // Groups with a lane out of range or non-finite take the scalar path.
  xs.insert(xs.end(), {0.5f, std::numeric_limits<float>::quiet_NaN(), -0.0f, 3.0f, 1.0f, 2.0f, 4.0e7f, -0.25f, -0.0f,
                       0.0f, std::numeric_limits<float>::infinity(), 1e-30f});
  while (xs.size() % 4 != 0) xs.push_back(1.0f);
  for (std::size_t i = 0; i < xs.size(); i += 4) {
    std::array<float, 4> s{};
    std::array<float, 4> c{};
    sincos4(&xs[i], s.data(), c.data());
    for (std::size_t lane = 0; lane < 4; ++lane) {
      const SinCos one = sincos(xs[i + lane]);
      INFO("x = " << xs[i + lane]);
      REQUIRE(bits(s[lane]) == bits(one.sin));
      REQUIRE(bits(c[lane]) == bits(one.cos));
    }
  }
}
