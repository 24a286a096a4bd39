// Every server-to-client message of the object/physics/effect set: real
// bytes where the spec quotes them, round trips, and every truncation.
#include <catch2/catch.hpp>

#include <bit>

#include "fixtures.hpp"

using namespace dereth::protocol;
using dereth::core::ErrorKind;
using namespace dereth::test;

namespace {

// Round-trips a message through encode and the dispatcher, checks the size,
// then checks that every shorter prefix fails and a longer body is refused.
template <class T>
void check_message(const T& m, std::size_t expected_size) {
  const auto bytes = encode(m);
  CHECK(bytes.size() == expected_size);
  auto back = decode_message(bytes);
  REQUIRE(back.has_value());
  REQUIRE(std::holds_alternative<T>(*back));
  CHECK(std::get<T>(*back) == m);
  CHECK(encode(*back) == bytes);
  every_prefix_fails(bytes, [](auto b) { return decode_message(b); });
  auto longer = bytes;
  longer.insert(longer.end(), {0, 0, 0, 0});
  auto extra = decode_message(longer);
  REQUIRE_FALSE(extra.has_value());
  CHECK(extra.error().kind == ErrorKind::Trailing);
}

}  // namespace

TEST_CASE("DeleteObject F747 is guid, Instance, align: 12 bytes", "[protocol]") {
  check_message(DeleteObject{0x80000102, 0x1234}, 12);
  const auto fixed = from_hex("47F70000 02010080 3412 0000");
  auto m = decode_delete_object(fixed);
  REQUIRE(m.has_value());
  CHECK(m->guid == 0x80000102u);
  CHECK(m->instance_ts == 0x1234);
}

TEST_CASE("UpdatePosition F748: the 44-byte real ACE message with only W and Z", "[protocol][golden]") {
  // flags 0x34: IsGrounded | no X | no Y (spec/protocol.md 5.4: 44 bytes with only W and Z present).
  PositionPack p;
  p.flags = position_flag::IsGrounded | position_flag::OrientationHasNoX | position_flag::OrientationHasNoY;
  p.cell_id = 0xA9B4001F;
  p.origin = {100.5F, 50.25F, 12.0F};
  p.qw = 0.5F;
  p.qz = -0.8660254F;
  p.instance_ts = 1;
  p.position_ts = 77;
  p.teleport_ts = 2;
  p.force_position_ts = 3;
  UpdatePosition m{0x50000001, p};
  check_message(m, 44);
  const auto bytes = encode(m);
  CHECK(bytes[8] == 0x34);
  auto back = decode_update_position(bytes);
  REQUIRE(back.has_value());
  CHECK_FALSE(back->position.qx.has_value());
  CHECK_FALSE(back->position.velocity.has_value());
}

TEST_CASE("PositionPack::UnPack 0x00516740 absent fields read as zero and stay absent", "[retail][protocol]") {
  PositionPack p;
  p.flags = position_flag::OrientationHasNoW | position_flag::OrientationHasNoX | position_flag::OrientationHasNoY |
            position_flag::OrientationHasNoZ;
  p.cell_id = 0x12340001;
  UpdatePosition m{0x50000002, p};
  const auto bytes = encode(m);
  CHECK(bytes.size() == 4 + 4 + 4 + 16 + 8);
  auto back = decode_update_position(bytes);
  REQUIRE(back.has_value());
  const auto& pp = back->position;
  CHECK_FALSE(pp.velocity.has_value());
  CHECK_FALSE(pp.placement_id.has_value());
  CHECK_FALSE(pp.qw.has_value());
  // Absent-as-zero defaults: placement 0, velocity (0,0,0), orientation components 0.
  CHECK(pp.placement_or_zero() == 0u);
  CHECK(pp.velocity_or_zero() == Vec3{0, 0, 0});
  CHECK(pp.orientation() == Quat{0, 0, 0, 0});

  SECTION("a present zero placement and velocity are kept as present") {
    PositionPack q = p;
    q.placement_id = 0;
    q.velocity = Vec3{0, 0, 0};
    auto again = decode_update_position(encode(UpdatePosition{1, q}));
    REQUIRE(again.has_value());
    CHECK(again->position.placement_id.has_value());
    CHECK(again->position.velocity.has_value());
    CHECK((again->position.flags & (position_flag::HasVelocity | position_flag::HasPlacementId)) == 3u);
  }
  SECTION("every optional field present") {
    PositionPack full;
    full.flags = position_flag::IsGrounded | position_flag::HasVelocity | position_flag::HasPlacementId;
    full.qw = 1;
    full.qx = 0;
    full.qy = 0;
    full.qz = 0;
    full.velocity = Vec3{1, 2, 3};
    full.placement_id = 0x65;
    check_message(UpdatePosition{7, full}, 4 + 4 + 4 + 16 + 16 + 12 + 4 + 8);
  }
}

