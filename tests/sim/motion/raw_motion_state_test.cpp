// RawMotionState: ApplyMotion, RemoveMotion and Pack (the raw state the
// MoveToState carries), and the CommandList the interpreter keeps per axis.

#include <catch2/catch.hpp>

#include <bit>

#include "dereth/core/byte_writer.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

using namespace dereth;
using namespace dereth::sim;

namespace {

MovementParameters keyboard_params(float speed = 1.0f) {
  MovementParameters p;  // default bitfield 0x1EE0F: SetHoldKey and ModifyRawState set
  p.speed = speed;
  p.hold_key = static_cast<std::uint32_t>(HoldKey::Invalid);
  return p;
}

MovementParameters mouse_params(HoldKey key, float speed = 1.0f) {
  MovementParameters p;
  p.bitfield &= ~MovementParameters::kSetHoldKey;
  p.speed = speed;
  p.hold_key = static_cast<std::uint32_t>(key);
  return p;
}

std::vector<std::uint8_t> packed(const RawMotionState& s) {
  core::ByteWriter w;
  protocol::write_raw_motion_state(w, s.pack());
  return std::move(w).take();
}

}  // namespace

TEST_CASE(
    "RawMotionState::RawMotionState 0x0051E7F0 defaults pack to a bare zero flags word (RawMotionState::Pack "
    "0x0051ED10)",
    "[retail]") {
  const RawMotionState s;
  CHECK(s.current_holdkey == HoldKey::None);
  CHECK(s.current_style == 0x8000003Du);
  CHECK(s.forward_command == 0x41000003u);
  CHECK(s.forward_holdkey == HoldKey::Invalid);
  CHECK(s.sidestep_command == 0u);
  CHECK(s.turn_command == 0u);
  CHECK(packed(s) == std::vector<std::uint8_t>{0, 0, 0, 0});
}

TEST_CASE(
    "RawMotionState::ApplyMotion 0x0051EB60 fills the slot of the motion's axis (RawMotionState::AddAction 0x0051E840, "
    "RawMotionState::RemoveAction 0x0051E8A0)",
    "[retail]") {
  RawMotionState s;
  SECTION("keyboard parameters (SetHoldKey) leave the slot's hold key Invalid") {
    MovementParameters p = keyboard_params(1.0f);
    p.hold_key = static_cast<std::uint32_t>(HoldKey::Run);  // ignored under SetHoldKey
    s.apply_motion(command::WalkBackwards, p);
    CHECK(s.forward_command == command::WalkBackwards);
    CHECK(s.forward_holdkey == HoldKey::Invalid);
    s.apply_motion(command::TurnLeft, keyboard_params(1.0f));
    CHECK(s.turn_command == command::TurnLeft);  // raw keeps Left; adjust_motion happens later
    s.apply_motion(command::SideStepLeft, keyboard_params(0.5f));
    CHECK(s.sidestep_command == command::SideStepLeft);
    CHECK(s.sidestep_speed == 0.5f);
  }
  SECTION("without SetHoldKey the slot takes the hold key to apply") {
    s.apply_motion(command::WalkForward, mouse_params(HoldKey::Run, 1.25f));
    CHECK(s.forward_command == command::WalkForward);
    CHECK(s.forward_holdkey == HoldKey::Run);
    CHECK(s.forward_speed == 1.25f);
  }
  SECTION("RunForward never enters the raw forward slot") {
    s.apply_motion(command::RunForward, keyboard_params(2.0f));
    CHECK(s.forward_command == command::Ready);
    CHECK(s.forward_speed == 1.0f);
  }
  SECTION("a style resets forward to Ready only when it changes the style") {
    s.apply_motion(command::WalkForward, keyboard_params());
    s.apply_motion(command::NonCombat, keyboard_params());
    CHECK(s.forward_command == command::WalkForward);  // same style: untouched
    s.apply_motion(0x8000003C, keyboard_params());     // HandCombat
    CHECK(s.current_style == 0x8000003Cu);
    CHECK(s.forward_command == command::Ready);
  }
  SECTION("an action is appended with its stamp and the Autonomous bit") {
    MovementParameters p = keyboard_params(1.5f);
    p.action_stamp = 7;
    p.bitfield |= MovementParameters::kAutonomous;
    s.apply_motion(0x10000153, p);
    REQUIRE(s.actions.size() == 1);
    CHECK(s.actions[0] == RawMotionState::Action{0x10000153, 1.5f, 7, true});
    CHECK(s.remove_action() == 0x10000153u);  // RawMotionState::RemoveAction 0x0051E8A0
    CHECK(s.remove_action() == 0u);
  }
}

