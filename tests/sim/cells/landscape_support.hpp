// Landblock ids and flat test terrain shared by the sim's landscape,
// grid, cell and collision tests.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>

#include "dereth/dat/land_block.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/sim/cells/land_block_struct.hpp"

namespace dereth::sim::test {

inline constexpr dat::Did kLandscapeRegion = 0x13000000;

// Landblock (x, y)'s id, 0xXXYYFFFF, and its outdoor cell n.
constexpr std::uint32_t block(int x, int y) {
  return (static_cast<std::uint32_t>(x) << 24) | (static_cast<std::uint32_t>(y) << 16) | 0xFFFFu;
}
constexpr std::uint32_t cell(int x, int y, std::uint32_t n = 1) { return (block(x, y) & 0xFFFF0000u) | n; }

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

}  // namespace dereth::sim::test
