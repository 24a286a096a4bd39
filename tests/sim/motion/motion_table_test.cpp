// MotionTable (retail CMotionTable), MotionState and MotionTableManager:
// spec/physics.md sections 2.1-2.6, RE canim/CMTable.c, canim/CMotionPrim.c,
// cphysobj/CMTableManager.c.
#include <catch2/catch.hpp>

#include <cmath>

#include "motion/anim_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace mc = motion_command;

namespace {

constexpr std::uint32_t kNC = mc::NonCombat;
constexpr std::uint32_t kHC = mc::HandCombat;
constexpr std::uint32_t kAction = 0x10000154;  // an action with only a style-wide link
constexpr std::uint32_t kWave = 0x13000087;    // an action linked from Ready only

// Animations: cycles have 10 frames; links 4 (the recall 5).
constexpr std::uint32_t kReadyAnim = 0x03000001;
constexpr std::uint32_t kWalkAnim = 0x03000002;
constexpr std::uint32_t kRunAnim = 0x03000003;
constexpr std::uint32_t kTurnAnim = 0x03000004;
constexpr std::uint32_t kHcReadyAnim = 0x03000005;
constexpr std::uint32_t kReadyToWalk = 0x03000010;
constexpr std::uint32_t kWalkToReady = 0x03000011;
constexpr std::uint32_t kReadyToRun = 0x03000012;
constexpr std::uint32_t kRunToReady = 0x03000013;
constexpr std::uint32_t kRecallAnim = 0x03000014;
constexpr std::uint32_t kNcToHc = 0x03000015;
constexpr std::uint32_t kActionAnim = 0x03000016;
constexpr std::uint32_t kWaveAnim = 0x03000017;
constexpr std::uint32_t kReadyToTurn = 0x03000018;

std::uint32_t cyc(std::uint32_t style, std::uint32_t substate) {
  return (style << 16) | (substate & 0xFFFFFF);
}

dat::MotionData data(std::vector<std::uint32_t> anims, glm::vec3 velocity = {}, glm::vec3 omega = {},
                     std::uint8_t bitfield = 0, float framerate = 30.0f) {
  dat::MotionData d;
  d.bitfield = bitfield;
  for (std::uint32_t a : anims) d.anims.push_back(dat::AnimData{a, 0, -1, framerate});
  if (velocity != glm::vec3(0.0f)) d.flags |= dat::MotionData::kHasVelocity;
  if (omega != glm::vec3(0.0f)) d.flags |= dat::MotionData::kHasOmega;
  d.velocity = velocity;
  d.omega = omega;
  return d;
}

dat::MotionTable make_table() {
  dat::MotionTable t;
  t.id = 0x09000042;
  t.default_style = kNC;
  t.style_defaults = {{kNC, mc::Ready}, {kHC, mc::Ready}};
  t.cycles = {
      {cyc(kNC, mc::Ready), data({kReadyAnim})},
      {cyc(kNC, mc::WalkForward), data({kWalkAnim}, {0, 3.12f, 0})},
      {cyc(kNC, mc::RunForward), data({kRunAnim}, {0, 4.0f, 0})},
      // Allowed only from Ready, as retail's turn cycle.
      {cyc(kNC, mc::TurnRight), data({kTurnAnim}, {}, {0, 0, -1.5f}, 0x2)},
      {cyc(kHC, mc::Ready), data({kHcReadyAnim})},
  };
  t.modifiers = {
      {cyc(kNC, mc::TurnRight), data({}, {}, {0, 0, -1.5f})},
      {mc::SideStepRight & 0xFFFFFF, data({}, {1.25f, 0, 0})},  // style-less fallback
  };
  t.links = {
      {cyc(kNC, mc::Ready),
       {{mc::WalkForward, data({kReadyToWalk})},
        {mc::RunForward, data({kReadyToRun})},
        {mc::TurnRight, data({kReadyToTurn})},
        {mc::LifestoneRecall, data({kRecallAnim}, {}, {}, 0, 9.96f)},
        {kWave, data({kWaveAnim})},
        {kHC, data({kNcToHc})}}},
      {cyc(kNC, mc::WalkForward), {{mc::Ready, data({kWalkToReady})}}},
      {cyc(kNC, mc::RunForward), {{mc::Ready, data({kRunToReady})}}},
      {kNC << 16, {{kAction, data({kActionAnim})}}},
  };
  return t;
}

struct Fixture {
  Fixture() : table(std::make_shared<const dat::MotionTable>(make_table())) {
    for (std::uint32_t id : {kReadyAnim, kWalkAnim, kRunAnim, kTurnAnim, kHcReadyAnim})
      anims.add(make_animation(id, 10));
    for (std::uint32_t id :
         {kReadyToWalk, kWalkToReady, kReadyToRun, kRunToReady, kNcToHc, kActionAnim, kWaveAnim, kReadyToTurn}) {
      anims.add(make_animation(id, 4));
    }
    anims.add(make_animation(kRecallAnim, 5));
    seq.set_animation_source(&anims);
  }
  // Puts the state in NonCombat/Ready with the Ready cycle playing.
  void ready() {
    std::uint32_t n = 0;
    REQUIRE(table.set_default_state(state, seq, n));
  }
  std::vector<std::uint32_t> anim_ids() const {
    std::vector<std::uint32_t> ids;
    for (const AnimSequenceNode* node = seq.head(); node != nullptr; node = node->next())
      ids.push_back(node->anim_id());
    return ids;
  }

