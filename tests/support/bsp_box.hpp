#pragma once
// Solid boxes as physics BSP trees (sim::BspTree), for the collision tests
// and benchmarks: each box is a chain of face nodes (outward planes; the
// front of each an empty leaf, the back the next face's node) ending in the
// solid leaf that holds the six faces. Every node's sphere encloses the box.
#include <cstdint>
#include <vector>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include "dereth/sim/collision/bsp.hpp"

namespace dereth::test {

inline sim::Polygon quad(glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d) {
  return sim::Polygon::from_vertices({a, b, c, d});
}

// The six outward faces of the box lo..hi (+x, -x, +y, -y, +z, -z).
inline std::vector<sim::Polygon> box_faces(glm::vec3 lo, glm::vec3 hi) {
  return {
      quad({hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {hi.x, hi.y, hi.z}, {hi.x, lo.y, hi.z}),
      quad({lo.x, lo.y, lo.z}, {lo.x, lo.y, hi.z}, {lo.x, hi.y, hi.z}, {lo.x, hi.y, lo.z}),
      quad({lo.x, hi.y, lo.z}, {lo.x, hi.y, hi.z}, {hi.x, hi.y, hi.z}, {hi.x, hi.y, lo.z}),
      quad({lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, lo.y, hi.z}, {lo.x, lo.y, hi.z}),
      quad({lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}),
      quad({lo.x, lo.y, lo.z}, {lo.x, hi.y, lo.z}, {hi.x, hi.y, lo.z}, {hi.x, lo.y, lo.z}),
  };
}

// Appends the box's faces and nodes; returns the box's first node.
inline std::int32_t append_box(std::vector<sim::BspNode>& nodes, std::vector<sim::Polygon>& polys, glm::vec3 lo,
                               glm::vec3 hi) {
  const dat::Sphere bound{(lo + hi) * 0.5f, glm::length(hi - lo) * 0.5f + 0.01f};
  const auto first_poly = static_cast<std::uint16_t>(polys.size());
  for (sim::Polygon& f : box_faces(lo, hi)) polys.push_back(std::move(f));
  const auto first = static_cast<std::int32_t>(nodes.size());
  sim::BspNode solid;
  solid.leaf = true;
  solid.solid = true;
  solid.sphere = bound;
  for (std::uint16_t i = 0; i < 6; ++i) {
    const auto poly = static_cast<std::uint16_t>(first_poly + i);
    solid.polys.push_back(poly);
    sim::BspNode node;
    node.plane = polys[poly].plane;
    node.sphere = bound;
    node.pos = static_cast<std::int32_t>(nodes.size()) + 1;
    node.neg = static_cast<std::int32_t>(nodes.size()) + 2;
    nodes.push_back(node);
    sim::BspNode empty;
    empty.leaf = true;
    empty.sphere = bound;
    nodes.push_back(empty);
  }
  nodes.push_back(solid);
  return first;
}

// One solid box as a whole tree (none when the build refuses it).
inline core::Result<sim::BspTree> box_tree(glm::vec3 lo, glm::vec3 hi) {
  std::vector<sim::BspNode> nodes;
  std::vector<sim::Polygon> polys;
  append_box(nodes, polys, lo, hi);
  return sim::BspTree::make(std::move(nodes), std::move(polys), true, "test box");
}

}  // namespace dereth::test
