#include "dereth/dat/gfx_obj.hpp"

#include <catch2/catch.hpp>

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

constexpr Did kId = 0x010008AB;

Polygon poly(std::uint16_t id, std::uint8_t stippling, std::int32_t sides, std::vector<std::int16_t> verts) {
  Polygon p;
  p.id = id;
  p.stippling = stippling;
  p.sides_type = sides;
  p.pos_surface = 0;
  p.neg_surface = sides == 2 ? std::int16_t{1} : std::int16_t{-1};
  p.vertex_ids = std::move(verts);
  if (p.has_pos_uvs()) p.pos_uv_indices.assign(p.vertex_ids.size(), 1);
  if (p.has_neg_uvs()) p.neg_uv_indices.assign(p.vertex_ids.size(), 0);
  return p;
}

BspNode internal(std::uint32_t tag, float d) {
  BspNode n;
  n.tag = tag;
  n.plane = Plane{{0, 0, 1}, d};
  return n;
}

BspNode leaf(std::int32_t index) {
  BspNode n;
  n.tag = kBspLeaf;
  n.leaf_index = index;
  return n;
}

// Physics tree in pre-order: BPIN(pos LEAF, neg BPnn(pos LEAF)).
BspTree physics_tree() {
  BspTree t;
  BspNode root = internal(kBspBPIN, 0.5F);
  root.pos = 1;
  root.neg = 2;
  root.sphere = Sphere{{0, 0, 0.5F}, 1.0F};
  BspNode l0 = leaf(0);
  l0.solid = 1;
  l0.sphere = Sphere{{0, 0, 1}, 0.5F};
  l0.polys = {0, 1};
  BspNode inner = internal(kBspBPnn, -0.25F);
  inner.pos = 3;
  inner.sphere = Sphere{{0, 0, -0.5F}, 0.75F};
  BspNode l1 = leaf(1);
  l1.sphere = Sphere{{0, 0, -1}, 0.25F};
  l1.polys = {1};
  t.nodes = {root, l0, inner, l1};
  return t;
}

// Drawing tree: PORT(pos BPnN(LEAF, BPOL), neg BpIN(LEAF)), with portals.
BspTree drawing_tree() {
  BspTree t;
  BspNode port = internal(kBspPort, 0.0F);
  port.pos = 1;
  port.neg = 4;
  port.sphere = Sphere{{0, 0, 0}, 2.0F};
  port.polys = {0, 1, 2};
  port.portals = {{2, 0}, {1, 5}};
  BspNode both = internal(kBspBPnN, 1.0F);
  both.pos = 2;
  both.neg = 3;
  both.sphere = Sphere{{1, 0, 0}, 1.0F};
  both.polys = {0};
  BspNode bpol = internal(0x42504F4C, 2.0F);  // BPOL: no children
  bpol.sphere = Sphere{{2, 0, 0}, 0.5F};
  bpol.polys = {1, 2};
  BspNode neg_only = internal(kBspBpIN, -1.0F);
  neg_only.neg = 5;
  neg_only.sphere = Sphere{{-1, 0, 0}, 1.0F};
  t.nodes = {port, both, leaf(0), bpol, neg_only, leaf(1)};
  return t;
}

GfxObj sample_gfx_obj() {
  GfxObj g;
  g.id = kId;
  g.flags = GfxObj::kHasPhysics | GfxObj::kHasDrawing | GfxObj::kHasDidDegrade;
  g.surfaces = {0x08000010, 0x08000011};
  for (std::uint16_t i = 0; i < 4; ++i) {
    SwVertex v;
    v.id = i;
    v.origin = {static_cast<float>(i), 1.0F, -1.0F};
    v.normal = {0, 0, 1};
    if (i != 3) v.uvs = {{0.0F, 1.0F}, {0.5F, 0.25F}};
    g.vertices.push_back(v);
  }
  g.physics_polygons = {poly(0, Polygon::kNoPos, 0, {0, 1, 2}), poly(1, Polygon::kNoPos, 0, {0, 2, 3})};
  g.physics_bsp = physics_tree();
  g.sort_center = {0.5F, 0.5F, 0.0F};
  g.polygons = {poly(0, Polygon::kPositive, 0, {0, 1, 2}),
                poly(1, Polygon::kPositive | Polygon::kNegative, 2, {0, 2, 3}),
                poly(2, Polygon::kNoNeg, 2, {3, 2, 1, 0})};
  g.drawing_bsp = drawing_tree();
  g.degrade_id = 0x11000123;
  return g;
}

