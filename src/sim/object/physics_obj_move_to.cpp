// PhysicsObj, the MoveTo part: CPhysicsObj's side of the MoveToManager
// (RE cphysobj/CPhysicsObj.c; the manager is motion/move_to_manager.cpp).
// physics_obj.hpp lists the other parts.
#include <cmath>
#include <limits>

#include "dereth/sim/motion/motion_command.hpp"
#include "dereth/sim/motion/motion_interp.hpp"
#include "dereth/sim/motion/move_to_manager.hpp"
#include "dereth/sim/motion/movement_error.hpp"
#include "dereth/sim/motion/position_manager.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

// --- CPhysicsObj's side of the MoveToManager ------------------------------------

// CPhysicsObj::motions_pending 0x0050EAB0
bool PhysicsObj::motions_pending() const {
  return movement_manager_ && movement_manager_->motions_pending();
}

// CPhysicsObj::IsMovingTo 0x0050EB10
bool PhysicsObj::is_moving_to() const {
  return movement_manager_ && movement_manager_->is_moving_to();
}

// The movement-manager creation MoveToObject_Internal 0x005102E0,
// TurnToObject_Internal 0x005103F0 and TurnToHeading 0x00512980 share
// (MakeMovementManager with the default state), then PerformMovement.
void PhysicsObj::perform_move_to(const MovementStruct& mvs) {
  make_movement_manager(true);
  if (movement_manager_) movement_manager_->perform_movement_struct(mvs);
}

// CPhysicsObj::MoveToObject_Internal 0x005102E0
void PhysicsObj::move_to_object_internal(std::uint32_t object_id, std::uint32_t top_level_id, float object_radius,
                                         float object_height, const MovementParameters& params) {
  MovementStruct mvs;
  mvs.type = MovementKind::MoveToObject;
  mvs.object_id = object_id;
  mvs.top_level_id = top_level_id;
  mvs.radius = object_radius;
  mvs.height = object_height;
  mvs.params = params;
  perform_move_to(mvs);
}

// CPhysicsObj::TurnToObject_Internal 0x005103F0
void PhysicsObj::turn_to_object_internal(std::uint32_t object_id, std::uint32_t top_level_id,
                                         const MovementParameters& params) {
  MovementStruct mvs;
  mvs.type = MovementKind::TurnToObject;
  mvs.object_id = object_id;
  mvs.top_level_id = top_level_id;
  mvs.params = params;
  perform_move_to(mvs);
}

// CPhysicsObj::TurnToHeading 0x00512980
void PhysicsObj::turn_to_heading(const MovementParameters& params) {
  MovementStruct mvs;
  mvs.type = MovementKind::TurnToHeading;
  mvs.params = params;
  perform_move_to(mvs);
}

// CPhysicsObj::MoveToObject 0x00512860: the movement manager is made even
// when the object is unknown.
void PhysicsObj::move_to_object(std::uint32_t object_id, const MovementParameters& params) {
  make_movement_manager(true);
  const PhysicsObj* object = get_object(*context_, object_id);
  if (object == nullptr) return;
  const float height = object->get_height();
  const float radius = object->get_radius();
  const PhysicsObj* top_level = object->parent_ != nullptr ? object->parent_ : object;
  move_to_object_internal(object_id, top_level->id_, radius, height, params);
}

// CPhysicsObj::TurnToObject 0x00512940
void PhysicsObj::turn_to_object(std::uint32_t object_id, const MovementParameters& params) {
  const PhysicsObj* object = get_object(*context_, object_id);
  if (object == nullptr) return;
  const PhysicsObj* top_level = object->parent_ != nullptr ? object->parent_ : object;
  turn_to_object_internal(object_id, top_level->id_, params);
}

}  // namespace dereth::sim
