#pragma once
// The world state retail keeps in globals (Timer::cur_time,
// PhysicsTimer::curr_time, CPhysicsObj::player_object, PhysicsGlobals, the
// object maintainer's active flag), plus the seams and the seeded generator.
// One per world; every PhysicsObj holds a reference to it.

#include <cstdint>
#include <vector>

#include "dereth/core/clock.hpp"
#include "dereth/core/rng.hpp"
#include "dereth/sim/object/seams.hpp"

namespace dereth::sim {

class PhysicsObj;
class CellSource;
class ObjectMaint;
class Qualities;

class SimContext {
 public:
  // `clock` is read, never owned; it must outlive the context. The seams
  // default to retail's "owner absent" behaviour until set.
  explicit SimContext(const core::Clock& clock, std::uint32_t seed = core::Rng::kDefaultSeed) noexcept;
  SimContext(const SimContext&) = delete;
  SimContext& operator=(const SimContext&) = delete;

  // Timer::cur_time: the injected clock's reading.
  [[nodiscard]] core::Seconds now() const { return clock_->now(); }
  [[nodiscard]] const core::Clock& clock() const noexcept { return *clock_; }

  // PhysicsTimer::curr_time: the simulated time of the quantum being run.
  core::Seconds physics_time{0.0};
  // CPhysicsObj::player_object (set by SmartBox::init_player).
  PhysicsObj* player = nullptr;
  // The player's qualities (its ACCWeenieObject's m_pQualities, from the
  // PlayerDescription), not owned; null until the server sends them.
  const Qualities* player_qualities = nullptr;
  // CPhysicsObj::obj_maint: the object table (set by ObjectMaint while it lives).
  ObjectMaint* obj_maint = nullptr;
  // PlayerModule::DisableHouseRestrictionEffects 0x005D3160, the character
  // option that keeps a house's restriction script from playing
  // (ACCWeenieObject::CanMoveInto): CharacterOptions1 bit 25 of the last
  // PlayerDescription that carried the options (app::World); off before.
  bool disable_house_restriction_effects = false;
  // PlayerModule::ToggleRun 0x005D2DA0, the character option that makes
  // running the default movement (the run key then walks): CharacterOptions1
  // bit 10 of the last PlayerDescription that carried the options; off before.
  bool toggle_run = false;
  // CObjectMaint::is_active (the 96 m activity cull needs it).
  bool object_maint_active = true;
  // The world's seeded generator (CallPES pauses, particle spread).
  core::Rng rng;
  // CPhysics::static_animating_objects: static objects with a default
  // animation or script (CPhysicsObj::InitDefaults adds them).
  std::vector<PhysicsObj*> static_animating_objects;
  // The world's cells (CObjCell::Get / find_cell_list), not owned. With none
  // an object is placed where it is told, without collision (docs/deviations.md N3).
  CellSource* cells = nullptr;

  [[nodiscard]] EffectsSink& effects() const noexcept { return *effects_; }
  [[nodiscard]] ObjectFactory& factory() const noexcept { return *factory_; }
  [[nodiscard]] PlayerController& controller() const noexcept { return *controller_; }
  // Not owned; nullptr restores the default.
  void set_effects(EffectsSink* sink) noexcept;
  void set_factory(ObjectFactory* factory) noexcept;
  void set_controller(PlayerController* controller) noexcept;

 private:
  const core::Clock* clock_;
  EffectsSink* effects_;
  ObjectFactory* factory_;
  PlayerController* controller_;
};

}  // namespace dereth::sim
