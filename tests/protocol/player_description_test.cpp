// F7B0 0x0013 PlayerDescription through the skills: CBaseQualities::UnPack
// 0x00595F10 (the property tables in retail's order), CACQualities::UnPack
// 0x00593420 (vector flags, attributes, skills), AttributeCache::UnPack
// 0x005CCFB0, Skill::UnPack 0x005CAAC0 and PackableHashTable::UnPack's refusals.

#include "dereth/protocol/player_description.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

#include "dereth/protocol/login.hpp"

using namespace dereth;
using namespace dereth::protocol;

namespace {

std::vector<std::uint8_t> message(const PlayerDescription& d) {
  return encode_game_event(0x50000001, 3, login_opcode::PlayerDescriptionEvent, encode_player_description_qualities(d));
}

PlayerDescription sample() {
  PlayerDescription d;
  d.property_flags = quality_flag::Int | quality_flag::Int64 | quality_flag::Bool | quality_flag::Float |
                     quality_flag::String | quality_flag::DataId | quality_flag::InstanceId | quality_flag::Position;
  d.weenie_type = 1;
  d.ints = {{5, 1200}, {0x16D, 2}};
  d.int64s = {{1, 123456789012LL}};
  d.bools = {{1, 1}};
  d.floats = {{2, 0.5}};
  d.strings = {{1, "Lyra"}};
  d.data_ids = {{1, 0x02000001}};
  d.instance_ids = {{2, 0x80000002}};
  d.positions = {{14, Position{0xA9B4001F, {84, 148, 66}, {}}}};
  d.vector_flags = quality_vector_flag::Attribute | quality_vector_flag::Skill;
  d.attributes[0] = AttributeWire{10, 100, 5000};  // Strength
  d.attributes[2] = AttributeWire{0, 90, 0};       // Quickness
  d.vitals[1] = SecondaryAttributeWire{3, 50, 100, 140};  // Stamina
  d.skills = {{0x18, SkillWire{12, 1, 2, 4000, 10, 0, 30.0}}, {0x16, SkillWire{0, 1, 1, 0, 0, 0, 0.0}}};
  return d;
}

}  // namespace

TEST_CASE("CACQualities::UnPack 0x00593420 reads a PlayerDescription through the skills",
          "[retail][0x00593420][0x00595F10][0x005CCFB0][0x005CAAC0]") {
  const PlayerDescription d = sample();
  const auto bytes = message(d);
  auto back = decode_player_description(bytes);
  REQUIRE(back);
  CHECK(*back == d);
  // Retail's table order: int, int64, bool, float, string, data id, instance id, position.
  // The int table begins right after the 16-byte F7B0 header, the flags and the weenie type.
  CHECK(bytes[24] == 2);     // u16 count
  CHECK(bytes[26] == 32);    // u16 buckets
  CHECK(bytes[28] == 5);     // the first key
  CHECK(bytes[36] == 0x6D);  // the second key, 0x16D
  // The attribute mask: Strength 0x01, Quickness 0x04, Stamina 0x80.
  const std::vector<std::uint8_t> mask{0x85, 0x00, 0x00, 0x00};
  CHECK(std::search(bytes.begin(), bytes.end(), mask.begin(), mask.end()) != bytes.end());
}

TEST_CASE("Skill::UnPack 0x005CAAC0 keeps the level word's high half as the adjusted flag", "[retail][0x005CAAC0]") {
  PlayerDescription d;
  d.vector_flags = quality_vector_flag::Skill;
  d.skills = {{0x18, SkillWire{7, 0, 2, 100, 35, 4, 1.5}}};
  const auto bytes = message(d);
  // u16 count 1, u16 buckets 32, key 0x18, then level 7 | 0 << 16.
  REQUIRE(bytes.size() == 16 + 8 + 8 + 4 + 4 + 28);
  CHECK(bytes[36] == 0x18);
  CHECK(bytes[40] == 7);
  CHECK(bytes[42] == 0);
  auto back = decode_player_description(bytes);
  REQUIRE(back);
  CHECK(back->skills[0].second.adjusted == 0);
  CHECK(back->skills[0].second.init_level == 35);
}

TEST_CASE("A PlayerDescription cut anywhere is refused with the field named, never read past") {
  const auto bytes = message(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = decode_player_description(std::span(bytes).first(n));
    REQUIRE_FALSE(r);
    CHECK_FALSE(r.error().message().empty());
  }
}

TEST_CASE("Property tables refuse entries without buckets and a repeated key") {
  PlayerDescription d;
  d.property_flags = quality_flag::Int;
  d.ints = {{5, 1}, {6, 2}};
  auto bytes = message(d);
  // The int table's header sits at offset 24 (u16 count, u16 buckets).
  SECTION("a count without buckets") {
    bytes[26] = 0;
    bytes[27] = 0;
    auto r = decode_player_description(bytes);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message(), Catch::Contains("ints"));
  }
  SECTION("a key twice") {
    bytes[36] = 5;  // the second key
    auto r = decode_player_description(bytes);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message(), Catch::Contains("twice"));
  }
  SECTION("no buckets and no entries is an empty table") {
    PlayerDescription e;
    e.property_flags = quality_flag::Int;
    auto empty = message(e);
    auto r = decode_player_description(empty);
    REQUIRE(r);
    CHECK(r->ints.empty());
  }
}

TEST_CASE("decode_player_description refuses another event or opcode") {
  auto bytes = message(sample());
  bytes[12] = 0x14;  // the event type's low byte
  auto r = decode_player_description(bytes);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message(), Catch::Contains("event_type"));
  bytes[0] = 0xB1;
  CHECK_FALSE(decode_player_description(bytes));
}

TEST_CASE("PackableHashTable<unsigned long,Skill>::UnPack 0x00592B20 refuses a repeated skill", "[retail][0x00592B20]") {
  PlayerDescription d;
  d.vector_flags = quality_vector_flag::Skill;
  d.skills = {{0x18, SkillWire{}}, {0x16, SkillWire{}}};
  auto bytes = message(d);
  REQUIRE(decode_player_description(bytes));
  bytes[36 + 4 + 28] = 0x18;  // the second key
  auto r = decode_player_description(bytes);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message(), Catch::Contains("skills"));
}
