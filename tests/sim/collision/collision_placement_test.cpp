// The collision transition: placement, the sweep and the cell object tests
// (spec/physics.md 5.2-5.10; seed login-placement-and-repeat-cancel).
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <memory>

#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

#include "collision/collision_support.hpp"
#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;

namespace {

// The retail sample offset: Frame::set_heading on an identity frame, then
// its forward vector times the ring distance.
glm::vec3 sample(float heading, float distance) {
  core::Frame f;
  f.set_heading(heading);
  return f.forward() * distance;
}

}  // namespace

TEST_CASE("CTransition::find_placement_pos 0x0050BA50 takes the spot when it is clear", "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto mover = s.object(1, {50, 50, 10}, 0.5f);
  Transition t = s.placement(*mover, at({50, 50, 10}));
  t.sphere_path.insert_type = InsertType::Placement;
  REQUIRE(t.find_placement_pos());
  CHECK(t.sphere_path.curr_pos.frame.origin == glm::vec3(50, 50, 10));
}

TEST_CASE("CTransition::find_placement_pos 0x0050BA50 searches rings in heading order for the first clear sample",
          "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  // Radius 0.5: 4/0.5 = 8 rings of 0.5 m; ring k spans k*0.5*3.1415999/0.5
  // radians, so 2*ceil(...) samples: 8, 14, 20, ...
  auto mover = s.object(1, {50, 50, 10}, 0.5f);
  auto blocker = s.object(2, {50, 50, 10}, 1.0f);
  s.shadow(*blocker);

  SECTION("one obstacle on the spot: ring 3 (1.5 m > 1.0 + 0.5 - EPSILON) at heading 0, due north") {
    Transition t = s.placement(*mover, at({50, 50, 10}));
    t.sphere_path.insert_type = InsertType::Placement;
    REQUIRE(t.find_placement_pos());
    const glm::vec3 expect = glm::vec3(50, 50, 10) + sample(0.0f, 1.5f);
    CHECK(t.sphere_path.curr_pos.frame.origin.x == Approx(expect.x).margin(1e-4));
    CHECK(t.sphere_path.curr_pos.frame.origin.y == Approx(51.5f).margin(1e-4));
    CHECK(t.sphere_path.curr_pos.frame.origin.z == Approx(10.0f));
  }
  SECTION("a second obstacle to the north blocks 0 and 18 degrees; the ring's third sample, 36 degrees, is taken") {
    auto north = s.object(3, {50, 52, 10}, 0.3f);
    s.shadow(*north);
    Transition t = s.placement(*mover, at({50, 50, 10}));
    t.sphere_path.insert_type = InsertType::Placement;
    REQUIRE(t.find_placement_pos());
    const glm::vec3 expect = glm::vec3(50, 50, 10) + sample(36.0f, 1.5f);
    CHECK(t.sphere_path.curr_pos.frame.origin.x == Approx(expect.x).margin(1e-4));
    CHECK(t.sphere_path.curr_pos.frame.origin.y == Approx(expect.y).margin(1e-4));
    CHECK(expect.x == Approx(1.5f * std::sin(36.0f * 3.14159265f / 180.0f) + 50.0f).margin(1e-3));
  }
  SECTION("the mover's own shadow is skipped") {
    s.shadow(*mover);
    auto far_blocker = s.object(4, {60, 60, 10}, 0.5f);
    s.shadow(*far_blocker);
    Transition t = s.placement(*mover, at({40, 40, 10}));
    t.sphere_path.insert_type = InsertType::Placement;
    REQUIRE(t.find_placement_pos());
    CHECK(t.sphere_path.curr_pos.frame.origin == glm::vec3(40, 40, 10));
  }
}

