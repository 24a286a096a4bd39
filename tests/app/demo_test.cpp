// The embedded demo headless: the demo renders on Mesa's software OpenGL, projectiles leave visible trails,
// the picture follows the scene, and the null audio backend hears the
// world's sound events in order. `dereth replay` of the example capture.
#include "dereth/app/demo.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "dereth/app/cli.hpp"
#include "dereth/app/controls.hpp"
#include "dereth/audio/null_backend.hpp"
#include "dereth/render/image.hpp"

#include "demo_support.hpp"
#include "run_cli.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace dereth;

namespace {

constexpr int kWidth = 320;
constexpr int kHeight = 180;
// The tick at which the demo's timeline starts: the client's LoginComplete
// at the end of world entry's portal-space animation (6.73 s on the virtual
// clock), when the scenario server starts playing.
constexpr std::uint64_t kTimelineStart = 202;

// The headless demo, or a skip message when this machine has no EGL
// (DERETH_REQUIRE_GL=1 makes that a failure, as the render tests do).
std::unique_ptr<app::HeadlessDemo> make_demo() {
  app::HeadlessDemoOptions o;
  o.width = kWidth;
  o.height = kHeight;
  return dereth::test::headless_demo_or_skip(o, "demo");
}

// Pixels whose colour differs by more than `threshold` in any channel.
std::size_t differing_pixels(const render::Image& a, const render::Image& b, int threshold = 24) {
  std::size_t n = 0;
  for (std::size_t i = 0; i + 3 < a.pixels.size() && i + 3 < b.pixels.size(); i += 4) {
    for (std::size_t c = 0; c < 3; ++c) {
      if (std::abs(static_cast<int>(a.pixels[i + c]) - static_cast<int>(b.pixels[i + c])) > threshold) {
        ++n;
        break;
      }
    }
  }
  return n;
}

using dereth::app::test::run;

}  // namespace

TEST_CASE("The demo's projectile leaves a trail visible where the camera sees the projectile", "[app][demo][gl]") {
  auto demo = make_demo();
  if (!demo) return;
  // The first projectile launches 1 s after the timeline starts (the
  // LoginComplete at the end of world entry's portal space, tick 202) and
  // flies for 1 s.
  REQUIRE(demo->run_to_tick(kTimelineStart + 46).has_value());
  const sim::RenderSnapshot& snap = demo->snapshot();
  const sim::ObjectSnapshot* bolt = nullptr;
  for (const auto& o : snap.objects) {
    if (o.guid == 0x80000101u) bolt = &o;
  }
  REQUIRE(bolt != nullptr);  // the Flame Bolt is in flight
  std::size_t trail_particles = 0;
  for (const auto& e : snap.emitters) {
    if (e.owner == bolt->id) trail_particles += e.particles.size();
  }
  REQUIRE(trail_particles > 0);

  // The same snapshot without the bolt's emitters: the difference is the trail.
  auto with_trail = demo->draw(snap);
  REQUIRE(with_trail.has_value());
  sim::RenderSnapshot without = snap;
  std::erase_if(without.emitters, [&](const sim::EmitterSnapshot& e) { return e.owner == bolt->id; });
  auto no_trail = demo->draw(without);
  REQUIRE(no_trail.has_value());
  REQUIRE(differing_pixels(*with_trail, *no_trail, 8) > 0);

  // The known region: around where the camera projects the bolt's particles.
  const render::Camera& camera = demo->presenter().rig().camera();
  std::size_t inside = 0;
  std::size_t changed_inside = 0;
  for (const auto& e : snap.emitters) {
    if (e.owner != bolt->id) continue;
    for (const auto& p : e.particles) {
      const auto px = camera.project(p.position, kWidth, kHeight);
      if (!px) continue;
      ++inside;
      for (int dy = -2; dy <= 2; ++dy) {
        for (int dx = -2; dx <= 2; ++dx) {
          const int x = static_cast<int>(px->x) + dx;
          const int y = static_cast<int>(px->y) + dy;
          if (x < 0 || y < 0 || x >= kWidth || y >= kHeight) continue;
          const std::size_t i = (static_cast<std::size_t>(y) * kWidth + static_cast<std::size_t>(x)) * 4;
          bool differs = false;
          for (std::size_t c = 0; c < 3; ++c) {
            differs = differs || std::abs(static_cast<int>(with_trail->pixels[i + c]) -
                                          static_cast<int>(no_trail->pixels[i + c])) > 8;
          }
          if (differs) ++changed_inside;
        }
      }
    }
  }
  CHECK(inside > 0);          // the trail is in view
  CHECK(changed_inside > 0);  // and drawn where it is
}

