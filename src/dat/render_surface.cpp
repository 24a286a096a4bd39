#include "dereth/dat/render_surface.hpp"

#include <array>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "dereth/core/byte_reader.hpp"

namespace dereth::dat {

namespace {

using core::Error;
using core::ErrorKind;

struct FormatInfo {
  PixelFormat format;
  std::uint32_t bpp;
  std::string_view name;
};

// PixelFormatDesc::SetFormat (RE:src/ENGINE/render_base/PixelFormat.c): the
// formats retail knows and their bits per pixel. CUSTOM_RAW_JPEG is known but
// has no bpp (its size check is skipped); every other id gets bpp 0.
constexpr std::array kFormats{
    FormatInfo{PixelFormat::R8G8B8, 24, "R8G8B8"},
    FormatInfo{PixelFormat::A8R8G8B8, 32, "A8R8G8B8"},
    FormatInfo{PixelFormat::X8R8G8B8, 32, "X8R8G8B8"},
    FormatInfo{PixelFormat::R5G6B5, 16, "R5G6B5"},
    FormatInfo{PixelFormat::X1R5G5B5, 16, "X1R5G5B5"},
    FormatInfo{PixelFormat::A1R5G5B5, 16, "A1R5G5B5"},
    FormatInfo{PixelFormat::A4R4G4B4, 16, "A4R4G4B4"},
    FormatInfo{PixelFormat::A8, 8, "A8"},
    FormatInfo{PixelFormat::X4R4G4B4, 16, "X4R4G4B4"},
    FormatInfo{PixelFormat::A2B10G10R10, 32, "A2B10G10R10"},
    FormatInfo{PixelFormat::A8B8G8R8, 32, "A8B8G8R8"},
    FormatInfo{PixelFormat::X8B8G8R8, 32, "X8B8G8R8"},
    FormatInfo{PixelFormat::A2R10G10B10, 32, "A2R10G10B10"},
    FormatInfo{PixelFormat::P8, 8, "P8"},
    FormatInfo{PixelFormat::V8U8, 16, "V8U8"},
    FormatInfo{static_cast<PixelFormat>(70), 16, "D16_LOCKABLE"},
    FormatInfo{static_cast<PixelFormat>(71), 32, "D32"},
    FormatInfo{static_cast<PixelFormat>(73), 16, "D15S1"},
    FormatInfo{static_cast<PixelFormat>(75), 32, "D24S8"},
    FormatInfo{static_cast<PixelFormat>(77), 32, "D24X8"},
    FormatInfo{static_cast<PixelFormat>(79), 32, "D24X4S4"},
    FormatInfo{static_cast<PixelFormat>(80), 16, "D16"},
    FormatInfo{PixelFormat::INDEX16, 16, "INDEX16"},
    FormatInfo{PixelFormat::CustomR8G8B8A8, 32, "CUSTOM_R8G8B8A8"},
    FormatInfo{PixelFormat::CustomA8B8G8R8, 32, "CUSTOM_A8B8G8R8"},
    FormatInfo{PixelFormat::CustomB8G8R8, 24, "CUSTOM_B8G8R8"},
    FormatInfo{PixelFormat::CustomLscapeR8G8B8, 24, "CUSTOM_LSCAPE_R8G8B8"},
    FormatInfo{PixelFormat::CustomLscapeAlpha, 8, "CUSTOM_LSCAPE_ALPHA"},
    FormatInfo{PixelFormat::CustomRawJpeg, 0, "CUSTOM_RAW_JPEG"},
    FormatInfo{PixelFormat::DXT1, 4, "DXT1"},
    FormatInfo{PixelFormat::DXT2, 8, "DXT2"},
    FormatInfo{PixelFormat::DXT3, 8, "DXT3"},
    FormatInfo{PixelFormat::DXT4, 8, "DXT4"},
    FormatInfo{PixelFormat::DXT5, 8, "DXT5"},
};

const FormatInfo* find_format(PixelFormat format) noexcept {
  for (const auto& info : kFormats) {
    if (info.format == format) return &info;
  }
  return nullptr;
}

// width * height * bpp / 8 for non-negative dimensions, saturating at
// UINT64_MAX instead of wrapping (w * h < 2^62 always fits; the bpp multiply
// may not).
std::uint64_t image_bytes(std::int32_t width, std::int32_t height, std::uint32_t bpp) noexcept {
  const std::uint64_t pixels = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height);
  if (bpp == 0) return 0;
  if (pixels > std::numeric_limits<std::uint64_t>::max() / bpp) return std::numeric_limits<std::uint64_t>::max();
  return (pixels * bpp) >> 3;
}

// ---- decoding helpers ------------------------------------------------------

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 0;
};

