// PORTAL/canim/CMoveToManager and CMovementDefs: the MoveTo machinery that
// walks remote creatures between server updates (Movement types 6-9).
#include "dereth/sim/motion/move_to_manager.hpp"

#include <catch2/catch.hpp>

#include <limits>

#include "dereth/protocol/movement.hpp"
#include "dereth/sim/object/smart_box.hpp"

#include "fakes.hpp"
#include "motion/move_to_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace mc = dereth::sim::motion_command;

namespace {

constexpr std::uint32_t kMover = 0x80000010;
constexpr std::uint32_t kTarget = 0x80000020;
constexpr float kFltMax = std::numeric_limits<float>::max();

// Parameters without StopCompletely, so a test sees the first command at once.
MovementParameters quiet_params() {
  MovementParameters p;
  p.bitfield &= ~MovementParameters::kStopCompletely;
  return p;
}

// A creature whose start-up motions have finished.
PhysicsObj& settled(MoveToWorld& w, std::uint32_t guid, glm::vec3 origin, float heading = 0.0f) {
  PhysicsObj& o = w.creature(guid, origin, heading);
  w.run_until([&] { return !o.motions_pending(); }, 120);
  REQUIRE_FALSE(o.motions_pending());
  REQUIRE(MoveToWorld::grounded(o));
  return o;
}

float exact_heading(float degrees) {
  core::Frame f;
  f.set_heading(degrees);
  return f.get_heading();
}

}  // namespace

// --- the helper math ----------------------------------------------------------------------

TEST_CASE("heading_greater 0x00528F60 compares headings in the turn's direction across the seam", "[retail][sim]") {
  CHECK(heading_greater(91.0f, 90.0f, mc::TurnRight));
  CHECK_FALSE(heading_greater(90.0f, 90.0f, mc::TurnRight));  // equal is not past
  CHECK_FALSE(heading_greater(89.0f, 90.0f, mc::TurnRight));
  CHECK(heading_greater(1.0f, 359.0f, mc::TurnRight));  // past the seam
  CHECK_FALSE(heading_greater(359.0f, 1.0f, mc::TurnRight));
  // Any other motion (TurnLeft) asks the opposite, equality included.
  CHECK(heading_greater(89.0f, 90.0f, mc::TurnLeft));
  CHECK(heading_greater(90.0f, 90.0f, mc::TurnLeft));
  CHECK(heading_greater(359.0f, 1.0f, mc::TurnLeft));
  CHECK_FALSE(heading_greater(1.0f, 359.0f, mc::TurnLeft));
}

TEST_CASE("heading_diff 0x00528FB0 measures the turn still to make, 0 to 360", "[retail][sim]") {
  CHECK(heading_diff(90.0f, 0.0f, mc::TurnRight) == Approx(90.0));
  CHECK(heading_diff(0.0f, 90.0f, mc::TurnRight) == Approx(270.0));
  CHECK(heading_diff(90.0f, 0.0f, mc::TurnLeft) == Approx(270.0));
  CHECK(heading_diff(0.0f, 90.0f, mc::TurnLeft) == Approx(90.0));
  CHECK(heading_diff(10.0f, 10.0001f, mc::TurnRight) == 0.0);  // within epsilon: none
  CHECK(heading_diff(10.0001f, 10.0f, mc::TurnLeft) == 0.0);
}

TEST_CASE("Position::cylinder_distance 0x005A97F0 combines the side and vertical gaps", "[retail][sim]") {
  // The side gap is the full 3D centre distance less both radii (as the
  // binary computes it); the vertical gap is the higher base over the lower
  // top.
  const Position a = spot({60, 60, 10});
  // Side by side, overlapping in height: the side gap.
  CHECK(cylinder_distance(0.5f, 2.0f, a, 0.5f, 2.0f, spot({63, 60, 10})) == Approx(2.0f));
  // Both gaps open: their diagonal (side gap sqrt(41) - 1, vertical 15 - 12).
  const float side = std::sqrt(41.0f) - 1.0f;
  CHECK(cylinder_distance(0.5f, 2.0f, a, 0.5f, 2.0f, spot({64, 60, 15})) == Approx(std::sqrt(9.0f + side * side)));
  // Vertical overlap, side gap open: the side gap (sqrt(1.36) - 1).
  CHECK(cylinder_distance(0.5f, 2.0f, a, 0.5f, 2.0f, spot({60.6f, 60, 11})) == Approx(std::sqrt(1.36f) - 1.0f));
  // Both overlapping: a negative diagonal (side sqrt(0.34) - 1, vertical -1.5).
  const float overlap = std::sqrt(0.34f) - 1.0f;
  CHECK(cylinder_distance(0.5f, 2.0f, a, 0.5f, 2.0f, spot({60.3f, 60, 10.5f})) ==
        Approx(-std::sqrt(2.25f + overlap * overlap)));
  // Side overlap, vertical gap open: the vertical gap. p1 is the higher, so
  // the lower one's height h2 counts: 10.8 - (10 + 0.5).
  CHECK(cylinder_distance(1.0f, 9.0f, spot({60, 60, 10.8f}), 1.0f, 0.5f, a) == Approx(0.3f));
}

// --- MovementParameters ---------------------------------------------------------------------

