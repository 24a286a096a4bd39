// ClientCombatSystem's attacks (retail AC/accui_misc/CombatSystem.c): the
// request, the power bar, the targeted attack it sends, the server's
// CombatCommenceAttack and AttackDone, and the repeat attack.

#include "dereth/sim/player/client_combat_system.hpp"

#include <catch2/catch.hpp>

#include <map>

#include "dereth/core/clock.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

using namespace dereth;
using namespace dereth::sim;

namespace {

constexpr std::uint32_t kDrudge = 0x80000A01;

struct Fixture {
  core::ManualClock clock{core::Seconds{10.0}};
  SimContext context{clock};
  PhysicsObj player{context, 0x50000001, LocalId{1}};
  PhysicsObj drudge{context, kDrudge, LocalId{2}};
  PhysicsObj rock{context, 0x80000A02, LocalId{3}};
  std::vector<std::vector<std::uint8_t>> sent;
  std::uint32_t next_stamp = 40;
  CommandInterpreter ci{context, [this](std::vector<std::uint8_t> b, std::uint16_t) { sent.push_back(std::move(b)); },
                        [this] { return next_stamp++; }};
  ClientCombatSystem combat{ci};

  Fixture() {
    context.player = &player;
    player.set_weenie(WeenieTraits{.is_creature = true, .is_player = true, .name = "Tester"});
    drudge.set_weenie(WeenieTraits{.is_creature = true, .is_attackable = true, .name = "Drudge Skulker"});
    rock.set_weenie(WeenieTraits{.name = "Rock"});
    combat.set_object_lookup([this](std::uint32_t guid) -> const PhysicsObj* {
      if (guid == player.id()) return &player;
      if (guid == drudge.id()) return &drudge;
      if (guid == rock.id()) return &rock;
      return nullptr;
    });
    ci.set_combat_system(&combat);
    combat.combat_mode = CombatMode::Melee;
    combat.selected_id = kDrudge;
  }
  std::vector<std::uint32_t> actions() const {
    std::vector<std::uint32_t> out;
    for (const auto& b : sent) out.push_back(protocol::peek_wrapped_type(b));
    return out;
  }
  void advance(double s) { clock.advance(core::Seconds{s}); }
};

}  // namespace

TEST_CASE(
    "ClientCombatSystem::GetPowerBarLevel 0x0056ADE0 builds over one second, 0.8 s dual-wielding "
    "(ClientCombatSystem::StartPowerBarBuild 0x0056ADB0)",
    "[retail]") {
  Fixture f;
  CHECK(f.combat.get_power_bar_level() == 0.0);  // not building
  f.combat.start_power_bar_build();
  CHECK(f.combat.build_start_time == core::Seconds{10.0});
  f.advance(0.25);
  CHECK(f.combat.get_power_bar_level() == Approx(0.25));
  f.advance(1.0);
  CHECK(f.combat.get_power_bar_level() == 1.0);  // clamped
  f.clock.set(core::Seconds{9.0});
  CHECK(f.combat.get_power_bar_level() == 0.0);  // a clock behind the start clamps to 0
}

TEST_CASE("ClientCombatSystem::GetAttackTarget 0x0056A8F0 and ObjectIsAttackable 0x0056A600", "[retail]") {
  Fixture f;
  CHECK(f.combat.get_attack_target() == kDrudge);
  CHECK(f.combat.object_is_attackable(kDrudge));
  CHECK(f.combat.object_is_attackable(0));                 // nothing: attackable
  CHECK(f.combat.object_is_attackable(0x50000001));        // the player itself: attackable
  CHECK_FALSE(f.combat.object_is_attackable(0x80000A02));  // not a creature
  CHECK_FALSE(f.combat.object_is_attackable(0x12345678));  // unknown
  f.combat.selected_id = 0x50000001;
  CHECK(f.combat.get_attack_target() == 0);  // the player's own
  f.combat.selected_id = 0x12345678;
  CHECK(f.combat.get_attack_target() == 0);  // unknown object
  SECTION("a creature without the Attackable flag is not, unless FreePK") {
    auto t = *f.drudge.weenie();
    t.is_attackable = false;
    f.drudge.set_weenie(t);
    CHECK_FALSE(f.combat.object_is_attackable(kDrudge));
    t.is_free_pk = true;
    f.drudge.set_weenie(t);
    CHECK(f.combat.object_is_attackable(kDrudge));
  }
  SECTION("another player: only when both are PK or both PK-lite") {
    f.drudge.set_weenie(WeenieTraits{.is_creature = true, .is_player = true, .is_pk = true, .name = "Pk"});
    CHECK_FALSE(f.combat.object_is_attackable(kDrudge));
    f.player.set_weenie(WeenieTraits{.is_creature = true, .is_player = true, .is_pk = true, .name = "Tester"});
    CHECK(f.combat.object_is_attackable(kDrudge));
  }
}

