// Golden images of the embedded demo: the demo rendered headless on Mesa's
// software OpenGL at fixed ticks, and two scenes drawn from the demo's own
// snapshots (a translucent part over terrain, a projectile's particle burst),
// compared with the PNGs in tests/golden within a tolerance. `--update-golden` rewrites them (after a deliberate
// change to what the demo shows; review the new pictures before committing).
//
// Exit status: 0 when every frame matches (or was rewritten), 1 when one
// differs (the actual frames are written to --out for inspection), 2 for bad
// arguments, 77 (ctest: skipped) when this machine has no headless OpenGL and
// DERETH_REQUIRE_GL is not 1.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <glm/geometric.hpp>

#include "dereth/app/demo.hpp"
#include "dereth/app/game_screen.hpp"
#include "dereth/app/key_map.hpp"
#include "dereth/render/camera.hpp"
#include "dereth/render/image.hpp"
#include "dereth/render/overlay.hpp"
#include "dereth/render/renderer.hpp"
#include "dereth/sim/player/gm_smart_box_ui.hpp"

namespace fs = std::filesystem;
using namespace dereth;

namespace {

constexpr int kWidth = 320;
constexpr int kHeight = 180;
// The demo's timeline starts at tick 202 (the client's LoginComplete at the
// end of world entry's portal space, 6.73 s; the scenario server starts
// playing then). Ten ticks into it: the NPCs just created, the player
// fading in (PS_UnHide); the first projectile in flight (trail); the recall
// under way with its emitter and a later projectile; Hidden (the player
// gone, SetState Hidden at 20.1 s: PS_Hidden); UnHide after the teleport
// (the player fading in at its spot north-east of the lanes, facing them,
// with the portal sparkles: PS_UnHide), then fully shown. The UnHide comes
// when the client's portal-space animation ends and sends LoginComplete
// (docs/sim.md "Portal space"): the SetState arrives at 34.42 s (tick
// 1033), 6.7 s after the teleport.
// Between Hidden and UnHide, portal space (docs/render.md "Portal space"):
// the recall's tunnel begins at tick 832 (the F751), its fade-out runs from
// about tick 972 and the world is shown again at tick 1002 (SmartBox::Show),
// fading in for 1 s: the tunnel mid-trip, half faded out, and the destination
// half faded in.
constexpr std::uint64_t kTicks[] = {212, 248, 440, 806, 900, 987, 1017, 1040, 1050};
struct PortalGolden {
  std::uint64_t tick;
  sim::TeleportAnimState state;
};
constexpr PortalGolden kPortalTicks[] = {{900, sim::TeleportAnimState::TunnelContinue},
                                         {987, sim::TeleportAnimState::TunnelFadeOut},
                                         {1017, sim::TeleportAnimState::WorldFadeIn}};
// The scenes: the world-entry snapshot with the NPCs' parts half translucent
// (a translucent part over terrain, drawn after it, farthest first); the
// first tick at which a projectile's burst emitter (0x32000020..23, the
// Explode type) holds at least kBurstParticles particles, seen from close by.
constexpr std::uint64_t kTranslucentTick = 212;
constexpr float kNpcTranslucency = 0.5F;
// The game screen: the demo at its own size, after its scripted walk has
// selected the nearest creature (33 s into the timeline, tick 1192),
// switched to magic mode (33.4 s, tick 1204) and cast the spell bar's first
// spell at it (33.8 s, tick 1216; the sandbox launches the bolt a second
// later), with the spell bar's first spell selected by NextSpell, drawn with
// the window's panels over it: the bolt in flight.
constexpr int kScreenWidth = 800;
constexpr int kScreenHeight = 450;
constexpr std::uint64_t kScreenMagicTick = 1210;
constexpr std::uint64_t kScreenTick = 1256;
constexpr float kDuskTimeOfDay = 0.77F;
constexpr float kSkyTimeOfDay = 0.68F;

// A copy of a snapshot drawn at another hour: the time of day rides in the
// snapshot (the game clock's, from the scenario server's TimeSync), so the
// copy keeps its game day and clock and changes only the hour.
sim::RenderSnapshot at_time_of_day(const sim::RenderSnapshot& snapshot, float time_of_day) {
  sim::RenderSnapshot copy = snapshot;
  if (copy.sky) {
    copy.sky->time_of_day = time_of_day;
  } else {
    copy.sky = sim::SkyTime{time_of_day, 0, 0, 0, 0.0};
  }
  return copy;
}
constexpr std::uint64_t kBurstSearchFrom = kTranslucentTick + 1;
constexpr std::uint64_t kBurstSearchTo = 600;
constexpr std::size_t kBurstParticles = 20;
// Ticks after the burst appears: its particles have flown apart and their
// translucency ramp has begun (a spark at translucency 0 fails the glow's
// ClipMap alpha test, docs/render.md "Notes on the demo world").
constexpr std::uint64_t kBurstAge = 8;
// llvmpipe is deterministic on one machine; the tolerance absorbs rounding
// differences between Mesa builds: a pixel differs when a channel moves by
// more than 24, and at most 0.5% of the pixels may differ.
constexpr int kChannelTolerance = 24;
constexpr double kMaxDifferingFraction = 0.005;

void usage() {
  std::puts(
      "usage: dereth_golden [--update-golden] [--golden-dir DIR] [--out DIR]\n"
      "Renders the embedded demo headless at ticks 212, 248, 440, 806, the recall's portal space (900, 987, 1017),\n"
      "1040 and 1050 (320x180), the tick-212 snapshot with the NPCs\n"
      "half translucent and at dusk, and the first projectile burst seen from close by, and compares each frame with "
      "its PNG\n"
      "in DIR. --update-golden writes the frames there instead. --out DIR receives the actual frames of a\n"
      "failed comparison.");
}

bool is_burst(const sim::EmitterSnapshot& e) {
  return e.emitter_info_id >= 0x32000020U && e.emitter_info_id <= 0x32000023U && e.particles.size() >= kBurstParticles;
}

struct GoldenFrame {
  std::string name;
  render::Image image;
};

// Compares (or with `update` writes) one frame; returns whether it passed.
bool check_frame(const GoldenFrame& frame, const fs::path& golden_dir, const fs::path& out_dir, bool update) {
  const fs::path golden = golden_dir / frame.name;
  if (update) {
    if (auto written = render::write_png(golden, frame.image); !written) {
      std::fprintf(stderr, "dereth_golden: %s\n", written.error().message().c_str());
      return false;
    }
    std::printf("wrote %s\n", golden.string().c_str());
    return true;
  }
  auto expected = render::read_png(golden);
  if (!expected) {
    std::fprintf(stderr, "dereth_golden: %s (run with --update-golden to create it)\n",
                 expected.error().message().c_str());
    return false;
  }
  const render::ImageDiff diff = render::compare_images(frame.image, *expected, kChannelTolerance);
  const bool ok = diff.same_size && diff.differing_fraction <= kMaxDifferingFraction;
  std::printf("%s: %s (%zu pixels differ by more than %d, %.3f%%; largest channel delta %d)\n", frame.name.c_str(),
              ok ? "matches" : "DIFFERS", diff.differing_pixels, kChannelTolerance, diff.differing_fraction * 100.0,
              diff.max_channel_delta);
  if (!ok && !out_dir.empty()) {
    std::error_code ec;
    fs::create_directories(out_dir, ec);
    const fs::path path = out_dir / frame.name;
    if (render::write_png(path, frame.image)) std::printf("  actual frame: %s\n", path.string().c_str());
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  bool update = false;
  fs::path golden_dir = DERETH_GOLDEN_DIR;
  fs::path out_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--update-golden") {
      update = true;
    } else if (a == "--golden-dir" && i + 1 < argc) {
      golden_dir = argv[++i];
    } else if (a == "--out" && i + 1 < argc) {
      out_dir = argv[++i];
    } else if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else {
      std::fprintf(stderr, "dereth_golden: unknown argument %s\n", argv[i]);
      usage();
      return 2;
    }
  }
  app::HeadlessDemoOptions options;
  options.width = kWidth;
  options.height = kHeight;
  auto demo = app::HeadlessDemo::create(options);
  if (!demo) {
    const char* require = std::getenv("DERETH_REQUIRE_GL");
    std::fprintf(stderr, "dereth_golden: no headless demo here: %s\n", demo.error().message().c_str());
    return require != nullptr && std::string_view(require) == "1" ? 1 : 77;
  }
  std::vector<GoldenFrame> frames;
  for (const std::uint64_t tick : kTicks) {
    if (auto ran = (*demo)->run_to_tick(tick); !ran) {
      std::fprintf(stderr, "dereth_golden: tick %llu: %s\n", static_cast<unsigned long long>(tick),
                   ran.error().message().c_str());
      return 1;
    }
    // The portal-space ticks are in the state (and mid-fade) their pictures are meant to show.
    for (const PortalGolden& p : kPortalTicks) {
      if (p.tick != tick) continue;
      const sim::PortalSpace& portal = (*demo)->snapshot().portal;
      const bool mid_fade = portal.fade > 0.25F && portal.fade < 0.75F;
      if (portal.state != p.state || (p.state != sim::TeleportAnimState::TunnelContinue && !mid_fade)) {
        std::fprintf(stderr, "dereth_golden: tick %llu is %s at fade %.3f, not %s%s: the demo's timing changed\n",
                     static_cast<unsigned long long>(tick), sim::to_string(portal.state),
                     static_cast<double>(portal.fade), sim::to_string(p.state),
                     p.state == sim::TeleportAnimState::TunnelContinue ? "" : " mid-fade");
        return 1;
      }
    }
    frames.push_back({fmt::format("demo_tick_{:04}.png", tick), (*demo)->picture()});
  }

