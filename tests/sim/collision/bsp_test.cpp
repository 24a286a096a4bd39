// Physics BSP obstacles: CPolygon's sphere tests, BSPNODE/BSPLEAF/BSPTREE
// and CGfxObj/CPhysicsPart's entry into them (spec/physics.md 5.7-5.8; RE
// cgeometry/CPolygon.c, CBSPNode.c, CBSPLeaf.c, CBSPTree.c), then walls,
// steps, platforms and missiles through the transition. Every walker is a
// 0.5 m sphere centred 0.5 m above its origin with 0.4 m step heights
// (collision_support.hpp).
#include "dereth/sim/collision/bsp.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <memory>

#include <glm/gtc/quaternion.hpp>

#include "dereth/sim/collision/gfx_obj_physics.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/position.hpp"

#include "collision/collision_support.hpp"
#include "fakes.hpp"
#include "support/bsp_box.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
using dereth::test::box_faces;
using dereth::test::quad;
namespace ps = protocol::physics_state;

namespace {

constexpr float kEps = core::kEpsilon;
const glm::vec3 kUp(0.0f, 0.0f, 1.0f);

// The 2 x 2 square at z 0 facing up (counter-clockwise from above).
Polygon floor_square() {
  return quad({-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0});
}

dat::Sphere ball(glm::vec3 c, float r) {
  return dat::Sphere{c, r};
}

// A solid box (support/bsp_box.hpp).
BspTree box_tree(glm::vec3 lo, glm::vec3 hi) {
  auto tree = dereth::test::box_tree(lo, hi);
  REQUIRE(tree);
  return std::move(*tree);
}

// A static object with a physics BSP box lo..hi (in its own frame) at `p`,
// shadowed in every cell.
std::unique_ptr<PhysicsObj> box_object(Scene& s, std::uint32_t guid, const Position& p, glm::vec3 lo, glm::vec3 hi,
                                       std::uint32_t state = ps::Static | ps::HasPhysicsBsp) {
  auto obj = std::make_unique<PhysicsObj>(s.context, guid, LocalId{guid});
  BspTree tree = box_tree(lo, hi);
  const dat::Sphere bound = tree.get_sphere();
  auto gfx = std::make_shared<const GfxObjPhysics>(GfxObjPhysics{0x01000000u + guid, std::move(tree), bound});
  obj->set_part_array(dereth::test::FakePartArray::bsp(*obj, gfx));
  obj->set_state(state, false);
  obj->store_position(p);
  s.shadow(*obj);
  return obj;
}

}  // namespace

// ---- CPolygon -------------------------------------------------------------------------

TEST_CASE("CPolygon::polygon_hits_sphere 0x005387C0 and polygon_hits_sphere_slow_but_sure 0x00538A10 agree",
          "[retail][sim]") {
  const Polygon sq = floor_square();
  REQUIRE(sq.plane.normal == kUp);
  REQUIRE(sq.plane.d == 0.0f);
  glm::vec3 contact{0.0f};
  struct Case {
    const char* what;
    dat::Sphere s;
    bool hit;
  };
  const Case cases[] = {
      {"over the middle, 0.5 m up, radius 1", ball({0.2f, 0.3f, 0.5f}, 1.0f), true},
      {"1 m up: exactly the radius, and the radius loses EPSILON", ball({0, 0, 1.0f}, 1.0f), false},
      {"0.9998 m up: just inside the radius less EPSILON", ball({0, 0, 0.9997f}, 1.0f), true},
      {"beside the +x edge, the contact circle reaching over it", ball({1.5f, 0, 0.5f}, 1.0f), true},
      {"beside the +x edge beyond the circle (0.866 m)", ball({1.9f, 0, 0.5f}, 1.0f), false},
      {"off the corner, the corner within the circle", ball({1.4f, 1.4f, 0.1f}, 1.0f), true},
      {"off the corner, the corner outside the circle", ball({1.8f, 1.8f, 0.1f}, 1.0f), false},
      {"under the square (both sides count)", ball({0, 0, -0.5f}, 1.0f), true},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK(sq.polygon_hits_sphere(c.s, contact) == c.hit);
    CHECK(sq.polygon_hits_sphere_slow_but_sure(c.s, contact) == c.hit);
    CHECK(sq.hits_sphere(c.s) == c.hit);  // CPolygon::hits_sphere 0x00539540
  }
  SECTION("the contact point is the centre dropped onto the plane") {
    REQUIRE(sq.polygon_hits_sphere_slow_but_sure(ball({0.25f, -0.5f, 0.75f}, 1.0f), contact));
    CHECK(contact == glm::vec3(0.25f, -0.5f, 0.0f));
  }
  SECTION("a NaN centre never hits") {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    CHECK_FALSE(sq.polygon_hits_sphere_slow_but_sure(ball({nan, 0, 0.5f}, 1.0f), contact));
  }
}

