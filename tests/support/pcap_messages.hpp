#pragma once
// Test helper: reads a classic pcap capture of Asheron's Call traffic and
// returns the reassembled game messages of both directions
// (spec/protocol.md sections 1.1-1.5). This is deliberately independent of
// dereth_net's transport code, so tests can check that code against it.
//
// Accepted input: little-endian classic pcap (microsecond or nanosecond
// magic), link type 1 (Ethernet), IPv4 (header options allowed), UDP. A
// datagram is AC traffic when either UDP port is in 9000..10013; it is server
// to client when its source port is in that range.
//
// File-level damage (not a pcap, unsupported variant, a record cut short) is
// an Error. Damage inside one AC datagram (a Size that disagrees with the
// datagram, an unknown header flag, a fragment that overruns, ...) counts one
// framing error and skips that whole datagram; reading goes on.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/core/error.hpp"

namespace dereth::test {

struct CapturedMessage {
  double time = 0;  // capture timestamp (seconds) of the packet that completed it
  bool server_to_client = true;
  std::uint16_t queue = 0;  // fragment Queue field (of the first fragment received)
  std::uint32_t fragment_sequence = 0;
  std::vector<std::uint8_t> bytes;             // the whole reassembled message, opcode first
  [[nodiscard]] std::uint32_t opcode() const;  // first u32 LE, 0 if shorter than 4 bytes
};

// One AC datagram as captured (the UDP payload), for transport-level tests.
struct CapturedDatagram {
  double time = 0;
  bool server_to_client = true;
  std::vector<std::uint8_t> bytes;
};

struct CaptureContents {
  std::vector<CapturedDatagram> raw_datagrams;  // every AC datagram, in capture order
  std::vector<CapturedMessage> messages;        // in completion order, both directions
  std::size_t datagrams = 0;                    // AC datagrams seen (both directions, malformed included)
  std::size_t server_datagrams = 0;             // of which server to client
  std::size_t fragments = 0;                    // fragments in well-formed datagrams, both directions,
                                                // duplicates included
  std::size_t framing_errors = 0;               // malformed AC datagrams (skipped)
  // What was wrong with the first few malformed datagrams, for failure output.
  std::vector<std::string> framing_error_notes;
};

// Reads and parses the capture file at `path`. Errors carry the path in
// Error::context: Io (missing or unreadable), Truncated (file or record cut
// short), Invalid (not a pcap), Unsupported (big-endian pcap, pcapng, a link
// type other than Ethernet), TooLarge (an absurd record length).
dereth::core::Result<CaptureContents> read_capture(const std::string& path);

// The same over bytes already in memory; `name` becomes Error::context.
dereth::core::Result<CaptureContents> parse_capture(std::span<const std::uint8_t> file, std::string_view name);

// DERETH_SHARED_DIR "/" relative: a path inside the shared spec/captures tree.
std::string shared_path(std::string_view relative);

}  // namespace dereth::test