TEST_CASE("MovementParameters::MovementParameters 0x00524380 and UnPackNet 0x0052AC50", "[retail][sim]") {
  const MovementParameters d;
  CHECK(d.bitfield == 0x1EE0Fu);
  CHECK(d.distance_to_object == 0.6f);
  CHECK(d.min_distance == 0.0f);
  CHECK(d.fail_distance == kFltMax);
  CHECK(d.desired_heading == 0.0f);
  CHECK(d.speed == 1.0f);
  CHECK(d.walk_run_threshhold == 15.0f);
  CHECK(d.hold_key == 0);

  MovementParameters p;
  p.context_id = 7;
  p.hold_key = 2;
  p.unpack_net(protocol::MoveToParameters{0x283, 1.5f, 0.25f, 30.0f, 1.25f, 4.0f, 123.0f});
  CHECK(p.bitfield == 0x283u);
  CHECK(p.distance_to_object == 1.5f);
  CHECK(p.min_distance == 0.25f);
  CHECK(p.fail_distance == 30.0f);
  CHECK(p.speed == 1.25f);
  CHECK(p.walk_run_threshhold == 4.0f);
  CHECK(p.desired_heading == 123.0f);
  CHECK(p.context_id == 7);  // not on the wire: kept
  CHECK(p.hold_key == 2);

  MovementParameters t;
  t.unpack_net(protocol::TurnToParameters{0x10000, 2.0f, 45.0f});
  CHECK(t.bitfield == 0x10000u);
  CHECK(t.speed == 2.0f);
  CHECK(t.desired_heading == 45.0f);
  CHECK(t.distance_to_object == 0.6f);  // not on the TurnTo wire: kept
}

TEST_CASE(
    "MovementParameters::get_command 0x0052AA00 picks the command, hold key and direction "
    "(MovementParameters::towards_and_away 0x0052A9A0, MovementParameters::get_desired_heading 0x0052AAD0)",
    "[retail][sim]") {
  MovementParameters p;  // CanWalk | CanRun | MoveTowards
  std::uint32_t command = 99;
  std::uint32_t key = 99;
  bool away = true;
  p.get_command(5.0f, 0.0f, command, key, away);
  CHECK(command == mc::WalkForward);
  CHECK_FALSE(away);
  CHECK(key == 1);  // None: within the 15 m walk/run threshold
  p.get_command(15.61f, 0.0f, command, key, away);
  CHECK(key == 2);  // Run: beyond distance_to_object + threshold
  p.get_command(0.6f, 0.0f, command, key, away);
  CHECK(command == 0);  // at distance_to_object: in range
  SECTION("CanCharge always runs, CanRun without CanWalk runs, neither walks") {
    p.bitfield |= MovementParameters::kCanCharge;
    p.get_command(1.0f, 0.0f, command, key, away);
    CHECK(key == 2);
    p.bitfield = MovementParameters::kCanRun | MovementParameters::kMoveTowards;
    p.get_command(1.0f, 0.0f, command, key, away);
    CHECK(key == 2);
    p.bitfield = MovementParameters::kMoveTowards;
    p.get_command(100.0f, 0.0f, command, key, away);
    CHECK(key == 1);
  }
  SECTION("MoveAway alone walks off (facing away) while inside min_distance") {
    p.bitfield = MovementParameters::kMoveAway | MovementParameters::kCanWalk;
    p.min_distance = 5.0f;
    p.get_command(3.0f, 0.0f, command, key, away);
    CHECK(command == mc::WalkForward);
    CHECK(away);
    p.get_command(5.0f, 0.0f, command, key, away);
    CHECK(command == 0);
  }
  SECTION("towards_and_away backs off inside min_distance") {
    p.bitfield = MovementParameters::kMoveAway | MovementParameters::kMoveTowards;
    p.distance_to_object = 4.0f;
    p.min_distance = 2.0f;
    away = false;
    p.get_command(1.0f, 0.0f, command, key, away);
    CHECK(command == mc::WalkBackwards);
    CHECK(away);
    p.get_command(3.0f, 0.0f, command, key, away);
    CHECK(command == 0);
    p.get_command(4.5f, 0.0f, command, key, away);
    CHECK(command == mc::WalkForward);
    CHECK_FALSE(away);
  }
  CHECK(MovementParameters::get_desired_heading(mc::WalkForward, false) == 0.0f);
  CHECK(MovementParameters::get_desired_heading(mc::RunForward, true) == 180.0f);
  CHECK(MovementParameters::get_desired_heading(mc::WalkBackwards, false) == 180.0f);
  CHECK(MovementParameters::get_desired_heading(mc::WalkBackwards, true) == 0.0f);
  CHECK(MovementParameters::get_desired_heading(mc::TurnRight, true) == 0.0f);
}

// --- MoveToManager without an object ----------------------------------------------------------

TEST_CASE(
    "MoveToManager::InitializeLocalVariables 0x00529250 and the no-object answers (MoveToManager::MoveToManager "
    "0x005293B0, MoveToManager::Create 0x00529470, MoveToManager::is_moving_to 0x00529220, MoveToManager::_DoMotion "
    "0x00529010, MoveToManager::_StopMotion 0x00529080, MoveToManager::GetCurrentDistance 0x005291B0, "
    "MoveToManager::CancelMoveTo 0x00529930)",
    "[retail]"
    "[sim]") {
  MoveToManager m(nullptr);
  CHECK_FALSE(m.is_moving_to());
  CHECK(m.movement_params().bitfield == 0);  // the constructor's defaults, bitfield cleared
  CHECK(m.movement_params().distance_to_object == 0.6f);
  CHECK(m.previous_distance() == kFltMax);
  CHECK(m.original_distance() == kFltMax);
  CHECK(m.do_motion(mc::WalkForward, MovementParameters{}) == 8);
  CHECK(m.stop_motion(mc::WalkForward, MovementParameters{}) == 8);
  CHECK(m.get_current_distance() == kFltMax);
  MovementParameters p;
  p.context_id = 0x55;
  m.turn_to_heading(p);  // no object: only the context id is kept
  CHECK(m.movement_params().context_id == 0x55);
  CHECK_FALSE(m.is_moving_to());
  m.cancel_move_to(0x36);  // nothing to cancel
  CHECK(m.pending_actions().empty());
}

