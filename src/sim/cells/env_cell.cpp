// CEnvCell, CCellStruct and CCellPortal's collision halves (spec/physics.md
// 5.4; RE ccell/CEnvCell.c, ccell/CCellStruct.c, cgeometry/CCellPortal.c).
#include "dereth/sim/cells/env_cell.hpp"

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

namespace {

constexpr float kEps = kPhysicsEpsilon;

// A part's sphere against a portal's plane in the cell's frame, as both
// parts-form portal tests take it: the centre's signed distance and the
// radius with the epsilon.
struct PartToPortal {
  float dist;
  float radius;
};
PartToPortal part_to_portal(const Position& cell_pos, const PartBounds& part, const dat::Plane& plane) {
  const glm::vec3 center = localtolocal(cell_pos, part.pos, part.sphere->center);
  return {glm::dot(center, plane.normal) + plane.d, part.sphere->radius + kEps};
}

}  // namespace

// ---- CCellStruct --------------------------------------------------------------------

core::Result<CellStructPhysics> CellStructPhysics::build(const dat::CellStruct& cs, const std::string& context) {
  std::optional<BspTree> physics;
  if (!cs.physics_bsp.nodes.empty()) {
    DERETH_TRY(physics, BspTree::from_cell_struct_physics(cs, context));
  }
  DERETH_TRY(BspTree cells, BspTree::from_cell_struct_cells(cs, context + " cell BSP"));
  CellStructPhysics out{std::move(physics), std::move(cells), {}};
  // The drawing polygons (portals are among them); a degenerate one keeps
  // its NaN plane and is never a portal anyone can pass.
  out.polygons.reserve(cs.polygons.size());
  for (std::size_t i = 0; i < cs.polygons.size(); ++i) {
    std::vector<glm::vec3> points;
    for (const std::uint16_t id : cs.polygons[i].vertex_ids) {
      if (id >= cs.vertices.size()) {
        return std::unexpected(
            core::Error{core::ErrorKind::Invalid, context, fmt::format("polygons[{}]", i), 0,
                        fmt::format("vertex id {} outside the {} vertices", id, cs.vertices.size())});
      }
      points.push_back(cs.vertices[id].origin);
    }
    out.polygons.push_back(Polygon::from_vertices(std::move(points)));
  }
  return out;
}

// CCellStruct::sphere_intersects_cell 0x00533900
int CellStructPhysics::sphere_intersects_cell(const dat::Sphere& local) const {
  return cells.sphere_intersects_cell_bsp(local);
}

// CCellPortal::UnPack 0x0053BAB0
CellPortal CellPortal::unpack(const dat::CellPortal& p, std::uint32_t block_mask, const CellStructPhysics& structure) {
  CellPortal out;
  out.portal_side = (p.flags & 2u) == 0;
  out.other_cell_id = (p.flags & 4u) != 0 ? kOutside : (block_mask | p.other_cell_id);
  out.other_portal_id = p.other_portal_id;
  if (p.polygon_index < structure.polygons.size()) out.portal = &structure.polygons[p.polygon_index];
  return out;
}

// ---- CEnvCell -----------------------------------------------------------------------

EnvCell::EnvCell(std::uint32_t id, const Position& pos, std::shared_ptr<const CellStructPhysics> structure,
                 std::vector<CellPortal> portals)
    : ObjCell(id), pos_(pos), structure_(std::move(structure)), portals_(std::move(portals)) {}

dat::Sphere EnvCell::to_local(const CollisionSphere& s) const noexcept {
  return dat::Sphere{pos_.frame.globaltolocal(s.center), s.radius};
}

// CEnvCell::find_env_collisions 0x0052C130
TransitionState EnvCell::find_env_collisions(Transition& t) {
  TransitionState result = check_entry_restrictions(t);
  if (result != TransitionState::OK) return result;
  t.sphere_path.obstruction_ethereal = false;
  if (!structure_->physics) return result;
  t.sphere_path.cache_localspace_sphere(pos_, 1.0f);
  if (t.sphere_path.insert_type == InsertType::InitialPlacement) {
    result = structure_->physics->placement_insert(t);
  } else {
    result = structure_->physics->find_collisions(t, 1.0f);
  }
  if (result != TransitionState::OK && (t.object_info.state & object_info_state::Contact) == 0) {
    t.collision_info.collided_with_environment = true;
  }
  return result;
}

// CEnvCell::handle_move_restriction 0x0052C1C0
bool EnvCell::handle_move_restriction(Transition& /*t*/) {
  return true;
}

// CEnvCell::point_in_cell 0x0052C300
bool EnvCell::point_in_cell(const glm::vec3& block_local) const {
  if (portals_.empty()) return false;
  return structure_->point_in_cell(pos_.frame.globaltolocal(block_local));
}