TEST_CASE("CTransition::find_placement_pos 0x0050BA50 spaces a ring's samples by 3.1415999, not pi", "[retail][sim]") {
  // The binary's radians_step is dist_per_step / radius * 3.1415999 (the seed
  // writes PI). For a sphere of 0.48332205 m (float 0x3EF775FD) there are
  // ceil(4 / r) = 9 rings of 4/9 m, and the ninth (4 m) spans a total that
  // rounds to 26.0000019 radians with the binary's constant, so 2 * 27 = 54
  // samples 6.6667 degrees apart; pi would give 52, 6.9231 degrees apart.
  Scene s;
  s.cells.add(kCellA);
  const float radius = 0.48332205f;
  auto mover = s.object(1, {50, 50, 10}, radius);
  // Rings 1-8 (out to 3.56 m) overlap a 3.3 m sphere on the spot; the ninth
  // (4 m) clears it. A 0.3 m sphere at 4 m, heading 350, covers the ninth
  // ring's sample 0 (0.70 m from it) but not sample 1 (1.16 m).
  auto big = s.object(2, {50, 50, 10}, 3.3f);
  auto side = s.object(3, glm::vec3(50, 50, 10) + sample(350.0f, 4.0f), 0.3f);
  s.shadow(*big);
  s.shadow(*side);
  Transition t = s.placement(*mover, at({50, 50, 10}));
  t.sphere_path.insert_type = InsertType::Placement;
  REQUIRE(t.find_placement_pos());
  const glm::vec3 got = t.sphere_path.curr_pos.frame.origin;
  const glm::vec3 retail = glm::vec3(50, 50, 10) + sample(static_cast<float>(360.0 / 54.0), 4.0f);
  const glm::vec3 with_pi = glm::vec3(50, 50, 10) + sample(static_cast<float>(360.0 / 52.0), 4.0f);
  REQUIRE(glm::length(retail - with_pi) > 0.015f);  // the two constants land 1.8 cm apart
  CHECK(got.x == Approx(retail.x).margin(1e-4));
  CHECK(got.y == Approx(retail.y).margin(1e-4));
  CHECK(got.z == Approx(10.0f));
}

TEST_CASE("CTransition::find_placement_pos 0x0050BA50 gives up as the binary does", "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto blocker = s.object(2, {50, 50, 10}, 6.0f);
  s.shadow(*blocker);

  SECTION("sliding not allowed: only the spot itself is tried") {
    auto mover = s.object(1, {50, 50, 10}, 0.5f);
    Transition t = s.placement(*mover, at({50, 50, 10}), false);
    t.sphere_path.insert_type = InsertType::Placement;
    CHECK_FALSE(t.find_placement_pos());
  }
  SECTION("a sphere of 4 m or more: 4/R <= 1 steps, no search") {
    auto mover = s.object(1, {50, 50, 10}, 4.0f);
    Transition t = s.placement(*mover, at({50, 50, 10}));
    t.sphere_path.insert_type = InsertType::Placement;
    CHECK_FALSE(t.find_placement_pos());
  }
  SECTION("every sample within 4 m blocked") {
    auto mover = s.object(1, {50, 50, 10}, 0.5f);
    Transition t = s.placement(*mover, at({50, 50, 10}));
    t.sphere_path.insert_type = InsertType::Placement;
    CHECK_FALSE(t.find_placement_pos());
    CHECK(t.sphere_path.curr_pos.frame.origin == glm::vec3(50, 50, 10));
  }
}

TEST_CASE("CTransition::find_placement_pos 0x0050BA50 fake sphere: under 0.125 m the search is 2 m at the real radius",
          "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  // r = 0.1: steps = 4/0.1 * 0.5 = 20 rings of 2/20 = 0.1 m (the radius is
  // not raised to 0.48).
  auto mover = s.object(1, {50, 50, 10}, 0.1f);
  SECTION("clear at ring 11 (1.1 m > 1.0 + 0.1 - EPSILON)") {
    auto blocker = s.object(2, {50, 50, 10}, 1.0f);
    s.shadow(*blocker);
    Transition t = s.placement(*mover, at({50, 50, 10}));
    t.sphere_path.insert_type = InsertType::Placement;
    REQUIRE(t.find_placement_pos());
    CHECK(t.sphere_path.curr_pos.frame.origin.y == Approx(51.1f).margin(1e-4));
    CHECK(t.sphere_path.curr_pos.frame.origin.x == Approx(50.0f).margin(1e-4));
  }
  SECTION("nothing beyond 2 m is tried: an obstacle of 2.5 m defeats it (a normal sphere would reach 4 m)") {
    auto blocker = s.object(2, {50, 50, 10}, 2.5f);
    s.shadow(*blocker);
    Transition t = s.placement(*mover, at({50, 50, 10}));
    t.sphere_path.insert_type = InsertType::Placement;
    CHECK_FALSE(t.find_placement_pos());
    auto big = s.object(3, {50, 50, 10}, 0.5f);
    Transition t2 = s.placement(*big, at({50, 50, 10}));
    t2.sphere_path.insert_type = InsertType::Placement;
    CHECK(t2.find_placement_pos());
  }
}