  MotionTable table;
  MapAnimations anims;
  Sequence seq;
  MotionState state;
};

using Ids = std::vector<std::uint32_t>;

}  // namespace

// --- MotionState -------------------------------------------------------------------------

TEST_CASE(
    "MotionState::add_modifier 0x00526340 refuses duplicates and the substate, add_modifier_no_check 0x00525FF0 "
    "pushes to the front (MotionState::remove_modifier 0x00526040, MotionState::clear_modifiers 0x00526070)",
    "[retail][sim][anim]") {
  MotionState s;
  s.substate = mc::Ready;
  CHECK(s.add_modifier(mc::TurnRight, 1.0f));
  CHECK(s.add_modifier(mc::SideStepRight, 0.5f));
  CHECK_FALSE(s.add_modifier(mc::TurnRight, 2.0f));
  CHECK_FALSE(s.add_modifier(mc::Ready, 1.0f));
  REQUIRE(s.modifiers().size() == 2);
  CHECK(s.modifiers()[0] == MotionListEntry{mc::SideStepRight, 0.5f});  // newest first
  s.add_modifier_no_check(mc::TurnRight, 3.0f);
  CHECK(s.modifiers().size() == 3);
  s.remove_modifier(1);
  CHECK(s.modifiers()[1] == MotionListEntry{mc::TurnRight, 1.0f});
  s.clear_modifiers();
  CHECK(s.modifiers().empty());
}

TEST_CASE(
    "MotionState::add_action 0x005260A0 queues at the tail, remove_action_head 0x00526120 pops the oldest "
    "(MotionState::clear_actions 0x005260F0)",
    "[retail][sim][anim]") {
  MotionState s;
  s.add_action(0x10000001, 1.0f);
  s.add_action(0x10000002, 2.0f);
  CHECK(s.remove_action_head() == 0x10000001u);
  CHECK(s.remove_action_head() == 0x10000002u);
  CHECK(s.remove_action_head() == 0u);
  s.add_action(0x10000003, 1.0f);
  s.clear_actions();
  CHECK(s.actions().empty());
}

// --- helpers ------------------------------------------------------------------------------

TEST_CASE(
    "add_motion 0x005224B0 overwrites the physics and appends every anim at speed, combine_motion 0x00522580 "
    "and subtract_motion 0x00522600 only touch the physics",
    "[retail][sim][anim]") {
  Fixture f;
  const dat::MotionData walk = data({kWalkAnim, kReadyAnim}, {0, 3.12f, 0}, {0, 0, 1});
  f.seq.set_velocity({9, 9, 9});
  add_motion(f.seq, &walk, -0.5f);
  CHECK(near(f.seq.velocity(), {0, -1.56f, 0}));
  CHECK(near(f.seq.omega(), {0, 0, -0.5f}));
  REQUIRE(f.seq.size() == 2);
  CHECK(f.seq.head()->framerate() == -15.0f);
  combine_motion(f.seq, &walk, 1.0f);
  CHECK(near(f.seq.velocity(), {0, 1.56f, 0}));
  subtract_motion(f.seq, &walk, 2.0f);
  CHECK(near(f.seq.velocity(), {0, -4.68f, 0}));
  CHECK(f.seq.size() == 2);
  add_motion(f.seq, nullptr, 1.0f);  // no data: nothing
  CHECK(f.seq.size() == 2);
}

