// Character creation (F656 -> F643) and deletion (F655 -> F655, F658) in
// the scenario server, on simulated time with the hand-driven client, with
// the demo world's CharGen (docs/scenario.md, "Creating and deleting
// characters").
#include "dereth/protocol/character_create.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>

#include "dereth/protocol/player_description.hpp"
#include "dereth/scenario/scenario_server.hpp"

#include "../chargen/demo_character.hpp"
#include "test_client.hpp"

using namespace dereth::scenario;
using scenario_test::ClientOptions;
using scenario_test::Harness;
using scenario_test::TestClient;
namespace protocol = dereth::protocol;
namespace cr = protocol::create_response;

namespace {

Scenario basic() {
  auto s = load_scenario_file(std::filesystem::path(DERETH_SOURCE_DIR) / "tests/scenario/data/basic.scenario");
  REQUIRE(s.has_value());
  return *s;
}

std::shared_ptr<const dereth::chargen::CharGenData> demo_char_gen() {
  static const auto data = std::make_shared<const dereth::chargen::CharGenData>(dereth::test::demo_char_gen_data());
  return data;
}

ServerConfig with_char_gen() {
  ServerConfig c;
  c.char_gen = demo_char_gen();
  return c;
}

protocol::CharacterCreate fen() {
  auto c = dereth::test::demo_character_create(*demo_char_gen(), "Fen", "Tester");
  c.abilities = {60, 60, 40, 70, 40, 60};  // Str End Coord Quick Focus Self: 330
  return c;
}

bool has_event(const ScenarioServer& server, std::string_view needle) {
  return std::ranges::any_of(server.events(),
                             [&](const ServerEvent& e) { return e.text.find(needle) != std::string::npos; });
}

std::vector<std::uint32_t> opcodes(const std::vector<std::vector<std::uint8_t>>& messages) {
  std::vector<std::uint32_t> out;
  for (const auto& m : messages) out.push_back(protocol::peek_opcode(m));
  return out;
}

// Connected with the list, the client waiting (character_index 99 sends no F657).
std::unique_ptr<Harness> connected(ServerConfig config = with_char_gen()) {
  ClientOptions o;
  o.character_index = 99;
  auto h = std::make_unique<Harness>(basic(), o, std::move(config));
  REQUIRE(h->run_until([&] { return std::ranges::count(opcodes(h->client.messages), 0xF7DFu) == 1; }, 10.0));
  return h;
}

}  // namespace

TEST_CASE("Scenario server: F656 creates the character, F643 Ok, and F657 enters it at the CharGen start",
          "[scenario][server][chargen]") {
  ClientOptions o;
  o.create = fen();
  Harness h(basic(), o, with_char_gen());
  REQUIRE(h.run_until([&] { return h.client.phase == TestClient::Phase::InWorld; }, 20.0));
  REQUIRE(h.client.create_response);
  CHECK(h.client.create_response->response == cr::Ok);
  CHECK(h.client.create_response->guid == 0x50000003u);  // after the scenario's 0x50000001 and 0x50000002
  CHECK(h.client.create_response->name == "Fen");
  CHECK(h.client.player == 0x50000003u);

  // ACE's order: list, name, DDD, then F643 for the F656, F7DF for the F7C8.
  const auto ops = opcodes(h.client.messages);
  const auto at_f643 = std::ranges::find(ops, 0xF643u);
  const auto at_f7df = std::ranges::find(ops, 0xF7DFu);
  REQUIRE(at_f643 != ops.end());
  REQUIRE(at_f7df != ops.end());
  CHECK(at_f643 < at_f7df);
  CHECK(std::ranges::count(ops, 0xF643u) == 1);

  // The player enters at the demo CharGen's first starter location.
  const auto& start = demo_char_gen()->char_gen.starter_areas.at(0).locations.at(0);
  auto create = protocol::decode_create_object(h.client.messages.at(h.client.world_entry_index));
  REQUIRE(create);
  REQUIRE(create->physics.position);
  CHECK(create->physics.position->cell_id == start.cell);
  CHECK(create->physics.position->origin.x == start.frame.origin.x);
  CHECK(create->physics.position->origin.y == start.frame.origin.y);
  CHECK(create->weenie.name == "Fen");

  // With the abilities it was made with (PlayerDescription order: Str, End,
  // Quick, Coord, Focus, Self).
  const auto description = std::ranges::find_if(h.client.messages, [](const auto& m) {
    return protocol::peek_wrapped_type(m) == protocol::login_opcode::PlayerDescriptionEvent;
  });
  REQUIRE(description != h.client.messages.end());
  auto q = protocol::decode_player_description(*description);
  REQUIRE(q);
  REQUIRE(q->attributes[2]);
  REQUIRE(q->attributes[3]);
  CHECK(q->attributes[2]->init_level == 70);
  CHECK(q->attributes[3]->init_level == 40);

  // The account now lists it: a second login sees three characters.
  CHECK(has_event(h.server, "created as 0x50000003"));
}

