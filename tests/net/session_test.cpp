// The client session against a small fake server written here from the spec.
#include "dereth/net/session.hpp"

#include <catch2/catch.hpp>

#include "dereth/protocol/messages.hpp"

using namespace dereth::net;
namespace lo = dereth::protocol::login_opcode;
namespace proto = dereth::protocol;

namespace {

struct FakeServer {
  std::string account = "TestAccount";
  std::string password = "secret";
  std::uint32_t refuse_with = 0;  // a CharacterError code to answer the login with
  bool answer = true;
  Transport transport{Role::Server};
  bool connected = false;
  std::vector<std::uint32_t> client_opcodes;
  std::vector<std::uint32_t> client_actions;
  std::string enter_account;
  std::string second_name = "Brannoc";  // ACE lists an admin's characters with a leading '+'
  std::vector<std::pair<std::vector<std::uint8_t>, std::uint8_t>> to_client;  // datagram, from port offset

  void receive(const OutgoingDatagram& d, double now) {
    if (!answer) return;
    if (!connected) {
      auto p = parse_packet(d.bytes);
      REQUIRE(p.has_value());
      if (p->optional.login_request && d.port_offset == 0) {
        auto login = proto::decode_login_request(*p->optional.login_request);
        REQUIRE(login.has_value());
        CHECK(login->client_version == "1802");
        Packet cr;
        cr.header.id = 0x000B;
        cr.header.iteration = 1;
        cr.optional.connect_request = ConnectRequestBody{1.0, 0x1122334455667788ULL, 5, 0xAAAA0001, 0xBBBB0002, 0};
        to_client.emplace_back(serialize_packet(cr), 0);
        if (login->password != password) refuse_with = 0x09;
      } else if (p->optional.connect_response && d.port_offset == 1) {
        CHECK(*p->optional.connect_response == 0x1122334455667788ULL);
        connected = true;
        transport.start(0xAAAA0001, 0xBBBB0002, 0x000B, 1, now);
        if (refuse_with != 0) {
          transport.send_message(proto::encode(proto::CharacterError{refuse_with}), proto::queue::Ui);
          return;
        }
        proto::CharacterList list;
        list.characters = {{0x50000001, "Aerfalle", 0}, {0x50000002, second_name, 0}};
        list.account = account;
        transport.send_message(proto::encode(list), proto::queue::Ui);
        transport.send_message(proto::encode(proto::ServerName{1, 100, "Dereth"}), proto::queue::Ui);
        transport.send_message(proto::encode_ddd_interrogation(), proto::queue::Database);
      }
      return;
    }
    transport.receive(d.bytes, now);
    while (auto m = transport.poll_message()) {
      const auto op = proto::peek_opcode(m->bytes);
      client_opcodes.push_back(op);
      if (op == lo::GameAction) client_actions.push_back(proto::peek_wrapped_type(m->bytes));
      if (op == lo::DddInterrogationResponse) transport.send_message(proto::encode_opcode_only(lo::EndDdd), 5);
      if (op == lo::CharacterEnterWorldRequest) {
        transport.send_message(proto::encode_opcode_only(lo::CharacterEnterWorldServerReady), 9);
      }
      if (op == lo::CharacterEnterWorld) {
        auto e = proto::decode_character_enter_world(m->bytes);
        REQUIRE(e.has_value());
        enter_account = e->account;
        transport.send_message(proto::encode(proto::PlayerCreate{e->guid}), 10);
        proto::CreateObject player;
        player.guid = e->guid;
        player.weenie.name = "Aerfalle";
        transport.send_message(proto::encode(player), 10);
      }
    }
  }
  void tick(double now) {
    if (!connected) return;
    transport.tick(now);
    for (auto& d : transport.take_outgoing()) to_client.emplace_back(std::move(d), 1);
  }
};

// Runs the two sides against each other for up to `seconds` of simulated time.
void pump(ClientSession& client, FakeServer& server, double& now, double seconds) {
  const double end = now + seconds;
  while (now < end && client.state() != SessionState::Failed) {
    now += 0.01;
    client.tick(now);
    for (auto& d : client.take_outgoing()) server.receive(d, now);
    server.tick(now);
    auto batch = std::move(server.to_client);
    server.to_client.clear();
    for (auto& [bytes, port] : batch) client.receive(bytes, port, now);
  }
}

SessionConfig config() {
  SessionConfig c;
  c.account = "testaccount";  // typed differently from the server's spelling
  c.password = "secret";
  c.server_name = "127.0.0.1:9000";
  return c;
}

}  // namespace