TEST_CASE(
    "ClientCombatSystem::StartAttackRequest 0x0056C040 needs an attackable target "
    "(ClientCombatSystem::AttemptStartBuildingAttack 0x0056BB00)",
    "[retail]") {
  Fixture f;
  SECTION("no target: the message, nothing starts") {
    f.combat.selected_id = 0;
    f.combat.start_attack_request();
    CHECK_FALSE(f.combat.attack_request_in_progress);
    CHECK(f.combat.take_messages() ==
          std::vector<std::string>{"You must select a valid combat target before attacking"});
  }
  SECTION("a target: the request starts at full power and the combat bar builds") {
    f.combat.start_attack_request();
    CHECK(f.combat.attack_request_in_progress);
    CHECK(f.combat.requested_attack_power == 1.0f);
    CHECK(f.combat.build_in_progress);
    CHECK(f.combat.power_bar_mode == ClientCombatSystem::PowerBarMode::Combat);
    CHECK(f.combat.build_start_time == core::Seconds{10.0});
    CHECK(f.sent.empty());
  }
  SECTION("advanced combat mode starts without a target, with the advanced bar") {
    f.combat.selected_id = 0;
    f.combat.advanced_combat_mode = true;
    f.combat.start_attack_request();
    CHECK(f.combat.attack_request_in_progress);
    CHECK(f.combat.power_bar_mode == ClientCombatSystem::PowerBarMode::Advanced);
  }
}

TEST_CASE(
    "ClientCombatSystem::EndAttackRequest 0x0056C0E0 sends TargetedMeleeAttack with the bar's power "
    "(ClientCombatSystem::ExecuteAttack 0x0056BB70)",
    "[retail]") {
  Fixture f;
  f.combat.ui_requested_power = 0.5f;
  f.combat.start_attack_request();
  SECTION("released before the bar reaches the requested power: nothing is sent") {
    f.advance(0.25);
    f.combat.end_attack_request(AttackHeight::High);
    CHECK(f.sent.empty());
    CHECK_FALSE(f.combat.attack_request_in_progress);
    CHECK(f.combat.requested_attack_power == 0.25f);
  }
  SECTION("released past it: the attack at the requested power (the lower of the two)") {
    f.advance(0.75);
    f.combat.end_attack_request(AttackHeight::High);
    REQUIRE(f.sent.size() == 1);
    // F7B1, stamp 40, action 8, target, height 1 (high), power 0.5f.
    CHECK(f.sent[0] == std::vector<std::uint8_t>{0xB1, 0xF7, 0, 0,    40,   0, 0, 0, 0x08, 0,    0,    0,
                                                 0x01, 0x0A, 0, 0x80, 0x01, 0, 0, 0, 0x00, 0x00, 0x00, 0x3F});
    CHECK(f.combat.attack_server_response_pending);
    CHECK_FALSE(f.combat.build_in_progress);
    CHECK_FALSE(f.combat.repeat_attacking);  // no AutoRepeatAttack
  }
  SECTION("a missile attack in a missile stance at Ready") {
    f.combat.combat_mode = CombatMode::Missile;
    f.advance(0.75);
    f.combat.end_attack_request(AttackHeight::Low);
    // A NonCombat style is not ready: the bar never built, so nothing is sent
    // (and with a target there is no message either).
    CHECK(f.sent.empty());
    CHECK_FALSE(f.combat.build_in_progress);
    CHECK(f.combat.take_messages().empty());
  }
  SECTION("while a response is pending the attack waits for it") {
    f.combat.attack_server_response_pending = true;
    f.advance(0.75);
    f.combat.end_attack_request(AttackHeight::Low);
    CHECK(f.sent.empty());
    CHECK(f.combat.attack_when_response_received);
    CHECK(f.combat.attack_when_response_received_power == 0.5f);
  }
}

