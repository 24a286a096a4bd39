// Chat and server text (include/dereth/protocol/chat.hpp): each message
// against bytes written out from its layout, round trips, truncation at every
// length, the CP1252 <-> UTF-8 conversions and sanitising, and the chat lines
// of the real capture.
#include "dereth/protocol/chat.hpp"

#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "dereth/protocol/login.hpp"
#include "dereth/protocol/weenie_error.hpp"

#include "support/hex.hpp"
#include "support/pcap_messages.hpp"

using namespace dereth::protocol;
using dereth::test::from_hex;

namespace {

constexpr int kExampleChatMessages = 313;

// Every prefix of a well-formed message is refused with an error naming the
// message (by its context's start: a prefix too short to hold the event type
// cannot tell WeenieError from WeenieErrorWithString), never a crash.
template <class Decode>
void check_truncations(const std::vector<std::uint8_t>& bytes, Decode decode, const std::string& context) {
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    INFO("prefix of " << n << " bytes");
    auto r = decode(std::span(bytes.data(), n));
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().context.rfind(context, 0) == 0);
  }
}

}  // namespace

TEST_CASE("HearSpeech 0x02BB and HearRangedSpeech 0x02BC: text, sender, sender id, (range,) chat type",
          "[protocol][chat]") {
  // 0x02BB, "Hi" (len 2, pad to 4), "Bob" (len 3, pad 1), id 0x50000002, Speech.
  const auto speech = from_hex("BB020000 0200 4869 0300 426F62000000 02000050 02000000");
  auto m = decode_hear_speech(speech);
  REQUIRE(m.has_value());
  CHECK(m->text == "Hi");
  CHECK(m->sender == "Bob");
  CHECK(m->sender_id == 0x50000002);
  CHECK_FALSE(m->range.has_value());
  CHECK(m->chat_type == chat_type::Speech);
  CHECK(encode(*m) == speech);
  check_truncations(speech, decode_hear_speech, "HearSpeech");

  const auto ranged = from_hex("BC020000 0200 4869 0300 426F62000000 02000050 0000F041 0C000000");
  auto r = decode_hear_speech(ranged);
  REQUIRE(r.has_value());
  CHECK(r->range == 30.0f);
  CHECK(r->chat_type == chat_type::Emote);
  CHECK(encode(*r) == ranged);
  check_truncations(ranged, decode_hear_speech, "HearSpeech");
  auto trailing = speech;
  trailing.push_back(0);
  CHECK_FALSE(decode_hear_speech(trailing).has_value());
}

TEST_CASE("HearEmote 0x01E0 and HearSoulEmote 0x01E2: sender id, sender, text", "[protocol][chat]") {
  const auto emote = from_hex("E0010000 02000050 0300 426F62000000 0600 7761766573");
  // "waves" is 5 bytes, declared 6: one byte short.
  CHECK_FALSE(decode_hear_emote(emote).has_value());
  const auto good = from_hex("E2010000 02000050 0300 426F62000000 0500 7761766573 00");
  auto m = decode_hear_emote(good);
  REQUIRE(m.has_value());
  CHECK(m->soul);
  CHECK(m->sender == "Bob");
  CHECK(m->text == "waves");
  CHECK(encode(*m) == good);
  check_truncations(good, decode_hear_emote, "HearEmote");
}