TEST_CASE("Scenario server: F656 refusals answer F643 with ACE's code", "[scenario][server][chargen]") {
  SECTION("a name another character holds, in any case, is NameInUse") {
    ClientOptions o;
    o.create = fen();
    o.create->name = "aerin";
    Harness h(basic(), o, with_char_gen());
    REQUIRE(h.run_until([&] { return h.client.create_response.has_value(); }, 10.0));
    CHECK(h.client.create_response->response == cr::NameInUse);
    CHECK(h.client.create_response->guid == 0u);
    CHECK(has_event(h.server, "refused with F643 3"));
  }
  SECTION("a name with digits is NameBanned") {
    ClientOptions o;
    o.create = fen();
    o.create->name = "Fen2";
    Harness h(basic(), o, with_char_gen());
    REQUIRE(h.run_until([&] { return h.client.create_response.has_value(); }, 10.0));
    CHECK(h.client.create_response->response == cr::NameBanned);
  }
  SECTION("too many skill credits are Corrupt, and nothing is added") {
    ClientOptions o;
    o.create = fen();
    o.create->skills.at(6) = protocol::skill_advancement::Specialized;  // Melee Defense: 30 more
    Harness h(basic(), o, with_char_gen());
    REQUIRE(h.run_until([&] { return h.client.create_response.has_value(); }, 10.0));
    CHECK(h.client.create_response->response == cr::Corrupt);
    CHECK_FALSE(has_event(h.server, "created as"));
  }
  SECTION("a server without a CharGen answers DatabaseDown and says why") {
    ClientOptions o;
    o.create = fen();
    Harness h(basic(), o);
    REQUIRE(h.run_until([&] { return h.client.create_response.has_value(); }, 10.0));
    CHECK(h.client.create_response->response == cr::DatabaseDown);
    CHECK(has_event(h.server, "no CharGen"));
  }
}

TEST_CASE("Scenario server: another skill count boots the client as the wrong version", "[scenario][server][chargen]") {
  ClientOptions o;
  o.create = fen();
  o.create->skills.resize(54);
  Harness h(basic(), o, with_char_gen());
  REQUIRE(h.run_until([&] { return h.client.boot.has_value(); }, 10.0));
  CHECK_THAT(*h.client.boot, Catch::Contains("version"));
  CHECK_FALSE(h.client.create_response);
  CHECK(h.last_session()->rejection == protocol::login_opcode::AccountBoot);
}

TEST_CASE("Scenario server: F656 with the account spelled otherwise is ignored, as ACE ignores it",
          "[scenario][server][chargen]") {
  auto owned = connected();
  auto& h = *owned;
  auto c = fen();
  c.account = "tester";
  h.client.send(protocol::encode(c), protocol::queue::Logon);
  h.run_until([] { return false; }, 1.0);
  CHECK_FALSE(std::ranges::count(opcodes(h.client.messages), 0xF643u));
  CHECK(has_event(h.server, "F656 with account 'tester' ignored"));
}

