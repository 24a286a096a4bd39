#pragma once
// The physics BSP obstacles (spec/physics.md sections 5.7 and 5.8; RE
// cgeometry/CBSPTree.c, CBSPNode.c, CBSPLeaf.c): retail's BSPTREE with its
// BSPNODE and BSPLEAF tests, over the physics polygons of a GfxObj or of an
// EnvCell's CellStruct, and the cell tree CCellStruct::point_in_cell walks.
//
// The tree is built once from the DAT record and checked then, so the
// collision code never meets a bad index: every child and polygon index in
// range, children after their parent (no cycles), at most kMaxDepth levels,
// finite planes and spheres, polygons of three or more vertices with a
// finite plane. A refused record is an error naming the DAT id and the node
// or polygon.
//
// Retail's node tests call both children of a node without a null check;
// a tag with one child (BPnn, BpIN, ...) would crash there. Here a missing
// child is empty: it hits nothing (docs/deviations.md).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/types.hpp"
#include "dereth/sim/collision/bbox.hpp"
#include "dereth/sim/collision/polygon.hpp"

namespace dereth::sim {

class Transition;
struct SpherePath;
struct CollisionInfo;
struct ObjectInfo;
struct Position;
enum class TransitionState : std::uint8_t;

// BSPNODE / BSPLEAF, flattened: children are indices into the tree's nodes.
struct BspNode {
  bool leaf = false;
  dat::Plane plane;  // the splitting plane (internal nodes)
  std::int32_t pos = -1;
  std::int32_t neg = -1;
  dat::Sphere sphere;                // the bounding sphere (physics trees)
  bool solid = false;                // BSPLEAF::solid
  std::vector<std::uint16_t> polys;  // BSPLEAF::in_polys, into BspTree::polygons
};

// BSPTREE with the polygons its leaves name.
class BspTree {
 public:
  static constexpr int kMaxDepth = 256;

  // A GfxObj's physics tree over its physics polygons (kHasPhysics).
  [[nodiscard]] static core::Result<BspTree> from_gfx_obj(const dat::GfxObj& gfx);
  // A CellStruct's physics tree over its physics polygons; `context` names
  // the record ("DAT 0x0D000123 cell struct 2").
  [[nodiscard]] static core::Result<BspTree> from_cell_struct_physics(const dat::CellStruct& cs,
                                                                      const std::string& context);
  // A CellStruct's cell tree (planes only), for point_in_cell.
  [[nodiscard]] static core::Result<BspTree> from_cell_struct_cells(const dat::CellStruct& cs,
                                                                    const std::string& context);
  // Hand-built trees (tests, the demo's writer checks); checked as above.
  [[nodiscard]] static core::Result<BspTree> make(std::vector<BspNode> nodes, std::vector<Polygon> polygons,
                                                  bool physics, const std::string& context);

  [[nodiscard]] const std::vector<BspNode>& nodes() const noexcept { return nodes_; }
  [[nodiscard]] const std::vector<Polygon>& polygons() const noexcept { return polygons_; }
  // BSPTREE::GetSphere 0x005397E0: the root's bounding sphere.
  [[nodiscard]] const dat::Sphere& get_sphere() const noexcept { return nodes_.front().sphere; }

