#include "support/pcap_messages.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "support/hex.hpp"
#include "support/temp_dir.hpp"

using dereth::core::ErrorKind;
using dereth::test::CaptureContents;
using dereth::test::CapturedMessage;
using dereth::test::from_hex;
using dereth::test::parse_capture;
using dereth::test::read_capture;
using dereth::test::shared_path;
using dereth::test::to_hex;

namespace {

using Bytes = std::vector<std::uint8_t>;

// --- building synthetic captures --------------------------------------------

void put16(Bytes& v, std::uint16_t x) {
  v.push_back(static_cast<std::uint8_t>(x & 0xFF));
  v.push_back(static_cast<std::uint8_t>(x >> 8));
}
void put16be(Bytes& v, std::uint16_t x) {
  v.push_back(static_cast<std::uint8_t>(x >> 8));
  v.push_back(static_cast<std::uint8_t>(x & 0xFF));
}
void put32(Bytes& v, std::uint32_t x) {
  put16(v, static_cast<std::uint16_t>(x & 0xFFFF));
  put16(v, static_cast<std::uint16_t>(x >> 16));
}
void append(Bytes& v, std::span<const std::uint8_t> more) {
  v.insert(v.end(), more.begin(), more.end());
}

// One blob fragment: 16-byte header + data, no padding.
Bytes fragment(std::uint32_t sequence, std::uint16_t count, std::uint16_t index, std::uint16_t queue,
               std::span<const std::uint8_t> data) {
  Bytes out;
  put32(out, sequence);
  put32(out, 0x80000000);
  put16(out, count);
  put16(out, static_cast<std::uint16_t>(16 + data.size()));
  put16(out, index);
  put16(out, queue);
  append(out, data);
  return out;
}

// A 20-byte AC packet header whose Size is the body's length, then the body.
Bytes ac_packet(std::uint32_t sequence, std::uint32_t flags, std::span<const std::uint8_t> body) {
  Bytes out;
  put32(out, sequence);
  put32(out, flags);
  put32(out, 0x12345678);  // checksum: not checked by the reader
  put16(out, 0x000B);
  put16(out, 0x0100);
  put16(out, static_cast<std::uint16_t>(body.size()));
  put16(out, 1);
  append(out, body);
  return out;
}

constexpr std::uint16_t kServerPort = 9000;
constexpr std::uint16_t kClientPort = 12345;

struct PcapBuilder {
  Bytes bytes;

  explicit PcapBuilder(std::uint32_t magic = 0xA1B2C3D4, std::uint32_t link_type = 1) {
    put32(bytes, magic);
    put16(bytes, 2);
    put16(bytes, 4);
    put32(bytes, 0);
    put32(bytes, 0);
    put32(bytes, 65535);
    put32(bytes, link_type);
  }

  void record(std::span<const std::uint8_t> frame, std::uint32_t seconds = 100, std::uint32_t fraction = 0) {
    put32(bytes, seconds);
    put32(bytes, fraction);
    put32(bytes, static_cast<std::uint32_t>(frame.size()));
    put32(bytes, static_cast<std::uint32_t>(frame.size()));
    append(bytes, frame);
  }

  // Ethernet + IPv4 (with `option_words` 4-byte option words) + UDP + payload.
  static Bytes udp_frame(std::uint16_t source_port, std::uint16_t destination_port,
                         std::span<const std::uint8_t> payload, std::size_t option_words = 0) {
    Bytes f(12, 0);
    put16be(f, 0x0800);
    const std::size_t ihl = 20 + 4 * option_words;
    f.push_back(static_cast<std::uint8_t>(0x40 | (ihl / 4)));
    f.push_back(0);
    put16be(f, static_cast<std::uint16_t>(ihl + 8 + payload.size()));
    put16be(f, 0);  // identification
    put16be(f, 0);  // flags, fragment offset
    f.push_back(64);
    f.push_back(17);
    put16be(f, 0);  // header checksum: not checked
    for (int i = 0; i < 2; ++i) {
      f.push_back(127);
      f.push_back(0);
      f.push_back(0);
      f.push_back(1);
    }
    f.insert(f.end(), 4 * option_words, 1);  // NOP options
    put16be(f, source_port);
    put16be(f, destination_port);
    put16be(f, static_cast<std::uint16_t>(8 + payload.size()));
    put16be(f, 0);
    append(f, payload);
    return f;
  }

