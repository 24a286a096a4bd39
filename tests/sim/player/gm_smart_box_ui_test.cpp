// gmSmartBoxUI's portal-space teleport animation (seed portal-completion
// section 2; the binary's gmSmartBoxUI.c, UIGlobals.c, SmartBox.c): the
// state sequence, its durations on a virtual clock, the odd cases, and when
// LoginComplete is due.
#include "dereth/sim/player/gm_smart_box_ui.hpp"

#include <catch2/catch.hpp>

#include <vector>

#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
using TAS = TeleportAnimState;
using TI = protocol::TimestampIndex;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;
// Frames of 1/64 s: every frame time is exact in a double.
constexpr double kStep = 1.0 / 64.0;

// A SmartBox world and the UI, one frame at a time as World::step runs them:
// the frame's messages first, then gmSmartBoxUI::UseTime, then SmartBox::UseTime.
struct Rig {
  World w;
  GmSmartBoxUi ui{7};
  int frame = 0;
  std::vector<double> login_completes;  // the times LoginComplete was due

  double now() const { return frame * kStep; }
  // Runs one frame; returns the state after the UI's UseTime.
  TAS step() {
    w.clock.set(core::Seconds{now()});
    if (ui.use_time(w.box, now())) login_completes.push_back(now());
    w.box.use_time();
    const TAS s = ui.state();
    ++frame;
    return s;
  }
  // Runs frames until the state differs from `s` (at most `limit` seconds); the time it changed.
  double run_while(TAS s, double limit = 20.0) {
    const double end = now() + limit;
    while (now() < end) {
      const double t = now();
      if (step() != s) return t;
    }
    FAIL("the state never left " << to_string(s));
    return -1.0;
  }
  void enter_world() {
    w.start(kPlayer);
    auto me = create(kPlayer, 1);
    set_stamp(me, TI::Teleport, 0x0010);
    w.handle(me);
  }
  protocol::UpdatePosition destination(std::uint16_t teleport_ts, std::uint16_t position_ts) {
    protocol::UpdatePosition u;
    u.guid = kPlayer;
    u.position.cell_id = kCell;
    u.position.origin = {50.0F, 60.0F, 30.0F};
    u.position.qw = 1.0F;
    u.position.qx = 0.0F;
    u.position.qy = 0.0F;
    u.position.qz = 0.0F;
    u.position.instance_ts = 1;
    u.position.position_ts = position_ts;
    u.position.teleport_ts = teleport_ts;
    return u;
  }
};

// The first frame time at or after `t` (frames are k/64 s).
double frame_at_or_after(double t) {
  double k = 0;
  while (k * kStep < t) k += 1;
  return k * kStep;
}

// The TunnelContinue exit the modelled portal loop gives: the first frame at
// least 2 s after `end` whose frame number is 68..76 (or 5 s after `end`).
double expected_continue_exit(const GmSmartBoxUi& ui, double end) {
  for (double t = frame_at_or_after(end + 2.0);; t += kStep) {
    if (t - end >= 5.0) return t;
    const std::uint32_t f = ui.portal_frame(t);
    if (f >= 68 && f <= 76) return t;
  }
}

}  // namespace

TEST_CASE("UIGlobals::GetAnimLevel 0x004EE540 eases 0 to 1024 through UIGlobals::Init 0x004EE470's table",
          "[retail][sim]") {
  CHECK(get_anim_level(0.0F) == 0);
  CHECK(get_anim_level(-3.0F) == 0);
  CHECK(get_anim_level(1.0F) == 1024);
  CHECK(get_anim_level(7.0F) == 1024);
  // Index trunc(f * 99): 0.5 reads entry 49, the running sum over the first
  // half of a symmetric sine: exactly half of 1024.
  CHECK(get_anim_level(0.5F) == 512);
  CHECK(get_anim_level(0.25F) < 256);  // eased: slow at the start
  // Monotonic and eased: slow at the ends, fast in the middle.
  int last = -1;
  for (int i = 0; i <= 99; ++i) {
    const int level = get_anim_level(static_cast<float>(i) / 99.0F);
    CHECK(level >= last);
    last = level;
  }
  CHECK(get_anim_level(0.1F) - get_anim_level(0.0F) < get_anim_level(0.55F) - get_anim_level(0.45F));
}