TEST_CASE(
    "MoveToManager::AddTurnToHeadingNode 0x00529530 and AddMoveToPositionNode 0x00529580 queue at the tail "
    "(MoveToManager::RemovePendingActionsHead 0x00529380)",
    "[retail][sim]") {
  MoveToManager m(nullptr);
  m.add_turn_to_heading_node(45.0f);
  m.add_move_to_position_node();
  m.add_turn_to_heading_node(90.0f);
  REQUIRE(m.pending_actions().size() == 3);
  CHECK(m.pending_actions()[0] == MoveToManager::Node{MovementKind::TurnToHeading, 45.0f});
  CHECK(m.pending_actions()[1].type == MovementKind::MoveToPosition);
  m.remove_pending_actions_head();
  CHECK(m.pending_actions().front().type == MovementKind::MoveToPosition);
  m.remove_pending_actions_head();
  m.remove_pending_actions_head();
  m.remove_pending_actions_head();  // empty: nothing
  CHECK(m.pending_actions().empty());
}

// --- MoveToPosition ---------------------------------------------------------------------------

TEST_CASE(
    "MoveToManager::MoveToPosition 0x0052A240 lays a turn, a move and a final turn (MoveToManager::BeginNextNode "
    "0x00529CB0, MoveToManager::BeginTurnToHeading 0x00529B90)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  MovementParameters p = quiet_params();
  p.bitfield |= MovementParameters::kUseFinalHeading | MovementParameters::kSticky;
  p.desired_heading = 200.0f;
  const glm::vec3 start = o.position().frame.origin;
  m.move_to_position(spot({70, 60, kGroundZ}), p);
  CHECK(m.movement_type() == 7);
  CHECK((m.movement_params().bitfield & MovementParameters::kSticky) == 0);  // Sticky dropped
  CHECK(m.starting_position().frame.origin == start);
  CHECK(m.sought_position().frame.origin == glm::vec3(70, 60, kGroundZ));
  REQUIRE(m.pending_actions().size() == 3);
  CHECK(m.pending_actions()[0] == MoveToManager::Node{MovementKind::TurnToHeading, 90.0f});
  CHECK(m.pending_actions()[1].type == MovementKind::MoveToPosition);
  CHECK(m.pending_actions()[2] == MoveToManager::Node{MovementKind::TurnToHeading, 200.0f});
  // A standing creature's StopCompletely completes at once, so the turn
  // begins inside MoveToPosition.
  CHECK(m.current_command() == mc::TurnRight);  // 90 degrees: the right way round
  SECTION("in range already: only the final turn") {
    m.cancel_move_to(0x36);
    w.run_until([&] { return !o.motions_pending(); }, 60);
    MovementParameters q = quiet_params();
    q.bitfield |= MovementParameters::kUseFinalHeading;
    q.desired_heading = 270.0f;
    m.move_to_position(spot({60, 60.5f, kGroundZ}), q);
    REQUIRE(m.pending_actions().size() == 1);
    CHECK(m.pending_actions()[0].heading == 270.0f);
  }
}

TEST_CASE(
    "MoveToManager::BeginTurnToHeading 0x00529B90 turns the shorter way and skips a reached heading "
    "(MoveToManager::TurnToHeading 0x0052A630, MoveToManager::_DoMotion 0x00529010)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  MovementParameters p = quiet_params();
  SECTION("180 degrees turns right") {
    p.desired_heading = 180.0f;
    m.turn_to_heading(p);
    CHECK(m.movement_type() == 9);
    CHECK(m.current_command() == mc::TurnRight);
    CHECK(m.previous_heading() == Approx(180.0f));  // the difference, as retail stores it
    CHECK(MoveToWorld::minterp(o).interpreted_state().turn_command == mc::TurnRight);
  }
  SECTION("past 180 degrees turns left") {
    p.desired_heading = 181.0f;
    m.turn_to_heading(p);
    CHECK(m.current_command() == mc::TurnLeft);
  }
  SECTION("a heading within epsilon ends the TurnTo at once") {
    p.desired_heading = 0.0001f;
    m.turn_to_heading(p);
    CHECK_FALSE(m.is_moving_to());
    CHECK(m.pending_actions().empty());
  }
  SECTION("TurnToHeading drops Sticky and keeps the desired heading in the sought frame") {
    p.bitfield |= MovementParameters::kSticky;
    p.desired_heading = 90.0f;
    m.turn_to_heading(p);
    CHECK((m.movement_params().bitfield & MovementParameters::kSticky) == 0);
    CHECK(m.sought_position().frame.get_heading() == Approx(90.0f));
  }
}

TEST_CASE(
    "MoveToManager::HandleTurnToHeading 0x0052A0C0 snaps to the exact heading and stops turning "
    "(MoveToManager::UseTime 0x0052A780, CPhysicsObj::TurnToHeading 0x00512980)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  MovementParameters p;
  const float wanted = GENERATE(37.5f, 200.0f, 300.0f);
  p.desired_heading = wanted;
  o.turn_to_heading(p);
  REQUIRE(o.is_moving_to());
  const glm::vec3 start = o.position().frame.origin;
  const int ticks = w.run_until([&] { return !o.is_moving_to(); }, 300);
  CHECK(ticks < 300);
  CHECK(o.get_heading() == exact_heading(wanted));
  CHECK(glm::length(o.position().frame.origin - start) < 0.05f);  // turned in place
  CHECK(MoveToWorld::minterp(o).interpreted_state().turn_command == 0);
  w.run(30);
  CHECK(o.get_heading() == exact_heading(wanted));  // and stays there
}

