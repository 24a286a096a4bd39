#include "dereth/render/mesh.hpp"

#include <catch2/catch.hpp>

#include <vector>

#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/demo/demo_world.hpp"

using namespace dereth;
using render::build_gfx_obj_mesh;
using render::MeshData;

namespace {

dat::SwVertex vertex(std::uint16_t id, glm::vec3 p, std::vector<dat::UvCoord> uvs) {
  dat::SwVertex v;
  v.id = id;
  v.origin = p;
  v.normal = {0, 0, 1};
  v.uvs = std::move(uvs);
  return v;
}

dat::Polygon polygon(std::vector<std::int16_t> ids, std::int32_t sides, std::int16_t pos, std::int16_t neg,
                     std::uint8_t pos_uv, std::uint8_t neg_uv) {
  dat::Polygon p;
  p.sides_type = sides;
  p.pos_surface = pos;
  p.neg_surface = neg;
  p.vertex_ids = ids;
  p.pos_uv_indices.assign(ids.size(), pos_uv);
  if (p.has_neg_uvs()) p.neg_uv_indices.assign(ids.size(), neg_uv);
  return p;
}

// A unit pentagon-ish fan of five vertices, each with two UV sets.
dat::GfxObj five_points() {
  dat::GfxObj g;
  g.id = 0x01000100;
  g.flags = dat::GfxObj::kHasDrawing;
  g.surfaces = {0x08000001, 0x08000002};
  const glm::vec3 pts[5] = {{0, 0, 0}, {1, 0, 0}, {1.5F, 1, 0}, {0.5F, 1.5F, 0}, {-0.5F, 1, 0}};
  for (std::uint16_t i = 0; i < 5; ++i) {
    g.vertices.push_back(vertex(i, pts[i], {{0.1F * i, 0.2F}, {0.5F, 0.05F * i}}));
  }
  return g;
}

}  // namespace

TEST_CASE("build_gfx_obj_mesh: a single-sided polygon is a fan from its first point", "[render][mesh]") {
  auto g = five_points();
  g.polygons.push_back(polygon({0, 1, 2, 3, 4}, 0, 1, 0, 0, 0));
  const MeshData m = build_gfx_obj_mesh(g);
  REQUIRE(m.vertices.size() == 5);
  CHECK(m.indices == std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3, 0, 3, 4});
  REQUIRE(m.batches.size() == 1);
  CHECK(m.batches[0].surface_index == 1);
  CHECK(m.batches[0].first_index == 0);
  CHECK(m.batches[0].index_count == 9);
  CHECK(m.triangle_count() == 3);
  CHECK(m.vertices[2].position == glm::vec3(1.5F, 1, 0));
  CHECK(m.vertices[2].uv == glm::vec2(0.2F, 0.2F));  // UV set 0 of vertex 2
  CHECK(m.skipped_polygons == 0);
  CHECK(m.bounds_min == glm::vec3(-0.5F, 0, 0));
  CHECK(m.bounds_max == glm::vec3(1.5F, 1.5F, 0));
}

TEST_CASE("build_gfx_obj_mesh: sides_type 2 adds the reversed fan with the neg surface, neg UVs and negated normals",
          "[render][mesh]") {
  auto g = five_points();
  g.polygons.push_back(polygon({0, 1, 2, 3}, 2, 0, 1, 0, 1));
  const MeshData m = build_gfx_obj_mesh(g);
  REQUIRE(m.vertices.size() == 8);
  REQUIRE(m.batches.size() == 2);
  CHECK(m.batches[0].surface_index == 0);
  CHECK(m.batches[1].surface_index == 1);
  const std::vector<std::uint32_t> front(m.indices.begin(), m.indices.begin() + 6);
  const std::vector<std::uint32_t> back(m.indices.begin() + 6, m.indices.end());
  CHECK(front == std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3});
  CHECK(back == std::vector<std::uint32_t>{4, 6, 5, 4, 7, 6});
  CHECK(m.vertices[4].normal == glm::vec3(0, 0, -1));
  CHECK(m.vertices[5].uv == glm::vec2(0.5F, 0.05F));  // UV set 1 of vertex 1
  CHECK(m.vertices[1].uv == glm::vec2(0.1F, 0.2F));   // the front keeps set 0
}

TEST_CASE("build_gfx_obj_mesh: sides_type 1 draws the back with the pos surface and UVs", "[render][mesh]") {
  auto g = five_points();
  auto p = polygon({0, 1, 2}, 1, 1, 0, 1, 0);
  g.polygons.push_back(p);
  const MeshData m = build_gfx_obj_mesh(g);
  REQUIRE(m.batches.size() == 1);
  CHECK(m.batches[0].surface_index == 1);
  CHECK(m.indices == std::vector<std::uint32_t>{0, 1, 2, 3, 5, 4});
  CHECK(m.vertices[4].uv == m.vertices[1].uv);
  CHECK(m.vertices[4].normal == -m.vertices[1].normal);
}