TEST_CASE("SmartBox::teleport_occured 0x00451C40 reports a completed teleport once", "[retail][sim]") {
  World w;
  w.start(kPlayer);
  w.handle(create(kPlayer, 1));
  CHECK(w.box.teleport_in_progress());
  CHECK_FALSE(w.box.teleport_occured());
  w.box.use_time();  // SmartBox::UseTime completes it
  CHECK_FALSE(w.box.teleport_in_progress());
  CHECK(w.box.teleport_occured());
  CHECK_FALSE(w.box.teleport_occured());  // asking clears it
}

TEST_CASE("gmSmartBoxUI::BeginTeleportAnimation 0x004D6300 sets the state and its start time", "[retail][sim]") {
  GmSmartBoxUi ui;
  CHECK(ui.state() == TAS::Off);
  ui.begin_teleport_animation(TAS::Tunnel, 3.25);
  CHECK(ui.state() == TAS::Tunnel);
  CHECK(ui.transition_start_time() == 3.25);
  CHECK(ui.view_distance() == 1.0);
  // Begin again while running restarts the state and its time.
  ui.begin_teleport_animation(TAS::WorldFadeOut, 4.0);
  CHECK(ui.state() == TAS::WorldFadeOut);
  CHECK(ui.transition_start_time() == 4.0);
}

TEST_CASE("gmSmartBoxUI::EndTeleportAnimation 0x004D65A0 goes to TunnelContinue only while running", "[retail][sim]") {
  GmSmartBoxUi ui;
  ui.end_teleport_animation(1.0);
  CHECK(ui.state() == TAS::Off);  // nothing running: nothing starts
  CHECK(ui.transition_start_time() == 0.0);
  ui.begin_teleport_animation(TAS::Tunnel, 2.0);
  ui.end_teleport_animation(2.5);
  CHECK(ui.state() == TAS::TunnelContinue);
  CHECK(ui.transition_start_time() == 2.5);
  CHECK_FALSE(ui.view_distance_overridden());
}

TEST_CASE(
    "gmSmartBoxUI::UseTime 0x004D6E30 world entry: tunnel, continue 2-5 s, fade out 1 s, fade in 1 s, "
    "then LoginComplete (gmSmartBoxUI::BeginTeleportAnimation 0x004D6300, gmSmartBoxUI::EndTeleportAnimation "
    "0x004D65A0)",
    "[retail][sim]") {
  Rig r;
  r.enter_world();
  REQUIRE(r.w.box.teleport_in_progress());
  // The first frame sees the player in portal space: Begin(TAS_TUNNEL).
  CHECK(r.step() == TAS::Tunnel);
  CHECK(r.ui.teleport_in_progress());
  CHECK(r.ui.portal_space_visible());
  CHECK(r.ui.portal_notices() == 1);
  // SmartBox::UseTime completed the teleport in that frame; the next frame ends the tunnel.
  CHECK(r.step() == TAS::TunnelContinue);
  const double end = kStep;
  CHECK(r.ui.transition_start_time() == end);
  const double fade_out = r.run_while(TAS::TunnelContinue);
  CHECK(fade_out == expected_continue_exit(r.ui, end));
  CHECK(fade_out - end >= 2.0);
  CHECK(fade_out - end < 5.0);
  const std::uint32_t exit_frame = r.ui.portal_frame(fade_out);
  CHECK(exit_frame >= 68);
  CHECK(exit_frame <= 76);
  // Tunnel fade out: exactly 1 s (the frames are 1/64 s, so it ends on the second).
  const double fade_in = r.run_while(TAS::TunnelFadeOut);
  CHECK(fade_in == fade_out + 1.0);
  CHECK_FALSE(r.ui.portal_space_visible());
  CHECK(r.ui.view_distance() == Approx(0.001).margin(1e-6));  // the world starts fogged in
  CHECK(r.login_completes.empty());
  const double done = r.run_while(TAS::WorldFadeIn);
  CHECK(done == fade_in + 1.0);
  REQUIRE(r.login_completes.size() == 1);
  CHECK(r.login_completes[0] == done);
  CHECK_FALSE(r.ui.teleport_in_progress());
  CHECK(r.ui.view_distance() == 1.0);
  CHECK_FALSE(r.w.box.has_been_teleported());  // teleport_occured consumed it: no second LoginComplete
  for (int i = 0; i < 300; ++i) CHECK(r.step() == TAS::Off);
  CHECK(r.login_completes.size() == 1);
  CHECK(r.ui.login_completes() == 1);
}

