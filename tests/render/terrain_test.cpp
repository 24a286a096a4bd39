#include "dereth/render/terrain.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>

#include "dereth/dat/dat_file.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/region.hpp"

using namespace dereth;
using render::LandBlockStruct;

namespace {

dat::LandDefs linear_defs(float step, float base) {
  dat::LandDefs defs;
  for (std::size_t i = 0; i < defs.land_height_table.size(); ++i) {
    defs.land_height_table[i] = base + step * static_cast<float>(i);
  }
  return defs;
}

dat::LandBlock block_with_heights(dat::Did id) {
  dat::LandBlock b;
  b.id = id;
  for (std::size_t i = 0; i < dat::kLandBlockVertices; ++i) b.height[i] = static_cast<std::uint8_t>((i * 7) % 50);
  return b;
}

}  // namespace

TEST_CASE("CLandBlockStruct::ConstructPolygons 0x00531D10 splits every cell of block 0xA9B4 by its global hash",
          "[retail][0x00531D10]") {
  LandBlockStruct s;
  s.construct_polygons(0xA9B4FFFF);
  // Rows are cell x 0..7, characters cell y 0..7 (1 = SW->NE), from the hash
  // at global cell (0xA9*8 + x, 0xB4*8 + y).
  const char* expected[8] = {"11111111", "00111111", "00000111", "11000011",
                             "11100011", "00110011", "10010011", "11011011"};
  for (std::size_t x = 0; x < 8; ++x) {
    std::string row;
    for (std::size_t y = 0; y < 8; ++y) row += s.sw_to_ne[x * 8 + y] ? '1' : '0';
    CHECK(row == expected[x]);
  }
}

TEST_CASE("CLandBlockStruct::ConstructPolygons 0x00531D10 winds both triangles of each cut as retail",
          "[retail][0x00531D10]") {
  LandBlockStruct s;
  s.construct_polygons(0xA9B4FFFF);
  // Cell (0,0) cuts SW->NE: (SW, SE, NE) and (SW, NE, NW) with vertex index x*9 + y.
  CHECK(s.polygons[0] == LandBlockStruct::Triangle{0, 9, 10});
  CHECK(s.polygons[1] == LandBlockStruct::Triangle{0, 10, 1});
  // Cell (3,5) (global 1355,1445) cuts NW->SE: (SW, SE, NW) and (NE, NW, SE).
  const std::size_t cell = 3 * 8 + 5;
  CHECK_FALSE(s.sw_to_ne[cell]);
  CHECK(s.polygons[2 * cell] == LandBlockStruct::Triangle{32, 41, 33});
  CHECK(s.polygons[2 * cell + 1] == LandBlockStruct::Triangle{42, 33, 41});
  // Block id 0 uses block coordinates 0: cell (1,0) is global (1,0).
  LandBlockStruct z;
  z.construct_polygons(0);
  CHECK(z.sw_to_ne[0]);
  CHECK_FALSE(z.sw_to_ne[8]);
}

TEST_CASE("CLandBlockStruct::ConstructVertices 0x005328D0 places vertex x*9+y at (24x, 24y, table[height])",
          "[retail][0x005328D0]") {
  const auto defs = linear_defs(2.0F, 0.5F);
  const auto block = block_with_heights(0x1234FFFF);
  LandBlockStruct s;
  s.construct_vertices(block, defs);
  for (std::size_t x = 0; x < 9; ++x) {
    for (std::size_t y = 0; y < 9; ++y) {
      const auto& v = s.vertices[x * 9 + y];
      CHECK(v.x == 24.0F * static_cast<float>(x));
      CHECK(v.y == 24.0F * static_cast<float>(y));
      CHECK(v.z == 0.5F + 2.0F * static_cast<float>(block.height[x * 9 + y]));
    }
  }
  // The client clamps table values to [0, 800].
  dat::LandDefs high = linear_defs(10.0F, 0.0F);
  dat::LandBlock tall;
  tall.height.fill(200);  // 2000 m in the table
  s.construct_vertices(tall, high);
  CHECK(s.vertices[40].z == 800.0F);
}

