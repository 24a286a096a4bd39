#include "dereth/sim/object/object_maint.hpp"

#include <algorithm>
#include <cmath>

#include "dereth/core/log.hpp"
#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

ObjectMaint::ObjectMaint(SimContext& context) noexcept : context_(&context) {
  context.obj_maint = this;
}

ObjectMaint::~ObjectMaint() {
  if (context_->obj_maint == this) context_->obj_maint = nullptr;
  // World teardown: no object may reach a destroyed sibling through a link.
  lost_cells_.clear();
  ordered_.clear();
  objects_.clear();
}

// CObjectMaint::GetObjectA 0x00507D60
PhysicsObj* ObjectMaint::get_object(std::uint32_t guid) const noexcept {
  auto it = objects_.find(guid);
  return it == objects_.end() ? nullptr : it->second.get();
}

LocalId ObjectMaint::local_id(std::uint32_t guid) const noexcept {
  auto it = local_ids_.find(guid);
  return it == local_ids_.end() ? LocalId::None : it->second;
}

LocalId ObjectMaint::assign_local_id(std::uint32_t guid) {
  auto [it, inserted] = local_ids_.try_emplace(guid, LocalId::None);
  if (inserted) it->second = static_cast<LocalId>(next_local_id_++);
  return it->second;
}

// CObjectMaint::AddObject 0x00507CE0
PhysicsObj& ObjectMaint::add_object(std::unique_ptr<PhysicsObj> object) {
  PhysicsObj* raw = object.get();
  objects_[raw->id()] = std::move(object);
  auto pos = std::lower_bound(ordered_.begin(), ordered_.end(), raw,
                              [](const PhysicsObj* a, const PhysicsObj* b) { return a->local_id() < b->local_id(); });
  ordered_.insert(pos, raw);
  // A placeholder's held messages now belong to the live object (retail
  // promotes the null object itself; ACCObjectMaint::CreateObject).
  if (auto it = pending_.find(raw->id()); it != pending_.end()) it->second.for_absent_object = false;
  return *raw;
}

// CObjectMaint::DeleteObject 0x00508460
void ObjectMaint::delete_object(std::uint32_t guid) {
  auto it = objects_.find(guid);
  if (it == objects_.end()) return;
  PhysicsObj& object = *it->second;
  object.exit_world();
  object.leave_world();
  object.unset_parent();
  object.unparent_children();
  context_->effects().object_destroyed(object);
  if (context_->player == &object) context_->player = nullptr;
  remove_object_to_be_destroyed(guid);
  // CPhysicsObj::Destroy releases anything still held on this generation.
  if (auto p = pending_.find(guid); p != pending_.end()) {
    stats_.discarded_with_generation += p->second.blobs.size();
    pending_total_ -= p->second.blobs.size();
    pending_.erase(p);
  }
  ordered_.erase(std::remove(ordered_.begin(), ordered_.end(), &object), ordered_.end());
  objects_.erase(it);
}

// CObjectMaint::QueueBlobForObject 0x005092D0
bool ObjectMaint::queue_blob_for_object(std::uint32_t guid, const protocol::Message& message) {
  const bool absent = get_object(guid) == nullptr;
  auto [it, inserted] = pending_.try_emplace(guid);
  Pending& pending = it->second;
  if (inserted) pending.for_absent_object = absent;
  if (pending.blobs.size() >= kMaxQueuedPerObject || pending_total_ >= kMaxQueuedTotal) {
    ++stats_.dropped_full;
    if (inserted) pending_.erase(it);
    core::logger(core::Module::Sim)->debug("pending queue full: dropped a message for {:#010x}", guid);
    return false;
  }
  pending.blobs.push_back(message);
  ++pending_total_;
  ++stats_.queued;
  if (absent) {
    // CObjectMaint::AddObjectToBeDestroyed 0x00508F70: each queued message
    // restarts the placeholder's 25 s.
    pending.for_absent_object = true;
    pending.destroy_at = context_->now() + kNullObjectLifetime;
  }
  return true;
}

