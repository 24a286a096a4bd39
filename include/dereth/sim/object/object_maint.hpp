#pragma once
// ObjectMaint (retail CObjectMaint): the object table keyed by server GUID,
// the canonical local id of each GUID, and the pending blob queues.
//
// Pending queues (CObjectMaint::QueueBlobForObject 0x005092D0): a message for
// a GUID with no object is held on a placeholder (retail's "null object") that
// is destroyed 25 s after the last message queued on it unless the object
// appears first; a message for a future generation of a live object is held
// on that object and, as in retail, is discarded with it when that generation
// is destroyed (docs/sim.md, "Pending queues"). Both are capped:
// kMaxQueuedPerObject per GUID and kMaxQueuedTotal overall; a message that
// would exceed either is refused and counted.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <unordered_map>
#include <vector>

#include "dereth/core/clock.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

class ObjCell;
class PhysicsObj;
class SimContext;

struct PendingStats {
  std::uint64_t queued = 0;                     // messages accepted into a pending queue
  std::uint64_t replayed = 0;                   // messages taken back out and dispatched
  std::uint64_t dropped_full = 0;               // refused: a cap was reached
  std::uint64_t expired = 0;                    // discarded: the GUID never appeared within 25 s
  std::uint64_t discarded_with_generation = 0;  // held on a generation that was then destroyed
};

class ObjectMaint {
 public:
  static constexpr std::size_t kMaxQueuedPerObject = 256;
  static constexpr std::size_t kMaxQueuedTotal = 8192;
  // CObjectMaint::AddObjectToBeDestroyed 0x00508F70: now + 25 s.
  static constexpr core::Seconds kNullObjectLifetime{25.0};

  // Registers itself as the context's CPhysicsObj::obj_maint.
  explicit ObjectMaint(SimContext& context) noexcept;
  ObjectMaint(const ObjectMaint&) = delete;
  ObjectMaint& operator=(const ObjectMaint&) = delete;
  ~ObjectMaint();

  // CObjectMaint::GetObjectA 0x00507D60
  [[nodiscard]] PhysicsObj* get_object(std::uint32_t guid) const noexcept;
  // The GUID's canonical local id, or None when it has never materialised.
  [[nodiscard]] LocalId local_id(std::uint32_t guid) const noexcept;
  // The GUID's local id, issuing the next one the first time (never reused).
  LocalId assign_local_id(std::uint32_t guid);

  // CObjectMaint::AddObject 0x00507CE0; the object's GUID must be free.
  PhysicsObj& add_object(std::unique_ptr<PhysicsObj> object);
  // CObjectMaint::DeleteObject 0x00508460: exit and leave the world, unparent,
  // destroy; anything held on that generation is discarded (and counted).
  void delete_object(std::uint32_t guid);

  // CObjectMaint::QueueBlobForObject 0x005092D0: false when a cap refused it.
  bool queue_blob_for_object(std::uint32_t guid, const protocol::Message& message);
  // Takes the GUID's held messages, in arrival order, leaving none.
  [[nodiscard]] std::deque<protocol::Message> take_pending(std::uint32_t guid);
  [[nodiscard]] std::size_t pending_count(std::uint32_t guid) const noexcept;
  [[nodiscard]] std::size_t pending_total() const noexcept { return pending_total_; }
  // Placeholders currently holding messages for absent GUIDs.
  [[nodiscard]] std::size_t null_object_count() const noexcept;
  void note_replayed(std::size_t count) noexcept { stats_.replayed += count; }

  // CObjectMaint::UseTime 0x005089B0: destroys the objects whose
  // destruction time is past (the destruction queue, in time order) and the
  // placeholders whose 25 s ran out.
  void use_time();

  // The lost cells (CObjectMaint::lost_cell_table): an object that left
  // visibility waits, by the id of the cell it stood in, for that cell to
  // load again.
  // CObjectMaint::GotoLostCell 0x00508210: the object (not parented) takes
  // the cell id and joins that lost cell.
  void goto_lost_cell(PhysicsObj& object, std::uint32_t new_cell_id);
  // CObjectMaint::RemoveFromLostCell 0x00507FB0: an object with no cell and
  // no parent leaves the lost cell of its position's cell id.
  void remove_from_lost_cell(PhysicsObj& object);
  // CObjectMaint::InitObjCell 0x00508260 (the cell has loaded): its lost
  // cell goes, and each object in it re-enters visibility
  // (CPhysicsObj::reenter_visibility 0x00516250).
  void init_obj_cell(const ObjCell& cell);
  // The objects waiting in the lost cell of `cell_id`, in retail's order.
  [[nodiscard]] std::vector<PhysicsObj*> lost_cell_objects(std::uint32_t cell_id) const;

  // The destruction queue (CObjectMaint::destruction_object_table and
  // object_destruction_queue).
  // CObjectMaint::AddObjectToBeDestroyed 0x00508F70: destroyed at now + 25 s
  // unless taken off first (a second call restarts the 25 s).
  void add_object_to_be_destroyed(std::uint32_t object_id);
  // CObjectMaint::RemoveObjectToBeDestroyed 0x00508440
  void remove_object_to_be_destroyed(std::uint32_t object_id);
  // The time the object is to be destroyed at, or none.
  [[nodiscard]] std::optional<core::Seconds> destruction_time(std::uint32_t object_id) const;

  // Live objects in local-id order (the deterministic tick order).
  [[nodiscard]] const std::vector<PhysicsObj*>& objects() const noexcept { return ordered_; }
  [[nodiscard]] std::size_t object_count() const noexcept { return ordered_.size(); }
  [[nodiscard]] const PendingStats& stats() const noexcept { return stats_; }

 private:
  struct Pending {
    std::deque<protocol::Message> blobs;
    core::Seconds destroy_at{0.0};
    bool for_absent_object = true;
  };

  SimContext* context_;
  std::unordered_map<std::uint32_t, std::unique_ptr<PhysicsObj>> objects_;
  std::vector<PhysicsObj*> ordered_;
  std::unordered_map<std::uint32_t, LocalId> local_ids_;
  std::uint32_t next_local_id_ = 1;
  std::unordered_map<std::uint32_t, Pending> pending_;
  std::size_t pending_total_ = 0;
  PendingStats stats_;
  std::unordered_map<std::uint32_t, std::vector<PhysicsObj*>> lost_cells_;  // by cell id
  std::unordered_map<std::uint32_t, core::Seconds> destruction_;            // object id -> time
  // (time, object id), earliest first; an entry whose time no longer
  // matches the table's is stale and skipped.
  using Destruction = std::pair<core::Seconds, std::uint32_t>;
  std::priority_queue<Destruction, std::vector<Destruction>, std::greater<>> destruction_queue_;
};

}  // namespace dereth::sim
