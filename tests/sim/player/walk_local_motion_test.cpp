// The local player moves like retail (spec/physics.md 2.7 and 5; issue 13
// section 4): keys -> CommandInterpreter -> CPhysicsObj::DoMotion ->
// CMotionInterp (raw state, adjust_motion, the interpreted state) -> the
// motion table's root motion -> the transition, every quantum. RE
// canim/CMotionInterp.c, cphysobj/CPhysicsObj.c, cmdinterp/CmdInterp.c.
#include <catch2/catch.hpp>

#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/protocol/messages.hpp"
#include "dereth/sim/object/smart_box.hpp"
#include "dereth/sim/player/client_combat_system.hpp"

#include "player/qualities_support.hpp"
#include "player/walk_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace mc = motion_command;
namespace ts = transient_state;

namespace {

// The root motion `ticks` quanta of 1/30 s give a cycle played at `rate`
// frames a second with sequence velocity `velocity` (m/s): CSequence::update
// 0x00525B80 applies the velocity in steps of one animation frame
// (apply_physics with 1/framerate) for every frame the cursor crosses, so
// the distance is whole frames' worth, not velocity x time.
float cycle_motion(float velocity, float rate, int ticks) {
  const double frames = std::floor(static_cast<double>(ticks) / 30.0 * std::fabs(static_cast<double>(rate)) + 1e-6);
  return static_cast<float>(static_cast<double>(velocity) * frames / std::fabs(static_cast<double>(rate)));
}

}  // namespace

TEST_CASE(
    "CMotionInterp::DoMotion 0x00528D20 keeps the raw state and interprets it for the motion table "
    "(CPhysicsObj::DoMotion 0x00510020, CPhysicsObj::InqRawMotionState 0x0050FDE0)",
    "[retail][sim][walk]") {
  WalkWorld w;
  REQUIRE(w.grounded());  // the placement transition stood the player on the terrain
  w.ci->handle_keyboard_command(command::WalkForward, true);
  // The interpreter's raw state is the player's motion interpreter's.
  CHECK(&w.ci->raw_state() == &w.minterp().raw_state());
  CHECK(w.minterp().raw_state().forward_command == mc::WalkForward);
  CHECK(w.minterp().interpreted_state().forward_command == mc::WalkForward);
  CHECK(w.minterp().interpreted_state().forward_speed == 1.0f);
  CHECK(w.player->last_move_was_autonomous());
  auto* parts = dynamic_cast<DatPartArray*>(w.player->part_array());
  REQUIRE(parts != nullptr);
  CHECK(parts->motion_table_manager()->state().substate == mc::WalkForward);

  SECTION("the Run hold key turns the interpreted walk into a run at the run rate (apply_run_to_command)") {
    w.ci->set_hold_run(true);
    CHECK(w.minterp().raw_state().current_holdkey == HoldKey::Run);
    CHECK(w.minterp().raw_state().forward_command == mc::WalkForward);  // raw keeps the key
    CHECK(w.minterp().interpreted_state().forward_command == mc::RunForward);
    CHECK(w.minterp().interpreted_state().forward_speed == w.minterp().inq_run_rate());
    CHECK(parts->motion_table_manager()->state().substate == mc::RunForward);
  }
  SECTION("a released key goes back to Ready in both states") {
    w.ci->handle_keyboard_command(command::WalkForward, false);
    CHECK(w.minterp().raw_state().forward_command == mc::Ready);
    CHECK(w.minterp().interpreted_state().forward_command == mc::Ready);
    CHECK(parts->motion_table_manager()->state().substate == mc::Ready);
  }
}