// The world-space direction the left arm (part 2: it hangs from the
// shoulder, its mesh along -z) points: z -1 hanging, above 0 raised.
float left_arm_z(const sim::RenderSnapshot& snap) {
  for (const auto& o : snap.objects) {
    if (!o.is_player || o.parts.size() < 3) continue;
    return (o.parts[2].frame.orientation() * glm::vec3(0.0F, 0.0F, -1.0F)).z;
  }
  return -2.0F;  // no player
}

TEST_CASE("The demo's first recall animates: its timeline starts at the LoginComplete, so the arms rise and fall",
          "[app][demo][gl][recall]") {
  auto demo = make_demo();
  if (!demo) return;
  // The recall comes 5 s into the timeline (tick 352) and its animation
  // lasts 15.06 s; the SetState Hidden at 20.1 s (tick 805). Before the
  // timeline waited for the LoginComplete the recall arrived in world
  // entry's portal space and the arms never moved.
  float highest = -2.0F;
  std::uint64_t raised_at = 0;
  float before = 0.0F;
  float after = 0.0F;
  for (std::uint64_t tick = kTimelineStart + 60; tick <= kTimelineStart + 595; tick += 5) {
    REQUIRE(demo->run_to_tick(tick).has_value());
    const float z = left_arm_z(demo->snapshot());
    if (tick == kTimelineStart + 60) before = z;
    if (z > highest) {
      highest = z;
      raised_at = tick;
    }
    after = z;
  }
  INFO("highest " << highest << " at tick " << raised_at);
  CHECK(before < -0.95F);  // hanging before the recall
  CHECK(highest > 0.5F);   // raised above the shoulder
  CHECK(raised_at > kTimelineStart + 150);
  CHECK(raised_at < kTimelineStart + 600);
  CHECK(after < -0.9F);  // and down again before the player is hidden
}

TEST_CASE("The demo keeps the NPCs' exchange in view until the dungeon trip: both lanes project inside the picture",
          "[app][demo][gl][camera]") {
  auto demo = make_demo();
  if (!demo) return;
  // The loop's first half (32 s) from the timeline's start and the cast
  // after it, sampled every half second: the first view, the recall, the
  // teleport to the spot north-east of the lanes and the walk toward them.
  // Then the player turns away to the town's portal and goes to the dungeon
  // (tests/app/demo_trip_test.cpp), where the town is not drawn.
  std::size_t samples = 0;
  std::size_t lanes_in_view = 0;
  std::size_t npcs_in_view = 0;
  const auto inside = [](const std::optional<glm::vec2>& p) {
    return p && p->x >= 0.0F && p->y >= 0.0F && p->x < static_cast<float>(kWidth) && p->y < static_cast<float>(kHeight);
  };
  for (std::uint64_t tick = kTimelineStart + 15; tick <= kTimelineStart + 36 * 30; tick += 15) {
    REQUIRE(demo->run_to_tick(tick).has_value());
    const sim::RenderSnapshot& snap = demo->snapshot();
    std::vector<glm::vec3> npcs;
    for (std::uint32_t guid = 0x80000010; guid <= 0x80000013; ++guid) {
      for (const auto& o : snap.objects) {
        if (o.guid == guid) npcs.push_back(o.root.origin + glm::vec3(0.0F, 0.0F, 1.0F));
      }
    }
    REQUIRE(npcs.size() == 4);
    const render::Camera& camera = demo->presenter().rig().camera();
    ++samples;
    std::size_t seen = 0;
    for (const auto& n : npcs) seen += inside(camera.project(n, kWidth, kHeight)) ? 1U : 0U;
    if (seen >= 3) ++npcs_in_view;
    // The middles of the far lane (A-B) and the near one (C-D), where the bolts cross.
    const glm::vec3 far_lane = (npcs[0] + npcs[1]) * 0.5F;
    const glm::vec3 near_lane = (npcs[2] + npcs[3]) * 0.5F;
    if (inside(camera.project(far_lane, kWidth, kHeight)) && inside(camera.project(near_lane, kWidth, kHeight))) {
      ++lanes_in_view;
    }
  }
  INFO(samples << " samples: both lanes in view in " << lanes_in_view << ", three NPCs or more in " << npcs_in_view);
  CHECK(lanes_in_view * 10 >= samples * 9);
  CHECK(npcs_in_view * 10 >= samples * 9);
}