  void server(std::span<const std::uint8_t> ac, std::uint32_t seconds = 100, std::uint32_t fraction = 0) {
    record(udp_frame(kServerPort, kClientPort, ac), seconds, fraction);
  }
  void client(std::span<const std::uint8_t> ac, std::uint32_t seconds = 100, std::uint32_t fraction = 0) {
    record(udp_frame(kClientPort, kServerPort, ac), seconds, fraction);
  }
};

Bytes concat(std::initializer_list<Bytes> parts) {
  Bytes out;
  for (const Bytes& p : parts) append(out, p);
  return out;
}

CaptureContents parse_ok(const Bytes& file) {
  auto result = parse_capture(file, "synthetic");
  if (!result) FAIL(result.error().message());
  return std::move(*result);
}

std::string notes(const CaptureContents& c) {
  std::string out;
  for (const std::string& n : c.framing_error_notes) out += n + "\n";
  return out;
}

// --- files -----------------------------------------------------------------

Bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class TempFile {
 public:
  explicit TempFile(std::span<const std::uint8_t> contents) : path_((dir_ / "capture.pcap").string()) {
    std::ofstream out(path_, std::ios::binary);
    out.write(reinterpret_cast<const char*>(contents.data()), static_cast<std::streamsize>(contents.size()));
    REQUIRE(out.good());
  }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  dereth::test::TempDir dir_{"pcap-test"};
  std::string path_;
};

std::span<const std::uint8_t> prefix(const Bytes& bytes, std::size_t n) {
  return std::span<const std::uint8_t>(bytes).first(n);
}

const std::string& example_path() {
  static const std::string path = shared_path("captures/example.pcap");
  return path;
}

const CaptureContents& example() {
  static const CaptureContents contents = [] {
    auto result = read_capture(example_path());
    if (!result) throw std::runtime_error(result.error().message());
    return std::move(*result);
  }();
  return contents;
}

bool same_message(const CapturedMessage& a, const CapturedMessage& b) {
  return a.time == b.time && a.server_to_client == b.server_to_client && a.queue == b.queue &&
         a.fragment_sequence == b.fragment_sequence && a.bytes == b.bytes;
}

// Each result of a damaged copy must be an error or a prefix of the full read.
void check_prefix_or_error(const dereth::core::Result<CaptureContents>& result) {
  if (!result) {
    CHECK_FALSE(result.error().message().empty());
    return;
  }
  const CaptureContents& full = example();
  REQUIRE(result->messages.size() <= full.messages.size());
  CHECK(result->datagrams <= full.datagrams);
  CHECK(result->framing_errors == 0);
  for (std::size_t i = 0; i < result->messages.size(); ++i) {
    if (!same_message(result->messages[i], full.messages[i])) {
      FAIL("message " << i << " differs from the full read");
    }
  }
}

}  // namespace

// --- hex ---------------------------------------------------------------------

TEST_CASE("from_hex skips separators and round-trips with to_hex", "[support][hex]") {
  CHECK(from_hex("").empty());
  CHECK(from_hex(" \t\n").empty());
  CHECK(from_hex("F755") == Bytes{0xF7, 0x55});
  CHECK(from_hex("f7 55|00:00\n\r\tAb") == Bytes{0xF7, 0x55, 0x00, 0x00, 0xAB});
  CHECK(from_hex("a b") == Bytes{0xAB});  // digits pair up across separators
  CHECK(to_hex(Bytes{}).empty());
  CHECK(to_hex(Bytes{0x00, 0x0F, 0xF0, 0xFF, 0x5A}) == "000ff0ff5a");

  Bytes all(256);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint8_t>(i);
  CHECK(from_hex(to_hex(all)) == all);
  std::string upper = to_hex(all);
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](char c) { return static_cast<char>(c >= 'a' && c <= 'f' ? c - 'a' + 'A' : c); });
  CHECK(from_hex(upper) == all);
}

TEST_CASE("from_hex rejects an odd digit count and bad characters", "[support][hex]") {
  CHECK_THROWS_AS(from_hex("abc"), std::invalid_argument);
  CHECK_THROWS_AS(from_hex("a"), std::invalid_argument);
  CHECK_THROWS_AS(from_hex("ab c"), std::invalid_argument);
  CHECK_THROWS_AS(from_hex("0x12"), std::invalid_argument);
  CHECK_THROWS_AS(from_hex("zz"), std::invalid_argument);
  CHECK_THROWS_AS(from_hex("12,34"), std::invalid_argument);
  CHECK_THROWS_AS(from_hex("12-34"), std::invalid_argument);
  CHECK_THROWS_AS(from_hex(std::string("12\0"
                                       "34",
                                       5)),
                  std::invalid_argument);
}