TEST_CASE("CTransition::find_placement_position 0x0050C170 ignores objects first, then searches, then steps down",
          "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);  // a floor at z = 10
  auto mover = s.object(1, {50, 50, 10.3f}, 0.5f);

  SECTION("0.3 m above the floor: the step-down (0.4 m) lands it with a walkable contact plane") {
    Transition t = s.placement(*mover, mover->position());
    REQUIRE(t.find_placement_position());
    CHECK(t.sphere_path.curr_pos.frame.origin.z == Approx(10.0f).margin(1e-4));
    CHECK(t.collision_info.contact_plane_valid);
    CHECK(t.collision_info.contact_plane.normal.z == 1.0f);
  }
  SECTION("1 m above the floor: beyond the step-down, it stays in the air without contact") {
    mover->store_position(at({50, 50, 11.0f}));
    Transition t = s.placement(*mover, mover->position());
    REQUIRE(t.find_placement_position());
    CHECK(t.sphere_path.curr_pos.frame.origin.z == Approx(11.0f));
    CHECK_FALSE(t.collision_info.contact_plane_valid);
  }
  SECTION("below the floor: INITIAL_PLACEMENT lifts it out (Adjusted, then one more insert)") {
    mover->store_position(at({50, 50, 9.8f}));
    Transition t = s.placement(*mover, mover->position());
    REQUIRE(t.find_placement_position());
    CHECK(t.sphere_path.curr_pos.frame.origin.z == Approx(10.0f).margin(1e-4));
  }
  SECTION("an object on the spot: not seen by INITIAL_PLACEMENT, then PLACEMENT moves the mover clear") {
    auto blocker = s.object(2, {50, 50, 10}, 1.0f);
    s.shadow(*blocker);
    Transition t = s.placement(*mover, at({50, 50, 10}));
    REQUIRE(t.find_placement_position());
    CHECK(t.sphere_path.curr_pos.frame.origin.y == Approx(51.5f).margin(1e-4));
    CHECK(t.sphere_path.curr_pos.frame.origin.z == Approx(10.0f).margin(1e-4));
  }
  SECTION("a missile (step_down off) is not settled onto the floor") {
    mover->set_state(ps::Missile, false);
    Transition t = s.placement(*mover, mover->position());
    REQUIRE(t.find_placement_position());
    CHECK(t.sphere_path.curr_pos.frame.origin.z == Approx(10.3f));
  }
  SECTION("no cell: Collided, no placement") {
    Transition t = s.placement(*mover, at({50, 50, 10.3f}, 0xA9B4003F));
    CHECK_FALSE(t.find_placement_position());
  }
}

