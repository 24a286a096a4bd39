// LScape's grid as the only source of land cells, and CObjectMaint's lost
// cells and destruction queue (RE lscape/LScape.c get_landblock,
// get_landcell, update_loadpoint, update_block; cobject/CObjMaint.c
// GotoLostCell, RemoveFromLostCell, InitObjCell, AddObjectToBeDestroyed,
// RemoveObjectToBeDestroyed, UseTime; cphysobj/CPhysicsObj.c
// leave_visibility, prepare_to_leave_visibility, prepare_to_enter_world,
// reenter_visibility, SetPositionInternal; docs/sim.md, "Landblock
// unloading").
//
// The world: flat landblocks x 0x10 to 0x14 at y 0x20; the loader gives
// only these.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dereth/dat/land_block.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/object/object_maint.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/object/types.hpp"

#include "cells/landscape_support.hpp"
#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;

namespace {

struct Grid {
  explicit Grid(int mid_radius = 1) : maint(context) {
    loader.blocks = [this](std::uint32_t id) -> std::optional<LandBlockStruct> {
      ++asked[id];
      const bool in_row = (id >> 16 & 0xFFu) == 0x20 && (id >> 24) >= 0x10 && (id >> 24) <= 0x14;
      if (!in_row) return std::nullopt;
      return flat_block(id);
    };
    context.cells = &landscape;
    landscape.set_obj_maint(&maint);
    loader.released = [this](std::uint32_t id) { released.push_back(id); };
    loader.coarsened = [this](std::uint32_t id) { coarsened.push_back(id); };
    REQUIRE(landscape.set_mid_radius(mid_radius));
  }
  core::ManualClock clock;
  EventLog log;
  SimContext context{clock};
  std::map<std::uint32_t, int> asked;
  std::vector<std::uint32_t> released;
  std::vector<std::uint32_t> coarsened;
  TestLandscapeLoader loader;
  Landscape landscape{&loader};
  ObjectMaint maint;

  // The player's cell changing to `cell_id` (CellManager::ChangePosition):
  // the grid moves, then the cell grabs its visible cells.
  void update(std::uint32_t cell_id) {
    landscape.update_loadpoint(cell_id);
    landscape.grab_visible_cells();
  }

  // A dynamic object of one sphere, entering the world at `origin`
  // (block-local) in `cell_id` (CPhysicsObj::enter_world: a placement).
  PhysicsObj& enter(std::uint32_t guid, std::uint32_t cell_id, glm::vec3 origin) {
    auto obj = std::make_unique<PhysicsObj>(context, guid, maint.assign_local_id(guid));
    auto parts = std::make_unique<FakePartArray>(log);
    parts->sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, 0.5f), 0.5f}};
    parts->sphere_count = 1;
    obj->set_part_array(std::move(parts));
    obj->set_state(ps::Gravity, false);
    PhysicsObj& added = maint.add_object(std::move(obj));
    REQUIRE(added.enter_world(Position{cell_id, core::Frame(origin, glm::quat(1, 0, 0, 0))}));
    return added;
  }
};

}  // namespace

TEST_CASE(
    "LScape::get_landblock 0x00505E40: no land cell before the first load point nor outside the grid, "
    "and none loads on demand (LScape::get_landcell 0x00505F10)",
    "[retail]") {
  Grid w;
  // No load point: LScape has no grid, get_landcell gives null.
  CHECK(w.landscape.get_cell(cell(0x11, 0x20)) == nullptr);
  CHECK(w.asked.empty());
  CHECK(w.landscape.block_count() == 0);

  w.update(cell(0x11, 0x20));
  CHECK(w.landscape.get_cell(cell(0x10, 0x20, 64)) != nullptr);
  CHECK(w.landscape.get_cell(cell(0x12, 0x20, 9)) != nullptr);
  // (0x13, 0x20) is in the world and the loader would give it, but it is
  // two blocks from the load point: outside the grid, nothing.
  const int asked = w.asked[block(0x13, 0x20)];
  CHECK(w.landscape.get_cell(cell(0x13, 0x20)) == nullptr);
  CHECK(w.asked[block(0x13, 0x20)] == asked);
  CHECK(w.landscape.loaded_cell(cell(0x13, 0x20)) == nullptr);

  // After LScape::release_all there is no grid again.
  w.landscape.release_all();
  CHECK(w.landscape.get_cell(cell(0x11, 0x20)) == nullptr);
  CHECK(w.landscape.block_count() == 0);
}