TEST_CASE("change_cycle_speed 0x00522290 rescales the cycle by new/old, or stops it when both are ~0",
          "[retail][sim][anim]") {
  Fixture f;
  f.seq.append_animation(anim_data(kReadyAnim, 30.0f));
  change_cycle_speed(f.seq, 2.0f, 1.0f);
  CHECK(f.seq.first_cyclic()->framerate() == 15.0f);
  change_cycle_speed(f.seq, 0.0f, 0.0f);
  CHECK(f.seq.first_cyclic()->framerate() == 0.0f);
  f.seq.clear_animations();
  f.seq.append_animation(anim_data(kReadyAnim, 30.0f));
  change_cycle_speed(f.seq, 0.0f, 1.0f);  // from ~0 to non-zero: untouched
  CHECK(f.seq.first_cyclic()->framerate() == 30.0f);
}

TEST_CASE("same_sign 0x00522260 compares signs, zero is positive", "[retail][sim][anim]") {
  CHECK(same_sign(1.0f, 2.0f));
  CHECK(same_sign(-1.0f, -2.0f));
  CHECK(same_sign(0.0f, 1.0f));
  CHECK_FALSE(same_sign(-1.0f, 0.0f));
  CHECK_FALSE(same_sign(1.0f, -0.5f));
}

// --- lookups ------------------------------------------------------------------------------

TEST_CASE("CMotionTable::get_link 0x00522710 forward, style-wide fallback, reverse and reverse fallback",
          "[retail][sim][anim]") {
  Fixture f;
  const MotionTable& t = f.table;
  REQUIRE(t.get_link(kNC, mc::Ready, 1.0f, mc::WalkForward, 1.0f) != nullptr);
  CHECK(t.get_link(kNC, mc::Ready, 1.0f, mc::WalkForward, 1.0f)->anims[0].anim_id == kReadyToWalk);
  // No Walk-outer link for kAction: the style-wide key (style << 16) answers.
  REQUIRE(t.get_link(kNC, mc::WalkForward, 1.0f, kAction, 1.0f) != nullptr);
  CHECK(t.get_link(kNC, mc::WalkForward, 1.0f, kAction, 1.0f)->anims[0].anim_id == kActionAnim);
  // Reverse (a negative speed): links[target][source], played backwards.
  REQUIRE(t.get_link(kNC, mc::Ready, 1.0f, mc::WalkForward, -0.65f) != nullptr);
  CHECK(t.get_link(kNC, mc::Ready, 1.0f, mc::WalkForward, -0.65f)->anims[0].anim_id == kWalkToReady);
  // Reverse fallback: links[source][style default].
  REQUIRE(t.get_link(kNC, mc::RunForward, -1.0f, mc::TurnRight, 1.0f) != nullptr);
  CHECK(t.get_link(kNC, mc::RunForward, -1.0f, mc::TurnRight, 1.0f)->anims[0].anim_id == kRunToReady);
  CHECK(t.get_link(kHC, mc::Ready, 1.0f, mc::WalkForward, 1.0f) == nullptr);
}

TEST_CASE("CMotionTable::is_allowed 0x005226C0 bitfield 0x2 cycles only from the style default or themselves",
          "[retail][sim][anim]") {
  Fixture f;
  const dat::MotionData* turn = f.table.cycle(cyc(kNC, mc::TurnRight));
  REQUIRE(turn != nullptr);
  MotionState s;
  s.style = kNC;
  s.substate = mc::Ready;
  CHECK(f.table.is_allowed(mc::TurnRight, turn, s));
  s.substate = mc::RunForward;
  CHECK_FALSE(f.table.is_allowed(mc::TurnRight, turn, s));
  s.substate = mc::TurnRight;
  CHECK(f.table.is_allowed(mc::TurnRight, turn, s));
  CHECK(f.table.is_allowed(mc::WalkForward, f.table.cycle(cyc(kNC, mc::WalkForward)), s));
  CHECK_FALSE(f.table.is_allowed(mc::WalkForward, nullptr, s));
}

