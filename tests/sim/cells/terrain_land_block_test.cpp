// LandBlockStruct: vertices, split triangles and their planes, heights,
// walkability and water (RE ccell/CLandBlockStruct.c, CLandCell.c,
// cgeometry/CPolygon.c; spec/physics.md sections 5.7 and 6).

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "dereth/dat/land_block.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/sim/cells/land_block_struct.hpp"
#include "dereth/sim/collision/polygon.hpp"
#include "dereth/sim/object/types.hpp"

namespace dat = dereth::dat;
using dereth::sim::LandBlockStruct;
using dereth::sim::LandPolygon;
using dereth::sim::SurfChar;
using dereth::sim::WaterType;

namespace {

constexpr dat::Did kRegion = 0x13000000;
constexpr dat::Did kBlock = 0xA9B4FFFF;  // cell (0,0) cuts SW-NE, (3,5) NW-SE, (7,7) SW-NE

// landHeightTable[i] = 2i (retail's is roughly that for low entries).
dat::LandDefs linear_defs() {
  dat::LandDefs d;
  for (std::size_t i = 0; i < d.land_height_table.size(); ++i) d.land_height_table[i] = 2.0f * static_cast<float>(i);
  return d;
}

// Uneven heights: vertex v gets index (v * 37) % 50, z = 2 * that.
dat::LandBlock uneven_block() {
  dat::LandBlock b;
  b.id = kBlock;
  for (std::size_t v = 0; v < dat::kLandBlockVertices; ++v) b.height[v] = static_cast<std::uint8_t>((v * 37) % 50);
  return b;
}

LandBlockStruct build(const dat::LandBlock& b, const dat::LandDefs& d = linear_defs()) {
  auto s = LandBlockStruct::build(b, d, kRegion);
  REQUIRE(s);
  return *s;
}

float vertex_z(const LandBlockStruct& s, std::size_t x, std::size_t y) {
  return s.vertices()[x * 9 + y].z;
}

// spec/physics.md 6.4, the closed form on cell (cx, cy) at (u, v) in [0, 1].
float closed_form(const LandBlockStruct& s, std::size_t cx, std::size_t cy, float u, float v) {
  const float h00 = vertex_z(s, cx, cy);
  const float h10 = vertex_z(s, cx + 1, cy);
  const float h01 = vertex_z(s, cx, cy + 1);
  const float h11 = vertex_z(s, cx + 1, cy + 1);
  if (s.sw_to_ne_cut(cx * 8 + cy)) {
    return u >= v ? h00 + u * (h10 - h00) + v * (h11 - h10) : h00 + v * (h01 - h00) + u * (h11 - h01);
  }
  return u + v <= 1.0f ? h00 + u * (h10 - h00) + v * (h01 - h00)
                       : h11 + (1.0f - u) * (h01 - h11) + (1.0f - v) * (h10 - h11);
}

dat::LandBlock water_block(const std::vector<std::pair<std::size_t, std::size_t>>& water_vertices,
                           std::uint32_t water_type = 16) {
  dat::LandBlock b;
  b.id = kBlock;
  for (auto& t : b.terrain) t = dat::make_terrain_word(0, 1, 0);  // grassland
  for (const auto& [x, y] : water_vertices) b.terrain[x * 9 + y] = dat::make_terrain_word(2, water_type, 3);
  return b;
}

}  // namespace

TEST_CASE("CLandBlockStruct::ConstructVertices 0x005328D0: vertex (x, y) at (24x, 24y, landHeightTable[height])",
          "[retail]") {
  dat::LandDefs defs = linear_defs();
  defs.land_height_table[200] = 517.25f;  // the table, not 2 * index
  dat::LandBlock b = uneven_block();
  b.height[3 * 9 + 5] = 200;
  const LandBlockStruct s = build(b, defs);
  CHECK(s.vertices()[3 * 9 + 5] == glm::vec3(72.0f, 120.0f, 517.25f));
  CHECK(s.vertices()[0] == glm::vec3(0.0f, 0.0f, 2.0f * static_cast<float>(b.height[0])));
  CHECK(s.vertices()[80] == glm::vec3(192.0f, 192.0f, 2.0f * static_cast<float>(b.height[80])));
  CHECK(s.vertices()[8] == glm::vec3(0.0f, 192.0f, 2.0f * static_cast<float>(b.height[8])));  // west edge runs north
}

