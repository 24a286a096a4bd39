#include <algorithm>
#include <array>

#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"

namespace dereth::protocol {

namespace {

// The event column of a top-level row (an F7B0 row names its event type).
constexpr std::uint32_t kTopLevel = 0xFFFFFFFFu;

enum class Kind : std::uint8_t { Object, GameEvent, Chat };

struct Entry {
  std::uint32_t opcode;
  std::uint32_t event;  // kTopLevel, or the F7B0 event type
  std::string_view name;
  Kind kind;
  Result<Message> (*decode)(std::span<const std::uint8_t>);
};

template <auto Decode>
Result<Message> as_message(std::span<const std::uint8_t> body) {
  auto decoded = Decode(body);
  if (!decoded) return std::unexpected(std::move(decoded.error()));
  return Message{std::move(*decoded)};
}

template <auto Line>
Result<Message> as_chat(std::span<const std::uint8_t> body) {
  auto line = Line(body);
  if (!line) return std::unexpected(std::move(line.error()));
  return Message{ChatMessage{peek_opcode(body), std::move(*line)}};
}

constexpr std::uint32_t kGameEvent = opcode::GameEvent;

// Every inbound message dereth decodes: a new one is a row here and an
// alternative of Message (and its handler in app::World).
constexpr std::array kEntries = {
    // The object messages (the SmartBox's).
    Entry{opcode::ObjDescEvent, kTopLevel, "ObjDescEvent", Kind::Object, &as_message<decode_obj_desc_event>},
    Entry{opcode::CreateObject, kTopLevel, "CreateObject", Kind::Object, &as_message<decode_create_object>},
    Entry{opcode::PlayerCreate, kTopLevel, "PlayerCreate", Kind::Object, &as_message<decode_player_create>},
    Entry{opcode::DeleteObject, kTopLevel, "DeleteObject", Kind::Object, &as_message<decode_delete_object>},
    Entry{opcode::UpdatePosition, kTopLevel, "UpdatePosition", Kind::Object, &as_message<decode_update_position>},
    Entry{opcode::ParentEvent, kTopLevel, "ParentEvent", Kind::Object, &as_message<decode_parent_event>},
    Entry{opcode::PickupEvent, kTopLevel, "PickupEvent", Kind::Object, &as_message<decode_pickup_event>},
    Entry{opcode::SetState, kTopLevel, "SetState", Kind::Object, &as_message<decode_set_state>},
    Entry{opcode::Movement, kTopLevel, "Movement", Kind::Object, &as_message<decode_movement_event>},
    Entry{opcode::VectorUpdate, kTopLevel, "VectorUpdate", Kind::Object, &as_message<decode_vector_update>},
    Entry{opcode::Sound, kTopLevel, "Sound", Kind::Object, &as_message<decode_sound>},
    Entry{opcode::PlayerTeleport, kTopLevel, "PlayerTeleport", Kind::Object, &as_message<decode_player_teleport>},
    Entry{opcode::PlayScriptId, kTopLevel, "PlayScriptId", Kind::Object, &as_message<decode_play_script_id>},
    Entry{opcode::PlayScriptType, kTopLevel, "PlayScriptType", Kind::Object, &as_message<decode_play_script_type>},
    Entry{opcode::UpdateObject, kTopLevel, "UpdateObject", Kind::Object, &as_message<decode_update_object>},
    // The game events the client acts on (keyed by their event type).
    Entry{kGameEvent, login_opcode::PlayerDescriptionEvent, "PlayerDescription", Kind::GameEvent,
          &as_message<decode_player_description>},
    Entry{kGameEvent, house_event::UpdateRestrictions, "UpdateRestrictions", Kind::GameEvent,
          &as_message<decode_update_restrictions>},
    Entry{kGameEvent, combat_event::AttackDone, "AttackDone", Kind::GameEvent, &as_message<decode_attack_done>},
    Entry{kGameEvent, combat_event::CombatCommenceAttack, "CombatCommenceAttack", Kind::GameEvent,
          &as_message<decode_commence_attack>},
    // The player's own state (player_updates.hpp, magic.hpp).
    Entry{quality_opcode::PrivateUpdateAttribute, kTopLevel, "PrivateUpdateAttribute", Kind::GameEvent,
          &as_message<decode_private_update_attribute>},
    Entry{quality_opcode::PrivateUpdateAttribute2nd, kTopLevel, "PrivateUpdateAttribute2nd", Kind::GameEvent,
          &as_message<decode_private_update_attribute_2nd>},
    Entry{quality_opcode::PrivateUpdateSkill, kTopLevel, "PrivateUpdateSkill", Kind::GameEvent,
          &as_message<decode_private_update_skill>},
    Entry{quality_opcode::PrivateUpdateInt, kTopLevel, "PrivateUpdateInt", Kind::GameEvent,
          &as_message<decode_private_update_stat_level>},
    Entry{quality_opcode::PrivateUpdateAttribute2ndLevel, kTopLevel, "PrivateUpdateAttribute2ndLevel", Kind::GameEvent,
          &as_message<decode_private_update_stat_level>},
    Entry{quality_opcode::PrivateUpdateAttributeLevel, kTopLevel, "PrivateUpdateAttributeLevel", Kind::GameEvent,
          &as_message<decode_private_update_stat_level>},
    Entry{quality_opcode::PrivateUpdateSkillLevel, kTopLevel, "PrivateUpdateSkillLevel", Kind::GameEvent,
          &as_message<decode_private_update_stat_level>},
    Entry{quality_opcode::PrivateUpdateSkillAC, kTopLevel, "PrivateUpdateSkillAC", Kind::GameEvent,
          &as_message<decode_private_update_stat_level>},
    Entry{quality_opcode::PlayerKilled, kTopLevel, "PlayerKilled", Kind::GameEvent, &as_message<decode_player_killed>},
    Entry{kGameEvent, player_event::QueryHealthResponse, "QueryHealthResponse", Kind::GameEvent,
          &as_message<decode_query_health_response>},
    Entry{kGameEvent, player_event::UseDone, "UseDone", Kind::GameEvent, &as_message<decode_use_done>},
    Entry{kGameEvent, magic_event::UpdateEnchantment, "MagicUpdateEnchantment", Kind::GameEvent,
          &as_message<decode_magic_update_enchantments>},
    Entry{kGameEvent, magic_event::UpdateMultipleEnchantments, "MagicUpdateMultipleEnchantments", Kind::GameEvent,
          &as_message<decode_magic_update_enchantments>},
    Entry{kGameEvent, magic_event::RemoveEnchantment, "MagicRemoveEnchantment", Kind::GameEvent,
          &as_message<decode_magic_remove_enchantments>},
    Entry{kGameEvent, magic_event::RemoveMultipleEnchantments, "MagicRemoveMultipleEnchantments", Kind::GameEvent,
          &as_message<decode_magic_remove_enchantments>},
    Entry{kGameEvent, magic_event::DispelEnchantment, "MagicDispelEnchantment", Kind::GameEvent,
          &as_message<decode_magic_remove_enchantments>},
    Entry{kGameEvent, magic_event::DispelMultipleEnchantments, "MagicDispelMultipleEnchantments", Kind::GameEvent,
          &as_message<decode_magic_remove_enchantments>},
    Entry{kGameEvent, magic_event::PurgeEnchantments, "MagicPurgeEnchantments", Kind::GameEvent,
          &as_message<decode_magic_purge_enchantments>},
    Entry{kGameEvent, magic_event::PurgeBadEnchantments, "MagicPurgeBadEnchantments", Kind::GameEvent,
          &as_message<decode_magic_purge_enchantments>},
    Entry{kGameEvent, magic_event::UpdateSpell, "MagicUpdateSpell", Kind::GameEvent,
          &as_message<decode_magic_update_spell>},
    Entry{kGameEvent, magic_event::RemoveSpell, "MagicRemoveSpell", Kind::GameEvent,
          &as_message<decode_magic_remove_spell>},
    // Chat: every message the chat window shows a line of.
    Entry{login_opcode::ServerMessage, kTopLevel, "ServerMessage", Kind::Chat, &as_chat<server_message_line>},
    Entry{chat_opcode::HearSpeech, kTopLevel, "HearSpeech", Kind::Chat, &as_chat<hear_speech_line>},
    Entry{chat_opcode::HearRangedSpeech, kTopLevel, "HearRangedSpeech", Kind::Chat, &as_chat<hear_speech_line>},
    Entry{chat_opcode::HearEmote, kTopLevel, "HearEmote", Kind::Chat, &as_chat<hear_emote_line>},
    Entry{chat_opcode::HearSoulEmote, kTopLevel, "HearSoulEmote", Kind::Chat, &as_chat<hear_emote_line>},
    Entry{kGameEvent, chat_event::HearDirectSpeech, "HearDirectSpeech", Kind::Chat, &as_chat<hear_direct_speech_line>},
    Entry{kGameEvent, chat_event::ChannelBroadcast, "ChannelBroadcast", Kind::Chat, &as_chat<channel_broadcast_line>},
    Entry{kGameEvent, chat_event::WeenieError, "WeenieError", Kind::Chat, &as_chat<weenie_error_line>},
    Entry{kGameEvent, chat_event::WeenieErrorWithString, "WeenieErrorWithString", Kind::Chat,
          &as_chat<weenie_error_line>},
    Entry{kGameEvent, chat_event::TransientString, "TransientString", Kind::Chat, &as_chat<status_string_line>},
    Entry{kGameEvent, chat_event::PopupString, "PopupString", Kind::Chat, &as_chat<status_string_line>},
    Entry{kGameEvent, combat_event::VictimNotification, "VictimNotification", Kind::Chat,
          &as_chat<combat_notification_line>},
    Entry{kGameEvent, combat_event::KillerNotification, "KillerNotification", Kind::Chat,
          &as_chat<combat_notification_line>},
    Entry{kGameEvent, combat_event::AttackerNotification, "AttackerNotification", Kind::Chat,
          &as_chat<combat_notification_line>},
    Entry{kGameEvent, combat_event::DefenderNotification, "DefenderNotification", Kind::Chat,
          &as_chat<combat_notification_line>},
    Entry{kGameEvent, combat_event::EvasionAttackerNotification, "EvasionAttackerNotification", Kind::Chat,
          &as_chat<combat_notification_line>},
    Entry{kGameEvent, combat_event::EvasionDefenderNotification, "EvasionDefenderNotification", Kind::Chat,
          &as_chat<combat_notification_line>},
};

constexpr std::uint64_t key_of(std::uint32_t op, std::uint32_t event) {
  return (std::uint64_t{op} << 32) | event;
}

// The lookup table: every row's (opcode, event) key beside its row number,
// sorted by key at compile time, searched by halving (six steps for the
// table's 57 rows).
struct Key {
  std::uint64_t key;
  std::uint8_t row;
};

constexpr auto kKeys = [] {
  std::array<Key, kEntries.size()> keys{};
  for (std::size_t i = 0; i < kEntries.size(); ++i) {
    keys[i] = Key{key_of(kEntries[i].opcode, kEntries[i].event), static_cast<std::uint8_t>(i)};
  }
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) { return a.key < b.key; });
  return keys;
}();
static_assert(kEntries.size() < 256);
static_assert(std::adjacent_find(kKeys.begin(), kKeys.end(),
                                 [](const Key& a, const Key& b) { return a.key == b.key; }) == kKeys.end(),
              "two rows of the dispatcher's table name the same message");

