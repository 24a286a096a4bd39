#include "dereth/dat/xp_table.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

XpTable sample() {
  XpTable t;
  t.attribute = {0, 10, 30};
  t.vital = {0, 5};
  t.trained_skill = {0, 7, 20, 45};
  t.specialized_skill = {0};
  t.level = {0, 0, 1000, 0x123456789ULL};
  t.skill_credits = {0, 0, 1, 0};
  return t;
}

}  // namespace

TEST_CASE("XpTable: layout and round trip", "[dat][xp_table]") {
  const XpTable t = sample();
  const auto bytes = write_xp_table(t);
  // DID, five maxima, 3 + 2 + 4 + 1 u32, 4 u64, 4 u32.
  REQUIRE(bytes.size() == 4 + 20 + 40 + 32 + 16);
  CHECK(bytes[4] == 2);   // max attribute rank = 3 entries - 1
  CHECK(bytes[20] == 3);  // max level
  auto back = read_xp_table(bytes, kXpTableId);
  REQUIRE(back.has_value());
  CHECK(*back == t);
  CHECK(write_xp_table(*back) == bytes);

  // Empty tables are written as one zero entry; credits follow the level table's length.
  XpTable sparse;
  sparse.level = {0, 5};
  sparse.skill_credits = {1, 2, 3};
  auto again = read_xp_table(write_xp_table(sparse), kXpTableId);
  REQUIRE(again.has_value());
  CHECK(again->attribute == std::vector<std::uint32_t>{0});
  CHECK(again->skill_credits == std::vector<std::uint32_t>{1, 2});

  dereth::core::JsonWriter j;
  write_json(j, t);
  CHECK(j.str().find(R"("level":{"count":4,"first":0,"last":4886718345})") != std::string::npos);
}

TEST_CASE("XpTable: truncation, absurd maxima, trailing bytes and the wrong id", "[dat][xp_table]") {
  const auto bytes = write_xp_table(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_xp_table(std::span<const std::uint8_t>(bytes.data(), n), kXpTableId);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
  }
  auto huge = bytes;
  for (std::size_t i = 0; i < 4; ++i) huge[20 + i] = 0xFF;  // max level 0xFFFFFFFF: must not wrap to 0 entries
  auto r = read_xp_table(huge, kXpTableId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "max_level");
  CHECK(r.error().offset == 20);
  CHECK(r.error().context == "DAT 0x0E000018 XpTable");

  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_xp_table(trailing, kXpTableId).error().kind == ErrorKind::Trailing);
  CHECK(read_xp_table(bytes, 0x0E000019).error().kind == ErrorKind::Invalid);
}
