// CObjCell's shadow list and object test (spec/physics.md sections 5.7 and
// 5.8; RE ccell/CObjCell.c).
#include "dereth/sim/collision/obj_cell.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include <glm/geometric.hpp>

#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/collision/reach.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/part_array.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

namespace {

namespace ps = protocol::physics_state;

// Slack on the reach test, in metres: far above the rounding of the exact
// tests it stands in front of (a few ulps of coordinates under 200 m).
constexpr float kReachSlack = 0.5f;

// The mover's half of the bound of reach.hpp, computed once for a search
// of a cell's objects (and again after an object's full test, which may move
// the path's spheres): the spheres the tests read (the foot always, the head
// when there are two), each radius doubled, and the cell the path checks.
struct MoverReach {
  explicit MoverReach(const SpherePath& path) noexcept
      : count(path.num_sphere > 1 ? 2 : 1), check_cell(path.check_pos.objcell_id), check_block(check_cell >> 16) {
    for (std::size_t i = 0; i < count; ++i) {
      center[i] = path.global_sphere[i].center;
      twice_radius[i] = 2.0f * std::fabs(path.global_sphere[i].radius);
    }
  }

  std::size_t count;
  std::uint32_t check_cell;
  std::uint32_t check_block;
  std::array<glm::vec3, 2> center{};
  std::array<float, 2> twice_radius{};
};

// The object's half of the bound (shapes_reach).
[[gnu::always_inline]] inline float reach_of(std::span<const dat::Sphere> spheres,
                                             std::span<const dat::CylSphere> cylinders, float scale) {
  float reach = 0.0f;
  // A sphere's centre distance bounded by the sum of its coordinates'
  // magnitudes (never less; equal for a centre on an axis, as a creature's
  // are): no square root waits in the chain of every object tested.
  for (const dat::Sphere& s : spheres) {
    reach = std::max(reach, std::fabs(s.center.x) + std::fabs(s.center.y) + std::fabs(s.center.z) + s.radius);
  }
  for (const dat::CylSphere& c : cylinders) {
    reach = std::max(reach, std::sqrt(glm::dot(c.origin, c.origin)) + c.radius + c.height);
  }
  return reach * std::fabs(scale);
}

// beyond_reach with both halves of the bound precomputed: whether every
// sphere of the mover is farther from the object's origin than their reaches
// and the slack together. A NaN reach is never beyond.
[[gnu::always_inline]] inline bool beyond(const MoverReach& mover, float reach, const Position& where) {
  glm::vec3 origin = where.frame.origin;
  if (mover.check_block != (where.objcell_id >> 16)) [[unlikely]] {
    origin += block_offset(mover.check_cell, where.objcell_id);
  }
  const auto out_of_reach = [&](std::size_t i) {
    const float r = reach + mover.twice_radius[i] + kReachSlack;
    const glm::vec3 d = mover.center[i] - origin;
    return d.x * d.x + d.y * d.y + d.z * d.z > r * r;
  };
  // The foot, then the head when there is one (no loop to count).
  return out_of_reach(0) && (mover.count == 1 || out_of_reach(1));
}

// Whether CPhysicsObj::FindObjCollisions on `obj` is certain to change
// nothing and return OK: no obstruction flag raised on entry (the call
// raises and clears its own), no physics BSP or cylinder (whose tests have
// lasting effects or bounds of their own), and the spheres out of reach.
// The object's reach is its cached sphere_reach (negative when it has
// cylinders or no part array), read beside its position and state, so an
// object passed over costs one cache line of the object; `mover` is made
// when first needed.
[[gnu::always_inline]] inline bool test_changes_nothing(const PhysicsObj& obj, const Transition& t,
                                                        std::optional<MoverReach>& mover) {
  if (t.sphere_path.obstruction_ethereal || (obj.state() & ps::HasPhysicsBsp) != 0) return false;
  const float reach = obj.sphere_reach();
  if (!(reach >= 0.0f)) return false;
  if (!mover) mover.emplace(t.sphere_path);
  return beyond(*mover, reach, obj.position());
}

}  // namespace

// The bound of reach.hpp: each shape's centre distance (for a sphere, the
// sum of the centre's coordinates' magnitudes) plus its radius (and height,
// for a cylinder), every sphere of the mover counted twice over.
bool beyond_reach(std::span<const dat::Sphere> spheres, std::span<const dat::CylSphere> cylinders, float scale,
                  const Position& where, const SpherePath& path) {
  return beyond(MoverReach(path), reach_of(spheres, cylinders, scale), where);
}

float shapes_reach(std::span<const dat::Sphere> spheres, std::span<const dat::CylSphere> cylinders,
                   float scale) noexcept {
  return reach_of(spheres, cylinders, scale);
}

