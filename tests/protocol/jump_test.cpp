// Outbound Jump (F7B1/F61B): JumpPack::Pack 0x00516D10 inside
// CM_Movement::Event_Jump 0x006AFA70.
#include <catch2/catch.hpp>

#include "dereth/core/byte_writer.hpp"
#include "dereth/protocol/outbound.hpp"

#include "fixtures.hpp"

using namespace dereth::protocol;

TEST_CASE(
    "JumpPack::Pack 0x00516D10: F7B1/F61B carries the extent, local velocity, Position and four stamps "
    "(CM_Movement::Event_Jump 0x006AFA70)",
    "[retail][protocol][outbound]") {
  Jump m;
  m.sequence = 0x120;
  m.extent = 0.5F;
  m.velocity = Vec3{0.0F, 3.12F, 10.0F};
  m.position = Position{0xA9B40013, {60.0F, 61.5F, 9.95F}, {1, 0, 0, 0}};
  m.timestamps = {8, 5, 4, 6};
  const auto bytes = encode(m);
  // Built by hand: header, extent, velocity, the 32-byte Position, the
  // instance, server-control, teleport and force-position stamps; 4-aligned.
  dereth::core::ByteWriter e;
  e.u32(0xF7B1);
  e.u32(0x120);
  e.u32(0xF61B);
  e.f32(0.5F);
  e.f32(0.0F);
  e.f32(3.12F);
  e.f32(10.0F);
  e.u32(0xA9B40013);
  e.f32(60.0F);
  e.f32(61.5F);
  e.f32(9.95F);
  e.f32(1.0F);
  e.f32(0.0F);
  e.f32(0.0F);
  e.f32(0.0F);
  e.u16(8);
  e.u16(5);
  e.u16(4);
  e.u16(6);
  CHECK(bytes == std::move(e).take());
  CHECK(bytes.size() == 68);
  auto back = decode_jump(bytes);
  REQUIRE(back.has_value());
  CHECK(*back == m);
  dereth::test::every_prefix_fails(bytes, [](auto b) { return decode_jump(b); });
  auto wrong = bytes;
  wrong[8] = 0x1C;  // a MoveToState's action type
  auto refused = decode_jump(wrong);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message().find("action_type") != std::string::npos);
}
