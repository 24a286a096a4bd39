#include "dereth/dat/render_surface.hpp"

#include <catch2/catch.hpp>

#include <array>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

using Pixel = std::array<std::uint8_t, 4>;

template <class Read>
void check_every_prefix_fails(const std::vector<std::uint8_t>& bytes, Read read) {
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto result = read(std::span<const std::uint8_t>(bytes.data(), n));
    REQUIRE_FALSE(result.has_value());
    const auto kind = result.error().kind;
    CHECK((kind == ErrorKind::Truncated || kind == ErrorKind::TooLarge));
  }
}

RenderSurface make(std::int32_t w, std::int32_t h, PixelFormat f, std::vector<std::uint8_t> px, Did pal = 0) {
  RenderSurface s;
  s.id = 0x06001234;
  s.data_category = 4;
  s.width = w;
  s.height = h;
  s.format = f;
  s.pixels = std::move(px);
  s.default_palette = pal;
  return s;
}

std::vector<Pixel> decode(const RenderSurface& s, const Palette* p = nullptr) {
  auto out = decode_rgba8(s, p);
  if (!out) FAIL(out.error().message());
  REQUIRE(out->size() == static_cast<std::size_t>(s.width) * static_cast<std::size_t>(s.height) * 4);
  std::vector<Pixel> px;
  for (std::size_t i = 0; i < out->size(); i += 4)
    px.push_back({(*out)[i], (*out)[i + 1], (*out)[i + 2], (*out)[i + 3]});
  return px;
}

// Header bytes of a record: DID, category, width, height, format, imageSize.
std::vector<std::uint8_t> header(std::uint32_t w, std::uint32_t h, std::uint32_t format, std::uint32_t size) {
  ByteWriter bw;
  bw.u32(0x06001234);
  bw.u32(0);
  bw.u32(w);
  bw.u32(h);
  bw.u32(format);
  bw.u32(size);
  return std::move(bw).take();
}

}  // namespace

TEST_CASE("RenderSurface: round trips for plain, palettised, DXT and JPEG formats", "[dat][render_surface]") {
  std::vector<std::uint8_t> rgb(20 * 20 * 3);
  for (std::size_t i = 0; i < rgb.size(); ++i) rgb[i] = static_cast<std::uint8_t>(i);
  const RenderSurface cases[] = {
      make(20, 20, PixelFormat::R8G8B8, rgb),
      make(2, 2, PixelFormat::A8R8G8B8, std::vector<std::uint8_t>(16, 0xAB)),
      make(4, 2, PixelFormat::INDEX16, std::vector<std::uint8_t>(16, 1), 0x0400007E),
      make(3, 3, PixelFormat::P8, std::vector<std::uint8_t>(9, 2), 0x04000001),  // odd size, no padding
      make(4, 4, PixelFormat::DXT1, std::vector<std::uint8_t>(8, 0x55)),
      make(8, 4, PixelFormat::DXT5, std::vector<std::uint8_t>(32, 0x66)),
      make(10, 10, PixelFormat::CustomRawJpeg, std::vector<std::uint8_t>(37, 0xFF)),  // size not checked
      make(0, 0, PixelFormat::A8R8G8B8, {}),
      make(5, 5, static_cast<PixelFormat>(0x1B), {}),  // unknown to retail: only an empty image passes
  };
  for (const auto& s : cases) {
    const auto bytes = write_render_surface(s);
    CHECK(bytes.size() == 24 + s.pixels.size() + (has_palette(s.format) ? 4 : 0));
    auto back = read_render_surface(bytes, s.id);
    REQUIRE(back.has_value());
    CHECK(*back == s);
  }
  // The palette DID follows the pixels directly.
  const auto p8 = write_render_surface(cases[3]);
  CHECK(p8[24 + 9] == 0x01);
  CHECK(p8[24 + 12] == 0x04);
}