TEST_CASE("CLandBlockStruct::ConstructPolygons 0x00531D10: triangles in retail order, cell ids and origins",
          "[retail]") {
  const LandBlockStruct s = build(uneven_block());
  CHECK(s.block_id() == kBlock);
  // Cell (0,0), global (1352, 1440): SW->NE. SW 0, SE 9, NW 1, NE 10.
  REQUIRE(s.sw_to_ne_cut(0));
  CHECK(s.polygons()[0].vertex_ids == dat::LandTriangle{0, 9, 10});
  CHECK(s.polygons()[1].vertex_ids == dat::LandTriangle{0, 10, 1});
  // Cell (3,5), global (1355, 1445): NW->SE. SW 32, SE 41, NW 33, NE 42.
  REQUIRE_FALSE(s.sw_to_ne_cut(29));
  CHECK(s.polygons()[58].vertex_ids == dat::LandTriangle{32, 41, 33});
  CHECK(s.polygons()[59].vertex_ids == dat::LandTriangle{42, 33, 41});
  CHECK(s.sw_to_ne_cut(63));  // (1359, 1447)
  // Every cut is the shared dat rule on the cell's global coordinates.
  for (std::size_t x = 0; x < 8; ++x) {
    for (std::size_t y = 0; y < 8; ++y) {
      CHECK(s.sw_to_ne_cut(x * 8 + y) ==
            dat::land_cell_split_sw_ne(static_cast<std::uint32_t>(1352 + x), static_cast<std::uint32_t>(1440 + y)));
    }
  }
  CHECK(s.cell_id(0) == 0xA9B40001u);
  CHECK(s.cell_id(29) == 0xA9B4001Eu);
  CHECK(s.cell_id(63) == 0xA9B40040u);
  CHECK(LandBlockStruct::cell_origin(0) == glm::vec3(12.0f, 12.0f, 0.0f));
  CHECK(LandBlockStruct::cell_origin(29) == glm::vec3(84.0f, 132.0f, 0.0f));
  // Past the 64 cells: the empty answers, no exception.
  CHECK_FALSE(s.sw_to_ne_cut(64));
  CHECK(s.cell_id(64) == 0u);
  CHECK(s.cell_water_type(1000) == WaterType::NotWater);
}

TEST_CASE("CLandBlockStruct::AddPolygon 0x005310D0: each triangle's plane holds its vertices and faces up",
          "[retail]") {
  const LandBlockStruct s = build(uneven_block());
  for (const LandPolygon& p : s.polygons()) {
    CHECK(glm::length(p.plane.normal) == Approx(1.0f).margin(1e-6));
    CHECK(p.plane.normal.z > 0.0f);
    for (const auto id : p.vertex_ids) {
      CHECK(glm::dot(p.plane.normal, s.vertices()[id]) + p.plane.d == Approx(0.0f).margin(1e-4));
    }
  }
  // pos_surface: 1 when any vertex is off z = 0.
  dat::LandBlock flat;
  flat.id = kBlock;
  const LandBlockStruct zero = build(flat);
  CHECK_FALSE(zero.polygons()[0].pos_surface);
  CHECK(zero.polygons()[0].plane.normal == glm::vec3(0.0f, 0.0f, 1.0f));
  CHECK(zero.polygons()[0].plane.d == 0.0f);
  flat.height.fill(5);
  const LandBlockStruct ten = build(flat);
  CHECK(ten.polygons()[7].pos_surface);
  CHECK(ten.polygons()[7].plane.d == -10.0f);
}