std::uint8_t expand5(unsigned v) noexcept {
  return static_cast<std::uint8_t>((v << 3) | (v >> 2));
}
std::uint8_t expand6(unsigned v) noexcept {
  return static_cast<std::uint8_t>((v << 2) | (v >> 4));
}
std::uint8_t expand4(unsigned v) noexcept {
  return static_cast<std::uint8_t>(v * 17U);
}

Rgba from_565(unsigned c) noexcept {
  return {expand5((c >> 11) & 0x1FU), expand6((c >> 5) & 0x3FU), expand5(c & 0x1FU), 255};
}

Rgba from_argb(std::uint32_t c) noexcept {
  return {static_cast<std::uint8_t>((c >> 16) & 0xFFU), static_cast<std::uint8_t>((c >> 8) & 0xFFU),
          static_cast<std::uint8_t>(c & 0xFFU), static_cast<std::uint8_t>(c >> 24)};
}

std::uint8_t lerp(unsigned a, unsigned b, unsigned wa, unsigned wb, unsigned div) noexcept {
  return static_cast<std::uint8_t>((a * wa + b * wb) / div);
}

// The four colours of a BC1-style colour block. `three_colour_allowed` is
// true for DXT1 only: there, color0 <= color1 selects the 3-colour mode whose
// index 3 is transparent black. DXT3/DXT5 always use the 4-colour mode.
std::array<Rgba, 4> colour_palette(std::uint16_t c0, std::uint16_t c1, bool three_colour_allowed) noexcept {
  const Rgba a = from_565(c0);
  const Rgba b = from_565(c1);
  std::array<Rgba, 4> p{a, b, {}, {}};
  if (!three_colour_allowed || c0 > c1) {
    p[2] = {lerp(a.r, b.r, 2, 1, 3), lerp(a.g, b.g, 2, 1, 3), lerp(a.b, b.b, 2, 1, 3), 255};
    p[3] = {lerp(a.r, b.r, 1, 2, 3), lerp(a.g, b.g, 1, 2, 3), lerp(a.b, b.b, 1, 2, 3), 255};
  } else {
    p[2] = {lerp(a.r, b.r, 1, 1, 2), lerp(a.g, b.g, 1, 1, 2), lerp(a.b, b.b, 1, 1, 2), 255};
    p[3] = {0, 0, 0, 0};
  }
  return p;
}

std::array<std::uint8_t, 8> dxt5_alphas(unsigned a0, unsigned a1) noexcept {
  std::array<std::uint8_t, 8> t{static_cast<std::uint8_t>(a0), static_cast<std::uint8_t>(a1)};
  if (a0 > a1) {
    for (unsigned i = 1; i <= 6; ++i) t[i + 1] = lerp(a0, a1, 7 - i, i, 7);
  } else {
    for (unsigned i = 1; i <= 4; ++i) t[i + 1] = lerp(a0, a1, 5 - i, i, 5);
    t[6] = 0;
    t[7] = 255;
  }
  return t;
}

void put(std::vector<std::uint8_t>& out, std::size_t pixel, Rgba c) noexcept {
  out[pixel * 4 + 0] = c.r;
  out[pixel * 4 + 1] = c.g;
  out[pixel * 4 + 2] = c.b;
  out[pixel * 4 + 3] = c.a;
}

}  // namespace

std::uint32_t bits_per_pixel(PixelFormat format) noexcept {
  const FormatInfo* info = find_format(format);
  return info == nullptr ? 0 : info->bpp;
}

bool skips_size_check(PixelFormat format) noexcept {
  return format == PixelFormat::CustomRawJpeg;
}

