// Procedural scenery (CLandBlock::get_land_scenes 0x00530460 and the
// ObjectDesc rules it calls; docs/sim.md "Scenery"): the placement rule
// against expected positions worked through ACE's port of the same rule
// (Landblock.get_land_scenes, ObjectDesc.Displace / ScaleObj / RotateObj,
// OnRoad: a scratch script outside the repository following its arithmetic),
// and the loader making the scenery with its landblock.
//
// The test block 0xA9B4: flat (z 10), terrain type 0 with scene type 0
// everywhere, a road along vertex column x 4. The Region's terrain type 0
// lists scene type 0, whose two Scenes are a tree (a Setup with a 0.5 m
// cylinder: displaced up to 8 m, freq 0.6, scale 0.8..1.25, any heading,
// slope 0.5..1) and a rock (a 2 m GfxObj box with a physics BSP: at (6, 6)
// from its vertex, freq 1, scale 1.5, aligned to the slope).
#include "dereth/sim/cells/scenery.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/dat/scene.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/sim/cells/land_block_struct.hpp"
#include "dereth/sim/object/physics_obj.hpp"

#include "cells/dat_cells_support.hpp"

using namespace dereth;
using dereth::sim::test::make_dat;
using dereth::sim::test::walk;
using dereth::sim::test::walker;