TEST_CASE("RenderSurface: retail's image size check", "[dat][render_surface]") {
  SECTION("uncompressed size must equal w*h*bpp/8") {
    auto bytes = header(20, 20, 0x14, 1199);
    bytes.resize(bytes.size() + 1199);
    auto r = read_render_surface(bytes, 0x06001234);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().kind == ErrorKind::Invalid);
    CHECK(r.error().field == "image_size");
    CHECK(r.error().offset == 20);
    CHECK(r.error().message().rfind("DAT 0x06001234 RenderSurface: image_size at offset 20", 0) == 0);
  }
  SECTION("DXT formats are checked too: top level only") {
    auto bytes = header(4, 4, 0x31545844, 16);  // DXT1 4x4 needs 8
    bytes.resize(bytes.size() + 16);
    CHECK(read_render_surface(bytes, 0x06001234).error().kind == ErrorKind::Invalid);
  }
  SECTION("a format retail does not know accepts only an empty image") {
    auto bytes = header(2, 2, 0x1B, 4);
    bytes.resize(bytes.size() + 4);
    CHECK(read_render_surface(bytes, 0x06001234).error().kind == ErrorKind::Invalid);
  }
  SECTION("0xFFFF x 0xFFFF: mismatch or too large, nothing allocated") {
    auto small = header(0xFFFF, 0xFFFF, 0x15, 16);
    small.resize(small.size() + 16);
    CHECK(read_render_surface(small, 0x06001234).error().kind == ErrorKind::Invalid);
    // DXT1: 0xFFFF * 0xFFFF / 2 fits a u32, so the size matches and the
    // bytes are missing.
    auto big = header(0xFFFF, 0xFFFF, 0x31545844, 0x7FFF0000);
    big.resize(big.size() + 64);
    auto r = read_render_surface(big, 0x06001234);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().kind == ErrorKind::TooLarge);
    // 0x7FFFFFFF x 0x7FFFFFFF x 32 bpp overflows 64 bits without saturation.
    auto huge = header(0x7FFFFFFF, 0x7FFFFFFF, 0x15, 0);
    CHECK(read_render_surface(huge, 0x06001234).error().kind == ErrorKind::Invalid);
  }
  SECTION("negative dimensions") {
    auto bytes = header(0xFFFFFFFF, 1, 0x14, 0);
    auto r = read_render_surface(bytes, 0x06001234);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().kind == ErrorKind::Invalid);
    CHECK(r.error().field == "width");
  }
}

TEST_CASE("RenderSurface: truncation, trailing bytes and JSON", "[dat][render_surface]") {
  const auto s = make(3, 3, PixelFormat::P8, std::vector<std::uint8_t>(9, 2), 0x04000001);
  const auto bytes = write_render_surface(s);
  check_every_prefix_fails(bytes, [&](auto b) { return read_render_surface(b, s.id); });
  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_render_surface(trailing, s.id).error().kind == ErrorKind::Trailing);

  dereth::core::JsonWriter j;
  write_json(j, s);
  CHECK(j.str() == R"({"type":"RenderSurface","id":"0x06001234","data_category":4,"width":3,"height":3,)"
                   R"("pixel_format":"0x00000029","pixel_format_name":"P8","bits_per_pixel":8,"image_size":9,)"
                   R"("default_palette":"0x04000001"})");
}

TEST_CASE("decode_rgba8: uncompressed formats", "[dat][render_surface]") {
  // R8G8B8 is stored B, G, R.
  CHECK(decode(make(2, 1, PixelFormat::R8G8B8, {0x10, 0x20, 0x30, 0xFF, 0x00, 0x80})) ==
        std::vector<Pixel>{{0x30, 0x20, 0x10, 255}, {0x80, 0x00, 0xFF, 255}});
  // A8R8G8B8: u32 0xAARRGGBB little-endian.
  CHECK(decode(make(1, 1, PixelFormat::A8R8G8B8, {0x33, 0x22, 0x11, 0x80})) ==
        std::vector<Pixel>{{0x11, 0x22, 0x33, 0x80}});
  CHECK(decode(make(1, 1, PixelFormat::X8R8G8B8, {0x33, 0x22, 0x11, 0x00})) ==
        std::vector<Pixel>{{0x11, 0x22, 0x33, 255}});
  // R5G6B5: 5/6-bit channels widened by bit replication.
  CHECK(decode(make(4, 1, PixelFormat::R5G6B5, {0x00, 0xF8, 0xE0, 0x07, 0x1F, 0x00, 0x10, 0x84})) ==
        std::vector<Pixel>{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {132, 130, 132, 255}});
  CHECK(decode(make(2, 1, PixelFormat::A1R5G5B5, {0x00, 0x7C, 0xE0, 0x83})) ==
        std::vector<Pixel>{{255, 0, 0, 0}, {0, 255, 0, 255}});
  CHECK(decode(make(1, 1, PixelFormat::X1R5G5B5, {0x00, 0x7C})) == std::vector<Pixel>{{255, 0, 0, 255}});
  CHECK(decode(make(1, 1, PixelFormat::A4R4G4B4, {0x41, 0x8F})) == std::vector<Pixel>{{255, 68, 17, 136}});
  CHECK(decode(make(1, 1, PixelFormat::X4R4G4B4, {0x41, 0x0F})) == std::vector<Pixel>{{255, 68, 17, 255}});
  CHECK(decode(make(1, 1, PixelFormat::A8, {0x7F})) == std::vector<Pixel>{{255, 255, 255, 0x7F}});
  CHECK(decode(make(1, 1, PixelFormat::CustomLscapeAlpha, {0x40})) == std::vector<Pixel>{{255, 255, 255, 0x40}});
  CHECK(decode(make(1, 1, PixelFormat::A8B8G8R8, {1, 2, 3, 4})) == std::vector<Pixel>{{1, 2, 3, 4}});
  CHECK(decode(make(1, 1, PixelFormat::X8B8G8R8, {1, 2, 3, 4})) == std::vector<Pixel>{{1, 2, 3, 255}});
  CHECK(decode(make(1, 1, PixelFormat::CustomR8G8B8A8, {4, 3, 2, 1})) == std::vector<Pixel>{{1, 2, 3, 4}});
  CHECK(decode(make(1, 1, PixelFormat::CustomA8B8G8R8, {1, 2, 3, 4})) == std::vector<Pixel>{{1, 2, 3, 4}});
  CHECK(decode(make(1, 1, PixelFormat::CustomB8G8R8, {1, 2, 3})) == std::vector<Pixel>{{1, 2, 3, 255}});
  CHECK(decode(make(1, 1, PixelFormat::CustomLscapeR8G8B8, {1, 2, 3})) == std::vector<Pixel>{{1, 2, 3, 255}});
  CHECK(decode(make(0, 0, PixelFormat::R8G8B8, {})).empty());
}

