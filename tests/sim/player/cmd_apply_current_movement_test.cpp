// CommandInterpreter::ApplyCurrentMovement 0x006B3430 (with
// ApplyListHeadMovement 0x006B3510), BookkeepCommandAndModifyIfNecessary
// 0x006B3AD0's jump case, ClearAllCommands 0x006B31A0, IsActive 0x006B3CE0,
// IsStandingStill 0x006B3CA0 and ToggleAutoRun 0x006B3CC0.

#include <catch2/catch.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

using namespace dereth;
using namespace dereth::sim;

namespace {

struct World {
  core::ManualClock clock{core::Seconds{2.0}};
  SimContext context{clock};
  PhysicsObj player{context, 0x50000001, LocalId{1}};
  std::vector<std::uint32_t> actions;
  CommandInterpreter ci{
      context,
      [this](std::vector<std::uint8_t> b, std::uint16_t) { actions.push_back(protocol::peek_wrapped_type(b)); },
      [] { return 1u; }};

  World() {
    context.player = &player;
    player.store_position(Position{0xA9B4001F, core::Frame({84.0f, 148.0f, 66.0f}, glm::quat(1, 0, 0, 0))});
    player.set_transient_state(transient_state::Contact | transient_state::OnWalkable);
  }
};

}  // namespace

TEST_CASE(
    "CommandInterpreter::ApplyCurrentMovement 0x006B3430 re-applies each list's head "
    "(CommandInterpreter::ApplyListHeadMovement 0x006B3510)",
    "[retail]") {
  World w;
  w.ci.handle_keyboard_command(command::WalkBackwards, true);
  w.ci.handle_keyboard_command(command::TurnLeft, true);
  w.ci.handle_keyboard_command(command::SideStepRight, true);
  const RawMotionState before = w.ci.raw_state();
  w.ci.apply_current_movement();
  CHECK(w.ci.raw_state() == before);
  CHECK(before.forward_command == command::WalkBackwards);
  CHECK(before.turn_command == command::TurnLeft);
  CHECK(before.sidestep_command == command::SideStepRight);
}

TEST_CASE("CommandInterpreter::ApplyCurrentMovement 0x006B3430 with no keys: Ready, and both turn and sidestep stopped",
          "[retail]") {
  World w;
  w.ci.take_control_from_server();
  // A turn and a sidestep that no list holds (left over in the raw state).
  w.ci.handle_keyboard_command(command::TurnRight, true);
  w.ci.handle_keyboard_command(command::SideStepLeft, true);
  w.ci.clear_all_commands();  // ClearAllCommands 0x006B31A0: the lists only
  CHECK(w.ci.turn_list().get_head() == nullptr);
  CHECK(w.ci.sidestep_list().get_head() == nullptr);
  REQUIRE(w.ci.raw_state().turn_command == command::TurnRight);
  REQUIRE(w.ci.raw_state().sidestep_command == command::SideStepLeft);

  w.ci.apply_current_movement();
  // Stopping SideStepRight and TurnRight clears the slots whatever their direction.
  CHECK(w.ci.raw_state().turn_command == 0u);
  CHECK(w.ci.raw_state().sidestep_command == 0u);
  CHECK(w.ci.raw_state().forward_command == command::Ready);
  CHECK(w.ci.is_standing_still());  // IsStandingStill 0x006B3CA0
}

TEST_CASE(
    "CommandInterpreter::BookkeepCommandAndModifyIfNecessary 0x006B3AD0: a Jump key moves nothing and sends nothing "
    "(CommandInterpreter::MovePlayer 0x006B3F40)",
    "[retail]") {
  World w;
  w.ci.handle_keyboard_command(command::Jump, true);
  CHECK(w.actions.empty());  // HandleKeyboardCommand sends no MoveToState after a Jump
  CHECK(w.ci.substate_list().get_head() == nullptr);
  CHECK(w.ci.raw_state().forward_command == command::Ready);
}

TEST_CASE("CommandInterpreter::IsActive 0x006B3CE0: a disabled interpreter ignores keys", "[retail]") {
  World w;
  w.ci.set_enabled(false);
  CHECK_FALSE(w.ci.is_active());
  w.ci.handle_keyboard_command(command::WalkForward, true);
  CHECK(w.actions.empty());
  CHECK(w.ci.controlled_by_server());
  w.ci.set_enabled(true);
  w.context.player = nullptr;
  CHECK_FALSE(w.ci.is_active());
}

TEST_CASE("CommandInterpreter::ToggleAutoRun 0x006B3CC0 and SetAutoRun 0x006B4850: autorun and back", "[retail]") {
  World w;
  w.ci.toggle_auto_run();
  CHECK(w.ci.auto_run());
  CHECK_FALSE(w.ci.controlled_by_server());  // turning autorun on takes control
  CHECK(w.ci.raw_state().forward_command == command::WalkForward);
  w.ci.toggle_auto_run();
  CHECK_FALSE(w.ci.auto_run());
  CHECK(w.ci.raw_state().forward_command == command::Ready);
  // Setting the state it already has does nothing (no re-application).
  w.ci.handle_keyboard_command(command::TurnRight, true);
  w.ci.set_auto_run(false, true);
  CHECK(w.ci.raw_state().turn_command == command::TurnRight);
  CHECK(w.actions == std::vector<std::uint32_t>{0xF61C});
}