namespace {

constexpr dat::Did kRock = 0x01000300;
constexpr dat::Did kTrunk = 0x01000301;
constexpr dat::Did kPebble = 0x01000302;  // no physics: the overflow test's
constexpr dat::Did kTree = 0x02000300;
constexpr dat::Did kTreeScene = 0x12000001;
constexpr dat::Did kRockScene = 0x12000002;
constexpr dat::Did kPebbleScene = 0x12000003;
constexpr std::uint32_t kBlock = 0xA9B40000;
constexpr std::uint32_t kFar = 0xACB40000;
constexpr std::uint32_t kCrowded = 0x30300000;  // the overflow test's

dat::ObjectDesc tree_desc() {
  dat::ObjectDesc d;
  d.obj_id = kTree;
  d.base_loc.origin = {12.0F, 12.0F, 0.0F};
  d.freq = 0.6F;
  d.displace_x = 8.0F;
  d.displace_y = 8.0F;
  d.min_scale = 0.8F;
  d.max_scale = 1.25F;
  d.max_rot = 360.0F;
  d.min_slope = 0.5F;
  d.max_slope = 1.0F;
  return d;
}

dat::ObjectDesc rock_desc() {
  dat::ObjectDesc d;
  d.obj_id = kRock;
  d.base_loc.origin = {6.0F, 6.0F, 0.0F};
  d.min_scale = 1.5F;
  d.max_scale = 1.5F;
  d.max_slope = 1.0F;
  d.align = 1;
  return d;
}

// The test Region: 2 m a height step; terrain type 0 lists scene type 0
// (the tree's and the rock's Scenes), terrain type 1 scene type 0 the
// pebbles' (90 at one spot each).
dat::Region scene_region() {
  dat::Region r;
  r.id = 0x13000000;
  for (std::size_t i = 0; i < r.land_defs.land_height_table.size(); ++i) {
    r.land_defs.land_height_table[i] = 2.0F * static_cast<float>(i);
  }
  r.scene = dat::SceneDesc{
      {dat::SceneType{0xFFFFFFFFu, {kTreeScene, kRockScene}}, dat::SceneType{0xFFFFFFFFu, {kPebbleScene}}}};
  r.parts_mask |= dat::region_parts::kScene;
  r.terrain.terrain_types = {dat::TerrainType{"Grass", 0, {0}}, dat::TerrainType{"Pebbles", 0, {1}}};
  return r;
}

dat::LandBlock flat_block(std::uint32_t block, std::uint32_t type, bool road) {
  dat::LandBlock b;
  b.id = block | 0xFFFFu;
  for (auto& h : b.height) h = 5;  // z 10
  for (std::size_t x = 0; x < dat::kLandBlockSide; ++x) {
    for (std::size_t y = 0; y < dat::kLandBlockSide; ++y) {
      b.terrain[dat::land_block_vertex(x, y)] = dat::make_terrain_word(road && x == 4 ? 1 : 0, type, 0);
    }
  }
  return b;
}

sim::LandBlockStruct built(const dat::LandBlock& b, const dat::Region& r) {
  auto s = sim::LandBlockStruct::build(b, r.land_defs, r.id);
  REQUIRE(s);
  return std::move(*s);
}

dat::Scene scene_of(dat::Did id, std::vector<dat::ObjectDesc> objects) {
  return dat::Scene{id, std::move(objects)};
}

sim::SceneLookup lookup() {
  return [](dat::Did id) -> std::shared_ptr<const dat::Scene> {
    if (id == kTreeScene) return std::make_shared<const dat::Scene>(scene_of(id, {tree_desc()}));
    if (id == kRockScene) return std::make_shared<const dat::Scene>(scene_of(id, {rock_desc()}));
    return nullptr;
  };
}

struct Expected {
  dat::Did obj;
  float x;
  float y;
  std::size_t cell;
  float scale;
  float heading;  // -1: none (the rock: aligned, flat ground: 0)
};

// Worked through ACE's arithmetic for block 0xA9B4 (see the file comment):
// each vertex's scene, the objects its noise keeps, their displaced and
// turned offsets, the road's exclusion, the scale and the heading.
constexpr Expected kExpected[] = {
    {0x01000300, 6.0F, 114.0F, 4, 1.5F, -1.0F},                             // vertex (0, 5)
    {0x02000300, 11.8091202F, 6.2130661F, 0, 0.9601143F, 268.833282F},      // vertex (1, 1)
    {0x02000300, 11.2155104F, 35.19347F, 1, 0.935015321F, 285.15921F},      // vertex (1, 2)
    {0x02000300, 39.8261223F, 58.6219025F, 10, 0.910572469F, 301.485107F},  // vertex (1, 3)
    {0x02000300, 37.9717102F, 114.845718F, 12, 0.886768579F, 317.811005F},  // vertex (1, 4)
    {0x02000300, 10.1346865F, 134.565323F, 5, 0.863587022F, 334.136932F},   // vertex (1, 5)
    {0x02000300, 8.84107018F, 127.115089F, 5, 0.841011405F, 350.46283F},    // vertex (1, 6)
    {0x02000300, 31.9952698F, 7.29511833F, 8, 1.00335836F, 51.833477F},     // vertex (2, 1)
    {0x02000300, 33.4850197F, 31.8057213F, 9, 1.24542153F, 113.291908F},    // vertex (2, 2)
    {0x02000300, 32.3163261F, 85.0252304F, 11, 0.98936522F, 174.750336F},   // vertex (2, 3)
    {0x01000300, 54.0F, 102.0F, 20, 1.5F, -1.0F},                           // vertex (2, 4)
    {0x01000300, 54.0F, 114.0F, 20, 1.5F, -1.0F},                           // vertex (2, 5)
    {0x01000300, 66.0F, 66.0F, 18, 1.5F, -1.0F},                            // vertex (3, 3)
    {0x01000300, 66.0F, 138.0F, 21, 1.5F, -1.0F},                           // vertex (3, 6)
    {0x02000300, 87.3780136F, 153.620071F, 30, 1.12984252F, 114.379395F},   // vertex (3, 7)
    {0x02000300, 109.288895F, 14.1117773F, 32, 0.849088609F, 186.110367F},  // vertex (4, 0)
    {0x01000300, 102.0F, 30.0F, 33, 1.5F, -1.0F},                           // vertex (4, 1)
    {0x02000300, 113.975967F, 62.9697762F, 34, 0.905047953F, 129.557327F},  // vertex (4, 2)
    {0x01000300, 102.0F, 90.0F, 35, 1.5F, -1.0F},                           // vertex (4, 4)
    {0x01000300, 90.0F, 138.0F, 29, 1.5F, -1.0F},                           // vertex (4, 6)
    {0x02000300, 82.3063736F, 150.885223F, 30, 0.849293947F, 168.174713F},  // vertex (4, 7)
    {0x01000300, 114.0F, 30.0F, 33, 1.5F, -1.0F},                           // vertex (5, 1)
    {0x01000300, 126.0F, 42.0F, 41, 1.5F, -1.0F},                           // vertex (5, 2)
    {0x02000300, 104.743675F, 91.966629F, 35, 0.81220001F, 154.546036F},    // vertex (5, 3)
    {0x01000300, 126.0F, 90.0F, 43, 1.5F, -1.0F},                           // vertex (5, 4)
    {0x01000300, 126.0F, 126.0F, 45, 1.5F, -1.0F},                          // vertex (5, 5)
    {0x02000300, 133.007324F, 186.851532F, 47, 0.997512102F, 221.970047F},  // vertex (5, 7)
    {0x01000300, 114.0F, 186.0F, 39, 1.5F, -1.0F},                          // vertex (5, 8)
    {0x01000300, 138.0F, 18.0F, 40, 1.5F, -1.0F},                           // vertex (6, 1)
    {0x01000300, 138.0F, 42.0F, 41, 1.5F, -1.0F},                           // vertex (6, 2)
    {0x01000300, 138.0F, 66.0F, 42, 1.5F, -1.0F},                           // vertex (6, 3)
    {0x02000300, 126.209427F, 79.5175247F, 43, 1.18408644F, 269.799805F},   // vertex (6, 4)
    {0x01000300, 150.0F, 162.0F, 54, 1.5F, -1.0F},                          // vertex (6, 7)
    {0x01000300, 150.0F, 186.0F, 55, 1.5F, -1.0F},                          // vertex (6, 8)
    {0x01000300, 174.0F, 6.0F, 56, 1.5F, -1.0F},                            // vertex (7, 0)
    {0x01000300, 174.0F, 18.0F, 56, 1.5F, -1.0F},                           // vertex (7, 1)
    {0x01000300, 162.0F, 54.0F, 50, 1.5F, -1.0F},                           // vertex (7, 2)
    {0x01000300, 174.0F, 66.0F, 58, 1.5F, -1.0F},                           // vertex (7, 3)
    {0x01000300, 162.0F, 90.0F, 51, 1.5F, -1.0F},                           // vertex (7, 4)
    {0x01000300, 174.0F, 126.0F, 61, 1.5F, -1.0F},                          // vertex (7, 5)
    {0x01000300, 174.0F, 138.0F, 61, 1.5F, -1.0F},                          // vertex (7, 6)
    {0x01000300, 162.0F, 174.0F, 55, 1.5F, -1.0F},                          // vertex (7, 7)
    {0x01000300, 174.0F, 186.0F, 63, 1.5F, -1.0F},                          // vertex (7, 8)
    {0x02000300, 174.862823F, 108.918121F, 60, 0.93015784F, 106.595299F},   // vertex (8, 4)
    {0x01000300, 186.0F, 114.0F, 60, 1.5F, -1.0F},                          // vertex (8, 5)
};

}  // namespace

