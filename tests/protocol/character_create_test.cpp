// F656 CharacterCreate, F643 CharacterCreateResponse, F655 CharacterDelete
// (docs/protocol.md, "Creating and deleting characters").
#include "dereth/protocol/character_create.hpp"

#include <catch2/catch.hpp>

#include <set>

#include "dereth/protocol/login.hpp"

#include "fixtures.hpp"

using namespace dereth::protocol;
using dereth::test::from_hex;

namespace {

CharacterCreate sample_create() {
  CharacterCreate m;
  m.account = "TestAccount";
  m.heritage = 1;
  m.gender = 1;
  m.appearance.eyes = 2;
  m.appearance.hair_style = 1;
  m.appearance.headgear_style = 0xFFFFFFFF;
  m.appearance.skin_shade = 0.25;
  m.appearance.footwear_shade = 1.0;
  m.template_option = 0;
  m.abilities = {10, 100, 10, 100, 10, 100};
  m.slot = 1;
  m.skills.assign(kCharacterCreateSkillCount, skill_advancement::Inactive);
  m.skills[6] = skill_advancement::Trained;
  m.skills[7] = skill_advancement::Specialized;
  m.name = "Fen";
  m.start_area = 0;
  return m;
}

}  // namespace

TEST_CASE("F656 CharacterCreate is written in ACE's field order", "[protocol][chargen]") {
  CharacterCreate m;
  m.account = "ab";
  m.heritage = 2;
  m.gender = 1;
  m.appearance.eyes = 3;
  m.appearance.skin_shade = 0.5;
  m.template_option = -1;
  m.abilities = {11, 12, 13, 14, 15, 16};
  m.slot = 4;
  m.class_id = 5;
  m.skills = {skill_advancement::Inactive, skill_advancement::Specialized};
  m.name = "Xy";
  m.start_area = 1;
  m.is_admin = 1;
  const auto bytes = encode(m);
  const auto expected = from_hex(
      "56F60000 | 0200 6162 | 01000000 | 02000000 | 01000000 |"
      "03000000" +
      std::string(13 * 8, '0') +
      "|"  // 14 u32: eyes = 3, the rest 0
      "000000000000E03F" +
      std::string(5 * 16, '0') +
      "|"  // 6 f64: skin 0.5
      "FFFFFFFF | 0B000000 0C000000 0D000000 0E000000 0F000000 10000000 |"
      "04000000 | 05000000 | 02000000 00000000 03000000 |"
      "0200 5879 | 01000000 | 01000000 | 00000000");
  CHECK(bytes == expected);
  auto back = decode_character_create(bytes);
  REQUIRE(back);
  CHECK(*back == m);
}

TEST_CASE("F656 round-trips and every truncation fails naming its field", "[protocol][chargen][malformed]") {
  const auto m = sample_create();
  const auto bytes = encode(m);
  auto back = decode_character_create(bytes);
  REQUIRE(back);
  CHECK(*back == m);
  const auto errors = dereth::test::every_prefix_fails(bytes, [](auto b) { return decode_character_create(b); });
  // A cut inside the skills fails at skill_count: the count no longer fits
  // what remains, so nothing is allocated for it.
  std::set<std::string> fields;
  for (const auto& e : errors) fields.insert(std::string(e.field));
  for (const char* f :
       {"opcode", "account", "unknown_one", "heritage", "gender", "appearance.eyes", "appearance.footwear_color",
        "appearance.skin_shade", "appearance.footwear_shade", "template_option", "abilities.strength", "abilities.self",
        "slot", "class_id", "skill_count", "name", "start_area", "is_admin", "is_sentinel"}) {
    INFO(f);
    CHECK(fields.count(f) == 1);
  }
}

TEST_CASE("F656 refuses a hostile skill count before allocating", "[protocol][chargen][malformed]") {
  auto m = sample_create();
  m.skills = {};
  auto bytes = encode(m);
  // The skill count sits right after slot and class; find it by encoding a
  // body whose skills are empty and patching the count to 0x40000000.
  const std::size_t name_len = 2 + m.name.size() + 3;  // String16L "Fen" padded
  const std::size_t count_at = bytes.size() - name_len - 12 - 4;
  REQUIRE(bytes[count_at] == 0);
  bytes[count_at + 3] = 0x40;
  auto r = decode_character_create(bytes);
  REQUIRE_FALSE(r);
  CHECK(r.error().kind == dereth::core::ErrorKind::TooLarge);
  CHECK(std::string(r.error().field) == "skill_count");
}

TEST_CASE("F656 decodes any skill count its bytes hold, for the server to judge", "[protocol][chargen]") {
  auto m = sample_create();
  m.skills.resize(54);
  auto back = decode_character_create(encode(m));
  REQUIRE(back);
  CHECK(back->skills.size() == 54);
}

TEST_CASE("F656 refuses trailing bytes and another opcode", "[protocol][chargen][malformed]") {
  auto bytes = encode(sample_create());
  bytes.push_back(0);
  auto trailing = decode_character_create(bytes);
  REQUIRE_FALSE(trailing);
  CHECK(trailing.error().kind == dereth::core::ErrorKind::Trailing);
  auto other = decode_character_create(encode(CharacterDelete{"a", 0}));
  REQUIRE_FALSE(other);
  CHECK(other.error().kind == dereth::core::ErrorKind::Invalid);
}

TEST_CASE("F643 carries guid, name and a u32 only when it is Ok", "[protocol][chargen]") {
  CharacterCreateResponse ok{create_response::Ok, 0x50000003, "Fen", 0};
  const auto bytes = encode(ok);
  CHECK(bytes == from_hex("43F60000 01000000 03000050 0300 46656E 000000 00000000"));
  CHECK(decode_character_create_response(bytes).value() == ok);
  dereth::test::every_prefix_fails(bytes, [](auto b) { return decode_character_create_response(b); });

  CharacterCreateResponse taken{create_response::NameInUse, 0, "", 0};
  CHECK(encode(taken) == from_hex("43F60000 03000000"));
  CHECK(decode_character_create_response(encode(taken)).value() == taken);
  auto extra = from_hex("43F60000 05000000 00000000");
  auto r = decode_character_create_response(extra);
  REQUIRE_FALSE(r);
  CHECK(r.error().kind == dereth::core::ErrorKind::Trailing);
}

TEST_CASE("Every F643 code has its own sentence", "[protocol][chargen]") {
  std::set<std::string> seen;
  for (std::uint32_t code = 0; code <= create_response::AdminPrivilegeDenied; ++code) {
    const auto s = describe_create_response(code);
    INFO(code << ": " << s);
    CHECK_FALSE(s.empty());
    CHECK(s.back() == '.');
    seen.insert(s);
  }
  CHECK(seen.size() == 8);
  CHECK_THAT(describe_create_response(create_response::NameInUse), Catch::Contains("name"));
  CHECK_THAT(describe_create_response(create_response::NameBanned), Catch::Contains("not allowed"));
  CHECK_THAT(describe_create_response(99), Catch::Contains("99"));
}

TEST_CASE("F655 CharacterDelete round-trips and the server's answer is the bare opcode", "[protocol][chargen]") {
  CharacterDelete m{"TestAccount", 2};
  const auto bytes = encode(m);
  CHECK(bytes == from_hex("55F60000 0B00 546573744163636F756E74 000000 02000000"));
  CHECK(decode_character_delete(bytes).value() == m);
  dereth::test::every_prefix_fails(bytes, [](auto b) { return decode_character_delete(b); });
  CHECK(encode_opcode_only(login_opcode::CharacterDelete) == from_hex("55F60000"));
}