TEST_CASE(
    "LScape::update_loadpoint 0x00506CD0: the first update releases every block and loads the grid afresh "
    "(LScape::update_block 0x005063A0 with refresh)",
    "[retail]") {
  Grid w;
  // A block placed before any load point, inside the grid-to-be.
  REQUIRE(w.landscape.add_block(flat_block(block(0x11, 0x20))));
  REQUIRE(w.landscape.get_cell(cell(0x11, 0x20)) != nullptr);
  w.update(cell(0x11, 0x20));
  // Released first, then read again from the loader with the others.
  CHECK(w.released == std::vector<std::uint32_t>{block(0x11, 0x20)});
  CHECK(w.asked[block(0x11, 0x20)] == 1);
  CHECK(w.landscape.loaded_blocks() ==
        std::vector<std::uint32_t>{block(0x10, 0x20), block(0x11, 0x20), block(0x12, 0x20)});

  // A jump of a whole grid width or more releases all too.
  w.released.clear();
  w.update(cell(0x14, 0x20));
  CHECK(w.released == std::vector<std::uint32_t>{block(0x10, 0x20), block(0x11, 0x20), block(0x12, 0x20)});
  CHECK(w.landscape.loaded_blocks() == std::vector<std::uint32_t>{block(0x13, 0x20), block(0x14, 0x20)});
}

TEST_CASE(
    "CObjectMaint::GotoLostCell 0x00508210 and InitObjCell 0x00508260: an object whose cell is released "
    "waits in the lost cell and re-enters visibility when the cell loads again (CPhysicsObj::leave_visibility "
    "0x00514220, CPhysicsObj::reenter_visibility 0x00516250)",
    "[retail]") {
  Grid w;
  w.update(cell(0x11, 0x20));
  PhysicsObj& mover = w.enter(0x50000001u, cell(0x10, 0x20), glm::vec3(12, 12, 10));
  REQUIRE(mover.cell() != nullptr);
  REQUIRE(mover.cell()->id() == cell(0x10, 0x20));

  w.clock.advance(core::Seconds{3.0});
  w.update(cell(0x12, 0x20));  // block 0x10 goes
  REQUIRE(w.released == std::vector<std::uint32_t>{block(0x10, 0x20)});
  // CPhysicsObj::leave_visibility: no cell, the position kept, in the lost
  // cell of its cell id, queued for destruction 25 s on.
  CHECK(mover.cell() == nullptr);
  CHECK_FALSE(mover.in_cell());
  CHECK(mover.position().objcell_id == cell(0x10, 0x20));
  CHECK(w.maint.lost_cell_objects(cell(0x10, 0x20)) == std::vector<PhysicsObj*>{&mover});
  REQUIRE(w.maint.destruction_time(mover.id()));
  CHECK(w.maint.destruction_time(mover.id())->count() == Approx(28.0));
  CHECK((mover.transient_state() & transient_state::Active) == 0);

  // Back: the block loads, its cells' lost objects come back
  // (CLandBlock::init_dyn_objs -> CObjCell::init_objects -> InitObjCell ->
  // reenter_visibility), off the destruction queue.
  w.clock.advance(core::Seconds{10.0});
  w.update(cell(0x11, 0x20));
  CHECK(mover.in_cell());
  REQUIRE(mover.cell() != nullptr);
  CHECK(mover.cell()->id() == cell(0x10, 0x20));
  CHECK(mover.position().frame.origin.x == Approx(12.0f));
  CHECK(mover.position().frame.origin.y == Approx(12.0f));
  CHECK(w.maint.lost_cell_objects(cell(0x10, 0x20)).empty());
  CHECK_FALSE(w.maint.destruction_time(mover.id()));
  CHECK((mover.transient_state() & transient_state::Active) != 0);
  // Not destroyed when its first 25 s run out.
  w.clock.advance(core::Seconds{30.0});
  w.maint.use_time();
  CHECK(w.maint.get_object(0x50000001u) == &mover);
}

