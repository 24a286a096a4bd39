// PORTAL/cpmanager/CInterpolationManager: remote objects walk through the
// server's positions between updates (issue 13 section 5).
#include "dereth/sim/motion/interpolation_manager.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include "dereth/sim/motion/position_manager.hpp"
#include "dereth/sim/object/physics_obj.hpp"

#include "motion/interp_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
using Node = InterpolationNodeType;

namespace {

glm::vec3 origin(const PhysicsObj& o) {
  return o.position().frame.origin;
}

}  // namespace

TEST_CASE(
    "InterpolationManager::adjust_offset 0x00555D30 catches up at MAX_INTERPOLATED_VELOCITY without a max speed "
    "(InterpolationManager::InterpolateTo 0x00555B20)",
    "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  a.object.interpolate_to(at({13, 10, 10}), false);
  REQUIRE(a.im() != nullptr);
  REQUIRE(a.im()->queue().size() == 1);
  CHECK(a.im()->queue().front().type == Node::Position);
  CHECK(origin(a.object) == glm::vec3(10, 10, 10));  // queued, not placed
  // No motion interpreter speed (the fake answers 0): 7.5 m/s, 0.75 m a 0.1 s quantum.
  a.tick();
  CHECK(near_to(origin(a.object), {10.75f, 10, 10}));
  a.tick();
  a.tick();
  CHECK(near_to(origin(a.object), {12.25f, 10, 10}));
  a.tick();  // the last 0.75 m
  CHECK(near_to(origin(a.object), {13, 10, 10}));
  CHECK(a.object.is_interpolating());
  a.tick();  // within 0.05 m: the node completes and the manager stops
  CHECK_FALSE(a.object.is_interpolating());
  CHECK(a.im()->node_fail_counter() == 0);
  CHECK(a.im()->original_distance() == InterpolationManager::kBigDistance);
  a.tick();
  CHECK(near_to(origin(a.object), {13, 10, 10}));
}

TEST_CASE("InterpolationManager::adjust_offset 0x00555D30 moves at twice the adjusted max speed", "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  SECTION("adjusted speed (fUseAdjustedSpeed_ is 1)") {
    a.set_speed(4.0f, 5.0f);  // 2 x 5 = 10 m/s
    a.object.interpolate_to(at({15, 10, 10}), false);
    a.tick();
    CHECK(near_to(origin(a.object), {11, 10, 10}));
  }
  SECTION("a step never overshoots the node") {
    a.set_speed(4.0f, 50.0f);
    a.object.interpolate_to(at({10, 12, 10}), false);
    a.tick();
    CHECK(near_to(origin(a.object), {10, 12, 10}));
  }
  SECTION("without Contact nothing moves and nothing is counted") {
    a.object.set_transient_state(a.object.transient_state() & ~transient_state::Contact);
    a.object.interpolate_to(at({15, 10, 10}), false);
    core::Frame offset;
    offset.origin = {0.5f, 0, 0};
    a.object.position_manager()->adjust_offset(offset, FloatSeconds{0.1f});
    CHECK(offset.origin == glm::vec3(0.5f, 0, 0));
    CHECK(a.im()->frame_counter() == 0);
  }
}

TEST_CASE(
    "InterpolationManager::NodeCompleted 0x005559A0 queued nodes are visited in order "
    "(InterpolationManager::adjust_offset 0x00555D30)",
    "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  a.object.interpolate_to(at({11, 10, 10}), false);
  a.object.interpolate_to(at({11, 11, 10}), false);
  a.object.interpolate_to(at({12, 11, 10}), false);
  REQUIRE(a.im()->queue().size() == 3);
  // 7.5 m/s x 0.1 s = 0.75 m a tick; a tick that completes a node does not move.
  std::vector<glm::vec3> path;
  for (int i = 0; i < 12; ++i) {
    a.tick();
    path.push_back(origin(a.object));
  }
  CHECK(near_to(path[0], {10.75f, 10, 10}));
  CHECK(near_to(path[1], {11, 10, 10}));      // node 1 reached
  CHECK(near_to(path[2], {11, 10, 10}));      // node 1 completed: no step this tick
  CHECK(near_to(path[3], {11, 10.75f, 10}));  // toward node 2 (north), not straight to node 3
  CHECK(near_to(path[4], {11, 11, 10}));
  CHECK(near_to(path[5], {11, 11, 10}));
  CHECK(near_to(path[6], {11.75f, 11, 10}));
  CHECK(near_to(path[7], {12, 11, 10}));
  CHECK_FALSE(a.object.is_interpolating());
  CHECK(near_to(path[11], {12, 11, 10}));
}

