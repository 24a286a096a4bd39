// The sans-IO scenario server against the hand-driven client of
// test_client.hpp, on simulated time (spec/protocol.md 0.3, 3.2-3.8).
#include "dereth/scenario/scenario_server.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "dereth/protocol/player_description.hpp"

#include "test_client.hpp"

using namespace dereth::scenario;
using scenario_test::ClientOptions;
using scenario_test::Harness;
using scenario_test::TestClient;
namespace protocol = dereth::protocol;
namespace ps = dereth::protocol::physics_state;

namespace {

Scenario basic(std::string_view extra = {}) {
  auto s = load_scenario_file(std::string(DERETH_SOURCE_DIR) + "/tests/scenario/data/basic.scenario");
  REQUIRE(s.has_value());
  if (extra.empty()) return *s;
  // Extra directives appended to the file's text.
  std::ifstream in(std::string(DERETH_SOURCE_DIR) + "/tests/scenario/data/basic.scenario");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text += "\n";
  text += extra;
  auto t = parse_scenario(text, "basic.scenario+");
  if (!t) FAIL(t.error().message());
  return *t;
}

// Done when the stream is fully played and acknowledged by the client's
// receipt of every message, and both LoginCompletes were handled.
bool world_done(const Harness& h) {
  const auto s = h.last_session();
  if (!s || s->state != SessionState::InWorld || !s->stream_complete || s->login_completes < 2) return false;
  return h.client.messages.size() == h.sent_to(s->id).size();
}

std::vector<std::uint32_t> opcodes(const std::vector<std::vector<std::uint8_t>>& messages) {
  std::vector<std::uint32_t> out;
  for (const auto& m : messages) out.push_back(protocol::peek_opcode(m));
  return out;
}

bool has_event(const ScenarioServer& server, std::string_view needle) {
  return std::ranges::any_of(server.events(),
                             [&](const ServerEvent& e) { return e.text.find(needle) != std::string::npos; });
}

// The checks shared by the clean and the lossy runs.
void check_world_entry_and_stream(const Harness& h) {
  const auto s = h.last_session();
  REQUIRE(s.has_value());
  const auto& c = h.client;
  REQUIRE(c.phase == TestClient::Phase::InWorld);
  REQUIRE(c.list.has_value());
  CHECK(c.list->account == "Tester");
  REQUIRE(c.list->characters.size() == 2);
  CHECK(c.list->characters[1].name == "Borin the Bold");
  REQUIRE(c.server_name.has_value());
  CHECK(c.server_name->world_name == "Dereth Test");
  CHECK(c.server_name->max_connections == 250);
  CHECK(c.saw_description);
  CHECK(c.player == 0x50000001u);
  // The PlayerDescription carries the qualities the client's movement reads:
  // the six attributes, stamina, Run and Jump trained.
  const auto description = std::ranges::find_if(c.messages, [](const auto& m) {
    return protocol::peek_wrapped_type(m) == protocol::login_opcode::PlayerDescriptionEvent;
  });
  REQUIRE(description != c.messages.end());
  auto qualities = protocol::decode_player_description(*description);
  REQUIRE(qualities);
  for (const auto& a : qualities->attributes) {
    REQUIRE(a.has_value());
    CHECK(a->init_level == 100);
  }
  REQUIRE(qualities->vitals[1].has_value());
  CHECK(qualities->vitals[1]->current_level == 100);  // Stamina = Endurance
  REQUIRE(qualities->skills.size() == 2);
  CHECK(qualities->skills[0].first == 0x16);
  CHECK(qualities->skills[1].first == 0x18);
  CHECK(qualities->skills[1].second.sac == 2);
  // A spell book (empty: the scenario names no spells), so the client's
  // spell bar keeps what the book holds.
  CHECK((qualities->vector_flags & protocol::quality_vector_flag::Spell) != 0);
  CHECK(qualities->spells.empty());
  // Then the option words (the scenario's default CharacterOptions1, 0).
  REQUIRE(qualities->options.has_value());
  CHECK(qualities->options->options1 == 0u);

  // Exactly once, in order: the client's messages are the server's, one for one.
  const auto sent = h.sent_to(s->id);
  REQUIRE(c.messages.size() == sent.size());
  CHECK(c.messages == sent);

  // The handshake replies in ACE's order, then the world entry burst.
  const auto ops = opcodes(c.messages);
  REQUIRE(ops.size() >= 8);
  CHECK(ops[0] == 0xF658u);
  CHECK(ops[1] == 0xF7E1u);
  CHECK(ops[2] == 0xF7E5u);
  CHECK(std::ranges::count(ops, 0xF7EAu) == 1);
  CHECK(std::ranges::count(ops, 0xF7DFu) == 1);
  const auto entry = std::ranges::find(ops, 0xF7B0u) - ops.begin();
  CHECK(ops[static_cast<std::size_t>(entry) + 1] == 0xF746u);
  CHECK(ops[static_cast<std::size_t>(entry) + 2] == 0xF745u);

  // The scripted stream: 12 events, the teleport being three messages.
  const auto scripted = h.sent_to(s->id, true);
  REQUIRE(scripted.size() == 14);
  CHECK(opcodes(scripted) == std::vector<std::uint32_t>{0xF745, 0xF7E0, 0xF74C, 0xF748, 0xF74E, 0xF755, 0xF754, 0xF750,
                                                        0xF74B, 0x02CD, 0xF751, 0xF748, 0xF74B, 0xF747});
  // ...which appear in the client's sequence in that order.
  auto it = c.messages.begin();
  for (const auto& m : scripted) {
    it = std::find(it, c.messages.end(), m);
    REQUIRE(it != c.messages.end());
    ++it;
  }

  // Decoded values: the protocol structs were filled from the scenario.
  auto create = protocol::decode_create_object(scripted[0]);
  REQUIRE(create.has_value());
  CHECK(create->guid == 0x80000010u);
  CHECK(create->physics.setup_id == 0x02000124u);
  CHECK(create->physics.motion_table_id == 0x09000004u);
  CHECK(create->physics.state == 0x408u);
  CHECK(create->weenie.name == "Drudge Skulker");
  CHECK(create->physics.timestamp(protocol::TimestampIndex::Instance) == 1);
  auto chat = protocol::decode_server_message(scripted[1]);
  REQUIRE(chat.has_value());
  CHECK(chat->text == "Welcome to the scenario server.");
  CHECK(chat->chat_type == 1u);
  auto move = protocol::decode_movement_event(scripted[2]);
  REQUIRE(move.has_value());
  CHECK(move->movement_ts == 1);
  CHECK(move->instance_ts == 1);
  CHECK(move->data.current_style == 0x003D);
  const auto& im = std::get<protocol::InterpretedMovement>(move->data.payload);
  CHECK(im.state.forward_command == std::optional<std::uint16_t>(0x0007));
  CHECK(im.state.forward_speed == std::optional<float>(1.5F));
  auto pos = protocol::decode_update_position(scripted[3]);
  REQUIRE(pos.has_value());
  CHECK(pos->position.is_grounded());
  CHECK(pos->position.position_ts == 1);
  CHECK_FALSE(pos->position.qx.has_value());
  CHECK(pos->position.qz == std::optional<float>(0.7071F));
  CHECK(pos->position.velocity == std::optional<protocol::Vec3>(protocol::Vec3{3, 0, 0}));
  auto script_id = protocol::decode_play_script_id(scripted[6]);
  REQUIRE(script_id.has_value());
  CHECK(script_id->guid == 0x50000001u);  // guid=player
  CHECK(script_id->script_id == 0x3300015Bu);
  CHECK(scripted[9] ==
        std::vector<std::uint8_t>{0xCD, 0x02, 0x00, 0x00, 0x05, 0x19, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00});
  auto teleport = protocol::decode_player_teleport(scripted[10]);
  REQUIRE(teleport.has_value());
  CHECK(teleport->teleport_ts == 1);
  auto provisional = protocol::decode_update_position(scripted[11]);
  REQUIRE(provisional.has_value());
  CHECK(provisional->guid == 0x50000001u);
  CHECK(provisional->position.cell_id == 0x8A0201A3u);
  CHECK(provisional->position.teleport_ts == 1);
  auto bubble = protocol::decode_set_state(scripted[12]);
  REQUIRE(bubble.has_value());
  CHECK((bubble->state & ps::Hidden) != 0);
  auto del = protocol::decode_delete_object(scripted[13]);
  REQUIRE(del.has_value());
  CHECK(del->instance_ts == 1);

  // LoginComplete after entry and after the teleport: two SetStates leaving the bubble.
  CHECK(c.login_completes_sent == 2);
  CHECK(s->login_completes == 2);
  CHECK_FALSE(s->teleporting);
  int cleared = 0;
  for (const auto& m : h.sent_to(s->id)) {
    if (protocol::peek_opcode(m) != 0xF74B) continue;
    auto st = protocol::decode_set_state(m);
    REQUIRE(st.has_value());
    if (st->guid == 0x50000001u && st->state == (ps::Gravity | ps::EdgeSlide | ps::ReportCollisions)) ++cleared;
  }
  CHECK(cleared == 2);

  // What the client sent, recorded once each and in order.
  std::vector<std::uint32_t> from_client;
  for (const auto& m : h.server.client_messages()) {
    if (m.session == s->id) from_client.push_back(m.opcode == 0xF7B1 ? m.action : m.opcode);
  }
  CHECK(from_client == std::vector<std::uint32_t>{0xF7C8, 0xF7E6, 0xF657, 0xA1, 0xA1});
}

}  // namespace

