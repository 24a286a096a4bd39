// The non-autonomous movement actions inside F7B1: AutonomyLevel (F752),
// Jump_NonAutonomous (F7C9), DoMovementCommand (F61E) and
// StopMovementCommand (F661), as CM_Movement::Event_AutonomyLevel 0x006AF850,
// Event_Jump_NonAutonomous 0x006AFB30, Event_DoMovementCommand 0x006AF920 and
// Event_StopMovementCommand 0x006AFCC0 write them (OrderHdr, then the fields,
// 4-aligned). RE GAME/game_cevents/CM_Movement.c.
#include <catch2/catch.hpp>

#include "dereth/core/byte_writer.hpp"
#include "dereth/protocol/outbound.hpp"

#include "fixtures.hpp"

using namespace dereth::protocol;

namespace {

template <typename Decode>
void refuses_other_action(std::vector<std::uint8_t> bytes, Decode decode) {
  bytes[8] = 0x1C;  // a MoveToState's action type
  bytes[9] = 0xF6;
  auto refused = decode(bytes);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message().find("action_type") != std::string::npos);
}

}  // namespace

TEST_CASE("CM_Movement::Event_AutonomyLevel 0x006AF850: F7B1/F752 with the level", "[retail][protocol]") {
  const auto bytes = encode(AutonomyLevel{0x31, 0});
  dereth::core::ByteWriter e;
  e.u32(0xF7B1);
  e.u32(0x31);
  e.u32(0xF752);
  e.u32(0);
  CHECK(bytes == std::move(e).take());
  CHECK(bytes.size() == 16);
  auto back = decode_autonomy_level(encode(AutonomyLevel{7, 2}));
  REQUIRE(back);
  CHECK(*back == AutonomyLevel{7, 2});
  dereth::test::every_prefix_fails(bytes, [](auto b) { return decode_autonomy_level(b); });
  refuses_other_action(bytes, [](auto b) { return decode_autonomy_level(b); });
}

TEST_CASE("CM_Movement::Event_Jump_NonAutonomous 0x006AFB30: F7B1/F7C9 with the extent only", "[retail][protocol]") {
  const auto bytes = encode(JumpNonAutonomous{0x102, 0.0F});
  dereth::core::ByteWriter e;
  e.u32(0xF7B1);
  e.u32(0x102);
  e.u32(0xF7C9);
  e.f32(0.0F);
  CHECK(bytes == std::move(e).take());
  CHECK(bytes.size() == 16);
  auto back = decode_jump_non_autonomous(encode(JumpNonAutonomous{3, 0.75F}));
  REQUIRE(back);
  CHECK(back->sequence == 3);
  CHECK(back->extent == 0.75F);
  dereth::test::every_prefix_fails(bytes, [](auto b) { return decode_jump_non_autonomous(b); });
  refuses_other_action(bytes, [](auto b) { return decode_jump_non_autonomous(b); });
}

TEST_CASE("CM_Movement::Event_DoMovementCommand 0x006AF920 and Event_StopMovementCommand 0x006AFCC0",
          "[retail][protocol]") {
  const auto start = encode(DoMovementCommand{9, 0x45000005, 1.0F, 2});
  dereth::core::ByteWriter e;
  e.u32(0xF7B1);
  e.u32(9);
  e.u32(0xF61E);
  e.u32(0x45000005);
  e.f32(1.0F);
  e.u32(2);  // HoldKey Run
  CHECK(start == std::move(e).take());
  auto back = decode_do_movement_command(start);
  REQUIRE(back);
  CHECK(*back == DoMovementCommand{9, 0x45000005, 1.0F, 2});
  dereth::test::every_prefix_fails(start, [](auto b) { return decode_do_movement_command(b); });
  refuses_other_action(start, [](auto b) { return decode_do_movement_command(b); });

  const auto stop = encode(StopMovementCommand{10, 0x6500000D, 0});
  dereth::core::ByteWriter s;
  s.u32(0xF7B1);
  s.u32(10);
  s.u32(0xF661);
  s.u32(0x6500000D);
  s.u32(0);  // HoldKey Invalid
  CHECK(stop == std::move(s).take());
  auto stopped = decode_stop_movement_command(stop);
  REQUIRE(stopped);
  CHECK(*stopped == StopMovementCommand{10, 0x6500000D, 0});
  dereth::test::every_prefix_fails(stop, [](auto b) { return decode_stop_movement_command(b); });
  refuses_other_action(stop, [](auto b) { return decode_stop_movement_command(b); });
}
