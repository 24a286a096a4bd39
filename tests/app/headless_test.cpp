// The headless run behind dereth-sim and `dereth replay --headless`:
// deterministic per-tick digests and traces over captures and scenarios, and
// untrusted capture files that never stop the run.
#include "dereth/app/headless.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "dereth/dat/dat_file.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/sim/object/verdict.hpp"

#include "run_cli.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using dereth::app::HeadlessOptions;
using dereth::app::InputKind;
using dereth::sim::Verdict;

namespace {

const fs::path kExample = fs::path(DERETH_SHARED_DIR) / "captures" / "example.pcap";
const fs::path kScenario = fs::path(DERETH_SOURCE_DIR) / "tests" / "scenario" / "data" / "basic.scenario";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> lines(const fs::path& p) {
  std::vector<std::string> out;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// The embedded demo's portal DAT, built once.
const dereth::dat::DatFile& demo_portal() {
  static const dereth::dat::DatFile portal = [] {
    auto world = dereth::demo::build_demo_world();
    REQUIRE(world.has_value());
    auto file = dereth::dat::DatFile::from_bytes(world->portal, "demo portal");
    REQUIRE(file.has_value());
    return std::move(*file);
  }();
  return portal;
}

// Files in this program's own scratch folder (removed when it exits).
fs::path temp(const std::string& name) {
  static const dereth::test::TempDir dir("headless");
  return dir / name;
}

std::uint64_t verdict_count(const dereth::app::HeadlessReport& r, Verdict v) {
  return r.verdicts[static_cast<std::size_t>(v)];
}

}  // namespace

TEST_CASE("dereth-sim's run and dereth replay --headless --fast write byte-identical digests: one loop",
          "[app][headless]") {
  HeadlessOptions o;
  o.input = kExample;
  o.digest = temp("one-loop-sim.jsonl");
  auto sim = dereth::app::run_headless(o);
  REQUIRE(sim.has_value());
  std::string out, err;
  REQUIRE(dereth::app::test::run({"dereth", "replay", "--headless", "--fast", kExample.string(), "--digest",
                                  temp("one-loop-replay.jsonl").string()},
                                 out, err) == 0);
  const std::string a = slurp(temp("one-loop-sim.jsonl"));
  const std::string b = slurp(temp("one-loop-replay.jsonl"));
  REQUIRE_FALSE(a.empty());
  CHECK(a == b);
  CHECK(out.find(" ticks=" + std::to_string(sim->ticks) + " ") != std::string::npos);
}

TEST_CASE(
    "assume_player (--assume-player) takes a capture's player without a PlayerCreate: its messages are gated, not "
    "queued",
    "[app][headless]") {
  HeadlessOptions o;
  o.input = kExample;
  o.assume_player = 0x50002B16;
  auto run = dereth::app::run_headless(o);
  REQUIRE(run.has_value());
  // Nothing waits for a player any more; the capture never creates the
  // objects it speaks of (they were created before it began), so those wait
  // for their objects (256 per GUID, the rest dropped and counted).
  CHECK(verdict_count(*run, Verdict::QueuedBeforePlayer) == 0);
  CHECK(verdict_count(*run, Verdict::QueuedForAbsentObject) + verdict_count(*run, Verdict::DroppedQueueFull) == 677);
  CHECK(verdict_count(*run, Verdict::Applied) == 1);  // the assumed PlayerCreate
  CHECK(run->note.find("starts after world entry") == std::string::npos);
}

TEST_CASE("detect_input tells captures from scenarios by the magic number", "[app][headless]") {
  CHECK(dereth::app::detect_input(kExample).value() == InputKind::Capture);
  CHECK(dereth::app::detect_input(kScenario).value() == InputKind::Scenario);
  const auto missing = dereth::app::detect_input(temp("no-such-file"));
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().message().find("cannot be opened") != std::string::npos);
}