TEST_CASE("Scenario server: login, character list, DDD, world entry and the scripted stream", "[scenario][server]") {
  Harness h(basic());
  REQUIRE(h.run_until([&] { return world_done(h); }, 20.0));
  check_world_entry_and_stream(h);
  CHECK(h.misrouted == 0);
  const auto s = *h.last_session();
  CHECK(h.server.sessions().size() == 1);
  CHECK(s.cookie == 0x1122334455667788u);
  CHECK(s.server_seed == 0x12345678u);
  CHECK(s.client_seed == 0x99E77855u);
  CHECK(s.net_id == 1);
  CHECK(h.client.connect_requests_seen == 1);
  CHECK(h.client.login_requests_sent == 1);
  CHECK(s.transport.bad_checksums == 0);
  CHECK(s.transport.retransmits_sent == 0);
  CHECK(h.client.transport->stats().bad_checksums == 0);
  // The session's own stamps: the player's CreateObject carried instance 1 and the pink bubble.
  const auto& c = h.client.messages;
  auto player = protocol::decode_create_object(c[h.client.world_entry_index]);
  REQUIRE(player.has_value());
  CHECK(player->physics.state == (ps::Hidden | ps::IgnoreCollisions | ps::Gravity | ps::EdgeSlide));
  CHECK(player->weenie.name == "Aerin");
  CHECK(player->physics.position->cell_id == 0xA9B4001Fu);
}