TEST_CASE(
    "InterpolationManager::InterpolateTo 0x00555B20 past the autonomy blip distance blips on the next UseTime "
    "(InterpolationManager::UseTime 0x00555F20, CPhysicsObj::GetAutonomyBlipDistance 0x0050EB70)",
    "[retail][sim]") {
  World w;
  SECTION("outdoors: 100 m") {
    Walker a(w, 1, {10, 10, 10});
    CHECK(a.object.get_autonomy_blip_distance() == 100.0f);
    a.object.interpolate_to(at({10, 109, 10}), false);  // 99 m: queued
    CHECK(a.im()->node_fail_counter() == 0);
    a.object.interpolate_to(at({10, 120, 10}), false);  // 11 m from the queued tail
    CHECK(a.im()->node_fail_counter() == 0);
    a.object.stop_interpolating();
    a.object.interpolate_to(at({10, 111, 10}), false);  // 101 m from the object
    REQUIRE(a.im()->queue().size() == 1);
    CHECK(a.im()->node_fail_counter() == InterpolationManager::kFarNodeFailures);
    CHECK(origin(a.object) == glm::vec3(10, 10, 10));
    a.object.position_manager()->use_time();
    CHECK(origin(a.object) == glm::vec3(10, 111, 10));
    CHECK_FALSE(a.object.is_interpolating());
    CHECK(a.im()->node_fail_counter() == 0);
  }
  SECTION("indoors a remote object blips past 20 m, the player past 25 m") {
    Walker a(w, 1, {10, 10, 10}, kIndoorCell);
    CHECK(a.object.get_autonomy_blip_distance() == 20.0f);
    CHECK(a.object.get_start_constraint_distance() == 5.0f);
    CHECK(a.object.get_max_constraint_distance() == 20.0f);
    a.object.interpolate_to(at({10, 31, 10}, 0.0f, kIndoorCell), false);
    CHECK(a.im()->node_fail_counter() == 4);
    w.context.player = &a.object;
    CHECK(a.object.get_autonomy_blip_distance() == 25.0f);
    a.object.stop_interpolating();
    a.object.interpolate_to(at({10, 31, 10}, 0.0f, kIndoorCell), false);
    CHECK(a.im()->node_fail_counter() == 0);
    w.context.player = nullptr;
  }
  SECTION("the blip goes to the last queued node") {
    Walker a(w, 1, {10, 10, 10});
    a.object.interpolate_to(at({11, 10, 10}), false);
    a.object.interpolate_to(at({11, 150, 10}), false);  // 140 m past the tail
    REQUIRE(a.im()->queue().size() == 2);
    a.tick();  // adjust_offset steps toward node 1, then UseTime blips to the tail
    CHECK(origin(a.object) == glm::vec3(11, 150, 10));
    CHECK_FALSE(a.object.is_interpolating());
  }
}

