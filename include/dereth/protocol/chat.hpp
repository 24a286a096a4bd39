#pragma once
// Chat and server text (spec/protocol.md section 5): what the server says to
// the player, and what the player says. Layouts checked against ACE's
// GameMessageOpcode, GameEventType and GameActionType and their writers and
// readers. Every string is a String16L in the server's code page (CP1252);
// `chat_line` turns any of them into one sanitised UTF-8 message for the
// chat window and the headless output: its line breaks kept (a server's
// help text is many lines), its length not cut (a String16L is bounded by
// its u16 length already). What the player sends stays within kMaxChatText.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

namespace chat_opcode {
inline constexpr std::uint32_t HearEmote = 0x01E0;         // top-level message
inline constexpr std::uint32_t HearSoulEmote = 0x01E2;     // top-level message
inline constexpr std::uint32_t HearSpeech = 0x02BB;        // top-level message
inline constexpr std::uint32_t HearRangedSpeech = 0x02BC;  // top-level message
}  // namespace chat_opcode

// F7B0 game event types.
namespace chat_event {
inline constexpr std::uint32_t PopupString = 0x0004;
inline constexpr std::uint32_t ChannelBroadcast = 0x0147;
inline constexpr std::uint32_t WeenieError = 0x028A;
inline constexpr std::uint32_t WeenieErrorWithString = 0x028B;
inline constexpr std::uint32_t HearDirectSpeech = 0x02BD;  // a tell
inline constexpr std::uint32_t TransientString = 0x02EB;
}  // namespace chat_event

// F7B1 game action types the chat box sends.
namespace chat_action {
inline constexpr std::uint32_t Talk = 0x0015;
inline constexpr std::uint32_t Tell = 0x005D;
inline constexpr std::uint32_t Emote = 0x01DF;
inline constexpr std::uint32_t SoulEmote = 0x01E1;
}  // namespace chat_action

// ChatMessageType: the chat window's channel and colour (ACE's enum).
namespace chat_type {
inline constexpr std::uint32_t Broadcast = 0x00;
inline constexpr std::uint32_t Speech = 0x02;
inline constexpr std::uint32_t Tell = 0x03;
inline constexpr std::uint32_t OutgoingTell = 0x04;
inline constexpr std::uint32_t System = 0x05;
inline constexpr std::uint32_t Combat = 0x06;
inline constexpr std::uint32_t Magic = 0x07;
inline constexpr std::uint32_t Channel = 0x08;
inline constexpr std::uint32_t ChannelSend = 0x09;
inline constexpr std::uint32_t Social = 0x0A;
inline constexpr std::uint32_t SocialSend = 0x0B;
inline constexpr std::uint32_t Emote = 0x0C;
inline constexpr std::uint32_t Advancement = 0x0D;
inline constexpr std::uint32_t Abuse = 0x0E;
inline constexpr std::uint32_t Help = 0x0F;
inline constexpr std::uint32_t Appraisal = 0x10;
inline constexpr std::uint32_t Spellcasting = 0x11;
inline constexpr std::uint32_t Allegiance = 0x12;
inline constexpr std::uint32_t Fellowship = 0x13;
inline constexpr std::uint32_t WorldBroadcast = 0x14;
inline constexpr std::uint32_t CombatEnemy = 0x15;
inline constexpr std::uint32_t CombatSelf = 0x16;
inline constexpr std::uint32_t Recall = 0x17;
inline constexpr std::uint32_t Craft = 0x18;
inline constexpr std::uint32_t Salvaging = 0x19;
// The client's own lines (ClientSystem::AddTextToScroll with log text type
// 0x1A: "You must select a valid combat target before attacking").
inline constexpr std::uint32_t Transient = 0x1A;
inline constexpr std::uint32_t AdminTell = 0x1F;
}  // namespace chat_type

// 0x02BB HearSpeech and 0x02BC HearRangedSpeech (range set).
struct HearSpeech {
  std::string text;
  std::string sender;
  std::uint32_t sender_id = 0;
  std::optional<float> range;  // 0x02BC only
  std::uint32_t chat_type = chat_type::Speech;
  bool operator==(const HearSpeech&) const = default;
};
std::vector<std::uint8_t> encode(const HearSpeech& m);
Result<HearSpeech> decode_hear_speech(std::span<const std::uint8_t> body);  // either opcode

// 0x01E0 HearEmote and 0x01E2 HearSoulEmote (soul set).
struct HearEmote {
  std::uint32_t sender_id = 0;
  std::string sender;
  std::string text;
  bool soul = false;
  bool operator==(const HearEmote&) const = default;
};
std::vector<std::uint8_t> encode(const HearEmote& m);
Result<HearEmote> decode_hear_emote(std::span<const std::uint8_t> body);  // either opcode

// F7B0 0x02BD HearDirectSpeech: a tell.
struct HearDirectSpeech {
  std::string text;
  std::string sender;
  std::uint32_t sender_id = 0;
  std::uint32_t target_id = 0;
  std::uint32_t chat_type = chat_type::Tell;
  std::uint32_t secret_flags = 0;
  bool operator==(const HearDirectSpeech&) const = default;
};

// F7B0 0x0147 ChannelBroadcast (an empty sender: the player's own line).
struct ChannelBroadcast {
  std::uint32_t channel = 0;
  std::string sender;
  std::string text;
  bool operator==(const ChannelBroadcast&) const = default;
};