// --- the real capture (PROVENANCE.md, spec/protocol.md 6.2) -----------------

TEST_CASE("example.pcap: datagram and fragment and message counts", "[support][pcap]") {
  const CaptureContents& c = example();
  INFO(notes(c));
  CHECK(c.datagrams == 632);
  CHECK(c.server_datagrams == 495);
  CHECK(c.framing_errors == 0);
  CHECK(c.fragments == 2111);  // 2,005 server to client + 106 client to server
  const auto s2c =
      std::count_if(c.messages.begin(), c.messages.end(), [](const CapturedMessage& m) { return m.server_to_client; });
  CHECK(s2c == 1985);
  CHECK(c.messages.size() == 2088);  // spec 6.2: 2,088 reassembled messages in all (103 client to server)
}

TEST_CASE("example.pcap: server-to-client opcode counts", "[support][pcap]") {
  std::map<std::uint32_t, std::size_t> counts;
  for (const CapturedMessage& m : example().messages) {
    if (m.server_to_client) ++counts[m.opcode()];
  }
  CHECK(counts[0xF755] == 515);      // PlayScriptType
  CHECK(counts[0xF625] == 60);       // ObjDescEvent
  CHECK(counts[0xF750] == 60);       // Sound
  CHECK(counts[0xF74A] == 30);       // PickupEvent
  CHECK(counts[0xF74C] == 12);       // Movement
  CHECK(counts[0xF7E0] == 313);      // server text (spec 6.2)
  CHECK(counts.count(0xF745) == 0);  // spec 6.2: no F745/F748
  CHECK(counts.count(0xF748) == 0);
}

TEST_CASE("example.pcap: messages are unique per direction and in capture order", "[support][pcap]") {
  const CaptureContents& c = example();
  std::set<std::pair<bool, std::uint32_t>> seen;
  std::size_t multi_fragment_s2c = 0;
  for (std::size_t i = 0; i < c.messages.size(); ++i) {
    const CapturedMessage& m = c.messages[i];
    CHECK(seen.insert({m.server_to_client, m.fragment_sequence}).second);
    CHECK(m.bytes.size() >= 4);
    if (i > 0) CHECK(m.time >= c.messages[i - 1].time);
    if (m.server_to_client && m.bytes.size() > 448) ++multi_fragment_s2c;
  }
  CHECK(multi_fragment_s2c == 20);  // 1,985 messages in 2,005 fragments
  REQUIRE_FALSE(c.messages.empty());
  CHECK(c.messages.front().time >= 1763490241.0);
  CHECK(c.messages.back().time <= 1763490292.0);
}

// --- files that cannot be read ----------------------------------------------

TEST_CASE("read_capture: a missing file is an Io error naming the path", "[support][pcap]") {
  const std::string path = shared_path("captures/no-such-capture.pcap");
  auto result = read_capture(path);
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == ErrorKind::Io);
  CHECK(result.error().context == path);

  auto directory = read_capture(shared_path("captures"));
  REQUIRE_FALSE(directory);
  CHECK(directory.error().kind == ErrorKind::Io);
}

TEST_CASE("read_capture: files that are not little-endian Ethernet pcap are errors", "[support][pcap]") {
  {
    TempFile text(from_hex("23 20 6e 6f 74 20 61 20 63 61 70 74 75 72 65 0a 00 00 00 00 00 00 00 00 00 00"));
    auto result = read_capture(text.path());
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == ErrorKind::Invalid);
    CHECK(result.error().context == text.path());
  }
  {
    TempFile empty(Bytes{});
    auto result = read_capture(empty.path());
    REQUIRE_FALSE(result);
    CHECK(result.error().kind == ErrorKind::Truncated);
  }
  Bytes big_endian = PcapBuilder().bytes;
  std::reverse(big_endian.begin(), big_endian.begin() + 4);
  CHECK(parse_capture(big_endian, "x").error().kind == ErrorKind::Unsupported);
  Bytes pcapng = PcapBuilder(0x0A0D0D0A).bytes;
  CHECK(parse_capture(pcapng, "x").error().kind == ErrorKind::Unsupported);
  const Bytes linux_cooked = PcapBuilder(0xA1B2C3D4, 113).bytes;
  CHECK(parse_capture(linux_cooked, "x").error().kind == ErrorKind::Unsupported);

  PcapBuilder absurd;
  put32(absurd.bytes, 0);
  put32(absurd.bytes, 0);
  put32(absurd.bytes, 0x7FFFFFFF);  // a record length no Ethernet frame has
  put32(absurd.bytes, 0x7FFFFFFF);
  auto result = parse_capture(absurd.bytes, "x");
  REQUIRE_FALSE(result);
  CHECK(result.error().kind == ErrorKind::TooLarge);
}