TEST_CASE("The demo's scripted walk gives way to the player's own keys", "[app][demo][gl][walk]") {
  auto demo = make_demo();
  if (!demo) return;
  // The walk's first key (forward) goes down 29 s into the timeline, its
  // run key at 29.8 s: between them the player presses and releases a turn.
  REQUIRE(demo->run_to_tick(kTimelineStart + 29 * 30 + 10).has_value());
  app::Controls& controls = demo->controls();
  REQUIRE(controls.inputs_pressed() == 1);
  REQUIRE(demo->presenter().player_input != nullptr);
  demo->presenter().player_input->on_key_action(app::KeyAction::TurnRight, true);
  demo->presenter().player_input->on_key_action(app::KeyAction::TurnRight, false);
  CHECK(controls.taken_over());
  // The script is over: forward released, nothing more pressed; the player stands.
  REQUIRE(demo->run_to_tick(kTimelineStart + 31 * 30).has_value());
  const sim::PhysicsObj* player = demo->world().box().player();
  REQUIRE(player != nullptr);
  const glm::vec3 a = player->position().frame.origin;
  REQUIRE(demo->run_to_tick(kTimelineStart + 33 * 30).has_value());
  const glm::vec3 b = player->position().frame.origin;
  CHECK(controls.inputs_pressed() == 1);
  CHECK(glm::length(b - a) < 0.05F);
}

TEST_CASE("The demo's picture changes when the scene does, and a replay of the same ticks is identical",
          "[app][demo][gl]") {
  auto demo = make_demo();
  if (!demo) return;
  REQUIRE(demo->run_to_tick(kTimelineStart + 43).has_value());
  const render::Image early = demo->picture();
  // 8 s into the timeline the player is deep in the recall animation (its
  // pose and the portal emitter) and other projectiles fly.
  REQUIRE(demo->run_to_tick(kTimelineStart + 238).has_value());
  const render::Image later = demo->picture();
  CHECK(differing_pixels(early, later) > 100);

  auto again = make_demo();
  REQUIRE(again);
  REQUIRE(again->run_to_tick(kTimelineStart + 43).has_value());
  CHECK(differing_pixels(early, again->picture(), 0) == 0);
}

TEST_CASE("The null audio backend receives the demo's sound events in order", "[app][demo][audio][gl]") {
  auto demo = make_demo();
  if (!demo) return;
  std::vector<sim::SoundEvent> published;
  double previous = -1.0;
  for (std::uint64_t tick = 1; tick <= kTimelineStart + 238; ++tick) {
    REQUIRE(demo->run_to_tick(tick).has_value());
    const auto& snapshot = demo->snapshot();
    // Each event is published once, in the snapshot of the tick it happened
    // in: none older than the previous snapshot (publishing reads; the world
    // forgets a tick's sounds once it has published them).
    for (const sim::SoundEvent& e : snapshot.sounds) {
      INFO("tick " << tick << " sound at " << e.time.count());
      CHECK(e.time.count() > previous);
      CHECK(e.time.count() <= snapshot.time.count());
    }
    previous = snapshot.time.count();
    published.insert(published.end(), snapshot.sounds.begin(), snapshot.sounds.end());
  }
  REQUIRE(published.size() >= 2);  // the UnHide entry and the projectiles' launches and explosions
  const auto& backend = dynamic_cast<const audio::NullBackend&>(demo->audio().backend());
  const auto& records = backend.records();
  REQUIRE(records.size() == published.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    INFO("sound event " << i);
    CHECK(records[i].request.owner == published[i].owner);
    CHECK(records[i].request.wave_id == published[i].wave_id);
    CHECK(records[i].request.sound_type == published[i].sound_type);
    CHECK(records[i].request.time.count() == published[i].time.count());
  }
}

