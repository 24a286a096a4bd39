// The scenario text format (docs/scenario.md): every directive, and errors
// that name the file, the line and the column.
#include <catch2/catch.hpp>

#include <bit>
#include <string>

#include "dereth/scenario/scenario.hpp"

using namespace dereth::scenario;
namespace protocol = dereth::protocol;

namespace {

template <class T>
const T& as(const StreamEvent& e) {
  REQUIRE(std::holds_alternative<T>(e.message));
  return std::get<T>(e.message);
}

// Parses `text` expecting an error; returns its message.
std::string error_of(std::string_view text) {
  auto s = parse_scenario(text, "bad.scenario");
  REQUIRE_FALSE(s.has_value());
  return s.error().message();
}

}  // namespace

TEST_CASE("Scenario: the test data file parses", "[scenario][parse]") {
  auto s = load_scenario_file(std::string(DERETH_SOURCE_DIR) + "/tests/scenario/data/basic.scenario");
  if (!s) FAIL(s.error().message());
  CHECK(s->name == "basic.scenario");
  CHECK(s->world_name == "Dereth Test");
  REQUIRE(s->accounts.size() == 1);
  CHECK(s->accounts[0].characters.size() == 2);
  CHECK(s->stream.size() == 12);
  CHECK_FALSE(s->impairment.active());
}