TEST_CASE("LandBlockStruct::height_at evaluates the cell's triangle (spec/physics.md 6.4)", "[render][terrain]") {
  dat::LandBlock b;
  b.id = 0xA9B4FFFF;
  // Cell (0,0) (SW->NE cut): h00 = 0, h10 = 10, h01 = 20, h11 = 40 metres with a table of 1 m per step.
  b.height[dat::land_block_vertex(0, 0)] = 0;
  b.height[dat::land_block_vertex(1, 0)] = 10;
  b.height[dat::land_block_vertex(0, 1)] = 20;
  b.height[dat::land_block_vertex(1, 1)] = 40;
  // Cell (3,5) (NW->SE cut): corners 1, 2, 3, 4.
  b.height[dat::land_block_vertex(3, 5)] = 1;
  b.height[dat::land_block_vertex(4, 5)] = 2;
  b.height[dat::land_block_vertex(3, 6)] = 3;
  b.height[dat::land_block_vertex(4, 6)] = 4;
  LandBlockStruct s;
  s.construct_vertices(b, linear_defs(1.0F, 0.0F));
  s.construct_polygons(b.id);
  // u = 0.5, v = 0.25, u >= v: h00 + u(h10 - h00) + v(h11 - h10) = 0 + 5 + 7.5.
  CHECK(s.height_at(12.0F, 6.0F) == Approx(12.5F));
  // u = 0.25, v = 0.5: h00 + v(h01 - h00) + u(h11 - h01) = 10 + 5.
  CHECK(s.height_at(6.0F, 12.0F) == Approx(15.0F));
  // Cell (3,5): u = 0.25, v = 0.25 (u + v <= 1): 1 + 0.25*1 + 0.25*2.
  CHECK(s.height_at(72.0F + 6.0F, 120.0F + 6.0F) == Approx(1.75F));
  // u = 0.75, v = 0.75: h11 + 0.25(h01 - h11) + 0.25(h10 - h11) = 4 - 0.25 - 0.5.
  CHECK(s.height_at(72.0F + 18.0F, 120.0F + 18.0F) == Approx(3.25F));
}

TEST_CASE("build_terrain_mesh: 128 upward triangles with corner terrain types as layers", "[render][terrain]") {
  auto block = block_with_heights(0xA9B4FFFF);
  block.terrain[dat::land_block_vertex(0, 0)] = dat::make_terrain_word(0, 2, 0);
  block.terrain[dat::land_block_vertex(1, 0)] = dat::make_terrain_word(1, 5, 3);
  block.terrain[dat::land_block_vertex(1, 1)] = dat::make_terrain_word(0, 31, 0);
  const auto mesh = render::build_terrain_mesh(block, linear_defs(0.5F, 0.0F));
  REQUIRE(mesh.vertices.size() == 128 * 3);
  CHECK(mesh.origin == glm::vec3(0xA9 * 192.0F, 0xB4 * 192.0F, 0.0F));
  for (const auto& v : mesh.vertices) CHECK(v.normal.z > 0.0F);
  // Triangle 0 of cell (0,0) is (SW, SE, NE): types 2, 5, 31.
  CHECK(mesh.vertices[0].layers == glm::vec3(2, 5, 31));
  CHECK(mesh.vertices[0].weight == glm::vec3(1, 0, 0));
  CHECK(mesh.vertices[2].weight == glm::vec3(0, 0, 1));
  CHECK(mesh.vertices[1].position == glm::vec3(24.0F, 0.0F, 0.5F * static_cast<float>(block.height[9])));
  CHECK(mesh.vertices[1].uv == glm::vec2(1.0F, 0.0F));
}

