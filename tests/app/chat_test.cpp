// The chat box (include/dereth/app/chat.hpp): what typed text sends, how a
// received line reads, and the input line's editing and history.
#include "dereth/app/chat.hpp"

#include <catch2/catch.hpp>

#include <string>

#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/render/overlay.hpp"

using dereth::app::ChatCommand;
using dereth::app::ChatInput;
using dereth::app::parse_chat_input;
using Kind = ChatCommand::Kind;
namespace protocol = dereth::protocol;

TEST_CASE("parse_chat_input: talk, tells, emotes and the server's commands", "[app][chat]") {
  CHECK(parse_chat_input("  hello there ") == ChatCommand{Kind::Talk, "hello there", ""});
  CHECK(parse_chat_input("/t Borin the Bold, meet me at the portal") ==
        ChatCommand{Kind::Tell, "meet me at the portal", "Borin the Bold"});
  CHECK(parse_chat_input("@tell Aerin,hi") == ChatCommand{Kind::Tell, "hi", "Aerin"});
  CHECK(parse_chat_input("/TELL Aerin, hi") == ChatCommand{Kind::Tell, "hi", "Aerin"});
  CHECK(parse_chat_input("/e waves") == ChatCommand{Kind::Emote, "waves", ""});
  CHECK(parse_chat_input("@emote bows") == ChatCommand{Kind::Emote, "bows", ""});
  CHECK(parse_chat_input("/se glows") == ChatCommand{Kind::SoulEmote, "glows", ""});
  CHECK(parse_chat_input("/s hi all") == ChatCommand{Kind::Talk, "hi all", ""});
  // Commands the client does not handle go to the server whole, as Talk.
  CHECK(parse_chat_input("@telepoi Arwic") == ChatCommand{Kind::Talk, "@telepoi Arwic", ""});
  CHECK(parse_chat_input("/help") == ChatCommand{Kind::Talk, "/help", ""});
  // Nothing to send.
  CHECK_FALSE(parse_chat_input("   "));
  CHECK_FALSE(parse_chat_input("/t Aerin"));      // no comma
  CHECK_FALSE(parse_chat_input("/t , hi"));       // no name
  CHECK_FALSE(parse_chat_input("/t Aerin,   "));  // no text
  CHECK_FALSE(parse_chat_input("/e"));
}

TEST_CASE("encode_chat_command sends each kind as its F7B1 action, in CP1252", "[app][chat]") {
  const auto tell = dereth::app::encode_chat_command(ChatCommand{Kind::Tell, "caf\xC3\xA9", "Aerin"}, 9);
  const auto action = protocol::decode_chat_action(tell);
  REQUIRE(action.has_value());
  CHECK(action->action == protocol::chat_action::Tell);
  CHECK(action->text == "caf\xE9");
  CHECK(action->target == "Aerin");
  CHECK(protocol::decode_chat_action(dereth::app::encode_chat_command({Kind::Talk, "@help", ""}, 1))->action ==
        protocol::chat_action::Talk);
  CHECK(protocol::decode_chat_action(dereth::app::encode_chat_command({Kind::SoulEmote, "x", ""}, 1))->action ==
        protocol::chat_action::SoulEmote);
}

TEST_CASE("Received lines read as the chat window shows them, and headless as chat: CHANNEL: SENDER: TEXT",
          "[app][chat]") {
  using dereth::app::format_chat_line;
  using dereth::app::headless_chat_line;
  namespace ct = protocol::chat_type;
  CHECK(format_chat_line({"speech", "Bob", "Hi", ct::Speech, 0}) == "Bob says, \"Hi\"");
  CHECK(format_chat_line({"tell", "Bob", "yo", ct::Tell, 0}) == "Bob tells you, \"yo\"");
  // The server echoes the player's own speech under the player's guid.
  CHECK(format_chat_line({"speech", "Dereth Tester", "hello", ct::Speech, 0x50000001}, 0x50000001) ==
        "You say, \"hello\"");
  CHECK(format_chat_line({"speech", "Bob", "hello", ct::Speech, 0x50000002}, 0x50000001) == "Bob says, \"hello\"");
  CHECK(format_chat_line({"emote", "Bob", "waves", ct::Emote, 0}) == "Bob waves");
  CHECK(format_chat_line({"channel-0x800", "", "hello", ct::Channel, 0}) == "[channel-0x800] You say, \"hello\"");
  CHECK(format_chat_line({"system", "", "Welcome.", ct::System, 0}) == "Welcome.");
  CHECK(headless_chat_line({"system", "", "Welcome.", ct::System, 0}) == "chat: system: : Welcome.");
  CHECK(headless_chat_line({"tell", "Bob", "yo", ct::Tell, 0}) == "chat: tell: Bob: yo");
  CHECK(dereth::app::chat_color(ct::Tell) != dereth::app::chat_color(ct::Speech));
  CHECK(dereth::app::chat_color(ct::CombatEnemy) == std::array<std::uint8_t, 4>{255, 80, 80, 255});
}

