// Raw-hook compatibility: synthetic PhysicsScript and Animation records built
// byte by byte (not with the writer), each with a complete CreateBlocking
// payload followed by an AnimationDone hook (seed sections 8 and 11.4). No
// retail DAT bytes are used.

#include <catch2/catch.hpp>

#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "dereth/dat/animation.hpp"
#include "dereth/dat/physics_script.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

// Little-endian byte appenders for the hand-built fixtures.
struct Bytes {
  std::vector<std::uint8_t> b;
  Bytes& u8(std::uint8_t v) {
    b.push_back(v);
    return *this;
  }
  Bytes& u16(std::uint16_t v) {
    b.push_back(static_cast<std::uint8_t>(v & 0xFFU));
    b.push_back(static_cast<std::uint8_t>(v >> 8));
    return *this;
  }
  Bytes& u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>((v >> (8 * i)) & 0xFFU));
    return *this;
  }
  Bytes& i32(std::int32_t v) { return u32(static_cast<std::uint32_t>(v)); }
  Bytes& f32(float v) { return u32(std::bit_cast<std::uint32_t>(v)); }
  Bytes& f64(double v) {
    const auto bits = std::bit_cast<std::uint64_t>(v);
    for (int i = 0; i < 8; ++i) b.push_back(static_cast<std::uint8_t>((bits >> (8 * i)) & 0xFFU));
    return *this;
  }
  [[nodiscard]] std::size_t size() const { return b.size(); }
};

constexpr Did kScriptId = 0x33001234;
constexpr Did kAnimId = 0x03001234;

// type 26, direction, emitter info, part, Frame (origin, w x y z), emitter id:
// 8 + 40 bytes.
void put_create_blocking(Bytes& out, std::int32_t direction, std::uint32_t part, std::uint32_t emitter_id) {
  out.u32(26).i32(direction);
  out.u32(0x320007AA);  // emitter info DID
  out.u32(part);
  out.f32(0.5F).f32(-1.0F).f32(2.25F);          // offset origin
  out.f32(0.0F).f32(0.0F).f32(0.0F).f32(1.0F);  // offset quaternion w, x, y, z
  out.u32(emitter_id);
}

// PhysicsScript: CreateBlocking at t = 0, AnimationDone at t = 1.5 (80 bytes).
Bytes raw_script() {
  Bytes s;
  s.u32(kScriptId).u32(2);
  s.f64(0.0);
  put_create_blocking(s, 0, 0xFFFFFFFF, 19);
  s.f64(1.5);
  s.u32(4).i32(1);  // AnimationDone, Forward: no payload
  return s;
}

// Animation: 1 part, 1 frame, hooks CreateBlocking then AnimationDone (104 bytes).
Bytes raw_animation() {
  Bytes a;
  a.u32(kAnimId).u32(0).u32(1).u32(1);
  a.f32(0).f32(0).f32(0).f32(1).f32(0).f32(0).f32(0);  // part frame: origin, w x y z
  a.u32(2);
  put_create_blocking(a, 1, 0, 7);
  a.u32(4).i32(-1);  // AnimationDone, Backward
  return a;
}

void check_blocking(const AnimationHook& hook, HookDirection direction, std::uint32_t part, std::uint32_t emitter_id) {
  REQUIRE(hook.type() == HookType::CreateBlockingParticle);
  CHECK(hook.direction == direction);
  const auto& p = std::get<CreateBlockingParticleHook>(hook.payload);
  CHECK(p.emitter_info == 0x320007AAU);
  CHECK(p.part_index == part);
  CHECK(p.offset.origin == glm::vec3(0.5F, -1.0F, 2.25F));
  CHECK(p.offset.orientation == glm::quat(0.0F, 0.0F, 0.0F, 1.0F));  // w = 0, z = 1: not the identity
  CHECK(p.emitter_id == emitter_id);
}

}  // namespace