TEST_CASE(
    "CPolygon::pos_hits_sphere 0x005394F0 records the struck polygon even when moving away, but hits only moving in",
    "[retail][sim]") {
  const Polygon sq = floor_square();
  glm::vec3 contact{0.0f};
  const Polygon* struck = nullptr;
  CHECK_FALSE(sq.pos_hits_sphere(ball({0, 0, 0.5f}, 1.0f), glm::vec3(0, 0, 0.1f), contact, struck));
  CHECK(struck == &sq);
  struck = nullptr;
  CHECK_FALSE(sq.pos_hits_sphere(ball({0, 0, 0.5f}, 1.0f), glm::vec3(0.1f, 0, 0), contact, struck));
  CHECK(struck == &sq);  // parallel: N . movement == 0 is not "into"
  struck = nullptr;
  CHECK(sq.pos_hits_sphere(ball({0, 0, 0.5f}, 1.0f), glm::vec3(0, 0, -0.1f), contact, struck));
  CHECK(struck == &sq);
  struck = nullptr;
  CHECK_FALSE(sq.pos_hits_sphere(ball({0, 0, 2.0f}, 1.0f), glm::vec3(0, 0, -0.1f), contact, struck));
  CHECK(struck == nullptr);
}

TEST_CASE(
    "CPolygon::check_walkable 0x00538E60 and check_small_walkable 0x005390B0 drop the centre along up, the small one "
    "within half the radius",
    "[retail][sim]") {
  const Polygon sq = floor_square();
  CHECK(sq.check_walkable(ball({0, 0, 3.0f}, 0.5f), kUp));                 // over the square, however high
  CHECK(sq.check_walkable(ball({1.4f, 0, 3.0f}, 0.5f), kUp));              // 0.4 m past the edge: within r
  CHECK_FALSE(sq.check_small_walkable(ball({1.4f, 0, 3.0f}, 0.5f), kUp));  // but not within r/2
  CHECK(sq.check_small_walkable(ball({1.2f, 0, 3.0f}, 0.5f), kUp));
  CHECK_FALSE(sq.check_walkable(ball({1.6f, 0, 3.0f}, 0.5f), kUp));
  // Up lying in the plane: no answer (|N . up| < EPSILON).
  CHECK_FALSE(sq.check_walkable(ball({0, 0, 3.0f}, 0.5f), glm::vec3(1, 0, 0)));
}

TEST_CASE("CPolygon::walkable_hits_sphere 0x00539560 needs N . up above the path's walkable allowance",
          "[retail][sim]") {
  const Polygon sq = floor_square();
  SpherePath path;
  path.walkable_allowance = kFloorZ;
  CHECK(sq.walkable_hits_sphere(path, ball({0, 0, 0.4f}, 0.5f), kUp));
  CHECK_FALSE(sq.walkable_hits_sphere(path, ball({0, 0, 0.6f}, 0.5f), kUp));
  path.walkable_allowance = 1.0f;  // N . up == 1 is not above 1
  CHECK_FALSE(sq.walkable_hits_sphere(path, ball({0, 0, 0.4f}, 0.5f), kUp));
}