TEST_CASE("MotionTable keys: the style's high bit falls off the 32-bit shift, and the last duplicate wins",
          "[sim][anim]") {
  dat::MotionTable t = make_table();
  t.cycles.push_back({cyc(kNC, mc::Ready), data({kWalkAnim})});
  MotionTable table(std::make_shared<const dat::MotionTable>(t));
  CHECK(cyc(kNC, mc::Ready) == 0x003D0003u);
  REQUIRE(table.cycle(0x003D0003u) != nullptr);
  CHECK(table.cycle(0x003D0003u)->anims[0].anim_id == kWalkAnim);
}

// --- GetObjectSequence -----------------------------------------------------------------------

TEST_CASE("CMotionTable::SetDefaultState 0x005230A0 clears the lists and plays the default cycle",
          "[retail][sim][anim]") {
  Fixture f;
  f.state.add_modifier(mc::TurnRight, 1.0f);
  f.state.add_action(kWave, 1.0f);
  f.seq.append_animation(anim_data(kWalkAnim));
  std::uint32_t n = 99;
  REQUIRE(f.table.set_default_state(f.state, f.seq, n));
  CHECK(n == 0);  // one anim, minus the looping cycle
  CHECK(f.state.style == kNC);
  CHECK(f.state.substate == mc::Ready);
  CHECK(f.state.substate_mod == 1.0f);
  CHECK(f.state.modifiers().empty());
  CHECK(f.state.actions().empty());
  CHECK(f.anim_ids() == Ids{kReadyAnim});
}

TEST_CASE(
    "CMotionTable::GetObjectSequence 0x00522860 substate: link then cycle, velocity from the cycle "
    "(CMotionTable::DoObjectMotion 0x00523E90)",
    "[retail][sim][anim]") {
  Fixture f;
  f.ready();
  std::uint32_t n = 0;
  REQUIRE(f.table.do_object_motion(mc::WalkForward, f.state, f.seq, 1.0f, n));
  CHECK(n == 1);  // link 1 + cycle 1 - 1
  CHECK(f.anim_ids() == Ids{kReadyToWalk, kWalkAnim});
  CHECK(f.state.substate == mc::WalkForward);
  CHECK(near(f.seq.velocity(), {0, 3.12f, 0}));
  CHECK(f.seq.curr_anim()->anim_id() == kReadyToWalk);  // the Ready cycle under the cursor was removed

  SECTION("the same substate at a new speed of the same sign rescales in place") {
    REQUIRE(f.table.do_object_motion(mc::WalkForward, f.state, f.seq, 2.0f, n));
    CHECK(n == 0);
    CHECK(f.anim_ids() == Ids{kReadyToWalk, kWalkAnim});
    CHECK(f.seq.first_cyclic()->framerate() == 60.0f);
    CHECK(f.seq.head()->framerate() == 30.0f);  // links untouched
    CHECK(near(f.seq.velocity(), {0, 6.24f, 0}));
    CHECK(f.state.substate_mod == 2.0f);
  }
  SECTION("backwards: the reverse link plays with a negative framerate, then the reversed cycle") {
    REQUIRE(f.table.do_object_motion(mc::Ready, f.state, f.seq, 1.0f, n));  // back to Ready first
    f.seq.remove_all_link_animations();
    REQUIRE(f.table.do_object_motion(mc::WalkForward, f.state, f.seq, -0.65f, n));
    // Ready (mod 1) to Walk at -0.65: signs differ, so through the default:
    // link(Ready->Ready) is none, link2 = get_link(Ready, 1, Walk, -0.65) =
    // the Walk->Ready link reversed. The Ready cycle under the cursor goes.
    CHECK(f.anim_ids() == Ids{kWalkToReady, kWalkAnim});
    CHECK(f.seq.tail()->framerate() == 30.0f * -0.65f);
    CHECK(f.seq.tail()->prev()->framerate() == 30.0f * -0.65f);
    CHECK(near(f.seq.velocity(), {0, 3.12f * -0.65f, 0}));
  }
}

