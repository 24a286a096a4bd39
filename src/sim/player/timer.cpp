#include "dereth/sim/player/timer.hpp"

#include <cmath>

namespace dereth::sim {

// Timer::set_time 0x0040F840
void Timer::set_time(double server_time, double local_now) noexcept {
  if (!std::isfinite(server_time) || !std::isfinite(local_now)) return;
  synced_ = true;
  if (server_time > cur_time(local_now) + 0.000000001) offset_ = server_time - local_now;
}

}  // namespace dereth::sim
