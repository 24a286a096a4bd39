#include "dereth/sim/object/smart_box.hpp"

#include <type_traits>
#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/core/timestamp.hpp"
#include "dereth/sim/cells/cell_manager.hpp"
#include "dereth/sim/collision/bbox.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim {

namespace ps = protocol::physics_state;
using protocol::TimestampIndex;

namespace {

// What a trace line prints about a message: its object, the Instance it
// names and its channel stamp.
struct MessageFacts {
  std::uint32_t guid = 0;
  std::optional<std::uint16_t> instance;
  std::optional<std::uint16_t> channel;
};

MessageFacts facts_of(const protocol::Message& message, std::uint32_t player_id) {
  return std::visit(
      [player_id](const auto& m) -> MessageFacts {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, protocol::CreateObject> || std::is_same_v<T, protocol::UpdateObject>) {
          return {m.guid, m.physics.timestamp(TimestampIndex::Instance), std::nullopt};
        } else if constexpr (std::is_same_v<T, protocol::PlayerCreate>) {
          return {m.guid, std::nullopt, std::nullopt};
        } else if constexpr (std::is_same_v<T, protocol::DeleteObject>) {
          return {m.guid, m.instance_ts, std::nullopt};
        } else if constexpr (std::is_same_v<T, protocol::UpdatePosition>) {
          return {m.guid, m.position.instance_ts, m.position.position_ts};
        } else if constexpr (std::is_same_v<T, protocol::ParentEvent>) {
          return {m.child_guid, m.parent_instance_ts, m.child_position_ts};
        } else if constexpr (std::is_same_v<T, protocol::PickupEvent>) {
          return {m.guid, m.instance_ts, m.position_ts};
        } else if constexpr (std::is_same_v<T, protocol::SetState>) {
          return {m.guid, m.instance_ts, m.state_ts};
        } else if constexpr (std::is_same_v<T, protocol::MovementEvent>) {
          return {m.guid, m.instance_ts, m.movement_ts};
        } else if constexpr (std::is_same_v<T, protocol::VectorUpdate>) {
          return {m.guid, m.instance_ts, m.vector_ts};
        } else if constexpr (std::is_same_v<T, protocol::ObjDescEvent>) {
          return {m.guid, m.instance_ts, m.visual_desc_ts};
        } else if constexpr (std::is_same_v<T, protocol::PlayerTeleport>) {
          return {player_id, std::nullopt, m.teleport_ts};
        } else if constexpr (std::is_same_v<T, protocol::Sound> || std::is_same_v<T, protocol::PlayScriptId> ||
                             std::is_same_v<T, protocol::PlayScriptType>) {
          return {m.guid, std::nullopt, std::nullopt};
        } else {
          return {};
        }
      },
      message);
}

glm::vec3 vec_or_zero(const std::optional<protocol::Vec3>& v) noexcept {
  return v ? to_vec3(*v) : glm::vec3(0.0f);
}

// What OBJECTINFO and missile_ignore ask of the weenie, read from WeenieDesc:
// ItemType Creature (0x10); ObjectDescriptionFlags Player (0x8),
// PlayerKiller (0x20), PkLiteStatus (0x02000000); and what the combat
// system asks: Attackable (0x10), FreePkStatus (0x200000), the name; and
// what CObjCell::check_entry_restrictions asks: the bitfield, the house
// owner and RestrictionDB, the pscript and the monarch.
WeenieTraits weenie_traits(const protocol::WeenieDesc& w) {
  WeenieTraits traits;
  traits.is_creature = (w.item_type & 0x10u) != 0;
  traits.is_player = (w.object_description_flags & 0x8u) != 0;
  traits.is_pk = (w.object_description_flags & 0x20u) != 0;
  traits.is_pklite = (w.object_description_flags & 0x02000000u) != 0;
  traits.is_attackable = (w.object_description_flags & 0x10u) != 0;
  traits.is_free_pk = (w.object_description_flags & 0x200000u) != 0;
  traits.name = w.name;
  // ACCWeenieObject's pwd fields the cells' entry restrictions ask.
  traits.bitfield = w.object_description_flags;
  traits.house_owner_iid = w.house_owner.value_or(0);
  if (w.house_restrictions) traits.db = RestrictionDB::from_wire(*w.house_restrictions);
  traits.pscript = w.pscript.value_or(0);
  traits.monarch = w.monarch.value_or(0);
  traits.blip_color = w.radar_blip_color.value_or(0);
  traits.radar_enum = w.radar_behavior.value_or(0);
  return traits;
}

