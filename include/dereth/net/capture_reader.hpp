#pragma once
// Reads AC traffic out of a capture file with libpcap (pcap and pcapng;
// Ethernet, Linux cooked, BSD loopback and raw-IP link types), and replays it
// as whole messages: each datagram is parsed as an AC packet, checksums are
// checked where they can be, and fragments are reassembled per direction.
// A capture is untrusted input: damaged records and datagrams are counted and
// skipped, never fatal; only an unreadable file is an error.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dereth/core/error.hpp"
#include "dereth/net/checksum.hpp"
#include "dereth/net/reassembler.hpp"

namespace dereth::net {

struct PortRange {
  std::uint16_t first = 9000;
  std::uint16_t last = 10013;
  [[nodiscard]] bool contains(std::uint16_t p) const noexcept { return p >= first && p <= last; }
};

// Which UDP datagrams of a capture are AC traffic. By default dereth finds
// them by the protocol, on whatever ports: a LoginRequest (flag 0x10000)
// with a valid checksum names the client and the server (ports N and N+1 of
// its destination), a ConnectRequest the other way round, and from then on
// every datagram between them is AC traffic. A capture without a handshake
// (started mid-session) falls back to the ports ACE servers use (9000-10013)
// and to flows whose packets parse with a valid cleartext checksum. `ports`
// narrows it by hand (dereth-cap --port N: N and N+1 only).
struct CaptureFilter {
  std::optional<PortRange> ports;
  [[nodiscard]] static CaptureFilter port(std::uint16_t n) {
    return CaptureFilter{PortRange{n, static_cast<std::uint16_t>(n == 0xFFFF ? n : n + 1)}};
  }
};

struct CaptureDatagram {
  double time = 0;  // seconds since the epoch, from the capture
  bool server_to_client = true;
  std::uint16_t source_port = 0;
  std::uint16_t destination_port = 0;
  std::uint32_t source_address = 0;  // IPv4, host order
  std::uint32_t destination_address = 0;
  std::vector<std::uint8_t> payload;  // the UDP payload: one AC packet
};

struct CaptureStats {
  std::uint64_t records = 0;         // capture records read
  std::uint64_t packets = 0;         // AC datagrams (both directions)
  std::uint64_t fragments = 0;       // fragments in well-formed packets
  std::uint64_t framing_errors = 0;  // AC datagrams that failed to parse or failed a cleartext checksum
  std::uint64_t messages_s2c = 0;
  std::uint64_t messages_c2s = 0;
  std::uint64_t unreadable_frames = 0;        // records whose IP/UDP framing was broken
  std::uint64_t bytes_read = 0;               // of the file, up to the end of the last whole record
  bool encrypted_checksums_verified = false;  // the capture held the handshake seeds
  std::uint64_t encrypted_checksum_failures = 0;
};

struct ReplayedMessage {
  double time = 0;
  bool server_to_client = true;
  std::uint16_t queue = 0;
  std::vector<std::uint8_t> bytes;  // opcode first
  // The server time of the last server-to-client TimeSync header at or
  // before this message's packet (none before the first).
  std::optional<double> time_sync;
};

class CaptureReader {
 public:
  static core::Result<CaptureReader> open(const std::filesystem::path& path, CaptureFilter filter = {});
  CaptureReader(CaptureReader&&) noexcept;
  CaptureReader& operator=(CaptureReader&&) noexcept;
  ~CaptureReader();

  // The next AC datagram, or nullopt at the end of the capture.
  std::optional<CaptureDatagram> next_datagram();
  [[nodiscard]] const CaptureStats& stats() const noexcept;
  [[nodiscard]] int link_type() const noexcept;
  // Set once reading stopped at damage (a record cut short, a record length
  // over the snap length or 256 KiB): one sentence naming the file and the
  // byte offset. Everything before it was read.
  [[nodiscard]] const std::optional<core::Error>& damage() const noexcept;

 private:
  struct Impl;
  explicit CaptureReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// What a whole pass over a capture found, before anything is replayed.
struct CaptureCheck {
  CaptureStats stats;                 // records, AC packets, bytes read
  std::optional<core::Error> damage;  // where reading stopped early, if it did
  // "read N records (B bytes) before the damage: <where and why>", or empty
  // when the capture is whole.
  [[nodiscard]] std::string damage_summary() const;
};

// Reads the whole capture once and decides whether it may be replayed: an
// error (one sentence naming the file) when it cannot be opened or is not a
// capture, when it holds no AC traffic, or when it is damaged and
// `allow_truncated` is false (the sentence says where, and how much came
// before). dereth-cap, dereth-sim and dereth replay all ask this first.
[[nodiscard]] core::Result<CaptureCheck> admit_capture(const std::filesystem::path& path, CaptureFilter filter,
                                                       bool allow_truncated);

// Datagrams -> messages, in completion order, both directions.
class CaptureReplay {
 public:
  static core::Result<CaptureReplay> open(const std::filesystem::path& path, CaptureFilter filter = {});

  // The next whole message, or nullopt at the end.
  std::optional<ReplayedMessage> next_message();
  [[nodiscard]] const CaptureStats& stats() const noexcept { return stats_; }
  // One sentence for the user about checksum verification (said once).
  [[nodiscard]] std::string checksum_note() const;
  [[nodiscard]] const std::optional<core::Error>& damage() const noexcept { return reader_.damage(); }

 private:
  explicit CaptureReplay(CaptureReader reader) : reader_(std::move(reader)) {}
  void handle(const CaptureDatagram& d);

  CaptureReader reader_;
  CaptureStats stats_;
  Reassembler s2c_;
  Reassembler c2s_;
  std::optional<AcIsaac> s2c_keys_;
  std::optional<AcIsaac> c2s_keys_;
  std::vector<std::uint32_t> s2c_pending_keys_;
  std::vector<std::uint32_t> c2s_pending_keys_;
  std::vector<ReplayedMessage> ready_;
  std::size_t ready_pos_ = 0;
  std::optional<double> time_sync_;
};

}  // namespace dereth::net