TEST_CASE("CObjCell::find_obj_collisions 0x0052B750 skips INITIAL_PLACEMENT, the mover and parented objects",
          "[retail][sim]") {
  Scene s;
  GroundCell& cell = s.cells.add(kCellA);
  auto mover = s.object(1, {50, 50, 10}, 0.5f);
  auto blocker = s.object(2, {50, 50, 10}, 1.0f);
  Transition t = s.placement(*mover, at({50, 50, 10}));
  t.sphere_path.copy_curr_to_check();

  t.sphere_path.insert_type = InsertType::Placement;
  CHECK(cell.find_obj_collisions(t) == TransitionState::OK);  // no shadows yet
  s.shadow(*blocker);
  CHECK(cell.find_obj_collisions(t) == TransitionState::Collided);
  CHECK(t.collision_info.collide_objects.size() == 1);
  CHECK(t.collision_info.collide_objects[0] == blocker.get());

  t.sphere_path.insert_type = InsertType::InitialPlacement;
  CHECK(cell.find_obj_collisions(t) == TransitionState::OK);

  t.sphere_path.insert_type = InsertType::Placement;
  blocker->remove_shadows_from_cells();
  s.shadow(*mover);
  CHECK(cell.find_obj_collisions(t) == TransitionState::OK);  // the mover's own shadow
}

TEST_CASE("CPhysicsObj::FindObjCollisions 0x0050F050 ethereal, player and ignore-collisions rules", "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto mover = s.object(1, {50, 50, 10}, 0.5f);
  auto other = s.object(2, {50, 50, 10}, 1.0f);
  Transition t = s.placement(*mover, at({50, 50, 10}));
  t.sphere_path.copy_curr_to_check();
  t.sphere_path.insert_type = InsertType::Placement;

  SECTION("ethereal + ignore collisions: OK") {
    other->set_state(ps::Ethereal | ps::IgnoreCollisions, false);
    CHECK(other->find_obj_collisions(t) == TransitionState::OK);
  }
  SECTION("ethereal obstacle: the overlap test still runs, the hit is recorded but reported OK") {
    other->set_state(ps::Ethereal, false);
    CHECK(other->find_obj_collisions(t) == TransitionState::OK);
    CHECK(t.collision_info.collide_objects.size() == 1);
    CHECK_FALSE(t.sphere_path.obstruction_ethereal);  // reset on the way out
  }
  SECTION("ethereal obstacle during step-down: passed through untested") {
    other->set_state(ps::Ethereal, false);
    t.sphere_path.step_down = true;
    CHECK(other->find_obj_collisions(t) == TransitionState::OK);
    CHECK(t.collision_info.collide_objects.empty());
  }
  SECTION("player through player, unless one is a PK meeting a PK") {
    WeenieTraits player;
    player.is_player = true;
    other->set_weenie(player);
    t.object_info.state |= object_info_state::IsPlayer;
    CHECK(other->find_obj_collisions(t) == TransitionState::OK);
    player.is_pk = true;
    other->set_weenie(player);
    t.object_info.state |= object_info_state::IsPk;
    CHECK(other->find_obj_collisions(t) == TransitionState::Collided);
  }
  SECTION("a static obstacle counts as the environment") {
    other->set_state(ps::Static, false);
    CHECK(other->find_obj_collisions(t) == TransitionState::Collided);
    CHECK(t.collision_info.collided_with_environment);
    CHECK(t.collision_info.collide_objects.empty());
  }
  SECTION("a creature with IGNORE_CREATURES: reported OK with the normal cleared") {
    WeenieTraits creature;
    creature.is_creature = true;
    other->set_weenie(creature);
    t.object_info.state |= object_info_state::IgnoreCreatures;
    CHECK(other->find_obj_collisions(t) == TransitionState::OK);
    CHECK_FALSE(t.collision_info.collision_normal_valid);
    CHECK(t.collision_info.collide_objects.size() == 1);
  }
}

