// BSPTREE, BSPNODE and BSPLEAF (spec/physics.md section 5.8; RE
// cgeometry/CBSPTree.c, CBSPNode.c, CBSPLeaf.c), CGfxObj's and
// CPhysicsPart's collision entry points (gfxobj/CGfxObj.c,
// cphysobj/CPhysicsPart.c) and Plane::localtoglobal (geometry/Plane.c).
#include "dereth/sim/collision/bsp.hpp"

#include <cmath>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "dereth/sim/collision/gfx_obj_physics.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

namespace {

constexpr float kEps = kPhysicsEpsilon;

bool finite(const glm::vec3& v) noexcept {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

core::Error bsp_error(const std::string& context, std::string field, std::string detail) {
  return core::Error{core::ErrorKind::Invalid, context, std::move(field), 0, std::move(detail)};
}

// CSphere::intersects 0x005344A0: the centres closer than the radii's sum.
// The compare is lost in the decompilation (x87 "less or unordered"): read
// as |d|^2 < (r1 + r2)^2, NaN counting as a hit.
bool spheres_intersect(const dat::Sphere& a, const dat::Sphere& b) noexcept {
  const glm::vec3 d = a.center - b.center;
  const float r = a.radius + b.radius;
  return !(glm::dot(d, d) >= r * r);
}

// The polygons a physics tree's leaves index, with their vertices resolved.
template <class Poly, class Vertex>
core::Result<std::vector<Polygon>> resolve_polygons(const std::vector<Poly>& polys, const std::vector<Vertex>& vertices,
                                                    const std::string& context) {
  std::vector<Polygon> out;
  out.reserve(polys.size());
  for (std::size_t i = 0; i < polys.size(); ++i) {
    const Poly& p = polys[i];
    const std::string field = fmt::format("physics_polygons[{}]", i);
    if (p.vertex_ids.size() < 3) {
      return std::unexpected(bsp_error(context, field, fmt::format("{} vertices, needs 3", p.vertex_ids.size())));
    }
    std::vector<glm::vec3> points;
    points.reserve(p.vertex_ids.size());
    for (const auto id : p.vertex_ids) {
      const auto index = static_cast<std::int64_t>(id);
      if (index < 0 || index >= static_cast<std::int64_t>(vertices.size())) {
        return std::unexpected(
            bsp_error(context, field, fmt::format("vertex id {} outside the {} vertices", index, vertices.size())));
      }
      points.push_back(vertices[static_cast<std::size_t>(index)].origin);
    }
    Polygon poly = Polygon::from_vertices(std::move(points));
    if (!finite(poly.plane.normal) || !std::isfinite(poly.plane.d)) {
      return std::unexpected(bsp_error(context, field, "degenerate: its plane is not finite"));
    }
    out.push_back(std::move(poly));
  }
  return out;
}

// The DAT trees' nodes (GfxObj and CellStruct have one record type each).
template <class Node>
std::vector<BspNode> convert_nodes(const std::vector<Node>& nodes, std::uint32_t leaf_tag) {
  std::vector<BspNode> out;
  out.reserve(nodes.size());
  for (const Node& n : nodes) {
    BspNode b;
    b.leaf = n.tag == leaf_tag;
    b.plane = n.plane;
    b.pos = n.pos;
    b.neg = n.neg;
    b.sphere = n.sphere;
    b.solid = n.solid != 0;
    if constexpr (requires { n.polys; }) {
      b.polys = n.polys;
    } else {
      b.polys = n.polygons;
    }
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace

// ---- Building and checking ----------------------------------------------------------

core::Result<BspTree> BspTree::make(std::vector<BspNode> nodes, std::vector<Polygon> polygons, bool physics,
                                    const std::string& context) {
  if (nodes.empty()) return std::unexpected(bsp_error(context, "bsp", "the tree has no nodes"));
  std::vector<int> depth(nodes.size(), 0);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    BspNode& n = nodes[i];
    const std::string field = fmt::format("bsp.nodes[{}]", i);
    if (n.leaf) {
      n.pos = -1;
      n.neg = -1;
      for (const std::uint16_t poly : n.polys) {
        if (poly >= polygons.size()) {
          return std::unexpected(
              bsp_error(context, field, fmt::format("polygon {} outside the {} polygons", poly, polygons.size())));
        }
      }
    } else if (!finite(n.plane.normal) || !std::isfinite(n.plane.d)) {
      return std::unexpected(bsp_error(context, field, "splitting plane is not finite"));
    }
    if (physics && (!finite(n.sphere.center) || !std::isfinite(n.sphere.radius) || n.sphere.radius < 0.0f)) {
      return std::unexpected(bsp_error(context, field, "bounding sphere is not finite"));
    }
    for (const std::int32_t child : {n.pos, n.neg}) {
      if (child == -1) continue;
      // Children come after their parent (the pre-order the DAT stores),
      // so no walk can loop.
      if (child <= static_cast<std::int32_t>(i) || child >= static_cast<std::int32_t>(nodes.size())) {
        return std::unexpected(bsp_error(context, field, fmt::format("child {} is not after it in the tree", child)));
      }
      const auto c = static_cast<std::size_t>(child);
      depth[c] = std::max(depth[c], depth[i] + 1);
      if (depth[c] > kMaxDepth) {
        return std::unexpected(bsp_error(context, field, fmt::format("deeper than {} levels", kMaxDepth)));
      }
    }
  }
  return BspTree(std::move(nodes), std::move(polygons));
}

core::Result<BspTree> BspTree::from_gfx_obj(const dat::GfxObj& gfx) {
  const std::string context = fmt::format("DAT 0x{:08X} physics BSP", gfx.id);
  DERETH_TRY(std::vector<Polygon> polys, resolve_polygons(gfx.physics_polygons, gfx.vertices, context));
  return make(convert_nodes(gfx.physics_bsp.nodes, dat::kBspLeaf), std::move(polys), true, context);
}

core::Result<BspTree> BspTree::from_cell_struct_physics(const dat::CellStruct& cs, const std::string& context) {
  DERETH_TRY(std::vector<Polygon> polys, resolve_polygons(cs.physics_polygons, cs.vertices, context));
  return make(convert_nodes(cs.physics_bsp.nodes, dat::bsp_tag::kLeaf), std::move(polys), true, context);
}

core::Result<BspTree> BspTree::from_cell_struct_cells(const dat::CellStruct& cs, const std::string& context) {
  std::vector<BspNode> nodes = convert_nodes(cs.cell_bsp.nodes, dat::bsp_tag::kLeaf);
  for (BspNode& n : nodes) n.polys.clear();  // cell leaves carry no polygons
  return make(std::move(nodes), {}, false, context);
}

// ---- BSPNODE / BSPLEAF ----------------------------------------------------------------

// BSPNODE::sphere_intersects_poly 0x0053CA30, BSPLEAF::sphere_intersects_poly 0x0053D580
bool BspTree::sphere_intersects_poly(const dat::Sphere& check_pos, const glm::vec3& movement, const Polygon*& polygon,
                                     glm::vec3& contact_pt, std::int32_t node) const {
  if (node < 0) return false;
  const BspNode& n = nodes_[static_cast<std::size_t>(node)];
  if (n.leaf) {
    if (n.polys.empty() || !spheres_intersect(n.sphere, check_pos)) return false;
    for (const std::uint16_t p : n.polys) {
      if (polygons_[p].pos_hits_sphere(check_pos, movement, contact_pt, polygon)) return true;
    }
    return false;
  }
  if (!spheres_intersect(n.sphere, check_pos)) return false;
  const float dist = glm::dot(n.plane.normal, check_pos.center) + n.plane.d;
  const float reach = check_pos.radius - kEps;
  if (dist >= reach) return sphere_intersects_poly(check_pos, movement, polygon, contact_pt, n.pos);
  if (dist <= -reach) return sphere_intersects_poly(check_pos, movement, polygon, contact_pt, n.neg);
  if (sphere_intersects_poly(check_pos, movement, polygon, contact_pt, n.pos)) return true;
  return sphere_intersects_poly(check_pos, movement, polygon, contact_pt, n.neg);
}

// BSPNODE::sphere_intersects_solid 0x0053CAF0, BSPLEAF::sphere_intersects_solid 0x0053D5F0
bool BspTree::sphere_intersects_solid(const dat::Sphere& check_pos, bool center_check, std::int32_t node) const {
  if (node < 0) return false;
  const BspNode& n = nodes_[static_cast<std::size_t>(node)];
  if (n.leaf) {
    if (n.polys.empty()) return false;
    if (center_check && n.solid) return true;
    if (!spheres_intersect(n.sphere, check_pos)) return false;
    for (const std::uint16_t p : n.polys) {
      if (polygons_[p].hits_sphere(check_pos)) return true;
    }
    return false;
  }
  if (!spheres_intersect(n.sphere, check_pos)) return false;
  const float dist = glm::dot(n.plane.normal, check_pos.center) + n.plane.d;
  const float reach = check_pos.radius - kEps;
  if (dist >= reach) return sphere_intersects_solid(check_pos, center_check, n.pos);
  if (dist <= -reach) return sphere_intersects_solid(check_pos, center_check, n.neg);
  // Straddling: only the side holding the centre keeps the centre check.
  if (dist < 0.0f) {
    return sphere_intersects_solid(check_pos, false, n.pos) || sphere_intersects_solid(check_pos, center_check, n.neg);
  }
  return sphere_intersects_solid(check_pos, center_check, n.pos) || sphere_intersects_solid(check_pos, false, n.neg);
}

// BSPNODE::hits_walkable 0x0053CBD0, BSPLEAF::hits_walkable 0x0053D670
bool BspTree::hits_walkable(const SpherePath& path, const dat::Sphere& valid_pos, const glm::vec3& up,
                            std::int32_t node) const {
  if (node < 0) return false;
  const BspNode& n = nodes_[static_cast<std::size_t>(node)];
  if (n.leaf) {
    if (n.polys.empty() || !spheres_intersect(n.sphere, valid_pos)) return false;
    for (const std::uint16_t p : n.polys) {
      const Polygon& poly = polygons_[p];
      if (poly.walkable_hits_sphere(path, valid_pos, up) && poly.check_small_walkable(valid_pos, up)) return true;
    }
    return false;
  }
  if (!spheres_intersect(n.sphere, valid_pos)) return false;
  const float dist = glm::dot(n.plane.normal, valid_pos.center) + n.plane.d;
  const float reach = valid_pos.radius - kEps;
  if (dist >= reach) return hits_walkable(path, valid_pos, up, n.pos);
  if (dist <= -reach) return hits_walkable(path, valid_pos, up, n.neg);
  return hits_walkable(path, valid_pos, up, n.pos) || hits_walkable(path, valid_pos, up, n.neg);
}

// BSPNODE::find_walkable 0x0053CC80, BSPLEAF::find_walkable 0x0053D6F0
void BspTree::find_walkable(SpherePath& path, dat::Sphere& valid_pos, const Polygon*& polygon,
                            const glm::vec3& movement, const glm::vec3& up, bool& changed, std::int32_t node) const {
  if (node < 0) return;
  const BspNode& n = nodes_[static_cast<std::size_t>(node)];
  if (n.leaf) {
    if (n.polys.empty() || !spheres_intersect(n.sphere, valid_pos)) return;
    // Every walkable polygon the sphere touches lifts it in turn; the last
    // one that moved it is the one recorded.
    for (const std::uint16_t p : n.polys) {
      const Polygon& poly = polygons_[p];
      if (poly.walkable_hits_sphere(path, valid_pos, up) && poly.adjust_sphere_to_plane(path, valid_pos, movement)) {
        changed = true;
        polygon = &poly;
      }
    }
    return;
  }
  if (!spheres_intersect(n.sphere, valid_pos)) return;
  const float dist = glm::dot(n.plane.normal, valid_pos.center) + n.plane.d;
  const float reach = valid_pos.radius - kEps;
  if (dist >= reach) {
    find_walkable(path, valid_pos, polygon, movement, up, changed, n.pos);
  } else if (dist <= -reach) {
    find_walkable(path, valid_pos, polygon, movement, up, changed, n.neg);
  } else {
    find_walkable(path, valid_pos, polygon, movement, up, changed, n.pos);
    find_walkable(path, valid_pos, polygon, movement, up, changed, n.neg);
  }
}

// BSPNODE::sphere_intersects_solid_poly 0x0053CD50, BSPLEAF::sphere_intersects_solid_poly 0x0053D780
bool BspTree::sphere_intersects_solid_poly(const dat::Sphere& check_pos, float radius, bool& center_solid,
                                           const Polygon*& hit_poly, bool center_check, std::int32_t node) const {
  if (node < 0) return false;
  const BspNode& n = nodes_[static_cast<std::size_t>(node)];
  if (n.leaf) {
    if (n.polys.empty()) return false;
    if (center_check && n.solid) center_solid = true;
    if (spheres_intersect(n.sphere, check_pos)) {
      for (const std::uint16_t p : n.polys) {
        if (polygons_[p].hits_sphere(check_pos)) {
          hit_poly = &polygons_[p];
          return true;
        }
      }
    }
    return center_solid;
  }
  if (!spheres_intersect(n.sphere, check_pos)) return false;
  const float dist = glm::dot(n.plane.normal, check_pos.center) + n.plane.d;
  const float reach = radius - kEps;
  if (dist >= reach)
    return sphere_intersects_solid_poly(check_pos, radius, center_solid, hit_poly, center_check, n.pos);
  if (dist <= -reach) {
    return sphere_intersects_solid_poly(check_pos, radius, center_solid, hit_poly, center_check, n.neg);
  }
  // Straddling: the centre's side first; the other only while no polygon
  // was struck, and without the centre check.
  const std::int32_t near = dist < 0.0f ? n.neg : n.pos;
  const std::int32_t far = dist < 0.0f ? n.pos : n.neg;
  sphere_intersects_solid_poly(check_pos, radius, center_solid, hit_poly, center_check, near);
  if (hit_poly == nullptr) return sphere_intersects_solid_poly(check_pos, radius, center_solid, hit_poly, false, far);
  return center_solid;
}

// BSPNODE::point_inside_cell_bsp 0x0053C1F0: down the positive children,
// failing on the first plane the point is behind (by more than EPSILON); a
// leaf (no plane) ends the walk inside.
bool BspTree::point_inside_cell_bsp(const glm::vec3& origin) const {
  std::int32_t node = 0;
  while (node >= 0) {
    const BspNode& n = nodes_[static_cast<std::size_t>(node)];
    if (n.leaf) return true;
    const float dist = glm::dot(n.plane.normal, origin) + n.plane.d;
    if (dist < -kEps) return false;
    node = n.pos;
  }
  return true;
}

// BSPNODE::sphere_intersects_cell_bsp 0x0053C260
int BspTree::sphere_intersects_cell_bsp(const dat::Sphere& sphere, std::int32_t node) const {
  const auto plane_dist = [&](std::int32_t at) {
    const BspNode& n = nodes_[static_cast<std::size_t>(at)];
    return glm::dot(n.plane.normal, sphere.center) + n.plane.d;  // a leaf's plane is zero
  };
  const float reach = sphere.radius + 0.0099999998f;
  float dist = plane_dist(node);
  if (dist <= -reach) return 0;
  for (;;) {
    node = nodes_[static_cast<std::size_t>(node)].pos;
    if (dist < reach) break;  // across this plane
    if (node < 0) return 2;
    dist = plane_dist(node);
    if (dist <= -reach) return 0;
  }
  if (node < 0) return 1;
  return sphere_intersects_cell_bsp(sphere, node) != 0 ? 1 : 0;
}

// BSPNODE::box_intersects_cell_bsp 0x0053C880 (BSPTREE 0x005398B0): the
// min corner strictly behind and every other corner behind ends it outside;
// a leaf's plane is zero, so it never does.
bool BspTree::box_intersects_cell_bsp(const BBox& box) const {
  const glm::vec3 corner[7] = {{box.max.x, box.max.y, box.max.z}, {box.min.x, box.min.y, box.max.z},
                               {box.min.x, box.max.y, box.min.z}, {box.max.x, box.min.y, box.min.z},
                               {box.max.x, box.min.y, box.max.z}, {box.min.x, box.max.y, box.max.z},
                               {box.max.x, box.max.y, box.min.z}};
  std::int32_t node = 0;
  while (node >= 0) {
    const BspNode& n = nodes_[static_cast<std::size_t>(node)];
    const float dist = glm::dot(n.plane.normal, box.min) + n.plane.d;
    if (dist < -kEps) {
      bool behind = true;
      for (const glm::vec3& c : corner) {
        if (which_side(n.plane, c, kEps) != 1) {
          behind = false;
          break;
        }
      }
      if (behind) return false;
    }
    node = n.pos;
  }
  return true;
}

// ---- BSPTREE --------------------------------------------------------------------------

namespace {

// The end BSPTREE::step_sphere_down and find_collisions' landing pass share:
// the check position follows the sphere `find_walkable` lifted from
// `from` onto `poly`, whose plane becomes the contact plane (dry), and the
// polygon is recorded as the walkable one.
TransitionState stand_on_walkable(SpherePath& path, CollisionInfo& ci, const dat::Sphere& from,
                                  const dat::Sphere& valid_pos, const Polygon* poly, float scale) {
  path.add_offset_to_check_pos(path.localspace_pos.frame.localtoglobalvec(valid_pos.center - from.center) * scale);
  dat::Plane plane = plane_localtoglobal(path.check_pos, path.localspace_pos, poly->plane);
  plane.d *= scale;
  ci.set_contact_plane(Plane{plane.normal, plane.d}, false);
  ci.contact_plane_cell_id = path.check_pos.objcell_id;
  path.set_walkable(valid_pos, poly, path.localspace_z, path.localspace_pos, scale);
  return TransitionState::Adjusted;
}

}  // namespace

// BSPTREE::slide_sphere 0x00539E50
TransitionState BspTree::slide_sphere(Transition& t, const glm::vec3& local_normal) {
  SpherePath& path = t.sphere_path;
  const glm::vec3 normal = path.localspace_pos.frame.localtoglobalvec(local_normal);
  return sphere::slide_sphere(path.global_sphere[0], t, normal, path.global_curr_center[0]);
}

// BSPTREE::step_sphere_up 0x00539F20
TransitionState BspTree::step_sphere_up(Transition& t, const glm::vec3& local_normal) {
  const glm::vec3 normal = t.sphere_path.localspace_pos.frame.localtoglobalvec(local_normal);
  if (t.step_up(normal)) return TransitionState::OK;
  return t.step_up_slide();
}

// BSPTREE::check_walkable 0x00539ED0
TransitionState BspTree::check_walkable(SpherePath& path, const dat::Sphere& check_pos, float /*scale*/) const {
  const dat::Sphere valid_pos = check_pos;
  return hits_walkable(path, valid_pos, path.localspace_z) ? TransitionState::Collided : TransitionState::OK;
}

// BSPTREE::step_sphere_down 0x0053A210
TransitionState BspTree::step_sphere_down(SpherePath& path, CollisionInfo& ci, const dat::Sphere& check_pos,
                                          float scale) const {
  const float amount = -(path.step_down_amt * path.walk_interp);
  const glm::vec3 movement = path.localspace_z * amount * (1.0f / scale);
  dat::Sphere valid_pos = check_pos;
  const Polygon* poly = nullptr;
  bool changed = false;
  find_walkable(path, valid_pos, poly, movement, path.localspace_z, changed);
  if (!changed) return TransitionState::OK;
  return stand_on_walkable(path, ci, check_pos, valid_pos, poly, scale);
}

// BSPTREE::adjust_to_plane 0x00539BF0
bool BspTree::adjust_to_plane(dat::Sphere& check_pos, const glm::vec3& curr_pos, const Polygon* hit_poly,
                              glm::vec3& contact_pt) const {
  const glm::vec3 movement = check_pos.center - curr_pos;
  double lower = 0.0;
  double upper = 1.0;
  int tries = 0;
  const auto place = [&](double time) {
    check_pos.center.x = static_cast<float>(movement.x * time) + curr_pos.x;
    check_pos.center.y = static_cast<float>(movement.y * time) + curr_pos.y;
    check_pos.center.z = static_cast<float>(time * movement.z + curr_pos.z);
  };
  for (;;) {
    const double touch = hit_poly->adjust_sphere_to_poly(check_pos, curr_pos, movement);
    // The compare is lost in the decompilation ("equal"): read as the
    // already-touching answer, 1, which leaves the whole move to bisect.
    if (touch == 1.0) break;
    place(touch);
    if (!sphere_intersects_poly(check_pos, movement, hit_poly, contact_pt)) {
      lower = touch;
      break;
    }
    ++tries;
    upper = touch;
    if (tries >= 15) return false;
  }
  while (tries < 15) {
    const double mid = (lower + upper) * 0.5;
    place(mid);
    if (sphere_intersects_poly(check_pos, movement, hit_poly, contact_pt)) {
      upper = mid;
    } else {
      lower = mid;
    }
    if (upper - lower < 0.02) break;
    ++tries;
  }
  place(lower);
  return true;
}

// BSPTREE::collide_with_pt 0x0053A090
TransitionState BspTree::collide_with_pt(const ObjectInfo& object, SpherePath& path, CollisionInfo& ci,
                                         const dat::Sphere& check_pos, const glm::vec3& curr_pos,
                                         const Polygon* hit_poly, glm::vec3& contact_pt, float scale) const {
  if ((object.state & object_info_state::PerfectClip) == 0) {
    ci.set_collision_normal(path.localspace_pos.frame.localtoglobalvec(hit_poly->plane.normal));
    return TransitionState::Collided;
  }
  dat::Sphere valid_pos = check_pos;
  if (!adjust_to_plane(valid_pos, curr_pos, hit_poly, contact_pt)) return TransitionState::Collided;
  ci.set_collision_normal(path.localspace_pos.frame.localtoglobalvec(hit_poly->plane.normal));
  const glm::vec3 offset = path.localspace_pos.frame.localtoglobalvec(valid_pos.center - check_pos.center) * scale;
  path.add_offset_to_check_pos(offset);
  return TransitionState::Adjusted;
}

// BSPTREE::find_collisions 0x0053A440
TransitionState BspTree::find_collisions(Transition& t, float scale) const {
  SpherePath& path = t.sphere_path;
  CollisionInfo& ci = t.collision_info;
  const dat::Sphere& foot = path.localspace_sphere[0];
  const glm::vec3& curr = path.localspace_curr_center[0];
  const glm::vec3 movement = foot.center - curr;
  const bool two = path.num_sphere > 1;

  if (path.insert_type == InsertType::Placement || path.obstruction_ethereal) {
    const bool center_check = path.building_check ? !path.hits_interior_cell : true;
    if (sphere_intersects_solid(foot, center_check) ||
        (two && sphere_intersects_solid(path.localspace_sphere[1], center_check))) {
      return TransitionState::Collided;
    }
    return TransitionState::OK;
  }
  if (path.check_walkable) return check_walkable(path, foot, scale);
  if (path.step_down) return step_sphere_down(path, ci, foot, scale);

  const Polygon* hit_poly = nullptr;
  glm::vec3 contact_pt{0.0f};
  if (path.collide) {
    // The landing pass: stand on the walkable polygon met on the way down.
    dat::Sphere valid_pos = foot;
    const Polygon* walkable = nullptr;
    bool changed = false;
    find_walkable(path, valid_pos, walkable, movement, path.localspace_z, changed);
    if (!changed) return TransitionState::OK;
    return stand_on_walkable(path, ci, foot, valid_pos, walkable, scale);
  }

  const std::uint32_t state = t.object_info.state;
  if ((state & object_info_state::Contact) != 0) {
    if (sphere_intersects_poly(foot, movement, hit_poly, contact_pt)) {
      return step_sphere_up(t, hit_poly->plane.normal);
    }
    if (two) {
      const Polygon* head_poly = nullptr;
      if (sphere_intersects_poly(path.localspace_sphere[1], movement, head_poly, contact_pt)) {
        return slide_sphere(t, head_poly->plane.normal);
      }
      // A polygon touched while moving away from it: remembered for
      // transitional_insert (the head's first, else the foot's).
      if (head_poly != nullptr) {
        path.set_neg_poly_hit(false, path.localspace_pos.frame.localtoglobalvec(head_poly->plane.normal));
        return TransitionState::OK;
      }
      if (hit_poly != nullptr) {
        path.set_neg_poly_hit(true, path.localspace_pos.frame.localtoglobalvec(hit_poly->plane.normal));
        return TransitionState::OK;
      }
    }
    return TransitionState::OK;
  }
  if ((state & object_info_state::PathClipped) == 0) {
    // Airborne: the foot meeting a polygon starts the landing pass.
    if (sphere_intersects_poly(foot, movement, hit_poly, contact_pt) || hit_poly != nullptr) {
      path.set_collide(path.localspace_pos.frame.localtoglobalvec(hit_poly->plane.normal));
      path.walkable_allowance = kLandingZ;
      return TransitionState::Adjusted;
    }
    if (two &&
        (sphere_intersects_poly(path.localspace_sphere[1], movement, hit_poly, contact_pt) || hit_poly != nullptr)) {
      ci.set_collision_normal(path.localspace_pos.frame.localtoglobalvec(hit_poly->plane.normal));
      return TransitionState::Collided;
    }
    return TransitionState::OK;
  }
  if (sphere_intersects_poly(foot, movement, hit_poly, contact_pt) || hit_poly != nullptr) {
    return collide_with_pt(t.object_info, path, ci, foot, curr, hit_poly, contact_pt, scale);
  }
  return TransitionState::OK;
}

// BSPTREE::placement_insert 0x00539960
TransitionState BspTree::placement_insert(Transition& t) const {
  SpherePath& path = t.sphere_path;
  dat::Sphere valid_pos = path.localspace_sphere[0];
  dat::Sphere valid_pos2 = path.num_sphere > 1 ? path.localspace_sphere[1] : dat::Sphere{};
  float radius = valid_pos.radius;
  const bool center_check = path.building_check ? !path.hits_interior_cell : true;
  const Polygon* hit_poly = nullptr;
  // The spheres pushed out, back in the check position's space.
  const auto commit = [&](int tries) {
    if (tries == 0) return TransitionState::OK;
    path.add_offset_to_check_pos(
        path.localspace_pos.frame.localtoglobalvec(valid_pos.center - path.localspace_sphere[0].center));
    return TransitionState::Adjusted;
  };
  for (int i = 0; i < 20; ++i) {
    bool center_solid = false;
    if (sphere_intersects_solid_poly(valid_pos, radius, center_solid, hit_poly, center_check)) {
      if (hit_poly != nullptr) {
        hit_poly->adjust_to_placement_poly(valid_pos, valid_pos2, radius, center_solid, center_check);
        hit_poly = nullptr;
        radius = valid_pos.radius;
      } else {
        radius += radius;
      }
      continue;
    }
    if (path.num_sphere <= 1) return commit(i);
    if (!sphere_intersects_solid_poly(valid_pos2, radius, center_solid, hit_poly, center_check)) return commit(i);
    if (hit_poly != nullptr) {
      hit_poly->adjust_to_placement_poly(valid_pos2, valid_pos, radius, center_solid, center_check);
      hit_poly = nullptr;
      radius = valid_pos.radius;
    } else {
      radius += radius;
    }
  }
  return TransitionState::Collided;
}

// ---- CGfxObj, CPhysicsPart, Plane -------------------------------------------------------

// CGfxObj::find_obj_collisions 0x00534700 (the overlap compare is lost in
// the decompilation: read as CSphere::intersects')
TransitionState GfxObjPhysics::find_obj_collisions(Transition& t, float scale) const {
  const SpherePath& path = t.sphere_path;
  for (std::uint32_t i = 0; i < path.num_sphere; ++i) {
    if (spheres_intersect(physics_sphere, path.localspace_sphere[i])) {
      if (path.insert_type == InsertType::InitialPlacement) return bsp.placement_insert(t);
      return bsp.find_collisions(t, scale);
    }
  }
  return TransitionState::OK;
}

// CPhysicsPart::find_obj_collisions 0x0050D8D0
TransitionState find_part_collisions(const GfxObjPhysics* gfx, const Position& part_pos, float gfxobj_scale_z,
                                     Transition& t) {
  if (gfx == nullptr) return TransitionState::OK;
  t.sphere_path.cache_localspace_sphere(part_pos, gfxobj_scale_z);
  return gfx->find_obj_collisions(t, gfxobj_scale_z);
}

// Plane::localtoglobal 0x005AA0A0
dat::Plane plane_localtoglobal(const Position& to, const Position& from, const dat::Plane& local_plane) noexcept {
  const glm::vec3 point = local_plane.normal * -local_plane.d;
  const glm::vec3 normal = from.frame.localtoglobalvec(local_plane.normal);
  const glm::vec3 global_point = localtoglobal(to, from, point);
  return dat::Plane{normal, -glm::dot(normal, global_point)};
}

}  // namespace dereth::sim
