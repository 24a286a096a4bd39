// Recordings are safe and readable: `dereth play` records a session against
// the UDP scenario server on a random port; the file holds no trace of the
// password, is readable by its owner only, names the real client address and
// the server's real ports, never overwrites another session's recording, and
// replays through every tool that reads captures (dereth-cap's reader,
// dereth-sim's run_headless and `dereth replay`), found by the protocol.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>

#include "dereth/app/cli.hpp"
#include "dereth/app/headless.hpp"
#include "dereth/app/qa_report.hpp"
#include "dereth/net/capture_reader.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"
#include "dereth/sim/object/verdict.hpp"

#include "run_cli.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPassword = "Qx7-hunter2-Zp";

using dereth::app::test::run;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string utf16le(std::string_view s) {
  std::string out;
  for (char c : s) {
    out.push_back(c);
    out.push_back('\0');
  }
  return out;
}

}  // namespace

TEST_CASE(
    "dereth play records without the password, 0600, real addresses, never over another recording, "
    "and every capture tool replays it",
    "[app][e2e][recording]") {
  std::string text = slurp(std::string(DERETH_SOURCE_DIR) + "/tests/scenario/data/basic.scenario");
  const std::string from = "password=secret";
  REQUIRE(contains(text, from));
  text.replace(text.find(from), from.size(), "password=" + std::string(kPassword));
  auto sc = dereth::scenario::parse_scenario(text, "recording.scenario");
  REQUIRE(sc.has_value());
  dereth::scenario::UdpScenarioServer server(*sc);  // a random free port pair
  REQUIRE(server.start().has_value());
  REQUIRE(server.port() != 9000);

  const dereth::test::TempDir tmp("recording");
  const fs::path& dir = tmp.path();
  const fs::path pw = dir / "password";
  std::ofstream(pw) << kPassword << "\n";
  const fs::path recordings = dir / "recordings";
  std::string out, err;
  const std::vector<std::string> play = {"dereth",
                                         "play",
                                         "--server",
                                         "127.0.0.1:" + std::to_string(server.port()),
                                         "--account",
                                         "tester",
                                         "--password-file",
                                         pw.string(),
                                         "--headless",
                                         "--ticks",
                                         "15",
                                         "--record",
                                         recordings.string()};
  // Two sessions back to back (the same second): two files.
  REQUIRE(run(play, out, err) == 0);
  REQUIRE(run(play, out, err) == 0);
  fs::remove(pw);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(recordings)) files.push_back(e.path());
  REQUIRE(files.size() == 2);

  for (const fs::path& file : files) {
    INFO(file.string());
    // Mode 0600: a recording holds a player's session.
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);

    // No trace of the password: plain, UTF-16 or String16L (u16 length, bytes).
    const std::string bytes = slurp(file);
    CHECK_FALSE(contains(bytes, std::string(kPassword)));
    CHECK_FALSE(contains(bytes, utf16le(kPassword)));
    std::string string16l;
    string16l.push_back(static_cast<char>(kPassword.size() & 0xFF));
    string16l.push_back('\0');
    string16l += kPassword;
    CHECK_FALSE(contains(bytes, string16l));
    CHECK_FALSE(contains(bytes, "hunter2"));
    // The same-length filler stands where it was.
    CHECK(contains(bytes, std::string(kPassword.size(), '*')));

    // dereth-cap's reader: found by the protocol on the random port, the
    // login packet's checksum valid (it names the flow), data verified.
    auto check = dereth::net::admit_capture(file, {}, false);
    REQUIRE(check.has_value());
    CHECK(check->stats.packets == check->stats.records);  // every record is AC traffic
    CHECK(check->stats.packets > 10);
    auto replay = dereth::net::CaptureReplay::open(file);
    REQUIRE(replay.has_value());
    std::size_t s2c = 0;
    while (auto m = replay->next_message()) s2c += m->server_to_client ? 1U : 0U;
    // The login and world entry (the scenario's stream waits for the
    // LoginComplete at the end of portal space, after this short run).
    CHECK(s2c > 5);
    CHECK(replay->stats().framing_errors == 0);
    CHECK(replay->stats().encrypted_checksums_verified);
    CHECK(replay->stats().encrypted_checksum_failures == 0);

    // Addresses and ports in the IP/UDP headers.
    dereth::net::CaptureReader reader = *dereth::net::CaptureReader::open(file);
    bool saw_n = false, saw_n1 = false;
    while (auto d = reader.next_datagram()) {
      const std::uint16_t server_port = d->server_to_client ? d->source_port : d->destination_port;
      CHECK((server_port == server.port() || server_port == server.port() + 1));
      saw_n = saw_n || server_port == server.port();
      saw_n1 = saw_n1 || server_port == server.port() + 1;
      // The client's real address (the socket is bound to 0.0.0.0; on loopback the server sees 127.0.0.1).
      CHECK(d->source_address == 0x7F000001u);
      CHECK(d->destination_address == 0x7F000001u);
    }
    CHECK(saw_n);
    CHECK(saw_n1);

    // dereth-sim's run and `dereth replay --headless`.
    dereth::app::HeadlessOptions o;
    o.input = file;
    auto sim = dereth::app::run_headless(o);
    REQUIRE(sim.has_value());
    CHECK(sim->messages == s2c);
    CHECK(sim->objects_at_end >= 1);
    std::string rout, rerr;
    CHECK(run({"dereth", "replay", "--headless", "--fast", file.string()}, rout, rerr) == 0);
    CHECK(contains(rout, "replay: messages=" + std::to_string(s2c) + " "));
  }
}

