// The game clock: Timer (server time from TimeSync) and GameTime (the
// Region's calendar), PORTAL/gametime/GameTime.c and CORE/timer/Timer.c.
#include <catch2/catch.hpp>

#include <limits>

#include "dereth/sim/player/game_clock.hpp"

using namespace dereth;

namespace {

// Days of 100 s, years of 10 days, the clock's zero 250 s into year 5;
// night, dawn at a quarter, dusk at three quarters; three seasons.
dat::GameTime calendar() {
  dat::GameTime g;
  g.zero_time_of_year = 250.0;
  g.zero_year = 5;
  g.day_length = 100.0F;
  g.days_per_year = 10;
  g.times_of_day = {dat::TimeOfDay{0.0F, 1, "Night"}, dat::TimeOfDay{0.25F, 0, "Dawn"},
                    dat::TimeOfDay{0.75F, 1, "Dusk"}};
  g.seasons = {dat::Season{0, "Winter"}, dat::Season{4, "Spring"}, dat::Season{8, "Summer"}};
  return g;
}

}  // namespace

TEST_CASE("GameTime::CalcDayBegin 0x005A6400 finds the year, day, season and the day's start", "[retail][game_time]") {
  sim::GameTime t(calendar());
  CHECK(t.year_length() == 1000.0);  // GameTime::UnPack: day_length * days_per_year
  CHECK(t.time_of_day_begin() == -1.0);
  t.calc_day_begin(1030.0);  // 1280 s into the calendar: year 1, 280 s in
  CHECK(t.current_year() == 6);
  CHECK(t.current_day() == 2);
  CHECK(t.current_season() == 0);
  CHECK(t.time_of_day_begin() == 950.0);
  t.calc_day_begin(1300.0);  // day 5: spring (from day 4)
  CHECK(t.current_day() == 5);
  CHECK(t.current_season() == 1);
  t.calc_day_begin(1400.0);  // day 6
  CHECK(t.current_season() == 1);
  t.calc_day_begin(1650.0);  // day 9: summer
  CHECK(t.current_day() == 9);
  CHECK(t.current_season() == 2);
  t.calc_day_begin(1750.0);  // 2000 s: the next year's first day
  CHECK(t.current_year() == 7);
  CHECK(t.current_day() == 0);
  CHECK(t.current_season() == 0);
  CHECK(t.time_of_day_begin() == 1750.0);
  // Before the calendar's zero the year counts back (floor).
  t.calc_day_begin(-300.0);
  CHECK(t.current_year() == 4);
  CHECK(t.current_day() == 9);
  CHECK(t.time_of_day_begin() == -350.0);

  // No seasons: season 0 (retail would read past the array).
  dat::GameTime bare = calendar();
  bare.seasons.clear();
  sim::GameTime b(bare);
  b.calc_day_begin(1650.0);
  CHECK(b.current_season() == 0);
}

TEST_CASE("GameTime::CalcTimeOfDay 0x005A64A0 names the time of day and when the next one begins",
          "[retail][game_time]") {
  sim::GameTime t(calendar());
  t.calc_day_begin(1030.0);
  t.calc_time_of_day(990.0);  // 0.4 of the day: dawn until 0.75
  CHECK(t.current_time_of_day() == 1);
  CHECK(t.time_of_next_event() == 1025.0);
  CHECK(t.present_time_in_day_unit() == Approx(0.3));
  t.calc_time_of_day(1030.0);  // 0.8: dusk, the last; the next event is the day's end
  CHECK(t.current_time_of_day() == 2);
  CHECK(t.time_of_next_event() == 1050.0);
  // Retail divides by day_length - begin here (seconds minus a fraction).
  CHECK(t.present_time_in_day_unit() == Approx((0.8 - 0.75) / (100.0 - 0.75)));
  t.calc_time_of_day(950.0);  // exactly the day's start: night
  CHECK(t.current_time_of_day() == 0);
  CHECK(t.time_of_next_event() == 975.0);
  t.calc_time_of_day(975.0);  // a begin itself belongs to that time of day
  CHECK(t.current_time_of_day() == 1);
}