TEST_CASE("A server message of several lines is several lines in the chat window and in the headless output",
          "[app][chat]") {
  // GDLE's @help: one ServerMessage whose lines are separated by "\n".
  const auto bytes = protocol::encode(
      protocol::ServerMessage{"Commands:\r\n@help - this list\n@myloc - where you are\n", protocol::chat_type::Help});
  const protocol::ChatLine line = protocol::chat_line(bytes).value().value();
  // The window's chat box (WindowPresenter::chat): one line each.
  dereth::render::ChatLog log(200, 80);
  log.add(1.0, dereth::app::format_chat_line(line));
  REQUIRE(log.size() == 3);
  CHECK(log.at(0).text == "Commands:");
  CHECK(log.at(1).text == "@help - this list");
  CHECK(log.at(2).text == "@myloc - where you are");
  // Headless (and the window's log): a chat: line each.
  CHECK(dereth::app::headless_chat_line(line) ==
        "chat: help: : Commands:\nchat: help: : @help - this list\nchat: help: : @myloc - where you are");
}

TEST_CASE("ChatInput: UTF-8 editing, a length bound, history with Up and Down, Esc cancels", "[app][chat]") {
  ChatInput input;
  input.insert("ignored");  // closed: typing does nothing
  CHECK(input.text().empty());
  input.open();
  input.insert("caf\xC3\xA9");
  input.backspace();  // the whole two-byte character
  CHECK(input.text() == "caf");
  input.insert("e");
  CHECK(input.submit() == std::optional<std::string>("cafe"));
  CHECK_FALSE(input.active());

  input.open();
  input.insert("second");
  CHECK(input.submit() == std::optional<std::string>("second"));
  input.open();
  input.insert("draft");
  input.history_up();
  CHECK(input.text() == "second");
  input.history_up();
  CHECK(input.text() == "cafe");
  input.history_up();  // nothing older
  CHECK(input.text() == "cafe");
  input.history_down();
  input.history_down();
  CHECK(input.text() == "draft");
  input.cancel();
  CHECK_FALSE(input.active());
  CHECK(input.text().empty());

  input.open();
  CHECK_FALSE(input.submit().has_value());  // blank: nothing sent, nothing remembered
  input.open();
  input.insert(std::string(ChatInput::kMaxLength + 50, 'x'));
  CHECK(input.text().size() == ChatInput::kMaxLength);
  input.cancel();
  input.open();
  input.insert(std::string(ChatInput::kMaxLength - 1, 'x'));
  input.insert("\xC3\xA9");  // two bytes do not fit in one: dropped whole
  CHECK(input.text().size() == ChatInput::kMaxLength - 1);
}

TEST_CASE("ChatBacklog keeps the newest 256 lines in order, and take empties it") {
  dereth::app::ChatBacklog backlog;
  for (int i = 0; i < 300; ++i) backlog.push(dereth::app::local_chat_line(std::to_string(i)));
  const auto lines = backlog.take();
  REQUIRE(lines.size() == dereth::app::ChatBacklog::kMax);
  CHECK(lines.front().text == "44");
  CHECK(lines.back().text == "299");
  CHECK(lines.front().channel == protocol::chat_channel_name(protocol::chat_type::Transient));
  CHECK(lines.front().sender.empty());
  CHECK(backlog.take().empty());
}
