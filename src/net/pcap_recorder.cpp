#include "dereth/net/pcap_recorder.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include "dereth/core/byte_writer.hpp"

namespace dereth::net {

namespace {

void put_be16(std::uint8_t* p, std::uint16_t v) {
  p[0] = static_cast<std::uint8_t>(v >> 8);
  p[1] = static_cast<std::uint8_t>(v & 0xFF);
}

void put_be32(std::uint8_t* p, std::uint32_t v) {
  put_be16(p, static_cast<std::uint16_t>(v >> 16));
  put_be16(p + 2, static_cast<std::uint16_t>(v & 0xFFFF));
}

std::uint16_t ipv4_checksum(const std::uint8_t* header) {
  std::uint32_t sum = 0;
  for (int i = 0; i < 20; i += 2) sum += static_cast<std::uint32_t>((header[i] << 8) | header[i + 1]);
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<std::uint16_t>(~sum & 0xFFFF);
}

}  // namespace

core::Result<PcapRecorder> PcapRecorder::create(const std::filesystem::path& path) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    return std::unexpected(core::Error{core::ErrorKind::Io, path.string(), "folder", 0, ec.message()});
  }
  // A recording holds a player's session: readable by its owner only, and
  // never over another file. A name that is taken gets "-2", "-3", ... before
  // its extension (two sessions started in the same second).
  std::filesystem::path chosen = path;
  int fd = -1;
  for (int n = 1; n <= 1000; ++n) {
    if (n > 1) {
      chosen = path.parent_path() / fmt::format("{}-{}{}", path.stem().string(), n, path.extension().string());
    }
    fd = ::open(chosen.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0 || errno != EEXIST) break;
  }
  if (fd < 0) {
    return std::unexpected(core::Error{core::ErrorKind::Io, chosen.string(), "", 0,
                                       fmt::format("cannot create the file: {}", std::strerror(errno))});
  }
  std::unique_ptr<std::FILE, Closer> file(::fdopen(fd, "wb"));
  if (!file) {
    ::close(fd);
    return std::unexpected(core::Error{core::ErrorKind::Io, chosen.string(), "", 0, "cannot create the file"});
  }
  const std::filesystem::path& path_used = chosen;
  core::ByteWriter w;
  w.u32(0xA1B2C3D4);  // microsecond timestamps, little-endian
  w.u16(2);
  w.u16(4);
  w.i32(0);      // this zone
  w.u32(0);      // sigfigs
  w.u32(65535);  // snap length
  w.u32(1);      // Ethernet
  if (std::fwrite(w.view().data(), 1, w.size(), file.get()) != w.size() || std::fflush(file.get()) != 0) {
    return std::unexpected(core::Error{core::ErrorKind::Io, path_used.string(), "header", 0, "write failed"});
  }
  return PcapRecorder(path_used, std::move(file));
}

core::Result<void> PcapRecorder::record(std::span<const std::uint8_t> payload, Ipv4Endpoint from, Ipv4Endpoint to,
                                        double unix_time) {
  const std::size_t frame_size = 14 + 20 + 8 + payload.size();
  std::vector<std::uint8_t> frame(frame_size, 0);
  std::uint8_t* eth = frame.data();
  eth[5] = 1;   // destination MAC 00:00:00:00:00:01
  eth[11] = 2;  // source MAC 00:00:00:00:00:02
  put_be16(eth + 12, 0x0800);
  std::uint8_t* ip = eth + 14;
  ip[0] = 0x45;
  put_be16(ip + 2, static_cast<std::uint16_t>(20 + 8 + payload.size()));
  put_be16(ip + 4, ip_id_++);
  ip[8] = 64;
  ip[9] = 17;
  put_be32(ip + 12, from.address);
  put_be32(ip + 16, to.address);
  put_be16(ip + 10, ipv4_checksum(ip));
  std::uint8_t* udp = ip + 20;
  put_be16(udp, from.port);
  put_be16(udp + 2, to.port);
  put_be16(udp + 4, static_cast<std::uint16_t>(8 + payload.size()));
  std::copy(payload.begin(), payload.end(), udp + 8);

  const long long micros = std::llround(unix_time * 1e6);
  core::ByteWriter rec;
  rec.u32(static_cast<std::uint32_t>(micros / 1000000));
  rec.u32(static_cast<std::uint32_t>(micros % 1000000));
  rec.u32(static_cast<std::uint32_t>(frame_size));
  rec.u32(static_cast<std::uint32_t>(frame_size));
  rec.bytes(frame);
  if (std::fwrite(rec.view().data(), 1, rec.size(), file_.get()) != rec.size() || std::fflush(file_.get()) != 0) {
    return std::unexpected(core::Error{core::ErrorKind::Io, path_.string(), "record", records_, "write failed"});
  }
  ++records_;
  return {};
}

std::string PcapRecorder::default_file_name(std::time_t now) {
  std::tm local{};
  localtime_r(&now, &local);
  return fmt::format("pkt_{}-{}-{}_{}_log.pcap", local.tm_year + 1900, local.tm_mon + 1, local.tm_mday,
                     static_cast<long long>(now));
}

std::filesystem::path PcapRecorder::default_folder() {
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && *state) {
    return std::filesystem::path(state) / "dereth" / "recordings";
  }
  if (const char* home = std::getenv("HOME"); home && *home) {
    return std::filesystem::path(home) / ".local" / "state" / "dereth" / "recordings";
  }
  return std::filesystem::path("recordings");
}

}  // namespace dereth::net