TEST_CASE("GameTime::UseTime 0x005A66F0 advances the time of day and starts a new day at the next event",
          "[retail][game_time]") {
  sim::GameTime t(calendar());
  t.use_time(1030.0);
  CHECK(t.time_of_day_begin() == 950.0);
  CHECK(t.present_time_of_day() == Approx(0.8F));
  CHECK(t.current_time_of_day() == 2);
  CHECK(t.time_of_next_event() == 1050.0);
  t.use_time(1040.0);  // before the next event: only the fraction moves
  CHECK(t.present_time_of_day() == Approx(0.9F));
  CHECK(t.current_day() == 2);
  t.use_time(1060.0);  // past the day's end: day 3 begins at 1050
  CHECK(t.current_day() == 3);
  CHECK(t.time_of_day_begin() == 1050.0);
  CHECK(t.present_time_of_day() == Approx(0.1F));
  CHECK(t.current_time_of_day() == 0);
  CHECK(t.time_of_next_event() == 1075.0);
  t.use_time(1080.0);
  CHECK(t.current_time_of_day() == 1);
  CHECK(t.present_time_of_day() == Approx(0.3F));

  // A calendar without a day length, or a non-finite time, changes nothing.
  dat::GameTime broken = calendar();
  broken.day_length = 0.0F;
  sim::GameTime z(broken);
  z.use_time(1030.0);
  CHECK(z.present_time_of_day() == 0.0F);
  CHECK(z.time_of_day_begin() == -1.0);
  sim::GameTime n(calendar());
  n.use_time(std::numeric_limits<double>::quiet_NaN());
  CHECK(n.time_of_day_begin() == -1.0);
  n.use_time(std::numeric_limits<double>::infinity());
  CHECK(n.time_of_day_begin() == -1.0);
}

TEST_CASE("Timer::set_time 0x0040F840 moves the clock to a server time ahead of it and never back",
          "[retail][game_time]") {
  sim::Timer timer;
  CHECK_FALSE(timer.synced());
  CHECK(timer.cur_time(5.0) == 5.0);  // before any sync: local time
  timer.set_time(1000.0, 5.0);
  CHECK(timer.synced());
  CHECK(timer.cur_time(5.0) == 1000.0);
  CHECK(timer.cur_time(7.5) == 1002.5);  // runs on with the local clock
  timer.set_time(900.0, 8.0);            // behind the reading: kept
  CHECK(timer.cur_time(8.0) == 1003.0);
  timer.set_time(2000.0, 9.0);
  CHECK(timer.cur_time(9.0) == 2000.0);
  timer.set_time(std::numeric_limits<double>::quiet_NaN(), 10.0);
  CHECK(timer.cur_time(10.0) == 2001.0);
  // A server time behind local time still marks the clock synced (the
  // header arrived), and the clock stays local.
  sim::Timer early;
  early.set_time(1.0, 3.0);
  CHECK(early.synced());
  CHECK(early.cur_time(3.0) == 3.0);
}

TEST_CASE("ClientNet::HandleTimeSynch 0x00543D30: the game clock follows TimeSync, and has no time before it",
          "[retail][game_time]") {
  sim::GameClock clock(calendar());
  CHECK_FALSE(clock.use_time(0.0).has_value());  // the caller draws its fixed hour
  clock.time_sync(1030.0, 2.0);
  auto sky = clock.use_time(2.0);
  REQUIRE(sky.has_value());
  CHECK(sky->time_of_day == Approx(0.8F));
  CHECK(sky->day == 2);
  CHECK(sky->year == 6);
  CHECK(sky->days_per_year == 10);
  CHECK(sky->seconds == 1030.0);
  // Between syncs it runs on the caller's clock: 30 s later, day 3.
  sky = clock.use_time(32.0);
  REQUIRE(sky.has_value());
  CHECK(sky->day == 3);
  CHECK(sky->time_of_day == Approx(0.1F));
  // A later sync ahead of it moves it on.
  clock.time_sync(1325.0, 33.0);  // 0.75 of day 5
  sky = clock.use_time(33.0);
  CHECK(sky->day == 5);
  CHECK(sky->time_of_day == Approx(0.75F));
}