TEST_CASE(
    "CreateBlockingParticleHook::Execute 0x00526EF0: raw PhysicsScript, CreateBlocking then AnimationDone at the exact "
    "cursor",
    "[dat][raw_hook][retail]") {
  const Bytes s = raw_script();
  REQUIRE(s.size() == 80);

  // Hook by hook: the 40-byte payload is consumed whole, so AnimationDone's
  // start time is read at 64 and the record ends at 80.
  const std::string context = "raw script";
  ByteReader r(s.b, context);
  REQUIRE(r.skip(8, "header").has_value());
  CHECK(r.f64("t").value() == 0.0);
  REQUIRE(r.position() == 16);
  auto blocking = read_animation_hook(r);
  REQUIRE(blocking.has_value());
  CHECK(r.position() == 64);
  check_blocking(*blocking, HookDirection::Both, 0xFFFFFFFF, 19);
  CHECK(r.f64("t").value() == 1.5);
  REQUIRE(r.position() == 72);
  auto done = read_animation_hook(r);
  REQUIRE(done.has_value());
  CHECK(r.position() == 80);
  CHECK(r.at_end());
  CHECK(done->type() == HookType::AnimationDone);
  CHECK(done->direction == HookDirection::Forward);

  // The whole record.
  auto script = read_physics_script(s.b, kScriptId);
  REQUIRE(script.has_value());
  REQUIRE(script->hooks.size() == 2);
  CHECK(script->hooks[0].start_time == 0.0);
  check_blocking(script->hooks[0].hook, HookDirection::Both, 0xFFFFFFFF, 19);
  CHECK(script->hooks[1].start_time == 1.5);
  CHECK(script->hooks[1].hook.type() == HookType::AnimationDone);
  CHECK(script->length() == 1.5);
}

TEST_CASE(
    "CreateBlockingParticleHook::Execute 0x00526EF0: raw Animation, CreateBlocking then AnimationDone at the exact "
    "cursor",
    "[dat][raw_hook][retail]") {
  const Bytes a = raw_animation();
  REQUIRE(a.size() == 104);

  const std::string context = "raw animation";
  ByteReader r(a.b, context);
  REQUIRE(r.skip(44, "header and part frame").has_value());
  CHECK(r.u32("num_hooks").value() == 2);
  auto blocking = read_animation_hook(r);
  REQUIRE(blocking.has_value());
  CHECK(r.position() == 96);
  check_blocking(*blocking, HookDirection::Forward, 0, 7);
  auto done = read_animation_hook(r);
  REQUIRE(done.has_value());
  CHECK(r.position() == 104);
  CHECK(done->type() == HookType::AnimationDone);
  CHECK(done->direction == HookDirection::Backward);

  auto anim = read_animation(a.b, kAnimId);
  REQUIRE(anim.has_value());
  CHECK(anim->num_parts == 1);
  REQUIRE(anim->frames.size() == 1);
  CHECK(anim->frames[0].part_frames == std::vector<Frame>{Frame{}});
  REQUIRE(anim->frames[0].hooks.size() == 2);
  check_blocking(anim->frames[0].hooks[0], HookDirection::Forward, 0, 7);
  CHECK(anim->frames[0].hooks[1] == AnimationHook{HookDirection::Backward, AnimationDoneHook{}});
}

TEST_CASE("CreateBlockingParticleHook::Execute 0x00526EF0: AnimationDone reads no payload before the next entry",
          "[dat][raw_hook][retail]") {
  // CreateBlocking, AnimationDone, then a SoundTable hook: the SoundTable's
  // start time must be read right after AnimationDone's 8 bytes.
  Bytes s;
  s.u32(kScriptId).u32(3);
  s.f64(0.25);
  put_create_blocking(s, 0, 2, 0);
  s.f64(0.5);
  s.u32(4).i32(0);
  REQUIRE(s.size() == 80);
  s.f64(0.75);
  s.u32(2).i32(0).u32(0x11);  // SoundTable, sound 0x11
  REQUIRE(s.size() == 100);

  auto script = read_physics_script(s.b, kScriptId);
  REQUIRE(script.has_value());
  REQUIRE(script->hooks.size() == 3);
  check_blocking(script->hooks[0].hook, HookDirection::Both, 2, 0);
  CHECK(script->hooks[1].hook.type() == HookType::AnimationDone);
  CHECK(script->hooks[2].start_time == 0.75);
  CHECK(std::get<SoundTableHook>(script->hooks[2].hook.payload).sound == 0x11U);
}

