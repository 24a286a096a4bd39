#pragma once
// FPHook (RE cphysobj/CPhysicsObjHooks.c): the timed ramp a CPhysicsObj
// setter installs at the head of the object's hooks.

#include <cstdint>

#include "dereth/core/clock.hpp"
#include "dereth/sim/object/physics_obj_hook.hpp"

namespace dereth::sim {

class PhysicsObj;

// PhysicsObjHook::HookType as CPhysicsObj::process_fp_hook 0x005135C0 dispatches it.
enum class FPHookType : std::int32_t {
  Scale = 0,
  Translucency = 1,
  PartTranslucency = 2,
  Luminosity = 3,
  Diffusion = 4,
  PartLuminosity = 5,
  PartDiffusion = 6,
  CallPES = 7,
};

// A value ramped from start to end over `interpolation_time` seconds of the
// physics timer, applied each time the object's hooks run; removed once it
// reaches the end (CPhysicsObj::process_hooks deletes it when Execute says so).
class FPHook final : public PhysicsObjHook {
 public:
  // FPHook::FPHook 0x0051BA50
  FPHook(FPHookType type, core::Seconds time_created, double interpolation_time, float start_value, float end_value,
         std::uint32_t user_data) noexcept;
  // FPHook::Execute 0x0051BAA0: f = clamp((physics_time - created) / time,
  // 0, 1) (0 until time has passed); apply start + (end - start) * f; done when f == 1.
  bool execute(PhysicsObj& owner) override;

  [[nodiscard]] FPHookType type() const noexcept { return type_; }
  [[nodiscard]] core::Seconds time_created() const noexcept { return time_created_; }
  [[nodiscard]] double interpolation_time() const noexcept { return interpolation_time_; }
  [[nodiscard]] float start_value() const noexcept { return start_value_; }
  [[nodiscard]] float end_value() const noexcept { return end_value_; }
  [[nodiscard]] std::uint32_t user_data() const noexcept { return user_data_; }

 private:
  FPHookType type_;
  core::Seconds time_created_;
  double interpolation_time_;
  float start_value_;
  float end_value_;
  std::uint32_t user_data_;  // the part index, or the CallPES script
};

}  // namespace dereth::sim