std::deque<protocol::Message> ObjectMaint::take_pending(std::uint32_t guid) {
  auto it = pending_.find(guid);
  if (it == pending_.end()) return {};
  std::deque<protocol::Message> blobs = std::move(it->second.blobs);
  pending_total_ -= blobs.size();
  pending_.erase(it);
  return blobs;
}

std::size_t ObjectMaint::pending_count(std::uint32_t guid) const noexcept {
  auto it = pending_.find(guid);
  return it == pending_.end() ? 0 : it->second.blobs.size();
}

std::size_t ObjectMaint::null_object_count() const noexcept {
  return static_cast<std::size_t>(
      std::count_if(pending_.begin(), pending_.end(), [](const auto& p) { return p.second.for_absent_object; }));
}

// CObjectMaint::UseTime 0x005089B0
void ObjectMaint::use_time() {
  if (!context_->object_maint_active) return;
  const core::Seconds now = context_->now();
  // The destruction queue: each object whose time is strictly past, while
  // the table still holds that time for it (retail: within 0.0002 s).
  while (!destruction_queue_.empty() && destruction_queue_.top().first < now) {
    const auto [key, object_id] = destruction_queue_.top();
    destruction_queue_.pop();
    const auto it = destruction_.find(object_id);
    if (it == destruction_.end() || std::fabs((it->second - key).count()) >= 0.0002) continue;
    destruction_.erase(it);
    delete_object(object_id);
  }
  if (pending_.empty()) return;
  for (auto it = pending_.begin(); it != pending_.end();) {
    // Retail destroys an object whose destruction time is strictly past.
    if (it->second.for_absent_object && it->second.destroy_at < now) {
      stats_.expired += it->second.blobs.size();
      pending_total_ -= it->second.blobs.size();
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
}

// CObjectMaint::GotoLostCell 0x00508210
void ObjectMaint::goto_lost_cell(PhysicsObj& object, std::uint32_t new_cell_id) {
  if (object.parent() != nullptr) return;
  object.set_cell_id(new_cell_id);
  lost_cells_[object.position().objcell_id].push_back(&object);
}

// CObjectMaint::RemoveFromLostCell 0x00507FB0
void ObjectMaint::remove_from_lost_cell(PhysicsObj& object) {
  if (object.cell() != nullptr || object.parent() != nullptr) return;
  const auto it = lost_cells_.find(object.position().objcell_id);
  if (it == lost_cells_.end()) return;
  // CLostCell::remove_object 0x00507970: the last takes the removed one's place.
  std::vector<PhysicsObj*>& objects = it->second;
  const auto found = std::find(objects.begin(), objects.end(), &object);
  if (found == objects.end()) return;
  *found = objects.back();
  objects.pop_back();
}

// CObjectMaint::InitObjCell 0x00508260
void ObjectMaint::init_obj_cell(const ObjCell& cell) {
  const auto it = lost_cells_.find(cell.id());
  if (it == lost_cells_.end()) return;
  const std::vector<PhysicsObj*> objects = std::move(it->second);
  lost_cells_.erase(it);
  for (PhysicsObj* object : objects) object->reenter_visibility();
}

std::vector<PhysicsObj*> ObjectMaint::lost_cell_objects(std::uint32_t cell_id) const {
  const auto it = lost_cells_.find(cell_id);
  return it == lost_cells_.end() ? std::vector<PhysicsObj*>{} : it->second;
}

// CObjectMaint::AddObjectToBeDestroyed 0x00508F70
void ObjectMaint::add_object_to_be_destroyed(std::uint32_t object_id) {
  const core::Seconds when = context_->now() + kNullObjectLifetime;
  destruction_[object_id] = when;
  destruction_queue_.emplace(when, object_id);
}

// CObjectMaint::RemoveObjectToBeDestroyed 0x00508440 (the queue's entry
// stays, stale)
void ObjectMaint::remove_object_to_be_destroyed(std::uint32_t object_id) {
  destruction_.erase(object_id);
}

std::optional<core::Seconds> ObjectMaint::destruction_time(std::uint32_t object_id) const {
  const auto it = destruction_.find(object_id);
  if (it == destruction_.end()) return std::nullopt;
  return it->second;
}

}  // namespace dereth::sim