TEST_CASE("ParentEvent F749 is 24 bytes", "[protocol]") {
  check_message(ParentEvent{0x50000001, 0x80000010, 1, 2, 0x0102, 0x0304}, 24);
}

TEST_CASE("PickupEvent F74A is 12 bytes", "[protocol]") {
  check_message(PickupEvent{0x80000010, 5, 6}, 12);
}

TEST_CASE("SetState F74B is 16 bytes", "[protocol]") {
  check_message(SetState{0x80000010, physics_state::Hidden | physics_state::Gravity, 3, 0x8000}, 16);
  const auto fixed = from_hex("4BF70000 10000080 00440000 0300 0080");
  auto m = decode_set_state(fixed);
  REQUIRE(m.has_value());
  CHECK(m->state == 0x4400u);
  CHECK(m->state_ts == 0x8000);
}

TEST_CASE("VectorUpdate F74E is 36 bytes", "[protocol]") {
  check_message(VectorUpdate{0x80000010, {1, 2, 3}, {0, 0, 0.5F}, 9, 10}, 36);
}

TEST_CASE("Sound F750 is 16 bytes", "[protocol]") {
  check_message(Sound{0x50000001, 0x77, 0.5F}, 16);
}

TEST_CASE("PlayerTeleport F751 is teleport stamp and align: 8 bytes", "[protocol]") {
  check_message(PlayerTeleport{0x0102}, 8);
}

TEST_CASE("PlayerCreate F746 is 8 bytes", "[protocol]") {
  check_message(PlayerCreate{0x50000001}, 8);
}

TEST_CASE("ObjDescEvent F625 with palettes, textures and parts", "[protocol]") {
  ObjDescEvent m;
  m.guid = 0x50000001;
  m.model.base_palette = 0x0400007E;
  m.model.palettes = {{0x04001071, 0, 24}, {0x04008000, 24, 8}};  // the second id needs the 4-byte form
  m.model.texture_changes = {{0, 0x05000C2E, 0x05001F3A}};
  m.model.anim_part_changes = {{9, 0x01000F2B}};
  m.instance_ts = 1;
  m.visual_desc_ts = 44;
  const auto bytes = encode(m);
  CHECK(bytes.size() % 4 == 0);
  check_message(m, bytes.size());
}

TEST_CASE("ObjDesc refuses counts beyond the bytes", "[protocol][malformed]") {
  // 255 palettes announced with nothing behind them.
  const auto bytes = from_hex("25F60000 01000050 11 FF 00 00 7E00");
  auto m = decode_obj_desc_event(bytes);
  REQUIRE_FALSE(m.has_value());
  CHECK(m.error().kind == ErrorKind::TooLarge);
  CHECK(m.error().field == "ObjDesc.num_palettes");
}

TEST_CASE("Movement F74C: the real ACE example (28 bytes)", "[protocol][golden]") {
  // spec/protocol.md 5.7 (holtburger extracted/00160.bin).
  const auto bytes = from_hex("4CF70000 40080080 0000 F711 F711 00 00 | 00 00 3D00 | 03000000 3D00 5300");
  REQUIRE(bytes.size() == 28);
  auto m = decode_movement_event(bytes);
  REQUIRE(m.has_value());
  CHECK(m->guid == 0x80000840u);
  CHECK(m->instance_ts == 0);
  CHECK(m->movement_ts == 0x11F7);
  CHECK(m->server_control_ts == 0x11F7);
  CHECK(m->is_autonomous == 0);
  CHECK(m->data.type() == MovementType::Invalid);
  CHECK(m->data.current_style == 0x3D);
  const auto& s = std::get<InterpretedMovement>(m->data.payload).state;
  CHECK(s.flags() == 0x3u);
  CHECK(s.current_style == std::uint16_t{0x3D});
  CHECK(s.forward_command == std::uint16_t{0x53});
  CHECK(encode(*m) == bytes);
  every_prefix_fails(bytes, [](auto b) { return decode_movement_event(b); });
}

