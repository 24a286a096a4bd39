// CCylSphere: obstacles whose Setup has cylinder spheres (creatures,
// players, posts) in the transition (spec/physics.md 5.7-5.8; RE
// cgeometry/CCylSphere.c, cphysobj/CPhysicsObj.c FindObjCollisions).
// Every walker here is a 0.5 m sphere centred 0.5 m above its origin with
// 0.4 m step heights (collision_support.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <memory>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>

#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/position.hpp"

#include "collision/collision_support.hpp"
#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;

namespace {

constexpr float kEps = core::kEpsilon;

// A cylinder of radius r and height h standing on its low point.
CollisionCylinder cylinder(glm::vec3 low, float r, float h) {
  CollisionCylinder c;
  c.origin = low;
  c.radius = r;
  c.height = h;
  return c;
}

// An obstacle whose Setup has `cyl` (in its own frame) and no spheres, at
// `p`, shadowed in every cell.
std::unique_ptr<PhysicsObj> cylinder_object(Scene& s, std::uint32_t guid, const Position& p,
                                            const CollisionCylinder& cyl, std::uint32_t state = ps::Static) {
  auto obj = std::make_unique<PhysicsObj>(s.context, guid, LocalId{guid});
  auto parts = std::make_unique<FakePartArray>(s.log);
  parts->cyl_list = {cyl};
  obj->set_part_array(std::move(parts));
  obj->set_state(state, false);
  obj->store_position(p);
  s.shadow(*obj);
  return obj;
}

// A creature (a weenie that is a creature, not static): 0.5 m across, 2 m tall.
std::unique_ptr<PhysicsObj> creature(Scene& s, std::uint32_t guid, glm::vec3 origin) {
  auto obj = cylinder_object(s, guid, at(origin), cylinder({0, 0, 0}, 0.5f, 2.0f), 0);
  WeenieTraits traits;
  traits.is_creature = true;
  obj->set_weenie(traits);
  return obj;
}

// One sub-step of `mover` as find_transitional_position leaves it before
// the cell tests: curr at `from`, check at `to`, with `state`.
Transition step(Scene& s, PhysicsObj& mover, glm::vec3 from, glm::vec3 to, std::uint32_t state) {
  Transition t(s.cells);
  t.init_object(mover, state);
  const auto spheres = mover.part_array()->spheres();
  t.init_sphere(static_cast<std::uint32_t>(spheres.size()), spheres.data(), mover.scale());
  const Position begin = at(from);
  t.init_path(s.cells.get_cell(kCellA), &begin, at(to));
  t.sphere_path.copy_curr_to_check();
  t.sphere_path.add_offset_to_check_pos(to - from);
  return t;
}

// A flat floor at z 10 as the transition's contact plane.
void on_floor(Transition& t) {
  t.init_contact_plane(kCellA, Plane{glm::vec3(0, 0, 1), -10.0f}, false);
}

// Moves `mover` east in `moves` moves of `each` metres, committing each
// transition; returns the highest origin z it reached.
float walk_east(PhysicsObj& mover, int moves, float each) {
  float top = mover.position().frame.origin.z;
  for (int i = 0; i < moves; ++i) {
    Position p = mover.position();
    Position next = p;
    next.frame.origin.x += each;
    if (auto t = mover.transition(&p, next, false)) mover.set_position_internal(*t);
    top = std::max(top, mover.position().frame.origin.z);
  }
  return top;
}

glm::vec3 origin_of(const Transition& t) {
  return t.sphere_path.check_pos.frame.origin;
}

// A sweep east that ended at `x` against `obstacle`'s west side.
void check_stopped_by(const Transition& t, float x, float margin, const PhysicsObj& obstacle) {
  CHECK(t.sphere_path.curr_pos.frame.origin.x == Approx(x).margin(margin));
  CHECK(t.collision_info.collision_normal == glm::vec3(-1, 0, 0));
  REQUIRE(t.collision_info.collide_objects.size() == 1);
  CHECK(t.collision_info.collide_objects[0] == &obstacle);
}

}  // namespace

