#include "dereth/dat/environment.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

constexpr Did kId = 0x0D00062E;
constexpr std::uint32_t kBPOL = 0x42504F4C;  // unknown tag: internal node, no children

EnvBspNode leaf(std::int32_t index) {
  EnvBspNode n;
  n.tag = bsp_tag::kLeaf;
  n.leaf_index = index;
  return n;
}

EnvBspNode inner(std::uint32_t tag, float d, std::int32_t pos = -1, std::int32_t neg = -1) {
  EnvBspNode n;
  n.tag = tag;
  n.plane = Plane{{0.0F, 0.0F, 1.0F}, d};
  n.pos = pos;
  n.neg = neg;
  return n;
}

EnvPolygon quad(std::uint16_t id, std::uint16_t a) {
  EnvPolygon p;
  p.id = id;
  p.stippling = 0x04;  // NoPos: no UV lists
  p.sides_type = 0;
  p.pos_surface = 0;
  p.neg_surface = -1;
  p.vertex_ids = {a, static_cast<std::uint16_t>((a + 1) % 8), static_cast<std::uint16_t>((a + 2) % 8),
                  static_cast<std::uint16_t>((a + 3) % 8)};
  return p;
}

CellStruct cube(std::uint32_t id, bool with_drawing) {
  CellStruct c;
  c.id = id;
  for (std::uint16_t i = 0; i < 8; ++i) {
    EnvVertex v;
    v.id = i;
    v.origin = {static_cast<float>(i & 1U) * 10.0F, static_cast<float>((i >> 1) & 1U) * 10.0F,
                static_cast<float>((i >> 2) & 1U) * 5.0F};
    v.normal = {0.0F, 0.0F, 1.0F};
    if (i % 2 == 0) v.uvs = {{0.0F, 1.0F}, {0.5F, 0.25F}};
    c.vertices.push_back(v);
  }
  for (std::uint16_t i = 0; i < 6; ++i) c.polygons.push_back(quad(i, i));
  // Both sides with separate UVs, odd point count.
  EnvPolygon two;
  two.id = 6;
  two.stippling = 0;
  two.sides_type = 2;
  two.pos_surface = 1;
  two.neg_surface = 2;
  two.vertex_ids = {0, 1, 2};
  two.pos_uv_indices = {0, 1, 0};
  two.neg_uv_indices = {1, 0, 1};
  c.polygons.push_back(two);
  // Both sides with the same surface: only positive UVs on disk.
  EnvPolygon same = two;
  same.id = 7;
  same.sides_type = 1;
  same.neg_uv_indices.clear();
  c.polygons.push_back(same);
  c.portals = {0, 5, 2};  // odd: two bytes of padding follow

  // Cell tree: BPIN(pos LEAF 0, neg BPnn(pos BPOL)).
  c.cell_bsp.nodes = {inner(bsp_tag::kBPIN, 1.0F, 1, 2), leaf(0), inner(bsp_tag::kBPnn, 2.0F, 3), inner(kBPOL, 3.0F)};

  c.physics_polygons = {quad(0, 0), quad(1, 4)};
  // Physics tree: BPnN(pos LEAF, neg BpIN(neg LEAF)); spheres on internal nodes.
  EnvBspNode p0 = inner(bsp_tag::kBPnN, 4.0F, 1, 2);
  p0.sphere = Sphere{{5.0F, 5.0F, 2.5F}, 8.0F};
  EnvBspNode p1 = leaf(0);
  p1.solid = 1;
  p1.sphere = Sphere{{1.0F, 2.0F, 3.0F}, 4.0F};
  p1.polygons = {0, 1};
  EnvBspNode p2 = inner(bsp_tag::kBpIN, 5.0F, -1, 3);
  p2.sphere = Sphere{{0.0F, 0.0F, 0.0F}, 1.0F};
  EnvBspNode p3 = leaf(1);
  c.physics_bsp.nodes = {p0, p1, p2, p3};

  if (with_drawing) {
    // Drawing tree: PORT(pos LEAF, neg BPIn(pos LEAF)).
    EnvBspNode d0 = inner(bsp_tag::kPort, 6.0F, 1, 2);
    d0.sphere = Sphere{{5.0F, 5.0F, 2.5F}, 9.0F};
    d0.polygons = {0, 1, 2};
    d0.portals = {{5, 0}, {2, 1}};
    EnvBspNode d2 = inner(bsp_tag::kBPIn, 7.0F, 3);
    d2.sphere = Sphere{{1.0F, 1.0F, 1.0F}, 2.0F};
    d2.polygons = {3};
    c.drawing_bsp = EnvBspTree{{d0, leaf(0), d2, leaf(1)}};
  }
  return c;
}