TEST_CASE("Movement F74C: every movement type round-trips", "[protocol][roundtrip]") {
  MovementEvent base{0x80000840, 1, 2, 3, 1, {}};
  SECTION("interpreted state with every field, commands and a sticky object") {
    InterpretedMovement im;
    im.state.current_style = 0x3D;
    im.state.forward_command = 0x07;
    im.state.sidestep_command = 0x0F;
    im.state.turn_command = 0x0D;
    im.state.forward_speed = 1.5F;
    im.state.sidestep_speed = -1.0F;
    im.state.turn_speed = 0.5F;
    im.state.commands = {{0x0087, 0x8003, 1.0F}, {0x0088, 4, 2.0F}};
    im.sticky_object = 0x50000009;
    base.data.motion_flags = kMotionFlagStickToObject;
    base.data.payload = im;
    check_message(base, encode(base).size());
  }
  SECTION("MoveToObject") {
    MoveToObject mt{0x50000003, {0xA9B40019, {1, 2, 3}}, {0x1EF, 0.6F, 0, 15, 1, 1, 0}, 1.25F};
    base.data.payload = mt;
    check_message(base, 16 + 4 + 4 + 16 + 28 + 4);
  }
  SECTION("MoveToPosition") {
    base.data.payload = MoveToPosition{{0xA9B40019, {4, 5, 6}}, {0x1, 0, 0, 0, 1, 1, 90}, 1.0F};
    check_message(base, 16 + 4 + 16 + 28 + 4);
  }
  SECTION("TurnToObject") {
    base.data.payload = TurnToObject{0x50000004, 180.0F, {0x2, 1.0F, 180.0F}};
    check_message(base, 16 + 4 + 4 + 4 + 12);
  }
  SECTION("TurnToHeading") {
    base.data.payload = TurnToHeading{{0x2, 1.0F, 270.0F}};
    check_message(base, 16 + 4 + 12);
  }
}

TEST_CASE("Movement F74C: NaN parameters round-trip equal to themselves (found by fuzzing)", "[protocol][roundtrip]") {
  MovementEvent m{0x80000840, 1, 2, 3, 0, {}};
  const float nan = std::bit_cast<float>(0xFFFFFFFFu);
  m.data.payload = MoveToPosition{{0xA9B40019, {1, 2, 3}}, {0x1, 0, nan, 0, 1, 1, nan}, nan};
  auto back = decode_movement_event(encode(m));
  REQUIRE(back.has_value());
  CHECK(*back == m);
  m.data.payload = TurnToObject{7, nan, {0x2, nan, 1}};
  back = decode_movement_event(encode(m));
  REQUIRE(back.has_value());
  CHECK(*back == m);
}

TEST_CASE("Movement F74C refuses an unknown movement type and oversized command lists", "[protocol][malformed]") {
  auto unknown = from_hex("4CF70000 40080080 0000 F711 F711 00 00 | 03 00 3D00 | 00000000");
  auto m = decode_movement_event(unknown);
  REQUIRE_FALSE(m.has_value());
  CHECK(m.error().kind == ErrorKind::Unsupported);
  CHECK(m.error().field == "MovementData.movement_type");
  CHECK(m.error().offset == 16);
  // 0x01FFFFFF commands announced (count in bits 7+), none present.
  auto huge = from_hex("4CF70000 40080080 0000 F711 F711 00 00 | 00 00 3D00 | 80FFFFFF");
  auto h = decode_movement_event(huge);
  REQUIRE_FALSE(h.has_value());
  CHECK(h.error().kind == ErrorKind::TooLarge);
  CHECK(h.error().field == "InterpretedMotionState.commands");
}

TEST_CASE("UpdateObject F7DB shares CreateObject's layout", "[protocol]") {
  UpdateObject u;
  static_cast<CreateObject&>(u) = broad_projectile();
  const auto bytes = encode(u);
  auto create_bytes = encode(broad_projectile());
  create_bytes[0] = 0xDB;
  CHECK(bytes == create_bytes);
  auto back = decode_message(bytes);
  REQUIRE(back.has_value());
  REQUIRE(std::holds_alternative<UpdateObject>(*back));
  CHECK(opcode_of(*back) == opcode::UpdateObject);
  every_prefix_fails(bytes, [](auto b) { return decode_update_object(b); });
}

