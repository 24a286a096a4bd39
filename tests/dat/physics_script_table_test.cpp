#include "dereth/dat/physics_script_table.hpp"

#include <catch2/catch.hpp>

#include <limits>

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

constexpr std::uint32_t kLaunch = 4;   // PlayScript Launch (spec 3.5)
constexpr std::uint32_t kExplode = 5;  // PlayScript Explode
// Stand-ins for the seed's ProjectileCollision, Create, Destroy and
// DisappearDestroy types: the spec does not give their PlayScript values, and
// only their presence (not their numbers) matters here.
constexpr std::uint32_t kStandInCollision = 0x90;
constexpr std::uint32_t kStandInCreate = 0x91;
constexpr std::uint32_t kStandInDestroy = 0x92;
constexpr std::uint32_t kStandInDisappearDestroy = 0x93;

// Seed section 11.2, flame table 0x34000005, in stored order.
PhysicsScriptTable flame_table() {
  PhysicsScriptTable t;
  t.id = 0x34000005;
  t.entries = {
      {kStandInCollision, {{1.0F, 0x33000109}}},
      {kLaunch, {{0.0F, 0x3300011B}, {0.5F, 0x3300011C}, {1.0F, 0x3300011D}}},
      {kExplode, {{0.0F, 0x3300011E}, {0.5F, 0x3300012B}, {1.0F, 0x33000120}}},
  };
  return t;
}

// Seed section 11.2, arrow/quarrel table 0x3400002B: no Launch or Explode.
PhysicsScriptTable arrow_table() {
  PhysicsScriptTable t;
  t.id = 0x3400002B;
  t.entries = {
      {kStandInCreate, {{1.0F, 0x33000719}}},
      {kStandInDestroy, {{1.0F, 0x33000233}}},
      {kStandInDisappearDestroy, {{1.0F, 0x33000302}}},
  };
  return t;
}

void patch_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (std::size_t i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>((v >> (8 * i)) & 0xFFU);
}

}  // namespace

TEST_CASE("PhysicsScriptTable::GetScript 0x00521E40: flame table Launch thresholds",
          "[dat][physics_script_table][retail]") {
  const auto t = flame_table();
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(t.get_script(kLaunch, 0.0F) == Did{0x3300011B});
  CHECK(t.get_script(kLaunch, 0.25F) == Did{0x3300011C});
  CHECK(t.get_script(kLaunch, 0.5F) == Did{0x3300011C});  // equality matches
  CHECK(t.get_script(kLaunch, 0.75F) == Did{0x3300011D});
  CHECK(t.get_script(kLaunch, 1.0F) == Did{0x3300011D});
  CHECK(t.get_script(kLaunch, 1.5F) == std::nullopt);  // above every threshold
  CHECK(t.get_script(kLaunch, nan) == std::nullopt);   // unordered never matches
  CHECK(t.get_script(kLaunch, inf) == std::nullopt);
  CHECK(t.get_script(kLaunch, -inf) == Did{0x3300011B});
  CHECK(t.get_script(kExplode, 0.3F) == Did{0x3300012B});
  CHECK(t.get_script(kStandInCollision, 1.0F) == Did{0x33000109});
}

TEST_CASE("PhysicsScriptTable::GetScript 0x00521E40: the arrow table has no Launch entry",
          "[dat][physics_script_table][retail]") {
  const auto t = arrow_table();
  for (const float intensity : {0.0F, 0.5F, 1.0F, -std::numeric_limits<float>::infinity()}) {
    CHECK(t.get_script(kLaunch, intensity) == std::nullopt);
    CHECK(t.get_script(kExplode, intensity) == std::nullopt);
  }
  CHECK(t.get_script(kStandInDestroy, 1.0F) == Did{0x33000233});
}

TEST_CASE("PhysicsScriptTableData::GetScript 0x00521A20: stored order decides, never sorted",
          "[dat][physics_script_table][retail]") {
  PhysicsScriptTable t;
  t.id = 0x34000099;
  // Thresholds stored out of order: the first satisfied entry wins even when a
  // later one is tighter.
  t.entries = {{kLaunch, {{1.0F, 0x33000001}, {0.0F, 0x33000002}, {0.5F, 0x33000003}}},
               {kExplode, {}},
               {kLaunch, {{0.0F, 0x33000009}}}};  // a repeated type: the first list wins
  CHECK(t.get_script(kLaunch, 0.0F) == Did{0x33000001});
  CHECK(t.get_script(kLaunch, 1.0F) == Did{0x33000001});
  CHECK(t.get_script(kLaunch, 1.01F) == std::nullopt);
  CHECK(t.get_script(kExplode, 0.0F) == std::nullopt);  // present but empty
  CHECK(t.get_script(0, 0.0F) == std::nullopt);         // absent type

  // Reading keeps the stored order too.
  auto back = read_physics_script_table(write_physics_script_table(t), t.id);
  REQUIRE(back.has_value());
  CHECK(*back == t);
  CHECK(back->get_script(kLaunch, 0.0F) == Did{0x33000001});
}