TEST_CASE(
    "Raw Animation: ReplaceObject's u8 part and packed DID are re-aligned before CreateBlocking "
    "(CreateBlockingParticleHook::Execute 0x00526EF0)",
    "[dat][raw_hook][retail]") {
  // numParts 0, one frame, hooks: ReplaceObject (2-byte DID, 1 pad byte),
  // ReplaceObject (4-byte DID, 3 pad bytes), CreateBlocking, AnimationDone.
  Bytes a;
  a.u32(kAnimId).u32(0).u32(0).u32(1);
  a.u32(4);
  REQUIRE(a.size() == 20);
  a.u32(5).i32(0).u8(2).u16(0x0123).u8(0);  // 0x01000123, one pad byte
  REQUIRE(a.size() == 32);
  a.u32(5).i32(1).u8(9).u16(0x8023).u16(0x4567).u8(0).u8(0).u8(0);  // 0x01234567, three pad bytes
  REQUIRE(a.size() == 48);
  put_create_blocking(a, 0, 1, 5);
  REQUIRE(a.size() == 96);
  a.u32(4).i32(0);
  REQUIRE(a.size() == 104);

  const std::string context = "raw animation";
  ByteReader r(a.b, context);
  REQUIRE(r.skip(20, "header").has_value());
  const std::size_t expected_ends[] = {32, 48, 96, 104};
  std::vector<AnimationHook> hooks;
  for (const std::size_t end : expected_ends) {
    auto hook = read_animation_hook(r);
    REQUIRE(hook.has_value());
    CHECK(r.position() == end);
    hooks.push_back(*hook);
  }
  CHECK(hooks[0] == AnimationHook{HookDirection::Both, ReplaceObjectHook{2, 0x01000123}});
  CHECK(hooks[1] == AnimationHook{HookDirection::Forward, ReplaceObjectHook{9, 0x01234567}});
  check_blocking(hooks[2], HookDirection::Both, 1, 5);
  CHECK(hooks[3].type() == HookType::AnimationDone);

  auto anim = read_animation(a.b, kAnimId);
  REQUIRE(anim.has_value());
  CHECK(anim->frames.at(0).hooks == hooks);
}

TEST_CASE("Raw hooks: unknown hook types are rejected at the type field", "[dat][raw_hook]") {
  for (const std::uint32_t bad : {27U, 0x100U, 0xFFFFFFFFU}) {
    Bytes s;
    s.u32(kScriptId).u32(1).f64(0.0).u32(bad).i32(0);
    auto script = read_physics_script(s.b, kScriptId);
    REQUIRE_FALSE(script.has_value());
    CHECK(script.error().kind == ErrorKind::Invalid);
    CHECK(script.error().field == "hook.type");
    CHECK(script.error().offset == 16);
    CHECK(script.error().context == "DAT 0x33001234 PhysicsScript");

    Bytes a = raw_animation();
    a.b[96] = static_cast<std::uint8_t>(bad & 0xFFU);  // the AnimationDone's type
    a.b[97] = static_cast<std::uint8_t>((bad >> 8) & 0xFFU);
    a.b[98] = static_cast<std::uint8_t>((bad >> 16) & 0xFFU);
    a.b[99] = static_cast<std::uint8_t>((bad >> 24) & 0xFFU);
    auto anim = read_animation(a.b, kAnimId);
    REQUIRE_FALSE(anim.has_value());
    CHECK(anim.error().kind == ErrorKind::Invalid);
    CHECK(anim.error().offset == 96);
    CHECK(anim.error().context == "DAT 0x03001234 Animation");
  }
}

