// The scenario server relays a player's own motion to the other players
// nearby, as ACE does (GameActionMoveToState / GameActionAutonomousPosition:
// F74C and F748 to the observers, never back to the mover), and shows the
// players in the world to each other.
#include <catch2/catch.hpp>

#include <algorithm>

#include "dereth/protocol/login.hpp"
#include "dereth/protocol/player_description.hpp"
#include "dereth/scenario/scenario_server.hpp"
#include "dereth/sim/player/qualities.hpp"

#include "test_client.hpp"

using namespace dereth::scenario;
using scenario_test::ClientOptions;
using scenario_test::TestClient;
namespace protocol = dereth::protocol;

namespace {

Scenario two_players(std::string_view second_pos = "0xA9B4001F,84,148,66") {
  std::string text =
      "account Tester password=secret\n"
      "character 0x50000001 Aerin\n"
      "character 0x50000002 Borin\n"
      "seeds server=0x12345678 client=0x99E77855 cookie=0x1122334455667788\n"
      "player pos=";
  text += second_pos;
  text += "\n";
  auto s = parse_scenario(text, "relay.scenario");
  if (!s) FAIL(s.error().message());
  return *s;
}

// Two clients on one server: Aerin (a) and Borin (b).
struct Pair {
  explicit Pair(Scenario s, ServerConfig config = {})
      : server(std::move(s), std::move(config)), a(options(0)), b(options(1)) {}
  static ClientOptions options(std::size_t character) {
    ClientOptions o;
    o.character_index = character;
    return o;
  }
  ScenarioServer server;
  TestClient a;
  TestClient b;
  Endpoint ea{0x7F000001, 50123};
  Endpoint eb{0x7F000001, 50124};
  double now = 10.0;
  bool b_started = false;

  void step() {
    now += 0.01;
    a.tick(now);
    if (b_started) b.tick(now);
    for (auto& d : a.take_outgoing()) server.receive(d.bytes, ea, d.to_port, now);
    if (b_started) {
      for (auto& d : b.take_outgoing()) server.receive(d.bytes, eb, d.to_port, now);
    }
    server.tick(now);
    for (auto& d : server.take_outgoing()) {
      if (d.peer == ea) a.receive(d.bytes, d.local_port, now);
      if (d.peer == eb) b.receive(d.bytes, d.local_port, now);
    }
  }
  template <class Pred>
  bool run_until(Pred&& done, double seconds) {
    const double end = now + seconds;
    while (now < end) {
      step();
      if (done()) return true;
    }
    return false;
  }
  // Both in the world, a first.
  void enter_both() {
    a.start(now);
    REQUIRE(run_until([&] { return a.phase == TestClient::Phase::InWorld && a.login_completes_sent >= 1; }, 20.0));
    b.start(now);
    b_started = true;
    REQUIRE(run_until([&] { return b.phase == TestClient::Phase::InWorld && b.login_completes_sent >= 1; }, 20.0));
    run_until([] { return false; }, 0.5);
  }
};

template <class T, class Decode>
std::vector<T> received(const TestClient& c, std::uint32_t opcode, Decode decode) {
  std::vector<T> out;
  for (const auto& m : c.messages) {
    if (protocol::peek_opcode(m) != opcode) continue;
    auto d = decode(m);
    REQUIRE(d.has_value());
    out.push_back(*d);
  }
  return out;
}

std::vector<protocol::MovementEvent> movements_of(const TestClient& c, std::uint32_t guid) {
  auto all =
      received<protocol::MovementEvent>(c, 0xF74C, [](const auto& m) { return protocol::decode_movement_event(m); });
  std::erase_if(all, [guid](const auto& e) { return e.guid != guid; });
  return all;
}

std::vector<protocol::UpdatePosition> positions_of(const TestClient& c, std::uint32_t guid) {
  auto all =
      received<protocol::UpdatePosition>(c, 0xF748, [](const auto& m) { return protocol::decode_update_position(m); });
  std::erase_if(all, [guid](const auto& e) { return e.guid != guid; });
  return all;
}

// The portal's SkillTable as the demo DAT writer makes it for Run (Quickness
// / 1, usable untrained) and a small XpTable.
dereth::dat::SkillTable run_skill_table() {
  dereth::dat::SkillTable t;
  t.buckets = 32;
  dereth::dat::SkillBase run;
  run.min_level = 1;
  run.formula = dereth::dat::SkillFormula{0, 1, 0, 1, 3, 0};
  t.skills.push_back({0x18, run});
  return t;
}

dereth::dat::XpTable small_xp_table() {
  dereth::dat::XpTable t;
  t.attribute = {0, 100, 300};
  t.vital = {0, 100, 300};
  t.trained_skill = {0, 10, 30};
  t.specialized_skill = {0, 5, 15};
  t.level = {0, 1000};
  t.skill_credits = {0, 1};
  return t;
}

}  // namespace

