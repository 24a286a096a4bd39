#include "dereth/dat/land_block_info.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

Frame frame_at(float x) {
  return Frame{{x, x + 1.0F, x + 2.0F}, glm::quat(0.5F, 0.5F, -0.5F, 0.5F)};
}

LandBlockInfo sample(bool restrictions) {
  LandBlockInfo info;
  info.id = 0x1455FFFE;
  info.num_cells = 5;
  info.objects = {{0x020001A3, frame_at(10.0F)}, {0x01000F00, frame_at(-3.0F)}};
  BuildingInfo b;
  b.model_id = 0x010011A9;
  b.frame = frame_at(96.0F);
  b.num_leaves = 4;
  // EoR 0x1455FFFE: one portal, flags 3, other cell 0x104, stabs 0x100-0x104
  // (5 stabs: odd, so 2 bytes of padding follow).
  b.portals = {{3, 0x0104, 0, {0x100, 0x101, 0x102, 0x103, 0x104}}, {1, 0xFFFF, 2, {0x100, 0x101}}};
  info.buildings = {b};
  if (restrictions) {
    info.pack_flags = kLandBlockInfoHasRestrictions;
    info.restriction_buckets = 8;
    info.restrictions = {{0x14550100, 0x7A9B0001}, {0x14550101, 0x7A9B0002}};
  }
  return info;
}

}  // namespace

TEST_CASE("LandBlockInfo: layout and round trip with and without restrictions", "[dat][land_block_info]") {
  const auto plain = sample(false);
  const auto bytes = write_land_block_info(plain);
  // DID, cells, n, 2 stabs, u16 + u16, building header (40), portal 8+10+2pad, portal 8+4.
  REQUIRE(bytes.size() == 4 + 4 + 4 + 2 * 32 + 4 + 40 + 20 + 12);
  const std::size_t portal0 = 4 + 4 + 4 + 64 + 4 + 40;
  CHECK(bytes[portal0] == 3);
  CHECK(bytes[portal0 + 2] == 0x04);
  CHECK(bytes[portal0 + 3] == 0x01);
  CHECK(bytes[portal0 + 6] == 5);
  CHECK(bytes[portal0 + 18] == 0);  // padding after the odd stab list
  CHECK(bytes[portal0 + 20] == 1);  // next portal starts 4-aligned
  auto back = read_land_block_info(bytes, plain.id);
  REQUIRE(back.has_value());
  CHECK(*back == plain);

  const auto restricted = sample(true);
  const auto rbytes = write_land_block_info(restricted);
  CHECK(rbytes.size() == bytes.size() + 4 + 16);
  CHECK(rbytes[rbytes.size() - 20] == 2);  // u16 count
  CHECK(rbytes[rbytes.size() - 18] == 8);  // u16 buckets
  auto rback = read_land_block_info(rbytes, restricted.id);
  REQUIRE(rback.has_value());
  CHECK(*rback == restricted);

  // Empty everything, and an empty restriction table that is still present.
  LandBlockInfo empty;
  empty.id = 0x0101FFFE;
  CHECK(read_land_block_info(write_land_block_info(empty), empty.id).value() == empty);
  LandBlockInfo empty_table = empty;
  empty_table.pack_flags = 1;
  empty_table.restriction_buckets = 16;
  CHECK(read_land_block_info(write_land_block_info(empty_table), empty.id).value() == empty_table);

  dereth::core::JsonWriter j;
  write_json(j, empty);
  CHECK(j.str() == R"({"type":"LandBlockInfo","id":"0x0101FFFE","num_cells":0,"objects":[],"buildings":[],)"
                   R"("pack_flags":"0x00000000"})");
}

TEST_CASE("LandBlockInfo: truncation, oversized counts, trailing bytes", "[dat][land_block_info]") {
  const auto info = sample(true);
  const auto bytes = write_land_block_info(info);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_land_block_info(std::span<const std::uint8_t>(bytes.data(), n), info.id);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
  }
  auto objects = bytes;
  objects[11] = 0x10;
  auto r = read_land_block_info(objects, info.id);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().message().rfind("DAT 0x1455FFFE LandBlockInfo: num_objects at offset 8", 0) == 0);

  auto buildings = bytes;
  buildings[76] = 0xFF;  // numBuildings 0x00FF
  CHECK(read_land_block_info(buildings, info.id).error().kind == ErrorKind::TooLarge);

  auto stabs = bytes;
  stabs[4 + 4 + 4 + 64 + 4 + 40 + 7] = 0xFF;  // numStabs 0xFF05
  CHECK(read_land_block_info(stabs, info.id).error().kind == ErrorKind::TooLarge);

  auto table = bytes;
  table[table.size() - 19] = 0xFF;  // restriction count 0xFF02
  CHECK(read_land_block_info(table, info.id).error().kind == ErrorKind::TooLarge);

  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_land_block_info(trailing, info.id).error().kind == ErrorKind::Trailing);
  // Without the flag, the table bytes are trailing.
  auto no_flag = bytes;
  no_flag[78] = 0;
  CHECK(read_land_block_info(no_flag, info.id).error().kind == ErrorKind::Trailing);
}
