#pragma once
// RenderSurface (0x06xxxxxx-0x07xxxxxx): texture pixels, and their decoding to
// RGBA8 (RenderSurface::Serialize, RE:src/ENGINE/render_base/RenderSurface.c).
// The image size is checked as retail's PixelFormatDesc::SetFormat does. Layout,
// the size rule and each format's decoding: docs/dat.md "RenderSurface".

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/palette.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

// Retail PixelFormatID values (D3DFORMAT numbering plus Turbine's customs).
enum class PixelFormat : std::uint32_t {
  Unknown = 0,
  R8G8B8 = 0x14,    // 3 bytes B, G, R
  A8R8G8B8 = 0x15,  // u32 0xAARRGGBB (bytes B, G, R, A)
  X8R8G8B8 = 0x16,  // as A8R8G8B8, alpha ignored
  R5G6B5 = 0x17,    // u16
  X1R5G5B5 = 0x18,  // u16
  A1R5G5B5 = 0x19,  // u16
  A4R4G4B4 = 0x1A,  // u16
  R3G3B2 = 0x1B,
  A8 = 0x1C,  // u8 alpha
  A8R3G3B2 = 0x1D,
  X4R4G4B4 = 0x1E,  // u16
  A2B10G10R10 = 0x1F,
  A8B8G8R8 = 0x20,  // bytes R, G, B, A
  X8B8G8R8 = 0x21,  // bytes R, G, B, x
  A2R10G10B10 = 0x23,
  A8P8 = 0x28,
  P8 = 0x29,  // u8 palette index, trailing palette DID
  L8 = 0x32,
  A8L8 = 0x33,
  A4L4 = 0x34,
  V8U8 = 0x3C,
  INDEX16 = 0x65,  // u16 palette index, trailing palette DID
  INDEX32 = 0x66,
  CustomR8G8B8A8 = 0xF0,      // u32: R in bits 24-31 ... A in bits 0-7 (bytes A, B, G, R)
  CustomA8B8G8R8 = 0xF1,      // bytes R, G, B, A
  CustomB8G8R8 = 0xF2,        // bytes R, G, B
  CustomLscapeR8G8B8 = 0xF3,  // bytes R, G, B (spec 3.7)
  CustomLscapeAlpha = 0xF4,   // u8 (terrain blend masks)
  CustomRawJpeg = 0x1F4,      // the whole payload is a JPEG file
  DXT1 = 0x31545844,
  DXT2 = 0x32545844,
  DXT3 = 0x33545844,
  DXT4 = 0x34545844,
  DXT5 = 0x35545844,
};

// Retail's bits per pixel for a format (PixelFormatDesc::SetFormat); 0 for
// formats retail does not know and for CUSTOM_RAW_JPEG.
[[nodiscard]] std::uint32_t bits_per_pixel(PixelFormat format) noexcept;
// True only for formats whose image size retail does not check (CUSTOM_RAW_JPEG).
[[nodiscard]] bool skips_size_check(PixelFormat format) noexcept;
// True for P8 and INDEX16, the formats followed by a palette DID.
[[nodiscard]] bool has_palette(PixelFormat format) noexcept;
// "R8G8B8", "DXT1", ... or "0x000000AB" style text for unknown values.
[[nodiscard]] std::string_view pixel_format_name(PixelFormat format) noexcept;

struct RenderSurface {
  Did id = 0;
  std::uint32_t data_category = 0;  // 6 or 10: eligible for the free list
  std::int32_t width = 0;
  std::int32_t height = 0;
  PixelFormat format = PixelFormat::Unknown;
  std::vector<std::uint8_t> pixels;  // imageSize bytes, as stored
  Did default_palette = 0;           // on disk only when has_palette(format)
  bool operator==(const RenderSurface&) const = default;
};

Result<RenderSurface> read_render_surface(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_render_surface(const RenderSurface& surface);
// Dimensions, format and sizes; never the pixels.
void write_json(core::JsonWriter& j, const RenderSurface& surface);

// Decodes to width*height RGBA8 pixels (row-major, top row first, 4 bytes
// R, G, B, A per pixel). Supported: R8G8B8, A8R8G8B8, X8R8G8B8, R5G6B5,
// X1R5G5B5, A1R5G5B5, A4R4G4B4, X4R4G4B4, A8 and CUSTOM_LSCAPE_ALPHA (white
// with the byte as alpha), A8B8G8R8, X8B8G8R8, the CUSTOM R8G8B8A8 /
// A8B8G8R8 / B8G8R8 / LSCAPE_R8G8B8 formats, P8 and INDEX16 (through the
// palette's ARGB colours, alpha included) and DXT1 / DXT3 / DXT5 (DXT1 in
// its 3-colour mode gives transparent black for index 3). Errors: a P8 /
// INDEX16 surface without a palette or with an index past its end, pixel data
// shorter than the format needs, and Unsupported for other formats (JPEG,
// DXT2/DXT4, the rest). The ClipMap rule (palette indices < 8 transparent)
// is the Surface's business and is not applied here.
Result<std::vector<std::uint8_t>> decode_rgba8(const RenderSurface& surface, const Palette* palette);

}  // namespace dereth::dat
