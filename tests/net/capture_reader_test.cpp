#include "dereth/net/capture_reader.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

#include "support/pcap_messages.hpp"
#include "support/temp_dir.hpp"

using namespace dereth::net;

TEST_CASE("CaptureReplay: example.pcap gives 1,985 server messages and no framing errors", "[net][replay]") {
  const auto path = dereth::test::shared_path("captures/example.pcap");
  auto replay = CaptureReplay::open(path);
  REQUIRE(replay.has_value());
  std::vector<ReplayedMessage> messages;
  while (auto m = replay->next_message()) messages.push_back(std::move(*m));
  const auto& s = replay->stats();
  CHECK(s.packets == 632);
  CHECK(s.framing_errors == 0);
  CHECK(s.messages_s2c == 1985);
  CHECK(s.messages_c2s == 103);
  CHECK_FALSE(s.encrypted_checksums_verified);
  CHECK(replay->checksum_note().find("not verified") != std::string::npos);
  // Identical, in order, to the independent test reader.
  auto reference = dereth::test::read_capture(path);
  REQUIRE(reference.has_value());
  REQUIRE(messages.size() == reference->messages.size());
  for (std::size_t i = 0; i < messages.size(); ++i) {
    CHECK(messages[i].bytes == reference->messages[i].bytes);
    CHECK(messages[i].server_to_client == reference->messages[i].server_to_client);
  }
  // Capture time runs forward, within the 49.8 s the datagrams span.
  const double span = messages.back().time - messages.front().time;
  CHECK(span > 49.0);
  CHECK(span <= 49.82);
  for (std::size_t i = 1; i < messages.size(); ++i) CHECK(messages[i].time >= messages[i - 1].time);
}

TEST_CASE("CaptureReader: a missing or foreign file is a clear error", "[net][replay][malformed]") {
  auto missing = CaptureReader::open("/nonexistent/dereth.pcap");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().kind == dereth::core::ErrorKind::Io);
  CHECK(missing.error().context == "/nonexistent/dereth.pcap");
  const dereth::test::TempDir tmp("capture-reader");
  const auto text = tmp / "not-a-pcap.txt";
  std::ofstream(text) << "hello, this is not a capture\n";
  auto foreign = CaptureReader::open(text);
  REQUIRE_FALSE(foreign.has_value());
  CHECK_FALSE(foreign.error().message().empty());
}

TEST_CASE("CaptureReplay: a capture cut short replays what it holds", "[net][replay][malformed]") {
  const auto path = dereth::test::shared_path("captures/example.pcap");
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO("the capture: " << path);
  REQUIRE(bytes.size() > 1024);  // read, or the cuts below would index an empty buffer
  const dereth::test::TempDir tmp("capture-cut");
  const auto cut = tmp / "cut.pcap";
  for (std::size_t length : {std::size_t{24}, std::size_t{1000}, bytes.size() / 2, bytes.size() - 7}) {
    std::ofstream(cut, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(length));
    auto replay = CaptureReplay::open(cut);
    REQUIRE(replay.has_value());
    std::size_t n = 0;
    while (replay->next_message()) ++n;
    CHECK(n <= 2088);
    CHECK(replay->stats().framing_errors == 0);
  }
}

