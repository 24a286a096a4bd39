// The raw-state half of CMotionInterp the interpreter keeps for the player:
// DoMotion 0x00528D20, StopMotion 0x00528530, SetHoldKey 0x00528BB0 and
// set_hold_run 0x00528B70, as MovePlayer 0x006B3F40 and SetHoldRun
// 0x006B3370 reach them.

#include <catch2/catch.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

using namespace dereth;
using namespace dereth::sim;

namespace {

struct World {
  core::ManualClock clock{core::Seconds{2.0}};
  SimContext context{clock};
  PhysicsObj player{context, 0x50000001, LocalId{1}};
  CommandInterpreter ci{context, [](std::vector<std::uint8_t>, std::uint16_t) {}, [] { return 1u; }};

  World() {
    context.player = &player;
    player.store_position(Position{0xA9B4001F, core::Frame({84.0f, 148.0f, 66.0f}, glm::quat(1, 0, 0, 0))});
    ci.take_control_from_server();
  }
};

}  // namespace

TEST_CASE("CMotionInterp::set_hold_run 0x00528B70 through CommandInterpreter::SetHoldRun 0x006B3370", "[retail]") {
  World w;
  CHECK(w.ci.raw_state().current_holdkey == HoldKey::None);
  w.ci.set_hold_run(true);
  CHECK(w.ci.hold_run());
  CHECK(w.ci.raw_state().current_holdkey == HoldKey::Run);
  w.ci.set_hold_run(false);
  CHECK(w.ci.raw_state().current_holdkey == HoldKey::None);

  SECTION("with run as the default, the run key walks") {
    w.context.toggle_run = true;
    w.ci.set_hold_run(false);
    CHECK(w.ci.raw_state().current_holdkey == HoldKey::Run);
    w.ci.set_hold_run(true);
    CHECK(w.ci.raw_state().current_holdkey == HoldKey::None);
  }
  SECTION("at autonomy 0 the raw hold key is left alone") {
    REQUIRE(w.ci.set_autonomy_level(0));
    w.ci.set_hold_run(true);
    CHECK(w.ci.hold_run());
    CHECK(w.ci.raw_state().current_holdkey == HoldKey::None);
  }
}

TEST_CASE(
    "CMotionInterp::DoMotion 0x00528D20 (raw half): keyboard motions keep the current hold key "
    "(CMotionInterp::SetHoldKey 0x00528BB0)",
    "[retail]") {
  World w;
  w.ci.set_hold_run(true);
  // MovePlayer's keyboard parameters: SetHoldKey with hold key Invalid, which
  // SetHoldKey ignores, so running survives the key press.
  w.ci.handle_keyboard_command(command::WalkForward, true);
  CHECK(w.ci.raw_state().current_holdkey == HoldKey::Run);
  CHECK(w.ci.raw_state().forward_holdkey == HoldKey::Invalid);
  CHECK(w.ci.action_stamp() == 1u);  // only actions advance it
}

TEST_CASE(
    "CMotionInterp::SetHoldKey 0x00528BB0 (raw half): autorun's hold key is on the slot, not the current key "
    "(CommandInterpreter::MovePlayer 0x006B3F40)",
    "[retail]") {
  World w;
  // Autorun goes through MovePlayer's mouse form: SetHoldKey cleared, so the
  // current hold key stays None while the forward slot says Run.
  w.ci.toggle_auto_run();
  CHECK(w.ci.raw_state().current_holdkey == HoldKey::None);
  CHECK(w.ci.raw_state().forward_holdkey == HoldKey::Run);
  const auto packed = w.ci.raw_state().pack();
  CHECK(packed.forward_hold_key == std::optional<std::uint32_t>(2u));
  CHECK_FALSE(packed.current_hold_key.has_value());
}

TEST_CASE("CMotionInterp::StopMotion 0x00528530 (raw half): the released motion leaves the raw state", "[retail]") {
  World w;
  w.ci.handle_keyboard_command(command::SideStepLeft, true);
  REQUIRE(w.ci.raw_state().sidestep_command == command::SideStepLeft);
  w.ci.handle_keyboard_command(command::SideStepLeft, false);
  CHECK(w.ci.raw_state().sidestep_command == 0u);
  CHECK(w.ci.raw_state().pack().flags() == 0u);
}