TEST_CASE("Scenario server: 20% loss, duplication and reordering deliver the stream exactly once, in order",
          "[scenario][server][impairment]") {
  for (std::uint32_t seed : {7u, 8u, 9u}) {
    INFO("impairment seed " << seed);
    Harness h(basic("impair loss=0.2 duplicate=0.2 reorder=0.2 delay=20 jitter=30 seed=" + std::to_string(seed) +
                    " inbound\n"));
    REQUIRE(h.run_until([&] { return world_done(h); }, 120.0));
    check_world_entry_and_stream(h);
    const auto st = h.server.stats();
    CHECK(st.outbound.lost > 0);
    CHECK(st.outbound.duplicated > 0);
    CHECK(st.outbound.held_back > 0);
    CHECK(st.inbound.lost > 0);
    const auto s = *h.last_session();
    CHECK(s.transport.retransmits_sent > 0);
    CHECK(s.transport.bad_checksums == 0);
    CHECK(h.client.transport->stats().naks_sent > 0);
    CHECK(h.client.transport->stats().duplicates > 0);
  }
}

TEST_CASE("Scenario server: 35% and 50% loss, duplication, reordering and delay still deliver exactly once, in order",
          "[scenario][server][impairment]") {
  // The time bound grows with the loss: every exchange needs about
  // 1 / (1 - loss)^2 tries, so twice the 20% bound at 35%, four times at 50%.
  for (const auto& [loss, bound] : {std::pair{0.35, 240.0}, std::pair{0.5, 480.0}}) {
    for (std::uint32_t seed : {31u, 32u}) {
      INFO("loss " << loss << " seed " << seed);
      Harness h(basic(
          fmt::format("impair loss={} duplicate=0.2 reorder=0.2 delay=20 jitter=30 seed={} inbound\n", loss, seed)));
      REQUIRE(h.run_until([&] { return world_done(h); }, bound));
      check_world_entry_and_stream(h);
      CHECK(h.server.stats().outbound.lost > 0);
      CHECK(h.server.stats().inbound.lost > 0);
      const auto s = *h.last_session();
      CHECK(s.transport.bad_checksums == 0);
      CHECK(h.client.transport->stats().bad_checksums == 0);
    }
  }
}

