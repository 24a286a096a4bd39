// PhysicsDesc::UnPack 0x0051DDD0 (seed section 1) and the CreateObject F745
// that carries it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "dereth/core/byte_writer.hpp"

#include "fixtures.hpp"

using namespace dereth::protocol;
using dereth::core::ByteReader;
using dereth::core::ByteWriter;
using dereth::core::ErrorKind;
using namespace dereth::test;

namespace {

// Builds a PhysicsDesc by hand, field by field in the seed's order, so the
// reader is checked against the seed rather than against our own writer.
struct HandBuilt {
  ByteWriter w;
  HandBuilt() { w.u32(0); }  // a leading u32 stands in for an opcode so alignment is message-relative
};

}  // namespace

TEST_CASE("PhysicsDesc::UnPack 0x0051DDD0 reads every gated field in retail order", "[retail][protocol]") {
  namespace f = physics_desc_flag;
  const std::uint32_t bits = f::Movement | f::Position | f::MTable | f::STable | f::PeTable | f::CSetup | f::Parent |
                             f::Children | f::ObjScale | f::Friction | f::Elasticity | f::Translucency | f::Velocity |
                             f::Acceleration | f::Omega | f::DefaultScript | f::DefaultScriptIntensity;
  HandBuilt h;
  auto& w = h.w;
  w.u32(bits);
  w.u32(0x00400C08);
  w.u32(8);                                                                      // movement length
  for (int b : {0, 0, 0x3D, 0, 0, 0, 0, 0}) w.u8(static_cast<std::uint8_t>(b));  // type 0, no fields
  w.u32(1);                                                                      // autonomous
  w.u32(0x11223344);                                                             // position: cell, xyz, wxyz
  for (float v : {1.0F, 2.0F, 3.0F, 1.0F, 0.0F, 0.0F, 0.0F}) w.f32(v);
  w.u32(0x09000002);  // MTable
  w.u32(0x20000003);  // STable
  w.u32(0x34000004);  // PeTable
  w.u32(0x02000005);  // CSetup
  w.u32(0x50000006);  // parent guid
  w.u32(7);           // parent location
  w.u32(2);           // children
  w.u32(0x80000008);
  w.u32(9);
  w.u32(0x8000000A);
  w.u32(11);
  w.f32(1.5F);                                  // scale
  w.f32(0.25F);                                 // friction
  w.f32(0.125F);                                // elasticity
  w.f32(0.5F);                                  // translucency
  for (float v : {1.0F, 2.0F, 3.0F}) w.f32(v);  // velocity
  for (float v : {4.0F, 5.0F, 6.0F}) w.f32(v);  // acceleration
  for (float v : {7.0F, 8.0F, 9.0F}) w.f32(v);  // omega
  w.u32(0x42);                                  // default script type
  w.f32(0.875F);                                // default script intensity
  for (std::uint16_t t = 10; t < 19; ++t) w.u16(t);
  w.u16(0);  // align
  const auto bytes = w.data();

  ByteReader r(bytes, "test");
  REQUIRE(r.skip(4, "lead").has_value());
  auto d = read_physics_desc(r);
  REQUIRE(d.has_value());
  CHECK(r.at_end());
  CHECK(d->bitfield == bits);
  CHECK(d->state == 0x00400C08u);
  REQUIRE(d->movement.has_value());
  CHECK(d->movement->bytes.size() == 8);
  CHECK(d->movement->autonomous == 1u);
  CHECK_FALSE(d->animation_frame.has_value());
  CHECK(d->position->cell_id == 0x11223344u);
  CHECK(d->position->origin == Vec3{1, 2, 3});
  CHECK(d->motion_table_id == 0x09000002u);
  CHECK(d->sound_table_id == 0x20000003u);
  CHECK(d->physics_script_table_id == 0x34000004u);
  CHECK(d->setup_id == 0x02000005u);
  CHECK(d->parent == ParentLink{0x50000006, 7});
  CHECK(*d->children == std::vector<ChildLink>{{0x80000008, 9}, {0x8000000A, 11}});
  CHECK(d->object_scale == 1.5F);
  CHECK(d->friction == 0.25F);
  CHECK(d->elasticity == 0.125F);
  CHECK(d->translucency == 0.5F);
  CHECK(d->velocity == Vec3{1, 2, 3});
  CHECK(d->acceleration == Vec3{4, 5, 6});
  CHECK(d->omega == Vec3{7, 8, 9});
  CHECK(d->default_script_type == 0x42u);
  CHECK(d->default_script_intensity == 0.875F);
  for (std::size_t i = 0; i < 9; ++i) CHECK(d->timestamps[i] == 10 + i);
  CHECK(d->timestamp(TimestampIndex::Instance) == 18);
  CHECK(d->timestamp(TimestampIndex::Position) == 10);

  // The writer reproduces the hand-built bytes.
  ByteWriter again;
  again.u32(0);
  write_physics_desc(again, *d);
  CHECK(again.data() == bytes);
}

