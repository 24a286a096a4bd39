#include "dereth/app/chat.hpp"

#include <cctype>

#include <fmt/format.h>

namespace dereth::app {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// `word rest`: the first word (lower-cased) and the trimmed rest.
std::pair<std::string, std::string_view> split_word(std::string_view s) {
  const std::size_t space = s.find(' ');
  std::string word(s.substr(0, space));
  for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return {word, space == std::string_view::npos ? std::string_view{} : trim(s.substr(space + 1))};
}

bool is_utf8_continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

std::optional<ChatCommand> parse_chat_input(std::string_view typed) {
  const std::string_view s = trim(typed);
  if (s.empty()) return std::nullopt;
  if (s.front() != '/' && s.front() != '@') return ChatCommand{ChatCommand::Kind::Talk, std::string(s), {}};
  const auto [word, rest] = split_word(s.substr(1));
  if (word == "t" || word == "tell") {
    // NAME, text (names may hold spaces: the comma ends them).
    const std::size_t comma = rest.find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    const std::string_view name = trim(rest.substr(0, comma));
    const std::string_view text = trim(rest.substr(comma + 1));
    if (name.empty() || text.empty()) return std::nullopt;
    return ChatCommand{ChatCommand::Kind::Tell, std::string(text), std::string(name)};
  }
  if (word == "e" || word == "em" || word == "emote") {
    if (rest.empty()) return std::nullopt;
    return ChatCommand{ChatCommand::Kind::Emote, std::string(rest), {}};
  }
  if (word == "se") {
    if (rest.empty()) return std::nullopt;
    return ChatCommand{ChatCommand::Kind::SoulEmote, std::string(rest), {}};
  }
  if ((word == "s" || word == "say") && s.front() == '/') {
    if (rest.empty()) return std::nullopt;
    return ChatCommand{ChatCommand::Kind::Talk, std::string(rest), {}};
  }
  // A server command: ACE reads @ and / commands from Talk.
  return ChatCommand{ChatCommand::Kind::Talk, std::string(s), {}};
}

std::string chat_command_usage(std::string_view typed) {
  const std::string_view s = trim(typed);
  if (s.empty()) return {};
  const auto [word, rest] = split_word(s.substr(1));
  if (word == "t" || word == "tell") return "To tell someone something, type /tell NAME, what to say";
  if (word == "e" || word == "em" || word == "emote" || word == "se") {
    return fmt::format("To emote, type /{} and what your character does", word);
  }
  if (word == "s" || word == "say") return "To say something, type /say and what to say";
  return fmt::format("Nothing was sent: \"{}\" is not a line the chat box can send", s);
}

std::vector<std::uint8_t> encode_chat_command(const ChatCommand& c, std::uint32_t stamp) {
  switch (c.kind) {
    case ChatCommand::Kind::Tell: return protocol::encode_tell(stamp, c.text, c.target);
    case ChatCommand::Kind::Emote: return protocol::encode_emote(stamp, c.text);
    case ChatCommand::Kind::SoulEmote: return protocol::encode_emote(stamp, c.text, true);
    case ChatCommand::Kind::Talk: break;
  }
  return protocol::encode_talk(stamp, c.text);
}

std::string format_chat_line(const protocol::ChatLine& l, std::uint32_t player) {
  namespace ct = protocol::chat_type;
  if (l.channel == "emote" || l.channel == "soul-emote") return l.sender.empty() ? l.text : l.sender + " " + l.text;
  if (l.channel.rfind("channel-", 0) == 0) {
    return l.sender.empty() ? fmt::format("[{}] You say, \"{}\"", l.channel, l.text)
                            : fmt::format("[{}] {} says, \"{}\"", l.channel, l.sender, l.text);
  }
  if (l.sender.empty()) return l.text;
  if (l.chat_type == ct::Tell || l.chat_type == ct::AdminTell)
    return fmt::format("{} tells you, \"{}\"", l.sender, l.text);
  if (l.chat_type == ct::Speech) {
    if (player != 0 && l.sender_id == player) return fmt::format("You say, \"{}\"", l.text);
    return fmt::format("{} says, \"{}\"", l.sender, l.text);
  }
  return fmt::format("{}: {}", l.sender, l.text);
}

std::string headless_chat_line(const protocol::ChatLine& l) {
  // Each line of a many-line message is a `chat:` line of its own, so a
  // reader of the output (or the log) still finds one message per line.
  std::string out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t newline = l.text.find('\n', pos);
    const std::string_view piece =
        std::string_view(l.text).substr(pos, newline == std::string::npos ? std::string::npos : newline - pos);
    if (!out.empty()) out += '\n';
    out += fmt::format("chat: {}: {}: {}", l.channel, l.sender, piece);
    if (newline == std::string::npos) break;
    pos = newline + 1;
  }
  return out;
}