TEST_CASE("CLandCell::find_terrain_poly 0x00532CF0: the first triangle holding the point, the diagonal in the first",
          "[retail]") {
  const LandBlockStruct s = build(uneven_block());
  const auto& polys = s.polygons();
  SECTION("SW->NE cell (0,0)") {
    CHECK(s.find_terrain_poly(0, glm::vec3(12.0f, 12.0f, 0.0f)) == &polys[0]);  // on the diagonal
    CHECK(s.find_terrain_poly(0, glm::vec3(0.0f, 0.0f, 0.0f)) == &polys[0]);    // the SW corner
    CHECK(s.find_terrain_poly(0, glm::vec3(12.0f, 11.9f, 0.0f)) == &polys[0]);  // below: (SW, SE, NE)
    CHECK(s.find_terrain_poly(0, glm::vec3(11.9f, 12.0f, 0.0f)) == &polys[1]);  // above: (SW, NE, NW)
    CHECK(s.find_terrain_poly(0, glm::vec3(0.0f, 24.0f, 0.0f)) == &polys[1]);   // the NW corner
  }
  SECTION("NW->SE cell (3,5)") {
    CHECK(s.find_terrain_poly(29, glm::vec3(84.0f, 132.0f, 0.0f)) == &polys[58]);  // centre, on the diagonal
    CHECK(s.find_terrain_poly(29, glm::vec3(83.9f, 131.9f, 0.0f)) == &polys[58]);
    CHECK(s.find_terrain_poly(29, glm::vec3(84.1f, 132.1f, 0.0f)) == &polys[59]);
    CHECK(s.find_terrain_poly(29, glm::vec3(96.0f, 144.0f, 0.0f)) == &polys[59]);  // the NE corner
  }
  SECTION("points outside the cell or the block find nothing") {
    CHECK(s.find_terrain_poly(0, glm::vec3(30.0f, 5.0f, 0.0f)) == nullptr);
    CHECK(s.find_terrain_poly(64, glm::vec3(5.0f, 5.0f, 0.0f)) == nullptr);
    CHECK(s.find_terrain_poly(glm::vec3(-0.01f, 5.0f, 0.0f)) == nullptr);
    CHECK(s.find_terrain_poly(glm::vec3(5.0f, 192.01f, 0.0f)) == nullptr);
    CHECK(s.find_terrain_poly(glm::vec3(std::numeric_limits<float>::quiet_NaN(), 5.0f, 0.0f)) == nullptr);
    CHECK(s.find_terrain_poly(glm::vec3(std::numeric_limits<float>::infinity(), 5.0f, 0.0f)) == nullptr);
    CHECK_FALSE(s.height_at(-1.0f, 5.0f));
    CHECK_FALSE(s.normal_at(5.0f, 200.0f));
  }
  SECTION("the block's east and north edges are in the last cells") {
    const LandPolygon* p = s.find_terrain_poly(glm::vec3(192.0f, 192.0f, 0.0f));
    REQUIRE(p != nullptr);
    CHECK((p == &polys[126] || p == &polys[127]));
    CHECK(s.find_terrain_poly(glm::vec3(30.0f, 5.0f, 0.0f)) == s.find_terrain_poly(8, glm::vec3(30.0f, 5.0f, 0.0f)));
  }
}

