// The cells from DAT bytes: DatLandscapeLoader reads a landblock's
// buildings (LandBlockInfo, the building's GfxObj physics BSP) and its
// EnvCells (EnvCell over an Environment's CellStruct) from DAT files our
// writer made, and a walker goes through a building's door into its room as
// the transition finds it (docs/sim.md, "EnvCells and buildings").
//
// The house: a room 4 x 4 x 3 m at (60, 60, 10) with a 2 m doorway (y 61 to
// 63) in its west wall, and a shell (the west wall beside the door, 0.25 m
// thick) as the building's physics BSP.
#include <catch2/catch.hpp>

#include <memory>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/object/physics_obj.hpp"

#include "cells/dat_cells_support.hpp"

using namespace dereth;
using dereth::sim::test::make_dat;
using dereth::sim::test::walk;
using dereth::sim::test::walker;

namespace {

constexpr dat::Did kShell = 0x01000100;
constexpr dat::Did kEnvironment = 0x0D000100;
constexpr std::uint32_t kLand = 0xA9B40013;
constexpr std::uint32_t kRoom = 0xA9B40100;

// Vertices and quads of a GfxObj or CellStruct under construction.
template <class Vertex, class Poly>
struct Mesh {
  std::vector<Vertex> vertices;
  std::vector<Poly> polys;
  std::uint16_t quad(std::array<glm::vec3, 4> corners) {
    Poly p;
    for (const glm::vec3& c : corners) {
      Vertex v;
      v.id = static_cast<std::uint16_t>(vertices.size());
      v.origin = c;
      vertices.push_back(v);
      p.vertex_ids.push_back(static_cast<decltype(p.vertex_ids)::value_type>(v.id));
    }
    p.stippling = 0x04;  // no UVs
    polys.push_back(p);
    return static_cast<std::uint16_t>(polys.size() - 1);
  }
};

// A solid box's six faces and its chain of face nodes (pre-order: each
// node, its empty front leaf, then the next node; the solid leaf last).
template <class Node, class Vertex, class Poly>
void box(Mesh<Vertex, Poly>& m, std::vector<Node>& nodes, glm::vec3 lo, glm::vec3 hi, std::uint32_t internal_tag,
         std::uint32_t leaf_tag) {
  const dat::Sphere bound{(lo + hi) * 0.5f, glm::length(hi - lo) * 0.5f + 0.01f};
  struct Face {
    std::array<glm::vec3, 4> c;
    glm::vec3 n;
    float d;
  };
  const Face faces[] = {
      {{{{hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {hi.x, hi.y, hi.z}, {hi.x, lo.y, hi.z}}}, {1, 0, 0}, -hi.x},
      {{{{lo.x, lo.y, lo.z}, {lo.x, lo.y, hi.z}, {lo.x, hi.y, hi.z}, {lo.x, hi.y, lo.z}}}, {-1, 0, 0}, lo.x},
      {{{{lo.x, hi.y, lo.z}, {lo.x, hi.y, hi.z}, {hi.x, hi.y, hi.z}, {hi.x, hi.y, lo.z}}}, {0, 1, 0}, -hi.y},
      {{{{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, lo.y, hi.z}, {lo.x, lo.y, hi.z}}}, {0, -1, 0}, lo.y},
      {{{{lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}}}, {0, 0, 1}, -hi.z},
      {{{{lo.x, lo.y, lo.z}, {lo.x, hi.y, lo.z}, {hi.x, hi.y, lo.z}, {hi.x, lo.y, lo.z}}}, {0, 0, -1}, lo.z},
  };
  Node solid;
  solid.tag = leaf_tag;
  solid.solid = 1;
  solid.sphere = bound;
  for (const Face& f : faces) {
    const std::uint16_t poly = m.quad(f.c);
    if constexpr (requires { solid.polys; }) {
      solid.polys.push_back(poly);
    } else {
      solid.polygons.push_back(poly);
    }
    Node node;
    node.tag = internal_tag;
    node.plane = dat::Plane{f.n, f.d};
    node.sphere = bound;
    node.pos = static_cast<std::int32_t>(nodes.size()) + 1;
    node.neg = static_cast<std::int32_t>(nodes.size()) + 2;
    nodes.push_back(node);
    Node empty;
    empty.tag = leaf_tag;
    empty.sphere = bound;
    nodes.push_back(empty);
  }
  nodes.push_back(solid);
}

dat::GfxObj shell_gfx() {
  dat::GfxObj g;
  g.id = kShell;
  g.flags = dat::GfxObj::kHasPhysics;
  Mesh<dat::SwVertex, dat::Polygon> m;
  std::vector<dat::BspNode> nodes(1);
  nodes[0].tag = dat::kBspBPIN;
  nodes[0].plane = dat::Plane{glm::vec3(0, 1, 0), -2.0f};
  nodes[0].sphere = dat::Sphere{glm::vec3(-0.125f, 2, 1.5f), 3.0f};
  nodes[0].pos = 1;
  box(m, nodes, {-0.25f, 3, 0}, {0, 4, 3}, dat::kBspBPIN, dat::kBspLeaf);
  nodes[0].neg = static_cast<std::int32_t>(nodes.size());
  box(m, nodes, {-0.25f, 0, 0}, {0, 1, 3}, dat::kBspBPIN, dat::kBspLeaf);
  g.vertices = std::move(m.vertices);
  g.physics_polygons = std::move(m.polys);
  g.physics_bsp.nodes = std::move(nodes);
  return g;
}

dat::Environment room_environment() {
  dat::CellStruct cs;
  cs.id = 0;
  Mesh<dat::EnvVertex, dat::EnvPolygon> phys;
  for (const auto& q :
       std::vector<std::array<glm::vec3, 4>>{{{{0, 0, 0}, {4, 0, 0}, {4, 4, 0}, {0, 4, 0}}},  // floor
                                             {{{0, 0, 3}, {0, 4, 3}, {4, 4, 3}, {4, 0, 3}}},  // ceiling
                                             {{{4, 0, 0}, {4, 0, 3}, {4, 4, 3}, {4, 4, 0}}},  // east
                                             {{{0, 0, 0}, {0, 0, 3}, {4, 0, 3}, {4, 0, 0}}},  // south
                                             {{{0, 4, 0}, {4, 4, 0}, {4, 4, 3}, {0, 4, 3}}},  // north
                                             {{{0, 0, 0}, {0, 1, 0}, {0, 1, 3}, {0, 0, 3}}},  // west, south of the door
                                             {{{0, 3, 0}, {0, 4, 0}, {0, 4, 3}, {0, 3, 3}}},  // west, north of the door
                                             {{{0, 1, 2.5f}, {0, 3, 2.5f}, {0, 3, 3}, {0, 1, 3}}}}) {  // over the door
    phys.quad(q);
  }
  // The drawing polygons: the doorway is the only one (the portal).
  Mesh<dat::EnvVertex, dat::EnvPolygon> draw;
  draw.vertices = phys.vertices;
  draw.quad({{{0, 1, 0}, {0, 3, 0}, {0, 3, 2.5f}, {0, 1, 2.5f}}});
  cs.vertices = draw.vertices;
  cs.polygons = draw.polys;
  cs.portals = {0};
  cs.physics_polygons = phys.polys;
  dat::EnvBspNode leaf;
  leaf.tag = dat::bsp_tag::kLeaf;
  leaf.sphere = dat::Sphere{glm::vec3(2, 2, 1.5f), 3.5f};
  for (std::uint16_t i = 0; i < phys.polys.size(); ++i) leaf.polygons.push_back(i);
  cs.physics_bsp.nodes = {leaf};
  const std::pair<glm::vec3, float> planes[] = {{{1, 0, 0}, 0},  {{-1, 0, 0}, 4}, {{0, 1, 0}, 0},
                                                {{0, -1, 0}, 4}, {{0, 0, 1}, 0},  {{0, 0, -1}, 3}};
  for (std::size_t i = 0; i < 6; ++i) {
    dat::EnvBspNode n;
    n.tag = dat::bsp_tag::kBPIn;  // the positive child only
    n.plane = dat::Plane{planes[i].first, planes[i].second};
    n.pos = static_cast<std::int32_t>(i) + 1;
    cs.cell_bsp.nodes.push_back(n);
  }
  dat::EnvBspNode end;
  end.tag = dat::bsp_tag::kLeaf;
  cs.cell_bsp.nodes.push_back(end);
  dat::Environment env;
  env.id = kEnvironment;
  env.cells = {cs};
  return env;
}

struct Dats {
  explicit Dats(bool restricted = false) {
    const std::vector<dat::DatRecord> portal_records = {
        {0x13000000, dereth::sim::test::linear_region()},
        {kShell, dat::write_gfx_obj(shell_gfx())},
        {kEnvironment, dat::write_environment(room_environment())},
    };
    portal = make_dat(portal_records, dat::DatKind::Portal, "portal");

    dat::LandBlock block;
    block.id = 0xA9B4FFFF;
    for (auto& h : block.height) h = 5;  // z 10
    dat::LandBlockInfo info;
    info.id = 0xA9B4FFFE;
    dat::BuildingInfo house;
    house.model_id = kShell;
    house.frame = dat::Frame{{60, 60, 10}, glm::quat(1, 0, 0, 0)};
    house.portals = {dat::BuildingPortal{0, 0x0100, 0, {0x0100}}};  // the door sees the room
    info.buildings = {house};
    dat::EnvCell room;
    room.id = kRoom;
    room.environment_id = 0x0100;
    room.cell_struct = 0;
    room.position = dat::Frame{{60, 60, 10}, glm::quat(1, 0, 0, 0)};
    room.portals = {dat::CellPortal{4, 0, dat::kCellPortalOutside, 0}};
    if (restricted) {
      room.flags |= dat::env_cell_flags::kHasRestrictionObj;
      room.restriction_obj = 0x7A9B4001;
      info.pack_flags = dat::kLandBlockInfoHasRestrictions;
      info.restrictions = {{0xA9B4001B, 0x7A9B4001}};
    }
    const std::vector<dat::DatRecord> cell_records = {
        {0xA9B4FFFF, dat::write_land_block(block)},
        {0xA9B4FFFE, dat::write_land_block_info(info)},
        {kRoom, dat::write_env_cell(room)},
    };
    cell = make_dat(cell_records, dat::DatKind::Cell, "cell");
  }
  std::unique_ptr<dat::DatFile> portal;
  std::unique_ptr<dat::DatFile> cell;
};

}  // namespace

TEST_CASE(
    "DatLandscapeLoader loads a landblock's building and EnvCell from the DATs, and a walker goes in by the door "
    "(CLandBlock::init_buildings 0x0052FD80, CEnvCell::find_env_collisions 0x0052C130, "
    "CBuildingObj::find_building_collisions 0x006B5300)",
    "[retail][sim]") {
  Dats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  dereth::sim::test::load_grid(world, kLand);  // the grid around the block
  sim::CellSource& cells = *world.context().cells;

  auto* land = dynamic_cast<sim::LandCell*>(cells.get_cell(kLand));
  REQUIRE(land != nullptr);
  REQUIRE(land->building() != nullptr);
  REQUIRE(land->building()->physics != nullptr);
  CHECK(land->building()->physics->bsp.polygons().size() == 12);
  auto* room = dynamic_cast<sim::EnvCell*>(cells.get_cell(kRoom));
  REQUIRE(room != nullptr);
  CHECK(room->portals().size() == 1);
  CHECK(room->point_in_cell({62, 62, 11}));
  CHECK(cells.get_cell(kRoom + 1) == nullptr);  // absent: nothing there

  SECTION("through the doorway: in the room, on its floor, stopped by its east wall") {
    auto w = walker(world, 1, kLand, {57, 62, 10});
    walk(*w, 16, {0.25f, 0, 0});
    CHECK(w->position().objcell_id == kRoom);
    CHECK(w->position().frame.origin.x == Approx(61.0f).margin(1e-4));
    walk(*w, 16, {0.25f, 0, 0});
    CHECK(w->position().objcell_id == kRoom);
    CHECK(w->position().frame.origin.x == Approx(63.5f).margin(1e-4));
    CHECK(w->position().frame.origin.z == Approx(10.0f).margin(1e-4));
  }
  SECTION("beside the door: stopped by the shell, outside") {
    auto w = walker(world, 2, kLand, {57, 60.5f, 10});
    walk(*w, 16, {0.25f, 0, 0});
    CHECK(w->position().objcell_id == kLand);
    CHECK(w->position().frame.origin.x == Approx(59.25f).margin(1e-4));
  }
}

TEST_CASE("DatLandscapeLoader reads an EnvCell's Environment through the world's record cache, once",
          "[sim][record_cache]") {
  Dats dats;
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  dereth::sim::test::load_grid(world, kLand);
  REQUIRE(dynamic_cast<sim::EnvCell*>(world.context().cells->get_cell(kRoom)) != nullptr);
  // The loader's lookup was the cache's: asking again reads nothing.
  const std::size_t size = world.records().size();
  CHECK(world.records().environment(kEnvironment) != nullptr);
  CHECK(world.records().size() == size);
  CHECK(world.records().missing().empty());

  SECTION("an Environment the portal lacks: the room is not made, the record counted missing once") {
    Dats lacking;
    lacking.portal =
        make_dat({{0x13000000, dereth::sim::test::linear_region()}, {kShell, dat::write_gfx_obj(shell_gfx())}},
                 dat::DatKind::Portal, "portal");
    sim::test::DatCells bare(clock, lacking.portal.get());
    REQUIRE(bare.use_terrain(lacking.cell.get()));
    dereth::sim::test::load_grid(bare, kLand);
    CHECK(bare.context().cells->get_cell(kRoom) == nullptr);
    CHECK(bare.context().cells->get_cell(kRoom) == nullptr);
    REQUIRE(bare.records().missing().size() == 1);
    CHECK(bare.records().missing()[0].kind == "Environment");
    CHECK(bare.records().missing()[0].id == kEnvironment);
  }
}

TEST_CASE(
    "DatLandscapeLoader gives an EnvCell its DAT restriction object and the LandBlockInfo's land cells theirs "
    "(CLandBlock::init_static_objs 0x00530A40, CLandBlockInfo::GetRestrictionIID 0x0052EF70)",
    "[sim][retail]") {
  Dats dats(true);
  core::ManualClock clock;
  sim::test::DatCells world(clock, dats.portal.get());
  REQUIRE(world.use_terrain(dats.cell.get()));
  dereth::sim::test::load_grid(world, kLand);  // the grid around the block, as a player there sets it
  sim::CellSource& cells = *world.context().cells;
  REQUIRE(cells.get_cell(kLand) != nullptr);
  CHECK(cells.get_cell(kLand)->restriction_obj() == 0);
  CHECK(cells.get_cell(0xA9B4001B)->restriction_obj() == 0x7A9B4001);
  REQUIRE(cells.get_cell(kRoom) != nullptr);
  CHECK(cells.get_cell(kRoom)->restriction_obj() == 0x7A9B4001);
  // Without the flag and the table: none.
  Dats plain;
  sim::test::DatCells other(clock, plain.portal.get());
  REQUIRE(other.use_terrain(plain.cell.get()));
  dereth::sim::test::load_grid(other, kLand);
  CHECK(other.context().cells->get_cell(0xA9B4001B)->restriction_obj() == 0);
  CHECK(other.context().cells->get_cell(kRoom)->restriction_obj() == 0);
}