TEST_CASE(
    "MoveToManager::HandleMoveToPosition 0x00529D80 walks to the point and stops within range "
    "(MoveToManager::BeginMoveForward 0x00529A00, MoveToManager::UseTime 0x0052A780, MovementManager::unpack_movement "
    "0x00524440)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  const float radius = o.get_radius();
  const Position goal = spot({60, 70, kGroundZ});
  m.move_to_position(goal, MovementParameters{});
  bool walked = false;
  bool ran = false;
  const int ticks = w.run_until(
      [&] {
        const std::uint32_t fwd = MoveToWorld::minterp(o).interpreted_state().forward_command;
        walked = walked || fwd == mc::WalkForward;
        ran = ran || fwd == mc::RunForward;
        return !m.is_moving_to();
      },
      600);
  CHECK(ticks < 600);
  CHECK(walked);  // 9.4 m is within the 15 m walk/run threshold
  CHECK_FALSE(ran);
  // UseSpheres: stopped once the cylinder gap reached distance_to_object.
  const float gap = distance(o.position(), goal) - radius;
  CHECK(gap <= 0.6f);
  CHECK(gap > 0.6f - 3.12f / 30.0f - 0.02f);
  CHECK(MoveToWorld::minterp(o).interpreted_state().forward_command == mc::Ready);
  const glm::vec3 stopped = o.position().frame.origin;
  w.run(30);
  CHECK(glm::length(o.position().frame.origin - stopped) < 0.1f);
}

TEST_CASE(
    "MoveToManager::BeginMoveForward 0x00529A00 runs beyond the walk/run threshold (MovementParameters::get_command "
    "0x0052AA00)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 40, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  m.move_to_position(spot({60, 70, kGroundZ}), MovementParameters{});
  w.run_until([&] { return m.current_command() == mc::WalkForward; }, 60);
  REQUIRE(m.current_command() == mc::WalkForward);  // the command; the hold key makes it a run
  CHECK(m.movement_params().hold_key == 2);
  CHECK(MoveToWorld::minterp(o).interpreted_state().forward_command == mc::RunForward);
  CHECK(m.previous_distance() == m.original_distance());
  CHECK(m.original_distance_time() == w.clock.now().count());
  const int ticks = w.run_until([&] { return !m.is_moving_to(); }, 600);
  CHECK(ticks < 600);
  CHECK(distance(o.position(), spot({60, 70, kGroundZ})) - o.get_radius() <= 0.6f);
}

TEST_CASE(
    "MoveToManager turns first when the point lies off the heading, then walks (MoveToManager::MoveToPosition "
    "0x0052A240, MoveToManager::HandleTurnToHeading 0x0052A0C0, MoveToManager::HandleMoveToPosition 0x00529D80)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  m.move_to_position(spot({70, 60, kGroundZ}), MovementParameters{});  // due east: heading 90
  const glm::vec3 start = o.position().frame.origin;
  w.run_until([&] { return m.pending_actions().size() == 1; }, 300);
  REQUIRE(m.pending_actions().size() == 1);  // the turn node is done
  CHECK(o.get_heading() == exact_heading(90.0f));
  CHECK(glm::length(o.position().frame.origin - start) < 0.05f);  // no step while turning
  w.run_until([&] { return !m.is_moving_to(); }, 600);
  CHECK(o.position().frame.origin.x > 68.5f);
  CHECK(std::fabs(o.position().frame.origin.y - 60.0f) < 0.2f);
}

TEST_CASE("MoveToManager::HandleMoveToPosition 0x00529D80 steers with an auxiliary turn beyond 20 degrees",
          "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  m.move_to_position(spot({60, 80, kGroundZ}), MovementParameters{});
  w.run_until([&] { return m.current_command() == mc::WalkForward && !o.motions_pending(); }, 60);
  REQUIRE(m.current_command() == mc::WalkForward);
  // The object is knocked 30 degrees off its course: a TurnLeft steers back.
  o.set_heading(30.0f, false);
  w.tick();
  CHECK(m.aux_command() == mc::TurnLeft);
  w.run_until([&] { return m.aux_command() == 0; }, 60);
  CHECK(m.aux_command() == 0);  // within 20 degrees again
  CHECK(heading_gap(o.get_heading(), heading(o.position(), spot({60, 80, kGroundZ}))) <= 20.5f);
  SECTION("off the other side turns right") {
    o.set_heading(320.0f, false);
    w.tick();
    CHECK(m.aux_command() == mc::TurnRight);
  }
}

TEST_CASE(
    "MoveToManager::HandleMoveToPosition 0x00529D80 cancels beyond fail_distance from the start "
    "(MoveToManager::CancelMoveTo 0x00529930, MoveToManager::CleanUp 0x005295C0, MoveToManager::CleanUpAndCallWeenie "
    "0x00529650)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 50, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  MovementParameters p;
  p.fail_distance = 2.0f;
  p.walk_run_threshhold = 100.0f;  // a walk
  m.move_to_position(spot({60, 70, kGroundZ}), p);
  w.run_until([&] { return !m.is_moving_to(); }, 300);
  CHECK_FALSE(m.is_moving_to());
  CHECK(m.pending_actions().empty());
  CHECK(m.current_command() == 0);
  const float walked = distance(spot({60, 50, kGroundZ}), o.position());
  CHECK(walked > 2.0f);
  CHECK(walked < 2.0f + 3.12f / 30.0f + 0.05f);  // the first step past it
  CHECK(MoveToWorld::minterp(o).interpreted_state().forward_command == mc::Ready);
}

