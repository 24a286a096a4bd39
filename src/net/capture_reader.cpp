#include "dereth/net/capture_reader.hpp"

#include <algorithm>
#include <cstdio>
#include <deque>
#include <set>
#include <utility>

#include <fmt/format.h>
#include <pcap/pcap.h>

#include "dereth/net/packet.hpp"

namespace dereth::net {

namespace {

constexpr int kLinkNull = 0;
constexpr int kLinkEthernet = 1;
constexpr int kLinkRawAlt1 = 12;
constexpr int kLinkRawAlt2 = 14;
constexpr int kLinkRaw = 101;
constexpr int kLinkLoop = 108;
constexpr int kLinkLinuxSll = 113;
constexpr int kLinkIpv4 = 228;
constexpr int kLinkLinuxSll2 = 276;

std::uint16_t be16(const std::uint8_t* p) {
  return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}

// Finds the IPv4 packet inside a link-layer frame; empty span if there is none.
std::span<const std::uint8_t> ipv4_of(int link, std::span<const std::uint8_t> frame) {
  auto after = [&](std::size_t n) { return frame.size() >= n ? frame.subspan(n) : std::span<const std::uint8_t>{}; };
  switch (link) {
    case kLinkEthernet: {
      if (frame.size() < 14) return {};
      std::size_t offset = 12;
      std::uint16_t type = be16(frame.data() + offset);
      while ((type == 0x8100 || type == 0x88A8) && frame.size() >= offset + 6) {  // VLAN tags
        offset += 4;
        type = be16(frame.data() + offset);
      }
      return type == 0x0800 ? after(offset + 2) : std::span<const std::uint8_t>{};
    }
    case kLinkLinuxSll:
      return frame.size() >= 16 && be16(frame.data() + 14) == 0x0800 ? after(16) : std::span<const std::uint8_t>{};
    case kLinkLinuxSll2:
      return frame.size() >= 20 && be16(frame.data()) == 0x0800 ? after(20) : std::span<const std::uint8_t>{};
    case kLinkNull:
    case kLinkLoop: {
      if (frame.size() < 4) return {};
      // The address family, in host order (NULL) or network order (LOOP): AF_INET is 2.
      const bool inet = (frame[0] == 2 && frame[1] == 0 && frame[2] == 0 && frame[3] == 0) ||
                        (frame[0] == 0 && frame[1] == 0 && frame[2] == 0 && frame[3] == 2);
      return inet ? after(4) : std::span<const std::uint8_t>{};
    }
    case kLinkRaw:
    case kLinkRawAlt1:
    case kLinkRawAlt2:
    case kLinkIpv4: return frame;
    default: return {};
  }
}

enum class Frame { NotUdp, Udp, Broken };

struct Endpoint {
  std::uint32_t address = 0;
  std::uint16_t port = 0;
  auto operator<=>(const Endpoint&) const = default;
};

std::uint32_t be32(const std::uint8_t* p) {
  return (static_cast<std::uint32_t>(be16(p)) << 16) | be16(p + 2);
}

// The UDP payload and the endpoints of an IPv4 packet.
Frame udp_of(std::span<const std::uint8_t> ip, Endpoint& from, Endpoint& to, std::span<const std::uint8_t>& payload) {
  if (ip.size() < 20 || (ip[0] >> 4) != 4) return ip.empty() ? Frame::NotUdp : Frame::Broken;
  const std::size_t ihl = static_cast<std::size_t>(ip[0] & 0x0F) * 4;
  if (ihl < 20 || ihl > ip.size()) return Frame::Broken;
  if (ip[9] != 17) return Frame::NotUdp;
  const std::uint16_t fragment = be16(ip.data() + 6);
  if ((fragment & 0x3FFF) != 0) return Frame::Broken;  // IP fragments are not reassembled
  std::size_t total = be16(ip.data() + 2);
  // Some capture writers (UtilityBelt's logger among them) leave the total
  // length 0; the captured bytes then bound the packet.
  if (total == 0 || total > ip.size()) total = ip.size();
  if (total < ihl + 8) return Frame::Broken;
  from.address = be32(ip.data() + 12);
  to.address = be32(ip.data() + 16);
  const auto udp = ip.subspan(ihl, total - ihl);
  from.port = be16(udp.data());
  to.port = be16(udp.data() + 2);
  const std::size_t length = be16(udp.data() + 4);
  if (length < 8 || length > udp.size()) return Frame::Broken;
  payload = udp.subspan(8, length - 8);
  return Frame::Udp;
}

}  // namespace

struct CaptureReader::Impl {
  pcap_t* handle = nullptr;
  int link = 0;
  std::string path;
  CaptureFilter filter;
  CaptureStats stats;
  bool done = false;
  std::optional<core::Error> damage;
  // Found by the protocol: the endpoints of LoginRequests (clients) and
  // their destinations with the port after it (servers); flows without a
  // handshake as (server, client) pairs.
  std::set<Endpoint> clients;
  std::set<Endpoint> servers;
  std::set<std::pair<Endpoint, Endpoint>> flows;
  ~Impl() {
    if (handle) pcap_close(handle);
  }