  // A translucent part over terrain: a fresh demo's world-entry snapshot with
  // every NPC part half translucent, and an opaque copy of the first NPC a
  // little behind it, seen from close by with the ground behind them.
  auto entry = app::HeadlessDemo::create(options);
  if (!entry) {
    std::fprintf(stderr, "dereth_golden: %s\n", entry.error().message().c_str());
    return 1;
  }
  if (auto ran = (*entry)->run_to_tick(kTranslucentTick); !ran) {
    std::fprintf(stderr, "dereth_golden: %s\n", ran.error().message().c_str());
    return 1;
  }
  sim::RenderSnapshot translucent = (*entry)->snapshot();
  std::size_t made_translucent = 0;
  for (auto& object : translucent.objects) {
    if (object.is_player) continue;
    for (auto& part : object.parts) {
      part.translucency = kNpcTranslucency;
      ++made_translucent;
    }
  }
  const auto npc = std::find_if(translucent.objects.begin(), translucent.objects.end(),
                                [](const sim::ObjectSnapshot& o) { return !o.is_player && !o.parts.empty(); });
  if (made_translucent == 0 || npc == translucent.objects.end()) {
    std::fprintf(stderr, "dereth_golden: no NPC parts at tick %llu to make translucent\n",
                 static_cast<unsigned long long>(kTranslucentTick));
    return 1;
  }
  const glm::vec3 npc_at = npc->root.origin;
  sim::ObjectSnapshot opaque_copy = *npc;
  opaque_copy.id = static_cast<sim::LocalId>(0xFFFF);
  opaque_copy.guid = 0x7FFFFFFFU;
  const glm::vec3 behind(0.9F, 1.4F, 0.0F);
  opaque_copy.root.origin += behind;
  for (auto& part : opaque_copy.parts) {
    part.frame.origin += behind;
    part.translucency = 0.0F;
  }
  translucent.objects.push_back(opaque_copy);
  const render::Camera npc_view =
      render::Camera::look_at(npc_at + glm::vec3(-1.2F, -3.2F, 1.5F), npc_at + glm::vec3(0.0F, 0.0F, 0.8F));
  render::Renderer& entry_renderer = (*entry)->presenter().renderer();
  if (auto drawn = entry_renderer.render(translucent, npc_view, kWidth, kHeight); !drawn) {
    std::fprintf(stderr, "dereth_golden: %s\n", drawn.error().message().c_str());
    return 1;
  }
  frames.push_back(
      {fmt::format("scene_translucent_npcs_tick_{:04}.png", kTranslucentTick), entry_renderer.read_pixels()});

