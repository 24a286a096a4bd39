// The combat game actions and events: bytes as the retail senders write
// them (CM_Combat::Event_TargetedMeleeAttack 0x006A9C10,
// Event_TargetedMissileAttack 0x006A9D60) and the AttackDone /
// CombatCommenceAttack events the retail dispatcher reads.

#include "dereth/protocol/combat.hpp"

#include <catch2/catch.hpp>

#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/login.hpp"

using namespace dereth;
using namespace dereth::protocol;

TEST_CASE("CM_Combat::Event_TargetedMeleeAttack 0x006A9C10 bytes and round trip", "[retail]") {
  TargetedAttack m{
      .sequence = 7, .action = combat_action::TargetedMeleeAttack, .target = 0x80000A01, .height = 1, .power = 1.0f};
  const auto bytes = encode(m);
  CHECK(bytes == std::vector<std::uint8_t>{0xB1, 0xF7, 0, 0,    7,    0, 0, 0, 0x08, 0,    0,    0,
                                           0x01, 0x0A, 0, 0x80, 0x01, 0, 0, 0, 0x00, 0x00, 0x80, 0x3F});
  auto back = decode_targeted_attack(bytes);
  REQUIRE(back);
  CHECK(*back == m);
}

TEST_CASE("CM_Combat::Event_TargetedMissileAttack 0x006A9D60 bytes and round trip", "[retail]") {
  TargetedAttack m{.sequence = 0x01020304,
                   .action = combat_action::TargetedMissileAttack,
                   .target = 0x11223344,
                   .height = 3,
                   .power = 0.5f};
  const auto bytes = encode(m);
  CHECK(bytes == std::vector<std::uint8_t>{0xB1, 0xF7, 0,    0,    4,    3, 2, 1, 0x0A, 0,    0,    0,
                                           0x44, 0x33, 0x22, 0x11, 0x03, 0, 0, 0, 0x00, 0x00, 0x00, 0x3F});
  auto back = decode_targeted_attack(bytes);
  REQUIRE(back);
  CHECK(*back == m);
}

TEST_CASE("decode_targeted_attack refuses other actions and short bodies, naming the field") {
  auto bytes = encode(TargetedAttack{.sequence = 1, .target = 2, .height = 2, .power = 0.25f});
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    CHECK_FALSE(decode_targeted_attack(std::span(bytes).first(n)));
  }
  auto cancel = encode_game_action(1, combat_action::CancelAttack);
  auto refused = decode_targeted_attack(cancel);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message(), Catch::Contains("action_type"));
  bytes[0] = 0xB0;
  CHECK_FALSE(decode_targeted_attack(bytes));
}

TEST_CASE("AttackDone 0x01A7 and CombatCommenceAttack 0x01B8 events") {
  const auto done = encode_attack_done(0x50000001, 9, AttackDone{0x36});
  CHECK(done ==
        std::vector<std::uint8_t>{0xB0, 0xF7, 0, 0, 0x01, 0, 0, 0x50, 9, 0, 0, 0, 0xA7, 0x01, 0, 0, 0x36, 0, 0, 0});
  auto back = decode_attack_done(done);
  REQUIRE(back);
  CHECK(back->error == 0x36);
  for (std::size_t n = 0; n < done.size(); ++n) CHECK_FALSE(decode_attack_done(std::span(done).first(n)));
  const auto commence = encode_commence_attack(0x50000001, 10);
  CHECK(peek_wrapped_type(commence) == combat_event::CombatCommenceAttack);
  CHECK(commence.size() == 16);
  CHECK_FALSE(decode_attack_done(commence));  // another event
}

TEST_CASE("CM_Combat::Event_ChangeCombatMode 0x006A9A70 bytes", "[retail]") {
  CHECK(encode_change_combat_mode(5, 2) ==
        std::vector<std::uint8_t>{0xB1, 0xF7, 0, 0, 5, 0, 0, 0, 0x53, 0, 0, 0, 0x02, 0, 0, 0});
}