TEST_CASE("Session: login, DDD, character choice and world entry with the server's account spelling",
          "[net][session]") {
  ClientSession client(config());
  FakeServer server;
  double now = 0;
  client.start(now);
  pump(client, server, now, 5);
  REQUIRE(client.state() == SessionState::InWorld);
  CHECK(client.player_guid() == 0x50000001u);
  CHECK(server.enter_account == "TestAccount");  // as F658 gave it, not as typed
  CHECK(std::count(server.client_opcodes.begin(), server.client_opcodes.end(), lo::DddInterrogationResponse) == 1);
  // The session sends no LoginComplete by itself: the World's portal-space
  // animation decides when (sim::GmSmartBoxUi, tests/app/teleport_test.cpp).
  CHECK(server.client_actions.empty());
  CHECK(client.login_complete_count() == 0);
  // Every message reached the client's inbox in order.
  std::vector<std::uint32_t> received;
  while (auto m = client.poll_message()) received.push_back(proto::peek_opcode(m->bytes));
  CHECK(received.front() == lo::CharacterList);
  CHECK(received.back() == proto::opcode::CreateObject);

  SECTION("a teleport's destination sends nothing by itself") {
    server.transport.send_message(proto::encode(proto::PlayerTeleport{5}), 10);
    proto::UpdatePosition dest;
    dest.guid = 0x50000001;
    server.transport.send_message(proto::encode(dest), 10);
    pump(client, server, now, 2);
    CHECK(client.login_complete_count() == 0);
    CHECK(server.client_actions.empty());
  }
  SECTION("send_login_complete queues the 0xF7B1 0x00A1 action; every LoginComplete sent is counted") {
    CHECK(client.send_login_complete());
    pump(client, server, now, 1);
    CHECK(server.client_actions == std::vector<std::uint32_t>{lo::LoginCompleteAction});
    CHECK(client.login_complete_count() == 1);
    CHECK(client.send_message(proto::encode_game_action(client.next_action_sequence(), lo::LoginCompleteAction), 3));
    pump(client, server, now, 1);
    CHECK(server.client_actions.size() == 2);
    CHECK(client.login_complete_count() == 2);
  }
}

TEST_CASE("Session: a chosen character by name", "[net][session]") {
  auto c = config();
  c.character = "Brannoc";
  ClientSession client(c);
  FakeServer server;
  double now = 0;
  client.start(now);
  pump(client, server, now, 5);
  REQUIRE(client.state() == SessionState::InWorld);
  CHECK(client.player_guid() == 0x50000002u);
}

TEST_CASE("Session: failures end in one sentence, never a hang", "[net][session]") {
  SECTION("a wrong password") {
    auto c = config();
    c.password = "wrong";
    ClientSession client(c);
    FakeServer server;
    double now = 0;
    client.start(now);
    pump(client, server, now, 5);
    CHECK(client.state() == SessionState::Failed);
    CHECK(client.failure() == "the account name or password was not accepted");
  }
  SECTION("a full server") {
    ClientSession client(config());
    FakeServer server;
    server.refuse_with = 0x15;
    double now = 0;
    client.start(now);
    pump(client, server, now, 5);
    CHECK(client.failure() == "the server is full; try again later");
  }
  SECTION("no answer at all: resent every 2 s, a clear failure at the 8 s login timeout") {
    ClientSession client(config());
    FakeServer server;
    server.answer = false;
    double now = 0;
    client.start(now);
    pump(client, server, now, 7.9);
    CHECK(client.state() == SessionState::LoggingIn);
    pump(client, server, now, 0.2);
    CHECK(client.state() == SessionState::Failed);
    CHECK(client.failure() == "no answer from 127.0.0.1:9000 within 8 s (4 login attempts); is the server running?");
  }
  SECTION("no answer with a longer login timeout: the attempt count ends it") {
    auto c = config();
    c.login_timeout = 1000.0;
    ClientSession client(c);
    FakeServer server;
    server.answer = false;
    double now = 0;
    client.start(now);
    pump(client, server, now, 60);
    CHECK(client.state() == SessionState::Failed);
    CHECK(client.failure().find("no answer from 127.0.0.1:9000 after 20 login attempts") == 0);
  }
  SECTION("an unknown character name") {
    auto c = config();
    c.character = "Nobody";
    ClientSession client(c);
    FakeServer server;
    double now = 0;
    client.start(now);
    pump(client, server, now, 5);
    CHECK(client.failure() == "the account has no character named \"Nobody\"");
  }
  SECTION("the server goes silent in the world") {
    ClientSession client(config());
    FakeServer server;
    double now = 0;
    client.start(now);
    pump(client, server, now, 5);
    REQUIRE(client.state() == SessionState::InWorld);
    server.answer = false;
    server.connected = false;
    for (int i = 0; i < 7000 && client.state() != SessionState::Failed; ++i) {
      now += 0.01;
      client.tick(now);
      (void)client.take_outgoing();
    }
    CHECK(client.failure().find("no packet from 127.0.0.1:9000 for 60 s") == 0);
  }
}

