#pragma once
// Surfaces to pixels and draw state, without GL (testable anywhere).
//
// * load_texture: a SurfaceTexture (0x05) or RenderSurface (0x06) to RGBA8,
//   any format dat::decode_rgba8 knows (R8G8B8, A8R8G8B8, R5G6B5, ..., P8 and
//   INDEX16 through a palette, DXT1/3/5), with the ClipMap rule.
// * load_material: a Surface (0x08) to its image (a 1x1 image for a solid
//   colour) and its retail draw state (D3DPolyRender::set_surface).
//
// Records come through the world's dat::RecordCache (read and decoded once,
// a missing one remembered there); every failure is a core::Error naming the DID.

#include <cstdint>

#include "dereth/core/error.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/palette.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/types.hpp"
#include "dereth/render/image.hpp"

namespace dereth::render {

// Retail's D3D blend factors (D3DBLEND numbering).
enum class BlendFactor : std::uint8_t { Zero = 1, One = 2, SrcAlpha = 5, InvSrcAlpha = 6 };

// Retail's alpha-test references (D3DPolyRender::s_256AlphaTestRef and
// s_ddsAlphaTestRef): palettised clip maps cut at 100, the rest at 200.
inline constexpr int kPaletteAlphaTestRef = 100;
inline constexpr int kDdsAlphaTestRef = 200;

// What D3DPolyRender::SetSurface leaves in the device for one surface.
struct SurfaceState {
  bool blend = false;
  BlendFactor src = BlendFactor::One;
  BlendFactor dst = BlendFactor::Zero;
  bool alpha_test = false;  // pass when alpha >= alpha_ref (ALPHATESTFUNC_GREATEREQUAL)
  int alpha_ref = 0;        // 0..255
  bool depth_write = true;
  std::uint8_t alpha = 255;  // the vertex alpha SetSurface returns (Translucent surfaces: (1 - t) * 255)
  bool operator==(const SurfaceState&) const = default;
};

// The inputs SetSurface reads.
struct SurfaceInput {
  std::uint32_t type = 0;           // dat::surface_type bits
  float translucency = 0.0F;        // the Surface's
  bool has_texture = false;         // a texture map is set
  bool palettized = false;          // that texture came through a palette (P8 / INDEX16)
  bool material_has_alpha = false;  // the part's material carries alpha (part translucency > 0)
};

class D3DPolyRender {
 public:
  // D3DPolyRender::SetSurface 0x0059C4D0: blend, alpha test and depth writes
  // from the surface type (Alpha, InvAlpha, Additive, ClipMap, Translucent)
  // and the part material's alpha. Detail texturing and stippling (sampler
  // address mode only) are not modelled; skipChk is 0 as in retail.
  [[nodiscard]] static SurfaceState set_surface(const SurfaceInput& in, bool override_clipmap = false) noexcept;
};

// The renderer's view of CPhysicsPart's draw state bit 1.
class PhysicsPart {
 public:
  // CPhysicsPart::SetTranslucency 0x0050E670: exactly 1.0 marks the part
  // undrawn (draw_state |= 1); any other value clears the mark and becomes
  // the material's translucency.
  void set_translucency(float translucency) noexcept;
  [[nodiscard]] bool drawn() const noexcept { return (draw_state_ & 1U) == 0; }
  [[nodiscard]] float translucency() const noexcept { return translucency_; }

 private:
  std::uint32_t draw_state_ = 0;
  float translucency_ = 0.0F;
};

// A Surface ready to draw.
struct Material {
  dat::Did surface = 0;
  dat::Did texture = 0;  // the SurfaceTexture drawn (the Surface's own, or an ObjDesc texture change's)
  std::uint32_t type = 0;
  Image image;               // the texture, or a 1x1 image of the solid colour
  bool has_texture = false;  // false: a solid colour
  bool palettized = false;
  // CSurface's orig_palette_id: the Surface's palette, else (a palettized
  // texture) its RenderSurface's default; 0 for neither. An ObjDesc's
  // composed palette reaches a part whose first non-zero one is its base.
  dat::Did original_palette = 0;
  bool composed_palette = false;  // drawn through an ObjDesc's composed palette
  float translucency = 0.0F;
  float luminosity = 0.0F;
  float diffuse = 0.0F;
};

// Resolves 0x05 SurfaceTexture -> its first RenderSurface (0x06), or takes a
// 0x06 id directly, and decodes it. The palette is `palette_override` when
// non-zero, else the RenderSurface's default. With `clip_map`, palette
// indices below 8 become fully transparent (P8 / INDEX16 only). Images over
// 4096 texels a side are refused.
[[nodiscard]] core::Result<Image> load_texture(dat::RecordCache& records, dat::Did texture, dat::Did palette_override,
                                               bool clip_map, bool* palettized = nullptr);
// The same through a palette in hand (an ObjDesc's composed palette) for a
// P8 / INDEX16 texture; other formats ignore it. `default_palette`, when
// given, receives the RenderSurface's default palette id (0 for none).
[[nodiscard]] core::Result<Image> load_texture_through(dat::RecordCache& records, dat::Did texture,
                                                       const dat::Palette* palette, bool clip_map,
                                                       bool* palettized = nullptr, dat::Did* default_palette = nullptr);

// Loads a Surface (0x08). Textured surfaces decode through load_texture;
// solid ones become one pixel of the colour whose alpha, as in SetSurface's
// SetSolidColorTextureColor, is (1 - translucency) * 255 (the colour's own
// alpha byte is ignored).
// `texture_override`, when non-zero, replaces the Surface's texture (an
// ObjDesc texture change: same surface, another SurfaceTexture).
// `palette`, when given, is an ObjDesc's composed palette: a palettized
// texture decodes through it instead of the Surface's or its own
// (CSurface::UsePalette 0x00535F20); the rest of the Surface is unchanged.
[[nodiscard]] core::Result<Material> load_material(dat::RecordCache& records, dat::Did surface,
                                                   dat::Did texture_override = 0,
                                                   const dat::Palette* palette = nullptr);

// The draw state of a loaded material for a part of the given translucency.
[[nodiscard]] SurfaceState surface_state(const Material& material, float part_translucency) noexcept;

}  // namespace dereth::render