TEST_CASE(
    "CMotionInterp::apply_raw_movement 0x005287E0 adjusts each raw slot with its hold key "
    "(CMotionInterp::adjust_motion 0x00528010, CMotionInterp::apply_run_to_command 0x00527BE0)",
    "[retail][sim][walk]") {
  WalkWorld w;
  w.ci->handle_keyboard_command(command::WalkBackwards, true);
  const InterpretedMotionState& s = w.minterp().interpreted_state();
  CHECK(s.forward_command == mc::WalkForward);
  CHECK(s.forward_speed == -0.64999998f);
  w.ci->handle_keyboard_command(command::WalkBackwards, false);
  w.ci->handle_keyboard_command(command::SideStepLeft, true);
  CHECK(s.sidestep_command == mc::SideStepRight);
  CHECK(s.sidestep_speed == -1.0f * static_cast<float>(3.1199999 / 1.25 * 0.5));
  w.ci->handle_keyboard_command(command::SideStepLeft, false);
  w.ci->handle_keyboard_command(command::TurnLeft, true);
  CHECK(s.turn_command == mc::TurnRight);
  CHECK(s.turn_speed == -1.0f);
  SECTION("running: the turn is 1.5 times faster (RunTurnFactor)") {
    w.ci->set_hold_run(true);
    CHECK(s.turn_speed == -1.5f);
  }
}

TEST_CASE("CMotionInterp::apply_run_to_command 0x00527BE0 scales by the weenie's run rate and clamps sidesteps at 3",
          "[retail][sim][walk]") {
  WalkWorld w;
  MotionInterp& m = w.minterp();
  w.context.player_qualities = nullptr;
  CHECK(m.inq_run_rate() == m.my_run_rate);  // no qualities told: CMotionInterp's own rate
  // Run skill 200 (Quickness 200, untrained): (200 / 400 x 11 + 4) / 4 = 2.375.
  MovementStats stats;
  stats.quickness = 200;
  const auto qualities = movement_qualities(stats);
  w.context.player_qualities = qualities.get();
  CHECK(m.inq_run_rate() == 2.375f);
  CHECK(m.get_max_speed() == 2.375f * 4.0f);
  SECTION("only the player's weenie answers from the qualities") {
    w.context.player = nullptr;
    CHECK(m.inq_run_rate() == m.my_run_rate);
    w.context.player = w.player.get();
  }
  SECTION("an object without a weenie runs at 1") {
    w.player->set_weenie(std::nullopt);
    CHECK(m.inq_run_rate() == 1.0f);
    WeenieTraits back;
    back.is_creature = true;
    back.is_player = true;
    w.player->set_weenie(back);
  }
  // A rate that makes the sidestep clamp visible: (300 / 500 x 11 + 4) / 4 = 2.65 (run skill 300).
  stats.quickness = 300;
  const auto fast = movement_qualities(stats);
  w.context.player_qualities = fast.get();
  const float rate = m.inq_run_rate();
  REQUIRE(rate == Approx(2.65f));
  std::uint32_t motion = mc::WalkForward;
  float speed = 1.0f;
  m.apply_run_to_command(motion, speed);
  CHECK(motion == mc::RunForward);
  CHECK(speed == rate);
  motion = mc::WalkForward;
  speed = -0.65f;  // backwards never runs, but is scaled
  m.apply_run_to_command(motion, speed);
  CHECK(motion == mc::WalkForward);
  CHECK(speed == rate * -0.65f);
  motion = mc::SideStepRight;
  speed = 1.248f;
  m.apply_run_to_command(motion, speed);
  CHECK(speed == 3.0f);  // 2.65 x 1.248 = 3.31, clamped
  speed = -1.248f;
  m.apply_run_to_command(motion, speed);
  CHECK(speed == -3.0f);
}

TEST_CASE(
    "The local player walks forward at the walk cycle's root motion through the transition "
    "(CPhysicsObj::UpdateObjectInternal 0x005156B0, CPhysicsObj::UpdatePositionInternal 0x00512C30, "
    "CMotionInterp::DoMotion 0x00528D20)",
    "[retail][sim][walk]") {
  WalkWorld w;
  const glm::vec3 start = w.origin();
  CHECK(start.z == Approx(kGroundZ - 0.05f).margin(1e-4));  // the foot sphere rests on the terrain
  w.ci->handle_keyboard_command(command::WalkForward, true);
  const float walk = w.cycle(mc::WalkForward).velocity.y;
  CHECK(walk == 3.12f);
  w.run(120);  // four seconds
  // Heading 0 (identity): forward is +Y. The walk cycle plays at 30 frames a
  // second with velocity 3.12; on flat ground the transition takes it whole.
  CHECK(w.origin().x == start.x);
  CHECK(w.origin().y == Approx(start.y + cycle_motion(walk, 30.0f, 120)).margin(1e-4));
  CHECK(w.origin().z == start.z);
  CHECK(w.grounded());
  CHECK(w.player->position().objcell_id == 0xA9B40014);  // crossed y = 72 into the next cell

  SECTION("released, the player stops where it is") {
    w.ci->handle_keyboard_command(command::WalkForward, false);
    const glm::vec3 stopped = w.origin();
    w.run(30);
    CHECK(w.origin() == stopped);
  }
}

