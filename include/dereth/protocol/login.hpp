#pragma once
// Login and world-entry messages (spec/protocol.md sections 3.2 and 3.6-3.7)
// and the LoginRequest body that rides in the transport's optional header.
// Each has a writer and a reader: the client writes what the scenario server
// reads and the other way round.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

namespace login_opcode {
inline constexpr std::uint32_t CharacterEnterWorld = 0xF657;
inline constexpr std::uint32_t CharacterList = 0xF658;
inline constexpr std::uint32_t CharacterError = 0xF659;
inline constexpr std::uint32_t CharacterLogOff = 0xF653;
inline constexpr std::uint32_t CharacterEnterWorldRequest = 0xF7C8;
inline constexpr std::uint32_t AccountBoot = 0xF7DC;
inline constexpr std::uint32_t CharacterEnterWorldServerReady = 0xF7DF;
inline constexpr std::uint32_t ServerMessage = 0xF7E0;
inline constexpr std::uint32_t ServerName = 0xF7E1;
inline constexpr std::uint32_t DddInterrogation = 0xF7E5;
inline constexpr std::uint32_t DddInterrogationResponse = 0xF7E6;
inline constexpr std::uint32_t EndDdd = 0xF7EA;
inline constexpr std::uint32_t GameEvent = 0xF7B0;
inline constexpr std::uint32_t GameAction = 0xF7B1;
inline constexpr std::uint32_t LoginCompleteAction = 0x00A1;
inline constexpr std::uint32_t PlayerDescriptionEvent = 0x0013;
}  // namespace login_opcode

// The fragment queues the client and ACE use (spec 4.3).
namespace queue {
inline constexpr std::uint16_t Control = 2;
inline constexpr std::uint16_t Weenie = 3;
inline constexpr std::uint16_t Logon = 4;
inline constexpr std::uint16_t Database = 5;
inline constexpr std::uint16_t Ui = 9;
inline constexpr std::uint16_t SmartBox = 10;
}  // namespace queue

// The LoginRequest optional-header body (spec 3.2).
struct LoginRequest {
  std::string client_version = "1802";
  std::uint32_t auth_type = 2;  // account + password
  std::uint32_t auth_flags = 0;
  std::uint32_t timestamp = 0;
  std::string account;
  std::string account_to_login_as;
  std::string password;
  bool operator==(const LoginRequest&) const = default;
};
std::vector<std::uint8_t> encode(const LoginRequest& m);
Result<LoginRequest> decode_login_request(std::span<const std::uint8_t> body);

struct CharacterEntry {
  std::uint32_t guid = 0;
  std::string name;
  std::uint32_t seconds_greyed_out = 0;
  bool operator==(const CharacterEntry&) const = default;
};

// F658 CharacterList.
struct CharacterList {
  std::uint32_t status = 0;
  std::vector<CharacterEntry> characters;
  std::uint32_t deleted_count = 0;
  std::uint32_t max_slots = 0;
  std::string account;  // exactly as the server spells it; F657 must repeat it
  std::uint32_t use_turbine_chat = 0;
  std::uint32_t has_throne_of_destiny = 1;
  bool operator==(const CharacterList&) const = default;
};
std::vector<std::uint8_t> encode(const CharacterList& m);
Result<CharacterList> decode_character_list(std::span<const std::uint8_t> body);

// F7E1 ServerName.
struct ServerName {
  std::int32_t current_connections = 0;
  std::int32_t max_connections = 0;
  std::string world_name;
  bool operator==(const ServerName&) const = default;
};
std::vector<std::uint8_t> encode(const ServerName& m);
Result<ServerName> decode_server_name(std::span<const std::uint8_t> body);

// F657 CharacterEnterWorld.
struct CharacterEnterWorld {
  std::uint32_t guid = 0;
  std::string account;
  bool operator==(const CharacterEnterWorld&) const = default;
};
std::vector<std::uint8_t> encode(const CharacterEnterWorld& m);
Result<CharacterEnterWorld> decode_character_enter_world(std::span<const std::uint8_t> body);

// F659 CharacterError.
struct CharacterError {
  std::uint32_t code = 0;
  bool operator==(const CharacterError&) const = default;
};
std::vector<std::uint8_t> encode(const CharacterError& m);
Result<CharacterError> decode_character_error(std::span<const std::uint8_t> body);
// One sentence for the user about a CharacterError code.
std::string describe_character_error(std::uint32_t code);

// F7DC AccountBoot: an optional reason.
struct AccountBoot {
  std::string reason;
  bool operator==(const AccountBoot&) const = default;
};
std::vector<std::uint8_t> encode(const AccountBoot& m);
Result<AccountBoot> decode_account_boot(std::span<const std::uint8_t> body);

// F7E0 ServerMessage: text and chat type.
struct ServerMessage {
  std::string text;
  std::uint32_t chat_type = 0;
  bool operator==(const ServerMessage&) const = default;
};
std::vector<std::uint8_t> encode(const ServerMessage& m);
Result<ServerMessage> decode_server_message(std::span<const std::uint8_t> body);

// Messages with no payload (F7C8, F7DF, F7EA, F653) and the fixed ones.
std::vector<std::uint8_t> encode_opcode_only(std::uint32_t opcode);
// F7E5 DDD interrogation as ACE sends it.
std::vector<std::uint8_t> encode_ddd_interrogation();
// The minimal F7E6 reply ACE accepts: language 1 and two empty lists, flags 0 (20 bytes).
std::vector<std::uint8_t> encode_ddd_interrogation_response();
// F7B1 game action with no payload (e.g. 0xA1 LoginComplete).
std::vector<std::uint8_t> encode_game_action(std::uint32_t sequence, std::uint32_t action);
// F7B0 game event header + payload (e.g. 0x13 PlayerDescription).
std::vector<std::uint8_t> encode_game_event(std::uint32_t target, std::uint32_t sequence, std::uint32_t event,
                                            std::span<const std::uint8_t> payload);

// Reads an F7B0 game event's header (opcode, target, sequence, event type)
// and checks the opcode and the event type, naming the field that differs;
// the reader is left at the event's payload.
Result<void> expect_game_event(ByteReader& r, std::uint32_t event);

// The opcode of a message body (0 when shorter than four bytes), and for
// F7B0/F7B1 the event or action type (0 otherwise).
std::uint32_t peek_opcode(std::span<const std::uint8_t> body);
std::uint32_t peek_wrapped_type(std::span<const std::uint8_t> body);
// The object an F7B0 game event is addressed to (the player), or nothing
// when `body` is not a game event or is too short.
std::optional<std::uint32_t> peek_game_event_guid(std::span<const std::uint8_t> body);

}  // namespace dereth::protocol