TEST_CASE("RawMotionState::RemoveMotion 0x0051E6E0 clears by axis, not by exact command", "[retail]") {
  RawMotionState s;
  s.apply_motion(command::TurnLeft, mouse_params(HoldKey::Run, 1.5f));
  s.apply_motion(command::SideStepLeft, mouse_params(HoldKey::Run, 0.5f));
  s.apply_motion(command::WalkBackwards, keyboard_params(0.75f));

  // Stopping TurnRight clears a TurnLeft; hold key and speed stay behind.
  s.remove_motion(command::TurnRight);
  CHECK(s.turn_command == 0u);
  CHECK(s.turn_holdkey == HoldKey::Run);
  CHECK(s.turn_speed == 1.5f);
  s.remove_motion(command::SideStepRight);
  CHECK(s.sidestep_command == 0u);
  CHECK(s.sidestep_speed == 0.5f);

  // A forward command is removed only when it is the one in the slot.
  s.remove_motion(command::WalkForward);
  CHECK(s.forward_command == command::WalkBackwards);
  s.remove_motion(command::WalkBackwards);
  CHECK(s.forward_command == command::Ready);
  CHECK(s.forward_speed == 1.0f);

  s.apply_motion(0x8000003C, keyboard_params());
  s.remove_motion(0x8000003C);
  CHECK(s.current_style == command::NonCombat);
}

TEST_CASE("RawMotionState::Pack 0x0051ED10 writes only non-default fields, speeds by bits", "[retail]") {
  RawMotionState s;
  s.current_holdkey = HoldKey::Run;
  s.forward_command = command::WalkForward;
  s.turn_command = command::TurnRight;
  s.turn_speed = -0.0f;                          // not the bits of 1.0: written
  s.add_action(0x10000153, 1.0f, 0x8001, true);  // stamp keeps 15 bits, autonomous is bit 15

  // flags: CurrentHoldKey 0x1, ForwardCommand 0x4, TurnCommand 0x100, TurnSpeed 0x400, one action << 11.
  const std::vector<std::uint8_t> expected = {
      0x05, 0x0D, 0x00, 0x00,  // 0x00000D05
      0x02, 0x00, 0x00, 0x00,  // current hold key Run
      0x05, 0x00, 0x00, 0x45,  // WalkForward
      0x0D, 0x00, 0x00, 0x65,  // TurnRight
      0x00, 0x00, 0x00, 0x80,  // -0.0f
      0x53, 0x01,              // command 0x0153
      0x01, 0x80,              // stamp 1 | autonomous
      0x00, 0x00, 0x80, 0x3F,  // speed 1.0
  };
  CHECK(packed(s) == expected);
}

TEST_CASE("CommandList::AddCommand 0x006B4B80 pushes at the head, duplicates included", "[retail]") {
  CommandList list;
  list.add_command(command::WalkForward, 1.0f, false);
  list.add_command(command::WalkBackwards, 0.5f, true);
  list.add_command(command::WalkForward, 1.0f, false);
  REQUIRE(list.entries().size() == 3);
  CHECK(list.get_head()->command == command::WalkForward);
  CHECK(list.entries()[1] == CommandListElement{command::WalkBackwards, 0.5f, true});
}

TEST_CASE("CommandList::RemoveCommand 0x006B4960 removes the newest match and says whether it was the head",
          "[retail]") {
  CommandList list;
  list.add_command(command::WalkForward, 1.0f, false);
  list.add_command(command::WalkBackwards, 1.0f, false);
  CHECK_FALSE(list.remove_command(command::WalkForward));  // removed, but it was not the head
  REQUIRE(list.entries().size() == 1);
  CHECK(list.get_head()->command == command::WalkBackwards);
  CHECK_FALSE(list.remove_command(command::TurnRight));  // absent
  CHECK(list.remove_command(command::WalkBackwards));
  CHECK(list.get_head() == nullptr);
}