TEST_CASE("read_capture: truncated copies of example.pcap fail cleanly or read a prefix", "[support][pcap]") {
  const Bytes full = read_file(example_path());
  REQUIRE(full.size() == 200157);

  // Record boundaries: the first N bytes there are a valid shorter capture.
  std::vector<std::size_t> boundaries;
  for (std::size_t pos = 24; pos + 16 <= full.size();) {
    boundaries.push_back(pos);
    pos += 16 + (static_cast<std::size_t>(full[pos + 8]) | (static_cast<std::size_t>(full[pos + 9]) << 8));
  }
  REQUIRE(boundaries.size() == 632);

  // Through real files, as the tests use them.
  for (const std::size_t n :
       {std::size_t{0}, std::size_t{3}, std::size_t{23}, std::size_t{24}, std::size_t{30}, std::size_t{24 + 16 + 10},
        boundaries[100], boundaries[100] + 7, full.size() / 2, full.size() - 1}) {
    INFO("first " << n << " bytes");
    TempFile file(prefix(full, n));
    auto result = read_capture(file.path());
    check_prefix_or_error(result);
    if (n < 24) CHECK_FALSE(result);
  }
  {
    TempFile file(prefix(full, boundaries[100]));
    auto result = read_capture(file.path());
    REQUIRE(result);
    CHECK(result->datagrams == 100);
    CHECK(result->messages.size() < example().messages.size());
  }

  // In memory, many more cut points (every record boundary and many between).
  for (const std::size_t n : boundaries) {
    auto result = parse_capture(prefix(full, n), "cut");
    REQUIRE(result);
    check_prefix_or_error(result);
  }
  for (std::size_t n = 0; n < full.size(); n += 97) {
    INFO("first " << n << " bytes");
    check_prefix_or_error(parse_capture(prefix(full, n), "cut"));
  }
}

TEST_CASE("read_capture: corrupted bytes never crash the reader", "[support][pcap]") {
  const Bytes full = read_file(example_path());
  std::mt19937 rng(20251118);
  std::uniform_int_distribution<std::size_t> where(24, full.size() - 1);
  std::uniform_int_distribution<int> value(0, 255);
  for (int round = 0; round < 200; ++round) {
    Bytes damaged = full;
    const int flips = 1 + round % 16;
    for (int i = 0; i < flips; ++i) damaged[where(rng)] = static_cast<std::uint8_t>(value(rng));
    auto result = parse_capture(damaged, "damaged");
    if (result) {
      CHECK(result->datagrams <= 640);
      CHECK(result->framing_errors <= result->datagrams);
    }
  }
}

// --- synthetic captures: the rules of spec 1.2-1.4 -------------------------