TEST_CASE(
    "CPolygon::find_crossed_edge 0x00539300 gives the inward normal of the first edge the dropped centre is outside",
    "[retail][sim]") {
  const Polygon sq = floor_square();
  glm::vec3 n{0.0f};
  REQUIRE(sq.find_crossed_edge(ball({1.3f, 0, 0.5f}, 0.5f), kUp, n));
  CHECK(n == glm::vec3(-1, 0, 0));
  REQUIRE(sq.find_crossed_edge(ball({0, -1.2f, 0.5f}, 0.5f), kUp, n));
  CHECK(n == glm::vec3(0, 1, 0));
  CHECK_FALSE(sq.find_crossed_edge(ball({0.9f, 0.9f, 0.5f}, 0.5f), kUp, n));           // inside every edge
  CHECK_FALSE(sq.find_crossed_edge(ball({3, 0, 0.5f}, 0.5f), glm::vec3(1, 0, 0), n));  // up in the plane
}

TEST_CASE("CPolygon::adjust_sphere_to_plane 0x00538210 rests the sphere on the plane back along the movement",
          "[retail][sim]") {
  const Polygon sq = floor_square();
  SpherePath path;
  path.walk_interp = 1.0f;
  SECTION("0.3 m into the floor after a 0.4 m drop: lifted 0.3 m, walk_interp 1 - 0.75") {
    dat::Sphere s = ball({0, 0, 0.2f}, 0.5f);
    REQUIRE(sq.adjust_sphere_to_plane(path, s, glm::vec3(0, 0, -0.4f)));
    CHECK(s.center.z == Approx(0.5f).margin(1e-6));
    CHECK(path.walk_interp == Approx(0.25f).margin(1e-6));
  }
  SECTION("a movement along the plane moves nothing") {
    dat::Sphere s = ball({0, 0, 0.2f}, 0.5f);
    CHECK_FALSE(sq.adjust_sphere_to_plane(path, s, glm::vec3(0.4f, 0, 0)));
    CHECK(s.center.z == 0.2f);
    CHECK(path.walk_interp == 1.0f);
  }
  SECTION("a lift of more than the movement would push walk_interp below -0.5: refused") {
    dat::Sphere s = ball({0, 0, -0.5f}, 0.5f);
    CHECK_FALSE(sq.adjust_sphere_to_plane(path, s, glm::vec3(0, 0, -0.4f)));
    CHECK(path.walk_interp == 1.0f);
  }
  SECTION("already clear of the plane: the interpolation would not shrink, refused") {
    dat::Sphere s = ball({0, 0, 0.7f}, 0.5f);
    CHECK_FALSE(sq.adjust_sphere_to_plane(path, s, glm::vec3(0, 0, -0.4f)));
  }
}

TEST_CASE(
    "CPolygon::adjust_sphere_to_poly 0x00538170 times the touch from the current centre, on its side of the plane",
    "[retail][deviation][sim]") {
  const Polygon sq = floor_square();
  const dat::Sphere check = ball({0, 0, 0.2f}, 0.5f);
  CHECK(sq.adjust_sphere_to_poly(check, glm::vec3(0, 0, 2.0f), glm::vec3(0, 0, -1.8f)) == Approx(1.5 / 1.8));
  CHECK(sq.adjust_sphere_to_poly(check, glm::vec3(0, 0, -2.0f), glm::vec3(0, 0, 1.8f)) == Approx(1.5 / 1.8));
  CHECK(sq.adjust_sphere_to_poly(check, glm::vec3(0, 0, 0.3f), glm::vec3(0, 0, -0.1f)) == 1.0);  // already touching
  CHECK(sq.adjust_sphere_to_poly(check, glm::vec3(0, 0, 2.0f), glm::vec3(1, 0, 0)) == 0.0);      // parallel
}

