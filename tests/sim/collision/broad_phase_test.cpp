// The broad phase's reach test (beyond_reach, obj_cell.hpp): CObjCell's
// object search passes over an object only where CSphere / CCylSphere
// intersects_sphere would have found nothing and changed nothing, so the
// same objects are found as by testing every shadow (issue 35, section 4).
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <iterator>
#include <memory>
#include <random>
#include <vector>

#include "dereth/sim/collision/cyl_sphere.hpp"
#include "dereth/sim/collision/obj_cell.hpp"
#include "dereth/sim/collision/reach.hpp"
#include "dereth/sim/collision/sphere.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"

#include "collision/collision_support.hpp"
#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;

namespace {

template <typename T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// The path state an obstacle test may change.
struct PathState {
  explicit PathState(const Transition& t)
      : check(t.sphere_path.check_pos.frame.origin),
        check_cell(t.sphere_path.check_pos.objcell_id),
        walk_interp(t.sphere_path.walk_interp),
        collide(t.sphere_path.collide),
        walkable_allowance(t.sphere_path.walkable_allowance),
        contact_plane_valid(t.collision_info.contact_plane_valid),
        collision_normal_valid(t.collision_info.collision_normal_valid),
        sliding_normal_valid(t.collision_info.sliding_normal_valid),
        collided_with_environment(t.collision_info.collided_with_environment) {}
  bool operator==(const PathState& o) const {
    return same_bits(check, o.check) && check_cell == o.check_cell && same_bits(walk_interp, o.walk_interp) &&
           collide == o.collide && same_bits(walkable_allowance, o.walkable_allowance) &&
           contact_plane_valid == o.contact_plane_valid && collision_normal_valid == o.collision_normal_valid &&
           sliding_normal_valid == o.sliding_normal_valid && collided_with_environment == o.collided_with_environment;
  }
  glm::vec3 check;
  std::uint32_t check_cell;
  float walk_interp;
  bool collide;
  float walkable_allowance;
  bool contact_plane_valid;
  bool collision_normal_valid;
  bool sliding_normal_valid;
  bool collided_with_environment;
};

enum class Mode { Walk, Airborne, StepDown, Landing, CheckWalkable, Placement, Ethereal };

// A 0.5 m mover (two spheres when `two`) stepping 0.3 m east from
// (60, 60, 10), in the given pass of the transition.
Transition pass(Scene& s, PhysicsObj& mover, Mode mode) {
  Transition t(s.cells);
  const std::uint32_t state = mode == Mode::Airborne ? 0u : object_info_state::Contact | object_info_state::OnWalkable;
  t.init_object(mover, state);
  const auto spheres = mover.part_array()->spheres();
  t.init_sphere(static_cast<std::uint32_t>(spheres.size()), spheres.data(), mover.scale());
  const Position begin = at({60.0f, 60.0f, 10.0f});
  t.init_path(s.cells.get_cell(kCellA), &begin, at({60.3f, 60.0f, 10.0f}));
  t.sphere_path.copy_curr_to_check();
  t.sphere_path.add_offset_to_check_pos({0.3f, 0.0f, 0.0f});
  t.init_contact_plane(kCellA, Plane{glm::vec3(0, 0, 1), -10.0f}, false);
  t.sphere_path.step_down_amt = -0.4f;
  switch (mode) {
    case Mode::StepDown: t.sphere_path.step_down = true; break;
    case Mode::Landing: t.sphere_path.collide = true; break;
    case Mode::CheckWalkable: t.sphere_path.check_walkable = true; break;
    case Mode::Placement: t.sphere_path.insert_type = InsertType::Placement; break;
    case Mode::Ethereal: t.sphere_path.obstruction_ethereal = true; break;
    default: break;
  }
  return t;
}

std::unique_ptr<PhysicsObj> two_sphere_mover(Scene& s) {
  auto mover = s.object(1, {60.0f, 60.0f, 10.0f}, 0.5f);
  auto parts = std::make_unique<FakePartArray>(s.log);
  parts->sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, 0.5f), 0.5f}, dat::Sphere{glm::vec3(0.0f, 0.0f, 1.2f), 0.5f}};
  parts->sphere_count = 2;
  parts->step_down = 0.4f;
  parts->step_up = 0.4f;
  mover->set_part_array(std::move(parts));
  return mover;
}

}  // namespace