TEST_CASE(
    "CObjectMaint::UseTime 0x005089B0 destroys an object still lost 25 s after it left visibility "
    "(AddObjectToBeDestroyed 0x00508F70) (CPhysicsObj::prepare_to_leave_visibility 0x00511F40)",
    "[retail]") {
  Grid w;
  w.update(cell(0x11, 0x20));
  PhysicsObj& mover = w.enter(0x50000001u, cell(0x10, 0x20), glm::vec3(12, 12, 10));
  w.clock.set(core::Seconds{5.0});
  w.update(cell(0x12, 0x20));
  REQUIRE(w.maint.lost_cell_objects(cell(0x10, 0x20)).size() == 1);
  REQUIRE(mover.cell() == nullptr);

  // At exactly 30 s the time is not past yet.
  w.clock.set(core::Seconds{30.0});
  w.maint.use_time();
  REQUIRE(w.maint.get_object(0x50000001u) != nullptr);
  w.clock.set(core::Seconds{30.001});
  w.maint.use_time();
  CHECK(w.maint.get_object(0x50000001u) == nullptr);
  CHECK(w.maint.lost_cell_objects(cell(0x10, 0x20)).empty());
  CHECK_FALSE(w.maint.destruction_time(0x50000001u));
}

TEST_CASE(
    "CPhysicsObj::SetPositionInternal 0x00516040: a placement where LScape gives no cell goes to the lost "
    "cell and comes in when the grid reaches it (CObjectMaint::InitObjCell 0x00508260)",
    "[retail]") {
  Grid w;
  // No load point yet: the object is placed lost (enter_world succeeds).
  PhysicsObj& early = w.enter(0x50000002u, cell(0x11, 0x20, 10), glm::vec3(30, 40, 10));
  CHECK(early.cell() == nullptr);
  CHECK_FALSE(early.in_cell());
  CHECK(early.position().objcell_id == cell(0x11, 0x20, 10));
  CHECK(w.maint.lost_cell_objects(cell(0x11, 0x20, 10)) == std::vector<PhysicsObj*>{&early});
  CHECK(w.maint.destruction_time(early.id()));

  // The first load point: the block loads and the object is placed.
  w.update(cell(0x11, 0x20));
  REQUIRE(early.cell() != nullptr);
  CHECK(early.cell()->id() == cell(0x11, 0x20, 10));
  CHECK(early.in_cell());
  CHECK(early.position().frame.origin.z == Approx(10.0f).margin(0.05f));
  CHECK_FALSE(w.maint.destruction_time(early.id()));

  // Outside the grid (two blocks east) a placement is lost again.
  PhysicsObj& far = w.enter(0x50000003u, cell(0x13, 0x20), glm::vec3(12, 12, 10));
  CHECK(far.cell() == nullptr);
  CHECK(w.maint.lost_cell_objects(cell(0x13, 0x20)) == std::vector<PhysicsObj*>{&far});
}

