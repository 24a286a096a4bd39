// CommandInterpreter::PlayerTeleported 0x006B32B0, the interpreter slot
// SmartBox::PlayerPositionUpdated 0x00453870 calls on a teleport
// (`cmdinterp->vfptr[9].OnLoseFocus`: 9 entries of IInputActionCallbackVtbl's
// three, then the third, is slot 29 of CommandInterpreter's vtable).

#include <catch2/catch.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

using namespace dereth;
using namespace dereth::sim;

namespace {

struct World {
  core::ManualClock clock{core::Seconds{2.0}};
  SimContext context{clock};
  PhysicsObj player{context, 0x50000001, LocalId{1}};
  std::vector<std::vector<std::uint8_t>> sent;
  CommandInterpreter ci{context, [this](std::vector<std::uint8_t> b, std::uint16_t) { sent.push_back(std::move(b)); },
                        [] { return 1u; }};

  World() {
    context.player = &player;
    context.set_controller(&ci);
    player.store_position(Position{0xA9B4001F, core::Frame({84.0f, 148.0f, 66.0f}, glm::quat(1, 0, 0, 0))});
    player.set_transient_state(transient_state::Contact | transient_state::OnWalkable);
  }
  ~World() { context.set_controller(nullptr); }

  [[nodiscard]] std::vector<std::uint32_t> actions() const {
    std::vector<std::uint32_t> out;
    for (const auto& m : sent) out.push_back(protocol::peek_wrapped_type(m));
    return out;
  }
};

}  // namespace

TEST_CASE("CommandInterpreter::PlayerTeleported 0x006B32B0 turns autorun off and sends a MoveToState", "[retail]") {
  World w;
  w.ci.toggle_auto_run();
  REQUIRE(w.ci.auto_run());
  REQUIRE(w.ci.raw_state().forward_command == command::WalkForward);
  w.sent.clear();

  // Through the PlayerController seam, as the SmartBox calls it.
  w.context.controller().player_teleported(w.player);
  // SetAutoRun(0, 1): autorun off and ApplyCurrentMovement (Ready again).
  CHECK_FALSE(w.ci.auto_run());
  CHECK(w.ci.raw_state().forward_command == command::Ready);
  // SendMovementEvent: one MoveToState with that state.
  REQUIRE(w.actions() == std::vector<std::uint32_t>{0xF61C});
  const auto m = protocol::decode_move_to_state(w.sent[0]);
  REQUIRE(m);
  CHECK(m->raw == w.ci.raw_state().pack());
}

TEST_CASE("CommandInterpreter::PlayerTeleported 0x006B32B0 without autorun still sends the MoveToState", "[retail]") {
  World w;
  w.ci.handle_keyboard_command(command::TurnRight, true);
  w.sent.clear();
  w.ci.player_teleported();
  // SetAutoRun changes nothing (autorun was off, so no re-application); the
  // turn key is still held.
  CHECK(w.ci.raw_state().turn_command == command::TurnRight);
  CHECK(w.actions() == std::vector<std::uint32_t>{0xF61C});

  SECTION("at autonomy level 0 SendMovementEvent sends nothing") {
    REQUIRE(w.ci.set_autonomy_level(0));
    w.sent.clear();
    w.ci.player_teleported();
    CHECK(w.sent.empty());
  }
}
