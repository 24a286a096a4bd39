#include "dereth/dat/animation.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <limits>

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

constexpr Did kId = 0x03000042;

Frame frame_at(float x) {
  return Frame{{x, x + 1.0F, x + 2.0F}, glm::quat(0.5F, 0.5F, -0.5F, 0.5F)};
}

// One hook of every type, in type order, with distinct field values.
std::vector<AnimationHook> every_hook() {
  CreateParticleHook particle{0x32000010, 0xFFFFFFFF, frame_at(3.0F), 12};
  CreateBlockingParticleHook blocking;
  static_cast<CreateParticleHook&>(blocking) = CreateParticleHook{0x32000011, 4, frame_at(-2.0F), 0};
  return {
      {HookDirection::Both, NoOpHook{}},
      {HookDirection::Forward, SoundHook{0x0A000123}},
      {HookDirection::Backward, SoundTableHook{0x1C}},
      {HookDirection::Both, AttackHook{3, -0.5F, 1.0F, 0.5F, 1.0F, 2.5F, 1.75F}},
      {HookDirection::Forward, AnimationDoneHook{}},
      {HookDirection::Both, ReplaceObjectHook{7, 0x010008AB}},
      {HookDirection::Both, EtherealHook{1}},
      {HookDirection::Both, TransparentPartHook{2, 0.0F, 1.0F, 0.25F}},
      {HookDirection::Both, LuminousHook{0.1F, 0.9F, 2.0F}},
      {HookDirection::Both, LuminousPartHook{5, 0.2F, 0.8F, 3.0F}},
      {HookDirection::Both, DiffuseHook{1.0F, 0.5F, 0.5F}},
      {HookDirection::Both, DiffusePartHook{6, 0.3F, 0.7F, 4.0F}},
      {HookDirection::Both, ScaleHook{2.0F, 0.75F}},
      {HookDirection::Forward, particle},
      {HookDirection::Both, DestroyParticleHook{12}},
      {HookDirection::Both, StopParticleHook{13}},
      {HookDirection::Both, NoDrawHook{1}},
      {HookDirection::Both, DefaultScriptHook{}},
      {HookDirection::Both, DefaultScriptPartHook{8}},
      {HookDirection::Both, CallPESHook{0x33000D77, 0.5F}},
      {HookDirection::Unknown, TransparentHook{0.0F, 1.0F, 1.5F}},
      {HookDirection::Both, SoundTweakedHook{0x0A000456, 0.25F, 0.75F, 0.5F}},
      {HookDirection::Both, SetOmegaHook{{0.0F, 0.0F, 3.14F}}},
      {HookDirection::Both, TextureVelocityHook{0.1F, -0.2F}},
      {HookDirection::Both, TextureVelocityPartHook{9, 0.3F, 0.4F}},
      {HookDirection::Both, SetLightHook{1}},
      {HookDirection::Backward, blocking},
  };
}

Animation sample_animation(bool pos_frames) {
  Animation a;
  a.id = kId;
  a.flags = pos_frames ? Animation::kHasPosFrames : 0;
  a.num_parts = 2;
  const auto hooks = every_hook();
  for (int f = 0; f < 3; ++f) {
    AnimationFrame frame;
    frame.part_frames = {frame_at(static_cast<float>(f)), frame_at(static_cast<float>(f) + 10.0F)};
    if (f == 1) frame.hooks = hooks;
    if (f == 2) frame.hooks = {hooks[5], hooks[26]};  // ReplaceObject's pad before a 40-byte payload
    a.frames.push_back(frame);
    if (pos_frames) a.pos_frames.push_back(frame_at(static_cast<float>(f) * 0.5F));
  }
  return a;
}

void patch_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (std::size_t i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>((v >> (8 * i)) & 0xFFU);
}

}  // namespace

