#pragma once
// Records a live session as a classic pcap file with synthetic Ethernet,
// IPv4 and UDP headers (link type 1), both directions, capture timestamps,
// so Wireshark, aclogview and dereth's own replay read it. Every record is
// flushed as it is written: a crash leaves a readable file (at worst its last
// record cut short, which readers stop at).

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <span>

#include "dereth/core/error.hpp"

namespace dereth::net {

struct Ipv4Endpoint {
  std::uint32_t address = 0x7F000001;  // host order: 127.0.0.1
  std::uint16_t port = 0;
};

class PcapRecorder {
 public:
  // Creates the file, mode 0600, never over an existing one: when `path` is
  // taken, "stem-2.ext", "stem-3.ext", ... (path() says which).
  static core::Result<PcapRecorder> create(const std::filesystem::path& path);
  PcapRecorder(PcapRecorder&&) noexcept = default;
  PcapRecorder& operator=(PcapRecorder&&) noexcept = default;

  // Writes one UDP datagram; `unix_time` in seconds.
  core::Result<void> record(std::span<const std::uint8_t> payload, Ipv4Endpoint from, Ipv4Endpoint to,
                            double unix_time);
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
  [[nodiscard]] std::uint64_t records() const noexcept { return records_; }

  // "pkt_YYYY-M-D_<unixtime>_log.pcap" (UtilityBelt's naming), local date.
  static std::string default_file_name(std::time_t now);
  // $XDG_STATE_HOME/dereth/recordings, else ~/.local/state/dereth/recordings.
  static std::filesystem::path default_folder();

 private:
  struct Closer {
    void operator()(std::FILE* f) const noexcept {
      if (f) std::fclose(f);
    }
  };
  PcapRecorder(std::filesystem::path path, std::unique_ptr<std::FILE, Closer> file)
      : path_(std::move(path)), file_(std::move(file)) {}
  std::filesystem::path path_;
  std::unique_ptr<std::FILE, Closer> file_;
  std::uint64_t records_ = 0;
  std::uint16_t ip_id_ = 0;
};

}  // namespace dereth::net