TEST_CASE("Terrain of the demo landblock: heights through the demo Region's table", "[render][terrain]") {
  auto world = demo::build_demo_world();
  REQUIRE(world.has_value());
  auto portal = dat::DatFile::from_bytes(world->portal, "demo_portal");
  auto cell = dat::DatFile::from_bytes(world->cell, "demo_cell");
  REQUIRE(portal.has_value());
  REQUIRE(cell.has_value());
  auto region = dat::read_region(*portal->read(demo::kRegion), demo::kRegion);
  REQUIRE(region.has_value());
  auto block = dat::read_land_block(*cell->read(demo::kLandBlock), demo::kLandBlock);
  REQUIRE(block.has_value());
  LandBlockStruct s;
  s.construct_vertices(*block, region->land_defs);
  // The demo table is 0.5 m per height step.
  for (std::size_t i = 0; i < 81; ++i) CHECK(s.vertices[i].z == 0.5F * static_cast<float>(block->height[i]));

  const auto layers = render::build_terrain_layers(*region, &*portal, 16);
  REQUIRE(layers.layers.size() == render::kTerrainLayerCount);
  CHECK(layers.failures == 0);
  // Types 0..2 carry the demo's textures; type 3 has neither texture nor type: mid grey.
  CHECK(layers.layers[3].at(0, 0) == std::array<std::uint8_t, 4>{128, 128, 128, 255});
  CHECK(layers.layers[0].at(0, 0)[3] == 255);
  CHECK(layers.layers[0].width == 16);
}

TEST_CASE("land_block_at and land_block_origin convert global metres and block ids", "[render][terrain]") {
  std::uint32_t id = 0;
  REQUIRE(render::land_block_at({0xA9 * 192.0F + 5.0F, 0xB4 * 192.0F + 191.0F, 40.0F}, id));
  CHECK(id == 0xA9B4FFFFU);
  CHECK(render::land_block_origin(id) == glm::vec3(0xA9 * 192.0F, 0xB4 * 192.0F, 0.0F));
  CHECK_FALSE(render::land_block_at({-1.0F, 5.0F, 0.0F}, id));
  CHECK_FALSE(render::land_block_at({256 * 192.0F, 5.0F, 0.0F}, id));
  CHECK_FALSE(render::land_block_at({std::nanf(""), 5.0F, 0.0F}, id));
}

