#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "dereth/core/clock.hpp"

using dereth::core::Clock;
using dereth::core::ManualClock;
using dereth::core::RealClock;
using dereth::core::Seconds;

TEST_CASE("ManualClock moves only when told", "[clock]") {
  ManualClock clock;
  CHECK(clock.now().count() == 0.0);
  clock.advance(Seconds{0.25});
  CHECK(clock.now().count() == 0.25);
  clock.advance(std::chrono::milliseconds{500});
  CHECK(clock.now().count() == Approx(0.75));
  clock.set(Seconds{10.0});
  CHECK(clock.now().count() == 10.0);
  clock.set(Seconds{2.0});  // set may go backwards (a replay seek)
  CHECK(clock.now().count() == 2.0);

  const ManualClock started(Seconds{3.5});
  CHECK(started.now().count() == 3.5);
}

TEST_CASE("Clock is usable through the interface", "[clock]") {
  ManualClock manual(Seconds{1.0});
  const Clock& clock = manual;
  CHECK(clock.now().count() == 1.0);
  manual.advance(Seconds{1.0 / 30.0});
  CHECK(clock.now().count() == Approx(1.0 + 1.0 / 30.0));
}

TEST_CASE("RealClock starts near zero and does not go backwards", "[clock]") {
  const RealClock clock;
  const Seconds first = clock.now();
  CHECK(first.count() >= 0.0);
  CHECK(first.count() < 1.0);
  std::this_thread::sleep_for(std::chrono::milliseconds{5});
  const Seconds second = clock.now();
  CHECK(second >= first);
  CHECK(second.count() >= 0.004);
}
