// The private quality updates, QueryHealth and its answer, and PlayerKilled:
// bytes as the retail dispatchers read them (CM_Qualities::DispatchUI_*:
// u32 opcode, u8 timestamp, u32 stype, the value; CM_Combat::
// DispatchUI_QueryHealthResponse; ClientCombatSystem::HandlePlayerDeathEvent),
// each decoded from hand-written bytes and from our writers, through the
// inbound table, and refused at every cut.

#include "dereth/protocol/player_updates.hpp"

#include <catch2/catch.hpp>

#include <bit>

#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/outbound.hpp"

#include "fixtures.hpp"

using namespace dereth;
using namespace dereth::protocol;

TEST_CASE("CM_Qualities::DispatchUI_PrivateUpdateAttribute2nd 0x006AE8A0 reads hand-written bytes", "[retail]") {
  // 0x02E7, wts 5, stype 1 (health), ranks 10, start 50, xp 1234, current 61.
  const auto bytes = test::from_hex("E7020000 05 01000000 0A000000 32000000 D2040000 3D000000");
  const auto m = decode_private_update_attribute_2nd(bytes);
  REQUIRE(m);
  CHECK(m->wts == 5);
  CHECK(m->stype == 1);
  CHECK(m->value == SecondaryAttributeWire{10, 50, 1234, 61});
  CHECK(encode(*m) == bytes);
  test::every_prefix_fails(bytes, decode_private_update_attribute_2nd);
  // One byte more is refused too: the message is consumed exactly.
  auto longer = bytes;
  longer.push_back(0);
  CHECK_FALSE(decode_private_update_attribute_2nd(longer));
  const auto via_table = decode_message(bytes);
  REQUIRE(via_table);
  REQUIRE(std::holds_alternative<PrivateUpdateAttribute2nd>(*via_table));
  CHECK(std::get<PrivateUpdateAttribute2nd>(*via_table) == *m);
  CHECK(opcode_of(*via_table) == quality_opcode::PrivateUpdateAttribute2nd);
  CHECK(encode(*via_table) == bytes);
}

TEST_CASE("CM_Qualities::DispatchUI_PrivateUpdateAttribute2ndLevel 0x006AE930: the current vital, 13 bytes",
          "[retail]") {
  // 0x02E9, wts 0xFF, stype 2 (current health), 47.
  const auto bytes = test::from_hex("E9020000 FF 02000000 2F000000");
  const auto m = decode_private_update_stat_level(bytes);
  REQUIRE(m);
  CHECK(*m == PrivateUpdateStatLevel{quality_opcode::PrivateUpdateAttribute2ndLevel, 0xFF, 2, 47});
  CHECK(encode(*m) == bytes);
  test::every_prefix_fails(bytes, decode_private_update_stat_level);
  // The other four one-number forms share the layout and the row kind.
  for (const std::uint32_t op : {quality_opcode::PrivateUpdateAttributeLevel, quality_opcode::PrivateUpdateSkillLevel,
                                 quality_opcode::PrivateUpdateSkillAC, quality_opcode::PrivateUpdateInt}) {
    const PrivateUpdateStatLevel level{op, 3, 0x18, 2};
    const auto b = encode(level);
    CHECK(b.size() == 13);
    const auto back = decode_message(b);
    REQUIRE(back);
    REQUIRE(std::holds_alternative<PrivateUpdateStatLevel>(*back));
    CHECK(std::get<PrivateUpdateStatLevel>(*back) == level);
    CHECK(opcode_of(*back) == op);
  }
  // Another opcode is refused by name.
  const auto wrong = test::from_hex("E3020000 01 01000000 02000000");
  const auto refused = decode_private_update_stat_level(wrong);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message(), Catch::Contains("opcode"));
}

TEST_CASE("CM_Qualities::DispatchUI_PrivateUpdateAttribute 0x006AE800 and DispatchUI_PrivateUpdateSkill", "[retail]") {
  // 0x02E3, wts 1, stype 6 (Self), ranks 4, start 100, xp 777.
  const auto attribute = test::from_hex("E3020000 01 06000000 04000000 64000000 09030000");
  const auto a = decode_private_update_attribute(attribute);
  REQUIRE(a);
  CHECK(*a == PrivateUpdateAttribute{1, 6, AttributeWire{4, 100, 777}});
  CHECK(encode(*a) == attribute);
  test::every_prefix_fails(attribute, decode_private_update_attribute);

  // 0x02DD, wts 2, stype 0x18 (run): ranks 12, adjust 1, sac 3, xp 5000,
  // start 10, resistance 0, last used 2.0.
  const auto skill =
      test::from_hex("DD020000 02 18000000 0C00 0100 03000000 88130000 0A000000 00000000 0000000000000040");
  const auto s = decode_private_update_skill(skill);
  REQUIRE(s);
  CHECK(s->wts == 2);
  CHECK(s->stype == 0x18);
  CHECK(s->value == SkillWire{12, 1, 3, 5000, 10, 0, 2.0});
  CHECK(encode(*s) == skill);
  test::every_prefix_fails(skill, decode_private_update_skill);
  const auto via_table = decode_message(skill);
  REQUIRE(via_table);
  CHECK(std::holds_alternative<PrivateUpdateSkill>(*via_table));
}

