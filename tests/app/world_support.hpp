#pragma once
// Shared by the world tests that build their own DATs with our writer
// (world_cells_test.cpp, world_unload_test.cpp): the cells wing's DAT helpers
// (sim/cells/dat_cells_support.hpp) and a walker (one 0.5 m sphere 0.5 m up,
// 0.4 m steps) to move through an app::World's cells.
#include <catch2/catch.hpp>

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dereth/app/world.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/sim/object/physics_obj.hpp"

#include "sim/cells/dat_cells_support.hpp"
#include "support/fake_part_array.hpp"

namespace dereth::test {

// The DAT-building helpers the cells wing's tests share (make_dat,
// linear_region, floor_room_environment, walk).
using sim::test::floor_room_environment;
using sim::test::linear_region;
using sim::test::make_dat;
using sim::test::walk;

// A walker entered into `world` at `at` in `cell`. It stands in for the
// player: its position is the load point first (CellManager::ChangePosition,
// as SmartBox::UseTime does with the player's), so the grid around it is
// loaded.
inline std::unique_ptr<sim::PhysicsObj> walker(app::World& world, std::uint32_t guid, std::uint32_t cell,
                                               glm::vec3 at) {
  world.change_position(sim::Position{cell, core::Frame(at, glm::quat(1, 0, 0, 0))});
  auto obj = std::make_unique<sim::PhysicsObj>(world.context(), guid, sim::LocalId{guid});
  obj->set_part_array(test::FakePartArray::sphere(0.5f, 0.4f));  // a walker's shape
  obj->set_state(protocol::physics_state::Gravity | protocol::physics_state::EdgeSlide, false);
  obj->store_position(sim::Position{cell, core::Frame(at, glm::quat(1, 0, 0, 0))});
  REQUIRE(obj->enter_world(obj->position()));
  return obj;
}

// The grid around `cell` as a player standing there has it:
// CellManager::ChangePosition (SmartBox::UseTime's), the grid moved and
// then the cell's grab pass (the full blocks' statics and lost objects).
inline void load_grid(app::World& world, std::uint32_t cell) {
  world.change_position(sim::Position{cell, core::Frame(glm::vec3(12, 12, 0), glm::quat(1, 0, 0, 0))});
}

// The embedded demo world's portal and cell DATs, built once per test program.
struct DemoDats {
  dat::DatFile portal;
  dat::DatFile cell;
};

inline const DemoDats& demo_dats() {
  static const DemoDats dats = [] {
    auto world = demo::build_demo_world();
    if (!world) throw std::runtime_error(world.error().message());
    auto portal = dat::DatFile::from_bytes(world->portal, "demo portal");
    auto cell = dat::DatFile::from_bytes(world->cell, "demo cell");
    if (!portal || !cell) throw std::runtime_error("demo DATs");
    return DemoDats{std::move(*portal), std::move(*cell)};
  }();
  return dats;
}

}  // namespace dereth::test
