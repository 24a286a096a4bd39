// MotionInterp (retail CMotionInterp), InterpretedMotionState and the
// MovementManager over them, then Movement messages driving the demo humanoid
// end to end (spec/physics.md section 2.7; RE canim/CMotionInterp.c,
// canim/CMInterpPrim.c, canim/CMovementManager.c).
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>

#include "dereth/protocol/messages.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/dat_part_array.hpp"
#include "dereth/sim/object/smart_box.hpp"

#include "fakes.hpp"
#include "motion/anim_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace mc = motion_command;
namespace ps = protocol::physics_state;
namespace ts = transient_state;

namespace {

// The demo humanoid, equipped by the DatObjectFactory, standing in a cell.
struct Human {
  explicit Human(std::uint32_t state = kInitialState, bool enter = true) : records(&demo_portal()), factory(records) {
    owner.context.set_factory(&factory);
    PhysicsObj& o = owner.object;
    o.set_state(state, false);
    o.set_part_array(factory.make_part_array(o, demo::kHumanSetup));
    parts = dynamic_cast<DatPartArray*>(o.part_array());
    o.init_defaults(*factory.setup_defaults(demo::kHumanSetup));
    movement = dynamic_cast<DatMovementManager*>(o.movement_manager());
    if (enter) o.enter_world(Position{kCell, core::Frame({50, 50, 0}, {1, 0, 0, 0})});
  }
  void land() {
    owner.object.set_transient_state(owner.object.transient_state() | ts::Contact);
    owner.object.set_on_walkable(true);
  }
  MotionInterp& minterp() { return *movement->motion_interpreter(); }
  std::uint32_t cycle_anim() const { return parts->sequence().first_cyclic()->anim_id(); }
  std::uint32_t anim_of(std::uint32_t motion) const {
    const auto table = const_cast<DatObjectFactory&>(factory).get_motion_table(demo::kHumanMotionTable);
    return table->cycle((mc::NonCombat << 16) | (motion & 0xFFFFFF))->anims.at(0).anim_id;
  }

  dat::RecordCache records;
  DatObjectFactory factory;
  Owner owner;
  DatPartArray* parts = nullptr;
  DatMovementManager* movement = nullptr;
};

MovementParameters modify_params(float speed = 1.0f) {
  MovementParameters p;
  p.speed = speed;
  return p;
}

}  // namespace

// --- InterpretedMotionState ------------------------------------------------------------

TEST_CASE(
    "InterpretedMotionState::ApplyMotion 0x0051EA40 files each motion class in its slot "
    "(InterpretedMotionState::InterpretedMotionState 0x0051E8D0, InterpretedMotionState::AddAction 0x0051E9E0, "
    "InterpretedMotionState::RemoveAction 0x0051EAD0, MovementParameters::MovementParameters 0x00524380)",
    "[retail][sim][anim]") {
  CHECK(MovementParameters{}.bitfield == 0x0001EE0Fu);  // MovementParameters::MovementParameters 0x00524380
  CHECK(MovementParameters{}.speed == 1.0f);
  InterpretedMotionState s;
  CHECK(s.current_style == mc::NonCombat);
  CHECK(s.forward_command == mc::Ready);
  CHECK(s.turn_command == 0);
  MovementParameters p;
  p.speed = 1.5f;
  s.apply_motion(mc::TurnRight, p);
  s.apply_motion(mc::SideStepRight, p);
  s.apply_motion(mc::RunForward, p);
  CHECK(s.turn_command == mc::TurnRight);
  CHECK(s.turn_speed == 1.5f);
  CHECK(s.sidestep_command == mc::SideStepRight);
  CHECK(s.forward_command == mc::RunForward);
  CHECK(s.forward_speed == 1.5f);
  p.action_stamp = 7;
  p.bitfield |= MovementParameters::kAutonomous;
  s.apply_motion(mc::LifestoneRecall, p);
  REQUIRE(s.actions.size() == 1);
  CHECK(s.actions[0] == InterpretedMotionState::Action{mc::LifestoneRecall, 1.5f, 7, true});
  s.apply_motion(mc::HandCombat, p);  // a style resets forward to Ready
  CHECK(s.current_style == mc::HandCombat);
  CHECK(s.forward_command == mc::Ready);
  CHECK(s.remove_action() == mc::LifestoneRecall);
  CHECK(s.remove_action() == 0u);
}