  // ---- The transition's entry points (BSPTREE) ----
  // BSPTREE::find_collisions 0x0053A440: the mover's localspace spheres
  // (SPHEREPATH::cache_localspace_sphere) against the tree, by path state.
  TransitionState find_collisions(Transition& t, float scale) const;
  // BSPTREE::placement_insert 0x00539960: pushes the spheres out of solid
  // (up to 20 tries, widening the plane test when no polygon is struck).
  TransitionState placement_insert(Transition& t) const;
  // BSPTREE::step_sphere_down 0x0053A210
  TransitionState step_sphere_down(SpherePath& path, CollisionInfo& ci, const dat::Sphere& check_pos,
                                   float scale) const;
  // BSPTREE::check_walkable 0x00539ED0: Collided when there is walkable
  // ground under the sphere, else OK.
  TransitionState check_walkable(SpherePath& path, const dat::Sphere& check_pos, float scale) const;
  // BSPTREE::collide_with_pt 0x0053A090
  TransitionState collide_with_pt(const ObjectInfo& object, SpherePath& path, CollisionInfo& ci,
                                  const dat::Sphere& check_pos, const glm::vec3& curr_pos, const Polygon* hit_poly,
                                  glm::vec3& contact_pt, float scale) const;
  // BSPTREE::adjust_to_plane 0x00539BF0: moves `check_pos` back along its
  // movement from `curr_pos` to just before it touches the tree (a
  // bisection to 0.02 of the move); false when 15 tries do not clear it.
  bool adjust_to_plane(dat::Sphere& check_pos, const glm::vec3& curr_pos, const Polygon* hit_poly,
                       glm::vec3& contact_pt) const;
  // BSPTREE::step_sphere_up 0x00539F20
  static TransitionState step_sphere_up(Transition& t, const glm::vec3& local_normal);
  // BSPTREE::slide_sphere 0x00539E50
  static TransitionState slide_sphere(Transition& t, const glm::vec3& local_normal);

  // ---- BSPNODE / BSPLEAF (from `node`, the root by default) ----
  // BSPNODE::sphere_intersects_poly 0x0053CA30, BSPLEAF 0x0053D580
  bool sphere_intersects_poly(const dat::Sphere& check_pos, const glm::vec3& movement, const Polygon*& polygon,
                              glm::vec3& contact_pt, std::int32_t node = 0) const;
  // BSPNODE::sphere_intersects_solid 0x0053CAF0, BSPLEAF 0x0053D5F0
  [[nodiscard]] bool sphere_intersects_solid(const dat::Sphere& check_pos, bool center_check,
                                             std::int32_t node = 0) const;
  // BSPNODE::hits_walkable 0x0053CBD0, BSPLEAF 0x0053D670
  [[nodiscard]] bool hits_walkable(const SpherePath& path, const dat::Sphere& valid_pos, const glm::vec3& up,
                                   std::int32_t node = 0) const;
  // BSPNODE::find_walkable 0x0053CC80, BSPLEAF 0x0053D6F0
  void find_walkable(SpherePath& path, dat::Sphere& valid_pos, const Polygon*& polygon, const glm::vec3& movement,
                     const glm::vec3& up, bool& changed, std::int32_t node = 0) const;
  // BSPNODE::sphere_intersects_solid_poly 0x0053CD50, BSPLEAF 0x0053D780
  bool sphere_intersects_solid_poly(const dat::Sphere& check_pos, float radius, bool& center_solid,
                                    const Polygon*& hit_poly, bool center_check, std::int32_t node = 0) const;
  // BSPNODE::point_inside_cell_bsp 0x0053C1F0 (cell trees): in front of or
  // on (within EPSILON) every plane down the positive children.
  [[nodiscard]] bool point_inside_cell_bsp(const glm::vec3& origin) const;
  // BSPNODE::sphere_intersects_cell_bsp 0x0053C260 (cell trees): 0 when
  // the sphere (widened by 0.01) is wholly behind a plane on the way, 2
  // when it is in front of every plane down the positive children, 1 when
  // it straddles one.
  [[nodiscard]] int sphere_intersects_cell_bsp(const dat::Sphere& sphere, std::int32_t node = 0) const;
  // BSPNODE::box_intersects_cell_bsp 0x0053C880 (cell trees): false when
  // the box lies wholly behind (by more than EPSILON) a plane down the
  // positive children, else true.
  [[nodiscard]] bool box_intersects_cell_bsp(const BBox& box) const;

 private:
  BspTree(std::vector<BspNode> nodes, std::vector<Polygon> polygons)
      : nodes_(std::move(nodes)), polygons_(std::move(polygons)) {}

  std::vector<BspNode> nodes_;
  std::vector<Polygon> polygons_;
};

// Plane::localtoglobal 0x005AA0A0: a plane of `from`'s frame in `to`'s
// landblock space.
[[nodiscard]] dat::Plane plane_localtoglobal(const Position& to, const Position& from,
                                             const dat::Plane& local_plane) noexcept;

}  // namespace dereth::sim