TEST_CASE("reassembly: out-of-order fragments and duplicate indices and unpadded sizes", "[support][pcap]") {
  const Bytes part0 = from_hex("b0f70000 01020304 05");  // 9 bytes: no padding follows
  const Bytes part1 = from_hex("06070809 0a0b0c");
  const Bytes part2 = from_hex("0d");
  const Bytes small = from_hex("55f70000 01000050 1a000000 cd");  // 13 bytes, ACE-style

  PcapBuilder p;
  // The tail fragment arrives first, packed with a small message.
  p.server(ac_packet(10, 0x4, concat({fragment(7, 3, 2, 9, part2), fragment(8, 1, 0, 10, small)})), 100, 0);
  p.server(ac_packet(11, 0x4, fragment(7, 3, 0, 9, part0)), 100, 250000);
  p.server(ac_packet(12, 0x4, fragment(7, 3, 0, 9, from_hex("ffffffff"))), 100, 500000);  // duplicate index 0
  p.server(ac_packet(13, 0x4, fragment(7, 3, 1, 9, part1)), 101, 0);

  const CaptureContents c = parse_ok(p.bytes);
  INFO(notes(c));
  CHECK(c.framing_errors == 0);
  CHECK(c.datagrams == 4);
  CHECK(c.server_datagrams == 4);
  CHECK(c.fragments == 5);
  REQUIRE(c.messages.size() == 2);
  CHECK(c.messages[0].bytes == small);
  CHECK(c.messages[0].opcode() == 0xF755);
  CHECK(c.messages[0].fragment_sequence == 8);
  CHECK(c.messages[0].queue == 10);
  CHECK(c.messages[0].time == Approx(100.0));
  CHECK(c.messages[1].bytes == concat({part0, part1, part2}));
  CHECK(c.messages[1].opcode() == 0xF7B0);
  CHECK(c.messages[1].fragment_sequence == 7);
  CHECK(c.messages[1].queue == 9);
  CHECK(c.messages[1].time == Approx(101.0));  // the packet that completed it
  CHECK(c.messages[1].server_to_client);
}

TEST_CASE("reassembly: a retransmitted packet does not repeat messages", "[support][pcap]") {
  const Bytes one = from_hex("50f70000 11111111 22222222");
  const Bytes two0 = from_hex("e0f70000 aaaa");
  const Bytes two1 = from_hex("bbbb");
  const Bytes body = concat({fragment(20, 1, 0, 10, one), fragment(21, 2, 0, 9, two0)});
  PcapBuilder p;
  p.server(ac_packet(30, 0x6, body));
  p.server(ac_packet(31, 0x6, fragment(21, 2, 1, 9, two1)));
  p.server(ac_packet(30, 0x7, body));                         // flag 0x1: resent unchanged
  p.server(ac_packet(31, 0x7, fragment(21, 2, 1, 9, two1)));  // a later duplicate of a completed message
  const CaptureContents c = parse_ok(p.bytes);
  CHECK(c.framing_errors == 0);
  CHECK(c.fragments == 6);
  REQUIRE(c.messages.size() == 2);
  CHECK(c.messages[0].bytes == one);
  CHECK(c.messages[1].bytes == concat({two0, two1}));
}

TEST_CASE("reassembly: directions are separate and set by the source port", "[support][pcap]") {
  const Bytes s2c = from_hex("e0f70000 01000000");
  const Bytes c2s = from_hex("b1f70000 02000000");
  PcapBuilder p;
  p.server(ac_packet(1, 0x4, fragment(5, 1, 0, 9, s2c)));
  p.client(ac_packet(1, 0x4, fragment(5, 1, 0, 3, c2s)));  // same fragment sequence, other direction
  p.record(PcapBuilder::udp_frame(10013, 10013, ac_packet(2, 0x4, fragment(6, 1, 0, 9, s2c))));
  p.record(PcapBuilder::udp_frame(8999, 10014, ac_packet(3, 0x4, fragment(7, 1, 0, 9, s2c))));  // not AC
  p.record(PcapBuilder::udp_frame(53, 53, from_hex("00")));                                     // not AC
  const CaptureContents c = parse_ok(p.bytes);
  CHECK(c.datagrams == 3);
  CHECK(c.server_datagrams == 2);
  REQUIRE(c.messages.size() == 3);
  CHECK(c.messages[0].server_to_client);
  CHECK(c.messages[0].bytes == s2c);
  CHECK_FALSE(c.messages[1].server_to_client);
  CHECK(c.messages[1].bytes == c2s);
  CHECK(c.messages[1].queue == 3);
  CHECK(c.messages[2].server_to_client);
}

