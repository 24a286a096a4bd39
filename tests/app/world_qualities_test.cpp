// The PlayerDescription reaches the world: the player's qualities, with the
// portal's SkillTable and XpTable, answer its run rate and jump velocity
// (ACCWeenieObject::InqRunRate 0x0058C560, CACQualities::InqRunRate
// 0x00592800); a malformed one is dropped and counted.
#include <catch2/catch.hpp>

#include "dereth/app/demo.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/player_description.hpp"
#include "dereth/sim/motion/motion_table.hpp"
#include "dereth/sim/player/qualities.hpp"

#include "world_support.hpp"

using namespace dereth;

namespace {

const dat::DatFile& portal() {
  return dereth::test::demo_dats().portal;
}

std::vector<std::uint8_t> description(std::uint32_t quickness, std::uint32_t run_pp) {
  protocol::PlayerDescription d;
  d.weenie_type = 1;
  d.vector_flags = protocol::quality_vector_flag::Attribute | protocol::quality_vector_flag::Skill;
  for (auto& a : d.attributes) a = protocol::AttributeWire{0, 100, 0};
  d.attributes[2] = protocol::AttributeWire{0, quickness, 0};
  for (auto& v : d.vitals) v = protocol::SecondaryAttributeWire{0, 0, 0, 100};
  d.skills = {{0x18, protocol::SkillWire{0, 1, 2, run_pp, 0, 0, 0.0}}};
  return protocol::encode_game_event(0x50000001, 1, protocol::login_opcode::PlayerDescriptionEvent,
                                     protocol::encode_player_description_qualities(d));
}

}  // namespace

TEST_CASE(
    "A PlayerDescription gives the player its run rate from the Run skill (ACCWeenieObject::InqRunRate 0x0058C560)",
    "[app][retail]") {
  core::ManualClock clock{core::Seconds{0.0}};
  app::World world(clock, &portal());
  CHECK(world.player_qualities() == nullptr);
  world.handle(description(100, 0));
  REQUIRE(world.player_qualities() != nullptr);
  CHECK(world.context().player_qualities == world.player_qualities());
  float rate = 0.0f;
  REQUIRE(world.player_qualities()->inq_run_rate(rate));
  // The demo SkillTable's Run is Quickness / 1: skill 100, (100 / 300 x 11 + 4) / 4.
  CHECK(rate == Approx(1.9166667f));

  SECTION("experience raises the skill through the demo XpTable") {
    world.handle(description(100, 1000000));
    float faster = 0.0f;
    REQUIRE(world.player_qualities()->inq_run_rate(faster));
    CHECK(faster > rate);
  }
  SECTION("a malformed description is dropped and counted; the qualities held stay") {
    const auto* before = world.player_qualities();
    auto bytes = description(200, 0);
    bytes.resize(bytes.size() - 3);
    const auto errors = world.stats().decode_errors;
    world.handle(bytes);
    CHECK(world.stats().decode_errors == errors + 1);
    CHECK(world.player_qualities() == before);
    float same = 0.0f;
    REQUIRE(world.player_qualities()->inq_run_rate(same));
    CHECK(same == rate);
  }
}

TEST_CASE("The demo scenario server's run rate is the one the client's World computes from the same description",
          "[app][scenario]") {
  core::ManualClock clock{core::Seconds{0.0}};
  app::World world(clock, &portal());
  const scenario::ServerConfig config = app::demo_server_config(&portal());
  REQUIRE(config.run_rate);
  for (const auto& [quickness, pp] : {std::pair{100u, 0u}, std::pair{140u, 0u}, std::pair{100u, 1000000u}}) {
    const auto bytes = description(quickness, pp);
    world.handle(bytes);
    REQUIRE(world.player_qualities() != nullptr);
    float client = 0.0f;
    REQUIRE(world.player_qualities()->inq_run_rate(client));
    auto decoded = protocol::decode_player_description(bytes);
    REQUIRE(decoded);
    const std::optional<float> server = config.run_rate(*decoded);
    REQUIRE(server.has_value());
    CHECK(*server == client);
  }
  CHECK(*config.run_rate(*protocol::decode_player_description(description(140, 0))) ==
        static_cast<float>(sim::get_run_rate(0.0f, 140, 1.0f)));
  SECTION("without a portal there is no Run skill: no answer (the server relays rate 1)") {
    const scenario::ServerConfig bare = app::demo_server_config(nullptr);
    REQUIRE(bare.run_rate);
    CHECK_FALSE(bare.run_rate(*protocol::decode_player_description(description(140, 0))).has_value());
  }
}

TEST_CASE(
    "PlayerModule::DisableHouseRestrictionEffects 0x005D3160: the PlayerDescription's CharacterOptions1 bit 25 "
    "keeps house restriction scripts from playing (CPlayerSystem::Handle_PlayerDescription 0x005636A0) "
    "(PlayerModule::UnPack 0x005D49D0)",
    "[app][retail]") {
  core::ManualClock clock{core::Seconds{0.0}};
  app::World world(clock, &portal());
  const auto with_options = [](std::uint32_t options1) {
    protocol::PlayerDescription d;
    d.weenie_type = 1;
    d.vector_flags = protocol::quality_vector_flag::Attribute;
    for (auto& a : d.attributes) a = protocol::AttributeWire{0, 100, 0};
    d.options = protocol::PlayerOptionsWire{0, options1};
    return protocol::encode_game_event(0x50000001, 1, protocol::login_opcode::PlayerDescriptionEvent,
                                       protocol::encode_player_description_qualities(d));
  };
  CHECK_FALSE(world.context().disable_house_restriction_effects);
  world.handle(with_options(0x02000000u | 0x1u));
  CHECK(world.context().disable_house_restriction_effects);
  // A description without the options (the qualities alone) leaves it.
  world.handle(description(100, 0));
  CHECK(world.context().disable_house_restriction_effects);
  world.handle(with_options(0xFDFFFFFFu));  // every other bit
  CHECK_FALSE(world.context().disable_house_restriction_effects);
}

TEST_CASE(
    "A World reads the SkillTable, XpTable and VitalTable once, through its record cache, however many "
    "PlayerDescriptions come",
    "[app][record_cache]") {
  core::ManualClock clock{core::Seconds{0.0}};
  app::World world(clock, &portal());
  world.handle(description(100, 0));
  REQUIRE(world.player_qualities() != nullptr);
  const std::size_t after_first = world.records().size();
  world.handle(description(140, 1000000));
  REQUIRE(world.player_qualities() != nullptr);
  CHECK(world.records().size() == after_first);  // nothing read again
  // The world's lookups are the cache's: asking for both now reads nothing.
  CHECK(world.records().skill_table() != nullptr);
  CHECK(world.records().xp_table() != nullptr);
  CHECK(world.records().size() == after_first);

  SECTION("a portal without them: each is counted missing once, and the description still gives qualities") {
    const auto bare = dereth::test::make_dat({}, dat::DatKind::Portal, "bare portal");
    app::World lacking(clock, bare.get());
    lacking.handle(description(100, 0));
    lacking.handle(description(140, 0));
    REQUIRE(lacking.player_qualities() != nullptr);
    REQUIRE(lacking.records().missing().size() == 3);
    CHECK(lacking.records().missing()[0].kind == "SkillTable");
    CHECK(lacking.records().missing()[1].kind == "XpTable");
    CHECK(lacking.records().missing()[2].kind == "VitalTable");  // the vitals' maxima are then unknown
  }
}
