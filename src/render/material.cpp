#include "dereth/render/material.hpp"

#include <cstdio>
#include <string>

#include "dereth/dat/palette.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/render_surface.hpp"
#include "dereth/dat/surface.hpp"
#include "dereth/dat/surface_texture.hpp"

namespace dereth::render {

namespace {

constexpr std::uint32_t kTypeAlpha = dat::surface_type::kAlpha;
constexpr std::uint32_t kTypeInvAlpha = dat::surface_type::kInvAlpha;
constexpr std::uint32_t kTypeAdditive = dat::surface_type::kAdditive;
constexpr std::uint32_t kTypeClipMap = dat::surface_type::kBase1ClipMap;
constexpr std::uint32_t kTypeTranslucent = dat::surface_type::kTranslucent;
// Palette indices below this are transparent on ClipMap surfaces (spec 3.7).
constexpr std::uint32_t kClipMapTransparentIndices = 8;
// Retail textures are at most 512 a side; anything past this is refused
// before decoding allocates width * height * 4 bytes.
constexpr std::int32_t kMaxTextureSide = 4096;

std::string did_text(dat::Did id) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", id);
  return std::string("DAT ") + buf;
}

core::Error asset_error(dat::Did id, std::string field, std::string detail) {
  return core::Error{core::ErrorKind::Invalid, did_text(id), std::move(field), 0, std::move(detail)};
}

// A record the cache could not give, as an error naming it and why
// (RecordCache::find_missing: absent, unreadable or malformed).
core::Error missing_record(const dat::RecordCache& records, const char* kind, dat::Did id) {
  const auto m = records.find_missing(kind, id);
  return asset_error(id, kind, m.has_value() ? m->why : std::string("no record (id 0 or no portal DAT)"));
}

// (1 - t) * 255 truncated, as retail's (unsigned __int64) conversion does;
// values outside [0, 1] are clamped first so a hostile float cannot wrap.
std::uint8_t alpha_byte(float translucency) noexcept {
  double a = (1.0 - static_cast<double>(translucency)) * 255.0;
  if (!(a > 0.0)) a = 0.0;  // NaN too
  if (a > 255.0) a = 255.0;
  return static_cast<std::uint8_t>(a);
}

}  // namespace

// D3DPolyRender::SetSurface 0x0059C4D0
SurfaceState D3DPolyRender::set_surface(const SurfaceInput& in, bool override_clipmap) noexcept {
  SurfaceState s;
  const std::uint32_t type = in.type;
  const bool additive = (type & kTypeAdditive) != 0;
  if ((type & kTypeAlpha) != 0 || override_clipmap) {
    s.src = BlendFactor::SrcAlpha;
    s.dst = additive ? BlendFactor::One : BlendFactor::InvSrcAlpha;
    s.blend = true;
  } else if ((type & kTypeInvAlpha) != 0) {
    s.src = BlendFactor::InvSrcAlpha;
    s.dst = additive ? BlendFactor::One : BlendFactor::SrcAlpha;
    s.blend = true;
  } else if (additive) {
    s.src = BlendFactor::One;
    s.dst = BlendFactor::One;
    s.blend = true;
  } else {
    s.src = BlendFactor::One;
    s.dst = BlendFactor::Zero;
    s.blend = false;
  }
  if ((type & kTypeClipMap) != 0 && !override_clipmap) {
    if (!s.blend) {
      s.src = BlendFactor::One;
      s.dst = BlendFactor::InvSrcAlpha;
    }
    s.alpha_ref = in.has_texture && in.palettized ? kPaletteAlphaTestRef : kDdsAlphaTestRef;
    s.blend = true;
    s.alpha_test = true;
  }
  if ((type & kTypeTranslucent) != 0) {
    // skipChk is 0 in retail: only a surface not yet blending, or one alpha
    // testing, switches to plain alpha blending.
    if (!s.blend || s.alpha_test) {
      s.blend = true;
      s.src = BlendFactor::SrcAlpha;
      s.dst = BlendFactor::InvSrcAlpha;
      s.alpha_test = false;
    }
    s.alpha = alpha_byte(in.translucency);
  } else {
    s.alpha = 255;
  }
  if (!in.material_has_alpha || (s.blend && !s.alpha_test)) {
    s.depth_write = s.alpha_test || !s.blend;
  } else {
    // A translucent part over an opaque or alpha-tested surface blends with z writes off.
    s.src = BlendFactor::SrcAlpha;
    s.dst = BlendFactor::InvSrcAlpha;
    s.blend = true;
    s.alpha_test = false;
    s.depth_write = false;
  }
  return s;
}

// CPhysicsPart::SetTranslucency 0x0050E670
void PhysicsPart::set_translucency(float translucency) noexcept {
  if (translucency == 1.0F) {
    draw_state_ |= 1U;
    return;
  }
  draw_state_ &= ~1U;
  translucency_ = translucency;
}

