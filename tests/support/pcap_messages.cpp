#include "support/pcap_messages.hpp"

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

#include "dereth/core/byte_reader.hpp"

namespace dereth::test {

namespace {

using core::ByteReader;
using core::Error;
using core::ErrorKind;
using core::Result;

// --- pcap container -------------------------------------------------------

constexpr std::uint32_t kMagicMicroseconds = 0xA1B2C3D4;
constexpr std::uint32_t kMagicNanoseconds = 0xA1B23C4D;
constexpr std::uint32_t kMagicMicrosecondsSwapped = 0xD4C3B2A1;
constexpr std::uint32_t kMagicNanosecondsSwapped = 0x4D3CB2A1;
constexpr std::uint32_t kPcapngBlock = 0x0A0D0D0A;
constexpr std::uint32_t kLinkEthernet = 1;
constexpr std::size_t kFileHeaderSize = 24;
constexpr std::size_t kRecordHeaderSize = 16;
constexpr std::uint32_t kMaxRecordSize = 256 * 1024;            // far above any Ethernet frame
constexpr std::uintmax_t kMaxFileSize = 1024ULL * 1024 * 1024;  // a test fixture, not an archive

// --- Ethernet / IPv4 / UDP ------------------------------------------------

constexpr std::size_t kEthernetHeaderSize = 14;
constexpr std::uint16_t kEtherTypeIpv4 = 0x0800;
constexpr std::size_t kIpv4MinHeaderSize = 20;
constexpr std::uint8_t kIpProtocolUdp = 17;
constexpr std::size_t kUdpHeaderSize = 8;
constexpr std::uint16_t kAcPortFirst = 9000;
constexpr std::uint16_t kAcPortLast = 10013;

// --- AC transport (spec/protocol.md 1.2-1.4) ------------------------------

constexpr std::size_t kAcHeaderSize = 20;
constexpr std::size_t kFragmentHeaderSize = 16;
constexpr std::uint32_t kFlagRetransmission = 0x00000001;
constexpr std::uint32_t kFlagEncryptedChecksum = 0x00000002;
constexpr std::uint32_t kFlagBlobFragments = 0x00000004;
constexpr std::size_t kFramingNotesKept = 16;

enum class OptionalSize { Fixed, Counted, Rest };

struct OptionalHeader {
  std::uint32_t bit;
  OptionalSize kind;
  std::size_t size;  // for Fixed
  const char* name;
};

// Table 1.3, in ascending bit order (the order on the wire).
constexpr std::array<OptionalHeader, 19> kOptionalHeaders{{
    {0x00000100, OptionalSize::Fixed, 8, "ServerSwitch"},
    {0x00000200, OptionalSize::Fixed, 16, "LogonServerAddr"},
    {0x00000400, OptionalSize::Fixed, 0, "EmptyHeader1"},
    {0x00000800, OptionalSize::Fixed, 32, "Referral"},
    {0x00001000, OptionalSize::Counted, 0, "RequestRetransmit"},
    {0x00002000, OptionalSize::Counted, 0, "RejectRetransmit"},
    {0x00004000, OptionalSize::Fixed, 4, "AckSequence"},
    {0x00008000, OptionalSize::Fixed, 0, "Disconnect"},
    {0x00010000, OptionalSize::Rest, 0, "LoginRequest"},
    {0x00020000, OptionalSize::Fixed, 8, "WorldLoginRequest"},
    {0x00040000, OptionalSize::Fixed, 32, "ConnectRequest"},
    {0x00080000, OptionalSize::Fixed, 8, "ConnectResponse"},
    {0x00100000, OptionalSize::Fixed, 8, "NetError"},
    {0x00200000, OptionalSize::Fixed, 8, "NetErrorDisconnect"},
    {0x00400000, OptionalSize::Fixed, 8, "CICMDCommand"},
    {0x01000000, OptionalSize::Fixed, 8, "TimeSync"},
    {0x02000000, OptionalSize::Fixed, 4, "EchoRequest"},
    {0x04000000, OptionalSize::Fixed, 8, "EchoResponse"},
    {0x08000000, OptionalSize::Fixed, 6, "Flow"},
}};

constexpr std::uint32_t known_flags() {
  std::uint32_t mask = kFlagRetransmission | kFlagEncryptedChecksum | kFlagBlobFragments;
  for (const OptionalHeader& h : kOptionalHeaders) mask |= h.bit;
  return mask;
}
constexpr std::uint32_t kKnownFlags = known_flags();

// --- small byte helpers (callers check bounds first) ----------------------

std::uint16_t be16(std::span<const std::uint8_t> b, std::size_t at) {
  return static_cast<std::uint16_t>((b[at] << 8) | b[at + 1]);
}

std::uint32_t le32(std::span<const std::uint8_t> b, std::size_t at) {
  return static_cast<std::uint32_t>(b[at]) | (static_cast<std::uint32_t>(b[at + 1]) << 8) |
         (static_cast<std::uint32_t>(b[at + 2]) << 16) | (static_cast<std::uint32_t>(b[at + 3]) << 24);
}

bool is_ac_port(std::uint16_t port) {
  return port >= kAcPortFirst && port <= kAcPortLast;
}

Error file_error(ErrorKind kind, std::string_view context, std::string field, std::size_t offset, std::string detail) {
  Error e;
  e.kind = kind;
  e.context = std::string(context);
  e.field = std::move(field);
  e.offset = offset;
  e.detail = std::move(detail);
  return e;
}

// --- frame classification -------------------------------------------------

enum class FrameKind { NotAc, Ac, MalformedAc };

struct AcDatagram {
  std::span<const std::uint8_t> payload;  // the UDP payload: AC header + body
  bool server_to_client = false;
};

// Finds the UDP payload of an Ethernet/IPv4/UDP frame on an AC port. Frames
// that cannot be AC traffic (other protocols, ports, non-first IP fragments,
// headers too short to show the ports) are NotAc; frames on an AC port whose
// IPv4/UDP lengths do not fit are MalformedAc (why says what).
FrameKind classify_frame(std::span<const std::uint8_t> frame, AcDatagram& out, std::string& why) {
  if (frame.size() < kEthernetHeaderSize || be16(frame, 12) != kEtherTypeIpv4) return FrameKind::NotAc;
  const auto ip = frame.subspan(kEthernetHeaderSize);
  if (ip.size() < kIpv4MinHeaderSize || (ip[0] >> 4) != 4 || ip[9] != kIpProtocolUdp) return FrameKind::NotAc;
  const std::size_t ihl = static_cast<std::size_t>(ip[0] & 0x0F) * 4;
  if (ihl < kIpv4MinHeaderSize || ihl + 4 > ip.size()) return FrameKind::NotAc;
  const std::uint16_t fragment_field = be16(ip, 6);
  if ((fragment_field & 0x1FFF) != 0) return FrameKind::NotAc;  // a later IP fragment: no UDP header
  const auto udp = ip.subspan(ihl);
  const std::uint16_t source_port = be16(udp, 0);
  const std::uint16_t destination_port = be16(udp, 2);
  if (!is_ac_port(source_port) && !is_ac_port(destination_port)) return FrameKind::NotAc;

  out.server_to_client = is_ac_port(source_port);
  if ((fragment_field & 0x2000) != 0) {
    why = "IPv4 datagram is fragmented";
    return FrameKind::MalformedAc;
  }
  // A total length of 0 means "not filled in" (TCP segmentation offload
  // captures; UtilityBelt's logger, which wrote example.pcap, writes 0 in
  // every record): then the captured bytes are the datagram.
  std::size_t total_length = be16(ip, 2);
  if (total_length == 0) total_length = ip.size();
  if (total_length < ihl + kUdpHeaderSize || total_length > ip.size()) {
    why =
        fmt::format("IPv4 total length {} does not fit header {} and captured {} bytes", total_length, ihl, ip.size());
    return FrameKind::MalformedAc;
  }
  const std::size_t udp_length = be16(udp, 4);
  if (udp_length < kUdpHeaderSize || udp_length > total_length - ihl) {
    why = fmt::format("UDP length {} does not fit the {} bytes of the IPv4 payload", udp_length, total_length - ihl);
    return FrameKind::MalformedAc;
  }
  out.payload = udp.subspan(kUdpHeaderSize, udp_length - kUdpHeaderSize);
  return FrameKind::Ac;
}

// --- AC datagram ----------------------------------------------------------

struct FragmentView {
  std::uint32_t sequence = 0;
  std::uint16_t count = 0;
  std::uint16_t index = 0;
  std::uint16_t queue = 0;
  std::span<const std::uint8_t> data;
};

Result<void> skip_optional_headers(ByteReader& r, std::uint32_t flags) {
  for (const OptionalHeader& h : kOptionalHeaders) {
    if ((flags & h.bit) == 0) continue;
    switch (h.kind) {
      case OptionalSize::Fixed: DERETH_CHECK(r.skip(h.size, h.name)); break;
      case OptionalSize::Counted: {
        DERETH_TRY(const std::uint32_t n, r.u32(h.name));
        DERETH_TRY(const std::size_t entries, r.checked_count(n, 4, h.name));
        DERETH_CHECK(r.skip(entries * 4, h.name));
        break;
      }
      case OptionalSize::Rest: DERETH_CHECK(r.skip(r.remaining(), h.name)); break;
    }
  }
  return {};
}

// Splits one AC datagram into its fragments (views into `datagram`).
Result<void> parse_datagram(std::span<const std::uint8_t> datagram, std::vector<FragmentView>& out) {
  ByteReader r(datagram, "AC packet");
  DERETH_CHECK(r.skip(4, "Sequence"));
  DERETH_TRY(const std::uint32_t flags, r.u32("Flags"));
  DERETH_CHECK(r.skip(4 + 2 + 2, "Checksum, Id, Time"));
  DERETH_TRY(const std::uint16_t size, r.u16("Size"));
  DERETH_CHECK(r.skip(2, "Iteration"));
  if (size != r.remaining()) {
    return std::unexpected(r.error_at(16, ErrorKind::Invalid, "Size",
                                      fmt::format("header says {} body bytes, datagram has {}", size, r.remaining())));
  }
  if ((flags & ~kKnownFlags) != 0) {
    return std::unexpected(r.error_at(4, ErrorKind::Unsupported, "Flags",
                                      fmt::format("unknown flag bits 0x{:08X}", flags & ~kKnownFlags)));
  }
  DERETH_CHECK(skip_optional_headers(r, flags));
  if ((flags & kFlagBlobFragments) == 0) return r.expect_end();

  while (!r.at_end()) {
    const std::size_t start = r.position();
    FragmentView f;
    DERETH_TRY(f.sequence, r.u32("Fragment.Sequence"));
    DERETH_CHECK(r.skip(4, "Fragment.Id"));
    DERETH_TRY(f.count, r.u16("Fragment.Count"));
    DERETH_TRY(const std::uint16_t fragment_size, r.u16("Fragment.Size"));
    DERETH_TRY(f.index, r.u16("Fragment.Index"));
    DERETH_TRY(f.queue, r.u16("Fragment.Queue"));
    if (fragment_size < kFragmentHeaderSize) {
      return std::unexpected(r.error_at(start + 10, ErrorKind::Invalid, "Fragment.Size",
                                        fmt::format("{} is less than the 16-byte header", fragment_size)));
    }
    if (f.count == 0 || f.index >= f.count) {
      return std::unexpected(r.error_at(start + 12, ErrorKind::Invalid, "Fragment.Index",
                                        fmt::format("index {} of count {}", f.index, f.count)));
    }
    DERETH_TRY(f.data, r.bytes(fragment_size - kFragmentHeaderSize, "Fragment.Data"));
    out.push_back(f);
  }
  return {};
}

// --- reassembly (1.4) -----------------------------------------------------

struct PartialMessage {
  std::uint16_t count = 0;
  std::uint16_t queue = 0;
  std::map<std::uint16_t, std::vector<std::uint8_t>> pieces;  // by index
};

struct DirectionState {
  std::unordered_map<std::uint32_t, PartialMessage> partial;
  std::unordered_set<std::uint32_t> completed;
};

// A fragment whose Count disagrees with what is already known of its
// message (held pieces, or an earlier fragment of the same datagram) makes
// the datagram malformed. Fragments of completed messages are duplicates and
// are not checked.
Result<void> check_counts(const DirectionState& state, std::span<const FragmentView> fragments) {
  for (std::size_t i = 0; i < fragments.size(); ++i) {
    const FragmentView& f = fragments[i];
    if (state.completed.contains(f.sequence)) continue;
    std::uint16_t known = 0;
    if (auto it = state.partial.find(f.sequence); it != state.partial.end()) known = it->second.count;
    for (std::size_t j = 0; j < i && known == 0; ++j) {
      if (fragments[j].sequence == f.sequence) known = fragments[j].count;
    }
    if (known != 0 && known != f.count) {
      Error e;
      e.kind = ErrorKind::Invalid;
      e.context = "AC packet";
      e.field = "Fragment.Count";
      e.detail =
          fmt::format("fragment sequence {} has count {}, earlier fragments said {}", f.sequence, f.count, known);
      return std::unexpected(std::move(e));
    }
  }
  return {};
}

void add_fragment(DirectionState& state, const FragmentView& f, double time, bool server_to_client,
                  std::vector<CapturedMessage>& messages) {
  if (state.completed.contains(f.sequence)) return;  // a retransmitted copy
  auto emit = [&](std::uint16_t queue, std::vector<std::uint8_t> bytes) {
    CapturedMessage m;
    m.time = time;
    m.server_to_client = server_to_client;
    m.queue = queue;
    m.fragment_sequence = f.sequence;
    m.bytes = std::move(bytes);
    messages.push_back(std::move(m));
    state.completed.insert(f.sequence);
  };
  auto it = state.partial.find(f.sequence);
  if (it == state.partial.end()) {
    if (f.count == 1) {
      emit(f.queue, std::vector<std::uint8_t>(f.data.begin(), f.data.end()));
      return;
    }
    it = state.partial.try_emplace(f.sequence).first;
    it->second.count = f.count;
    it->second.queue = f.queue;
  }
  PartialMessage& p = it->second;
  p.pieces.try_emplace(f.index, f.data.begin(), f.data.end());  // a duplicate index is dropped
  if (p.pieces.size() < p.count) return;
  std::size_t total = 0;
  for (const auto& piece : p.pieces) total += piece.second.size();
  std::vector<std::uint8_t> bytes;
  bytes.reserve(total);
  for (const auto& piece : p.pieces) bytes.insert(bytes.end(), piece.second.begin(), piece.second.end());
  const std::uint16_t queue = p.queue;
  state.partial.erase(it);
  emit(queue, std::move(bytes));
}

}  // namespace

std::uint32_t CapturedMessage::opcode() const {
  if (bytes.size() < 4) return 0;
  return le32(bytes, 0);
}

Result<CaptureContents> parse_capture(std::span<const std::uint8_t> file, std::string_view name) {
  if (file.size() < kFileHeaderSize) {
    return std::unexpected(file_error(ErrorKind::Truncated, name, "pcap file header", 0,
                                      fmt::format("needs {} bytes, {} remain", kFileHeaderSize, file.size())));
  }
  const std::uint32_t magic = le32(file, 0);
  bool nanoseconds = false;
  switch (magic) {
    case kMagicMicroseconds: break;
    case kMagicNanoseconds: nanoseconds = true; break;
    case kMagicMicrosecondsSwapped:
    case kMagicNanosecondsSwapped:
      return std::unexpected(
          file_error(ErrorKind::Unsupported, name, "pcap magic", 0, "big-endian pcap is not supported"));
    case kPcapngBlock:
      return std::unexpected(file_error(ErrorKind::Unsupported, name, "pcap magic", 0,
                                        "pcapng is not supported; convert with editcap -F pcap"));
    default:
      return std::unexpected(file_error(ErrorKind::Invalid, name, "pcap magic", 0,
                                        fmt::format("0x{:08X} is not a pcap magic number", magic)));
  }
  const std::uint32_t link_type = le32(file, 20) & 0xFFFF;  // the high bits may hold FCS information
  if (link_type != kLinkEthernet) {
    return std::unexpected(file_error(ErrorKind::Unsupported, name, "pcap link type", 20,
                                      fmt::format("link type {} (only 1, Ethernet, is read)", link_type)));
  }
  const double fraction_scale = nanoseconds ? 1e-9 : 1e-6;

  CaptureContents out;
  std::array<DirectionState, 2> directions;  // [0] client to server, [1] server to client
  std::vector<FragmentView> fragments;
  std::size_t pos = kFileHeaderSize;
  std::size_t record_number = 0;
  while (pos < file.size()) {
    const std::size_t left = file.size() - pos;
    if (left < kRecordHeaderSize) {
      return std::unexpected(file_error(ErrorKind::Truncated, name, fmt::format("record {} header", record_number), pos,
                                        fmt::format("needs {} bytes, {} remain", kRecordHeaderSize, left)));
    }
    const std::uint32_t seconds = le32(file, pos);
    const std::uint32_t fraction = le32(file, pos + 4);
    const std::uint32_t captured = le32(file, pos + 8);
    if (captured > kMaxRecordSize) {
      return std::unexpected(file_error(ErrorKind::TooLarge, name, fmt::format("record {} length", record_number),
                                        pos + 8, fmt::format("{} bytes", captured)));
    }
    if (captured > left - kRecordHeaderSize) {
      return std::unexpected(file_error(ErrorKind::Truncated, name, fmt::format("record {} data", record_number),
                                        pos + kRecordHeaderSize,
                                        fmt::format("needs {} bytes, {} remain", captured, left - kRecordHeaderSize)));
    }
    const auto frame = file.subspan(pos + kRecordHeaderSize, captured);
    const double time = static_cast<double>(seconds) + static_cast<double>(fraction) * fraction_scale;

    AcDatagram datagram;
    std::string why;
    const FrameKind kind = classify_frame(frame, datagram, why);
    if (kind != FrameKind::NotAc) {
      ++out.datagrams;
      if (datagram.server_to_client) ++out.server_datagrams;
      out.raw_datagrams.push_back(
          CapturedDatagram{time, datagram.server_to_client,
                           std::vector<std::uint8_t>(datagram.payload.begin(), datagram.payload.end())});
      DirectionState& state = directions[datagram.server_to_client ? 1 : 0];
      fragments.clear();
      Result<void> parsed;
      if (kind == FrameKind::Ac) {
        parsed = parse_datagram(datagram.payload, fragments);
        if (parsed) parsed = check_counts(state, fragments);
      }
      if (kind == FrameKind::MalformedAc || !parsed) {
        ++out.framing_errors;
        if (out.framing_error_notes.size() < kFramingNotesKept) {
          out.framing_error_notes.push_back(
              fmt::format("record {} (file offset {}): {}", record_number, pos,
                          kind == FrameKind::MalformedAc ? why : parsed.error().message()));
        }
      } else {
        out.fragments += fragments.size();
        for (const FragmentView& f : fragments) {
          add_fragment(state, f, time, datagram.server_to_client, out.messages);
        }
      }
    }
    pos += kRecordHeaderSize + captured;
    ++record_number;
  }
  return out;
}

Result<CaptureContents> read_capture(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) {
    return std::unexpected(file_error(ErrorKind::Io, path, "", 0, ec ? ec.message() : std::string("no such file")));
  }
  if (!std::filesystem::is_regular_file(status)) {
    return std::unexpected(file_error(ErrorKind::Io, path, "", 0, "not a regular file"));
  }
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return std::unexpected(file_error(ErrorKind::Io, path, "", 0, ec.message()));
  if (size > kMaxFileSize) {
    return std::unexpected(
        file_error(ErrorKind::TooLarge, path, "", 0, fmt::format("{} bytes is more than a test capture", size)));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(file_error(ErrorKind::Io, path, "", 0, "cannot open for reading"));
  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (in.gcount() != static_cast<std::streamsize>(bytes.size())) {
    return std::unexpected(file_error(ErrorKind::Io, path, "", static_cast<std::size_t>(in.gcount()), "short read"));
  }
  return parse_capture(bytes, path);
}

std::string shared_path(std::string_view relative) {
  std::string out = DERETH_SHARED_DIR;
  out += '/';
  out += relative;
  return out;
}

}  // namespace dereth::test
