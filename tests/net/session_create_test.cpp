// Character creation (F656 -> F643) and deletion (F655) in the client
// session, against a small fake server written here from ACE's handlers:
// F643 on queue 9, F655's empty answer then a fresh F658 on deletion.
#include <catch2/catch.hpp>

#include <algorithm>

#include "dereth/net/session.hpp"
#include "dereth/protocol/character_create.hpp"
#include "dereth/protocol/messages.hpp"

using namespace dereth::net;
namespace lo = dereth::protocol::login_opcode;
namespace proto = dereth::protocol;

namespace {

struct FakeServer {
  std::vector<proto::CharacterEntry> characters;
  std::uint32_t create_answer = proto::create_response::Ok;
  bool answer_delete_with_list = true;
  Transport transport{Role::Server};
  bool connected = false;
  std::vector<std::uint32_t> client_opcodes;
  std::vector<proto::CharacterCreate> creates;
  std::vector<proto::CharacterDelete> deletes;
  std::vector<std::uint16_t> create_queues;
  std::uint32_t entered = 0;
  std::vector<std::pair<std::vector<std::uint8_t>, std::uint8_t>> to_client;

  proto::CharacterList list() const {
    proto::CharacterList l;
    l.characters = characters;
    l.max_slots = 5;
    l.account = "TestAccount";
    return l;
  }