TEST_CASE("Position::localtoglobal 0x00456180 poses a point of one frame in another's landblock", "[retail][sim]") {
  const Position space = at({100, 21, 5});  // block A9B4
  const Position p{0xAAB40001, core::Frame({10, 20, 5}, glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 0, 1)))};
  // (1, 0, 0) in p's frame is 1 m north of p, and p's block is 192 m east.
  const glm::vec3 g = localtoglobal(space, p, {1, 0, 0});
  CHECK(g.x == Approx(202.0f).margin(1e-4));
  CHECK(g.y == Approx(21.0f).margin(1e-4));
  CHECK(g.z == Approx(5.0f).margin(1e-4));
  CHECK(localtoglobal(p, p, {1, 0, 0}).y == Approx(21.0f).margin(1e-4));  // its own block: no offset
}

TEST_CASE("CCylSphere::collides_with_sphere 0x0053A880 is radsum across and the height widened by the radius",
          "[retail][sim]") {
  const CollisionCylinder c = cylinder({0, 0, 0}, 1.0f, 2.0f);
  const CollisionSphere s{glm::vec3(0.0f), 0.5f};
  const float radsum = 1.0f + 0.5f - kEps;
  CHECK(cylsphere::collides_with_sphere(c, s, {1.4997f, 0, 1}, radsum));
  CHECK_FALSE(cylsphere::collides_with_sphere(c, s, {1.4999f, 0, 1}, radsum));
  CHECK(cylsphere::collides_with_sphere(c, s, {1.06f, 1.06f, 1}, radsum));          // 1.4991 across
  CHECK_FALSE(cylsphere::collides_with_sphere(c, s, {1.061f, 1.061f, 1}, radsum));  // 1.5005 across
  // Vertically: within 0.5 - EPSILON of the top (z 2) or the bottom (z 0).
  CHECK(cylsphere::collides_with_sphere(c, s, {0, 0, 2.4997f}, radsum));
  CHECK_FALSE(cylsphere::collides_with_sphere(c, s, {0, 0, 2.4999f}, radsum));
  CHECK(cylsphere::collides_with_sphere(c, s, {0, 0, -0.4997f}, radsum));
  CHECK_FALSE(cylsphere::collides_with_sphere(c, s, {0, 0, -0.4999f}, radsum));
  // The rim is square: (1.4, 2.4) is 0.57 m from the top edge, out of the
  // sphere's reach, yet within both bounds.
  CHECK(cylsphere::collides_with_sphere(c, s, {1.4f, 0, 2.4f}, radsum));
}

TEST_CASE("CCylSphere::normal_of_collision 0x0053AB50 side, top and bottom normals, and when a side hit is definite",
          "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto mover = s.object(1, {50, 50, 10}, 0.5f);
  const CollisionCylinder c = cylinder({52, 50, 10}, 0.5f, 2.0f);
  const float radsum = 0.5f + 0.5f - kEps;
  glm::vec3 n;
  SECTION("beside it and level with it: the side, definite") {
    Transition t = step(s, *mover, {50.8f, 50.6f, 10}, {51.3f, 50.6f, 10}, 0);
    const glm::vec3 disp = t.sphere_path.global_sphere[0].center - c.origin;
    CHECK(cylsphere::normal_of_collision(c, t.sphere_path, t.sphere_path.global_sphere[0], disp, radsum, 0, n));
    CHECK(n.x == Approx(-1.2f));
    CHECK(n.y == Approx(0.6f));
    CHECK(n.z == 0.0f);
  }
  SECTION("beside it and above it, moving down: the side, not definite") {
    Transition t = step(s, *mover, {51.0f, 50, 12.2f}, {51.6f, 50, 11.6f}, 0);
    const glm::vec3 disp = t.sphere_path.global_sphere[0].center - c.origin;
    CHECK_FALSE(cylsphere::normal_of_collision(c, t.sphere_path, t.sphere_path.global_sphere[0], disp, radsum, 0, n));
    CHECK(n == glm::vec3(-1.0f, 0.0f, 0.0f));
  }
  SECTION("beside it and above it, moving level: the side, definite") {
    Transition t = step(s, *mover, {51.0f, 50, 12.2f}, {51.6f, 50, 12.2f}, 0);
    const glm::vec3 disp = t.sphere_path.global_sphere[0].center - c.origin;
    CHECK(cylsphere::normal_of_collision(c, t.sphere_path, t.sphere_path.global_sphere[0], disp, radsum, 0, n));
  }
  SECTION("over it: the top when moving down or level, the bottom when moving up") {
    Transition down = step(s, *mover, {52.2f, 50, 12.2f}, {52.2f, 50, 11.9f}, 0);
    glm::vec3 disp = down.sphere_path.global_sphere[0].center - c.origin;
    CHECK(cylsphere::normal_of_collision(c, down.sphere_path, down.sphere_path.global_sphere[0], disp, radsum, 0, n));
    CHECK(n == glm::vec3(0, 0, 1));
    Transition up = step(s, *mover, {52.2f, 50, 8.5f}, {52.2f, 50, 9.2f}, 0);
    disp = up.sphere_path.global_sphere[0].center - c.origin;
    CHECK(cylsphere::normal_of_collision(c, up.sphere_path, up.sphere_path.global_sphere[0], disp, radsum, 0, n));
    CHECK(n == glm::vec3(0, 0, -1));
  }
}