TEST_CASE("Session: connecting, the first packet that verifies under the session keys starts it, from either port",
          "[net][session]") {
  SessionConfig config;
  config.account = "a";
  config.password = "b";
  const ConnectRequestBody body{1.0, 0x1122334455667788ULL, 5, 0xAAAA0001, 0xBBBB0002, 0};
  auto connect_request = [&] {
    Packet cr;
    cr.header.flags = packet_flag::ConnectRequest;
    cr.optional.connect_request = body;
    return serialize_packet(cr);
  };
  // What the server sends next: a data packet keyed by the server seed.
  auto verified = [&] {
    Transport server(Role::Server);
    server.start(body.server_seed, body.client_seed, 0x000B, 0, 0.0);
    server.send_message(proto::encode_opcode_only(lo::DddInterrogation), 5);
    server.tick(0.0);
    auto out = server.take_outgoing();
    REQUIRE_FALSE(out.empty());
    return out.front();
  };
  for (const std::uint8_t port : {std::uint8_t{0}, std::uint8_t{1}}) {
    INFO("from port N+" << int{port});
    ClientSession s(config);
    s.start(0.0);
    s.receive(connect_request(), 0, 0.1);
    REQUIRE(s.state() == SessionState::Connecting);
    // Garbage, and a packet keyed by another seed, change nothing.
    const std::vector<std::uint8_t> garbage(40, 0x5A);
    s.receive(garbage, port, 0.2);
    CHECK(s.state() == SessionState::Connecting);
    Transport forger(Role::Server);
    forger.start(0x12345678, body.client_seed, 0x000B, 0, 0.0);
    forger.send_message(proto::encode_opcode_only(lo::DddInterrogation), 5);
    forger.tick(0.0);
    auto forged = forger.take_outgoing();
    REQUIRE_FALSE(forged.empty());
    s.receive(forged.front(), port, 0.3);
    CHECK(s.state() == SessionState::Connecting);
    // Nor does a cleartext packet (anyone can compute its checksum): a pure ACK.
    Packet ack;
    ack.header.flags = packet_flag::AckSequence;
    ack.header.sequence = 2;
    ack.optional.ack_sequence = 1;
    s.receive(serialize_packet(ack), port, 0.32);
    CHECK(s.state() == SessionState::Connecting);
    // A resend of the same ConnectRequest is no start either.
    s.receive(connect_request(), 0, 0.35);
    CHECK(s.state() == SessionState::Connecting);
    // The server's own packet does: GDLE sends it from N, ACE from N+1.
    s.receive(verified(), port, 0.4);
    CHECK(s.state() == SessionState::CharacterSelect);
    CHECK(s.transport().stats().packets_received == 1);
  }
}

TEST_CASE("Session: the recording's copy of the LoginRequest has the password blanked, same length, valid checksum",
          "[net][session][recording]") {
  SessionConfig config;
  config.account = "someone";
  config.password = "pa55word";
  ClientSession s(config);
  s.start(0.0);
  auto out = s.take_outgoing();
  REQUIRE(out.size() == 1);
  REQUIRE(out[0].for_recording.has_value());
  const auto& wire = out[0].bytes;
  const auto& recorded = out[0].recorded_bytes();
  REQUIRE(recorded.size() == wire.size());
  const std::string w(wire.begin(), wire.end()), r(recorded.begin(), recorded.end());
  CHECK(w.find("pa55word") != std::string::npos);
  CHECK(r.find("pa55word") == std::string::npos);
  CHECK(r.find("********") != std::string::npos);
  CHECK(r.find("someone") != std::string::npos);
  auto parsed = parse_packet(recorded);
  REQUIRE(parsed.has_value());
  CHECK(cleartext_checksum_ok(*parsed));
  REQUIRE(parsed->optional.login_request.has_value());
  auto login = proto::decode_login_request(*parsed->optional.login_request);
  REQUIRE(login.has_value());
  CHECK(login->password == "********");
  CHECK(login->account == "someone");
}

