// CommandInterpreter::ShouldSendPositionEvent 0x006B45E0 and the two
// comparisons it makes: Frame::is_equal 0x00424C30 and Plane::operator==
// 0x006B3DD0.

#include <catch2/catch.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

using namespace dereth;
using namespace dereth::sim;

namespace {

struct World {
  core::ManualClock clock{core::Seconds{50.0}};
  SimContext context{clock};
  PhysicsObj player{context, 0x50000001, LocalId{1}};
  int sent = 0;
  CommandInterpreter ci{context, [this](std::vector<std::uint8_t>, std::uint16_t) { ++sent; }, [] { return 1u; }};

  World() {
    context.player = &player;
    place({84.0f, 148.0f, 66.0f});
    player.set_transient_state(transient_state::Contact | transient_state::OnWalkable);
    player.set_contact_plane(Plane{{0, 0, 1}, -66.0f});
  }
  void place(glm::vec3 origin, std::uint32_t cell = 0xA9B4001F, glm::quat q = glm::quat(1, 0, 0, 0)) {
    player.store_position(Position{cell, core::Frame(origin, q)});
  }
  void at(double seconds) { clock.set(core::Seconds{seconds}); }
};

}  // namespace

TEST_CASE(
    "CommandInterpreter::ShouldSendPositionEvent 0x006B45E0 starts from the constructor's cell 0 and time now "
    "(CommandInterpreter::CommandInterpreter 0x006B3E40)",
    "[retail]") {
  World w;
  // last_sent_position_time = Timer::cur_time at construction; the interval has not passed,
  // but the last sent cell (0) differs from the player's: send at once.
  CHECK(w.ci.last_sent_position_time() == core::Seconds{50.0});
  CHECK(w.ci.should_send_position_event());
  w.ci.send_position_event();
  CHECK_FALSE(w.ci.should_send_position_event());
}

TEST_CASE(
    "CommandInterpreter::ShouldSendPositionEvent 0x006B45E0 within the interval: a new cell or a new contact plane",
    "[retail]") {
  World w;
  w.ci.send_position_event();  // at 50.0
  w.at(50.5);
  SECTION("a moved frame in the same cell waits for the interval") {
    w.place({90.0f, 148.0f, 66.0f});
    CHECK_FALSE(w.ci.should_send_position_event());
  }
  SECTION("a new cell sends at once") {
    w.place({90.0f, 170.0f, 66.0f});  // cell 0x20
    REQUIRE(w.player.position().objcell_id == 0xA9B40020u);
    CHECK(w.ci.should_send_position_event());
  }
  SECTION("a new contact plane sends at once") {
    w.player.set_contact_plane(Plane{{0, 0.6f, 0.8f}, -66.0f});
    CHECK(w.ci.should_send_position_event());
  }
  SECTION("exactly one interval later is still within it (the test is strictly later)") {
    w.at(51.0);
    w.place({90.0f, 148.0f, 66.0f});
    CHECK_FALSE(w.ci.should_send_position_event());
  }
}

TEST_CASE(
    "CommandInterpreter::ShouldSendPositionEvent 0x006B45E0 after the interval: only a move counts, not the plane",
    "[retail]") {
  World w;
  w.ci.send_position_event();  // at 50.0
  w.at(51.25);
  SECTION("standing still sends nothing, ever") {
    CHECK_FALSE(w.ci.should_send_position_event());
    w.at(500.0);
    CHECK_FALSE(w.ci.should_send_position_event());
  }
  SECTION("a changed contact plane alone is ignored once the interval is over") {
    w.player.set_contact_plane(Plane{{0, 0.6f, 0.8f}, -66.0f});
    CHECK_FALSE(w.ci.should_send_position_event());
  }
  SECTION("a moved frame sends") {
    w.place({84.0f, 148.5f, 66.0f});
    CHECK(w.ci.should_send_position_event());
  }
  SECTION("a turned frame sends") {
    w.place({84.0f, 148.0f, 66.0f}, 0xA9B4001F, glm::quat(0.70710677f, 0, 0, 0.70710677f));
    CHECK(w.ci.should_send_position_event());
  }
}

