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
    // facing north (+y); it walks for two seconds, eight seconds after
    // entering the world (after the portal-space animation and its
    // LoginComplete, about 6.7 s, have taken it out of portal space).
    out << "account demo password=demo\n"
           "character 0x50000001 Walker\n"
           "player setup=0x02000001 mtable=0x09000001 stable=0x20000001 pes=0x34000004 "
           "pos=0xA9B40025,100,98,14,1,0,0,0\n"
           "at 10.0 chat \"end\"\n"
           "input forward down at=8.0\n"
           "input forward up at=10.0\n";
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
  auto demo = app::HeadlessDemo::create(o);
  if (!demo) {
    const char* require = std::getenv("DERETH_REQUIRE_GL");
    if (require != nullptr && std::string(require) == "1") FAIL(demo.error().message());
    WARN("no headless GL here, demo not checked: " << demo.error().message());
    return;
  }
  REQUIRE((*demo)->run_to_tick(30 * 36).has_value());
  (*demo).reset();  // closes the trace
  const auto lines = player_lines(dir / "demo.jsonl");
  REQUIRE(!lines.empty());
  const auto at = [&](double t) {
    const auto it = std::find_if(lines.begin(), lines.end(), [t](const PlayerLine& p) { return p.time >= t; });
    REQUIRE(it != lines.end());
    return *it;
  };
  // After the teleport (21 s) and before the walk (22 s after world entry)
  // the player stands at the lifestone spot, north of the house.
  const PlayerLine before = at(21.8);
  CHECK(before.cell == "0xA9B40025");
  CHECK(before.on_walkable);
  // Then, in order: the house's room (the EnvCell) on its floor, out by the
  // south door, up the slope.
  std::vector<std::string> cells;
  for (const PlayerLine& p : lines) {
    if (p.time < 21.8) continue;
    if (cells.empty() || cells.back() != p.cell) cells.push_back(p.cell);
    if (p.cell == "0xA9B40100") CHECK(p.z == Approx(14.02 - 0.05).margin(1e-3));  // on the room's floor
  }
  CHECK(cells == std::vector<std::string>{"0xA9B40025", "0xA9B40100", "0xA9B40025", "0xA9B40024"});
  // Stopped at the foot of the hill's steep face (x 120), on the slope,
  // still pressing forward (released at 35 s).
  const PlayerLine stopped = at(34.5);
  const PlayerLine after = at(35.9);
  CHECK(after.x > 119.5);
  CHECK(after.x < 120.5);
  // Climbed the slope: less than before the portal-space animation was
  // ported, as the player stays Hidden (no animation time, so no root motion)
  // until its LoginComplete, about 6.7 s after the 21 s teleport, though the
  // forward key is down from 22 s.
  CHECK(after.z > before.z + 0.3);
  CHECK(after.on_walkable);
  CHECK(std::hypot(after.x - stopped.x, after.y - stopped.y) < 0.05);
}