// The row of (opcode, event); none for an opcode or event no row names.
const Entry* find(std::uint32_t op, std::uint32_t event) {
  const std::uint64_t key = key_of(op, event);
  const auto* it =
      std::lower_bound(kKeys.begin(), kKeys.end(), key, [](const Key& k, std::uint64_t v) { return k.key < v; });
  return it != kKeys.end() && it->key == key ? &kEntries[it->row] : nullptr;
}

// The row of a whole message: an F7B0 by its event type (an F7B0 too short
// to carry one has event 0, which no row names).
const Entry* find(std::span<const std::uint8_t> body) {
  const std::uint32_t op = peek_opcode(body);
  return find(op, op == kGameEvent ? peek_wrapped_type(body) : kTopLevel);
}

const Entry* find_object(std::uint32_t op) {
  const Entry* e = find(op, kTopLevel);
  return e != nullptr && e->kind == Kind::Object ? e : nullptr;
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
  std::uint32_t operator()(const PlayerDescription&) const { return kGameEvent; }
  std::uint32_t operator()(const UpdateRestrictions&) const { return kGameEvent; }
  std::uint32_t operator()(const AttackDone&) const { return kGameEvent; }
  std::uint32_t operator()(const CombatCommenceAttack&) const { return kGameEvent; }
  std::uint32_t operator()(const PrivateUpdateAttribute&) const { return quality_opcode::PrivateUpdateAttribute; }
  std::uint32_t operator()(const PrivateUpdateAttribute2nd&) const { return quality_opcode::PrivateUpdateAttribute2nd; }
  std::uint32_t operator()(const PrivateUpdateSkill&) const { return quality_opcode::PrivateUpdateSkill; }
  std::uint32_t operator()(const PrivateUpdateStatLevel& m) const { return m.opcode; }
  std::uint32_t operator()(const QueryHealthResponse&) const { return kGameEvent; }
  std::uint32_t operator()(const MagicUpdateEnchantments&) const { return kGameEvent; }
  std::uint32_t operator()(const MagicRemoveEnchantments&) const { return kGameEvent; }
  std::uint32_t operator()(const MagicPurgeEnchantments&) const { return kGameEvent; }
  std::uint32_t operator()(const MagicUpdateSpell&) const { return kGameEvent; }
  std::uint32_t operator()(const MagicRemoveSpell&) const { return kGameEvent; }
  std::uint32_t operator()(const PlayerKilled&) const { return quality_opcode::PlayerKilled; }
  std::uint32_t operator()(const UseDone&) const { return kGameEvent; }
  std::uint32_t operator()(const ChatMessage& m) const { return m.opcode; }
  std::uint32_t operator()(const Unknown& u) const { return u.opcode; }
};

}  // namespace