TEST_CASE(
    "CCylSphere::slide_sphere 0x0053B2A0 a grounded walker slides along the side by the side normal "
    "(CCylSphere::intersects_sphere 0x0053B440)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto mover = s.object(1, {50, 50, 10}, 0.5f);
  // Half a metre east into a 2 m creature-sized cylinder, 0.6 m off its axis.
  Transition t = step(s, *mover, {50.8f, 50.6f, 10}, {51.3f, 50.6f, 10},
                      object_info_state::Contact | object_info_state::OnWalkable);
  on_floor(t);
  REQUIRE(cylsphere::intersects_sphere(cylinder({52, 50, 10}, 0.5f, 2.0f), t) == TransitionState::Slid);
  // The side normal is the current centre's (-1.2, 0.6) from the axis; the
  // slide keeps the move's part along the crease with the floor.
  const glm::vec3 end = origin_of(t);
  CHECK(end.x == Approx(50.9f).margin(1e-5));
  CHECK(end.y == Approx(50.8f).margin(1e-5));
  CHECK(end.z == Approx(10.0f).margin(1e-5));
  CHECK(t.collision_info.collision_normal.x == Approx(-0.894427f).margin(1e-5));
  CHECK(t.collision_info.collision_normal.y == Approx(0.447214f).margin(1e-5));
  CHECK(t.collision_info.collision_normal.z == 0.0f);
}