TEST_CASE(
    "CLandBlock::get_land_scenes 0x00530460 places a test Region's scenery where ACE's port of the rule does "
    "(block 0xA9B4: ObjectDesc::Place 0x005A5BB0, ObjectDesc::GetObjFrame 0x005A5D50, ObjectDesc::ScaleObj "
    "0x0052F0C0, CLandBlock::on_road 0x0052FFF0)",
    "[sim][retail]") {
  const dat::Region region = scene_region();
  const sim::LandBlockStruct block = built(flat_block(kBlock, 0, true), region);
  const auto placed = sim::get_land_scenes(block, region, lookup(), {});
  REQUIRE(placed.size() == std::size(kExpected));
  for (std::size_t i = 0; i < placed.size(); ++i) {
    INFO("placement " << i);
    const Expected& e = kExpected[i];
    CHECK(placed[i].obj_id == e.obj);
    CHECK(placed[i].frame.origin.x == Approx(e.x).margin(1e-4));
    CHECK(placed[i].frame.origin.y == Approx(e.y).margin(1e-4));
    CHECK(placed[i].frame.origin.z == Approx(10.0F).margin(1e-5));  // Plane::set_height on the flat ground
    CHECK(placed[i].cell_index == e.cell);
    CHECK(placed[i].scale == Approx(e.scale).epsilon(1e-6));
    const float want = e.heading < 0.0F ? 0.0F : e.heading;
    const float got = placed[i].frame.get_heading();
    CHECK(std::min(std::fabs(got - want), 360.0F - std::fabs(got - want)) < 1e-2F);
  }
}