TEST_CASE("dereth replay example.pcap --headless --fast --digest exits 0 and reports its message counts",
          "[app][replay]") {
  const test::TempDir tmp("replay-digest");
  const fs::path digest = tmp / "replay-digest.jsonl";
  std::string out, err;
  const int rc = run({"dereth", "replay", std::string(DERETH_SHARED_DIR) + "/captures/example.pcap", "--headless",
                      "--fast", "--digest", digest.string()},
                     out, err);
  INFO(err);
  REQUIRE(rc == 0);
  CHECK(out.find("replay: messages=1985 handled=677 not_object=1308 decode_errors=0") != std::string::npos);
  CHECK(out.find("capture: packets=632 fragments=2111 messages_s2c=1985 messages_c2s=103 framing_errors=0") !=
        std::string::npos);
  std::ifstream in(digest);
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(R"({"tick":)", 0) == 0) ++lines;
  }
  CHECK(lines >= 1500);  // 50 s of capture at 30 Hz
}

TEST_CASE("dereth's command line: help, version and bad arguments", "[app][cli]") {
  std::string out, err;
  CHECK(run({"dereth", "--help"}, out, err) == 0);
  CHECK(out.find("demo") != std::string::npos);
  CHECK(out.find("replay") != std::string::npos);
  CHECK(out.find("play") != std::string::npos);
  CHECK(run({"dereth", "replay", "--help"}, out, err) == 0);
  CHECK(out.find("--screenshot-every") != std::string::npos);
  CHECK(run({"dereth", "--version"}, out, err) == 0);
  CHECK(out.rfind("dereth ", 0) == 0);
  CHECK(run({"dereth", "--bogus"}, out, err) == 2);
  CHECK(run({"dereth", "demo", "--ticks", "0"}, out, err) == 2);
  CHECK(run({"dereth", "replay"}, out, err) == 2);
  CHECK(err.find("FILE is required") != std::string::npos);
  CHECK(run({"dereth", "replay", "x.pcap", "--fast", "--speed", "2"}, out, err) == 2);
  CHECK(run({"dereth", "--log-level", "loud"}, out, err) == 2);
  CHECK(err.find("--log-level") != std::string::npos);
  CHECK(run({"dereth", "--set", "no_such_key=1", "demo", "--headless"}, out, err) == 2);
  CHECK(run({"dereth", "replay", "/nonexistent/capture.pcap", "--headless", "--fast"}, out, err) == 1);
  CHECK(err.find("cannot be opened") != std::string::npos);
  CHECK(run({"dereth", "replay", "x.pcap", "--screenshot-every", "10"}, out, err) == 2);
  CHECK(err.find("--out") != std::string::npos);
}

TEST_CASE("dereth --save-config writes the layered settings atomically and keeps the user's comments",
          "[app][cli][config]") {
  const test::TempDir tmp("save-config");
  const fs::path path = tmp / "dereth.conf";
  std::string out, err;
  REQUIRE(run({"dereth", "--config", path.string(), "--set", "window_width=800", "--save-config"}, out, err) == 0);
  CHECK(out.find("settings written to") != std::string::npos);
  {
    std::ifstream in(path);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    CHECK(text.find("window_width = 800") != std::string::npos);
  }
  // A comment the user adds survives the next save; the file layer is read.
  {
    std::ofstream add(path, std::ios::app);
    add << "# my note\n";
  }
  REQUIRE(run({"dereth", "--config", path.string(), "--set", "vsync=false", "--save-config"}, out, err) == 0);
  std::ifstream in(path);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  CHECK(text.find("# my note") != std::string::npos);
  CHECK(text.find("window_width = 800") != std::string::npos);
  CHECK(text.find("vsync = false") != std::string::npos);
}