TEST_CASE(
    "InterpolationManager::adjust_offset 0x00555D30 stalled progress fails the node and UseTime blips to it "
    "(InterpolationManager::NodeCompleted 0x005559A0, InterpolationManager::UseTime 0x00555F20)",
    "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  // The object never moves (the offsets are thrown away), so progress stalls.
  auto stall = [&](int frames) {
    for (int i = 0; i < frames; ++i) {
      core::Frame offset;
      a.im()->adjust_offset(offset, FloatSeconds{0.1f});
    }
  };
  SECTION("one node: the failed node becomes the blip-to position") {
    a.object.interpolate_to(at({13, 10, 10}), false);
    stall(5);  // the first check compares with BIG_DISTANCE: progress
    CHECK(a.im()->frame_counter() == 0);
    CHECK(a.im()->original_distance() == Approx(3.0f));
    stall(4);
    CHECK(a.im()->frame_counter() == 4);
    stall(1);  // no progress in 5 frames
    CHECK(a.im()->node_fail_counter() == 1);
    CHECK(a.im()->queue().empty());
    CHECK(a.im()->blipto_position().frame.origin == glm::vec3(13, 10, 10));
    a.im()->use_time();
    CHECK(origin(a.object) == glm::vec3(13, 10, 10));
    CHECK(a.im()->node_fail_counter() == 0);
  }
  SECTION("three stalled nodes end at the last") {
    a.object.interpolate_to(at({13, 10, 10}), false);
    a.object.interpolate_to(at({13, 13, 10}), false);
    a.object.interpolate_to(at({16, 13, 10}), false);
    stall(10);
    CHECK(a.im()->node_fail_counter() == 1);
    CHECK(a.im()->queue().size() == 2);
    a.im()->use_time();  // 1 failure, nodes left: nothing
    CHECK(origin(a.object) == glm::vec3(10, 10, 10));
    stall(10);
    CHECK(a.im()->node_fail_counter() == 3);
    CHECK(a.im()->queue().empty());
    a.im()->use_time();
    CHECK(origin(a.object) == glm::vec3(16, 13, 10));
  }
  SECTION("a stalled node within 0.2 m counts as reached") {
    a.object.interpolate_to(at({10.1f, 10, 10}), false);
    stall(10);
    CHECK(a.im()->node_fail_counter() == 0);
    CHECK_FALSE(a.im()->is_interpolating());
    a.im()->use_time();
    CHECK(origin(a.object) == glm::vec3(10, 10, 10));
  }
  SECTION("more than three failures blip to the tail with nodes still queued") {
    for (int i = 1; i <= 6; ++i) a.object.interpolate_to(at({10.0f + 3.0f * static_cast<float>(i), 10, 10}), false);
    stall(5);
    for (int f = 0; f < 4; ++f) stall(5);
    CHECK(a.im()->node_fail_counter() == 4);
    CHECK(a.im()->queue().size() == 2);
    a.im()->use_time();
    CHECK(origin(a.object) == glm::vec3(28, 10, 10));
    CHECK_FALSE(a.im()->is_interpolating());
  }
  SECTION("a sticky object never fails for lack of progress") {
    a.object.interpolate_to(at({13, 10, 10}), false);
    a.object.position_manager()->stick_to(0x77, 0.0f, 0.0f);
    stall(20);
    CHECK(a.im()->node_fail_counter() == 0);
    CHECK(a.im()->queue().size() == 1);
  }
}

TEST_CASE("InterpolationManager::InterpolateTo 0x00555B20 caps the queue at 20 by dropping the oldest",
          "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  for (int i = 1; i <= 25; ++i) a.object.interpolate_to(at({10, 10.0f + static_cast<float>(i), 10}), false);
  REQUIRE(a.im()->queue().size() == InterpolationManager::kMaxQueue);
  CHECK(a.im()->queue().front().p.frame.origin == glm::vec3(10, 16, 10));
  CHECK(a.im()->queue().back().p.frame.origin == glm::vec3(10, 35, 10));
}

TEST_CASE("InterpolationManager::InterpolateTo 0x00555B20 a new node replaces queued ones within 0.05 m of it",
          "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  a.object.interpolate_to(at({12, 10, 10}), false);
  a.object.interpolate_to(at({13, 10, 10}), false);
  a.object.interpolate_to(at({13.01f, 10, 10}), false);
  REQUIRE(a.im()->queue().size() == 2);
  CHECK(a.im()->queue().back().p.frame.origin == glm::vec3(13.01f, 10, 10));
}

TEST_CASE("InterpolationManager::InterpolateTo 0x00555B20 a position already reached stops and takes its heading",
          "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  a.object.interpolate_to(at({14, 10, 10}), false);
  SECTION("heading taken") {
    a.object.interpolate_to(at({10.01f, 10, 10}, 90.0f), false);
    CHECK_FALSE(a.object.is_interpolating());
    CHECK(a.object.get_heading() == Approx(90.0f));
    CHECK(origin(a.object) == glm::vec3(10, 10, 10));
  }
  SECTION("keep_heading keeps the object's") {
    a.object.interpolate_to(at({10.01f, 10, 10}, 90.0f), true);
    CHECK_FALSE(a.object.is_interpolating());
    CHECK(a.object.get_heading() == Approx(0.0f).margin(1e-3));
  }
}

TEST_CASE(
    "InterpolationManager::InterpolateTo 0x00555B20 keep_heading queues the object's own heading "
    "(InterpolationManager::adjust_offset 0x00555D30)",
    "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  a.object.set_heading(90.0f, false);
  SECTION("kept: the walk does not turn the object") {
    a.object.interpolate_to(at({10, 13, 10}, 180.0f), true);
    REQUIRE(a.im()->queue().size() == 1);
    CHECK(a.im()->keep_heading());
    CHECK(a.im()->queue().front().p.frame.get_heading() == Approx(90.0f));
    a.tick();
    CHECK(near_to(origin(a.object), {10, 10.75f, 10}));  // still toward the node, in world terms
    CHECK(a.object.get_heading() == Approx(90.0f));
  }
  SECTION("not kept: the object takes the node's heading at once") {
    a.object.interpolate_to(at({10, 13, 10}, 180.0f), false);
    a.tick();
    CHECK(near_to(origin(a.object), {10, 10.75f, 10}));
    CHECK(a.object.get_heading() == Approx(180.0f));
  }
  SECTION("past the blip distance the previous call's keep_heading decides") {
    a.object.interpolate_to(at({10, 13, 10}, 180.0f), true);    // stores keep_heading = 1
    a.object.interpolate_to(at({10, 200, 10}, 270.0f), false);  // far: the argument is ignored
    REQUIRE(a.im()->queue().size() == 2);
    CHECK(a.im()->queue().back().p.frame.get_heading() == Approx(90.0f));
    CHECK(a.im()->keep_heading());
  }
}