protocol::Message wrap_create(const protocol::CreateObject& m, bool force_recreate) {
  if (!force_recreate) return protocol::Message{m};
  protocol::UpdateObject update;
  static_cast<protocol::CreateObject&>(update) = m;
  return protocol::Message{std::move(update)};
}

}  // namespace

// SmartBox::is_player_outside 0x00451E80
bool SmartBox::is_player_outside() const noexcept {
  return player_ != nullptr && (player_->position().objcell_id & 0xFFFFu) < 0x100u;
}

// SmartBox::convert_to_player_space 0x00452DA0
std::optional<glm::vec3> SmartBox::convert_to_player_space(const PhysicsObj& object) const noexcept {
  if (player_ == nullptr || object.cell() == nullptr) return std::nullopt;
  return localtolocal(player_->position(), object.position(), glm::vec3(0.0F));
}

ReceivedPosition received_position(const protocol::PositionPack& pack) noexcept {
  ReceivedPosition r;
  r.position = to_position(pack.cell_id, pack.origin, pack.orientation());
  r.placement_id = pack.placement_or_zero();
  r.has_contact = pack.is_grounded();
  r.velocity = to_vec3(pack.velocity_or_zero());
  r.position_ts = pack.position_ts;
  r.teleport_ts = pack.teleport_ts;
  r.force_position_ts = pack.force_position_ts;
  return r;
}

SmartBox::SmartBox(SimContext& context) : context_(&context), objects_(context), physics_(context, objects_) {}

SmartBox::~SmartBox() {
  if (context_->player == player_) context_->player = nullptr;
}

// ACSmartBox::DispatchSmartBoxEvent 0x005595D0
HandleResult SmartBox::handle(const protocol::Message& message) {
  const HandleResult result = dispatch(message);
  record(message, result, false);
  drain_replays();
  return result;
}

HandleResult SmartBox::dispatch(const protocol::Message& message) {
  // ACSmartBox::IsReadyToDispatchEvent 0x00559590: nothing but PlayerCreate
  // dispatches before the player's GUID is known.
  const bool decoded = !std::holds_alternative<protocol::Unknown>(message);
  if (decoded && player_id_ == 0 && !std::holds_alternative<protocol::PlayerCreate>(message)) {
    if (before_player_.size() >= kMaxQueuedBeforePlayer) {
      ++stats_.dropped_before_player;
      return {Verdict::DroppedQueueFull, LocalId::None};
    }
    before_player_.push_back(message);
    ++stats_.queued_before_player;
    return {Verdict::QueuedBeforePlayer, LocalId::None};
  }
  return std::visit(
      [this](const auto& m) -> HandleResult {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, protocol::UpdateObject>) {
          return handle_create_object(m, true);
        } else if constexpr (std::is_same_v<T, protocol::CreateObject>) {
          return handle_create_object(m, false);
        } else if constexpr (std::is_same_v<T, protocol::PlayerCreate>) {
          return handle_create_player(m);
        } else if constexpr (std::is_same_v<T, protocol::DeleteObject>) {
          return handle_delete_object(m);
        } else if constexpr (std::is_same_v<T, protocol::UpdatePosition>) {
          return unpack_position_event(m);
        } else if constexpr (std::is_same_v<T, protocol::ParentEvent>) {
          return handle_parent_event(m);
        } else if constexpr (std::is_same_v<T, protocol::PickupEvent>) {
          return handle_pickup_event(m);
        } else if constexpr (std::is_same_v<T, protocol::SetState>) {
          return handle_set_state(m);
        } else if constexpr (std::is_same_v<T, protocol::MovementEvent>) {
          return handle_movement(m);
        } else if constexpr (std::is_same_v<T, protocol::VectorUpdate>) {
          return handle_vector_update(m);
        } else if constexpr (std::is_same_v<T, protocol::Sound>) {
          // SmartBox::HandleSoundEvent 0x00451FC0
          PhysicsObj* object = get_object(m.guid);
          if (object == nullptr) return queue(m.guid, protocol::Message{m}, Verdict::QueuedForAbsentObject);
          const bool played = context_->effects().play_sound(*object, m.sound_type, m.volume);
          return {played ? Verdict::Applied : Verdict::Ignored, object->local_id()};
        } else if constexpr (std::is_same_v<T, protocol::PlayerTeleport>) {
          return handle_player_teleport(m);
        } else if constexpr (std::is_same_v<T, protocol::PlayScriptId>) {
          return handle_play_script_id(m);
        } else if constexpr (std::is_same_v<T, protocol::PlayScriptType>) {
          return handle_play_script_type(m);
        } else if constexpr (std::is_same_v<T, protocol::ObjDescEvent>) {
          return handle_obj_desc_event(m);
        } else {
          return {Verdict::Ignored, LocalId::None};
        }
      },
      message);
}