TEST_CASE("gmSmartBoxUI::UseTime 0x004D6E30 the fades ease the view distance over 1 s", "[retail][sim]") {
  Rig r;
  r.enter_world();
  r.step();
  r.step();
  const double fade_out = r.run_while(TAS::TunnelContinue);
  // fade_out's frame ran with fraction 0: the whole view.
  CHECK(r.ui.view_distance() == 1.0);
  while (r.now() <= fade_out + 0.5) r.step();
  // The frame at +0.5 s: level(0.5) of the way from 1 to 0.001.
  const double level = get_anim_level(0.5F) * 0.0009765625;
  CHECK(r.ui.view_distance() == Approx(static_cast<float>(level * (0.001 - 1.0) + 1.0)));
  const double fade_in = r.run_while(TAS::TunnelFadeOut);
  while (r.now() <= fade_in + 0.5) r.step();
  CHECK(r.ui.view_distance() == Approx(static_cast<float>(level * (1.0 - 0.001) + 0.001)));
}

TEST_CASE(
    "gmSmartBoxUI::UseTime 0x004D6E30 F751 then the destination: the tunnel lasts until the SmartBox completes "
    "(gmSmartBoxUI::BeginTeleportAnimation 0x004D6300, gmSmartBoxUI::EndTeleportAnimation 0x004D65A0, "
    "SmartBox::HandlePlayerTeleport 0x00452150)",
    "[retail][sim]") {
  Rig r;
  r.enter_world();
  r.step();
  r.run_while(TAS::Tunnel);
  r.run_while(TAS::TunnelContinue);
  r.run_while(TAS::TunnelFadeOut);
  r.run_while(TAS::WorldFadeIn);
  REQUIRE(r.login_completes.size() == 1);

  SECTION("the destination arrives 10 s later") {
    REQUIRE(r.w.handle(protocol::PlayerTeleport{0x0011}).verdict == Verdict::Applied);
    const double begin = r.now();
    CHECK(r.step() == TAS::Tunnel);
    CHECK(r.ui.transition_start_time() == begin);
    while (r.now() < begin + 10.0) CHECK(r.step() == TAS::Tunnel);
    r.w.handle(r.destination(0x0011, 2));
    CHECK_FALSE(r.w.box.waiting_for_teleport());
    CHECK(r.step() == TAS::Tunnel);  // SmartBox::UseTime completes after the UI's look
    const double end = r.now();
    CHECK(r.step() == TAS::TunnelContinue);
    CHECK(r.ui.transition_start_time() == end);
    const double fade_out = r.run_while(TAS::TunnelContinue);
    CHECK(fade_out == expected_continue_exit(r.ui, end));
    const double fade_in = r.run_while(TAS::TunnelFadeOut);
    CHECK(fade_in == fade_out + 1.0);
    const double done = r.run_while(TAS::WorldFadeIn);
    CHECK(done == fade_in + 1.0);
    REQUIRE(r.login_completes.size() == 2);
    CHECK(r.login_completes[1] == done);
  }
  SECTION("the F751 and its destination arrive in the same frame: still one tunnel frame, then the rest") {
    r.w.handle(protocol::PlayerTeleport{0x0011});
    r.w.handle(r.destination(0x0011, 2));
    const double begin = r.now();
    CHECK(r.step() == TAS::Tunnel);
    CHECK(r.step() == TAS::TunnelContinue);
    CHECK(r.ui.transition_start_time() == begin + kStep);
    const double fade_out = r.run_while(TAS::TunnelContinue);
    CHECK(fade_out - (begin + kStep) >= 2.0);
    r.run_while(TAS::TunnelFadeOut);
    r.run_while(TAS::WorldFadeIn);
    CHECK(r.login_completes.size() == 2);
  }
  SECTION("the destination during the tunnel's first 2 s does not shorten the 2 s continue") {
    r.w.handle(protocol::PlayerTeleport{0x0011});
    r.step();
    r.step();
    r.w.handle(r.destination(0x0011, 2));
    r.step();
    const double end = r.now();
    CHECK(r.step() == TAS::TunnelContinue);
    const double fade_out = r.run_while(TAS::TunnelContinue);
    CHECK(fade_out - end >= 2.0);
    CHECK(fade_out == expected_continue_exit(r.ui, end));
  }
}

