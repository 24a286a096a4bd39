// Movement cancels repeat attack (seed login-placement-and-repeat-cancel):
// ACCmdInterp::HandleNewForwardMovement 0x0058B1F0,
// ClientCombatSystem::AbortAutomaticAttack 0x0056AE90 and
// ClientCombatSystem::CommenceJump 0x0056AF90, with the autorun they stop.

#include <catch2/catch.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/player/client_combat_system.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

using namespace dereth;
using namespace dereth::sim;

namespace {

struct World {
  core::ManualClock clock{core::Seconds{7.0}};
  SimContext context{clock};
  PhysicsObj player{context, 0x50000001, LocalId{1}};
  std::vector<std::vector<std::uint8_t>> sent;
  std::uint32_t next_stamp = 40;
  CommandInterpreter ci{context, [this](std::vector<std::uint8_t> b, std::uint16_t) { sent.push_back(std::move(b)); },
                        [this] { return next_stamp++; }};
  ClientCombatSystem combat{ci};

  World() {
    context.player = &player;
    player.store_position(Position{0xA9B4001F, core::Frame({84.0f, 148.0f, 66.0f}, glm::quat(1, 0, 0, 0))});
    player.set_transient_state(transient_state::Contact | transient_state::OnWalkable);
    ci.set_combat_system(&combat);
  }
  std::vector<std::uint32_t> actions() const {
    std::vector<std::uint32_t> out;
    for (const auto& b : sent) out.push_back(protocol::peek_wrapped_type(b));
    return out;
  }
};

// F7B1, stamp, 0x1B7 and nothing else: CM_Combat::Event_CancelAttack.
std::vector<std::uint8_t> cancel_attack(std::uint32_t stamp) {
  return {0xB1, 0xF7, 0x00, 0x00, static_cast<std::uint8_t>(stamp), 0x00, 0x00, 0x00, 0xB7, 0x01, 0x00, 0x00};
}

}  // namespace

TEST_CASE(
    "ClientCombatSystem::AbortAutomaticAttack 0x0056AE90 sends CancelAttack for any attack in flight "
    "(ClientCombatSystem::HidePowerBar 0x0056A8B0)",
    "[retail]") {
  World w;
  SECTION("nothing in flight: nothing sent") {
    w.combat.abort_automatic_attack();
    CHECK(w.sent.empty());
  }
  SECTION("each flag alone is enough") {
    bool* flags[] = {&w.combat.attack_server_response_pending, &w.combat.attack_request_in_progress,
                     &w.combat.attack_in_progress, &w.combat.repeat_attacking};
    for (bool* f : flags) {
      *f = true;
      w.combat.abort_automatic_attack();
      *f = false;
    }
    REQUIRE(w.sent.size() == 4);
    CHECK(w.sent[0] == cancel_attack(40));
    CHECK(w.sent[3] == cancel_attack(43));
  }
  SECTION("repeat stops, the attack flags stay for the server to clear; a second abort sends again") {
    w.combat.attack_in_progress = true;
    w.combat.repeat_attacking = true;
    w.combat.abort_automatic_attack();
    CHECK_FALSE(w.combat.repeat_attacking);
    CHECK(w.combat.attack_in_progress);
    w.combat.abort_automatic_attack();
    CHECK(w.sent.size() == 2);
  }
  SECTION("a combat power bar being built is hidden; a jump bar is not") {
    w.combat.repeat_attacking = true;
    w.combat.build_in_progress = true;
    w.combat.power_bar_mode = ClientCombatSystem::PowerBarMode::Combat;
    w.combat.abort_automatic_attack();
    CHECK_FALSE(w.combat.build_in_progress);
    CHECK(w.combat.power_bar_mode == ClientCombatSystem::PowerBarMode::Undef);

    w.combat.repeat_attacking = true;
    w.combat.build_in_progress = true;
    w.combat.power_bar_mode = ClientCombatSystem::PowerBarMode::Jump;
    w.combat.abort_automatic_attack();
    CHECK(w.combat.build_in_progress);
  }
}