Environment sample() {
  Environment env;
  env.id = kId;
  env.cells = {cube(0, true), cube(7, false)};
  return env;
}

}  // namespace

TEST_CASE("Environment: round trip with every BSP node kind", "[dat][environment]") {
  const Environment env = sample();
  const auto bytes = write_environment(env);
  CHECK(bytes.size() % 4 == 0);
  auto back = read_environment(bytes, env.id);
  REQUIRE(back.has_value());
  CHECK(*back == env);
  REQUIRE(find_cell_struct(*back, 7) != nullptr);
  CHECK_FALSE(find_cell_struct(*back, 7)->drawing_bsp.has_value());
  CHECK(find_cell_struct(*back, 0)->drawing_bsp.has_value());
  CHECK(find_cell_struct(*back, 3) == nullptr);

  Environment empty;
  empty.id = 0x0D000001;
  CHECK(write_environment(empty).size() == 8);
  CHECK(read_environment(write_environment(empty), empty.id).value() == empty);

  // Empty trees are written as a single LEAF.
  Environment bare;
  bare.id = 0x0D000002;
  bare.cells.push_back(CellStruct{});
  const auto bare_bytes = write_environment(bare);
  // id, counts, vertex type + count, CELL leaf (8), PHYSICS leaf (32), hasDrawingBSP.
  CHECK(bare_bytes.size() == 8 + 16 + 8 + 8 + 32 + 4);
  auto bare_back = read_environment(bare_bytes, bare.id);
  REQUIRE(bare_back.has_value());
  CHECK(bare_back->cells[0].cell_bsp.nodes == std::vector<EnvBspNode>{leaf(0)});
  CHECK(bare_back->cells[0].physics_bsp.nodes == std::vector<EnvBspNode>{leaf(0)});

  dereth::core::JsonWriter j;
  write_json(j, env);
  CHECK(j.str() == R"({"type":"Environment","id":"0x0D00062E","cells":[)"
                   R"({"id":0,"vertices":8,"polygons":8,"portals":[0,5,2],"cell_bsp_nodes":4,"physics_polygons":2,)"
                   R"("physics_bsp_nodes":4,"drawing_bsp_nodes":4},)"
                   R"({"id":7,"vertices":8,"polygons":8,"portals":[0,5,2],"cell_bsp_nodes":4,"physics_polygons":2,)"
                   R"("physics_bsp_nodes":4,"drawing_bsp_nodes":null}]})");
}

TEST_CASE("Environment: byte layout of the CellStruct header and polygons", "[dat][environment]") {
  Environment env;
  env.id = kId;
  CellStruct c;
  c.id = 2;
  EnvVertex v;
  v.uvs = {{0.25F, 0.75F}};
  c.vertices = {v};
  EnvPolygon p;
  p.id = 0;
  p.stippling = 0;
  p.sides_type = 2;
  p.pos_surface = 3;
  p.neg_surface = -1;
  p.vertex_ids = {0};
  p.pos_uv_indices = {0};
  p.neg_uv_indices = {0};
  c.polygons = {p};
  c.portals = {0};
  c.cell_bsp.nodes = {leaf(0)};
  c.physics_bsp.nodes = {leaf(0)};
  env.cells = {c};
  const auto bytes = write_environment(env);
  // DID, numCells, cellStructId, numPolygons, numPhysics, numPortals.
  CHECK(bytes[8] == 2);
  CHECK(bytes[12] == 1);
  CHECK(bytes[20] == 1);
  CHECK(bytes[24] == 1);  // vertex type 1
  CHECK(bytes[28] == 1);  // one vertex
  // Vertex at 32: id, numUVs = 1, origin, normal, one UV (36 bytes).
  CHECK(bytes[34] == 1);
  // Polygon at 68: id, numPts, stippling, sidesType, surfaces, 1 vertex id, pos UV, neg UV.
  CHECK(bytes[70] == 1);
  CHECK(bytes[72] == 2);
  CHECK(bytes[78] == 0xFF);  // negSurface -1
  // 68 + 16 = 84: one portal u16 then padding to 88, then the cell BSP tag.
  CHECK(bytes[86] == 0);
  CHECK(bytes[88] == 0x46);  // "LEAF" = 0x4C454146 little-endian
  CHECK(read_environment(bytes, kId).value() == env);
}

