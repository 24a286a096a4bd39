// The numbers the position managers read from elsewhere: CMotionInterp's max
// speeds (through the demo humanoid's DatMovementManager), CPartArray's
// radius, and the Position helpers (RE geometry/Position.c).
#include <catch2/catch.hpp>

#include "dereth/sim/motion/position_manager.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/dat_part_array.hpp"
#include "dereth/sim/object/position.hpp"

#include "motion/anim_support.hpp"
#include "motion/interp_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace mc = motion_command;

namespace {

// The demo humanoid with its DAT parts, on the ground in kCell.
struct Humanoid {
  Humanoid() : records(&demo_portal()), factory(records) {
    owner.context.set_factory(&factory);
    PhysicsObj& o = owner.object;
    o.set_state(kInitialState & ~protocol::physics_state::Gravity, false);
    o.set_part_array(factory.make_part_array(o, demo::kHumanSetup));
    o.init_defaults(*factory.setup_defaults(demo::kHumanSetup));
    o.enter_world(Position{kCell, core::Frame({50, 50, 0}, {1, 0, 0, 0})});
    o.set_transient_state(o.transient_state() | transient_state::Contact);
    o.set_on_walkable(true);
  }
  MotionInterp& minterp() { return dynamic_cast<DatMovementManager*>(owner.object.get_minterp())->get_minterp(); }

  dat::RecordCache records;
  DatObjectFactory factory;
  Owner owner;
};

MovementParameters at_speed(float speed) {
  MovementParameters p;
  p.speed = speed;
  return p;
}

}  // namespace

TEST_CASE(
    "CMotionInterp::get_max_speed 0x00527CB0 and get_adjusted_max_speed 0x00527D00 (CPhysicsObj::get_minterp "
    "0x005120C0)",
    "[retail][sim]") {
  Humanoid h;
  MotionInterp& m = h.minterp();
  SECTION("no weenie: 4 m/s, and a RunForward state's own speed for the adjusted one") {
    CHECK(m.get_max_speed() == Approx(4.0f));
    CHECK(m.get_adjusted_max_speed() == Approx(4.0f));
    REQUIRE(m.do_interpreted_motion(mc::RunForward, at_speed(2.0f)) == 0);
    CHECK(m.get_max_speed() == Approx(4.0f));
    CHECK(m.get_adjusted_max_speed() == Approx(8.0f));
  }
  SECTION("with a weenie: 4 x the run rate") {
    h.owner.object.set_weenie(WeenieTraits{});
    m.my_run_rate = 1.5f;
    CHECK(m.get_max_speed() == Approx(6.0f));
    CHECK(m.get_adjusted_max_speed() == Approx(6.0f));
  }
  SECTION("InterpolationManager::adjust_offset 0x00555D30 runs at twice the adjusted speed") {
    REQUIRE(m.do_interpreted_motion(mc::RunForward, at_speed(2.0f)) == 0);
    h.owner.object.interpolate_to(at({80, 50, 0}), true);
    core::Frame offset;
    h.owner.object.position_manager()->adjust_offset(offset, FloatSeconds{0.1f});
    CHECK(near_to(offset.origin, {1.6f, 0, 0}));
  }
}

TEST_CASE(
    "CPartArray::GetRadius 0x005180A0 and GetHeight 0x005180B0 scale the Setup's by scale.z (CPhysicsObj::GetRadius "
    "0x0050E9C0, CPhysicsObj::GetHeight 0x0050E9E0)",
    "[retail][sim]") {
  Humanoid h;
  const auto& parts = dynamic_cast<const DatPartArray&>(*h.owner.object.part_array());
  CHECK(h.owner.object.get_radius() == parts.setup().radius);
  CHECK(h.owner.object.get_height() == parts.setup().height);
  h.owner.object.set_scale_static(2.0f);
  CHECK(h.owner.object.get_radius() == Approx(2.0f * parts.setup().radius));
  CHECK(h.owner.object.get_height() == Approx(2.0f * parts.setup().height));
}

TEST_CASE(
    "Position::subtract2 0x00555A90, distance 0x005A94B0, heading 0x005A9520 and cylinder_distance_no_z "
    "0x005A98B0 across a landblock seam",
    "[retail][sim]") {
  const Position from = at({190, 10, 0}, 90.0f, 0xA9B40038);  // facing east, near the east edge
  const Position to = at({2, 10, 3}, 180.0f, 0xAAB40002);     // 4 m east, 3 m up, in the next landblock
  CHECK(distance(from, to) == Approx(5.0f));
  CHECK(cylinder_distance_no_z(1.0f, from, 0.5f, to) == Approx(3.5f));  // 3D distance less both radii
  CHECK(heading(from, to) == Approx(90.0f));
  CHECK(heading(from, from) == 0.0f);
  const core::Frame rel = subtract2(to, from);
  CHECK(near_to(rel.origin, {0, 4, 3}));      // ahead and up, in from's axes
  CHECK(rel.get_heading() == Approx(90.0f));  // the turn from 90 to 180
  const core::Frame back = core::Frame::combine(from.frame, rel);
  CHECK(near_to(back.origin, {194, 10, 3}));
  CHECK(back.get_heading() == Approx(180.0f));
}
