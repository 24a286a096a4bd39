// WTimeStamper::UpdateTS 0x006B2D70: the one-byte stamp of each quality.

#include "dereth/sim/player/w_time_stamper.hpp"

#include <catch2/catch.hpp>

using dereth::sim::WTimeStamper;

TEST_CASE("WTimeStamper::UpdateTS 0x006B2D70 takes a first, an equal or a newer stamp and drops an older one",
          "[retail]") {
  WTimeStamper s;
  CHECK(s.update_ts(0x90002, 10));        // first for this key
  CHECK(s.update_ts(0x90002, 10));        // equal: taken
  CHECK(s.update_ts(0x90002, 11));        // newer
  CHECK_FALSE(s.update_ts(0x90002, 10));  // older: dropped
  CHECK(s.update_ts(0x90004, 3));         // another key has its own stamp
  CHECK(s.update_ts(0x90002, 11));
}

TEST_CASE("WTimeStamper::UpdateTS 0x006B2D70 wraps: further apart than 127, the lower stamp is the newer", "[retail]") {
  WTimeStamper s;
  CHECK(s.update_ts(1, 250));
  CHECK(s.update_ts(1, 2));          // 250 -> 2 is 248 apart: 2 is after the wrap, taken
  CHECK_FALSE(s.update_ts(1, 250));  // and 250 is now the old one
  CHECK(s.update_ts(1, 129));        // 127 apart: plain order, 129 is after 2
  // 128 apart: the wrapped rule, under which the held 129 is older than 1
  // only when it is lower; it is higher, so 1 is taken as after the wrap.
  CHECK(s.update_ts(1, 1));
  CHECK_FALSE(s.update_ts(1, 200));  // 199 apart, 200 > 1: older under the wrapped rule
}