TEST_CASE("Scenario server: a long stream with multi-fragment messages survives 20% loss, duplication and reordering",
          "[scenario][server][impairment]") {
  // 300 messages in 1.5 s: creates, positions, movements and every 25th a
  // 1,500-byte raw message (four fragments).
  std::string text = "account Tester password=secret\ncharacter 0x50000001 Aerin\n";
  for (int i = 0; i < 300; ++i) {
    const double t = 0.005 * i;
    const unsigned guid = 0x80000100U + static_cast<unsigned>(i % 40);
    if (i % 25 == 24) {
      text += "at " + std::to_string(t) + " hex B0F70000";
      for (int b = 0; b < 1496; ++b) text += fmt::format("{:02X}", (i + b) & 0xFF);
      text += "\n";
    } else if (i % 3 == 0) {
      text += fmt::format("at {} create guid={} setup=0x02000001 pos=0xA9B4001F,{},10,0\n", t, guid, i % 190);
    } else if (i % 3 == 1) {
      text += fmt::format("at {} position guid={} pos=0xA9B4001F,{},11,0,1,0,0,0\n", t, guid, i % 190);
    } else {
      text += fmt::format("at {} movement guid={} forward=0x44000007 forward-speed=1.25\n", t, guid);
    }
  }
  for (std::uint32_t seed : {21u, 22u, 23u, 24u, 25u}) {
    INFO("impairment seed " << seed);
    auto sc = parse_scenario(
        text + fmt::format("impair loss=0.2 duplicate=0.2 reorder=0.2 delay=10 jitter=40 seed={} inbound\n", seed),
        "long.scenario");
    REQUIRE(sc.has_value());
    Harness h(*sc);
    REQUIRE(h.run_until(
        [&] {
          const auto s = h.last_session();
          return s && s->stream_complete && s->login_completes >= 1 &&
                 h.client.messages.size() == h.sent_to(s->id).size();
        },
        120.0));
    const auto s = *h.last_session();
    CHECK(h.client.messages == h.sent_to(s.id));
    CHECK(h.sent_to(s.id, true).size() == 300);
    CHECK(s.transport.retransmits_sent > 10);
    CHECK(h.client.transport->stats().duplicates > 10);
    CHECK(h.server.stats().outbound.lost > 10);
  }
}

