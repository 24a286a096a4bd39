#include "dereth/core/timestamp.hpp"

#include <catch2/catch.hpp>

#include <cstdint>

using dereth::core::is_newer;

// The seed's comparator, evaluated over the boundary distances in both
// directions from several stored values (section 3 of the projectile seed).
TEST_CASE("SmartBox::DoSetState 0x004520D0 is_newer: equality is stale", "[retail][timestamp]") {
  for (std::uint32_t s : {0u, 1u, 0x7FFFu, 0x8000u, 0xFFFFu, 0x1234u}) {
    const auto stamp = static_cast<std::uint16_t>(s);
    CHECK_FALSE(is_newer(stamp, stamp));
  }
}

TEST_CASE("SmartBox::DoVectorUpdate 0x004521C0 is_newer: distance table", "[retail][timestamp]") {
  struct Row {
    std::uint16_t incoming;
    std::uint16_t stored;
    bool newer;
  };
  // distance 1 and 0x7FFF: the numerically higher stamp wins.
  // distance 0x8000, 0x8001 and 0xFFFF: the wrap half; the numerically lower stamp wins.
  const Row rows[] = {
      {1, 0, true},
      {0, 1, false},  // distance 1
      {0x7FFF, 0, true},
      {0, 0x7FFF, false},  // distance 0x7FFF
      {0x8000, 0, false},
      {0, 0x8000, true},  // distance 0x8000: lower wins
      {0x8001, 0, false},
      {0, 0x8001, true},  // distance 0x8001
      {0xFFFF, 0, false},
      {0, 0xFFFF, true},  // distance 0xFFFF: 0 follows 0xFFFF
      {0x9000, 0x1000, false},
      {0x1000, 0x9000, true},  // 0x8000 away from a non-zero base
      {0x8FFF, 0x1000, true},
      {0x1000, 0x8FFF, false},  // 0x7FFF away from a non-zero base
      {0x0005, 0xFFF0, true},
      {0xFFF0, 0x0005, false},  // wrap by 0x15
  };
  for (const auto& row : rows) {
    INFO("incoming=" << row.incoming << " stored=" << row.stored);
    CHECK(is_newer(row.incoming, row.stored) == row.newer);
  }
}

TEST_CASE("is_newer is not a half-range subtraction at 0x8000 (SmartBox::DoSetState 0x004520D0)",
          "[retail][timestamp]") {
  // A generic (int16)(a - b) > 0 helper calls 0x8000 older than 0 in one order
  // and newer in neither; retail says the numerically lower stamp wins both ways.
  CHECK(is_newer(0x0000, 0x8000));
  CHECK_FALSE(is_newer(0x8000, 0x0000));
  CHECK(is_newer(0x7FFF, 0xFFFF));
  CHECK_FALSE(is_newer(0xFFFF, 0x7FFF));
}