TEST_CASE("Scenario: every directive", "[scenario][parse]") {
  const char* text = R"(# a comment line
world "Test World" connections=5 max=500   # trailing comment
account Alice password="open sesame" slots=5
character 0x50000001 Ann
character 0x50000002 "Ann the \"Second\""
account bob password=""
seed 1234
seeds server=0xAABBCCDD client=7 cookie=0x0102030405060708
server-full
connect-race 250
impair loss=0.2 duplicate=0.1 reorder=0.3 delay=15 jitter=5 reorder-window=40 seed=99 inbound
player setup=0x02000002 mtable=0 stable=0x20000002 pes=0 pos=0x01020304,1,2,3,0,0,0,1

at 2.0 delete guid=0x80000001
at 0 create guid=0x80000001 setup=0x02000124 mtable=0x09000004 stable=0x20000010 pes=0x34000020 name="Drudge" wcid=7 icon=0x06001234 type=0x10 flags=0x14 radar=4 blip=8 state=0x408 pos=0x7F7F001C,10,20,30 velocity=1,2,3 acceleration=0,0,-9.8 omega=0,0,0.5 scale=1.25 friction=0.5 elasticity=0.1 translucency=0.25 default-script=0x5 default-script-intensity=0.75
at 0.1 position guid=player pos=0x7F7F001C,10,20,30,1,0,0,0 velocity=0,1,0 placement=0x65 grounded
at 0.2 state guid=0x80000001 state=0x409
at 0.3 vector guid=0x80000001 velocity=0,0,5 omega=1,0,0
at 0.4 movement guid=0x80000001 stance=0x8000003D style=0x8000003D forward=0x44000007 forward-speed=2 sidestep=0x6500000F sidestep-speed=-1 turn=0x6500000D turn-speed=1.5 autonomous
at 0.5 script-type guid=0x80000001 type=0x4F intensity=0.5
at 0.6 script-id guid=0x80000001 id=0x3300015B
at 0.7 teleport pos=0x8A0201A3,1,2,3
at 0.8 teleport
at 0.9 sound guid=0x80000001 id=12 volume=0.5
at 1.0 chat "Hello # not a comment" type=3
at 1.1 chat text=Hi
at 1.2 hex E0F70000 | 0200 4869 0000 00000000
at 1.3 hex queue=7 AABBCCDD
loop 2.5 count=4
)";
  auto parsed = parse_scenario(text, "all.scenario");
  if (!parsed) FAIL(parsed.error().message());
  const Scenario& s = *parsed;
  CHECK(s.world_name == "Test World");
  CHECK(s.connections == 5);
  CHECK(s.max_connections == 500);
  REQUIRE(s.accounts.size() == 2);
  CHECK(s.accounts[0].name == "Alice");
  CHECK(s.accounts[0].password == "open sesame");
  CHECK(s.accounts[0].max_slots == 5u);
  REQUIRE(s.accounts[0].characters.size() == 2);
  CHECK(s.accounts[0].characters[0] == ScenarioCharacter{0x50000001, "Ann"});
  CHECK(s.accounts[0].characters[1].name == "Ann the \"Second\"");
  CHECK(s.accounts[1].password.empty());
  CHECK(s.accounts[1].characters.empty());
  CHECK(s.seed == 1234u);
  CHECK(s.server_seed == 0xAABBCCDDu);
  CHECK(s.client_seed == 7u);
  CHECK(s.cookie == 0x0102030405060708u);
  CHECK(s.server_full);
  CHECK(s.connect_race_ms == 250.0);
  CHECK(s.impairment == Impairment{99, 0.2, 0.1, 0.3, 15, 5, 40, true});
  CHECK(s.player.setup_id == 0x02000002u);
  CHECK_FALSE(s.player.motion_table_id.has_value());
  CHECK(s.player.sound_table_id == 0x20000002u);
  CHECK_FALSE(s.player.physics_script_table_id.has_value());
  CHECK(s.player.position == protocol::Position{0x01020304, {1, 2, 3}, {0, 0, 0, 1}});
  CHECK(s.loop_period == 2.5);
  CHECK(s.loop_count == 4u);

  // Sorted by time; the delete written first plays last.
  REQUIRE(s.stream.size() == 15);
  CHECK(s.stream.back().time == 2.0);
  CHECK(s.stream.back().line == 14);
  CHECK(as<protocol::DeleteObject>(s.stream.back()).guid == 0x80000001u);

  const auto& c = as<protocol::CreateObject>(s.stream[0]);
  CHECK(s.stream[0].line == 15);
  CHECK(c.guid == 0x80000001u);
  CHECK(c.physics.setup_id == 0x02000124u);
  CHECK(c.physics.motion_table_id == 0x09000004u);
  CHECK(c.physics.sound_table_id == 0x20000010u);
  CHECK(c.physics.physics_script_table_id == 0x34000020u);
  CHECK(c.physics.state == 0x408u);
  CHECK(c.physics.position == protocol::Position{0x7F7F001C, {10, 20, 30}, {}});
  CHECK(c.physics.velocity == protocol::Vec3{1, 2, 3});
  CHECK(c.physics.acceleration == protocol::Vec3{0, 0, -9.8F});
  CHECK(c.physics.omega == protocol::Vec3{0, 0, 0.5F});
  CHECK(c.physics.object_scale == 1.25F);
  CHECK(c.physics.friction == 0.5F);
  CHECK(c.physics.elasticity == 0.1F);
  CHECK(c.physics.translucency == 0.25F);
  CHECK(c.physics.default_script_type == 5u);
  CHECK(c.physics.default_script_intensity == 0.75F);
  CHECK(c.weenie.name == "Drudge");
  CHECK(c.weenie.weenie_class_id == 7u);
  CHECK(c.weenie.icon_id == 0x06001234u);
  CHECK(c.weenie.item_type == 0x10u);
  CHECK(c.weenie.object_description_flags == 0x14u);
  CHECK(c.weenie.radar_behavior == std::optional<std::uint8_t>{4});
  CHECK(c.weenie.radar_blip_color == std::optional<std::uint8_t>{8});

  CHECK(s.stream[1].to_player);
  const auto& p = as<protocol::UpdatePosition>(s.stream[1]);
  CHECK(p.position.cell_id == 0x7F7F001Cu);
  CHECK(p.position.qw == 1.0F);
  CHECK_FALSE(p.position.qx.has_value());
  CHECK(p.position.velocity == protocol::Vec3{0, 1, 0});
  CHECK(p.position.placement_id == 0x65u);
  CHECK(p.position.is_grounded());

  CHECK(as<protocol::SetState>(s.stream[2]).state == 0x409u);
  const auto& v = as<protocol::VectorUpdate>(s.stream[3]);
  CHECK(v.velocity == protocol::Vec3{0, 0, 5});
  CHECK(v.omega == protocol::Vec3{1, 0, 0});

  const auto& m = as<protocol::MovementEvent>(s.stream[4]);
  CHECK(m.is_autonomous == 1);
  CHECK(m.data.current_style == 0x003D);
  const auto& st = std::get<protocol::InterpretedMovement>(m.data.payload).state;
  CHECK(st.current_style == std::optional<std::uint16_t>(0x003D));
  CHECK(st.forward_command == std::optional<std::uint16_t>(0x0007));
  CHECK(st.forward_speed == std::optional<float>(2.0F));
  CHECK(st.sidestep_command == std::optional<std::uint16_t>(0x000F));
  CHECK(st.sidestep_speed == std::optional<float>(-1.0F));
  CHECK(st.turn_command == std::optional<std::uint16_t>(0x000D));
  CHECK(st.turn_speed == std::optional<float>(1.5F));

  const auto& t = as<protocol::PlayScriptType>(s.stream[5]);
  CHECK(t.script_type == 0x4Fu);
  CHECK(t.intensity() == 0.5F);
  CHECK(as<protocol::PlayScriptId>(s.stream[6]).script_id == 0x3300015Bu);
  CHECK(as<TeleportSpec>(s.stream[7]).destination == protocol::Position{0x8A0201A3, {1, 2, 3}, {}});
  CHECK(s.stream[7].to_player);
  CHECK_FALSE(as<TeleportSpec>(s.stream[8]).destination.has_value());
  const auto& snd = as<protocol::Sound>(s.stream[9]);
  CHECK(snd.sound_type == 12u);
  CHECK(snd.volume == 0.5F);
  CHECK(as<protocol::ServerMessage>(s.stream[10]) == protocol::ServerMessage{"Hello # not a comment", 3});
  CHECK(as<protocol::ServerMessage>(s.stream[11]) == protocol::ServerMessage{"Hi", 0});
  const auto& raw = as<RawMessage>(s.stream[12]);
  CHECK(raw.bytes == std::vector<std::uint8_t>{0xE0, 0xF7, 0, 0, 2, 0, 0x48, 0x69, 0, 0, 0, 0, 0, 0});
  CHECK(raw.queue == 9);  // F7E0 goes on the UI queue
  CHECK(as<RawMessage>(s.stream[13]).queue == 7);
}