  // Whether a datagram is AC traffic, and which way it goes (true: from the server).
  std::optional<bool> classify(const Endpoint& from, const Endpoint& to, std::span<const std::uint8_t> payload) {
    if (filter.ports) {
      if (filter.ports->contains(from.port)) return true;
      if (filter.ports->contains(to.port)) return false;
      return std::nullopt;
    }
    if (servers.contains(from) && clients.contains(to)) return true;
    if (clients.contains(from) && servers.contains(to)) return false;
    if (flows.contains({from, to})) return true;
    if (flows.contains({to, from})) return false;
    const auto packet = parse_packet(payload);
    const bool cleartext_ok =
        packet && (packet->header.flags & packet_flag::EncryptedChecksum) == 0 && cleartext_checksum_ok(*packet);
    if (cleartext_ok && packet->optional.login_request) {
      clients.insert(from);
      servers.insert(to);
      if (to.port != 0xFFFF) servers.insert(Endpoint{to.address, static_cast<std::uint16_t>(to.port + 1)});
      return false;
    }
    if (cleartext_ok && packet->optional.connect_request) {
      servers.insert(from);
      if (from.port != 0) servers.insert(Endpoint{from.address, static_cast<std::uint16_t>(from.port + 1)});
      clients.insert(to);
      return true;
    }
    // No handshake seen (a capture started mid-session): ACE's ports, then a
    // flow whose packet verified in cleartext (the lower port is the server's).
    const PortRange ace;
    if (ace.contains(from.port) && !ace.contains(to.port)) return true;
    if (ace.contains(to.port) && !ace.contains(from.port)) return false;
    if (cleartext_ok) {
      const bool from_server = from.port < to.port;
      flows.insert(from_server ? std::pair{from, to} : std::pair{to, from});
      return from_server;
    }
    return std::nullopt;
  }
};

CaptureReader::CaptureReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CaptureReader::CaptureReader(CaptureReader&&) noexcept = default;
CaptureReader& CaptureReader::operator=(CaptureReader&&) noexcept = default;
CaptureReader::~CaptureReader() = default;

core::Result<CaptureReader> CaptureReader::open(const std::filesystem::path& path, CaptureFilter filter) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return std::unexpected(core::Error{core::ErrorKind::Io, path.string(), "", 0, "is a folder, not a capture"});
  }
  char errbuf[PCAP_ERRBUF_SIZE] = {};
  pcap_t* handle = pcap_open_offline(path.c_str(), errbuf);
  if (!handle) {
    std::string why = errbuf;
    if (why.find("unknown file format") != std::string::npos || why.find("truncated dump file") != std::string::npos) {
      why = "not a pcap or pcapng capture (" + why + ")";
    }
    return std::unexpected(core::Error{core::ErrorKind::Io, path.string(), "", 0, why});
  }
  auto impl = std::make_unique<Impl>();
  impl->handle = handle;
  impl->link = pcap_datalink(handle);
  impl->path = path.string();
  impl->filter = filter;
  if (std::FILE* f = pcap_file(handle); f != nullptr) {
    const long at = std::ftell(f);
    if (at > 0) impl->stats.bytes_read = static_cast<std::uint64_t>(at);
  }
  switch (impl->link) {
    case kLinkNull:
    case kLinkEthernet:
    case kLinkRawAlt1:
    case kLinkRawAlt2:
    case kLinkRaw:
    case kLinkLoop:
    case kLinkLinuxSll:
    case kLinkIpv4:
    case kLinkLinuxSll2: break;
    default:
      return std::unexpected(
          core::Error{core::ErrorKind::Unsupported, path.string(), "link type", 0,
                      fmt::format("link type {} is not Ethernet, Linux cooked, loopback or raw IP", impl->link)});
  }
  return CaptureReader(std::move(impl));
}

