// The jump's weenie checks (issue 13 section 4): CMotionInterp asks the
// player's weenie whether the burden allows a jump (ACCWeenieObject::CanJump
// -> CACQualities::CanJump, error 73 "You're too loaded down to jump") and
// what the jump costs in stamina (ACCWeenieObject::JumpStaminaCost ->
// CACQualities::JumpStaminaCost -> MovementSystem::JumpStaminaCost; the
// client computes the cost and ClientCombatSystem::DoJump discards it: the
// server charges the stamina). RE canim/CMotionInterp.c,
// AC/accobject/ACCWeenieObj.c, AC/accqualities/CACQualitiesSkills.c,
// AC/accui_misc/CombatSystem.c.
#include <catch2/catch.hpp>

#include "dereth/sim/player/client_combat_system.hpp"

#include "player/qualities_support.hpp"
#include "player/walk_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace mc = motion_command;

namespace {

constexpr std::uint32_t kTooLoadedDown = 73;  // WERROR_MOTION_CANT_JUMP_LOAD

void give_burden(WalkWorld& w, std::int32_t burden) {
  MovementStats s;
  s.burden = burden;  // Strength 100: capacity 15000, load = burden / 15000
  w.qualities = movement_qualities(s);
  w.context.player_qualities = w.qualities.get();
}

}  // namespace

TEST_CASE(
    "ACCWeenieObject::CanJump 0x0058C400 answers for the player with qualities only (ACCWeenieObject::JumpStaminaCost "
    "0x0058C440)",
    "[retail]") {
  WalkWorld w;
  int cost = -1;
  CHECK(w.player->weenie_can_jump(1.0f));
  REQUIRE(w.player->weenie_jump_stamina_cost(1.0f, cost));
  CHECK(cost == 6);  // ACCWeenieObject::JumpStaminaCost 0x0058C440: load 0, full power
  give_burden(w, 30000);
  CHECK_FALSE(w.player->weenie_can_jump(1.0f));
  REQUIRE(w.player->weenie_jump_stamina_cost(1.0f, cost));
  CHECK(cost == 22);  // ceil(2.5 x 8 + 2): the cost is answered even when no jump is allowed
  SECTION("no PlayerDescription yet (m_pQualities null): neither answers") {
    w.context.player_qualities = nullptr;
    cost = -1;
    CHECK_FALSE(w.player->weenie_can_jump(1.0f));
    CHECK_FALSE(w.player->weenie_jump_stamina_cost(1.0f, cost));
    CHECK(cost == -1);
  }
  SECTION("not the player (IsThePlayer false): neither answers") {
    give_burden(w, 0);
    w.context.player = nullptr;
    CHECK_FALSE(w.player->weenie_can_jump(1.0f));
    CHECK_FALSE(w.player->weenie_jump_stamina_cost(1.0f, cost));
  }
}

TEST_CASE("CMotionInterp::jump_charge_is_allowed 0x00527A50 and charge_jump 0x005281C0: 73 when too loaded down",
          "[retail]") {
  WalkWorld w;
  MotionInterp& m = w.minterp();
  REQUIRE(w.grounded());
  CHECK(m.jump_charge_is_allowed() == 0);
  give_burden(w, 30000);  // load 2
  CHECK(m.jump_charge_is_allowed() == kTooLoadedDown);
  CHECK(m.charge_jump() == kTooLoadedDown);
  CHECK_FALSE(m.standing_longjump);  // refused before the standing long jump is set
  give_burden(w, 29999);
  CHECK(m.jump_charge_is_allowed() == 0);
  CHECK(m.charge_jump() == 0);
  CHECK(m.standing_longjump);
  SECTION("the burden is asked before the pose: a loaded-down crouch is 73, not 72") {
    give_burden(w, 30000);
    // The server crouched the player (a non-autonomous Movement).
    w.player->set_last_move_was_autonomous(false);
    InterpretedMotionState crouched;
    crouched.forward_command = mc::Crouch;
    m.move_to_interpreted_state(crouched);
    REQUIRE(m.interpreted_state().forward_command == mc::Crouch);
    CHECK(m.jump_charge_is_allowed() == kTooLoadedDown);
    give_burden(w, 0);
    CHECK(m.jump_charge_is_allowed() == 72);
  }
  SECTION("a player whose qualities have not come cannot jump") {
    w.context.player_qualities = nullptr;
    CHECK(m.jump_charge_is_allowed() == kTooLoadedDown);
  }
  SECTION("an object without a weenie is never asked") {
    w.context.player_qualities = nullptr;
    w.player->set_weenie(std::nullopt);
    CHECK(m.jump_charge_is_allowed() == 0);
  }
}

TEST_CASE("CMotionInterp::jump_is_allowed 0x005282B0 and jump 0x00528780 answer the stamina cost", "[retail]") {
  WalkWorld w;
  MotionInterp& m = w.minterp();
  int cost = -1;
  CHECK(m.jump_is_allowed(0.5f, cost) == 0);
  CHECK(cost == 4);       // ceil(0.5 x 0.5 x 8 + 2)
  give_burden(w, 15000);  // load 1
  CHECK(m.jump_is_allowed(1.0f, cost) == 0);
  CHECK(cost == 14);  // ceil(1.5 x 8 + 2)
  give_burden(w, 30000);
  cost = -1;
  CHECK(m.jump_is_allowed(1.0f, cost) == kTooLoadedDown);
  CHECK(cost == -1);  // refused before the cost is asked
  int adjustment = -1;
  CHECK(m.jump(1.0f, adjustment) == kTooLoadedDown);
  CHECK(w.grounded());  // no jump: still on the ground
  give_burden(w, 0);
  REQUIRE(m.jump(0.25f, adjustment) == 0);
  CHECK(adjustment == 3);  // ceil(0.5 x 0.25 x 8 + 2)
  CHECK_FALSE(w.grounded());
}

TEST_CASE(
    "ClientCombatSystem::DoJump 0x0056B110 with a loaded-down player: no charge, no jump, no F61B "
    "(ClientCombatSystem::CommenceJump 0x0056AF90)",
    "[retail]") {
  WalkWorld w;
  ClientCombatSystem combat(*w.ci);
  w.ci->set_combat_system(&combat);
  give_burden(w, 30000);
  CHECK(combat.commence_jump() == kTooLoadedDown);
  CHECK_FALSE(combat.jump_pending);
  CHECK(combat.do_jump(true) == 0);  // nothing pending: the release does nothing
  SECTION("loaded down while the bar builds: the release is refused with 73") {
    give_burden(w, 0);
    REQUIRE(combat.commence_jump() == 0);
    w.run(6);
    give_burden(w, 30000);
    CHECK(combat.do_jump(true) == kTooLoadedDown);
    CHECK_FALSE(combat.jump_pending);
    CHECK(w.grounded());
    for (const Outbound& o : w.sent) CHECK(o.action != 0xF61B);
  }
}