TEST_CASE("ClientCombatSystem::ExecuteAttack 0x0056BB70 marks a repeat attack with AutoRepeatAttack", "[retail]") {
  Fixture f;
  f.combat.auto_repeat_attack = true;
  f.combat.requested_attack_power = 0.75f;
  f.combat.execute_attack(AttackHeight::Medium, true);
  REQUIRE(f.actions() == std::vector<std::uint32_t>{protocol::combat_action::TargetedMeleeAttack});
  auto sent = protocol::decode_targeted_attack(f.sent[0]);
  REQUIRE(sent);
  CHECK(sent->height == 2);
  CHECK(sent->power == 0.75f);
  CHECK(f.combat.repeat_attacking);
  CHECK(f.combat.attack_server_response_pending);
  SECTION("not expecting a response clears the pending flag") {
    f.combat.execute_attack(AttackHeight::Medium, false);
    CHECK_FALSE(f.combat.attack_server_response_pending);
  }
}

TEST_CASE("ClientCombatSystem::UseTime 0x0056C1F0 fires the attack when the bar reaches the requested power",
          "[retail]") {
  Fixture f;
  f.combat.start_attack_request();
  f.combat.end_attack_request(AttackHeight::Low, 0.5f);  // released early with power 0.5: not sent yet
  CHECK(f.sent.empty());
  CHECK(f.combat.build_in_progress);
  f.advance(0.4);
  f.combat.use_time();
  CHECK(f.combat.latest_power_bar_level == Approx(0.4f));
  CHECK(f.sent.empty());
  f.advance(0.2);
  f.combat.use_time();
  REQUIRE(f.sent.size() == 1);
  auto sent = protocol::decode_targeted_attack(f.sent[0]);
  REQUIRE(sent);
  CHECK(sent->height == 2);  // UseTime sends the requested height (Medium), not the one the release named
  CHECK(sent->power == 0.5f);
  CHECK(f.combat.latest_power_bar_level == 0.5f);
}

TEST_CASE(
    "ClientCombatSystem::HandleCommenceAttackEvent 0x0056AD20 and HandleAttackDoneEvent 0x0056C500 "
    "(ClientCombatSystem::RepeatAttackInProgress 0x0056A860)",
    "[retail]") {
  Fixture f;
  f.combat.auto_repeat_attack = true;
  f.combat.requested_attack_power = 1.0f;
  f.combat.execute_attack(AttackHeight::High, true);
  f.combat.handle_commence_attack_event();
  CHECK(f.combat.attack_in_progress);
  CHECK(f.combat.power_bar_mode == ClientCombatSystem::PowerBarMode::Combat);
  CHECK(f.combat.latest_power_bar_level == 1.0f);
  CHECK(f.combat.repeat_attack_in_progress());
  SECTION("AttackDone 0 in a repeat attack: the automatic build starts, no cancel") {
    f.combat.handle_attack_done_event(0);
    CHECK_FALSE(f.combat.attack_in_progress);
    CHECK_FALSE(f.combat.attack_server_response_pending);
    CHECK(f.combat.repeat_attacking);
    CHECK(f.combat.build_in_progress);
    CHECK(f.combat.current_build_is_automatic);
    CHECK(f.actions() == std::vector<std::uint32_t>{protocol::combat_action::TargetedMeleeAttack});
    SECTION("the automatic build stops at the power, without a new request") {
      f.advance(1.5);
      f.combat.use_time();
      CHECK_FALSE(f.combat.build_in_progress);
      CHECK(f.sent.size() == 1);
    }
  }
  SECTION("AttackDone with an error ends the repeat: CancelAttack and the bar goes") {
    f.combat.handle_attack_done_event(0x36);
    CHECK(f.actions() == std::vector<std::uint32_t>{protocol::combat_action::TargetedMeleeAttack,
                                                    protocol::combat_action::CancelAttack});
    CHECK_FALSE(f.combat.repeat_attacking);
    CHECK(f.combat.power_bar_mode == ClientCombatSystem::PowerBarMode::Undef);
    CHECK_FALSE(f.combat.repeat_attack_in_progress());
  }
  SECTION("a changed UI power re-sends the repeat attack at it, expecting no response") {
    f.combat.ui_requested_power = 0.5f;
    f.combat.handle_attack_done_event(0);
    REQUIRE(f.sent.size() == 2);
    auto again = protocol::decode_targeted_attack(f.sent[1]);
    REQUIRE(again);
    CHECK(again->power == 0.5f);
    CHECK_FALSE(f.combat.attack_server_response_pending);
  }
}

