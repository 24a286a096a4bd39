#include "dereth/core/clock.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

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

TEST_CASE("exact_frame_step: frame times are exact, so frames 1/30 s apart always measure at least 1/30 s", "[clock]") {
  for (const double rate : {30.0, 60.0, 144.0, 1000.0}) {
    INFO("rate " << rate);
    const double step = dereth::core::exact_frame_step(rate);
    CHECK(step >= 1.0 / rate);
    CHECK(step - 1.0 / rate < 1e-9);
  }
  // At 60 frames a second the physics (CPhysics::UseTime: quantum >= 1/30 s)
  // ticks on every second frame for an hour of frames. With k * (1/60) it
  // misses a third of them.
  const auto ticks_over = [](double step) {
    double last = 0.0;
    int ticks = 0;
    for (int k = 1; k <= 216000; ++k) {
      const double now = k * step;
      if (now - last >= 1.0 / 30.0) {
        ++ticks;
        last = now;
      }
    }
    return ticks;
  };
  CHECK(ticks_over(dereth::core::exact_frame_step(60.0)) == 108000);
  CHECK(ticks_over(1.0 / 60.0) < 100000);
}