TEST_CASE(
    "gmSmartBoxUI::UseTime 0x004D6E30 a teleport arriving mid-animation waits for the running one to end "
    "(gmSmartBoxUI::BeginTeleportAnimation 0x004D6300)",
    "[retail][sim]") {
  Rig r;
  r.enter_world();
  r.step();
  r.step();
  REQUIRE(r.ui.state() == TAS::TunnelContinue);
  // A new F751 while the first animation runs: the UI's teleportInProgress is
  // still set, so it sees no change and does not begin again.
  r.w.handle(protocol::PlayerTeleport{0x0011});
  REQUIRE(r.w.box.teleport_in_progress());
  r.run_while(TAS::TunnelContinue);
  r.run_while(TAS::TunnelFadeOut);
  const double done = r.run_while(TAS::WorldFadeIn);
  // The first animation ends and sends its LoginComplete though the new
  // teleport is still waiting for its destination.
  REQUIRE(r.login_completes.size() == 1);
  CHECK(r.login_completes[0] == done);
  // The next frame sees the difference and begins the tunnel again.
  const double begin = r.now();
  CHECK(r.step() == TAS::Tunnel);
  CHECK(r.ui.transition_start_time() == begin);
  while (r.now() < begin + 1.0) CHECK(r.step() == TAS::Tunnel);
  r.w.handle(r.destination(0x0011, 2));
  r.step();
  CHECK(r.step() == TAS::TunnelContinue);
  r.run_while(TAS::TunnelContinue);
  r.run_while(TAS::TunnelFadeOut);
  r.run_while(TAS::WorldFadeIn);
  CHECK(r.login_completes.size() == 2);
}

TEST_CASE(
    "gmSmartBoxUI::UseTime 0x004D6E30 a teleport completed before the UI saw it sends LoginComplete at once "
    "(SmartBox::teleport_occured 0x00451C40)",
    "[retail][sim]") {
  Rig r;
  r.enter_world();
  r.w.box.use_time();  // SmartBox::UseTime completes it before any UI frame
  REQUIRE(r.w.box.has_been_teleported());
  CHECK(r.step() == TAS::Off);
  REQUIRE(r.login_completes.size() == 1);
  CHECK(r.login_completes[0] == 0.0);
  CHECK_FALSE(r.ui.portal_space_visible());
  CHECK(r.step() == TAS::Off);
  CHECK(r.login_completes.size() == 1);
}

TEST_CASE("gmSmartBoxUI::UseTime 0x004D6E30 the tunnel's rotation draws RandDouble 0x006843D0 from the seeded source",
          "[retail][sim]") {
  auto angles = [](std::uint32_t seed) {
    Rig r;
    r.ui = GmSmartBoxUi{seed};
    r.enter_world();
    std::vector<double> out;
    r.step();
    for (int i = 0; i < 64 * 4; ++i) {
      r.step();
      out.push_back(r.ui.rotation_angle());
    }
    CHECK(r.ui.portal_notices() >= 3);  // a new rotation every 0.6 to 1.8 s
    return out;
  };
  const auto a = angles(7);
  CHECK(a == angles(7));
  CHECK(a != angles(8));
  for (double angle : a) {
    CHECK(angle >= 0.0);
    CHECK(angle <= 360.0);
  }
}