HandleResult SmartBox::queue(std::uint32_t guid, const protocol::Message& message, Verdict verdict) {
  if (!objects_.queue_blob_for_object(guid, message)) return {Verdict::DroppedQueueFull, LocalId::None};
  const PhysicsObj* object = get_object(guid);
  return {verdict, object != nullptr ? object->local_id() : LocalId::None};
}

void SmartBox::record(const protocol::Message& message, const HandleResult& result, bool replayed) {
  ++stats_.messages;
  if (trace_ == nullptr) return;
  const MessageFacts facts = facts_of(message, player_id_);
  MessageRecord r;
  r.time = context_->now();
  r.opcode = protocol::opcode_of(message);
  r.guid = facts.guid;
  r.instance_ts = facts.instance;
  r.channel_ts = facts.channel;
  r.verdict = result.verdict;
  r.replayed = replayed;
  r.local_id = result.local_id;
  trace_->on_message(r);
}

// SmartBox::ProcessObjectNetBlobs 0x00454B20
void SmartBox::process_object_net_blobs(std::uint32_t guid) {
  std::deque<protocol::Message> blobs = objects_.take_pending(guid);
  if (!blobs.empty()) replay_stack_.push_back(ReplayFrame{std::move(blobs)});
}

// SmartBox::ProcessNetBlobs 0x00454A70
void SmartBox::process_net_blobs() {
  if (before_player_.empty()) return;
  replay_stack_.push_back(ReplayFrame{std::move(before_player_)});
  before_player_.clear();
}

void SmartBox::drain_replays() {
  if (draining_) return;
  draining_ = true;
  while (!replay_stack_.empty()) {
    ReplayFrame& top = replay_stack_.back();
    if (top.blobs.empty()) {
      replay_stack_.pop_back();
      continue;
    }
    const protocol::Message message = std::move(top.blobs.front());
    top.blobs.pop_front();
    if (top.blobs.empty()) replay_stack_.pop_back();
    objects_.note_replayed(1);
    HandleResult result = dispatch(message);
    if (result.verdict == Verdict::Applied) result.verdict = Verdict::Replayed;
    record(message, result, true);
  }
  draining_ = false;
}

// SmartBox::UseTime 0x00455410
void SmartBox::use_time() {
  if (cell_manager_ != nullptr) {
    // While the cells the player needs are not published, only the prefetch
    // is checked: no object maintenance, no physics, no position completion
    // (teleport_in_progress stays true; portal space waits on it).
    if (cell_manager_->blocking_for_cells()) {
      cell_manager_->check_prefetch_status(context_->now().count());
      return;
    }
    if (!cell_manager_->all_cells_available() && cell_manager_->check_prefetch_status(context_->now().count())) {
      cell_manager_->update_load_point();
    }
    if (player_ != nullptr && player_->position().objcell_id != 0) {
      cell_manager_->change_position(player_->position(), false);
    }
    // The prefetch that change may start blocks from the next call on, as
    // retail's (its blocking flag is read once, on entry).
  }
  if (player_ != nullptr && !waiting_for_teleport_ && !position_update_complete_) {
    position_update_complete_ = true;
    has_been_teleported_ = true;
  }
  objects_.use_time();
  physics_.use_time();
}

// --- creation ------------------------------------------------------------------

