// Landblock ids and flat test terrain shared by the sim's landscape,
// grid, cell and collision tests.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "dereth/dat/land_block.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/sim/cells/land_block_struct.hpp"
#include "dereth/sim/cells/landscape_loader.hpp"

namespace dereth::sim::test {

inline constexpr dat::Did kLandscapeRegion = 0x13000000;

// Landblock (x, y)'s id, 0xXXYYFFFF, and its outdoor cell n.
constexpr std::uint32_t block(int x, int y) {
  return (static_cast<std::uint32_t>(x) << 24) | (static_cast<std::uint32_t>(y) << 16) | 0xFFFFu;
}
constexpr std::uint32_t cell(int x, int y, std::uint32_t n = 1) {
  return (block(x, y) & 0xFFFF0000u) | n;
}

// A landblock flat at z 10 (height index 5 on a linear 2 m table).
inline LandBlockStruct flat_block(std::uint32_t id) {
  dat::LandDefs defs;
  for (std::size_t i = 0; i < defs.land_height_table.size(); ++i) {
    defs.land_height_table[i] = 2.0f * static_cast<float>(i);
  }
  dat::LandBlock b;
  b.id = id;
  for (auto& h : b.height) h = 5;  // ground at z 10
  auto s = LandBlockStruct::build(b, defs, kLandscapeRegion);
  REQUIRE(s);
  return std::move(*s);
}

// A LandscapeLoader of functions, so a test gives the records it needs and
// watches the static objects' steps; an absent one gives or does nothing.
struct TestLandscapeLoader final : LandscapeLoader {
  std::function<std::optional<LandBlockStruct>(std::uint32_t block_id)> blocks;
  std::function<std::unique_ptr<EnvCell>(std::uint32_t cell_id)> env_cells;
  std::function<std::vector<Building>(std::uint32_t block_id)> buildings;
  std::function<void(std::uint32_t block_id)> static_objs;  // CLandBlock::init_static_objs
  std::function<void(EnvCell& cell)> env_static_objects;    // CEnvCell::init_static_objects
  std::function<void(std::uint32_t cell_id)> env_cell_freed;
  std::function<void(std::uint32_t block_id)> released;
  std::function<void(std::uint32_t block_id)> coarsened;

  std::optional<LandBlockStruct> load_land_block(std::uint32_t id) override {
    return blocks ? blocks(id) : std::nullopt;
  }
  std::vector<Building> load_buildings(std::uint32_t id) override {
    return buildings ? buildings(id) : std::vector<Building>{};
  }
  std::unique_ptr<EnvCell> load_env_cell(std::uint32_t id) override { return env_cells ? env_cells(id) : nullptr; }
  void init_static_objs(std::uint32_t id) override {
    if (static_objs) static_objs(id);
  }
  void init_static_objects(EnvCell& c) override {
    if (env_static_objects) env_static_objects(c);
  }
  void destroy_env_cell(std::uint32_t id) override {
    if (env_cell_freed) env_cell_freed(id);
  }
  void release_land_block(std::uint32_t id) override {
    if (released) released(id);
  }
  void notify_change_size(std::uint32_t id) override {
    if (coarsened) coarsened(id);
  }
};

}  // namespace dereth::sim::test