TEST_CASE("CommandInterpreter::ShouldSendPositionEvent 0x006B45E0 needs an active interpreter at autonomy 2",
          "[retail]") {
  World w;
  REQUIRE(w.ci.should_send_position_event());
  SECTION("autonomy 1") {
    REQUIRE(w.ci.set_autonomy_level(1));
    CHECK_FALSE(w.ci.should_send_position_event());
  }
  SECTION("disabled") {
    w.ci.set_enabled(false);
    CHECK_FALSE(w.ci.should_send_position_event());
  }
  SECTION("no player") {
    w.context.player = nullptr;
    CHECK_FALSE(w.ci.should_send_position_event());
  }
}

TEST_CASE(
    "CommandInterpreter::ShouldSendPositionEvent 0x006B45E0: a MoveToState postpones, without re-basing the position "
    "(CommandInterpreter::SendMovementEvent 0x006B4680)",
    "[retail]") {
  World w;
  w.ci.send_position_event();  // at 50.0, position (84,148,66)
  w.at(50.9);
  w.place({86.0f, 148.0f, 66.0f});
  w.ci.send_movement_event();  // last time 50.9, last position still (84,148,66)
  w.at(51.5);
  // Without the MoveToState, 50.0 + 1 < 51.5 and the move would be due; now 50.9 + 1 is not.
  CHECK_FALSE(w.ci.should_send_position_event());
  w.at(51.95);
  CHECK(w.ci.should_send_position_event());  // the move since the last AutonomousPosition is reported
}

TEST_CASE(
    "Frame::is_equal 0x00424C30: origin within the float epsilon inclusive, quaternion strictly within the double "
    "(Frame::is_quaternion_equal 0x00424C70)",
    "[retail]") {
  const float eps = 0.00019999999f;  // 0x3951B717, slightly above the double 0.00019999999
  const core::Frame base({10.0f, 20.0f, 30.0f}, glm::quat(1, 0, 0, 0));
  SECTION("origin differing by exactly the float epsilon is equal") {
    core::Frame g({0.0f, 20.0f, 30.0f}, glm::quat(1, 0, 0, 0));
    core::Frame h({eps, 20.0f, 30.0f}, glm::quat(1, 0, 0, 0));
    CHECK(g.is_equal(h));
    core::Frame k({eps * 1.01f, 20.0f, 30.0f}, glm::quat(1, 0, 0, 0));
    CHECK_FALSE(g.is_equal(k));
  }
  SECTION("a quaternion component differing by the same float epsilon is not equal") {
    // w^2 + z^2 rounds to 1 in float, so the quaternion is kept as given.
    core::Frame q({10.0f, 20.0f, 30.0f}, glm::quat(1, 0, 0, eps));
    REQUIRE(q.orientation().z == eps);
    CHECK_FALSE(base.is_equal(q));
    core::Frame r({10.0f, 20.0f, 30.0f}, glm::quat(1, 0, 0, 0.0001f));
    CHECK(base.is_equal(r));
  }
}

TEST_CASE("Plane::operator== 0x006B3DD0 compares the normal and the distance within 0.00019999999", "[retail]") {
  const float eps = 0.00019999999f;
  const Plane a{{0, 0, 1}, 5.0f};
  CHECK(plane_equal(a, Plane{{0.0001f, 0, 1}, 5.0001f}));
  CHECK_FALSE(plane_equal(a, Plane{{0.0003f, 0, 1}, 5.0f}));
  CHECK_FALSE(plane_equal(a, Plane{{0, 0, 1}, 5.0003f}));
  // The float epsilon is above the double literal: a normal component off by it is unequal.
  CHECK_FALSE(plane_equal(Plane{{0, 0, 1}, 0}, Plane{{eps, 0, 1}, 0}));
  CHECK_FALSE(plane_equal(Plane{{0, 0, 1}, 0}, Plane{{0, 0, 1}, eps}));
}
