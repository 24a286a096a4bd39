// What a committed transition does to the object besides its position:
// CPhysicsObj::handle_all_collisions and the collision reports (spec/physics.md
// 5.9; RE cphysobj/CPhysicsObj.c, accobject/ACCWeenieObj.c).
#include <catch2/catch.hpp>

#include <memory>

#include "dereth/sim/collision/gfx_obj_physics.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/effects/effects.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

#include "collision/collision_support.hpp"
#include "fakes.hpp"
#include "support/bsp_box.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;
namespace ts = transient_state;

namespace {

// Counts the default scripts the objects play.
class DefaultScripts final : public EffectsSink {
 public:
  bool play_default_script(PhysicsObj& owner) override {
    played.push_back(owner.id());
    return true;
  }
  std::vector<std::uint32_t> played;
};

CollisionInfo hit(glm::vec3 normal, int frames = 0) {
  CollisionInfo ci;
  ci.init();
  ci.set_collision_normal(normal);
  ci.frames_stationary_fall = frames;
  return ci;
}

}  // namespace

TEST_CASE(
    "CPhysicsObj::handle_all_collisions 0x00514780 bounces the velocity off the collision normal by the elasticity",
    "[retail][sim]") {
  Scene s;
  auto obj = s.object(1, {50, 50, 10}, 0.5f);
  obj->set_velocity(glm::vec3(3, 1, 0), false);
  SECTION("airborne into a wall facing -x: 3 + (-1)(3 x 1.05), the wall's tangent kept") {
    obj->handle_all_collisions(hit({-1, 0, 0}), false, false);
    CHECK(obj->velocity().x == Approx(3.0f - 3.0f * (1.0f + obj->elasticity())));
    CHECK(obj->velocity().y == 1.0f);
  }
  SECTION("moving away from the normal: untouched") {
    obj->handle_all_collisions(hit({1, 0, 0}), false, false);
    CHECK(obj->velocity() == glm::vec3(3, 1, 0));
  }
  SECTION("Inelastic: stopped") {
    obj->set_state(ps::Inelastic, false);
    obj->set_velocity(glm::vec3(3, 1, 0), false);
    obj->handle_all_collisions(hit({-1, 0, 0}), false, false);
    CHECK(obj->velocity() == glm::vec3(0.0f));
  }
  SECTION("walking on walkable ground before and after: no bounce, unless sledding") {
    obj->set_transient_state(ts::Contact | ts::OnWalkable);
    obj->handle_all_collisions(hit({-1, 0, 0}), true, true);
    CHECK(obj->velocity() == glm::vec3(3, 1, 0));
    obj->set_state(ps::Sledding, false);
    obj->set_velocity(glm::vec3(3, 1, 0), false);
    obj->handle_all_collisions(hit({-1, 0, 0}), true, true);
    CHECK(obj->velocity().x < 0.0f);
  }
}

TEST_CASE(
    "CPhysicsObj::handle_all_collisions 0x00514780 keeps the stationary-fall bits by the counter, and clears them at 3",
    "[retail][sim]") {
  Scene s;
  auto obj = s.object(1, {50, 50, 10}, 0.5f);
  const auto after = [&](int frames) {
    obj->set_velocity(glm::vec3(0, 0, -2), false);
    obj->handle_all_collisions(hit({0, 0, 1}, frames), false, false);
    return obj->transient_state() & (ts::StationaryFall | ts::StationaryStop | ts::StationaryStuck);
  };
  CHECK(after(1) == ts::StationaryFall);
  CHECK(obj->velocity().z > 0.0f);  // one frame: still a bounce
  CHECK(after(2) == ts::StationaryStop);
  CHECK(obj->velocity() == glm::vec3(0.0f));  // two or more: stopped
  CHECK(after(3) == 0u);
  CHECK(obj->velocity() == glm::vec3(0.0f));
  CHECK(after(0) == 0u);
}

