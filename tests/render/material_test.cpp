#include "dereth/render/material.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <vector>

#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/palette.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/render_surface.hpp"
#include "dereth/dat/surface.hpp"
#include "dereth/dat/surface_texture.hpp"

using namespace dereth;
using dat::Did;
using dat::PixelFormat;
using render::BlendFactor;
using render::D3DPolyRender;
using render::SurfaceInput;
using render::SurfaceState;
namespace st = dat::surface_type;

namespace {

using Px = std::array<std::uint8_t, 4>;

struct Records {
  std::vector<dat::DatRecord> list;

  void pixels(Did id, std::int32_t w, std::int32_t h, PixelFormat f, std::vector<std::uint8_t> px, Did palette = 0) {
    dat::RenderSurface rs;
    rs.id = id;
    rs.width = w;
    rs.height = h;
    rs.format = f;
    rs.pixels = std::move(px);
    rs.default_palette = palette;
    list.push_back({id, dat::write_render_surface(rs)});
  }
  void texture(Did id, Did render_surface) {
    dat::SurfaceTexture t;
    t.id = id;
    t.render_surfaces = {render_surface};
    list.push_back({id, dat::write_surface_texture(t)});
  }
  void surface(Did id, std::uint32_t type, Did texture, Did palette = 0, std::uint32_t color = 0,
               float translucency = 0) {
    dat::Surface s;
    s.id = id;
    s.type = type;
    s.texture = texture;
    s.palette = palette;
    s.color = color;
    s.translucency = translucency;
    list.push_back({id, dat::write_surface(s)});
  }
  void palette(Did id, std::vector<std::uint32_t> colors) {
    dat::Palette p;
    p.id = id;
    p.colors = std::move(colors);
    list.push_back({id, dat::write_palette(p)});
  }
  dat::DatFile build() const {
    auto bytes = dat::build_dat(list, dat::DatWriterOptions{dat::DatKind::Portal});
    REQUIRE(bytes.has_value());
    auto file = dat::DatFile::from_bytes(std::move(*bytes), "test_portal.dat");
    REQUIRE(file.has_value());
    return std::move(*file);
  }
};

std::vector<std::uint8_t> le16(std::uint16_t v) {
  return {static_cast<std::uint8_t>(v & 0xFF), static_cast<std::uint8_t>(v >> 8)};
}

std::vector<std::uint8_t> cat(std::initializer_list<std::vector<std::uint8_t>> parts) {
  std::vector<std::uint8_t> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

// Palette A: entry i = ARGB(255, 10*i, 0, 0); palette B: ARGB(255, 0, 10*i, 0).
std::vector<std::uint32_t> ramp(unsigned shift) {
  std::vector<std::uint32_t> c;
  for (std::uint32_t i = 0; i < 16; ++i) c.push_back(0xFF000000U | ((10U * i) << shift));
  return c;
}

dat::DatFile test_portal() {
  Records r;
  // DXT1, four-colour mode: color0 red 0xF800 > color1 blue 0x001F; row 0 uses indices 0, 1, 2, 3.
  r.pixels(0x06000010, 4, 4, PixelFormat::DXT1, cat({le16(0xF800), le16(0x001F), {0xE4, 0x00, 0x00, 0x00}}));
  r.texture(0x05000010, 0x06000010);
  // DXT1, three-colour mode: color0 blue <= color1 red; row 0 uses indices 2, 3.
  r.pixels(0x06000011, 4, 4, PixelFormat::DXT1, cat({le16(0x001F), le16(0xF800), {0x0E, 0x00, 0x00, 0x00}}));
  // DXT3: explicit 4-bit alpha 0xF, 0x8, 0x0 for pixels 0..2; colour white (index 0).
  r.pixels(0x06000012, 4, 4, PixelFormat::DXT3,
           cat({{0x8F, 0x00, 0, 0, 0, 0, 0, 0}, le16(0xFFFF), le16(0x0000), {0, 0, 0, 0}}));
  // DXT5: alpha0 255 > alpha1 0 (eight-value mode); pixels 0..3 use alpha indices 0, 1, 2, 7.
  // 3-bit indices 0 | 1<<3 | 2<<6 | 7<<9 = 0x0E88.
  r.pixels(0x06000013, 4, 4, PixelFormat::DXT5,
           cat({{255, 0, 0x88, 0x0E, 0, 0, 0, 0}, le16(0xFFFF), le16(0x0000), {0, 0, 0, 0}}));
  // P8 4x1 with indices 3, 7, 8, 12 and default palette A.
  r.palette(0x04000010, ramp(16));
  r.palette(0x04000011, ramp(8));
  r.pixels(0x06000014, 4, 1, PixelFormat::P8, {3, 7, 8, 12}, 0x04000010);
  r.texture(0x05000014, 0x06000014);
  // INDEX16 2x1 with indices 9, 2 and default palette A.
  r.pixels(0x06000015, 2, 1, PixelFormat::INDEX16, cat({le16(9), le16(2)}), 0x04000010);
  r.texture(0x05000015, 0x06000015);
  // P8 whose palette is too short for index 200.
  r.pixels(0x06000016, 1, 1, PixelFormat::P8, {200}, 0x04000010);
  r.texture(0x05000016, 0x06000016);

  r.surface(0x08000010, st::kBase1Image, 0x05000010);
  r.surface(0x08000014, st::kBase1Image, 0x05000014);              // default palette A
  r.surface(0x08000015, st::kBase1Image, 0x05000014, 0x04000011);  // palette B overrides
  r.surface(0x08000016, st::kBase1ClipMap, 0x05000014);            // indices < 8 transparent
  r.surface(0x08000017, st::kBase1ClipMap, 0x05000015);
  r.surface(0x08000018, st::kBase1Solid | st::kTranslucent, 0, 0, 0x80112233, 0.5F);
  r.surface(0x08000019, st::kBase1Image, 0x05000099);  // texture absent
  r.surface(0x0800001A, st::kBase1Image, 0x05000016);  // index past the palette
  r.list.push_back({0x0800001B, {0x02, 0x00}});        // truncated Surface
  return r.build();
}

Px px(const render::Image& img, int x, int y) {
  return img.at(x, y);
}

}  // namespace

TEST_CASE("load_texture: DXT1 four-colour block decodes to the hand-computed colours", "[render][material]") {
  const auto portal = test_portal();
  dat::RecordCache records(&portal);
  auto img = render::load_texture(records, 0x05000010, 0, false);
  REQUIRE(img.has_value());
  REQUIRE(img->width == 4);
  REQUIRE(img->height == 4);
  // c0 = red 255, c1 = blue 255; c2 = (2*c0 + c1)/3, c3 = (c0 + 2*c1)/3 with floor division.
  CHECK(px(*img, 0, 0) == Px{255, 0, 0, 255});
  CHECK(px(*img, 1, 0) == Px{0, 0, 255, 255});
  CHECK(px(*img, 2, 0) == Px{170, 0, 85, 255});
  CHECK(px(*img, 3, 0) == Px{85, 0, 170, 255});
  CHECK(px(*img, 2, 3) == Px{255, 0, 0, 255});  // index 0
}

TEST_CASE("load_texture: DXT1 three-colour block, DXT3 and DXT5 alpha", "[render][material]") {
  const auto portal = test_portal();
  dat::RecordCache records(&portal);
  auto three = render::load_texture(records, 0x06000011, 0, false);  // a RenderSurface id directly
  REQUIRE(three.has_value());
  CHECK(px(*three, 0, 0) == Px{127, 0, 127, 255});  // (blue + red) / 2
  CHECK(px(*three, 1, 0) == Px{0, 0, 0, 0});        // index 3: transparent black
  CHECK(px(*three, 2, 0) == Px{0, 0, 255, 255});    // index 0: color0 (blue)

  auto dxt3 = render::load_texture(records, 0x06000012, 0, false);
  REQUIRE(dxt3.has_value());
  CHECK(px(*dxt3, 0, 0) == Px{255, 255, 255, 255});  // 0xF * 17
  CHECK(px(*dxt3, 1, 0) == Px{255, 255, 255, 136});  // 0x8 * 17
  CHECK(px(*dxt3, 2, 0) == Px{255, 255, 255, 0});

  auto dxt5 = render::load_texture(records, 0x06000013, 0, false);
  REQUIRE(dxt5.has_value());
  CHECK(px(*dxt5, 0, 0)[3] == 255);            // alpha0
  CHECK(px(*dxt5, 1, 0)[3] == 0);              // alpha1
  CHECK(px(*dxt5, 2, 0)[3] == (6 * 255) / 7);  // 218
  CHECK(px(*dxt5, 3, 0)[3] == (1 * 255) / 7);  // index 7: 36
  CHECK(px(*dxt5, 0, 1)[3] == 255);            // index 0 again
}

TEST_CASE("load_material: P8 through the default palette, an overriding palette and the ClipMap rule",
          "[render][material]") {
  const auto portal = test_portal();
  dat::RecordCache records(&portal);
  auto a = render::load_material(records, 0x08000014);
  REQUIRE(a.has_value());
  CHECK(a->has_texture);
  CHECK(a->palettized);
  CHECK(px(a->image, 0, 0) == Px{30, 0, 0, 255});
  CHECK(px(a->image, 1, 0) == Px{70, 0, 0, 255});
  CHECK(px(a->image, 2, 0) == Px{80, 0, 0, 255});
  CHECK(px(a->image, 3, 0) == Px{120, 0, 0, 255});

  auto b = render::load_material(records, 0x08000015);
  REQUIRE(b.has_value());
  CHECK(px(b->image, 0, 0) == Px{0, 30, 0, 255});
  CHECK(px(b->image, 3, 0) == Px{0, 120, 0, 255});

  auto clip = render::load_material(records, 0x08000016);
  REQUIRE(clip.has_value());
  CHECK(px(clip->image, 0, 0) == Px{30, 0, 0, 0});    // index 3 < 8
  CHECK(px(clip->image, 1, 0) == Px{70, 0, 0, 0});    // index 7 < 8
  CHECK(px(clip->image, 2, 0) == Px{80, 0, 0, 255});  // index 8 stays
  CHECK(px(clip->image, 3, 0) == Px{120, 0, 0, 255});

  auto wide = render::load_material(records, 0x08000017);
  REQUIRE(wide.has_value());
  CHECK(px(wide->image, 0, 0) == Px{90, 0, 0, 255});  // INDEX16 9
  CHECK(px(wide->image, 1, 0) == Px{20, 0, 0, 0});    // INDEX16 2 < 8
}

TEST_CASE("load_material: a solid colour ignores its alpha byte and takes (1 - translucency) * 255",
          "[render][material]") {
  const auto portal = test_portal();
  dat::RecordCache records(&portal);
  auto m = render::load_material(records, 0x08000018);
  REQUIRE(m.has_value());
  CHECK_FALSE(m->has_texture);
  CHECK(m->image.width == 1);
  CHECK(px(m->image, 0, 0) == Px{0x11, 0x22, 0x33, 127});  // (1 - 0.5) * 255 = 127.5, truncated
  CHECK(m->translucency == 0.5F);
}

TEST_CASE("load_material: missing and malformed records are errors naming the DID, never a crash",
          "[render][material]") {
  const auto portal = test_portal();
  dat::RecordCache records(&portal);
  auto absent_texture = render::load_material(records, 0x08000019);
  REQUIRE_FALSE(absent_texture.has_value());
  auto short_palette = render::load_material(records, 0x0800001A);
  REQUIRE_FALSE(short_palette.has_value());
  auto truncated = render::load_material(records, 0x0800001B);
  REQUIRE_FALSE(truncated.has_value());
  auto absent = render::load_material(records, 0x08000FFF);
  REQUIRE_FALSE(absent.has_value());
  CHECK(absent.error().message().find("0x08000FFF") != std::string::npos);
  // The cache the record was asked through remembers it, with the same reason.
  const auto missing = records.find_missing("Surface", 0x08000FFF);
  REQUIRE(missing.has_value());
  CHECK(absent.error().message().find(missing->why) != std::string::npos);
  auto wrong_type = render::load_material(records, 0x01000001);
  REQUIRE_FALSE(wrong_type.has_value());
  CHECK(wrong_type.error().message().find("0x01000001") != std::string::npos);
  auto not_texture = render::load_texture(records, 0x08000010, 0, false);
  REQUIRE_FALSE(not_texture.has_value());
}

TEST_CASE("D3DPolyRender::SetSurface 0x0059C4D0 leaves opaque surfaces unblended with z writes", "[retail]") {
  const SurfaceState s = D3DPolyRender::set_surface(SurfaceInput{st::kBase1Image, 0.0F, true, false, false});
  CHECK_FALSE(s.blend);
  CHECK(s.src == BlendFactor::One);
  CHECK(s.dst == BlendFactor::Zero);
  CHECK_FALSE(s.alpha_test);
  CHECK(s.depth_write);
  CHECK(s.alpha == 255);
}

TEST_CASE("D3DPolyRender::SetSurface 0x0059C4D0 picks blend factors from Alpha, InvAlpha and Additive", "[retail]") {
  const auto blend_of = [](std::uint32_t type) {
    return D3DPolyRender::set_surface(SurfaceInput{type, 0.0F, true, false, false});
  };
  const SurfaceState alpha = blend_of(st::kBase1Image | st::kAlpha);
  CHECK(alpha.blend);
  CHECK(alpha.src == BlendFactor::SrcAlpha);
  CHECK(alpha.dst == BlendFactor::InvSrcAlpha);
  CHECK_FALSE(alpha.depth_write);

  const SurfaceState alpha_add = blend_of(st::kBase1Image | st::kAlpha | st::kAdditive);
  CHECK(alpha_add.src == BlendFactor::SrcAlpha);
  CHECK(alpha_add.dst == BlendFactor::One);

  const SurfaceState inv = blend_of(st::kBase1Image | st::kInvAlpha);
  CHECK(inv.src == BlendFactor::InvSrcAlpha);
  CHECK(inv.dst == BlendFactor::SrcAlpha);
  const SurfaceState inv_add = blend_of(st::kBase1Image | st::kInvAlpha | st::kAdditive);
  CHECK(inv_add.src == BlendFactor::InvSrcAlpha);
  CHECK(inv_add.dst == BlendFactor::One);

  const SurfaceState add = blend_of(st::kBase1Image | st::kAdditive);
  CHECK(add.blend);
  CHECK(add.src == BlendFactor::One);
  CHECK(add.dst == BlendFactor::One);
  CHECK_FALSE(add.depth_write);

  // Alpha wins over InvAlpha (tested first).
  const SurfaceState both = blend_of(st::kBase1Image | st::kAlpha | st::kInvAlpha);
  CHECK(both.src == BlendFactor::SrcAlpha);
}

TEST_CASE("D3DPolyRender::SetSurface 0x0059C4D0 alpha-tests ClipMaps at 100 through a palette, else 200", "[retail]") {
  const SurfaceState pal = D3DPolyRender::set_surface(SurfaceInput{st::kBase1ClipMap, 0.0F, true, true, false});
  CHECK(pal.blend);
  CHECK(pal.src == BlendFactor::One);
  CHECK(pal.dst == BlendFactor::InvSrcAlpha);
  CHECK(pal.alpha_test);
  CHECK(pal.alpha_ref == 100);
  CHECK(pal.depth_write);  // alpha-tested surfaces keep z writes

  const SurfaceState dds = D3DPolyRender::set_surface(SurfaceInput{st::kBase1ClipMap, 0.0F, true, false, false});
  CHECK(dds.alpha_ref == 200);
  const SurfaceState untextured = D3DPolyRender::set_surface(SurfaceInput{st::kBase1ClipMap, 0.0F, false, true, false});
  CHECK(untextured.alpha_ref == 200);

  // A ClipMap that already blends keeps its factors and adds the test.
  const SurfaceState additive =
      D3DPolyRender::set_surface(SurfaceInput{st::kBase1ClipMap | st::kAdditive, 0.0F, true, false, false});
  CHECK(additive.src == BlendFactor::One);
  CHECK(additive.dst == BlendFactor::One);
  CHECK(additive.alpha_test);
  CHECK(additive.depth_write);

  // overrideClipmap: plain alpha blending, no test.
  const SurfaceState overridden =
      D3DPolyRender::set_surface(SurfaceInput{st::kBase1ClipMap, 0.0F, true, true, false}, true);
  CHECK(overridden.src == BlendFactor::SrcAlpha);
  CHECK(overridden.dst == BlendFactor::InvSrcAlpha);
  CHECK_FALSE(overridden.alpha_test);
}

TEST_CASE("D3DPolyRender::SetSurface 0x0059C4D0 Translucent: (1 - t) * 255 alpha, alpha blending unless additive",
          "[retail]") {
  const SurfaceState t =
      D3DPolyRender::set_surface(SurfaceInput{st::kBase1Image | st::kTranslucent, 0.25F, true, false, false});
  CHECK(t.blend);
  CHECK(t.src == BlendFactor::SrcAlpha);
  CHECK(t.dst == BlendFactor::InvSrcAlpha);
  CHECK(t.alpha == 191);  // 191.25 truncated
  CHECK_FALSE(t.depth_write);

  const SurfaceState clip =
      D3DPolyRender::set_surface(SurfaceInput{st::kBase1ClipMap | st::kTranslucent, 0.5F, true, true, false});
  CHECK_FALSE(clip.alpha_test);  // the test is dropped for blending
  CHECK(clip.src == BlendFactor::SrcAlpha);
  CHECK(clip.alpha == 127);

  const SurfaceState add = D3DPolyRender::set_surface(
      SurfaceInput{st::kBase1Image | st::kAdditive | st::kTranslucent, 0.5F, true, false, false});
  CHECK(add.src == BlendFactor::One);  // already blending without a test: factors kept
  CHECK(add.dst == BlendFactor::One);
  CHECK(add.alpha == 127);

  // Without the Translucent bit the surface's translucency is not applied here.
  const SurfaceState plain = D3DPolyRender::set_surface(SurfaceInput{st::kBase1Image, 0.5F, true, false, false});
  CHECK(plain.alpha == 255);
}

TEST_CASE("D3DPolyRender::SetSurface 0x0059C4D0 a translucent part material blends with z writes off", "[retail]") {
  const SurfaceState opaque = D3DPolyRender::set_surface(SurfaceInput{st::kBase1Image, 0.0F, true, false, true});
  CHECK(opaque.blend);
  CHECK(opaque.src == BlendFactor::SrcAlpha);
  CHECK(opaque.dst == BlendFactor::InvSrcAlpha);
  CHECK_FALSE(opaque.depth_write);

  const SurfaceState clip = D3DPolyRender::set_surface(SurfaceInput{st::kBase1ClipMap, 0.0F, true, true, true});
  CHECK_FALSE(clip.alpha_test);
  CHECK(clip.src == BlendFactor::SrcAlpha);
  CHECK_FALSE(clip.depth_write);

  // An additive surface already blends untested: its factors stay.
  const SurfaceState add =
      D3DPolyRender::set_surface(SurfaceInput{st::kBase1Image | st::kAdditive, 0.0F, true, false, true});
  CHECK(add.src == BlendFactor::One);
  CHECK(add.dst == BlendFactor::One);
  CHECK_FALSE(add.depth_write);
}

TEST_CASE("CPhysicsPart::SetTranslucency 0x0050E670 hides a part only at exactly 1.0", "[retail]") {
  render::PhysicsPart part;
  CHECK(part.drawn());
  part.set_translucency(0.3F);
  CHECK(part.drawn());
  CHECK(part.translucency() == 0.3F);
  part.set_translucency(1.0F);
  CHECK_FALSE(part.drawn());
  CHECK(part.translucency() == 0.3F);  // the material keeps its last translucency
  part.set_translucency(0.99999F);
  CHECK(part.drawn());
  CHECK(part.translucency() == 0.99999F);
  part.set_translucency(1.5F);  // not exactly 1: drawn (a fully transparent material)
  CHECK(part.drawn());
}

TEST_CASE("surface_state: a part's translucency makes an opaque material blend", "[render][material]") {
  render::Material m;
  m.type = st::kBase1Image;
  m.has_texture = true;
  CHECK_FALSE(render::surface_state(m, 0.0F).blend);
  CHECK(render::surface_state(m, 0.5F).blend);
  CHECK_FALSE(render::surface_state(m, -0.5F).blend);  // alpha above 1 is not "has alpha"
}