TEST_CASE("Plane::set_height 0x0052F050: terrain heights equal spec 6.4's closed form on both cuts", "[retail]") {
  const LandBlockStruct s = build(uneven_block());
  const std::array<float, 7> steps{0.0f, 0.1f, 0.25f, 0.5f, 0.75f, 0.9f, 1.0f};
  for (const std::size_t cell : {std::size_t{0}, std::size_t{29}, std::size_t{63}, std::size_t{44}}) {
    const std::size_t cx = cell / 8;
    const std::size_t cy = cell % 8;
    for (const float u : steps) {
      for (const float v : steps) {
        const float x = (static_cast<float>(cx) + u) * 24.0f;
        const float y = (static_cast<float>(cy) + v) * 24.0f;
        const auto z = s.height_at(x, y);
        REQUIRE(z);
        INFO("cell " << cell << " u " << u << " v " << v);
        CHECK(*z == Approx(closed_form(s, cx, cy, u, v)).margin(1e-3));
      }
    }
  }
  // At a vertex the height is the table's.
  CHECK(*s.height_at(72.0f, 120.0f) == Approx(vertex_z(s, 3, 5)).margin(1e-4));
  // Plane::set_height itself: a vertical plane (|N.z| <= EPSILON) leaves the point alone.
  glm::vec3 p(4.0f, 1.0f, 9.0f);
  CHECK(dereth::sim::set_height(dat::Plane{glm::vec3(-0.6f, 0.0f, 0.8f), 0.0f}, p));
  CHECK(p.z == Approx(3.0f));
  p.z = 9.0f;
  CHECK_FALSE(dereth::sim::set_height(dat::Plane{glm::vec3(1.0f, 0.0f, 0.0f), 0.0f}, p));
  CHECK_FALSE(dereth::sim::set_height(dat::Plane{glm::vec3(1.0f, 0.0f, dereth::sim::kPhysicsEpsilon), 0.0f}, p));
  CHECK(p.z == 9.0f);
  CHECK(dereth::sim::set_height(dat::Plane{glm::vec3(0.0f, 0.0f, 0.00021f), -0.00021f}, p));
  CHECK(p.z == Approx(1.0f));
}

TEST_CASE("CPolygon::make_plane 0x005383D0: fan normal, mean distance, winding decides the side", "[retail]") {
  using dereth::sim::make_plane;
  const std::array<glm::vec3, 3> ccw{glm::vec3(0, 0, 5), glm::vec3(24, 0, 5), glm::vec3(0, 24, 5)};
  const dat::Plane up = make_plane(ccw);
  CHECK(up.normal == glm::vec3(0.0f, 0.0f, 1.0f));
  CHECK(up.d == -5.0f);
  const std::array<glm::vec3, 3> cw{ccw[0], ccw[2], ccw[1]};
  const dat::Plane down = make_plane(cw);
  CHECK(down.normal == glm::vec3(0.0f, 0.0f, -1.0f));
  CHECK(down.d == 5.0f);
  // A 45 degree ramp rising east: N = (-1, 0, 1) / sqrt 2.
  const std::array<glm::vec3, 3> ramp{glm::vec3(0, 0, 0), glm::vec3(24, 0, 24), glm::vec3(0, 24, 0)};
  const dat::Plane r = make_plane(ramp);
  CHECK(r.normal.x == Approx(-0.70710678f));
  CHECK(r.normal.y == 0.0f);
  CHECK(r.normal.z == Approx(0.70710678f));
  CHECK(r.d == Approx(0.0f).margin(1e-6));
  const std::array<glm::vec3, 2> two{glm::vec3(0.0f), glm::vec3(1.0f)};
  CHECK(std::isnan(make_plane(two).normal.z));
}

TEST_CASE("CPolygon::point_in_poly2D 0x00538060: edges walked backwards, the edge inclusive, sides", "[retail]") {
  using dereth::sim::point_in_poly2d;
  using dereth::sim::Sidedness;
  const std::array<glm::vec3, 3> ccw{glm::vec3(0, 0, 0), glm::vec3(24, 0, 0), glm::vec3(24, 24, 0)};
  CHECK(point_in_poly2d(ccw, glm::vec3(20.0f, 5.0f, 99.0f), Sidedness::Positive));  // z is ignored
  CHECK_FALSE(point_in_poly2d(ccw, glm::vec3(5.0f, 20.0f, 0.0f), Sidedness::Positive));
  CHECK(point_in_poly2d(ccw, glm::vec3(12.0f, 12.0f, 0.0f), Sidedness::Positive));  // on an edge
  CHECK(point_in_poly2d(ccw, glm::vec3(24.0f, 24.0f, 0.0f), Sidedness::Positive));  // a vertex
  CHECK_FALSE(point_in_poly2d(ccw, glm::vec3(25.0f, 5.0f, 0.0f), Sidedness::Positive));
  // Any other side wants the opposite winding.
  CHECK_FALSE(point_in_poly2d(ccw, glm::vec3(20.0f, 5.0f, 0.0f), Sidedness::Negative));
  const std::array<glm::vec3, 3> cw{ccw[0], ccw[2], ccw[1]};
  CHECK(point_in_poly2d(cw, glm::vec3(20.0f, 5.0f, 0.0f), Sidedness::Negative));
  CHECK(point_in_poly2d(cw, glm::vec3(20.0f, 5.0f, 0.0f), Sidedness::InPlane));
  // No compare fails on NaN.
  CHECK(point_in_poly2d(ccw, glm::vec3(std::numeric_limits<float>::quiet_NaN(), 5.0f, 0.0f), Sidedness::Positive));
}