bool has_palette(PixelFormat format) noexcept {
  return format == PixelFormat::P8 || format == PixelFormat::INDEX16;
}

std::string_view pixel_format_name(PixelFormat format) noexcept {
  const FormatInfo* info = find_format(format);
  return info == nullptr ? std::string_view("unknown") : info->name;
}

Result<RenderSurface> read_render_surface(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "RenderSurface");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  RenderSurface s;
  s.id = id;
  DERETH_TRY(s.data_category, r.u32("data_category"));
  const std::size_t width_at = r.position();
  DERETH_TRY(s.width, r.i32("width"));
  const std::size_t height_at = r.position();
  DERETH_TRY(s.height, r.i32("height"));
  DERETH_TRY(const std::uint32_t format, r.u32("pixel_format"));
  s.format = static_cast<PixelFormat>(format);
  const std::size_t size_at = r.position();
  DERETH_TRY(const std::uint32_t image_size, r.u32("image_size"));
  if (s.width < 0) {
    return std::unexpected(
        r.error_at(width_at, ErrorKind::Invalid, "width", fmt::format("negative width {}", s.width)));
  }
  if (s.height < 0) {
    return std::unexpected(
        r.error_at(height_at, ErrorKind::Invalid, "height", fmt::format("negative height {}", s.height)));
  }
  if (!skips_size_check(s.format)) {
    // Retail (RenderSurface::Serialize) raises an error unless imageSize ==
    // width * height * bpp / 8 (spec 1.6 item 9). Computed in 64 bits
    // (saturating), so huge dimensions cannot wrap around to a small size.
    const std::uint32_t bpp = bits_per_pixel(s.format);
    const std::uint64_t expected = image_bytes(s.width, s.height, bpp);
    if (expected != image_size) {
      return std::unexpected(
          r.error_at(size_at, ErrorKind::Invalid, "image_size",
                     fmt::format("{} bytes for a {}x{} {} image (format 0x{:08X}, {} bpp) that needs {}", image_size,
                                 s.width, s.height, pixel_format_name(s.format), format, bpp, expected)));
    }
  }
  if (image_size > r.remaining()) {
    return std::unexpected(
        r.error(ErrorKind::TooLarge, "pixels",
                fmt::format("image size {} exceeds the {} bytes remaining", image_size, r.remaining())));
  }
  DERETH_TRY(const auto pixels, r.bytes(image_size, "pixels"));
  s.pixels.assign(pixels.begin(), pixels.end());
  if (has_palette(s.format)) {
    DERETH_TRY(s.default_palette, r.u32("default_palette"));
  }
  DERETH_CHECK(r.expect_end());
  return s;
}

std::vector<std::uint8_t> write_render_surface(const RenderSurface& surface) {
  ByteWriter w;
  w.u32(surface.id);
  w.u32(surface.data_category);
  w.i32(surface.width);
  w.i32(surface.height);
  w.u32(static_cast<std::uint32_t>(surface.format));
  w.u32(static_cast<std::uint32_t>(surface.pixels.size()));
  w.bytes(surface.pixels);
  if (has_palette(surface.format)) w.u32(surface.default_palette);
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const RenderSurface& surface) {
  j.begin_object();
  j.key("type").string("RenderSurface");
  j.key("id").hex(surface.id);
  j.key("data_category").number(surface.data_category);
  j.key("width").number(surface.width);
  j.key("height").number(surface.height);
  j.key("pixel_format").hex(static_cast<std::uint32_t>(surface.format));
  j.key("pixel_format_name").string(pixel_format_name(surface.format));
  j.key("bits_per_pixel").number(bits_per_pixel(surface.format));
  j.key("image_size").number(static_cast<std::uint64_t>(surface.pixels.size()));
  if (has_palette(surface.format)) j.key("default_palette").hex(surface.default_palette);
  j.end_object();
}

