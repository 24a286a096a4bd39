// The scenario additions of the demo: a Movement's one-shot action
// (`action=`, `action-speed=`), `loop ... from=`, and what the server does
// with them (action stamps, what repeats), plus the teleport's Teleport
// stamps (docs/scenario.md).
#include <catch2/catch.hpp>

#include <string>

#include "dereth/core/timestamp.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/scenario/loopback.hpp"
#include "dereth/scenario/scenario.hpp"

#include "support/login_complete_stand_in.hpp"

using namespace dereth::scenario;
namespace protocol = dereth::protocol;
using TI = protocol::TimestampIndex;

namespace {

const char* kHeader = R"(account a password=b
character 0x50000001 Ann
)";

Scenario parse(const std::string& body) {
  auto s = parse_scenario(std::string(kHeader) + body, "t.scenario");
  if (!s) FAIL(s.error().message());
  return *s;
}

std::string error_of(const std::string& body) {
  auto s = parse_scenario(std::string(kHeader) + body, "bad.scenario");
  REQUIRE_FALSE(s.has_value());
  return s.error().message();
}

const protocol::InterpretedMotionState& motion_state(const StreamEvent& e) {
  const auto* m = std::get_if<protocol::MovementEvent>(&e.message);
  REQUIRE(m != nullptr);
  const auto* im = std::get_if<protocol::InterpretedMovement>(&m->data.payload);
  REQUIRE(im != nullptr);
  return im->state;
}

// Plays `body` through the Loopback to `until` seconds; the decoded messages.
std::vector<protocol::Message> play(const std::string& body, double until) {
  auto loop = Loopback::create(parse(body));
  REQUIRE(loop.has_value());
  std::vector<protocol::Message> out;
  // The stream starts with the client's LoginComplete; no World runs here.
  dereth::test::LoginCompleteStandIn stand_in;
  for (int step = 0; step * 0.05 <= until + 5.0; ++step) {
    for (auto& m : loop->advance(0.05 * step)) {
      if (stand_in.on_message(m.bytes)) {
        loop->send(dereth::test::LoginCompleteStandIn::login_complete(loop->next_action_sequence()),
                   protocol::queue::Weenie);
      }
      if (auto d = protocol::decode_message(m.bytes)) out.push_back(std::move(*d));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("Scenario: movement action= adds one MotionItem, its stamp left to the server", "[scenario][parse]") {
  const auto s = parse(R"(at 1 movement guid=player action=0x10000153
at 2 movement guid=0x80000001 action=0x10000051 action-speed=1.5 autonomous forward=0x45000005
)");
  REQUIRE(s.stream.size() == 2);
  const auto& a = motion_state(s.stream[0]);
  REQUIRE(a.commands.size() == 1);
  CHECK(a.commands[0] == protocol::MotionItem{0x0153, 0x0000, 1.0F});
  CHECK_FALSE(a.forward_command.has_value());
  const auto& b = motion_state(s.stream[1]);
  REQUIRE(b.commands.size() == 1);
  // Bit 15 follows the movement's autonomous flag.
  CHECK(b.commands[0] == protocol::MotionItem{0x0051, 0x8000, 1.5F});
  CHECK(b.forward_command == std::optional<std::uint16_t>(0x0005));
}

TEST_CASE("Scenario: movement action= must be an action, action-speed= needs it", "[scenario][parse]") {
  CHECK(error_of("at 1 movement guid=player action=0x41000003\n") ==
        "bad.scenario:3: action at offset 27: invalid (0x41000003 is not an action (no 0x10000000 bit))");
  CHECK(error_of("at 1 movement guid=player action-speed=2\n").find("action-speed= needs an action=") !=
        std::string::npos);
  CHECK(error_of("at 1 movement guid=player action=recall\n").find("expected a number") != std::string::npos);
}

TEST_CASE("Scenario: loop from= repeats only the events at or after it", "[scenario][parse]") {
  const auto s = parse(R"(at 0 create guid=0x80000001
at 1 state guid=0x80000001 state=0x408
at 11 state guid=0x80000001 state=0x409
loop 10 from=1
)");
  REQUIRE(s.loop_period.has_value());
  CHECK(*s.loop_period == 10.0);
  CHECK(s.loop_from == 1.0);
  // The repeated part (1 to 11) may not outlast the period...
  CHECK(error_of("at 1 state guid=1 state=1\nat 12 state guid=1 state=2\nloop 10 from=1\n")
            .find("shorter than the repeated part, from 1 to the last event's time 12") != std::string::npos);
  // ...and there must be something at or after from=.
  CHECK(error_of("at 1 state guid=1 state=1\nloop 10 from=5\n").find("no 'at' line at or after from=5") !=
        std::string::npos);
  CHECK(error_of("at 1 state guid=1 state=1\nloop 10 from=-1\n").find("is negative") != std::string::npos);
}

TEST_CASE("Scenario server: each action gets the object's next 15-bit action stamp, loop from= skips the prologue",
          "[scenario][server]") {
  const auto messages = play(R"(at 0 create guid=0x80000001 name=NPC
at 0.5 movement guid=0x80000001 action=0x10000153
at 1.0 movement guid=0x80000001 action=0x10000153
loop 2 from=0.5 count=2
)",
                             4.0);
  std::vector<std::uint16_t> stamps;
  int creates = 0;
  for (const auto& m : messages) {
    if (const auto* c = std::get_if<protocol::CreateObject>(&m); c != nullptr && c->guid == 0x80000001) ++creates;
    if (const auto* mv = std::get_if<protocol::MovementEvent>(&m)) {
      const auto& im = std::get<protocol::InterpretedMovement>(mv->data.payload);
      REQUIRE(im.state.commands.size() == 1);
      stamps.push_back(im.state.commands[0].packed_sequence);
    }
  }
  CHECK(creates == 1);  // the create at 0 is before from=: played once
  CHECK(stamps == std::vector<std::uint16_t>{1, 2, 3, 4});
}

TEST_CASE("Scenario server: teleport's F748 carries the F751's Teleport stamp, newer than the player's",
          "[scenario][server]") {
  const auto messages = play(R"(at 0.5 teleport pos=0xA9B4002E,120,120,14
at 1.5 teleport pos=0xA9B4001F,72,144,19.5
)",
                             2.0);
  std::uint16_t created = 0xFFFF;
  std::vector<std::uint16_t> teleports, positions;
  for (const auto& m : messages) {
    if (const auto* c = std::get_if<protocol::CreateObject>(&m); c != nullptr && c->guid == 0x50000001) {
      created = c->physics.timestamps[static_cast<std::size_t>(TI::Teleport)];
    }
    if (const auto* t = std::get_if<protocol::PlayerTeleport>(&m)) teleports.push_back(t->teleport_ts);
    if (const auto* u = std::get_if<protocol::UpdatePosition>(&m); u != nullptr && u->guid == 0x50000001) {
      positions.push_back(u->position.teleport_ts);
    }
  }
  REQUIRE(created == 0);
  CHECK(teleports == std::vector<std::uint16_t>{1, 2});
  CHECK(positions == teleports);
  CHECK(dereth::core::is_newer(positions[0], created));
  CHECK(dereth::core::is_newer(positions[1], positions[0]));
}