TEST_CASE("Scenario server: F655 greys the character out, then it cannot enter and its name is free",
          "[scenario][server][chargen]") {
  auto owned = connected();
  auto& h = *owned;
  const std::size_t before = h.client.messages.size();
  h.client.send(protocol::encode(protocol::CharacterDelete{"Tester", 0}), protocol::queue::Logon);
  REQUIRE(h.run_until([&] { return h.client.messages.size() >= before + 2; }, 5.0));
  // ACE's order: the bare F655, then the new list.
  CHECK(h.client.messages[before] == protocol::encode_opcode_only(protocol::login_opcode::CharacterDelete));
  auto list = protocol::decode_character_list(h.client.messages[before + 1]);
  REQUIRE(list);
  REQUIRE(list->characters.size() == 2);
  CHECK(list->characters[0].name == "Aerin");
  CHECK(list->characters[0].seconds_greyed_out > 3000u);  // pending for an hour
  CHECK(list->characters[0].seconds_greyed_out <= 3600u);
  CHECK(list->characters[1].seconds_greyed_out == 0u);

  SECTION("F657 for it is refused with F659 0x0F") {
    h.client.send(protocol::encode(protocol::CharacterEnterWorld{0x50000001, "Tester"}), protocol::queue::Logon);
    REQUIRE(h.run_until([&] { return h.client.character_error.has_value(); }, 5.0));
    CHECK(h.client.character_error == 0x0Fu);
  }
  SECTION("deleting it again is F659 0x06") {
    h.client.send(protocol::encode(protocol::CharacterDelete{"Tester", 0}), protocol::queue::Logon);
    REQUIRE(h.run_until([&] { return h.client.character_error.has_value(); }, 5.0));
    CHECK(h.client.character_error == 0x06u);
  }
  SECTION("a slot past the list and a misspelt account are F659 0x06") {
    h.client.send(protocol::encode(protocol::CharacterDelete{"Tester", 5}), protocol::queue::Logon);
    REQUIRE(h.run_until([&] { return h.client.character_error.has_value(); }, 5.0));
    CHECK(h.client.character_error == 0x06u);
    h.client.character_error.reset();
    h.client.send(protocol::encode(protocol::CharacterDelete{"tester", 1}), protocol::queue::Logon);
    REQUIRE(h.run_until([&] { return h.client.character_error.has_value(); }, 5.0));
    CHECK(h.client.character_error == 0x06u);
  }
  SECTION("its name may be taken by a new character") {
    auto c = fen();
    c.name = "Aerin";
    h.client.send(protocol::encode(c), protocol::queue::Logon);
    REQUIRE(h.run_until([&] { return h.client.create_response.has_value(); }, 5.0));
    CHECK(h.client.create_response->response == cr::Ok);
  }
}

TEST_CASE("Scenario server: a deleted character is gone from the list once its time runs out",
          "[scenario][server][chargen]") {
  auto config = with_char_gen();
  config.char_delete_time = 2.0;
  auto owned = connected(config);
  auto& h = *owned;
  h.client.send(protocol::encode(protocol::CharacterDelete{"Tester", 0}), protocol::queue::Logon);
  REQUIRE(h.run_until([&] { return h.client.list && h.client.list->characters.at(0).seconds_greyed_out > 0; }, 5.0));
  CHECK(h.client.list->characters[0].seconds_greyed_out <= 2u);
  h.run_until([] { return false; }, 3.0);
  // The next list (after deleting the other one) no longer holds Aerin.
  // Slots count in the list the client last saw, where Borin is still 1.
  h.client.send(protocol::encode(protocol::CharacterDelete{"Tester", 1}), protocol::queue::Logon);
  REQUIRE(h.run_until([&] { return h.client.list && h.client.list->characters.size() == 1; }, 5.0));
  CHECK(h.client.list->characters[0].name == "Borin the Bold");
  CHECK(h.client.list->characters[0].seconds_greyed_out > 0u);
}