TEST_CASE(
    "CPhysicsObj::add_shadows_to_cells 0x00514AE0 registers a shadow per cell, children too, and leave_world removes "
    "them",
    "[retail][sim]") {
  Scene s;
  GroundCell& a = s.cells.add(kCellA);
  GroundCell& b = s.cells.add(kCellB);
  auto obj = s.object(1, {50, 50, 10}, 0.5f);
  CellArray cells;
  cells.cells = {CellArrayEntry{kCellA, &a}, CellArrayEntry{kCellB, &b}, CellArrayEntry{0xA9B40015, nullptr}};
  obj->add_shadows_to_cells(cells);
  REQUIRE(obj->shadow_objects().size() == 3);
  CHECK(obj->shadow_objects()[0].cell == &a);
  CHECK(obj->shadow_objects()[1].cell == &b);
  CHECK(obj->shadow_objects()[2].cell == nullptr);  // an unloaded cell keeps its id only
  CHECK(obj->shadow_objects()[2].cell_id == 0xA9B40015u);
  REQUIRE(a.shadow_objects().size() == 1);
  CHECK(a.shadow_objects()[0]->physobj == obj.get());
  CHECK(b.shadow_objects().size() == 1);

  SECTION("a particle emitter casts one shadow, in its own cell (add_particle_shadow_to_cell 0x00514A70)") {
    auto emitter = s.object(2, {50, 50, 10}, 0.5f, ps::ParticleEmitter);
    emitter->add_obj_to_cell(b, emitter->position().frame);
    emitter->remove_shadows_from_cells();
    REQUIRE(b.shadow_objects().size() == 1);
    emitter->add_shadows_to_cells(cells);
    REQUIRE(emitter->shadow_objects().size() == 1);
    CHECK(emitter->shadow_objects()[0].cell == &b);
    CHECK(emitter->shadow_objects()[0].cell_id == kCellB);
    CHECK(a.shadow_objects().size() == 1);  // the array's other cells get none
    REQUIRE(b.shadow_objects().size() == 2);
    CHECK(b.shadow_objects()[1]->physobj == emitter.get());
  }
  SECTION("each child gets the parent's cells, an emitter child its one shadow") {
    auto holder = s.object(3, {50, 50, 10}, 0.5f);
    auto& holder_parts = static_cast<dereth::test::FakePartArray&>(*holder->part_array());
    holder_parts.holding[1] = HoldingLocation{0, core::Frame{}};
    holder_parts.holding[2] = HoldingLocation{0, core::Frame{}};
    holder->add_obj_to_cell(a, holder->position().frame);
    auto held = s.object(4, {50, 50, 10}, 0.5f);
    auto torch = s.object(5, {50, 50, 10}, 0.5f, ps::ParticleEmitter);
    REQUIRE(held->set_parent(*holder, 1));
    REQUIRE(torch->set_parent(*holder, 2));
    CHECK(torch->cell() == &a);  // change_cell: the parent's cell
    holder->remove_shadows_from_cells();
    holder->add_shadows_to_cells(cells);
    CHECK(holder->shadow_objects().size() == 3);
    REQUIRE(held->shadow_objects().size() == 3);
    CHECK(held->shadow_objects()[0].cell == &a);
    CHECK(held->shadow_objects()[1].cell == &b);
    CHECK(held->shadow_objects()[2].cell_id == 0xA9B40015u);
    REQUIRE(torch->shadow_objects().size() == 1);
    CHECK(torch->shadow_objects()[0].cell == &a);
    CHECK(a.shadow_objects().size() == 4);  // obj, holder, held, torch
    CHECK(b.shadow_objects().size() == 3);  // obj, holder, held
    holder->remove_shadows_from_cells();
    CHECK(held->shadow_objects().empty());
    CHECK(torch->shadow_objects().empty());
    CHECK(a.shadow_objects().size() == 1);
  }
  SECTION("leave_world removes every shadow (swap-with-last)") {
    auto second = s.object(2, {50, 50, 10}, 0.5f);
    second->add_shadows_to_cells(cells);
    CHECK(a.shadow_objects().size() == 2);
    obj->leave_world();
    CHECK(obj->shadow_objects().empty());
    REQUIRE(a.shadow_objects().size() == 1);
    CHECK(a.shadow_objects()[0]->physobj == second.get());
  }
  SECTION("deleting the object removes its shadows") {
    obj.reset();
    CHECK(a.shadow_objects().empty());
    CHECK(b.shadow_objects().empty());
  }
}

