// The non-autonomous player (autonomy level 0): the client does not move the
// player itself but asks the server to (CommandInterpreter::MovePlayer_
// NonAutonomous 0x006B3D00: DoMovementCommand / StopMovementCommand, and the
// jump as ClientCombatSystem::DoJump 0x0056B110's non-autonomous branch
// sends it, Jump_NonAutonomous); the level itself is told to the server
// (CommandInterpreter::SetAutonomyLevel 0x006B3BB0 ->
// ACCmdInterp::SendAutonomyLevelEvent 0x0058B210). RE cmdinterp/CmdInterp.c,
// AC/accmdinterp/ACCmdInterp.c, AC/accui_misc/CombatSystem.c,
// GAME/game_cevents/CM_Movement.c.
#include <catch2/catch.hpp>

#include "dereth/protocol/outbound.hpp"
#include "dereth/sim/player/client_combat_system.hpp"

#include "player/walk_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace mc = motion_command;

namespace {

std::vector<const Outbound*> actions(const WalkWorld& w, std::uint32_t action) {
  std::vector<const Outbound*> out;
  for (const Outbound& m : w.sent) {
    if (m.action == action) out.push_back(&m);
  }
  return out;
}

}  // namespace

TEST_CASE(
    "CommandInterpreter::SetAutonomyLevel 0x006B3BB0 tells the server the level (F752) "
    "(ACCmdInterp::SendAutonomyLevelEvent 0x0058B210, CM_Movement::Event_AutonomyLevel 0x006AF850)",
    "[retail]") {
  WalkWorld w;
  REQUIRE(w.ci->set_autonomy_level(0));
  auto sent = actions(w, 0xF752);
  REQUIRE(sent.size() == 1);
  auto level = protocol::decode_autonomy_level(sent[0]->bytes);
  REQUIRE(level);
  CHECK(level->level == 0);
  CHECK_FALSE(w.ci->set_autonomy_level(3));  // refused: nothing sent, the level kept
  CHECK(actions(w, 0xF752).size() == 1);
  CHECK(w.ci->autonomy_level() == 0);
  REQUIRE(w.ci->set_autonomy_level(0));  // the same level is told again
  REQUIRE(w.ci->set_autonomy_level(2));
  sent = actions(w, 0xF752);
  REQUIRE(sent.size() == 3);
  CHECK(protocol::decode_autonomy_level(sent[1]->bytes)->level == 0);
  CHECK(protocol::decode_autonomy_level(sent[2]->bytes)->level == 2);
  CHECK(protocol::decode_autonomy_level(sent[2]->bytes)->sequence > level->sequence);  // the UI counter
}

