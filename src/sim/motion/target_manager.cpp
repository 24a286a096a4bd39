#include "dereth/sim/motion/target_manager.hpp"

#include <cmath>
#include <vector>

#include "dereth/sim/object/object_maint.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

// TargetManager::SetTarget 0x0051AC30
void TargetManager::set_target(std::uint32_t context_id, std::uint32_t object_id, float radius, double quantum) {
  if (target_info_) {
    if (PhysicsObj* old = PhysicsObj::get_object(physobj_->context(), target_info_->object_id)) {
      old->remove_voyeur(physobj_->id());
    }
    target_info_.reset();
  }
  if (object_id == 0) {
    TargetInfo failed;
    failed.context_id = context_id;
    failed.object_id = 0;
    failed.status = target_status::TimedOut;
    physobj_->handle_update_target(failed);
    return;
  }
  TargetInfo info;
  info.context_id = context_id;
  info.object_id = object_id;
  info.radius = radius;
  info.quantum = quantum;
  info.last_update_time = physobj_->context().now().count();
  target_info_ = info;
  // The target answers at once (AddVoyeur sends its position), which may
  // reach this object's HandleUpdateTarget before SetTarget returns.
  if (PhysicsObj* target = PhysicsObj::get_object(physobj_->context(), object_id)) {
    target->add_voyeur(physobj_->id(), radius, quantum);
  }
}

// TargetManager::ClearTarget 0x0051A7E0
void TargetManager::clear_target() {
  if (!target_info_) return;
  if (PhysicsObj* target = PhysicsObj::get_object(physobj_->context(), target_info_->object_id)) {
    target->remove_voyeur(physobj_->id());
  }
  target_info_.reset();
}

// TargetManager::SetTargetQuantum 0x0051A4A0: the target is asked again
// (AddVoyeur on a known voyeur updates its radius and quantum).
void TargetManager::set_target_quantum(double new_quantum) {
  if (!target_info_) return;
  target_info_->quantum = new_quantum;
  if (PhysicsObj* target = PhysicsObj::get_object(physobj_->context(), target_info_->object_id)) {
    target->add_voyeur(physobj_->id(), target_info_->radius, target_info_->quantum);
  }
}

// TargetManager::SendVoyeurUpdate 0x0051A4F0: this object's position, the
// position it is predicted at, and its velocity, to the voyeur.
void TargetManager::send_voyeur_update(TargettedVoyeurInfo& voyeur, const Position& p, std::uint32_t status) {
  voyeur.last_sent_position = p;
  TargetInfo info;
  info.context_id = 0;
  info.object_id = physobj_->id();
  info.quantum = voyeur.quantum;
  info.radius = voyeur.radius;
  info.target_position = physobj_->position();
  info.interpolated_position = p;
  info.velocity = physobj_->cached_velocity();
  info.status = status;
  const std::uint32_t voyeur_id = voyeur.object_id;
  if (PhysicsObj* watcher = PhysicsObj::get_object(physobj_->context(), voyeur_id)) {
    watcher->receive_target_update(info);
  }
}

// TargetManager::GetInterpolatedPosition 0x0051A5E0
Position TargetManager::get_interpolated_position(double quantum) const {
  Position p = physobj_->position();
  const auto q = static_cast<float>(quantum);
  p.frame.origin += q * physobj_->cached_velocity();
  return p;
}

// TargetManager::CheckAndUpdateVoyeur 0x0051A650: a voyeur hears again once
// the predicted position strays more than its radius from the last sent.
void TargetManager::check_and_update_voyeur(std::uint32_t voyeur_id) {
  const auto it = voyeurs_.find(voyeur_id);
  if (it == voyeurs_.end()) return;
  const Position p = get_interpolated_position(it->second.quantum);
  if (distance(p, it->second.last_sent_position) > it->second.radius) {
    send_voyeur_update(it->second, p, target_status::Ok);
  }
}

// TargetManager::NotifyVoyeurOfEvent 0x0051A6F0: every voyeur is told the
// event with this object's current position. A voyeur's answer may change
// the table (it clears its target): the ids are taken first.
void TargetManager::notify_voyeur_of_event(std::uint32_t status) {
  std::vector<std::uint32_t> ids;
  ids.reserve(voyeurs_.size());
  for (const auto& [id, voyeur] : voyeurs_) ids.push_back(id);
  for (const std::uint32_t id : ids) {
    const auto it = voyeurs_.find(id);
    if (it == voyeurs_.end()) continue;
    const Position p = physobj_->position();
    send_voyeur_update(it->second, p, status);
  }
}

// TargetManager::AddVoyeur 0x0051A830
void TargetManager::add_voyeur(std::uint32_t object_id, float radius, double quantum) {
  if (const auto it = voyeurs_.find(object_id); it != voyeurs_.end()) {
    it->second.radius = radius;
    it->second.quantum = quantum;
    return;
  }
  TargettedVoyeurInfo voyeur;
  voyeur.object_id = object_id;
  voyeur.radius = radius;
  voyeur.quantum = quantum;
  auto [it, inserted] = voyeurs_.emplace(object_id, voyeur);
  (void)inserted;
  const Position p = physobj_->position();
  send_voyeur_update(it->second, p, target_status::Ok);
}

// TargetManager::ReceiveUpdate 0x0051A930: a report about the current
// target is kept (stamped now) and handed on; an ExitWorld one ends the watch.
void TargetManager::receive_update(const TargetInfo& update) {
  if (!target_info_ || update.object_id != target_info_->object_id) return;
  TargetInfo& info = *target_info_;
  info.radius = update.radius;
  info.quantum = update.quantum;
  info.target_position = update.target_position;
  info.interpolated_position = update.interpolated_position;
  info.velocity = update.velocity;
  info.status = update.status;
  info.last_update_time = physobj_->context().now().count();
  glm::vec3 h = get_offset(physobj_->position(), info.interpolated_position);
  // AC1Legacy::Vector3::normalize_check_small: a tiny vector fails.
  const float length = std::sqrt(h.x * h.x + h.y * h.y + h.z * h.z);
  if (length < core::kEpsilon) {
    h = glm::vec3(0.0f, 0.0f, 1.0f);
  } else {
    h /= length;
  }
  info.interpolated_heading = h;
  const TargetInfo copy = info;  // the handlers may clear the target
  physobj_->handle_update_target(copy);
  if (update.status == target_status::ExitWorld) clear_target();
}

// TargetManager::HandleTargetting 0x0051AA90: at most every half second, an
// unanswered target times out after ten seconds and the voyeurs are checked.
void TargetManager::handle_targetting() {
  const double physics_now = physobj_->context().physics_time.count();
  if (physics_now - last_update_time_ < kUpdateInterval) return;
  if (target_info_ && target_info_->status == target_status::Undef &&
      target_info_->last_update_time + kTargetTimeout < physobj_->context().now().count()) {
    target_info_->status = target_status::TimedOut;
    const TargetInfo copy = *target_info_;
    physobj_->handle_update_target(copy);
  }
  std::vector<std::uint32_t> ids;
  ids.reserve(voyeurs_.size());
  for (const auto& [id, voyeur] : voyeurs_) ids.push_back(id);
  for (const std::uint32_t id : ids) check_and_update_voyeur(id);
  last_update_time_ = physics_now;
}

// TargetManager::RemoveVoyeur 0x0051AD90
bool TargetManager::remove_voyeur(std::uint32_t object_id) {
  return voyeurs_.erase(object_id) != 0;
}

}  // namespace dereth::sim