TEST_CASE(
    "CPhysicsObj::MoveOrTeleport 0x00516330 a remote object near the player interpolates, far away it is placed "
    "(CPhysicsObj::MakePositionManager 0x00510210)",
    "[retail][sim]") {
  World w;
  Walker a(w, 1, {10, 10, 10});
  SECTION("without contact nothing happens") {
    CHECK_FALSE(a.object.move_or_teleport(at({12, 10, 10}), 0, false, glm::vec3(0.0f)));
    CHECK_FALSE(a.object.is_interpolating());
  }
  SECTION("beyond 96 m of the player: placed, interpolation stopped") {
    REQUIRE(a.object.player_distance() >= kActivityRadius);
    a.object.interpolate_to(at({11, 10, 10}), false);
    CHECK(a.object.move_or_teleport(at({12, 10, 10}), 0, true, glm::vec3(0.0f)));
    CHECK(origin(a.object) == glm::vec3(12, 10, 10));
    CHECK_FALSE(a.object.is_interpolating());
  }
  SECTION("a newer teleport stamp places the object and clears the queue") {
    a.object.interpolate_to(at({11, 10, 10}), false);
    CHECK(a.object.move_or_teleport(at({40, 10, 10}), 1, false, glm::vec3(0.0f)));
    CHECK(origin(a.object) == glm::vec3(40, 10, 10));
    CHECK_FALSE(a.object.is_interpolating());
  }
}

TEST_CASE(
    "SmartBox::HandleReceivedPosition 0x00453FD0 a remote creature walks to the server position over the retail time "
    "(CPhysicsObj::MoveOrTeleport 0x00516330, InterpolationManager::adjust_offset 0x00555D30)",
    "[retail][sim]") {
  constexpr std::uint32_t kPlayer = 0x50000001;
  constexpr std::uint32_t kCreature = 0x80000010;
  World w;
  w.factory.spheres = 1;
  w.start(kPlayer);
  // No Gravity: nothing falls between the updates.
  w.handle(create(kPlayer, 1, 0, {20, 20, 10}));
  w.handle(create(kCreature, 1, 0, {10, 10, 10}));
  w.clock.advance(core::Seconds{0.05});
  w.box.use_time();  // measures the creature's distance to the player
  PhysicsObj& creature = w.object(kCreature);
  REQUIRE(creature.player_distance() < kActivityRadius);
  auto next = position(kCreature, 1, 1, {13, 10, 10});
  next.position.flags = protocol::position_flag::IsGrounded;
  w.handle(next);
  CHECK(creature.position().frame.origin == glm::vec3(10, 10, 10));
  CHECK(creature.is_interpolating());
  // The constraint is centred where the creature stands (retail ConstrainTo on
  // m_position after MoveOrTeleport), 10 m / 50 m outdoors.
  REQUIRE(creature.position_manager()->constraint_manager() != nullptr);
  CHECK(creature.position_manager()->constraint_manager()->constraint_pos().frame.origin == glm::vec3(10, 10, 10));
  CHECK(creature.position_manager()->constraint_manager()->constraint_distance_start() == 10.0f);
  CHECK(creature.position_manager()->constraint_manager()->constraint_distance_max() == 50.0f);
  // 3 m at 7.5 m/s: 0.4 s, eight 0.05 s quanta of 0.375 m.
  for (int i = 0; i < 4; ++i) {
    w.clock.advance(core::Seconds{0.05});
    w.box.use_time();
  }
  CHECK(near_to(creature.position().frame.origin, {11.5f, 10, 10}, 1e-3f));
  for (int i = 0; i < 6; ++i) {
    w.clock.advance(core::Seconds{0.05});
    w.box.use_time();
  }
  CHECK(near_to(creature.position().frame.origin, {13, 10, 10}, 1e-3f));
  CHECK_FALSE(creature.is_interpolating());
}
