// Portal space on screen in the headless demo (docs/render.md "Portal
// space"): a picture of every tick of the demo's recall teleport, from before
// the F751 to after the world is back.
//
// What a frame shows is decided from the picture, not only from the snapshot
// it was drawn from:
// - "portal space alone": the picture is, byte for byte, what the same
//   renderer draws from a snapshot holding nothing but that frame's portal
//   space (no objects, no landscape): no pixel of any world is in it.
// - "a world": the renderer drew it as a world (its stats), and while the
//   world's fade-in is above 0.1 the picture is not the tunnel over nothing
//   (at the bottom of the fade both are black).
// - "the world at X": a world with the camera on the snapshot's player, the
//   player and the camera's target within 3 m of X across the ground (the
//   old location and the destination are 21 m apart).
// The tunnel starts at the first tick whose snapshot shows the portal-space
// viewport (gmSmartBoxUI's BeginTeleportAnimation, the F751's frame); the
// gate opens at the first tick after it without the viewport (SmartBox::Show,
// the end of the tunnel's fade-out). Before the tunnel every frame is the world at the
// old location; from the tunnel to the gate every frame is portal space
// alone, though the destination arrives (UpdatePosition) inside that span;
// from the gate on every frame is the world at the destination.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "dereth/app/demo.hpp"
#include "dereth/render/image.hpp"

#include "demo_support.hpp"

using namespace dereth;
using TAS = sim::TeleportAnimState;

namespace {

constexpr int kWidth = 160;
constexpr int kHeight = 90;
// The recall's teleport: the F751 comes at about 27.7 s (tick 831), the
// LoginComplete that ends its animation at about 34.3 s (tick 1030).
constexpr std::uint64_t kFirstTick = 800;
constexpr std::uint64_t kLastTick = 1040;
// The recall moves the player 21 m (from (70, 128) to (86, 142) of its
// landblock) and it stands at each place through the span: "at X" is within
// 3 m of X across the ground (the camera's target is above the feet).
constexpr float kSamePlace = 3.0F;

std::unique_ptr<app::HeadlessDemo> make_demo() {
  app::HeadlessDemoOptions o;
  o.width = kWidth;
  o.height = kHeight;
  return dereth::test::headless_demo_or_skip(o, "portal space");
}

std::optional<glm::vec3> player_at(const sim::RenderSnapshot& s) {
  for (const auto& o : s.objects) {
    if (o.is_player) return o.root.origin;
  }
  return std::nullopt;
}

struct Frame {
  std::uint64_t tick = 0;
  sim::PortalSpace portal;
  glm::vec3 player{0.0F};
  glm::vec3 camera_target{0.0F};
  bool drawn_as_portal = false;  // the renderer's stats
  bool tunnel_alone = false;     // the picture is the tunnel over nothing at its time and fade
};

}  // namespace