TEST_CASE("CMotionTable::GetObjectSequence 0x00522860 an action: link then the same cycle resumed at its speed",
          "[retail][sim][anim]") {
  Fixture f;
  f.ready();
  std::uint32_t n = 0;
  REQUIRE(f.table.do_object_motion(mc::LifestoneRecall, f.state, f.seq, 1.0f, n));
  CHECK(n == 1);  // the link's anims only: the cycle is not counted
  CHECK(f.anim_ids() == Ids{kRecallAnim, kReadyAnim});
  CHECK(f.seq.head()->framerate() == 9.96f);
  CHECK(f.state.substate == mc::Ready);
  REQUIRE(f.state.actions().size() == 1);
  CHECK(f.state.actions()[0].motion == mc::LifestoneRecall);

  SECTION("an action while walking goes through the default substate and back (l1, l2, l3, cycle)") {
    Fixture g;
    g.ready();
    REQUIRE(g.table.do_object_motion(mc::WalkForward, g.state, g.seq, 1.0f, n));
    REQUIRE(g.table.do_object_motion(kWave, g.state, g.seq, 1.0f, n));
    // l1 = Walk->Ready, l2 = Ready->Wave, l3 = Ready->Walk, then the Walk cycle.
    CHECK(g.anim_ids() == Ids{kReadyToWalk, kWalkToReady, kWaveAnim, kReadyToWalk, kWalkAnim});
    CHECK(n == 3);
    CHECK(g.state.substate == mc::WalkForward);
  }
  SECTION("an action with no link at all is refused") {
    Fixture g;
    g.ready();
    CHECK_FALSE(g.table.do_object_motion(0x10000999, g.state, g.seq, 1.0f, n));
    CHECK(n == 0);
  }
}

TEST_CASE("CMotionTable::GetObjectSequence 0x00522860 a style change goes to the new style's default cycle",
          "[retail][sim][anim]") {
  Fixture f;
  f.ready();
  std::uint32_t n = 0;
  REQUIRE(f.table.do_object_motion(kHC, f.state, f.seq, 1.0f, n));
  CHECK(f.anim_ids() == Ids{kNcToHc, kHcReadyAnim});
  CHECK(n == 1);
  CHECK(f.state.style == kHC);
  CHECK(f.state.substate == mc::Ready);
  CHECK(f.table.do_object_motion(kHC, f.state, f.seq, 1.0f, n));  // already in it: true, nothing
  CHECK(f.anim_ids() == Ids{kNcToHc, kHcReadyAnim});
}

TEST_CASE("CMotionTable::GetObjectSequence 0x00522860 TurnRight: a cycle from Ready, a modifier while running",
          "[retail][sim][anim]") {
  Fixture f;
  f.ready();
  std::uint32_t n = 0;
  SECTION("from Ready the turn is the cycle") {
    REQUIRE(f.table.do_object_motion(mc::TurnRight, f.state, f.seq, 1.0f, n));
    CHECK(f.state.substate == mc::TurnRight);
    CHECK(f.anim_ids() == Ids{kReadyToTurn, kTurnAnim});
    CHECK(near(f.seq.omega(), {0, 0, -1.5f}));
    SECTION("then walking keeps the turn as a modifier") {
      REQUIRE(f.table.do_object_motion(mc::WalkForward, f.state, f.seq, 1.0f, n));
      CHECK(f.state.substate == mc::WalkForward);
      REQUIRE(f.state.modifiers().size() == 1);
      CHECK(f.state.modifiers()[0].motion == mc::TurnRight);
      CHECK(near(f.seq.velocity(), {0, 3.12f, 0}));
      CHECK(near(f.seq.omega(), {0, 0, -1.5f}));  // re_modify recombined it
    }
  }
  SECTION("while running the 0x2 cycle is refused and the modifier adds omega only") {
    REQUIRE(f.table.do_object_motion(mc::RunForward, f.state, f.seq, 1.0f, n));
    const Ids before = f.anim_ids();
    REQUIRE(f.table.do_object_motion(mc::TurnRight, f.state, f.seq, 1.0f, n));
    CHECK(n == 0);
    CHECK(f.anim_ids() == before);
    CHECK(f.state.substate == mc::RunForward);
    CHECK(near(f.seq.velocity(), {0, 4.0f, 0}));
    CHECK(near(f.seq.omega(), {0, 0, -1.5f}));
    SECTION("CMotionTable::StopSequenceMotion 0x00522FC0 a modifier subtracts what it added") {
      REQUIRE(f.table.stop_sequence_motion(mc::TurnRight, 1.0f, f.state, f.seq, n));
      CHECK(f.state.modifiers().empty());
      CHECK(near(f.seq.omega(), {0, 0, 0}));
      CHECK_FALSE(f.table.stop_sequence_motion(mc::TurnRight, 1.0f, f.state, f.seq, n));
    }
  }
}