TEST_CASE("F7B0 game events: a tell, a channel broadcast, weenie errors and status strings", "[protocol][chat]") {
  // F7B0, target, sequence 7, 0x02BD, "yo", "Bob", 0x50000002, 0x50000001, Tell, flags 0.
  const auto tell = from_hex(
      "B0F70000 01000050 07000000 BD020000 0200 796F 0300 426F62000000 02000050 01000050 "
      "03000000 00000000");
  auto t = decode_hear_direct_speech(tell);
  REQUIRE(t.has_value());
  CHECK(t->text == "yo");
  CHECK(t->sender == "Bob");
  CHECK(t->target_id == 0x50000001);
  CHECK(encode(*t, 0x50000001, 7) == tell);
  check_truncations(tell, decode_hear_direct_speech, "F7B0 HearDirectSpeech");

  const ChannelBroadcast channel{0x800, "", "you said this"};
  const auto channel_bytes = encode(channel, 0x50000001, 8);
  CHECK(decode_channel_broadcast(channel_bytes).value() == channel);
  check_truncations(channel_bytes, decode_channel_broadcast, "F7B0 ChannelBroadcast");

  const auto error = from_hex("B0F70000 01000050 09000000 8A020000 2E050000");
  CHECK(decode_weenie_error(error).value() == WeenieError{0x052E, std::nullopt});
  const WeenieError with{0x051D, std::string("Bob")};
  const auto with_bytes = encode(with, 0x50000001, 10);
  CHECK(peek_wrapped_type(with_bytes) == chat_event::WeenieErrorWithString);
  CHECK(decode_weenie_error(with_bytes).value() == with);
  check_truncations(with_bytes, decode_weenie_error, "F7B0 WeenieError");

  const StatusString transient{"You are too encumbered to use that!", false};
  const StatusString popup{"Welcome!", true};
  CHECK(peek_wrapped_type(encode(transient, 1, 1)) == chat_event::TransientString);
  CHECK(peek_wrapped_type(encode(popup, 1, 1)) == chat_event::PopupString);
  CHECK(decode_status_string(encode(transient, 1, 1)).value() == transient);
  CHECK(decode_status_string(encode(popup, 1, 1)).value() == popup);
  check_truncations(encode(popup, 1, 1), decode_status_string, "F7B0 ");
}

TEST_CASE("chat_line: one line per chat-carrying message, with channel and sender", "[protocol][chat]") {
  const auto line_of = [](const std::vector<std::uint8_t>& bytes) { return chat_line(bytes).value().value(); };
  CHECK(line_of(encode(ServerMessage{"Welcome to Dereth.", chat_type::System})) ==
        ChatLine{"system", "", "Welcome to Dereth.", chat_type::System, 0});
  CHECK(line_of(encode(HearSpeech{"Hi", "Bob", 2, std::nullopt, chat_type::Speech})) ==
        ChatLine{"speech", "Bob", "Hi", chat_type::Speech, 2});
  CHECK(line_of(encode(HearEmote{2, "Bob", "waves", true})).channel == "soul-emote");
  CHECK(line_of(encode(HearDirectSpeech{"yo", "Bob", 2, 1, chat_type::Tell, 0}, 1, 1)) ==
        ChatLine{"tell", "Bob", "yo", chat_type::Tell, 2});
  CHECK(line_of(encode(ChannelBroadcast{0x800, "Ann", "lfg"}, 1, 1)).channel == "channel-0x800");
  CHECK(line_of(encode(WeenieError{0x052E, std::string("Bob")}, 1, 1)) ==
        ChatLine{"error", "", "You could not snoop on Bob.", chat_type::System, 0});
  CHECK(line_of(encode(StatusString{"Locked!", false}, 1, 1)) ==
        ChatLine{"transient", "", "Locked!", chat_type::System, 0});
  // Not chat: no line and no error; malformed chat: an error naming it.
  CHECK_FALSE(chat_line(encode_opcode_only(0xF7DF)).value().has_value());
  CHECK_FALSE(chat_line(encode_game_event(1, 1, 0x0013, {})).value().has_value());
  auto cut = encode(HearSpeech{"Hi", "Bob", 2, std::nullopt, 2});
  cut.resize(cut.size() - 2);
  auto bad = chat_line(cut);
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().message().find("HearSpeech") != std::string::npos);
  CHECK(chat_channel_name(0x1B) == "type-0x1b");
  CHECK(chat_channel_name(chat_type::Transient) == "transient");
}

