// CPhysicsObj::CheckPositionInternal 0x00511E90: the test a placement without
// Slide (SetPosition flags without 0x10) must pass before it commits.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <optional>

#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"

#include "collision/collision_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;

namespace {

// A cell whose environment pushes a sphere centred beyond a line by `push`
// (as a wall would), then lets it be.
class PushCell final : public ObjCell {
 public:
  PushCell(std::uint32_t id, glm::vec3 push) : ObjCell(id), push_(push) {}
  TransitionState find_env_collisions(Transition& t) override {
    const glm::vec3 c = t.sphere_path.global_sphere[0].center;
    // Inside the 0.5 m band around (50, 50): pushed out of it.
    if (std::abs(c.x - 50.0f) < 0.5f && std::abs(c.y - 50.0f) < 0.5f) {
      t.sphere_path.add_offset_to_check_pos(push_);
      return TransitionState::Adjusted;
    }
    return TransitionState::OK;
  }

 private:
  glm::vec3 push_;
};

class PushCells final : public CellSource {
 public:
  explicit PushCells(glm::vec3 push) : cell_(kCellA, push) {}
  ObjCell* get_cell(std::uint32_t id) override { return id == kCellA ? &cell_ : nullptr; }
  void find_cell_list(const Position& p, std::uint32_t /*num_sphere*/, const CollisionSphere* /*spheres*/,
                      CellArray& out, ObjCell*& curr, SpherePath* /*path*/ = nullptr) override {
    out.cells.push_back(CellArrayEntry{kCellA, &cell_});
    curr = get_cell(p.objcell_id);
  }

 private:
  PushCell cell_;
};

}  // namespace

TEST_CASE("CPhysicsObj::CheckPositionInternal 0x00511E90 without Slide ignores z", "[retail][sim]") {
  // acclient.c 319182-319184: only the signed x and y differences (< 0.05)
  // and the cell are tested. The placement steps the mover 0.3 m down onto
  // the floor; the move in z does not fail it.
  Scene s;
  s.cells.add(kCellA, 10.0f);
  auto obj = s.object(1, {50, 50, 10.3f}, 0.5f);
  REQUIRE(obj->set_position_simple(at({50, 50, 10.3f}), false));
  CHECK(obj->position().frame.origin.z == Approx(10.0f).margin(1e-4));
  CHECK(obj->position().frame.origin.x == 50.0f);
  CHECK(obj->in_cell());

  SECTION("from below the floor, lifted out") {
    auto low = s.object(2, {60, 60, 9.8f}, 0.5f);
    REQUIRE(low->set_position_simple(at({60, 60, 9.8f}), false));
    CHECK(low->position().frame.origin.z == Approx(10.0f).margin(1e-4));
  }
}

TEST_CASE("CPhysicsObj::CheckPositionInternal 0x00511E90 without Slide compares signed differences", "[retail][sim]") {
  // curr.x - new.x < 0.05 && curr.y - new.y < 0.05: a placement moved 1 m
  // toward -x or -y passes, one moved 1 m toward +x or +y fails.
  Scene s;
  const auto place_pushed = [&](glm::vec3 push) {
    PushCells cells(push);
    s.context.cells = &cells;
    auto obj = s.object(1, {50, 50, 10}, 0.5f);
    const bool placed = obj->set_position_simple(at({50, 50, 10}), false);
    std::optional<glm::vec3> where;
    if (placed) where = obj->position().frame.origin;
    obj.reset();
    s.context.cells = &s.cells;
    return where;
  };
  const auto west = place_pushed({-1, 0, 0});
  REQUIRE(west.has_value());
  CHECK(west->x == Approx(49.0f));
  CHECK(west->y == Approx(50.0f));
  const auto south = place_pushed({0, -1, 0});
  REQUIRE(south.has_value());
  CHECK(south->y == Approx(49.0f));
  CHECK_FALSE(place_pushed({1, 0, 0}).has_value());
  CHECK_FALSE(place_pushed({0, 1, 0}).has_value());
  // With Slide (flags 0x10) any valid spot is taken.
  PushCells cells({1, 0, 0});
  s.context.cells = &cells;
  auto obj = s.object(1, {50, 50, 10}, 0.5f);
  REQUIRE(obj->set_position_simple(at({50, 50, 10}), true));
  CHECK(obj->position().frame.origin.x == Approx(51.0f));
  obj.reset();
  s.context.cells = &s.cells;
}
