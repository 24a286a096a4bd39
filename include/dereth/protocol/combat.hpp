#pragma once
// Combat game actions and the game events that answer them (the client
// combat system's wire side). Layouts from the retail senders
// (CM_Combat::Event_TargetedMeleeAttack 0x006A9C10,
// Event_TargetedMissileAttack 0x006A9D60, Event_CancelAttack 0x006A99E0) and
// the retail dispatcher (UIQueueManager: F7B0 event 0x01A7 reads one u32 and
// calls ClientCombatSystem::HandleAttackDoneEvent, 0x01B8 has no payload and
// calls HandleCommenceAttackEvent), checked against ACE's GameActionType and
// GameEventType (TargetedMeleeAttack 0x08, TargetedMissileAttack 0x0A,
// CancelAttack 0x01B7, AttackDone 0x01A7, CombatCommenceAttack 0x01B8).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

namespace combat_action {
inline constexpr std::uint32_t TargetedMeleeAttack = 0x0008;
inline constexpr std::uint32_t TargetedMissileAttack = 0x000A;
inline constexpr std::uint32_t CancelAttack = 0x01B7;
inline constexpr std::uint32_t ChangeCombatMode =
    0x0053;  // u32 COMBAT_MODE (CM_Combat::Event_ChangeCombatMode 0x006A9A70)
}  // namespace combat_action

namespace combat_event {
inline constexpr std::uint32_t AttackDone = 0x01A7;
inline constexpr std::uint32_t CombatCommenceAttack = 0x01B8;
// What came of a strike, told to each side (ACE's GameEventType).
inline constexpr std::uint32_t VictimNotification = 0x01AC;           // String16L the server's sentence
inline constexpr std::uint32_t KillerNotification = 0x01AD;           // String16L the server's sentence
inline constexpr std::uint32_t AttackerNotification = 0x01B1;         // see CombatNotification
inline constexpr std::uint32_t DefenderNotification = 0x01B2;         // see CombatNotification
inline constexpr std::uint32_t EvasionAttackerNotification = 0x01B3;  // String16L defender
inline constexpr std::uint32_t EvasionDefenderNotification = 0x01B4;  // String16L attacker
}  // namespace combat_event

// F7B1 0x08 / 0x0A: u32 target, u32 ATTACK_HEIGHT (1 high, 2 medium, 3 low),
// f32 power (melee) or accuracy (missile); 24 bytes in all.
struct TargetedAttack {
  std::uint32_t sequence = 0;
  std::uint32_t action = combat_action::TargetedMeleeAttack;  // or TargetedMissileAttack
  std::uint32_t target = 0;
  std::uint32_t height = 0;
  float power = 0.0f;
  bool operator==(const TargetedAttack&) const = default;
};
std::vector<std::uint8_t> encode(const TargetedAttack& m);
// Either action; anything else (or a short body) is an error naming the field.
Result<TargetedAttack> decode_targeted_attack(std::span<const std::uint8_t> body);

// F7B1 0x53 ChangeCombatMode: u32 COMBAT_MODE (1 peace, 2 melee, 4 missile, 8 magic).
std::vector<std::uint8_t> encode_change_combat_mode(std::uint32_t sequence, std::uint32_t mode);
struct ChangeCombatMode {
  std::uint32_t sequence = 0;
  std::uint32_t mode = 0;
  bool operator==(const ChangeCombatMode&) const = default;
};
// The action whole (16 bytes); anything else is an error naming the field.
Result<ChangeCombatMode> decode_change_combat_mode(std::span<const std::uint8_t> body);

// F7B0 0x01A7 AttackDone: the WeenieError number (0 when the attack simply
// ended, e.g. between repeats).
struct AttackDone {
  std::uint32_t error = 0;
  bool operator==(const AttackDone&) const = default;
};
std::vector<std::uint8_t> encode_attack_done(std::uint32_t target, std::uint32_t sequence, const AttackDone& m);
Result<AttackDone> decode_attack_done(std::span<const std::uint8_t> body);
// F7B0 0x01B8 CombatCommenceAttack (no payload; whatever follows the event
// type is not read, as the retail dispatcher reads none).
struct CombatCommenceAttack {
  bool operator==(const CombatCommenceAttack&) const = default;
};
std::vector<std::uint8_t> encode_commence_attack(std::uint32_t target, std::uint32_t sequence);
// Any F7B0 of event 0x01B8; another message is an error naming the field.
Result<CombatCommenceAttack> decode_commence_attack(std::span<const std::uint8_t> body);

// The six notifications of a strike's outcome, as one message (layouts in
// docs/protocol.md, "Combat notifications"). Attacker: String16L defender,
// u32 DamageType, f64 health fraction, u32 damage, u32 critical, u64
// AttackConditions. Defender: the same with u32 hit location before
// critical. The evasions: String16L the other party. Killer and Victim:
// String16L the server's own sentence, kept in `name`.
struct CombatNotification {
  std::uint32_t event = combat_event::AttackerNotification;
  std::string name;
  std::uint32_t damage_type = 0;
  double health_fraction = 0.0;
  std::uint32_t damage = 0;
  std::uint32_t location = 0;  // DefenderNotification only
  bool critical = false;
  std::uint64_t conditions = 0;
  bool operator==(const CombatNotification&) const = default;
};
[[nodiscard]] bool is_combat_notification(std::uint32_t event);
// Attacker and Defender: the two that carry the damage fields.
[[nodiscard]] bool combat_notification_has_damage(std::uint32_t event);
// "AttackerNotification", ...; empty for another event.
[[nodiscard]] std::string_view combat_notification_name(std::uint32_t event);
std::vector<std::uint8_t> encode(const CombatNotification& m, std::uint32_t target, std::uint32_t sequence);
// Any of the six; another event or a short body is an error naming the field.
Result<CombatNotification> decode_combat_notification(std::span<const std::uint8_t> body);
// AttackConditions bits (the notification's u64).
namespace attack_condition {
inline constexpr std::uint64_t CriticalProtection = 0x1;  // the defender's augmentation voided a critical
inline constexpr std::uint64_t Recklessness = 0x2;
inline constexpr std::uint64_t SneakAttack = 0x4;
}  // namespace attack_condition

// The verb of a blow (CombatSystem::InqCombatHitAdjectives 0x005C9040):
// "singe" / "singes" for fire that took a tenth of the health or less.
struct CombatVerb {
  std::string_view single;
  std::string_view plural;
};
[[nodiscard]] CombatVerb combat_hit_adjectives(std::uint32_t damage_type, double health_fraction);
// The line the chat window shows, as the retail client words it (the
// server sends only the numbers): "You singe Drudge for 12 points of fire
// damage!", "Drudge bashes your head for 3 points of bludgeoning damage!",
// "Drudge evaded your attack.", "You evaded Drudge!"; a Killer or Victim
// notification is the server's own sentence.
std::string combat_notification_text(const CombatNotification& m);
// The chat type retail files the line under: 0x16 CombatSelf for the
// player's blows and the target's evasions, 0x15 CombatEnemy for blows
// and evasions against the player, 0 Broadcast for Killer and Victim.
[[nodiscard]] std::uint32_t combat_notification_chat_type(std::uint32_t event);

}  // namespace dereth::protocol