TEST_CASE("AnimationHook: every type has the spec's wire size and round-trips", "[dat][animation]") {
  // 8 bytes of type and direction plus the payload, padded to four.
  const std::size_t sizes[kHookTypeCount] = {8,  12, 12, 36, 8,  12, 12, 24, 20, 24, 20, 24, 16, 48,
                                             12, 12, 12, 8,  12, 16, 20, 24, 20, 16, 20, 12, 48};
  const auto hooks = every_hook();
  REQUIRE(hooks.size() == kHookTypeCount);
  for (std::size_t i = 0; i < hooks.size(); ++i) {
    CAPTURE(i);
    CHECK(static_cast<std::size_t>(hooks[i].type()) == i);
    CHECK_FALSE(hook_type_name(hooks[i].type()).empty());
    ByteWriter w;
    write_animation_hook(w, hooks[i]);
    CHECK(w.size() == sizes[i]);
    ByteReader r(w.view(), "hook");
    auto back = read_animation_hook(r);
    REQUIRE(back.has_value());
    CHECK(*back == hooks[i]);
    CHECK(r.at_end());
  }
  CHECK(hook_type_name(static_cast<HookType>(27)).empty());
}

TEST_CASE("AnimationHook: ReplaceObject with a long-form DID is 16 bytes", "[dat][animation]") {
  const AnimationHook hook{HookDirection::Both, ReplaceObjectHook{1, 0x01004000}};
  ByteWriter w;
  write_animation_hook(w, hook);
  CHECK(w.size() == 16);  // 8 + u8 + 4-byte packed DID + 3 pad
  ByteReader r(w.view(), "hook");
  CHECK(read_animation_hook(r).value() == hook);
}

TEST_CASE("AnimationHook: SoundTweaked reads probability before priority", "[dat][animation]") {
  ByteWriter w;
  w.u32(21);
  w.i32(0);
  w.u32(0x0A000001);
  w.f32(0.25F);  // probability
  w.f32(0.75F);  // priority
  w.f32(1.0F);   // volume
  ByteReader r(w.view(), "hook");
  auto hook = read_animation_hook(r);
  REQUIRE(hook.has_value());
  const auto& tweaked = std::get<SoundTweakedHook>(hook->payload);
  CHECK(tweaked.wave == 0x0A000001U);
  CHECK(tweaked.probability == 0.25F);
  CHECK(tweaked.priority == 0.75F);
  CHECK(tweaked.volume == 1.0F);
}

TEST_CASE("AnimationHook: any direction value is kept as stored", "[dat][animation]") {
  ByteWriter w;
  w.u32(0);
  w.i32(7);
  ByteReader r(w.view(), "hook");
  auto hook = read_animation_hook(r);
  REQUIRE(hook.has_value());
  CHECK(static_cast<std::int32_t>(hook->direction) == 7);
  dereth::core::JsonWriter j;
  write_json(j, *hook);
  CHECK(j.str() == R"({"type":"NoOp","direction":7})");
}

TEST_CASE("Animation: write then read, with and without pos frames", "[dat][animation]") {
  for (const bool pos : {false, true}) {
    const Animation a = sample_animation(pos);
    const auto bytes = write_animation(a);
    auto back = read_animation(bytes, kId);
    REQUIRE(back.has_value());
    CHECK(*back == a);
    CHECK(write_animation(*back) == bytes);
  }
}

