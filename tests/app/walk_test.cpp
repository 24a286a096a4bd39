// A scripted walk, as the user runs it: a scenario's `input` lines pressed by
// dereth-sim's headless loop (run_headless) and by `dereth demo --headless`
// on the virtual clock; the trace's per-tick player lines show the walk, the
// scenario server records the MoveToStates the keys sent.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dereth/app/demo.hpp"
#include "dereth/app/headless.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/demo/demo_world.hpp"

#include "demo_support.hpp"
#include "support/temp_dir.hpp"
#include "world_support.hpp"

namespace fs = std::filesystem;
using namespace dereth;
using dereth::test::demo_dats;

namespace {

// One "kind":"player" trace line, the fields the test reads.
struct PlayerLine {
  double time = 0;
  std::string cell;
  double x = 0, y = 0, z = 0;
  bool on_walkable = false;
};

double number_after(const std::string& line, const std::string& key, std::size_t& at) {
  at = line.find(key, at);
  REQUIRE(at != std::string::npos);
  at += key.size();
  return std::strtod(line.c_str() + at, nullptr);
}

std::vector<PlayerLine> player_lines(const fs::path& trace) {
  std::ifstream in(trace);
  REQUIRE(in);
  std::vector<PlayerLine> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(R"({"kind":"player")", 0) != 0) continue;
    PlayerLine p;
    std::size_t at = 0;
    p.time = number_after(line, R"("time":)", at);
    const std::size_t c = line.find(R"("cell":")") + 8;
    p.cell = line.substr(c, line.find('"', c) - c);
    at = 0;
    p.x = number_after(line, R"("position":[)", at);
    at = line.find(',', at) + 1;
    p.y = std::strtod(line.c_str() + at, nullptr);
    at = line.find(',', at) + 1;
    p.z = std::strtod(line.c_str() + at, nullptr);
    p.on_walkable = line.find(R"("on_walkable":true)") != std::string::npos;
    out.push_back(p);
  }
  return out;
}

}  // namespace

TEST_CASE("dereth-sim runs a scenario's input lines on the virtual clock: the player walks, the same every run",
          "[app][headless][walk]") {
  const dereth::test::TempDir tmp("walk-sim");
  const fs::path& dir = tmp.path();
  const fs::path scenario = dir / "walk.scenario";
  {
    std::ofstream out(scenario);
    // The player stands on the demo terrain's flat ground west of the house,
    // facing north (+y); it walks for two seconds, one second after it
    // entered the world (the LoginComplete at the end of the portal-space
    // animation, about 6.7 s after world entry, from which input lines count).
    out << "account demo password=demo\n"
           "character 0x50000001 Walker\n"
           "player setup=0x02000001 mtable=0x09000001 stable=0x20000001 pes=0x34000004 "
           "pos=0xA9B40025,100,98,14,1,0,0,0\n"
           "at 3.0 chat \"end\"\n"
           "input forward down at=1.0\n"
           "input forward up at=3.0\n";
  }
  const auto run_once = [&](const std::string& name) {
    app::HeadlessOptions o;
    o.input = scenario;
    o.portal = &demo_dats().portal;
    o.cell = &demo_dats().cell;
    o.duration = 14.0;
    o.trace = dir / name;
    auto report = app::run_headless(o);
    if (!report) FAIL(report.error().message());
    return player_lines(dir / name);
  };
  const auto lines = run_once("a.jsonl");
  REQUIRE(lines.size() > 60);
  // Standing on the ground before the key and after it.
  const PlayerLine& first = lines.front();
  const PlayerLine& last = lines.back();
  CHECK(first.on_walkable);
  CHECK(last.on_walkable);
  const double walked = std::hypot(last.x - first.x, last.y - first.y);
  // Two seconds at the walk cycle's 3.12 m/s (the terrain may tilt the path
  // a little; a frame either side of each key).
  CHECK(walked == Approx(2.0 * 3.12).margin(0.35));
  CHECK(last.y > first.y + 5.5);
  // It stood still before the key and after the release.
  std::size_t moving_ticks = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    if (std::hypot(lines[i].x - lines[i - 1].x, lines[i].y - lines[i - 1].y) > 1e-4) ++moving_ticks;
  }
  CHECK(moving_ticks == Approx(60).margin(3));
  // The same walk every run: the trace's player lines are identical.
  const auto again = run_once("b.jsonl");
  REQUIRE(again.size() == lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    CHECK(again[i].x == lines[i].x);
    CHECK(again[i].y == lines[i].y);
    CHECK(again[i].cell == lines[i].cell);
  }
}

TEST_CASE("dereth demo --headless plays the demo's scripted walk after the teleport", "[app][demo][gl][walk]") {
  app::HeadlessDemoOptions o;
  o.width = 160;
  o.height = 90;
  const dereth::test::TempDir tmp("walk-demo");
  const fs::path& dir = tmp.path();
  o.trace = dir / "demo.jsonl";
  auto demo = dereth::test::headless_demo_or_skip(o, "demo");
  if (!demo) return;
  // The timeline starts at 6.73 s (the LoginComplete of world entry); the
  // walk's keys count from there too. Run to 37 s into it, the next recall.
  constexpr double kStart = 6.7333;
  REQUIRE(demo->run_to_tick(static_cast<std::uint64_t>((kStart + 37.0) * 30.0)).has_value());
  demo.reset();  // closes the trace
  const auto lines = player_lines(dir / "demo.jsonl");
  REQUIRE(!lines.empty());
  const auto at = [&](double t) {
    const auto it = std::find_if(lines.begin(), lines.end(), [&](const PlayerLine& p) { return p.time >= kStart + t; });
    REQUIRE(it != lines.end());
    return *it;
  };
  // After the teleport (21 s) and its portal space, before the walk (29 s)
  // the player stands at its spot north-east of the lanes.
  const PlayerLine before = at(28.5);
  CHECK(before.cell == "0xA9B4001E");
  CHECK(before.x == Approx(86.0).margin(0.1));
  CHECK(before.y == Approx(142.0).margin(0.1));
  CHECK(before.on_walkable);
  // Walked and ran toward the middle of the four NPCs (60, 108), the way it
  // and the camera face, and stopped (the forward key up at 31.2 s).
  const PlayerLine stopped = at(31.7);
  const double dx = stopped.x - before.x;
  const double dy = stopped.y - before.y;
  const double walked = std::hypot(dx, dy);
  CHECK(walked > 6.0);
  CHECK(walked < 12.0);
  const double to_x = 60.0 - before.x;
  const double to_y = 108.0 - before.y;
  CHECK((dx * to_x + dy * to_y) / (walked * std::hypot(to_x, to_y)) > 0.99);
  CHECK(stopped.on_walkable);
  // The jump (32 s to 32.4 s): off the ground, then down again.
  bool airborne = false;
  for (const PlayerLine& p : lines) {
    if (p.time > kStart + 32.0 && p.time < kStart + 33.5 && !p.on_walkable) airborne = true;
  }
  CHECK(airborne);
  const PlayerLine after = at(36.5);
  CHECK(after.on_walkable);
  CHECK(std::hypot(after.x - stopped.x, after.y - stopped.y) < 0.5);
  CHECK(after.cell == "0xA9B4001E");
}
