#include "dereth/dat/surface_texture.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

TEST_CASE("SurfaceTexture: layout, round trip and errors", "[dat][surface_texture]") {
  SurfaceTexture t{0x050023BF, 0, 2, {0x06005731, 0x06005731}};
  const auto bytes = write_surface_texture(t);
  REQUIRE(bytes.size() == 4 + 4 + 1 + 4 + 8);  // no padding after the u8
  CHECK(bytes[8] == 2);
  CHECK(bytes[9] == 2);  // count right after the byte
  CHECK(read_surface_texture(bytes, t.id).value() == t);

  SurfaceTexture empty{0x05000001, 7, 2, {}};
  CHECK(read_surface_texture(write_surface_texture(empty), empty.id).value() == empty);

  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_surface_texture(std::span<const std::uint8_t>(bytes.data(), n), t.id);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
  }
  auto huge = bytes;
  huge[12] = 0xFF;  // i32 count -> negative
  auto r = read_surface_texture(huge, t.id);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().offset == 9);
  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_surface_texture(trailing, t.id).error().kind == ErrorKind::Trailing);

  dereth::core::JsonWriter j;
  write_json(j, t);
  CHECK(j.str() == R"({"type":"SurfaceTexture","id":"0x050023BF","data_category":0,"texture_type":2,)"
                   R"("render_surfaces":["0x06005731","0x06005731"]})");
}