TEST_CASE("CPolygon::adjust_to_placement_poly 0x00538CE0 pushes both spheres, the solid sides flip the target twice",
          "[retail][sim]") {
  const Polygon sq = floor_square();
  dat::Sphere struck = ball({0, 0, 0.2f}, 0.5f);
  dat::Sphere other = ball({0, 0, 1.2f}, 0.5f);
  SECTION("no solid check: to the radius in front") {
    sq.adjust_to_placement_poly(struck, other, 0.5f, false, false);
    CHECK(struck.center.z == Approx(0.5f));
    CHECK(other.center.z == Approx(1.5f));
  }
  SECTION("solid check, centre solid, in front: the radius behind") {
    sq.adjust_to_placement_poly(struck, other, 0.5f, true, true);
    CHECK(struck.center.z == Approx(-0.5f));
    CHECK(other.center.z == Approx(0.5f));
  }
  SECTION("solid check, centre solid, behind: flipped twice, the radius in front") {
    struck.center.z = -0.2f;
    other.center.z = 0.8f;
    sq.adjust_to_placement_poly(struck, other, 0.5f, true, true);
    CHECK(struck.center.z == Approx(0.5f));
    CHECK(other.center.z == Approx(1.5f));
  }
}

// ---- The tree ------------------------------------------------------------------------

TEST_CASE(
    "BSPTREE built from records: bad indices, loops, NaN planes, degenerate polygons and depth are refused by name",
    "[bsp][sim]") {
  const auto faces = box_faces({0, 0, 0}, {1, 1, 1});
  BspNode leaf;
  leaf.leaf = true;
  leaf.polys = {0};
  leaf.sphere = ball({0.5f, 0.5f, 0.5f}, 1.0f);
  BspNode node;
  node.plane = dat::Plane{kUp, -0.5f};
  node.sphere = leaf.sphere;
  node.pos = 1;
  const auto refused = [](const core::Result<BspTree>& r, const std::string& field, const std::string& detail) {
    REQUIRE_FALSE(r);
    CHECK(r.error().context == "DAT 0x01000042 physics BSP");
    CHECK(r.error().field == field);
    CHECK_THAT(r.error().detail, Catch::Contains(detail));
  };
  CHECK(BspTree::make({node, leaf}, faces, true, "DAT 0x01000042 physics BSP"));
  SECTION("a polygon index past the polygons") {
    BspNode bad = leaf;
    bad.polys = {6};
    refused(BspTree::make({node, bad}, faces, true, "DAT 0x01000042 physics BSP"), "bsp.nodes[1]", "polygon 6");
  }
  SECTION("a child that points back (a loop) or past the nodes") {
    BspNode loop = node;
    loop.neg = 0;
    refused(BspTree::make({loop, leaf}, faces, true, "DAT 0x01000042 physics BSP"), "bsp.nodes[0]", "child 0");
    BspNode past = node;
    past.pos = 7;
    refused(BspTree::make({past, leaf}, faces, true, "DAT 0x01000042 physics BSP"), "bsp.nodes[0]", "child 7");
  }
  SECTION("a NaN splitting plane, an infinite bounding sphere") {
    BspNode nan_plane = node;
    nan_plane.plane.d = std::numeric_limits<float>::quiet_NaN();
    refused(BspTree::make({nan_plane, leaf}, faces, true, "DAT 0x01000042 physics BSP"), "bsp.nodes[0]",
            "plane is not finite");
    BspNode inf_sphere = leaf;
    inf_sphere.sphere.radius = std::numeric_limits<float>::infinity();
    refused(BspTree::make({node, inf_sphere}, faces, true, "DAT 0x01000042 physics BSP"), "bsp.nodes[1]",
            "sphere is not finite");
  }
  SECTION("no nodes at all") {
    refused(BspTree::make({}, faces, true, "DAT 0x01000042 physics BSP"), "bsp", "no nodes");
  }
  SECTION("a chain deeper than 256 levels") {
    std::vector<BspNode> chain;
    for (int i = 0; i < 300; ++i) {
      BspNode n = node;
      n.pos = i + 1;
      chain.push_back(n);
    }
    chain.push_back(leaf);
    refused(BspTree::make(chain, faces, true, "DAT 0x01000042 physics BSP"), "bsp.nodes[256]", "deeper than 256");
  }
  SECTION("from a GfxObj: a vertex id past the vertices, and a polygon of two vertices") {
    dat::GfxObj gfx;
    gfx.id = 0x01000042;
    gfx.flags = dat::GfxObj::kHasPhysics;
    for (int i = 0; i < 3; ++i) gfx.vertices.push_back(dat::SwVertex{static_cast<std::uint16_t>(i), {}, {}, {}});
    gfx.vertices[1].origin = {1, 0, 0};
    gfx.vertices[2].origin = {0, 1, 0};
    dat::Polygon tri;
    tri.vertex_ids = {0, 1, 2};
    gfx.physics_polygons = {tri};
    dat::BspNode root;
    root.tag = dat::kBspLeaf;
    root.polys = {0};
    root.sphere = leaf.sphere;
    gfx.physics_bsp.nodes = {root};
    REQUIRE(BspTree::from_gfx_obj(gfx));
    gfx.physics_polygons[0].vertex_ids = {0, 1, 3};
    refused(BspTree::from_gfx_obj(gfx), "physics_polygons[0]", "vertex id 3");
    gfx.physics_polygons[0].vertex_ids = {0, 1};
    refused(BspTree::from_gfx_obj(gfx), "physics_polygons[0]", "2 vertices");
    gfx.physics_polygons[0].vertex_ids = {0, 1, 1};
    refused(BspTree::from_gfx_obj(gfx), "physics_polygons[0]", "degenerate");
  }
}

