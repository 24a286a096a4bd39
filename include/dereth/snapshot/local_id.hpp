#pragma once
// The id the render snapshot names objects by (seed retail-projectile-vfx
// section 13, invariant 1).

#include <cstdint>

namespace dereth::sim {

// The canonical local id of a server GUID (seed section 13, invariant 1): the
// SmartBox assigns it the first time the GUID materialises, keeps it for every
// later generation of that GUID and never reuses it. None (0) is never issued.
enum class LocalId : std::uint32_t { None = 0 };

}  // namespace dereth::sim