// SmartBox::HandleCreateObject 0x00454C80
HandleResult SmartBox::handle_create_object(const protocol::CreateObject& message, bool force_recreate) {
  const protocol::PhysicsDesc& desc = message.physics;
  const std::uint32_t parent_guid = desc.parent ? desc.parent->parent_guid : 0;
  PhysicsObj* parent = nullptr;
  if (parent_guid != 0) {
    parent = get_object(parent_guid);
    if (parent == nullptr) {
      return queue(parent_guid, wrap_create(message, force_recreate), Verdict::QueuedForAbsentObject);
    }
  }
  PhysicsObj* object = get_object(message.guid);
  Verdict verdict = Verdict::Applied;
  if (object != nullptr) {
    const std::uint16_t incoming = desc.timestamp(TimestampIndex::Instance);
    if (!force_recreate && !core::is_newer(incoming, object->instance())) {
      if (object->instance() != incoming) return {Verdict::StaleGeneration, object->local_id()};
      return route_same_instance(*object, message, parent);
    }
    // A newer Instance (or UpdateObject) replaces the live generation;
    // anything held on the old one goes with it, as in retail.
    forget_object(*object);
    objects_.delete_object(message.guid);
    verdict = Verdict::NewGeneration;
  }
  PhysicsObj* created = create_object(message, parent_guid);
  if (created == nullptr) return {Verdict::Ignored, objects_.local_id(message.guid)};
  return {verdict, created->local_id()};
}

PhysicsObj* SmartBox::create_object(const protocol::CreateObject& message, std::uint32_t parent_guid) {
  const protocol::PhysicsDesc& desc = message.physics;
  ObjectFactory& factory = context_->factory();
  auto made = std::make_unique<PhysicsObj>(*context_, message.guid, objects_.assign_local_id(message.guid));
  const std::uint32_t setup_did = desc.setup_id.value_or(0);
  made->set_setup_id(setup_did);
  made->set_part_array(factory.make_part_array(*made, setup_did));
  if (const std::optional<SetupDefaults> setup = factory.setup_defaults(setup_did); setup) {
    made->init_defaults(*setup);
  }
  made->set_weenie(weenie_traits(message.weenie));
  if (!made->set_description(desc, true)) {
    core::logger(core::Module::Sim)
        ->warn("object {:#010x}: description refused (setup {:#010x})", message.guid, setup_did);
    return nullptr;
  }
  made->set_visual_desc(message.model);  // CPhysicsObj::DoObjDescChanges
  PhysicsObj& object = objects_.add_object(std::move(made));

  // CObjectMaint::SetChildren: children already present attach now.
  if (desc.children) {
    for (const protocol::ChildLink& link : *desc.children) {
      if (PhysicsObj* child = get_object(link.guid); child != nullptr) child->set_parent(object, link.location_id);
    }
  }
  if (parent_guid != 0) {
    if (PhysicsObj* parent = get_object(parent_guid); parent != nullptr) {
      object.set_parent(*parent, desc.parent->location_id);
    }
  }

  const Position position = desc.position ? to_position(*desc.position) : Position{};
  if (message.guid == player_id_) {
    init_player(object);
    object.store_position(position);
    // CellManager::ChangePosition, blocking: the landscape goes first, so
    // the player enters the world lost and comes in on the next tick.
    if (cell_manager_ != nullptr && object.position().objcell_id != 0) {
      cell_manager_->change_position(object.position(), true);
    }
    object.enter_world(position);
    player_position_updated(true);
    // No-data fallback N4 at world entry, only where no collision cell holds the
    // player: there retail's placement transition
    // (CTransition::find_placement_position) puts the entering player on the
    // ground; without one, the player stands where the server created it
    // instead of falling until a grounded Position arrives (a second on GDLE).
    if (position.objcell_id != 0) object.land_on_server_contact();
  } else if (parent_guid == 0 && position.objcell_id != 0) {
    object.enter_world(position);
  }
  process_object_net_blobs(message.guid);
  return &object;
}