TEST_CASE("CPhysicsObj::is_valid_walkable 0x0050F530: terrain triangles with normal.z >= floor_z are walkable",
          "[retail]") {
  using dereth::sim::is_valid_walkable;
  using dereth::sim::kFloorZ;
  CHECK(kFloorZ == static_cast<float>(std::cos(3437.746770784939)));
  // The binary's literal 0.0871557 is sin(5 degrees) to seven places.
  CHECK(dereth::sim::kLandingZ == Approx(std::sin(5.0 * 3.14159265358979323846 / 180.0)).margin(1e-7));
  CHECK(is_valid_walkable(kFloorZ));
  CHECK_FALSE(is_valid_walkable(std::nextafter(kFloorZ, 0.0f)));
  CHECK_FALSE(is_valid_walkable(std::numeric_limits<float>::quiet_NaN()));
  // A ramp along x over cell column 0: z rises by table[1] over 24 m. The
  // limit rise is 24 * tan(acos(floor_z)), about 26.99 m.
  const auto ramp = [](float rise) {
    dat::LandDefs defs = linear_defs();
    defs.land_height_table[1] = rise;
    dat::LandBlock b;
    b.id = kBlock;
    for (std::size_t x = 1; x < 9; ++x) {
      for (std::size_t y = 0; y < 9; ++y) b.height[x * 9 + y] = 1;
    }
    return build(b, defs);
  };
  const LandBlockStruct gentle = ramp(26.9f);
  const LandBlockStruct steep = ramp(27.1f);
  CHECK(LandBlockStruct::is_walkable(gentle.polygons()[0]));
  CHECK(LandBlockStruct::is_walkable(gentle.polygons()[1]));
  CHECK_FALSE(LandBlockStruct::is_walkable(steep.polygons()[0]));
  CHECK_FALSE(LandBlockStruct::is_walkable(steep.polygons()[1]));
  CHECK(LandBlockStruct::is_walkable(steep.polygons()[58]));  // flat, east of the ramp
  CHECK(gentle.normal_at(10.0f, 3.0f)->z == Approx(24.0f / std::sqrt(576.0f + 26.9f * 26.9f)));
  CHECK(steep.normal_at(10.0f, 3.0f)->z < kFloorZ);
}

TEST_CASE("TERRAIN_SURF_CHAR: terrain types 16 to 20 are water", "[terrain]") {
  using dereth::sim::terrain_surf_char;
  CHECK(terrain_surf_char(15) == SurfChar::Solid);
  for (std::uint32_t t = 16; t <= 20; ++t) CHECK(terrain_surf_char(t) == SurfChar::Water);
  CHECK(terrain_surf_char(21) == SurfChar::Solid);
  CHECK(terrain_surf_char(0) == SurfChar::Solid);
  CHECK(terrain_surf_char(31) == SurfChar::Solid);
  CHECK(terrain_surf_char(0x30) == SurfChar::Water);  // masked to 16
}

