// PhysicsObj, the effects part: CPhysicsObj's effect entry points as free
// functions over the object (the FPHook ramps: translucency, luminosity,
// diffusion, scale, CallPES; set_ethereal), declared in
// effects/effects.hpp beside the Effects they feed (RE
// cphysobj/CPhysicsObj.c). physics_obj.hpp lists the other parts.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>
#include <variant>

#include "dereth/core/log.hpp"
#include "dereth/sim/effects/effects.hpp"
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
void process_fp_hook(PhysicsObj& owner, FPHookType type, float value, std::uint32_t user_data) {
  PartArray* parts = owner.part_array();
  switch (type) {
    case FPHookType::Scale: owner.set_scale_static(value); break;
    case FPHookType::Translucency: set_translucency_internal(owner, value); break;
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
    case FPHookType::CallPES: call_pes_internal(owner, user_data, value); break;
  }
}

// CPhysicsObj::SetTranslucencyInternal 0x0050F960
void set_translucency_internal(PhysicsObj& owner, float translucency) {
  if (translucency < owner.translucency_original()) translucency = owner.translucency_original();
  owner.set_translucency(translucency);
}

// CPhysicsObj::SetTranslucency2 0x0050FB50
void set_translucency2(PhysicsObj& owner, float start, float end, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(owner, FPHookType::Translucency, delta, start, end, 0);
  } else {
    set_translucency_internal(owner, end);
  }
}

// CPhysicsObj::SetPartTranslucency 0x00511730
void set_part_translucency(PhysicsObj& owner, std::uint32_t part, float start, float end, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(owner, FPHookType::PartTranslucency, delta, start, end, part);
  } else if (PartArray* parts = owner.part_array(); parts != nullptr) {
    parts->set_part_translucency(part, end);
  }
}

// CPhysicsObj::SetLuminosity 0x00511890
void set_luminosity(PhysicsObj& owner, float start, float end, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(owner, FPHookType::Luminosity, delta, start, end, 0);
  } else if (PartArray* parts = owner.part_array(); parts != nullptr) {
    parts->set_part_luminosity(PartArray::kAllParts, end);
  }
}

// CPhysicsObj::SetPartLuminosity 0x005117E0
void set_part_luminosity(PhysicsObj& owner, std::uint32_t part, float start, float end, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(owner, FPHookType::PartLuminosity, delta, start, end, part);
  } else if (PartArray* parts = owner.part_array(); parts != nullptr) {
    parts->set_part_luminosity(part, end);
  }
}

// CPhysicsObj::SetDiffusion 0x005119E0
void set_diffusion(PhysicsObj& owner, float start, float end, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(owner, FPHookType::Diffusion, delta, start, end, 0);
  } else if (PartArray* parts = owner.part_array(); parts != nullptr) {
    parts->set_part_diffusion(PartArray::kAllParts, end);
  }
}

// CPhysicsObj::SetPartDiffusion 0x00511930
void set_part_diffusion(PhysicsObj& owner, std::uint32_t part, float start, float end, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(owner, FPHookType::PartDiffusion, delta, start, end, part);
  } else if (PartArray* parts = owner.part_array(); parts != nullptr) {
    parts->set_part_diffusion(part, end);
  }
}

// CPhysicsObj::SetScale 0x005136A0
void set_scale(PhysicsObj& owner, float scale, double delta) {
  if (delta >= kMinRampTime) {
    add_fp_hook(owner, FPHookType::Scale, delta, owner.scale(), scale, 0);
  } else {
    owner.set_scale_static(scale);
  }
}

// CPhysicsObj::CallPES 0x00511AF0
void call_pes(PhysicsObj& owner, std::uint32_t script, float pause) {
  if (static_cast<double>(pause) >= kMinRampTime) {
    const float delay = owner.context().rng.uniform(0.0f, pause);
    add_fp_hook(owner, FPHookType::CallPES, static_cast<double>(delay), 0.0f, 1.0f, script);
  } else if (owner.in_cell()) {
    owner.play_script_internal(script);
  }
}

// CPhysicsObj::CallPESInternal 0x00511AC0
void call_pes_internal(PhysicsObj& owner, std::uint32_t script, float value) {
  if (value >= 1.0f && owner.in_cell()) owner.play_script_internal(script);
}

// CPhysicsObj::set_ethereal 0x00511C40 (EtherealHook::Execute 0x00526BC0)
bool set_ethereal(PhysicsObj& owner, bool ethereal) {
  return owner.set_ethereal(ethereal, false);
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
