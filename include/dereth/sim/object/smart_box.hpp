#pragma once
// SmartBox: every inbound object, physics and effect message lands here under
// retail's freshness rules (seed retail-projectile-vfx sections 3, 3.1 and 4).
// Each handled message yields a Verdict; a TraceSink sees one MessageRecord
// per message, replays included.

#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/protocol/house.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/object/object_maint.hpp"
#include "dereth/sim/object/physics.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/verdict.hpp"

namespace dereth::sim {

class CellManager;
class PhysicsObj;
class SimContext;

struct HandleResult {
  Verdict verdict = Verdict::Ignored;
  LocalId local_id = LocalId::None;
};

// The decoded PositionPack as HandleReceivedPosition consumes it: absent
// placement and velocity are zero (PositionPack::UnPack 0x00516740).
struct ReceivedPosition {
  Position position;
  std::uint32_t placement_id = 0;
  bool has_contact = false;
  glm::vec3 velocity{0.0f};
  std::uint16_t position_ts = 0;
  std::uint16_t teleport_ts = 0;
  std::uint16_t force_position_ts = 0;
};
[[nodiscard]] ReceivedPosition received_position(const protocol::PositionPack& pack) noexcept;

struct SmartBoxStats {
  std::uint64_t messages = 0;  // messages handled, replays included
  std::uint64_t queued_before_player = 0;
  std::uint64_t dropped_before_player = 0;  // refused: the pre-player queue was full
  std::uint64_t position_error_count = 0;   // retail error_count: stale Position with a newer Teleport
};

class SmartBox {
 public:
  // Messages held until PlayerCreate arrives (ACSmartBox::IsReadyToDispatchEvent 0x00559590).
  static constexpr std::size_t kMaxQueuedBeforePlayer = 4096;

  explicit SmartBox(SimContext& context);
  SmartBox(const SmartBox&) = delete;
  SmartBox& operator=(const SmartBox&) = delete;
  ~SmartBox();

  // ACSmartBox::DispatchSmartBoxEvent 0x005595D0: the one entry point. Held
  // messages that become dispatchable are replayed before it returns.
  HandleResult handle(const protocol::Message& message);

  // SmartBox::UseTime 0x00455410: with a cell manager, while it is
  // blocking_for_cells only its prefetch is checked
  // (CellManager::CheckPrefetchStatus) and nothing else runs; otherwise the
  // grid moves on when cells came (UpdateLoadPoint), the player's position
  // goes to the cell manager (ChangePosition, not blocking), then teleport
  // completion, the pending-queue expiry (CObjectMaint::UseTime) and the
  // physics tick (CPhysics::UseTime).
  void use_time();

  // --- the handlers, as retail names them ----------------------------------
  // SmartBox::HandleCreateObject 0x00454C80 (UpdateObject 0x00455580 recreates)
  HandleResult handle_create_object(const protocol::CreateObject& message, bool force_recreate);
  // SmartBox::HandleCreatePlayer 0x00455110
  HandleResult handle_create_player(const protocol::PlayerCreate& message);
  // SmartBox::HandleDeleteObject 0x00451EA0
  HandleResult handle_delete_object(const protocol::DeleteObject& message);
  // SmartBox::HandleObjDescEvent 0x00453340
  HandleResult handle_obj_desc_event(const protocol::ObjDescEvent& message);
  // SmartBox::HandleSetState 0x004533E0
  HandleResult handle_set_state(const protocol::SetState& message);
  // SmartBox::HandleVectorUpdate 0x00453480
  HandleResult handle_vector_update(const protocol::VectorUpdate& message);
  // ACSmartBox::DispatchSmartBoxEvent 0x005595D0, the F74C branch
  HandleResult handle_movement(const protocol::MovementEvent& message);
  // SmartBox::HandlePickupEvent 0x00453530
  HandleResult handle_pickup_event(const protocol::PickupEvent& message);
  // SmartBox::HandleParentEvent 0x004535D0
  HandleResult handle_parent_event(const protocol::ParentEvent& message);
  // SmartBox::UnpackPositionEvent 0x004542C0
  HandleResult unpack_position_event(const protocol::UpdatePosition& message);
  // SmartBox::HandlePlayScriptID 0x00452020
  HandleResult handle_play_script_id(const protocol::PlayScriptId& message);
  // SmartBox::HandlePlayScriptType 0x00452070
  HandleResult handle_play_script_type(const protocol::PlayScriptType& message);
  // SmartBox::HandlePlayerTeleport 0x00452150
  HandleResult handle_player_teleport(const protocol::PlayerTeleport& message);
  // ClientHousingSystem::Handle_House__Recv_UpdateRestrictions 0x005859E0
  // (F7B0 0x0248): the object's weenie takes the new RestrictionDB
  // (ACCWeenieObject::SetRestrictions 0x005858A0) when its house stamp lets
  // it (ACCWeenieObject::UpdateHouseRestrictionTS 0x0058CB50); nothing for
  // object 0, the player, an object not in the table or without a weenie.
  // True when applied.
  bool handle_update_restrictions(const protocol::UpdateRestrictions& message);