TEST_CASE("a capture with no AC traffic, or not a capture, is one sentence and exit 1 in every tool",
          "[app][recording][hostile]") {
  const dereth::test::TempDir tmp("recording-empty");
  const fs::path& dir = tmp.path();
  // A valid pcap with one UDP datagram that is not AC traffic (DNS-like, port 53).
  const fs::path none = dir / "no-ac.pcap";
  {
    std::string f;
    auto u32 = [&](std::uint32_t v) {
      for (int i = 0; i < 4; ++i) f.push_back(static_cast<char>(v >> (8 * i)));
    };
    auto u16 = [&](std::uint16_t v) {
      f.push_back(static_cast<char>(v & 0xFF));
      f.push_back(static_cast<char>(v >> 8));
    };
    u32(0xA1B2C3D4);
    u16(2);
    u16(4);
    u32(0);
    u32(0);
    u32(65535);
    u32(101);  // raw IPv4
    const std::string payload = "not asheron's call";
    const auto total = static_cast<std::uint16_t>(20 + 8 + payload.size());
    u32(1);
    u32(0);
    u32(total);
    u32(total);
    std::string ip = {'\x45',
                      '\0',
                      static_cast<char>(total >> 8),
                      static_cast<char>(total & 0xFF),
                      0,
                      0,
                      0,
                      0,
                      64,
                      17,
                      0,
                      0,
                      127,
                      0,
                      0,
                      1,
                      127,
                      0,
                      0,
                      1};
    std::string udp = {'\xC3', '\x50', 0, 53, 0, static_cast<char>(8 + payload.size()), 0, 0};
    f += ip + udp + payload;
    std::ofstream(none, std::ios::binary) << f;
  }
  std::string out, err;
  CHECK(run({"dereth", "replay", "--headless", "--fast", none.string()}, out, err) == 1);
  CHECK(err == "dereth: " + none.string() + ": holds no Asheron's Call traffic (1 records read)\n");
  dereth::app::HeadlessOptions o;
  o.input = none;
  auto sim = dereth::app::run_headless(o);
  REQUIRE_FALSE(sim.has_value());
  CHECK(contains(sim.error().message(), "holds no Asheron's Call traffic"));

  // Empty, a folder, random bytes: dereth-sim's detection says so in one sentence.
  const fs::path empty = dir / "empty";
  std::ofstream(empty).flush();
  auto e = dereth::app::detect_input(empty);
  REQUIRE_FALSE(e.has_value());
  CHECK(e.error().message() == empty.string() + ": is empty");
  auto d = dereth::app::detect_input(dir);
  REQUIRE_FALSE(d.has_value());
  CHECK(d.error().message() == dir.string() + ": is a folder, not a file");
  const fs::path random = dir / "random.bin";
  {
    std::string bytes;
    for (int i = 0; i < 512; ++i) bytes.push_back(static_cast<char>((i * 7919 + 13) & 0xFF));
    std::ofstream(random, std::ios::binary) << bytes;
  }
  auto r = dereth::app::detect_input(random);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message() ==
        random.string() + ": is neither a capture (pcap or pcapng) nor a scenario (a text file, docs/scenario.md)");
}

