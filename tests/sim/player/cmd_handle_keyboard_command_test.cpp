// CommandInterpreter::HandleKeyboardCommand 0x006B3690 with its bookkeeping
// (AddCommand 0x006B39A0, NukeCommand 0x006B3A20, WhichList 0x006B3950,
// ApplyHoldKeysToCommand 0x006B3340) and MovePlayer 0x006B3F40: key presses
// and releases become the raw state a MoveToState carries.

#include <catch2/catch.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

using namespace dereth;
using namespace dereth::sim;

namespace {

struct World {
  core::ManualClock clock{core::Seconds{1.0}};
  SimContext context{clock};
  PhysicsObj player{context, 0x50000001, LocalId{1}};
  std::vector<protocol::MoveToState> moves;
  std::uint32_t next_stamp = 1;
  CommandInterpreter ci{context,
                        [this](std::vector<std::uint8_t> b, std::uint16_t q) {
                          REQUIRE(q == 3);
                          auto m = protocol::decode_move_to_state(b);
                          REQUIRE(m);
                          moves.push_back(*m);
                        },
                        [this] { return next_stamp++; }};

  World() {
    context.player = &player;
    player.store_position(Position{0xA9B4001F, core::Frame({84.0f, 148.0f, 66.0f}, glm::quat(1, 0, 0, 0))});
    player.set_transient_state(transient_state::Contact | transient_state::OnWalkable);
  }
  void press(std::uint32_t c) { ci.handle_keyboard_command(c, true); }
  void release(std::uint32_t c) { ci.handle_keyboard_command(c, false); }
};

}  // namespace

TEST_CASE(
    "CommandInterpreter::HandleKeyboardCommand 0x006B3690 takes control, applies the key and sends a MoveToState "
    "(CommandInterpreter::MovePlayer 0x006B3F40)",
    "[retail]") {
  World w;
  REQUIRE(w.ci.controlled_by_server());  // the constructor's state
  w.press(command::WalkForward);
  CHECK_FALSE(w.ci.controlled_by_server());
  CHECK(w.player.last_move_was_autonomous());
  REQUIRE(w.moves.size() == 1);
  CHECK(w.moves[0].sequence == 1u);
  CHECK(w.moves[0].raw.forward_command == command::WalkForward);
  CHECK(w.moves[0].raw.flags() == 0x004u);
  CHECK(w.ci.substate_list().get_head()->command == command::WalkForward);

  w.release(command::WalkForward);
  REQUIRE(w.moves.size() == 2);
  CHECK(w.moves[1].sequence == 2u);
  CHECK(w.moves[1].raw.flags() == 0u);  // back to the defaults: Ready
  CHECK(w.ci.substate_list().get_head() == nullptr);
}

TEST_CASE(
    "CommandInterpreter::HandleKeyboardCommand 0x006B3690 the newest key on an axis wins, the older resumes "
    "(CommandInterpreter::NukeCommand 0x006B3A20)",
    "[retail]") {
  World w;
  w.press(command::WalkForward);
  w.press(command::WalkBackwards);
  CHECK(w.ci.raw_state().forward_command == command::WalkBackwards);

  // Releasing the older key (not the head): the list forgets it, the raw
  // state stays, and a MoveToState still goes out (NukeCommand answered 0).
  const auto before = w.moves.size();
  w.release(command::WalkForward);
  REQUIRE(w.moves.size() == before + 1);
  CHECK(w.moves.back().raw.forward_command == command::WalkBackwards);
  CHECK(w.ci.substate_list().entries().size() == 1);

  // Turn keys: releasing the head hands over to the key below it.
  w.press(command::TurnRight);
  w.press(command::TurnLeft);
  CHECK(w.ci.raw_state().turn_command == command::TurnLeft);
  w.release(command::TurnLeft);
  CHECK(w.ci.raw_state().turn_command == command::TurnRight);
  CHECK(w.moves.back().raw.turn_command == command::TurnRight);
}

TEST_CASE(
    "CommandInterpreter::ApplyHoldKeysToCommand 0x006B3340 turns become sidesteps while sidestep is held "
    "(CommandInterpreter::SetHoldSidestep 0x006B3410)",
    "[retail]") {
  World w;
  w.press(command::HoldSidestep);
  w.press(command::TurnLeft);
  CHECK(w.ci.raw_state().sidestep_command == command::SideStepLeft);
  CHECK(w.ci.raw_state().turn_command == 0u);
  CHECK(w.ci.turn_list().get_head()->command == command::TurnLeft);  // the list keeps the key as pressed
  CHECK(w.moves.back().raw.sidestep_command == command::SideStepLeft);

  // Letting go of sidestep stops the sidestep and turns again (SetHoldSidestep 0x006B3410).
  w.release(command::HoldSidestep);
  CHECK(w.ci.raw_state().sidestep_command == 0u);
  CHECK(w.ci.raw_state().turn_command == command::TurnLeft);
  CHECK(w.moves.back().raw.turn_command == command::TurnLeft);
}

TEST_CASE(
    "CommandInterpreter::HandleKeyboardCommand 0x006B3690 run is a hold key, standing still sends nothing for it "
    "(CommandInterpreter::SetHoldRun 0x006B3370)",
    "[retail]") {
  World w;
  w.press(command::HoldRun);  // standing still: no MoveToState
  CHECK(w.moves.empty());
  CHECK(w.ci.raw_state().current_holdkey == HoldKey::Run);
  w.press(command::WalkForward);
  REQUIRE(w.moves.size() == 1);
  CHECK(w.moves[0].raw.current_hold_key == 2u);
  w.release(command::HoldRun);  // moving: the change goes out
  REQUIRE(w.moves.size() == 2);
  CHECK_FALSE(w.moves[1].raw.current_hold_key.has_value());  // None is the default
  CHECK(w.moves[1].raw.forward_command == command::WalkForward);
}

TEST_CASE(
    "CommandInterpreter::HandleKeyboardCommand 0x006B3690 while the server drives, a release only updates the list "
    "(CommandInterpreter::LoseControlToServer 0x006B3170)",
    "[retail]") {
  World w;
  w.press(command::WalkForward);
  const auto sent = w.moves.size();
  w.ci.lose_control_to_server();  // a server Movement arrived
  CHECK(w.ci.controlled_by_server());
  w.release(command::WalkForward);
  CHECK(w.moves.size() == sent);
  CHECK(w.ci.substate_list().get_head() == nullptr);
  CHECK(w.ci.raw_state().forward_command == command::WalkForward);  // nothing was stopped
}

TEST_CASE("CommandInterpreter::WhichList 0x006B3950 and AddCommand 0x006B39A0: forward keys, turns and sidesteps",
          "[retail]") {
  World w;
  w.press(command::SideStepRight);
  w.press(command::TurnRight);
  w.press(command::WalkForward);
  CHECK(w.ci.sidestep_list().get_head()->command == command::SideStepRight);
  CHECK(w.ci.turn_list().get_head()->command == command::TurnRight);
  CHECK(w.ci.substate_list().get_head()->command == command::WalkForward);
  const auto& raw = w.ci.raw_state();
  CHECK(raw.forward_command == command::WalkForward);
  CHECK(raw.turn_command == command::TurnRight);
  CHECK(raw.sidestep_command == command::SideStepRight);
  CHECK(w.moves.back().raw.flags() == (0x004u | 0x020u | 0x100u));
}
