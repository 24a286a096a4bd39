#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

namespace {

// Retail's behaviour when the owner is absent: no table resolves, no parts,
// no managers, the server drives the player.
EffectsSink& null_effects() {
  static EffectsSink sink;
  return sink;
}
ObjectFactory& null_factory() {
  static ObjectFactory factory;
  return factory;
}
PlayerController& null_controller() {
  static PlayerController controller;
  return controller;
}

}  // namespace

SimContext::SimContext(const core::Clock& clock, std::uint32_t seed) noexcept
    : rng(seed),
      clock_(&clock),
      effects_(&null_effects()),
      factory_(&null_factory()),
      controller_(&null_controller()) {}

void SimContext::set_effects(EffectsSink* sink) noexcept {
  effects_ = sink != nullptr ? sink : &null_effects();
}

void SimContext::set_factory(ObjectFactory* factory) noexcept {
  factory_ = factory != nullptr ? factory : &null_factory();
}

void SimContext::set_controller(PlayerController* controller) noexcept {
  controller_ = controller != nullptr ? controller : &null_controller();
}

}  // namespace dereth::sim