// ---- CObjCell ---------------------------------------------------------------------

// CObjCell::add_shadow_object 0x0052B280
void ObjCell::add_shadow_object(ShadowObj& object) {
  shadows_.push_back(&object);
  shadow_physobjs_.push_back(object.physobj);
  object.cell = this;
}

// CObjCell::remove_shadow_object 0x0052B2D0
void ObjCell::remove_shadow_object(ShadowObj& object) {
  const auto it = std::find(shadows_.begin(), shadows_.end(), &object);
  if (it == shadows_.end()) return;
  object.cell = nullptr;
  const auto i = static_cast<std::size_t>(it - shadows_.begin());
  *it = shadows_.back();
  shadows_.pop_back();
  shadow_physobjs_[i] = shadow_physobjs_.back();
  shadow_physobjs_.pop_back();
}

std::vector<PhysicsObj*> ObjCell::objects() const {
  std::vector<PhysicsObj*> standing;
  for (const ShadowObj* s : shadows_) {
    PhysicsObj* obj = s->physobj;
    if (obj == nullptr || obj->cell() != this) continue;
    if (std::find(standing.begin(), standing.end(), obj) == standing.end()) standing.push_back(obj);
  }
  return standing;
}

// CObjCell::release_objects 0x0052B490
void ObjCell::release_objects() {
  // The cell's objects, found before their shadows leave.
  const std::vector<PhysicsObj*> standing = objects();
  while (!shadows_.empty()) remove_shadow_object(*shadows_.back());
  // CObjectMaint::ReleaseObjCell 0x00507BB0: neither static nor parented.
  for (PhysicsObj* obj : standing) {
    if ((obj->state() & protocol::physics_state::Static) == 0 && obj->parent() == nullptr) obj->leave_visibility();
  }
}

// CObjCell::find_obj_collisions 0x0052B750: every shadow object that is not
// parented and is not the mover; none at all for INITIAL_PLACEMENT.
TransitionState ObjCell::find_obj_collisions(Transition& t) {
  TransitionState result = TransitionState::OK;
  if (t.sphere_path.insert_type == InsertType::InitialPlacement) return result;
  // The list may not change under the test (a hit only records objects).
  std::optional<MoverReach> mover;
  // Each shadow's object from the cell's own copy (shadow_physobjs_), not
  // through the shadow: one cache line less an object.
  const PhysicsObj* const self = t.object_info.object;
  for (std::size_t i = 0; i < shadow_physobjs_.size(); ++i) {
    PhysicsObj* obj = shadow_physobjs_[i];
    if (obj == nullptr || obj == self || obj->parent() != nullptr) continue;
    // Not a deviation: the objects a test would change nothing for, found
    // cheaply first (the same shadows are searched, in the same order).
    if (test_changes_nothing(*obj, t, mover)) continue;
    result = obj->find_obj_collisions(t);
    mover.reset();  // the test may have moved the path's spheres
    if (result != TransitionState::OK) break;
  }
  return result;
}

// CObjCell::check_collisions 0x0052B7B0
bool ObjCell::check_collisions(PhysicsObj& object) {
  for (std::size_t i = 0; i < shadows_.size(); ++i) {
    PhysicsObj* other = shadows_[i]->physobj;
    if (other == nullptr || other->parent() != nullptr || other == &object) continue;
    if (other->check_collision(object)) return true;
  }
  return false;
}

// CObjCell::check_entry_restrictions 0x0052B6D0
TransitionState ObjCell::check_entry_restrictions(Transition& t) {
  PhysicsObj* mover = t.object_info.object;
  if (mover == nullptr) return TransitionState::Collided;
  if (!mover->weenie()) return TransitionState::OK;
  const bool bypass = mover->weenie_can_bypass_move_restrictions();
  if ((t.object_info.state & object_info_state::IsPlayer) == 0 || restriction_obj_ == 0 || bypass) {
    return TransitionState::OK;
  }
  // CPhysicsObj::GetObjectA 0x0050F490
  const PhysicsObj* house = PhysicsObj::get_object(mover->context(), restriction_obj_);
  if (house == nullptr || !house->weenie()) return TransitionState::Collided;
  if (!house->weenie_can_move_into(mover)) {
    handle_move_restriction(t);
    return TransitionState::Collided;
  }
  return TransitionState::OK;
}

// The cell's find_collisions: a plain object cell has no environment of its
// own (CLandCell and CEnvCell add terrain and the cell BSP).
TransitionState ObjCell::find_collisions(Transition& t) {
  const TransitionState env = find_env_collisions(t);
  if (env != TransitionState::OK) return env;
  return find_obj_collisions(t);
}

}  // namespace dereth::sim