TEST_CASE("Animation: edge cases round-trip", "[dat][animation]") {
  SECTION("no frames, parts still counted") {
    Animation a;
    a.id = kId;
    a.num_parts = 17;
    const auto bytes = write_animation(a);
    CHECK(bytes.size() == 16);
    CHECK(read_animation(bytes, kId).value() == a);
  }
  SECTION("zero parts and frames without hooks") {
    Animation a;
    a.id = kId;
    a.flags = Animation::kHasPosFrames;
    a.frames.resize(2);
    a.pos_frames = {Frame{}, frame_at(1.0F)};
    const auto bytes = write_animation(a);
    CHECK(bytes.size() == 16 + 2 * 28 + 2 * 4);
    CHECK(read_animation(bytes, kId).value() == a);
  }
  SECTION("NaN floats survive bit for bit") {
    Animation a;
    a.id = kId;
    a.num_parts = 1;
    AnimationFrame f;
    f.part_frames = {Frame{}};
    f.hooks = {{HookDirection::Both, ScaleHook{std::numeric_limits<float>::quiet_NaN(), 1.0F}}};
    a.frames = {f};
    const auto bytes = write_animation(a);
    auto back = read_animation(bytes, kId);
    REQUIRE(back.has_value());
    CHECK(std::isnan(std::get<ScaleHook>(back->frames[0].hooks[0].payload).end));
    CHECK(write_animation(*back) == bytes);
  }
  SECTION("the writer pads missing part and pos frames with the identity") {
    Animation a;
    a.id = kId;
    a.flags = Animation::kHasPosFrames;
    a.num_parts = 2;
    a.frames.resize(1);
    const auto back = read_animation(write_animation(a), kId).value();
    CHECK(back.pos_frames == std::vector<Frame>{Frame{}});
    CHECK(back.frames[0].part_frames == std::vector<Frame>{Frame{}, Frame{}});
  }
}

TEST_CASE("Animation: every truncation is a clean error", "[dat][animation]") {
  const auto bytes = write_animation(sample_animation(true));
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto a = read_animation(std::span(bytes.data(), n), kId);
    REQUIRE_FALSE(a.has_value());
    CHECK((a.error().kind == ErrorKind::Truncated || a.error().kind == ErrorKind::TooLarge));
    CHECK(a.error().context == "DAT 0x03000042 Animation");
  }
}

TEST_CASE("Animation: oversized counts, trailing bytes and a wrong DID are errors", "[dat][animation]") {
  const auto bytes = write_animation(sample_animation(false));
  SECTION("num_frames") {
    auto b = bytes;
    patch_u32(b, 12, 0xFFFFFFFF);
    auto a = read_animation(b, kId);
    REQUIRE_FALSE(a.has_value());
    CHECK(a.error().kind == ErrorKind::TooLarge);
    CHECK(a.error().field == "num_frames");
    CHECK(a.error().offset == 12);
  }
  SECTION("num_parts") {
    auto b = bytes;
    patch_u32(b, 8, 0x40000000);
    auto a = read_animation(b, kId);
    REQUIRE_FALSE(a.has_value());
    CHECK(a.error().kind == ErrorKind::TooLarge);
  }
  SECTION("hook count") {
    auto b = bytes;
    patch_u32(b, 16 + 2 * 28, 0x20000000);  // frame 0's hook count
    auto a = read_animation(b, kId);
    REQUIRE_FALSE(a.has_value());
    CHECK(a.error().kind == ErrorKind::TooLarge);
    CHECK(a.error().offset == 16 + 2 * 28);
  }
  SECTION("trailing") {
    auto b = bytes;
    b.push_back(0);
    auto a = read_animation(b, kId);
    REQUIRE_FALSE(a.has_value());
    CHECK(a.error().kind == ErrorKind::Trailing);
    CHECK(a.error().offset == bytes.size());
  }
  SECTION("DID") {
    auto a = read_animation(bytes, kId + 1);
    REQUIRE_FALSE(a.has_value());
    CHECK(a.error().kind == ErrorKind::Invalid);
    CHECK(a.error().field == "id");
  }
}

TEST_CASE("Animation: JSON names hook types and writes DIDs in hex", "[dat][animation]") {
  Animation a;
  a.id = kId;
  a.num_parts = 0;
  AnimationFrame f;
  f.hooks = {{HookDirection::Forward, CallPESHook{0x33000D77, 0.5F}}};
  a.frames = {f};
  dereth::core::JsonWriter j;
  write_json(j, a);
  CHECK(j.str() == R"({"id":"0x03000042","flags":"0x00000000","num_parts":0,"frames":[{"part_frames":[],)"
                   R"("hooks":[{"type":"CallPES","direction":"Forward","script":"0x33000D77","pause":0.5}]}]})");
}
