// LScape's kept grid of landblocks around the load point and the release of
// the blocks it leaves (RE lscape/LScape.c: update_loadpoint, update_block,
// get_block_shift, release_all, SetMidRadius; ccell/CLandBlock.c release_all;
// ccell/CObjCell.c release_objects; docs/sim.md, "Landblock unloading").
//
// The world: five flat landblocks in a row, x 0x10 to 0x14 at y 0x20, and
// one more at (0x12, 0x22); the loader gives only these.
#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dereth/dat/land_block.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/sim/cells/landscape.hpp"
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

struct Row {
  Row() {
    loader.blocks = [this](std::uint32_t id) -> std::optional<LandBlockStruct> {
      ++asked[id];
      const bool in_row = (id >> 16 & 0xFFu) == 0x20 && (id >> 24) >= 0x10 && (id >> 24) <= 0x14;
      if (!in_row && id != block(0x12, 0x22)) return std::nullopt;
      return flat_block(id);
    };
    context.cells = &landscape;
    loader.released = [this](std::uint32_t id) {
      released.push_back(id);
      // Told before the cells go: a full-detail block's are still there, and
      // empty; a coarser block has none.
      const bool full = landscape.side_cell_count(id) == 8;
      for (std::uint32_t n = 1; n <= 64; ++n) {
        ObjCell* c = landscape.loaded_cell((id & 0xFFFF0000u) | n);
        REQUIRE((c != nullptr) == full);
        if (c != nullptr) CHECK(c->shadow_objects().empty());
      }
    };
  }
  core::ManualClock clock;
  EventLog log;
  SimContext context{clock};
  std::map<std::uint32_t, int> asked;
  std::vector<std::uint32_t> released;
  TestLandscapeLoader loader;
  Landscape landscape{&loader};

  // An object with one sphere of `radius`, placed as it stands at `origin`
  // (block-local) in `cell_id`.
  std::unique_ptr<PhysicsObj> place(std::uint32_t guid, std::uint32_t cell_id, glm::vec3 origin, float radius,
                                    std::uint32_t state) {
    auto obj = std::make_unique<PhysicsObj>(context, guid, LocalId{guid});
    auto parts = std::make_unique<FakePartArray>(log);
    parts->sphere_list = {dat::Sphere{glm::vec3(0.0f), radius}};
    parts->sphere_count = 1;
    // The same reach for its cells: calc_cross_cells_static hands a
    // cylinder to find_cell_list as a sphere at its low point (0x0052B9F0).
    parts->cyl_list = {dat::CylSphere{glm::vec3(0.0f), radius, 1.0f}};
    obj->set_part_array(std::move(parts));
    obj->set_state(state, false);
    ObjCell* c = landscape.get_cell(cell_id);
    REQUIRE(c != nullptr);
    obj->add_obj_to_cell(*c, core::Frame(origin, glm::quat(1, 0, 0, 0)));
    return obj;
  }
};

std::vector<std::uint32_t> row_blocks(int from, int to) {
  std::vector<std::uint32_t> out;
  for (int x = from; x <= to; ++x) out.push_back(block(x, 0x20));
  return out;
}

}  // namespace

TEST_CASE("LScape::get_block_shift 0x00504A60 steps from one cell's block to another's", "[retail]") {
  int x = 99;
  int y = 99;
  REQUIRE(Landscape::get_block_shift(0xA9B40001u, 0xABB20105u, x, y));
  CHECK(x == 2);
  CHECK(y == -2);
  // The second cell 0: the steps to block 0,0.
  REQUIRE(Landscape::get_block_shift(0xA9B40001u, 0u, x, y));
  CHECK(x == -0xA9);
  CHECK(y == -0xB4);
  // The first 0: no shift, the outputs untouched.
  x = 7;
  y = 8;
  CHECK_FALSE(Landscape::get_block_shift(0u, 0xA9B40001u, x, y));
  CHECK(x == 7);
  CHECK(y == 8);
}