TEST_CASE("InterpretedMotionState::RemoveMotion 0x0051E790 and copy_movement_from 0x0051E750", "[retail][sim][anim]") {
  InterpretedMotionState s;
  MovementParameters p;
  p.speed = 2.0f;
  s.apply_motion(mc::WalkForward, p);
  s.apply_motion(mc::TurnRight, p);
  s.apply_motion(mc::HandCombat, p);
  s.apply_motion(mc::WalkForward, p);
  s.remove_motion(mc::RunForward);  // not the forward command: kept
  CHECK(s.forward_command == mc::WalkForward);
  s.remove_motion(mc::WalkForward);
  CHECK(s.forward_command == mc::Ready);
  CHECK(s.forward_speed == 1.0f);
  s.remove_motion(mc::TurnRight);
  CHECK(s.turn_command == 0);
  s.remove_motion(mc::HandCombat);
  CHECK(s.current_style == mc::NonCombat);
  InterpretedMotionState t;
  t.add_action(mc::LifestoneRecall, 1.0f, 1, false);
  t.copy_movement_from(s);
  CHECK(t.actions.size() == 1);  // actions are not copied
  CHECK(t.forward_command == mc::Ready);
}

TEST_CASE("motion commands widen from their wire u16 (command_ids[])", "[sim][anim]") {
  CHECK(motion_command_from_wire(0x0003) == mc::Ready);
  CHECK(motion_command_from_wire(0x0005) == mc::WalkForward);
  CHECK(motion_command_from_wire(0x0007) == mc::RunForward);
  CHECK(motion_command_from_wire(0x000D) == mc::TurnRight);
  CHECK(motion_command_from_wire(0x003D) == mc::NonCombat);
  CHECK(motion_command_from_wire(0x0153) == mc::LifestoneRecall);
  CHECK_FALSE(motion_command_from_wire(0x7777).has_value());
  protocol::InterpretedMotionState wire;
  wire.forward_command = 0x0007;
  wire.forward_speed = 1.25f;
  wire.commands.push_back(protocol::MotionItem{0x0153, 0x8005, 1.0f});
  wire.commands.push_back(protocol::MotionItem{0x7777, 6, 1.0f});  // unknown: dropped
  const InterpretedMotionState s = interpreted_state_from_wire(wire);
  CHECK(s.current_style == mc::NonCombat);  // absent: the default
  CHECK(s.forward_command == mc::RunForward);
  CHECK(s.forward_speed == 1.25f);
  CHECK(s.turn_speed == 1.0f);
  REQUIRE(s.actions.size() == 1);
  CHECK(s.actions[0] == InterpretedMotionState::Action{mc::LifestoneRecall, 1.0f, 5, true});
}

// --- MotionInterp --------------------------------------------------------------------------

