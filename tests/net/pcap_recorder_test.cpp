#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>

#include "dereth/net/capture_reader.hpp"
#include "dereth/net/pcap_recorder.hpp"
#include "support/pcap_messages.hpp"

using namespace dereth::net;

TEST_CASE("A recorded session replays to the same messages, both directions", "[net][recording]") {
  auto capture = dereth::test::read_capture(dereth::test::shared_path("captures/example.pcap"));
  REQUIRE(capture.has_value());
  const auto path = std::filesystem::temp_directory_path() / "dereth-recorder-test" / "session.pcap";
  std::filesystem::remove_all(path.parent_path());
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
  std::filesystem::remove_all(path.parent_path());
}

TEST_CASE("Recording names follow pkt_YYYY-M-D_<unixtime>_log.pcap", "[net][recording]") {
  const auto name = PcapRecorder::default_file_name(1763490291);
  CHECK(std::regex_match(name, std::regex(R"(pkt_2025-11-1[89]_1763490291_log\.pcap)")));
  CHECK(PcapRecorder::default_folder().filename() == "recordings");
}

TEST_CASE("A recorder in an unwritable place is a clear error", "[net][recording]") {
  auto rec = PcapRecorder::create("/proc/dereth-cannot-write/x.pcap");
  REQUIRE_FALSE(rec.has_value());
  CHECK(rec.error().kind == dereth::core::ErrorKind::Io);
}