TEST_CASE(
    "CLandBlock::get_land_scenes 0x00530460 agrees with ACE's port on blocks 0xFE01 and 0x0000 (no road): the count "
    "and the first six",
    "[sim][retail]") {
  const dat::Region region = scene_region();
  struct Block {
    std::uint32_t id;
    std::size_t count;
    std::array<Expected, 6> first;
  };
  // Worked through ACE's arithmetic as kExpected was.
  const Block blocks[] = {
      {0xFE010000u,
       50,
       {{{kTree, 13.9345541F, 4.01425934F, 0, 0.846192062F, 211.268341F},
         {kRock, 6.0F, 66.0F, 2, 1.5F, -1.0F},
         {kTree, 13.9936008F, 100.042725F, 4, 0.939971507F, 96.5049133F},
         {kRock, 6.0F, 162.0F, 6, 1.5F, -1.0F},
         {kRock, 18.0F, 18.0F, 0, 1.5F, -1.0F},
         {kRock, 30.0F, 42.0F, 9, 1.5F, -1.0F}}}},
      {0x00000000u,
       51,
       {{{kRock, 6.0F, 78.0F, 3, 1.5F, -1.0F},
         {kRock, 6.0F, 126.0F, 5, 1.5F, -1.0F},
         {kRock, 18.0F, 18.0F, 0, 1.5F, -1.0F},
         {kTree, 6.21345901F, 52.8020706F, 2, 1.23619044F, 64.2909164F},
         {kRock, 18.0F, 90.0F, 3, 1.5F, -1.0F},
         {kTree, 11.623641F, 101.105927F, 4, 1.19913578F, 98.6000824F}}}},
  };
  for (const Block& b : blocks) {
    INFO("block " << std::hex << b.id);
    const auto placed = sim::get_land_scenes(built(flat_block(b.id, 0, false), region), region, lookup(), {});
    REQUIRE(placed.size() == b.count);
    for (std::size_t i = 0; i < b.first.size(); ++i) {
      const Expected& e = b.first[i];
      CHECK(placed[i].obj_id == e.obj);
      CHECK(placed[i].frame.origin.x == Approx(e.x).margin(1e-4));
      CHECK(placed[i].frame.origin.y == Approx(e.y).margin(1e-4));
      CHECK(placed[i].cell_index == e.cell);
      CHECK(placed[i].scale == Approx(e.scale).epsilon(1e-6));
      const float want = e.heading < 0.0F ? 0.0F : e.heading;
      const float got = placed[i].frame.get_heading();
      CHECK(std::min(std::fabs(got - want), 360.0F - std::fabs(got - want)) < 1e-2F);
    }
  }
}