namespace {
void put32(std::vector<std::uint8_t>& b, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void put16(std::vector<std::uint8_t>& b, std::uint16_t v) {
  b.push_back(static_cast<std::uint8_t>(v & 0xFF));
  b.push_back(static_cast<std::uint8_t>(v >> 8));
}
}  // namespace

TEST_CASE("CaptureReplay reads pcapng (section header, interface, enhanced packet blocks)", "[net][replay]") {
  // Rewrite example.pcap's Ethernet frames as a pcapng file, block by block.
  const auto path = dereth::test::shared_path("captures/example.pcap");
  std::ifstream in(path, std::ios::binary);
  std::vector<std::uint8_t> pcap((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::uint8_t> ng;
  put32(ng, 0x0A0D0D0A);  // section header block
  put32(ng, 28);
  put32(ng, 0x1A2B3C4D);
  put16(ng, 1);
  put16(ng, 0);
  put32(ng, 0xFFFFFFFF);
  put32(ng, 0xFFFFFFFF);
  put32(ng, 28);
  put32(ng, 1);  // interface description block: Ethernet
  put32(ng, 20);
  put16(ng, 1);
  put16(ng, 0);
  put32(ng, 65535);
  put32(ng, 20);
  std::size_t pos = 24, frames = 0;
  while (pos + 16 <= pcap.size()) {
    auto le = [&](std::size_t at) {
      return static_cast<std::uint32_t>(pcap[at] | (pcap[at + 1] << 8) | (pcap[at + 2] << 16) |
                                        (static_cast<std::uint32_t>(pcap[at + 3]) << 24));
    };
    const std::uint32_t sec = le(pos), usec = le(pos + 4), len = le(pos + 8);
    const std::uint64_t ts = static_cast<std::uint64_t>(sec) * 1000000U + usec;
    const std::uint32_t padded = (len + 3U) & ~3U;
    put32(ng, 6);  // enhanced packet block
    put32(ng, 32 + padded);
    put32(ng, 0);
    put32(ng, static_cast<std::uint32_t>(ts >> 32));
    put32(ng, static_cast<std::uint32_t>(ts & 0xFFFFFFFF));
    put32(ng, len);
    put32(ng, len);
    ng.insert(ng.end(), pcap.begin() + static_cast<std::ptrdiff_t>(pos + 16),
              pcap.begin() + static_cast<std::ptrdiff_t>(pos + 16 + len));
    ng.insert(ng.end(), padded - len, 0);
    put32(ng, 32 + padded);
    pos += 16 + len;
    ++frames;
  }
  const dereth::test::TempDir tmp("capture-pcapng");
  const auto out = tmp / "example.pcapng";
  std::ofstream(out, std::ios::binary)
      .write(reinterpret_cast<const char*>(ng.data()), static_cast<std::streamsize>(ng.size()));
  auto replay = CaptureReplay::open(out);
  REQUIRE(replay.has_value());
  while (replay->next_message()) {
  }
  CHECK(frames == 632);
  CHECK(replay->stats().packets == 632);
  CHECK(replay->stats().messages_s2c == 1985);
  CHECK(replay->stats().framing_errors == 0);
}

TEST_CASE("admit_capture: a cut record, a record over 256 KiB, no AC traffic: one sentence with the file and offset",
          "[net][replay][malformed]") {
  const auto path = dereth::test::shared_path("captures/example.pcap");
  std::ifstream in(path, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  INFO("the capture: " << path);
  REQUIRE(bytes.size() > 1024);  // read, or the cuts below would index an empty buffer
  const dereth::test::TempDir tmp("admit-capture");
  const auto& dir = tmp.path();
  // The first three records of example.pcap, to find the record boundaries.
  auto le = [&](std::size_t at) {
    return static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[at]) |
                                      (static_cast<std::uint8_t>(bytes[at + 1]) << 8) |
                                      (static_cast<std::uint8_t>(bytes[at + 2]) << 16) |
                                      (static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[at + 3])) << 24));
  };
  const std::size_t first_end = 24 + 16 + le(24 + 8);
  const std::size_t second_end = first_end + 16 + le(first_end + 8);

  SECTION("cut inside the third record") {
    const auto cut = dir / "cut.pcap";
    std::ofstream(cut, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(second_end + 30));
    auto refused = admit_capture(cut, {}, false);
    REQUIRE_FALSE(refused.has_value());
    const std::string m = refused.error().message();
    CHECK(m.find(cut.string()) == 0);
    CHECK(m.find("at offset " + std::to_string(second_end)) != std::string::npos);
    CHECK(m.find("after record 2") != std::string::npos);
    CHECK(m.find("--allow-truncated replays the 2 records (" + std::to_string(second_end) + " bytes) before it") !=
          std::string::npos);
    auto allowed = admit_capture(cut, {}, true);
    REQUIRE(allowed.has_value());
    CHECK(allowed->stats.records == 2);
    CHECK(allowed->stats.bytes_read == second_end);
    REQUIRE(allowed->damage.has_value());
  }
  SECTION("a record length over 256 KiB") {
    std::vector<char> big(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(first_end));
    for (int i = 0; i < 8; ++i) big.push_back(0);  // time
    for (const std::uint32_t v : {300000U, 300000U}) {
      for (int i = 0; i < 4; ++i) big.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
    }
    big.resize(big.size() + 64, 0);
    const auto huge = dir / "huge.pcap";
    std::ofstream(huge, std::ios::binary).write(big.data(), static_cast<std::streamsize>(big.size()));
    auto refused = admit_capture(huge, {}, false);
    REQUIRE_FALSE(refused.has_value());
    const std::string m = refused.error().message();
    CHECK(m.find(huge.string()) == 0);
    CHECK(m.find("at offset " + std::to_string(first_end)) != std::string::npos);
    CHECK(m.find("300000") != std::string::npos);  // libpcap names the length
  }
  SECTION("no AC traffic on the ports asked for") {
    auto none = admit_capture(path, CaptureFilter::port(20000), false);
    REQUIRE_FALSE(none.has_value());
    CHECK(none.error().message() ==
          path + ": holds no Asheron's Call traffic (632 records read, none on ports 20000-20001)");
  }
}