TEST_CASE("LScape::SetMidRadius 0x00504C00 refuses below 1 and once a load point is set", "[retail]") {
  Row w;
  CHECK(w.landscape.mid_radius() == 5);
  CHECK_FALSE(w.landscape.set_mid_radius(0));
  CHECK(w.landscape.mid_radius() == 5);
  CHECK(w.landscape.set_mid_radius(1));
  CHECK(w.landscape.mid_radius() == 1);
  w.landscape.update_loadpoint(cell(0x10, 0x20));
  CHECK_FALSE(w.landscape.set_mid_radius(2));
  CHECK(w.landscape.mid_radius() == 1);
  // LScape::release_all leaves no grid: the radius may change again.
  w.landscape.update_loadpoint(0);
  CHECK(w.landscape.set_mid_radius(2));
}

TEST_CASE("LScape::update_loadpoint 0x00506CD0 keeps the grid of blocks within mid_radius of the load point",
          "[retail]") {
  Row w;
  REQUIRE(w.landscape.set_mid_radius(1));

  w.landscape.update_loadpoint(cell(0x10, 0x20, 9));
  CHECK(w.landscape.loaded_cell_id() == cell(0x10, 0x20, 9));
  CHECK(w.landscape.loaded_blocks() == row_blocks(0x10, 0x11));
  // Each slot of the 3 x 3 grid inside the world was asked for once.
  CHECK(w.asked.size() == 9);
  CHECK(w.released.empty());

  // Within the same block: nothing loads or goes.
  w.landscape.update_loadpoint(cell(0x10, 0x20, 40));
  CHECK(w.asked.size() == 9);
  CHECK(w.landscape.loaded_cell_id() == cell(0x10, 0x20, 40));

  w.landscape.update_loadpoint(cell(0x11, 0x20));
  CHECK(w.landscape.loaded_blocks() == row_blocks(0x10, 0x12));
  CHECK(w.released.empty());

  w.landscape.update_loadpoint(cell(0x12, 0x20));
  CHECK(w.landscape.loaded_blocks() == row_blocks(0x11, 0x13));
  CHECK(w.released == std::vector<std::uint32_t>{block(0x10, 0x20)});

  // Two blocks at once, the grid wholly new but for one block.
  w.landscape.update_loadpoint(cell(0x14, 0x20));
  CHECK(w.landscape.loaded_blocks() == row_blocks(0x13, 0x14));
  CHECK(w.released == std::vector<std::uint32_t>{block(0x10, 0x20), block(0x11, 0x20), block(0x12, 0x20)});

  // Back at the start: the released blocks load again.
  const int first_asked = w.asked[block(0x10, 0x20)];
  w.landscape.update_loadpoint(cell(0x10, 0x20));
  CHECK(w.landscape.loaded_blocks() == row_blocks(0x10, 0x11));
  CHECK(w.asked[block(0x10, 0x20)] == first_asked + 1);
  // The blocks the loader could not give are not asked for again.
  CHECK(w.asked[block(0x0F, 0x20)] == 1);

  // In y: (0x12, 0x22) is two blocks from (0x12, 0x20), one from (0x12, 0x21).
  w.landscape.update_loadpoint(cell(0x12, 0x20));
  CHECK(w.landscape.loaded_blocks() == row_blocks(0x11, 0x13));
  w.landscape.update_loadpoint(cell(0x12, 0x21));
  CHECK(w.landscape.loaded_blocks() ==
        std::vector<std::uint32_t>{block(0x11, 0x20), block(0x12, 0x20), block(0x12, 0x22), block(0x13, 0x20)});

  // Cell 0: LScape::release_all.
  w.landscape.update_loadpoint(0);
  CHECK(w.landscape.loaded_blocks().empty());
  CHECK(w.landscape.loaded_cell_id() == 0);
}

TEST_CASE("LScape::update_loadpoint 0x00506CD0 with the default radius keeps the whole row", "[retail]") {
  Row w;
  w.landscape.update_loadpoint(cell(0x12, 0x20));
  // 11 x 11 slots, all inside the world; the sixth block is in the grid too.
  CHECK(w.asked.size() == 121);
  auto expected = row_blocks(0x10, 0x14);
  expected.insert(expected.begin() + 3, block(0x12, 0x22));
  CHECK(w.landscape.loaded_blocks() == expected);
  // Five blocks east the westmost leaves.
  w.landscape.update_loadpoint(cell(0x16, 0x20));
  CHECK(w.released == std::vector<std::uint32_t>{block(0x10, 0x20)});
}

