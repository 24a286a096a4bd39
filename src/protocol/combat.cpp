#include "dereth/protocol/combat.hpp"

#include <array>
#include <string_view>

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

Result<CombatCommenceAttack> decode_commence_attack(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B0/01B8 CombatCommenceAttack");
  DERETH_CHECK(expect_game_event(r, combat_event::CombatCommenceAttack));
  return CombatCommenceAttack{};
}

bool combat_notification_has_damage(std::uint32_t event) {
  return event == combat_event::AttackerNotification || event == combat_event::DefenderNotification;
}

std::string_view combat_notification_name(std::uint32_t event) {
  switch (event) {
    case combat_event::VictimNotification: return "VictimNotification";
    case combat_event::KillerNotification: return "KillerNotification";
    case combat_event::AttackerNotification: return "AttackerNotification";
    case combat_event::DefenderNotification: return "DefenderNotification";
    case combat_event::EvasionAttackerNotification: return "EvasionAttackerNotification";
    case combat_event::EvasionDefenderNotification: return "EvasionDefenderNotification";
    default: return {};
  }
}

bool is_combat_notification(std::uint32_t event) {
  return !combat_notification_name(event).empty();
}

std::vector<std::uint8_t> encode(const CombatNotification& m, std::uint32_t target, std::uint32_t sequence) {
  ByteWriter w;
  w.string16l(m.name);
  if (combat_notification_has_damage(m.event)) {
    w.u32(m.damage_type);
    w.f64(m.health_fraction);
    w.u32(m.damage);
    if (m.event == combat_event::DefenderNotification) w.u32(m.location);
    w.u32(m.critical ? 1U : 0U);
    w.u64(m.conditions);
  }
  return encode_game_event(target, sequence, m.event, std::move(w).take());
}

Result<CombatNotification> decode_combat_notification(std::span<const std::uint8_t> body) {
  const std::uint32_t event = peek_wrapped_type(body);
  ByteReader r(body, "F7B0 combat notification");
  // Another event fails the check against AttackerNotification, naming what came instead.
  DERETH_CHECK(expect_game_event(r, is_combat_notification(event) ? event : combat_event::AttackerNotification));
  CombatNotification m;
  m.event = event;
  DERETH_TRY(m.name, r.string16l(event == combat_event::KillerNotification || event == combat_event::VictimNotification
                                     ? "text"
                                     : "name"));
  if (combat_notification_has_damage(event)) {
    DERETH_TRY(m.damage_type, r.u32("damage_type"));
    DERETH_TRY(m.health_fraction, r.f64("health_fraction"));
    DERETH_TRY(m.damage, r.u32("damage"));
    if (event == combat_event::DefenderNotification) {
      DERETH_TRY(m.location, r.u32("location"));
    }
    DERETH_TRY(const std::uint32_t critical, r.u32("critical"));
    m.critical = critical != 0;
    DERETH_TRY(m.conditions, r.u64("conditions"));
  }
  return m;
}

namespace {
// DamageType bits (ACE's enum): the word for the first one set.
std::string_view damage_word(std::uint32_t type) {
  constexpr std::array<std::string_view, 11> kWords = {"slashing",  "piercing", "bludgeoning", "cold", "fire",  "acid",
                                                       "lightning", "health",   "stamina",     "mana", "nether"};
  for (std::size_t bit = 0; bit < kWords.size(); ++bit) {
    if ((type & (1U << bit)) != 0) return kWords[bit];
  }
  return {};
}

std::string points(const CombatNotification& m) {
  const std::string_view word = damage_word(m.damage_type);
  return fmt::format("{} point{} of {}{}damage", m.damage, m.damage == 1 ? "" : "s", word, word.empty() ? "" : " ");
}
}  // namespace

std::string combat_notification_text(const CombatNotification& m) {
  const std::string critical = m.critical ? "Critical hit! " : "";
  switch (m.event) {
    case combat_event::AttackerNotification: return fmt::format("{}You hit {} for {}.", critical, m.name, points(m));
    case combat_event::DefenderNotification: return fmt::format("{}{} hits you for {}.", critical, m.name, points(m));
    case combat_event::EvasionAttackerNotification: return fmt::format("{} evaded your attack.", m.name);
    case combat_event::EvasionDefenderNotification: return fmt::format("You evaded {}'s attack.", m.name);
    default: return m.name;  // Killer and Victim: the server's own sentence
  }
}

}  // namespace dereth::protocol
