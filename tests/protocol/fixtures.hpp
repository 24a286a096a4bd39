#pragma once
// Shared protocol fixtures: real bytes quoted in spec/protocol.md, and
// synthetic messages built field by field.

#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "dereth/protocol/messages.hpp"

#include "support/hex.hpp"

namespace dereth::test {

// The retail (2017) "Door" CreateObject quoted in spec/protocol.md 5.1 (140 bytes).
inline std::vector<std::uint8_t> retail_door_create_object() {
  return from_hex(
      "45F70000 33402077 | 11 00 00 00 | 03980100 18000100 | 0C000000 00 00 3D00 02000000 0C00 0000 | 00000000 |"
      "B4010472 4BC87041 35EFEFC1 000000B2 F70435BF 00000000 00000000 F70435BF | 86000009 22000020 2B000034 "
      "DA050002 | 0100 0200 0000 0000 0000 0200 0000 0000 9001 0000 | 30000000 0400 446F6F72 0000 A131 1713 "
      "80000000 14100000 | 20000000 00000040");
}

// A projectile CreateObject with every PhysicsDesc field the Movement branch
// allows, built with the writers.
inline protocol::CreateObject broad_projectile() {
  using namespace protocol;
  CreateObject m;
  m.guid = 0x80001234;
  m.model.palettes = {{0x04000BEF, 0, 8}};
  m.model.base_palette = 0x0400007E;
  m.model.texture_changes = {{1, 0x05001234, 0x05009876}};
  m.model.anim_part_changes = {{2, 0x01004567}, {3, 0x01000001}};
  auto& p = m.physics;
  p.state = physics_state::Missile | physics_state::AlignPath | physics_state::PathClipped | physics_state::Gravity |
            physics_state::ReportCollisions;
  MovementData md;
  md.current_style = 0x003D;
  InterpretedMovement im;
  im.state.current_style = 0x003D;
  im.state.forward_command = 0x0007;
  im.state.forward_speed = 2.5F;
  im.state.commands = {{0x0053, 0x8001, 1.0F}};
  md.payload = im;
  p.movement = MovementBuffer{encode_movement_buffer(md), 1};
  p.position = Position{0xA9B40019, {84.5F, 23.25F, 42.0F}, {0.70710677F, 0, 0, -0.70710677F}};
  p.motion_table_id = 0x09000001;
  p.sound_table_id = 0x20000014;
  p.physics_script_table_id = 0x3400002B;
  p.setup_id = 0x02000124;
  p.parent = ParentLink{0x50000001, 1};
  p.children = std::vector<ChildLink>{{0x80000002, 2}, {0x80000003, 3}};
  p.object_scale = 0.5F;
  p.friction = 0.95F;
  p.elasticity = 0.05F;
  p.translucency = 0.25F;
  p.velocity = Vec3{0, 20.0F, 1.5F};
  p.acceleration = Vec3{0, 0, -9.8F};
  p.omega = Vec3{0.1F, 0.2F, 0.3F};
  p.default_script_type = 0x13;
  p.default_script_intensity = 0.75F;
  p.timestamps = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  auto& w = m.weenie;
  w.name = "Force Bolt";
  w.weenie_class_id = 1636;
  w.icon_id = 0x06001F3A;
  w.item_type = 0x8000;
  w.object_description_flags = 0;
  return m;
}

// Calls decode on every proper prefix of bytes; each must fail cleanly.
// Returns the errors, one per prefix length.
template <class Decode>
std::vector<core::Error> every_prefix_fails(const std::vector<std::uint8_t>& bytes, Decode&& decode) {
  std::vector<core::Error> errors;
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    auto result = decode(std::span<const std::uint8_t>(cut));
    INFO("prefix of " << n << " of " << bytes.size() << " bytes");
    REQUIRE_FALSE(result.has_value());
    const auto kind = result.error().kind;
    CHECK((kind == core::ErrorKind::Truncated || kind == core::ErrorKind::TooLarge));
    CHECK(result.error().offset <= n);
    CHECK_FALSE(result.error().message().empty());
    errors.push_back(result.error());
  }
  return errors;
}

}  // namespace dereth::test