TEST_CASE(
    "a capture that starts after world entry and creates no objects: one sentence in dereth replay, no "
    "chat flood on stdout, --chat prints it",
    "[app][recording][replay]") {
  const std::string example = std::string(DERETH_SHARED_DIR) + "/captures/example.pcap";
  const std::string why =
      "This capture starts after world entry and creates no objects: its 677 object messages are about objects "
      "created before it began, so nothing is simulated";
  std::string out, err;
  REQUIRE(run({"dereth", "replay", "--headless", "--fast", example}, out, err) == 0);
  // The 313 F7E0 spell lines are counted, not printed.
  CHECK_FALSE(contains(out, "chat: "));
  CHECK(contains(err, "dereth: 313 chat lines not shown (--chat prints them)\n"));
  // One sentence, and no --assume-player: the capture creates nothing for a player to see.
  CHECK(contains(err, "dereth: " + why + "\n"));
  CHECK_FALSE(contains(err, "assume-player"));
  REQUIRE(run({"dereth", "replay", "--headless", "--fast", "--chat", example}, out, err) == 0);
  std::size_t lines = 0;
  for (std::size_t at = out.find("chat: magic: "); at != std::string::npos; at = out.find("chat: magic: ", at + 1)) {
    ++lines;
  }
  CHECK(lines == 313);
  CHECK_FALSE(contains(err, "chat lines not shown"));

  // dereth-sim's run says the same sentence, and so does the QA report's why_empty.
  const dereth::test::TempDir tmp("recording-after-entry");
  dereth::app::HeadlessOptions o;
  o.input = example;
  o.report = tmp.path() / "report.json";
  auto sim = dereth::app::run_headless(o);
  REQUIRE(sim.has_value());
  CHECK(sim->why_empty == why);
  CHECK(contains(slurp(*o.report), ",\"why_empty\":\"" + why + "\",\"script_lookups\":"));
}

TEST_CASE("QaReport::why_empty suggests --assume-player only where the capture creates objects but names no player",
          "[app][recording][report]") {
  using dereth::app::QaReport;
  using dereth::sim::MessageRecord;
  using dereth::sim::Verdict;
  const auto record = [](std::uint32_t opcode, Verdict v, bool replayed = false) {
    MessageRecord r;
    r.opcode = opcode;
    r.verdict = v;
    r.replayed = replayed;
    return r;
  };
  const auto json = [](const QaReport& q) {
    std::ostringstream s;
    q.write_json(s);
    return s.str();
  };
  {  // Creates objects, never names the player: naming it helps.
    QaReport q;
    q.add_verdict(record(0xF745, Verdict::QueuedBeforePlayer));
    q.add_verdict(record(0xF748, Verdict::QueuedBeforePlayer));
    q.set_player(0, 0x50000001);
    CHECK(q.why_empty() ==
          "This capture starts after world entry: no PlayerCreate names the player, so its 2 object messages (1 "
          "CreateObject) wait for one and nothing is simulated; --assume-player 0x50000001 (the player its game "
          "events name) simulates them");
    CHECK(contains(q.why_empty(QaReport::AssumeHint::DerethSim), "; dereth-sim --assume-player 0x50000001 "));
    q.set_player(0, std::nullopt);
    CHECK(contains(q.why_empty(), "; --assume-player GUID names the player"));
  }
  {  // Creates nothing, player assumed: the sentence says so without the option.
    QaReport q;
    q.add_verdict(record(0xF746, Verdict::Applied));
    q.add_verdict(record(0xF748, Verdict::QueuedForAbsentObject));
    q.add_verdict(record(0xF748, Verdict::QueuedForAbsentObject, true));  // a replay from the queue is not counted
    q.set_player(0x50000001, 0x50000001);
    CHECK(q.why_empty() ==
          "This capture creates no objects: its 1 object message is about objects created before it began, so "
          "nothing is simulated");
    CHECK(contains(json(q), R"(,"why_empty":"This capture creates no objects)"));
  }
  {  // Objects created: not empty, and the report says null.
    QaReport q;
    q.add_verdict(record(0xF746, Verdict::Applied));
    q.add_verdict(record(0xF745, Verdict::Applied));
    q.set_player(0x50000001, std::nullopt);
    CHECK(q.why_empty().empty());
    CHECK(contains(json(q), R"(,"objects_deleted":0,"why_empty":null,"script_lookups":)"));
  }
}