TEST_CASE("Raw hooks: a truncated CreateBlocking payload or pad is an error at every cut", "[dat][raw_hook]") {
  const Bytes s = raw_script();
  for (std::size_t n = 0; n < s.size(); ++n) {
    auto script = read_physics_script(std::span(s.b.data(), n), kScriptId);
    REQUIRE_FALSE(script.has_value());
    CHECK((script.error().kind == ErrorKind::Truncated || script.error().kind == ErrorKind::TooLarge));
  }
  const Bytes a = raw_animation();
  for (std::size_t n = 0; n < a.size(); ++n) {
    auto anim = read_animation(std::span(a.b.data(), n), kAnimId);
    REQUIRE_FALSE(anim.has_value());
    CHECK((anim.error().kind == ErrorKind::Truncated || anim.error().kind == ErrorKind::TooLarge));
  }
  // Cut inside the offset Frame: the error names the CreateParticle field.
  auto cut = read_physics_script(std::span(s.b.data(), 40), kScriptId);
  REQUIRE_FALSE(cut.has_value());
  CHECK(cut.error().kind == ErrorKind::Truncated);
  CHECK(cut.error().field == "CreateParticle.offset");

  // A ReplaceObject as the last hook without its pad byte.
  Bytes p;
  p.u32(kScriptId).u32(1).f64(0.0).u32(5).i32(0).u8(1).u16(0x0001);
  auto unpadded = read_physics_script(p.b, kScriptId);
  REQUIRE_FALSE(unpadded.has_value());
  CHECK(unpadded.error().kind == ErrorKind::Truncated);
  CHECK(unpadded.error().field == "hook.pad");
  CHECK(unpadded.error().offset == 27);
  p.u8(0);
  CHECK(read_physics_script(p.b, kScriptId).has_value());
}

TEST_CASE("Raw hooks: bad counts are errors", "[dat][raw_hook]") {
  SECTION("a PhysicsScript count the bytes cannot hold is TooLarge at the count") {
    Bytes s = raw_script();
    s.b[4] = 0x00;
    s.b[7] = 0x10;  // 0x10000002 entries
    auto script = read_physics_script(s.b, kScriptId);
    REQUIRE_FALSE(script.has_value());
    CHECK(script.error().kind == ErrorKind::TooLarge);
    CHECK(script.error().offset == 4);
  }
  SECTION("one entry more than stored is Truncated") {
    Bytes s = raw_script();
    s.b[4] = 3;
    auto script = read_physics_script(s.b, kScriptId);
    REQUIRE_FALSE(script.has_value());
    CHECK(script.error().kind == ErrorKind::Truncated);
    CHECK(script.error().offset == 80);
  }
  SECTION("one entry fewer leaves trailing bytes") {
    Bytes s = raw_script();
    s.b[4] = 1;
    auto script = read_physics_script(s.b, kScriptId);
    REQUIRE_FALSE(script.has_value());
    CHECK(script.error().kind == ErrorKind::Trailing);
    CHECK(script.error().offset == 64);
  }
  SECTION("an Animation hook count the bytes cannot hold is TooLarge at the count") {
    Bytes a = raw_animation();
    a.b[44] = 0xFF;
    a.b[45] = 0xFF;
    a.b[46] = 0xFF;
    a.b[47] = 0xFF;
    auto anim = read_animation(a.b, kAnimId);
    REQUIRE_FALSE(anim.has_value());
    CHECK(anim.error().kind == ErrorKind::TooLarge);
    CHECK(anim.error().field == "AnimationFrame.num_hooks");
    CHECK(anim.error().offset == 44);
  }
  SECTION("an Animation frame count the bytes cannot hold is TooLarge at the count") {
    Bytes a = raw_animation();
    a.b[12] = 3;  // 3 frames of at least 32 bytes; 88 remain
    auto anim = read_animation(a.b, kAnimId);
    REQUIRE_FALSE(anim.has_value());
    CHECK(anim.error().kind == ErrorKind::TooLarge);
    CHECK(anim.error().offset == 12);
  }
}
