// CommandInterpreter::UseTime 0x006B3BF0: the per-frame AutonomousPosition
// schedule and taking control back from the server while keys are held.

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
  core::ManualClock clock{core::Seconds{100.0}};
  SimContext context{clock};
  PhysicsObj player{context, 0x50000001, LocalId{1}};
  std::vector<std::pair<double, std::uint32_t>> sent;  // (time, action)
  CommandInterpreter ci{context,
                        [this](std::vector<std::uint8_t> b, std::uint16_t) {
                          sent.emplace_back(clock.now().count(), protocol::peek_wrapped_type(b));
                        },
                        [] { return 1u; }};

  World() {
    context.player = &player;
    place(84.0f);
    player.set_transient_state(transient_state::Contact | transient_state::OnWalkable);
  }
  void place(float y) {
    player.store_position(Position{0xA9B4001F, core::Frame({84.0f, y, 66.0f}, glm::quat(1, 0, 0, 0))});
  }
  std::vector<double> position_times() const {
    std::vector<double> out;
    for (const auto& [t, a] : sent) {
      if (a == 0xF753) out.push_back(t);
    }
    return out;
  }
};

}  // namespace

TEST_CASE("CommandInterpreter::UseTime 0x006B3BF0 sends an AutonomousPosition about once a second while moving",
          "[retail]") {
  World w;
  // Walking north 0.5 m every quarter second for three seconds.
  for (int k = 0; k <= 12; ++k) {
    w.clock.set(core::Seconds{100.0 + 0.25 * k});
    w.place(144.0f + 0.5f * static_cast<float>(k));
    w.ci.use_time();
  }
  // At once (the constructor's cell 0), then at the first frame strictly
  // after each last send + 1 s.
  CHECK(w.position_times() == std::vector<double>{100.0, 101.25, 102.5});
}

TEST_CASE("CommandInterpreter::UseTime 0x006B3BF0 sends nothing while the player stands still", "[retail]") {
  World w;
  w.ci.use_time();
  REQUIRE(w.position_times().size() == 1);
  for (int k = 1; k <= 40; ++k) {
    w.clock.set(core::Seconds{100.0 + 0.25 * k});
    w.ci.use_time();
  }
  CHECK(w.position_times().size() == 1);
}

TEST_CASE("CommandInterpreter::UseTime 0x006B3BF0 airborne: no AutonomousPosition (SendPositionEvent's gate)",
          "[retail]") {
  World w;
  w.player.set_transient_state(0);
  for (int k = 0; k <= 8; ++k) {
    w.clock.set(core::Seconds{100.0 + 0.5 * k});
    w.place(144.0f + static_cast<float>(k));
    w.ci.use_time();
  }
  CHECK(w.position_times().empty());
}

TEST_CASE(
    "CommandInterpreter::UseTime 0x006B3BF0 takes control back from the server while a key is held "
    "(CommandInterpreter::TakeControlFromServer 0x006B32D0)",
    "[retail]") {
  World w;
  w.ci.handle_keyboard_command(command::WalkForward, true);
  REQUIRE_FALSE(w.ci.controlled_by_server());
  w.ci.lose_control_to_server();
  REQUIRE(w.ci.controlled_by_server());
  w.player.set_last_move_was_autonomous(false);

  w.ci.use_time();
  CHECK_FALSE(w.ci.controlled_by_server());
  CHECK(w.player.last_move_was_autonomous());
  // TakeControlFromServer re-applies the held key to the raw state.
  CHECK(w.ci.raw_state().forward_command == command::WalkForward);

  SECTION("no key held: the server keeps control") {
    w.ci.handle_keyboard_command(command::WalkForward, false);
    w.ci.lose_control_to_server();
    w.ci.use_time();
    CHECK(w.ci.controlled_by_server());
  }
}