TEST_CASE(
    "CMotionInterp::enter_default_state 0x00528C80 initialises the tables and queues Ready "
    "(MovementManager::EnterDefaultState 0x005241C0, CPhysicsObj::MakeMovementManager 0x00510270) "
    "(MovementManager::get_minterp 0x005242A0, CPhysicsObj::InitializeMotionTables 0x0050EA60, "
    "CPartArray::InitializeMotionTables 0x00517D10, CPhysicsObj::SetMotionTableID 0x00512780, "
    "CPhysicsObj::InitDefaults 0x005139D0)",
    "[retail][sim]["
    "anim]") {
  SECTION("without gravity: a new interpreter enters its default state twice, as retail's does") {
    Human h(kInitialState & ~ps::Gravity, false);
    REQUIRE(h.movement != nullptr);
    REQUIRE(h.movement->motion_interpreter() != nullptr);
    MotionInterp& m = h.minterp();
    CHECK(m.initted());
    CHECK(m.interpreted_state().forward_command == mc::Ready);
    CHECK(m.pending_motions() == std::vector<MotionInterp::PendingMotion>{{0, mc::Ready, 0}, {0, mc::Ready, 0}});
    CHECK(h.parts->motion_table_manager()->pending_animations() ==
          std::vector<AnimNode>{{mc::Ready, 0}, {mc::Ready, 0}});
    CHECK(h.cycle_anim() == h.anim_of(mc::Ready));
    CHECK(h.parts->motion_table_manager()->state().substate == mc::Ready);
    CHECK((h.owner.object.transient_state() & ts::Active) != 0);
    // Entering the world (CPartArray::HandleEnterWorld) completes them all.
    h.owner.object.enter_world(Position{kCell, core::Frame({50, 50, 0}, {1, 0, 0, 0})});
    CHECK(m.pending_motions().empty());
    CHECK(h.parts->motion_table_manager()->pending_animations().empty());
  }
  SECTION("under gravity LeaveGround removes the links, which completes both queues unsuccessfully") {
    Human h;
    CHECK(h.minterp().initted());
    CHECK(h.minterp().pending_motions().empty());
    CHECK(h.parts->motion_table_manager()->pending_animations().empty());
    CHECK(h.cycle_anim() == h.anim_of(mc::Ready));
  }
}

TEST_CASE(
    "CMotionInterp::contact_allows_move 0x00528240 turns, Dead and Falling always, others need ground under gravity",
    "[retail][sim][anim]") {
  Human h;
  MotionInterp& m = h.minterp();
  CHECK(m.contact_allows_move(mc::TurnRight));
  CHECK(m.contact_allows_move(mc::TurnLeft));
  CHECK(m.contact_allows_move(mc::Falling));
  CHECK(m.contact_allows_move(mc::Dead));
  CHECK_FALSE(m.contact_allows_move(mc::WalkForward));  // gravity, no contact
  h.land();
  CHECK(m.contact_allows_move(mc::WalkForward));
  Human floating(kInitialState & ~ps::Gravity);
  CHECK(floating.minterp().contact_allows_move(mc::WalkForward));
  Human thing;
  thing.owner.object.set_weenie(WeenieTraits{});  // a weenie that is not a creature
  CHECK(thing.minterp().contact_allows_move(mc::WalkForward));
}

TEST_CASE("CMotionInterp::adjust_motion 0x00528010 canonicalises backwards, left turns and side steps for creatures",
          "[retail][sim][anim]") {
  Human h;
  const MotionInterp& m = h.minterp();
  std::uint32_t motion = mc::WalkBackwards;
  float speed = 1.0f;
  m.adjust_motion(motion, speed);
  CHECK(motion == mc::WalkForward);
  CHECK(speed == -0.64999998f);
  motion = mc::TurnLeft;
  speed = 1.5f;
  m.adjust_motion(motion, speed);
  CHECK(motion == mc::TurnRight);
  CHECK(speed == -1.5f);
  motion = mc::SideStepLeft;
  speed = 1.0f;
  m.adjust_motion(motion, speed);
  CHECK(motion == mc::SideStepRight);
  CHECK(near(speed, -1.248f));
  motion = mc::RunForward;
  speed = 2.0f;
  m.adjust_motion(motion, speed);
  CHECK(motion == mc::RunForward);
  CHECK(speed == 2.0f);
  Human thing;
  thing.owner.object.set_weenie(WeenieTraits{});
  motion = mc::WalkBackwards;
  speed = 1.0f;
  thing.minterp().adjust_motion(motion, speed);
  CHECK(motion == mc::WalkBackwards);
}