TEST_CASE(
    "BSPNODE::sphere_intersects_solid 0x0053CAF0 and BSPLEAF::sphere_intersects_solid 0x0053D5F0: solid leaves hold "
    "the centre, faces the rest",
    "[retail][sim]") {
  const BspTree box = box_tree({0, 0, 0}, {2, 2, 2});
  CHECK(box.sphere_intersects_solid(ball({1, 1, 1}, 0.2f), true));         // inside: the solid leaf
  CHECK_FALSE(box.sphere_intersects_solid(ball({1, 1, 1}, 0.2f), false));  // inside, faces out of reach
  CHECK(box.sphere_intersects_solid(ball({2.3f, 1, 1}, 0.5f), true));      // across the +x face
  CHECK_FALSE(box.sphere_intersects_solid(ball({2.6f, 1, 1}, 0.5f), true));
  CHECK_FALSE(box.sphere_intersects_solid(ball({9, 9, 9}, 0.5f), true));  // outside the node spheres
}

TEST_CASE(
    "BSPNODE::sphere_intersects_poly 0x0053CA30 and BSPLEAF::sphere_intersects_poly 0x0053D580 find the face moved "
    "into",
    "[retail][sim]") {
  const BspTree box = box_tree({0, 0, 0}, {2, 2, 2});
  const Polygon* hit = nullptr;
  glm::vec3 contact{0.0f};
  REQUIRE(box.sphere_intersects_poly(ball({-0.3f, 1, 1}, 0.5f), glm::vec3(0.2f, 0, 0), hit, contact));
  REQUIRE(hit != nullptr);
  CHECK(hit->plane.normal == glm::vec3(-1, 0, 0));
  CHECK(contact == glm::vec3(0, 1, 1));
  hit = nullptr;
  CHECK_FALSE(box.sphere_intersects_poly(ball({-0.3f, 1, 1}, 0.5f), glm::vec3(-0.2f, 0, 0), hit, contact));
  CHECK(hit != nullptr);  // touched while moving away: recorded, not a hit
}