TEST_CASE("PhysicsDesc::UnPack 0x0051DDD0 AnimationFrame branch only without Movement", "[retail][protocol]") {
  namespace f = physics_desc_flag;
  SECTION("AnimationFrame alone is read") {
    HandBuilt h;
    h.w.u32(f::AnimationFrame);
    h.w.u32(0);
    h.w.u32(0x65);
    for (int i = 0; i < 9; ++i) h.w.u16(0);
    h.w.u16(0);
    ByteReader r(h.w.view(), "test");
    REQUIRE(r.skip(4, "lead").has_value());
    auto d = read_physics_desc(r);
    REQUIRE(d.has_value());
    CHECK(r.at_end());
    CHECK(d->animation_frame == 0x65u);
    CHECK_FALSE(d->movement.has_value());
  }
  SECTION("with Movement set, the AnimationFrame bit is ignored and no u32 is read for it") {
    HandBuilt h;
    h.w.u32(f::Movement | f::AnimationFrame);
    h.w.u32(0);
    h.w.u32(0);  // movement length 0: no bytes, no autonomous word
    for (int i = 0; i < 9; ++i) h.w.u16(static_cast<std::uint16_t>(i + 1));
    h.w.u16(0);
    ByteReader r(h.w.view(), "test");
    REQUIRE(r.skip(4, "lead").has_value());
    auto d = read_physics_desc(r);
    REQUIRE(d.has_value());
    CHECK(r.at_end());
    REQUIRE(d->movement.has_value());
    CHECK(d->movement->bytes.empty());
    CHECK_FALSE(d->movement->autonomous.has_value());
    CHECK_FALSE(d->animation_frame.has_value());
    CHECK(d->timestamps[0] == 1);
    ByteWriter again;
    again.u32(0);
    write_physics_desc(again, *d);
    CHECK(again.data() == h.w.data());  // the ignored bit survives a re-encode
  }
}

TEST_CASE("PhysicsDesc::UnPack 0x0051DDD0 keeps an absent PeTable distinct from a present zero", "[retail][protocol]") {
  PhysicsDesc absent;
  PhysicsDesc zero;
  zero.physics_script_table_id = 0;
  ByteWriter wa, wz;
  wa.u32(0);
  wz.u32(0);
  write_physics_desc(wa, absent);
  write_physics_desc(wz, zero);
  CHECK(wz.size() == wa.size() + 4);
  ByteReader ra(wa.view(), "test"), rz(wz.view(), "test");
  REQUIRE(ra.skip(4, "lead").has_value());
  REQUIRE(rz.skip(4, "lead").has_value());
  auto da = read_physics_desc(ra);
  auto dz = read_physics_desc(rz);
  REQUIRE(da.has_value());
  REQUIRE(dz.has_value());
  CHECK_FALSE(da->physics_script_table_id.has_value());
  REQUIRE(dz->physics_script_table_id.has_value());
  CHECK(*dz->physics_script_table_id == 0u);
  CHECK(dz->bitfield == physics_desc_flag::PeTable);
  CHECK(da->bitfield == 0u);
}