TEST_CASE("CMotionTable::StopSequenceMotion 0x00522FC0 stopping the substate returns to the style default",
          "[retail][sim][anim]") {
  Fixture f;
  f.ready();
  std::uint32_t n = 0;
  REQUIRE(f.table.do_object_motion(mc::RunForward, f.state, f.seq, 1.5f, n));
  REQUIRE(f.table.stop_sequence_motion(mc::RunForward, 1.5f, f.state, f.seq, n));
  CHECK(f.state.substate == mc::Ready);
  CHECK(f.state.substate_mod == 1.0f);
  CHECK(n == 1);
  CHECK(f.seq.tail()->anim_id() == kReadyAnim);
  CHECK_FALSE(f.table.stop_sequence_motion(mc::WalkForward, 1.0f, f.state, f.seq, n));  // not the substate
}

TEST_CASE("CMotionTable::StopObjectCompletely 0x00523ED0 stops every modifier, then the substate",
          "[retail][sim][anim]") {
  Fixture f;
  f.ready();
  std::uint32_t n = 0;
  REQUIRE(f.table.do_object_motion(mc::RunForward, f.state, f.seq, 1.0f, n));
  REQUIRE(f.table.do_object_motion(mc::TurnRight, f.state, f.seq, 1.0f, n));
  REQUIRE(f.table.do_object_motion(mc::SideStepRight, f.state, f.seq, 1.0f, n));
  REQUIRE(f.state.modifiers().size() == 2);
  CHECK(f.table.stop_object_completely(f.state, f.seq, n));
  CHECK(f.state.modifiers().empty());
  CHECK(f.state.substate == mc::Ready);
  CHECK(near(f.seq.velocity(), {0, 0, 0}));
  CHECK(near(f.seq.omega(), {0, 0, 0}));
}

TEST_CASE("CMotionTable::re_modify 0x005222E0 recombines the newest modifier once per modifier (retail loop)",
          "[retail][sim][anim]") {
  Fixture f;
  f.ready();
  std::uint32_t n = 0;
  REQUIRE(f.table.do_object_motion(mc::RunForward, f.state, f.seq, 1.0f, n));
  SECTION("one modifier survives a cycle change intact") {
    REQUIRE(f.table.do_object_motion(mc::SideStepRight, f.state, f.seq, 1.0f, n));
    REQUIRE(f.table.do_object_motion(mc::WalkForward, f.state, f.seq, 1.0f, n));
    CHECK(near(f.seq.velocity(), {1.25f, 3.12f, 0}));
    REQUIRE(f.state.modifiers().size() == 1);
  }
  SECTION("two modifiers: the newest is applied twice and the older not at all") {
    REQUIRE(f.table.do_object_motion(mc::TurnRight, f.state, f.seq, 1.0f, n));      // older
    REQUIRE(f.table.do_object_motion(mc::SideStepRight, f.state, f.seq, 1.0f, n));  // newest
    REQUIRE(f.table.do_object_motion(mc::WalkForward, f.state, f.seq, 1.0f, n));
    CHECK(near(f.seq.velocity(), {2.5f, 3.12f, 0}));
    CHECK(near(f.seq.omega(), {0, 0, 0}));
    // Both stay in the list, newest first.
    REQUIRE(f.state.modifiers().size() == 2);
    CHECK(f.state.modifiers()[0].motion == mc::SideStepRight);
    CHECK(f.state.modifiers()[1].motion == mc::TurnRight);
  }
}

