#include "dereth/protocol/player_updates.hpp"

#include <bit>

#include <fmt/format.h>

#include "dereth/protocol/login.hpp"
#include "dereth/protocol/weenie_error.hpp"

#include "opcode_decode.hpp"
#include "quality_codec.hpp"

namespace dereth::protocol {

namespace {

// The header every private quality update shares: u8 timestamp, u32 stype.
template <class T>
Result<void> read_stat_header(ByteReader& r, T& m) {
  DERETH_TRY(m.wts, r.u8("wts"));
  DERETH_TRY(m.stype, r.u32("stype"));
  return {};
}

ByteWriter stat_header(std::uint32_t op, std::uint8_t wts, std::uint32_t stype) {
  ByteWriter w;
  w.u32(op);
  w.u8(wts);
  w.u32(stype);
  return w;
}

}  // namespace

bool is_stat_level_opcode(std::uint32_t op) {
  namespace q = quality_opcode;
  return op == q::PrivateUpdateInt || op == q::PrivateUpdateAttribute2ndLevel || op == q::PrivateUpdateAttributeLevel ||
         op == q::PrivateUpdateSkillLevel || op == q::PrivateUpdateSkillAC;
}

bool QueryHealthResponse::operator==(const QueryHealthResponse& o) const noexcept {
  return target == o.target && std::bit_cast<std::uint32_t>(health) == std::bit_cast<std::uint32_t>(o.health);
}

// CM_Qualities::DispatchUI_PrivateUpdateAttribute 0x006AE800
Result<PrivateUpdateAttribute> decode_private_update_attribute(std::span<const std::uint8_t> body) {
  return detail::decode_with<PrivateUpdateAttribute>(body, quality_opcode::PrivateUpdateAttribute,
                                                     "PrivateUpdateAttribute",
                                                     [](ByteReader& r, PrivateUpdateAttribute& m) -> Result<void> {
                                                       DERETH_CHECK(read_stat_header(r, m));
                                                       DERETH_TRY(m.value, read_attribute(r, "attribute"));
                                                       return {};
                                                     });
}

// CM_Qualities::DispatchUI_PrivateUpdateAttribute2nd 0x006AE8A0
Result<PrivateUpdateAttribute2nd> decode_private_update_attribute_2nd(std::span<const std::uint8_t> body) {
  return detail::decode_with<PrivateUpdateAttribute2nd>(
      body, quality_opcode::PrivateUpdateAttribute2nd, "PrivateUpdateAttribute2nd",
      [](ByteReader& r, PrivateUpdateAttribute2nd& m) -> Result<void> {
        DERETH_CHECK(read_stat_header(r, m));
        DERETH_TRY(const AttributeWire a, read_attribute(r, "vital"));
        DERETH_TRY(const std::uint32_t current, r.u32("vital.current_level"));
        m.value = SecondaryAttributeWire{a.level_from_cp, a.init_level, a.cp_spent, current};
        return {};
      });
}

// CM_Qualities::DispatchUI_PrivateUpdateSkill
Result<PrivateUpdateSkill> decode_private_update_skill(std::span<const std::uint8_t> body) {
  return detail::decode_with<PrivateUpdateSkill>(body, quality_opcode::PrivateUpdateSkill, "PrivateUpdateSkill",
                                                 [](ByteReader& r, PrivateUpdateSkill& m) -> Result<void> {
                                                   DERETH_CHECK(read_stat_header(r, m));
                                                   DERETH_TRY(m.value, read_skill(r));
                                                   return {};
                                                 });
}

// CM_Qualities::DispatchUI_PrivateUpdateAttribute2ndLevel 0x006AE930 and
// the Int, AttributeLevel, SkillLevel and SkillAC forms of the same shape.
Result<PrivateUpdateStatLevel> decode_private_update_stat_level(std::span<const std::uint8_t> body) {
  ByteReader r(body, "PrivateUpdateStatLevel");
  PrivateUpdateStatLevel m;
  DERETH_TRY(m.opcode, r.u32("opcode"));
  if (!is_stat_level_opcode(m.opcode)) {
    return std::unexpected(r.error_at(0, core::ErrorKind::Invalid, "opcode",
                                      fmt::format("opcode 0x{:04X}, expected a private stat level update", m.opcode)));
  }
  DERETH_CHECK(read_stat_header(r, m));
  DERETH_TRY(m.value, r.u32("value"));
  DERETH_CHECK(r.expect_end());
  return m;
}

// CM_Combat::DispatchUI_QueryHealthResponse
Result<QueryHealthResponse> decode_query_health_response(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B0/01C0 QueryHealthResponse");
  DERETH_CHECK(expect_game_event(r, player_event::QueryHealthResponse));
  QueryHealthResponse m;
  DERETH_TRY(m.target, r.u32("target"));
  DERETH_TRY(m.health, r.f32("health"));
  DERETH_CHECK(r.expect_end());
  return m;
}

// ClientCombatSystem::HandlePlayerDeathEvent 0x0056C320
Result<PlayerKilled> decode_player_killed(std::span<const std::uint8_t> body) {
  return detail::decode_with<PlayerKilled>(body, quality_opcode::PlayerKilled, "PlayerKilled",
                                           [](ByteReader& r, PlayerKilled& m) -> Result<void> {
                                             DERETH_TRY(m.text, r.string16l("text"));
                                             DERETH_TRY(m.victim, r.u32("victim"));
                                             DERETH_TRY(m.killer, r.u32("killer"));
                                             return {};
                                           });
}

std::vector<std::uint8_t> encode(const PrivateUpdateAttribute& m) {
  ByteWriter w = stat_header(quality_opcode::PrivateUpdateAttribute, m.wts, m.stype);
  w.u32(m.value.level_from_cp);
  w.u32(m.value.init_level);
  w.u32(m.value.cp_spent);
  return std::move(w).take();
}

std::vector<std::uint8_t> encode(const PrivateUpdateAttribute2nd& m) {
  ByteWriter w = stat_header(quality_opcode::PrivateUpdateAttribute2nd, m.wts, m.stype);
  w.u32(m.value.level_from_cp);
  w.u32(m.value.init_level);
  w.u32(m.value.cp_spent);
  w.u32(m.value.current_level);
  return std::move(w).take();
}

std::vector<std::uint8_t> encode(const PrivateUpdateSkill& m) {
  ByteWriter w = stat_header(quality_opcode::PrivateUpdateSkill, m.wts, m.stype);
  write_skill(w, m.value);
  return std::move(w).take();
}

std::vector<std::uint8_t> encode(const PrivateUpdateStatLevel& m) {
  ByteWriter w = stat_header(m.opcode, m.wts, m.stype);
  w.u32(m.value);
  return std::move(w).take();
}

std::vector<std::uint8_t> encode(const QueryHealthResponse& m, std::uint32_t target, std::uint32_t sequence) {
  ByteWriter w;
  w.u32(m.target);
  w.f32(m.health);
  return encode_game_event(target, sequence, player_event::QueryHealthResponse, std::move(w).take());
}

std::vector<std::uint8_t> encode(const PlayerKilled& m) {
  ByteWriter w;
  w.u32(quality_opcode::PlayerKilled);
  w.string16l(m.text);
  w.u32(m.victim);
  w.u32(m.killer);
  return std::move(w).take();
}

// CM_Item::DispatchUI_UseDone
Result<UseDone> decode_use_done(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B0/01C7 UseDone");
  DERETH_CHECK(expect_game_event(r, player_event::UseDone));
  UseDone m;
  DERETH_TRY(m.error, r.u32("error"));
  DERETH_CHECK(r.expect_end());
  return m;
}

std::vector<std::uint8_t> encode(const UseDone& m, std::uint32_t target, std::uint32_t sequence) {
  ByteWriter w;
  w.u32(m.error);
  return encode_game_event(target, sequence, player_event::UseDone, std::move(w).take());
}

// ClientUISystem::Handle_Item__UseDone 0x00564900
std::optional<ChatLine> use_done_line(const UseDone& m) {
  if (m.error == 0) return std::nullopt;
  ChatLine line;
  line.chat_type = chat_type::System;
  line.channel = "error";  // as a WeenieError's line
  line.text = weenie_error_text(m.error);
  return line;
}

}  // namespace dereth::protocol
