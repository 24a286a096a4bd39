// PhysicsObj, the targets part: CPhysicsObj's side of the TargetManager and
// its voyeurs (RE cphysobj/CPhysicsObj.c; the manager is
// motion/target_manager.cpp). physics_obj.hpp lists the other parts.
#include <cmath>
#include <vector>

#include "dereth/sim/motion/target_manager.hpp"
#include "dereth/sim/object/object_maint.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

// --- CPhysicsObj's side of the TargetManager ------------------------------------

// CPhysicsObj::GetObjectA 0x0050F490
PhysicsObj* PhysicsObj::get_object(const SimContext& context, std::uint32_t object_id) {
  return context.obj_maint != nullptr ? context.obj_maint->get_object(object_id) : nullptr;
}

// CPhysicsObj::set_target 0x0050ED30
void PhysicsObj::set_target(std::uint32_t context_id, std::uint32_t object_id, float radius, double quantum) {
  if (!target_manager_) target_manager_ = std::make_unique<TargetManager>(*this);
  target_manager_->set_target(context_id, object_id, radius, quantum);
}

// CPhysicsObj::clear_target 0x0050ED90
void PhysicsObj::clear_target() {
  if (target_manager_) target_manager_->clear_target();
}

// CPhysicsObj::set_target_quantum 0x0050EDA0
void PhysicsObj::set_target_quantum(double new_quantum) {
  if (target_manager_) target_manager_->set_target_quantum(new_quantum);
}

// CPhysicsObj::get_target_quantum 0x0050EDC0
double PhysicsObj::get_target_quantum() const {
  if (target_manager_ && target_manager_->target_info()) return target_manager_->target_info()->quantum;
  return 0.0;
}

// CPhysicsObj::receive_target_update 0x0050EDE0
void PhysicsObj::receive_target_update(const TargetInfo& info) {
  if (target_manager_) target_manager_->receive_update(info);
}

// CPhysicsObj::add_voyeur 0x0050EE00
void PhysicsObj::add_voyeur(std::uint32_t object_id, float radius, double quantum) {
  if (!target_manager_) target_manager_ = std::make_unique<TargetManager>(*this);
  target_manager_->add_voyeur(object_id, radius, quantum);
}

// CPhysicsObj::remove_voyeur 0x0050EE50
bool PhysicsObj::remove_voyeur(std::uint32_t object_id) {
  return target_manager_ && target_manager_->remove_voyeur(object_id);
}

}  // namespace dereth::sim
