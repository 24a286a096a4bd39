#include "dereth/dat/quality_filter.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

QualityFilter sample() {
  QualityFilter f;
  f.int_stats = {28, 44};
  f.bool_stats = {1};
  f.position_stats = {2, 3};
  f.attribute_stats = {1, 2, 3};
  f.skill_stats = {6};
  return f;
}

}  // namespace

TEST_CASE("QualityFilter: layout and round trip", "[dat][quality_filter]") {
  const QualityFilter f = sample();
  const auto bytes = write_quality_filter(f);
  // DID, 8 counts, 5 ids, 3 counts, 4 ids.
  REQUIRE(bytes.size() == 4 + 32 + 20 + 12 + 16);
  CHECK(bytes[4] == 2);   // int count
  CHECK(bytes[32] == 2);  // position count
  CHECK(bytes[56] == 3);  // attribute count, after the first eight lists
  auto back = read_quality_filter(bytes, kEnchantableFilterId);
  REQUIRE(back.has_value());
  CHECK(*back == f);
  QualityFilter other = f;
  other.id = 0x0E010000;
  CHECK(read_quality_filter(write_quality_filter(other), 0x0E010000).value() == other);

  QualityFilter empty;
  dereth::core::JsonWriter j;
  write_json(j, empty);
  CHECK(j.str() ==
        R"({"type":"QualityFilter","id":"0x0E010001","int":[],"int64":[],"bool":[],"float":[],"did":[],"iid":[],)"
        R"("string":[],"position":[],"attribute":[],"attribute2nd":[],"skill":[]})");
}

TEST_CASE("QualityFilter: truncation, absurd counts, trailing bytes", "[dat][quality_filter]") {
  const auto bytes = write_quality_filter(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_quality_filter(std::span<const std::uint8_t>(bytes.data(), n), kEnchantableFilterId);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
  }
  auto huge = bytes;
  huge[15] = 0x40;  // bool count 0x40000001
  auto r = read_quality_filter(huge, kEnchantableFilterId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "bool.count");
  CHECK(r.error().offset == 12);
  // Counts that fit one by one but not together are refused too.
  auto crowded = bytes;
  crowded[4] = 4;  // int count 4: the lists after it no longer fit
  crowded[32] = 9;
  r = read_quality_filter(crowded, kEnchantableFilterId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "position.count");

  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_quality_filter(trailing, kEnchantableFilterId).error().kind == ErrorKind::Trailing);
}