TEST_CASE(
    "BSPNODE::find_walkable 0x0053CC80, BSPLEAF::find_walkable 0x0053D6F0 and hits_walkable 0x0053CBD0 / 0x0053D670 "
    "stand a sphere on the top",
    "[retail][sim]") {
  const BspTree box = box_tree({0, 0, 0}, {2, 2, 2});
  SpherePath path;
  path.walk_interp = 1.0f;
  path.walkable_allowance = kFloorZ;
  dat::Sphere s = ball({1, 1, 2.3f}, 0.5f);  // 0.2 m into the top after a 0.4 m drop
  const Polygon* poly = nullptr;
  bool changed = false;
  box.find_walkable(path, s, poly, glm::vec3(0, 0, -0.4f), kUp, changed);
  REQUIRE(changed);
  REQUIRE(poly != nullptr);
  CHECK(poly->plane.normal == kUp);
  CHECK(s.center.z == Approx(2.5f).margin(1e-5));
  CHECK(path.walk_interp == Approx(0.5f).margin(1e-5));
  CHECK(box.hits_walkable(path, ball({1, 1, 2.3f}, 0.5f), kUp));
  CHECK_FALSE(box.hits_walkable(path, ball({1, 1, 2.6f}, 0.5f), kUp));
  CHECK_FALSE(box.hits_walkable(path, ball({2.3f, 1, 1}, 0.5f), kUp));  // the side is not walkable
}

TEST_CASE(
    "BSPNODE::sphere_intersects_solid_poly 0x0053CD50 and BSPLEAF 0x0053D780 report the struck face or a solid centre",
    "[retail][sim]") {
  const BspTree box = box_tree({0, 0, 0}, {2, 2, 2});
  bool center_solid = false;
  const Polygon* hit = nullptr;
  CHECK(box.sphere_intersects_solid_poly(ball({2.3f, 1, 1}, 0.5f), 0.5f, center_solid, hit, true));
  REQUIRE(hit != nullptr);
  CHECK(hit->plane.normal == glm::vec3(1, 0, 0));
  hit = nullptr;
  CHECK(box.sphere_intersects_solid_poly(ball({1, 1, 1}, 0.2f), 0.2f, center_solid, hit, true));
  CHECK(center_solid);
  CHECK(hit == nullptr);
  center_solid = false;
  CHECK_FALSE(box.sphere_intersects_solid_poly(ball({4, 1, 1}, 0.5f), 0.5f, center_solid, hit, true));
}

TEST_CASE(
    "BSPNODE::point_inside_cell_bsp 0x0053C1F0 walks the positive children, behind a plane by more than EPSILON is "
    "outside",
    "[retail][sim]") {
  // A 4 m room's cell tree: x >= 0, x <= 4 (as -x + 4 >= 0), then a leaf.
  BspNode a;
  a.plane = dat::Plane{glm::vec3(1, 0, 0), 0.0f};
  a.pos = 1;
  BspNode b;
  b.plane = dat::Plane{glm::vec3(-1, 0, 0), 4.0f};
  b.pos = 2;
  BspNode leaf;
  leaf.leaf = true;
  auto cells = BspTree::make({a, b, leaf}, {}, false, "test cell tree");
  REQUIRE(cells);
  CHECK(cells->point_inside_cell_bsp({2, 9, 9}));
  CHECK(cells->point_inside_cell_bsp({-0.0001f, 0, 0}));  // on the plane within EPSILON
  CHECK_FALSE(cells->point_inside_cell_bsp({-0.001f, 0, 0}));
  CHECK_FALSE(cells->point_inside_cell_bsp({4.01f, 0, 0}));
}

// ---- Through the transition -----------------------------------------------------------