TEST_CASE("optional headers are skipped with the sizes of table 1.3", "[support][pcap]") {
  const Bytes msg = from_hex("e0f70000 4142");
  const Bytes frag = fragment(1, 1, 0, 9, msg);
  struct Case {
    std::uint32_t flags;
    Bytes optional;
  };
  const std::vector<Case> cases = {
      {0x00000100, Bytes(8, 0xAA)},
      {0x00000200, Bytes(16, 0xAA)},
      {0x00000400, Bytes{}},
      {0x00000800, Bytes(32, 0xAA)},
      {0x00001000, from_hex("02000000 01000000 02000000")},
      {0x00002000, from_hex("00000000")},
      {0x00004000, Bytes(4, 0xAA)},
      {0x00008000, Bytes{}},
      {0x00020000, Bytes(8, 0xAA)},
      {0x00040000, Bytes(32, 0xAA)},
      {0x00080000, Bytes(8, 0xAA)},
      {0x00100000, Bytes(8, 0xAA)},
      {0x00200000, Bytes(8, 0xAA)},
      {0x00400000, Bytes(8, 0xAA)},
      {0x01000000, Bytes(8, 0xAA)},
      {0x02000000, Bytes(4, 0xAA)},
      {0x04000000, Bytes(8, 0xAA)},
      {0x08000000, Bytes(6, 0xAA)},
      // Several at once, in ascending bit order: Ack, TimeSync, EchoRequest, Flow (retail C2S).
      {0x0B004000, concat({Bytes(4, 1), Bytes(8, 2), Bytes(4, 3), Bytes(6, 4)})},
      {0x00003000, from_hex("01000000 05000000 02000000 06000000 07000000")},
  };
  for (const Case& k : cases) {
    INFO("flags 0x" << std::hex << k.flags);
    PcapBuilder p;
    p.server(ac_packet(1, k.flags | 0x6, concat({k.optional, frag})));
    p.server(ac_packet(2, k.flags, k.optional));  // the header alone, no fragments
    const CaptureContents c = parse_ok(p.bytes);
    INFO(notes(c));
    CHECK(c.framing_errors == 0);
    REQUIRE(c.messages.size() == 1);
    CHECK(c.messages[0].bytes == msg);
  }

  // LoginRequest takes the rest of the packet: no fragments are read after it.
  PcapBuilder login;
  login.client(ac_packet(0, 0x00010004, frag));
  const CaptureContents c = parse_ok(login.bytes);
  CHECK(c.framing_errors == 0);
  CHECK(c.fragments == 0);
  CHECK(c.messages.empty());
}

TEST_CASE("malformed datagrams count a framing error and are skipped whole", "[support][pcap]") {
  const Bytes good_msg = from_hex("e0f70000 4142");
  const Bytes good = fragment(1, 1, 0, 9, good_msg);
  const Bytes other = fragment(2, 1, 0, 9, from_hex("50f70000"));

  std::vector<std::pair<const char*, Bytes>> bad;
  {
    Bytes p = ac_packet(1, 0x4, concat({other, good}));
    p[16] = static_cast<std::uint8_t>(p[16] + 1);  // Size one more than the body
    bad.emplace_back("Size too large", p);
    p[16] = static_cast<std::uint8_t>(p[16] - 2);  // Size one less than the body
    bad.emplace_back("Size too small", p);
  }
  bad.emplace_back("short header", from_hex("01000000 04000000 00000000 0b00"));
  bad.emplace_back("unknown flag", ac_packet(1, 0x14, concat({other, good})));
  bad.emplace_back("fixed optional header cut short", ac_packet(1, 0x01000004, Bytes(5, 0)));
  bad.emplace_back("NAK count beyond the packet", ac_packet(1, 0x1004, concat({from_hex("ffffffff"), other})));
  bad.emplace_back("no fragment flag but bytes left", ac_packet(1, 0x4000, Bytes(8, 0)));
  {
    Bytes f = concat({other, good});
    f[f.size() - good.size() + 10] = 0x20;  // second fragment's Size overruns the packet
    bad.emplace_back("fragment overruns", ac_packet(1, 0x4, f));
  }
  {
    Bytes f = concat({other, good});
    f[10] = 15;  // first fragment's Size below its header
    f[11] = 0;
    bad.emplace_back("fragment size < 16", ac_packet(1, 0x4, f));
  }
  bad.emplace_back("partial fragment header", ac_packet(1, 0x4, concat({other, Bytes(10, 0)})));
  bad.emplace_back("index beyond count", ac_packet(1, 0x4, concat({other, fragment(3, 2, 2, 9, good_msg)})));
  bad.emplace_back("count zero", ac_packet(1, 0x4, concat({other, fragment(3, 0, 0, 9, good_msg)})));
  bad.emplace_back("counts disagree in one packet",
                   ac_packet(1, 0x4, concat({fragment(3, 2, 0, 9, good_msg), fragment(3, 3, 1, 9, good_msg)})));

  for (const auto& [what, datagram] : bad) {
    INFO(what);
    PcapBuilder p;
    p.server(datagram);
    p.server(ac_packet(2, 0x4, good));  // reading goes on after the bad one
    const CaptureContents c = parse_ok(p.bytes);
    CHECK(c.datagrams == 2);
    CHECK(c.framing_errors == 1);
    CHECK(c.framing_error_notes.size() == 1);
    REQUIRE(c.messages.size() == 1);  // `other` (sequence 2) was not taken from the bad datagram
    CHECK(c.messages[0].bytes == good_msg);
    CHECK(c.messages[0].fragment_sequence == 1);
  }

  // A count that disagrees with pieces held from an earlier packet.
  PcapBuilder p;
  p.server(ac_packet(1, 0x4, fragment(3, 2, 0, 9, from_hex("e0f70000"))));
  p.server(ac_packet(2, 0x4, concat({good, fragment(3, 4, 1, 9, from_hex("01"))})));
  p.server(ac_packet(3, 0x4, fragment(3, 2, 1, 9, from_hex("02"))));
  const CaptureContents c = parse_ok(p.bytes);
  CHECK(c.framing_errors == 1);
  REQUIRE(c.messages.size() == 1);
  CHECK(c.messages[0].bytes == from_hex("e0f70000 02"));
}

