// Who moves the player: CommandInterpreter::UsePositionFromServer 0x006B3B40,
// SetAutonomyLevel 0x006B3BB0, LoseControlToServer 0x006B3170 and
// TakeControlFromServer 0x006B32D0, as the SmartBox consults them.

#include <catch2/catch.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/object/smart_box.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

using namespace dereth;
using namespace dereth::sim;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;

struct World {
  core::ManualClock clock{core::Seconds{3.0}};
  SimContext context{clock};
  int sent = 0;
  CommandInterpreter ci{context, [this](std::vector<std::uint8_t>, std::uint16_t) { ++sent; }, [] { return 9u; }};
  SmartBox box{context};

  World() {
    context.set_controller(&ci);
    box.handle(protocol::Message{protocol::PlayerCreate{kPlayer}});
    protocol::CreateObject create;
    create.guid = kPlayer;
    create.physics.position = protocol::Position{0xA9B4001F, {84.0f, 148.0f, 66.0f}, {}};
    create.physics.timestamps[static_cast<std::size_t>(protocol::TimestampIndex::Instance)] = 1;
    create.weenie.item_type = 0x10;
    create.weenie.object_description_flags = 0x8;
    box.handle(protocol::Message{create});
  }
  PhysicsObj& player() { return *context.player; }
  protocol::MovementEvent movement(std::uint16_t movement_ts, std::uint16_t control_ts, bool autonomous) {
    protocol::MovementEvent m;
    m.guid = kPlayer;
    m.instance_ts = 1;
    m.movement_ts = movement_ts;
    m.server_control_ts = control_ts;
    m.is_autonomous = autonomous ? 1 : 0;
    m.data.current_style = 0x3D;
    m.data.payload = protocol::InterpretedMovement{};
    return m;
  }
};

}  // namespace

TEST_CASE("CommandInterpreter::UsePositionFromServer 0x006B3B40 is autonomy level != 2", "[retail]") {
  World w;
  CHECK(w.ci.autonomy_level() == 2u);  // the constructor's level
  CHECK_FALSE(w.ci.server_controls_player());
  CHECK(w.ci.keep_heading_on_interpolate());
  REQUIRE(w.ci.set_autonomy_level(1));
  CHECK(w.ci.server_controls_player());
  CHECK(w.ci.keep_heading_on_interpolate());
  REQUIRE(w.ci.set_autonomy_level(0));
  CHECK(w.ci.server_controls_player());
  CHECK_FALSE(w.ci.keep_heading_on_interpolate());
}

TEST_CASE("CommandInterpreter::SetAutonomyLevel 0x006B3BB0 refuses levels above 2", "[retail]") {
  World w;
  CHECK_FALSE(w.ci.set_autonomy_level(3));
  CHECK(w.ci.autonomy_level() == 2u);
  CHECK(w.ci.set_autonomy_level(2));
}

TEST_CASE(
    "CommandInterpreter::UsePositionFromServer 0x006B3B40: at autonomy 2 a server VectorUpdate leaves the player "
    "(SmartBox::DoVectorUpdate 0x004521C0)",
    "[retail]") {
  World w;
  protocol::VectorUpdate v;
  v.guid = kPlayer;
  v.velocity = {0.0f, 0.0f, 9.0f};
  v.instance_ts = 1;
  v.vector_ts = 1;
  CHECK(w.box.handle(protocol::Message{v}).verdict == Verdict::Ignored);
  CHECK(w.player().velocity() == glm::vec3(0.0f));

  REQUIRE(w.ci.set_autonomy_level(1));
  v.vector_ts = 2;
  CHECK(w.box.handle(protocol::Message{v}).verdict == Verdict::Applied);
  CHECK(w.player().velocity() == glm::vec3(0.0f, 0.0f, 9.0f));
}

TEST_CASE("CommandInterpreter::LoseControlToServer 0x006B3170 on a server Movement for the player, autorun stops",
          "[retail]") {
  World w;
  w.ci.handle_keyboard_command(command::AutoRun, true);
  REQUIRE_FALSE(w.ci.controlled_by_server());
  REQUIRE(w.ci.auto_run());

  // The client's own (autonomous) movement echoed back changes nothing.
  w.box.handle(protocol::Message{w.movement(1, 0, true)});
  CHECK_FALSE(w.ci.controlled_by_server());

  w.box.handle(protocol::Message{w.movement(2, 1, false)});
  CHECK(w.ci.controlled_by_server());
  CHECK_FALSE(w.ci.auto_run());

  SECTION("at autonomy 0 the interpreter never takes or loses control") {
    w.ci.take_control_from_server();
    REQUIRE_FALSE(w.ci.controlled_by_server());
    REQUIRE(w.ci.set_autonomy_level(0));
    w.ci.lose_control_to_server();
    CHECK_FALSE(w.ci.controlled_by_server());
  }
}

TEST_CASE("CommandInterpreter::TakeControlFromServer 0x006B32D0 stops the raw motion, then re-applies the held keys",
          "[retail]") {
  World w;
  w.ci.handle_keyboard_command(command::TurnLeft, true);
  w.ci.handle_keyboard_command(command::WalkForward, true);
  w.ci.lose_control_to_server();
  w.ci.handle_keyboard_command(command::TurnLeft, false);  // released while the server drives
  REQUIRE(w.ci.raw_state().turn_command == command::TurnLeft);

  w.player().set_last_move_was_autonomous(false);
  w.ci.take_control_from_server();
  CHECK_FALSE(w.ci.controlled_by_server());
  CHECK(w.player().last_move_was_autonomous());
  CHECK(w.ci.raw_state().forward_command == command::WalkForward);
  CHECK(w.ci.raw_state().turn_command == 0u);  // the released key is gone after the stop
  // Taking control twice does nothing more.
  w.ci.take_control_from_server();
  CHECK_FALSE(w.ci.controlled_by_server());
}