  // Dusk: the world-entry snapshot drawn with the demo's camera at time of
  // day 0.77, where the demo's SkyDesc gives a low western sun, a warm
  // ambient and fog from about 90 m (SkyDesc::GetLighting, GetWorldFog).
  auto dusk_picture = (*entry)->draw(at_time_of_day((*entry)->snapshot(), kDuskTimeOfDay));
  if (!dusk_picture) {
    std::fprintf(stderr, "dereth_golden: %s\n", dusk_picture.error().message().c_str());
    return 1;
  }
  frames.push_back({fmt::format("scene_dusk_tick_{:04}.png", kTranslucentTick), *dusk_picture});

  // The sky: the world-entry snapshot at time of day 0.68 seen from above the
  // player looking south-west and up, at the demo Region's sky objects: the
  // dome, the afternoon sun 19 degrees up and the cloud layer over it
  // (SkyDesc::GetSky, GameSky::Draw), above the far terrain.
  {
    const sim::RenderSnapshot snapshot = at_time_of_day((*entry)->snapshot(), kSkyTimeOfDay);
    glm::vec3 eye(0.0F);
    for (const auto& o : snapshot.objects) {
      if (o.is_player) eye = o.root.origin + glm::vec3(0.0F, 0.0F, 2.0F);
    }
    const render::Camera sky_view = render::Camera::look_at(eye, eye + glm::vec3(-6.9F, -6.4F, 2.2F));
    auto drawn = entry_renderer.render(snapshot, sky_view, kWidth, kHeight);
    if (!drawn) {
      std::fprintf(stderr, "dereth_golden: %s\n", drawn.error().message().c_str());
      return 1;
    }
    frames.push_back({fmt::format("scene_sky_tick_{:04}.png", kTranslucentTick), entry_renderer.read_pixels()});
  }