HandleResult SmartBox::route_same_instance(PhysicsObj& object, const protocol::CreateObject& message,
                                           PhysicsObj* parent) {
  // Not an authorisation of the whole snapshot: each branch goes through its
  // own channel gate (seed section 3.1).
  const protocol::PhysicsDesc& desc = message.physics;
  update_visual_desc(object, message.model, desc.timestamp(TimestampIndex::ObjDesc));
  const std::uint16_t position_ts = desc.timestamp(TimestampIndex::Position);
  if (parent != nullptr) {
    do_parent_event(object, *parent, desc.parent->location_id, desc.animation_frame.value_or(0), position_ts);
  } else {
    const Position position = desc.position ? to_position(*desc.position) : Position{};
    if (position.objcell_id != 0) {
      ReceivedPosition received;
      received.position = position;
      received.placement_id = desc.animation_frame.value_or(0);
      received.has_contact = true;
      received.velocity = vec_or_zero(desc.velocity);
      received.position_ts = position_ts;
      received.teleport_ts = desc.timestamp(TimestampIndex::Teleport);
      received.force_position_ts = desc.timestamp(TimestampIndex::ForcePosition);
      handle_received_position(object, received);
    } else {
      do_pickup_event(object, position_ts);
    }
  }
  if (desc.movement && !desc.movement->bytes.empty()) {
    if (auto data = protocol::decode_movement_buffer(desc.movement->bytes); data) {
      set_object_movement(object, *data, desc.timestamp(TimestampIndex::Movement),
                          desc.timestamp(TimestampIndex::ServerControlledMove),
                          desc.movement->autonomous.value_or(0) != 0);
    }
  }
  do_set_state(object, desc.state, desc.timestamp(TimestampIndex::State));
  do_vector_update(object, vec_or_zero(desc.velocity), vec_or_zero(desc.omega), desc.timestamp(TimestampIndex::Vector));
  // The same generation's weenie stays (its pwd is updated): its house stamp is kept.
  WeenieTraits traits = weenie_traits(message.weenie);
  if (object.weenie()) traits.house_ts = object.weenie()->house_ts;
  object.set_weenie(std::move(traits));
  return {Verdict::Applied, object.local_id()};
}

// SmartBox::HandleCreatePlayer 0x00455110
HandleResult SmartBox::handle_create_player(const protocol::PlayerCreate& message) {
  if (player_id_ != 0) return {Verdict::RejectedLocalPlayer, objects_.local_id(message.guid)};
  player_id_ = message.guid;
  process_net_blobs();
  return {Verdict::Applied, objects_.local_id(message.guid)};
}

// SmartBox::init_player 0x00453C80
void SmartBox::init_player(PhysicsObj& object) {
  player_ = &object;
  context_->player = &object;
}

void SmartBox::forget_object(PhysicsObj& object) noexcept {
  if (player_ == &object) player_ = nullptr;
}

// --- deletion ------------------------------------------------------------------

// SmartBox::HandleDeleteObject 0x00451EA0
HandleResult SmartBox::handle_delete_object(const protocol::DeleteObject& message) {
  // Never the local player, whatever the Instance.
  if (message.guid == player_id_) return {Verdict::RejectedLocalPlayer, objects_.local_id(message.guid)};
  PhysicsObj* object = get_object(message.guid);
  if (object == nullptr) return queue(message.guid, protocol::Message{message}, Verdict::QueuedForAbsentObject);
  if (core::is_newer(message.instance_ts, object->instance())) {
    return queue(message.guid, protocol::Message{message}, Verdict::QueuedFutureInstance);
  }
  const LocalId local = object->local_id();
  if (object->instance() != message.instance_ts) return {Verdict::WrongInstance, local};
  forget_object(*object);
  objects_.delete_object(message.guid);
  return {Verdict::Applied, local};
}

// --- the Instance-gated channels ------------------------------------------------

namespace {

// The gate every per-object channel shares (HandleSetState 0x004533E0,
// HandleVectorUpdate 0x00453480, HandlePickupEvent 0x00453530,
// HandleObjDescEvent 0x00453340, UnpackPositionEvent 0x004542C0, F74C):
// absent or a future Instance is held; an older Instance is wrong; the exact
// Instance goes on to the channel's own stamp gate.
enum class Gate : std::uint8_t { Absent, Future, Wrong, Exact };

Gate instance_gate(const PhysicsObj* object, std::uint16_t instance) noexcept {
  if (object == nullptr) return Gate::Absent;
  if (core::is_newer(instance, object->instance())) return Gate::Future;
  if (object->instance() != instance) return Gate::Wrong;
  return Gate::Exact;
}

}  // namespace

template <class Msg, class Apply>
HandleResult SmartBox::gated(std::uint32_t guid, std::uint16_t instance, const Msg& message, Apply apply) {
  PhysicsObj* object = get_object(guid);
  switch (instance_gate(object, instance)) {
    case Gate::Absent: return queue(guid, protocol::Message{message}, Verdict::QueuedForAbsentObject);
    case Gate::Future: return queue(guid, protocol::Message{message}, Verdict::QueuedFutureInstance);
    case Gate::Wrong: return {Verdict::WrongInstance, object->local_id()};
    case Gate::Exact: break;
  }
  return {apply(*object), object->local_id()};
}