TEST_CASE("Environment: truncation and trailing bytes", "[dat][environment]") {
  Environment env;
  env.id = kId;
  env.cells = {cube(1, true)};
  const auto bytes = write_environment(env);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_environment(std::span<const std::uint8_t>(bytes.data(), n), env.id);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
  }
  auto trailing = bytes;
  trailing.push_back(0);
  auto r = read_environment(trailing, env.id);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::Trailing);
  CHECK(r.error().message().rfind("DAT 0x0D00062E Environment:", 0) == 0);
}

TEST_CASE("Environment: invalid and oversized values", "[dat][environment]") {
  Environment env;
  env.id = kId;
  env.cells = {cube(1, false)};
  const auto bytes = write_environment(env);

  auto cells = bytes;
  cells[7] = 0x01;  // numCells 0x01000001
  CHECK(read_environment(cells, kId).error().kind == ErrorKind::TooLarge);

  auto vertex_type = bytes;
  vertex_type[24] = 2;
  auto r = read_environment(vertex_type, kId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::Unsupported);
  CHECK(r.error().offset == 24);

  auto vertices = bytes;
  vertices[31] = 0x10;  // numVertices 0x10000008
  CHECK(read_environment(vertices, kId).error().kind == ErrorKind::TooLarge);

  auto polygons = bytes;
  polygons[15] = 0x10;  // numPolygons huge
  CHECK(read_environment(polygons, kId).error().kind == ErrorKind::TooLarge);

  // A polygon vertex id past the vertex array.
  Environment bad = env;
  bad.cells[0].polygons[0].vertex_ids[0] = 8;
  r = read_environment(write_environment(bad), kId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::Invalid);
  CHECK(r.error().field == "cells.polygons");

  // A physics leaf claiming a huge polygon list.
  Environment leafy = env;
  leafy.cells[0].physics_bsp.nodes = {leaf(0)};
  auto leafy_bytes = write_environment(leafy);
  // The physics leaf's count is 4 bytes before hasDrawingBSP and the padding-free end.
  leafy_bytes[leafy_bytes.size() - 8 + 3] = 0x40;
  CHECK(read_environment(leafy_bytes, kId).error().kind == ErrorKind::TooLarge);
}

TEST_CASE("Environment: BSP nesting deeper than the limit is refused", "[dat][environment]") {
  Environment env;
  env.id = kId;
  CellStruct c;
  // A chain of kMaxBspDepth + 10 BPnn nodes ending in a LEAF.
  const int depth = kMaxBspDepth + 10;
  for (int i = 0; i < depth; ++i) c.cell_bsp.nodes.push_back(inner(bsp_tag::kBPnn, 0.0F, i + 1));
  c.cell_bsp.nodes.push_back(leaf(0));
  env.cells = {c};
  ByteWriter w;
  // Hand-encode: the writer itself stops at the depth limit.
  w.u32(kId);
  w.u32(1);
  w.u32(0);
  w.u32(0);
  w.u32(0);
  w.u32(0);
  w.i32(1);
  w.u32(0);
  for (int i = 0; i < depth; ++i) {
    w.u32(bsp_tag::kBPnn);
    write_plane(w, Plane{});
  }
  w.u32(bsp_tag::kLeaf);
  w.i32(0);
  auto r = read_environment(w.view(), kId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::Invalid);
  CHECK(r.error().field == "cells.cell_bsp");

  // Within the limit it parses.
  Environment ok;
  ok.id = kId;
  CellStruct shallow;
  for (int i = 0; i < 100; ++i) shallow.cell_bsp.nodes.push_back(inner(bsp_tag::kBPnn, 0.0F, i + 1));
  shallow.cell_bsp.nodes.push_back(leaf(3));
  shallow.physics_bsp.nodes = {leaf(0)};
  ok.cells = {shallow};
  CHECK(read_environment(write_environment(ok), kId).value() == ok);
}