TEST_CASE(
    "The demo's recall on screen: no frame shows the destination before SmartBox::Show, none the old "
    "location after the tunnel starts",
    "[app][demo][gl][portal]") {
  auto demo = make_demo();
  if (!demo) return;
  std::vector<Frame> frames;
  for (std::uint64_t tick = kFirstTick; tick <= kLastTick; ++tick) {
    REQUIRE(demo->run_to_tick(tick).has_value());
    const sim::RenderSnapshot& snap = demo->snapshot();
    REQUIRE(snap.tick == tick);
    Frame f;
    f.tick = tick;
    f.portal = snap.portal;
    const auto player = player_at(snap);
    REQUIRE(player.has_value());
    f.player = *player;
    f.camera_target = demo->presenter().rig().camera().target;
    f.drawn_as_portal = demo->presenter().renderer().stats().portal_space;
    const render::Image picture = demo->picture();
    // The tunnel over nothing at this frame's time and fade (shown even where
    // this frame's viewport is not).
    sim::RenderSnapshot nothing_but_portal;
    nothing_but_portal.tick = snap.tick;
    nothing_but_portal.time = snap.time;
    nothing_but_portal.portal = snap.portal;
    nothing_but_portal.portal.visible = true;
    auto tunnel = demo->draw(nothing_but_portal);
    REQUIRE(tunnel.has_value());
    f.tunnel_alone = picture == *tunnel;
    frames.push_back(f);
  }
  // The span: the tunnel's first frame and the gate's.
  std::optional<std::size_t> start;
  std::optional<std::size_t> gate;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    if (!start && frames[i].portal.visible) start = i;
    if (start && !gate && !frames[i].portal.visible) gate = i;
  }
  REQUIRE(start.has_value());
  REQUIRE(gate.has_value());
  REQUIRE(*start > 0);
  const glm::vec3 old_place = frames.front().player;
  const glm::vec3 destination = frames.back().player;
  const auto across = [](glm::vec3 a, glm::vec3 b) { return glm::distance(glm::vec2(a), glm::vec2(b)); };
  REQUIRE(across(old_place, destination) > 5.0F * kSamePlace);
  const auto near = [&](glm::vec3 a, glm::vec3 b) { return across(a, b) < kSamePlace; };
  // The destination arrived while the tunnel was up: a renderer that drew
  // the world there would have shown it before the gate.
  bool destination_in_tunnel = false;
  for (std::size_t i = *start; i < *gate; ++i) destination_in_tunnel |= near(frames[i].player, destination);
  CHECK(destination_in_tunnel);
  // The tunnel's states in order: Tunnel, TunnelContinue, TunnelFadeOut, and WorldFadeIn at the gate.
  CHECK(frames[*start].portal.state == TAS::Tunnel);
  CHECK(frames[*gate].portal.state == TAS::WorldFadeIn);

  for (std::size_t i = 0; i < frames.size(); ++i) {
    const Frame& f = frames[i];
    INFO("tick " << f.tick << " (" << to_string(f.portal.state) << ", fade " << f.portal.fade << ")");
    if (i < *start) {
      // The world at the old location.
      CHECK_FALSE(f.drawn_as_portal);
      CHECK_FALSE(f.tunnel_alone);
      CHECK(f.portal.fade == 1.0F);
      CHECK(near(f.player, old_place));
      CHECK(near(f.camera_target, old_place));
    } else if (i < *gate) {
      // Portal space alone: neither the old location nor the destination.
      CHECK(f.drawn_as_portal);
      CHECK(f.tunnel_alone);
    } else {
      // The world at the destination (fading in from black, then whole: at
      // the bottom of the fade world and tunnel are both black).
      CHECK_FALSE(f.drawn_as_portal);
      if (f.portal.fade >= 0.1F) CHECK_FALSE(f.tunnel_alone);
      CHECK(near(f.player, destination));
      CHECK(near(f.camera_target, destination));
    }
  }
  // The fades as gmSmartBoxUI times them: the tunnel's 1 s fade-out before
  // the gate, the world's 1 s fade-in after it (30 ticks a second).
  std::size_t fading_out = 0;
  std::size_t fading_in = 0;
  for (const Frame& f : frames) {
    fading_out += f.portal.state == TAS::TunnelFadeOut ? 1U : 0U;
    fading_in += f.portal.state == TAS::WorldFadeIn ? 1U : 0U;
  }
  CHECK(fading_out >= 29);
  CHECK(fading_out <= 31);
  CHECK(fading_in >= 29);
  CHECK(fading_in <= 31);
  std::printf("portal space: tunnel from tick %llu, gate at tick %llu\n",
              static_cast<unsigned long long>(frames[*start].tick),
              static_cast<unsigned long long>(frames[*gate].tick));
}

TEST_CASE("The demo's loop report times the recall's portal space from its F751 to SmartBox::Show (--stats prints it)",
          "[app][demo][portal][stats]") {
  auto demo = make_demo();
  if (!demo) return;
  REQUIRE(demo->run_to_tick(kLastTick).has_value());
  const auto& trips = demo->report().portal_trips;
  const auto recall = std::ranges::find_if(trips, [](const app::PortalTrip& t) { return t.began > 20.0; });
  REQUIRE(recall != trips.end());
  INFO("began " << recall->began << " s, " << recall->sim_seconds << " s, " << recall->frames << " frames");
  // The F751 at about 27.7 s; the world shown a second before the
  // LoginComplete at about 34.3 s (WorldFadeIn lasts one second).
  CHECK(recall->began == Approx(27.7).margin(0.1));
  CHECK(recall->sim_seconds == Approx(34.3 - 1.0 - 27.7).margin(0.2));
  CHECK(recall->frames > 100);  // one frame a tick on the virtual clock
  CHECK(recall->wall_seconds > 0.0);
}
