#pragma once
// What the server tells the player about its own state after the
// PlayerDescription: the private quality updates (one attribute, vital or
// skill, whole or its level only), the selected target's health, and a
// death broadcast. Opcodes and bodies as the retail dispatchers read them
// (CM_Qualities::DispatchUI_PrivateUpdateAttribute 0x006AE800 and its
// siblings: u32 opcode, u8 timestamp, u32 stype, the value; CM_Combat::
// DispatchUI_QueryHealthResponse: u32 target, f32 health;
// ClientCombatSystem::HandlePlayerDeathEvent 0x0056C320: String16L, u32
// victim, u32 killer), checked against ACE's GameMessageOpcode and writers.
// Wire layouts: docs/protocol.md, "The player's state".

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/player_description.hpp"
#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

// Top-level opcodes (retail CM_Qualities names; ACE's in the comments).
namespace quality_opcode {
inline constexpr std::uint32_t PrivateUpdateInt = 0x02CD;  // ACE: PrivateUpdatePropertyInt
inline constexpr std::uint32_t PrivateUpdateSkill = 0x02DD;
inline constexpr std::uint32_t PrivateUpdateSkillLevel = 0x02DF;
inline constexpr std::uint32_t PrivateUpdateSkillAC = 0x02E1;
inline constexpr std::uint32_t PrivateUpdateAttribute = 0x02E3;
inline constexpr std::uint32_t PrivateUpdateAttributeLevel = 0x02E5;
inline constexpr std::uint32_t PrivateUpdateAttribute2nd = 0x02E7;       // ACE: PrivateUpdateVital
inline constexpr std::uint32_t PrivateUpdateAttribute2ndLevel = 0x02E9;  // ACE: the vital's current value
inline constexpr std::uint32_t PlayerKilled = 0x019E;                    // a death, told to everyone near
}  // namespace quality_opcode

namespace player_event {
// F7B0 event: the answer to QueryHealth (ACE: UpdateHealth).
inline constexpr std::uint32_t QueryHealthResponse = 0x01C0;
// F7B0 event: a use (or a cast) ended, with the WeenieError that ended it.
inline constexpr std::uint32_t UseDone = 0x01C7;
}  // namespace player_event

// 0x02E3: u8 timestamp, u32 STypeAttribute (1..6), Attribute (12 bytes).
struct PrivateUpdateAttribute {
  std::uint8_t wts = 0;
  std::uint32_t stype = 0;
  AttributeWire value;
  bool operator==(const PrivateUpdateAttribute&) const = default;
};

// 0x02E7: u8 timestamp, u32 STypeAttribute2nd (1 health, 3 stamina, 5 mana:
// the maximum's stype), SecondaryAttribute (16 bytes, the current value last).
struct PrivateUpdateAttribute2nd {
  std::uint8_t wts = 0;
  std::uint32_t stype = 0;
  SecondaryAttributeWire value;
  bool operator==(const PrivateUpdateAttribute2nd&) const = default;
};

// 0x02DD: u8 timestamp, u32 STypeSkill, Skill (32 bytes).
struct PrivateUpdateSkill {
  std::uint8_t wts = 0;
  std::uint32_t stype = 0;
  SkillWire value;
  bool operator==(const PrivateUpdateSkill&) const = default;
};

// The five one-number forms, one layout: u8 timestamp, u32 stype, u32
// value. 0x02CD an int property (the value signed: burden, deaths, ...); 0x02E9 the current vital (stype 2, 4, 6) or a
// maximum's starting value (1, 3, 5); 0x02E5 an attribute's starting value; 0x02DF a skill's starting level
// (CACQualities::SetSkillLevel sets init_level); 0x02E1 a skill's advancement class.
struct PrivateUpdateStatLevel {
  std::uint32_t opcode = quality_opcode::PrivateUpdateAttribute2ndLevel;
  std::uint8_t wts = 0;
  std::uint32_t stype = 0;
  std::uint32_t value = 0;
  bool operator==(const PrivateUpdateStatLevel&) const = default;
};
[[nodiscard]] bool is_stat_level_opcode(std::uint32_t opcode);

// F7B0 0x01C0: the target and its health as a fraction of its maximum.
struct QueryHealthResponse {
  std::uint32_t target = 0;
  float health = 0.0f;
  bool operator==(const QueryHealthResponse& o) const noexcept;  // health by its bits
};

// F7B0 0x01C7 UseDone: u32 WeenieError (0: done, nothing to say). ACE ends
// a cast the player lacks the mana for with it (0x0401).
struct UseDone {
  std::uint32_t error = 0;
  bool operator==(const UseDone&) const = default;
};
// ClientUISystem::Handle_Item__UseDone 0x00564900: a non-zero code is told as a
// failure (ClientCommunicationSystem::HandleFailureEvent, the WeenieError's
// sentence in the chat window); 0 says nothing.
[[nodiscard]] std::optional<ChatLine> use_done_line(const UseDone& m);

// 0x019E: the server's sentence, the victim, the killer.
struct PlayerKilled {
  std::string text;
  std::uint32_t victim = 0;
  std::uint32_t killer = 0;
  bool operator==(const PlayerKilled&) const = default;
};

// Decoders take the whole message (opcode first) and consume it exactly.
Result<PrivateUpdateAttribute> decode_private_update_attribute(std::span<const std::uint8_t> body);
Result<PrivateUpdateAttribute2nd> decode_private_update_attribute_2nd(std::span<const std::uint8_t> body);
Result<PrivateUpdateSkill> decode_private_update_skill(std::span<const std::uint8_t> body);
// Any of the four one-number opcodes.
Result<PrivateUpdateStatLevel> decode_private_update_stat_level(std::span<const std::uint8_t> body);
Result<QueryHealthResponse> decode_query_health_response(std::span<const std::uint8_t> body);
Result<PlayerKilled> decode_player_killed(std::span<const std::uint8_t> body);
Result<UseDone> decode_use_done(std::span<const std::uint8_t> body);

std::vector<std::uint8_t> encode(const PrivateUpdateAttribute& m);
std::vector<std::uint8_t> encode(const PrivateUpdateAttribute2nd& m);
std::vector<std::uint8_t> encode(const PrivateUpdateSkill& m);
std::vector<std::uint8_t> encode(const PrivateUpdateStatLevel& m);
std::vector<std::uint8_t> encode(const QueryHealthResponse& m, std::uint32_t target, std::uint32_t sequence);
std::vector<std::uint8_t> encode(const PlayerKilled& m);
std::vector<std::uint8_t> encode(const UseDone& m, std::uint32_t target, std::uint32_t sequence);

}  // namespace dereth::protocol
