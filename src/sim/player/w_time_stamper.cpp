#include "dereth/sim/player/w_time_stamper.hpp"

#include <cstdlib>

namespace dereth::sim {

// WTimeStamper::UpdateTS 0x006B2D70
bool WTimeStamper::update_ts(std::uint32_t key, std::uint8_t new_ts) {
  for (auto& [k, held] : stamps_) {
    if (k != key) continue;
    const int distance = std::abs(static_cast<int>(new_ts) - static_cast<int>(held));
    const bool older = distance > 127 ? held < new_ts : new_ts < held;
    if (older) return false;
    held = new_ts;
    return true;
  }
  stamps_.emplace_back(key, new_ts);
  return true;
}

}  // namespace dereth::sim