TEST_CASE("decode_rgba8: P8 and INDEX16 through the palette", "[dat][render_surface]") {
  const Palette pal{0x04000001, {0xFF000000, 0x80FF0000, 0xFF00FF00}};
  CHECK(decode(make(3, 1, PixelFormat::P8, {2, 1, 0}, pal.id), &pal) ==
        std::vector<Pixel>{{0, 255, 0, 255}, {255, 0, 0, 0x80}, {0, 0, 0, 255}});
  CHECK(decode(make(2, 1, PixelFormat::INDEX16, {2, 0, 1, 0}, pal.id), &pal) ==
        std::vector<Pixel>{{0, 255, 0, 255}, {255, 0, 0, 0x80}});

  auto missing = decode_rgba8(make(1, 1, PixelFormat::P8, {0}), nullptr);
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().kind == ErrorKind::Invalid);

  auto short_pal = decode_rgba8(make(2, 1, PixelFormat::INDEX16, {0, 0, 0, 1}), &pal);  // index 0x0100
  REQUIRE_FALSE(short_pal.has_value());
  CHECK(short_pal.error().kind == ErrorKind::Invalid);
  CHECK(short_pal.error().offset == 2);
  CHECK(decode_rgba8(make(1, 1, PixelFormat::P8, {3}), &pal).error().kind == ErrorKind::Invalid);
}

TEST_CASE("decode_rgba8: DXT1 four-colour and three-colour blocks", "[dat][render_surface]") {
  // color0 = 0xF800 (red), color1 = 0x001F (blue); every row uses indices
  // 0, 1, 2, 3 left to right (byte 0b11'10'01'00 = 0xE4).
  const std::vector<std::uint8_t> four{0x00, 0xF8, 0x1F, 0x00, 0xE4, 0xE4, 0xE4, 0xE4};
  const auto px = decode(make(4, 4, PixelFormat::DXT1, four));
  const std::vector<Pixel> row4{{255, 0, 0, 255}, {0, 0, 255, 255}, {170, 0, 85, 255}, {85, 0, 170, 255}};
  for (std::size_t y = 0; y < 4; ++y) {
    for (std::size_t x = 0; x < 4; ++x) CHECK(px[y * 4 + x] == row4[x]);
  }
  // color0 <= color1: index 2 is the midpoint, index 3 transparent black.
  const std::vector<std::uint8_t> three{0x1F, 0x00, 0x00, 0xF8, 0xE4, 0xE4, 0xE4, 0xE4};
  const auto px3 = decode(make(4, 4, PixelFormat::DXT1, three));
  const std::vector<Pixel> row3{{0, 0, 255, 255}, {255, 0, 0, 255}, {127, 0, 127, 255}, {0, 0, 0, 0}};
  for (std::size_t y = 0; y < 4; ++y) {
    for (std::size_t x = 0; x < 4; ++x) CHECK(px3[y * 4 + x] == row3[x]);
  }
  // Equal colours also select the 3-colour mode.
  const auto eq = decode(make(4, 4, PixelFormat::DXT1, {0x00, 0xF8, 0x00, 0xF8, 0xFF, 0xFF, 0xFF, 0xFF}));
  CHECK(eq[0] == Pixel{0, 0, 0, 0});
  // Row-dependent indices: row y uses index y everywhere.
  const auto rows = decode(make(4, 4, PixelFormat::DXT1, {0x00, 0xF8, 0x1F, 0x00, 0x00, 0x55, 0xAA, 0xFF}));
  for (std::size_t y = 0; y < 4; ++y) CHECK(rows[y * 4 + 3] == row4[y]);
  // A 2x2 image still needs a whole block and takes its top-left corner.
  CHECK(decode(make(2, 2, PixelFormat::DXT1, four)) == std::vector<Pixel>{row4[0], row4[1], row4[0], row4[1]});
  // Two blocks side by side: the second block is to the right.
  std::vector<std::uint8_t> two = four;
  two.insert(two.end(), {0x1F, 0x00, 0x1F, 0x00, 0, 0, 0, 0});
  const auto wide = decode(make(8, 4, PixelFormat::DXT1, two));
  CHECK(wide[3] == row4[3]);
  CHECK(wide[4] == Pixel{0, 0, 255, 255});  // second block: index 0 = its color0, blue
  CHECK(wide[8 * 3 + 7] == Pixel{0, 0, 255, 255});

  // Too little data for the blocks.
  auto cut = decode_rgba8(make(8, 8, PixelFormat::DXT1, four), nullptr);
  REQUIRE_FALSE(cut.has_value());
  CHECK(cut.error().kind == ErrorKind::Truncated);
}