void patch_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (std::size_t i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>((v >> (8 * i)) & 0xFFU);
}

}  // namespace

TEST_CASE("GfxObj: write then read with physics, drawing and degrade", "[dat][gfx_obj]") {
  const GfxObj g = sample_gfx_obj();
  const auto bytes = write_gfx_obj(g);
  auto back = read_gfx_obj(bytes, kId);
  REQUIRE(back.has_value());
  CHECK(*back == g);
  CHECK(write_gfx_obj(*back) == bytes);
}

TEST_CASE("GfxObj: BspMode::Skip walks the trees and keeps the rest", "[dat][gfx_obj]") {
  GfxObj g = sample_gfx_obj();
  const auto bytes = write_gfx_obj(g);
  auto skipped = read_gfx_obj(bytes, kId, BspMode::Skip);
  REQUIRE(skipped.has_value());
  CHECK(skipped->physics_bsp.nodes.empty());
  CHECK(skipped->drawing_bsp.nodes.empty());
  CHECK(skipped->degrade_id == 0x11000123U);
  g.physics_bsp = {};
  g.drawing_bsp = {};
  CHECK(*skipped == g);
  // Skipping is as strict as keeping.
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    CHECK_FALSE(read_gfx_obj(std::span(bytes.data(), n), kId, BspMode::Skip).has_value());
  }
}

TEST_CASE("GfxObj: optional sections present and absent", "[dat][gfx_obj]") {
  GfxObj g = sample_gfx_obj();
  SECTION("no physics, no drawing, no degrade") {
    g.flags = 0;
    g.physics_polygons.clear();
    g.physics_bsp = {};
    g.polygons.clear();
    g.drawing_bsp = {};
    g.degrade_id = 0;
    const auto bytes = write_gfx_obj(g);
    CHECK(read_gfx_obj(bytes, kId).value() == g);
  }
  SECTION("drawing only") {
    g.flags = GfxObj::kHasDrawing;
    g.physics_polygons.clear();
    g.physics_bsp = {};
    g.degrade_id = 0;
    CHECK(read_gfx_obj(write_gfx_obj(g), kId).value() == g);
  }
  SECTION("physics only, unknown flag 0x4 kept") {
    g.flags = GfxObj::kHasPhysics | GfxObj::kUnknown4;
    g.polygons.clear();
    g.drawing_bsp = {};
    g.degrade_id = 0;
    CHECK(read_gfx_obj(write_gfx_obj(g), kId).value() == g);
  }
  SECTION("empty lists") {
    g.surfaces.clear();
    g.vertices.clear();
    g.physics_polygons.clear();
    g.polygons.clear();
    CHECK(read_gfx_obj(write_gfx_obj(g), kId).value() == g);
  }
  SECTION("200 surfaces use the two-byte compressed count") {
    g.surfaces.assign(200, 0x08000001);
    const auto bytes = write_gfx_obj(g);
    CHECK(bytes[8] == 0x80);
    CHECK(bytes[9] == 200);
    CHECK(read_gfx_obj(bytes, kId).value() == g);
  }
  SECTION("an empty tree is written as a bare LEAF") {
    g.drawing_bsp = {};
    auto back = read_gfx_obj(write_gfx_obj(g), kId).value();
    REQUIRE(back.drawing_bsp.nodes.size() == 1);
    CHECK(back.drawing_bsp.nodes[0] == leaf(0));
  }
}

TEST_CASE("GfxObj: the minimal record's layout", "[dat][gfx_obj]") {
  // flags 0: DID, flags, compressed 0, vertex type 1, 0 vertices, sort centre.
  GfxObj g;
  g.id = kId;
  g.sort_center = {1, 2, 3};
  const auto bytes = write_gfx_obj(g);
  REQUIRE(bytes.size() == 4 + 4 + 1 + 4 + 4 + 12);
  CHECK(bytes[8] == 0);
  CHECK(bytes[9] == 1);
  CHECK(read_gfx_obj(bytes, kId).value() == g);
  auto wrong_type = bytes;
  wrong_type[9] = 2;
  auto e = read_gfx_obj(wrong_type, kId);
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error().kind == ErrorKind::Unsupported);
  CHECK(e.error().offset == 9);
}

