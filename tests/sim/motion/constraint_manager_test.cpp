// PORTAL/cpmanager/CConstraintManager: self-driven motion is held near the
// last position the server confirmed.
#include "dereth/sim/motion/constraint_manager.hpp"

#include <catch2/catch.hpp>

#include "dereth/sim/motion/position_manager.hpp"
#include "dereth/sim/object/physics_obj.hpp"

#include "motion/interp_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;

namespace {

core::Frame step(ConstraintManager& c, glm::vec3 v) {
  core::Frame offset;
  offset.origin = v;
  c.adjust_offset(offset, FloatSeconds{0.1f});
  return offset;
}

}  // namespace

TEST_CASE(
    "ConstraintManager::adjust_offset 0x00556180 scales the offset between the start and max distances "
    "(ConstraintManager::ConstrainTo 0x00556240, ConstraintManager::IsFullyConstrained 0x005560D0)",
    "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  ConstraintManager c(a.object);
  SECTION("ConstrainTo starts the offset at the distance to the object") {
    c.constrain_to(at({14, 10, 10}), 10.0f, 50.0f);
    CHECK(c.is_constrained());
    CHECK(c.constraint_pos_offset() == Approx(4.0f));
    CHECK(near_to(step(c, {1, 0, 0}).origin, {1, 0, 0}));  // under the start: untouched
    CHECK(c.constraint_pos_offset() == Approx(5.0f));      // path length accumulates
  }
  SECTION("between start and max: (max - offset) / (max - start)") {
    c.constrain_to(at({22, 10, 10}), 10.0f, 50.0f);
    CHECK(near_to(step(c, {0, 2, 0}).origin, {0, 2.0f * 38.0f / 40.0f, 0}));
    CHECK(c.constraint_pos_offset() == Approx(12.0f + 1.9f));
  }
  SECTION("at max the offset is zeroed") {
    c.constrain_to(at({60, 10, 10}), 10.0f, 50.0f);
    CHECK(step(c, {1, 1, 0}).origin == glm::vec3(0.0f));
    CHECK(c.constraint_pos_offset() == Approx(50.0f));
    CHECK(c.is_fully_constrained());
  }
  SECTION("in the air nothing is scaled, but the path still counts") {
    a.object.set_transient_state(0);
    c.constrain_to(at({60, 10, 10}), 10.0f, 50.0f);
    CHECK(step(c, {1, 0, 0}).origin == glm::vec3(1, 0, 0));
    CHECK(c.constraint_pos_offset() == Approx(51.0f));
  }
  SECTION("IsFullyConstrained past 90 percent of max") {
    c.constrain_to(at({54, 10, 10}), 10.0f, 50.0f);
    CHECK_FALSE(c.is_fully_constrained());
    c.constrain_to(at({55.5f, 10, 10}), 10.0f, 50.0f);
    CHECK(c.is_fully_constrained());
  }
  SECTION("UnConstrain 0x005560C0 lets the offset through") {
    c.constrain_to(at({60, 10, 10}), 10.0f, 50.0f);
    c.unconstrain();
    CHECK(step(c, {1, 0, 0}).origin == glm::vec3(1, 0, 0));
  }
}

TEST_CASE(
    "ConstraintManager::adjust_offset 0x00556180 holds a walking object within the max distance "
    "(CPhysicsObj::ConstrainTo 0x00510520)",
    "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  a.parts->root_motion = {0, 1, 0};  // 1 m of root motion a quantum
  a.set_speed(0.0f, 0.0f);           // a movement manager keeps the walker active
  a.object.constrain_to(a.object.position(), a.object.get_start_constraint_distance(),
                        a.object.get_max_constraint_distance());
  for (int i = 0; i < 11; ++i) a.tick();
  CHECK(near_to(a.object.position().frame.origin, {10, 21, 10}));  // full steps up to the start distance
  for (int i = 0; i < 300; ++i) a.tick();
  const float travelled = a.object.position().frame.origin.y - 10.0f;
  CHECK(travelled > 49.0f);
  CHECK(travelled < 50.0f);
  CHECK(a.object.is_fully_constrained());
}

TEST_CASE("PositionManager::adjust_offset 0x00555190 runs interpolation, then sticky, then constraint",
          "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  a.object.interpolate_to(at({20, 10, 10}), false);
  // 30 m of the 10..50 m band used: the interpolation's 0.75 m step is halved.
  a.object.constrain_to(at({40, 10, 10}), 10.0f, 50.0f);
  core::Frame offset;
  a.object.position_manager()->adjust_offset(offset, FloatSeconds{0.1f});
  CHECK(near_to(offset.origin, {0.375f, 0, 0}));
}