TEST_CASE("Chat text: CP1252 to UTF-8, control characters stripped, length bounded", "[protocol][chat]") {
  CHECK(sanitize_chat_text("a\x01"
                           "b\tc\x7F"
                           "d\r\n") == "ab cd");
  CHECK(sanitize_chat_text("\x80 \x93hi\x94 caf\xE9") == "\xE2\x82\xAC \xE2\x80\x9Chi\xE2\x80\x9D caf\xC3\xA9");
  CHECK(sanitize_chat_text("\x81\x8D\x8F\x90\x9D") == "");  // undefined in CP1252
  CHECK(sanitize_chat_text("%s%n{}") == "%s%n{}");          // text, never a format string
  CHECK(sanitize_chat_text(std::string(5000, 'x')).size() == kMaxChatText);
  // Cut on a character boundary: three bytes of UTF-8 do not fit in two.
  CHECK(sanitize_chat_text("a\x80", 3) == "a");

  std::size_t replaced = 0;
  CHECK(utf8_to_cp1252("caf\xC3\xA9 \xE2\x82\xAC \xE2\x98\x83", 100, &replaced) == "caf\xE9 \x80 ?");
  CHECK(replaced == 1);                                       // the snowman
  CHECK(utf8_to_cp1252("\xFF\xC3", 100, &replaced) == "??");  // malformed UTF-8
  CHECK(replaced == 2);
  CHECK(utf8_to_cp1252(std::string(3000, 'y'), 1000).size() == 1000);
}

TEST_CASE("Server text keeps its line breaks and is not cut at 1,000 bytes, while what the player sends still is",
          "[protocol][chat]") {
  const auto line_of = [](const std::vector<std::uint8_t>& bytes) { return chat_line(bytes).value().value(); };
  // GDLE's help: one ServerMessage of many lines, "\n" or "\r\n" between them.
  CHECK(line_of(encode(ServerMessage{"Commands:\n@help - this list\r\n@myloc - where you are\n", chat_type::Help}))
            .text == "Commands:\n@help - this list\n@myloc - where you are");
  CHECK(line_of(encode(HearDirectSpeech{"one\rtwo", "Bob", 2, 1, chat_type::Tell, 0}, 1, 1)).text == "one\ntwo");
  // Names and what the chat box sends have no line breaks.
  CHECK(line_of(encode(HearSpeech{"Hi", "Bo\nb", 2, std::nullopt, chat_type::Speech})).sender == "Bob");
  CHECK(sanitize_chat_text("a\nb\r\nc") == "abc");
  CHECK(sanitize_server_text("a\x01\tb\x7F\r\n\r\nc\n\n") == "a b\n\nc");

  // A 1,588-byte reply arrives whole, to its last word.
  std::string reply;
  while (reply.size() < 1590) reply += "word" + std::to_string(reply.size()) + ' ';
  reply.resize(1588 - 6);
  reply += " last.";
  REQUIRE(reply.size() == 1588);
  const ChatLine whole = line_of(encode(ServerMessage{reply, chat_type::System}));
  CHECK(whole.text.size() == 1588);
  CHECK(whole.text == reply);
  // CP1252 grows in UTF-8 and is still not cut: 2,000 euro signs are 6,000 bytes.
  CHECK(line_of(encode(ServerMessage{std::string(2000, '\x80'), chat_type::System})).text.size() == 6000);
  // The player's side keeps its bound.
  CHECK(decode_chat_action(encode_talk(1, std::string(3000, 'y'))).value().text.size() == kMaxChatText);
}