TEST_CASE("MoveToManager::CheckProgressMade 0x005290F0 asks 0.25 m/s since the last check and the start",
          "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 50, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  m.move_to_position(spot({60, 70, kGroundZ}), quiet_params());
  w.run_until([&] { return m.current_command() == mc::WalkForward; }, 60);
  REQUIRE(m.current_command() == mc::WalkForward);
  const float start = m.original_distance();
  CHECK(m.previous_distance() == start);
  CHECK(m.check_progress_made(start));  // within a second: always
  w.clock.advance(core::Seconds{2.0});
  CHECK_FALSE(m.check_progress_made(start - 0.4f));  // 0.2 m/s
  CHECK(m.previous_distance() == start);             // not moved on
  CHECK(m.check_progress_made(start - 0.6f));        // 0.3 m/s, since the last check and the start
  CHECK(m.previous_distance() == start - 0.6f);
  CHECK(m.previous_distance_time() == w.clock.now().count());
  w.clock.advance(core::Seconds{0.5});
  CHECK(m.check_progress_made(start - 0.6f));  // under a second since the last check
  w.clock.advance(core::Seconds{1.5});
  CHECK_FALSE(m.check_progress_made(start - 0.9f));  // 0.3 m in two seconds
}

TEST_CASE(
    "MoveToManager::HandleMoveToPosition 0x00529D80 counts failed progress without cancelling "
    "(MoveToManager::CheckProgressMade 0x005290F0)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 50, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  m.move_to_position(spot({60, 70, kGroundZ}), quiet_params());
  const core::Frame held = o.position().frame;
  // Held in place (as by an obstacle): after a second the progress checks fail.
  for (int i = 0; i < 60; ++i) {
    w.tick();
    o.set_frame(held);
  }
  CHECK(m.fail_progress_count() > 20);
  CHECK(m.is_moving_to());  // the client only counts
  const int ticks = w.run_until([&] { return !m.is_moving_to(); }, 900);
  CHECK(ticks < 900);  // freed, it still arrives
}

TEST_CASE(
    "MoveToManager::UseTime 0x0052A780 does nothing without Contact (MoveToManager::HitGround 0x00529D70, "
    "MovementManager::HitGround 0x00524300)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  MovementParameters p = quiet_params();
  p.desired_heading = 90.0f;
  m.turn_to_heading(p);
  REQUIRE(m.current_command() == mc::TurnRight);
  o.set_transient_state(o.transient_state() & ~transient_state::Contact);
  o.set_heading(100.0f, false);  // past the node's heading
  m.use_time();
  CHECK(m.is_moving_to());  // airborne: not handled
  o.set_transient_state(o.transient_state() | transient_state::Contact);
  m.use_time();
  CHECK_FALSE(m.is_moving_to());
  CHECK(o.get_heading() == exact_heading(90.0f));
  m.hit_ground();  // no MoveTo: nothing
  CHECK_FALSE(m.is_moving_to());
}

TEST_CASE("MoveToManager::HitGround 0x00529D70 begins the head node again (MovementManager::HitGround 0x00524300)",
          "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 50, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  m.move_to_position(spot({60, 70, kGroundZ}), quiet_params());
  w.run_until([&] { return m.current_command() == mc::WalkForward; }, 60);
  REQUIRE(m.current_command() == mc::WalkForward);
  const double began = m.original_distance_time();
  w.clock.advance(core::Seconds{0.5});
  o.movement_manager()->hit_ground();
  CHECK(m.original_distance_time() == w.clock.now().count());  // BeginMoveForward ran again
  CHECK(m.original_distance_time() > began);
  CHECK(m.current_command() == mc::WalkForward);
}

// --- MoveToObject and TurnToObject --------------------------------------------------------------

TEST_CASE(
    "MoveToManager::MoveToObject 0x00529680 watches the target and lays nodes on its first report "
    "(MoveToManager::MoveToObject_Internal 0x0052A400, MoveToManager::HandleUpdateTarget 0x0052A7D0, "
    "CPhysicsObj::MoveToObject 0x00512860, CPhysicsObj::MoveToObject_Internal 0x005102E0, "
    "MoveToManager::PerformMovement 0x0052A900)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  PhysicsObj& t = settled(w, kTarget, {60, 65, kGroundZ});
  MovementParameters p = quiet_params();
  p.bitfield |= MovementParameters::kUseFinalHeading;
  p.desired_heading = 90.0f;
  o.move_to_object(kTarget, p);
  MoveToManager& m = *MoveToWorld::moveto(o);
  CHECK(m.movement_type() == 6);
  CHECK(m.sought_object_id() == kTarget);
  CHECK(m.top_level_object_id() == kTarget);
  CHECK(m.sought_object_radius() == t.get_radius());
  CHECK(m.sought_object_height() == t.get_height());
  CHECK(m.initialized());  // the target answered inside SetTarget
  CHECK(t.target_manager()->voyeurs().count(kMover) == 1);
  CHECK(m.current_target_position().frame.origin == t.position().frame.origin);
  // The turn to face it (heading 0, already faced) ended at once.
  REQUIRE(m.pending_actions().size() == 2);
  CHECK(m.pending_actions()[0].type == MovementKind::MoveToPosition);
  CHECK(m.pending_actions()[1].heading == Approx(90.0f));  // relative to the heading to it (0)
  CHECK(m.current_command() == mc::WalkForward);
  SECTION("an unknown object starts nothing") {
    m.cancel_move_to(0x36);
    o.move_to_object(0x80000099, p);
    CHECK_FALSE(m.is_moving_to());
  }
  SECTION("the end of the MoveTo releases the target") {
    w.run_until([&] { return !m.is_moving_to(); }, 600);
    CHECK_FALSE(m.is_moving_to());
    CHECK(t.target_manager()->voyeurs().empty());
    CHECK_FALSE(o.target_manager()->target_info().has_value());
    CHECK(o.get_heading() == exact_heading(90.0f));
  }
}