  // Scenery: the world-entry snapshot from above the road in the block south
  // of the start (block-local (96, 186), 16 m above the player's height),
  // looking south-east down the road: the pines, bushes and boulders
  // CLandBlock::get_land_scenes placed on the grass beside it, none on the road.
  {
    glm::vec3 player(0.0F);
    for (const auto& o : (*entry)->snapshot().objects) {
      if (o.is_player) player = o.root.origin;
    }
    // The player stands at (70, 128) of the start block; the block south of it is 192 m down y.
    const glm::vec3 eye = player + glm::vec3(96.0F - 70.0F, 186.0F - 192.0F - 128.0F, 16.0F);
    const render::Camera road_view = render::Camera::look_at(eye, eye + glm::vec3(8.0F, -30.0F, -9.0F));
    auto drawn = entry_renderer.render((*entry)->snapshot(), road_view, kWidth, kHeight);
    if (!drawn) {
      std::fprintf(stderr, "dereth_golden: %s\n", drawn.error().message().c_str());
      return 1;
    }
    frames.push_back({fmt::format("scene_scenery_tick_{:04}.png", kTranslucentTick), entry_renderer.read_pixels()});
  }

  // A particle burst: the first projectile explosion, found by running the
  // world-entry demo on, seen from 2.2 m south of its particles' centre and a
  // little above.
  std::optional<std::uint64_t> burst_tick;
  glm::vec3 burst_centre(0.0F);
  for (std::uint64_t tick = kBurstSearchFrom; tick <= kBurstSearchTo && !burst_tick; ++tick) {
    if (auto ran = (*entry)->run_to_tick(tick); !ran) {
      std::fprintf(stderr, "dereth_golden: tick %llu: %s\n", static_cast<unsigned long long>(tick),
                   ran.error().message().c_str());
      return 1;
    }
    for (const auto& e : (*entry)->snapshot().emitters) {
      if (!is_burst(e)) continue;
      glm::vec3 sum(0.0F);
      for (const auto& p : e.particles) sum += p.position;
      burst_centre = sum / static_cast<float>(e.particles.size());
      burst_tick = tick;
      break;
    }
  }
  if (!burst_tick) {
    std::fprintf(stderr, "dereth_golden: no burst of %zu particles between ticks %llu and %llu\n", kBurstParticles,
                 static_cast<unsigned long long>(kBurstSearchFrom), static_cast<unsigned long long>(kBurstSearchTo));
    return 1;
  }
  *burst_tick += kBurstAge;
  if (auto ran = (*entry)->run_to_tick(*burst_tick); !ran) {
    std::fprintf(stderr, "dereth_golden: %s\n", ran.error().message().c_str());
    return 1;
  }
  const auto burst = std::find_if(
      (*entry)->snapshot().emitters.begin(), (*entry)->snapshot().emitters.end(), [](const sim::EmitterSnapshot& e) {
        return e.emitter_info_id >= 0x32000020U && e.emitter_info_id <= 0x32000023U && !e.particles.empty();
      });
  if (burst == (*entry)->snapshot().emitters.end()) {
    std::fprintf(stderr, "dereth_golden: the burst is gone %llu ticks later\n",
                 static_cast<unsigned long long>(kBurstAge));
    return 1;
  }
  burst_centre = glm::vec3(0.0F);
  for (const auto& p : burst->particles) burst_centre += p.position;
  burst_centre /= static_cast<float>(burst->particles.size());
  const render::Camera close_by = render::Camera::look_at(burst_centre + glm::vec3(0.0F, -2.2F, 0.6F), burst_centre);
  render::Renderer& renderer = (*entry)->presenter().renderer();
  if (auto drawn = renderer.render((*entry)->snapshot(), close_by, kWidth, kHeight); !drawn) {
    std::fprintf(stderr, "dereth_golden: %s\n", drawn.error().message().c_str());
    return 1;
  }
  std::printf("burst at tick %llu, %zu particles drawn\n", static_cast<unsigned long long>(*burst_tick),
              renderer.stats().particles_drawn);
  frames.push_back({fmt::format("scene_burst_tick_{:04}.png", *burst_tick), renderer.read_pixels()});

