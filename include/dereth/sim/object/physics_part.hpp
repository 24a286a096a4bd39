#pragma once
// PhysicsPart: what dereth keeps of one retail CPhysicsPart (RE
// cphysobj/CPhysicsPart.c) in a DatPartArray: its GfxObj, block-local frame,
// mesh scale and render state. Its collision half is gfx_obj_physics.hpp.

#include <cstdint>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"

namespace dereth::sim {

// CPhysicsPart: what dereth keeps of one part.
struct PhysicsPart {
  std::uint32_t gfx_obj = 0;
  core::Frame frame;             // CPhysicsPart::pos.frame (block-local)
  glm::vec3 gfxobj_scale{1.0f};  // mesh scale: default scale times object scale
  float translucency = 0.0f;
  float luminosity = 0.0f;
  float diffusion = 1.0f;
  bool no_draw = false;
};

}  // namespace dereth::sim