TEST_CASE("ClientCombatSystem::HandleAttackDoneEvent 0x0056C500 sends the attack queued while waiting", "[retail]") {
  Fixture f;
  f.combat.execute_attack(AttackHeight::High, true);  // pending
  f.combat.start_attack_request();
  f.advance(2.0);
  f.combat.end_attack_request(AttackHeight::High);  // queued
  REQUIRE(f.combat.attack_when_response_received);
  f.combat.handle_attack_done_event(0);
  CHECK_FALSE(f.combat.attack_when_response_received);
  // The queued request starts again with its power; the bar builds anew and
  // UseTime sends it when the bar reaches that power.
  CHECK(f.sent.size() == 1);
  CHECK(f.combat.build_in_progress);
  CHECK(f.combat.requested_attack_power == 1.0f);
  f.advance(1.0);
  f.combat.use_time();
  CHECK(f.sent.size() == 2);
  CHECK(f.combat.attack_server_response_pending);
}

TEST_CASE("ClientCombatSystem::PlayerInReadyPosition 0x0056B820 by combat mode", "[retail]") {
  Fixture f;
  CHECK(f.combat.player_in_ready_position(true));  // melee
  f.combat.combat_mode = CombatMode::NonCombat;
  CHECK(f.combat.player_in_ready_position(false));  // no motions pending (no motion table)
  f.combat.combat_mode = CombatMode::Missile;
  CHECK_FALSE(f.combat.player_in_ready_position(true));  // NonCombat style
  f.combat.combat_mode = CombatMode::Undef;
  CHECK_FALSE(f.combat.player_in_ready_position(true));
  f.context.player = nullptr;
  f.combat.combat_mode = CombatMode::Melee;
  CHECK_FALSE(f.combat.player_in_ready_position(true));
}

TEST_CASE("ClientCombatSystem::ToggleCombatMode 0x0056C8C0 and SetCombatMode 0x0056BE30", "[retail]") {
  Fixture f;
  f.combat.combat_mode = CombatMode::NonCombat;
  f.combat.toggle_combat_mode();
  CHECK(f.combat.combat_mode == CombatMode::Melee);
  REQUIRE(f.sent.size() == 1);
  CHECK(f.sent[0] == protocol::encode_change_combat_mode(40, 2));
  CHECK(f.combat.selected_id == kDrudge);  // attackable: kept
  f.combat.toggle_combat_mode();
  CHECK(f.combat.combat_mode == CombatMode::NonCombat);
  CHECK(f.sent.size() == 2);
  SECTION("entering melee drops a selection that cannot be attacked") {
    f.combat.selected_id = 0x80000A02;  // the rock
    f.combat.toggle_combat_mode();
    CHECK(f.combat.selected_id == 0);
  }
  SECTION("the same mode again sends nothing") {
    f.combat.set_combat_mode(CombatMode::NonCombat, true);
    CHECK(f.sent.size() == 2);
  }
  SECTION("a server-given mode is not sent back") {
    f.combat.set_combat_mode(CombatMode::Missile, false);
    CHECK(f.combat.combat_mode == CombatMode::Missile);
    CHECK(f.sent.size() == 2);
  }
}

TEST_CASE("ClientCombatSystem::FinishJump 0x0056A9B0 ends the jump charge", "[retail]") {
  Fixture f;
  f.player.set_transient_state(transient_state::Contact | transient_state::OnWalkable);
  REQUIRE(f.combat.commence_jump() == 0);
  REQUIRE(f.combat.jump_pending);
  f.ci.set_standing_longjump(true);
  f.combat.finish_jump();
  CHECK_FALSE(f.combat.jump_pending);
  CHECK_FALSE(f.combat.build_in_progress);
  CHECK(f.combat.power_bar_mode == ClientCombatSystem::PowerBarMode::Undef);
  CHECK_FALSE(f.ci.standing_longjump());
  SECTION("with no jump pending a combat bar stays") {
    f.combat.power_bar_mode = ClientCombatSystem::PowerBarMode::Combat;
    f.combat.build_in_progress = true;
    f.combat.finish_jump();
    CHECK(f.combat.build_in_progress);
  }
}