namespace {

std::vector<std::uint8_t> connect_request_bytes(std::uint64_t cookie) {
  Packet cr;
  cr.header.id = 0x000B;
  cr.header.iteration = 1;
  cr.optional.connect_request = ConnectRequestBody{1.0, cookie, 5, 0xAAAA0001, 0xBBBB0002, 0};
  return serialize_packet(cr);
}

}  // namespace

TEST_CASE("Session attack: logging in, only a well-formed ConnectRequest from port N advances the handshake",
          "[net][session][attack]") {
  SessionConfig c;
  c.account = "a";
  c.password = "b";
  ClientSession s(c);
  s.start(0.0);
  // A ConnectRequest from port N+1: retail and ACE send it from the login port only.
  s.receive(connect_request_bytes(0x1111), 1, 0.1);
  CHECK(s.state() == SessionState::LoggingIn);
  // Garbage and a ConnectRequest with a broken checksum, from either port.
  const std::vector<std::uint8_t> garbage(40, 0x5A);
  s.receive(garbage, 0, 0.2);
  s.receive(garbage, 1, 0.2);
  auto bad = connect_request_bytes(0x2222);
  bad[8] ^= 0x01;
  s.receive(bad, 0, 0.3);
  CHECK(s.state() == SessionState::LoggingIn);
  CHECK(s.handshake_dropped() == 4);
  s.receive(connect_request_bytes(0x3333), 0, 0.4);
  CHECK(s.state() == SessionState::Connecting);
  // Connecting: garbage from N or N+1 changes nothing and is counted.
  s.receive(garbage, 1, 0.5);
  s.receive(garbage, 0, 0.5);
  CHECK(s.state() == SessionState::Connecting);
  CHECK(s.handshake_dropped() == 6);
}

TEST_CASE("Session: a cleartext Disconnect ends the session and says who may have sent it", "[net][session][attack]") {
  ClientSession client(config());
  FakeServer server;
  double now = 0;
  client.start(now);
  pump(client, server, now, 5);
  REQUIRE(client.state() == SessionState::InWorld);
  Packet bye;
  bye.header.sequence = client.transport().highest_processed();
  bye.header.flags = packet_flag::Disconnect;
  bye.header.id = 0x000B;
  client.receive(serialize_packet(bye), 1, now);
  CHECK(client.state() == SessionState::Failed);
  CHECK(client.failure() == "the server (or someone forging its address) disconnected");
}

TEST_CASE("Session: a server that goes away is named with the port the system reported unreachable", "[net][session]") {
  ClientSession client(config());
  FakeServer server;
  double now = 0;
  client.start(now);
  pump(client, server, now, 5);
  REQUIRE(client.state() == SessionState::InWorld);
  client.port_unreachable(9001, now);
  CHECK(client.state() == SessionState::Failed);
  CHECK(client.failure() == "127.0.0.1:9000 went away (the system reports its port 9001 unreachable)");
}

TEST_CASE("Session: a failure after connecting says goodbye with a Disconnect, so the server frees the account",
          "[net][session]") {
  auto c = config();
  c.character = "Nobody";  // not on the list: the session fails at the character list
  ClientSession client(c);
  FakeServer server;
  double now = 0;
  client.start(now);
  pump(client, server, now, 5);
  REQUIRE(client.state() == SessionState::Failed);
  CHECK(client.failure() == "the account has no character named \"Nobody\"");
  bool disconnect = false;
  for (const auto& d : client.take_outgoing()) {
    auto p = parse_packet(d.bytes);
    REQUIRE(p.has_value());
    if ((p->header.flags & packet_flag::Disconnect) != 0) disconnect = true;
  }
  CHECK(disconnect);
  // Nothing more is sent after it.
  client.tick(now + 1);
  CHECK(client.take_outgoing().empty());
}

TEST_CASE("Session: --character NAME finds an administrator's character that the server lists as +NAME",
          "[net][session]") {
  auto c = config();
  c.character = "Brannoc";
  ClientSession client(c);
  FakeServer server;
  server.second_name = "+Brannoc";
  double now = 0;
  client.start(now);
  pump(client, server, now, 5);
  REQUIRE(client.state() == SessionState::InWorld);
  CHECK(client.player_guid() == 0x50000002u);
}