Result<Message> decode_message(std::span<const std::uint8_t> body) {
  ByteReader r(body, "message");
  DERETH_TRY(const std::uint32_t op, r.u32("opcode"));
  if (const Entry* e = find(body)) {
    return e->decode(body);
  }
  return Message{Unknown{op, std::vector<std::uint8_t>(body.begin(), body.end())}};
}

std::uint32_t opcode_of(const Message& m) {
  return std::visit(OpcodeOf{}, m);
}

// The object messages are Message's first alternatives, through ObjDescEvent.
constexpr std::size_t kObjectAlternatives = 15;
static_assert(std::is_same_v<std::variant_alternative_t<kObjectAlternatives - 1, Message>, ObjDescEvent>);
static_assert(std::is_same_v<std::variant_alternative_t<kObjectAlternatives, Message>, PlayerDescription>);

bool is_object_message(const Message& m) {
  return m.index() < kObjectAlternatives;
}

std::string_view message_name(std::uint32_t op) {
  const Entry* e = find_object(op);
  return e ? e->name : std::string_view{};
}

bool is_object_opcode(std::uint32_t op) {
  return find_object(op) != nullptr;
}

bool is_dispatched(std::span<const std::uint8_t> body) {
  return find(body) != nullptr;
}

bool is_chat_message(std::span<const std::uint8_t> body) {
  const Entry* e = find(body);
  return e != nullptr && e->kind == Kind::Chat;
}

Result<std::optional<ChatLine>> chat_line(std::span<const std::uint8_t> body) {
  if (!is_chat_message(body)) return std::optional<ChatLine>{};
  DERETH_TRY(Message m, decode_message(body));
  return std::optional<ChatLine>{std::move(std::get<ChatMessage>(m).line)};
}

std::string_view opcode_name(std::uint32_t op) {
  if (const Entry* e = find_object(op)) return e->name;
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