TEST_CASE("CreateObject F745: the retail Door decodes exactly", "[protocol][golden]") {
  const auto bytes = retail_door_create_object();
  REQUIRE(bytes.size() == 140);
  auto m = decode_create_object(bytes);
  REQUIRE(m.has_value());
  CHECK(m->guid == 0x77204033u);
  CHECK(m->model.palettes.empty());
  CHECK(m->model.version == 0x11);
  const auto& p = m->physics;
  CHECK(p.bitfield == 0x19803u);
  CHECK(p.state == 0x10018u);
  REQUIRE(p.movement.has_value());
  CHECK(p.movement->bytes.size() == 12);
  CHECK(p.movement->autonomous == 0u);
  auto md = decode_movement_buffer(p.movement->bytes);
  REQUIRE(md.has_value());
  CHECK(md->type() == MovementType::Invalid);
  CHECK(md->current_style == 0x003D);
  const auto& ims = std::get<InterpretedMovement>(md->payload).state;
  CHECK(ims.flags() == 0x2u);
  CHECK(ims.forward_command == std::uint16_t{0x000C});
  CHECK(p.position->cell_id == 0x720401B4u);
  CHECK(p.motion_table_id == 0x09000086u);
  CHECK(p.sound_table_id == 0x20000022u);
  CHECK(p.physics_script_table_id == 0x3400002Bu);
  CHECK(p.setup_id == 0x020005DAu);
  CHECK(p.timestamps == std::array<std::uint16_t, 9>{1, 2, 0, 0, 0, 2, 0, 0, 400});
  const auto& w = m->weenie;
  CHECK(w.weenie_flags == 0x30u);
  CHECK(w.name == "Door");
  CHECK(w.weenie_class_id == 12705u);
  CHECK(w.icon_id == 0x06001317u);
  CHECK(w.item_type == 0x80u);
  CHECK(w.object_description_flags == 0x1014u);
  CHECK(w.usable == 0x20u);
  CHECK(w.use_radius == 2.0F);
  CHECK_FALSE(w.value.has_value());
  // The writer reproduces the retail bytes exactly.
  CHECK(encode(*m) == bytes);
}

TEST_CASE("CreateObject F745: a broad projectile round-trips", "[protocol][roundtrip]") {
  const auto m = broad_projectile();
  const auto bytes = encode(m);
  CHECK(bytes.size() % 4 == 0);
  auto back = decode_create_object(bytes);
  REQUIRE(back.has_value());
  // The reader records the bitfields the writer derived from presence.
  auto expected = m;
  expected.physics.bitfield = m.physics.encoded_bitfield();
  expected.weenie.weenie_flags = m.weenie.encoded_flags();
  CHECK(*back == expected);
  CHECK(encode(*back) == bytes);
  auto md = decode_movement_buffer(back->physics.movement->bytes);
  REQUIRE(md.has_value());
  CHECK(std::get<InterpretedMovement>(md->payload).state.forward_speed == 2.5F);
}

TEST_CASE("CreateObject F745: every truncation is a clean error", "[protocol][malformed]") {
  for (const auto& bytes : {retail_door_create_object(), encode(broad_projectile())}) {
    auto errors = every_prefix_fails(bytes, [](auto b) { return decode_create_object(b); });
    // Cuts inside PhysicsDesc name PhysicsDesc fields, cuts inside WeenieDesc name WeenieDesc fields.
    CHECK(
        std::any_of(errors.begin(), errors.end(), [](const auto& e) { return e.field.rfind("PhysicsDesc.", 0) == 0; }));
    CHECK(
        std::any_of(errors.begin(), errors.end(), [](const auto& e) { return e.field.rfind("WeenieDesc.", 0) == 0; }));
    CHECK(std::all_of(errors.begin(), errors.end(), [](const auto& e) { return e.context == "F745 CreateObject"; }));
  }
}