TEST_CASE(
    "BSPTREE::find_collisions 0x0053A440 in the sweep: a walker stops at a wall and slides along it "
    "(BSPTREE::step_sphere_up 0x00539F20, CGfxObj::find_obj_collisions 0x00534700, CPhysicsPart::find_obj_collisions "
    "0x0050D8D0)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  // A 3 m tall, 0.5 m thick wall whose west face is x 52, 4 m long.
  auto wall = box_object(s, 2, at({52, 50, 10}), {0, -2, 0}, {0.5f, 2, 3});
  auto walker = standing(s, 1, {50, 50, 10});
  SECTION("head-on: the last sub-step clear of the face, the face's normal reported") {
    auto t = walker->transition(&walker->position(), at({53, 50, 10}), false);
    REQUIRE(t);
    CHECK(t->sphere_path.curr_pos.frame.origin.x == Approx(51.5f).margin(1e-4));
    CHECK(t->collision_info.collision_normal == glm::vec3(-1, 0, 0));
    CHECK(t->collision_info.collided_with_environment == false);  // it was in contact: static hits count only airborne
  }
  SECTION("at a slant: blocked in x, it keeps its northward travel along the face") {
    walk(*walker, 12, {0.25f, 0.1f, 0});
    // Six moves reach the face (x 51.5, y 50.6); the six after it slide,
    // keeping their 0.1 m north each.
    CHECK(origin(*walker).x == Approx(51.5f).margin(1e-4));
    CHECK(origin(*walker).y == Approx(51.2f).margin(1e-4));
    CHECK(origin(*walker).z == Approx(10.0f).margin(1e-4));
  }
}

TEST_CASE(
    "BSPTREE::step_sphere_up 0x00539F20 and step_sphere_down 0x0053A210: a walker climbs a low block and walks off it, "
    "and stops at a tall one",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  auto walker = standing(s, 1, {50, 50, 10});
  SECTION("0.3 m high: on its top at 10.3, then down on the floor past it") {
    auto block = box_object(s, 2, at({52, 50, 10}), {0, -2, 0}, {2, 2, 0.3f});
    float top = 0.0f;
    for (int i = 0; i < 24; ++i) {
      walk(*walker, 1, {0.25f, 0, 0});
      top = std::max(top, origin(*walker).z);
    }
    CHECK(top == Approx(10.3f).margin(1e-4));
    CHECK(origin(*walker).x == Approx(56.0f).margin(1e-4));
    CHECK(origin(*walker).z == Approx(10.0f).margin(1e-4));
  }
  SECTION("0.7 m high: beyond 1.5 times the step-up height that a polygon's walk_interp allows, stopped at its face") {
    auto block = box_object(s, 2, at({52, 50, 10}), {0, -2, 0}, {2, 2, 0.7f});
    walk(*walker, 24, {0.25f, 0, 0});
    CHECK(origin(*walker).x == Approx(51.5f).margin(1e-4));
    CHECK(origin(*walker).z == Approx(10.0f).margin(1e-4));
  }
}

TEST_CASE(
    "BSPTREE::find_collisions 0x0053A440 a falling object lands on a block's top through the landing pass "
    "(BSPNODE::find_walkable 0x0053CC80, Plane::localtoglobal 0x005AA0A0)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  auto block = box_object(s, 2, at({52, 50, 10}), {-1, -1, 0}, {1, 1, 0.3f});
  auto obj = s.object(1, {52.2f, 50, 12.0f}, 0.5f, ps::Gravity);
  REQUIRE(obj->enter_world(obj->position()));
  obj->calc_acceleration();
  for (int i = 0; i < 60 && (obj->transient_state() & transient_state::Contact) == 0; ++i) {
    obj->update_object_internal(FloatSeconds(1.0f / 30.0f));
  }
  CHECK((obj->transient_state() & transient_state::Contact) != 0);
  CHECK((obj->transient_state() & transient_state::OnWalkable) != 0);
  CHECK(origin(*obj).z == Approx(10.3f).margin(1e-4));
}