TEST_CASE("beyond_reach passes over no sphere or cylinder that intersects_sphere would touch or change anything for",
          "[sim][collision]") {
  Scene s;
  s.cells.add(kCellA);
  std::vector<std::unique_ptr<PhysicsObj>> movers;
  movers.push_back(s.object(1, {60.0f, 60.0f, 10.0f}, 0.5f));
  movers.push_back(two_sphere_mover(s));
  const dat::Sphere ball{glm::vec3(0.2f, -0.1f, 0.5f), 0.8f};
  const dat::CylSphere post{glm::vec3(0.1f, 0.0f, 0.0f), 0.5f, 2.0f};
  const Mode modes[] = {Mode::Walk,          Mode::Airborne,  Mode::StepDown, Mode::Landing,
                        Mode::CheckWalkable, Mode::Placement, Mode::Ethereal};
  int skipped = 0;
  int tested = 0;
  int hits = 0;
  for (const auto& mover : movers) {
    for (const Mode mode : modes) {
      for (const float scale : {1.0f, 1.7f}) {
        for (float dx = -0.2f; dx < 6.0f; dx += 0.1f) {
          for (float dz = -3.0f; dz < 4.0f; dz += 0.25f) {
            const Position where = at({60.3f + dx, 60.2f, 10.0f + dz});
            for (const bool cylinder : {false, true}) {
              Transition t = pass(s, *mover, mode);
              const PathState before(t);
              const std::span<const dat::Sphere> spheres =
                  cylinder ? std::span<const dat::Sphere>() : std::span<const dat::Sphere>(&ball, 1);
              const std::span<const dat::CylSphere> cylinders =
                  cylinder ? std::span<const dat::CylSphere>(&post, 1) : std::span<const dat::CylSphere>();
              const bool beyond = beyond_reach(spheres, cylinders, scale, where, t.sphere_path);
              const TransitionState result = cylinder ? cylsphere::intersects_sphere(post, where, scale, t)
                                                      : sphere::intersects_sphere(ball, where, scale, t, false);
              if (result != TransitionState::OK || !(PathState(t) == before)) ++hits;
              if (beyond) {
                INFO("dx " << dx << " dz " << dz << " scale " << scale << " cylinder " << cylinder << " mode "
                           << static_cast<int>(mode));
                REQUIRE(result == TransitionState::OK);
                REQUIRE(PathState(t) == before);
                ++skipped;
              } else {
                ++tested;
              }
            }
          }
        }
      }
    }
  }
  // The grid covers hits, near misses left to the exact test, and objects
  // passed over.
  CHECK(hits > 1000);
  CHECK(tested > hits);
  CHECK(skipped > 10000);
}

TEST_CASE("beyond_reach: an object in another landblock is placed by the block offset", "[sim][collision]") {
  Scene s;
  auto mover = s.object(1, {191.5f, 60.0f, 10.0f}, 0.5f);
  Transition t(s.cells);
  t.init_object(*mover, 0);
  const auto spheres = mover->part_array()->spheres();
  t.init_sphere(static_cast<std::uint32_t>(spheres.size()), spheres.data(), mover->scale());
  const Position begin{0xA9B40000u | 0x31u, core::Frame({191.5f, 60.0f, 10.0f}, glm::quat(1, 0, 0, 0))};
  t.init_path(nullptr, &begin, begin);
  t.sphere_path.copy_curr_to_check();
  const dat::Sphere ball{glm::vec3(0.0f, 0.0f, 0.5f), 0.5f};
  // 1 m east, across the block edge at 192: x 0.5 in block AAB4.
  const Position east{0xAAB40000u | 0x01u, core::Frame({0.5f, 60.0f, 10.0f}, glm::quat(1, 0, 0, 0))};
  CHECK_FALSE(beyond_reach(std::span<const dat::Sphere>(&ball, 1), {}, 1.0f, east, t.sphere_path));
  // The same coordinates in the mover's own block are 191 m away.
  const Position home{0xA9B40000u | 0x01u, core::Frame({0.5f, 60.0f, 10.0f}, glm::quat(1, 0, 0, 0))};
  CHECK(beyond_reach(std::span<const dat::Sphere>(&ball, 1), {}, 1.0f, home, t.sphere_path));
}