TEST_CASE(
    "Combat notifications 0x01AC-0x01B4: each round-trips, a cut body is refused at every length, and the chat "
    "window reads a sentence",
    "[protocol][combat][chat]") {
  std::vector<CombatNotification> all;
  for (const std::uint32_t e : {combat_event::VictimNotification, combat_event::KillerNotification,
                                combat_event::AttackerNotification, combat_event::DefenderNotification,
                                combat_event::EvasionAttackerNotification, combat_event::EvasionDefenderNotification}) {
    CombatNotification m;
    m.event = e;
    m.name = e == combat_event::KillerNotification ? "You have killed the Drudge Skulker!" : "Drudge Skulker";
    if (e == combat_event::AttackerNotification || e == combat_event::DefenderNotification) {
      m.damage_type = 0x10;  // Fire
      m.health_fraction = 0.45;
      m.damage = 9;
      m.location = e == combat_event::DefenderNotification ? 3U : 0U;
      m.critical = e == combat_event::DefenderNotification;
      m.conditions = 0x2;
    }
    all.push_back(m);
  }
  for (const CombatNotification& m : all) {
    INFO("event 0x" << std::hex << m.event);
    const auto bytes = encode(m, 0x50000001, 4);
    const auto back = decode_combat_notification(bytes);
    REQUIRE(back);
    CHECK(*back == m);
    // The F7B0 header is 16 bytes; every cut after it is refused, naming the message.
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      const auto cut = decode_combat_notification(std::span(bytes).first(n));
      REQUIRE_FALSE(cut);
      CHECK(cut.error().message().find("F7B0") != std::string::npos);
    }
    const auto line = chat_line(bytes);
    REQUIRE(line);
    REQUIRE(line->has_value());
    CHECK((*line)->channel == "combat");
  }
  // The retail client's sentences: ClientCombatSystem::HandleAttackerNotificationEvent 0x0056B420 (fire that
  // took 0.45 of the health burns), HandleDefenderNotificationEvent 0x0056C920 (location 3, the abdomen),
  // HandleEvasionAttackerNotificationEvent 0x0056C7A0 and HandleEvasionDefenderNotificationEvent 0x0056C620.
  CHECK(combat_notification_text(all[2]) == "Recklessness! You burn Drudge Skulker for 9 points of fire damage!");
  CHECK(combat_notification_text(all[3]) ==
        "Critical hit! Reckless! Drudge Skulker burns your abdomen for 9 points of fire damage!");
  CHECK(combat_notification_text(all[4]) == "Drudge Skulker evaded your attack.");
  CHECK(combat_notification_text(all[5]) == "You evaded Drudge Skulker!");
  CHECK(combat_notification_text(all[1]) == "You have killed the Drudge Skulker!");
  CombatNotification one = all[2];
  one.damage = 1;
  one.damage_type = 0;  // no type the client knows: no word for it
  CHECK(combat_notification_text(one) == "Recklessness! You hit Drudge Skulker for 1 point of damage!");
  // Another event is not a combat notification.
  CHECK_FALSE(decode_combat_notification(encode_attack_done(0x50000001, 1, AttackDone{})));
}

TEST_CASE("CombatSystem::InqCombatHitAdjectives 0x005C9040 picks the verb by damage type and health share",
          "[retail]") {
  // Fire: singe, scorch, burn, incinerate at a tenth, a quarter and a half.
  CHECK(combat_hit_adjectives(0x10, 0.05).single == "singe");
  CHECK(combat_hit_adjectives(0x10, 0.1).single == "singe");  // "above" is strict
  CHECK(combat_hit_adjectives(0x10, 0.2).single == "scorch");
  CHECK(combat_hit_adjectives(0x10, 0.3).single == "burn");
  CHECK(combat_hit_adjectives(0x10, 0.9).single == "incinerate");
  CHECK(combat_hit_adjectives(0x4, 0.3).plural == "smashes");
  CHECK(combat_hit_adjectives(0x1, 0.05).plural == "scratches");
  CHECK(combat_hit_adjectives(0x40, 0.6).single == "blast");
  CHECK(combat_hit_adjectives(0x400, 0.6).single == "eradicate");
  // Two types at once, or a type with no verbs of its own: "hit".
  CHECK(combat_hit_adjectives(0x11, 0.9).single == "hit");
  CHECK(combat_hit_adjectives(0x100, 0.9).plural == "hits");
}

