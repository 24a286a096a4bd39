#include "dereth/dat/land_block.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

LandBlock sample() {
  LandBlock b;
  b.id = 0x9AB1FFFF;
  b.has_objects = 0;
  for (std::size_t i = 0; i < kLandBlockVertices; ++i) {
    b.terrain[i] = make_terrain_word(static_cast<std::uint32_t>(i % 4), static_cast<std::uint32_t>(i % 32),
                                     static_cast<std::uint32_t>(i % 19));
    b.height[i] = static_cast<std::uint8_t>(i * 3);
  }
  b.terrain[0] = make_terrain_word(0, 13, 9);  // SedimentaryRock, scenery 9 (EoR 0x9AB1FFFF)
  b.height[0] = 120;
  return b;
}

}  // namespace

TEST_CASE("LandBlock: 252 bytes, layout and round trip", "[dat][land_block]") {
  const LandBlock b = sample();
  const auto bytes = write_land_block(b);
  REQUIRE(bytes.size() == kLandBlockSize);
  REQUIRE(bytes.size() == 252);
  CHECK(bytes[8] == 0x34);  // terrain[0] = 13 << 2 | 9 << 11 = 0x4834
  CHECK(bytes[9] == 0x48);
  CHECK(bytes[4 + 4 + 162] == 120);  // heights follow the 81 words
  CHECK(bytes[251] == 0);            // pad byte
  auto back = read_land_block(bytes, b.id);
  REQUIRE(back.has_value());
  CHECK(*back == b);

  // The pad byte is ignored on read.
  auto padded = bytes;
  padded[251] = 0xEE;
  CHECK(read_land_block(padded, b.id).value() == b);

  LandBlock zero;
  zero.id = 0x0000FFFF;
  zero.has_objects = 1;
  CHECK(read_land_block(write_land_block(zero), zero.id).value() == zero);
}

TEST_CASE("LandBlock: terrain word helpers", "[dat][land_block]") {
  const std::uint16_t w = 0x4834;
  CHECK(terrain_type(w) == 13);
  CHECK(terrain_scenery(w) == 9);
  CHECK(terrain_road(w) == 0);
  CHECK(terrain_type(0x7C) == 31);  // mask 0x7C, values 0..31
  CHECK(terrain_type(0x80) == 0);   // bit 7 is not part of the type
  CHECK(terrain_road(0x0003) == 3);
  CHECK(terrain_scenery(0xF800) == 31);
  CHECK(make_terrain_word(3, 31, 31) == 0xF87F);
  CHECK(land_block_vertex(0, 0) == 0);
  CHECK(land_block_vertex(1, 0) == 9);  // x major
  CHECK(land_block_vertex(8, 8) == 80);
}

TEST_CASE("LandBlock: truncation, trailing bytes, JSON", "[dat][land_block]") {
  const LandBlock b = sample();
  const auto bytes = write_land_block(b);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_land_block(std::span<const std::uint8_t>(bytes.data(), n), b.id);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().kind == ErrorKind::Truncated);
  }
  auto trailing = bytes;
  trailing.push_back(0);
  auto r = read_land_block(trailing, b.id);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::Trailing);
  CHECK(r.error().message().rfind("DAT 0x9AB1FFFF LandBlock: end at offset 252", 0) == 0);

  dereth::core::JsonWriter j;
  write_json(j, b);
  CHECK(j.str().rfind(R"({"type":"LandBlock","id":"0x9AB1FFFF","has_objects":0,"vertices":81,)"
                      R"("vertex0":{"terrain":"0x00004834","terrain_type":13,"road":0,"scenery":9,"height":120})",
                      0) == 0);
}

TEST_CASE(
    "CLandBlockStruct::ConstructPolygons 0x00531D10 diagonal: land_cell_split_sw_ne cuts SW-NE from a wrapped hash of "
    "2^31 up",
    "[retail]") {
  // s = gy*(214614067*gx + 1813693831) - 1109124029*gx - 1369149221 (mod 2^32), by hand:
  // (0,0): -1369149221 = 0xAE6470DB, SW-NE.
  // (1,0): -1109124029 - 1369149221 = 0x6C488D1E, NW-SE.
  // (0,1): 1813693831 - 1369149221 = 0x1A7F3662, NW-SE.
  // (1,1): 2028307898 - 2478273250 = -449965352 = 0xE52E12D8, SW-NE.
  // (2039,2039): every product wraps: 1325112252 * 2039 = 369452644 (mod 2^32),
  //   1109124029 * 2039 = 2351097435 (mod 2^32), s = 0x3846F0E4, NW-SE.
  // (657,1857): 0x800001B8, just above the cut: SW-NE; (2015,514): 0x7FFFFA20, just below: NW-SE.
  // (0xFFFFFFFF,0xFFFFFFFF): no world cell, the arithmetic still wraps: 0x91304F44, SW-NE.
  STATIC_REQUIRE(land_cell_split_sw_ne(0, 0));
  CHECK_FALSE(land_cell_split_sw_ne(1, 0));
  CHECK_FALSE(land_cell_split_sw_ne(0, 1));
  CHECK(land_cell_split_sw_ne(1, 1));
  CHECK_FALSE(land_cell_split_sw_ne(2039, 2039));
  CHECK(land_cell_split_sw_ne(657, 1857));
  CHECK_FALSE(land_cell_split_sw_ne(2015, 514));
  CHECK(land_cell_split_sw_ne(0xFFFFFFFFU, 0xFFFFFFFFU));
  CHECK(land_cell_split_sw_ne(1352, 1440));        // 0xC15BD913
  CHECK_FALSE(land_cell_split_sw_ne(1355, 1445));  // 0x7EBDEBD4
  CHECK(land_cell_split_sw_ne(1359, 1447));        // 0xF0E404E4
}