// SmartBox::HandleObjDescEvent 0x00453340
HandleResult SmartBox::handle_obj_desc_event(const protocol::ObjDescEvent& message) {
  return gated(message.guid, message.instance_ts, message,
               [&](PhysicsObj& object) { return update_visual_desc(object, message.model, message.visual_desc_ts); });
}

// SmartBox::HandleSetState 0x004533E0
HandleResult SmartBox::handle_set_state(const protocol::SetState& message) {
  return gated(message.guid, message.instance_ts, message,
               [&](PhysicsObj& object) { return do_set_state(object, message.state, message.state_ts); });
}

// SmartBox::HandleVectorUpdate 0x00453480
HandleResult SmartBox::handle_vector_update(const protocol::VectorUpdate& message) {
  return gated(message.guid, message.instance_ts, message, [&](PhysicsObj& object) {
    return do_vector_update(object, to_vec3(message.velocity), to_vec3(message.omega), message.vector_ts);
  });
}

// ACSmartBox::DispatchSmartBoxEvent 0x005595D0, F74C
HandleResult SmartBox::handle_movement(const protocol::MovementEvent& message) {
  return gated(message.guid, message.instance_ts, message, [&](PhysicsObj& object) {
    return set_object_movement(object, message.data, message.movement_ts, message.server_control_ts,
                               message.is_autonomous != 0);
  });
}

// SmartBox::HandlePickupEvent 0x00453530
HandleResult SmartBox::handle_pickup_event(const protocol::PickupEvent& message) {
  return gated(message.guid, message.instance_ts, message,
               [&](PhysicsObj& object) { return do_pickup_event(object, message.position_ts); });
}

// SmartBox::UnpackPositionEvent 0x004542C0 (held by the dispatcher on result 4)
HandleResult SmartBox::unpack_position_event(const protocol::UpdatePosition& message) {
  return gated(message.guid, message.position.instance_ts, message, [&](PhysicsObj& object) {
    return handle_received_position(object, received_position(message.position));
  });
}

// SmartBox::HandleParentEvent 0x004535D0
HandleResult SmartBox::handle_parent_event(const protocol::ParentEvent& message) {
  PhysicsObj* parent = get_object(message.parent_guid);
  if (parent == nullptr) {
    return queue(message.parent_guid, protocol::Message{message}, Verdict::QueuedForAbsentObject);
  }
  if (core::is_newer(message.parent_instance_ts, parent->instance())) {
    return queue(message.parent_guid, protocol::Message{message}, Verdict::QueuedFutureInstance);
  }
  PhysicsObj* child = get_object(message.child_guid);
  if (child == nullptr) {
    return queue(message.child_guid, protocol::Message{message}, Verdict::QueuedForAbsentObject);
  }
  if (parent->instance() != message.parent_instance_ts) return {Verdict::WrongInstance, child->local_id()};
  return {do_parent_event(*child, *parent, message.parent_location, message.placement, message.child_position_ts),
          child->local_id()};
}

// --- effects -------------------------------------------------------------------

// SmartBox::HandlePlayScriptID 0x00452020: the direct DID, never the table.
HandleResult SmartBox::handle_play_script_id(const protocol::PlayScriptId& message) {
  PhysicsObj* object = get_object(message.guid);
  if (object == nullptr) return queue(message.guid, protocol::Message{message}, Verdict::QueuedForAbsentObject);
  const bool played = object->play_script(message.script_id);
  return {played ? Verdict::Applied : Verdict::Ignored, object->local_id()};
}

// SmartBox::HandlePlayScriptType 0x00452070: type and raw intensity through
// the target's current table.
HandleResult SmartBox::handle_play_script_type(const protocol::PlayScriptType& message) {
  PhysicsObj* object = get_object(message.guid);
  if (object == nullptr) return queue(message.guid, protocol::Message{message}, Verdict::QueuedForAbsentObject);
  const bool played = object->play_script(message.script_type, message.intensity());
  return {played ? Verdict::Applied : Verdict::Ignored, object->local_id()};
}

// SmartBox::HandlePlayerTeleport 0x00452150
HandleResult SmartBox::handle_player_teleport(const protocol::PlayerTeleport& message) {
  if (player_ == nullptr) return {Verdict::Ignored, LocalId::None};
  // Older is rejected; equal and newer are accepted. Teleport is not advanced
  // here: the destination Position does that.
  if (core::is_newer(player_->update_time(TimestampIndex::Teleport), message.teleport_ts)) {
    return {Verdict::StaleTimestamp, player_->local_id()};
  }
  position_update_complete_ = false;
  has_been_teleported_ = false;
  waiting_for_teleport_ = true;
  return {Verdict::Applied, player_->local_id()};
}

