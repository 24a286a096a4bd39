#pragma once
// CShadowObj: one cell's reference to an object that overlaps it.

#include <cstdint>

namespace dereth::sim {

class PhysicsObj;
class ObjCell;

struct ShadowObj {
  PhysicsObj* physobj = nullptr;
  ObjCell* cell = nullptr;
  std::uint32_t cell_id = 0;
};

}  // namespace dereth::sim