TEST_CASE("build_gfx_obj_mesh: malformed polygons are skipped and counted, missing UVs read as zero",
          "[render][mesh]") {
  auto g = five_points();
  g.polygons.push_back(polygon({0, 1, 9}, 0, 0, 0, 0, 0));   // vertex id past the array
  g.polygons.push_back(polygon({0, 1, -2}, 0, 0, 0, 0, 0));  // negative vertex id
  g.polygons.push_back(polygon({0, 1}, 0, 0, 0, 0, 0));      // two points
  g.polygons.push_back(polygon({0, 1, 2}, 0, 5, 0, 0, 0));   // surface index past the list
  g.polygons.push_back(polygon({0, 1, 2}, 2, 0, -1, 0, 0));  // bad neg surface on a two-sided polygon
  auto no_pos = polygon({2, 3, 4}, 0, 0, 0, 0, 0);
  no_pos.stippling = dat::Polygon::kNoPos;
  no_pos.pos_uv_indices.clear();
  g.polygons.push_back(no_pos);
  g.polygons.push_back(polygon({0, 3, 4}, 0, 0, 0, 7, 0));  // UV index past the vertex's UVs
  const MeshData m = build_gfx_obj_mesh(g);
  CHECK(m.skipped_polygons == 5);
  REQUIRE(m.triangle_count() == 2);
  for (const auto& v : m.vertices) CHECK(v.uv == glm::vec2(0.0F));
}

TEST_CASE("build_gfx_obj_mesh: every demo world GfxObj builds without skipped polygons", "[render][mesh]") {
  auto world = demo::build_demo_world();
  REQUIRE(world.has_value());
  auto portal = dat::DatFile::from_bytes(world->portal, "demo_portal");
  REQUIRE(portal.has_value());
  auto entries = portal->entries();
  REQUIRE(entries.has_value());
  std::size_t meshes = 0;
  for (const auto& e : *entries) {
    if ((e.id >> 24) != 0x01) continue;
    auto bytes = portal->read(e);
    REQUIRE(bytes.has_value());
    auto obj = dat::read_gfx_obj(*bytes, e.id, dat::BspMode::Skip);
    REQUIRE(obj.has_value());
    const MeshData m = build_gfx_obj_mesh(*obj);
    CHECK(m.skipped_polygons == 0);
    CHECK(m.triangle_count() >= 2);
    ++meshes;
    if (e.id == 0x01000001) {  // the torso box: 6 quads, 12 triangles, one surface
      CHECK(m.triangle_count() == 12);
      CHECK(m.batches.size() == 1);
    }
  }
  CHECK(meshes >= 12);
}

TEST_CASE("build_cell_struct_mesh: an EnvCell's polygons by the cell's surfaces, its portals left out",
          "[render][mesh][cells]") {
  dat::CellStruct cs;
  const auto quad = [&](float z, std::int16_t surface) {
    dat::EnvPolygon p;
    p.pos_surface = surface;
    for (const glm::vec2 c : {glm::vec2{0, 0}, glm::vec2{1, 0}, glm::vec2{1, 1}, glm::vec2{0, 1}}) {
      dat::EnvVertex v;
      v.id = static_cast<std::uint16_t>(cs.vertices.size());
      v.origin = {c.x, c.y, z};
      v.normal = {0, 0, 1};
      v.uvs = {dat::EnvUv{c.x, c.y}};
      p.vertex_ids.push_back(v.id);
      p.pos_uv_indices.push_back(0);
      cs.vertices.push_back(v);
    }
    cs.polygons.push_back(p);
  };
  quad(0, 1);  // a floor with the cell's surface 1
  quad(2, 0);  // a doorway: the portal
  quad(3, 0);  // a ceiling with surface 0
  quad(4, 2);  // surface 2: past a two-surface list
  cs.portals = {1};
  const MeshData m = render::build_cell_struct_mesh(cs, 2);
  CHECK(m.skipped_polygons == 1);
  REQUIRE(m.batches.size() == 2);
  CHECK(m.batches[0].surface_index == 0);
  CHECK(m.batches[1].surface_index == 1);
  CHECK(m.triangle_count() == 4);
  CHECK(m.bounds_min.z == 0.0F);
  CHECK(m.bounds_max.z == 3.0F);  // the portal at z 2 is not among them, nor the skipped one at 4
  CHECK(m.vertices[0].uv == glm::vec2(0, 0));
  CHECK(m.vertices[2].uv == glm::vec2(1, 1));
}

TEST_CASE("build_cell_struct_mesh: the demo room draws every wall but its two doorways", "[render][mesh][cells]") {
  auto world = demo::build_demo_world();
  REQUIRE(world.has_value());
  auto portal = dat::DatFile::from_bytes(world->portal, "demo_portal");
  REQUIRE(portal.has_value());
  auto bytes = portal->read(demo::kRoomEnvironment);
  REQUIRE(bytes.has_value());
  auto env = dat::read_environment(*bytes, demo::kRoomEnvironment);
  REQUIRE(env.has_value());
  const dat::CellStruct* cs = dat::find_cell_struct(*env, 0);
  REQUIRE(cs != nullptr);
  const MeshData m = render::build_cell_struct_mesh(*cs, 2);
  CHECK(m.skipped_polygons == 0);
  CHECK(m.batches.size() == 2);  // planks, plaster
  CHECK(m.triangle_count() == 2 * (cs->polygons.size() - 2));
  CHECK(m.bounds_min == glm::vec3(0.0F));
  CHECK(m.bounds_max == glm::vec3(demo::kRoomSide, demo::kRoomSide, demo::kRoomHeight));
}