TEST_CASE(
    "CPhysicsObj::report_environment_collision 0x00512FC0 reports once per contact, ends a missile, and plays a "
    "scripted collision's default script (ACCWeenieObject::DoCollision 0x0058C3A0)",
    "[retail][sim]") {
  Scene s;
  DefaultScripts scripts;
  s.context.set_effects(&scripts);
  auto bolt = s.object(7, {50, 50, 10}, 0.1f,
                       ps::Missile | ps::AlignPath | ps::PathClipped | ps::ReportCollisions | ps::ScriptedCollision);
  bolt->set_weenie(WeenieTraits{});
  CollisionInfo ci = hit({-1, 0, 0});
  ci.collided_with_environment = true;
  CHECK(bolt->handle_all_collisions(ci, false, false));
  CHECK(bolt->colliding_with_environment());
  CHECK((bolt->state() & (ps::Missile | ps::AlignPath | ps::PathClipped)) == 0);
  CHECK(scripts.played == std::vector<std::uint32_t>{7});
  SECTION("still touching: no second report") {
    CHECK_FALSE(bolt->handle_all_collisions(ci, false, false));
    CHECK(scripts.played.size() == 1);
  }
  SECTION("clear of it, then back: a second report") {
    CollisionInfo clear;
    clear.init();
    bolt->handle_all_collisions(clear, false, false);
    CHECK_FALSE(bolt->colliding_with_environment());
    CHECK(bolt->handle_all_collisions(ci, false, false));
    CHECK(scripts.played.size() == 2);
  }
  SECTION("without a weenie, or without ScriptedCollision: no script") {
    auto rock = s.object(8, {50, 50, 10}, 0.1f, ps::ReportCollisions | ps::ScriptedCollision);
    CHECK_FALSE(rock->handle_all_collisions(ci, false, false));
    auto plain = s.object(9, {50, 50, 10}, 0.1f, ps::ReportCollisions);
    plain->set_weenie(WeenieTraits{});
    CHECK(plain->handle_all_collisions(ci, false, false));
    CHECK(scripts.played.size() == 1);
  }
  SECTION("a landing counts as meeting the environment") {
    auto faller = s.object(10, {50, 50, 10}, 0.5f, ps::ReportCollisions | ps::ScriptedCollision);
    faller->set_weenie(WeenieTraits{});
    faller->set_transient_state(ts::Contact | ts::OnWalkable);
    CollisionInfo landed;
    landed.init();
    CHECK(faller->handle_all_collisions(landed, false, false));
    CHECK(scripts.played.back() == 10);
  }
}

TEST_CASE(
    "CPhysicsObj::track_object_collision 0x00513F10 reports an object once while it is touched, and "
    "report_collision_end 0x00514620 forgets it after a second (CPhysicsObj::report_object_collision 0x00513060)",
    "[retail][sim]") {
  Scene s;
  auto mover = s.object(1, {50, 50, 10}, 0.5f, ps::ReportCollisions | ps::Missile);
  mover->set_weenie(WeenieTraits{});
  auto other = s.object(2, {51, 50, 10}, 0.5f);
  auto ghost = s.object(3, {52, 50, 10}, 0.5f, ps::Ethereal);
  CHECK(mover->track_object_collision(*other, false));
  CHECK((mover->state() & ps::Missile) == 0);  // a missile's first hit ends it
  CHECK(mover->collision_table().size() == 1);
  CHECK_FALSE(mover->track_object_collision(*other, false));  // renewed, not reported
  CHECK(mover->track_object_collision(*ghost, false));
  CHECK(mover->collision_table().size() == 2);
  s.context.physics_time = core::Seconds(0.5);
  mover->report_collision_end(false);
  CHECK(mover->collision_table().size() == 1);  // the ethereal one goes at once
  s.context.physics_time = core::Seconds(1.01);
  mover->report_collision_end(false);
  CHECK(mover->collision_table().empty());
  CHECK(mover->track_object_collision(*other, false));  // a new touch
  mover->leave_world();
  CHECK(mover->collision_table().empty());  // leave_world ends them all
  SECTION("a static object is the environment") {
    auto wall = s.object(4, {53, 50, 10}, 0.5f, ps::Static);
    auto walker = s.object(5, {50, 50, 10}, 0.5f);
    walker->track_object_collision(*wall, false);
    CHECK(walker->colliding_with_environment());
    CHECK(walker->collision_table().empty());
  }
}

TEST_CASE(
    "CPhysicsObj::handle_all_collisions 0x00514780 through the sweep: a thrown ball comes back off a wall at the "
    "elasticity (CPhysicsObj::SetPositionInternal 0x00515330)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto wall = std::make_unique<PhysicsObj>(s.context, 2, LocalId{2});
  auto tree = dereth::test::box_tree({0, -2, 0}, {0.5f, 2, 3});
  REQUIRE(tree);
  const dat::Sphere bound = tree->get_sphere();
  wall->set_part_array(dereth::test::FakePartArray::bsp(
      *wall, std::make_shared<const GfxObjPhysics>(GfxObjPhysics{1, std::move(*tree), bound}), std::nullopt));
  wall->set_state(ps::Static | ps::HasPhysicsBsp, false);
  wall->store_position(at({52, 50, 10}));
  s.shadow(*wall);
  auto ball = s.object(1, {51, 50, 10}, 0.2f);
  REQUIRE(ball->enter_world(ball->position()));
  ball->set_velocity(glm::vec3(6, 0, 0), false);
  for (int i = 0; i < 10 && ball->velocity().x > 0.0f; ++i) ball->update_object_internal(FloatSeconds(1.0f / 30.0f));
  CHECK(ball->velocity().x == Approx(-6.0f * ball->elasticity()).margin(1e-4));
  CHECK(ball->position().frame.origin.x < 52.0f - 0.2f);
}