TEST_CASE(
    "CommandInterpreter::MovePlayer_NonAutonomous 0x006B3D00: keys become DoMovementCommand and "
    "StopMovementCommand, the player is not moved (ACCmdInterp::SendDoMovementEvent 0x0058B230, "
    "ACCmdInterp::SendStopMovementEvent 0x0058B250, CM_Movement::Event_DoMovementCommand 0x006AF920, "
    "CM_Movement::Event_StopMovementCommand 0x006AFCC0)",
    "[retail]") {
  WalkWorld w;
  SECTION("taken control of at level 2 first: presses and releases both go to the server") {
    w.ci->handle_keyboard_command(command::TurnRight, true);  // TakeControlFromServer
    w.ci->handle_keyboard_command(command::TurnRight, false);
    REQUIRE_FALSE(w.ci->controlled_by_server());
    REQUIRE(w.ci->set_autonomy_level(0));
    w.sent.clear();
    w.ci->handle_keyboard_command(command::WalkForward, true);
    auto starts = actions(w, 0xF61E);
    REQUIRE(starts.size() == 1);
    auto start = protocol::decode_do_movement_command(starts[0]->bytes);
    REQUIRE(start);
    CHECK(start->motion == command::WalkForward);
    CHECK(start->speed == 1.0f);
    CHECK(start->hold_key == 0);        // a keyboard command carries HoldKey_Invalid
    CHECK(actions(w, 0xF61C).empty());  // no MoveToState: SendMovementEvent is the autonomous path's
    CHECK(w.minterp().interpreted_state().forward_command == mc::Ready);  // nothing simulated locally
    const glm::vec3 before = w.origin();
    w.run(10);
    CHECK(w.origin() == before);
    CHECK(actions(w, 0xF753).empty());  // nor AutonomousPosition
    w.ci->handle_keyboard_command(command::WalkForward, false);
    auto stops = actions(w, 0xF661);
    REQUIRE(stops.size() == 1);
    auto stop = protocol::decode_stop_movement_command(stops[0]->bytes);
    REQUIRE(stop);
    CHECK(stop->motion == command::WalkForward);
    CHECK(stop->hold_key == 0);
  }
  SECTION("still controlled by the server (level 0 from the start): a release only leaves its list") {
    REQUIRE(w.ci->controlled_by_server());
    REQUIRE(w.ci->set_autonomy_level(0));
    w.sent.clear();
    w.ci->handle_keyboard_command(command::WalkForward, true);
    CHECK(actions(w, 0xF61E).size() == 1);
    CHECK(w.ci->controlled_by_server());  // TakeControlFromServer does nothing at level 0
    w.ci->handle_keyboard_command(command::WalkForward, false);
    CHECK(actions(w, 0xF661).empty());
    CHECK(w.ci->substate_list().get_head() == nullptr);
  }
}

TEST_CASE(
    "ClientCombatSystem::DoJump 0x0056B110 non-autonomous: F7C9 with extent 0, no local jump "
    "(CommandInterpreter::MovePlayer_NonAutonomous 0x006B3D00, ACCmdInterp::CommenceJump 0x0058B1A0, "
    "ACCmdInterp::DoJump 0x0058B1C0, CM_Movement::Event_Jump_NonAutonomous 0x006AFB30)",
    "[retail]") {
  WalkWorld w;
  ClientCombatSystem combat(*w.ci);
  w.ci->set_combat_system(&combat);
  w.ci->handle_keyboard_command(command::TurnRight, true);  // the client took control at level 2
  w.ci->handle_keyboard_command(command::TurnRight, false);
  REQUIRE(w.ci->set_autonomy_level(0));
  w.sent.clear();
  // The Jump command down: ACCmdInterp::CommenceJump charges the bar.
  w.ci->handle_keyboard_command(command::Jump, true);
  CHECK(combat.jump_pending);
  w.run(12);  // 0.4 s of charge
  // ... and up: DoJump(false). FinishJump clears jump_pending before the
  // branch reads it, so the bar's level is never sent: the extent is 0.
  w.ci->handle_keyboard_command(command::Jump, false);
  CHECK_FALSE(combat.jump_pending);
  CHECK_FALSE(w.minterp().standing_longjump);
  auto jumps = actions(w, 0xF7C9);
  REQUIRE(jumps.size() == 1);
  auto jump = protocol::decode_jump_non_autonomous(jumps[0]->bytes);
  REQUIRE(jump);
  CHECK(jump->extent == 0.0f);
  CHECK(actions(w, 0xF61B).empty());  // no autonomous Jump
  CHECK(actions(w, 0xF61E).empty());  // the jump is no DoMovementCommand
  CHECK(actions(w, 0xF661).empty());
  CHECK(w.grounded());  // the server makes the jump
  SECTION("with nothing pending the release still sends a zero jump") {
    combat.do_jump(false);
    CHECK(actions(w, 0xF7C9).size() == 2);
  }
  SECTION("the autonomous release is unchanged: it jumps locally and sends F61B") {
    REQUIRE(combat.commence_jump() == 0);
    w.run(6);
    CHECK(combat.do_jump(true) == 0);
    CHECK(actions(w, 0xF61B).size() == 1);
    CHECK_FALSE(w.grounded());
  }
}