TEST_CASE(
    "CCylSphere::step_sphere_up 0x0053B310 steps onto a top within the step-up height, else slides "
    "(CCylSphere::step_sphere_down 0x0053A9B0)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  auto mover = s.object(1, {50, 50, 10}, 0.5f);
  const std::uint32_t grounded = object_info_state::Contact | object_info_state::OnWalkable;
  // The step's own inserts meet the obstacle through the cell, so it is an
  // object here (static, at (52.5, 50, 10)).
  SECTION("a 0.3 m disc: onto its top, the top the contact plane") {
    auto disc = cylinder_object(s, 2, at({52.5f, 50, 10}), cylinder({0, 0, 0}, 1.0f, 0.3f));
    Transition t = step(s, *mover, {50.8f, 50, 10}, {51.3f, 50, 10}, grounded);
    on_floor(t);
    CHECK(disc->find_obj_collisions(t) == TransitionState::OK);
    CHECK(origin_of(t).x == Approx(51.3f).margin(1e-5));
    CHECK(origin_of(t).z == Approx(10.3f).margin(1e-5));
    REQUIRE(t.collision_info.contact_plane_valid);
    CHECK(t.collision_info.contact_plane.normal == glm::vec3(0, 0, 1));
    CHECK(t.collision_info.contact_plane.d == Approx(-10.3f).margin(1e-5));
    CHECK_FALSE(t.sphere_path.step_up);
  }
  SECTION("a 0.5 m disc (over 0.4 m): slid, head-on so refused") {
    Transition t = step(s, *mover, {50.8f, 50, 10}, {51.3f, 50, 10}, grounded);
    on_floor(t);
    CHECK(cylsphere::intersects_sphere(cylinder({52.5f, 50, 10}, 1.0f, 0.5f), t) == TransitionState::Collided);
    CHECK(t.collision_info.collision_normal == glm::vec3(-1, 0, 0));
  }
  SECTION("when the step fails, the slide uses the normal turned by the obstacle's frame, as the binary does") {
    // On ground it may not stand on (Contact without OnWalkable) the step
    // is 0.04 m: too little for a 0.3 m top.
    const Position p{kCellA, core::Frame({52.5f, 50, 10}, glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 0, 1)))};
    auto disc = cylinder_object(s, 2, p, cylinder({0, 0, 0}, 1.0f, 0.3f));
    Transition t = step(s, *mover, {50.8f, 50, 10}, {51.3f, 50, 10}, object_info_state::Contact);
    on_floor(t);
    CHECK(disc->find_obj_collisions(t) == TransitionState::Slid);
    // (-1, 0, 0) turned a quarter left is (0, -1, 0): the slide along it
    // keeps the whole eastward move.
    CHECK(t.sphere_path.step_up_normal.x == Approx(0.0f).margin(1e-6));
    CHECK(t.sphere_path.step_up_normal.y == Approx(-1.0f).margin(1e-6));
    CHECK(origin_of(t).x == Approx(51.3f).margin(1e-5));
    CHECK(t.collision_info.collision_normal.y == Approx(-1.0f).margin(1e-6));
  }
}

TEST_CASE(
    "CCylSphere::step_sphere_down 0x0053A9B0 lifts the sphere onto the top within the step-down reach "
    "(CCylSphere::intersects_sphere 0x0053B440)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto mover = s.object(1, {50, 50, 10}, 0.5f);
  const CollisionCylinder disc = cylinder({52, 50, 10}, 1.0f, 0.3f);
  const auto stepping = [&](float check_z) {
    Transition t = step(s, *mover, {52.2f, 50, 10.5f}, {52.2f, 50, check_z}, object_info_state::Contact);
    t.sphere_path.step_down = true;
    t.sphere_path.step_down_amt = 0.4f;
    t.sphere_path.walk_interp = 1.0f;
    return t;
  };
  SECTION("0.2 m into the top: lifted 0.2 m, walk_interp halved, the top (marked water, as the binary passes 1)") {
    Transition t = stepping(10.1f);
    CHECK(cylsphere::intersects_sphere(disc, t) == TransitionState::Adjusted);
    CHECK(origin_of(t).z == Approx(10.3f).margin(1e-5));
    CHECK(t.sphere_path.walk_interp == Approx(0.5f).margin(1e-5));
    REQUIRE(t.collision_info.contact_plane_valid);
    CHECK(t.collision_info.contact_plane.d == Approx(-10.3f).margin(1e-5));
    CHECK(t.collision_info.contact_plane_is_water);
    CHECK(t.collision_info.contact_plane_cell_id == kCellA);
  }
  SECTION("0.7 m under the top: beyond 1.1 times the reach, refused") {
    Transition t = stepping(9.6f);
    CHECK(cylsphere::intersects_sphere(disc, t) == TransitionState::Collided);
  }
  SECTION("clear of it: OK") {
    Transition t = stepping(10.31f);
    CHECK(cylsphere::intersects_sphere(disc, t) == TransitionState::OK);
  }
  SECTION("no reach left: refused") {
    Transition t = stepping(10.1f);
    t.sphere_path.step_down_amt = 0.0f;
    CHECK(cylsphere::intersects_sphere(disc, t) == TransitionState::Collided);
  }
  SECTION("a creature's cylinder is stepped onto too (CSphere's creature exemption is not in CCylSphere)") {
    Transition t = stepping(10.1f);
    auto c = cylinder_object(s, 2, at({52, 50, 10}), cylinder({0, 0, 0}, 1.0f, 0.3f), 0);
    WeenieTraits traits;
    traits.is_creature = true;
    c->set_weenie(traits);
    CHECK(c->find_obj_collisions(t) == TransitionState::Adjusted);
    CHECK(origin_of(t).z == Approx(10.3f).margin(1e-5));
    CHECK(t.collision_info.collide_objects.empty());  // step-down hits are not recorded
  }
}

