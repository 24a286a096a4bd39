#include "dereth/protocol/combat.hpp"

#include <fmt/format.h>

#include "dereth/protocol/login.hpp"

namespace dereth::protocol {

std::vector<std::uint8_t> encode(const TargetedAttack& m) {
  ByteWriter w;
  w.u32(login_opcode::GameAction);
  w.u32(m.sequence);
  w.u32(m.action);
  w.u32(m.target);
  w.u32(m.height);
  w.f32(m.power);
  return std::move(w).take();
}

Result<TargetedAttack> decode_targeted_attack(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1 TargetedAttack");
  DERETH_TRY(const std::uint32_t op, r.u32("opcode"));
  if (op != login_opcode::GameAction) {
    return std::unexpected(
        r.error_at(0, core::ErrorKind::Invalid, "opcode", fmt::format("opcode 0x{:04X}, expected 0xF7B1", op)));
  }
  TargetedAttack m;
  DERETH_TRY(m.sequence, r.u32("sequence"));
  const std::size_t type_at = r.position();
  DERETH_TRY(m.action, r.u32("action_type"));
  if (m.action != combat_action::TargetedMeleeAttack && m.action != combat_action::TargetedMissileAttack) {
    return std::unexpected(r.error_at(type_at, core::ErrorKind::Invalid, "action_type",
                                      fmt::format("action 0x{:04X}, expected 0x0008 or 0x000A", m.action)));
  }
  DERETH_TRY(m.target, r.u32("target"));
  DERETH_TRY(m.height, r.u32("attack_height"));
  DERETH_TRY(m.power, r.f32("power"));
  return m;
}

std::vector<std::uint8_t> encode_change_combat_mode(std::uint32_t sequence, std::uint32_t mode) {
  ByteWriter w;
  w.u32(login_opcode::GameAction);
  w.u32(sequence);
  w.u32(combat_action::ChangeCombatMode);
  w.u32(mode);
  return std::move(w).take();
}

Result<ChangeCombatMode> decode_change_combat_mode(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/0053 ChangeCombatMode");
  DERETH_TRY(const std::uint32_t op, r.u32("opcode"));
  if (op != login_opcode::GameAction) {
    return std::unexpected(
        r.error_at(0, core::ErrorKind::Invalid, "opcode", fmt::format("opcode 0x{:04X}, expected 0xF7B1", op)));
  }
  ChangeCombatMode m;
  DERETH_TRY(m.sequence, r.u32("sequence"));
  DERETH_TRY(const std::uint32_t action, r.u32("action_type"));
  if (action != combat_action::ChangeCombatMode) {
    return std::unexpected(r.error_at(8, core::ErrorKind::Invalid, "action_type",
                                      fmt::format("action 0x{:04X}, expected 0x0053", action)));
  }
  DERETH_TRY(m.mode, r.u32("mode"));
  DERETH_CHECK(r.expect_end());
  return m;
}

std::vector<std::uint8_t> encode_attack_done(std::uint32_t target, std::uint32_t sequence, const AttackDone& m) {
  ByteWriter w;
  w.u32(m.error);
  return encode_game_event(target, sequence, combat_event::AttackDone, std::move(w).take());
}

Result<AttackDone> decode_attack_done(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B0/01A7 AttackDone");
  DERETH_CHECK(expect_game_event(r, combat_event::AttackDone));
  AttackDone m;
  DERETH_TRY(m.error, r.u32("error"));
  return m;
}

std::vector<std::uint8_t> encode_commence_attack(std::uint32_t target, std::uint32_t sequence) {
  return encode_game_event(target, sequence, combat_event::CombatCommenceAttack, {});
}

}  // namespace dereth::protocol