TEST_CASE("Scenario server: players in the world see each other's CreateObject", "[scenario][server][relay]") {
  Pair p(two_players());
  p.enter_both();
  auto creates_for = [](const TestClient& c, std::uint32_t guid) {
    auto all =
        received<protocol::CreateObject>(c, 0xF745, [](const auto& m) { return protocol::decode_create_object(m); });
    return std::ranges::count_if(all, [guid](const auto& m) { return m.guid == guid; });
  };
  CHECK(creates_for(p.a, 0x50000002) == 1);  // Borin shown to Aerin
  CHECK(creates_for(p.b, 0x50000001) == 1);  // Aerin shown to Borin
  CHECK(creates_for(p.a, 0x50000001) == 1);  // each its own once
  CHECK(creates_for(p.b, 0x50000002) == 1);
}

TEST_CASE("Scenario server: a MoveToState goes to the observers as an autonomous F74C, not back to the mover",
          "[scenario][server][relay]") {
  Pair p(two_players());
  p.enter_both();
  protocol::MoveToState mts;
  mts.sequence = p.a.next_stamp();
  mts.raw.forward_command = 0x45000006;  // WalkBackwards
  mts.raw.turn_command = 0x6500000E;     // TurnLeft
  mts.raw.current_hold_key = 2;          // running
  mts.position = protocol::Position{0xA9B4001F, {85, 149, 66}, {1, 0, 0, 0}};
  mts.contact_long_jump = 1;
  p.a.send(protocol::encode(mts), protocol::queue::Weenie);
  REQUIRE(p.run_until([&] { return !movements_of(p.b, 0x50000001).empty(); }, 5.0));
  p.run_until([] { return false; }, 0.5);
  const auto seen = movements_of(p.b, 0x50000001);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].is_autonomous == 1);
  CHECK(seen[0].movement_ts == 1);
  CHECK(seen[0].instance_ts == 1);
  const auto& st = std::get<protocol::InterpretedMovement>(seen[0].data.payload).state;
  CHECK(st.forward_command == std::optional<std::uint16_t>(0x0005));  // backward: WalkForward...
  CHECK(st.forward_speed == std::optional<float>(-0.65F));            // ...at -0.65 (run rate 1)
  CHECK(st.turn_command == std::optional<std::uint16_t>(0x000D));     // left: TurnRight...
  CHECK(st.turn_speed == std::optional<float>(-1.5F));                // ...running, negated
  CHECK(movements_of(p.a, 0x50000001).empty());                       // never back to the mover

  SECTION("a later one carries the next movement stamp") {
    mts.raw = protocol::RawMotionState{};
    mts.raw.forward_command = 0x45000005;
    mts.raw.current_hold_key = 2;
    p.a.send(protocol::encode(mts), protocol::queue::Weenie);
    REQUIRE(p.run_until([&] { return movements_of(p.b, 0x50000001).size() == 2; }, 5.0));
    const auto again = movements_of(p.b, 0x50000001);
    CHECK(again[1].movement_ts == 2);
    const auto& st2 = std::get<protocol::InterpretedMovement>(again[1].data.payload).state;
    CHECK(st2.forward_command == std::optional<std::uint16_t>(0x0007));  // walk with Run: RunForward
    CHECK(st2.forward_speed == std::optional<float>(1.0F));
  }
}

TEST_CASE("Scenario server: an AutonomousPosition goes to the observers as F748, not back to the mover",
          "[scenario][server][relay]") {
  Pair p(two_players());
  p.enter_both();
  protocol::AutonomousPosition ap;
  ap.sequence = p.a.next_stamp();
  ap.position = protocol::Position{0xA9B40100, {86.5F, 150, 66}, {1, 0, 0, 0}};  // indoors: an EnvCell
  ap.contact = 1;
  p.a.send(protocol::encode(ap), protocol::queue::Weenie);
  REQUIRE(p.run_until([&] { return !positions_of(p.b, 0x50000001).empty(); }, 5.0));
  p.run_until([] { return false; }, 0.5);
  const auto seen = positions_of(p.b, 0x50000001);
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].position.cell_id == 0xA9B40100u);
  CHECK(seen[0].position.origin == protocol::Vec3{86.5F, 150, 66});
  CHECK(seen[0].position.is_grounded());
  CHECK(seen[0].position.position_ts == 1);
  CHECK(positions_of(p.a, 0x50000001).empty());
}

