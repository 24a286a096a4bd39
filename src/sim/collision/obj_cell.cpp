// CObjCell's shadow list and object test (spec/physics.md sections 5.7 and
// 5.8; RE ccell/CObjCell.c).
#include "dereth/sim/collision/obj_cell.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

// ---- CObjCell ---------------------------------------------------------------------

// CObjCell::add_shadow_object 0x0052B280
void ObjCell::add_shadow_object(ShadowObj& object) {
  shadows_.push_back(&object);
  object.cell = this;
}

// CObjCell::remove_shadow_object 0x0052B2D0
void ObjCell::remove_shadow_object(ShadowObj& object) {
  const auto it = std::find(shadows_.begin(), shadows_.end(), &object);
  if (it == shadows_.end()) return;
  object.cell = nullptr;
  *it = shadows_.back();
  shadows_.pop_back();
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
  for (std::size_t i = 0; i < shadows_.size(); ++i) {
    PhysicsObj* obj = shadows_[i]->physobj;
    if (obj == nullptr || obj->parent() != nullptr || obj == t.object_info.object) continue;
    result = obj->find_obj_collisions(t);
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