TEST_CASE("CLandBlock::get_land_scenes 0x00530460: the scene of a vertex and each object's chance are the hash's",
          "[sim][retail]") {
  // Vertex (1, 1) of 0xA9B4 is world vertex (0x549, 0x5A1).
  constexpr std::uint32_t ix = 0xA9u * 8u + 1u;
  constexpr std::uint32_t iy = 0xB4u * 8u + 1u;
  CHECK(sim::scene_index(ix, iy, 2) == 0);  // the tree's scene (kExpected[1])
  CHECK(sim::scene_index(ix, iy, 1) == 0);
  CHECK(sim::scene_index(ix - 1, iy + 4, 2) == 1);  // vertex (0, 5): the rock's (kExpected[0])
  // iy * (712977289 ix + 1813693831) - 1109124029 ix + 2139937281, over 2^32
  const std::uint32_t hash = iy * (712977289u * ix + 1813693831u) - 1109124029u * ix + 2139937281u;
  CHECK(sim::scene_index(ix, iy, 1000) == static_cast<std::uint32_t>(static_cast<double>(hash) / 4294967296.0 * 1000));
  const double noise = sim::scene_object_noise(ix, iy, 0);
  CHECK(noise >= 0.0);
  CHECK(noise < 0.6);  // the tree there appears
  CHECK(sim::scene_object_noise(ix, iy, 0) ==
        static_cast<double>(static_cast<std::uint32_t>(
            1813693831u * iy - 23399u * (1360117743u * iy * ix + 1888038839u) - 1109124029u * ix)) /
            4294967296.0);
}

TEST_CASE(
    "ObjectDesc::Place 0x005A5BB0 turns base_loc by the vertex's quarter turn and does not displace without a range",
    "[sim][retail]") {
  dat::ObjectDesc d = rock_desc();  // at (6, 6), no displacement
  // The four quarter turns the rock's placements show (kExpected).
  const std::set<std::pair<float, float>> turns = {{6, 6}, {-6, 6}, {-6, -6}, {6, -6}};
  std::set<std::pair<float, float>> seen;
  for (std::uint32_t v = 0; v < 64; ++v) {
    const glm::vec3 p = sim::place(d, 0x548 + v % 8, 0x5A0 + v / 8, 0);
    seen.insert({p.x, p.y});
    CHECK(p.z == 0.0F);
  }
  CHECK(seen == turns);
  d.displace_x = 4.0F;
  const glm::vec3 a = sim::place(d, 0x549, 0x5A1, 0);
  const glm::vec3 b = sim::place(d, 0x549, 0x5A1, 1);  // the object index salts the displacement
  CHECK(a != b);
  CHECK(std::max(std::fabs(a.x), std::fabs(a.y)) <= 10.0F);
}

TEST_CASE("ObjectDesc::ScaleObj 0x0052F0C0, ObjectDesc::CheckSlope 0x0052F090 and ObjectDesc::ObjAlign 0x005A5E50",
          "[sim][retail]") {
  dat::ObjectDesc d = tree_desc();
  for (std::uint32_t k = 0; k < 32; ++k) {
    const float s = sim::scale_obj(d, 0x549, 0x5A1, k);
    CHECK(s >= 0.8F);
    CHECK(s <= 1.25F);
  }
  d.min_scale = d.max_scale = 2.0F;
  CHECK(sim::scale_obj(d, 1, 2, 3) == 2.0F);
  CHECK(sim::check_slope(d, 0.5F));
  CHECK(sim::check_slope(d, 1.0F));
  CHECK_FALSE(sim::check_slope(d, 0.49F));
  // Aligned: facing down the slope (the normal's horizontal part points downhill).
  const dat::ObjectDesc rock = rock_desc();
  const core::Frame east = sim::obj_align(rock, glm::normalize(glm::vec3(-0.5F, 0.0F, 1.0F)), {1, 2, 3});
  CHECK(east.get_heading() == Approx(90.0F).margin(1e-3));
  CHECK(east.origin == glm::vec3(1, 2, 3));
  const core::Frame flat = sim::obj_align(rock, glm::vec3(0, 0, 1), {1, 2, 3});
  CHECK(flat.get_heading() == Approx(0.0F).margin(1e-3));  // get_heading of a zero vector: 0
}

