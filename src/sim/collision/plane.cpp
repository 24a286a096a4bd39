#include "dereth/sim/collision/plane.hpp"

#include <cmath>

#include "dereth/core/frame.hpp"

namespace dereth::sim {

// Plane::operator== 0x006B3DD0
bool plane_equal(const Plane& a, const Plane& b) noexcept {
  return core::x87_diff(a.normal.x, b.normal.x) <= core::kEpsilonDouble &&
         core::x87_diff(a.normal.y, b.normal.y) <= core::kEpsilonDouble &&
         core::x87_diff(a.normal.z, b.normal.z) <= core::kEpsilonDouble &&
         core::x87_diff(a.d, b.d) < core::kEpsilonDouble;
}

}  // namespace dereth::sim