TEST_CASE("IPv4 and UDP framing: options and bad lengths and nanosecond timestamps", "[support][pcap]") {
  const Bytes msg = from_hex("e0f70000 4142");
  const Bytes packet = ac_packet(1, 0x4, fragment(1, 1, 0, 9, msg));

  PcapBuilder with_options;
  with_options.record(PcapBuilder::udp_frame(kServerPort, kClientPort, packet, 2), 5, 500000);
  const CaptureContents a = parse_ok(with_options.bytes);
  CHECK(a.framing_errors == 0);
  REQUIRE(a.messages.size() == 1);
  CHECK(a.messages[0].bytes == msg);
  CHECK(a.messages[0].time == Approx(5.5));

  // Ethernet padding after the IPv4 datagram is not part of the AC packet.
  PcapBuilder padded;
  Bytes frame = PcapBuilder::udp_frame(kServerPort, kClientPort, packet);
  frame.insert(frame.end(), 6, 0);
  padded.record(frame);
  CHECK(parse_ok(padded.bytes).framing_errors == 0);
  CHECK(parse_ok(padded.bytes).messages.size() == 1);

  // IPv4 total length 0 ("not filled in", as UtilityBelt writes it): the
  // captured bytes are the datagram and the UDP length bounds the payload.
  PcapBuilder zero_total_length;
  frame = PcapBuilder::udp_frame(kServerPort, kClientPort, packet);
  frame[14 + 2] = 0;
  frame[14 + 3] = 0;
  zero_total_length.record(frame);
  CHECK(parse_ok(zero_total_length.bytes).framing_errors == 0);
  CHECK(parse_ok(zero_total_length.bytes).messages.size() == 1);

  PcapBuilder bad_udp_length;
  frame = PcapBuilder::udp_frame(kServerPort, kClientPort, packet);
  frame[14 + 20 + 4] = 0xFF;  // UDP length beyond the IPv4 datagram
  bad_udp_length.record(frame);
  const CaptureContents b = parse_ok(bad_udp_length.bytes);
  CHECK(b.datagrams == 1);
  CHECK(b.framing_errors == 1);
  CHECK(b.messages.empty());

  PcapBuilder cut_frame;  // the record holds fewer bytes than the IPv4 total length says
  frame = PcapBuilder::udp_frame(kServerPort, kClientPort, packet);
  for (int i = 0; i < 3; ++i) frame.pop_back();
  cut_frame.record(frame);
  CHECK(parse_ok(cut_frame.bytes).framing_errors == 1);

  PcapBuilder nano(0xA1B23C4D);
  nano.server(packet, 7, 250000000);
  const CaptureContents n = parse_ok(nano.bytes);
  REQUIRE(n.messages.size() == 1);
  CHECK(n.messages[0].time == Approx(7.25));

  CHECK(CapturedMessage{}.opcode() == 0);
  CapturedMessage three;
  three.bytes = from_hex("55f700");
  CHECK(three.opcode() == 0);
}