TEST_CASE(
    "LScape::get_landblock 0x00505E40 answers only the full-detail blocks (side_cell_count 8: "
    "LScape::get_block_orient 0x00504F90's 3 x 3), and a block turning coarse lets its objects go "
    "(CLandBlock::notify_change_size 0x005302C0) (CLandBlock::init_dyn_objs 0x0052F3B0)",
    "[retail]") {
  Grid w(2);  // a 5 x 5 grid: the 3 x 3 at full detail, the outer ring at size 2
  w.update(cell(0x10, 0x20));
  // 0x12 is in the grid and loaded, but at half detail: no land cells.
  CHECK(w.landscape.loaded_blocks() ==
        std::vector<std::uint32_t>{block(0x10, 0x20), block(0x11, 0x20), block(0x12, 0x20)});
  CHECK(w.landscape.side_cell_count(block(0x10, 0x20)) == 8);
  CHECK(w.landscape.side_cell_count(block(0x11, 0x20)) == 8);
  CHECK(w.landscape.side_cell_count(block(0x12, 0x20)) == 4);
  CHECK(w.landscape.side_cell_count(block(0x13, 0x20)) == 0);  // not loaded
  CHECK(w.landscape.get_cell(cell(0x11, 0x20, 64)) != nullptr);
  CHECK(w.landscape.get_cell(cell(0x12, 0x20)) == nullptr);
  CHECK(w.landscape.loaded_cell(cell(0x12, 0x20)) == nullptr);

  PhysicsObj& mover = w.enter(0x50000001u, cell(0x11, 0x20), glm::vec3(12, 12, 10));
  REQUIRE(mover.cell() != nullptr);
  // Placed where the block is coarse: no cell, so lost.
  PhysicsObj& far = w.enter(0x50000002u, cell(0x12, 0x20), glm::vec3(12, 12, 10));
  CHECK(far.cell() == nullptr);
  CHECK(w.maint.lost_cell_objects(cell(0x12, 0x20)) == std::vector<PhysicsObj*>{&far});

  // The load point moves to 0x13: 0x10 leaves the grid; 0x11 turns coarse
  // (kept in the grid, not released) and its standing object is lost; 0x12
  // turns full and its lost object comes in (CLandBlock::init_dyn_objs).
  w.clock.advance(core::Seconds{2.0});
  w.update(cell(0x13, 0x20));
  CHECK(w.released == std::vector<std::uint32_t>{block(0x10, 0x20)});
  CHECK(w.coarsened == std::vector<std::uint32_t>{block(0x11, 0x20)});
  CHECK(w.landscape.loaded_blocks() ==
        std::vector<std::uint32_t>{block(0x11, 0x20), block(0x12, 0x20), block(0x13, 0x20), block(0x14, 0x20)});
  CHECK(w.landscape.side_cell_count(block(0x11, 0x20)) == 4);
  CHECK(w.landscape.side_cell_count(block(0x12, 0x20)) == 8);
  CHECK(mover.cell() == nullptr);
  CHECK_FALSE(mover.in_cell());
  CHECK(w.maint.lost_cell_objects(cell(0x11, 0x20)) == std::vector<PhysicsObj*>{&mover});
  REQUIRE(w.maint.destruction_time(mover.id()));
  CHECK(w.maint.destruction_time(mover.id())->count() == Approx(27.0));
  REQUIRE(far.cell() != nullptr);
  CHECK(far.cell()->id() == cell(0x12, 0x20));
  CHECK_FALSE(w.maint.destruction_time(far.id()));
  CHECK(w.landscape.get_cell(cell(0x11, 0x20)) == nullptr);

  // Back to 0x11: it is full again with fresh cells, and the mover is back.
  w.update(cell(0x11, 0x20));
  CHECK(w.landscape.side_cell_count(block(0x11, 0x20)) == 8);
  CHECK(w.landscape.side_cell_count(block(0x13, 0x20)) == 4);
  REQUIRE(mover.cell() != nullptr);
  CHECK(mover.cell()->id() == cell(0x11, 0x20));
  CHECK(mover.cell() == w.landscape.loaded_cell(cell(0x11, 0x20)));
  CHECK_FALSE(w.maint.destruction_time(mover.id()));
}

TEST_CASE(
    "CObjCell::init_objects 0x0052B420: an object coming back into a loaded cell whose shadows reach a cell "
    "not there recomputes its cells (CPhysicsObj::recalc_cross_cells 0x00515A30, calc_cross_cells "
    "0x00515230 by the Setup's sorting sphere)",
    "[retail]") {
  Grid w(2);
  // Lost before any load point, in 0x11's cell 57 (x 168..192, y 0..24), 2 m
  // from block 0x12, which will be coarse.
  auto obj = std::make_unique<PhysicsObj>(w.context, 0x50000001u, w.maint.assign_local_id(0x50000001u));
  auto parts = std::make_unique<FakePartArray>(w.log);
  parts->sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, 3.0f), 3.0f}};  // reaches x 193, y 23
  parts->sphere_count = 1;
  parts->sorting = dat::Sphere{glm::vec3(0.0f, 0.0f, 1.0f), 6.0f};  // reaches x 196, y 26
  obj->set_part_array(std::move(parts));
  PhysicsObj& added = w.maint.add_object(std::move(obj));
  REQUIRE(added.enter_world(Position{cell(0x11, 0x20, 57), core::Frame({190, 20, 10}, glm::quat(1, 0, 0, 0))}));
  REQUIRE(added.cell() == nullptr);

  w.update(cell(0x10, 0x20));
  REQUIRE(added.cell() != nullptr);
  std::vector<std::uint32_t> ids;
  for (const ShadowObj& s : added.shadow_objects()) ids.push_back(s.cell_id);
  std::sort(ids.begin(), ids.end());
  // By the sorting sphere: its cell and the one north, and block 0x12's two
  // beside them (kept without a cell: the block is coarse).
  CHECK(ids == std::vector<std::uint32_t>{cell(0x11, 0x20, 57), cell(0x11, 0x20, 58), cell(0x12, 0x20, 1),
                                          cell(0x12, 0x20, 2)});
  CHECK_FALSE(added.is_completely_visible());
}