TEST_CASE("CLandBlock::on_road 0x0052FFF0: 5 m bands along the road corners' sides and diagonals", "[sim][retail]") {
  const dat::Region region = scene_region();
  // Cell (1, 1) with road on the corners named; the point (x, y) in the cell.
  const auto on = [&](std::initializer_list<std::pair<std::size_t, std::size_t>> corners, float x, float y) {
    dat::LandBlock b = flat_block(kBlock, 0, false);
    for (const auto& [vx, vy] : corners) b.terrain[dat::land_block_vertex(vx, vy)] |= 1u;
    return sim::on_road(built(b, region), glm::vec3(24.0F + x, 24.0F + y, 0.0F));
  };
  CHECK_FALSE(on({}, 1, 1));
  CHECK(on({{1, 1}, {1, 2}, {2, 1}, {2, 2}}, 12, 12));
  CHECK(on({{1, 1}, {1, 2}}, 4.9F, 12));  // the west side
  CHECK_FALSE(on({{1, 1}, {1, 2}}, 5.1F, 12));
  CHECK(on({{2, 1}, {2, 2}}, 19.1F, 12));  // the east side
  CHECK_FALSE(on({{2, 1}, {2, 2}}, 18.9F, 12));
  CHECK(on({{1, 1}, {2, 1}}, 12, 4.9F));   // the south side
  CHECK(on({{1, 2}, {2, 2}}, 12, 19.1F));  // the north side
  CHECK(on({{1, 1}, {2, 2}}, 12, 15));     // the SW-NE diagonal
  CHECK_FALSE(on({{1, 1}, {2, 2}}, 12, 17.1F));
  CHECK(on({{1, 2}, {2, 1}}, 12, 8));  // the NW-SE diagonal
  CHECK_FALSE(on({{1, 2}, {2, 1}}, 12, 17.1F));
  CHECK(on({{1, 1}}, 2, 2.9F));  // one corner: the triangle at it
  CHECK_FALSE(on({{1, 1}}, 2, 3.1F));
  CHECK(on({{2, 2}}, 22, 21.1F));
  CHECK_FALSE(on({{2, 2}}, 12, 12));
  CHECK(on({{1, 1}, {1, 2}, {2, 1}}, 12, 4));  // three corners: two sides
  CHECK_FALSE(on({{1, 1}, {1, 2}, {2, 1}}, 12, 12));
}

TEST_CASE("CLandBlock::get_land_scenes 0x00530460: no scenery in a cell with a building or on too steep a slope",
          "[sim][retail]") {
  const dat::Region region = scene_region();
  const sim::LandBlockStruct block = built(flat_block(kBlock, 0, true), region);
  // Cell 35 (x 4, y 3) holds two placements (kExpected): a building there keeps them out.
  const auto placed = sim::get_land_scenes(block, region, lookup(), [](std::size_t cell) { return cell == 35; });
  CHECK(placed.size() == std::size(kExpected) - 2);
  CHECK(std::none_of(placed.begin(), placed.end(), [](const sim::ScenePlacement& p) { return p.cell_index == 35; }));
  // Terrain steeper than the tree accepts (normal z 0.37, below 0.5): only
  // rocks (any slope), turned to face up it (ObjectDesc::ObjAlign 0x005A5E50:
  // the rise is to the east); a Region without a scene part: none.
  dat::LandBlock steep = flat_block(kBlock, 0, false);
  for (std::size_t x = 0; x < dat::kLandBlockSide; ++x) {
    for (std::size_t y = 0; y < dat::kLandBlockSide; ++y) {
      steep.height[dat::land_block_vertex(x, y)] = static_cast<std::uint8_t>(x * 30);  // 60 m up per 24 m
    }
  }
  const auto rocks = sim::get_land_scenes(built(steep, region), region, lookup(), {});
  CHECK(!rocks.empty());
  for (const sim::ScenePlacement& p : rocks) {
    CHECK(p.obj_id == kRock);
    CHECK(p.frame.get_heading() == Approx(90.0F).margin(1e-3));
  }
  dat::Region bare = region;
  bare.scene.reset();
  CHECK(sim::get_land_scenes(block, bare, lookup(), {}).empty());
}