TEST_CASE(
    "Running, walking backward and sidestepping move by their cycles, autorun runs without a key "
    "(CMotionInterp::DoMotion 0x00528D20, CMotionInterp::apply_raw_movement 0x005287E0)",
    "[retail][sim][walk]") {
  WalkWorld w;
  const glm::vec3 start = w.origin();
  SECTION("running: the run cycle at the run rate") {
    w.ci->set_hold_run(true);
    w.ci->handle_keyboard_command(command::WalkForward, true);
    const float rate = w.minterp().inq_run_rate();
    const float run = w.cycle(mc::RunForward).velocity.y * rate;
    w.run(30);
    CHECK(w.origin().y == Approx(start.y + cycle_motion(run, 30.0f * rate, 30)).margin(1e-4));
  }
  SECTION("backward: the walk cycle played at -0.65") {
    w.ci->handle_keyboard_command(command::WalkBackwards, true);
    w.run(30);
    // The walk cycle at speed -0.65: 19.5 frames a second backwards, 19
    // whole frames of 2.028 / 19.5 m in one second.
    CHECK(w.origin().y == Approx(start.y + cycle_motion(3.12f * -0.64999998f, 30.0f * 0.64999998f, 30)).margin(1e-4));
    CHECK(w.origin().y < start.y - 1.9f);
    CHECK(w.origin().x == start.x);
  }
  SECTION("sidestep right: the sidestep cycle at 1.248") {
    w.ci->handle_keyboard_command(command::SideStepRight, true);
    w.run(30);
    const auto factor = static_cast<float>(3.1199999 / 1.25 * 0.5);
    const float speed = w.cycle(mc::SideStepRight).velocity.x * factor;
    CHECK(w.origin().x == Approx(start.x + cycle_motion(speed, 30.0f * factor, 30)).margin(1e-4));
    CHECK(w.origin().y == start.y);
  }
  SECTION("autorun: forward with the Run hold key and no key held") {
    w.ci->handle_keyboard_command(command::AutoRun, true);
    CHECK(w.minterp().interpreted_state().forward_command == mc::RunForward);
    w.run(30);
    const float rate = w.minterp().inq_run_rate();
    CHECK(w.origin().y == Approx(start.y + cycle_motion(4.0f * rate, 30.0f * rate, 30)).margin(1e-4));
  }
}

TEST_CASE(
    "Turning turns the player by the turn cycle's omega, and walking while turning curves (CMotionInterp::DoMotion "
    "0x00528D20, CMotionInterp::apply_interpreted_movement 0x00528600)",
    "[retail][sim][walk]") {
  WalkWorld w;
  w.ci->handle_keyboard_command(command::TurnRight, true);
  const float omega = w.cycle(mc::TurnRight).omega.z;
  CHECK(omega == -1.5f);
  w.run(30);
  // Compass heading grows clockwise: -1.5 rad/s about Z for one second.
  const float turned = -omega * 1.0f * 180.0f / 3.14159265f;
  CHECK(w.player->get_heading() == Approx(turned).margin(0.05));
  const glm::vec3 here = w.origin();
  CHECK(glm::length(here - glm::vec3(60.0f, 60.0f, here.z)) < 1e-4f);  // turning in place
  SECTION("walking while turning: the turn is a modifier on the walk cycle") {
    w.ci->handle_keyboard_command(command::WalkForward, true);
    auto* parts = dynamic_cast<DatPartArray*>(w.player->part_array());
    CHECK(parts->motion_table_manager()->state().substate == mc::WalkForward);
    REQUIRE(parts->motion_table_manager()->state().modifiers().size() == 1);
    CHECK(parts->motion_table_manager()->state().modifiers()[0].motion == mc::TurnRight);
    const float before = w.player->get_heading();
    w.run(15);
    CHECK(w.player->get_heading() != before);
    CHECK(glm::length(w.origin() - here) > 1.0f);
  }
}