TEST_CASE("Scenario server: the same seed gives the same run", "[scenario][server][impairment]") {
  auto run = [] {
    Harness h(basic("impair loss=0.2 duplicate=0.2 reorder=0.2 delay=20 jitter=30 seed=11 inbound\n"));
    REQUIRE(h.run_until([&] { return world_done(h); }, 120.0));
    return std::pair{h.now, h.server.stats().outbound.lost};
  };
  CHECK(run() == run());
}

TEST_CASE("Scenario server: a wrong password gets a ConnectRequest, then F659 0x09, and the session is dropped",
          "[scenario][server][login]") {
  ClientOptions o;
  o.password = "wrong";
  Harness h(basic(), o);
  REQUIRE(h.run_until([&] { return h.client.phase == TestClient::Phase::Failed; }, 10.0));
  CHECK(h.client.character_error == 0x09u);
  CHECK(h.client.connect_requests_seen == 1);
  auto s = *h.last_session();
  CHECK(s.rejection == 0x09u);
  CHECK(s.state == SessionState::Rejected);
  CHECK(has_event(h.server, "wrong password"));
  // Dropped: after the linger it is ended, and the ConnectResponses were never accepted.
  h.run_until([] { return false; }, 11.0);
  s = *h.last_session();
  CHECK(s.state == SessionState::Ended);
  CHECK(h.server.stats().ignored_connect_responses > 0);
  CHECK(h.client.list == std::nullopt);
}

TEST_CASE("Scenario server: a client version other than 1802 is booted with F7DC and no ConnectRequest",
          "[scenario][server][login]") {
  ClientOptions o;
  o.version = "1801";
  Harness h(basic(), o);
  REQUIRE(h.run_until([&] { return h.client.phase == TestClient::Phase::Failed; }, 5.0));
  REQUIRE(h.client.boot.has_value());
  CHECK(h.client.boot->find("1801") != std::string::npos);
  CHECK(h.client.connect_requests_seen == 0);
  const auto s = *h.last_session();
  CHECK(s.rejection == 0xF7DCu);
  CHECK(s.state == SessionState::Ended);
}

TEST_CASE("Scenario server: a full server and an unknown account are refused after the ConnectRequest",
          "[scenario][server][login]") {
  SECTION("server full: F659 0x15") {
    Harness h(basic("server-full\n"));
    REQUIRE(h.run_until([&] { return h.client.phase == TestClient::Phase::Failed; }, 10.0));
    CHECK(h.client.character_error == 0x15u);
    CHECK(h.client.connect_requests_seen == 1);
  }
  SECTION("unknown account: F659 0x0A") {
    ClientOptions o;
    o.account = "nobody";
    Harness h(basic(), o);
    REQUIRE(h.run_until([&] { return h.client.phase == TestClient::Phase::Failed; }, 10.0));
    CHECK(h.client.character_error == 0x0Au);
  }
}

TEST_CASE("Scenario server: F657 must repeat the account exactly as F658 spelled it", "[scenario][server][login]") {
  SECTION("the typed spelling is refused with F659 0x0F") {
    ClientOptions o;
    o.account = "tester";  // logins match ignoring case
    o.enter_with_typed_account = true;
    Harness h(basic(), o);
    REQUIRE(h.run_until([&] { return h.client.phase == TestClient::Phase::Failed; }, 10.0));
    CHECK(h.client.list->account == "Tester");
    CHECK(h.client.character_error == 0x0Fu);
    CHECK(h.last_session()->state == SessionState::Connected);
  }
  SECTION("F658's spelling enters the world") {
    ClientOptions o;
    o.account = "TESTER";
    Harness h(basic(), o);
    REQUIRE(h.run_until([&] { return world_done(h); }, 20.0));
    const auto& enter = std::ranges::find_if(h.server.client_messages(),
                                             [](const ClientMessage& m) { return m.enter_world.has_value(); });
    REQUIRE(enter != h.server.client_messages().end());
    CHECK(enter->enter_world->account == "Tester");
  }
  SECTION("a character of another account is refused") {
    ClientOptions o;
    o.character_index = 99;  // the client does not send F657 itself
    Harness h(basic("account Other password=x\ncharacter 0x50000009 Zed\n"), o);
    REQUIRE(h.run_until([&] { return std::ranges::count(opcodes(h.client.messages), 0xF7DFu) == 1; }, 10.0));
    h.client.send(protocol::encode(protocol::CharacterEnterWorld{0x50000009, "Tester"}), protocol::queue::Logon);
    REQUIRE(h.run_until([&] { return h.client.character_error.has_value(); }, 5.0));
    CHECK(h.client.character_error == 0x0Fu);
    CHECK(has_event(h.server, "refused"));
  }
}

