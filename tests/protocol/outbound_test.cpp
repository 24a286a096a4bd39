// Outbound MoveToState (F7B1/F61C) and AutonomousPosition (F7B1/F753).
#include "dereth/protocol/outbound.hpp"

#include <catch2/catch.hpp>

#include "fixtures.hpp"

using namespace dereth::protocol;
using dereth::core::ErrorKind;

namespace {

Position sample_position() {
  return {0xA9B40019, {84.5F, 23.25F, 42.0F}, {1, 0, 0, 0}};
}

}  // namespace

TEST_CASE("AutonomousPosition F753 inside F7B1 is 56 bytes", "[protocol][outbound]") {
  AutonomousPosition m{281, sample_position(), {1, 2, 3, 4}, 1};
  const auto bytes = encode(m);
  REQUIRE(bytes.size() == 56);
  CHECK(bytes[0] == 0xB1);
  CHECK(bytes[1] == 0xF7);
  CHECK(bytes[4] == 25);  // sequence 281 = 0x119
  CHECK(bytes[5] == 1);
  CHECK(bytes[8] == 0x53);
  CHECK(bytes[9] == 0xF7);
  CHECK(bytes[52] == 1);  // contact
  auto back = decode_autonomous_position(bytes);
  REQUIRE(back.has_value());
  CHECK(*back == m);
  dereth::test::every_prefix_fails(bytes, [](auto b) { return decode_autonomous_position(b); });
}

TEST_CASE("MoveToState F61C inside F7B1 round-trips with every RawMotionState field", "[protocol][outbound]") {
  MoveToState m;
  m.sequence = 12;
  m.raw.current_hold_key = 2;
  m.raw.current_style = 0x8000003D;
  m.raw.forward_command = 0x45000005;
  m.raw.forward_hold_key = 2;
  m.raw.forward_speed = 1.0F;
  m.raw.sidestep_command = 0x6500000F;
  m.raw.sidestep_hold_key = 1;
  m.raw.sidestep_speed = 0.5F;
  m.raw.turn_command = 0x6500000D;
  m.raw.turn_hold_key = 1;
  m.raw.turn_speed = 1.5F;
  m.raw.commands = {{0x0087, 0x8001, 1.0F}};
  m.position = sample_position();
  m.timestamps = {5, 6, 7, 8};
  m.contact_long_jump = 1;
  const auto bytes = encode(m);
  CHECK(bytes.size() == 12 + 4 + 11 * 4 + 8 + 32 + 8 + 4);
  CHECK(bytes[12] == 0xFF);  // flags 0x7FF with one command (bit 11)
  CHECK(bytes[13] == 0x0F);
  auto back = decode_move_to_state(bytes);
  REQUIRE(back.has_value());
  CHECK(*back == m);
  dereth::test::every_prefix_fails(bytes, [](auto b) { return decode_move_to_state(b); });

  SECTION("the smallest MoveToState: no motion fields") {
    MoveToState idle;
    idle.position = sample_position();
    const auto b = encode(idle);
    CHECK(b.size() == 12 + 4 + 32 + 8 + 4);
    CHECK(decode_move_to_state(b).value() == idle);
  }
  SECTION("a different action type is refused") {
    auto wrong = bytes;
    wrong[8] = 0x53;
    wrong[9] = 0xF7;
    auto r = decode_move_to_state(wrong);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().field == "action_type");
    CHECK(r.error().offset == 8);
  }
}