TEST_CASE(
    "CMotionInterp::get_jump_v_z 0x00527AA0: 10 without a weenie, 0 from a weenie with no qualities "
    "(ACCWeenieObject::InqJumpVelocity 0x0058C520)",
    "[retail][sim][walk]") {
  WalkWorld w;
  MotionInterp& m = w.minterp();
  m.jump_extent = 0.5f;
  w.context.player_qualities = nullptr;
  CHECK(m.get_jump_v_z() == 0.0f);  // the player, but no PlayerDescription yet
  const auto& qualities = w.qualities;
  w.context.player_qualities = qualities.get();
  float expected = 0.0f;
  REQUIRE(qualities->inq_jump_velocity(0.5f, expected));
  CHECK(m.get_jump_v_z() == expected);
  m.jump_extent = 3.0f;  // clamped to 1
  REQUIRE(qualities->inq_jump_velocity(1.0f, expected));
  CHECK(m.get_jump_v_z() == expected);
  m.jump_extent = 0.0001f;  // below 0.0002: no jump
  CHECK(m.get_jump_v_z() == 0.0f);
  m.jump_extent = 0.5f;
  w.player->set_weenie(std::nullopt);
  CHECK(m.get_jump_v_z() == 10.0f);
}

TEST_CASE(
    "CMotionInterp::jump 0x00528780: the charged jump leaves the ground at the jump skill's velocity and lands "
    "(CMotionInterp::charge_jump 0x005281C0, CMotionInterp::get_jump_v_z 0x00527AA0, "
    "CMotionInterp::get_leave_ground_velocity 0x005280C0, CMotionInterp::jump_is_allowed 0x005282B0, "
    "CPhysicsObj::handle_all_collisions 0x00514780)",
    "[retail][sim][walk]") {
  WalkWorld w;
  // A strong jumper (Jump 600): a half-charged jump leaves at ~8.3 m/s, so
  // the landing's bounce is above what friction takes away.
  MovementStats stats;
  stats.strength = 600;
  stats.coordination = 600;
  w.qualities = movement_qualities(stats);
  w.context.player_qualities = w.qualities.get();
  float jump_v_z = 0.0f;
  REQUIRE(w.qualities->inq_jump_velocity(0.5f, jump_v_z));
  REQUIRE(jump_v_z == Approx(8.32f).margin(0.01));
  const float ground = w.origin().z;
  int cost = 0;
  CHECK(w.minterp().jump_is_allowed(0.5f, cost) == 0);
  CHECK(w.ci->charge_jump() == 0);
  CHECK(w.minterp().standing_longjump);  // standing still on the ground
  REQUIRE(w.ci->jump(0.5f, cost) == 0);
  CHECK_FALSE(w.grounded());
  CHECK_FALSE(w.minterp().standing_longjump);  // LeaveGround clears it
  CHECK(w.minterp().jump_extent == 0.0f);      // ... and the extent, once the velocity is set
  CHECK(w.player->velocity().z == jump_v_z);   // get_jump_v_z: the jump skill's velocity at extent 0.5
  auto* parts = dynamic_cast<DatPartArray*>(w.player->part_array());
  CHECK(parts->motion_table_manager()->state().substate == mc::Falling);
  SECTION("in the air no second jump (error 36, You can't jump from this position)") {
    CHECK(w.minterp().jump_is_allowed(0.5f, cost) == movement_error::YouCantJumpFromThisPosition);
  }
  float peak = ground;
  int airborne_ticks = 0;
  for (int i = 0; i < 90 && (airborne_ticks == 0 || !w.grounded()); ++i) {
    w.tick();
    peak = std::max(peak, w.origin().z);
    if (!w.grounded()) ++airborne_ticks;
  }
  // v^2 / 2g = 69.2 / 19.6 = 3.5 m (less the first quantum's discretisation).
  CHECK(peak - ground == Approx(jump_v_z * jump_v_z / (2.0f * 9.8f)).margin(0.3));
  CHECK(w.grounded());  // Contact and OnWalkable from the transition's contact plane
  CHECK(w.origin().z == Approx(ground).margin(1e-3));
  // The landing bounced the fall off the ground by the elasticity
  // (CPhysicsObj::handle_all_collisions 0x00514780: about 8.3 m/s x 0.05 up);
  // on walkable ground calc_friction leaves a velocity out of the plane
  // above 0.25 m/s alone and adjust_offset keeps the moves on the plane, so
  // the player stays on the terrain.
  w.tick();
  CHECK(w.player->velocity().z == Approx(jump_v_z * w.player->elasticity()).margin(0.05));
  w.run(15);
  CHECK(w.grounded());
  CHECK(w.origin().z == Approx(ground).margin(1e-3));
  CHECK(airborne_ticks == Approx(2.0 * jump_v_z / 9.8 * 30.0).margin(2.0));
  CHECK(parts->motion_table_manager()->state().substate == mc::Ready);  // HitGround re-applied the raw state
}

