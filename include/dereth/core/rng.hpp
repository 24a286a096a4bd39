#pragma once
// The seeded deterministic generator the world owns (CallPES pauses, particle
// spread), so a replay reproduces every draw. The core is std::mt19937, whose
// output sequence the C++ standard fixes; the float and integer mappings are
// our own bit math, because std::uniform_*_distribution output is
// implementation-defined and would differ between standard libraries.

#include <cstdint>
#include <random>

namespace dereth::core {

class Rng {
 public:
  static constexpr std::uint32_t kDefaultSeed = 5489u;  // std::mt19937's default

  explicit Rng(std::uint32_t seed = kDefaultSeed) noexcept : engine_(seed) {}

  // Restarts the sequence from `seed`.
  void seed(std::uint32_t seed) noexcept { engine_.seed(seed); }

  // The next raw 32-bit value.
  [[nodiscard]] std::uint32_t next_u32() noexcept { return static_cast<std::uint32_t>(engine_()); }

  // A float in [0, 1): the top 24 bits of one draw times 2^-24 (exact).
  [[nodiscard]] float unit() noexcept;

  // A float in [lo, hi) from one draw; returns lo when hi <= lo.
  [[nodiscard]] float uniform(float lo, float hi) noexcept;

  // An integer in [lo, hi], both inclusive, without modulo bias (Lemire's
  // multiply-and-reject); returns lo when hi <= lo.
  [[nodiscard]] std::int32_t uniform_int(std::int32_t lo, std::int32_t hi) noexcept;

 private:
  std::mt19937 engine_;
};

}  // namespace dereth::core