TEST_CASE(
    "CMotionInterp::DoInterpretedMotion 0x00528360 plays on the ground, in the air it only remembers (or refuses "
    "an action) (CMotionInterp::add_to_queue 0x00527B80, CPhysicsObj::DoInterpretedMotion 0x0050EA70, "
    "CPartArray::DoInterpretedMotion 0x00518750)",
    "[retail][sim][anim]") {
  Human h;
  MotionInterp& m = h.minterp();
  const std::size_t pending = m.pending_motions().size();
  CHECK(m.do_interpreted_motion(mc::WalkForward, modify_params()) == 0);  // airborne: remembered
  CHECK(m.interpreted_state().forward_command == mc::WalkForward);
  CHECK(m.pending_motions().size() == pending);
  CHECK(h.cycle_anim() == h.anim_of(mc::Ready));
  CHECK(m.do_interpreted_motion(mc::LifestoneRecall, modify_params()) == movement_error::YouCantJumpFromThisPosition);
  h.land();  // HitGround applies the remembered forward motion
  CHECK(h.cycle_anim() == h.anim_of(mc::WalkForward));
  CHECK(m.do_interpreted_motion(mc::RunForward, modify_params(1.5f)) == 0);
  CHECK(m.pending_motions().back() == MotionInterp::PendingMotion{0, mc::RunForward, 0});
  CHECK(m.interpreted_state().forward_speed == 1.5f);
  CHECK(h.cycle_anim() == h.anim_of(mc::RunForward));
  CHECK(near(h.parts->sequence().velocity(), {0, 6.0f, 0}));
  SECTION("a motion the table lacks fails with 67 and changes nothing") {
    const auto before = m.pending_motions().size();
    CHECK(m.do_interpreted_motion(0x10000999, modify_params()) == movement_error::NoMtableData);
    CHECK(m.pending_motions().size() == before);
  }
}

TEST_CASE(
    "CMotionInterp::StopInterpretedMotion 0x00528470 returns the substate to Ready and queues it "
    "(CPhysicsObj::StopInterpretedMotion 0x0050EA90, CPartArray::StopInterpretedMotion 0x005187F0)",
    "[retail][sim][anim]") {
  Human h;
  h.land();
  MotionInterp& m = h.minterp();
  REQUIRE(m.do_interpreted_motion(mc::WalkForward, modify_params()) == 0);
  CHECK(m.stop_interpreted_motion(mc::WalkForward, modify_params()) == 0);
  CHECK(m.pending_motions().back().motion == mc::Ready);
  CHECK(m.interpreted_state().forward_command == mc::Ready);
  CHECK(h.cycle_anim() == h.anim_of(mc::Ready));
  CHECK(m.stop_interpreted_motion(mc::RunForward, modify_params()) == movement_error::NoMtableData);
}

TEST_CASE(
    "CMotionInterp::StopCompletely 0x00527E40 clears forward, sidestep and turn and queues Ready "
    "(CPhysicsObj::StopCompletely_Internal 0x0050EAD0, CPartArray::StopCompletelyInternal 0x00518890)",
    "[retail][sim][anim]") {
  Human h;
  h.land();
  MotionInterp& m = h.minterp();
  REQUIRE(m.do_interpreted_motion(mc::RunForward, modify_params()) == 0);
  CHECK(m.stop_completely() == 0);
  CHECK(m.interpreted_state().forward_command == mc::Ready);
  CHECK(m.interpreted_state().turn_command == 0);
  CHECK(m.pending_motions().back().motion == mc::Ready);
  CHECK(h.cycle_anim() == h.anim_of(mc::Ready));
}