TEST_CASE("CCylSphere::land_on_cylinder 0x0053B3D0 and the landing pass of intersects_sphere 0x0053B440",
          "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto mover = s.object(1, {50, 50, 10}, 0.5f);
  const CollisionCylinder disc = cylinder({52, 50, 10}, 1.0f, 0.3f);
  SECTION("falling onto the top: collide is set with the top normal, then the pass rests it on the top") {
    Transition t = step(s, *mover, {52.2f, 50, 10.8f}, {52.2f, 50, 10.2f}, 0);
    CHECK(cylsphere::intersects_sphere(disc, t) == TransitionState::Adjusted);
    CHECK(t.sphere_path.collide);
    CHECK(t.sphere_path.step_up_normal == glm::vec3(0, 0, 1));
    CHECK(t.sphere_path.walkable_allowance == kLandingZ);
    CHECK(t.sphere_path.backup_check_pos.frame.origin == origin_of(t));
    // The landing pass: back along the move (time 0.1 / 0.6) to the top.
    CHECK(cylsphere::intersects_sphere(disc, t) == TransitionState::Adjusted);
    CHECK(origin_of(t).z == Approx(10.3f).margin(1e-5));
    CHECK(t.sphere_path.walk_interp == Approx(1.0f - 0.1f / 0.6f).margin(1e-5));
    REQUIRE(t.collision_info.contact_plane_valid);
    CHECK(t.collision_info.contact_plane.d == Approx(-10.3f).margin(1e-5));
  }
  SECTION("falling against the side: the side normal") {
    Transition t = step(s, *mover, {50.4f, 50, 10.2f}, {50.6f, 50, 10.0f}, 0);
    CHECK(cylsphere::intersects_sphere(disc, t) == TransitionState::Adjusted);
    CHECK(t.sphere_path.step_up_normal == glm::vec3(-1, 0, 0));
  }
  SECTION("the landing pass: a top contact outside the rim is OK, a level move is refused") {
    Transition t = step(s, *mover, {50.0f, 50, 10.8f}, {50.6f, 50, 10.2f}, 0);
    t.sphere_path.collide = true;
    CHECK(cylsphere::intersects_sphere(disc, t) == TransitionState::OK);  // (-1.5, 0) from the axis
    CHECK(origin_of(t).x == Approx(50.6f).margin(1e-5));
    Transition level = step(s, *mover, {50.4f, 50, 10.0f}, {50.6f, 50, 10.0f}, 0);
    level.sphere_path.collide = true;
    CHECK(cylsphere::intersects_sphere(disc, level) == TransitionState::Collided);
  }
}

