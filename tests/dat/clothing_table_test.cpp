// ClothingTable (0x10xxxxxx): the record CharGen's gear lists name.
#include "dereth/dat/clothing_table.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/records.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

constexpr Did kId = 0x10000042;

ClothingTable sample() {
  ClothingTable t;
  t.id = kId;
  t.base_buckets = 8;
  CloObjectEffect torso{9, 0x01000101, {{0x05000001, 0x05000011}, {0x05000002, 0x05000012}}};
  CloObjectEffect arm{11, 0x01000102, {}};
  t.base_effects = {ClothingBaseEffect{0x02000001, {torso, arm}}, ClothingBaseEffect{0x0200004E, {}}};
  t.subpal_buckets = 16;
  CloSubPalette body{{{0, 2048}, {2048, 512}}, 0x0F000001};
  CloSubPalette trim{{}, 0x0F000002};
  t.subpal_effects = {CloSubPalEffect{3, 0x06000101, {body, trim}}, CloSubPalEffect{7, 0x06000102, {}}};
  return t;
}

}  // namespace

TEST_CASE("ClothingTable: layout and round trip", "[dat][clothing_table]") {
  const ClothingTable t = sample();
  const auto bytes = write_clothing_table(t);
  // DID; u16 count 2, u16 buckets 8; key 0x02000001, 2 objects: {9, GfxObj, 2 x
  // (old, new)}, {11, GfxObj, 0}; key 0x0200004E, 0 objects; u16 2, u16 16;
  // key 3, icon, 2 subpalettes: {2 ranges, set}, {0 ranges, set}; key 7, icon, 0.
  REQUIRE(bytes.size() == 4 + 4 + (8 + (12 + 16) + 12) + 8 + 4 + (12 + (4 + 16 + 4) + (4 + 4)) + 12);
  CHECK(bytes[4] == 2);
  CHECK(bytes[6] == 8);
  CHECK(bytes[8] == 0x01);  // first key, low byte of 0x02000001
  CHECK(bytes[11] == 0x02);
  CHECK(bytes[12] == 2);  // its object count
  CHECK(bytes[16] == 9);  // the first object's part
  auto back = read_clothing_table(bytes, kId);
  REQUIRE(back.has_value());
  CHECK(*back == t);
  CHECK(write_clothing_table(*back) == bytes);
  REQUIRE(find_base_effect(*back, 0x02000001) != nullptr);
  CHECK(find_base_effect(*back, 0x02000001)->objects[0].textures[1].new_texture == 0x05000012);
  CHECK(find_base_effect(*back, 0x02000002) == nullptr);
  REQUIRE(find_subpal_effect(*back, 3) != nullptr);
  CHECK(find_subpal_effect(*back, 3)->subpalettes[0].ranges[1] == CloSubPaletteRange{2048, 512});
  CHECK(find_subpal_effect(*back, 3)->subpalettes[1].palette_set == 0x0F000002);
  CHECK(find_subpal_effect(*back, 4) == nullptr);

  // The record registry knows the type.
  CHECK(has_record_reader(DbType::ClothingTable));
  auto json = record_json(kId, DbType::ClothingTable, bytes);
  REQUIRE(json.has_value());
  CHECK(json->find(R"("palette_set":"0x0F000001")") != std::string::npos);
  CHECK(json->find(R"("gfx_obj":"0x01000101")") != std::string::npos);

  ClothingTable empty;
  empty.id = kId;
  const auto empty_bytes = write_clothing_table(empty);
  CHECK(empty_bytes.size() == 12);
  CHECK(read_clothing_table(empty_bytes, kId).value() == empty);
}

TEST_CASE("ClothingTable: truncation at every cursor, absurd counts, trailing bytes", "[dat][clothing_table]") {
  const auto bytes = write_clothing_table(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_clothing_table(std::span<const std::uint8_t>(bytes.data(), n), kId);
    INFO("length " << n);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
    CHECK(r.error().context == "DAT 0x10000042 ClothingTable");
  }
  auto huge = bytes;
  huge[4] = 0xFF;  // 0xFFFF base effects
  huge[5] = 0xFF;
  auto r = read_clothing_table(huge, kId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "base_effects.count");
  CHECK(r.error().offset == 4);
  auto objects = bytes;
  objects[15] = 0x40;  // 0x40000002 objects
  r = read_clothing_table(objects, kId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "base_effects.objects.count");
  CHECK(r.error().offset == 12);

  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_clothing_table(trailing, kId).error().kind == ErrorKind::Trailing);
  CHECK(read_clothing_table(bytes, 0x10000043).error().kind == ErrorKind::Invalid);
}