TEST_CASE("CMotionTable::GetObjectSequence 0x00522860 refuses without a style or substate", "[retail][sim][anim]") {
  Fixture f;
  std::uint32_t n = 7;
  CHECK_FALSE(f.table.do_object_motion(mc::WalkForward, f.state, f.seq, 1.0f, n));
  CHECK(n == 0);
}

// --- MotionTableManager --------------------------------------------------------------------

namespace {

class RecordingMovement final : public MovementManager {
 public:
  void motion_done(std::uint32_t motion, bool success) override { done.emplace_back(motion, success); }
  std::vector<std::pair<std::uint32_t, bool>> done;
};

struct ManagerFixture : Fixture {
  ManagerFixture() {
    auto m = std::make_unique<RecordingMovement>();
    movement = m.get();
    owner.object.set_movement_manager(std::move(m));
    manager = std::make_unique<MotionTableManager>(
        &owner.object, 0x09000042,
        std::make_shared<const MotionTable>(std::make_shared<const dat::MotionTable>(make_table())));
    manager->initialize_state(seq);
  }
  Owner owner;
  RecordingMovement* movement = nullptr;
  std::unique_ptr<MotionTableManager> manager;
};

}  // namespace

TEST_CASE(
    "MotionTableManager::initialize_state 0x0051C030 sets the default state and queues Ready "
    "(MotionTableManager::add_to_queue 0x0051BFE0)",
    "[retail][sim][anim]") {
  ManagerFixture f;
  CHECK(f.manager->state().substate == mc::Ready);
  CHECK(f.manager->pending_animations() == std::vector<AnimNode>{{mc::Ready, 0}});
  CHECK(f.anim_ids() == Ids{kReadyAnim});
  CHECK(f.manager->get_motion_table_id() == 0x09000042u);
}

TEST_CASE(
    "MotionTableManager::PerformMovement 0x0051C0B0 queues the motion with its link count (MotionTableManager::Create "
    "0x0051BC50, MotionTableManager::GetMotionTableID 0x0051BC10)",
    "[retail][sim][anim]") {
  ManagerFixture f;
  CHECK(f.manager->perform_movement(MovementKind::InterpretedCommand, mc::WalkForward, 1.0f, f.seq) == 0);
  CHECK(f.manager->pending_animations().back() == AnimNode{mc::WalkForward, 1});
  CHECK(f.manager->perform_movement(MovementKind::InterpretedCommand, 0x10000999, 1.0f, f.seq) == 67);
  CHECK(f.manager->perform_movement(MovementKind::StopInterpretedCommand, mc::WalkForward, 1.0f, f.seq) == 0);
  CHECK(f.manager->pending_animations().back().motion == mc::Ready);
  CHECK(f.manager->perform_movement(MovementKind::StopCompletely, 0, 1.0f, f.seq) == 0);
  CHECK(f.manager->pending_animations().back().motion == mc::Ready);
  MotionTableManager none(&f.owner.object, 0x09000099, nullptr);
  CHECK(none.perform_movement(MovementKind::InterpretedCommand, mc::WalkForward, 1.0f, f.seq) == 7);
  CHECK(none.get_motion_table_id() == 0u);
}

