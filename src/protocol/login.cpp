#include "dereth/protocol/login.hpp"

#include <fmt/format.h>

#include "opcode_decode.hpp"

namespace dereth::protocol {

namespace lo = login_opcode;

using detail::decode_with;
using detail::expect_opcode;

std::vector<std::uint8_t> encode(const LoginRequest& m) {
  ByteWriter w;
  w.string16l(m.client_version);
  const std::size_t auth_at = w.size();
  w.u32(0);  // cbAuthData, patched below
  w.u32(m.auth_type);
  w.u32(m.auth_flags);
  w.u32(m.timestamp);
  w.string16l(m.account);
  w.string16l(m.account_to_login_as);
  // String32L: u32 byte count (1 + length), u8 length, the bytes, zero pad.
  w.u32(static_cast<std::uint32_t>(1 + m.password.size()));
  w.u8(static_cast<std::uint8_t>(m.password.size()));
  w.bytes({reinterpret_cast<const std::uint8_t*>(m.password.data()), m.password.size()});
  w.align4();
  w.patch_u32(auth_at, static_cast<std::uint32_t>(w.size() - auth_at - 4));
  return std::move(w).take();
}

Result<LoginRequest> decode_login_request(std::span<const std::uint8_t> body) {
  ByteReader r(body, "LoginRequest");
  LoginRequest m;
  DERETH_TRY(m.client_version, r.string16l("client_version"));
  DERETH_TRY(const std::uint32_t auth_bytes, r.u32("auth_data_length"));
  if (auth_bytes != r.remaining()) {
    const auto kind = auth_bytes > r.remaining() ? core::ErrorKind::Truncated : core::ErrorKind::Invalid;
    return std::unexpected(
        r.error(kind, "auth_data_length", fmt::format("says {}, {} bytes follow", auth_bytes, r.remaining())));
  }
  DERETH_TRY(m.auth_type, r.u32("auth_type"));
  DERETH_TRY(m.auth_flags, r.u32("auth_flags"));
  DERETH_TRY(m.timestamp, r.u32("timestamp"));
  DERETH_TRY(m.account, r.string16l("account"));
  DERETH_TRY(m.account_to_login_as, r.string16l("account_to_login_as"));
  DERETH_TRY(const std::uint32_t count, r.u32("password.byte_count"));
  DERETH_TRY(const std::uint8_t length, r.u8("password.length"));
  if (count != 1U + length) {
    return std::unexpected(r.error(core::ErrorKind::Invalid, "password.byte_count",
                                   fmt::format("byte count {} for a {}-byte password", count, length)));
  }
  DERETH_TRY(const auto text, r.bytes(length, "password"));
  m.password.assign(text.begin(), text.end());
  DERETH_CHECK(r.align4("password.align"));
  DERETH_CHECK(r.expect_end());
  return m;
}

std::vector<std::uint8_t> encode(const CharacterList& m) {
  ByteWriter w;
  w.u32(lo::CharacterList);
  w.u32(m.status);
  w.u32(static_cast<std::uint32_t>(m.characters.size()));
  for (const auto& c : m.characters) {
    w.u32(c.guid);
    w.string16l(c.name);
    w.u32(c.seconds_greyed_out);
  }
  w.u32(m.deleted_count);
  w.u32(m.max_slots);
  w.string16l(m.account);
  w.u32(m.use_turbine_chat);
  w.u32(m.has_throne_of_destiny);
  return std::move(w).take();
}

Result<CharacterList> decode_character_list(std::span<const std::uint8_t> body) {
  return decode_with<CharacterList>(body, lo::CharacterList, "F658 CharacterList",
                                    [](ByteReader& r, CharacterList& m) -> Result<void> {
                                      DERETH_TRY(m.status, r.u32("status"));
                                      DERETH_TRY(const std::uint32_t count, r.u32("count"));
                                      // Each entry is at least a guid, an empty name and a u32.
                                      DERETH_TRY(const std::size_t n, r.checked_count(count, 12, "count"));
                                      m.characters.resize(n);
                                      for (auto& c : m.characters) {
                                        DERETH_TRY(c.guid, r.u32("characters.guid"));
                                        DERETH_TRY(c.name, r.string16l("characters.name"));
                                        DERETH_TRY(c.seconds_greyed_out, r.u32("characters.seconds_greyed_out"));
                                      }
                                      DERETH_TRY(m.deleted_count, r.u32("deleted_count"));
                                      DERETH_TRY(m.max_slots, r.u32("max_slots"));
                                      DERETH_TRY(m.account, r.string16l("account"));
                                      DERETH_TRY(m.use_turbine_chat, r.u32("use_turbine_chat"));
                                      DERETH_TRY(m.has_throne_of_destiny, r.u32("has_throne_of_destiny"));
                                      return {};
                                    });
}

std::vector<std::uint8_t> encode(const ServerName& m) {
  ByteWriter w;
  w.u32(lo::ServerName);
  w.i32(m.current_connections);
  w.i32(m.max_connections);
  w.string16l(m.world_name);
  return std::move(w).take();
}

Result<ServerName> decode_server_name(std::span<const std::uint8_t> body) {
  return decode_with<ServerName>(body, lo::ServerName, "F7E1 ServerName",
                                 [](ByteReader& r, ServerName& m) -> Result<void> {
                                   DERETH_TRY(m.current_connections, r.i32("current_connections"));
                                   DERETH_TRY(m.max_connections, r.i32("max_connections"));
                                   DERETH_TRY(m.world_name, r.string16l("world_name"));
                                   return {};
                                 });
}

std::vector<std::uint8_t> encode(const CharacterEnterWorld& m) {
  ByteWriter w;
  w.u32(lo::CharacterEnterWorld);
  w.u32(m.guid);
  w.string16l(m.account);
  return std::move(w).take();
}

Result<CharacterEnterWorld> decode_character_enter_world(std::span<const std::uint8_t> body) {
  return decode_with<CharacterEnterWorld>(body, lo::CharacterEnterWorld, "F657 CharacterEnterWorld",
                                          [](ByteReader& r, CharacterEnterWorld& m) -> Result<void> {
                                            DERETH_TRY(m.guid, r.u32("guid"));
                                            DERETH_TRY(m.account, r.string16l("account"));
                                            return {};
                                          });
}

std::vector<std::uint8_t> encode(const CharacterError& m) {
  ByteWriter w;
  w.u32(lo::CharacterError);
  w.u32(m.code);
  return std::move(w).take();
}

Result<CharacterError> decode_character_error(std::span<const std::uint8_t> body) {
  return decode_with<CharacterError>(body, lo::CharacterError, "F659 CharacterError",
                                     [](ByteReader& r, CharacterError& m) -> Result<void> {
                                       DERETH_TRY(m.code, r.u32("code"));
                                       return {};
                                     });
}

std::string describe_character_error(std::uint32_t code) {
  switch (code) {
    case 0x01: return "the account is already logged on elsewhere";
    case 0x03: return "the server could not read the account; try again in a few minutes";
    case 0x04:
    case 0x08: return "the server disconnected; try again in a few minutes";
    case 0x05: return "the server could not log the character off";
    case 0x06: return "the server could not delete the character";
    case 0x09: return "the account name or password was not accepted";
    case 0x0A: return "the account does not exist";
    case 0x0B: return "the server would not let the character enter the world";
    case 0x0C: return "stress-test characters cannot enter the world";
    case 0x0D:
    case 0x10: return "a character of this account is still in the world; try again shortly";
    case 0x0E: return "the server could not find the player account";
    case 0x0F: return "the account does not own that character";
    case 0x11: return "the character is out of date for this server";
    case 0x12: return "the character's data is damaged on the server";
    case 0x13: return "the character's starting server is having problems";
    case 0x14: return "the server could not place the character in the world";
    case 0x15: return "the server is full; try again later";
    case 0x17: return "a save of the character is still in progress; try again shortly";
    case 0x18: return "the subscription has expired";
    default: return fmt::format("the server refused the login (character error 0x{:X})", code);
  }
}

std::vector<std::uint8_t> encode(const AccountBoot& m) {
  ByteWriter w;
  w.u32(lo::AccountBoot);
  w.string16l(m.reason);
  return std::move(w).take();
}

Result<AccountBoot> decode_account_boot(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7DC AccountBoot");
  DERETH_CHECK(expect_opcode(r, lo::AccountBoot));
  AccountBoot m;
  if (!r.at_end()) {
    DERETH_TRY(m.reason, r.string16l("reason"));
  }
  DERETH_CHECK(r.expect_end());
  return m;
}

std::vector<std::uint8_t> encode(const ServerMessage& m) {
  ByteWriter w;
  w.u32(lo::ServerMessage);
  w.string16l(m.text);
  w.u32(m.chat_type);
  return std::move(w).take();
}

Result<ServerMessage> decode_server_message(std::span<const std::uint8_t> body) {
  return decode_with<ServerMessage>(body, lo::ServerMessage, "F7E0 ServerMessage",
                                    [](ByteReader& r, ServerMessage& m) -> Result<void> {
                                      DERETH_TRY(m.text, r.string16l("text"));
                                      DERETH_TRY(m.chat_type, r.u32("chat_type"));
                                      return {};
                                    });
}

std::vector<std::uint8_t> encode_opcode_only(std::uint32_t op) {
  ByteWriter w;
  w.u32(op);
  return std::move(w).take();
}

std::vector<std::uint8_t> encode_ddd_interrogation() {
  ByteWriter w;
  w.u32(lo::DddInterrogation);
  w.u32(1);  // servers region
  w.u32(1);  // name rule language
  w.u32(1);  // product id
  w.u32(2);  // languages
  w.u32(0);
  w.u32(1);
  return std::move(w).take();
}

std::vector<std::uint8_t> encode_ddd_interrogation_response() {
  ByteWriter w;
  w.u32(lo::DddInterrogationResponse);
  w.u32(1);  // client language
  w.u32(0);  // iterations with keys: none
  w.u32(0);  // iterations without keys: none
  w.u32(0);  // flags
  return std::move(w).take();
}

std::vector<std::uint8_t> encode_game_action(std::uint32_t sequence, std::uint32_t action) {
  ByteWriter w;
  w.u32(lo::GameAction);
  w.u32(sequence);
  w.u32(action);
  return std::move(w).take();
}

std::vector<std::uint8_t> encode_game_event(std::uint32_t target, std::uint32_t sequence, std::uint32_t event,
                                            std::span<const std::uint8_t> payload) {
  ByteWriter w;
  w.u32(lo::GameEvent);
  w.u32(target);
  w.u32(sequence);
  w.u32(event);
  w.bytes(payload);
  return std::move(w).take();
}

std::uint32_t peek_opcode(std::span<const std::uint8_t> body) {
  ByteReader r(body, "message");
  return r.u32("opcode").value_or(0);
}

std::uint32_t peek_wrapped_type(std::span<const std::uint8_t> body) {
  ByteReader r(body, "message");
  const std::uint32_t op = r.u32("opcode").value_or(0);
  if (op == lo::GameEvent) {
    if (!r.skip(8, "header")) return 0;
    return r.u32("event").value_or(0);
  }
  if (op == lo::GameAction) {
    if (!r.skip(4, "sequence")) return 0;
    return r.u32("action").value_or(0);
  }
  return 0;
}

Result<void> expect_game_event(ByteReader& r, std::uint32_t event) {
  const std::size_t start = r.position();
  DERETH_TRY(const std::uint32_t op, r.u32("opcode"));
  if (op != lo::GameEvent) {
    return std::unexpected(
        r.error_at(start, core::ErrorKind::Invalid, "opcode", fmt::format("opcode 0x{:04X}, expected 0xF7B0", op)));
  }
  DERETH_CHECK(r.skip(8, "target and sequence"));
  const std::size_t type_at = r.position();
  DERETH_TRY(const std::uint32_t type, r.u32("event_type"));
  if (type != event) {
    return std::unexpected(r.error_at(type_at, core::ErrorKind::Invalid, "event_type",
                                      fmt::format("event 0x{:04X}, expected 0x{:04X}", type, event)));
  }
  return {};
}

std::optional<std::uint32_t> peek_game_event_guid(std::span<const std::uint8_t> body) {
  ByteReader r(body, "message");
  if (r.u32("opcode").value_or(0) != lo::GameEvent) return std::nullopt;
  auto guid = r.u32("guid");
  return guid ? std::optional<std::uint32_t>(*guid) : std::nullopt;
}

}  // namespace dereth::protocol