// --- channel appliers ------------------------------------------------------------

// SmartBox::DoSetState 0x004520D0
Verdict SmartBox::do_set_state(PhysicsObj& object, std::uint32_t state, std::uint16_t state_ts) {
  if (!object.newer_event(TimestampIndex::State, state_ts)) return Verdict::StaleTimestamp;
  object.set_state(state, true);
  if (&object == player_ && waiting_for_teleport_ && (object.state() & ps::Hidden) == 0) {
    waiting_for_teleport_ = false;
  }
  return Verdict::Applied;
}

// SmartBox::DoVectorUpdate 0x004521C0
Verdict SmartBox::do_vector_update(PhysicsObj& object, const glm::vec3& velocity, const glm::vec3& omega,
                                   std::uint16_t vector_ts) {
  if (!object.newer_event(TimestampIndex::Vector, vector_ts)) return Verdict::StaleTimestamp;
  if (&object == player_ && !context_->controller().server_controls_player()) return Verdict::Ignored;
  object.set_velocity(velocity, true);
  object.set_omega(omega, true);
  return Verdict::Applied;
}

// SmartBox::DoPickupEvent 0x00452240: out of the world, object and stamps kept.
Verdict SmartBox::do_pickup_event(PhysicsObj& object, std::uint16_t position_ts) {
  if (!object.newer_event(TimestampIndex::Position, position_ts)) return Verdict::StaleTimestamp;
  object.unset_parent();
  object.leave_world();
  return Verdict::Applied;
}

// SmartBox::DoParentEvent 0x00452290: the child's one Position counter.
Verdict SmartBox::do_parent_event(PhysicsObj& child, PhysicsObj& parent, std::uint32_t child_location,
                                  std::uint32_t placement_id, std::uint16_t position_ts) {
  if (!child.newer_event(TimestampIndex::Position, position_ts)) return Verdict::StaleTimestamp;
  child.set_parent(parent, child_location);
  child.set_placement_frame(placement_id, true);
  return Verdict::Applied;
}

// SmartBox::UpdateVisualDesc 0x00451F40
Verdict SmartBox::update_visual_desc(PhysicsObj& object, const protocol::ObjDesc& desc, std::uint16_t desc_ts) {
  if (!object.newer_event(TimestampIndex::ObjDesc, desc_ts)) return Verdict::StaleTimestamp;
  object.set_visual_desc(desc);  // ACCObjectMaint::SetVisualDesc (and the player's copy)
  return Verdict::Applied;
}

// CPhysics::SetObjectMovement 0x00509690
Verdict SmartBox::set_object_movement(PhysicsObj& object, const protocol::MovementData& data, std::uint16_t movement_ts,
                                      std::uint16_t server_control_ts, bool autonomous) {
  if (!object.newer_event(TimestampIndex::Movement, movement_ts)) return Verdict::StaleTimestamp;
  // The Movement stamp stays advanced even when ServerControlledMove rejects.
  if (core::is_newer(object.update_time(TimestampIndex::ServerControlledMove), server_control_ts)) {
    return Verdict::StaleTimestamp;
  }
  object.set_update_time(TimestampIndex::ServerControlledMove, server_control_ts);
  const bool is_player = &object == player_;
  if (autonomous && is_player) return Verdict::Ignored;  // the local client already moved itself
  object.set_last_move_was_autonomous(autonomous);
  object.unpack_movement(data, autonomous);
  if (is_player) context_->controller().movement_applied(object);
  return Verdict::Applied;
}