TEST_CASE("decode_rgba8: DXT3 explicit alpha", "[dat][render_surface]") {
  // Pixel i (= 4y + x) has alpha nibble i; colour block color0 = blue <
  // color1 = red, which DXT3 still decodes in 4-colour mode.
  const std::vector<std::uint8_t> block{0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE,
                                        0x1F, 0x00, 0x00, 0xF8, 0xE4, 0xE4, 0xE4, 0xE4};
  const auto px = decode(make(4, 4, PixelFormat::DXT3, block));
  const std::array<std::array<std::uint8_t, 3>, 4> rgb{{{0, 0, 255}, {255, 0, 0}, {85, 0, 170}, {170, 0, 85}}};
  for (std::size_t i = 0; i < 16; ++i) {
    const auto& c = rgb[i % 4];
    CHECK(px[i] == Pixel{c[0], c[1], c[2], static_cast<std::uint8_t>(i * 17)});
  }
}

TEST_CASE("decode_rgba8: DXT5 interpolated alpha", "[dat][render_surface]") {
  // Alpha indices: pixel i uses index i % 8 (3 bits each, little-endian).
  std::uint64_t bits = 0;
  for (std::uint64_t i = 0; i < 16; ++i) bits |= (i % 8) << (3 * i);
  const auto block = [&](std::uint8_t a0, std::uint8_t a1) {
    std::vector<std::uint8_t> b{a0, a1};
    for (int i = 0; i < 6; ++i) b.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
    b.insert(b.end(), {0x00, 0xF8, 0x1F, 0x00, 0x00, 0x00, 0x00, 0x00});  // all red
    return b;
  };
  // a0 > a1: eight alphas, (7-k)/7 * a0 + k/7 * a1 for k = 1..6 (truncated).
  const std::array<std::uint8_t, 8> eight{255, 0, 218, 182, 145, 109, 72, 36};
  const auto px8 = decode(make(4, 4, PixelFormat::DXT5, block(255, 0)));
  for (std::size_t i = 0; i < 16; ++i) CHECK(px8[i] == Pixel{255, 0, 0, eight[i % 8]});
  // a0 <= a1: six alphas then 0 and 255.
  const std::array<std::uint8_t, 8> six{0, 255, 51, 102, 153, 204, 0, 255};
  const auto px6 = decode(make(4, 4, PixelFormat::DXT5, block(0, 255)));
  for (std::size_t i = 0; i < 16; ++i) CHECK(px6[i] == Pixel{255, 0, 0, six[i % 8]});
}

TEST_CASE("decode_rgba8: unsupported formats and short data", "[dat][render_surface]") {
  CHECK(decode_rgba8(make(1, 1, PixelFormat::CustomRawJpeg, {0xFF, 0xD8}), nullptr).error().kind ==
        ErrorKind::Unsupported);
  CHECK(decode_rgba8(make(4, 4, PixelFormat::DXT2, std::vector<std::uint8_t>(16)), nullptr).error().kind ==
        ErrorKind::Unsupported);
  CHECK(decode_rgba8(make(2, 2, PixelFormat::R8G8B8, std::vector<std::uint8_t>(11)), nullptr).error().kind ==
        ErrorKind::Truncated);
  // Huge dimensions on a hand-built struct fail before anything is allocated.
  CHECK(decode_rgba8(make(0x7FFFFFFF, 0x7FFFFFFF, PixelFormat::A8R8G8B8, {}), nullptr).error().kind ==
        ErrorKind::Truncated);
  CHECK(decode_rgba8(make(0xFFFF, 0xFFFF, PixelFormat::DXT5, {}), nullptr).error().kind == ErrorKind::Truncated);
  CHECK(decode_rgba8(make(-1, 4, PixelFormat::A8, {}), nullptr).error().kind == ErrorKind::Invalid);
}