TEST_CASE("CObjCell::find_obj_collisions finds the same obstacle with a crowd of out-of-reach objects around it",
          "[sim][collision]") {
  // The same step with the obstacle alone and with 60 sphere walkers
  // scattered around: the same result, the same path.
  const auto run = [](bool crowd) {
    Scene s;
    s.cells.add(kCellA);
    auto mover = s.object(1, {60.0f, 60.0f, 10.0f}, 0.5f, ps::Gravity | ps::EdgeSlide);
    auto rock = s.object(2, {61.0f, 60.1f, 10.0f}, 0.6f, ps::Static);
    s.shadow(*rock);
    std::vector<std::unique_ptr<PhysicsObj>> others;
    if (crowd) {
      for (std::uint32_t i = 0; i < 60; ++i) {
        const float x = 50.0f + static_cast<float>(i % 10) * 2.1f;
        const float y = 63.0f + static_cast<float>(i / 10) * 1.7f;
        others.push_back(s.object(100 + i, {x, y, 10.0f}, 0.5f));
        s.shadow(*others.back());
      }
    }
    Transition t = s.placement(*mover, mover->position());
    t.sphere_path.insert_type = InsertType::Transition;
    t.init_object(*mover, object_info_state::Contact | object_info_state::OnWalkable);
    const Position begin = mover->position();
    t.init_path(s.cells.get_cell(kCellA), &begin, at({60.6f, 60.0f, 10.0f}));
    t.sphere_path.copy_curr_to_check();
    t.sphere_path.add_offset_to_check_pos({0.6f, 0.0f, 0.0f});
    t.init_contact_plane(kCellA, Plane{glm::vec3(0, 0, 1), -10.0f}, false);
    const TransitionState result = s.cells.get_cell(kCellA)->find_obj_collisions(t);
    return std::pair{result, t.sphere_path.check_pos.frame.origin};
  };
  const auto [alone, alone_at] = run(false);
  const auto [among, among_at] = run(true);
  CHECK(alone != TransitionState::OK);
  CHECK(among == alone);
  CHECK(same_bits(among_at, alone_at));
}