TEST_CASE("CPhysicsObj::SetPositionInternal 0x00515330 commits the cell, frame, contact and shadows", "[retail][sim]") {
  Scene s;
  GroundCell& cell = s.cells.add(kCellA, 10.0f);
  auto obj = s.object(1, {50, 50, 10.3f}, 0.5f);
  Transition t = s.placement(*obj, obj->position());
  REQUIRE(t.find_placement_position());
  REQUIRE(obj->set_position_internal(t));
  CHECK(obj->cell() == &cell);
  CHECK(obj->in_cell());
  CHECK(obj->position().frame.origin.z == Approx(10.0f).margin(1e-4));
  CHECK((obj->transient_state() & transient_state::Contact) != 0);
  CHECK((obj->transient_state() & transient_state::OnWalkable) != 0);
  REQUIRE(cell.shadow_objects().size() == 1);

  SECTION("a steep contact plane: contact without OnWalkable") {
    t.collision_info.contact_plane.normal = glm::normalize(glm::vec3(1.0f, 0.0f, 0.6f));  // z 0.51 < 0.664
    REQUIRE(obj->set_position_internal(t));
    CHECK((obj->transient_state() & transient_state::Contact) != 0);
    CHECK((obj->transient_state() & transient_state::OnWalkable) == 0);
  }
  SECTION("no contact plane: neither") {
    t.collision_info.contact_plane_valid = false;
    REQUIRE(obj->set_position_internal(t));
    CHECK((obj->transient_state() & (transient_state::Contact | transient_state::OnWalkable)) == 0);
  }
  SECTION("no current cell: the object leaves the cells") {
    t.sphere_path.curr_cell = nullptr;
    REQUIRE(obj->set_position_internal(t));
    CHECK_FALSE(obj->in_cell());
    CHECK(obj->cell() == nullptr);
    CHECK(cell.shadow_objects().empty());
  }
}

TEST_CASE("CPhysicsObj::enter_world 0x00516170 places with sliding (flags 0x11) at the nearest clear spot",
          "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  auto npc = s.object(2, {50, 50, 10}, 1.0f);
  s.shadow(*npc);
  auto player = s.object(1, {50, 50, 10}, 0.5f);
  REQUIRE(player->enter_world(player->position()));
  CHECK(player->position().frame.origin.y == Approx(51.5f).margin(1e-4));
  CHECK(player->in_cell());
  CHECK(player->shadow_objects().size() == 1);  // the player owns a shadow too

  SECTION("the NPC now de-overlaps against the player's shadow") {
    auto second = s.object(3, {50, 51.5f, 10}, 0.5f);
    REQUIRE(second->enter_world(second->position()));
    CHECK(second->position().frame.origin != glm::vec3(50, 51.5f, 10));
  }
  SECTION("without sliding the blocked spot fails") {
    auto other = s.object(4, {50, 50, 10}, 0.5f);
    other->store_position(at({50, 50, 10}));
    CHECK_FALSE(other->enter_world(false));
  }
}

TEST_CASE("CTransition::calc_num_steps 0x0050A0B0 steps of at most one sphere radius", "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto mover = s.object(1, {50, 50, 10}, 0.5f);
  const auto steps_for = [&](glm::vec3 to, std::uint32_t extra_state = 0) {
    Transition t(s.cells);
    t.init_object(*mover, extra_state);
    const auto spheres = mover->part_array()->spheres();
    t.init_sphere(1, spheres.data(), 1.0f);
    const Position from = at({50, 50, 10});
    t.init_path(s.cells.get_cell(kCellA), &from, at(to));
    glm::vec3 offset;
    glm::vec3 step;
    std::uint32_t n = 99;
    t.calc_num_steps(offset, step, n);
    return std::pair{n, step};
  };
  CHECK(steps_for({50, 50, 10}).first == 0u);
  CHECK(steps_for({50.3f, 50, 10}).first == 1u);  // 0.3 m: one step
  CHECK(steps_for({50.5f, 50, 10}).first == 1u);  // exactly one radius: still one
  auto [n, step] = steps_for({52.2f, 50, 10});    // 2.2 / 0.5 = 4.4 -> 5
  CHECK(n == 5u);
  CHECK(step.x == Approx(0.44f).margin(1e-5));
  CHECK(steps_for({52.2f, 50, 10}, object_info_state::IsViewer).first == 5u);  // floor(4.4) + 1
  CHECK(steps_for({52.0f, 50, 10}, object_info_state::IsViewer).first == 5u);  // floor(4) + 1
  CHECK(steps_for({52.0f, 50, 10}).first == 4u);                               // ceil(4)
}