TEST_CASE("LScape::update_loadpoint 0x00506CD0 at the world's edge leaves the slots off the world empty", "[retail]") {
  Row w;
  REQUIRE(w.landscape.set_mid_radius(1));
  w.landscape.update_loadpoint(0x00000001u);
  // Only 0,0 0,1 1,0 1,1 are inside the world.
  CHECK(w.asked.size() == 4);
  CHECK(w.landscape.loaded_blocks().empty());
}

TEST_CASE("LScape::release_all 0x00504B60 releases every block and clears the load point", "[retail]") {
  Row w;
  REQUIRE(w.landscape.set_mid_radius(1));
  w.landscape.update_loadpoint(cell(0x11, 0x20));
  REQUIRE(w.landscape.block_count() == 3);
  w.landscape.release_all();
  CHECK(w.landscape.block_count() == 0);
  CHECK(w.landscape.loaded_cell_id() == 0);
  CHECK(w.released.size() == 3);
  // No grid: a cell asked for afterwards loads nothing (LScape::get_landblock).
  CHECK(w.landscape.get_cell(cell(0x10, 0x20)) == nullptr);
  CHECK(w.landscape.block_count() == 0);
}

TEST_CASE(
    "CLandBlock::release_all 0x0052FCF0 and CObjCell::release_objects 0x0052B490: no shadow is left in a released cell",
    "[retail]") {
  Row w;
  REQUIRE(w.landscape.set_mid_radius(1));
  w.landscape.update_loadpoint(cell(0x11, 0x20));
  // A dynamic object standing in block 0x10's first cell.
  auto mover = w.place(1, cell(0x10, 0x20), glm::vec3(12, 12, 10), 1.0f, ps::Gravity);
  // A static object there too: the block's owner frees it.
  auto rock = w.place(2, cell(0x10, 0x20), glm::vec3(12, 12, 10), 1.0f, ps::Static);
  // A static in block 0x11's first cell whose sphere reaches west into
  // block 0x10's cell at x 7, y 0.
  auto tree = w.place(3, cell(0x11, 0x20), glm::vec3(1, 12, 10), 3.0f, ps::Static);
  REQUIRE(tree->shadow_objects().size() == 2);
  const std::uint32_t west_cell = cell(0x10, 0x20, 57);  // x 7, y 0: cell 7 * 8 + 0 + 1
  REQUIRE(w.landscape.loaded_cell(west_cell)->shadow_objects().size() == 1);

  w.landscape.update_loadpoint(cell(0x12, 0x20));
  REQUIRE(w.released == std::vector<std::uint32_t>{block(0x10, 0x20)});
  CHECK(w.landscape.loaded_cell(cell(0x10, 0x20)) == nullptr);

  // The dynamic object left visibility: no cell, no shadows, its position kept.
  CHECK(mover->cell() == nullptr);
  CHECK_FALSE(mover->in_cell());
  CHECK(mover->shadow_objects().empty());
  CHECK(mover->position().objcell_id == cell(0x10, 0x20));
  CHECK((mover->transient_state() & transient_state::Active) == 0);
  // The static keeps its cell (its owner frees it) and its shadows' ids,
  // each shadow out of its released cell.
  CHECK(rock->cell() != nullptr);
  for (const ShadowObj& s : rock->shadow_objects()) CHECK(s.cell == nullptr);
  rock.reset();
  // The kept block's static keeps its own cell's shadow; the one in the
  // released block has the cell's id and no cell.
  REQUIRE(tree->shadow_objects().size() == 2);
  for (const ShadowObj& s : tree->shadow_objects()) {
    if ((s.cell_id & 0xFFFF0000u) == (block(0x10, 0x20) & 0xFFFF0000u)) {
      CHECK(s.cell_id == west_cell);
      CHECK(s.cell == nullptr);
    } else {
      CHECK(s.cell == w.landscape.loaded_cell(cell(0x11, 0x20)));
    }
  }
  CHECK(w.landscape.loaded_cell(cell(0x11, 0x20))->shadow_objects().size() == 1);
}