TEST_CASE("CLandBlockStruct::calc_lighting 0x00531700 lights each vertex by the sum of its polygons' normals",
          "[render][terrain][retail][0x00531700]") {
  const glm::vec3 sun_towards = glm::normalize(glm::vec3(0.4F, -0.5F, 0.77F));
  const glm::vec3 sun_color(0.65F, 0.6F, 0.5F);
  const glm::vec3 ambient(0.45F, 0.4F, 0.3F);

  SECTION("a flat block: every normal straight up, light = sun * sunlight.z + ambient") {
    dat::LandBlock flat;
    flat.id = 0xA9B4FFFF;
    LandBlockStruct s;
    s.construct_vertices(flat, linear_defs(2.0F, 10.0F));
    s.construct_polygons(flat.id);
    s.calc_lighting(sun_towards, sun_color, ambient);
    for (std::size_t v = 0; v < LandBlockStruct::kVertexCount; ++v) {
      CHECK(s.vertex_normals[v].x == Approx(0.0F).margin(1e-6));
      CHECK(s.vertex_normals[v].y == Approx(0.0F).margin(1e-6));
      CHECK(s.vertex_normals[v].z == Approx(1.0F));
      CHECK(s.vertex_lighting[v].r == Approx(0.65F * sun_towards.z + 0.45F));
      CHECK(s.vertex_lighting[v].g == Approx(0.6F * sun_towards.z + 0.4F));
      CHECK(s.vertex_lighting[v].b == Approx(0.5F * sun_towards.z + 0.3F));
    }
  }

  SECTION("a plane sloping up to the east: every vertex has the plane's normal, facing away from the sun or not") {
    dat::LandBlock slope;
    slope.id = 0xA9B4FFFF;
    for (std::size_t x = 0; x < 9; ++x) {
      for (std::size_t y = 0; y < 9; ++y) slope.height[dat::land_block_vertex(x, y)] = static_cast<std::uint8_t>(x * 12);
    }
    LandBlockStruct s;
    s.construct_vertices(slope, linear_defs(1.0F, 0.0F));  // rises 12 m per 24 m cell
    s.construct_polygons(slope.id);
    const glm::vec3 plane = glm::normalize(glm::vec3(-12.0F, 0.0F, 24.0F));
    // The sun low in the east lights the slope; low in the west it leaves only the ambient.
    const glm::vec3 east = glm::normalize(glm::vec3(1.0F, 0.0F, 0.1F));
    s.calc_lighting(east, sun_color, ambient);
    for (std::size_t v = 0; v < LandBlockStruct::kVertexCount; ++v) {
      CHECK(s.vertex_normals[v].x == Approx(plane.x));
      CHECK(s.vertex_normals[v].z == Approx(plane.z));
      CHECK(s.vertex_lighting[v] == ambient);  // n . sunlight < 0: no sun
    }
    s.calc_lighting(glm::normalize(glm::vec3(-1.0F, 0.0F, 0.1F)), sun_color, ambient);
    const float lit = std::max(glm::dot(plane, glm::normalize(glm::vec3(-1.0F, 0.0F, 0.1F))), 0.0F);
    CHECK(s.vertex_lighting[40].r == Approx(0.65F * lit + 0.45F));
  }

  SECTION("a vertex's normal sums only the polygons that use it, unweighted; the light clamps at 1 per channel") {
    auto block = block_with_heights(0xA9B4FFFF);
    LandBlockStruct s;
    s.construct_vertices(block, linear_defs(0.5F, 0.0F));
    s.construct_polygons(block.id);
    s.calc_lighting(glm::vec3(0.0F, 0.0F, 1.0F), glm::vec3(1.0F, 0.2F, 0.0F), glm::vec3(0.5F, 0.1F, 0.0F));
    const auto unit_normal = [&s](const LandBlockStruct::Triangle& t) {
      return glm::normalize(glm::cross(s.vertices[t[1]] - s.vertices[t[0]], s.vertices[t[2]] - s.vertices[t[0]]));
    };
    // The south-west corner (vertex 0) is in one or both triangles of cell (0, 0), by the cut.
    glm::vec3 sum(0.0F);
    for (std::size_t p = 0; p < 2; ++p) {
      const auto& t = s.polygons[p];
      if (t[0] == 0 || t[1] == 0 || t[2] == 0) sum += unit_normal(t);
    }
    const glm::vec3 expected = glm::normalize(sum);
    CHECK(s.vertex_normals[0].x == Approx(expected.x));
    CHECK(s.vertex_normals[0].y == Approx(expected.y));
    CHECK(s.vertex_normals[0].z == Approx(expected.z));
    // An inner vertex (4, 4) gathers the six triangles around it.
    glm::vec3 inner(0.0F);
    int count = 0;
    for (const auto& t : s.polygons) {
      if (t[0] == 40 || t[1] == 40 || t[2] == 40) {
        inner += unit_normal(t);
        ++count;
      }
    }
    CHECK(count == 6);
    CHECK(s.vertex_normals[40].z == Approx(glm::normalize(inner).z));
    for (std::size_t v = 0; v < LandBlockStruct::kVertexCount; ++v) {
      CHECK(s.vertex_lighting[v].r == 1.0F);  // 1 * n.z + 0.5 > 1 on this gentle terrain
      CHECK(s.vertex_lighting[v].g == Approx(0.2F * s.vertex_normals[v].z + 0.1F));
      CHECK(s.vertex_lighting[v].b == 0.0F);
    }
  }

  SECTION("build_terrain_mesh draws each corner with its vertex's normal") {
    auto block = block_with_heights(0xA9B4FFFF);
    LandBlockStruct s;
    s.construct_vertices(block, linear_defs(0.5F, 0.0F));
    s.construct_polygons(block.id);
    s.calc_lighting(sun_towards, sun_color, ambient);
    const auto mesh = render::build_terrain_mesh(block, linear_defs(0.5F, 0.0F));
    for (std::size_t p = 0; p < LandBlockStruct::kPolygonCount; ++p) {
      for (std::size_t k = 0; k < 3; ++k) CHECK(mesh.vertices[p * 3 + k].normal == s.vertex_normals[s.polygons[p][k]]);
    }
  }
}