TEST_CASE("CTransition::find_transitional_position 0x0050BDF0 walks along the floor and is stopped by an obstacle",
          "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  auto mover = standing(s, 1, {50, 50, 10});

  SECTION("an open floor: the end position, still in contact") {
    auto t = mover->transition(&mover->position(), at({52, 50, 10}), false);
    REQUIRE(t);
    CHECK(t->sphere_path.curr_pos.frame.origin.x == Approx(52.0f).margin(1e-4));
    CHECK(t->sphere_path.curr_pos.frame.origin.z == Approx(10.0f).margin(1e-4));
    CHECK(t->collision_info.contact_plane_valid);
  }
  SECTION("head-on into a 1 m sphere: stopped short, never overlapping") {
    auto rock = s.object(2, {53, 50, 10}, 1.0f, ps::Static);
    s.shadow(*rock);
    auto t = mover->transition(&mover->position(), at({53, 50, 10}), false);
    REQUIRE(t);
    const float gap = 53.0f - t->sphere_path.curr_pos.frame.origin.x;
    CHECK(gap >= 1.5f - 0.0002f - 1e-4f);
    CHECK(gap < 2.0f);  // it did move up to the rock
    // A static obstacle counts as environment, not as an object; a grounded
    // mover does not flag the environment collision (FindObjCollisions).
    CHECK(t->collision_info.collide_objects.empty());
    CHECK_FALSE(t->collision_info.collided_with_environment);
  }
  SECTION("at an angle: it slides along the obstacle") {
    auto rock = s.object(2, {52, 50.6f, 10}, 1.0f, ps::Static);
    s.shadow(*rock);
    auto t = mover->transition(&mover->position(), at({54, 50, 10}), false);
    REQUIRE(t);
    const glm::vec3 end = t->sphere_path.curr_pos.frame.origin;
    CHECK(glm::length(glm::vec2(end.x - 52.0f, end.y - 50.6f)) >= 1.5f - 0.0002f - 1e-3f);
    CHECK(end.y < 49.95f);  // pushed aside, away from the rock
    CHECK(end.x > 50.6f);   // after moving towards it
  }
}

TEST_CASE(
    "CTransition::validate_transition 0x0050AA70 rejects a step back to the current position and counts stationary "
    "falls",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto mover = s.object(1, {50, 50, 10}, 0.5f, ps::Gravity);
  Transition t(s.cells);
  t.init_object(*mover, 0);
  const auto spheres = mover->part_array()->spheres();
  t.init_sphere(1, spheres.data(), 1.0f);
  const Position from = at({50, 50, 10});
  t.init_path(s.cells.get_cell(kCellA), &from, at({51, 50, 10}));
  t.sphere_path.copy_curr_to_check();
  t.sphere_path.add_offset_to_check_pos({0.5f, 0, 0});
  bool redo = true;

  SECTION("a collided step: back to the current position, normal (0,0,1), reported OK") {
    CHECK(t.validate_transition(TransitionState::Collided, redo) == TransitionState::OK);
    CHECK_FALSE(redo);
    CHECK(t.sphere_path.check_pos.frame.origin.x == 50.0f);
    CHECK(t.collision_info.collision_normal == glm::vec3(0, 0, 1));
    CHECK(t.collision_info.frames_stationary_fall == 1);
    // the sliding normal is the collision normal's xy: (0,0,1) has none
    CHECK(t.collision_info.sliding_normal == glm::vec3(0.0f));
  }
  SECTION("three rejected steps: a fabricated floor under the foot sphere, and an environment collision") {
    for (int i = 0; i < 3; ++i) t.validate_transition(TransitionState::Collided, redo);
    CHECK(t.collision_info.frames_stationary_fall == 3);
    REQUIRE(t.collision_info.contact_plane_valid);
    CHECK(t.collision_info.contact_plane.normal == glm::vec3(0, 0, 1));
    CHECK(t.collision_info.contact_plane.d == Approx(0.5f - 10.5f));
    CHECK(t.collision_info.collided_with_environment);
    CHECK((t.object_info.state & object_info_state::OnWalkable) != 0);
  }
  SECTION("an accepted step moves curr and resets the count") {
    t.collision_info.frames_stationary_fall = 2;
    CHECK(t.validate_transition(TransitionState::OK, redo) == TransitionState::OK);
    CHECK(t.sphere_path.curr_pos.frame.origin.x == 50.5f);
    CHECK(t.collision_info.frames_stationary_fall == 0);
    CHECK((t.object_info.state & object_info_state::Contact) == 0);
  }
}

