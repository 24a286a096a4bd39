#pragma once
// Remote creatures on flat terrain for the MoveTo and TargetManager tests
// (move_to_*_test.cpp, target_manager_test.cpp): demo humanoids (Setup
// 0x02000001 with MotionTable 0x09000001: WalkForward 3.12 m/s, RunForward
// 4 m/s, TurnRight 1.5 rad/s) equipped by the DatObjectFactory, in an
// ObjectMaint (so CPhysicsObj::GetObjectA finds them), on the flat landblock
// of walk_support.hpp. No local player: every creature is remote.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>

#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/motion/move_to_manager.hpp"
#include "dereth/sim/motion/position_manager.hpp"
#include "dereth/sim/motion/target_manager.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/object_maint.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

#include "player/walk_support.hpp"

namespace dereth::sim::test {

// The flat block's outdoor cell holding (x, y): 24 m cells, eight a side,
// numbered from 1 along y first.
inline std::uint32_t outdoor_cell(glm::vec3 origin) {
  const auto ix = static_cast<std::uint32_t>(origin.x / 24.0f);
  const auto iy = static_cast<std::uint32_t>(origin.y / 24.0f);
  return (kWalkBlock & 0xFFFF0000u) | (ix * 8u + iy + 1u);
}

struct MoveToWorld {
  MoveToWorld() : records(&demo_portal()), factory(records), maint(context) {
    context.set_factory(&factory);
    REQUIRE(landscape.add_block(flat_block()));
    context.cells = &landscape;
  }
  MoveToWorld(const MoveToWorld&) = delete;
  MoveToWorld& operator=(const MoveToWorld&) = delete;

  // A creature standing at `origin` facing `heading` (compass degrees).
  PhysicsObj& creature(std::uint32_t guid, glm::vec3 origin, float heading = 0.0f) {
    auto o = std::make_unique<PhysicsObj>(context, guid, maint.assign_local_id(guid));
    o->set_state(protocol::physics_state::Gravity | protocol::physics_state::EdgeSlide, false);
    o->set_part_array(factory.make_part_array(*o, demo::kHumanSetup));
    o->init_defaults(*factory.setup_defaults(demo::kHumanSetup));
    WeenieTraits w;
    w.is_creature = true;
    o->set_weenie(w);
    core::Frame f(origin, glm::quat(1, 0, 0, 0));
    f.set_heading(heading);
    PhysicsObj& added = maint.add_object(std::move(o));
    REQUIRE(added.enter_world(Position{outdoor_cell(origin), f}));
    return added;
  }

  // One 1/30 s tick of every object, in local-id order.
  void tick() {
    clock.advance(core::Seconds{1.0 / 30.0});
    for (PhysicsObj* o : maint.objects()) o->update_object();
  }
  void run(int ticks) {
    for (int i = 0; i < ticks; ++i) tick();
  }
  // Ticks until `done` holds (at most `limit` ticks); the ticks it took.
  template <typename F>
  int run_until(F done, int limit) {
    for (int i = 0; i < limit; ++i) {
      if (done()) return i;
      tick();
    }
    return limit;
  }

  static DatMovementManager& manager(PhysicsObj& o) { return *dynamic_cast<DatMovementManager*>(o.movement_manager()); }
  static MoveToManager* moveto(PhysicsObj& o) { return manager(o).move_to_manager(); }
  static MotionInterp& minterp(PhysicsObj& o) { return *o.motion_interp(); }
  static bool grounded(const PhysicsObj& o) {
    constexpr std::uint32_t kGrounded = transient_state::Contact | transient_state::OnWalkable;
    return (o.transient_state() & kGrounded) == kGrounded;
  }

  core::ManualClock clock{core::Seconds{10.0}};
  dat::RecordCache records;
  DatObjectFactory factory;
  SimContext context{clock};
  Landscape landscape;
  ObjectMaint maint;
};

// The smaller difference between two compass headings, in degrees.
inline float heading_gap(float a, float b) {
  float d = std::fabs(a - b);
  return d > 180.0f ? 360.0f - d : d;
}

inline Position spot(glm::vec3 origin) {
  return Position{outdoor_cell(origin), core::Frame(origin, glm::quat(1, 0, 0, 0))};
}

}  // namespace dereth::sim::test