namespace {

// Retail's CObjCell::find_obj_collisions 0x0052B750 with nothing passed
// over: every shadow's object that is not parented and not the mover is
// tested in full, in shadow order, until one is not OK.
TransitionState every_shadow(ObjCell& cell, Transition& t) {
  if (t.sphere_path.insert_type == InsertType::InitialPlacement) return TransitionState::OK;
  for (ShadowObj* shadow : cell.shadow_objects()) {
    PhysicsObj* obj = shadow->physobj;
    if (obj == nullptr || obj->parent() != nullptr || obj == t.object_info.object) continue;
    const TransitionState result = obj->find_obj_collisions(t);
    if (result != TransitionState::OK) return result;
  }
  return TransitionState::OK;
}

// Everything an object search may leave in a transition.
struct SearchOutcome {
  explicit SearchOutcome(TransitionState r, const Transition& t)
      : result(r),
        path(t),
        collision_normal(t.collision_info.collision_normal),
        sliding_normal(t.collision_info.sliding_normal),
        adjust_offset(t.collision_info.adjust_offset),
        collide_objects(t.collision_info.collide_objects),
        last_collided(t.collision_info.last_collided_object),
        localspace(t.sphere_path.localspace_pos.frame.origin),
        localspace_cell(t.sphere_path.localspace_pos.objcell_id),
        obstruction_ethereal(t.sphere_path.obstruction_ethereal) {
    for (std::size_t i = 0; i < spheres.size(); ++i) spheres[i] = t.sphere_path.global_sphere[i].center;
  }
  bool operator==(const SearchOutcome& o) const {
    return result == o.result && path == o.path && same_bits(collision_normal, o.collision_normal) &&
           same_bits(sliding_normal, o.sliding_normal) && same_bits(adjust_offset, o.adjust_offset) &&
           collide_objects == o.collide_objects && last_collided == o.last_collided &&
           same_bits(localspace, o.localspace) && localspace_cell == o.localspace_cell &&
           obstruction_ethereal == o.obstruction_ethereal && same_bits(spheres, o.spheres);
  }
  TransitionState result;
  PathState path;
  glm::vec3 collision_normal;
  glm::vec3 sliding_normal;
  glm::vec3 adjust_offset;
  std::vector<PhysicsObj*> collide_objects;
  PhysicsObj* last_collided;
  glm::vec3 localspace;
  std::uint32_t localspace_cell;
  bool obstruction_ethereal;
  std::array<glm::vec3, 2> spheres{};
};

// A part array of random shape: one sphere on the axis, two off it, a
// cylinder, or nothing.
std::unique_ptr<FakePartArray> random_shape(std::mt19937& rng, EventLog& log) {
  std::uniform_real_distribution<float> radius(0.1f, 1.5f);
  std::uniform_real_distribution<float> offset(-0.8f, 0.8f);
  auto parts = std::make_unique<FakePartArray>(log);
  switch (rng() % 5) {
    case 0:
    case 1: parts->sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, 0.5f), radius(rng)}}; break;
    case 2:
      parts->sphere_list = {dat::Sphere{glm::vec3(offset(rng), offset(rng), 0.5f), radius(rng)},
                            dat::Sphere{glm::vec3(offset(rng), offset(rng), 1.2f + offset(rng)), radius(rng)}};
      break;
    case 3: parts->cyl_list = {dat::CylSphere{glm::vec3(offset(rng), 0.0f, 0.0f), radius(rng), 1.8f}}; break;
    default: break;
  }
  parts->sphere_count = parts->sphere_list.size();
  return parts;
}

}  // namespace

TEST_CASE(
    "CObjCell::find_obj_collisions 0x0052B750 finds what testing every shadow finds, over random crowds whose "
    "scales, shapes and places change between searches",
    "[retail][sim][collision]") {
  std::mt19937 rng(35);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const Mode modes[] = {Mode::Walk,          Mode::Airborne,  Mode::StepDown, Mode::Landing,
                        Mode::CheckWalkable, Mode::Placement, Mode::Ethereal};
  const std::uint32_t states[] = {0u, ps::Static, ps::Ethereal, ps::Missile, ps::Ethereal | ps::IgnoreCollisions};
  int searches = 0;
  int found = 0;
  int unchanged = 0;
  int passable = 0;
  for (int layout = 0; layout < 24; ++layout) {
    Scene s;
    s.cells.add(kCellA);
    std::vector<std::unique_ptr<PhysicsObj>> crowd;
    const auto place = [&](PhysicsObj& obj) {
      const glm::vec3 where(52.0f + 16.0f * unit(rng), 52.0f + 16.0f * unit(rng), 9.0f + 2.5f * unit(rng));
      // Some stand in the next landblock east, by its own coordinates.
      const bool east = rng() % 6 == 0;
      obj.store_position(east ? at(where - glm::vec3(192.0f, 0.0f, 0.0f), 0xAAB40001u) : at(where));
    };
    for (std::uint32_t i = 0; i < 40; ++i) {
      auto obj = s.object(100 + i, {60.0f, 60.0f, 10.0f}, 0.5f, states[rng() % std::size(states)]);
      obj->set_part_array(random_shape(rng, s.log));
      if (rng() % 8 == 0) obj->set_part_array(nullptr);
      if (rng() % 2 == 0) obj->set_scale_static(0.3f + 2.0f * unit(rng));
      place(*obj);
      s.shadow(*obj);
      crowd.push_back(std::move(obj));
    }
    std::vector<std::unique_ptr<PhysicsObj>> movers;
    movers.push_back(s.object(1, {60.0f, 60.0f, 10.0f}, 0.5f));
    movers.push_back(two_sphere_mover(s));
    ObjCell& cell = *s.cells.get_cell(kCellA);
    for (int round = 0; round < 4; ++round) {
      for (const auto& mover : movers) {
        // The mover's own shadow is in the cell while it searches.
        s.shadow(*mover);
        for (const Mode mode : modes) {
          const glm::vec3 step(unit(rng) - 0.5f, unit(rng) - 0.5f, 0.2f * (unit(rng) - 0.5f));
          const auto search = [&](bool every) {
            Transition t = pass(s, *mover, mode);
            t.sphere_path.add_offset_to_check_pos(step);
            const TransitionState result = every ? every_shadow(cell, t) : cell.find_obj_collisions(t);
            return SearchOutcome(result, t);
          };
          {
            // The objects the search may pass over (spheres alone, out of reach).
            Transition t = pass(s, *mover, mode);
            t.sphere_path.add_offset_to_check_pos(step);
            for (const auto& obj : crowd) {
              const PartArray* parts = obj->part_array();
              if (parts != nullptr && parts->cyl_spheres().empty() &&
                  beyond_reach(parts->spheres(), {}, obj->scale(), obj->position(), t.sphere_path)) {
                ++passable;
              }
            }
          }
          const SearchOutcome reference = search(true);
          const SearchOutcome searched = search(false);
          INFO("layout " << layout << " round " << round << " mode " << static_cast<int>(mode));
          REQUIRE(searched == reference);
          ++searches;
          if (reference.result != TransitionState::OK || !reference.collide_objects.empty()) {
            ++found;
          } else {
            ++unchanged;
          }
        }
        mover->remove_shadows_from_cells();
      }
      // Between rounds a third of the crowd changes scale, shape or place
      // (the cached reach of each must follow).
      for (auto& obj : crowd) {
        switch (rng() % 9) {
          case 0: obj->set_scale_static(0.3f + 2.0f * unit(rng)); break;
          case 1: obj->set_part_array(random_shape(rng, s.log)); break;
          case 2: place(*obj); break;
          default: break;
        }
      }
    }
  }
  CHECK(searches == 24 * 4 * 2 * 7);
  // Both kinds of search are well represented: objects found, and none.
  CHECK(found > searches / 5);
  CHECK(unchanged > searches / 5);
  // and objects out of reach, about half the crowd.
  CHECK(passable > searches * 10);
}