TEST_CASE("Scenario: defaults", "[scenario][parse]") {
  auto s = parse_scenario("at 1 create guid=5\nat 2 movement guid=5\nat 3 script-type guid=5 type=1\n", "d");
  REQUIRE(s.has_value());
  CHECK(s->world_name == "Dereth");
  CHECK(s->client_version == "1802");
  CHECK_FALSE(s->server_full);
  CHECK_FALSE(s->loop_period.has_value());
  const auto& c = as<protocol::CreateObject>(s->stream[0]);
  CHECK_FALSE(c.physics.setup_id.has_value());
  CHECK_FALSE(c.physics.position.has_value());
  CHECK(c.weenie.name == "Object");
  const auto& m = as<protocol::MovementEvent>(s->stream[1]);
  CHECK(m.data.current_style == 0x003D);
  CHECK(std::get<protocol::InterpretedMovement>(m.data.payload).state == protocol::InterpretedMotionState{});
  CHECK(as<protocol::PlayScriptType>(s->stream[2]).intensity() == 1.0F);
  CHECK(default_queue(0xF745) == 10);
  CHECK(default_queue(0x02CD) == 9);
  CHECK(default_queue(0xF7E5) == 5);
}

TEST_CASE("Scenario: errors name the file, the line and the column", "[scenario][parse][malformed]") {
  struct Case {
    const char* text;
    const char* expected;  // a piece of the message
  };
  const Case cases[] = {
      {"world X\nfrobnicate 1\n", "bad.scenario:2: directive at offset 1: invalid (unknown directive 'frobnicate')"},
      {"character 0x50000001 Ann\n", "bad.scenario:1: character"},
      {"account a password=b\ncharacter zz Ann\n",
       "bad.scenario:2: guid at offset 11: invalid (expected a number, got 'zz')"},
      {"account a\n", "bad.scenario:1: account at offset 1: invalid (missing password=)"},
      {"account a password=b\naccount A password=c\n",
       "bad.scenario:2: account at offset 9: invalid (account 'A' given twice)"},
      {"\n\nimpair loss=1.5\n", "bad.scenario:3: loss at offset 8: invalid (1.5 is not within 0 to 1)"},
      {"impair delay=-3\n", "bad.scenario:1: delay at offset 8: invalid (-3 is negative)"},
      {"impair lose=0.2\n", "bad.scenario:1: impair at offset 8: invalid (unknown argument 'lose=' for impair)"},
      {"world \"unterminated\n", "bad.scenario:1: quote at offset 7: truncated"},
      {"seed 0x1FFFFFFFF\n", "bad.scenario:1: seed at offset 6: too large"},
      {"seeds\n", "bad.scenario:1: seeds"},
      {"at 1 explode guid=1\n", "bad.scenario:1: at at offset 6: invalid (unknown message kind 'explode')"},
      {"at x create guid=1\n", "bad.scenario:1: time at offset 4: invalid (expected a number, got 'x')"},
      {"at 1 create setup=1\n", "bad.scenario:1: guid at offset 6: invalid (missing guid="},
      {"at 1 create guid=1 colour=red\n", "bad.scenario:1: at at offset 20: invalid (unknown argument 'colour='"},
      {"at 1 position guid=1\n", "bad.scenario:1: at at offset 6: invalid (missing pos=)"},
      {"at 1 position guid=1 pos=1,2,3\n", "bad.scenario:1: pos at offset 22: invalid (expected cell,x,y,z[,w,x,y,z]"},
      {"at 1 vector guid=1 velocity=1,2\n", "velocity at offset 20: invalid (expected x,y,z"},
      {"at 1 hex F7B0\n", "bad.scenario:1: hex at offset 10: truncated (a message needs at least its 4-byte opcode)"},
      {"at 1 hex F7B00000 0\n", "hex at offset 10: invalid (an odd number of hex digits)"},
      {"at 1 hex F7B0000G\n", "hex at offset 10: invalid ('G' is not a hex digit)"},
      {"at 1 chat\n", "missing chat text"},
      {"at 1 sound guid=1 id=2 extra\n", "bad.scenario:1: at at offset 24: invalid (unexpected 'extra' for at)"},
      {"loop 1\n", "bad.scenario:1: loop at offset 1: invalid (there is no 'at' line to repeat)"},
      {"at 1 delete guid=1\nat 5 delete guid=1\nloop 2\n",
       "bad.scenario:3: loop at offset 1: invalid (the period 2 is shorter than the last event's time 5 (line 2))"},
      {"at 1 delete guid=1\nloop 0\n", "bad.scenario:2: loop at offset 6: invalid (the period must be above zero)"},
      {"at 1 delete guid=1\nloop 2\nloop 3\n",
       "bad.scenario:3: loop at offset 1: invalid (a second loop line (the first is line 2))"},
      {"at 1 delete guid=1\nloop 2 count=0\n", "count at offset 8: invalid (count must be at least 1)"},
      {"key=value\n", "bad.scenario:1: directive at offset 1: invalid (expected a directive, got 'key=')"},
      {"at 1 create guid=1 scale=1e99\n", "scale at offset 20: too large"},
      {"at 1 create guid=1 radar=256\n", "radar at offset 20: too large"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    const std::string message = error_of(c.text);
    INFO(message);
    CHECK(message.find(c.expected) != std::string::npos);
  }
}

TEST_CASE("Scenario: a missing file is an i/o error naming it", "[scenario][parse][malformed]") {
  auto s = load_scenario_file("/nonexistent/dir/none.scenario");
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().kind == dereth::core::ErrorKind::Io);
  CHECK(s.error().message().find("none.scenario") != std::string::npos);
}

