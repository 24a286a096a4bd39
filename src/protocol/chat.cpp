#include "dereth/protocol/chat.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "dereth/core/cp1252.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/weenie_error.hpp"

#include "game_action.hpp"

namespace dereth::protocol {

namespace {

constexpr std::uint32_t kGameAction = login_opcode::GameAction;

using core::cp1252::append_utf8;

std::size_t utf8_length(char32_t c) {
  return c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
}

Result<std::uint32_t> read_opcode_of(ByteReader& r, std::uint32_t a, std::uint32_t b) {
  DERETH_TRY(const std::uint32_t op, r.u32("opcode"));
  if (op != a && op != b) {
    return std::unexpected(r.error_at(0, core::ErrorKind::Invalid, "opcode",
                                      fmt::format("opcode 0x{:04X}, expected 0x{:04X} or 0x{:04X}", op, a, b)));
  }
  return op;
}

// The longest String16L the chat box sends (retail's input line is far shorter).
constexpr std::size_t kMaxOutboundText = 1000;

}  // namespace

// ---- inbound ---------------------------------------------------------------------------------

std::vector<std::uint8_t> encode(const HearSpeech& m) {
  ByteWriter w;
  w.u32(m.range ? chat_opcode::HearRangedSpeech : chat_opcode::HearSpeech);
  w.string16l(m.text);
  w.string16l(m.sender);
  w.u32(m.sender_id);
  if (m.range) w.f32(*m.range);
  w.u32(m.chat_type);
  return std::move(w).take();
}

Result<HearSpeech> decode_hear_speech(std::span<const std::uint8_t> body) {
  ByteReader r(body, "HearSpeech");
  DERETH_TRY(const std::uint32_t op, read_opcode_of(r, chat_opcode::HearSpeech, chat_opcode::HearRangedSpeech));
  HearSpeech m;
  DERETH_TRY(m.text, r.string16l("text"));
  DERETH_TRY(m.sender, r.string16l("sender"));
  DERETH_TRY(m.sender_id, r.u32("sender_id"));
  if (op == chat_opcode::HearRangedSpeech) {
    DERETH_TRY(const float range, r.f32("range"));
    m.range = range;
  }
  DERETH_TRY(m.chat_type, r.u32("chat_type"));
  DERETH_CHECK(r.expect_end());
  return m;
}

std::vector<std::uint8_t> encode(const HearEmote& m) {
  ByteWriter w;
  w.u32(m.soul ? chat_opcode::HearSoulEmote : chat_opcode::HearEmote);
  w.u32(m.sender_id);
  w.string16l(m.sender);
  w.string16l(m.text);
  return std::move(w).take();
}

Result<HearEmote> decode_hear_emote(std::span<const std::uint8_t> body) {
  ByteReader r(body, "HearEmote");
  DERETH_TRY(const std::uint32_t op, read_opcode_of(r, chat_opcode::HearEmote, chat_opcode::HearSoulEmote));
  HearEmote m;
  m.soul = op == chat_opcode::HearSoulEmote;
  DERETH_TRY(m.sender_id, r.u32("sender_id"));
  DERETH_TRY(m.sender, r.string16l("sender"));
  DERETH_TRY(m.text, r.string16l("text"));
  DERETH_CHECK(r.expect_end());
  return m;
}

std::vector<std::uint8_t> encode(const HearDirectSpeech& m, std::uint32_t target, std::uint32_t sequence) {
  ByteWriter w;  // the payload: encode_game_event adds the F7B0 header
  w.string16l(m.text);
  w.string16l(m.sender);
  w.u32(m.sender_id);
  w.u32(m.target_id);
  w.u32(m.chat_type);
  w.u32(m.secret_flags);
  return encode_game_event(target, sequence, chat_event::HearDirectSpeech, std::move(w).take());
}

Result<HearDirectSpeech> decode_hear_direct_speech(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B0 HearDirectSpeech");
  DERETH_CHECK(expect_game_event(r, chat_event::HearDirectSpeech));
  HearDirectSpeech m;
  DERETH_TRY(m.text, r.string16l("text"));
  DERETH_TRY(m.sender, r.string16l("sender"));
  DERETH_TRY(m.sender_id, r.u32("sender_id"));
  DERETH_TRY(m.target_id, r.u32("target_id"));
  DERETH_TRY(m.chat_type, r.u32("chat_type"));
  DERETH_TRY(m.secret_flags, r.u32("secret_flags"));
  DERETH_CHECK(r.expect_end());
  return m;
}

std::vector<std::uint8_t> encode(const ChannelBroadcast& m, std::uint32_t target, std::uint32_t sequence) {
  ByteWriter w;  // the payload: encode_game_event adds the F7B0 header
  w.u32(m.channel);
  w.string16l(m.sender);
  w.string16l(m.text);
  return encode_game_event(target, sequence, chat_event::ChannelBroadcast, std::move(w).take());
}

Result<ChannelBroadcast> decode_channel_broadcast(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B0 ChannelBroadcast");
  DERETH_CHECK(expect_game_event(r, chat_event::ChannelBroadcast));
  ChannelBroadcast m;
  DERETH_TRY(m.channel, r.u32("channel"));
  DERETH_TRY(m.sender, r.string16l("sender"));
  DERETH_TRY(m.text, r.string16l("text"));
  DERETH_CHECK(r.expect_end());
  return m;
}

std::vector<std::uint8_t> encode(const WeenieError& m, std::uint32_t target, std::uint32_t sequence) {
  ByteWriter w;  // the payload: encode_game_event adds the F7B0 header
  w.u32(m.code);
  if (m.text) w.string16l(*m.text);
  return encode_game_event(target, sequence, m.text ? chat_event::WeenieErrorWithString : chat_event::WeenieError,
                           std::move(w).take());
}

Result<WeenieError> decode_weenie_error(std::span<const std::uint8_t> body) {
  const bool with_string = peek_wrapped_type(body) == chat_event::WeenieErrorWithString;
  ByteReader r(body, with_string ? "F7B0 WeenieErrorWithString" : "F7B0 WeenieError");
  DERETH_CHECK(expect_game_event(r, with_string ? chat_event::WeenieErrorWithString : chat_event::WeenieError));
  WeenieError m;
  DERETH_TRY(m.code, r.u32("code"));
  if (with_string) {
    DERETH_TRY(std::string text, r.string16l("text"));
    m.text = std::move(text);
  }
  DERETH_CHECK(r.expect_end());
  return m;
}

std::vector<std::uint8_t> encode(const StatusString& m, std::uint32_t target, std::uint32_t sequence) {
  ByteWriter w;  // the payload: encode_game_event adds the F7B0 header
  w.string16l(m.text);
  return encode_game_event(target, sequence, m.popup ? chat_event::PopupString : chat_event::TransientString,
                           std::move(w).take());
}

Result<StatusString> decode_status_string(std::span<const std::uint8_t> body) {
  const bool popup = peek_wrapped_type(body) == chat_event::PopupString;
  ByteReader r(body, popup ? "F7B0 PopupString" : "F7B0 TransientString");
  DERETH_CHECK(expect_game_event(r, popup ? chat_event::PopupString : chat_event::TransientString));
  StatusString m;
  m.popup = popup;
  DERETH_TRY(m.text, r.string16l("text"));
  DERETH_CHECK(r.expect_end());
  return m;
}

// ---- chat lines ------------------------------------------------------------------------------

std::string chat_channel_name(std::uint32_t t) {
  namespace ct = chat_type;
  switch (t) {
    case ct::Broadcast: return "broadcast";
    case ct::Speech: return "speech";
    case ct::Tell: return "tell";
    case ct::OutgoingTell: return "tell-sent";
    case ct::System: return "system";
    case ct::Combat: return "combat";
    case ct::Magic: return "magic";
    case ct::Channel: return "channel";
    case ct::ChannelSend: return "channel-sent";
    case ct::Social: return "social";
    case ct::SocialSend: return "social-sent";
    case ct::Emote: return "emote";
    case ct::Advancement: return "advancement";
    case ct::Abuse: return "abuse";
    case ct::Help: return "help";
    case ct::Appraisal: return "appraisal";
    case ct::Spellcasting: return "spellcasting";
    case ct::Allegiance: return "allegiance";
    case ct::Fellowship: return "fellowship";
    case ct::WorldBroadcast: return "world";
    case ct::CombatEnemy: return "combat-enemy";
    case ct::CombatSelf: return "combat-self";
    case ct::Recall: return "recall";
    case ct::Craft: return "craft";
    case ct::Salvaging: return "salvaging";
    case ct::Transient: return "transient";
    case ct::AdminTell: return "admin-tell";
    default: return fmt::format("type-0x{:02x}", t);
  }
}

namespace {

// CP1252 to UTF-8 with control characters dropped and tabs made spaces;
// with `keep_line_breaks`, "\r\n", "\n" and a lone "\r" become one '\n'.
std::string sanitize(std::string_view cp1252, std::size_t max_bytes, bool keep_line_breaks) {
  std::string out;
  out.reserve(std::min(cp1252.size(), max_bytes));
  for (std::size_t i = 0; i < cp1252.size(); ++i) {
    const auto b = static_cast<unsigned char>(cp1252[i]);
    char32_t c = b;
    if (b == '\t') {
      c = U' ';
    } else if (keep_line_breaks && (b == '\n' || b == '\r')) {
      if (b == '\r' && i + 1 < cp1252.size() && cp1252[i + 1] == '\n') ++i;
      c = U'\n';
    } else if (b < 0x20 || b == 0x7F) {
      continue;  // C0 controls and DEL
    } else if (b >= 0x80 && b < 0xA0) {
      c = core::cp1252::to_unicode(b);
      if (c == 0) continue;  // undefined in CP1252
    }
    if (out.size() + utf8_length(c) > max_bytes) break;
    append_utf8(out, c);
  }
  return out;
}

}  // namespace

std::string sanitize_chat_text(std::string_view cp1252, std::size_t max_bytes) {
  return sanitize(cp1252, max_bytes, false);
}

std::string sanitize_server_text(std::string_view cp1252) {
  // Each CP1252 byte is at most three bytes of UTF-8: nothing is cut. A
  // break at the end would only draw an empty line.
  std::string out = sanitize(cp1252, cp1252.size() * 3, true);
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

namespace {

ChatLine make_line(std::uint32_t type, std::string_view sender, std::string_view text, std::string channel = {},
                   std::uint32_t sender_id = 0) {
  ChatLine l;
  l.chat_type = type;
  l.sender_id = sender_id;
  l.channel = channel.empty() ? chat_channel_name(type) : std::move(channel);
  l.sender = sanitize_chat_text(sender, 64);
  l.text = sanitize_server_text(text);
  return l;
}

}  // namespace

// The chat window's line of each chat-carrying message: one function per
// layout, each a row (or two) of the inbound table (dispatcher.cpp).
Result<ChatLine> server_message_line(std::span<const std::uint8_t> body) {
  DERETH_TRY(const ServerMessage m, decode_server_message(body));
  return make_line(m.chat_type, "", m.text);
}

Result<ChatLine> hear_speech_line(std::span<const std::uint8_t> body) {
  DERETH_TRY(const HearSpeech m, decode_hear_speech(body));
  return make_line(m.chat_type, m.sender, m.text, {}, m.sender_id);
}

Result<ChatLine> hear_emote_line(std::span<const std::uint8_t> body) {
  DERETH_TRY(const HearEmote m, decode_hear_emote(body));
  return make_line(chat_type::Emote, m.sender, m.text, m.soul ? "soul-emote" : "emote", m.sender_id);
}

Result<ChatLine> hear_direct_speech_line(std::span<const std::uint8_t> body) {
  DERETH_TRY(const HearDirectSpeech m, decode_hear_direct_speech(body));
  return make_line(m.chat_type, m.sender, m.text, {}, m.sender_id);
}

Result<ChatLine> channel_broadcast_line(std::span<const std::uint8_t> body) {
  DERETH_TRY(const ChannelBroadcast m, decode_channel_broadcast(body));
  return make_line(chat_type::Channel, m.sender, m.text, fmt::format("channel-0x{:x}", m.channel));
}

Result<ChatLine> weenie_error_line(std::span<const std::uint8_t> body) {
  DERETH_TRY(const WeenieError m, decode_weenie_error(body));
  // The client's string table turns the code into words (weenie_error.hpp).
  return make_line(chat_type::System, "", weenie_error_text(m.code, m.text), "error");
}

Result<ChatLine> combat_notification_line(std::span<const std::uint8_t> body) {
  DERETH_TRY(const CombatNotification m, decode_combat_notification(body));
  // The client words the outcome of a strike (the server sends only the
  // numbers), except a kill or a death, whose sentence is the server's.
  return make_line(combat_notification_chat_type(m.event), "", combat_notification_text(m), "combat");
}

Result<ChatLine> status_string_line(std::span<const std::uint8_t> body) {
  DERETH_TRY(const StatusString m, decode_status_string(body));
  return make_line(chat_type::System, "", m.text, m.popup ? "popup" : "transient");
}

// ---- outbound --------------------------------------------------------------------------------

std::string utf8_to_cp1252(std::string_view utf8, std::size_t max_bytes, std::size_t* replaced) {
  std::string out;
  std::size_t bad = 0;
  std::size_t i = 0;
  while (i < utf8.size() && out.size() < max_bytes) {
    const auto b = static_cast<unsigned char>(utf8[i]);
    char32_t c = 0;
    std::size_t n = 0;
    if (b < 0x80) {
      c = b;
      n = 1;
    } else if ((b & 0xE0) == 0xC0) {
      c = b & 0x1F;
      n = 2;
    } else if ((b & 0xF0) == 0xE0) {
      c = b & 0x0F;
      n = 3;
    } else if ((b & 0xF8) == 0xF0) {
      c = b & 0x07;
      n = 4;
    }
    bool ok = n > 0 && i + n <= utf8.size();
    for (std::size_t k = 1; ok && k < n; ++k) {
      const auto cont = static_cast<unsigned char>(utf8[i + k]);
      if ((cont & 0xC0) != 0x80) ok = false;
      c = (c << 6) | (cont & 0x3F);
    }
    if (!ok) {
      out.push_back('?');
      ++bad;
      ++i;
      continue;
    }
    i += n;
    if (c < 0x80 || (c >= 0xA0 && c <= 0xFF)) {
      out.push_back(static_cast<char>(c));
      continue;
    }
    const std::optional<unsigned char> mapped = core::cp1252::from_unicode(c);
    if (!mapped) ++bad;
    out.push_back(mapped ? static_cast<char>(*mapped) : '?');
  }
  if (replaced != nullptr) *replaced = bad;
  return out;
}

std::vector<std::uint8_t> encode_talk(std::uint32_t sequence, std::string_view text) {
  ByteWriter w = detail::action_writer(sequence, chat_action::Talk);
  w.string16l(utf8_to_cp1252(text, kMaxOutboundText));
  return std::move(w).take();
}

std::vector<std::uint8_t> encode_tell(std::uint32_t sequence, std::string_view text, std::string_view target) {
  ByteWriter w = detail::action_writer(sequence, chat_action::Tell);
  w.string16l(utf8_to_cp1252(text, kMaxOutboundText));
  w.string16l(utf8_to_cp1252(target, 64));
  return std::move(w).take();
}

std::vector<std::uint8_t> encode_emote(std::uint32_t sequence, std::string_view text, bool soul) {
  ByteWriter w = detail::action_writer(sequence, soul ? chat_action::SoulEmote : chat_action::Emote);
  w.string16l(utf8_to_cp1252(text, kMaxOutboundText));
  return std::move(w).take();
}

Result<ChatAction> decode_chat_action(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1 chat action");
  DERETH_TRY(const std::uint32_t op, r.u32("opcode"));
  if (op != kGameAction) {
    return std::unexpected(r.error_at(0, core::ErrorKind::Invalid, "opcode", fmt::format("opcode 0x{:04X}", op)));
  }
  DERETH_CHECK(r.skip(4, "sequence"));
  ChatAction a;
  DERETH_TRY(a.action, r.u32("action"));
  if (a.action != chat_action::Talk && a.action != chat_action::Tell && a.action != chat_action::Emote &&
      a.action != chat_action::SoulEmote) {
    return std::unexpected(r.error_at(8, core::ErrorKind::Invalid, "action",
                                      fmt::format("action 0x{:04X} is not a chat action", a.action)));
  }
  DERETH_TRY(a.text, r.string16l("text"));
  if (a.action == chat_action::Tell) {
    DERETH_TRY(a.target, r.string16l("target"));
  }
  DERETH_CHECK(r.expect_end());
  return a;
}

}  // namespace dereth::protocol
