#pragma once
// The chat box: what the player types (parse_chat_input: Talk, tells, emotes
// and the server's @ and / commands), how a received line reads and what
// colour it has in the chat window (format_chat_line, chat_color), the
// headless form (`chat: CHANNEL: SENDER: TEXT`), and the input line's own
// editing state (ChatInput: UTF-8 text, history, cancel) with no SDL in it.

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/protocol/chat.hpp"

namespace dereth::app {

struct ChatCommand {
  enum class Kind : std::uint8_t { Talk, Tell, Emote, SoulEmote };
  Kind kind = Kind::Talk;
  std::string text;    // UTF-8
  std::string target;  // Tell only
  bool operator==(const ChatCommand&) const = default;
};

// Plain text is Talk. `/t NAME, text`, `/tell NAME, text`, `@t` and `@tell`
// are tells; `/e text` and `/emote text` (and `@e`, `@emote`) emotes,
// `/se text` a soul emote; `/s text` and `/say text` say. Anything else that
// starts with `@` or `/` goes to the server whole, as Talk, which is how ACE
// takes its commands (`@telepoi Arwic`, `/help`). Blank input, or a tell
// without a name or text, is none. Leading and trailing spaces are trimmed.
[[nodiscard]] std::optional<ChatCommand> parse_chat_input(std::string_view typed);
// What the chat window says when parse_chat_input refuses a typed line (a
// tell without its comma, an emote without text): how the command is
// written. Empty for blank input.
[[nodiscard]] std::string chat_command_usage(std::string_view typed);

// The F7B1 message a command sends, with its game-action stamp.
[[nodiscard]] std::vector<std::uint8_t> encode_chat_command(const ChatCommand& command, std::uint32_t stamp);

// The line as the chat window shows it: `Bob says, "Hi"`, `Bob tells you,
// "yo"`, `Bob waves`, `[channel-0x800] Ann says, "lfg"`, or the bare text
// of a system line; the player's own speech (the server echoes it with the
// player's guid) reads `You say, "Hi"`.
[[nodiscard]] std::string format_chat_line(const protocol::ChatLine& line, std::uint32_t player = 0);
// `chat: CHANNEL: SENDER: TEXT` (the sender empty for system lines); a
// message of several lines gives several such lines, joined by '\n'.
[[nodiscard]] std::string headless_chat_line(const protocol::ChatLine& line);
// The colour of a chat type in the chat window (docs/protocol.md, "Chat and
// the character list").
[[nodiscard]] std::array<std::uint8_t, 4> chat_color(std::uint32_t chat_type);

// The input line: opened by Enter, closed by Enter (submitting) or Esc.
class ChatInput {
 public:
  static constexpr std::size_t kMaxLength = 300;  // bytes of UTF-8 typed
  static constexpr std::size_t kHistory = 50;     // lines kept for Up/Down

  [[nodiscard]] bool active() const noexcept { return active_; }
  [[nodiscard]] const std::string& text() const noexcept { return text_; }
  void open();
  void cancel();
  // UTF-8 from the text-input event; what would pass kMaxLength is dropped
  // whole characters at a time.
  void insert(std::string_view utf8);
  // Removes the last whole UTF-8 character.
  void backspace();
  // Up (older) and Down (newer) through the submitted lines.
  void history_up();
  void history_down();
  // Closes the line and gives what was typed (none when blank); a non-blank
  // line joins the history.
  std::optional<std::string> submit();

 private:
  bool active_ = false;
  std::string text_;
  std::deque<std::string> history_;
  std::size_t browse_ = 0;  // 0: the line being typed; k: the k-th newest history entry
  std::string draft_;
};

// The client's own line for the chat window (ClientSystem::AddTextToScroll
// with log text type 0x1A): channel "transient", no sender.
[[nodiscard]] protocol::ChatLine local_chat_line(std::string_view text);

// The lines a world has handled that the chat panel has not yet taken, in
// order; past kMax the oldest go.
class ChatBacklog {
 public:
  static constexpr std::size_t kMax = 256;
  void push(protocol::ChatLine line);
  // Everything held, oldest first; the backlog is left empty.
  [[nodiscard]] std::vector<protocol::ChatLine> take();

 private:
  std::vector<protocol::ChatLine> lines_;
};

}  // namespace dereth::app