TEST_CASE(
    "CLandBlockStruct::CalcWater 0x005327E0: cells entirely or partly water, and the block "
    "(CLandBlockStruct::CalcCellWater 0x00531550)",
    "[retail]") {
  SECTION("no water") {
    const LandBlockStruct s = build(water_block({}));
    CHECK(s.water_type() == WaterType::NotWater);
    CHECK(s.cell_water_type(0) == WaterType::NotWater);
  }
  SECTION("one water vertex touches four cells") {
    const LandBlockStruct s = build(water_block({{3, 4}}));
    CHECK(s.water_type() == WaterType::PartiallyWater);
    for (std::size_t x = 0; x < 8; ++x) {
      for (std::size_t y = 0; y < 8; ++y) {
        const bool touches = (x == 2 || x == 3) && (y == 3 || y == 4);
        CHECK(s.cell_water_type(x * 8 + y) == (touches ? WaterType::PartiallyWater : WaterType::NotWater));
      }
    }
  }
  SECTION("four water corners make a cell entirely water") {
    const LandBlockStruct s = build(water_block({{5, 5}, {6, 5}, {5, 6}, {6, 6}}, 20));
    CHECK(s.cell_water_type(5 * 8 + 5) == WaterType::EntirelyWater);
    CHECK(s.cell_water_type(4 * 8 + 5) == WaterType::PartiallyWater);
    CHECK(s.water_type() == WaterType::PartiallyWater);
  }
  SECTION("a block of water") {
    std::vector<std::pair<std::size_t, std::size_t>> all;
    for (std::size_t x = 0; x < 9; ++x) {
      for (std::size_t y = 0; y < 9; ++y) all.emplace_back(x, y);
    }
    const LandBlockStruct s = build(water_block(all, 17));
    CHECK(s.water_type() == WaterType::EntirelyWater);
    CHECK(s.cell_water_type(0) == WaterType::EntirelyWater);
    CHECK(s.cell_water_type(63) == WaterType::EntirelyWater);
    // One dry vertex: the block is only partly water.
    all.pop_back();
    CHECK(build(water_block(all, 17)).water_type() == WaterType::PartiallyWater);
  }
  SECTION("types 15 and 21 are dry") {
    CHECK(build(water_block({{3, 4}}, 15)).water_type() == WaterType::NotWater);
    CHECK(build(water_block({{3, 4}}, 21)).water_type() == WaterType::NotWater);
  }
}

TEST_CASE("CLandBlockStruct::calc_water_depth 0x005315F0: 0.45 when the point's quadrant corner is water, else 0.1",
          "[retail]") {
  // Vertex (3,4) is the north-east corner of cell (2,3) (id 0x14, centre
  // (60, 84)) and the south-west corner of cell (3,4) (id 0x1D, centre (84, 108)).
  const LandBlockStruct s = build(water_block({{3, 4}}));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto depth = [&](std::uint32_t cell, float x, float y) {
    return s.calc_water_depth(kBlock - 0xFFFF + cell, glm::vec3(x, y, 0.0f));
  };
  CHECK(depth(0x14, 70.0f, 90.0f) == 0.45f);   // north-east
  CHECK(depth(0x14, 50.0f, 90.0f) == 0.1f);    // north-west
  CHECK(depth(0x14, 70.0f, 80.0f) == 0.1f);    // south-east
  CHECK(depth(0x14, 50.0f, 80.0f) == 0.1f);    // south-west
  CHECK(depth(0x14, 60.0f, 90.0f) == 0.1f);    // on the centre's x: west
  CHECK(depth(0x14, 70.0f, 84.0f) == 0.1f);    // on the centre's y: south
  CHECK(depth(0x14, nan, 90.0f) == 0.45f);     // NaN x: east
  CHECK(depth(0x14, 70.0f, nan) == 0.1f);      // NaN y: south
  CHECK(depth(0x1D, 84.0f, 108.0f) == 0.45f);  // the centre itself: south-west
  CHECK(depth(0x1D, 80.0f, nan) == 0.45f);     // west, NaN y: south-west
  CHECK(depth(0x1D, nan, 100.0f) == 0.1f);     // NaN x: south-east, dry
  // Only the low word counts; anything but an outdoor cell gives 0.
  CHECK(s.calc_water_depth(0x01010014u, glm::vec3(70.0f, 90.0f, 0.0f)) == 0.45f);
  CHECK(s.calc_water_depth(0xA9B40100u, glm::vec3(70.0f, 90.0f, 0.0f)) == 0.0f);
  CHECK(s.calc_water_depth(0xA9B40041u, glm::vec3(70.0f, 90.0f, 0.0f)) == 0.0f);
}

