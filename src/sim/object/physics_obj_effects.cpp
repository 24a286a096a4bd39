// PhysicsObj, the effects part: CPhysicsObj's effect entry points (the
// FPHook ramps: translucency, luminosity, diffusion, scale, CallPES;
// set_ethereal), RE cphysobj/CPhysicsObj.c. physics_obj.hpp lists the other parts.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>
#include <variant>

#include "dereth/core/log.hpp"
#include "dereth/sim/effects/fp_hook.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

namespace ps = protocol::physics_state;
namespace ts = transient_state;

namespace {

// PhysicsGlobals EPSILON as the FPHook setters compare the ramp time.
constexpr double kMinRampTime = core::kEpsilonDouble;

void add_fp_hook(PhysicsObj& owner, FPHookType type, double delta, float start, float end, std::uint32_t user_data) {
  owner.add_hook_at_head(std::make_unique<FPHook>(type, owner.context().physics_time, delta, start, end, user_data));
}

}  // namespace

// --- CPhysicsObj effect entry points ---------------------------------------------------

// CPhysicsObj::process_fp_hook 0x005135C0
void PhysicsObj::process_fp_hook(FPHookType type, float value, std::uint32_t user_data) {
  PartArray* parts = part_array();
  switch (type) {
    case FPHookType::Scale: set_scale_static(value); break;
    case FPHookType::Translucency: set_translucency_internal(value); break;
    case FPHookType::PartTranslucency:
      if (parts != nullptr) parts->set_part_translucency(user_data, value);
      break;
    case FPHookType::Luminosity:
      if (parts != nullptr) parts->set_part_luminosity(PartArray::kAllParts, value);
      break;
    case FPHookType::PartLuminosity:
      if (parts != nullptr) parts->set_part_luminosity(user_data, value);
      break;
    case FPHookType::Diffusion:
      if (parts != nullptr) parts->set_part_diffusion(PartArray::kAllParts, value);
      break;
    case FPHookType::PartDiffusion:
      if (parts != nullptr) parts->set_part_diffusion(user_data, value);
      break;
    case FPHookType::CallPES: call_pes_internal(user_data, value); break;
  }
}

// CPhysicsObj::SetTranslucencyInternal 0x0050F960
void PhysicsObj::set_translucency_internal(float translucency) {
  if (translucency < translucency_original()) translucency = translucency_original();
  set_translucency(translucency);
}

// CPhysicsObj::SetTranslucency2 0x0050FB50
void PhysicsObj::set_translucency2(float start, float end, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(*this, FPHookType::Translucency, delta, start, end, 0);
  } else {
    set_translucency_internal(end);
  }
}

// CPhysicsObj::SetPartTranslucency 0x00511730
void PhysicsObj::set_part_translucency(std::uint32_t part, float start, float end, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(*this, FPHookType::PartTranslucency, delta, start, end, part);
  } else if (PartArray* parts = part_array(); parts != nullptr) {
    parts->set_part_translucency(part, end);
  }
}

// CPhysicsObj::SetLuminosity 0x00511890
void PhysicsObj::set_luminosity(float start, float end, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(*this, FPHookType::Luminosity, delta, start, end, 0);
  } else if (PartArray* parts = part_array(); parts != nullptr) {
    parts->set_part_luminosity(PartArray::kAllParts, end);
  }
}

// CPhysicsObj::SetPartLuminosity 0x005117E0
void PhysicsObj::set_part_luminosity(std::uint32_t part, float start, float end, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(*this, FPHookType::PartLuminosity, delta, start, end, part);
  } else if (PartArray* parts = part_array(); parts != nullptr) {
    parts->set_part_luminosity(part, end);
  }
}

// CPhysicsObj::SetDiffusion 0x005119E0
void PhysicsObj::set_diffusion(float start, float end, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(*this, FPHookType::Diffusion, delta, start, end, 0);
  } else if (PartArray* parts = part_array(); parts != nullptr) {
    parts->set_part_diffusion(PartArray::kAllParts, end);
  }
}

// CPhysicsObj::SetPartDiffusion 0x00511930
void PhysicsObj::set_part_diffusion(std::uint32_t part, float start, float end, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(*this, FPHookType::PartDiffusion, delta, start, end, part);
  } else if (PartArray* parts = part_array(); parts != nullptr) {
    parts->set_part_diffusion(part, end);
  }
}

// CPhysicsObj::SetScale 0x005136A0
void PhysicsObj::set_scale(float scale, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(*this, FPHookType::Scale, delta, this->scale(), scale, 0);
  } else {
    set_scale_static(scale);
  }
}

// CPhysicsObj::CallPES 0x00511AF0
void PhysicsObj::call_pes(std::uint32_t script, float pause) {
  if (static_cast<double>(pause) >= kMinRampTime) {
    const float delay = context().rng.uniform(0.0f, pause);
    add_fp_hook(*this, FPHookType::CallPES, static_cast<double>(delay), 0.0f, 1.0f, script);
  } else if (in_cell()) {
    play_script_internal(script);
  }
}

// CPhysicsObj::CallPESInternal 0x00511AC0
void PhysicsObj::call_pes_internal(std::uint32_t script, float value) {
  if (value >= 1.0f && in_cell()) play_script_internal(script);
}

// CPhysicsObj::set_ethereal 0x00511C40
bool PhysicsObj::set_ethereal(bool ethereal, bool /*send_event*/) {
  if (ethereal) {
    state_ |= ps::Ethereal;
    transient_state_ &= ~ts::CheckEthereal;
    return true;
  }
  state_ &= ~ps::Ethereal;
  // An overlap keeps it ethereal, to be retried (acclient.c 319063-319070).
  if (parent_ == nullptr && cell_ != nullptr && ethereal_check_for_collisions()) {
    state_ |= ps::Ethereal;
    transient_state_ |= ts::CheckEthereal;
    return false;
  }
  transient_state_ &= ~ts::CheckEthereal;
  return true;
}

}  // namespace dereth::sim