// CEnvCell::find_transit_cells 0x0052C820
void EnvCell::find_transit_cells(Landscape& scape, const Position& p, std::uint32_t num_sphere,
                                 const CollisionSphere* spheres, CellArray& out, SpherePath* /*path*/) {
  bool check_outside = false;
  for (const CellPortal& portal : portals_) {
    if (portal.other_cell_id == CellPortal::kOutside) {
      // A sphere at the outside portal's plane (within its radius).
      if (portal.portal == nullptr) continue;
      for (std::uint32_t i = 0; i < num_sphere; ++i) {
        const float reach = spheres[i].radius + kEps;
        const float d = portal.portal->dist(pos_.frame.globaltolocal(spheres[i].center));
        if (d > -reach && d < reach) {
          check_outside = true;
          break;
        }
      }
      continue;
    }
    ObjCell* other = scape.cell_for(out, portal.other_cell_id);
    if (auto* env = dynamic_cast<EnvCell*>(other); env != nullptr) {
      for (std::uint32_t i = 0; i < num_sphere; ++i) {
        if (env->structure_->sphere_intersects_cell(env->to_local(spheres[i])) != 0) {
          add_cell(out, portal.other_cell_id, env);
          break;
        }
      }
      continue;
    }
    // The neighbour is not loaded: its id goes in when a sphere reaches past
    // the portal on its side.
    if (portal.portal == nullptr) continue;
    for (std::uint32_t i = 0; i < num_sphere; ++i) {
      const float reach = spheres[i].radius + kEps;
      const float d = portal.portal->dist(pos_.frame.globaltolocal(spheres[i].center));
      if ((d > -reach && portal.portal_side) || (d < reach && !portal.portal_side)) {
        add_cell(out, portal.other_cell_id, nullptr);
        break;
      }
    }
  }
  if (check_outside) scape.add_all_outside_cells(p, num_sphere, spheres, out);
}

// CEnvCell::check_building_transit 0x0052C5D0
void EnvCell::check_building_transit(int portal_id, std::uint32_t num_sphere, const CollisionSphere* spheres,
                                     CellArray& out, SpherePath* path) {
  if (portal_id < 0) return;
  for (std::uint32_t i = 0; i < num_sphere; ++i) {
    if (structure_->sphere_intersects_cell(to_local(spheres[i])) != 0) {
      if (path != nullptr) path->hits_interior_cell = true;
      add_cell(out, id(), this);
      return;
    }
  }
}

// CEnvCell::find_transit_cells 0x0052CAE0
void EnvCell::find_transit_cells(Landscape& scape, std::span<const PartBounds> parts, CellArray& out) {
  bool check_outside = false;
  for (const CellPortal& portal : portals_) {
    if (portal.portal == nullptr) continue;  // retail reads the plane without a check
    const dat::Plane& plane = portal.portal->plane;
    const int side = portal.portal_side ? 1 : 0;
    for (const PartBounds& part : parts) {
      if (!part.sphere) continue;
      const auto [dist, radius] = part_to_portal(pos_, part, plane);
      if (side == 0 ? dist > radius : dist < -radius) continue;
      const BBox box = BBox::local_to_local(part.box, part.pos, pos_);
      if (intersect_box(plane, box) == side) continue;
      if (portal.other_cell_id == CellPortal::kOutside) {
        check_outside = true;
        break;
      }
      // CCellPortal::GetOtherCell 0x0053BA30
      auto* other = dynamic_cast<EnvCell*>(scape.cell_for(out, portal.other_cell_id));
      if (other == nullptr) {
        add_cell(out, portal.other_cell_id, nullptr);
        break;
      }
      if (other->structure_->box_intersects_cell(BBox::local_to_local(part.box, part.pos, other->pos_))) {
        add_cell(out, portal.other_cell_id, other);
        break;
      }
    }
  }
  if (check_outside) scape.add_all_outside_cells(parts, out);
}

// CEnvCell::check_building_transit 0x0052C680
void EnvCell::check_building_transit(Landscape& scape, int portal_id, std::span<const PartBounds> parts,
                                     CellArray& out) {
  if (portal_id < 0 || static_cast<std::size_t>(portal_id) >= portals_.size()) return;
  const CellPortal& portal = portals_[static_cast<std::size_t>(portal_id)];
  if (portal.portal == nullptr) return;
  const dat::Plane& plane = portal.portal->plane;
  const int side = portal.portal_side ? 1 : 0;
  for (const PartBounds& part : parts) {
    if (!part.sphere) continue;
    const auto [dist, radius] = part_to_portal(pos_, part, plane);
    if (side == 1 ? dist > radius : dist < -radius) continue;
    const BBox box = BBox::local_to_local(part.box, part.pos, pos_);
    const int where = intersect_box(plane, box);
    if (where != 3 && where != side) continue;
    if (structure_->box_intersects_cell(box)) {
      add_cell(out, id(), this);
      find_transit_cells(scape, parts, out);
      return;
    }
  }
}

// CEnvCell::grab_visible_cells 0x0052E220
void EnvCell::grab_visible_cells(Landscape& scape) {
  scape.add_visible_cell(id());
  scape.grab_visible(stab_list_);
  if (seen_outside_) scape.grab_visible_cells();
}

// CEnvCell::release_cells 0x0052E280 (the portals' cached cell pointers
// retail clears are not kept here).
void EnvCell::release_cells(Landscape& scape) {
  // Released, the cell waits for flush_cells: it is not freed here.
  const std::uint32_t self[] = {id()};
  scape.release_visible(self);
  scape.release_visible(stab_list_);
  if (seen_outside_) scape.release_visible_cells();
}

}  // namespace dereth::sim
