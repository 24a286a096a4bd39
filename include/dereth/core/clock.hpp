#pragma once
// The injected clocks: the simulation never reads wall-clock time itself.
// RealClock drives the live client, a replay clock (elsewhere) follows capture
// time, and ManualClock drives tests.

#include <chrono>
#include <cmath>

namespace dereth::core {

using Seconds = std::chrono::duration<double>;

// The frame step of a virtual clock running `rate` frames a second: 1/rate
// rounded up to a multiple of 2^-30 s (under a nanosecond). Frame k's time,
// k times the step, is then exact in a double, so frame cadence never
// depends on rounding: at 60 frames a second every second frame is at least
// MIN_QUANTUM (1/30 s) after the last tick, as on an ideal real clock, where
// k * (1/60) would measure some pairs of frames a rounding error short.
[[nodiscard]] inline double exact_frame_step(double rate) noexcept {
  constexpr double kGrid = 1073741824.0;  // 2^30
  return std::ceil(kGrid / rate) / kGrid;
}

class Clock {
 public:
  Clock() = default;
  Clock(const Clock&) = delete;
  Clock& operator=(const Clock&) = delete;
  virtual ~Clock() = default;

  // Time since the clock's own zero.
  [[nodiscard]] virtual Seconds now() const = 0;
};

// std::chrono::steady_clock, reading 0 at construction.
class RealClock final : public Clock {
 public:
  RealClock() noexcept;
  [[nodiscard]] Seconds now() const override;

 private:
  std::chrono::steady_clock::time_point start_;
};

// A clock that moves only when told to.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(Seconds start = Seconds{0.0}) noexcept : now_(start) {}
  [[nodiscard]] Seconds now() const override { return now_; }
  void set(Seconds time) noexcept { now_ = time; }
  void advance(Seconds delta) noexcept { now_ += delta; }

 private:
  Seconds now_;
};

}  // namespace dereth::core
