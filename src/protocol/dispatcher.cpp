#include "dereth/protocol/messages.hpp"

#include <array>

namespace dereth::protocol {

namespace {

struct Entry {
  std::uint32_t opcode;
  std::string_view name;
  Result<Message> (*decode)(std::span<const std::uint8_t>);
};

template <auto Decode>
Result<Message> as_message(std::span<const std::uint8_t> body) {
  auto decoded = Decode(body);
  if (!decoded) return std::unexpected(std::move(decoded.error()));
  return Message{std::move(*decoded)};
}

constexpr std::array kEntries = {
    Entry{opcode::ObjDescEvent, "ObjDescEvent", &as_message<decode_obj_desc_event>},
    Entry{opcode::CreateObject, "CreateObject", &as_message<decode_create_object>},
    Entry{opcode::PlayerCreate, "PlayerCreate", &as_message<decode_player_create>},
    Entry{opcode::DeleteObject, "DeleteObject", &as_message<decode_delete_object>},
    Entry{opcode::UpdatePosition, "UpdatePosition", &as_message<decode_update_position>},
    Entry{opcode::ParentEvent, "ParentEvent", &as_message<decode_parent_event>},
    Entry{opcode::PickupEvent, "PickupEvent", &as_message<decode_pickup_event>},
    Entry{opcode::SetState, "SetState", &as_message<decode_set_state>},
    Entry{opcode::Movement, "Movement", &as_message<decode_movement_event>},
    Entry{opcode::VectorUpdate, "VectorUpdate", &as_message<decode_vector_update>},
    Entry{opcode::Sound, "Sound", &as_message<decode_sound>},
    Entry{opcode::PlayerTeleport, "PlayerTeleport", &as_message<decode_player_teleport>},
    Entry{opcode::PlayScriptId, "PlayScriptId", &as_message<decode_play_script_id>},
    Entry{opcode::PlayScriptType, "PlayScriptType", &as_message<decode_play_script_type>},
    Entry{opcode::UpdateObject, "UpdateObject", &as_message<decode_update_object>},
};

const Entry* find(std::uint32_t op) {
  for (const auto& e : kEntries) {
    if (e.opcode == op) return &e;
  }
  return nullptr;
}

struct OpcodeOf {
  std::uint32_t operator()(const CreateObject&) const { return opcode::CreateObject; }
  std::uint32_t operator()(const UpdateObject&) const { return opcode::UpdateObject; }
  std::uint32_t operator()(const PlayerCreate&) const { return opcode::PlayerCreate; }
  std::uint32_t operator()(const DeleteObject&) const { return opcode::DeleteObject; }
  std::uint32_t operator()(const UpdatePosition&) const { return opcode::UpdatePosition; }
  std::uint32_t operator()(const ParentEvent&) const { return opcode::ParentEvent; }
  std::uint32_t operator()(const PickupEvent&) const { return opcode::PickupEvent; }
  std::uint32_t operator()(const SetState&) const { return opcode::SetState; }
  std::uint32_t operator()(const MovementEvent&) const { return opcode::Movement; }
  std::uint32_t operator()(const VectorUpdate&) const { return opcode::VectorUpdate; }
  std::uint32_t operator()(const Sound&) const { return opcode::Sound; }
  std::uint32_t operator()(const PlayerTeleport&) const { return opcode::PlayerTeleport; }
  std::uint32_t operator()(const PlayScriptId&) const { return opcode::PlayScriptId; }
  std::uint32_t operator()(const PlayScriptType&) const { return opcode::PlayScriptType; }
  std::uint32_t operator()(const ObjDescEvent&) const { return opcode::ObjDescEvent; }
  std::uint32_t operator()(const Unknown& u) const { return u.opcode; }
};

}  // namespace

Result<Message> decode_message(std::span<const std::uint8_t> body) {
  ByteReader r(body, "message");
  DERETH_TRY(const std::uint32_t op, r.u32("opcode"));
  if (const Entry* e = find(op)) {
    return e->decode(body);
  }
  return Message{Unknown{op, std::vector<std::uint8_t>(body.begin(), body.end())}};
}

std::uint32_t opcode_of(const Message& m) { return std::visit(OpcodeOf{}, m); }

std::string_view message_name(std::uint32_t op) {
  const Entry* e = find(op);
  return e ? e->name : std::string_view{};
}

bool is_decoded_opcode(std::uint32_t op) { return find(op) != nullptr; }

std::string_view opcode_name(std::uint32_t op) {
  if (const Entry* e = find(op)) return e->name;
  // Opcodes of spec/protocol.md section 4.4 that the dispatcher passes on whole.
  switch (op) {
    case 0xF658: return "CharacterList";
    case 0xF659: return "CharacterError";
    case 0xF7E1: return "ServerName";
    case 0xF7E5: return "DDDInterrogation";
    case 0xF7E6: return "DDDInterrogationResponse";
    case 0xF7EA: return "EndDDD";
    case 0xF7C8: return "CharacterEnterWorldRequest";
    case 0xF7DF: return "CharacterEnterWorldServerReady";
    case 0xF657: return "CharacterEnterWorld";
    case 0xF656: return "CharacterCreate";
    case 0xF643: return "CharacterCreateResponse";
    case 0xF655: return "CharacterDelete";
    case 0xF653: return "CharacterLogOff";
    case 0xF7DC: return "AccountBoot";
    case 0xF7E0: return "ServerMessage";
    case 0xF753: return "AutonomousPosition";
    case 0xF619: return "PositionAndMovement";
    case opcode::GameEvent: return "GameEvent";
    case opcode::GameAction: return "GameAction";
    default: return {};
  }
}

}  // namespace dereth::protocol