TEST_CASE(
    "CCylSphere::collide_with_point 0x0053ACB0 refuses a path-clipped hit, or with PERFECT_CLIP moves to the contact "
    "(CCylSphere::intersects_sphere 0x0053B440)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto missile = s.object(1, {50, 50, 10}, 0.1f);  // 0.1 m, centred 0.5 m above the origin
  const CollisionCylinder post = cylinder({52, 50, 10}, 0.5f, 2.0f);
  const std::uint32_t clipped = object_info_state::PathClipped;
  const std::uint32_t perfect = object_info_state::PathClipped | object_info_state::PerfectClip;
  SECTION("level into the side: refused with the side normal, or moved back to touch it") {
    Transition t = step(s, *missile, {51.0f, 50, 10.5f}, {51.6f, 50, 10.5f}, clipped);
    CHECK(cylsphere::intersects_sphere(post, t) == TransitionState::Collided);
    CHECK(t.collision_info.collision_normal == glm::vec3(-1, 0, 0));
    CHECK(origin_of(t).x == Approx(51.6f).margin(1e-6));
    Transition p = step(s, *missile, {51.0f, 50, 10.5f}, {51.6f, 50, 10.5f}, perfect);
    CHECK(cylsphere::intersects_sphere(post, p) == TransitionState::Adjusted);
    CHECK(origin_of(p).x == Approx(51.4f).margin(1e-5));  // 0.6 m (radsum + EPSILON) from the axis
    CHECK(p.collision_info.collision_normal == glm::vec3(-1, 0, 0));
  }
  SECTION("down onto the top: moved back to rest on it") {
    Transition p = step(s, *missile, {52.1f, 50, 12.0f}, {52.1f, 50, 11.55f}, perfect);
    CHECK(cylsphere::intersects_sphere(post, p) == TransitionState::Adjusted);
    CHECK(origin_of(p).z == Approx(11.6f).margin(1e-5));  // the centre 0.1 m over the top at z 12
    CHECK(p.collision_info.collision_normal == glm::vec3(0, 0, 1));
  }
  SECTION("from above and beside, landing within the rim: the top") {
    Transition p = step(s, *missile, {51.2f, 50, 12.0f}, {51.7f, 50, 11.4f}, perfect);
    CHECK(cylsphere::intersects_sphere(post, p) == TransitionState::Adjusted);
    CHECK(origin_of(p).x == Approx(51.2f + 0.5f * 2.0f / 3.0f).margin(1e-5));
    CHECK(origin_of(p).z == Approx(11.6f).margin(1e-5));
    CHECK(p.collision_info.collision_normal == glm::vec3(0, 0, 1));
  }
  SECTION("from above and beside, the top contact outside the rim: the side") {
    Transition p = step(s, *missile, {50.8f, 50, 11.7f}, {51.6f, 50, 11.5f}, perfect);
    CHECK(cylsphere::intersects_sphere(post, p) == TransitionState::Adjusted);
    CHECK(origin_of(p).x == Approx(51.4f).margin(1e-5));  // time 0.75 along the move
    CHECK(origin_of(p).z == Approx(11.55f).margin(1e-5));
    CHECK(p.collision_info.collision_normal.x == Approx(-1.0f).margin(1e-5));
  }
}

TEST_CASE(
    "CCylSphere::intersects_sphere 0x0053B8F0 poses the cylinder by the object's frame and scale, and placement "
    "overlaps collide (CCylSphere::intersects_sphere 0x0053B440, CPhysicsObj::FindObjCollisions 0x0050F050)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto mover = s.object(1, {50, 50, 10}, 0.5f);
  // Low point 1 m along the object's x, turned a quarter left, scale 2: a
  // 1 m cylinder 2 m tall whose low point is 2 m north of the object.
  const Position p{kCellA, core::Frame({50, 50, 10}, glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 0, 1)))};
  const CollisionCylinder local = cylinder({1, 0, 0}, 0.5f, 1.0f);
  const auto placed = [&](glm::vec3 where) {
    Transition t = s.placement(*mover, at(where));
    t.sphere_path.copy_curr_to_check();
    t.sphere_path.insert_type = InsertType::Placement;
    return cylsphere::intersects_sphere(local, p, 2.0f, t);
  };
  CHECK(placed({50, 53.4997f, 10}) == TransitionState::Collided);  // 1.4997 m from the axis
  CHECK(placed({50, 53.5f, 10}) == TransitionState::OK);
  CHECK(placed({51.4997f, 52, 10}) == TransitionState::Collided);
  CHECK(placed({52, 50, 10}) == TransitionState::OK);              // where the unturned one would be
  CHECK(placed({50, 52, 11.9996f}) == TransitionState::Collided);  // the centre 0.4996 m over its 2 m top
  CHECK(placed({50, 52, 12.0f}) == TransitionState::OK);

  SECTION("CObjCell::find_obj_collisions: INITIAL_PLACEMENT ignores it, PLACEMENT collides") {
    auto post = cylinder_object(s, 2, p, local);
    post->set_scale_static(2.0f);
    Transition t = s.placement(*mover, at({50, 52, 10}));
    t.sphere_path.copy_curr_to_check();
    t.sphere_path.insert_type = InsertType::InitialPlacement;
    ObjCell& cell = *s.cells.get_cell(kCellA);
    CHECK(cell.find_obj_collisions(t) == TransitionState::OK);
    t.sphere_path.insert_type = InsertType::Placement;
    CHECK(cell.find_obj_collisions(t) == TransitionState::Collided);
    CHECK(t.collision_info.collided_with_environment);  // static, the mover not in contact
  }
}