TEST_CASE(
    "MoveToObject follows a target that moves: voyeur updates drive HandleUpdateTarget "
    "(MoveToManager::HandleUpdateTarget 0x0052A7D0, MoveToManager::HandleMoveToPosition 0x00529D80, "
    "TargetManager::HandleTargetting 0x0051AA90, MovementManager::HandleUpdateTarget 0x00524790, "
    "CPhysicsObj::HandleUpdateTarget 0x00512BC0)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 30, kGroundZ});
  PhysicsObj& t = settled(w, kTarget, {60, 60, kGroundZ});
  // The target walks off east on its own MoveTo.
  MoveToWorld::manager(t).make_move_to_manager().move_to_position(spot({74, 60, kGroundZ}), MovementParameters{});
  o.move_to_object(kTarget, MovementParameters{});
  MoveToManager& m = *MoveToWorld::moveto(o);
  REQUIRE(m.is_moving_to());
  float seen_x = m.current_target_position().frame.origin.x;
  int updates = 0;
  const int ticks = w.run_until(
      [&] {
        if (m.current_target_position().frame.origin.x != seen_x) {
          seen_x = m.current_target_position().frame.origin.x;
          ++updates;
        }
        return !m.is_moving_to();
      },
      900);
  CHECK(ticks < 900);
  CHECK(updates >= 3);  // the target's reports moved the goal
  CHECK(t.position().frame.origin.x > 72.0f);
  const float gap =
      cylinder_distance(o.get_radius(), o.get_height(), o.position(), t.get_radius(), t.get_height(), t.position());
  CHECK(gap <= 0.6f);
  CHECK(gap > 0.0f);
  CHECK(t.target_manager()->voyeurs().empty());
}

TEST_CASE(
    "MoveToManager::HandleUpdateTarget 0x0052A7D0 a lost target cancels the MoveTo (MoveToManager::CancelMoveTo "
    "0x00529930, TargetManager::NotifyVoyeurOfEvent 0x0051A6F0)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 40, kGroundZ});
  settled(w, kTarget, {60, 60, kGroundZ});
  o.move_to_object(kTarget, MovementParameters{});
  MoveToManager& m = *MoveToWorld::moveto(o);
  REQUIRE(m.is_moving_to());
  SECTION("deleted (ExitWorld)") {
    w.maint.delete_object(kTarget);
    CHECK_FALSE(m.is_moving_to());
    CHECK_FALSE(o.target_manager()->target_info().has_value());
  }
  SECTION("a report about another object is ignored") {
    TargetInfo other;
    other.object_id = 0x1234;
    other.status = target_status::ExitWorld;
    m.handle_update_target(other);
    CHECK(m.is_moving_to());
  }
  SECTION("not yet initialised: a failed report cancels (0x38)") {
    m.cancel_move_to(0x36);
    // A MoveTo at an object that never answers.
    MoveToManager fresh(&o);
    fresh.move_to_object(0x80000077, 0x80000077, 0, 0, MovementParameters{});
    REQUIRE(fresh.is_moving_to());
    CHECK_FALSE(fresh.initialized());
    TargetInfo lost;
    lost.object_id = 0x80000077;
    lost.status = target_status::TimedOut;
    fresh.handle_update_target(lost);
    CHECK_FALSE(fresh.is_moving_to());
  }
}

TEST_CASE(
    "MoveToManager::MoveToObject 0x00529680 at itself ends at once (MoveToManager::HandleUpdateTarget 0x0052A7D0)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  m.move_to_object(kMover, kMover, 0.5f, 1.0f, quiet_params());
  CHECK_FALSE(m.is_moving_to());
  CHECK(o.target_manager() == nullptr);  // no target was set
}

TEST_CASE(
    "MoveToManager::TurnToObject 0x005297D0 faces the object (the desired heading is replaced) "
    "(MoveToManager::TurnToObject_Internal 0x0052A550, CPhysicsObj::TurnToObject 0x00512940, "
    "CPhysicsObj::TurnToObject_Internal 0x005103F0)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  settled(w, kTarget, {70, 60, kGroundZ});
  MovementParameters p;
  p.desired_heading = 45.0f;
  o.turn_to_object(kTarget, p);
  MoveToManager& m = *MoveToWorld::moveto(o);
  CHECK(m.movement_type() == 8);
  CHECK(m.initialized());
  REQUIRE(m.pending_actions().size() == 1);
  CHECK(m.pending_actions()[0].heading == Approx(90.0f));
  CHECK(m.sought_position().frame.get_heading() == Approx(90.0f));
  w.run_until([&] { return !m.is_moving_to(); }, 300);
  CHECK_FALSE(m.is_moving_to());
  CHECK(o.get_heading() == exact_heading(90.0f));
}

TEST_CASE(
    "MoveToManager::BeginNextNode 0x00529CB0 a Sticky MoveToObject sticks to the object at the end "
    "(CPhysicsObj::get_position_manager 0x00512130, PositionManager::StickTo 0x00555230)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  settled(w, kTarget, {60, 64, kGroundZ});
  MovementParameters p;
  p.bitfield |= MovementParameters::kSticky;
  o.move_to_object(kTarget, p);
  MoveToManager& m = *MoveToWorld::moveto(o);
  w.run_until([&] { return !m.is_moving_to(); }, 600);
  CHECK_FALSE(m.is_moving_to());
  CHECK(o.get_sticky_object_id() == kTarget);
  // The stick's SetTarget got the target's answer at once (TargetManager):
  // the stick is initialised, with no server help.
  REQUIRE(o.position_manager()->sticky_manager() != nullptr);
  CHECK(o.position_manager()->sticky_manager()->initialized());
}

// --- MovementManager and unpack_movement -------------------------------------------------------