  // --- the channel appliers (exact Instance already checked) ----------------
  // SmartBox::DoSetState 0x004520D0
  Verdict do_set_state(PhysicsObj& object, std::uint32_t state, std::uint16_t state_ts);
  // SmartBox::DoVectorUpdate 0x004521C0
  Verdict do_vector_update(PhysicsObj& object, const glm::vec3& velocity, const glm::vec3& omega,
                           std::uint16_t vector_ts);
  // SmartBox::DoPickupEvent 0x00452240
  Verdict do_pickup_event(PhysicsObj& object, std::uint16_t position_ts);
  // SmartBox::DoParentEvent 0x00452290
  Verdict do_parent_event(PhysicsObj& child, PhysicsObj& parent, std::uint32_t child_location,
                          std::uint32_t placement_id, std::uint16_t position_ts);
  // SmartBox::UpdateVisualDesc 0x00451F40
  Verdict update_visual_desc(PhysicsObj& object, const protocol::ObjDesc& desc, std::uint16_t desc_ts);
  // SmartBox::HandleReceivedPosition 0x00453FD0
  Verdict handle_received_position(PhysicsObj& object, const ReceivedPosition& received);
  // CPhysics::SetObjectMovement 0x00509690
  Verdict set_object_movement(PhysicsObj& object, const protocol::MovementData& data, std::uint16_t movement_ts,
                              std::uint16_t server_control_ts, bool autonomous);

  // --- queries -------------------------------------------------------------
  [[nodiscard]] PhysicsObj* get_object(std::uint32_t guid) const noexcept { return objects_.get_object(guid); }
  [[nodiscard]] LocalId local_id(std::uint32_t guid) const noexcept { return objects_.local_id(guid); }
  [[nodiscard]] std::uint32_t player_id() const noexcept { return player_id_; }
  [[nodiscard]] PhysicsObj* player() const noexcept { return player_; }
  // SmartBox::is_player_outside 0x00451E80: the player's cell is a land cell.
  [[nodiscard]] bool is_player_outside() const noexcept;
  // SmartBox::convert_to_player_space 0x00452DA0: `object`'s origin in the
  // player's frame; none without a player or with the object in no cell.
  [[nodiscard]] std::optional<glm::vec3> convert_to_player_space(const PhysicsObj& object) const noexcept;
  // SmartBox::teleport_in_progress 0x00451C20
  [[nodiscard]] bool teleport_in_progress() const noexcept { return player_ != nullptr && !position_update_complete_; }
  [[nodiscard]] bool waiting_for_teleport() const noexcept { return waiting_for_teleport_; }
  [[nodiscard]] bool has_been_teleported() const noexcept { return has_been_teleported_; }
  // SmartBox::teleport_occured 0x00451C40: whether a teleport (or world
  // entry) completed since the last call; the flag is cleared by asking.
  bool teleport_occured() noexcept { return std::exchange(has_been_teleported_, false); }
  [[nodiscard]] std::size_t queued_before_player() const noexcept { return before_player_.size(); }
  [[nodiscard]] const SmartBoxStats& stats() const noexcept { return stats_; }
  [[nodiscard]] ObjectMaint& objects() noexcept { return objects_; }
  [[nodiscard]] const ObjectMaint& objects() const noexcept { return objects_; }
  [[nodiscard]] Physics& physics() noexcept { return physics_; }
  [[nodiscard]] const Physics& physics() const noexcept { return physics_; }
  [[nodiscard]] SimContext& context() const noexcept { return *context_; }

  // Not owned; nullptr stops tracing.
  void set_trace_sink(TraceSink* sink) noexcept { trace_ = sink; }
  // SmartBox::cell_manager: told of the player's position at its
  // CreateObject and whenever it is moved for it (PlayerPositionUpdated),
  // blocking at a teleport. Not owned; null (the default) for none.
  void set_cell_manager(CellManager* manager) noexcept { cell_manager_ = manager; }

 private:
  HandleResult dispatch(const protocol::Message& message);
  HandleResult queue(std::uint32_t guid, const protocol::Message& message, Verdict verdict);
  // The Instance gate the per-object channels share, then `apply`.
  template <class Msg, class Apply>
  HandleResult gated(std::uint32_t guid, std::uint16_t instance, const Msg& message, Apply apply);
  void record(const protocol::Message& message, const HandleResult& result, bool replayed);
  void drain_replays();
  // SmartBox::ProcessObjectNetBlobs 0x00454B20 / ProcessNetBlobs 0x00454A70
  void process_object_net_blobs(std::uint32_t guid);
  void process_net_blobs();
  PhysicsObj* create_object(const protocol::CreateObject& message, std::uint32_t parent_guid);
  HandleResult route_same_instance(PhysicsObj& object, const protocol::CreateObject& message, PhysicsObj* parent);
  // SmartBox::init_player 0x00453C80
  void init_player(PhysicsObj& object);
  // SmartBox::TeleportPlayer 0x00453910 (`contact`: the packet's flag, for
  // the no-data landing N4)
  void teleport_player(const Position& p, bool contact);
  // SmartBox::BlipPlayer 0x00453940
  void blip_player(const Position& p);
  // SmartBox::PlayerPositionUpdated 0x00453870
  void player_position_updated(bool teleporting);
  void forget_object(PhysicsObj& object) noexcept;

  SimContext* context_;
  ObjectMaint objects_;
  Physics physics_;
  TraceSink* trace_ = nullptr;
  CellManager* cell_manager_ = nullptr;
  std::uint32_t player_id_ = 0;
  PhysicsObj* player_ = nullptr;
  bool position_update_complete_ = false;
  bool waiting_for_teleport_ = false;
  bool has_been_teleported_ = false;
  std::deque<protocol::Message> before_player_;
  // Replays run from an explicit stack (depth-first, as retail's nested
  // ProcessObjectNetBlobs), so a long chain cannot exhaust the call stack.
  struct ReplayFrame {
    std::deque<protocol::Message> blobs;
  };
  std::vector<ReplayFrame> replay_stack_;
  bool draining_ = false;
  SmartBoxStats stats_;
};

}  // namespace dereth::sim