TEST_CASE("WeenieDesc: every optional field in wire order round-trips", "[protocol][roundtrip]") {
  CreateObject m = broad_projectile();
  auto& w = m.weenie;
  w.plural_name = "Force Bolts";
  w.items_capacity = 102;
  w.containers_capacity = 7;
  w.ammo_type = 1;
  w.value = 1000;
  w.usable = 0x20;
  w.use_radius = 2.5F;
  w.target_type = 0x10;
  w.ui_effects = 0x1;
  w.combat_use = 2;
  w.structure = 10;
  w.max_structure = 20;
  w.stack_size = 5;
  w.max_stack_size = 100;
  w.container_id = 0x50000001;
  w.wielder_id = 0x50000002;
  w.valid_locations = 0x100000;
  w.currently_wielded_location = 0x100000;
  w.priority = 0x2;
  w.radar_blip_color = 3;
  w.radar_behavior = 4;
  w.pscript = 0x55;
  w.workmanship = 7.5F;
  w.burden = 50;
  w.spell = 0x123;
  w.house_owner = 0x50000003;
  w.house_restrictions = HouseRestrictions{0x10000002, 1, 0x50000004, 64, {{0x50000005, 1}, {0x50000006, 0}}};
  w.hook_item_types = 0x8;
  w.monarch = 0x50000007;
  w.hook_type = 0x2;
  w.icon_overlay = 0x06001000;
  w.icon_underlay = 0x06009000;
  w.material_type = 0x20;
  w.cooldown_id = 0x99;
  w.cooldown_duration = 30.5;
  w.pet_owner = 0x50000008;
  const auto bytes = encode(m);
  auto back = decode_create_object(bytes);
  REQUIRE(back.has_value());
  CHECK(back->weenie.weenie_flags == 0xFFFFFFFFu);
  CHECK(back->weenie.weenie_flags2 == 0xFu);
  CHECK((back->weenie.object_description_flags & kIncludesSecondHeader) != 0);
  CHECK(back->weenie.house_restrictions == w.house_restrictions);
  CHECK(back->weenie.cooldown_duration == 30.5);
  CHECK(back->weenie.icon_underlay == 0x06009000u);
  CHECK(encode(*back) == bytes);
  auto errors = every_prefix_fails(bytes, [](auto b) { return decode_create_object(b); });
  CHECK(std::any_of(errors.begin(), errors.end(),
                    [](const auto& e) { return e.field.rfind("WeenieDesc.house_restrictions", 0) == 0; }));
}

TEST_CASE("WeenieDesc: a name and plural name longer than a short string decode whole, fresh and into storage",
          "[protocol][roundtrip]") {
  // 20 and 25 characters: each grows a string past its 15-character inline
  // buffer by less than twice (the growth that GCC 12's
  // resize_and_overwrite got wrong: it handed on the new capacity as the
  // length).
  CreateObject m = broad_projectile();
  m.weenie.name = "Force Bolt of Ruin I";
  m.weenie.plural_name = "Force Bolts of Ruin, Many";
  const auto bytes = encode(m);
  auto fresh = decode_create_object(bytes);
  REQUIRE(fresh.has_value());
  CHECK(fresh->weenie.name == "Force Bolt of Ruin I");
  CHECK(fresh->weenie.plural_name == "Force Bolts of Ruin, Many");
  CreateObject scratch;
  REQUIRE(decode_create_object_into(dereth::test::retail_door_create_object(), scratch).has_value());
  REQUIRE(decode_create_object_into(bytes, scratch).has_value());
  CHECK(scratch == *fresh);
  CHECK(encode(scratch) == bytes);
}

TEST_CASE("The dispatcher returns unknown opcodes whole and refuses a body shorter than an opcode", "[protocol]") {
  // F7E1 ServerName: no row of the table names it.
  const auto text = from_hex("E1F70000 01000000 64000000 0300 6869 21 00");
  auto m = decode_message(text);
  REQUIRE(m.has_value());
  REQUIRE(std::holds_alternative<Unknown>(*m));
  CHECK(std::get<Unknown>(*m).opcode == 0xF7E1u);
  CHECK(std::get<Unknown>(*m).bytes == text);
  CHECK(encode(*m) == text);
  CHECK(message_name(0xF7E0).empty());
  CHECK(message_name(opcode::PlayScriptType) == "PlayScriptType");
  CHECK(is_object_opcode(opcode::CreateObject));
  CHECK_FALSE(is_object_opcode(0xF7B0));
  for (std::size_t n = 0; n < 4; ++n) {
    auto short_body = decode_message(std::span<const std::uint8_t>(text.data(), n));
    REQUIRE_FALSE(short_body.has_value());
    CHECK(short_body.error().field == "opcode");
  }
}