TEST_CASE(
    "ACCmdInterp::HandleNewForwardMovement 0x0058B1F0 forward keys cancel a repeat attack, turns and sidesteps do not "
    "(CommandInterpreter::AddCommand 0x006B39A0)",
    "[retail]") {
  World w;
  w.combat.repeat_attacking = true;
  w.ci.handle_keyboard_command(command::TurnRight, true);
  w.ci.handle_keyboard_command(command::SideStepLeft, true);
  CHECK(w.combat.repeat_attacking);
  CHECK(w.actions() == std::vector<std::uint32_t>{0xF61C, 0xF61C});

  w.ci.handle_keyboard_command(command::WalkBackwards, true);
  CHECK_FALSE(w.combat.repeat_attacking);
  // The cancel goes out first (from AddCommand), then the MoveToState.
  CHECK(w.actions() == std::vector<std::uint32_t>{0xF61C, 0xF61C, 0x01B7, 0xF61C});
}

TEST_CASE("CommandInterpreter::HandleNewForwardMovement 0x006B3D60 turns autorun off (SetAutoRun 0x006B4850)",
          "[retail]") {
  World w;
  w.ci.handle_keyboard_command(command::AutoRun, true);
  REQUIRE(w.ci.auto_run());
  // Autorun walks forward with the Run hold key on the slot (MovePlayer's mouse form).
  CHECK(w.ci.raw_state().forward_command == command::WalkForward);
  CHECK(w.ci.raw_state().forward_holdkey == HoldKey::Run);

  w.ci.handle_keyboard_command(command::WalkForward, true);
  CHECK_FALSE(w.ci.auto_run());
  CHECK(w.ci.raw_state().forward_command == command::WalkForward);
  CHECK(w.ci.raw_state().forward_holdkey == HoldKey::Invalid);
}

TEST_CASE(
    "ClientCombatSystem::CommenceJump 0x0056AF90 charges the jump and sends a MoveToState (CMotionInterp::charge_jump "
    "0x005281C0, ClientCombatSystem::StartPowerBarBuild 0x0056ADB0)",
    "[retail]") {
  World w;
  SECTION("standing: a standing long jump, the jump bar starts, MoveToState with long-jump bit") {
    CHECK(w.combat.commence_jump() == 0u);
    CHECK(w.combat.jump_pending);
    CHECK(w.combat.power_bar_mode == ClientCombatSystem::PowerBarMode::Jump);
    CHECK(w.combat.build_in_progress);
    CHECK(w.combat.build_start_time == core::Seconds{7.0});
    CHECK(w.ci.standing_longjump());
    REQUIRE(w.sent.size() == 1);
    CHECK(w.sent[0].back() == 0);                 // alignment pad
    CHECK(w.sent[0][w.sent[0].size() - 4] == 3);  // contact | long jump << 1
    // A second press while the jump is pending does nothing.
    CHECK(w.combat.commence_jump() == 0u);
    CHECK(w.sent.size() == 1);
  }
  SECTION("the repeat attack is cancelled only with the AutoRepeatAttack option, not by the attack flags") {
    w.combat.repeat_attacking = true;
    w.combat.commence_jump();
    CHECK(w.combat.repeat_attacking);
    CHECK(w.actions() == std::vector<std::uint32_t>{0xF61C});
  }
  SECTION("with AutoRepeatAttack: CancelAttack, then the MoveToState") {
    w.combat.auto_repeat_attack = true;
    w.combat.repeat_attacking = true;
    w.combat.commence_jump();
    CHECK_FALSE(w.combat.repeat_attacking);
    CHECK(w.actions() == std::vector<std::uint32_t>{0x01B7, 0xF61C});
  }
  SECTION("moving: no standing long jump") {
    w.ci.handle_keyboard_command(command::WalkForward, true);
    w.sent.clear();
    CHECK(w.combat.commence_jump() == 0u);
    CHECK_FALSE(w.ci.standing_longjump());
  }
  SECTION("airborne: allowed to charge, no standing long jump") {
    w.player.set_transient_state(0);
    CHECK(w.combat.commence_jump() == 0u);
    CHECK_FALSE(w.ci.standing_longjump());
  }
}