TEST_CASE(
    "MovementManager::PerformMovement 0x005240D0 makes the MoveToManager and cancels the old MoveTo "
    "(MovementManager::Create 0x00524050, MovementManager::MakeMoveToManager 0x00524000, "
    "MoveToManager::PerformMovement 0x0052A900, MovementManager::IsMovingTo 0x00524260, MovementManager::UseTime "
    "0x005242F0, CPhysicsObj::IsMovingTo 0x0050EB10, CPhysicsObj::motions_pending 0x0050EAB0)",
    "[retail]"
    "[sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  settled(w, kTarget, {64, 64, kGroundZ});
  DatMovementManager& mm = MoveToWorld::manager(o);
  CHECK(mm.move_to_manager() == nullptr);
  CHECK_FALSE(o.is_moving_to());
  MovementStruct mvs;
  mvs.type = MovementKind::MoveToPosition;
  mvs.pos = spot({60, 70, kGroundZ});
  mvs.params = quiet_params();
  CHECK(mm.perform_movement_struct(mvs) == 0);
  REQUIRE(mm.move_to_manager() != nullptr);
  CHECK(o.is_moving_to());
  o.stick_to_object(kTarget);  // a stick for the next MoveTo to end
  REQUIRE(o.get_sticky_object_id() == kTarget);
  mvs.type = MovementKind::TurnToHeading;
  mvs.params.desired_heading = 10.0f;
  mm.perform_movement_struct(mvs);
  CHECK(mm.move_to_manager()->movement_type() == 9);
  CHECK(mm.move_to_manager()->pending_actions().size() == 1);  // the MoveToPosition's nodes are gone
  CHECK(o.get_sticky_object_id() == 0);                        // unstuck
  w.run_until([&] { return !o.is_moving_to(); }, 300);         // UseTime drives it
  CHECK(o.get_heading() == exact_heading(10.0f));
}

TEST_CASE(
    "MovementManager::unpack_movement 0x00524440 types 6 to 9 from the wire reach the MoveToManager "
    "(MovementParameters::UnPackNet 0x0052AC50, CPhysicsObj::unpack_movement 0x00512040, CPhysicsObj::GetObjectA "
    "0x0050F490)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  settled(w, kTarget, {70, 60, kGroundZ});
  auto through_wire = [&](const protocol::MovementData& m) {
    const auto bytes = protocol::encode_movement_buffer(m);
    auto decoded = protocol::decode_movement_buffer(bytes);
    REQUIRE(decoded);
    o.unpack_movement(*decoded, false);
  };
  protocol::MovementData data;
  data.current_style = 0x3D;  // NonCombat
  const protocol::MoveToParameters wire_params{0x1EE0F, 0.6f, 0.0f, 50.0f, 1.0f, 15.0f, 0.0f};
  SECTION("MoveToPosition (7)") {
    data.payload =
        protocol::MoveToPosition{protocol::Origin{outdoor_cell({60, 70, 0}), {60, 70, kGroundZ}}, wire_params, 1.75f};
    through_wire(data);
    MoveToManager* m = MoveToWorld::moveto(o);
    REQUIRE(m != nullptr);
    CHECK(m->movement_type() == 7);
    CHECK(m->movement_params().fail_distance == 50.0f);
    CHECK(m->sought_position().frame.origin == glm::vec3(60, 70, kGroundZ));
    CHECK(MoveToWorld::minterp(o).my_run_rate == 1.75f);
  }
  SECTION("MoveToObject (6), a known object") {
    data.payload = protocol::MoveToObject{kTarget, protocol::Origin{outdoor_cell({70, 60, 0}), {70, 60, kGroundZ}},
                                          wire_params, 1.5f};
    through_wire(data);
    MoveToManager* m = MoveToWorld::moveto(o);
    REQUIRE(m != nullptr);
    CHECK(m->movement_type() == 6);
    CHECK(m->top_level_object_id() == kTarget);
    CHECK(MoveToWorld::minterp(o).my_run_rate == 1.5f);
  }
  SECTION("MoveToObject (6), an unknown object: to the position sent with it") {
    data.payload = protocol::MoveToObject{0x80000099, protocol::Origin{outdoor_cell({50, 60, 0}), {50, 60, kGroundZ}},
                                          wire_params, 1.0f};
    through_wire(data);
    MoveToManager* m = MoveToWorld::moveto(o);
    REQUIRE(m != nullptr);
    CHECK(m->movement_type() == 7);
    CHECK(m->sought_position().frame.origin == glm::vec3(50, 60, kGroundZ));
  }
  SECTION("TurnToObject (8), known and unknown") {
    data.payload = protocol::TurnToObject{kTarget, 123.0f, protocol::TurnToParameters{0x1EE0F, 1.0f, 10.0f}};
    through_wire(data);
    REQUIRE(MoveToWorld::moveto(o) != nullptr);
    CHECK(MoveToWorld::moveto(o)->movement_type() == 8);
    data.payload = protocol::TurnToObject{0x80000099, 123.0f, protocol::TurnToParameters{0x1EE0F, 1.0f, 10.0f}};
    through_wire(data);
    CHECK(MoveToWorld::moveto(o)->movement_type() == 9);
    CHECK(MoveToWorld::moveto(o)->movement_params().desired_heading == 123.0f);  // the outer heading
  }
  SECTION("TurnToHeading (9)") {
    data.payload = protocol::TurnToHeading{protocol::TurnToParameters{0x1EE0F, 1.0f, 270.0f}};
    through_wire(data);
    REQUIRE(MoveToWorld::moveto(o) != nullptr);
    CHECK(MoveToWorld::moveto(o)->movement_type() == 9);
    w.run_until([&] { return !o.is_moving_to(); }, 300);
    CHECK(o.get_heading() == exact_heading(270.0f));
  }
  SECTION("an interpreted movement cancels the MoveTo (and can stick)") {
    data.payload = protocol::TurnToHeading{protocol::TurnToParameters{0x1EE0F, 1.0f, 270.0f}};
    through_wire(data);
    REQUIRE(o.is_moving_to());
    protocol::InterpretedMovement im;
    im.sticky_object = kTarget;
    data.motion_flags = protocol::kMotionFlagStickToObject;
    data.payload = im;
    through_wire(data);
    CHECK_FALSE(o.is_moving_to());
    CHECK(o.get_sticky_object_id() == kTarget);
  }
}