TEST_CASE(
    "CPhysicsObj::set_hidden 0x00514C60 ends every collision at once (report_collision_end(1)) when reporting "
    "(CPhysicsObj::report_collision_end 0x00514620)",
    "[retail][sim]") {
  Scene s;
  auto mover = s.object(1, {50, 50, 10}, 0.5f, ps::ReportCollisions);
  mover->set_weenie(WeenieTraits{});
  auto other = s.object(2, {51, 50, 10}, 0.5f);
  REQUIRE(mover->track_object_collision(*other, false));
  REQUIRE(mover->collision_table().size() == 1);
  SECTION("a reporting object forgets its collisions, however recent, and stops reporting") {
    mover->set_hidden(true, false);
    CHECK(mover->collision_table().empty());
    CHECK((mover->state() & ps::ReportCollisions) == 0);
    CHECK((mover->state() & ps::IgnoreCollisions) != 0);
  }
  SECTION("one that does not report keeps them (the end is under ReportCollisions)") {
    mover->set_state(mover->state() & ~ps::ReportCollisions, false);
    mover->set_hidden(true, false);
    CHECK(mover->collision_table().size() == 1);
  }
}

TEST_CASE(
    "CPhysicsObj::set_ethereal 0x00511C40 clearing stays ethereal while ethereal_check_for_collisions finds an "
    "overlap (CObjCell::check_collisions 0x0052B7B0, CPhysicsObj::check_collision 0x00512ED0)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto other = s.object(2, {50.6f, 50, 10}, 0.5f);
  REQUIRE(other->enter_world(other->position()));
  auto ghost = s.object(1, {50, 50, 10}, 0.5f, ps::Ethereal);
  REQUIRE(ghost->enter_world(ghost->position()));  // an ethereal object is placed on the spot
  REQUIRE(ghost->position().frame.origin == glm::vec3(50, 50, 10));
  REQUIRE(ghost->cell() != nullptr);

  SECTION("an overlap: Ethereal stays, CheckEthereal is set, and the call fails") {
    CHECK_FALSE(ghost->set_ethereal(false, false));
    CHECK((ghost->state() & ps::Ethereal) != 0);
    CHECK((ghost->transient_state() & ts::CheckEthereal) != 0);
    SECTION("UpdateObjectInternal 0x005156B0 retries it each quantum: still overlapping, still ethereal") {
      REQUIRE(ghost->set_active(true));
      ghost->update_object_internal(FloatSeconds(1.0f / 30.0f));
      CHECK((ghost->state() & ps::Ethereal) != 0);
      CHECK((ghost->transient_state() & ts::CheckEthereal) != 0);
      SECTION("once the other has gone, the retry clears it") {
        other->leave_world();
        ghost->update_object_internal(FloatSeconds(1.0f / 30.0f));
        CHECK((ghost->state() & ps::Ethereal) == 0);
        CHECK((ghost->transient_state() & ts::CheckEthereal) == 0);
      }
    }
  }
  SECTION("nothing overlapping: cleared at once") {
    other->leave_world();
    CHECK(ghost->set_ethereal(false, false));
    CHECK((ghost->state() & ps::Ethereal) == 0);
    CHECK((ghost->transient_state() & ts::CheckEthereal) == 0);
  }
  SECTION("a static neighbour never keeps it ethereal (CPhysicsObj::check_collision answers 0 for a static)") {
    other->set_state(other->state() | ps::Static, false);
    CHECK(ghost->set_ethereal(false, false));
    CHECK((ghost->state() & ps::Ethereal) == 0);
  }
  SECTION("an ethereal neighbour does not block either") {
    other->set_state(other->state() | ps::Ethereal, false);
    CHECK(ghost->set_ethereal(false, false));
    CHECK((ghost->state() & ps::Ethereal) == 0);
  }
  SECTION("setting it clears CheckEthereal") {
    REQUIRE_FALSE(ghost->set_ethereal(false, false));
    CHECK(ghost->set_ethereal(true, false));
    CHECK((ghost->state() & ps::Ethereal) != 0);
    CHECK((ghost->transient_state() & ts::CheckEthereal) == 0);
  }
}
