#include "dereth/core/rng.hpp"

#include <cmath>

namespace dereth::core {

float Rng::unit() noexcept {
  constexpr float kTwoToMinus24 = 1.0f / 16777216.0f;
  return static_cast<float>(next_u32() >> 8) * kTwoToMinus24;
}

float Rng::uniform(float lo, float hi) noexcept {
  if (!(hi > lo)) {
    return lo;
  }
  const float value = lo + (hi - lo) * unit();
  // Rounding in lo + span*u can land on hi itself; keep the range half-open.
  if (value >= hi) {
    return std::nextafter(hi, lo);
  }
  return value;
}

std::int32_t Rng::uniform_int(std::int32_t lo, std::int32_t hi) noexcept {
  if (hi <= lo) {
    return lo;
  }
  // The span hi - lo + 1 computed in 64 bits: 1 .. 2^32.
  const auto span = static_cast<std::uint64_t>(static_cast<std::int64_t>(hi) - static_cast<std::int64_t>(lo)) + 1u;
  std::uint64_t offset = 0;
  if (span == (std::uint64_t{1} << 32)) {
    offset = next_u32();
  } else {
    std::uint64_t product = static_cast<std::uint64_t>(next_u32()) * span;
    auto low = static_cast<std::uint32_t>(product);
    const auto span32 = static_cast<std::uint32_t>(span);
    if (low < span32) {
      // 2^32 mod span: draws whose low word falls below it are rejected.
      const std::uint32_t threshold = static_cast<std::uint32_t>(0u - span32) % span32;
      while (low < threshold) {
        product = static_cast<std::uint64_t>(next_u32()) * span;
        low = static_cast<std::uint32_t>(product);
      }
    }
    offset = product >> 32;
  }
  return static_cast<std::int32_t>(static_cast<std::int64_t>(lo) + static_cast<std::int64_t>(offset));
}

}  // namespace dereth::core
