#pragma once
// The injected clocks: the simulation never reads wall-clock time itself.
// RealClock drives the live client, a replay clock (elsewhere) follows capture
// time, and ManualClock drives tests.

#include <chrono>

namespace dereth::core {

using Seconds = std::chrono::duration<double>;

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
