#include "dereth/dat/gfx_obj_degrade_info.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/records.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

TEST_CASE("GfxObjDegradeInfo: round trip, the UnPack layout and JSON", "[dat][degrade]") {
  GfxObjDegradeInfo info{
      0x11000020,
      {GfxObjDegrade{0x01000020, 2, 0.0F, 5.0F, 1000.0F}, GfxObjDegrade{0x01000021, 1, 10.0F, 25.5F, 60.0F}}};
  const auto bytes = write_gfx_obj_degrade_info(info);
  REQUIRE(bytes.size() == 4 + 4 + 2 * 20);
  CHECK(bytes[4] == 2);     // u32 count
  CHECK(bytes[8] == 0x20);  // the first level's GfxObj, little-endian
  CHECK(bytes[11] == 0x01);
  CHECK(bytes[12] == 2);  // its degrade mode
  auto back = read_gfx_obj_degrade_info(bytes, info.id);
  REQUIRE(back.has_value());
  CHECK(*back == info);
  dereth::core::JsonWriter j;
  write_json(j, GfxObjDegradeInfo{0x11000001, {GfxObjDegrade{0x01000001, 2, 0.0F, 1.5F, 3.0F}}});
  CHECK(j.str() ==
        R"({"type":"GfxObjDegradeInfo","id":"0x11000001","degrades":[{"gfx_obj":"0x01000001","degrade_mode":2,)"
        R"("min_dist":0,"ideal_dist":1.5,"max_dist":3}]})");
  CHECK(has_record_reader(DbType::GfxObjDegradeInfo));
}

TEST_CASE("GfxObjDegradeInfo: truncation, oversized count, trailing bytes and a wrong DID are errors",
          "[dat][degrade]") {
  const GfxObjDegradeInfo info{0x11000002, {GfxObjDegrade{0x01000002, 1, 0.0F, 1.0F, 2.0F}}};
  const auto bytes = write_gfx_obj_degrade_info(info);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_gfx_obj_degrade_info(std::span<const std::uint8_t>(bytes.data(), n), info.id);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
  }
  auto huge = bytes;
  huge[7] = 0x40;
  CHECK(read_gfx_obj_degrade_info(huge, info.id).error().kind == ErrorKind::TooLarge);
  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_gfx_obj_degrade_info(trailing, info.id).error().kind == ErrorKind::Trailing);
  CHECK(read_gfx_obj_degrade_info(bytes, 0x11000003).error().kind == ErrorKind::Invalid);
}