TEST_CASE(
    "MotionTableManager::remove_redundant_links 0x0051BF20 Walk, Ready, Walk drops the middle links "
    "(truncate_animation_list 0x0051BCA0)",
    "[retail][sim][anim]") {
  ManagerFixture f;
  REQUIRE(f.manager->perform_movement(MovementKind::InterpretedCommand, mc::WalkForward, 1.0f, f.seq) == 0);
  REQUIRE(f.manager->perform_movement(MovementKind::InterpretedCommand, mc::Ready, 1.0f, f.seq) == 0);
  // Before the second Walk: [ReadyToWalk, WalkToReady, Ready].
  CHECK(f.anim_ids() == Ids{kReadyToWalk, kWalkToReady, kReadyAnim});
  REQUIRE(f.manager->perform_movement(MovementKind::InterpretedCommand, mc::WalkForward, 1.0f, f.seq) == 0);
  // The second Walk's own link and the Ready link were truncated: the first
  // Walk's link plays straight into the Walk cycle.
  CHECK(f.anim_ids() == Ids{kReadyToWalk, kWalkAnim});
  const auto& q = f.manager->pending_animations();
  REQUIRE(q.size() == 4);
  CHECK(q[1] == AnimNode{mc::WalkForward, 1});
  CHECK(q[2] == AnimNode{mc::Ready, 0});
  CHECK(q[3] == AnimNode{mc::WalkForward, 0});
}

TEST_CASE(
    "MotionTableManager::AnimationDone 0x0051BCE0 pops motions whose link count is reached "
    "(MotionTableManager::CheckForCompletedMotions 0x0051BE00)",
    "[retail][sim][anim]") {
  ManagerFixture f;
  f.manager->check_for_completed_motions();  // the initial Ready (0 anims) completes
  CHECK(f.movement->done == std::vector<std::pair<std::uint32_t, bool>>{{mc::Ready, true}});
  f.movement->done.clear();
  REQUIRE(f.manager->perform_movement(MovementKind::InterpretedCommand, mc::LifestoneRecall, 1.0f, f.seq) == 0);
  REQUIRE(f.manager->state().actions().size() == 1);
  f.manager->check_for_completed_motions();  // the recall needs one AnimDone
  CHECK(f.movement->done.empty());
  f.manager->animation_done(true);
  CHECK(f.movement->done == std::vector<std::pair<std::uint32_t, bool>>{{mc::LifestoneRecall, true}});
  CHECK(f.manager->state().actions().empty());  // removed before MotionDone
  CHECK(f.manager->pending_animations().empty());
  CHECK(f.manager->animation_counter() == 0);
  SECTION("with nothing pending the counter does not move") {
    f.manager->animation_done(true);
    CHECK(f.manager->animation_counter() == 0);
  }
}

TEST_CASE(
    "MotionTableManager::HandleEnterWorld 0x0051BDD0 removes every link and completes every pending motion "
    "unsuccessfully (MotionTableManager::HandleExitWorld 0x0051BDA0, CSequence::remove_all_link_animations 0x00524CA0)",
    "[retail][sim][anim]") {
  ManagerFixture f;
  f.manager->check_for_completed_motions();
  f.movement->done.clear();
  REQUIRE(f.manager->perform_movement(MovementKind::InterpretedCommand, mc::LifestoneRecall, 1.0f, f.seq) == 0);
  f.seq.update(2.5 / 9.96, nullptr);  // into the recall link
  REQUIRE(f.seq.curr_anim()->anim_id() == kRecallAnim);
  f.manager->handle_enter_world(f.seq);
  CHECK(f.anim_ids() == Ids{kReadyAnim});
  CHECK(f.seq.curr_anim() == f.seq.first_cyclic());
  CHECK(f.seq.frame_number() == 0.0);
  CHECK(f.movement->done == std::vector<std::pair<std::uint32_t, bool>>{{mc::LifestoneRecall, false}});
  CHECK(f.manager->pending_animations().empty());
  CHECK(f.manager->state().actions().empty());
  SECTION("HandleExitWorld drains the queue but keeps the links") {
    REQUIRE(f.manager->perform_movement(MovementKind::InterpretedCommand, mc::WalkForward, 1.0f, f.seq) == 0);
    f.manager->handle_exit_world();
    CHECK(f.manager->pending_animations().empty());
    CHECK(f.anim_ids() == Ids{kReadyToWalk, kWalkAnim});
  }
  SECTION("a corrupt (underflowed) count drains without billions of calls") {
    f.manager->add_to_queue(0x10000001, 0xFFFFFFFFu, f.seq);
    f.manager->handle_exit_world();
    CHECK(f.manager->pending_animations().empty());
  }
}