TEST_CASE("CMotionInterp::motion_allows_jump 0x005279E0 and jump_charge_is_allowed 0x00527A50", "[retail][sim][walk]") {
  CHECK(MotionInterp::motion_allows_jump(mc::Ready) == 0);
  CHECK(MotionInterp::motion_allows_jump(mc::WalkForward) == 0);
  CHECK(MotionInterp::motion_allows_jump(mc::RunForward) == 0);
  CHECK(MotionInterp::motion_allows_jump(mc::Falling) == 0);
  CHECK(MotionInterp::motion_allows_jump(0x40000008) == 72);  // Fallen
  CHECK(MotionInterp::motion_allows_jump(mc::Crouch) == 72);
  CHECK(MotionInterp::motion_allows_jump(mc::Sleeping) == 72);
  CHECK(MotionInterp::motion_allows_jump(0x40000016) == 72);
  CHECK(MotionInterp::motion_allows_jump(0x4000001E) == 72);
  CHECK(MotionInterp::motion_allows_jump(0x40000039) == 72);
  CHECK(MotionInterp::motion_allows_jump(0x4000003A) == 0);
  CHECK(MotionInterp::motion_allows_jump(0x1000006F) == 72);
  CHECK(MotionInterp::motion_allows_jump(0x10000078) == 72);
  CHECK(MotionInterp::motion_allows_jump(0x10000079) == 0);
  CHECK(MotionInterp::motion_allows_jump(0x10000128) == 72);
  CHECK(MotionInterp::motion_allows_jump(mc::LifestoneRecall) == 0);
}

TEST_CASE(
    "ClientCombatSystem::DoJump 0x0056B110: the jump key's release jumps with the bar's level and sends F61B "
    "(ClientCombatSystem::CommenceJump 0x0056AF90, CM_Movement::Event_Jump 0x006AFA70)",
    "[retail][sim][walk]") {
  WalkWorld w;
  ClientCombatSystem combat(*w.ci);
  w.ci->set_combat_system(&combat);
  REQUIRE(combat.commence_jump() == 0);  // charging: the jump bar builds
  CHECK(combat.jump_pending);
  w.run(12);  // 0.4 s
  const glm::vec3 took_off_at = w.origin();
  REQUIRE(combat.do_jump(true) == 0);
  CHECK_FALSE(combat.jump_pending);
  CHECK_FALSE(w.grounded());
  std::vector<protocol::Jump> jumps;
  for (const Outbound& m : w.sent) {
    if (m.action != 0xF61B) continue;
    auto d = protocol::decode_jump(m.bytes);
    REQUIRE(d);
    jumps.push_back(*d);
  }
  REQUIRE(jumps.size() == 1);
  CHECK(jumps[0].extent == Approx(0.4f).margin(1e-3));
  float v_z = 0.0f;
  REQUIRE(w.qualities->inq_jump_velocity(jumps[0].extent, v_z));
  CHECK(jumps[0].velocity == protocol::Vec3{0.0f, 0.0f, v_z});  // standing: straight up, local axes
  CHECK(jumps[0].position ==
        to_wire(Position{w.player->position().objcell_id, core::Frame(took_off_at, glm::quat(1, 0, 0, 0))}));
  SECTION("no jump pending: the release does nothing") {
    const std::size_t sent = w.sent.size();
    CHECK(combat.do_jump(true) == 0);
    CHECK(w.sent.size() == sent);
  }
  SECTION("released in the air (a second charge is refused: error 36 from jump)") {
    combat.jump_pending = true;  // as if the key were pressed again mid-air
    CHECK(combat.do_jump(true) == movement_error::YouCantJumpFromThisPosition);
  }
}