TEST_CASE("GfxObj: polygon layout follows stippling and sides type", "[dat][gfx_obj]") {
  GfxObj g;
  g.id = kId;
  g.flags = GfxObj::kHasDrawing;
  g.polygons = {poly(0, Polygon::kNoPos, 1, {0, 1, 2})};
  g.drawing_bsp.nodes = {leaf(0)};
  const std::size_t base = 4 + 4 + 1 + 8 + 12 + 1 + 8;  // ... + count + LEAF
  // NoPos, sides 1: header 12 + 3 vertex ids, no UV lists.
  CHECK(write_gfx_obj(g).size() == base + 12 + 6);
  g.polygons = {poly(0, 0, 2, {0, 1, 2})};  // pos and neg UVs
  CHECK(write_gfx_obj(g).size() == base + 12 + 6 + 3 + 3);
  g.polygons = {poly(0, Polygon::kNoNeg, 2, {0, 1, 2})};  // pos UVs only
  CHECK(write_gfx_obj(g).size() == base + 12 + 6 + 3);
  CHECK(read_gfx_obj(write_gfx_obj(g), kId).value() == g);
}

TEST_CASE("GfxObj: every truncation is a clean error", "[dat][gfx_obj]") {
  const auto bytes = write_gfx_obj(sample_gfx_obj());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto g = read_gfx_obj(std::span(bytes.data(), n), kId);
    REQUIRE_FALSE(g.has_value());
    CHECK((g.error().kind == ErrorKind::Truncated || g.error().kind == ErrorKind::TooLarge));
    CHECK(g.error().context == "DAT 0x010008AB GfxObj");
  }
}

TEST_CASE("GfxObj: oversized counts and trailing bytes are errors", "[dat][gfx_obj]") {
  const auto bytes = write_gfx_obj(sample_gfx_obj());
  SECTION("num_surfaces in the four-byte compressed form") {
    std::vector<std::uint8_t> b(bytes.begin(), bytes.begin() + 8);
    b.insert(b.end(), {0xFF, 0xFF, 0xFF, 0xFF});
    b.insert(b.end(), bytes.begin() + 9, bytes.end());
    auto g = read_gfx_obj(b, kId);
    REQUIRE_FALSE(g.has_value());
    CHECK(g.error().kind == ErrorKind::TooLarge);
    CHECK(g.error().offset == 8);
  }
  SECTION("num_vertices") {
    auto b = bytes;
    const std::size_t at = 4 + 4 + 1 + 2 * 4 + 4;
    patch_u32(b, at, 0x10000000);
    auto g = read_gfx_obj(b, kId);
    REQUIRE_FALSE(g.has_value());
    CHECK(g.error().kind == ErrorKind::TooLarge);
    CHECK(g.error().field == "num_vertices");
    CHECK(g.error().offset == at);
  }
  SECTION("trailing") {
    auto b = bytes;
    b.push_back(0);
    auto g = read_gfx_obj(b, kId);
    REQUIRE_FALSE(g.has_value());
    CHECK(g.error().kind == ErrorKind::Trailing);
  }
}

TEST_CASE("BSP: each tree type reads its own trailing fields", "[dat][gfx_obj]") {
  // One internal BPnn node over a LEAF, written per tree type by hand.
  auto build = [](BspTreeType type) {
    ByteWriter w;
    w.u32(kBspBPnn);
    write_plane(w, Plane{{1, 0, 0}, 2.0F});
    w.u32(kBspLeaf);
    w.i32(4);
    if (type == BspTreeType::Physics) {
      w.i32(1);
      write_sphere(w, Sphere{{0, 0, 0}, 1.0F});
      w.u32(1);
      w.u16(9);
    }
    if (type != BspTreeType::Cell) write_sphere(w, Sphere{{1, 1, 1}, 3.0F});
    if (type == BspTreeType::Drawing) {
      w.u32(2);
      w.u16(7);
      w.u16(8);
    }
    return std::move(w).take();
  };
  for (const auto type : {BspTreeType::Drawing, BspTreeType::Physics, BspTreeType::Cell}) {
    const auto bytes = build(type);
    ByteReader r(bytes, "bsp");
    auto tree = read_bsp_tree(r, type, "bsp");
    REQUIRE(tree.has_value());
    CHECK(r.at_end());
    REQUIRE(tree->nodes.size() == 2);
    CHECK(tree->nodes[0].pos == 1);
    CHECK(tree->nodes[0].neg == -1);
    CHECK(tree->nodes[1].leaf_index == 4);
    if (type == BspTreeType::Drawing) CHECK(tree->nodes[0].polys == std::vector<std::uint16_t>{7, 8});
    if (type == BspTreeType::Physics) CHECK(tree->nodes[1].polys == std::vector<std::uint16_t>{9});
    ByteWriter w;
    write_bsp_tree(w, *tree, type);
    CHECK(w.data() == bytes);
    ByteReader skip(bytes, "bsp");
    CHECK(skip_bsp_tree(skip, type, "bsp").has_value());
    CHECK(skip.at_end());
  }
}

