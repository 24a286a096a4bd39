// The window's movement keys (README, "The demo"): which retail
// MotionCommand each key hands the CommandInterpreter.
#include <catch2/catch.hpp>

#include "dereth/app/presenters.hpp"
#include "dereth/sim/command_interpreter.hpp"

using dereth::app::motion_command_for_key;
namespace cmd = dereth::sim::command;

TEST_CASE("motion_command_for_key maps WASD, the arrows, Z/X and Shift to retail motion commands", "[app][controls]") {
  // SDL keycodes: letters are their lower-case ASCII; arrows are scancode | 1<<30.
  constexpr std::int32_t kUp = 0x40000052, kDown = 0x40000051, kLeft = 0x40000050, kRight = 0x4000004F;
  constexpr std::int32_t kLeftShift = 0x400000E1;
  CHECK(motion_command_for_key('w') == cmd::WalkForward);
  CHECK(motion_command_for_key(kUp) == cmd::WalkForward);
  CHECK(motion_command_for_key('s') == cmd::WalkBackwards);
  CHECK(motion_command_for_key(kDown) == cmd::WalkBackwards);
  CHECK(motion_command_for_key('a') == cmd::TurnLeft);
  CHECK(motion_command_for_key(kLeft) == cmd::TurnLeft);
  CHECK(motion_command_for_key('d') == cmd::TurnRight);
  CHECK(motion_command_for_key(kRight) == cmd::TurnRight);
  CHECK(motion_command_for_key('z') == cmd::SideStepLeft);
  CHECK(motion_command_for_key('x') == cmd::SideStepRight);
  CHECK(motion_command_for_key(kLeftShift) == cmd::HoldRun);
  // C switches the camera, F-keys and Escape are the window's own.
  CHECK_FALSE(motion_command_for_key('c').has_value());
  CHECK_FALSE(motion_command_for_key(27).has_value());
}
