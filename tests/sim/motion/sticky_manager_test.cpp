// PORTAL/cpmanager/CStickyManager: an object held at a fixed gap from a target.
#include "dereth/sim/motion/sticky_manager.hpp"

#include <catch2/catch.hpp>

#include "dereth/sim/motion/position_manager.hpp"
#include "dereth/sim/object/physics_obj.hpp"

#include "motion/interp_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;

namespace {

TargetInfo ok(std::uint32_t id, const Position& p) {
  return TargetInfo{0, id, TargetInfo::kOk, p};
}

// A walker with its own (retail) PositionManager and a stick to `target`.
StickyManager& stick(Walker& a, std::uint32_t target, float target_radius) {
  a.object.set_position_manager(std::make_unique<PositionManager>(a.object));
  a.object.position_manager()->stick_to(target, target_radius, 1.0f);
  return *a.object.position_manager()->sticky_manager();
}

}  // namespace

TEST_CASE(
    "StickyManager::StickTo 0x00555710 arms a one-second stick that waits for the target report "
    "(StickyManager::HandleUpdateTarget 0x00555780)",
    "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  StickyManager& s = stick(a, 0x99, 0.5f);
  CHECK(a.object.get_sticky_object_id() == 0x99);
  CHECK_FALSE(s.initialized());
  CHECK(s.sticky_timeout_time() == w.clock.now() + core::Seconds{1.0});
  core::Frame offset;
  offset.origin = {0.25f, 0, 0};
  s.adjust_offset(offset, FloatSeconds{0.1f});  // not initialised: untouched
  CHECK(offset.origin == glm::vec3(0.25f, 0, 0));
  s.handle_update_target(ok(0x42, at({1, 1, 1})));  // someone else's target
  CHECK_FALSE(s.initialized());
  s.handle_update_target(ok(0x99, at({15, 10, 10})));
  CHECK(s.initialized());
  CHECK(s.target_position().frame.origin == glm::vec3(15, 10, 10));
  SECTION("a lost target ends the stick") {
    a.set_speed(0.0f, 0.0f);
    s.handle_update_target(TargetInfo{0, 0x99, 2, at({15, 10, 10})});
    CHECK(s.target_id() == 0);
    CHECK(a.speed->cancels == 1);  // CPhysicsObj::cancel_moveto
  }
  SECTION("a new target replaces the old") {
    a.set_speed(0.0f, 0.0f);
    s.stick_to(0x77, 0.0f, 0.0f);
    CHECK(s.target_id() == 0x77);
    CHECK_FALSE(s.initialized());
    CHECK(a.speed->cancels == 1);
  }
  SECTION("HandleUpdateTarget 0x00512BC0 delivers only context 0") {
    s.handle_exit_world();
    a.object.position_manager()->stick_to(0x99, 0.5f, 1.0f);
    a.object.handle_update_target(TargetInfo{3, 0x99, TargetInfo::kOk, at({15, 10, 10})});
    CHECK_FALSE(s.initialized());
    a.object.handle_update_target(ok(0x99, at({15, 10, 10})));
    CHECK(s.initialized());
  }
}

TEST_CASE(
    "StickyManager::UseTime 0x00555610 the stick lapses one second after StickTo (CPhysicsObj::unstick_from_object "
    "0x0050EAE0)",
    "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  a.set_speed(0.0f, 0.0f);
  StickyManager& s = stick(a, 0x99, 0.0f);
  w.clock.advance(core::Seconds{1.0});
  s.use_time();
  CHECK(s.target_id() == 0x99);  // not yet past the timeout
  w.clock.advance(core::Seconds{0.01});
  a.object.position_manager()->use_time();
  CHECK(s.target_id() == 0);
  CHECK(a.speed->cancels == 1);
  SECTION("unstick_from_object ends a stick at once") {
    s.stick_to(0x98, 0.0f, 0.0f);
    a.object.unstick_from_object();
    CHECK(a.object.get_sticky_object_id() == 0);
  }
}

TEST_CASE(
    "StickyManager::adjust_offset 0x00555430 closes to 0.3 m between the cylinders and faces the target "
    "(Position::cylinder_distance_no_z 0x005A98B0, Position::heading 0x005A9520)",
    "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10}, kCell, 0.5f);
  StickyManager& s = stick(a, 0x99, 0.5f);
  s.handle_update_target(ok(0x99, at({15, 10, 10})));
  SECTION("15 m/s without a max speed; the step is object-local and turns toward the target") {
    core::Frame offset;
    s.adjust_offset(offset, FloatSeconds{0.1f});
    CHECK(near_to(offset.origin, {1.5f, 0, 0}));
    CHECK(offset.get_heading() == Approx(90.0f));
    a.tick();
    CHECK(near_to(a.object.position().frame.origin, {11.5f, 10, 10}));
    CHECK(a.object.get_heading() == Approx(90.0f));
    a.tick();  // now facing the target: the step is straight ahead
    CHECK(near_to(a.object.position().frame.origin, {13, 10, 10}));
    a.tick();  // the last 0.7 m: 5 m less both radii less 0.3 m
    CHECK(near_to(a.object.position().frame.origin, {13.7f, 10, 10}));
    a.tick();
    CHECK(near_to(a.object.position().frame.origin, {13.7f, 10, 10}));
    CHECK(a.object.get_heading() == Approx(90.0f));
  }
  SECTION("5 x the (unadjusted) max speed") {
    a.set_speed(2.0f, 9.0f);
    core::Frame offset;
    s.adjust_offset(offset, FloatSeconds{0.1f});
    CHECK(near_to(offset.origin, {1.0f, 0, 0}));
  }
  SECTION("too close: it backs off to the gap") {
    s.handle_update_target(ok(0x99, at({11, 10, 10})));
    core::Frame offset;
    s.adjust_offset(offset, FloatSeconds{0.1f});
    CHECK(near_to(offset.origin, {-0.3f, 0, 0}));
  }
}

TEST_CASE(
    "CPhysicsObj::stick_to_object 0x005127E0 follows the live target from the object table "
    "(StickyManager::adjust_offset 0x00555430)",
    "[retail][sim]") {
  constexpr std::uint32_t kFollower = 0x80000010;
  constexpr std::uint32_t kTarget = 0x80000011;
  World w;
  w.factory.spheres = 1;
  w.start();
  w.handle(create(kFollower, 1, 0, {10, 10, 10}));
  w.handle(create(kTarget, 1, 0, {10, 20, 10}));
  w.parts(kTarget).radius = 1.0f;
  PhysicsObj& follower = w.object(kFollower);
  PhysicsObj& target = w.object(kTarget);
  follower.stick_to_object(kTarget);
  REQUIRE(follower.get_sticky_object_id() == kTarget);
  const StickyManager& s = *follower.position_manager()->sticky_manager();
  CHECK(s.target_radius() == 1.0f);
  // The report initialises the stick; the live position, not the reported one, is followed.
  follower.handle_update_target(TargetInfo{0, kTarget, TargetInfo::kOk, at({99, 99, 10})});
  for (int i = 0; i < 20; ++i) follower.update_object_internal(FloatSeconds{0.1f});
  CHECK(near_to(follower.position().frame.origin, {10, 18.7f, 10}, 1e-3f));
  target.set_position_simple(at({10, 30, 10}), true);
  for (int i = 0; i < 20; ++i) follower.update_object_internal(FloatSeconds{0.1f});
  CHECK(near_to(follower.position().frame.origin, {10, 28.7f, 10}, 1e-3f));
}
