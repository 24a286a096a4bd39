#include "dereth/net/pcap_recorder.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dereth/net/capture_reader.hpp"

#include "support/pcap_messages.hpp"
#include "support/temp_dir.hpp"

using namespace dereth::net;

TEST_CASE("A recorded session replays to the same messages, both directions", "[net][recording]") {
  auto capture = dereth::test::read_capture(dereth::test::shared_path("captures/example.pcap"));
  REQUIRE(capture.has_value());
  const dereth::test::TempDir tmp("recorder");
  const auto path = tmp / "not-yet" / "session.pcap";  // the recorder makes the folder
  {
    auto rec = PcapRecorder::create(path);
    REQUIRE(rec.has_value());
    const Ipv4Endpoint client{0x7F000001, 50123}, server{0x7F000001, 9000};
    for (const auto& d : capture->raw_datagrams) {
      REQUIRE(rec->record(d.bytes, d.server_to_client ? server : client, d.server_to_client ? client : server, d.time)
                  .has_value());
    }
    CHECK(rec->records() == 632);
  }
  auto replay = CaptureReplay::open(path);
  REQUIRE(replay.has_value());
  std::vector<std::vector<std::uint8_t>> messages;
  while (auto m = replay->next_message()) messages.push_back(m->bytes);
  CHECK(replay->stats().framing_errors == 0);
  CHECK(replay->stats().messages_s2c == 1985);
  std::vector<std::vector<std::uint8_t>> expected;
  for (const auto& m : capture->messages) expected.push_back(m.bytes);
  CHECK(messages == expected);
  // The independent test reader agrees, timestamps included.
  auto again = dereth::test::read_capture(path.string());
  REQUIRE(again.has_value());
  CHECK(again->raw_datagrams.size() == 632);
  CHECK(again->raw_datagrams.back().time == Approx(capture->raw_datagrams.back().time).margin(1e-6));
}

TEST_CASE("Recording names follow pkt_YYYY-M-D_<unixtime>_log.pcap in the local date", "[net][recording]") {
  // 1763490291 is 2025-11-18 18:24:51 UTC. POSIX TZ strings need no zone
  // database: the date is the local one, whatever zone the machine is in.
  const char* saved = std::getenv("TZ");
  const std::string previous = saved != nullptr ? saved : "";
  const auto name_in = [](const char* zone) {
    ::setenv("TZ", zone, 1);
    ::tzset();
    return PcapRecorder::default_file_name(1763490291);
  };
  CHECK(name_in("UTC0") == "pkt_2025-11-18_1763490291_log.pcap");
  CHECK(name_in("EAST-14") == "pkt_2025-11-19_1763490291_log.pcap");  // UTC+14: the next day
  CHECK(name_in("WEST12") == "pkt_2025-11-18_1763490291_log.pcap");   // UTC-12: 06:24 the same day
  CHECK(name_in("WEST12") != name_in("EAST-14"));
  if (saved != nullptr) {
    ::setenv("TZ", previous.c_str(), 1);
  } else {
    ::unsetenv("TZ");
  }
  ::tzset();
  CHECK(PcapRecorder::default_folder().filename() == "recordings");
}

TEST_CASE("A recorder in an unwritable place is a clear error", "[net][recording]") {
  auto rec = PcapRecorder::create("/proc/dereth-cannot-write/x.pcap");
  REQUIRE_FALSE(rec.has_value());
  CHECK(rec.error().kind == dereth::core::ErrorKind::Io);
}

TEST_CASE("A recorder never writes over another file and creates it readable by its owner only", "[net][recording]") {
  const dereth::test::TempDir tmp("recorder-unique");
  const auto dir = tmp / "recordings";
  const auto path = dir / "pkt_2026-12-1_1796000000_log.pcap";
  auto first = PcapRecorder::create(path);
  REQUIRE(first.has_value());
  CHECK(first->path() == path);
  auto second = PcapRecorder::create(path);  // the same second
  REQUIRE(second.has_value());
  CHECK(second->path() == dir / "pkt_2026-12-1_1796000000_log-2.pcap");
  auto third = PcapRecorder::create(path);
  REQUIRE(third.has_value());
  CHECK(third->path() == dir / "pkt_2026-12-1_1796000000_log-3.pcap");
  for (const auto& p : {first->path(), second->path(), third->path()}) {
    const auto perms = std::filesystem::status(p).permissions();
    CHECK((perms & std::filesystem::perms::all) ==
          (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
  }
  // The first file's header is intact: the others did not truncate it.
  REQUIRE(first->record(std::vector<std::uint8_t>{1, 2, 3}, {}, {}, 1.5).has_value());
  CHECK(std::filesystem::file_size(path) == 24 + 16 + 14 + 20 + 8 + 3);
}

TEST_CASE("A recorder's timestamps carry a rounded microsecond into the seconds", "[net][recording]") {
  const dereth::test::TempDir tmp("recorder-time");
  const auto dir = tmp / "recordings";
  const auto path = dir / "t.pcap";
  {
    auto rec = PcapRecorder::create(path);
    REQUIRE(rec.has_value());
    REQUIRE(rec->record(std::vector<std::uint8_t>{0}, {}, {}, 99.9999996).has_value());
  }
  std::ifstream in(path, std::ios::binary);
  std::vector<unsigned char> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(b.size() > 32);
  auto le = [&](std::size_t at) {
    return static_cast<std::uint32_t>(b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) |
                                      (static_cast<std::uint32_t>(b[at + 3]) << 24));
  };
  CHECK(le(24) == 100);  // not 99 s and 0 us
  CHECK(le(28) == 0);
}