TEST_CASE("Scenario: the chat directives", "[scenario][parse][chat]") {
  auto s = load_scenario_file(std::string(DERETH_SOURCE_DIR) + "/tests/scenario/data/chat.scenario");
  REQUIRE(s.has_value());
  REQUIRE(s->stream.size() == 11);
  const auto chat = [&](std::size_t i) { return as<ChatSpec>(s->stream[i]).message; };
  CHECK(std::get<protocol::HearSpeech>(chat(1)) ==
        protocol::HearSpeech{"Well met.", "Borin the Bold", 0x50000002, std::nullopt, 2});
  CHECK(std::get<protocol::HearSpeech>(chat(2)).range == 30.0f);
  CHECK(std::get<protocol::HearEmote>(chat(4)).soul);
  CHECK(std::get<protocol::HearDirectSpeech>(chat(5)).text == "Meet me at the portal.");
  CHECK(std::get<protocol::ChannelBroadcast>(chat(6)).channel == 0x800);
  CHECK(std::get<protocol::WeenieError>(chat(8)).text == std::optional<std::string>("Borin the Bold"));
  CHECK(std::get<protocol::StatusString>(chat(10)).popup);
  CHECK(error_of("at 1 speech text=hi\n").find("missing sender=") != std::string::npos);
  CHECK(error_of("at 1 channel sender=a text=b\n").find("missing channel=") != std::string::npos);
  CHECK(error_of("at 1 weenie-error\n").find("missing code=") != std::string::npos);
  CHECK(error_of("at 1 tell sender=a text=b volume=3\n").find("unknown argument 'volume='") != std::string::npos);
}

TEST_CASE("Scenario: player attributes= sets the PlayerDescription's six attributes", "[scenario][parse]") {
  auto s = parse_scenario("player attributes=10,20,30,40,50,60\n", "a.scenario");
  REQUIRE(s);
  CHECK(s->player.attributes == std::array<std::uint32_t, 6>{10, 20, 30, 40, 50, 60});
  auto d = parse_scenario("player\n", "d.scenario");
  REQUIRE(d);
  CHECK(d->player.attributes == std::array<std::uint32_t, 6>{100, 100, 100, 100, 100, 100});
  CHECK_THAT(error_of("player attributes=1,2,3\n"), Catch::Contains("six numbers"));
  CHECK_THAT(error_of("player attributes=1,2,3,4,5,x\n"), Catch::Contains("attributes"));
}