TEST_CASE("CM_Combat::DispatchUI_QueryHealthResponse: F7B0 0x01C0 target and health", "[retail]") {
  // F7B0 to the player 0x50000001, sequence 9, event 0x01C0, target 0x80000A01, health 0.25.
  const auto bytes = test::from_hex("B0F70000 01000050 09000000 C0010000 010A0080 0000803E");
  const auto m = decode_query_health_response(bytes);
  REQUIRE(m);
  CHECK(*m == QueryHealthResponse{0x80000A01, 0.25F});
  CHECK(encode(*m, 0x50000001, 9) == bytes);
  for (std::size_t n = 0; n < bytes.size(); ++n) CHECK_FALSE(decode_query_health_response(std::span(bytes).first(n)));
  const auto via_table = decode_message(bytes);
  REQUIRE(via_table);
  REQUIRE(std::holds_alternative<QueryHealthResponse>(*via_table));
  CHECK(std::get<QueryHealthResponse>(*via_table).health == 0.25F);
  // A NaN health keeps its bits.
  const QueryHealthResponse nan{1, std::bit_cast<float>(0x7FC00001U)};
  const auto back = decode_query_health_response(encode(nan, 1, 1));
  REQUIRE(back);
  CHECK(*back == nan);
}

TEST_CASE("CM_Combat::Event_QueryHealth 0x006A9B40: F7B1 0x01BF and the target", "[retail]") {
  const auto bytes = encode(QueryHealth{7, 0x80000A01});
  CHECK(bytes == test::from_hex("B1F70000 07000000 BF010000 010A0080"));
  const auto back = decode_query_health(bytes);
  REQUIRE(back);
  CHECK(*back == QueryHealth{7, 0x80000A01});
  test::every_prefix_fails(bytes, decode_query_health);
  CHECK_FALSE(decode_query_health(encode(AutonomyLevel{7, 2})));
}

TEST_CASE("ClientCombatSystem::HandlePlayerDeathEvent 0x0056C320: PlayerKilled 0x019E, sentence, victim, killer",
          "[retail]") {
  // String16L "Ann died." (9 characters, padded to four), victim, killer.
  const auto bytes = test::from_hex("9E010000 0900 416E6E2064696564 2E 00 01000050 020A0080");
  const auto m = decode_player_killed(bytes);
  REQUIRE(m);
  CHECK(*m == PlayerKilled{"Ann died.", 0x50000001, 0x80000A02});
  CHECK(encode(*m) == bytes);
  test::every_prefix_fails(bytes, decode_player_killed);
  const auto via_table = decode_message(bytes);
  REQUIRE(via_table);
  CHECK(std::holds_alternative<PlayerKilled>(*via_table));
  // A string longer than the message is refused before anything is kept.
  const auto hostile = test::from_hex("9E010000 FFFF 41");
  CHECK_FALSE(decode_player_killed(hostile));
}

TEST_CASE(
    "CM_Item::DispatchUI_UseDone: F7B0 0x01C7 and its error, and ClientUISystem::Handle_Item__UseDone 0x00564900 "
    "tells a failure",
    "[retail]") {
  // ACE ends a cast without the mana for it with UseDone 0x0401.
  const auto bytes = test::from_hex("B0F70000 01000050 0A000000 C7010000 01040000");
  const auto m = decode_use_done(bytes);
  REQUIRE(m);
  CHECK(m->error == 0x0401);
  CHECK(encode(*m, 0x50000001, 10) == bytes);
  for (std::size_t n = 0; n < bytes.size(); ++n) CHECK_FALSE(decode_use_done(std::span(bytes).first(n)));
  const auto via_table = decode_message(bytes);
  REQUIRE(via_table);
  REQUIRE(std::holds_alternative<UseDone>(*via_table));
  const auto line = use_done_line(*m);
  REQUIRE(line);
  CHECK(line->text == "You have too little mana to cast this spell.");
  CHECK(line->chat_type == chat_type::System);
  // A use that simply ended says nothing.
  CHECK_FALSE(use_done_line(UseDone{0}));
}