TEST_CASE("Scenario server: a player beyond the relay range is not told", "[scenario][server][relay]") {
  Pair p(two_players());
  p.enter_both();
  protocol::AutonomousPosition ap;
  ap.sequence = p.a.next_stamp();
  ap.position = protocol::Position{0xABB4001F, {84, 148, 66}, {1, 0, 0, 0}};  // two landblocks east: 384 m
  ap.contact = 1;
  p.a.send(protocol::encode(ap), protocol::queue::Weenie);
  REQUIRE(p.run_until(
      [&] {
        return p.server.client_messages().size() >= 1 &&
               p.server.client_messages().back().autonomous_position.has_value();
      },
      5.0));
  p.run_until([] { return false; }, 0.5);
  CHECK(positions_of(p.b, 0x50000001).empty());
}

TEST_CASE("Scenario server: a relayed run carries the run rate the mover's client computes from its qualities",
          "[scenario][server][relay]") {
  ServerConfig config;
  config.run_rate = [](const protocol::PlayerDescription& d) -> std::optional<float> {
    float rate = 0.0F;
    if (!dereth::sim::Qualities(d, run_skill_table(), small_xp_table()).inq_run_rate(rate)) return std::nullopt;
    return rate;
  };
  Scenario scenario = two_players();
  scenario.player.attributes = {100, 100, 140, 100, 100, 100};  // Quickness 140: Run 140
  Pair p(std::move(scenario), config);
  p.enter_both();
  // What Aerin's client makes of the PlayerDescription it was sent, with the
  // same portal tables (CACQualities::InqRunRate 0x00592800).
  const auto description = std::ranges::find_if(p.a.messages, [](const auto& m) {
    return protocol::peek_wrapped_type(m) == protocol::login_opcode::PlayerDescriptionEvent;
  });
  REQUIRE(description != p.a.messages.end());
  auto decoded = protocol::decode_player_description(*description);
  REQUIRE(decoded);
  float client_rate = 0.0F;
  REQUIRE(dereth::sim::Qualities(*decoded, run_skill_table(), small_xp_table()).inq_run_rate(client_rate));
  CHECK(client_rate == static_cast<float>(dereth::sim::get_run_rate(0.0F, 140, 1.0F)));
  CHECK(client_rate == Approx(2.13235));  // (140 / 340 x 11 + 4) / 4

  protocol::MoveToState mts;
  mts.sequence = p.a.next_stamp();
  mts.raw.forward_command = 0x45000005;  // WalkForward
  mts.raw.current_hold_key = 2;          // with Run
  mts.position = protocol::Position{0xA9B4001F, {85, 149, 66}, {1, 0, 0, 0}};
  mts.contact_long_jump = 1;
  p.a.send(protocol::encode(mts), protocol::queue::Weenie);
  REQUIRE(p.run_until([&] { return !movements_of(p.b, 0x50000001).empty(); }, 5.0));
  const auto& st = std::get<protocol::InterpretedMovement>(movements_of(p.b, 0x50000001)[0].data.payload).state;
  CHECK(st.forward_command == std::optional<std::uint16_t>(0x0007));  // RunForward
  CHECK(st.forward_speed == std::optional<float>(client_rate));

  SECTION("backward and sidestep scale by the same rate") {
    mts.raw = protocol::RawMotionState{};
    mts.raw.forward_command = 0x45000006;   // WalkBackwards
    mts.raw.sidestep_command = 0x6500000F;  // SideStepRight
    mts.raw.current_hold_key = 2;
    p.a.send(protocol::encode(mts), protocol::queue::Weenie);
    REQUIRE(p.run_until([&] { return movements_of(p.b, 0x50000001).size() == 2; }, 5.0));
    const auto& st2 = std::get<protocol::InterpretedMovement>(movements_of(p.b, 0x50000001)[1].data.payload).state;
    CHECK(st2.forward_speed == std::optional<float>(client_rate * -0.65F));
    CHECK(st2.sidestep_speed == std::optional<float>(std::clamp(client_rate * 3.12F / 1.25F * 0.5F, -3.0F, 3.0F)));
  }
  SECTION("walking is at 1 whatever the skill") {
    mts.raw = protocol::RawMotionState{};
    mts.raw.forward_command = 0x45000005;
    p.a.send(protocol::encode(mts), protocol::queue::Weenie);
    REQUIRE(p.run_until([&] { return movements_of(p.b, 0x50000001).size() == 2; }, 5.0));
    const auto& st2 = std::get<protocol::InterpretedMovement>(movements_of(p.b, 0x50000001)[1].data.payload).state;
    CHECK(st2.forward_command == std::optional<std::uint16_t>(0x0005));
    CHECK(st2.forward_speed == std::optional<float>(1.0F));
  }
}
