// The sky's time of day in the app: the game clock follows the server's
// TimeSync (ClientNet::HandleTimeSynch -> Timer::set_time, GameTime::UseTime)
// and the renderer draws at it; without a TimeSync the fixed hour stays.
#include <catch2/catch.hpp>

#include <cstdlib>
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

using namespace dereth;

namespace {

class SilentInbox final : public net::MessageInbox {
 public:
  std::vector<net::SessionMessage> drain(double /*now*/) override { return {}; }
  [[nodiscard]] bool finished() const override { return false; }
};

// Keeps what each frame was told about the sky.
class SkyRecorder final : public app::Presenter {
 public:
  core::Result<void> present(const sim::RenderSnapshot& /*snapshot*/, const app::FrameInfo& info) override {
    skies.push_back(info.sky);
    return {};
  }
  core::Result<void> screenshot(const std::filesystem::path& /*path*/) override { return {}; }
  std::vector<std::optional<sim::SkyTime>> skies;
};

}  // namespace

TEST_CASE("The frame loop's sky time follows TimeSync through the Region's GameTime, and is none without it",
          "[app][sky][retail][0x00543D30]") {
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
  REQUIRE_FALSE(presenter.skies.empty());
  REQUIRE(presenter.skies.front().has_value());
  CHECK(presenter.skies.front()->time_of_day == Approx(0.75F).margin(1e-4));
  CHECK(presenter.skies.front()->day == 3);
  CHECK(presenter.skies.front()->year == 0);
  CHECK(presenter.skies.front()->days_per_year == 360);
  // Between syncs the clock runs on the loop's clock.
  REQUIRE(presenter.skies.back().has_value());
  CHECK(presenter.skies.back()->seconds > presenter.skies.front()->seconds);
  CHECK(presenter.skies.back()->seconds - presenter.skies.front()->seconds < 1.0);
  CHECK(loop.sky_time() == presenter.skies.back());
}

TEST_CASE("apply_sky_time sets the renderer's hour, game day and texture clock only when the server's time is known",
          "[app][sky]") {
  render::RendererOptions options;
  app::FrameInfo info;
  app::apply_sky_time(options, info);
  CHECK(options.time_of_day == 0.5F);  // the demo's fixed hour
  CHECK_FALSE(options.game_day.has_value());
  info.sky = sim::SkyTime{0.8F, 12, 360, 3, 1234.5};
  app::apply_sky_time(options, info);
  CHECK(options.time_of_day == 0.8F);
  REQUIRE(options.game_day.has_value());
  CHECK(options.game_day->day == 12);
  CHECK(options.game_day->days_per_year == 360);
  CHECK(options.game_day->year == 3);
  CHECK(options.sky_seconds == 1234.5);
  // A frame without it keeps the last hour.
  app::apply_sky_time(options, app::FrameInfo{});
  CHECK(options.time_of_day == 0.8F);
}

TEST_CASE("The headless demo's sky follows the scenario server's TimeSync: noon of day 0 at its start",
          "[app][demo][sky][gl]") {
  app::HeadlessDemoOptions o;
  o.width = 160;
  o.height = 90;
  auto demo = app::HeadlessDemo::create(o);
  if (!demo) {
    const char* require = std::getenv("DERETH_REQUIRE_GL");
    if (require != nullptr && std::string(require) == "1") FAIL(demo.error().message());
    WARN("no headless GL here, demo not checked: " << demo.error().message());
    return;
  }
  REQUIRE((*demo)->run_to_tick(30).has_value());
  const auto sync = (*demo)->inbox().loopback().last_time_sync();
  REQUIRE(sync.has_value());  // the scenario server sends TimeSync as ACE does
  const render::RendererOptions& options = (*demo)->presenter().renderer().options();
  REQUIRE(options.game_day.has_value());
  CHECK(options.game_day->day == 0);
  CHECK(options.game_day->year == 0);
  // The server's clock starts with the loop's: game time is about the
  // loop's time, and the demo calendar's zero is noon.
  const double seconds = (*demo)->report().sim_seconds;
  CHECK(options.sky_seconds == Approx(seconds).margin(0.05));
  CHECK(options.time_of_day == Approx(0.5 + seconds / 7620.0).margin(1e-5));
  CHECK(options.time_of_day > 0.5F);
}