TEST_CASE("example.pcap headless twice gives identical digests, one line per 30 Hz tick", "[app][headless]") {
  HeadlessOptions o;
  o.input = kExample;
  o.digest = temp("example-1.jsonl");
  auto first = dereth::app::run_headless(o);
  REQUIRE(first.has_value());
  o.digest = temp("example-2.jsonl");
  auto second = dereth::app::run_headless(o);
  REQUIRE(second.has_value());
  CHECK(slurp(temp("example-1.jsonl")) == slurp(temp("example-2.jsonl")));
  CHECK(first->final_digest == second->final_digest);

  // What the capture holds (tests/support pins the same numbers message by
  // message): no PlayerCreate, so every object message waits for the player.
  CHECK(first->kind == InputKind::Capture);
  CHECK(first->messages == 1985);
  CHECK(first->handled == 677);
  CHECK(first->decode_errors == 0);
  CHECK(first->client_messages == 103);
  CHECK(verdict_count(*first, Verdict::QueuedBeforePlayer) == 677);
  CHECK(first->objects_at_end == 0);
  // It says so in one sentence; it creates no objects, so naming the
  // player (--assume-player) would not help and is not suggested.
  CHECK(first->why_empty ==
        "This capture starts after world entry and creates no objects: its 677 object messages are about objects "
        "created before it began, so nothing is simulated");
  // 50.28 s of capture at 30 Hz, on frame time (the one loop's message
  // clock): the same ticks as `dereth replay --headless --fast`.
  CHECK(first->ticks == 1508);
  const auto digest = lines(temp("example-1.jsonl"));
  REQUIRE(digest.size() == first->ticks);
  CHECK(digest.front().rfind(R"({"tick":1,"time":0.0333)", 0) == 0);
  CHECK(digest.front().find(R"("objects":0,"hash":"0x)") != std::string::npos);
}

TEST_CASE("a scenario headless: login over the loopback server, objects move, digests repeat", "[app][headless]") {
  HeadlessOptions o;
  o.input = kScenario;
  o.digest = temp("scenario-1.jsonl");
  o.trace = temp("scenario-trace-1.jsonl");
  auto first = dereth::app::run_headless(o);
  REQUIRE(first.has_value());
  o.digest = temp("scenario-2.jsonl");
  o.trace = temp("scenario-trace-2.jsonl");
  auto second = dereth::app::run_headless(o);
  REQUIRE(second.has_value());
  CHECK(slurp(temp("scenario-1.jsonl")) == slurp(temp("scenario-2.jsonl")));
  CHECK(slurp(temp("scenario-trace-1.jsonl")) == slurp(temp("scenario-trace-2.jsonl")));

  CHECK(first->kind == InputKind::Scenario);
  CHECK(first->objects_at_end == 1);  // the player; the drudge was deleted
  // Without DAT data nothing resolves: the F755, the F754 and the F750 are
  // understood but play nothing (ignored); the other 11 apply, and the
  // SetState that answers the portal-space animation's LoginComplete (which
  // starts the stream: docs/sim.md "Portal space", docs/scenario.md).
  CHECK(verdict_count(*first, Verdict::Applied) == 12);
  CHECK(verdict_count(*first, Verdict::Ignored) == 3);
  CHECK(first->max_particles == 0);
  CHECK(first->sound_events == 0);

  // The digest changes while the drudge moves; the object count follows
  // the stream (player and drudge, then the player alone).
  const auto digest = lines(temp("scenario-1.jsonl"));
  REQUIRE(digest.size() > 100);
  // The drudge comes once the stream starts (the LoginComplete, after portal space).
  const auto drudge =
      std::ranges::find_if(digest, [](const std::string& l) { return l.find(R"("objects":2)") != std::string::npos; });
  REQUIRE(drudge != digest.end());
  const auto d = static_cast<std::size_t>(drudge - digest.begin()) + 3;
  REQUIRE(d + 6 < digest.size());
  CHECK(digest[d].substr(digest[d].find("hash")) != digest[d + 6].substr(digest[d + 6].find("hash")));
  CHECK(digest[d].find(R"("objects":2)") != std::string::npos);
  CHECK(digest.back().find(R"("objects":1)") != std::string::npos);

  // The trace: a message line per handled message, object lines per tick.
  const auto trace = lines(temp("scenario-trace-1.jsonl"));
  std::size_t messages = 0;
  std::size_t objects = 0;
  for (const auto& line : trace) {
    if (line.rfind(R"({"kind":"message")", 0) == 0) ++messages;
    if (line.rfind(R"({"kind":"object")", 0) == 0) ++objects;
  }
  CHECK(messages == first->handled);
  CHECK(objects >= first->ticks);
  CHECK(slurp(temp("scenario-trace-1.jsonl")).find(R"("name":"DeleteObject","guid":"0x80000010")") !=
        std::string::npos);
}

TEST_CASE("a scenario headless with the demo DAT: scripts, particles and sounds in the digest and trace",
          "[app][headless]") {
  HeadlessOptions o;
  o.input = kScenario;
  o.portal = &demo_portal();
  o.digest = temp("demo-1.jsonl");
  o.trace = temp("demo-trace-1.jsonl");
  auto first = dereth::app::run_headless(o);
  REQUIRE(first.has_value());
  o.digest = temp("demo-2.jsonl");
  o.trace = temp("demo-trace-2.jsonl");
  auto second = dereth::app::run_headless(o);
  REQUIRE(second.has_value());
  CHECK(slurp(temp("demo-1.jsonl")) == slurp(temp("demo-2.jsonl")));
  CHECK(slurp(temp("demo-trace-1.jsonl")) == slurp(temp("demo-trace-2.jsonl")));

  // The player's table 0x34000004 holds the Hidden/UnHide pair: the stream's
  // teleport hides and shows the player, each script emits and sounds.
  CHECK(first->max_particles > 0);
  CHECK(first->sound_events > 0);
  const std::string trace = slurp(temp("demo-trace-1.jsonl"));
  CHECK(trace.find(R"("kind":"script-resolved")") != std::string::npos);
  CHECK(
      trace.find(
          R"("table":"0x34000004","type":"0x00000076","intensity":1,"intensity_bits":"0x3F800000","chosen":"0x33000331"})") !=
      std::string::npos);
  CHECK(trace.find(R"("kind":"script-enqueued")") != std::string::npos);
  CHECK(trace.find(R"("kind":"hook")") != std::string::npos);
  CHECK(trace.find(R"("kind":"emitter")") != std::string::npos);
  const auto digest = lines(temp("demo-1.jsonl"));
  REQUIRE_FALSE(digest.empty());
  CHECK(digest.back().find(R"("effects":"0x)") != std::string::npos);
  // With DAT data the objects get their parts and motion tables (the object
  // factory is the World's, as in every run), so the physics digest is not
  // promised equal to a run without DAT data (root motion comes from the
  // DAT); what is promised is that each repeats.
  CHECK(first->final_digest == second->final_digest);
}

TEST_CASE("a capture cut inside a record is refused with its offset, and replayed up to it when allowed",
          "[app][headless][hostile]") {
  const std::string bytes = slurp(kExample);
  REQUIRE(bytes.size() > 4096);
  // Cut mid-record, and flip bytes in the middle of the file.
  std::string damaged = bytes.substr(0, bytes.size() / 2 + 7);
  for (std::size_t i = 2000; i < damaged.size(); i += 997) damaged[i] = static_cast<char>(damaged[i] ^ 0x5A);
  const fs::path path = temp("damaged.pcap");
  std::ofstream(path, std::ios::binary) << damaged;
  HeadlessOptions o;
  o.input = path;
  auto refused = dereth::app::run_headless(o);
  REQUIRE_FALSE(refused.has_value());
  const std::string sentence = refused.error().message();
  CHECK(sentence.find(path.string()) != std::string::npos);
  CHECK(sentence.find("at offset ") != std::string::npos);
  CHECK(sentence.find("--allow-truncated") != std::string::npos);
  o.allow_truncated = true;
  auto report = dereth::app::run_headless(o);
  REQUIRE(report.has_value());
  CHECK(report->messages > 0);
  CHECK(report->messages < 1985);
  CHECK(report->note.find("before the damage") != std::string::npos);
}

TEST_CASE("headless options are checked", "[app][headless]") {
  HeadlessOptions o;
  o.input = kExample;
  o.frame_rate = 10.0;
  auto bad_rate = dereth::app::run_headless(o);
  REQUIRE_FALSE(bad_rate.has_value());
  CHECK(bad_rate.error().message().find("frame rate") != std::string::npos);

  o.frame_rate = 60.0;
  o.digest = fs::path("/nonexistent-dir/digest.jsonl");
  auto bad_out = dereth::app::run_headless(o);
  REQUIRE_FALSE(bad_out.has_value());
  CHECK(bad_out.error().message().find("cannot be written") != std::string::npos);

  // A text file that is not a scenario: the parser's error, with its line.
  const fs::path junk = temp("junk.scenario");
  std::ofstream(junk) << "this is not a directive\n";
  o.digest.reset();
  o.input = junk;
  auto bad_scenario = dereth::app::run_headless(o);
  REQUIRE_FALSE(bad_scenario.has_value());
  CHECK(bad_scenario.error().message().find("junk.scenario:1") != std::string::npos);
}

TEST_CASE("the QA report measures dereth's prediction against each server Position, teleports aside",
          "[app][headless][report]") {
  HeadlessOptions o;
  o.input = kScenario;
  o.report = temp("qa-report.json");
  auto run = dereth::app::run_headless(o);
  REQUIRE(run.has_value());
  const std::string report = slurp(*o.report);
  // The drudge is created at x 90 and the server's Position puts it at 91.5
  // while dereth, with no DAT motion for it, kept it where it was: one sample
  // of 1.5 m. The player's teleport is a new place, not a correction: no sample.
  CHECK(report.rfind(R"({"position_error":{"all":{"count":1,"mean":1.50)", 0) == 0);
  CHECK(report.find(R"("worst":[{"guid":"0x80000010","tick":)") != std::string::npos);
  CHECK(report.find(R"("guid":"0x50000001")") == std::string::npos);
  CHECK(report.find(R"("verdicts":{"applied":12,"ignored":3})") != std::string::npos);
  CHECK(report.find(R"("objects_created":2,"objects_deleted":1)") != std::string::npos);
  CHECK(report.find(R"("decode_errors":{})") != std::string::npos);
}

TEST_CASE("the QA report lists the DAT records the world asked for and could not have, once each",
          "[app][headless][report]") {
  // basic.scenario names the drudge's MotionTable 0x09000004 and plays
  // PhysicsScript 0x3300015B on the player, neither of which the demo DAT
  // holds; the Setups (the demo's human and drudge) resolve.
  HeadlessOptions o;
  o.input = kScenario;
  o.portal = &demo_portal();
  o.report = temp("qa-assets.json");
  REQUIRE(dereth::app::run_headless(o).has_value());
  const std::string report = slurp(*o.report);
  INFO(report);
  CHECK(report.find(R"("assets_missing":[{"kind":"MotionTable","id":"0x09000004","why":"not in demo portal"},)"
                    R"({"kind":"PhysicsScript","id":"0x3300015B","why":"not in demo portal"}]})") != std::string::npos);

  // Without a DAT nothing is asked for, so nothing is missing.
  o.portal = nullptr;
  REQUIRE(dereth::app::run_headless(o).has_value());
  CHECK(slurp(*o.report).find(R"("assets_missing":[])") != std::string::npos);
}

TEST_CASE("The trace has one chat line per chat message: example.pcap's 313 spell lines", "[app][headless][chat]") {
  HeadlessOptions o;
  o.input = kExample;
  o.trace = temp("chat-trace.jsonl");
  REQUIRE(dereth::app::run_headless(o).has_value());
  std::ifstream in(*o.trace);
  std::string line;
  int chat = 0;
  while (std::getline(in, line)) {
    if (line.find(R"("kind":"chat")") == std::string::npos) continue;
    ++chat;
    CHECK(line.find(R"("channel":"magic","sender":"","text":")") != std::string::npos);
  }
  CHECK(chat == 313);
}
