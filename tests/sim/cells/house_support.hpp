#pragma once
// A house for the indoor tests: one room, the EnvCell 0xA9B40100, 4 x 4 x 3 m
// in its own frame (0..4 each way, 0..3 up) with a 2 m wide, 2.5 m high
// doorway in its local west wall (x 0, y 1 to 3), and a shell (the west
// wall's two solid segments beside the door, 0.25 m thick) as the building's
// physics BSP. `house_building` and `room` pose both at the same frame.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dereth/sim/cells/building.hpp"
#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/collision/gfx_obj_physics.hpp"

#include "support/bsp_box.hpp"

namespace dereth::sim::test {

inline constexpr std::uint32_t kRoom = 0xA9B40100;

// The shell (in the building's frame, origin at the room's corner): the
// west wall's segments south and north of the door, split at y 2.
inline std::shared_ptr<const GfxObjPhysics> shell() {
  std::vector<BspNode> nodes(1);
  std::vector<Polygon> polys;
  nodes[0].plane = dat::Plane{glm::vec3(0, 1, 0), -2.0f};
  nodes[0].sphere = dat::Sphere{glm::vec3(-0.125f, 2, 1.5f), 3.0f};
  nodes[0].pos = dereth::test::append_box(nodes, polys, {-0.25f, 3, 0}, {0, 4, 3});
  nodes[0].neg = dereth::test::append_box(nodes, polys, {-0.25f, 0, 0}, {0, 1, 3});
  auto tree = BspTree::make(std::move(nodes), std::move(polys), true, "house shell");
  REQUIRE(tree);
  const dat::Sphere bound = tree->get_sphere();
  return std::make_shared<const GfxObjPhysics>(GfxObjPhysics{0x01000100, std::move(*tree), bound});
}

// The room's structure, in the cell's frame: a floor, a ceiling, three
// walls and the west wall around the door, all facing in; one leaf, not
// solid. The cell tree keeps 0..4 x 0..4 x 0..3; the doorway is drawing
// polygon 0, the room's one portal, leading outside.
inline std::shared_ptr<const CellStructPhysics> room_structure() {
  std::vector<Polygon> walls = {
      dereth::test::quad({0, 0, 0}, {4, 0, 0}, {4, 4, 0}, {0, 4, 0}),        // floor, up
      dereth::test::quad({0, 0, 3}, {0, 4, 3}, {4, 4, 3}, {4, 0, 3}),        // ceiling, down
      dereth::test::quad({4, 0, 0}, {4, 0, 3}, {4, 4, 3}, {4, 4, 0}),        // east, facing -x
      dereth::test::quad({0, 0, 0}, {0, 0, 3}, {4, 0, 3}, {4, 0, 0}),        // south, facing +y
      dereth::test::quad({0, 4, 0}, {4, 4, 0}, {4, 4, 3}, {0, 4, 3}),        // north, facing -y
      dereth::test::quad({0, 0, 0}, {0, 1, 0}, {0, 1, 3}, {0, 0, 3}),        // west, south of the door, facing +x
      dereth::test::quad({0, 3, 0}, {0, 4, 0}, {0, 4, 3}, {0, 3, 3}),        // west, north of the door
      dereth::test::quad({0, 1, 2.5f}, {0, 3, 2.5f}, {0, 3, 3}, {0, 1, 3}),  // west, over the door
  };
  for (const Polygon& w : walls) REQUIRE(std::isfinite(w.plane.d));
  BspNode leaf;
  leaf.leaf = true;
  leaf.sphere = dat::Sphere{glm::vec3(2, 2, 1.5f), 3.5f};
  for (std::uint16_t i = 0; i < walls.size(); ++i) leaf.polys.push_back(i);
  auto physics = BspTree::make({leaf}, std::move(walls), true, "room physics");
  REQUIRE(physics);
  const auto plane_node = [](glm::vec3 n, float d, std::int32_t pos) {
    BspNode node;
    node.plane = dat::Plane{n, d};
    node.pos = pos;
    return node;
  };
  BspNode end;
  end.leaf = true;
  auto cells =
      BspTree::make({plane_node({1, 0, 0}, 0, 1), plane_node({-1, 0, 0}, 4, 2), plane_node({0, 1, 0}, 0, 3),
                     plane_node({0, -1, 0}, 4, 4), plane_node({0, 0, 1}, 0, 5), plane_node({0, 0, -1}, 3, 6), end},
                    {}, false, "room cells");
  REQUIRE(cells);
  auto s = std::make_shared<CellStructPhysics>(CellStructPhysics{std::move(*physics), std::move(*cells), {}});
  s->polygons.push_back(dereth::test::quad({0, 1, 0}, {0, 3, 0}, {0, 3, 2.5f}, {0, 1, 2.5f}));  // the doorway
  return s;
}

inline std::unique_ptr<EnvCell> room(const core::Frame& frame) {
  auto structure = room_structure();
  dat::CellPortal door;
  door.flags = 4;  // leads outside
  door.polygon_index = 0;
  door.other_cell_id = dat::kCellPortalOutside;
  std::vector<CellPortal> portals = {CellPortal::unpack(door, 0xA9B40000, *structure)};
  return std::make_unique<EnvCell>(kRoom, Position{kRoom, frame}, std::move(structure), std::move(portals));
}

// The building over the room, at the same frame, holding the door portal.
inline Building house_building(const core::Frame& frame) {
  Building b;
  b.physics = shell();
  b.pos = Position{0xA9B40001, frame};
  b.portals = {BuildingPortal{kRoom, 0, true}};
  return b;
}

}  // namespace dereth::sim::test