  // The game screen with every panel: the radar, the selected creature's
  // name (and health once answered), the vitals, the combat mode, the spell
  // bar and the spellbook, drawn by the window's overlay over the demo's frame.
  app::HeadlessDemoOptions screen_options;
  screen_options.width = kScreenWidth;
  screen_options.height = kScreenHeight;
  auto screen = app::HeadlessDemo::create(screen_options);
  if (!screen) {
    std::fprintf(stderr, "dereth_golden: %s\n", screen.error().message().c_str());
    return 1;
  }
  if (auto ran = (*screen)->run_to_tick(kScreenMagicTick); !ran) {
    std::fprintf(stderr, "dereth_golden: %s\n", ran.error().message().c_str());
    return 1;
  }
  (*screen)->controls().key_action(app::KeyAction::NextSpell, true);
  (*screen)->controls().key_action(app::KeyAction::Spellbook, true);
  if (auto ran = (*screen)->run_to_tick(kScreenTick); !ran) {
    std::fprintf(stderr, "dereth_golden: %s\n", ran.error().message().c_str());
    return 1;
  }
  render::OverlayFrame panels;
  const auto spellbook = app::add_game_screen(panels, (*screen)->presenter(), true);
  if (!panels.radar || !panels.target || !panels.vitals || !panels.combat || !panels.spell_bar || !spellbook) {
    std::fprintf(stderr,
                 "dereth_golden: at tick %llu the screen lacks a panel (radar %d, target %d, vitals %d, combat %d, "
                 "spell bar %d, spellbook %d): the demo changed\n",
                 static_cast<unsigned long long>(kScreenTick), panels.radar.has_value(), panels.target.has_value(),
                 panels.vitals.has_value(), panels.combat.has_value(), panels.spell_bar.has_value(),
                 spellbook.has_value());
    return 1;
  }
  render::Renderer& screen_renderer = (*screen)->presenter().renderer();
  auto overlay = render::Overlay::create();
  if (!overlay) {
    std::fprintf(stderr, "dereth_golden: %s\n", overlay.error().message().c_str());
    return 1;
  }
  screen_renderer.bind_framebuffer();
  if (auto drawn = (*overlay)->draw(panels, kScreenWidth, kScreenHeight); !drawn) {
    std::fprintf(stderr, "dereth_golden: %s\n", drawn.error().message().c_str());
    return 1;
  }
  frames.push_back({fmt::format("screen_tick_{:04}.png", kScreenTick), screen_renderer.read_pixels()});

  int failures = 0;
  for (const GoldenFrame& frame : frames) {
    if (!check_frame(frame, golden_dir, out_dir, update)) ++failures;
  }
  return failures == 0 ? 0 : 1;
}
