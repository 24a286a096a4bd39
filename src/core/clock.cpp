#include "dereth/core/clock.hpp"

namespace dereth::core {

RealClock::RealClock() noexcept : start_(std::chrono::steady_clock::now()) {}

Seconds RealClock::now() const {
  return std::chrono::duration_cast<Seconds>(std::chrono::steady_clock::now() - start_);
}

}  // namespace dereth::core
