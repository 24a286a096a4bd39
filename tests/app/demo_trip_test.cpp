// The demo's dungeon trip (docs/scenario.md, "The demo scenario"), as
// `dereth demo --headless` plays it: the scripted walk runs into the town's
// portal, the scenario server teleports the player into the dungeon's entry
// hall through the F751 and F748 of its recalls, the player runs through the
// corridor into the great hall and into the exit portal, which sends it back
// to the town north of the seam, and it runs south across the seam.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/app/demo.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/render/image.hpp"
#include "dereth/scenario/loopback.hpp"

#include "demo_support.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace dereth;

namespace {

// The timeline starts at 6.73 s (world entry's LoginComplete); the walk's
// keys and the stream count from there.
constexpr double kStart = 6.7333;
std::uint64_t tick_at(double timeline_seconds) {
  return static_cast<std::uint64_t>((kStart + timeline_seconds) * 30.0);
}

struct PlayerLine {
  double time = 0;
  std::uint32_t cell = 0;
  double x = 0, y = 0, z = 0;
};

std::vector<PlayerLine> player_lines(const fs::path& trace) {
  std::ifstream in(trace);
  REQUIRE(in);
  std::vector<PlayerLine> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(R"({"kind":"player")", 0) != 0) continue;
    PlayerLine p;
    const std::size_t t = line.find(R"("time":)");
    const std::size_t c = line.find(R"("cell":")");
    const std::size_t at = line.find(R"("position":[)");
    REQUIRE(t != std::string::npos);
    REQUIRE(c != std::string::npos);
    REQUIRE(at != std::string::npos);
    p.time = std::strtod(line.c_str() + t + 7, nullptr) - kStart;
    p.cell = static_cast<std::uint32_t>(std::strtoul(line.c_str() + c + 8, nullptr, 16));
    char* end = nullptr;
    p.x = std::strtod(line.c_str() + at + 12, &end);
    p.y = std::strtod(end + 1, &end);
    p.z = std::strtod(end + 1, &end);
    out.push_back(p);
  }
  return out;
}

std::uint32_t block_of(std::uint32_t cell) {
  return cell >> 16;
}

}  // namespace

TEST_CASE(
    "The demo's scripted trip: the town's portal to the dungeon, through its cells, the exit portal back to "
    "the town and across a seam",
    "[app][demo][gl][dungeon]") {
  app::HeadlessDemoOptions o;
  o.width = 160;
  o.height = 90;
  const dereth::test::TempDir tmp("demo-trip");
  o.trace = tmp.path() / "demo.jsonl";
  auto demo = dereth::test::headless_demo_or_skip(o, "the dungeon trip");
  if (!demo) return;
  // Inside the dungeon's great hall, just before the exit portal: the
  // picture is the lit dungeon (stone walls and floor), not a black screen.
  REQUIRE(demo->run_to_tick(tick_at(51.5)).has_value());
  const render::Image inside = demo->picture();
  REQUIRE(demo->run_to_tick(tick_at(66.0)).has_value());
  std::vector<std::string> events;
  for (const auto& e : demo->inbox().loopback().server().events()) events.push_back(e.text);
  demo.reset();  // closes the trace

  const auto lines = player_lines(tmp.path() / "demo.jsonl");
  REQUIRE(!lines.empty());
  // The cells the player stood in after the cast, in order (each once).
  std::vector<std::uint32_t> cells;
  for (const PlayerLine& p : lines) {
    if (p.time < 35.0) continue;
    if (cells.empty() || cells.back() != p.cell) cells.push_back(p.cell);
  }
  const auto first_in = [&](std::uint32_t cell) {
    const auto it = std::ranges::find_if(lines, [&](const PlayerLine& p) { return p.time > 35.0 && p.cell == cell; });
    REQUIRE(it != lines.end());
    return *it;
  };
  INFO("cells after 35 s: " << cells.size());
  // The server saw the player walk into both portals.
  const auto logged = [&](std::string_view what) {
    return std::ranges::any_of(events, [&](const std::string& e) { return e.find(what) != std::string::npos; });
  };
  CHECK(logged("walks into portal 0x80000200"));
  CHECK(logged("walks into portal 0x80000201"));

  // Into the dungeon: placed in the entry hall where the portal sends it,
  // then through the corridor into the great hall, in that order.
  const PlayerLine arrived = first_in(demo::kDungeonEntryCell);
  CHECK(arrived.x == Approx(67.0).margin(0.05));
  CHECK(arrived.y == Approx(85.0).margin(0.05));
  CHECK(arrived.z == Approx(demo::kDungeonFloorZ).margin(0.05));
  const auto at = [&](std::uint32_t cell) { return std::ranges::find(cells, cell) - cells.begin(); };
  const auto entry = at(demo::kDungeonEntryCell);
  const auto corridor = at(demo::kDungeonRooms[1].cell);
  const auto hall = at(demo::kDungeonHallCell);
  REQUIRE(hall < static_cast<std::ptrdiff_t>(cells.size()));
  CHECK(entry < corridor);
  CHECK(corridor < hall);
  // Every dungeon line stands on the dungeon's floor.
  for (const PlayerLine& p : lines) {
    if (block_of(p.cell) == (demo::kDungeonLandBlock >> 16)) CHECK(p.z == Approx(demo::kDungeonFloorZ).margin(0.05));
  }

  // Back in the town: where the exit portal sends it, in the block north
  // of the start, then south across the seam into the start's block.
  const auto back =
      std::ranges::find_if(lines, [&](const PlayerLine& p) { return p.time > 35.0 && block_of(p.cell) == 0xA9B5; });
  REQUIRE(back != lines.end());
  CHECK(back->x == Approx(71.5).margin(0.05));
  CHECK(back->y == Approx(6.0).margin(0.05));
  CHECK(back->time > arrived.time);
  const PlayerLine& last = lines.back();
  CHECK(block_of(last.cell) == (demo::kLandBlock >> 16));
  CHECK(last.time > back->time);
  CHECK(last.y < 192.0);  // south of the seam, in the start's block

  // The picture inside: not black and not the sky; lit stone.
  REQUIRE(!inside.empty());
  double sum = 0;
  for (std::size_t i = 0; i + 3 < inside.pixels.size(); i += 4) {
    sum += (inside.pixels[i] + inside.pixels[i + 1] + inside.pixels[i + 2]) / 3.0;
  }
  const double mean = sum / (static_cast<double>(inside.pixels.size()) / 4.0);
  INFO("mean brightness inside " << mean);
  CHECK(mean > 25.0);
}
