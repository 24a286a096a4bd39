#pragma once
// The AC UDP packet (spec/protocol.md section 1): the 20-byte header, the
// optional headers in ascending flag order, and blob fragments packed back to
// back with no padding. Parsing is bounds-checked; every malformed datagram is
// an Error, never a crash.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "dereth/core/error.hpp"

namespace dereth::net {

using core::Result;

namespace packet_flag {
inline constexpr std::uint32_t Retransmission = 0x00000001;
inline constexpr std::uint32_t EncryptedChecksum = 0x00000002;
inline constexpr std::uint32_t BlobFragments = 0x00000004;
inline constexpr std::uint32_t ServerSwitch = 0x00000100;
inline constexpr std::uint32_t LogonServerAddr = 0x00000200;
inline constexpr std::uint32_t EmptyHeader1 = 0x00000400;
inline constexpr std::uint32_t Referral = 0x00000800;
inline constexpr std::uint32_t RequestRetransmit = 0x00001000;
inline constexpr std::uint32_t RejectRetransmit = 0x00002000;
inline constexpr std::uint32_t AckSequence = 0x00004000;
inline constexpr std::uint32_t Disconnect = 0x00008000;
inline constexpr std::uint32_t LoginRequest = 0x00010000;
inline constexpr std::uint32_t WorldLoginRequest = 0x00020000;
inline constexpr std::uint32_t ConnectRequest = 0x00040000;
inline constexpr std::uint32_t ConnectResponse = 0x00080000;
inline constexpr std::uint32_t NetError = 0x00100000;
inline constexpr std::uint32_t NetErrorDisconnect = 0x00200000;
inline constexpr std::uint32_t CicmdCommand = 0x00400000;
inline constexpr std::uint32_t TimeSync = 0x01000000;
inline constexpr std::uint32_t EchoRequest = 0x02000000;
inline constexpr std::uint32_t EchoResponse = 0x04000000;
inline constexpr std::uint32_t Flow = 0x08000000;
// Every flag the format defines; any other bit makes the packet malformed.
inline constexpr std::uint32_t kKnown = 0x0F7FFF07;
}  // namespace packet_flag

inline constexpr std::size_t kHeaderSize = 20;
inline constexpr std::size_t kFragmentHeaderSize = 16;
inline constexpr std::size_t kMaxFragmentData = 448;
inline constexpr std::size_t kMaxDatagram = 1024;  // ACE's receive buffer
inline constexpr std::uint32_t kHeaderChecksumSeed = 0xBADD70DD;

struct PacketHeader {
  std::uint32_t sequence = 0;
  std::uint32_t flags = 0;
  std::uint32_t checksum = 0;
  std::uint16_t id = 0;
  std::uint16_t time = 0;
  std::uint16_t size = 0;  // bytes after the header
  std::uint16_t iteration = 0;
  bool operator==(const PacketHeader&) const = default;
};

struct ConnectRequestBody {
  double server_time = 0;
  std::uint64_t cookie = 0;
  std::uint32_t net_id = 0;
  std::uint32_t server_seed = 0;  // "OutgoingSeed": keys the server-to-client stream
  std::uint32_t client_seed = 0;  // "IncomingSeed": keys the client-to-server stream
  std::uint32_t padding = 0;
  bool operator==(const ConnectRequestBody&) const = default;
};

struct EchoResponseBody {
  float client_time = 0;
  float holding_time = 0;
  bool operator==(const EchoResponseBody&) const = default;
};

struct FlowBody {
  std::uint32_t bytes = 0;
  std::uint16_t interval = 0;
  bool operator==(const FlowBody&) const = default;
};

struct WordPair {
  std::uint32_t first = 0;
  std::uint32_t second = 0;
  bool operator==(const WordPair&) const = default;
};

// The optional headers, each present exactly when its flag is set.
struct OptionalHeaders {
  std::optional<WordPair> server_switch;
  std::optional<std::array<std::uint8_t, 16>> logon_server_addr;
  std::optional<std::array<std::uint8_t, 32>> referral;
  std::optional<std::vector<std::uint32_t>> request_retransmit;
  std::optional<std::vector<std::uint32_t>> reject_retransmit;
  std::optional<std::uint32_t> ack_sequence;
  std::optional<std::vector<std::uint8_t>> login_request;  // the rest of the packet
  std::optional<std::uint64_t> world_login_request;
  std::optional<ConnectRequestBody> connect_request;
  std::optional<std::uint64_t> connect_response;
  std::optional<WordPair> net_error;
  std::optional<WordPair> net_error_disconnect;
  std::optional<WordPair> cicmd_command;
  std::optional<double> time_sync;
  std::optional<float> echo_request;
  std::optional<EchoResponseBody> echo_response;
  std::optional<FlowBody> flow;
  bool operator==(const OptionalHeaders&) const = default;
};

struct Fragment {
  std::uint32_t sequence = 0;  // the message (blob) sequence
  std::uint32_t id = 0;
  std::uint16_t count = 1;
  std::uint16_t index = 0;
  std::uint16_t queue = 0;
  std::vector<std::uint8_t> data;  // the header's Size is 16 + data.size()
  bool operator==(const Fragment&) const = default;
};

struct Packet {
  PacketHeader header;
  OptionalHeaders optional;
  std::vector<Fragment> fragments;
  // Hash32 of the optional section plus each fragment's header and data,
  // computed while parsing (spec 2.3).
  std::uint32_t payload_hash = 0;
};

// Parses one datagram. Errors: a header shorter than 20 bytes, Size not equal
// to the bytes after the header, unknown flag bits, optional headers that do
// not fit, bytes left over without BlobFragments, fragment Size below 16 or
// beyond the packet, data over 448 bytes, count 0 or index >= count.
Result<Packet> parse_packet(std::span<const std::uint8_t> datagram);

// The header hash with the checksum field replaced by 0xBADD70DD (spec 2.2).
[[nodiscard]] std::uint32_t header_hash(const PacketHeader& h) noexcept;

// The ISAAC key hidden in an encrypted checksum: (checksum - header) ^ payload.
[[nodiscard]] std::uint32_t recover_key(const Packet& p) noexcept;

// True when a cleartext checksum (flag 0x2 clear) is right.
[[nodiscard]] bool cleartext_checksum_ok(const Packet& p) noexcept;

// Serialises a packet: fills header.size and the checksum (cleartext, or
// keyed with `key` when header.flags has EncryptedChecksum). The flags for
// present optional headers and fragments are set from the fields.
std::vector<std::uint8_t> serialize_packet(Packet& p, std::optional<std::uint32_t> key = std::nullopt);

}  // namespace dereth::net