const CaptureStats& CaptureReader::stats() const noexcept {
  return impl_->stats;
}
const std::optional<core::Error>& CaptureReader::damage() const noexcept {
  return impl_->damage;
}
int CaptureReader::link_type() const noexcept {
  return impl_->link;
}

std::optional<CaptureDatagram> CaptureReader::next_datagram() {
  Impl& s = *impl_;
  while (!s.done) {
    pcap_pkthdr* header = nullptr;
    const u_char* data = nullptr;
    const int rc = pcap_next_ex(s.handle, &header, &data);
    if (rc != 1) {  // -2 end of file; -1 a damaged or cut-short file: stop there
      s.done = true;
      if (rc == -1) {
        s.damage = core::Error{
            core::ErrorKind::Truncated, s.path, "", s.stats.bytes_read,
            fmt::format("the capture is damaged after record {}: {}", s.stats.records, pcap_geterr(s.handle))};
      }
      break;
    }
    ++s.stats.records;
    if (std::FILE* f = pcap_file(s.handle); f != nullptr) {
      const long at = std::ftell(f);
      if (at > 0) s.stats.bytes_read = static_cast<std::uint64_t>(at);
    }
    const std::span<const std::uint8_t> frame(data, header->caplen);
    Endpoint from, to;
    std::span<const std::uint8_t> payload;
    const Frame kind = udp_of(ipv4_of(s.link, frame), from, to, payload);
    if (kind == Frame::NotUdp) continue;
    if (kind == Frame::Broken) {
      ++s.stats.unreadable_frames;
      continue;
    }
    const std::optional<bool> from_server = s.classify(from, to, payload);
    if (!from_server) continue;
    CaptureDatagram d;
    d.time = static_cast<double>(header->ts.tv_sec) + static_cast<double>(header->ts.tv_usec) * 1e-6;
    d.server_to_client = *from_server;
    d.source_port = from.port;
    d.destination_port = to.port;
    d.source_address = from.address;
    d.destination_address = to.address;
    d.payload.assign(payload.begin(), payload.end());
    ++s.stats.packets;
    return d;
  }
  return std::nullopt;
}

std::string CaptureCheck::damage_summary() const {
  if (!damage) return {};
  return fmt::format("read {} records ({} bytes) before the damage: {}", stats.records, stats.bytes_read,
                     damage->message());
}

core::Result<CaptureCheck> admit_capture(const std::filesystem::path& path, CaptureFilter filter,
                                         bool allow_truncated) {
  DERETH_TRY(CaptureReader reader, CaptureReader::open(path, filter));
  while (reader.next_datagram()) {
  }
  CaptureCheck check{reader.stats(), reader.damage()};
  if (check.damage && !allow_truncated) {
    core::Error e = *check.damage;
    e.detail += fmt::format("; --allow-truncated replays the {} records ({} bytes) before it", check.stats.records,
                            check.stats.bytes_read);
    return std::unexpected(std::move(e));
  }
  if (check.stats.packets == 0) {
    return std::unexpected(core::Error{
        core::ErrorKind::Invalid, path.string(), "", 0,
        fmt::format("holds no Asheron's Call traffic ({} records read{})", check.stats.records,
                    filter.ports ? fmt::format(", none on ports {}-{}", filter.ports->first, filter.ports->last)
                                 : std::string())});
  }
  return check;
}