TEST_CASE(
    "The demo's objects stand on its terrain by collision: the landscape is loaded and the player is in a land cell",
    "[app][demo][gl][collision]") {
  auto demo = make_demo();
  if (!demo) return;
  REQUIRE(demo->run_to_tick(60).has_value());
  const sim::Landscape* land = demo->world().landscape();
  REQUIRE(land != nullptr);
  CHECK(land->block_count() >= 1);
  const sim::PhysicsObj* player = demo->world().box().player();
  REQUIRE(player != nullptr);
  REQUIRE(player->cell() != nullptr);
  CHECK(player->cell()->id() == player->position().objcell_id);
  CHECK(!player->shadow_objects().empty());
}

TEST_CASE("dereth demo --record-frames writes every K'th tick's frame at --size, the last one the end's picture",
          "[app][demo][gl][cli]") {
  if (!make_demo()) return;  // no headless GL here (make_demo says so)
  const test::TempDir tmp("record-frames");
  const fs::path dir = tmp / "frames";
  const fs::path shot = tmp / "end.png";
  std::string out, err;
  REQUIRE(run({"dereth", "demo", "--headless", "--ticks", "30", "--record-frames", dir.string(), "--record-every", "10",
               "--size", "400x240", "--screenshot", shot.string()},
              out, err) == 0);
  CHECK(out.find("3 frames (400x240, every 10 ticks) are in") != std::string::npos);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"tick_000010.png", "tick_000020.png", "tick_000030.png"});
  for (const std::string& name : names) {
    auto image = render::read_png(dir / name);
    REQUIRE(image.has_value());
    CHECK(image->width == 400);
    CHECK(image->height == 240);
  }
  // The frame recorded at tick 30 is the picture the run ends on.
  auto last = render::read_png(dir / "tick_000030.png");
  auto end = render::read_png(shot);
  REQUIRE(last.has_value());
  REQUIRE(end.has_value());
  CHECK(last->pixels == end->pixels);
  // The world moves between recorded frames.
  auto first = render::read_png(dir / "tick_000010.png");
  REQUIRE(first.has_value());
  CHECK(differing_pixels(*first, *last) > 0);
}

TEST_CASE("dereth demo refuses a malformed --size and --record-frames without --headless", "[app][demo][cli]") {
  std::string out, err;
  for (const char* bad : {"1280", "1280x", "x720", "63x64", "64x63", "1280x720x3", "12a0x720", "99999x720"}) {
    CAPTURE(bad);
    CHECK(run({"dereth", "demo", "--headless", "--size", bad}, out, err) == 2);
    CHECK(err.find("--size") != std::string::npos);
  }
  CHECK(run({"dereth", "demo", "--record-frames", "frames"}, out, err) == 2);
  CHECK(err.find("--headless") != std::string::npos);
  CHECK(run({"dereth", "demo", "--headless", "--record-frames", "frames", "--record-every", "0"}, out, err) == 2);
  CHECK(run({"dereth", "demo", "--help"}, out, err) == 0);
  CHECK(out.find("--record-frames") != std::string::npos);
  CHECK(out.find("--size") != std::string::npos);
  // On the real clock (a window) CPhysics::UseTime ticks once a frame with the
  // elapsed time: --help does not promise 30 ticks a second there.
  CHECK(out.find("(30 a second;") == std::string::npos);
  CHECK(out.find("in a window at most one a frame and 30 a second") != std::string::npos);
}

