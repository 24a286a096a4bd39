#pragma once
// Shared worlds for the transition tests (collision_*_test.cpp): object
// cells with an optional flat floor, a cell source in which every cell
// overlaps every sphere set, and movers and obstacles built on fake part
// arrays.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <optional>

#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

#include "fakes.hpp"

namespace dereth::sim::test {

inline constexpr std::uint32_t kCellA = 0xA9B40013;  // the outdoor cell holding (48..72, 48..72)
inline constexpr std::uint32_t kCellB = 0xA9B40014;  // its neighbour to the north

// An object cell with an optional flat floor at `floor_z` (a terrain plane
// tested through OBJECTINFO::validate_walkable, as a land cell does).
class GroundCell final : public ObjCell {
 public:
  GroundCell(std::uint32_t id, std::optional<float> floor_z) : ObjCell(id), floor_z_(floor_z) {}
  TransitionState find_env_collisions(Transition& t) override {
    if (!floor_z_) return TransitionState::OK;
    const Plane floor{glm::vec3(0.0f, 0.0f, 1.0f), -*floor_z_};
    return t.object_info.validate_walkable(t.sphere_path.global_sphere[0], floor, false, 0.0f, t, id());
  }

 private:
  std::optional<float> floor_z_;
};

// Every cell overlaps every sphere set; the current cell is the position's.
class TestCells final : public CellSource {
 public:
  GroundCell& add(std::uint32_t id, std::optional<float> floor_z = std::nullopt) {
    auto cell = std::make_unique<GroundCell>(id, floor_z);
    GroundCell& ref = *cell;
    cells_[id] = std::move(cell);
    return ref;
  }
  ObjCell* get_cell(std::uint32_t id) override {
    const auto it = cells_.find(id);
    return it == cells_.end() ? nullptr : it->second.get();
  }
  void find_cell_list(const Position& p, std::uint32_t /*num_sphere*/, const CollisionSphere* /*spheres*/,
                      CellArray& out, ObjCell*& curr, SpherePath* /*path*/ = nullptr) override {
    ++lookups;
    for (auto& [id, cell] : cells_) out.cells.push_back(CellArrayEntry{id, cell.get()});
    curr = get_cell(p.objcell_id);
  }
  int lookups = 0;

 private:
  std::map<std::uint32_t, std::unique_ptr<GroundCell>> cells_;
};

struct Scene {
  Scene() { context.cells = &cells; }
  core::ManualClock clock;
  EventLog log;
  SimContext context{clock};
  TestCells cells;

  // An object with one sphere of radius r centred 0.5 m above `origin` (a
  // 0.5 m mover stands on its origin; every centre is at the same height).
  std::unique_ptr<PhysicsObj> object(std::uint32_t guid, glm::vec3 origin, float r, std::uint32_t state = 0) {
    auto obj = std::make_unique<PhysicsObj>(context, guid, LocalId{guid});
    auto parts = std::make_unique<FakePartArray>(log);
    parts->sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, 0.5f), r}};
    parts->sphere_count = 1;
    parts->step_down = 0.4f;
    parts->step_up = 0.4f;
    obj->set_part_array(std::move(parts));
    obj->set_state(state, false);
    obj->store_position(Position{kCellA, core::Frame(origin, glm::quat(1, 0, 0, 0))});
    return obj;
  }
  // Registers `obj` as an obstacle in every cell.
  void shadow(PhysicsObj& obj) {
    CellArray all;
    ObjCell* curr = nullptr;
    cells.find_cell_list(obj.position(), 0, nullptr, all, curr);
    obj.add_shadows_to_cells(all);
  }
  // A placement transition for `mover` at `p` (CPhysicsObj::place's setup).
  Transition placement(PhysicsObj& mover, const Position& p, bool slide = true) {
    Transition t(cells);
    t.init_object(mover, mover.get_object_info(false));
    const auto spheres = mover.part_array()->spheres();
    t.init_sphere(static_cast<std::uint32_t>(spheres.size()), spheres.data(), mover.scale());
    t.init_path(cells.get_cell(p.objcell_id), nullptr, p);
    t.sphere_path.placement_allows_sliding = slide;
    return t;
  }
};

inline Position at(glm::vec3 origin, std::uint32_t cell = kCellA) {
  return Position{cell, core::Frame(origin, glm::quat(1, 0, 0, 0))};
}

// Moves `mover` by `delta` in `moves` moves, committing each transition.
inline void walk(PhysicsObj& mover, int moves, glm::vec3 delta) {
  for (int i = 0; i < moves; ++i) {
    Position p = mover.position();
    Position next = p;
    next.frame.origin += delta;
    if (auto t = mover.transition(&p, next, false)) mover.set_position_internal(*t);
  }
}

inline glm::vec3 origin(const PhysicsObj& o) {
  return o.position().frame.origin;
}

// A mover standing on the floor at z 10 (placed by enter_world).
inline std::unique_ptr<PhysicsObj> standing(Scene& s, std::uint32_t guid, glm::vec3 origin) {
  auto obj = s.object(guid, origin, 0.5f, protocol::physics_state::Gravity | protocol::physics_state::EdgeSlide);
  REQUIRE(obj->enter_world(obj->position()));
  REQUIRE((obj->transient_state() & transient_state::OnWalkable) != 0);
  return obj;
}

}  // namespace dereth::sim::test