std::array<std::uint8_t, 4> chat_color(std::uint32_t t) {
  namespace ct = protocol::chat_type;
  switch (t) {
    case ct::Speech: return {255, 255, 255, 255};  // white
    case ct::Tell:
    case ct::OutgoingTell: return {255, 255, 110, 255};  // yellow
    case ct::AdminTell:
    case ct::Social:
    case ct::Fellowship: return {255, 255, 60, 255};   // bright yellow
    case ct::SocialSend: return {255, 255, 170, 255};  // light yellow
    case ct::System:
    case ct::Broadcast: return {200, 200, 200, 255};  // grey
    case ct::Combat: return {255, 160, 90, 255};      // orange
    case ct::CombatEnemy:
    case ct::Help: return {255, 80, 80, 255};          // red
    case ct::CombatSelf: return {255, 140, 200, 255};  // pink
    case ct::Magic:
    case ct::Spellcasting: return {140, 170, 255, 255};  // blue
    case ct::Channel:
    case ct::ChannelSend: return {255, 180, 220, 255};  // light pink
    case ct::Emote: return {230, 200, 255, 255};        // lilac
    case ct::Advancement: return {120, 230, 255, 255};  // cyan
    case ct::Abuse: return {150, 220, 255, 255};        // light cyan
    case ct::WorldBroadcast:
    case ct::Salvaging: return {110, 255, 110, 255};  // green
    case ct::Allegiance: return {255, 210, 120, 255};
    default: return {255, 240, 180, 255};
  }
}

void ChatInput::open() {
  active_ = true;
  text_.clear();
  draft_.clear();
  browse_ = 0;
}

void ChatInput::cancel() {
  active_ = false;
  text_.clear();
  browse_ = 0;
}

void ChatInput::insert(std::string_view utf8) {
  if (!active_) return;
  for (std::size_t i = 0; i < utf8.size();) {
    std::size_t n = 1;
    while (i + n < utf8.size() && is_utf8_continuation(utf8[i + n])) ++n;
    if (text_.size() + n > kMaxLength) return;
    text_.append(utf8.substr(i, n));
    i += n;
  }
}

void ChatInput::backspace() {
  if (!active_ || text_.empty()) return;
  std::size_t end = text_.size() - 1;
  while (end > 0 && is_utf8_continuation(text_[end])) --end;
  text_.erase(end);
}

void ChatInput::history_up() {
  if (!active_ || browse_ >= history_.size()) return;
  if (browse_ == 0) draft_ = text_;
  ++browse_;
  text_ = history_[history_.size() - browse_];
}

void ChatInput::history_down() {
  if (!active_ || browse_ == 0) return;
  --browse_;
  text_ = browse_ == 0 ? draft_ : history_[history_.size() - browse_];
}

std::optional<std::string> ChatInput::submit() {
  if (!active_) return std::nullopt;
  active_ = false;
  std::string line = std::move(text_);
  text_.clear();
  browse_ = 0;
  if (line.find_first_not_of(" \t") == std::string::npos) return std::nullopt;
  if (history_.empty() || history_.back() != line) {
    history_.push_back(line);
    if (history_.size() > kHistory) history_.pop_front();
  }
  return line;
}

protocol::ChatLine local_chat_line(std::string_view text) {
  protocol::ChatLine line;
  line.chat_type = protocol::chat_type::Transient;
  line.channel = protocol::chat_channel_name(line.chat_type);
  line.text = std::string(text);
  return line;
}

void ChatBacklog::push(protocol::ChatLine line) {
  if (lines_.size() >= kMax) lines_.erase(lines_.begin());
  lines_.push_back(std::move(line));
}

std::vector<protocol::ChatLine> ChatBacklog::take() {
  std::vector<protocol::ChatLine> out;
  out.swap(lines_);
  return out;
}

}  // namespace dereth::app
