// Login and world-entry messages (spec/protocol.md 3.2, 3.6, 3.7).
#include "dereth/protocol/login.hpp"

#include <catch2/catch.hpp>

#include "fixtures.hpp"

using namespace dereth::protocol;
using dereth::test::from_hex;

TEST_CASE("LoginRequest body matches the spec's computed test/test packet", "[protocol][login]") {
  LoginRequest m;
  m.account = "test";
  m.password = "test";
  m.auth_flags = 1;
  const auto bytes = encode(m);
  CHECK(bytes == from_hex("0400 31383032 0000 | 24000000 | 02000000 01000000 00000000 | 0400 74657374 0000 | "
                          "0000 0000 | 05000000 04 74657374 000000"));
  auto back = decode_login_request(bytes);
  REQUIRE(back.has_value());
  CHECK(*back == m);
  dereth::test::every_prefix_fails(bytes, [](auto b) { return decode_login_request(b); });
}

TEST_CASE("CharacterList, ServerName, CharacterEnterWorld, errors and chat round-trip", "[protocol][login]") {
  CharacterList list;
  list.characters = {{0x50000001, "Aerfalle", 0}, {0x50000002, "+Admin", 0}};
  list.max_slots = 11;
  list.account = "TestAccount";
  auto l = decode_character_list(encode(list));
  REQUIRE(l.has_value());
  CHECK(*l == list);
  dereth::test::every_prefix_fails(encode(list), [](auto b) { return decode_character_list(b); });

  ServerName name{12, 1000, "Dereth"};
  CHECK(decode_server_name(encode(name)).value() == name);
  CharacterEnterWorld enter{0x50000001, "TestAccount"};
  CHECK(decode_character_enter_world(encode(enter)).value() == enter);
  CharacterError error{0x15};
  CHECK(decode_character_error(encode(error)).value() == error);
  CHECK(describe_character_error(0x15).find("full") != std::string::npos);
  AccountBoot boot{"You have been booted"};
  CHECK(decode_account_boot(encode(boot)).value() == boot);
  CHECK(decode_account_boot(encode_opcode_only(0xF7DC)).value().reason.empty());
  ServerMessage chat{"Welcome to Dereth!", 0};
  CHECK(decode_server_message(encode(chat)).value() == chat);
}

TEST_CASE("The minimal DDD reply is the 20 bytes ACE accepts", "[protocol][login]") {
  CHECK(encode_ddd_interrogation_response() == from_hex("E6F70000 01000000 00000000 00000000 00000000"));
  CHECK(encode_game_action(1, 0xA1) == from_hex("B1F70000 01000000 A1000000"));
  CHECK(peek_wrapped_type(encode_game_action(1, 0xA1)) == 0xA1u);
  CHECK(peek_opcode(encode_opcode_only(0xF7C8)) == 0xF7C8u);
}

TEST_CASE("CharacterList refuses a count beyond its bytes", "[protocol][login][malformed]") {
  auto bad = from_hex("58F60000 00000000 FFFFFF0F");
  auto m = decode_character_list(bad);
  REQUIRE_FALSE(m.has_value());
  CHECK(m.error().kind == dereth::core::ErrorKind::TooLarge);
}

TEST_CASE("peek_game_event_guid reads the F7B0 event's object, nothing for other or cut messages",
          "[protocol][login][malformed]") {
  const std::vector<std::uint8_t> event = {0xB0, 0xF7, 0, 0, 0x16, 0x2B, 0x00, 0x50, 1, 0, 0, 0, 0xC9, 0x02, 0, 0};
  CHECK(dereth::protocol::peek_game_event_guid(event) == std::optional<std::uint32_t>{0x50002B16});
  for (std::size_t n = 0; n < 8; ++n) {
    CHECK_FALSE(dereth::protocol::peek_game_event_guid(std::span(event).first(n)).has_value());
  }
  const std::vector<std::uint8_t> action = {0xB1, 0xF7, 0, 0, 0x16, 0x2B, 0x00, 0x50};
  CHECK_FALSE(dereth::protocol::peek_game_event_guid(action).has_value());
}