TEST_CASE("Scenario server: ConnectResponses sooner than the race delay are ignored, as ACE's race does",
          "[scenario][server][login]") {
  Harness h(basic("connect-race 200\n"));
  REQUIRE(h.run_until([&] { return world_done(h); }, 20.0));
  CHECK(h.client.connect_responses_sent >= 2);
  CHECK(has_event(h.server, "race delay"));
  CHECK(h.server.stats().ignored_connect_responses >= 1);
}

TEST_CASE("Scenario server: a second LoginRequest while the ConnectResponse is awaited drops the half-open session",
          "[scenario][server][login]") {
  ClientOptions o;
  o.connect_give_up = 1.0;
  Harness h(basic(), o);
  h.step();
  // The client got its ConnectRequest; before its ConnectResponse lands, a second LoginRequest.
  protocol::LoginRequest body;
  body.account = "Tester";
  body.password = "secret";
  dereth::net::Packet p;
  p.optional.login_request = protocol::encode(body);
  h.server.receive(dereth::net::serialize_packet(p), h.client_endpoint, 0, h.now);
  CHECK(h.server.sessions().front().state == SessionState::Ended);
  // The client's ConnectResponses go unanswered; it starts over and gets in.
  REQUIRE(h.run_until([&] { return world_done(h); }, 20.0));
  CHECK(h.server.sessions().size() == 2);
  CHECK(h.client.login_requests_sent == 2);
}

TEST_CASE("Scenario server: MoveToState and AutonomousPosition are recorded decoded", "[scenario][server]") {
  Harness h(basic());
  REQUIRE(h.run_until([&] { return world_done(h); }, 20.0));
  protocol::MoveToState mts;
  mts.sequence = h.client.next_stamp();
  mts.raw.forward_command = 0x45000005;
  mts.raw.current_hold_key = 2;
  mts.position = protocol::Position{0xA9B4001F, {85, 149, 66}, {1, 0, 0, 0}};
  mts.timestamps = {1, 0, 1, 0};
  mts.contact_long_jump = 1;
  protocol::AutonomousPosition ap;
  ap.sequence = h.client.next_stamp();
  ap.position = protocol::Position{0xA9B4001F, {86, 150, 66}, {1, 0, 0, 0}};
  ap.timestamps = {1, 0, 1, 0};
  ap.contact = 1;
  h.client.send(protocol::encode(mts), protocol::queue::Weenie);
  h.client.send(protocol::encode(ap), protocol::queue::Weenie);
  h.run_until([&] { return h.server.client_messages().size() >= 7; }, 5.0);
  const auto& rec = h.server.client_messages();
  REQUIRE(rec.size() == 7);
  CHECK(rec[5].action == 0xF61Cu);
  REQUIRE(rec[5].move_to_state.has_value());
  CHECK(*rec[5].move_to_state == mts);
  CHECK(rec[5].action_sequence == mts.sequence);
  REQUIRE(rec[6].autonomous_position.has_value());
  CHECK(*rec[6].autonomous_position == ap);
  CHECK(rec[6].decode_error.empty());
}

