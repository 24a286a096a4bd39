#include "dereth/dat/motion_table.hpp"

#include <catch2/catch.hpp>

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

constexpr Did kId = 0x09000001;

MotionData data(std::vector<AnimData> anims, std::uint8_t flags, std::uint8_t bitfield = 0) {
  MotionData m;
  m.bitfield = bitfield;
  m.flags = flags;
  m.anims = std::move(anims);
  if ((flags & MotionData::kHasVelocity) != 0) m.velocity = {0.0F, 4.0F, 0.0F};
  if ((flags & MotionData::kHasOmega) != 0) m.omega = {0.0F, 0.0F, 1.5F};
  return m;
}

MotionTable sample_table() {
  MotionTable t;
  t.id = kId;
  t.default_style = 0x8000003D;
  t.style_defaults = {{0x8000003D, 0x41000003}, {0x8000003C, 0x41000003}};
  t.cycles = {
      {0x003D0003, data({{0x03000001, 0, -1, 30.0F}}, 0)},
      {0x003D0005, data({{0x03000002, 0, -1, 30.0F}, {0x03000003, 2, 10, -15.0F}}, MotionData::kHasVelocity, 1)},
      {0x003D000D, data({}, MotionData::kHasVelocity | MotionData::kHasOmega, 2)},
  };
  t.modifiers = {{0x003D0038, data({{0x03000004, 0, -1, 30.0F}}, MotionData::kHasOmega)}};
  MotionLinks link;
  link.outer_key = 0x003D0003;
  link.links = {{0x45000005, data({{0x03000005, 0, 5, 30.0F}}, 0)},
                {0x10000153, data({{0x030009BF, 0, -1, 9.96F}}, 0)}};
  MotionLinks empty_link;
  empty_link.outer_key = 0x003C0000;
  t.links = {link, empty_link};
  return t;
}

void patch_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (std::size_t i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>((v >> (8 * i)) & 0xFFU);
}

}  // namespace

TEST_CASE("MotionTable: write then read", "[dat][motion_table]") {
  const MotionTable t = sample_table();
  const auto bytes = write_motion_table(t);
  auto back = read_motion_table(bytes, kId);
  REQUIRE(back.has_value());
  CHECK(*back == t);
  CHECK(write_motion_table(*back) == bytes);
}

TEST_CASE("MotionTable: the empty table is 24 bytes", "[dat][motion_table]") {
  MotionTable t;
  t.id = kId;
  const auto bytes = write_motion_table(t);
  CHECK(bytes.size() == 24);
  CHECK(read_motion_table(bytes, kId).value() == t);
}

TEST_CASE("MotionTable: MotionData pads its three header bytes to four", "[dat][motion_table]") {
  // Built by hand: one cycle with one AnimData and a velocity.
  ByteWriter w;
  w.u32(kId);
  w.u32(0x8000003D);
  w.u32(0);           // style defaults
  w.u32(1);           // cycles
  w.u32(0x003D0003);  // key at 16
  w.u8(1);            // numAnims at 20
  w.u8(0);
  w.u8(MotionData::kHasVelocity);
  w.u8(0xEE);  // pad (content ignored)
  w.u32(0x03000001);
  w.i32(0);
  w.i32(-1);
  w.f32(30.0F);
  w.f32(0.0F);
  w.f32(3.0F);
  w.f32(0.0F);
  w.u32(0);  // modifiers
  w.u32(0);  // links
  auto t = read_motion_table(w.view(), kId);
  REQUIRE(t.has_value());
  REQUIRE(t->cycles.size() == 1);
  const MotionData& m = t->cycles[0].data;
  CHECK(m.anims == std::vector<AnimData>{{0x03000001, 0, -1, 30.0F}});
  CHECK(m.velocity == glm::vec3(0.0F, 3.0F, 0.0F));
  CHECK(m.omega == glm::vec3(0.0F));
  // The writer pads with zero; otherwise the same bytes.
  auto expected = w.data();
  expected[23] = 0;
  CHECK(write_motion_table(*t) == expected);
}

TEST_CASE("MotionTable: every truncation is a clean error", "[dat][motion_table]") {
  const auto bytes = write_motion_table(sample_table());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto t = read_motion_table(std::span(bytes.data(), n), kId);
    REQUIRE_FALSE(t.has_value());
    CHECK((t.error().kind == ErrorKind::Truncated || t.error().kind == ErrorKind::TooLarge));
    CHECK(t.error().context == "DAT 0x09000001 MotionTable");
  }
}

TEST_CASE("MotionTable: oversized counts and trailing bytes are errors", "[dat][motion_table]") {
  const auto bytes = write_motion_table(sample_table());
  SECTION("style defaults") {
    auto b = bytes;
    patch_u32(b, 8, 0x20000000);
    auto t = read_motion_table(b, kId);
    REQUIRE_FALSE(t.has_value());
    CHECK(t.error().kind == ErrorKind::TooLarge);
    CHECK(t.error().offset == 8);
  }
  SECTION("cycles") {
    auto b = bytes;
    patch_u32(b, 12 + 2 * 8, 0xFFFFFFFF);
    auto t = read_motion_table(b, kId);
    REQUIRE_FALSE(t.has_value());
    CHECK(t.error().kind == ErrorKind::TooLarge);
    CHECK(t.error().field == "num_cycles");
  }
  SECTION("trailing") {
    auto b = bytes;
    b.push_back(0);
    auto t = read_motion_table(b, kId);
    REQUIRE_FALSE(t.has_value());
    CHECK(t.error().kind == ErrorKind::Trailing);
  }
}

TEST_CASE("MotionTable: JSON keys are hex", "[dat][motion_table]") {
  dereth::core::JsonWriter j;
  write_json(j, sample_table());
  const std::string& out = j.str();
  CHECK(out.rfind(R"({"id":"0x09000001","default_style":"0x8000003D")", 0) == 0);
  CHECK(out.find(R"("key":"0x10000153")") != std::string::npos);
  CHECK(out.find(R"("anim_id":"0x030009BF")") != std::string::npos);
}