TEST_CASE("dereth demo --size takes the golden images' 320x180 and sizes down to 64x64, as --help says",
          "[app][demo][cli]") {
  std::string out, err;
  REQUIRE(run({"dereth", "demo", "--help"}, out, err) == 0);
  CHECK(out.find("64..16384 by 64..16384") != std::string::npos);
  if (!make_demo()) return;  // no headless GL here (make_demo says so)
  const test::TempDir tmp("demo-size");
  for (const auto& [text, w, h] : {std::tuple{"320x180", 320, 180}, std::tuple{"64x64", 64, 64}}) {
    CAPTURE(text);
    const fs::path shot = tmp / (std::string(text) + ".png");
    REQUIRE(run({"dereth", "demo", "--headless", "--ticks", "3", "--size", text, "--screenshot", shot.string()}, out,
                err) == 0);
    auto image = render::read_png(shot);
    REQUIRE(image.has_value());
    CHECK(image->width == w);
    CHECK(image->height == h);
  }
}

TEST_CASE("dereth demo in a window (SDL offscreen) plays the scenario's scripted walk on the real clock",
          "[app][e2e][live][window][walk]") {
  // The walk's keys go down 29 s into the timeline (which starts with the
  // LoginComplete about 6.7 s after world entry): a run of 39 s of real time.
  const test::TempDir tmp("window-walk");
  const fs::path trace = tmp / "trace.jsonl";
  ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
  std::string out, err;
  const int rc = run({"dereth", "demo", "--ticks", "1170", "--set", "window_width=320", "--set", "window_height=200",
                      "--set", "audio=false", "--set", "hud=false", "--trace", trace.string()},
                     out, err);
  ::unsetenv("SDL_VIDEODRIVER");
  INFO(out << err);
  REQUIRE(err.find("running the demo headless") == std::string::npos);  // the window path
  REQUIRE(rc == 0);
  // The player's positions after the teleport to its spot at (86, 142).
  std::ifstream in(trace);
  std::vector<std::pair<double, double>> at_spot;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(R"({"kind":"player")", 0) != 0) continue;
    const std::size_t p = line.find(R"("position":[)");
    REQUIRE(p != std::string::npos);
    char* end = nullptr;
    const double x = std::strtod(line.c_str() + p + 12, &end);
    const double y = std::strtod(end + 1, nullptr);
    if (std::hypot(x - 86.0, y - 142.0) < 20.0) at_spot.emplace_back(x, y);
  }
  REQUIRE(!at_spot.empty());
  // It walked toward the NPCs, as the headless demo's walk does (8.4 m).
  const auto [x, y] = at_spot.back();
  INFO("last position (" << x << ", " << y << ")");
  CHECK(std::hypot(x - 86.0, y - 142.0) > 5.0);
  CHECK(x < 84.0);
  CHECK(y < 139.0);
}

TEST_CASE("percentile takes the nearest rank: median, p90, p99 and the longest of frame times", "[app][stats]") {
  std::vector<float> ms;
  for (int i = 10; i >= 1; --i) ms.push_back(static_cast<float>(i));  // unsorted: 10 .. 1
  CHECK(app::percentile(ms, 0.5) == 5.0);
  CHECK(app::percentile(ms, 0.9) == 9.0);
  CHECK(app::percentile(ms, 0.99) == 10.0);
  CHECK(app::percentile(ms, 1.0) == 10.0);
  CHECK(app::percentile(ms, 0.0) == 1.0);
  CHECK(app::percentile({}, 0.5) == 0.0);
  CHECK(app::percentile({7.0f}, 0.99) == 7.0);
}

namespace {
// The number after `label` in `text` (NaN when absent).
double number_after(const std::string& text, const std::string& label) {
  const std::size_t at = text.find(label);
  if (at == std::string::npos) return std::nan("");
  return std::strtod(text.c_str() + at + label.size(), nullptr);
}
}  // namespace

