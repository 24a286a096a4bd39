// The client's LoginComplete comes at the end of the portal-space animation
// (gmSmartBoxUI::UseTime 0x004D6E30, sim::GmSmartBoxUi), by virtual time:
// the World runs the animation, Controls sends the action, and the scenario
// server (over the in-process loopback, the real protocol) takes the player
// out of portal space only then.
#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <vector>

#include "dereth/app/controls.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/loopback_inbox.hpp"
#include "dereth/app/world.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/scenario/demo_scenario.hpp"
#include "dereth/scenario/loopback.hpp"
#include "dereth/scenario/scenario.hpp"

using namespace dereth;
using namespace dereth::app;
using TAS = sim::TeleportAnimState;

namespace {

// One client run as the frame loop runs it (60 frames a second on the
// virtual clock), frame by frame, with the LoginCompletes Controls sends.
struct Run {
  core::ManualClock clock;
  World world{clock, nullptr};
  std::unique_ptr<LoopbackInbox> inbox;
  std::unique_ptr<FrameLoop> loop;
  std::unique_ptr<Controls> controls;
  std::vector<double> login_completes;  // the frame times they were sent
  std::optional<double> entered;        // the frame the player object arrived
  std::vector<TAS> states;              // the animation's state after each frame
  std::uint64_t frame = 0;
  const double step = core::exact_frame_step(60.0);

  explicit Run(scenario::Scenario sc) {
    auto pair = scenario::Loopback::create(std::move(sc));
    REQUIRE(pair.has_value());
    inbox = std::make_unique<LoopbackInbox>(std::move(*pair));
    loop = std::make_unique<FrameLoop>(world, *inbox, &clock, nullptr, nullptr, LoopOptions{});
    controls = std::make_unique<Controls>(
        world, *loop, nullptr,
        [this](std::vector<std::uint8_t> m, std::uint16_t queue) {
          if (protocol::peek_wrapped_type(m) == protocol::login_opcode::LoginCompleteAction) {
            login_completes.push_back(clock.now().count());
          }
          inbox->loopback().send(m, queue);
        },
        [this] { return inbox->loopback().next_action_sequence(); });
  }
  double now() const { return static_cast<double>(frame) * step; }
  void run_frame() {
    const double t = now();
    clock.set(core::Seconds{t});
    for (const net::SessionMessage& m : inbox->drain(t)) world.handle(m.bytes);
    if (!entered && world.box().player() != nullptr) entered = t;
    world.step();
    states.push_back(world.smart_box_ui().state());
    loop->run_outbound(t);
    ++frame;
  }
  void run_until(double t) {
    while (now() < t) run_frame();
  }
  [[nodiscard]] const scenario::SessionInfo& server_session() const {
    static scenario::SessionInfo info;
    const auto sessions = inbox->loopback().server().sessions();
    REQUIRE(sessions.size() == 1);
    info = sessions.front();
    return info;
  }
  // The frame times at which the state became `s`.
  [[nodiscard]] std::vector<double> entries(TAS s) const {
    std::vector<double> out;
    for (std::size_t i = 0; i < states.size(); ++i) {
      if (states[i] == s && (i == 0 || states[i - 1] != s)) out.push_back(static_cast<double>(i) * step);
    }
    return out;
  }
};

scenario::Scenario basic() {
  auto sc = scenario::load_scenario_file(DERETH_SOURCE_DIR "/tests/scenario/data/basic.scenario");
  REQUIRE(sc.has_value());
  return std::move(*sc);
}

}  // namespace

TEST_CASE("gmSmartBoxUI::UseTime 0x004D6E30 at world entry: LoginComplete only when the animation ends",
          "[retail][app][teleport]") {
  Run r(basic());
  r.run_until(3.0);
  REQUIRE(r.entered.has_value());
  const double entry = *r.entered;
  // The entry frame begins the tunnel; the next ends it (the SmartBox
  // completed the position at once): TunnelContinue.
  REQUIRE(r.entries(TAS::Tunnel) == std::vector<double>{entry});
  REQUIRE(r.entries(TAS::TunnelContinue).size() == 1);
  CHECK(r.entries(TAS::TunnelContinue)[0] == Approx(entry + r.step));
  CHECK(r.login_completes.empty());  // nothing before the animation's end
  CHECK(r.server_session().login_completes == 0);
  r.run_until(entry + 9.0);
  // The animation's end sends the one LoginComplete of world entry; the
  // scenario server starts its stream then, so the basic scenario's
  // teleport (F751 and F748 together, 0.5 s into the stream) comes after it.
  REQUIRE(r.login_completes.size() == 1);
  const double end_continue = r.entries(TAS::TunnelFadeOut).at(0);
  CHECK(end_continue - (entry + r.step) >= 2.0);
  CHECK(end_continue - (entry + r.step) < 5.0);
  CHECK(r.entries(TAS::WorldFadeIn).at(0) == Approx(end_continue + 1.0).margin(r.step));
  CHECK(r.login_completes[0] == Approx(end_continue + 2.0).margin(r.step));
  CHECK(r.entries(TAS::Off).back() == r.login_completes[0]);
  CHECK(r.server_session().login_completes == 1);
  // That teleport's own animation ends with the second LoginComplete.
  r.run_until(r.login_completes[0] + 9.0);
  REQUIRE(r.login_completes.size() == 2);
  CHECK(r.login_completes[1] - r.login_completes[0] > 4.0);
  CHECK(r.server_session().login_completes == 2);
  CHECK_FALSE(r.server_session().teleporting);
}

TEST_CASE("gmSmartBoxUI::UseTime 0x004D6E30 the demo's recall: LoginComplete after the tunnel, not at the F748",
          "[retail][app][teleport]") {
  auto sc = scenario::demo_scenario();
  REQUIRE(sc.has_value());
  Run r(std::move(*sc));
  r.run_until(37.0);
  REQUIRE(r.entered.has_value());
  // Entry's LoginComplete, then the recall's (its F751 and F748 21 s after
  // the first, which starts the scenario's timeline).
  REQUIRE(r.login_completes.size() == 2);
  const auto tunnels = r.entries(TAS::Tunnel);
  REQUIRE(tunnels.size() == 2);
  const double teleport = tunnels[1];
  CHECK(teleport - *r.entered > 19.0);
  const double end_continue = r.entries(TAS::TunnelFadeOut).at(1);
  const double continue_start = r.entries(TAS::TunnelContinue).at(1);
  CHECK(end_continue - continue_start >= 2.0);
  CHECK(end_continue - continue_start < 5.0);
  CHECK(r.login_completes[1] == Approx(end_continue + 2.0).margin(r.step));
  CHECK(r.login_completes[1] - teleport > 4.0);
  CHECK(r.server_session().login_completes == 2);
}