TEST_CASE("WeenieError 0x028A and WeenieErrorWithString 0x028B read as sentences, not codes", "[protocol][chat]") {
  const auto text_of = [](const WeenieError& e) { return chat_line(encode(e, 1, 1)).value().value().text; };
  // ACE's notices at login (TurbineChat) and GDLE's answers.
  CHECK(text_of(WeenieError{0x051D, std::nullopt}) == "Turbine Chat is turned on.");
  CHECK(text_of(WeenieError{0x051B, std::string("General")}) == "You joined the General channel.");
  CHECK(text_of(WeenieError{0x051B, std::nullopt}) == "You joined your allegiance's chat room.");
  CHECK(text_of(WeenieError{0x052E, std::string("Bob")}) == "You could not snoop on Bob.");
  CHECK(text_of(WeenieError{0x052B, std::nullopt}) == "That character is not available.");
  CHECK(text_of(WeenieError{0x0036, std::nullopt}) == "The action was cancelled.");
  CHECK(text_of(WeenieError{0x0402, std::nullopt}) == "The spell fizzles.");
  CHECK(text_of(WeenieError{0x0052, std::string("Ann")}) == "You cannot affect Ann: they are not a player killer.");
  // The server's string is text, never a format: "%s" and braces stay as sent.
  CHECK(text_of(WeenieError{0x052E, std::string("%s{}")}) == "You could not snoop on %s{}.");
  // Unknown codes, and a code known only without a string, still read.
  CHECK(text_of(WeenieError{0x9ABC, std::nullopt}) == "The server answered with code 0x9ABC.");
  CHECK(text_of(WeenieError{0x9ABC, std::string("Bob")}) == "The server answered with code 0x9ABC: Bob");
  CHECK(text_of(WeenieError{0x052E, std::nullopt}) == "The server answered with code 0x052E.");
  CHECK(text_of(WeenieError{0x0036, std::string("now")}) == "The action was cancelled. now");

  // Every sentence of the tables is one sentence; the with-string ones hold the string.
  int plain = 0;
  int with = 0;
  for (std::uint32_t code = 0; code < 0x1000; ++code) {
    INFO("code 0x" << std::hex << code);
    if (auto s = weenie_error_sentence(code, false)) {
      ++plain;
      CHECK((s->back() == '.' || s->back() == '!'));
      CHECK(s->find("%s") == std::string_view::npos);
      CHECK(weenie_error_text(code) == *s);
    }
    if (auto s = weenie_error_sentence(code, true)) {
      ++with;
      CHECK(s->find("%s") != std::string_view::npos);
      CHECK(weenie_error_text(code, std::string("X")).find("X") != std::string::npos);
    }
  }
  CHECK(plain >= 80);
  CHECK(with >= 45);
}

TEST_CASE("WeenieError 0x042C, ACE's UseDone for a cast at a creature that has died, is a sentence",
          "[protocol][chat][magic]") {
  // ACE (TargetNotAcquired) answers a CastTargetedSpell whose target is gone with
  // UseDone 0x01C7 carrying 0x042C; the chat window said "The server answered with code 0x042C.".
  CHECK(weenie_error_sentence(0x042C, false).has_value());
  CHECK(weenie_error_text(0x042C) == "You have no target.");
}

TEST_CASE("The chat box's actions: Talk 0x0015, Tell 0x005D, Emote 0x01DF as F7B1 with their stamp",
          "[protocol][chat]") {
  CHECK(encode_talk(5, "Hi") == from_hex("B1F70000 05000000 15000000 0200 4869"));
  const auto tell = encode_tell(6, "yo", "Bob");
  CHECK(tell == from_hex("B1F70000 06000000 5D000000 0200 796F 0300 426F62000000"));
  CHECK(decode_chat_action(tell).value() == ChatAction{chat_action::Tell, "yo", "Bob"});
  CHECK(decode_chat_action(encode_emote(7, "waves")).value() == ChatAction{chat_action::Emote, "waves", ""});
  CHECK(decode_chat_action(encode_emote(7, "waves", true)).value().action == chat_action::SoulEmote);
  CHECK(decode_chat_action(encode_talk(8, "caf\xC3\xA9")).value().text == "caf\xE9");
  check_truncations(tell, decode_chat_action, "F7B1 chat action");
  CHECK_FALSE(decode_chat_action(encode_game_action(1, 0x00A1)).has_value());  // LoginComplete is not chat
}

TEST_CASE("Capture: the chat lines in example.pcap", "[protocol][chat][capture]") {
  const auto path = dereth::test::shared_path("captures/example.pcap");
  auto capture = dereth::test::read_capture(path);
  REQUIRE(capture.has_value());
  std::map<std::string, int> channels;
  int chat = 0;
  for (const auto& msg : capture->messages) {
    if (!msg.server_to_client || !is_chat_message(msg.bytes)) continue;
    auto line = chat_line(msg.bytes);
    INFO(dereth::test::to_hex(msg.bytes));
    REQUIRE(line.has_value());
    REQUIRE(line->has_value());
    ++chat;
    ++channels[(*line)->channel];
  }
  // What the capture holds: 313 F7E0 ServerMessages, every one of chat type
  // Magic (spell text); no speech, tells, emotes or chat-carrying game events.
  INFO("chat messages: " << chat);
  std::string by_channel;
  for (const auto& [c, n] : channels) by_channel += c + "=" + std::to_string(n) + " ";
  INFO(by_channel);
  CHECK(chat == kExampleChatMessages);
  CHECK(channels == std::map<std::string, int>{{"magic", 313}});
}
