#include "dereth/protocol/messages.hpp"

#include <fmt/format.h>

namespace dereth::protocol {

namespace {

// Reads the opcode, runs the body reader into m, and insists that every byte
// was used.
template <class T, class Body>
DERETH_READ_INLINE Result<void> decode_into(std::span<const std::uint8_t> bytes, std::uint32_t expected,
                                            std::string_view context, T& m, Body&& body) {
  ByteReader r(bytes, context);
  DERETH_TRY(const std::uint32_t op, r.u32("opcode"));
  if (op != expected) [[unlikely]] {
    return std::unexpected(r.error_at(0, core::ErrorKind::Invalid, "opcode",
                                      fmt::format("opcode 0x{:04X}, expected 0x{:04X}", op, expected)));
  }
  DERETH_CHECK(body(r, m));
  DERETH_CHECK(r.expect_end());
  return {};
}

// The same, into a new message.
template <class T, class Body>
Result<T> decode_whole(std::span<const std::uint8_t> bytes, std::uint32_t expected, std::string_view context,
                       Body&& body) {
  T m;
  DERETH_CHECK(decode_into(bytes, expected, context, m, std::forward<Body>(body)));
  return m;
}

template <class Body>
std::vector<std::uint8_t> encode_whole(std::uint32_t op, Body&& body) {
  ByteWriter w;
  w.u32(op);
  body(w);
  return std::move(w).take();
}

DERETH_READ_INLINE Result<void> read_object_description(ByteReader& r, CreateObject& m) {
  DERETH_TRY(m.guid, r.u32("guid"));
  DERETH_CHECK(read_obj_desc(r, m.model));
  DERETH_CHECK(read_physics_desc(r, m.physics));
  DERETH_CHECK(read_weenie_desc(r, m.weenie));
  return {};
}

void write_object_description(ByteWriter& w, const CreateObject& m) {
  w.u32(m.guid);
  write_obj_desc(w, m.model);
  write_physics_desc(w, m.physics);
  write_weenie_desc(w, m.weenie);
}

}  // namespace

Result<CreateObject> decode_create_object(std::span<const std::uint8_t> body) {
  CreateObject m;
  DERETH_CHECK(decode_create_object_into(body, m));
  return m;
}

Result<void> decode_create_object_into(std::span<const std::uint8_t> body, CreateObject& out) {
  return decode_into(body, opcode::CreateObject, "F745 CreateObject", out, read_object_description);
}

Result<void> decode_update_object_into(std::span<const std::uint8_t> body, UpdateObject& out) {
  return decode_into(body, opcode::UpdateObject, "F7DB UpdateObject", out, read_object_description);
}

Result<UpdateObject> decode_update_object(std::span<const std::uint8_t> body) {
  UpdateObject m;
  DERETH_CHECK(decode_update_object_into(body, m));
  return m;
}

Result<PlayerCreate> decode_player_create(std::span<const std::uint8_t> body) {
  return decode_whole<PlayerCreate>(body, opcode::PlayerCreate, "F746 PlayerCreate",
                                    [](ByteReader& r, PlayerCreate& m) -> ReadResult<void> {
                                      DERETH_TRY(m.guid, r.u32("guid"));
                                      return {};
                                    });
}

Result<DeleteObject> decode_delete_object(std::span<const std::uint8_t> body) {
  return decode_whole<DeleteObject>(body, opcode::DeleteObject, "F747 DeleteObject",
                                    [](ByteReader& r, DeleteObject& m) -> ReadResult<void> {
                                      DERETH_TRY(m.guid, r.u32("guid"));
                                      DERETH_TRY(m.instance_ts, r.u16("instance_ts"));
                                      return r.align4("align");
                                    });
}

Result<UpdatePosition> decode_update_position(std::span<const std::uint8_t> body) {
  return decode_whole<UpdatePosition>(body, opcode::UpdatePosition, "F748 UpdatePosition",
                                      [](ByteReader& r, UpdatePosition& m) -> Result<void> {
                                        DERETH_TRY(m.guid, r.u32("guid"));
                                        DERETH_TRY(m.position, read_position_pack(r));
                                        return {};
                                      });
}

Result<ParentEvent> decode_parent_event(std::span<const std::uint8_t> body) {
  return decode_whole<ParentEvent>(body, opcode::ParentEvent, "F749 ParentEvent",
                                   [](ByteReader& r, ParentEvent& m) -> ReadResult<void> {
                                     DERETH_TRY(m.parent_guid, r.u32("parent_guid"));
                                     DERETH_TRY(m.child_guid, r.u32("child_guid"));
                                     DERETH_TRY(m.parent_location, r.u32("parent_location"));
                                     DERETH_TRY(m.placement, r.u32("placement"));
                                     DERETH_TRY(m.parent_instance_ts, r.u16("parent_instance_ts"));
                                     DERETH_TRY(m.child_position_ts, r.u16("child_position_ts"));
                                     return {};
                                   });
}

Result<PickupEvent> decode_pickup_event(std::span<const std::uint8_t> body) {
  return decode_whole<PickupEvent>(body, opcode::PickupEvent, "F74A PickupEvent",
                                   [](ByteReader& r, PickupEvent& m) -> ReadResult<void> {
                                     DERETH_TRY(m.guid, r.u32("guid"));
                                     DERETH_TRY(m.instance_ts, r.u16("instance_ts"));
                                     DERETH_TRY(m.position_ts, r.u16("position_ts"));
                                     return {};
                                   });
}

Result<SetState> decode_set_state(std::span<const std::uint8_t> body) {
  return decode_whole<SetState>(body, opcode::SetState, "F74B SetState",
                                [](ByteReader& r, SetState& m) -> ReadResult<void> {
                                  DERETH_TRY(m.guid, r.u32("guid"));
                                  DERETH_TRY(m.state, r.u32("state"));
                                  DERETH_TRY(m.instance_ts, r.u16("instance_ts"));
                                  DERETH_TRY(m.state_ts, r.u16("state_ts"));
                                  return {};
                                });
}

Result<MovementEvent> decode_movement_event(std::span<const std::uint8_t> body) {
  return decode_whole<MovementEvent>(body, opcode::Movement, "F74C Movement",
                                     [](ByteReader& r, MovementEvent& m) -> Result<void> {
                                       DERETH_TRY(m.guid, r.u32("guid"));
                                       DERETH_TRY(m.instance_ts, r.u16("instance_ts"));
                                       DERETH_TRY(m.movement_ts, r.u16("movement_ts"));
                                       DERETH_TRY(m.server_control_ts, r.u16("server_control_ts"));
                                       DERETH_TRY(m.is_autonomous, r.u8("is_autonomous"));
                                       DERETH_CHECK(r.align4("header_align"));
                                       DERETH_TRY(m.data, read_movement_data(r));
                                       return {};
                                     });
}

Result<VectorUpdate> decode_vector_update(std::span<const std::uint8_t> body) {
  return decode_whole<VectorUpdate>(body, opcode::VectorUpdate, "F74E VectorUpdate",
                                    [](ByteReader& r, VectorUpdate& m) -> ReadResult<void> {
                                      DERETH_TRY(m.guid, r.u32("guid"));
                                      DERETH_TRY(m.velocity, read_vec3(r, "velocity"));
                                      DERETH_TRY(m.omega, read_vec3(r, "omega"));
                                      DERETH_TRY(m.instance_ts, r.u16("instance_ts"));
                                      DERETH_TRY(m.vector_ts, r.u16("vector_ts"));
                                      return {};
                                    });
}

Result<Sound> decode_sound(std::span<const std::uint8_t> body) {
  return decode_whole<Sound>(body, opcode::Sound, "F750 Sound", [](ByteReader& r, Sound& m) -> ReadResult<void> {
    DERETH_TRY(m.guid, r.u32("guid"));
    DERETH_TRY(m.sound_type, r.u32("sound_type"));
    DERETH_TRY(m.volume, r.f32("volume"));
    return {};
  });
}

Result<PlayerTeleport> decode_player_teleport(std::span<const std::uint8_t> body) {
  return decode_whole<PlayerTeleport>(body, opcode::PlayerTeleport, "F751 PlayerTeleport",
                                      [](ByteReader& r, PlayerTeleport& m) -> ReadResult<void> {
                                        DERETH_TRY(m.teleport_ts, r.u16("teleport_ts"));
                                        return r.align4("align");
                                      });
}

// SmartBox::HandlePlayScriptID 0x00452020 receives this packet.
Result<PlayScriptId> decode_play_script_id(std::span<const std::uint8_t> body) {
  return decode_whole<PlayScriptId>(body, opcode::PlayScriptId, "F754 PlayScriptId",
                                    [](ByteReader& r, PlayScriptId& m) -> ReadResult<void> {
                                      DERETH_TRY(m.guid, r.u32("guid"));
                                      DERETH_TRY(m.script_id, r.u32("script_id"));
                                      return {};
                                    });
}

// SmartBox::HandlePlayScriptType 0x00452070 receives this packet.
Result<PlayScriptType> decode_play_script_type(std::span<const std::uint8_t> body) {
  return decode_whole<PlayScriptType>(body, opcode::PlayScriptType, "F755 PlayScriptType",
                                      [](ByteReader& r, PlayScriptType& m) -> ReadResult<void> {
                                        DERETH_TRY(m.guid, r.u32("guid"));
                                        DERETH_TRY(m.script_type, r.u32("script_type"));
                                        DERETH_TRY(m.intensity_bits, r.f32_bits("intensity"));
                                        return {};
                                      });
}

Result<ObjDescEvent> decode_obj_desc_event(std::span<const std::uint8_t> body) {
  return decode_whole<ObjDescEvent>(body, opcode::ObjDescEvent, "F625 ObjDescEvent",
                                    [](ByteReader& r, ObjDescEvent& m) -> ReadResult<void> {
                                      DERETH_TRY(m.guid, r.u32("guid"));
                                      DERETH_CHECK(read_obj_desc(r, m.model));
                                      DERETH_TRY(m.instance_ts, r.u16("instance_ts"));
                                      DERETH_TRY(m.visual_desc_ts, r.u16("visual_desc_ts"));
                                      return {};
                                    });
}

std::vector<std::uint8_t> encode(const CreateObject& m) {
  return encode_whole(opcode::CreateObject, [&](ByteWriter& w) { write_object_description(w, m); });
}

std::vector<std::uint8_t> encode(const UpdateObject& m) {
  return encode_whole(opcode::UpdateObject, [&](ByteWriter& w) { write_object_description(w, m); });
}

std::vector<std::uint8_t> encode(const PlayerCreate& m) {
  return encode_whole(opcode::PlayerCreate, [&](ByteWriter& w) { w.u32(m.guid); });
}

std::vector<std::uint8_t> encode(const DeleteObject& m) {
  return encode_whole(opcode::DeleteObject, [&](ByteWriter& w) {
    w.u32(m.guid);
    w.u16(m.instance_ts);
    w.align4();
  });
}

std::vector<std::uint8_t> encode(const UpdatePosition& m) {
  return encode_whole(opcode::UpdatePosition, [&](ByteWriter& w) {
    w.u32(m.guid);
    write_position_pack(w, m.position);
  });
}

std::vector<std::uint8_t> encode(const ParentEvent& m) {
  return encode_whole(opcode::ParentEvent, [&](ByteWriter& w) {
    w.u32(m.parent_guid);
    w.u32(m.child_guid);
    w.u32(m.parent_location);
    w.u32(m.placement);
    w.u16(m.parent_instance_ts);
    w.u16(m.child_position_ts);
  });
}

std::vector<std::uint8_t> encode(const PickupEvent& m) {
  return encode_whole(opcode::PickupEvent, [&](ByteWriter& w) {
    w.u32(m.guid);
    w.u16(m.instance_ts);
    w.u16(m.position_ts);
  });
}

std::vector<std::uint8_t> encode(const SetState& m) {
  return encode_whole(opcode::SetState, [&](ByteWriter& w) {
    w.u32(m.guid);
    w.u32(m.state);
    w.u16(m.instance_ts);
    w.u16(m.state_ts);
  });
}

std::vector<std::uint8_t> encode(const MovementEvent& m) {
  return encode_whole(opcode::Movement, [&](ByteWriter& w) {
    w.u32(m.guid);
    w.u16(m.instance_ts);
    w.u16(m.movement_ts);
    w.u16(m.server_control_ts);
    w.u8(m.is_autonomous);
    w.align4();
    write_movement_data(w, m.data);
  });
}

std::vector<std::uint8_t> encode(const VectorUpdate& m) {
  return encode_whole(opcode::VectorUpdate, [&](ByteWriter& w) {
    w.u32(m.guid);
    write_vec3(w, m.velocity);
    write_vec3(w, m.omega);
    w.u16(m.instance_ts);
    w.u16(m.vector_ts);
  });
}

std::vector<std::uint8_t> encode(const Sound& m) {
  return encode_whole(opcode::Sound, [&](ByteWriter& w) {
    w.u32(m.guid);
    w.u32(m.sound_type);
    w.f32(m.volume);
  });
}

std::vector<std::uint8_t> encode(const PlayerTeleport& m) {
  return encode_whole(opcode::PlayerTeleport, [&](ByteWriter& w) {
    w.u16(m.teleport_ts);
    w.align4();
  });
}

std::vector<std::uint8_t> encode(const PlayScriptId& m) {
  return encode_whole(opcode::PlayScriptId, [&](ByteWriter& w) {
    w.u32(m.guid);
    w.u32(m.script_id);
  });
}

std::vector<std::uint8_t> encode(const PlayScriptType& m) {
  return encode_whole(opcode::PlayScriptType, [&](ByteWriter& w) {
    w.u32(m.guid);
    w.u32(m.script_type);
    w.f32_bits(m.intensity_bits);
  });
}

std::vector<std::uint8_t> encode(const ObjDescEvent& m) {
  return encode_whole(opcode::ObjDescEvent, [&](ByteWriter& w) {
    w.u32(m.guid);
    write_obj_desc(w, m.model);
    w.u16(m.instance_ts);
    w.u16(m.visual_desc_ts);
  });
}

std::vector<std::uint8_t> encode(const Unknown& m) {
  return m.bytes;
}

std::vector<std::uint8_t> encode(const Message& m) {
  return std::visit(
      [](const auto& msg) -> std::vector<std::uint8_t> {
        using T = std::decay_t<decltype(msg)>;
        if constexpr (std::is_same_v<T, PrivateUpdateAttribute> || std::is_same_v<T, PrivateUpdateAttribute2nd> ||
                      std::is_same_v<T, PrivateUpdateSkill> || std::is_same_v<T, PrivateUpdateStatLevel> ||
                      std::is_same_v<T, PlayerKilled>) {
          return encode(msg);  // top-level messages: the whole message
        } else if constexpr (std::is_same_v<T, PlayerDescription> || std::is_same_v<T, UpdateRestrictions> ||
                             std::is_same_v<T, AttackDone> || std::is_same_v<T, CombatCommenceAttack> ||
                             std::is_same_v<T, QueryHealthResponse> || std::is_same_v<T, MagicUpdateEnchantments> ||
                             std::is_same_v<T, MagicRemoveEnchantments> || std::is_same_v<T, MagicPurgeEnchantments> ||
                             std::is_same_v<T, MagicUpdateSpell> || std::is_same_v<T, MagicRemoveSpell> ||
                             std::is_same_v<T, ChatMessage>) {
          // What these keep is not the message they came in (no F7B0
          // header; a chat line is the window's text): their own writers
          // (encode_attack_done, ...) take what they need.
          return {};
        } else {
          return encode(msg);
        }
      },
      m);
}

}  // namespace dereth::protocol