TEST_CASE("Scenario: player options1= sets the PlayerDescription's CharacterOptions1", "[scenario][parse]") {
  auto s = parse_scenario("player options1=0x02000000\n", "a.scenario");
  REQUIRE(s);
  CHECK(s->player.character_options1 == 0x02000000u);
  auto d = parse_scenario("player\n", "d.scenario");
  REQUIRE(d);
  CHECK(d->player.character_options1 == 0u);
  CHECK_THAT(error_of("player options1=yes\n"), Catch::Contains("options1"));
}

TEST_CASE("Scenario: player spells= sets the PlayerDescription's first spell-bar tab", "[scenario][parse]") {
  auto s = parse_scenario("player spells=1,0x5E9,3\n", "a.scenario");
  REQUIRE(s);
  CHECK(s->player.spells == std::vector<std::uint32_t>{1, 0x5E9, 3});
  auto d = parse_scenario("player\n", "d.scenario");
  REQUIRE(d);
  CHECK(d->player.spells.empty());
  CHECK_THAT(error_of("player spells=1,x\n"), Catch::Contains("spells"));
}

TEST_CASE("Scenario: player book= adds spells the spell book holds beyond the bar's", "[scenario][parse]") {
  auto s = parse_scenario("player spells=27 book=2,0x1B\n", "a.scenario");
  REQUIRE(s);
  CHECK(s->player.spells == std::vector<std::uint32_t>{27});
  CHECK(s->player.book == std::vector<std::uint32_t>{2, 27});
  auto d = parse_scenario("player\n", "d.scenario");
  REQUIRE(d);
  CHECK(d->player.book.empty());
  CHECK_THAT(error_of("player book=2,,x\n"), Catch::Contains("book"));
}

TEST_CASE("Scenario: a portal is a CreateObject with a portal's defaults, a destination and a radius",
          "[scenario][parse][portal]") {
  auto parsed = parse_scenario(
      "at 0 portal guid=0x80000200 setup=0x02000110 pos=0xA9B40020,72,168,22 "
      "dest=0x01120100,65,85,-20,0.70710677,0,0,-0.70710677 radius=1.5 name=\"Gate\"\n"
      "at 1 portal guid=0x80000201 pos=0xA9B40020,1,2,3 dest=0xA9B40020,4,5,6 "
      "type=0x80 state=0x4\n",
      "portal.scenario");
  if (!parsed) FAIL(parsed.error().message());
  REQUIRE(parsed->stream.size() == 2);
  const auto& p = as<PortalSpec>(parsed->stream[0]);
  CHECK(p.create.guid == 0x80000200u);
  CHECK(p.create.physics.setup_id == std::optional<std::uint32_t>(0x02000110));
  CHECK(p.create.physics.position == protocol::Position{0xA9B40020, {72, 168, 22}, {}});
  CHECK(p.create.physics.state == portal_defaults::kPhysicsState);
  CHECK(p.create.weenie.item_type == portal_defaults::kItemType);
  CHECK(p.create.weenie.object_description_flags == portal_defaults::kDescriptionFlags);
  CHECK(p.create.weenie.radar_behavior == std::optional<std::uint8_t>(portal_defaults::kRadar));
  CHECK(p.create.weenie.name == "Gate");
  CHECK(p.destination.cell_id == 0x01120100u);
  CHECK(p.destination.origin == protocol::Vec3{65, 85, -20});
  CHECK(p.radius == 1.5F);
  // Given values win over the defaults; the radius defaults to 1 m, the name to Portal.
  const auto& q = as<PortalSpec>(parsed->stream[1]);
  CHECK(q.create.weenie.item_type == 0x80u);
  CHECK(q.create.physics.state == 0x4u);
  CHECK(q.create.weenie.name == "Portal");
  CHECK(q.radius == 1.0F);

  CHECK(error_of("at 0 portal guid=1 pos=0xA9B40020,1,2,3\n").find("missing dest=") != std::string::npos);
  CHECK(error_of("at 0 portal guid=1 dest=0xA9B40020,1,2,3\n").find("missing pos=") != std::string::npos);
  CHECK(error_of("at 0 portal guid=player pos=0xA9B40020,1,2,3 dest=0xA9B40020,1,2,3\n").find("not the player") !=
        std::string::npos);
  CHECK(error_of("at 0 portal guid=1 pos=0xA9B40020,1,2,3 dest=0xA9B40020,1,2,3 radius=0\n").find("above zero") !=
        std::string::npos);
}
