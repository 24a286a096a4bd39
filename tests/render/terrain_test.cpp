#include "dereth/render/terrain.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <glm/geometric.hpp>

#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/demo/demo_world.hpp"

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
          "[retail]") {
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

TEST_CASE("CLandBlockStruct::ConstructPolygons 0x00531D10 winds both triangles of each cut as retail", "[retail]") {
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
          "[retail]") {
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

  dat::RecordCache records(&*portal);
  const auto layers = render::build_terrain_layers(*region, &records, 16);
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
          "[render][terrain][retail]") {
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
      for (std::size_t y = 0; y < 9; ++y)
        slope.height[dat::land_block_vertex(x, y)] = static_cast<std::uint8_t>(x * 12);
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

// ---- The far terrain at lower detail (LScape::get_block_orient, CLandBlockStruct::generate) ----

namespace {

using render::BlockOrient;
using render::LandDirection;

// Heights with no straight runs (a hash of the vertex), so every averaging shows.
dat::LandBlock rough_block(dat::Did id) {
  dat::LandBlock b;
  b.id = id;
  for (std::size_t i = 0; i < dat::kLandBlockVertices; ++i) {
    std::uint32_t h = static_cast<std::uint32_t>(i + 3) * 2654435761U;
    h ^= h >> 15;
    h *= 2246822519U;
    h ^= h >> 13;
    b.height[i] = static_cast<std::uint8_t>(h % 97U);
  }
  return b;
}

float table_height(const dat::LandDefs& defs, const dat::LandBlock& b, std::size_t fx, std::size_t fy) {
  return defs.land_height_table[b.height[dat::land_block_vertex(fx, fy)]];
}

// The coarse edge's height at full-detail vertex k (0..8) along it, given
// the coarse edge's vertices (every `step` full vertices).
float edge_line(const std::vector<float>& coarse, std::size_t step, std::size_t k) {
  const std::size_t i = k / step;
  if (i + 1 >= coarse.size()) return coarse.back();
  const float t = static_cast<float>(k % step) / static_cast<float>(step);
  return coarse[i] + t * (coarse[i + 1] - coarse[i]);
}

}  // namespace

TEST_CASE("LScape::get_block_orient 0x00504F90 gives each ring its size and the outward edges their direction",
          "[retail]") {
  using enum LandDirection;
  const auto orient = [](int ix, int iy) { return render::LScape::get_block_orient(5, ix, iy); };
  // The viewer's block and its ring: full detail, the ring's side named.
  CHECK(orient(5, 5) == BlockOrient{1, InViewerBlock});
  CHECK(orient(5, 6) == BlockOrient{1, NorthOfViewer});
  CHECK(orient(5, 4) == BlockOrient{1, SouthOfViewer});
  CHECK(orient(6, 5) == BlockOrient{1, EastOfViewer});
  CHECK(orient(4, 5) == BlockOrient{1, WestOfViewer});
  CHECK(orient(4, 6) == BlockOrient{1, NorthwestOfViewer});
  CHECK(orient(4, 4) == BlockOrient{1, SouthwestOfViewer});
  CHECK(orient(6, 6) == BlockOrient{1, NortheastOfViewer});
  CHECK(orient(6, 4) == BlockOrient{1, SoutheastOfViewer});
  // Ring 2: size 2 (4 cells a side); a side block beside a corner is still its side.
  CHECK(orient(7, 5) == BlockOrient{2, EastOfViewer});
  CHECK(orient(7, 6) == BlockOrient{2, EastOfViewer});
  CHECK(orient(6, 7) == BlockOrient{2, NorthOfViewer});
  CHECK(orient(3, 3) == BlockOrient{2, SouthwestOfViewer});
  CHECK(orient(7, 3) == BlockOrient{2, SoutheastOfViewer});
  // Ring 3 is size 4 with no direction (the ring of that size is 4); ring 4 has them.
  CHECK(orient(8, 5) == BlockOrient{4, InViewerBlock});
  CHECK(orient(2, 8) == BlockOrient{4, InViewerBlock});
  CHECK(orient(9, 5) == BlockOrient{4, EastOfViewer});
  CHECK(orient(9, 9) == BlockOrient{4, NortheastOfViewer});
  CHECK(orient(1, 1) == BlockOrient{4, SouthwestOfViewer});
  CHECK(orient(5, 1) == BlockOrient{4, SouthOfViewer});
  // Beyond 4: one cell, no direction.
  CHECK(orient(10, 5) == BlockOrient{8, InViewerBlock});
  CHECK(orient(0, 0) == BlockOrient{8, InViewerBlock});
  // A radius-2 grid: its outer ring is ring 2.
  CHECK(render::LScape::get_block_orient(2, 0, 0) == BlockOrient{2, SouthwestOfViewer});
  CHECK(render::LScape::get_block_orient(2, 2, 4) == BlockOrient{2, NorthOfViewer});
  CHECK(render::LScape::get_block_orient(2, 1, 2) == BlockOrient{1, WestOfViewer});
}

TEST_CASE("CLandBlockStruct::generate 0x00532BB0 builds 8 / poly_size cells a side from every n-th height",
          "[retail]") {
  const dat::LandBlock b = block_with_heights(0xA9B4FFFF);
  const dat::LandDefs defs = linear_defs(2.0F, 1.0F);
  for (const std::uint32_t poly : {2U, 4U, 8U}) {
    INFO("poly_size " << poly);
    LandBlockStruct s;
    CHECK(s.generate(b, defs, poly, LandDirection::InViewerBlock));  // a resize
    const std::size_t cells = 8 / poly;
    CHECK(s.side_cell_count == cells);
    CHECK(s.side_polygon_count == cells);
    CHECK(s.side_vertex_count == cells + 1);
    CHECK(s.vertices.size() == (cells + 1) * (cells + 1));
    CHECK(s.polygons.size() == 2 * cells * cells);
    for (std::size_t ix = 0; ix <= cells; ++ix) {
      for (std::size_t iy = 0; iy <= cells; ++iy) {
        const glm::vec3 v = s.vertices[ix * (cells + 1) + iy];
        CHECK(v.x == static_cast<float>(ix * 24 * poly));
        CHECK(v.y == static_cast<float>(iy * 24 * poly));
        CHECK(v.z == table_height(defs, b, ix * poly, iy * poly));
      }
    }
    // The same size and direction again: nothing to do.
    CHECK_FALSE(s.generate(b, defs, poly, LandDirection::InViewerBlock));
  }
  // Only the direction changes: the vertices are remade, the size is not (false).
  LandBlockStruct s;
  REQUIRE(s.generate(b, defs, 2, LandDirection::InViewerBlock));
  CHECK_FALSE(s.generate(b, defs, 2, LandDirection::EastOfViewer));
  CHECK(s.trans_dir == LandDirection::EastOfViewer);
  CHECK(s.vertices[4 * 5 + 1].z == (table_height(defs, b, 8, 0) + table_height(defs, b, 8, 4)) * 0.5F);
  // Back to full detail: 81 vertices, 128 polygons, as construct_vertices makes them.
  CHECK(s.generate(b, defs, 1, LandDirection::InViewerBlock));
  CHECK(s.vertices.size() == 81);
  CHECK(s.polygons.size() == 128);
  CHECK(s.vertices[80].z == table_height(defs, b, 8, 8));
  // A poly_size that does not divide the block is refused; nothing changes.
  CHECK_FALSE(s.generate(b, defs, 3, LandDirection::InViewerBlock));
  CHECK_FALSE(s.generate(b, defs, 0, LandDirection::InViewerBlock));
  CHECK(s.side_cell_count == 8);
  // One cell a side: no transition (TransAdjust needs 2 or 4 cells).
  LandBlockStruct one;
  REQUIRE(one.generate(b, defs, 8, LandDirection::NortheastOfViewer));
  CHECK(one.vertices[1].z == table_height(defs, b, 0, 8));
  CHECK(one.vertices[3].z == table_height(defs, b, 8, 8));
}

TEST_CASE("CLandBlockStruct::ConstructPolygons 0x00531D10 at a coarse size cuts coarse cell (x, y) as full cell (x, y)",
          "[retail]") {
  const dat::LandBlock b = block_with_heights(0xA9B4FFFF);
  LandBlockStruct s;
  REQUIRE(s.generate(b, linear_defs(1.0F, 0.0F), 2, LandDirection::InViewerBlock));
  const std::uint32_t bx = 0xA9 * 8;
  const std::uint32_t by = 0xB4 * 8;
  std::size_t cuts = 0;
  for (std::uint16_t x = 0; x < 4; ++x) {
    for (std::uint16_t y = 0; y < 4; ++y) {
      const std::size_t cell = x * 4U + y;
      const bool cut = dat::land_cell_split_sw_ne(bx + x, by + y);
      CHECK(s.sw_to_ne[cell] == cut);
      cuts += cut ? 1U : 0U;
      const auto sw = static_cast<std::uint16_t>(x * 5 + y);
      const auto se = static_cast<std::uint16_t>((x + 1) * 5 + y);
      const auto nw = static_cast<std::uint16_t>(sw + 1);
      const auto ne = static_cast<std::uint16_t>(se + 1);
      if (cut) {
        CHECK(s.polygons[2 * cell] == LandBlockStruct::Triangle{sw, se, ne});
        CHECK(s.polygons[2 * cell + 1] == LandBlockStruct::Triangle{sw, ne, nw});
      } else {
        CHECK(s.polygons[2 * cell] == LandBlockStruct::Triangle{sw, se, nw});
        CHECK(s.polygons[2 * cell + 1] == LandBlockStruct::Triangle{ne, nw, se});
      }
    }
  }
  CHECK(cuts > 0);
  CHECK(cuts < 16);
}

TEST_CASE("CLandBlockStruct::TransAdjust 0x005323D0 stitches each outward edge to the coarser neighbour", "[retail]") {
  const dat::LandDefs defs = linear_defs(2.0F, 0.0F);
  const dat::LandBlock b = rough_block(0xA9B4FFFF);
  using enum LandDirection;
  SECTION("north of the viewer, 4 cells a side: the north edge halves, the south edge dips under the full edge") {
    LandBlockStruct plain;
    REQUIRE(plain.generate(b, defs, 2, InViewerBlock));
    LandBlockStruct s;
    REQUIRE(s.generate(b, defs, 2, NorthOfViewer));
    const auto z = [&s](std::size_t x, std::size_t y) { return s.vertices[x * 5 + y].z; };
    // North edge (y 4): odd vertices the mean of their edge neighbours.
    CHECK(z(1, 4) == (z(0, 4) + z(2, 4)) * 0.5F);
    CHECK(z(3, 4) == (z(2, 4) + z(4, 4)) * 0.5F);
    CHECK(z(2, 4) == table_height(defs, b, 4, 8));
    // South edge (y 0): odd vertex i (full vertex 2i) is at most 2h(2i-1) - h(2i-2) and 2h(2i+1) - h(2i+2).
    std::size_t lowered = 0;
    for (const std::size_t i : {1U, 3U}) {
      const std::size_t f = 2 * i;
      const float h = table_height(defs, b, f, 0);
      const float a = 2.0F * table_height(defs, b, f - 1, 0) - table_height(defs, b, f - 2, 0);
      const float c = 2.0F * table_height(defs, b, f + 1, 0) - table_height(defs, b, f + 2, 0);
      CHECK(z(i, 0) == std::min({h, a, c}));
      lowered += z(i, 0) < h ? 1U : 0U;
    }
    CHECK(lowered > 0);  // these heights make the odd case happen
    // The sides and the inside are untouched.
    for (std::size_t i = 0; i < 25; ++i) {
      const std::size_t x = i / 5;
      const std::size_t y = i % 5;
      if (y == 4 || (y == 0 && x % 2 == 1)) continue;
      CHECK(s.vertices[i].z == plain.vertices[i].z);
    }
    // Seen from the full-detail block to the south, the coarse edge runs at or below its edge everywhere.
    std::vector<float> coarse;
    for (std::size_t x = 0; x < 5; ++x) coarse.push_back(z(x, 0));
    for (std::size_t k = 0; k <= 8; ++k) CHECK(edge_line(coarse, 2, k) <= table_height(defs, b, k, 0));
  }
  SECTION("each direction's edges") {
    const auto changed_edges = [&](LandDirection d, std::uint32_t poly) {
      LandBlockStruct plain;
      REQUIRE(plain.generate(b, defs, poly, InViewerBlock));
      LandBlockStruct s;
      REQUIRE(s.generate(b, defs, poly, d));
      const std::size_t n = s.side_vertex_count;
      const std::size_t last = n - 1;
      std::string edges;
      for (std::size_t i = 1; i < last; i += 2) {
        if (s.vertices[i * n + last].z != plain.vertices[i * n + last].z) edges += 'N';
        if (s.vertices[i * n].z != plain.vertices[i * n].z) edges += 'S';
        if (s.vertices[last * n + i].z != plain.vertices[last * n + i].z) edges += 'E';
        if (s.vertices[i].z != plain.vertices[i].z) edges += 'W';
      }
      std::sort(edges.begin(), edges.end());
      edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
      return edges;
    };
    // Two cells a side (ring 4): the outward edges only, no dip towards the viewer.
    CHECK(changed_edges(NorthOfViewer, 4) == "N");
    CHECK(changed_edges(SouthOfViewer, 4) == "S");
    CHECK(changed_edges(EastOfViewer, 4) == "E");
    CHECK(changed_edges(WestOfViewer, 4) == "W");
    CHECK(changed_edges(NorthwestOfViewer, 4) == "NW");
    CHECK(changed_edges(SouthwestOfViewer, 4) == "SW");
    CHECK(changed_edges(NortheastOfViewer, 4) == "EN");
    CHECK(changed_edges(SoutheastOfViewer, 4) == "ES");
    // Four cells a side (ring 2): the sides also dip on the edge facing the viewer; corners do not.
    CHECK(changed_edges(EastOfViewer, 2) == "EW");
    CHECK(changed_edges(SouthOfViewer, 2) == "NS");
    CHECK(changed_edges(NortheastOfViewer, 2) == "EN");
  }
  SECTION("the halved edge is exactly the coarser neighbour's edge: no crack") {
    // Block A (ring 2, north of the viewer, 4 cells) and B north of it (ring 3, 2 cells) share A's north edge.
    dat::LandBlock north = rough_block(0xA9B5FFFF);
    for (std::size_t x = 0; x <= 8; ++x)
      north.height[dat::land_block_vertex(x, 0)] = b.height[dat::land_block_vertex(x, 8)];
    LandBlockStruct a;
    REQUIRE(a.generate(b, defs, 2, NorthOfViewer));
    LandBlockStruct n;
    REQUIRE(n.generate(north, defs, 4, InViewerBlock));
    std::vector<float> a_edge;
    std::vector<float> n_edge;
    for (std::size_t x = 0; x < 5; ++x) a_edge.push_back(a.vertices[x * 5 + 4].z);
    for (std::size_t x = 0; x < 3; ++x) n_edge.push_back(n.vertices[x * 3].z);
    for (std::size_t k = 0; k <= 8; ++k) CHECK(edge_line(a_edge, 2, k) == edge_line(n_edge, 4, k));
    // Without the transition the edges part.
    LandBlockStruct raw;
    REQUIRE(raw.generate(b, defs, 2, InViewerBlock));
    std::vector<float> raw_edge;
    for (std::size_t x = 0; x < 5; ++x) raw_edge.push_back(raw.vertices[x * 5 + 4].z);
    bool parted = false;
    for (std::size_t k = 0; k <= 8; ++k) parted = parted || edge_line(raw_edge, 2, k) != edge_line(n_edge, 4, k);
    CHECK(parted);
  }
}

TEST_CASE("build_terrain_mesh at a lower detail: 2 * (8 / poly_size)^2 triangles over the same block",
          "[render][terrain]") {
  dat::LandBlock b = block_with_heights(0xA9B4FFFF);
  for (std::size_t i = 0; i < dat::kLandBlockVertices; ++i) b.terrain[i] = static_cast<std::uint16_t>((i % 32) << 2);
  const dat::LandDefs defs = linear_defs(0.5F, 0.0F);
  for (const std::uint32_t poly : {1U, 2U, 4U, 8U}) {
    INFO("poly_size " << poly);
    const auto mesh = render::build_terrain_mesh(b, defs, poly, LandDirection::InViewerBlock);
    const std::size_t cells = 8 / poly;
    CHECK(mesh.poly_size == poly);
    REQUIRE(mesh.vertices.size() == 3 * 2 * cells * cells);
    for (std::size_t t = 0; t < mesh.vertices.size() / 3; ++t) {
      const auto& v0 = mesh.vertices[3 * t];
      const auto& v1 = mesh.vertices[3 * t + 1];
      const auto& v2 = mesh.vertices[3 * t + 2];
      CHECK(glm::cross(v1.position - v0.position, v2.position - v0.position).z > 0.0F);  // upward
      for (const auto* v : {&v0, &v1, &v2}) {
        // Each corner stands on a full-detail vertex and takes its terrain type.
        const auto fx = static_cast<std::size_t>(v->position.x / 24.0F);
        const auto fy = static_cast<std::size_t>(v->position.y / 24.0F);
        CHECK(v->position.z == table_height(defs, b, fx, fy));
        CHECK(v->uv == glm::vec2(static_cast<float>(fx), static_cast<float>(fy)));
      }
      CHECK(v0.layers.x ==
            static_cast<float>(dat::terrain_type(b.terrain[dat::land_block_vertex(
                static_cast<std::size_t>(v0.position.x / 24.0F), static_cast<std::size_t>(v0.position.y / 24.0F))])));
    }
  }
  // The full-detail overload is poly_size 1.
  const auto full = render::build_terrain_mesh(b, defs);
  const auto one = render::build_terrain_mesh(b, defs, 1, LandDirection::NorthOfViewer);
  REQUIRE(full.vertices.size() == one.vertices.size());
  for (std::size_t i = 0; i < full.vertices.size(); ++i) CHECK(full.vertices[i].position == one.vertices[i].position);
  CHECK(render::build_terrain_mesh(b, defs, 3, LandDirection::InViewerBlock).vertices.empty());
}