TEST_CASE(
    "SPHEREPATH::precipice_slide 0x0050CC80 (via edge_slide 0x0050B3D0) keeps an edge-sliding walker on a platform "
    "(CPolygon::find_crossed_edge 0x00539300, SPHEREPATH::check_walkables 0x0050C3E0)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  // A 1 m high platform from x 48 to 52: deeper than the 0.4 m step-down.
  auto platform = box_object(s, 2, at({50, 50, 10}), {-2, -2, 0}, {2, 2, 1.0f});
  SECTION("EdgeSlide: held on the top with its centre over the edge at most") {
    auto walker = s.object(1, {50, 50, 11.0f}, 0.5f, ps::Gravity | ps::EdgeSlide);
    REQUIRE(walker->enter_world(walker->position()));
    REQUIRE((walker->transient_state() & transient_state::OnWalkable) != 0);
    walk(*walker, 16, {0.25f, 0, 0});
    // Held at the last move whose dropped sphere still touches the top
    // (0.25 m over the edge; at 0.5 m the contact circle misses it).
    CHECK(origin(*walker).z == Approx(11.0f).margin(1e-4));
    CHECK(origin(*walker).x == Approx(52.25f).margin(1e-4));
    CHECK((walker->transient_state() & transient_state::OnWalkable) != 0);
  }
  SECTION("without EdgeSlide: it walks off and leaves the ground") {
    auto walker = s.object(1, {50, 50, 11.0f}, 0.5f, ps::Gravity);
    REQUIRE(walker->enter_world(walker->position()));
    walk(*walker, 16, {0.25f, 0, 0});
    CHECK(origin(*walker).x == Approx(54.0f).margin(1e-4));
    CHECK((walker->transient_state() & transient_state::Contact) == 0);
  }
}

TEST_CASE(
    "BSPTREE::collide_with_pt 0x0053A090 a path-clipped missile stops on the sub-step before a wall with its normal "
    "(BSPTREE::find_collisions 0x0053A440)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA);
  auto wall = box_object(s, 2, at({52, 50, 10}), {0, -2, 0}, {0.5f, 2, 3});
  auto arrow = s.object(1, {50, 50, 10}, 0.1f, ps::Missile);
  REQUIRE(arrow->enter_world(arrow->position()));
  auto t = arrow->transition(&arrow->position(), at({58, 50, 10}), false);
  REQUIRE(t);
  CHECK(t->sphere_path.curr_pos.frame.origin.x == Approx(51.9f).margin(1e-3));
  CHECK(t->collision_info.collision_normal == glm::vec3(-1, 0, 0));
  CHECK(t->collision_info.collided_with_environment);  // a static obstacle, and the arrow is not in contact
}

TEST_CASE(
    "BSPTREE::placement_insert 0x00539960 and the placement search put a mover placed inside a block beside it "
    "(BSPTREE::find_collisions 0x0053A440, CTransition::find_placement_pos 0x0050BA50)",
    "[retail][sim]") {
  Scene s;
  s.cells.add(kCellA, 10.0f);
  auto block = box_object(s, 2, at({52, 50, 10}), {-1, -1, 0}, {1, 1, 2});
  auto obj = s.object(1, {52.3f, 50, 10}, 0.5f, ps::Gravity);
  REQUIRE(obj->enter_world(obj->position()));
  const glm::vec3 o = origin(*obj);
  // Clear of the block: its sphere (centre 0.5 m up) is at least 0.5 m out
  // of the 2 x 2 footprint.
  const float out_x = std::max(std::fabs(o.x - 52.0f) - 1.0f, 0.0f);
  const float out_y = std::max(std::fabs(o.y - 50.0f) - 1.0f, 0.0f);
  CHECK(std::sqrt(out_x * out_x + out_y * out_y) >= 0.5f - 2 * kEps);
  CHECK(glm::length(glm::vec2(o.x - 52.3f, o.y - 50.0f)) <= 4.0f);  // within the search's 4 m
}
