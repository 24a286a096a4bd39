#include "dereth/net/packet.hpp"

#include <bit>

#include <fmt/format.h>

#include "dereth/core/byte_reader.hpp"
#include "dereth/core/byte_writer.hpp"
#include "dereth/net/checksum.hpp"

namespace dereth::net {

namespace pf = packet_flag;
using core::ByteReader;
using core::ByteWriter;
using core::ErrorKind;

namespace {

constexpr std::string_view kContext = "packet";

Result<WordPair> read_pair(ByteReader& r, std::string_view field) {
  DERETH_CHECK(r.require(8, field));
  return WordPair{*r.u32(field), *r.u32(field)};
}

template <std::size_t N>
Result<std::array<std::uint8_t, N>> read_array(ByteReader& r, std::string_view field) {
  DERETH_TRY(const auto bytes, r.bytes(N, field));
  std::array<std::uint8_t, N> out{};
  std::copy(bytes.begin(), bytes.end(), out.begin());
  return out;
}

Result<std::vector<std::uint32_t>> read_sequence_list(ByteReader& r, std::string_view field) {
  DERETH_TRY(const std::uint32_t count, r.u32(field));
  DERETH_TRY(const std::size_t n, r.checked_count(count, 4, field));
  std::vector<std::uint32_t> out(n);
  for (auto& v : out) v = *r.u32(field);
  return out;
}

Result<void> read_optional_headers(ByteReader& r, std::uint32_t flags, OptionalHeaders& o) {
  if (flags & pf::ServerSwitch) {
    DERETH_TRY(o.server_switch, read_pair(r, "ServerSwitch"));
  }
  if (flags & pf::LogonServerAddr) {
    DERETH_TRY(o.logon_server_addr, read_array<16>(r, "LogonServerAddr"));
  }
  if (flags & pf::Referral) {
    DERETH_TRY(o.referral, read_array<32>(r, "Referral"));
  }
  if (flags & pf::RequestRetransmit) {
    DERETH_TRY(o.request_retransmit, read_sequence_list(r, "RequestRetransmit"));
  }
  if (flags & pf::RejectRetransmit) {
    DERETH_TRY(o.reject_retransmit, read_sequence_list(r, "RejectRetransmit"));
  }
  if (flags & pf::AckSequence) {
    DERETH_TRY(o.ack_sequence, r.u32("AckSequence"));
  }
  if (flags & pf::LoginRequest) {
    DERETH_TRY(const auto rest, r.bytes(r.remaining(), "LoginRequest"));
    o.login_request = std::vector<std::uint8_t>(rest.begin(), rest.end());
  }
  if (flags & pf::WorldLoginRequest) {
    DERETH_TRY(o.world_login_request, r.u64("WorldLoginRequest"));
  }
  if (flags & pf::ConnectRequest) {
    DERETH_CHECK(r.require(32, "ConnectRequest"));
    ConnectRequestBody c;
    c.server_time = *r.f64("ConnectRequest.server_time");
    c.cookie = *r.u64("ConnectRequest.cookie");
    c.net_id = *r.u32("ConnectRequest.net_id");
    c.server_seed = *r.u32("ConnectRequest.server_seed");
    c.client_seed = *r.u32("ConnectRequest.client_seed");
    c.padding = *r.u32("ConnectRequest.padding");
    o.connect_request = c;
  }
  if (flags & pf::ConnectResponse) {
    DERETH_TRY(o.connect_response, r.u64("ConnectResponse"));
  }
  if (flags & pf::NetError) {
    DERETH_TRY(o.net_error, read_pair(r, "NetError"));
  }
  if (flags & pf::NetErrorDisconnect) {
    DERETH_TRY(o.net_error_disconnect, read_pair(r, "NetErrorDisconnect"));
  }
  if (flags & pf::CicmdCommand) {
    DERETH_TRY(o.cicmd_command, read_pair(r, "CICMDCommand"));
  }
  if (flags & pf::TimeSync) {
    DERETH_TRY(o.time_sync, r.f64("TimeSync"));
  }
  if (flags & pf::EchoRequest) {
    DERETH_TRY(o.echo_request, r.f32("EchoRequest"));
  }
  if (flags & pf::EchoResponse) {
    DERETH_CHECK(r.require(8, "EchoResponse"));
    o.echo_response = EchoResponseBody{*r.f32("EchoResponse"), *r.f32("EchoResponse")};
  }
  if (flags & pf::Flow) {
    DERETH_CHECK(r.require(6, "Flow"));
    o.flow = FlowBody{*r.u32("Flow.bytes"), *r.u16("Flow.interval")};
  }
  return {};
}

void write_optional_headers(ByteWriter& w, const OptionalHeaders& o) {
  auto pair = [&](const WordPair& p) {
    w.u32(p.first);
    w.u32(p.second);
  };
  auto list = [&](const std::vector<std::uint32_t>& v) {
    w.u32(static_cast<std::uint32_t>(v.size()));
    for (auto s : v) w.u32(s);
  };
  if (o.server_switch) pair(*o.server_switch);
  if (o.logon_server_addr) w.bytes(*o.logon_server_addr);
  if (o.referral) w.bytes(*o.referral);
  if (o.request_retransmit) list(*o.request_retransmit);
  if (o.reject_retransmit) list(*o.reject_retransmit);
  if (o.ack_sequence) w.u32(*o.ack_sequence);
  if (o.login_request) w.bytes(*o.login_request);
  if (o.world_login_request) w.u64(*o.world_login_request);
  if (o.connect_request) {
    const auto& c = *o.connect_request;
    w.f64(c.server_time);
    w.u64(c.cookie);
    w.u32(c.net_id);
    w.u32(c.server_seed);
    w.u32(c.client_seed);
    w.u32(c.padding);
  }
  if (o.connect_response) w.u64(*o.connect_response);
  if (o.net_error) pair(*o.net_error);
  if (o.net_error_disconnect) pair(*o.net_error_disconnect);
  if (o.cicmd_command) pair(*o.cicmd_command);
  if (o.time_sync) w.f64(*o.time_sync);
  if (o.echo_request) w.f32(*o.echo_request);
  if (o.echo_response) {
    w.f32(o.echo_response->client_time);
    w.f32(o.echo_response->holding_time);
  }
  if (o.flow) {
    w.u32(o.flow->bytes);
    w.u16(o.flow->interval);
  }
}

std::uint32_t optional_flags(const OptionalHeaders& o) {
  std::uint32_t f = 0;
  if (o.server_switch) f |= pf::ServerSwitch;
  if (o.logon_server_addr) f |= pf::LogonServerAddr;
  if (o.referral) f |= pf::Referral;
  if (o.request_retransmit) f |= pf::RequestRetransmit;
  if (o.reject_retransmit) f |= pf::RejectRetransmit;
  if (o.ack_sequence) f |= pf::AckSequence;
  if (o.login_request) f |= pf::LoginRequest;
  if (o.world_login_request) f |= pf::WorldLoginRequest;
  if (o.connect_request) f |= pf::ConnectRequest;
  if (o.connect_response) f |= pf::ConnectResponse;
  if (o.net_error) f |= pf::NetError;
  if (o.net_error_disconnect) f |= pf::NetErrorDisconnect;
  if (o.cicmd_command) f |= pf::CicmdCommand;
  if (o.time_sync) f |= pf::TimeSync;
  if (o.echo_request) f |= pf::EchoRequest;
  if (o.echo_response) f |= pf::EchoResponse;
  if (o.flow) f |= pf::Flow;
  return f;
}

// Flags that carry an optional-header payload; the writer derives them.
constexpr std::uint32_t kPayloadFlags = pf::ServerSwitch | pf::LogonServerAddr | pf::Referral | pf::RequestRetransmit |
                                        pf::RejectRetransmit | pf::AckSequence | pf::LoginRequest |
                                        pf::WorldLoginRequest | pf::ConnectRequest | pf::ConnectResponse |
                                        pf::NetError | pf::NetErrorDisconnect | pf::CicmdCommand | pf::TimeSync |
                                        pf::EchoRequest | pf::EchoResponse | pf::Flow | pf::BlobFragments;

std::uint32_t fragment_hash(const std::uint8_t* header16, std::span<const std::uint8_t> data) {
  return hash32({header16, kFragmentHeaderSize}) + hash32(data);
}

}  // namespace

std::uint32_t header_hash(const PacketHeader& h) noexcept {
  ByteWriter w;
  w.u32(h.sequence);
  w.u32(h.flags);
  w.u32(kHeaderChecksumSeed);
  w.u16(h.id);
  w.u16(h.time);
  w.u16(h.size);
  w.u16(h.iteration);
  return hash32(w.view());
}

Result<Packet> parse_packet(std::span<const std::uint8_t> datagram) {
  ByteReader r(datagram, kContext);
  Packet p;
  DERETH_CHECK(r.require(kHeaderSize, "header"));
  p.header.sequence = *r.u32("header.sequence");
  p.header.flags = *r.u32("header.flags");
  p.header.checksum = *r.u32("header.checksum");
  p.header.id = *r.u16("header.id");
  p.header.time = *r.u16("header.time");
  p.header.size = *r.u16("header.size");
  p.header.iteration = *r.u16("header.iteration");
  const std::uint32_t flags = p.header.flags;
  if (p.header.size != r.remaining()) {
    return std::unexpected(r.error_at(16, ErrorKind::Invalid, "header.size",
                                      fmt::format("says {} bytes, {} follow", p.header.size, r.remaining())));
  }
  if ((flags & ~pf::kKnown) != 0) {
    return std::unexpected(r.error_at(4, ErrorKind::Invalid, "header.flags",
                                      fmt::format("unknown flag bits 0x{:08X}", flags & ~pf::kKnown)));
  }
  const std::size_t optional_start = r.position();
  DERETH_CHECK(read_optional_headers(r, flags, p.optional));
  p.payload_hash =
      r.position() > optional_start ? hash32(datagram.subspan(optional_start, r.position() - optional_start)) : 0;
  if (flags & pf::BlobFragments) {
    while (!r.at_end()) {
      const std::size_t at = r.position();
      DERETH_CHECK(r.require(kFragmentHeaderSize, "fragment.header"));
      Fragment f;
      f.sequence = *r.u32("fragment.sequence");
      f.id = *r.u32("fragment.id");
      f.count = *r.u16("fragment.count");
      const std::uint16_t size = *r.u16("fragment.size");
      f.index = *r.u16("fragment.index");
      f.queue = *r.u16("fragment.queue");
      if (size < kFragmentHeaderSize || size - kFragmentHeaderSize > kMaxFragmentData) {
        return std::unexpected(r.error_at(at + 10, ErrorKind::Invalid, "fragment.size",
                                          fmt::format("size {} outside 16..{}", size, 16 + kMaxFragmentData)));
      }
      if (f.count == 0 || f.index >= f.count) {
        return std::unexpected(r.error_at(at + 8, ErrorKind::Invalid, "fragment.index",
                                          fmt::format("index {} of count {}", f.index, f.count)));
      }
      DERETH_TRY(const auto data, r.bytes(size - kFragmentHeaderSize, "fragment.data"));
      f.data.assign(data.begin(), data.end());
      p.payload_hash += fragment_hash(datagram.data() + at, data);
      p.fragments.push_back(std::move(f));
    }
  } else if (!r.at_end()) {
    return std::unexpected(
        r.error(ErrorKind::Trailing, "body",
                fmt::format("{} bytes after the optional headers without BlobFragments", r.remaining())));
  }
  return p;
}

std::uint32_t recover_key(const Packet& p) noexcept {
  return (p.header.checksum - header_hash(p.header)) ^ p.payload_hash;
}

bool cleartext_checksum_ok(const Packet& p) noexcept {
  return p.header.checksum == header_hash(p.header) + p.payload_hash;
}

std::vector<std::uint8_t> serialize_packet(Packet& p, std::optional<std::uint32_t> key) {
  ByteWriter body;
  write_optional_headers(body, p.optional);
  std::uint32_t payload = body.size() > 0 ? hash32(body.view()) : 0;
  for (const auto& f : p.fragments) {
    const std::size_t at = body.size();
    body.u32(f.sequence);
    body.u32(f.id);
    body.u16(f.count);
    body.u16(static_cast<std::uint16_t>(kFragmentHeaderSize + f.data.size()));
    body.u16(f.index);
    body.u16(f.queue);
    body.bytes(f.data);
    payload += fragment_hash(body.view().data() + at, f.data);
  }
  p.header.flags =
      (p.header.flags & ~kPayloadFlags) | optional_flags(p.optional) | (p.fragments.empty() ? 0U : pf::BlobFragments);
  if (key) p.header.flags |= pf::EncryptedChecksum;
  p.header.size = static_cast<std::uint16_t>(body.size());
  p.payload_hash = payload;
  const std::uint32_t hh = header_hash(p.header);
  p.header.checksum = key ? hh + (payload ^ *key) : hh + payload;
  ByteWriter out;
  out.u32(p.header.sequence);
  out.u32(p.header.flags);
  out.u32(p.header.checksum);
  out.u16(p.header.id);
  out.u16(p.header.time);
  out.u16(p.header.size);
  out.u16(p.header.iteration);
  out.bytes(body.view());
  return std::move(out).take();
}

}  // namespace dereth::net