TEST_CASE(
    "CPhysicsObj::enter_world 0x00516170 places a mover off a creature by its cylinder, not its enclosing sphere "
    "(CTransition::find_placement_pos 0x0050BA50, CCylSphere::intersects_sphere 0x0053B440)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto c = creature(s, 2, {50, 50, 10});
  auto mover = s.object(1, {50, 50, 10}, 0.5f);
  REQUIRE(mover->enter_world(mover->position()));
  // Ring 1 (0.5 m) is inside the cylinder; the first sample of ring 2 (1 m,
  // heading 0: north) clears its 0.9998 m. The enclosing sphere (1.118 m at
  // 1 m up) would have needed ring 4.
  core::Frame north;
  north.set_heading(0.0f);
  const glm::vec3 expected = glm::vec3(50, 50, 10) + north.forward() * 1.0f;
  CHECK(mover->position().frame.origin.x == Approx(expected.x).margin(1e-5));
  CHECK(mover->position().frame.origin.y == Approx(expected.y).margin(1e-5));
}

TEST_CASE(
    "CCylSphere::intersects_sphere 0x0053B440 in the sweep: a walker beside a creature passes, one heading at it stops "
    "at its side (CPhysicsObj::FindObjCollisions 0x0050F050, CTransition::find_transitional_position 0x0050BDF0)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  auto c = creature(s, 2, {53, 50, 10});
  SECTION("1.2 m off its axis: straight past (the enclosing sphere reached 1.54 m)") {
    auto walker = standing(s, 1, {50, 48.8f, 10});
    auto t = walker->transition(&walker->position(), at({56, 48.8f, 10}), false);
    REQUIRE(t);
    CHECK(t->sphere_path.curr_pos.frame.origin.x == Approx(56.0f).margin(1e-4));
    CHECK(t->sphere_path.curr_pos.frame.origin.y == Approx(48.8f).margin(1e-5));
    CHECK(t->collision_info.collide_objects.empty());
  }
  SECTION("head-on: the last 0.5 m sub-step clear of its side, 1 m from the axis (the sphere stopped at 51)") {
    auto walker = standing(s, 1, {50, 50, 10});
    auto t = walker->transition(&walker->position(), at({53, 50, 10}), false);
    REQUIRE(t);
    check_stopped_by(*t, 52.0f, 1e-5f, *c);
  }
}

TEST_CASE(
    "CCylSphere::step_sphere_up 0x0053B310 in the sweep: a walker climbs a low disc and walks off it, and stops at a "
    "tall one (CCylSphere::step_sphere_down 0x0053A9B0)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  auto walker = standing(s, 1, {50, 50, 10});
  SECTION("0.3 m high, 1 m across: on its top at 10.3, then back on the floor (its enclosing sphere is 1.16 m high)") {
    auto disc = cylinder_object(s, 2, at({52.5f, 50, 10}), cylinder({0, 0, 0}, 1.0f, 0.3f));
    const float top = walk_east(*walker, 20, 0.25f);
    CHECK(top == Approx(10.3f).margin(1e-4));
    CHECK(walker->position().frame.origin.x == Approx(55.0f).margin(1e-4));
    CHECK(walker->position().frame.origin.z == Approx(10.0f).margin(1e-4));
  }
  SECTION("0.5 m high: stopped at the last move clear of its side") {
    auto disc = cylinder_object(s, 2, at({52.5f, 50, 10}), cylinder({0, 0, 0}, 1.0f, 0.5f));
    CHECK(walk_east(*walker, 20, 0.25f) == Approx(10.0f).margin(1e-4));
    CHECK(walker->position().frame.origin.x == Approx(51.0f).margin(1e-4));
  }
}

