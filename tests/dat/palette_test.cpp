#include "dereth/dat/palette.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/palette_set.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

template <class Read>
void check_every_prefix_fails(const std::vector<std::uint8_t>& bytes, Read read) {
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto result = read(std::span<const std::uint8_t>(bytes.data(), n));
    REQUIRE_FALSE(result.has_value());
    const auto kind = result.error().kind;
    CHECK((kind == ErrorKind::Truncated || kind == ErrorKind::TooLarge));
  }
}

}  // namespace

TEST_CASE("Palette: round trip, layout and JSON", "[dat][palette]") {
  Palette p{0x0400007E, {0xFF000000, 0x80112233, 0x00FFFFFF}};
  const auto bytes = write_palette(p);
  REQUIRE(bytes.size() == 4 + 4 + 3 * 4);
  CHECK(bytes[8] == 0x00);  // ColorARGB stored B, G, R, A
  CHECK(bytes[11] == 0xFF);
  CHECK(bytes[12] == 0x33);
  CHECK(bytes[15] == 0x80);
  auto back = read_palette(bytes, p.id);
  REQUIRE(back.has_value());
  CHECK(*back == p);

  Palette empty{0x04000001, {}};
  CHECK(read_palette(write_palette(empty), empty.id).value() == empty);

  dereth::core::JsonWriter j;
  write_json(j, p);
  CHECK(j.str() == R"({"type":"Palette","id":"0x0400007E","count":3,"first":"0xFF000000","last":"0x00FFFFFF"})");
}

TEST_CASE("Palette: truncation, oversized count, trailing bytes, wrong DID", "[dat][palette]") {
  Palette p{0x04000002, {1, 2, 3, 4}};
  auto bytes = write_palette(p);
  check_every_prefix_fails(bytes, [&](auto b) { return read_palette(b, p.id); });

  auto huge = bytes;
  huge[4] = 0xFF;
  huge[5] = 0xFF;
  huge[6] = 0xFF;
  huge[7] = 0x7F;
  auto r = read_palette(huge, p.id);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().offset == 4);
  CHECK(r.error().message().rfind("DAT 0x04000002 Palette: count at offset 4", 0) == 0);

  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_palette(trailing, p.id).error().kind == ErrorKind::Trailing);

  CHECK(read_palette(bytes, 0x04000003).error().kind == ErrorKind::Invalid);
}

TEST_CASE("PaletteSet: round trip, errors and shade selection", "[dat][palette]") {
  PaletteSet s{0x0F000010, {0x04000001, 0x04000002, 0x04000003, 0x04000004}};
  const auto bytes = write_palette_set(s);
  CHECK(bytes.size() == 8 + 16);
  CHECK(read_palette_set(bytes, s.id).value() == s);
  PaletteSet empty{0x0F000011, {}};
  CHECK(read_palette_set(write_palette_set(empty), empty.id).value() == empty);
  check_every_prefix_fails(bytes, [&](auto b) { return read_palette_set(b, s.id); });
  auto trailing = bytes;
  trailing.push_back(1);
  CHECK(read_palette_set(trailing, s.id).error().kind == ErrorKind::Trailing);
  auto huge = bytes;
  huge[7] = 0x10;
  CHECK(read_palette_set(huge, s.id).error().kind == ErrorKind::TooLarge);

  // index floor((n - 0.000001) * shade)
  CHECK(palette_for_shade(s, 0.0F) == 0x04000001);
  CHECK(palette_for_shade(s, 0.25F) == 0x04000001);  // 0.99999975 -> 0
  CHECK(palette_for_shade(s, 0.26F) == 0x04000002);
  CHECK(palette_for_shade(s, 0.5F) == 0x04000002);  // 1.9999995 -> 1
  CHECK(palette_for_shade(s, 0.9F) == 0x04000004);
  CHECK(palette_for_shade(s, 1.0F) == 0x04000004);  // 3.999999 -> 3
  CHECK(palette_for_shade(s, 7.0F) == 0x04000004);  // clamped
  CHECK(palette_for_shade(s, -1.0F) == 0x04000001);
  CHECK(palette_for_shade(empty, 0.5F) == 0);

  dereth::core::JsonWriter j;
  write_json(j, empty);
  CHECK(j.str() == R"({"type":"PaletteSet","id":"0x0F000011","palettes":[]})");
}
