// The one inbound table (decode_message): the game events and chat rows
// beside the object messages. Each row's bytes decode to its Message
// alternative; an F7B0 is keyed by its event type; a row's truncated bytes
// are an error naming the message; anything no row names stays Unknown.

#include <catch2/catch.hpp>

#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/house.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/player_description.hpp"

using namespace dereth;
using namespace dereth::protocol;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;

PlayerDescription description() {
  PlayerDescription d;
  d.property_flags = quality_flag::Int;
  d.ints = {{5, 1200}};
  d.vector_flags = quality_vector_flag::Attribute | quality_vector_flag::Skill;
  d.attributes[0] = AttributeWire{10, 100, 5000};
  d.skills = {{0x18, SkillWire{12, 1, 2, 4000, 10, 0, 30.0}}};
  return d;
}

std::vector<std::uint8_t> description_bytes() {
  return encode_game_event(kPlayer, 3, login_opcode::PlayerDescriptionEvent,
                           encode_player_description_qualities(description()));
}

UpdateRestrictions restrictions() {
  UpdateRestrictions m;
  m.timestamp = 0x81;
  m.object = 0x7A9B4001;
  m.db.monarch_guid = 0x50000004;
  m.db.buckets = 0x0100;
  m.db.entries = {{0x50000003, 1}};
  return m;
}

// The prefixes of `bytes` from the end of the F7B0 header (16 bytes: a
// shorter F7B0 names no event, so no row) that decode_message refuses.
std::vector<core::Error> refused_prefixes(const std::vector<std::uint8_t>& bytes) {
  std::vector<core::Error> errors;
  for (std::size_t n = 16; n < bytes.size(); ++n) {
    auto m = decode_message(std::span(bytes).first(n));
    if (!m) errors.push_back(m.error());
  }
  return errors;
}

}  // namespace

TEST_CASE("The inbound table decodes a GameEvent PlayerDescription to its alternative, keyed by the event type",
          "[protocol][dispatcher]") {
  const auto bytes = description_bytes();
  auto m = decode_message(bytes);
  REQUIRE(m);
  REQUIRE(std::holds_alternative<PlayerDescription>(*m));
  CHECK(std::get<PlayerDescription>(*m) == description());
  CHECK(opcode_of(*m) == opcode::GameEvent);
  CHECK_FALSE(is_object_message(*m));
  // Cut inside the qualities: an error naming the message and the field.
  auto cut = decode_message(std::span(bytes).first(bytes.size() - 3));
  REQUIRE_FALSE(cut);
  CHECK(cut.error().context == "F7B0/0013 PlayerDescription");
  CHECK_FALSE(cut.error().field.empty());
}

TEST_CASE("The inbound table decodes UpdateRestrictions, and refuses it cut at every length past the header",
          "[protocol][dispatcher][malformed]") {
  const auto bytes = encode_update_restrictions(kPlayer, 12, restrictions());
  auto m = decode_message(bytes);
  REQUIRE(m);
  REQUIRE(std::holds_alternative<UpdateRestrictions>(*m));
  CHECK(std::get<UpdateRestrictions>(*m) == restrictions());
  const auto errors = refused_prefixes(bytes);
  CHECK(errors.size() == bytes.size() - 16);
  for (const auto& e : errors) CHECK(e.context == "F7B0/0248 UpdateRestrictions");
}

TEST_CASE("The inbound table decodes AttackDone with its error and CombatCommenceAttack", "[protocol][dispatcher]") {
  const auto done = encode_attack_done(kPlayer, 5, AttackDone{0x36});
  auto m = decode_message(done);
  REQUIRE(m);
  REQUIRE(std::holds_alternative<AttackDone>(*m));
  CHECK(std::get<AttackDone>(*m).error == 0x36u);
  CHECK(opcode_of(*m) == opcode::GameEvent);
  // The error word cut short: refused, naming AttackDone and its field.
  for (std::size_t n = 16; n < done.size(); ++n) {
    auto cut = decode_message(std::span(done).first(n));
    REQUIRE_FALSE(cut);
    CHECK(cut.error().context == "F7B0/01A7 AttackDone");
    CHECK(cut.error().field == "error");
  }
  auto commence = decode_message(encode_commence_attack(kPlayer, 6));
  REQUIRE(commence);
  CHECK(std::holds_alternative<CombatCommenceAttack>(*commence));
  // Nothing after the event type is read, as the retail dispatcher reads none.
  auto longer = encode_commence_attack(kPlayer, 6);
  longer.push_back(7);
  CHECK(decode_message(longer).has_value());
}

TEST_CASE("The inbound table decodes every chat-carrying message to its chat line", "[protocol][dispatcher][chat]") {
  const auto speech = encode(HearSpeech{"hello", "Bob", 0x50000002, std::nullopt, chat_type::Speech});
  auto m = decode_message(speech);
  REQUIRE(m);
  REQUIRE(std::holds_alternative<ChatMessage>(*m));
  const auto& chat = std::get<ChatMessage>(*m);
  CHECK(chat.opcode == chat_opcode::HearSpeech);
  CHECK(chat.line == chat_line(speech).value().value());
  CHECK(chat.line.sender == "Bob");
  CHECK(chat.line.text == "hello");
  CHECK(opcode_of(*m) == chat_opcode::HearSpeech);

  const auto server = encode(ServerMessage{"Welcome.", chat_type::System});
  auto s = decode_message(server);
  REQUIRE(s);
  REQUIRE(std::holds_alternative<ChatMessage>(*s));
  CHECK(std::get<ChatMessage>(*s).line.text == "Welcome.");

  const auto status = encode(StatusString{"Your attack was evaded.", false}, kPlayer, 2);
  auto t = decode_message(status);
  REQUIRE(t);
  REQUIRE(std::holds_alternative<ChatMessage>(*t));
  CHECK(std::get<ChatMessage>(*t).opcode == opcode::GameEvent);
  CHECK(std::get<ChatMessage>(*t).line.channel == "transient");

  // A chat message cut inside its text: refused, naming the message.
  auto cut = decode_message(std::span(speech).first(speech.size() - 6));
  REQUIRE_FALSE(cut);
  CHECK(cut.error().context == "HearSpeech");
}

TEST_CASE("What no row names stays Unknown: another opcode, another game event, an F7B0 too short to name one",
          "[protocol][dispatcher]") {
  const std::vector<std::uint8_t> server_name{0xE1, 0xF7, 0, 0, 1, 0, 0, 0};
  auto a = decode_message(server_name);
  REQUIRE(a);
  CHECK(std::holds_alternative<Unknown>(*a));
  const std::vector<std::uint8_t> payload{1, 2, 3, 4};
  const auto other_event = encode_game_event(kPlayer, 1, 0x0999, payload);
  auto b = decode_message(other_event);
  REQUIRE(b);
  REQUIRE(std::holds_alternative<Unknown>(*b));
  CHECK(std::get<Unknown>(*b).bytes == other_event);
  const auto description = description_bytes();
  auto c = decode_message(std::span(description).first(8));
  REQUIRE(c);
  CHECK(std::holds_alternative<Unknown>(*c));
  CHECK_FALSE(is_chat_message(other_event));
  CHECK_FALSE(is_object_opcode(opcode::GameEvent));
  CHECK(message_name(opcode::GameEvent).empty());
}