TEST_CASE("Scenery ids are 0x8XXYYIII and the 4097th of a block has none", "[sim]") {
  CHECK(sim::scenery_id(0xA9B4FFFFu, 0) == 0x8A9B4000u);
  CHECK(sim::scenery_id(0xA9B4FFFFu, 0xFFF) == 0x8A9B4FFFu);
  CHECK_FALSE(sim::scenery_id(0xA9B4FFFFu, 0x1000).has_value());  // it would be 0xA9B5's first
  CHECK(sim::scenery_id(0xFFFEFFFFu, 7) == 0x8FFFE007u);
}

namespace {

// The test DATs: the Region, the models and Scenes; the scenery block, a far
// bare one, and a block of pebbles.
struct SceneDats {
  SceneDats() {
    dat::GfxObj rock;
    rock.id = kRock;
    rock.flags = dat::GfxObj::kHasPhysics;
    demo::add_solid_box(rock, {-1, -1, 0}, {1, 1, 2});
    dat::GfxObj trunk;
    trunk.id = kTrunk;
    dat::GfxObj pebble;
    pebble.id = kPebble;
    dat::Setup tree;
    tree.id = kTree;
    tree.parts = {kTrunk};
    tree.cyl_spheres = {dat::CylSphere{glm::vec3(0.0F), 0.5F, 3.0F}};
    tree.height = 3.0F;
    tree.radius = 0.5F;
    dat::ObjectDesc pebble_desc;
    pebble_desc.obj_id = kPebble;
    pebble_desc.base_loc.origin = {12.0F, 12.0F, 0.0F};
    pebble_desc.max_slope = 1.0F;
    const std::vector<dat::DatRecord> portal_records = {
        {0x13000000, dat::write_region(scene_region())},
        {kRock, dat::write_gfx_obj(rock)},
        {kTrunk, dat::write_gfx_obj(trunk)},
        {kPebble, dat::write_gfx_obj(pebble)},
        {kTree, dat::write_setup(tree)},
        {kTreeScene, dat::write_scene(scene_of(kTreeScene, {tree_desc()}))},
        {kRockScene, dat::write_scene(scene_of(kRockScene, {rock_desc()}))},
        {kPebbleScene, dat::write_scene(scene_of(kPebbleScene, std::vector<dat::ObjectDesc>(90, pebble_desc)))},
    };
    portal = make_dat(portal_records, dat::DatKind::Portal, "portal");
    const std::vector<dat::DatRecord> cell_records = {
        {kBlock | 0xFFFFu, dat::write_land_block(flat_block(kBlock, 0, true))},
        {kFar | 0xFFFFu, dat::write_land_block(flat_block(kFar, 2, false))},  // type 2: no scene types
        {kCrowded | 0xFFFFu, dat::write_land_block(flat_block(kCrowded, 1, false))},
    };
    cell = make_dat(cell_records, dat::DatKind::Cell, "cell");
  }
  std::unique_ptr<dat::DatFile> portal;
  std::unique_ptr<dat::DatFile> cell;
};

std::size_t count_in(const std::vector<sim::PhysicsObj*>& statics, std::uint32_t block) {
  return static_cast<std::size_t>(std::count_if(statics.begin(), statics.end(), [&](const sim::PhysicsObj* o) {
    return (o->position().objcell_id & 0xFFFF0000u) == block;
  }));
}

}  // namespace