TEST_CASE("dereth demo --stats in a window (SDL offscreen) prints the frame times' median, p90, p99 and longest",
          "[app][e2e][live][window][stats]") {
  ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
  std::string out, err;
  const test::TempDir tmp("stats-window");
  const auto shot = tmp.path() / "shot.png";
  const int rc = run({"dereth", "demo", "--stats", "--ticks", "45", "--set", "window_width=320", "--set",
                      "window_height=200", "--set", "audio=false", "--set", "hud=false", "--screenshot", shot.string()},
                     out, err);
  ::unsetenv("SDL_VIDEODRIVER");
  CHECK(std::filesystem::exists(shot));
  INFO(out << err);
  REQUIRE(err.find("running the demo headless") == std::string::npos);  // the window path
  REQUIRE(rc == 0);
  // One line each for the intervals and the work, then the longest frame's phases.
  const std::size_t pacing = out.find("frame pacing over ");
  REQUIRE(pacing != std::string::npos);
  const std::string line = out.substr(pacing, out.find('\n', pacing) - pacing);
  const double frames = number_after(line, "frame pacing over ");
  const double median = number_after(line, "median ");
  const double p90 = number_after(line, "p90 ");
  const double p99 = number_after(line, "p99 ");
  const double longest = number_after(line, "longest ");
  CHECK(frames >= 45.0);  // at most one tick a frame
  CHECK(median > 0.0);
  CHECK(p90 >= median);
  CHECK(p99 >= p90);
  CHECK(longest >= p99);
  CHECK(out.find("frame work (without the pacing sleep): median ") != std::string::npos);
  const std::size_t at = out.find("longest frame ");
  REQUIRE(at != std::string::npos);
  const std::string phases = out.substr(at, out.find('\n', at) - at);
  for (const char* phase : {"input ", "inbox ", "tick ", "snapshot ", "audio ", "present ", "render loads ", "prepare ",
                            "submit ", "finish ", "screenshot ", "outbound ", "sleep "}) {
    CHECK(phases.find(phase) != std::string::npos);
  }
  // The phases add up to the longest frame's interval (rounded to 0.01 ms each).
  CHECK(number_after(phases, "(") == Approx(longest).margin(0.02));
}

TEST_CASE(
    "dereth demo --stats in a window (SDL offscreen): the renderer's GPU caches take their bounds from the config",
    "[app][e2e][live][window][stats]") {
  const auto run_with = [](std::vector<std::string> sets) {
    ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
    std::vector<std::string> args = {"dereth",           "demo",  "--stats",           "--ticks", "30",         "--set",
                                     "window_width=320", "--set", "window_height=200", "--set",   "audio=false"};
    for (auto& s : sets) {
      args.push_back("--set");
      args.push_back(std::move(s));
    }
    std::string out, err;
    const int rc = run(args, out, err);
    ::unsetenv("SDL_VIDEODRIVER");
    INFO(out << err);
    REQUIRE(err.find("running the demo headless") == std::string::npos);  // the window path
    REQUIRE(rc == 0);
    const std::size_t at = out.find("GPU caches: ");
    REQUIRE(at != std::string::npos);
    return out.substr(at, out.find('\n', at) - at);
  };
  const std::string defaults = run_with({});
  INFO(defaults);
  CHECK(defaults.find("of 512.0 MiB (mesh_cache_mb)") != std::string::npos);
  CHECK(defaults.find("of 64.0 MiB (terrain_cache_mb)") != std::string::npos);
  const std::string small = run_with({"mesh_cache_mb=2", "terrain_cache_mb=4"});
  INFO(small);
  CHECK(small.find("of 2.0 MiB (mesh_cache_mb)") != std::string::npos);
  CHECK(small.find("of 4.0 MiB (terrain_cache_mb)") != std::string::npos);
  // The terrain surfaces stayed within their bound, and something was drawn.
  const double peak = number_after(small, "terrain surfaces ");
  CHECK(peak > 0.0);
  CHECK(peak <= 4.0);
  CHECK(number_after(small, "meshes and textures ") > 0.0);
  CHECK(run_with({"mesh_cache_mb=0"}).find("kept of no bound (mesh_cache_mb)") != std::string::npos);
}
