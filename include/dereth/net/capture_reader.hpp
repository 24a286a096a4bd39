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

struct CaptureDatagram {
  double time = 0;  // seconds since the epoch, from the capture
  bool server_to_client = true;
  std::uint16_t source_port = 0;
  std::uint16_t destination_port = 0;
  std::vector<std::uint8_t> payload;  // the UDP payload: one AC packet
};

struct CaptureStats {
  std::uint64_t records = 0;       // capture records read
  std::uint64_t packets = 0;       // AC datagrams (both directions)
  std::uint64_t fragments = 0;     // fragments in well-formed packets
  std::uint64_t framing_errors = 0;  // AC datagrams that failed to parse or failed a cleartext checksum
  std::uint64_t messages_s2c = 0;
  std::uint64_t messages_c2s = 0;
  std::uint64_t unreadable_frames = 0;  // records on AC ports whose IP/UDP framing was broken
  bool encrypted_checksums_verified = false;  // the capture held the handshake seeds
  std::uint64_t encrypted_checksum_failures = 0;
};

struct ReplayedMessage {
  double time = 0;
  bool server_to_client = true;
  std::uint16_t queue = 0;
  std::vector<std::uint8_t> bytes;  // opcode first
};

class CaptureReader {
 public:
  static core::Result<CaptureReader> open(const std::filesystem::path& path, PortRange ports = {});
  CaptureReader(CaptureReader&&) noexcept;
  CaptureReader& operator=(CaptureReader&&) noexcept;
  ~CaptureReader();

  // The next AC datagram, or nullopt at the end of the capture.
  std::optional<CaptureDatagram> next_datagram();
  [[nodiscard]] const CaptureStats& stats() const noexcept;
  [[nodiscard]] int link_type() const noexcept;

 private:
  struct Impl;
  explicit CaptureReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Datagrams -> messages, in completion order, both directions.
class CaptureReplay {
 public:
  static core::Result<CaptureReplay> open(const std::filesystem::path& path, PortRange ports = {});

  // The next whole message, or nullopt at the end.
  std::optional<ReplayedMessage> next_message();
  [[nodiscard]] const CaptureStats& stats() const noexcept { return stats_; }
  // One sentence for the user about checksum verification (said once).
  [[nodiscard]] std::string checksum_note() const;

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
};

}  // namespace dereth::net