TEST_CASE("CMotionInterp::DoMotion 0x00528D20 refuses postures in combat and a seventh pending action",
          "[retail][sim][anim]") {
  Human h;
  h.land();
  MotionInterp& m = h.minterp();
  for (int i = 0; i < 6; ++i) REQUIRE(m.do_motion(mc::LifestoneRecall, modify_params()) == 0);
  CHECK(m.interpreted_state().actions.size() == 6);
  CHECK(m.do_motion(mc::LifestoneRecall, modify_params()) == movement_error::TooManyActions);
  Human walker;
  walker.land();
  CHECK(walker.minterp().do_motion(mc::WalkBackwards, modify_params()) == 0);  // WalkForward at -0.65
  CHECK(walker.minterp().interpreted_state().forward_command == mc::WalkForward);
  CHECK(near(walker.minterp().interpreted_state().forward_speed, -0.65f));
  CHECK(walker.parts->sequence().first_cyclic()->framerate() < 0.0f);
  InterpretedMotionState combat;
  MovementParameters p;
  combat.apply_motion(mc::HandCombat, p);
  Human fighter;
  fighter.land();
  fighter.minterp().move_to_interpreted_state(combat);
  CHECK(fighter.minterp().do_motion(mc::Crouch, modify_params()) == movement_error::CantCrouchInCombat);
  CHECK(fighter.minterp().do_motion(mc::Sitting, modify_params()) == movement_error::CantSitInCombat);
  CHECK(fighter.minterp().do_motion(mc::Sleeping, modify_params()) == movement_error::CantLieDownInCombat);
  CHECK(fighter.minterp().do_motion(0x13000080 | motion_mask::ChatEmote, modify_params()) ==
        movement_error::CantChatEmoteInCombat);
}

TEST_CASE(
    "CMotionInterp::apply_interpreted_movement 0x00528600 style, forward, sidestep, turn, Falling in the air "
    "(CMotionInterp::apply_current_movement 0x00528870)",
    "[retail][sim][anim]") {
  Human h;
  h.land();
  MotionInterp& m = h.minterp();
  InterpretedMotionState s;
  s.forward_command = mc::RunForward;
  s.forward_speed = 1.25f;
  REQUIRE(m.move_to_interpreted_state(s));
  CHECK(h.parts->motion_table_manager()->state().substate == mc::RunForward);
  CHECK(h.cycle_anim() == h.anim_of(mc::RunForward));
  CHECK(h.parts->sequence().first_cyclic()->framerate() == 30.0f * 1.25f);
  CHECK(m.my_run_rate == 1.25f);
  SECTION("a turn is applied last: the turn cycle is allowed only from Ready (bit 0x2), so it is a modifier") {
    s.turn_command = mc::TurnRight;
    REQUIRE(m.move_to_interpreted_state(s));
    CHECK(h.parts->motion_table_manager()->state().substate == mc::RunForward);
    REQUIRE(h.parts->motion_table_manager()->state().modifiers().size() == 1);
    CHECK(h.parts->motion_table_manager()->state().modifiers()[0].motion == mc::TurnRight);
  }
  SECTION("in the air only Falling is asked for; the forward command waits in the interpreted state") {
    h.owner.object.set_on_walkable(false);
    s.forward_command = mc::WalkForward;
    REQUIRE(m.move_to_interpreted_state(s));
    CHECK(m.interpreted_state().forward_command == mc::WalkForward);
    CHECK(h.parts->motion_table_manager()->state().substate == mc::Falling);
  }
}

TEST_CASE("CMotionInterp::move_to_interpreted_state 0x005289C0 plays only actions with newer stamps",
          "[retail][sim][anim]") {
  Human h;
  h.land();
  MotionInterp& m = h.minterp();
  InterpretedMotionState s;
  s.add_action(mc::LifestoneRecall, 1.0f, 3, false);
  REQUIRE(m.move_to_interpreted_state(s));
  CHECK(m.server_action_stamp == 3u);
  CHECK(h.parts->sequence().head()->anim_id() == demo::kRecallAnimation);
  CHECK(m.interpreted_state().actions.size() == 1);
  const auto pending = m.pending_motions().size();
  REQUIRE(m.move_to_interpreted_state(s));  // the same stamp again: not replayed
  CHECK(m.interpreted_state().actions.size() == 1);
  CHECK(m.pending_motions().size() == pending + 2);  // the style and forward motions only
  SECTION("the 15-bit stamp wraps: 0x0001 is newer than 0x7FFE") {
    m.server_action_stamp = 0x7FFE;
    InterpretedMotionState wrapped;
    wrapped.add_action(mc::LifestoneRecall, 1.0f, 0x0001, false);
    REQUIRE(m.move_to_interpreted_state(wrapped));
    CHECK(m.server_action_stamp == 0x0001u);
  }
  SECTION("the local player's own autonomous actions are not replayed") {
    h.owner.context.player = &h.owner.object;
    InterpretedMotionState mine;
    mine.add_action(mc::LifestoneRecall, 1.0f, 9, true);
    REQUIRE(m.move_to_interpreted_state(mine));
    CHECK(m.server_action_stamp == 3u);
  }
}