TEST_CASE("CObjCell::get_water_depth 0x0052B8A0: 0 dry, 0.9 entirely water, the block's depth when partly",
          "[retail]") {
  using dereth::sim::get_water_depth;
  const LandBlockStruct s = build(water_block({{3, 4}}));
  const glm::vec3 ne(70.0f, 90.0f, 0.0f);
  CHECK(get_water_depth(WaterType::NotWater, &s, 0xA9B40014u, ne) == 0.0f);
  CHECK(get_water_depth(WaterType::EntirelyWater, &s, 0xA9B40014u, ne) == 0.9f);
  CHECK(get_water_depth(WaterType::PartiallyWater, &s, 0xA9B40014u, ne) == 0.45f);
  CHECK(get_water_depth(WaterType::PartiallyWater, &s, 0xA9B40014u, glm::vec3(50.0f, 80.0f, 0.0f)) == 0.1f);
  CHECK(get_water_depth(WaterType::PartiallyWater, nullptr, 0xA9B40014u, ne) == 0.1f);
}

TEST_CASE("LandDefs::set_height_table 0x005A99E0: a height table outside [0, 800] or NaN is refused with the Region id",
          "[retail]") {
  const dat::LandBlock b = uneven_block();
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(), -0.5f, 800.001f}) {
    dat::LandDefs defs = linear_defs();
    defs.land_height_table[7] = bad;
    const auto s = LandBlockStruct::build(b, defs, kRegion);
    REQUIRE_FALSE(s);
    const std::string m = s.error().message();
    INFO(m);
    CHECK(m.find("DAT 0x13000000 Region") != std::string::npos);
    CHECK(m.find("land_height_table[7]") != std::string::npos);
  }
  dat::LandDefs edge = linear_defs();
  edge.land_height_table[0] = 0.0f;
  edge.land_height_table[255] = 800.0f;
  CHECK(LandBlockStruct::build(b, edge, kRegion));
  CHECK(dereth::sim::check_height_table(edge.land_height_table, kRegion));
}

TEST_CASE("LandBlockStruct: a malformed landblock is refused with its DAT id", "[terrain][malformed]") {
  const dat::LandDefs defs = linear_defs();
  SECTION("an id that is not a landblock's") {
    dat::LandBlock b = uneven_block();
    b.id = 0xA9B40001;
    const auto s = LandBlockStruct::build(b, defs, kRegion);
    REQUIRE_FALSE(s);
    CHECK(s.error().message().find("DAT 0xA9B40001 LandBlock") != std::string::npos);
  }
  SECTION("a block off the world") {
    dat::LandBlock b = uneven_block();
    b.id = 0xFF00FFFF;
    const auto s = LandBlockStruct::build(b, defs, kRegion);
    REQUIRE_FALSE(s);
    CHECK(s.error().message().find("DAT 0xFF00FFFF LandBlock") != std::string::npos);
  }
  SECTION("bytes of the wrong size") {
    std::vector<std::uint8_t> bytes = dat::write_land_block(uneven_block());
    REQUIRE(LandBlockStruct::build(bytes, kBlock, defs, kRegion));
    bytes.pop_back();
    const auto short_record = LandBlockStruct::build(bytes, kBlock, defs, kRegion);
    REQUIRE_FALSE(short_record);
    CHECK(short_record.error().message().rfind("DAT 0xA9B4FFFF LandBlock", 0) == 0);
    bytes.push_back(0);
    bytes.push_back(0);
    CHECK_FALSE(LandBlockStruct::build(bytes, kBlock, defs, kRegion));
    CHECK_FALSE(LandBlockStruct::build(std::span<const std::uint8_t>{}, kBlock, defs, kRegion));
  }
}
