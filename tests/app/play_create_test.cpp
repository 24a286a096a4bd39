// `dereth play --create NAME ...` headless, against the scenario server:
// the F656 the server receives is the character the options describe, and
// choices the rules refuse never leave the client.
#include <catch2/catch.hpp>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "dereth/protocol/character_create.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

#include "chargen_server.hpp"
#include "run_cli.hpp"
#include "served_support.hpp"
#include "support/temp_dir.hpp"

namespace {

using dereth::app::test::run;
namespace proto = dereth::protocol;

using dereth::app::test::chargen_server_options;

using dereth::app::test::Served;

// The CharacterCreate messages the server received, decoded.
std::vector<proto::CharacterCreate> creates(const Served& served) {
  std::vector<proto::CharacterCreate> out;
  for (const auto& m : served.server.client_messages()) {
    if (m.opcode != proto::login_opcode::CharacterCreate) continue;
    auto c = proto::decode_character_create(m.bytes);
    REQUIRE(c.has_value());
    out.push_back(*c);
  }
  return out;
}

}  // namespace

TEST_CASE("dereth play --create: the F656 the server receives is the character the options describe",
          "[app][e2e][live][create]") {
  Served served("/tests/scenario/data/no_characters.scenario", chargen_server_options());
  const dereth::test::TempDir tmp("play-create");
  const auto pw = tmp / "password";
  std::ofstream(pw) << "secret\n";
  std::string out, err;
  // The demo's CharGen: heritage 1, template 0 (Wanderer); female; Magic
  // Defense (15) trained on top of the template, War Magic (34) untrained.
  const int rc =
      run({"dereth",    "play",         "--server",          served.where, "--account", "tester",    "--password-file",
           pw.string(), "--headless",   "--no-record",       "--ticks",    "3",         "--timeout", "3",
           "--create",  "Aerfalle",     "--heritage",        "1",          "--sex",     "2",         "--template",
           "0",         "--attributes", "60,60,50,50,60,50", "--train",    "15",        "--untrain", "34"},
          out, err);
  INFO(out << err);
  const auto created = creates(served);
  REQUIRE(created.size() == 1);
  const auto& c = created[0];
  CHECK(c.account == "Tester");  // as the character list spelled it
  CHECK(c.name == "Aerfalle");
  CHECK(c.heritage == 1);
  CHECK(c.gender == 2);
  CHECK(c.template_option == 0);
  CHECK(c.abilities == std::array<std::uint32_t, 6>{60, 60, 50, 50, 60, 50});
  CHECK(c.slot == 0);
  CHECK(c.start_area == 0);
  REQUIRE(c.skills.size() == proto::kCharacterCreateSkillCount);
  CHECK(c.skills[15] == proto::skill_advancement::Trained);
  CHECK(c.skills[34] == proto::skill_advancement::Untrained);
  CHECK(c.skills[22] == proto::skill_advancement::Trained);  // the template's Jump
  CHECK(c.skills[0] == proto::skill_advancement::Inactive);
  // The scenario server creates it (its F656 handling) and the client enters with it.
  CHECK(rc == 0);
  CHECK(out.find("The character was created. Aerfalle") != std::string::npos);
  CHECK(out.find("in the world") != std::string::npos);
}

TEST_CASE("dereth play --create: choices the rules refuse are sentences and exit 2 before any packet",
          "[app][e2e][live][create]") {
  Served served("/tests/scenario/data/no_characters.scenario", chargen_server_options());
  const dereth::test::TempDir tmp("play-create-bad");
  const auto pw = tmp / "password";
  std::ofstream(pw) << "secret\n";
  std::string out, err;
  CHECK(run({"dereth", "play", "--server", served.where, "--account", "tester", "--password-file", pw.string(),
             "--headless", "--no-record", "--create", "R2", "--attributes", "100,100,100,10,10,10"},
            out, err) == 2);
  // The name's problem, one sentence a line; the attributes (330) are fine.
  CHECK(err.find("dereth: cannot create R2: ") != std::string::npos);
  CHECK(err.find("The attributes use") == std::string::npos);
  CHECK(run({"dereth", "play", "--server", served.where, "--account", "tester", "--password-file", pw.string(),
             "--headless", "--no-record", "--create", "Aerfalle", "--attributes", "100,100,100,20,10,10"},
            out, err) == 2);
  CHECK(err.find("The attributes use 340 credits; Wayfarers have 330.") != std::string::npos);
  CHECK(run({"dereth", "play", "--server", served.where, "--account", "tester", "--password-file", pw.string(),
             "--headless", "--no-record", "--create", "Aerfalle", "--heritage", "9"},
            out, err) == 2);
  CHECK(err.find("the DATs have no heritage 9") != std::string::npos);
  CHECK(run({"dereth", "play", "--server", served.where, "--account", "tester", "--password-file", pw.string(),
             "--headless", "--no-record", "--heritage", "1"},
            out, err) == 2);
  CHECK(err.find("give --create too") != std::string::npos);
  CHECK(served.server.client_messages().empty());  // nothing was sent
}