TEST_CASE(
    "CMotionInterp::MotionDone 0x00527EC0 pops the pending head and drops a finished action "
    "(MovementManager::MotionDone 0x005242D0, CMotionInterp::HandleExitWorld 0x00527F30) "
    "(MovementManager::HandleExitWorld 0x00524350, CMotionInterp::motions_pending 0x00527FE0, "
    "MovementManager::motions_pending 0x00524280)",
    "[retail][sim][anim]") {
  Human h;
  h.land();
  MotionInterp& m = h.minterp();
  while (m.motions_pending()) m.motion_done(true);
  REQUIRE(m.do_interpreted_motion(mc::LifestoneRecall, modify_params()) == 0);
  REQUIRE(m.interpreted_state().actions.size() == 1);
  h.owner.object.motion_done(mc::LifestoneRecall, true);
  CHECK(m.interpreted_state().actions.empty());
  CHECK_FALSE(m.motions_pending());
  REQUIRE(m.do_interpreted_motion(mc::WalkForward, modify_params()) == 0);
  h.movement->handle_exit_world();
  CHECK_FALSE(h.movement->motions_pending());
}

TEST_CASE(
    "CMotionInterp::LeaveGround 0x00528B00 launches with the state velocity (get_state_velocity 0x00527D50), "
    "HitGround 0x00528AC0 reapplies the state (CMotionInterp::get_leave_ground_velocity 0x005280C0, "
    "MovementManager::HitGround 0x00524300, MovementManager::LeaveGround 0x00524320)",
    "[retail][sim][anim]") {
  Human h;
  h.land();
  MotionInterp& m = h.minterp();
  REQUIRE(m.do_interpreted_motion(mc::WalkForward, modify_params(1.0f)) == 0);
  CHECK(near(m.get_state_velocity(), {0, 3.12f, 0}));
  REQUIRE(m.do_interpreted_motion(mc::RunForward, modify_params(2.0f)) == 0);
  CHECK(near(m.get_state_velocity(), {0, 4.0f, 0}));  // 8 m/s capped at 4 x run rate 1
  h.owner.object.set_heading(90.0f, false);           // facing east
  h.owner.object.set_on_walkable(false);              // MovementManager::LeaveGround
  CHECK(near(h.owner.object.velocity(), {4.0f, 0.0f, 0.0f}));
  SECTION("standing still keeps the current velocity") {
    Human still;
    still.land();
    still.owner.object.set_velocity({0.0f, 0.0f, -1.0f}, false);
    still.owner.object.set_on_walkable(false);
    CHECK(near(still.owner.object.velocity(), {0.0f, 0.0f, -1.0f}));
  }
}

// --- MovementManager ---------------------------------------------------------------------------