Result<std::vector<std::uint8_t>> decode_rgba8(const RenderSurface& surface, const Palette* palette) {
  const std::string context = record_context(surface.id, "RenderSurface");
  const auto fail = [&](ErrorKind kind, std::string_view field, std::size_t offset, std::string detail) {
    return std::unexpected(Error{kind, context, std::string(field), offset, std::move(detail)});
  };
  if (surface.width < 0 || surface.height < 0) {
    return fail(ErrorKind::Invalid, "width", 0,
                fmt::format("negative dimensions {}x{}", surface.width, surface.height));
  }
  const auto w = static_cast<std::size_t>(surface.width);
  const auto h = static_cast<std::size_t>(surface.height);
  const std::span<const std::uint8_t> px = surface.pixels;
  const PixelFormat f = surface.format;
  const std::string_view name = pixel_format_name(f);

  const bool dxt = f == PixelFormat::DXT1 || f == PixelFormat::DXT3 || f == PixelFormat::DXT5;
  std::uint64_t needed = 0;
  if (dxt) {
    const std::uint64_t blocks = ((static_cast<std::uint64_t>(w) + 3) / 4) * ((static_cast<std::uint64_t>(h) + 3) / 4);
    needed = blocks * (f == PixelFormat::DXT1 ? 8U : 16U);
  } else {
    switch (f) {
      case PixelFormat::R8G8B8:
      case PixelFormat::A8R8G8B8:
      case PixelFormat::X8R8G8B8:
      case PixelFormat::R5G6B5:
      case PixelFormat::X1R5G5B5:
      case PixelFormat::A1R5G5B5:
      case PixelFormat::A4R4G4B4:
      case PixelFormat::X4R4G4B4:
      case PixelFormat::A8:
      case PixelFormat::A8B8G8R8:
      case PixelFormat::X8B8G8R8:
      case PixelFormat::P8:
      case PixelFormat::INDEX16:
      case PixelFormat::CustomR8G8B8A8:
      case PixelFormat::CustomA8B8G8R8:
      case PixelFormat::CustomB8G8R8:
      case PixelFormat::CustomLscapeR8G8B8:
      case PixelFormat::CustomLscapeAlpha:
        needed = image_bytes(surface.width, surface.height, bits_per_pixel(f));
        break;
      default:
        return fail(ErrorKind::Unsupported, "pixel_format", 0,
                    fmt::format("no RGBA8 decoder for format 0x{:08X} ({})", static_cast<std::uint32_t>(f), name));
    }
  }
  if (needed > px.size()) {
    return fail(ErrorKind::Truncated, "pixels", px.size(),
                fmt::format("a {}x{} {} image needs {} bytes, {} present", w, h, name, needed, px.size()));
  }
  if (has_palette(f) && palette == nullptr) {
    return fail(ErrorKind::Invalid, "default_palette", 0, fmt::format("{} pixels need a palette", name));
  }
  // Bounded by the pixel data checked above: w*h <= 2 * pixels.size() for
  // DXT1 and <= pixels.size() for everything else.
  std::vector<std::uint8_t> out(w * h * 4);

  if (dxt) {
    const std::size_t block_bytes = f == PixelFormat::DXT1 ? 8 : 16;
    const std::size_t bw = (w + 3) / 4;
    const std::size_t bh = (h + 3) / 4;
    for (std::size_t by = 0; by < bh; ++by) {
      for (std::size_t bx = 0; bx < bw; ++bx) {
        const std::uint8_t* block = px.data() + (by * bw + bx) * block_bytes;
        const std::uint8_t* colour = f == PixelFormat::DXT1 ? block : block + 8;
        const auto colours = colour_palette(core::load_le<std::uint16_t>(colour),
                                            core::load_le<std::uint16_t>(colour + 2), f == PixelFormat::DXT1);
        const std::uint32_t indices = core::load_le<std::uint32_t>(colour + 4);
        std::uint64_t alpha_bits = 0;
        std::array<std::uint8_t, 8> alphas{};
        if (f == PixelFormat::DXT3) {
          alpha_bits = static_cast<std::uint64_t>(core::load_le<std::uint32_t>(block)) |
                       (static_cast<std::uint64_t>(core::load_le<std::uint32_t>(block + 4)) << 32);
        } else if (f == PixelFormat::DXT5) {
          alphas = dxt5_alphas(block[0], block[1]);
          for (std::size_t i = 0; i < 6; ++i) alpha_bits |= static_cast<std::uint64_t>(block[2 + i]) << (8 * i);
        }
        for (std::size_t py = 0; py < 4; ++py) {
          for (std::size_t pxi = 0; pxi < 4; ++pxi) {
            const std::size_t x = bx * 4 + pxi;
            const std::size_t y = by * 4 + py;
            if (x >= w || y >= h) continue;
            const std::size_t i = py * 4 + pxi;
            Rgba c = colours[(indices >> (2 * i)) & 3U];
            if (f == PixelFormat::DXT3) {
              c.a = expand4(static_cast<unsigned>((alpha_bits >> (4 * i)) & 0xFU));
            } else if (f == PixelFormat::DXT5) {
              c.a = alphas[(alpha_bits >> (3 * i)) & 7U];
            }
            put(out, y * w + x, c);
          }
        }
      }
    }
    return out;
  }

  const std::size_t count = w * h;
  for (std::size_t i = 0; i < count; ++i) {
    Rgba c;
    switch (f) {
      case PixelFormat::R8G8B8: {
        const std::uint8_t* p = px.data() + i * 3;
        c = {p[2], p[1], p[0], 255};
        break;
      }
      case PixelFormat::A8R8G8B8: c = from_argb(core::load_le<std::uint32_t>(px.data() + i * 4)); break;
      case PixelFormat::X8R8G8B8: c = from_argb(core::load_le<std::uint32_t>(px.data() + i * 4) | 0xFF000000U); break;
      case PixelFormat::R5G6B5: c = from_565(core::load_le<std::uint16_t>(px.data() + i * 2)); break;
      case PixelFormat::X1R5G5B5:
      case PixelFormat::A1R5G5B5: {
        const unsigned v = core::load_le<std::uint16_t>(px.data() + i * 2);
        const bool opaque = f == PixelFormat::X1R5G5B5 || (v & 0x8000U) != 0;
        c = {expand5((v >> 10) & 0x1FU), expand5((v >> 5) & 0x1FU), expand5(v & 0x1FU),
             static_cast<std::uint8_t>(opaque ? 255 : 0)};
        break;
      }
      case PixelFormat::A4R4G4B4:
      case PixelFormat::X4R4G4B4: {
        const unsigned v = core::load_le<std::uint16_t>(px.data() + i * 2);
        c = {expand4((v >> 8) & 0xFU), expand4((v >> 4) & 0xFU), expand4(v & 0xFU),
             f == PixelFormat::X4R4G4B4 ? std::uint8_t{255} : expand4((v >> 12) & 0xFU)};
        break;
      }
      case PixelFormat::A8:
      case PixelFormat::CustomLscapeAlpha: c = {255, 255, 255, px[i]}; break;
      case PixelFormat::A8B8G8R8:
      case PixelFormat::CustomA8B8G8R8: {
        const std::uint8_t* p = px.data() + i * 4;
        c = {p[0], p[1], p[2], p[3]};
        break;
      }
      case PixelFormat::X8B8G8R8: {
        const std::uint8_t* p = px.data() + i * 4;
        c = {p[0], p[1], p[2], 255};
        break;
      }
      case PixelFormat::CustomR8G8B8A8: {
        const std::uint8_t* p = px.data() + i * 4;
        c = {p[3], p[2], p[1], p[0]};
        break;
      }
      case PixelFormat::CustomB8G8R8:
      case PixelFormat::CustomLscapeR8G8B8: {
        const std::uint8_t* p = px.data() + i * 3;
        c = {p[0], p[1], p[2], 255};
        break;
      }
      case PixelFormat::P8:
      case PixelFormat::INDEX16: {
        const std::size_t index = f == PixelFormat::P8 ? px[i] : core::load_le<std::uint16_t>(px.data() + i * 2);
        if (index >= palette->colors.size()) {
          return fail(ErrorKind::Invalid, "pixels", f == PixelFormat::P8 ? i : i * 2,
                      fmt::format("palette index {} past the {} colours of palette 0x{:08X}", index,
                                  palette->colors.size(), palette->id));
        }
        c = from_argb(palette->colors[index]);
        break;
      }
      default: break;  // unreachable: filtered above
    }
    put(out, i, c);
  }
  return out;
}

}  // namespace dereth::dat
