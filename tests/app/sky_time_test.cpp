// The sky's time of day in the app: the world's game clock follows the
// server's TimeSync (ClientNet::HandleTimeSynch -> Timer::set_time,
// GameTime::UseTime), its sky time rides in each render snapshot and the
// renderer draws at it; without a TimeSync the renderer's fixed hour stays.
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "dereth/app/demo.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/demo/demo_world.hpp"

#include "demo_support.hpp"

using namespace dereth;

namespace {

class SilentInbox final : public net::MessageInbox {
 public:
  std::vector<net::SessionMessage> drain(double /*now*/) override { return {}; }
  [[nodiscard]] bool finished() const override { return false; }
};

// Keeps the sky time of each frame's snapshot.
class SkyRecorder final : public app::Presenter {
 public:
  core::Result<void> present(const sim::RenderSnapshot& snapshot, const app::FrameInfo& /*info*/) override {
    skies.push_back(snapshot.sky);
    return {};
  }
  core::Result<void> screenshot(const std::filesystem::path& /*path*/) override { return {}; }
  std::vector<std::optional<sim::SkyTime>> skies;
};

}  // namespace

TEST_CASE(
    "The snapshots' sky time follows TimeSync through the Region's GameTime, and is none without it "
    "(ClientNet::HandleTimeSynch 0x00543D30)",
    "[app][sky][retail]") {
  auto built = demo::build_demo_world();
  REQUIRE(built.has_value());
  auto portal = dat::DatFile::from_bytes(std::move(built->portal), "demo portal");
  REQUIRE(portal.has_value());
  core::ManualClock clock;
  app::World world(clock, &*portal);
  SilentInbox inbox;
  SkyRecorder presenter;
  app::LoopOptions lo;
  lo.virtual_clock = true;
  lo.max_ticks = 3;
  app::FrameLoop loop(world, inbox, &clock, &presenter, nullptr, lo);
  std::optional<double> server_time;
  struct Session final : app::LoopSession {
    std::optional<double>* server_time = nullptr;
    std::optional<double> time_sync() override { return *server_time; }
  } session;
  session.server_time = &server_time;
  loop.set_session(&session);
  REQUIRE(loop.run().has_value());
  REQUIRE_FALSE(presenter.skies.empty());
  for (const auto& sky : presenter.skies) CHECK_FALSE(sky.has_value());  // no TimeSync: the fixed hour

  // A TimeSync: the demo calendar's day is 7620 s and its zero is noon, so
  // server time 3 days and 1905 s in is day 3 at three quarters.
  server_time = 3.0 * 7620.0 + 1905.0;
  presenter.skies.clear();
  loop.set_max_ticks(6);
  REQUIRE(loop.run().has_value());
  // The sky rides in the snapshot: frames before the first tick after the
  // sync still show the last tick's snapshot (no game time), later ones all
  // have it.
  const auto first = std::find_if(presenter.skies.begin(), presenter.skies.end(),
                                  [](const std::optional<sim::SkyTime>& s) { return s.has_value(); });
  REQUIRE(first != presenter.skies.end());
  CHECK(std::all_of(first, presenter.skies.end(), [](const std::optional<sim::SkyTime>& s) { return s.has_value(); }));
  const sim::SkyTime& front = **first;
  CHECK(front.time_of_day == Approx(0.75F).margin(1e-4));
  CHECK(front.day == 3);
  CHECK(front.year == 0);
  CHECK(front.days_per_year == 360);
  // Between syncs the clock runs on the world's clock.
  REQUIRE(presenter.skies.back().has_value());
  CHECK(presenter.skies.back()->seconds > front.seconds);
  CHECK(presenter.skies.back()->seconds - front.seconds < 1.0);
  CHECK(world.sky_time() == presenter.skies.back());
}

TEST_CASE("World::time_sync: the game clock runs on the world's clock from the sync and each snapshot carries it",
          "[app][sky]") {
  auto built = demo::build_demo_world();
  REQUIRE(built.has_value());
  auto portal = dat::DatFile::from_bytes(std::move(built->portal), "demo portal");
  REQUIRE(portal.has_value());
  core::ManualClock clock;
  app::World world(clock, &*portal);
  clock.set(core::Seconds{1.0});
  (void)world.step();
  CHECK_FALSE(world.sky_time().has_value());  // no TimeSync: the renderer's fixed hour
  CHECK_FALSE(world.build_snapshot()->sky.has_value());

  world.time_sync(3.0 * 7620.0 + 1905.0);  // day 3 at three quarters (the demo calendar's zero is noon)
  clock.set(core::Seconds{2.0});
  (void)world.step();
  REQUIRE(world.sky_time().has_value());
  CHECK(world.sky_time()->time_of_day == Approx(0.75F).margin(1e-6));
  CHECK(world.sky_time()->day == 3);
  CHECK(world.build_snapshot()->sky == world.sky_time());
  const double synced = world.sky_time()->seconds;
  CHECK(synced == Approx(3.0 * 7620.0 + 1905.0));

  clock.set(core::Seconds{3.5});
  (void)world.step();
  REQUIRE(world.sky_time().has_value());
  CHECK(world.sky_time()->seconds - synced == Approx(1.5));
  CHECK(world.build_snapshot()->sky == world.sky_time());
}

TEST_CASE("The headless demo's sky follows the scenario server's TimeSync: noon of day 0 at its start",
          "[app][demo][sky][gl]") {
  app::HeadlessDemoOptions o;
  o.width = 160;
  o.height = 90;
  auto demo = dereth::test::headless_demo_or_skip(o, "demo");
  if (!demo) return;
  REQUIRE(demo->run_to_tick(30).has_value());
  const auto sync = demo->inbox().loopback().last_time_sync();
  REQUIRE(sync.has_value());  // the scenario server sends TimeSync as ACE does
  const std::optional<sim::SkyTime>& sky = demo->world().snapshot()->sky;
  REQUIRE(sky.has_value());
  CHECK(sky->day == 0);
  CHECK(sky->year == 0);
  // The server's clock starts with the loop's: game time is about the
  // loop's time, and the demo calendar's zero is noon.
  const double seconds = demo->report().sim_seconds;
  CHECK(sky->seconds == Approx(seconds).margin(0.05));
  CHECK(sky->time_of_day == Approx(0.5 + seconds / 7620.0).margin(1e-5));
  CHECK(sky->time_of_day > 0.5F);
  // The renderer's fixed hour is only what a snapshot without game time gets.
  CHECK(demo->presenter().renderer().options().time_of_day == 0.5F);
}