// SmartBox::HandleReceivedPosition 0x00453FD0
Verdict SmartBox::handle_received_position(PhysicsObj& object, const ReceivedPosition& received) {
  Position position = received.position;
  // The blip is taken unless the stored Teleport is newer than the incoming
  // one (acclient.c 145124; the seed says only an equal one: docs/deviations.md).
  if (&object == player_ && object.newer_event(TimestampIndex::ForcePosition, received.force_position_ts) &&
      !core::is_newer(object.update_time(TimestampIndex::Teleport), received.teleport_ts)) {
    // ForcePosition blip: keep the live heading, assign Position even when
    // equal or older, leave Teleport alone (seed section 3.1).
    position.frame.set_heading(object.get_heading());
    blip_player(position);
    object.set_update_time(TimestampIndex::Position, received.position_ts);
    constexpr std::uint32_t kGrounded = transient_state::Contact | transient_state::OnWalkable;
    if ((object.transient_state() & kGrounded) == kGrounded && object.in_cell()) {
      context_->controller().send_position_event(object);
    }
    return Verdict::Applied;
  }

  const std::uint16_t old_position_ts = object.update_time(TimestampIndex::Position);
  if (!object.newer_event(TimestampIndex::Position, received.position_ts)) {
    if (core::is_newer(received.teleport_ts, object.update_time(TimestampIndex::Teleport))) {
      ++stats_.position_error_count;
    }
    return Verdict::StaleTimestamp;
  }
  if (core::is_newer(object.update_time(TimestampIndex::Teleport), received.teleport_ts)) {
    object.set_update_time(TimestampIndex::Position, old_position_ts);
    return Verdict::StaleTimestamp;
  }
  object.unset_parent();
  if (!object.has_anims()) object.set_placement_frame(received.placement_id, true);
  if (&object == player_) {
    if (object.newer_event(TimestampIndex::Teleport, received.teleport_ts)) {
      teleport_player(position, received.has_contact);
      object.constrain_to(position, object.get_start_constraint_distance(), object.get_max_constraint_distance());
      object.set_velocity(glm::vec3(0.0f), true);
    } else {
      // No packet velocity for the local player.
      object.constrain_to(position, object.get_start_constraint_distance(), object.get_max_constraint_distance());
      PlayerController& controller = context_->controller();
      if (controller.server_controls_player() && received.has_contact) {
        object.interpolate_to(position, controller.keep_heading_on_interpolate());
      }
      // No-data fallback N4, only where no collision cell holds the player (no cell
      // DAT, or a lost player): there the transition lands the player
      // as retail's does. Without one, whoever moves the player: a
      // client-controlled player already on the ground stays where the client
      // has it (the server's Position only constrains it); one that is
      // airborne (it can never land by itself) lands where the server says.
      if (received.has_contact && object.cell() == nullptr) {
        constexpr std::uint32_t kGrounded = transient_state::Contact | transient_state::OnWalkable;
        if (!controller.server_controls_player() && (object.transient_state() & kGrounded) != kGrounded) {
          object.set_position_simple(position, true);
        }
        object.land_on_server_contact();
      }
    }
  } else if (object.move_or_teleport(position, received.teleport_ts, received.has_contact, received.velocity)) {
    object.constrain_to(object.position(), object.get_start_constraint_distance(),
                        object.get_max_constraint_distance());
  }
  return Verdict::Applied;
}

// SmartBox::TeleportPlayer 0x00453910
void SmartBox::teleport_player(const Position& p, bool contact) {
  if (player_ == nullptr) return;
  player_->set_position_simple(p, true);
  // Inside a collision cell SetPositionSimple's transition decided contact;
  // the flag lands only a player no cell holds (no-data fallback N4), before
  // the blocking ChangePosition lets every cell go.
  if (contact) player_->land_on_server_contact();
  player_position_updated(true);
}

// SmartBox::BlipPlayer 0x00453940 (SetPositionSimple keeps motion, velocity,
// contact state and the PositionManager's stick)
void SmartBox::blip_player(const Position& p) {
  if (player_ == nullptr) return;
  player_->set_position_simple(p, true);
  player_position_updated(false);
}

// SmartBox::PlayerPositionUpdated 0x00453870 (the camera is not here)
void SmartBox::player_position_updated(bool teleporting) {
  if (player_ == nullptr) return;
  if (teleporting) {
    position_update_complete_ = false;
    waiting_for_teleport_ = false;
    has_been_teleported_ = false;
    player_->teleport_hook(true);
    // cmdinterp->vfptr[9].OnLoseFocus: slot 29, CommandInterpreter::PlayerTeleported 0x006B32B0
    context_->controller().player_teleported(*player_);
  }
  // CellManager::ChangePosition, blocking for a teleport.
  if (cell_manager_ != nullptr && player_->position().objcell_id != 0) {
    cell_manager_->change_position(player_->position(), teleporting);
  }
}

}  // namespace dereth::sim