TEST_CASE(
    "CPhysicsObj::UpdateObjectInternal 0x005156B0 commits through the sweep: a fall lands on the floor with contact "
    "from the transition",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  auto obj = s.object(1, {50, 50, 11.0f}, 0.5f, ps::Gravity);
  REQUIRE(obj->enter_world(obj->position()));
  REQUIRE((obj->transient_state() & transient_state::Contact) == 0);  // 1 m up: beyond the step-down
  obj->calc_acceleration();
  for (int i = 0; i < 60 && (obj->transient_state() & transient_state::Contact) == 0; ++i) {
    obj->update_object_internal(FloatSeconds(1.0f / 30.0f));
  }
  CHECK((obj->transient_state() & transient_state::Contact) != 0);
  CHECK((obj->transient_state() & transient_state::OnWalkable) != 0);
  CHECK(obj->position().frame.origin.z == Approx(10.0f).margin(0.01f));
  CHECK(obj->position().frame.origin.z >= 10.0f - 1e-3f);  // never below the floor
}

TEST_CASE("A position committed without a transition still takes its cell and shadows when the world has cells",
          "[sim][deviation]") {
  Scene s;
  GroundCell& cell = s.cells.add(kCellA, 10.0f);
  auto obj = s.object(1, {50, 50, 10}, 0.5f);
  REQUIRE(obj->set_position_simple(at({51, 50, 10}), true));
  CHECK(obj->cell() == &cell);
  CHECK(cell.shadow_objects().size() == 1);
  SECTION("moved again: one shadow, not two") {
    REQUIRE(obj->set_position_simple(at({52, 50, 10}), true));
    CHECK(cell.shadow_objects().size() == 1);
  }
  SECTION("entering the world where no cell is loaded: placed as told, with no cell") {
    auto far = s.object(2, {50, 50, 10}, 0.5f);
    far->store_position(at({10, 10, 5}, 0xA9B40001));
    REQUIRE(far->enter_world(far->position()));
    CHECK(far->cell() == nullptr);
    CHECK(far->position().frame.origin == glm::vec3(10, 10, 5));
  }
}

TEST_CASE("CSphere::intersects_sphere 0x00537A80 a path-clipped missile stops before the first object it meets",
          "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto rock = s.object(2, {55, 50, 10}, 1.0f, ps::Static);
  s.shadow(*rock);
  auto arrow = s.object(1, {50, 50, 10}, 0.1f, ps::Missile);
  REQUIRE(arrow->enter_world(arrow->position()));
  auto t = arrow->transition(&arrow->position(), at({58, 50, 10}), false);
  REQUIRE(t);
  const float x = t->sphere_path.curr_pos.frame.origin.x;
  // Sub-steps of one radius (0.1 m); the step that would overlap (radsum
  // 1.1 - EPSILON) is refused and the sweep ends on the one before it.
  CHECK(x <= 55.0f - 1.1f + 0.0002f);
  CHECK(x >= 55.0f - 1.1f - 0.1f - 1e-3f);
  CHECK(t->collision_info.collision_normal_valid);
  CHECK(t->collision_info.collision_normal.x == Approx(-1.0f).margin(1e-3));
  CHECK(t->collision_info.collided_with_environment);  // a static rock, a mover in the air
}