TEST_CASE("PhysicsScriptTableData::GetScript 0x00521A20: a NaN threshold never matches",
          "[dat][physics_script_table][retail]") {
  PhysicsScriptTable t;
  t.entries = {{kLaunch, {{std::numeric_limits<float>::quiet_NaN(), 0x33000001}, {1.0F, 0x33000002}}}};
  CHECK(t.get_script(kLaunch, 0.5F) == Did{0x33000002});
  CHECK(t.get_script(kLaunch, -std::numeric_limits<float>::infinity()) == Did{0x33000002});
}

TEST_CASE("PhysicsScriptTable: the flame table is 88 bytes with plain u32 counts", "[dat][physics_script_table]") {
  const auto bytes = write_physics_script_table(flame_table());
  CHECK(bytes.size() == 88);  // the seed's pinned length for 0x34000005
  ByteReader r(bytes, "table");
  CHECK(r.u32("id").value() == 0x34000005U);
  CHECK(r.u32("count").value() == 3U);
  CHECK(r.u32("type").value() == kStandInCollision);
  CHECK(r.u32("n").value() == 1U);
  CHECK(read_physics_script_table(bytes, 0x34000005).value() == flame_table());
}

TEST_CASE("PhysicsScriptTable: round trips and edge cases", "[dat][physics_script_table]") {
  PhysicsScriptTable empty;
  empty.id = 0x34000001;
  const auto bytes = write_physics_script_table(empty);
  CHECK(bytes.size() == 8);
  CHECK(read_physics_script_table(bytes, empty.id).value() == empty);
  CHECK(empty.get_script(kLaunch, 0.0F) == std::nullopt);
  CHECK(read_physics_script_table(write_physics_script_table(arrow_table()), 0x3400002B).value() == arrow_table());
}

TEST_CASE("PhysicsScriptTable: every truncation is a clean error", "[dat][physics_script_table]") {
  const auto bytes = write_physics_script_table(flame_table());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto t = read_physics_script_table(std::span(bytes.data(), n), 0x34000005);
    REQUIRE_FALSE(t.has_value());
    CHECK((t.error().kind == ErrorKind::Truncated || t.error().kind == ErrorKind::TooLarge));
    CHECK(t.error().context == "DAT 0x34000005 PhysicsScriptTable");
  }
}

TEST_CASE("PhysicsScriptTable: oversized counts and trailing bytes are errors", "[dat][physics_script_table]") {
  const auto bytes = write_physics_script_table(flame_table());
  SECTION("type count") {
    auto b = bytes;
    patch_u32(b, 4, 0xFFFFFFFF);
    auto t = read_physics_script_table(b, 0x34000005);
    REQUIRE_FALSE(t.has_value());
    CHECK(t.error().kind == ErrorKind::TooLarge);
    CHECK(t.error().offset == 4);
  }
  SECTION("script count") {
    auto b = bytes;
    patch_u32(b, 12, 0x10000);
    auto t = read_physics_script_table(b, 0x34000005);
    REQUIRE_FALSE(t.has_value());
    CHECK(t.error().kind == ErrorKind::TooLarge);
    CHECK(t.error().field == "entries.num_scripts");
    CHECK(t.error().offset == 12);
  }
  SECTION("trailing") {
    auto b = bytes;
    b.push_back(1);
    auto t = read_physics_script_table(b, 0x34000005);
    REQUIRE_FALSE(t.has_value());
    CHECK(t.error().kind == ErrorKind::Trailing);
  }
}

TEST_CASE("PhysicsScriptTable: JSON", "[dat][physics_script_table]") {
  PhysicsScriptTable t;
  t.id = 0x34000005;
  t.entries = {{kLaunch, {{0.5F, 0x3300011C}}}};
  dereth::core::JsonWriter j;
  write_json(j, t);
  CHECK(j.str() == R"({"id":"0x34000005","entries":[{"type":4,"scripts":[{"mod":0.5,"script":"0x3300011C"}]}]})");
}
