#pragma once
// Every inbound message dereth understands, as one variant decoded from one
// table (dispatcher.cpp): the object, physics and effect messages the
// SmartBox takes (spec/protocol.md section 5, each with a decoder over the
// whole body that consumes it exactly, and a writer), and the game events
// and chat the rest of the client takes (PlayerDescription,
// UpdateRestrictions, the combat events, chat lines), whose codecs live in
// their own headers. A new inbound message is one table row and one
// alternative here.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <variant>
#include <vector>

#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/house.hpp"
#include "dereth/protocol/magic.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/protocol/obj_desc.hpp"
#include "dereth/protocol/physics_desc.hpp"
#include "dereth/protocol/player_description.hpp"
#include "dereth/protocol/player_updates.hpp"
#include "dereth/protocol/position_pack.hpp"
#include "dereth/protocol/weenie_desc.hpp"

namespace dereth::protocol {

namespace opcode {
inline constexpr std::uint32_t ObjDescEvent = 0xF625;
inline constexpr std::uint32_t CreateObject = 0xF745;
inline constexpr std::uint32_t PlayerCreate = 0xF746;
inline constexpr std::uint32_t DeleteObject = 0xF747;
inline constexpr std::uint32_t UpdatePosition = 0xF748;
inline constexpr std::uint32_t ParentEvent = 0xF749;
inline constexpr std::uint32_t PickupEvent = 0xF74A;
inline constexpr std::uint32_t SetState = 0xF74B;
inline constexpr std::uint32_t Movement = 0xF74C;
inline constexpr std::uint32_t VectorUpdate = 0xF74E;
inline constexpr std::uint32_t Sound = 0xF750;
inline constexpr std::uint32_t PlayerTeleport = 0xF751;
inline constexpr std::uint32_t AutonomousPosition = 0xF753;  // action type inside F7B1
inline constexpr std::uint32_t PlayScriptId = 0xF754;
inline constexpr std::uint32_t PlayScriptType = 0xF755;
inline constexpr std::uint32_t GameEvent = 0xF7B0;
inline constexpr std::uint32_t GameAction = 0xF7B1;
inline constexpr std::uint32_t UpdateObject = 0xF7DB;
inline constexpr std::uint32_t MoveToState = 0xF61C;  // action type inside F7B1
inline constexpr std::uint32_t Jump = 0xF61B;         // action type inside F7B1 (CM_Movement::Event_Jump)
}  // namespace opcode

// F745 CreateObject: guid, ObjDesc, PhysicsDesc, WeenieDesc.
struct CreateObject {
  std::uint32_t guid = 0;
  ObjDesc model;
  PhysicsDesc physics;
  WeenieDesc weenie;
  bool operator==(const CreateObject&) const = default;
};

// F7DB UpdateObject: the same layout as CreateObject.
struct UpdateObject : CreateObject {
  bool operator==(const UpdateObject&) const = default;
};

// F746 PlayerCreate: the local player's guid.
struct PlayerCreate {
  std::uint32_t guid = 0;
  bool operator==(const PlayerCreate&) const = default;
};

// F747 DeleteObject: guid, u16 Instance, align (12 bytes).
struct DeleteObject {
  std::uint32_t guid = 0;
  std::uint16_t instance_ts = 0;
  bool operator==(const DeleteObject&) const = default;
};

// F748 UpdatePosition: guid, PositionPack.
struct UpdatePosition {
  std::uint32_t guid = 0;
  PositionPack position;
  bool operator==(const UpdatePosition&) const = default;
};

// F749 ParentEvent (24 bytes).
struct ParentEvent {
  std::uint32_t parent_guid = 0;
  std::uint32_t child_guid = 0;
  std::uint32_t parent_location = 0;
  std::uint32_t placement = 0;
  std::uint16_t parent_instance_ts = 0;
  std::uint16_t child_position_ts = 0;
  bool operator==(const ParentEvent&) const = default;
};

// F74A PickupEvent (12 bytes).
struct PickupEvent {
  std::uint32_t guid = 0;
  std::uint16_t instance_ts = 0;
  std::uint16_t position_ts = 0;
  bool operator==(const PickupEvent&) const = default;
};

// F74B SetState (16 bytes).
struct SetState {
  std::uint32_t guid = 0;
  std::uint32_t state = 0;
  std::uint16_t instance_ts = 0;
  std::uint16_t state_ts = 0;
  bool operator==(const SetState&) const = default;
};

// F74C Movement: guid, u16 Instance, the MovementData header (u16 movement
// stamp, u16 server-control stamp, u8 autonomous, align), MovementData.
struct MovementEvent {
  std::uint32_t guid = 0;
  std::uint16_t instance_ts = 0;
  std::uint16_t movement_ts = 0;
  std::uint16_t server_control_ts = 0;
  std::uint8_t is_autonomous = 0;
  MovementData data;
  bool operator==(const MovementEvent&) const = default;
};

// F74E VectorUpdate (36 bytes).
struct VectorUpdate {
  std::uint32_t guid = 0;
  Vec3 velocity;
  Vec3 omega;
  std::uint16_t instance_ts = 0;
  std::uint16_t vector_ts = 0;
  bool operator==(const VectorUpdate&) const = default;
};

// F750 Sound (16 bytes).
struct Sound {
  std::uint32_t guid = 0;
  std::uint32_t sound_type = 0;
  float volume = 0;
  bool operator==(const Sound& o) const noexcept {
    return guid == o.guid && sound_type == o.sound_type && same_bits(volume, o.volume);
  }
};

// F751 PlayerTeleport: u16 Teleport sequence, align (8 bytes).
struct PlayerTeleport {
  std::uint16_t teleport_ts = 0;
  bool operator==(const PlayerTeleport&) const = default;
};

// F754 PlayScriptId: target guid, PhysicsScript DID (12 bytes, seed section 4).
struct PlayScriptId {
  std::uint32_t guid = 0;
  std::uint32_t script_id = 0;
  bool operator==(const PlayScriptId&) const = default;
};

// F755 PlayScriptType: target guid, raw script type, raw intensity bits (16
// bytes, seed section 4). Unknown types and NaN payloads are kept exactly.
struct PlayScriptType {
  std::uint32_t guid = 0;
  std::uint32_t script_type = 0;
  std::uint32_t intensity_bits = 0;
  [[nodiscard]] float intensity() const noexcept { return std::bit_cast<float>(intensity_bits); }
  bool operator==(const PlayScriptType&) const = default;
};

// F625 ObjDescEvent: guid, ObjDesc, u16 Instance, u16 ObjDesc (visual) stamp.
struct ObjDescEvent {
  std::uint32_t guid = 0;
  ObjDesc model;
  std::uint16_t instance_ts = 0;
  std::uint16_t visual_desc_ts = 0;
  bool operator==(const ObjDescEvent&) const = default;
};

// A message of an opcode the dispatcher does not decode: kept whole.
struct Unknown {
  std::uint32_t opcode = 0;
  std::vector<std::uint8_t> bytes;  // the whole message, opcode first
  bool operator==(const Unknown&) const = default;
};

// Any chat-carrying message (F7E0, the Hear* messages, the F7B0 tells,
// channel lines, errors, status strings and combat notifications) as the
// chat window's line; `opcode` is the top-level opcode it came in.
struct ChatMessage {
  std::uint32_t opcode = 0;
  ChatLine line;
  bool operator==(const ChatMessage&) const = default;
};

// Server-to-client messages: the object messages (CreateObject through
// ObjDescEvent, the SmartBox's), then the game events, the player's own
// state (player_updates.hpp, magic.hpp) and chat.
using Message =
    std::variant<CreateObject, UpdateObject, PlayerCreate, DeleteObject, UpdatePosition, ParentEvent, PickupEvent,
                 SetState, MovementEvent, VectorUpdate, Sound, PlayerTeleport, PlayScriptId, PlayScriptType,
                 ObjDescEvent, PlayerDescription, UpdateRestrictions, AttackDone, CombatCommenceAttack,
                 PrivateUpdateAttribute, PrivateUpdateAttribute2nd, PrivateUpdateSkill, PrivateUpdateStatLevel,
                 QueryHealthResponse, MagicUpdateEnchantments, MagicRemoveEnchantments, MagicPurgeEnchantments,
                 MagicUpdateSpell, MagicRemoveSpell, PlayerKilled, UseDone, ChatMessage, Unknown>;

// Decoders: the body starts with the opcode and must be consumed exactly.
Result<CreateObject> decode_create_object(std::span<const std::uint8_t> body);
Result<UpdateObject> decode_update_object(std::span<const std::uint8_t> body);
// The same two into caller-owned storage: every field of `out` is
// overwritten and its strings and lists keep their capacity, so a message of
// the shape `out` already holds decodes without allocating (the session's
// scratch object, the benchmark's). On failure `out` holds a partial decode
// and the error is the one the value-returning form gives.
Result<void> decode_create_object_into(std::span<const std::uint8_t> body, CreateObject& out);
Result<void> decode_update_object_into(std::span<const std::uint8_t> body, UpdateObject& out);
Result<PlayerCreate> decode_player_create(std::span<const std::uint8_t> body);
Result<DeleteObject> decode_delete_object(std::span<const std::uint8_t> body);
Result<UpdatePosition> decode_update_position(std::span<const std::uint8_t> body);
Result<ParentEvent> decode_parent_event(std::span<const std::uint8_t> body);
Result<PickupEvent> decode_pickup_event(std::span<const std::uint8_t> body);
Result<SetState> decode_set_state(std::span<const std::uint8_t> body);
Result<MovementEvent> decode_movement_event(std::span<const std::uint8_t> body);
Result<VectorUpdate> decode_vector_update(std::span<const std::uint8_t> body);
Result<Sound> decode_sound(std::span<const std::uint8_t> body);
Result<PlayerTeleport> decode_player_teleport(std::span<const std::uint8_t> body);
Result<PlayScriptId> decode_play_script_id(std::span<const std::uint8_t> body);
Result<PlayScriptType> decode_play_script_type(std::span<const std::uint8_t> body);
Result<ObjDescEvent> decode_obj_desc_event(std::span<const std::uint8_t> body);

// Writers: the whole message, opcode first.
std::vector<std::uint8_t> encode(const CreateObject& m);
std::vector<std::uint8_t> encode(const UpdateObject& m);
std::vector<std::uint8_t> encode(const PlayerCreate& m);
std::vector<std::uint8_t> encode(const DeleteObject& m);
std::vector<std::uint8_t> encode(const UpdatePosition& m);
std::vector<std::uint8_t> encode(const ParentEvent& m);
std::vector<std::uint8_t> encode(const PickupEvent& m);
std::vector<std::uint8_t> encode(const SetState& m);
std::vector<std::uint8_t> encode(const MovementEvent& m);
std::vector<std::uint8_t> encode(const VectorUpdate& m);
std::vector<std::uint8_t> encode(const Sound& m);
std::vector<std::uint8_t> encode(const PlayerTeleport& m);
std::vector<std::uint8_t> encode(const PlayScriptId& m);
std::vector<std::uint8_t> encode(const PlayScriptType& m);
std::vector<std::uint8_t> encode(const ObjDescEvent& m);
std::vector<std::uint8_t> encode(const Unknown& m);
// The object messages, the top-level private updates, PlayerKilled and
// Unknown; nothing for the game events and chat (their writers take the
// F7B0 header: encode_attack_done, ...).
std::vector<std::uint8_t> encode(const Message& m);

// The dispatcher: the whole message (opcode first) -> decoded message, by
// one table keyed by the opcode and, for an F7B0 game event, its event
// type. A message no row names comes back as Unknown (not an error); a
// message shorter than its opcode, or one a row names that fails to decode,
// is an error naming the message and field.
Result<Message> decode_message(std::span<const std::uint8_t> body);

// The (top-level) opcode a message carries: 0xF7B0 for a game event.
std::uint32_t opcode_of(const Message& m);

// True for the object messages (the SmartBox's: CreateObject through
// ObjDescEvent); false for the game events, chat and Unknown.
bool is_object_message(const Message& m);

// The name of an object message's opcode as the spec names it
// ("CreateObject"), or "" for any other opcode.
std::string_view message_name(std::uint32_t opcode);

// A name for any opcode the spec names (the object messages, the wrappers
// and the login, chat and control messages), or "" when it is not known.
std::string_view opcode_name(std::uint32_t opcode);

// True for the opcodes of the object messages (their table rows).
bool is_object_opcode(std::uint32_t opcode);
// True when decode_message has a row for `body` (by its opcode and, for a
// GameEvent or GameAction, its wrapped type): it decodes to an alternative
// other than Unknown, or fails.
bool is_dispatched(std::span<const std::uint8_t> body);

}  // namespace dereth::protocol