namespace {

// load_texture's body: `palette`, when non-null, is the palette in hand;
// else `palette_id`, else the RenderSurface's default.
core::Result<Image> decode_texture(dat::RecordCache& records, dat::Did texture, const dat::Palette* palette_in_hand,
                                   dat::Did palette_id, bool clip_map, bool* palettized, dat::Did* default_palette) {
  dat::Did render_surface_id = texture;
  if ((texture >> 24) == 0x05) {
    const auto tex_record = records.surface_texture(texture);
    if (!tex_record) return std::unexpected(missing_record(records, "SurfaceTexture", texture));
    const dat::SurfaceTexture& tex = *tex_record;
    if (tex.render_surfaces.empty())
      return std::unexpected(asset_error(texture, "render_surfaces", "no RenderSurface"));
    render_surface_id = tex.render_surfaces.front();
  }
  const std::uint32_t kind = render_surface_id >> 24;
  if (kind != 0x06 && kind != 0x07) {
    return std::unexpected(asset_error(texture, "texture", "not a SurfaceTexture or RenderSurface id"));
  }
  const auto rs_record = records.render_surface(render_surface_id);
  if (!rs_record) return std::unexpected(missing_record(records, "RenderSurface", render_surface_id));
  const dat::RenderSurface& rs = *rs_record;
  if (rs.width <= 0 || rs.height <= 0) return std::unexpected(asset_error(render_surface_id, "size", "empty image"));
  if (rs.width > kMaxTextureSide || rs.height > kMaxTextureSide) {
    return std::unexpected(asset_error(render_surface_id, "size", "larger than 4096 texels a side"));
  }
  std::shared_ptr<const dat::Palette> palette;
  const bool indexed = dat::has_palette(rs.format);
  if (indexed && palette_in_hand == nullptr) {
    const dat::Did id = palette_id != 0 ? palette_id : rs.default_palette;
    palette = records.palette(id);
    if (!palette) return std::unexpected(missing_record(records, "Palette", id));
  }
  const dat::Palette* used = palette_in_hand != nullptr ? palette_in_hand : palette.get();
  DERETH_TRY(auto rgba, dat::decode_rgba8(rs, indexed ? used : nullptr));
  Image image;
  image.width = rs.width;
  image.height = rs.height;
  image.pixels = std::move(rgba);
  if (image.pixels.size() != image.byte_size()) {
    return std::unexpected(asset_error(render_surface_id, "pixels", "decoded size is not width*height*4"));
  }
  if (clip_map && indexed) {
    const std::size_t count = static_cast<std::size_t>(rs.width) * static_cast<std::size_t>(rs.height);
    const bool wide = rs.format == dat::PixelFormat::INDEX16;
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint32_t index =
          wide ? static_cast<std::uint32_t>(rs.pixels[2 * i] | (rs.pixels[2 * i + 1] << 8)) : rs.pixels[i];
      if (index < kClipMapTransparentIndices) image.pixels[i * 4 + 3] = 0;
    }
  }
  if (palettized != nullptr) *palettized = indexed;
  if (default_palette != nullptr) *default_palette = indexed ? rs.default_palette : 0;
  return image;
}

}  // namespace

core::Result<Image> load_texture(dat::RecordCache& records, dat::Did texture, dat::Did palette_override, bool clip_map,
                                 bool* palettized) {
  return decode_texture(records, texture, nullptr, palette_override, clip_map, palettized, nullptr);
}

core::Result<Image> load_texture_through(dat::RecordCache& records, dat::Did texture, const dat::Palette* palette,
                                         bool clip_map, bool* palettized, dat::Did* default_palette) {
  return decode_texture(records, texture, palette, 0, clip_map, palettized, default_palette);
}

core::Result<Material> load_material(dat::RecordCache& records, dat::Did surface_id, dat::Did texture_override,
                                     const dat::Palette* palette) {
  if ((surface_id >> 24) != 0x08) return std::unexpected(asset_error(surface_id, "surface", "not a Surface id"));
  const auto surface_record = records.surface(surface_id);
  if (!surface_record) return std::unexpected(missing_record(records, "Surface", surface_id));
  const dat::Surface& surface = *surface_record;
  Material m;
  m.surface = surface_id;
  m.type = surface.type;
  m.translucency = surface.translucency;
  m.luminosity = surface.luminosity;
  m.diffuse = surface.diffuse;
  if (surface.has_texture()) {
    const bool clip = (surface.type & kTypeClipMap) != 0;
    m.texture = texture_override != 0 ? texture_override : surface.texture;
    dat::Did default_palette = 0;
    DERETH_TRY(m.image,
               decode_texture(records, m.texture, palette, surface.palette, clip, &m.palettized, &default_palette));
    m.has_texture = true;
    // CSurface::InitEnd 0x00536400: a Surface without a palette of its own
    // takes its palettized texture's.
    m.original_palette = surface.palette != 0 ? surface.palette : default_palette;
    m.composed_palette = palette != nullptr && m.palettized;
  } else {
    m.image = Image(1, 1,
                    {static_cast<std::uint8_t>((surface.color >> 16) & 0xFF),
                     static_cast<std::uint8_t>((surface.color >> 8) & 0xFF),
                     static_cast<std::uint8_t>(surface.color & 0xFF), alpha_byte(surface.translucency)});
  }
  return m;
}

SurfaceState surface_state(const Material& material, float part_translucency) noexcept {
  return D3DPolyRender::set_surface(SurfaceInput{material.type, material.translucency, material.has_texture,
                                                 material.palettized, part_translucency > 0.0F});
}

}  // namespace dereth::render