TEST_CASE(
    "MovementManager::unpack_movement 0x00524440 applies the interpreted state, without an interpreter nothing "
    "(CPhysicsObj::unpack_movement 0x00512040) (CMotionInterp::InqStyle 0x00527B10, MovementManager::PerformMovement "
    "0x005240D0)",
    "[retail][sim][anim]") {
  Human h;
  h.land();
  protocol::MovementData data;
  data.current_style = 0x003D;
  protocol::InterpretedMovement im;
  im.state.forward_command = 0x0005;
  data.payload = im;
  CHECK(h.minterp().inq_style() == mc::NonCombat);
  h.owner.object.unpack_movement(data, false);
  CHECK(h.minterp().interpreted_state().forward_command == mc::WalkForward);
  CHECK(h.cycle_anim() == h.anim_of(mc::WalkForward));
  SECTION("an object whose manager has no interpreter ignores movement") {
    Owner bare;
    bare.object.set_movement_manager(std::make_unique<DatMovementManager>(bare.object));
    bare.object.unpack_movement(data, false);
    auto* mm = dynamic_cast<DatMovementManager*>(bare.object.movement_manager());
    CHECK(mm->motion_interpreter() == nullptr);
  }
  SECTION("MovementManager::PerformMovement 0x005240D0 runs the interpreted kinds") {
    CHECK(h.movement->perform_movement(MovementKind::InterpretedCommand, mc::RunForward, modify_params()) == 0);
    CHECK(h.cycle_anim() == h.anim_of(mc::RunForward));
    CHECK(h.movement->perform_movement(MovementKind::StopCompletely, 0, modify_params()) == 0);
    CHECK(h.cycle_anim() == h.anim_of(mc::Ready));
  }
}

// --- end to end: Movement messages through the SmartBox ----------------------------------------

namespace {

class HookEffects final : public EffectsSink {
 public:
  explicit HookEffects(const core::ManualClock& clock) : clock_(&clock) {}
  void execute_hook(PhysicsObj& owner, const dat::AnimationHook& hook) override {
    executed.push_back({owner.id(), hook, clock_->now().count()});
  }
  struct Executed {
    std::uint32_t owner;
    dat::AnimationHook hook;
    double time;
  };
  std::vector<Executed> executed;

 private:
  const core::ManualClock* clock_;
};

struct DemoWorld {
  DemoWorld() : context(clock), effects(clock), records(&demo_portal()), factory(records), box(context) {
    context.set_effects(&effects);
    context.set_factory(&factory);
    box.handle(protocol::PlayerCreate{0x50000001});
  }
  void tick_to(double t) {
    while (now + 1.0 / 30.0 <= t + 1e-9) {
      now += 1.0 / 30.0;
      clock.set(core::Seconds{now});
      box.use_time();
    }
  }
  core::ManualClock clock;
  SimContext context;
  HookEffects effects;
  dat::RecordCache records;
  DatObjectFactory factory;
  SmartBox box;
  double now = 0.0;
};

constexpr std::uint32_t kHumanGuid = 0x70000010;

}  // namespace

