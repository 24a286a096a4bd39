// Collision cost (docs/benchmarks.md): sweeps per second for a walker
// against a landblock with static sphere obstacles, creature-sized
// cylinder obstacles, physics BSP crates, or a town of buildings and
// crates; one 30 Hz tick
// of N creatures walking on terrain through the transition, and the
// placement search's worst case (every sample blocked). Terrain comes from a
// synthetic LandBlockStruct (rolling, walkable); no DAT data.
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include <benchmark/benchmark.h>

#include "dereth/core/clock.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/collision/gfx_obj_physics.hpp"
#include "dereth/sim/object/part_array.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

#include "support/bsp_box.hpp"
#include "support/fake_part_array.hpp"

namespace {

using namespace dereth;
namespace ps = protocol::physics_state;

constexpr std::uint32_t kBlock = 0xA9B4FFFF;

std::shared_ptr<const sim::GfxObjPhysics> box_physics(glm::vec3 lo, glm::vec3 hi) {
  auto tree = test::box_tree(lo, hi);
  const dat::Sphere bound = tree->get_sphere();
  return std::make_shared<const sim::GfxObjPhysics>(sim::GfxObjPhysics{0x01000001, std::move(*tree), bound});
}

sim::LandBlockStruct rolling_block() {
  dat::LandBlock b;
  b.id = kBlock;
  for (std::size_t v = 0; v < dat::kLandBlockVertices; ++v) {
    b.height[v] = static_cast<std::uint8_t>(10 + (v * 7) % 5);  // gentle, walkable
  }
  dat::LandDefs defs;
  for (std::size_t i = 0; i < defs.land_height_table.size(); ++i)
    defs.land_height_table[i] = 2.0f * static_cast<float>(i);
  return *sim::LandBlockStruct::build(b, defs, 0x13000000);
}

struct Scene {
  explicit Scene(std::vector<sim::Building> buildings = {}) {
    context.cells = &landscape;
    landscape.add_block(terrain, std::move(buildings));
  }
  // The terrain height under (x, y): objects are put on the ground.
  [[nodiscard]] float ground(float x, float y) const { return terrain.height_at(x, y).value_or(0.0f); }
  std::unique_ptr<sim::PhysicsObj> add(std::uint32_t guid, glm::vec3 at, float radius, std::uint32_t state) {
    return add(guid, at, test::FakePartArray::sphere(radius, 0.4f), state);
  }
  std::unique_ptr<sim::PhysicsObj> add(std::uint32_t guid, glm::vec3 at, std::unique_ptr<sim::PartArray> parts,
                                       std::uint32_t state) {
    auto obj = std::make_unique<sim::PhysicsObj>(context, guid, sim::LocalId{guid});
    obj->set_part_array(std::move(parts));
    obj->set_state(state, false);
    std::uint32_t cell = (kBlock & 0xFFFF0000u) | 1u;
    glm::vec3 origin(at.x, at.y, ground(at.x, at.y));
    sim::adjust_to_outside(cell, origin);
    obj->store_position(sim::Position{cell, core::Frame(origin, glm::quat(1, 0, 0, 0))});
    obj->enter_world(obj->position());
    return obj;
  }
  core::ManualClock clock;
  sim::SimContext context{clock};
  sim::LandBlockStruct terrain = rolling_block();
  sim::Landscape landscape;
};

// A static object with a physics BSP `gfx` at (x, y) on the ground.
std::unique_ptr<sim::PhysicsObj> add_bsp(Scene& s, std::uint32_t guid, float x, float y,
                                         const std::shared_ptr<const sim::GfxObjPhysics>& gfx) {
  auto obj = s.add(guid, {x, y, 40.0f}, std::make_unique<sim::PartArray>(), ps::Static | ps::HasPhysicsBsp);
  obj->set_part_array(test::FakePartArray::bsp(*obj, gfx));
  return obj;
}

// Sweeps of 1 m by a walker circling among what `s` holds.
void sweep(benchmark::State& state, Scene& s) {
  auto walker = s.add(1, {96.0f, 96.0f, 40.0f}, 0.5f, ps::Gravity | ps::EdgeSlide);
  std::uint64_t sweeps = 0;
  float heading = 0.0f;
  for (auto _ : state) {
    sim::Position to = walker->position();
    heading += 0.7f;
    to.frame.origin += glm::vec3(std::sin(heading), std::cos(heading), 0.0f);
    if (auto t = walker->transition(&walker->position(), to, false)) walker->set_position_internal(*t);
    ++sweeps;
  }
  state.counters["sweeps_per_s"] = benchmark::Counter(static_cast<double>(sweeps), benchmark::Counter::kIsRate);
}

// Sweeps of 1 m (two sub-steps) through a field of 200 static obstacles,
// each given its part array by `parts`.
template <typename MakeParts>
void sweep_through_field(benchmark::State& state, MakeParts parts) {
  Scene s;
  std::vector<std::unique_ptr<sim::PhysicsObj>> obstacles;
  for (std::uint32_t i = 0; i < 200; ++i) {
    const float x = 10.0f + static_cast<float>((i * 37) % 170);
    const float y = 10.0f + static_cast<float>((i * 91) % 170);
    obstacles.push_back(s.add(0x70000000u + i, {x, y, 40.0f}, parts(), ps::Static));
  }
  sweep(state, s);
}

// Among 0.8 m sphere rocks.
void BM_SphereSweep(benchmark::State& state) {
  sweep_through_field(state, [] { return test::FakePartArray::sphere(0.8f, 0.4f); });
}

// Among creature-sized cylinders (0.8 m across, 1.8 m tall: CCylSphere).
void BM_CylinderSweep(benchmark::State& state) {
  sweep_through_field(state, [] { return test::FakePartArray::cylinder(0.8f, 1.8f); });
}

// Among 200 1 m crates with physics BSPs (BSPTREE::find_collisions).
void BM_BspSweep(benchmark::State& state) {
  Scene s;
  const auto crate = box_physics({-0.5f, -0.5f, 0.0f}, {0.5f, 0.5f, 1.0f});
  std::vector<std::unique_ptr<sim::PhysicsObj>> crates;
  for (std::uint32_t i = 0; i < 200; ++i) {
    const float x = 10.0f + static_cast<float>((i * 37) % 170);
    const float y = 10.0f + static_cast<float>((i * 91) % 170);
    crates.push_back(add_bsp(s, 0x70000000u + i, x, y, crate));
  }
  sweep(state, s);
}

// A landblock with 16 buildings (6 x 6 x 4 m shells in the land cells at
// their origins, 12 m apart around the walker) and 100 BSP crates: the
// landscape a player walks through in a town.
void BM_TownSweep(benchmark::State& state) {
  const auto hut = box_physics({-3.0f, -3.0f, 0.0f}, {3.0f, 3.0f, 4.0f});
  const sim::LandBlockStruct terrain = rolling_block();
  std::vector<sim::Building> buildings;
  for (int i = 0; i < 16; ++i) {
    sim::Building b;
    b.physics = hut;
    const float x = 72.0f + 12.0f * static_cast<float>(i % 4) + 6.0f;
    const float y = 72.0f + 12.0f * static_cast<float>(i / 4) + 6.0f;
    b.pos = sim::Position{kBlock & 0xFFFF0000u,
                          core::Frame({x, y, terrain.height_at(x, y).value_or(0.0f) - 0.5f}, glm::quat(1, 0, 0, 0))};
    buildings.push_back(std::move(b));
  }
  Scene s(std::move(buildings));
  const auto crate = box_physics({-0.5f, -0.5f, 0.0f}, {0.5f, 0.5f, 1.0f});
  std::vector<std::unique_ptr<sim::PhysicsObj>> crates;
  for (std::uint32_t i = 0; i < 100; ++i) {
    const float x = 10.0f + static_cast<float>((i * 37) % 170);
    const float y = 10.0f + static_cast<float>((i * 91) % 170);
    crates.push_back(add_bsp(s, 0x70000000u + i, x, y, crate));
  }
  sweep(state, s);
}

// One 30 Hz tick (update_object_internal) of N creatures walking at 3 m/s.
void BM_TickWalkers(benchmark::State& state) {
  Scene s;
  const auto count = static_cast<std::uint32_t>(state.range(0));
  std::vector<std::unique_ptr<sim::PhysicsObj>> walkers;
  for (std::uint32_t i = 0; i < count; ++i) {
    const float x = 20.0f + static_cast<float>(i % 40) * 4.0f;
    const float y = 20.0f + static_cast<float>(i / 40) * 6.0f;
    auto w = s.add(0x80000000u + i, {x, y, 40.0f}, 0.5f, ps::Gravity | ps::EdgeSlide);
    w->set_velocity(glm::vec3(0.0f, 3.0f, 0.0f), false);
    walkers.push_back(std::move(w));
  }
  // Ground friction would stop them within a few ticks; a walk cycle's
  // root motion keeps them going, so the walk speed is set again each tick
  // (back and forth along y so they stay on the block).
  std::uint64_t tick = 0;
  for (auto _ : state) {
    const float dir = ((tick++ / 300) % 2 == 0) ? 1.0f : -1.0f;
    for (auto& w : walkers) {
      w->set_velocity(glm::vec3(0.0f, 3.0f * dir, 0.0f), false);
      w->update_object_internal(sim::FloatSeconds(1.0f / 30.0f));
    }
  }
  state.counters["creatures"] = static_cast<double>(count);
}

// find_placement_pos with every sample blocked: a 0.5 m mover inside a 10 m
// rock (every ring up to 4 m is inside it), so all 8 rings are tried.
void BM_PlacementWorstCase(benchmark::State& state) {
  Scene s;
  auto rock = s.add(2, {96.0f, 96.0f, 40.0f}, 10.0f, ps::Static);
  auto mover = s.add(1, {150.0f, 150.0f, 40.0f}, 0.5f, ps::Gravity);
  sim::Position spot = rock->position();
  for (auto _ : state) {
    std::unique_ptr<sim::Transition> t = mover->transition(nullptr, spot, false);
    if (t) state.SkipWithError("the blocked spot was placed");
    benchmark::DoNotOptimize(t.get());
  }
}

}  // namespace

BENCHMARK(BM_SphereSweep)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CylinderSweep)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BspSweep)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TownSweep)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TickWalkers)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlacementWorstCase)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