TEST_CASE("ClientCombatSystem::HandleAttackerNotificationEvent 0x0056B420 words the player's blow as retail does",
          "[retail]") {
  CombatNotification m;
  m.event = combat_event::AttackerNotification;
  m.name = "Drudge";
  m.damage_type = 0x10;
  m.health_fraction = 0.05;
  m.damage = 12;
  CHECK(combat_notification_text(m) == "You singe Drudge for 12 points of fire damage!");
  m.critical = true;
  m.conditions = attack_condition::SneakAttack | attack_condition::CriticalProtection;
  CHECK(combat_notification_text(m) ==
        "Critical hit!  Sneak Attack! You singe Drudge for 12 points of fire damage! Your target's Critical "
        "Protection augmentation allows them to avoid your critical hit!");
  // AppraisalSystem::DamageTypeToString 0x005B4200: several types joined by '/'; lightning is "electrical".
  m.critical = false;
  m.conditions = 0;
  m.damage_type = 0x41;
  CHECK(combat_notification_text(m) == "You hit Drudge for 12 points of slashing/electrical damage!");
  // The chat types retail files them under.
  CHECK(combat_notification_chat_type(combat_event::AttackerNotification) == chat_type::CombatSelf);
  CHECK(combat_notification_chat_type(combat_event::EvasionAttackerNotification) == chat_type::CombatSelf);
  CHECK(combat_notification_chat_type(combat_event::DefenderNotification) == chat_type::CombatEnemy);
  CHECK(combat_notification_chat_type(combat_event::EvasionDefenderNotification) == chat_type::CombatEnemy);
  CHECK(combat_notification_chat_type(combat_event::VictimNotification) == chat_type::Broadcast);
  CHECK(combat_notification_chat_type(combat_event::KillerNotification) == chat_type::Broadcast);
}

TEST_CASE("ClientCombatSystem::HandleDefenderNotificationEvent 0x0056C920 names the body part, or says you",
          "[retail]") {
  CombatNotification m;
  m.event = combat_event::DefenderNotification;
  m.name = "Drudge";
  m.damage_type = 0x4;
  m.health_fraction = 0.6;
  m.damage = 1;
  m.location = 1;  // BodyPartEnumMapper::BodyPartToString: HEAD
  CHECK(combat_notification_text(m) == "Drudge crushes your head for 1 point of bludgeoning damage!");
  m.location = 4;  // UPPER_ARM, lower-cased with the underscore a space
  CHECK(combat_notification_text(m) == "Drudge crushes your upper arm for 1 point of bludgeoning damage!");
  m.location = 999;
  CHECK(combat_notification_text(m) == "Drudge crushes you for 1 point of bludgeoning damage!");
}

TEST_CASE("CM_Combat::Event_ChangeCombatMode 0x006A9A70 carries every COMBAT_MODE, magic 8 included", "[retail]") {
  // COMBAT_MODE: NonCombat 1, Melee 2, Missile 4, Magic 8.
  const auto magic = std::vector<std::uint8_t>{0xB1, 0xF7, 0, 0, 9, 0, 0, 0, 0x53, 0, 0, 0, 0x08, 0, 0, 0};
  CHECK(encode_change_combat_mode(9, 8) == magic);
  for (const std::uint32_t mode : {1U, 2U, 4U, 8U}) {
    const auto back = decode_change_combat_mode(encode_change_combat_mode(3, mode));
    REQUIRE(back);
    CHECK(back->mode == mode);
    CHECK(back->sequence == 3);
  }
  for (std::size_t n = 0; n < magic.size(); ++n) CHECK_FALSE(decode_change_combat_mode(std::span(magic).first(n)));
}