TEST_CASE(
    "CMotionInterp::set_hold_run 0x00528B70, SetHoldKey 0x00528BB0, StopMotion 0x00528530, is_standing_still "
    "0x00527FA0 and StopCompletely 0x00527E40 on the raw state (CPhysicsObj::StopCompletely 0x00510180)",
    "[retail][sim][walk]") {
  WalkWorld w;
  MotionInterp& m = w.minterp();
  CHECK(m.is_standing_still());
  // set_hold_run: only a change re-applies the movement.
  m.set_hold_run(true, false);
  CHECK(m.raw_state().current_holdkey == HoldKey::Run);
  // SetHoldKey: Invalid changes nothing, None only from Run, Run from anything.
  m.set_hold_key(HoldKey::Invalid, false);
  CHECK(m.raw_state().current_holdkey == HoldKey::Run);
  m.set_hold_key(HoldKey::None, false);
  CHECK(m.raw_state().current_holdkey == HoldKey::None);
  m.set_hold_key(HoldKey::Run, false);
  CHECK(m.raw_state().current_holdkey == HoldKey::Run);
  m.set_hold_key(HoldKey::None, false);

  MovementParameters params;
  params.hold_key = static_cast<std::uint32_t>(HoldKey::Invalid);
  params.bitfield |= MovementParameters::kAutonomous;
  REQUIRE(w.player->do_motion(mc::WalkForward, params) == movement_error::None);
  REQUIRE(w.player->do_motion(mc::SideStepLeft, params) == movement_error::None);
  CHECK_FALSE(m.is_standing_still());
  CHECK(m.raw_state().sidestep_command == mc::SideStepLeft);  // raw keeps the key as pressed
  CHECK(m.interpreted_state().sidestep_command == mc::SideStepRight);
  // StopMotion takes the adjusted motion out of the interpreted state and the
  // pressed one out of the raw state.
  REQUIRE(w.player->stop_motion(mc::SideStepLeft, params) == movement_error::None);
  CHECK(m.raw_state().sidestep_command == 0);
  CHECK(m.interpreted_state().sidestep_command == 0);
  CHECK(m.raw_state().forward_command == mc::WalkForward);
  // StopCompletely (CPhysicsObj::StopCompletely 0x00510180): both states back to Ready.
  REQUIRE(w.player->stop_completely() == movement_error::None);
  CHECK(m.raw_state().forward_command == mc::Ready);
  CHECK(m.interpreted_state().forward_command == mc::Ready);
  CHECK(m.is_standing_still());
  // In the air nothing is standing still.
  w.player->set_on_walkable(false);
  CHECK_FALSE(m.is_standing_still());
}

TEST_CASE("CPhysicsObj::get_local_physics_velocity 0x00512140 turns the velocity into the object's axes",
          "[retail][sim][walk]") {
  WalkWorld w;
  core::Frame f = w.player->position().frame;
  f.set_heading(90.0f);  // facing east
  w.player->set_frame(f);
  w.player->set_velocity(glm::vec3(2.0f, 0.0f, 1.0f), false);  // moving east, and up
  const glm::vec3 local = w.player->get_local_physics_velocity();
  CHECK(local.x == Approx(0.0f).margin(1e-5));
  CHECK(local.y == Approx(2.0f).margin(1e-5));  // straight ahead
  CHECK(local.z == Approx(1.0f).margin(1e-5));
}
