#pragma once
// Shared by the world tests that build their own DATs with our writer
// (world_cells_test.cpp, world_statics_test.cpp): a DAT file from records,
// the Region every such world needs, and a walker (one 0.5 m sphere 0.5 m up,
// 0.4 m steps) to move through the world's cells.
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
#include "support/fake_part_array.hpp"

namespace dereth::test {

// The records as an in-memory DAT file of `kind`.
inline std::unique_ptr<dat::DatFile> make_dat(const std::vector<dat::DatRecord>& records, dat::DatKind kind,
                                              const std::string& name) {
  auto bytes = dat::build_dat(records, dat::DatWriterOptions{kind});
  REQUIRE(bytes);
  auto file = dat::DatFile::from_bytes(std::move(*bytes), name);
  REQUIRE(file);
  return std::make_unique<dat::DatFile>(std::move(*file));
}

// A Region (0x13000000) whose land height table is 2 m a step.
inline std::vector<std::uint8_t> linear_region() {
  dat::Region region;
  region.id = 0x13000000;
  for (std::size_t i = 0; i < region.land_defs.land_height_table.size(); ++i) {
    region.land_defs.land_height_table[i] = 2.0f * static_cast<float>(i);
  }
  return dat::write_region(region);
}

// Environment `id` with one CellStruct: a 20 x 20 m floor at z 0 as its one
// physics polygon (no UVs), its physics BSP one leaf, its cell BSP one leaf.
inline dat::Environment floor_room_environment(dat::Did id) {
  dat::CellStruct cs;
  dat::EnvPolygon floor;
  for (const glm::vec3& c : {glm::vec3(0, 0, 0), glm::vec3(20, 0, 0), glm::vec3(20, 20, 0), glm::vec3(0, 20, 0)}) {
    dat::EnvVertex v;
    v.id = static_cast<std::uint16_t>(cs.vertices.size());
    v.origin = c;
    cs.vertices.push_back(v);
    floor.vertex_ids.push_back(static_cast<decltype(floor.vertex_ids)::value_type>(v.id));
  }
  floor.stippling = 0x04;  // no UVs
  cs.physics_polygons = {floor};
  dat::EnvBspNode leaf;
  leaf.tag = dat::bsp_tag::kLeaf;
  leaf.sphere = dat::Sphere{glm::vec3(10, 10, 0), 15.0f};
  leaf.polygons = {0};
  cs.physics_bsp.nodes = {leaf};
  dat::EnvBspNode end;
  end.tag = dat::bsp_tag::kLeaf;
  cs.cell_bsp.nodes = {end};
  dat::Environment env;
  env.id = id;
  env.cells = {cs};
  return env;
}

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

// Moves `w` by `delta` in `moves` moves, committing each transition.
inline void walk(sim::PhysicsObj& w, int moves, glm::vec3 delta) {
  for (int i = 0; i < moves; ++i) {
    sim::Position p = w.position();
    sim::Position next = p;
    next.frame.origin += delta;
    if (auto t = w.transition(&p, next, false)) w.set_position_internal(*t);
  }
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
