#include "dereth/dat/surface.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"

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

TEST_CASE("Surface: textured form has no DID prefix and round-trips", "[dat][surface]") {
  Surface s;
  s.id = 0x08000DCB;
  s.type = surface_type::kBase1Image;
  s.texture = 0x05001A9A;
  s.palette = 0;
  s.diffuse = 0.800781F;
  const auto bytes = write_surface(s);
  REQUIRE(bytes.size() == 4 + 8 + 12);
  CHECK(bytes[0] == 0x02);  // the type comes first, no DID
  CHECK(bytes[4] == 0x9A);
  CHECK(bytes[7] == 0x05);
  auto back = read_surface(bytes, s.id);
  REQUIRE(back.has_value());
  CHECK(*back == s);
  CHECK(back->has_texture());

  Surface clip = s;
  clip.type = surface_type::kBase1ClipMap | surface_type::kTranslucent;
  clip.palette = 0x0400007E;
  clip.translucency = 0.5F;
  CHECK(read_surface(write_surface(clip), clip.id).value() == clip);
  check_every_prefix_fails(bytes, [&](auto b) { return read_surface(b, s.id); });
}

TEST_CASE("Surface: solid colour form", "[dat][surface]") {
  Surface s;
  s.id = 0x08000219;
  s.type = surface_type::kBase1Solid | surface_type::kLuminous;
  s.color = 0xFF10C020;
  s.luminosity = 1.0F;
  const auto bytes = write_surface(s);
  REQUIRE(bytes.size() == 4 + 4 + 12);
  auto back = read_surface(bytes, s.id);
  REQUIRE(back.has_value());
  CHECK(*back == s);
  CHECK_FALSE(back->has_texture());
  check_every_prefix_fails(bytes, [&](auto b) { return read_surface(b, s.id); });

  auto trailing = bytes;
  trailing.push_back(0);
  auto r = read_surface(trailing, s.id);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::Trailing);
  CHECK(r.error().message().rfind("DAT 0x08000219 Surface:", 0) == 0);

  dereth::core::JsonWriter j;
  write_json(j, s);
  CHECK(j.str() == R"({"type":"Surface","id":"0x08000219","surface_type":"0x00000041","color":"0xFF10C020",)"
                   R"("translucency":0,"luminosity":1,"diffuse":0})");
}