TEST_CASE("PhysicsDesc::UnPack 0x0051DDD0 truncation names each gated cursor", "[retail][malformed]") {
  const auto bytes = encode(broad_projectile());
  // Find where PhysicsDesc starts: after opcode, guid and the ObjDesc.
  ByteReader skip(bytes, "t");
  REQUIRE(skip.skip(8, "head").has_value());
  REQUIRE(read_obj_desc(skip).has_value());
  const std::size_t start = skip.position();
  struct Cut {
    std::size_t at;  // offset from PhysicsDesc start at which the cut falls
    const char* field;
  };
  // bitfield, state, movement length, movement bytes, autonomous, position...
  const std::size_t movement_len = broad_projectile().physics.movement->bytes.size();
  std::size_t o = 0;
  std::vector<Cut> cuts;
  cuts.push_back({o, "PhysicsDesc.bitfield"});
  o += 4;
  cuts.push_back({o, "PhysicsDesc.state"});
  o += 4;
  cuts.push_back({o, "PhysicsDesc.movement.length"});
  o += 4;
  cuts.push_back({o + movement_len, "PhysicsDesc.movement.autonomous"});
  o += movement_len + 4;
  cuts.push_back({o, "PhysicsDesc.position"});
  o += 32;
  for (const char* field : {"PhysicsDesc.motion_table_id", "PhysicsDesc.sound_table_id",
                            "PhysicsDesc.physics_script_table_id", "PhysicsDesc.setup_id"}) {
    cuts.push_back({o, field});
    o += 4;
  }
  cuts.push_back({o, "PhysicsDesc.parent"});
  o += 8;
  cuts.push_back({o, "PhysicsDesc.children.count"});
  o += 4 + 16;
  for (const char* field :
       {"PhysicsDesc.object_scale", "PhysicsDesc.friction", "PhysicsDesc.elasticity", "PhysicsDesc.translucency"}) {
    cuts.push_back({o, field});
    o += 4;
  }
  for (const char* field : {"PhysicsDesc.velocity", "PhysicsDesc.acceleration", "PhysicsDesc.omega"}) {
    cuts.push_back({o, field});
    o += 12;
  }
  cuts.push_back({o, "PhysicsDesc.default_script_type"});
  o += 4;
  cuts.push_back({o, "PhysicsDesc.default_script_intensity"});
  o += 4;
  cuts.push_back({o, "PhysicsDesc.timestamps"});
  o += 18;
  cuts.push_back({o, "PhysicsDesc.align"});
  for (const auto& cut : cuts) {
    std::vector<std::uint8_t> prefix(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(start + cut.at));
    auto m = decode_create_object(prefix);
    INFO("cut at PhysicsDesc+" << cut.at);
    REQUIRE_FALSE(m.has_value());
    CHECK(m.error().field == cut.field);
    CHECK(m.error().offset == start + cut.at);
  }
}

TEST_CASE("PhysicsDesc::UnPack 0x0051DDD0 refuses oversized lengths before allocating", "[retail][malformed]") {
  namespace f = physics_desc_flag;
  SECTION("a movement length of 0xFFFFFFFF is an error, not a 4 GiB allocation") {
    HandBuilt h;
    h.w.u32(f::Movement);
    h.w.u32(0);
    h.w.u32(0xFFFFFFFF);
    h.w.zeros(64);
    ByteReader r(h.w.view(), "F745 CreateObject");
    REQUIRE(r.skip(4, "lead").has_value());
    auto d = read_physics_desc(r);
    REQUIRE_FALSE(d.has_value());
    CHECK(d.error().kind == ErrorKind::TooLarge);
    CHECK(d.error().field == "PhysicsDesc.movement.length");
    CHECK(d.error().offset == 12);
  }
  SECTION("a children count beyond the bytes is an error") {
    HandBuilt h;
    h.w.u32(f::Children);
    h.w.u32(0);
    h.w.u32(0x20000000);
    h.w.zeros(64);
    ByteReader r(h.w.view(), "F745 CreateObject");
    REQUIRE(r.skip(4, "lead").has_value());
    auto d = read_physics_desc(r);
    REQUIRE_FALSE(d.has_value());
    CHECK(d.error().kind == ErrorKind::TooLarge);
    CHECK(d.error().field == "PhysicsDesc.children.count");
  }
}

TEST_CASE("PhysicsDesc keeps NaN and infinite floats bit for bit", "[protocol][roundtrip]") {
  PhysicsDesc d;
  d.translucency = std::bit_cast<float>(0x7FC0BEEFu);
  d.default_script_intensity = -std::numeric_limits<float>::infinity();
  d.velocity = Vec3{std::bit_cast<float>(0xFFC00001u), 0, 0};
  ByteWriter w;
  w.u32(0);
  write_physics_desc(w, d);
  ByteReader r(w.view(), "t");
  REQUIRE(r.skip(4, "lead").has_value());
  auto back = read_physics_desc(r);
  REQUIRE(back.has_value());
  CHECK(std::bit_cast<std::uint32_t>(*back->translucency) == 0x7FC0BEEFu);
  CHECK(std::isinf(*back->default_script_intensity));
  CHECK(std::bit_cast<std::uint32_t>(back->velocity->x) == 0xFFC00001u);
}