  void receive(const OutgoingDatagram& d, double now) {
    if (!connected) {
      auto p = parse_packet(d.bytes);
      REQUIRE(p.has_value());
      if (p->optional.login_request && d.port_offset == 0) {
        Packet cr;
        cr.header.id = 0x000B;
        cr.header.iteration = 1;
        cr.optional.connect_request = ConnectRequestBody{1.0, 0x1122334455667788ULL, 5, 0xAAAA0001, 0xBBBB0002, 0};
        to_client.emplace_back(serialize_packet(cr), 0);
      } else if (p->optional.connect_response && d.port_offset == 1) {
        connected = true;
        transport.start(0xAAAA0001, 0xBBBB0002, 0x000B, 1, now);
        transport.send_message(proto::encode(list()), proto::queue::Ui);
      }
      return;
    }
    transport.receive(d.bytes, now);
    while (auto m = transport.poll_message()) {
      const auto op = proto::peek_opcode(m->bytes);
      client_opcodes.push_back(op);
      if (op == lo::CharacterCreate) {
        auto c = proto::decode_character_create(m->bytes);
        REQUIRE(c.has_value());
        creates.push_back(*c);
        create_queues.push_back(m->queue);
        proto::CharacterCreateResponse r;
        r.response = create_answer;
        if (create_answer == proto::create_response::Ok) {
          r.guid = 0x50000010;
          r.name = c->name;
          characters.push_back({r.guid, r.name, 0});
        }
        transport.send_message(proto::encode(r), proto::queue::Ui);
      }
      if (op == lo::CharacterDelete) {
        auto c = proto::decode_character_delete(m->bytes);
        REQUIRE(c.has_value());
        deletes.push_back(*c);
        transport.send_message(proto::encode_opcode_only(lo::CharacterDelete), proto::queue::Ui);
        if (answer_delete_with_list && c->slot < characters.size()) {
          characters[c->slot].seconds_greyed_out = 3599;
          transport.send_message(proto::encode(list()), proto::queue::Ui);
        }
      }
      if (op == lo::CharacterEnterWorldRequest) {
        transport.send_message(proto::encode_opcode_only(lo::CharacterEnterWorldServerReady), 9);
      }
      if (op == lo::CharacterEnterWorld) {
        auto e = proto::decode_character_enter_world(m->bytes);
        REQUIRE(e.has_value());
        entered = e->guid;
        transport.send_message(proto::encode(proto::PlayerCreate{e->guid}), 10);
        proto::CreateObject player;
        player.guid = e->guid;
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
  c.account = "testaccount";
  c.password = "secret";
  c.server_name = "127.0.0.1:9000";
  return c;
}

proto::CharacterCreate new_character(std::string name) {
  proto::CharacterCreate m;
  m.heritage = 1;
  m.gender = 2;
  m.abilities = {60, 60, 50, 50, 50, 60};
  m.skills.assign(proto::kCharacterCreateSkillCount, proto::skill_advancement::Inactive);
  m.name = std::move(name);
  return m;
}

}  // namespace

TEST_CASE("Session: an account with no characters waits in the list for Create, and F643 Ok adds the character",
          "[net][session][create]") {
  auto c = config();
  c.wait_for_choice = true;
  ClientSession client(c);
  FakeServer server;
  double now = 0;
  client.start(now);
  pump(client, server, now, 2);
  REQUIRE(client.state() == SessionState::CharacterSelect);
  REQUIRE(client.awaiting_choice());
  REQUIRE(client.characters());
  CHECK(client.characters()->characters.empty());
  const auto revision = client.characters_revision();

  REQUIRE(client.create_character(new_character("Aerfalle")));
  CHECK(client.creating());
  CHECK_FALSE(client.create_character(new_character("Twice")));  // one at a time
  pump(client, server, now, 1);
  REQUIRE(server.creates.size() == 1);
  CHECK(server.creates[0].account == "TestAccount");  // as F658 spelled it
  CHECK(server.creates[0].slot == 0);
  CHECK(server.creates[0].name == "Aerfalle");
  CHECK(server.create_queues[0] == proto::queue::Logon);
  CHECK_FALSE(client.creating());
  REQUIRE(client.create_response());
  CHECK(client.create_response()->response == proto::create_response::Ok);
  REQUIRE(client.characters()->characters.size() == 1);
  CHECK(client.characters()->characters[0].guid == 0x50000010u);
  CHECK(client.characters()->characters[0].name == "Aerfalle");
  CHECK(client.characters_revision() > revision);
  CHECK(client.awaiting_choice());

  // Entered at once.
  REQUIRE(client.choose_character(0x50000010));
  pump(client, server, now, 2);
  CHECK(client.state() == SessionState::InWorld);
  CHECK(server.entered == 0x50000010u);
}

TEST_CASE("Session: a refused F656 keeps the list and exposes the code", "[net][session][create]") {
  auto c = config();
  c.wait_for_choice = true;
  ClientSession client(c);
  FakeServer server;
  server.characters = {{0x50000001, "Brannoc", 0}};
  server.create_answer = proto::create_response::NameInUse;
  double now = 0;
  client.start(now);
  pump(client, server, now, 2);
  REQUIRE(client.create_character(new_character("Brannoc")));
  pump(client, server, now, 1);
  CHECK(client.state() == SessionState::CharacterSelect);
  CHECK(client.awaiting_choice());
  REQUIRE(client.create_response());
  CHECK(client.create_response()->response == proto::create_response::NameInUse);
  CHECK(client.characters()->characters.size() == 1);
  CHECK(server.creates.at(0).slot == 1);  // the first free slot
  // Another try is allowed.
  CHECK(client.create_character(new_character("Brannoc Two")));
}

TEST_CASE("Session: --create sends F656 once the list is in, then enters with the new character",
          "[net][session][create]") {
  auto c = config();
  c.create = new_character("Cadrel");
  ClientSession client(c);
  FakeServer server;
  server.characters = {{0x50000001, "Brannoc", 0}};
  double now = 0;
  client.start(now);
  pump(client, server, now, 3);
  REQUIRE(client.state() == SessionState::InWorld);
  CHECK(server.creates.size() == 1);
  CHECK(server.entered == 0x50000010u);
  CHECK(client.player_guid() == 0x50000010u);
}

TEST_CASE("Session: --create refused ends the session with the server's reason as a sentence",
          "[net][session][create]") {
  auto c = config();
  c.create = new_character("Cadrel");
  ClientSession client(c);
  FakeServer server;
  server.create_answer = proto::create_response::NameBanned;
  double now = 0;
  client.start(now);
  pump(client, server, now, 3);
  CHECK(client.state() == SessionState::Failed);
  CHECK(client.failure() == proto::describe_create_response(proto::create_response::NameBanned));
  CHECK(server.entered == 0);
}

TEST_CASE("Session: an account with no characters and nothing to create fails with a sentence",
          "[net][session][create]") {
  ClientSession client(config());
  FakeServer server;
  double now = 0;
  client.start(now);
  pump(client, server, now, 3);
  CHECK(client.state() == SessionState::Failed);
  CHECK(client.failure() ==
        "the account has no characters; give --create NAME to make one, or choose Create in the window");
}

TEST_CASE("Session: F655 deletes by slot and the character shows pending deletion", "[net][session][create]") {
  auto c = config();
  c.wait_for_choice = true;
  ClientSession client(c);
  FakeServer server;
  server.characters = {{0x50000001, "Aerfalle", 0}, {0x50000002, "Brannoc", 0}};
  double now = 0;
  client.start(now);
  pump(client, server, now, 2);
  REQUIRE(client.awaiting_choice());
  CHECK_FALSE(client.delete_character(0x12345678));  // not listed
  REQUIRE(client.delete_character(0x50000002));
  pump(client, server, now, 1);
  REQUIRE(server.deletes.size() == 1);
  CHECK(server.deletes[0].account == "TestAccount");
  CHECK(server.deletes[0].slot == 1);
  REQUIRE(client.characters()->characters.size() == 2);
  CHECK(client.characters()->characters[1].seconds_greyed_out == 3599);  // the server's list
  CHECK(client.characters()->characters[0].seconds_greyed_out == 0);
  CHECK(client.awaiting_choice());

  SECTION("without a fresh list, the F655 answer alone marks it") {
    server.answer_delete_with_list = false;
    REQUIRE(client.delete_character(0x50000001));
    pump(client, server, now, 1);
    CHECK(client.characters()->characters[0].seconds_greyed_out > 0);
  }
}