core::Result<CaptureReplay> CaptureReplay::open(const std::filesystem::path& path, CaptureFilter filter) {
  DERETH_TRY(auto reader, CaptureReader::open(path, filter));
  return CaptureReplay(std::move(reader));
}

namespace {

// Accepts a key if it was drawn recently or within the next 256 draws.
bool key_matches(AcIsaac& stream, std::vector<std::uint32_t>& drawn, std::uint32_t key) {
  if (std::find(drawn.begin(), drawn.end(), key) != drawn.end()) return true;
  for (int i = 0; i < 256; ++i) {
    const std::uint32_t k = stream.next();
    drawn.push_back(k);
    if (drawn.size() > 1024) drawn.erase(drawn.begin());
    if (k == key) return true;
  }
  return false;
}

}  // namespace

void CaptureReplay::handle(const CaptureDatagram& d) {
  auto packet = parse_packet(d.payload);
  if (!packet) {
    ++stats_.framing_errors;
    return;
  }
  const bool encrypted = (packet->header.flags & packet_flag::EncryptedChecksum) != 0;
  if (!encrypted) {
    if (!cleartext_checksum_ok(*packet)) {
      ++stats_.framing_errors;
      return;
    }
  } else {
    auto& stream = d.server_to_client ? s2c_keys_ : c2s_keys_;
    auto& drawn = d.server_to_client ? s2c_pending_keys_ : c2s_pending_keys_;
    if (stream && !key_matches(*stream, drawn, recover_key(*packet))) ++stats_.encrypted_checksum_failures;
  }
  if (packet->optional.connect_request && d.server_to_client) {
    s2c_keys_.emplace(packet->optional.connect_request->server_seed);
    c2s_keys_.emplace(packet->optional.connect_request->client_seed);
    s2c_pending_keys_.clear();
    c2s_pending_keys_.clear();
    stats_.encrypted_checksums_verified = true;
  }
  if (d.server_to_client && packet->optional.time_sync) time_sync_ = *packet->optional.time_sync;
  stats_.fragments += packet->fragments.size();
  auto& reassembler = d.server_to_client ? s2c_ : c2s_;
  for (const auto& f : packet->fragments) {
    if (auto m = reassembler.add(f)) {
      (d.server_to_client ? stats_.messages_s2c : stats_.messages_c2s) += 1;
      ready_.push_back(ReplayedMessage{d.time, d.server_to_client, m->queue, std::move(m->bytes), time_sync_});
    }
  }
}

std::optional<ReplayedMessage> CaptureReplay::next_message() {
  while (ready_pos_ >= ready_.size()) {
    ready_.clear();
    ready_pos_ = 0;
    auto d = reader_.next_datagram();
    if (!d) return std::nullopt;
    const auto& rs = reader_.stats();
    stats_.records = rs.records;
    stats_.packets = rs.packets;
    stats_.unreadable_frames = rs.unreadable_frames;
    stats_.bytes_read = rs.bytes_read;
    handle(*d);
  }
  return std::move(ready_[ready_pos_++]);
}

std::string CaptureReplay::checksum_note() const {
  if (stats_.encrypted_checksums_verified) {
    return fmt::format("encrypted checksums verified from the handshake seeds ({} failures)",
                       stats_.encrypted_checksum_failures);
  }
  return "encrypted checksums not verified: the capture has no handshake (no ISAAC seeds); cleartext checksums "
         "were verified";
}

}  // namespace dereth::net
