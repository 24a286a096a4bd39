#pragma once
// Surface (0x08xxxxxx), spec/dat-format.md 3.7 (CSurface::Serialize,
// RE:src/PORTAL/cgeometry/CSurface.c). The record has NO DID prefix: the
// first word is the type. Layout: u32 type; if type & (Base1Image |
// Base1ClipMap): u32 origTextureId (0x05...), u32 origPaletteId (0x04... or
// 0); else ColorARGB; then f32 translucency, luminosity, diffuse.

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

namespace surface_type {
inline constexpr std::uint32_t kBase1Solid = 0x1;
inline constexpr std::uint32_t kBase1Image = 0x2;
inline constexpr std::uint32_t kBase1ClipMap = 0x4;
inline constexpr std::uint32_t kTranslucent = 0x10;
inline constexpr std::uint32_t kDiffuse = 0x20;
inline constexpr std::uint32_t kLuminous = 0x40;
inline constexpr std::uint32_t kAlpha = 0x100;
inline constexpr std::uint32_t kInvAlpha = 0x200;
inline constexpr std::uint32_t kAdditive = 0x10000;
inline constexpr std::uint32_t kDetail = 0x20000;
inline constexpr std::uint32_t kGouraud = 0x10000000;
inline constexpr std::uint32_t kStippled = 0x40000000;
inline constexpr std::uint32_t kPerspective = 0x80000000;
}  // namespace surface_type

struct Surface {
  Did id = 0;  // not stored in the record; filled from the caller's id
  std::uint32_t type = 0;
  // Present on disk only when has_texture(): (texture, palette); otherwise
  // `color` is. The fields of the absent branch read back as 0.
  Did texture = 0;          // origTextureId, a SurfaceTexture 0x05...
  Did palette = 0;          // origPaletteId, a Palette 0x04... or 0 (use the RenderSurface's default)
  std::uint32_t color = 0;  // ColorARGB 0xAARRGGBB
  float translucency = 0;   // alpha is multiplied by (1 - translucency)
  float luminosity = 0;
  float diffuse = 0;

  [[nodiscard]] bool has_texture() const noexcept {
    return (type & (surface_type::kBase1Image | surface_type::kBase1ClipMap)) != 0;
  }
  bool operator==(const Surface&) const = default;
};

Result<Surface> read_surface(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_surface(const Surface& surface);
void write_json(core::JsonWriter& j, const Surface& surface);

}  // namespace dereth::dat