// F7B0 0x028A WeenieError and 0x028B WeenieErrorWithString (text set).
struct WeenieError {
  std::uint32_t code = 0;
  std::optional<std::string> text;
  bool operator==(const WeenieError&) const = default;
};

// F7B0 0x02EB TransientString and 0x0004 PopupString (popup set).
struct StatusString {
  std::string text;
  bool popup = false;
  bool operator==(const StatusString&) const = default;
};

// The F7B0 header (guid, sequence) and each event's payload.
std::vector<std::uint8_t> encode(const HearDirectSpeech& m, std::uint32_t target, std::uint32_t sequence);
std::vector<std::uint8_t> encode(const ChannelBroadcast& m, std::uint32_t target, std::uint32_t sequence);
std::vector<std::uint8_t> encode(const WeenieError& m, std::uint32_t target, std::uint32_t sequence);
std::vector<std::uint8_t> encode(const StatusString& m, std::uint32_t target, std::uint32_t sequence);
Result<HearDirectSpeech> decode_hear_direct_speech(std::span<const std::uint8_t> body);
Result<ChannelBroadcast> decode_channel_broadcast(std::span<const std::uint8_t> body);
Result<WeenieError> decode_weenie_error(std::span<const std::uint8_t> body);    // either event
Result<StatusString> decode_status_string(std::span<const std::uint8_t> body);  // either event

// One message of the chat window. `channel` names the chat type ("speech",
// "tell", "system", ...); `sender` is empty for system lines. Text is UTF-8,
// control characters removed but line breaks kept as '\n' (sanitize_server_text).
struct ChatLine {
  std::string channel;
  std::string sender;
  std::string text;
  std::uint32_t chat_type = 0;
  std::uint32_t sender_id = 0;  // the speaker's guid, where the message names one
  bool operator==(const ChatLine&) const = default;
};
// The longest text the player sends (and the default cut of sanitize_chat_text).
inline constexpr std::size_t kMaxChatText = 1000;

// The channel name of a ChatMessageType ("type-0x1a" for one with no name).
std::string chat_channel_name(std::uint32_t chat_type);
// CP1252 bytes to UTF-8, control characters (C0, DEL, C1) dropped and tabs
// made spaces, cut at `max_bytes` on a character boundary.
std::string sanitize_chat_text(std::string_view cp1252, std::size_t max_bytes = kMaxChatText);
// Server text for the chat window: as sanitize_chat_text, but line breaks
// ("\n", "\r\n" or a lone "\r") kept as '\n' (those at the end dropped)
// and nothing cut.
std::string sanitize_server_text(std::string_view cp1252);
// The chat line of each chat-carrying layout (the inbound table's chat rows,
// messages.hpp, name which opcode or game event each reads); an error naming
// the message and field for a malformed one.
Result<ChatLine> server_message_line(std::span<const std::uint8_t> body);       // F7E0
Result<ChatLine> hear_speech_line(std::span<const std::uint8_t> body);          // 0x02BB, 0x02BC
Result<ChatLine> hear_emote_line(std::span<const std::uint8_t> body);           // 0x01E0, 0x01E2
Result<ChatLine> hear_direct_speech_line(std::span<const std::uint8_t> body);   // F7B0 0x02BD
Result<ChatLine> channel_broadcast_line(std::span<const std::uint8_t> body);    // F7B0 0x0147
Result<ChatLine> weenie_error_line(std::span<const std::uint8_t> body);         // F7B0 0x028A, 0x028B
Result<ChatLine> combat_notification_line(std::span<const std::uint8_t> body);  // F7B0 combat notifications
Result<ChatLine> status_string_line(std::span<const std::uint8_t> body);        // F7B0 0x02EB, 0x0004
// Whether `body` is one of the chat-carrying messages above (a chat row of
// the inbound table, messages.hpp).
bool is_chat_message(std::span<const std::uint8_t> body);
// The chat line of any chat-carrying message; none for other messages; an
// error naming the message and field for a malformed one. The table decodes
// it (decode_message gives a ChatMessage).
Result<std::optional<ChatLine>> chat_line(std::span<const std::uint8_t> body);

// What the player types, as the chat box sends it (F7B1 with its stamp).
// Text is UTF-8 and is sent in CP1252: a character CP1252 lacks becomes '?'.
std::vector<std::uint8_t> encode_talk(std::uint32_t sequence, std::string_view text);
std::vector<std::uint8_t> encode_tell(std::uint32_t sequence, std::string_view text, std::string_view target);
std::vector<std::uint8_t> encode_emote(std::uint32_t sequence, std::string_view text, bool soul = false);
// UTF-8 to CP1252 ('?' for what it lacks and for malformed UTF-8), cut at
// `max_bytes`; `replaced` counts the replacements.
std::string utf8_to_cp1252(std::string_view utf8, std::size_t max_bytes, std::size_t* replaced = nullptr);

// The text the server received in a chat action (for the scenario server).
struct ChatAction {
  std::uint32_t action = 0;  // chat_action::*
  std::string text;          // CP1252 as sent
  std::string target;        // Tell only
  bool operator==(const ChatAction&) const = default;
};
Result<ChatAction> decode_chat_action(std::span<const std::uint8_t> body);

}  // namespace dereth::protocol