TEST_CASE(
    "Movement messages drive the demo humanoid: run, then the recall's frame-16 CreateParticle executes on time "
    "(CSequence::update 0x00525B80, MovementManager::unpack_movement 0x00524440, MotionTableManager::AnimationDone "
    "0x0051BCE0)",
    "[retail][sim][anim]") {
  DemoWorld w;
  protocol::CreateObject create_msg = create(kHumanGuid, 1);
  create_msg.weenie.item_type = 0x10;  // a creature
  create_msg.physics.setup_id = demo::kHumanSetup;
  create_msg.physics.motion_table_id = demo::kHumanMotionTable;
  protocol::MovementData run;
  run.current_style = 0x003D;
  protocol::InterpretedMovement running;
  running.state.forward_command = 0x0007;
  run.payload = running;
  create_msg.physics.movement = protocol::MovementBuffer{protocol::encode_movement_buffer(run), 0};
  REQUIRE(w.box.handle(create_msg).verdict == Verdict::Applied);
  PhysicsObj* human = w.box.get_object(kHumanGuid);
  REQUIRE(human != nullptr);
  auto* parts = dynamic_cast<DatPartArray*>(human->part_array());
  REQUIRE(parts != nullptr);
  auto* mm = dynamic_cast<DatMovementManager*>(human->movement_manager());
  REQUIRE(mm != nullptr);
  // Collision is not ported: nothing lands the object, so it is airborne and
  // holds the run in its interpreted state. Landing applies it.
  CHECK(mm->motion_interpreter()->interpreted_state().forward_command == mc::RunForward);
  human->set_transient_state(human->transient_state() | ts::Contact);
  human->set_on_walkable(true);
  CHECK(parts->motion_table_manager()->state().substate == mc::RunForward);

  // The server stops the run and sends the recall as an action.
  protocol::MovementEvent recall;
  recall.guid = kHumanGuid;
  recall.instance_ts = 1;
  recall.movement_ts = 1;
  recall.data.current_style = 0x003D;
  protocol::InterpretedMovement ready;
  ready.state.commands.push_back(protocol::MotionItem{0x0153, 1, 1.0f});
  recall.data.payload = ready;
  REQUIRE(w.box.handle(wire(recall)).verdict == Verdict::Applied);
  REQUIRE(parts->sequence().curr_anim()->anim_id() == demo::kRecallAnimation);
  const double start = w.now;

  w.tick_to(start + 3.0);
  const auto created = std::find_if(w.effects.executed.begin(), w.effects.executed.end(),
                                    [](const auto& e) { return e.hook.type() == dat::HookType::CreateParticle; });
  REQUIRE(created != w.effects.executed.end());
  const auto& particle = std::get<dat::CreateParticleHook>(created->hook.payload);
  CHECK(particle.emitter_info == demo::kRecallEmitter);
  CHECK(particle.emitter_id == demo::kRecallEmitterLogicalId);
  CHECK(created->owner == kHumanGuid);
  // Frame 16 is left at 17 / 9.96 s; the object ticks in 1/30 s steps (a step
  // of exactly 1/30 s waits for the next), so it executes within a few.
  const double due = 17.0 / static_cast<double>(demo::kRecallFramerate);
  CHECK(created->time - start >= due - 1e-6);
  CHECK(created->time - start < due + 3.0 / 30.0);

  // At the end of the link the AnimDone completes the recall everywhere.
  w.tick_to(start + 120.0 / static_cast<double>(demo::kRecallFramerate) + 0.2);
  CHECK(parts->sequence().curr_anim()->anim_id() != demo::kRecallAnimation);
  CHECK(parts->motion_table_manager()->pending_animations().empty());
  CHECK(parts->motion_table_manager()->state().actions().empty());
  CHECK(mm->motion_interpreter()->interpreted_state().actions.empty());
}

// Not run by default: ms per tick for 1,000 animated humanoids walking (the
// later benchmark measures the same in a release build).
TEST_CASE("1,000 animated humanoids: ms per tick", "[.][anim-bench]") {
  DemoWorld w;
  for (std::uint32_t i = 0; i < 1000; ++i) {
    protocol::CreateObject m =
        create(0x70100000 + i, 1, kInitialState & ~ps::Gravity,
               {static_cast<float>(i % 150) + 10.0f, static_cast<float>(i / 150) * 20.0f + 5.0f, 0.0f});
    m.weenie.item_type = 0x10;
    m.physics.setup_id = demo::kHumanSetup;
    m.physics.motion_table_id = demo::kHumanMotionTable;
    protocol::MovementData walk;
    walk.current_style = 0x003D;
    protocol::InterpretedMovement walking;
    walking.state.forward_command = 0x0005;
    walk.payload = walking;
    m.physics.movement = protocol::MovementBuffer{protocol::encode_movement_buffer(walk), 0};
    REQUIRE(w.box.handle(m).verdict == Verdict::Applied);
  }
  w.tick_to(1.0);  // warm up
  const auto begin = std::chrono::steady_clock::now();
  const int ticks = 90;
  w.tick_to(1.0 + ticks / 30.0);
  const auto elapsed = std::chrono::steady_clock::now() - begin;
  const double ms = std::chrono::duration<double, std::milli>(elapsed).count() / ticks;
  WARN("ms/tick for 1000 animated objects: " << ms);
  CHECK(w.box.objects().objects().size() == 1000);
}