TEST_CASE(
    "DatLandscapeLoader makes a landblock's scenery with its statics (CLandBlock::init_static_objs 0x00530A40 calls "
    "CLandBlock::get_land_scenes 0x00530460 with CPhysicsObj::obj_within_block 0x00511030, "
    "CPhysicsObj::SetScaleStatic 0x00511BB0) and frees it with the block",
    "[sim][retail]") {
  SceneDats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  REQUIRE(world.set_mid_radius(1));
  dereth::sim::test::load_grid(world, kBlock | 0x01u);
  const auto& statics = world.static_objects();
  REQUIRE(statics.size() == std::size(kExpected));
  namespace ps = protocol::physics_state;
  for (std::size_t i = 0; i < statics.size(); ++i) {
    INFO("scenery " << i);
    const sim::PhysicsObj& o = *statics[i];
    const Expected& e = kExpected[i];
    CHECK(o.id() == 0x8A9B4000u + i);
    CHECK((o.state() & ps::Static) != 0);
    CHECK(o.position().objcell_id == (kBlock | (1u + e.cell)));
    CHECK(o.position().frame.origin.x == Approx(e.x).margin(1e-4));
    CHECK(o.position().frame.origin.y == Approx(e.y).margin(1e-4));
    CHECK(o.scale() == Approx(e.scale).epsilon(1e-6));
    CHECK(!o.shadow_objects().empty());
  }
  CHECK(world.box().objects().object_count() == 0);  // not server objects
  // Drawn as statics are: the snapshot's static objects, at their scale.
  // Released with the block: the grid moves three blocks east.
  dereth::sim::test::load_grid(world, kFar | 0x01u);
  CHECK(count_in(world.static_objects(), kBlock) == 0);
  CHECK(world.static_objects().empty());
  // And made again, the same, when it loads again.
  dereth::sim::test::load_grid(world, kBlock | 0x01u);
  REQUIRE(world.static_objects().size() == std::size(kExpected));
  CHECK(world.static_objects().front()->id() == 0x8A9B4000u);
}

TEST_CASE("A landblock's 4097th scenery object is not made: its id would be the next block's (logged)", "[sim]") {
  SceneDats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  REQUIRE(world.set_mid_radius(1));
  // 90 pebbles at each vertex whose turned (12, 12) lands in the block:
  // 49 inner vertices alone would make 4410.
  dereth::sim::test::load_grid(world, kCrowded | 0x01u);
  const auto& statics = world.static_objects();
  REQUIRE(statics.size() == sim::kMaxSceneryPerBlock);
  std::set<std::uint32_t> ids;
  for (const sim::PhysicsObj* o : statics) ids.insert(o->id());
  CHECK(ids.size() == sim::kMaxSceneryPerBlock);
  CHECK(*ids.begin() == 0x83030000u);
  CHECK(*ids.rbegin() == 0x83030FFFu);  // 0x83031000 is block 0x3031's first
}

TEST_CASE(
    "A walker is stopped by a scenery tree's trunk (CPhysicsObj::FindObjCollisions 0x0050F050 on a scenery "
    "object's cylinder)",
    "[sim][retail]") {
  SceneDats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  // The tree of vertex (2, 2) (kExpected[8]): at (33.485, 31.806), scale 1.245.
  const Expected& tree = kExpected[8];
  REQUIRE(tree.obj == kTree);
  auto w = walker(world, 1, kBlock | 0x0Au, {28.0F, tree.y, 10.0F});
  REQUIRE(count_in(world.static_objects(), kBlock) == std::size(kExpected));
  walk(*w, 40, {0.25F, 0, 0});
  // Stopped short of the trunk: the walker's 0.5 m sphere against the trunk's cylinder.
  CHECK(w->position().frame.origin.x < tree.x - 0.5F);
  CHECK(w->position().frame.origin.x > 28.0F + 3.0F);
  SECTION("beside it: not stopped") {
    auto past = walker(world, 2, kBlock | 0x0Au, {28.0F, tree.y + 3.0F, 10.0F});
    walk(*past, 40, {0.25F, 0, 0});
    CHECK(past->position().frame.origin.x == Approx(38.0F).margin(1e-3));
  }
}