TEST_CASE(
    "CCylSphere::intersects_sphere 0x0053B440 a falling object lands on a cylinder's top (CCylSphere::land_on_cylinder "
    "0x0053B3D0, CPhysicsObj::UpdateObjectInternal 0x005156B0)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  auto disc = cylinder_object(s, 2, at({52, 50, 10}), cylinder({0, 0, 0}, 1.0f, 0.3f));
  auto obj = s.object(1, {52.2f, 50, 12.0f}, 0.5f, ps::Gravity);
  REQUIRE(obj->enter_world(obj->position()));
  obj->calc_acceleration();
  for (int i = 0; i < 60 && (obj->transient_state() & transient_state::Contact) == 0; ++i) {
    obj->update_object_internal(FloatSeconds(1.0f / 30.0f));
  }
  CHECK((obj->transient_state() & transient_state::Contact) != 0);
  CHECK((obj->transient_state() & transient_state::OnWalkable) != 0);
  CHECK(obj->position().frame.origin.z == Approx(10.3f).margin(1e-4));  // the enclosing sphere's top was 11.16
}

TEST_CASE(
    "CCylSphere::intersects_sphere 0x0053B440 a path-clipped arrow stops on the sub-step before a creature "
    "(CCylSphere::collide_with_point 0x0053ACB0)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto c = creature(s, 2, {55.05f, 50, 10});
  auto arrow = s.object(1, {50, 50, 10}, 0.1f, ps::Missile);
  REQUIRE(arrow->enter_world(arrow->position()));
  auto t = arrow->transition(&arrow->position(), at({58, 50, 10}), false);
  REQUIRE(t);
  // 0.1 m sub-steps; the first within 0.5998 m of the axis (x 54.5) is
  // refused. The enclosing sphere stopped it 0.5 m sooner.
  check_stopped_by(*t, 54.4f, 1e-3f, *c);
}

TEST_CASE(
    "CCylSphere::intersects_sphere 0x0053B440 degenerate cylinders: NaN never collides, a point or an endless wall "
    "still stops",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  auto walker = standing(s, 1, {50, 50, 10});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const auto walk_to_53 = [&](const CollisionCylinder& cyl, glm::vec3 where) {
    auto obstacle = cylinder_object(s, 2, at(where), cyl);
    auto t = walker->transition(&walker->position(), at({53.5f, 50, 10}), false);
    REQUIRE(t);
    return t->sphere_path.curr_pos.frame.origin.x;
  };
  SECTION("NaN radius") {
    CHECK(walk_to_53(cylinder({0, 0, 0}, nan, 2.0f), {53, 50, 10}) == Approx(53.5f));
  }
  SECTION("NaN height") {
    CHECK(walk_to_53(cylinder({0, 0, 0}, 0.5f, nan), {53, 50, 10}) == Approx(53.5f));
  }
  SECTION("NaN low point") {
    CHECK(walk_to_53(cylinder({nan, 0, 0}, 0.5f, 2.0f), {53, 50, 10}) == Approx(53.5f));
  }
  SECTION("zero radius and height at the walker's centre height: a point, stopped 0.5 m short") {
    CHECK(walk_to_53(cylinder({0, 0, 0}, 0.0f, 0.0f), {53, 50, 10.5f}) == Approx(52.5f).margin(1e-5));
  }
  SECTION("an endless height: a wall") {
    CHECK(walk_to_53(cylinder({0, 0, 0}, 0.5f, inf), {53, 50, 10}) == Approx(52.0f).margin(1e-5));
  }
}