TEST_CASE("Scenario server: F653 is answered and the Disconnect ends the session", "[scenario][server]") {
  Harness h(basic());
  REQUIRE(h.run_until([&] { return world_done(h); }, 20.0));
  h.client.log_off();
  REQUIRE(h.run_until([&] { return h.client.saw_logoff; }, 5.0));
  CHECK(h.last_session()->state == SessionState::LoggingOff);
  h.client.disconnect(h.now);
  h.step();
  CHECK(h.last_session()->state == SessionState::Ended);
  CHECK(h.last_session()->end_reason == "the client disconnected");
}

TEST_CASE("Scenario server: a looped stream repeats with new instance stamps", "[scenario][server]") {
  const char* text = R"(
account a password=b
character 0x50000001 One
at 0 create guid=0x80000001 setup=0x02000001
at 0.5 delete guid=0x80000001
loop 1.0 count=3
)";
  auto sc = parse_scenario(text, "loop.scenario");
  REQUIRE(sc.has_value());
  ClientOptions o;
  o.account = "a";
  o.password = "b";
  Harness h(*sc, o);
  REQUIRE(h.run_until(
      [&] {
        auto s = h.last_session();
        return s && s->stream_complete && h.client.messages.size() == h.sent_to(s->id).size();
      },
      20.0));
  const auto scripted = h.sent_to(h.last_session()->id, true);
  REQUIRE(scripted.size() == 6);
  for (std::size_t i = 0; i < 3; ++i) {
    auto c = protocol::decode_create_object(scripted[2 * i]);
    auto d = protocol::decode_delete_object(scripted[2 * i + 1]);
    REQUIRE(c.has_value());
    REQUIRE(d.has_value());
    CHECK(c->physics.timestamp(protocol::TimestampIndex::Instance) == i + 1);
    CHECK(d->instance_ts == i + 1);
  }
  // Played at 0, 0.5, 1.0, 1.5, 2.0, 2.5 seconds after entry.
  std::vector<double> times;
  for (const auto& m : h.server.sent_messages()) {
    if (m.script_line != 0) times.push_back(m.time);
  }
  for (std::size_t i = 1; i < times.size(); ++i)
    CHECK(times[i] - times[0] == Approx(0.5 * static_cast<double>(i)).margin(0.011));
}

TEST_CASE("Scenario server: datagrams from strangers and garbage are ignored without a session",
          "[scenario][server][malformed]") {
  ScenarioServer server(basic());
  std::vector<std::uint8_t> junk(40, 0xAB);
  server.receive(junk, Endpoint{0x7F000001, 1}, 0, 1.0);
  server.receive(junk, Endpoint{0x7F000001, 1}, 1, 1.0);
  server.receive(std::vector<std::uint8_t>(3, 0), Endpoint{0x7F000001, 1}, 0, 1.0);
  server.tick(1.1);
  CHECK(server.take_outgoing().empty());
  CHECK(server.sessions().empty());
  CHECK(server.stats().ignored_datagrams == 3);
}

TEST_CASE("Scenario server: a flood of logins from many endpoints stays bounded", "[scenario][server][malformed]") {
  ServerConfig config;
  config.max_records = 100;
  ScenarioServer server(basic(), config);
  protocol::LoginRequest body;
  body.account = "Tester";
  body.password = "secret";
  dereth::net::Packet p;
  p.optional.login_request = protocol::encode(body);
  const auto login = dereth::net::serialize_packet(p);
  double now = 1.0;
  for (std::uint16_t port = 1000; port < 3000; ++port) {
    server.receive(login, Endpoint{0x7F000001, port}, 0, now);
    now += 0.01;  // every half-open session times out after 15 s
    if (port % 50 == 0) server.tick(now);
    (void)server.take_outgoing();
  }
  server.tick(now + 30);
  const auto sessions = server.sessions();
  CHECK(sessions.size() <= 127 + 256);
  CHECK(std::ranges::count_if(sessions, [](const SessionInfo& s) { return s.state != SessionState::Ended; }) <= 127);
  CHECK(server.events().size() <= 100);
  CHECK(server.sent_messages().size() <= 100);
  CHECK(server.stats().dropped_records > 0);
  CHECK(server.stats().logins > 127);
}