TEST_CASE(
    "CMotionInterp::DoMotion 0x00528D20 with CancelMoveTo cancels a MoveTo (MovementManager::CancelMoveTo 0x005241B0) "
    "(CPhysicsObj::cancel_moveto 0x005101F0)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  MoveToManager& m = MoveToWorld::manager(o).make_move_to_manager();
  m.move_to_position(spot({60, 70, kGroundZ}), quiet_params());
  REQUIRE(m.is_moving_to());
  MovementParameters keep;
  keep.bitfield &= ~MovementParameters::kCancelMoveTo;
  MoveToWorld::minterp(o).do_motion(mc::Ready, keep);
  CHECK(m.is_moving_to());
  MoveToWorld::minterp(o).do_motion(mc::Ready, MovementParameters{});  // CancelMoveTo set by default
  CHECK_FALSE(m.is_moving_to());
  CHECK(m.pending_actions().empty());
}

TEST_CASE("MovementManager::unpack_movement 0x00524440 hostile MoveTo parameters never crash the world",
          "[retail][hostile][sim]") {
  MoveToWorld w;
  PhysicsObj& o = settled(w, kMover, {60, 60, kGroundZ});
  const float bad = GENERATE(std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                             -std::numeric_limits<float>::infinity(), 1e30f);
  protocol::MovementData data;
  data.current_style = 0x3D;
  SECTION("MoveToPosition") {
    data.payload = protocol::MoveToPosition{protocol::Origin{outdoor_cell({60, 70, 0}), {bad, 70, kGroundZ}},
                                            protocol::MoveToParameters{0xFFFFFFFF, bad, bad, bad, bad, bad, bad}, bad};
  }
  SECTION("TurnToHeading") {
    data.payload = protocol::TurnToHeading{protocol::TurnToParameters{0xFFFFFFFF, bad, bad}};
  }
  SECTION("TurnToObject, unknown") {
    data.payload = protocol::TurnToObject{0x80000099, bad, protocol::TurnToParameters{0xFFFFFFFF, bad, bad}};
  }
  o.unpack_movement(data, false);
  w.run(90);
  SUCCEED("the world ran on");
}

// --- end to end: F74C Movement through the SmartBox ---------------------------------------------

TEST_CASE(
    "F74C MoveToPosition through the SmartBox walks a remote creature to the point between server updates "
    "(MovementManager::unpack_movement 0x00524440, MoveToManager::UseTime 0x0052A780, CPhysics::SetObjectMovement "
    "0x00509690)",
    "[retail][sim]") {
  core::ManualClock clock{core::Seconds{10.0}};
  SimContext context{clock};
  dat::RecordCache records(&demo_portal());
  DatObjectFactory factory(records);
  Landscape landscape;
  context.set_factory(&factory);
  REQUIRE(landscape.add_block(flat_block()));
  context.cells = &landscape;
  SmartBox box(context);
  box.handle(protocol::PlayerCreate{0x50000001});

  constexpr std::uint32_t kGuid = 0x70000044;
  const glm::vec3 start{60, 50, kGroundZ};
  protocol::CreateObject create_msg = create(kGuid, 1, 0x00400C08, start);
  create_msg.physics.position->cell_id = outdoor_cell(start);
  create_msg.weenie.item_type = 0x10;  // a creature
  create_msg.physics.setup_id = demo::kHumanSetup;
  create_msg.physics.motion_table_id = demo::kHumanMotionTable;
  REQUIRE(box.handle(wire(create_msg)).verdict == Verdict::Applied);
  PhysicsObj* o = box.get_object(kGuid);
  REQUIRE(o != nullptr);
  auto tick = [&] {
    clock.advance(core::Seconds{1.0 / 30.0});
    box.use_time();
  };
  for (int i = 0; i < 30; ++i) tick();
  REQUIRE(MoveToWorld::grounded(*o));

  protocol::MovementEvent m;
  m.guid = kGuid;
  m.instance_ts = 1;
  m.movement_ts = 1;
  m.server_control_ts = 1;
  m.data.current_style = 0x3D;
  const glm::vec3 goal{60, 62, kGroundZ};
  m.data.payload =
      protocol::MoveToPosition{protocol::Origin{outdoor_cell(goal), {goal.x, goal.y, goal.z}},
                               protocol::MoveToParameters{0x1EE0F, 0.6f, 0.0f, kFltMax, 1.0f, 15.0f, 0.0f}, 1.0f};
  REQUIRE(box.handle(wire(m)).verdict == Verdict::Applied);
  REQUIRE(o->is_moving_to());
  int ticks = 0;
  while (o->is_moving_to() && ticks < 600) {
    tick();
    ++ticks;
  }
  CHECK(ticks < 600);
  const Position goal_pos{outdoor_cell(goal), core::Frame(goal, glm::quat(1, 0, 0, 0))};
  CHECK(distance(o->position(), goal_pos) - o->get_radius() <= 0.6f);
  CHECK(o->position().frame.origin.y > start.y + 10.0f);
  // Walking 11 m at 3.12 m/s takes about 3.5 s of ticks.
  CHECK(ticks > 90);
}