TEST_CASE("BSP: a very deep tree is walked without recursion", "[dat][gfx_obj]") {
  constexpr std::size_t kDepth = 100000;
  ByteWriter w;
  for (std::size_t i = 0; i < kDepth; ++i) {
    w.u32(kBspBPnn);
    write_plane(w, Plane{});
  }
  w.u32(kBspLeaf);
  w.i32(0);
  for (std::size_t i = 0; i < kDepth; ++i) {
    write_sphere(w, Sphere{});
    w.u32(0);
  }
  ByteReader r(w.view(), "bsp");
  auto tree = read_bsp_tree(r, BspTreeType::Drawing, "bsp");
  REQUIRE(tree.has_value());
  CHECK(tree->nodes.size() == kDepth + 1);
  CHECK(r.at_end());
  ByteWriter again;
  write_bsp_tree(again, *tree, BspTreeType::Drawing);
  CHECK(again.data() == w.data());
  ByteReader skip(w.view(), "bsp");
  CHECK(skip_bsp_tree(skip, BspTreeType::Drawing, "bsp").has_value());
}

TEST_CASE("BSP: the writer turns bad child links into bare leaves", "[dat][gfx_obj]") {
  BspTree t;
  BspNode root = internal(kBspBPIN, 0.0F);
  root.pos = 0;   // points at itself
  root.neg = 99;  // out of range
  t.nodes = {root};
  ByteWriter w;
  write_bsp_tree(w, t, BspTreeType::Cell);
  ByteReader r(w.view(), "bsp");
  auto back = read_bsp_tree(r, BspTreeType::Cell, "bsp");
  REQUIRE(back.has_value());
  REQUIRE(back->nodes.size() == 3);
  CHECK(back->nodes[1] == leaf(0));
  CHECK(back->nodes[2] == leaf(0));
  CHECK(back->nodes[0].pos == 1);
  CHECK(back->nodes[0].neg == 2);
}

TEST_CASE("BSP: a PORT's oversized poly and portal counts are TooLarge", "[dat][gfx_obj]") {
  ByteWriter w;
  w.u32(kBspPort);
  write_plane(w, Plane{});
  w.u32(kBspLeaf);
  w.i32(0);
  w.u32(kBspLeaf);
  w.i32(1);
  write_sphere(w, Sphere{});
  w.u32(1);
  w.u32(0x40000000);
  w.u16(0);
  ByteReader r(w.view(), "bsp");
  auto tree = read_bsp_tree(r, BspTreeType::Drawing, "bsp");
  REQUIRE_FALSE(tree.has_value());
  CHECK(tree.error().kind == ErrorKind::TooLarge);
  CHECK(tree.error().offset == 4 + 16 + 8 + 8 + 16);
}

TEST_CASE("GfxObj: JSON names BSP tags", "[dat][gfx_obj]") {
  dereth::core::JsonWriter j;
  write_json(j, sample_gfx_obj());
  const std::string& out = j.str();
  CHECK(out.rfind(R"({"id":"0x010008AB","flags":"0x0000000B")", 0) == 0);
  CHECK(out.find(R"("tag":"PORT")") != std::string::npos);
  CHECK(out.find(R"("tag":"BPOL")") != std::string::npos);
  CHECK(out.find(R"("degrade_id":"0x11000123")") != std::string::npos);
}
