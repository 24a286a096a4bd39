#include "dereth/protocol/combat.hpp"

#include <array>
#include <string_view>

#include <fmt/format.h>

#include "dereth/protocol/chat.hpp"
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

// AppraisalSystem::DamageTypeToString 0x005B4200: each set bit's name, in
// bit order, joined by '/'; the combat lines use it lower-cased. Health,
// stamina and mana damage have no name (the line reads "of damage").
std::string damage_type_words(std::uint32_t type) {
  constexpr std::array<std::pair<std::uint32_t, std::string_view>, 9> kNames = {{{0x1, "slashing"},
                                                                                 {0x2, "piercing"},
                                                                                 {0x4, "bludgeoning"},
                                                                                 {0x8, "cold"},
                                                                                 {0x10, "fire"},
                                                                                 {0x20, "acid"},
                                                                                 {0x40, "electrical"},
                                                                                 {0x400, "nether"},
                                                                                 {0x10000000, "prismatic"}}};
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if ((type & bit) == 0) continue;
    if (!out.empty()) out += '/';
    out += name;
  }
  return out;
}

// BodyPartEnumMapper::BodyPartToString, lower-cased with underscores as
// spaces (EmapToDisplay::LowerCaseRemoveUnderscores); empty for a number
// the table does not name.
std::string_view body_part_words(std::uint32_t part) {
  constexpr std::array<std::string_view, 28> kParts = {
      "undefined", "head",           "chest",          "abdomen",   "upper arm", "lower arm",  "hand",     "upper leg",
      "lower leg", "foot",           "horn",           "front leg", "",          "front foot", "rear leg", "",
      "rear foot", "torso",          "tail",           "arm",       "leg",       "claw",       "wings",    "breath",
      "tentacle",  "upper tentacle", "lower tentacle", "cloak"};
  return part < kParts.size() ? kParts[part] : std::string_view{};
}

std::string points(const CombatNotification& m) {
  const std::string words = damage_type_words(m.damage_type);
  return fmt::format("{} point{} of {}{}damage!", m.damage, m.damage == 1 ? "" : "s", words, words.empty() ? "" : " ");
}

}  // namespace

// CombatSystem::InqCombatHitAdjectives 0x005C9040: the verb by the damage
// type (one type exactly; any other value "hit") and the share of the
// defender's health the blow took (above 0.5, 0.25, 0.1, or less).
CombatVerb combat_hit_adjectives(std::uint32_t damage_type, double health_fraction) {
  struct Row {
    std::uint32_t type;
    std::array<CombatVerb, 4> verbs;  // above 0.5, above 0.25, above 0.1, the rest
  };
  static constexpr std::array<Row, 9> kRows = {{
      {0x1, {{{"mangle", "mangles"}, {"slash", "slashes"}, {"cut", "cuts"}, {"scratch", "scratches"}}}},
      {0x2, {{{"gore", "gores"}, {"impale", "impales"}, {"stab", "stabs"}, {"nick", "nicks"}}}},
      {0x4, {{{"crush", "crushes"}, {"smash", "smashes"}, {"bash", "bashes"}, {"graze", "grazes"}}}},
      {0x8, {{{"freeze", "freezes"}, {"frost", "frosts"}, {"chill", "chills"}, {"numb", "numbs"}}}},
      {0x10, {{{"incinerate", "incinerates"}, {"burn", "burns"}, {"scorch", "scorches"}, {"singe", "singes"}}}},
      {0x20, {{{"dissolve", "dissolves"}, {"corrode", "corrodes"}, {"sear", "sears"}, {"blister", "blisters"}}}},
      {0x40, {{{"blast", "blasts"}, {"jolt", "jolts"}, {"shock", "shocks"}, {"spark", "sparks"}}}},
      {0x80, {{{"deplete", "depletes"}, {"siphon", "siphons"}, {"exhaust", "exhausts"}, {"drain", "drains"}}}},
      {0x400, {{{"eradicate", "eradicates"}, {"wither", "withers"}, {"twist", "twists"}, {"scar", "scars"}}}},
  }};
  for (const Row& row : kRows) {
    if (row.type != damage_type) continue;
    const std::size_t band = health_fraction > 0.5 ? 0 : health_fraction > 0.25 ? 1 : health_fraction > 0.1 ? 2 : 3;
    return row.verbs[band];
  }
  return {"hit", "hits"};
}

std::string combat_notification_text(const CombatNotification& m) {
  switch (m.event) {
    case combat_event::AttackerNotification: {
      // ClientCombatSystem::HandleAttackerNotificationEvent 0x0056B420
      std::string line = m.critical ? "Critical hit!  " : "";
      if ((m.conditions & attack_condition::SneakAttack) != 0) line += "Sneak Attack! ";
      if ((m.conditions & attack_condition::Recklessness) != 0) line += "Recklessness! ";
      line += fmt::format("You {} {} for {}", combat_hit_adjectives(m.damage_type, m.health_fraction).single, m.name,
                          points(m));
      if ((m.conditions & attack_condition::CriticalProtection) != 0) {
        line += " Your target's Critical Protection augmentation allows them to avoid your critical hit!";
      }
      return line;
    }
    case combat_event::DefenderNotification: {
      // ClientCombatSystem::HandleDefenderNotificationEvent 0x0056C920
      std::string line = m.critical ? "Critical hit! " : "";
      if ((m.conditions & attack_condition::SneakAttack) != 0) line += "Sneak Attack! ";
      if ((m.conditions & attack_condition::Recklessness) != 0) line += "Reckless! ";
      const std::string_view part = body_part_words(m.location);
      const std::string whom = part.empty() ? std::string("you") : fmt::format("your {}", part);
      line += fmt::format("{} {} {} for {}", m.name, combat_hit_adjectives(m.damage_type, m.health_fraction).plural,
                          whom, points(m));
      return line;
    }
    // ClientCombatSystem::HandleEvasionAttackerNotificationEvent 0x0056C7A0
    case combat_event::EvasionAttackerNotification: return fmt::format("{} evaded your attack.", m.name);
    // ClientCombatSystem::HandleEvasionDefenderNotificationEvent 0x0056C620
    case combat_event::EvasionDefenderNotification: return fmt::format("You evaded {}!", m.name);
    default: return m.name;  // Killer and Victim: the server's own sentence
  }
}

std::uint32_t combat_notification_chat_type(std::uint32_t event) {
  switch (event) {
    case combat_event::AttackerNotification:
    case combat_event::EvasionAttackerNotification: return chat_type::CombatSelf;
    case combat_event::DefenderNotification:
    case combat_event::EvasionDefenderNotification: return chat_type::CombatEnemy;
    default: return chat_type::Broadcast;  // HandleVictimNotificationEvent 0x0056C410 (Killer too)
  }
}

}  // namespace dereth::protocol