TEST_CASE(
    "CObjCell::find_obj_collisions 0x0052B750: an object passed over is found once its scale or its part array "
    "brings it in reach",
    "[retail][sim][collision]") {
  Scene s;
  s.cells.add(kCellA);
  auto mover = s.object(1, {60.0f, 60.0f, 10.0f}, 0.5f);
  auto rock = s.object(2, {63.0f, 60.0f, 10.5f}, 0.5f, ps::Static);
  const auto ball = [&](float radius) {
    auto parts = std::make_unique<FakePartArray>(s.log);
    parts->sphere_list = {dat::Sphere{glm::vec3(0.0f), radius}};
    parts->sphere_count = 1;
    return parts;
  };
  rock->set_part_array(ball(0.5f));
  s.shadow(*rock);
  ObjCell& cell = *s.cells.get_cell(kCellA);
  // Both searches, each from a fresh step 0.3 m east: whether the rock was found.
  const auto found = [&] {
    Transition walk = pass(s, *mover, Mode::Walk);
    Transition every = pass(s, *mover, Mode::Walk);
    const TransitionState searched = cell.find_obj_collisions(walk);
    REQUIRE(searched == every_shadow(cell, every));
    REQUIRE(walk.collision_info.collide_objects == every.collision_info.collide_objects);
    return searched != TransitionState::OK;
  };
  CHECK_FALSE(found());  // 2.7 m from the mover's foot: passed over
  rock->set_scale_static(6.0f);
  CHECK(found());  // a 3 m ball now
  rock->set_scale_static(1.0f);
  CHECK_FALSE(found());
  rock->set_part_array(ball(2.8f));
  CHECK(found());
  // A description's scale (CPhysicsObj::set_description 0x00514F40).
  rock->set_part_array(ball(0.5f));
  CHECK_FALSE(found());
  protocol::PhysicsDesc desc;
  desc.object_scale = 6.0f;
  desc.state = ps::Static;
  rock->set_description(desc, false);
  CHECK(found());
}
