#include "dereth/sim/effects/fp_hook.hpp"

#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

// FPHook::FPHook 0x0051BA50
FPHook::FPHook(FPHookType type, core::Seconds time_created, double interpolation_time, float start_value,
               float end_value, std::uint32_t user_data) noexcept
    : type_(type),
      time_created_(time_created),
      interpolation_time_(interpolation_time),
      start_value_(start_value),
      end_value_(end_value),
      user_data_(user_data) {}

// FPHook::Execute 0x0051BAA0
bool FPHook::execute(PhysicsObj& owner) {
  const double elapsed = (owner.context().physics_time - time_created_).count();
  float fraction = 0.0f;
  if (elapsed > 0.0) {
    fraction = elapsed < interpolation_time_ ? static_cast<float>(elapsed / interpolation_time_) : 1.0f;
  }
  const float value = (end_value_ - start_value_) * fraction + start_value_;
  owner.process_fp_hook(type_, value, user_data_);
  return fraction == 1.0f;
}

}  // namespace dereth::sim
