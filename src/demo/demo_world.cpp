#include "dereth/demo/demo_world.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "dereth/core/file.hpp"
#include "dereth/dat/animation.hpp"
#include "dereth/dat/char_gen.hpp"
#include "dereth/dat/clothing_table.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/gfx_obj_degrade_info.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/motion_table.hpp"
#include "dereth/dat/palette.hpp"
#include "dereth/dat/palette_set.hpp"
#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/dat/physics_script.hpp"
#include "dereth/dat/physics_script_table.hpp"
#include "dereth/dat/quality_filter.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/dat/render_surface.hpp"
#include "dereth/dat/scene.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/dat/skill_table.hpp"
#include "dereth/dat/sound_table.hpp"
#include "dereth/dat/spell_component_table.hpp"
#include "dereth/dat/spell_table.hpp"
#include "dereth/dat/surface.hpp"
#include "dereth/dat/surface_texture.hpp"
#include "dereth/dat/vital_table.hpp"
#include "dereth/dat/wave.hpp"
#include "dereth/dat/xp_table.hpp"

#include "demo_sky.hpp"

namespace dereth::demo {

namespace {

using namespace dereth::dat;  // the demo is written in the DAT records' own terms

// ---- ids of the made-up assets -----------------------------------------------------------------

// GfxObjs
constexpr Did kTorsoMesh = 0x01000001;
constexpr Did kHeadMesh = 0x01000002;
constexpr Did kArmMesh = 0x01000003;
constexpr Did kLegMesh = 0x01000004;
constexpr Did kArrowMesh = 0x01000010;
constexpr Did kBoltMesh = 0x01000011;
constexpr Did kBladeMesh = 0x01000012;
constexpr Did kFistMesh = 0x01000013;
constexpr Did kSparkMesh = 0x01000020;      // a GfxObj particle
constexpr Did kSparkDegrades = 0x11000020;  // its degrade info: one level, drawn facing the viewer (mode 2)
// The four spell bolts' own shapes (each along +y, the path AlignPath turns
// it to) and their particles: a spark GfxObj of each spell's colour, each
// with its degrade info (0x11000021..24), so trails and bursts tell the
// spells apart as the bolts do.
constexpr Did kFlameMesh = 0x01000014;      // a fireball with a tongue of flame behind it
constexpr Did kFrostMesh = 0x01000015;      // a long thin icicle
constexpr Did kLightningMesh = 0x01000016;  // a zigzag of three strokes
constexpr Did kAcidMesh = 0x01000017;       // a round glob with a drip behind
constexpr Did kFlameSpark = 0x01000021;
constexpr Did kFrostSpark = 0x01000022;
constexpr Did kLightningSpark = 0x01000023;
constexpr Did kAcidSpark = 0x01000024;
constexpr Did kTreeTrunkMesh = 0x01000030;
constexpr Did kTreeCrownMesh = 0x01000031;
constexpr Did kRockMesh = 0x01000032;
constexpr Did kTreeSetup = 0x02000100;
// The scenery the Region's scene tables place on the grass (CLandBlock::get_land_scenes):
// a pine (trunk and cone crown), a bush and a boulder, and the three Scenes that mix them.
constexpr Did kPineTrunkMesh = 0x01000033;
constexpr Did kPineCrownMesh = 0x01000034;
constexpr Did kBushMesh = 0x01000035;
constexpr Did kBoulderMesh = 0x01000036;
constexpr Did kPineSetup = 0x02000101;
// The portal's and the torch's parts.
constexpr Did kPortalMesh = 0x01000041;      // the swirling disc, both sides drawn
constexpr Did kPortalPostMesh = 0x01000042;  // a stone post beside it
constexpr Did kTorchPostMesh = 0x01000043;
constexpr Did kTorchFlameMesh = 0x01000044;
constexpr Did kGroveScene = 0x12000001;
constexpr Did kRockyScene = 0x12000002;
constexpr Did kMeadowScene = 0x12000003;

// Surfaces, textures and pixels
constexpr Did kSkinSurface = 0x08000001;
constexpr Did kClothSurface = 0x08000002;
constexpr Did kStoneSurface = 0x08000003;
constexpr Did kBarkSurface = 0x08000004;
constexpr Did kLeafSurface = 0x08000005;
constexpr Did kGlowSurface = 0x08000006;
constexpr Did kFlameSurface = 0x08000010;
constexpr Did kFrostSurface = 0x08000011;
constexpr Did kAcidSurface = 0x08000012;
constexpr Did kLightningSurface = 0x08000013;
constexpr Did kWoodSurface = 0x08000014;
constexpr Did kForceSurface = 0x08000015;
constexpr Did kFlameGlow = 0x08000040;  // the spell sparks' glows (textures 0x0500004N, pixels 0x0600004N)
constexpr Did kFrostGlow = 0x08000041;
constexpr Did kLightningGlow = 0x08000042;
constexpr Did kAcidGlow = 0x08000043;
constexpr Did kPlasterSurface = 0x08000030;  // the house's walls, outside and in
constexpr Did kRoofSurface = 0x08000031;
constexpr Did kPlankSurface = 0x08000032;         // the room's floor and ceiling, the door frames
constexpr Did kWaterTexture = 0x05000023;         // the water terrain type's
constexpr Did kDungeonWallSurface = 0x08000033;   // the dungeon's walls and ceilings: dressed stone blocks
constexpr Did kDungeonFloorSurface = 0x08000034;  // its floors: flagstones
constexpr Did kPortalSurface = 0x08000035;        // the portal's swirl (additive, luminous)

constexpr Did kStonePalette = 0x04000001;

// The human's palettes (see "the human's colours" below).
constexpr Did kHumanPalette = 0x04000010;      // the base palette: skin, hair and eye colours in retail's ranges
constexpr Did kFirstSkinPalette = 0x04000011;  // kSkinShades palettes, pale to dark
constexpr Did kFirstHairPalette = 0x04000018;  // kHairColors x kHairShades palettes
constexpr Did kFirstEyePalette = 0x04000028;   // kEyeColors palettes
constexpr Did kSkinPaletteSet = 0x0F000010;
constexpr Did kFirstHairPaletteSet = 0x0F000011;  // one per hair colour
constexpr Did kClothPalette = 0x04000030;         // the clothing colours' palette (the PaletteSet 0x0F000001's)
constexpr Did kFaceTexture = 0x05000050;          // the head with hair and eyes (the eye strip's)
constexpr Did kBaldFaceTexture = 0x05000051;      // the same without hair (the bald eye strip's)

// Animations
constexpr Did kReadyAnimation = 0x03000001;
constexpr Did kWalkAnimation = 0x03000002;
constexpr Did kRunAnimation = 0x03000003;
constexpr Did kTurnAnimation = 0x03000004;

// Particle emitters covering every particle type (1..12) and both emitter types.
constexpr Did kFirstTypeEmitter = 0x32000001;  // 0x32000001 + (type - 1)
constexpr Did kFlameTrail = 0x32000010;
constexpr Did kFrostTrail = 0x32000011;
constexpr Did kAcidTrail = 0x32000012;
constexpr Did kLightningTrail = 0x32000013;
constexpr Did kArrowTrail = 0x32000014;
constexpr Did kFlameBurst = 0x32000020;
constexpr Did kFrostBurst = 0x32000021;
constexpr Did kAcidBurst = 0x32000022;
constexpr Did kLightningBurst = 0x32000023;
constexpr Did kPortalSwirl = 0x32000030;

// Sounds (the Sound enum values the SoundTable is keyed by) and waves.
constexpr std::uint32_t kSoundLaunch = 0x51;
constexpr std::uint32_t kSoundExplode = 0x52;
constexpr std::uint32_t kSoundHit = 0x53;
constexpr std::uint32_t kSoundPortal = 0x54;
constexpr Did kLaunchWave = 0x0A000001;
constexpr Did kExplodeWave = 0x0A000002;
constexpr Did kHitWave = 0x0A000003;
constexpr Did kPortalWave = 0x0A000004;
constexpr Did kRecallWave = 0x0A000005;

constexpr std::uint32_t kWholeObject = 0xFFFFFFFF;

using Records = std::vector<DatRecord>;

AnimationHook hook(HookPayload payload) {
  return AnimationHook{HookDirection::Forward, std::move(payload)};
}

// ---- textures -----------------------------------------------------------------------------------

std::uint32_t argb(std::uint32_t a, std::uint32_t r, std::uint32_t g, std::uint32_t b) {
  return (a << 24) | (r << 16) | (g << 8) | b;
}

void add_texture(Records& out, Did surface, Did texture, Did pixels_id, RenderSurface pixels, std::uint32_t type,
                 float translucency = 0) {
  pixels.id = pixels_id;
  out.push_back({pixels_id, write_render_surface(pixels)});
  SurfaceTexture tex;
  tex.id = texture;
  tex.render_surfaces = {pixels_id};
  out.push_back({texture, write_surface_texture(tex)});
  Surface s;
  s.id = surface;
  s.type = type;
  s.texture = texture;
  s.translucency = translucency;
  out.push_back({surface, write_surface(s)});
}

RenderSurface argb_image(int size, auto&& pixel) {
  RenderSurface r;
  r.width = size;
  r.height = size;
  r.format = PixelFormat::A8R8G8B8;
  ByteWriter w;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) w.u32(pixel(x, y));
  }
  r.pixels = std::move(w).take();
  return r;
}

RenderSurface rgb_image(int size, auto&& pixel) {
  RenderSurface r;
  r.width = size;
  r.height = size;
  r.format = PixelFormat::R8G8B8;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      const std::uint32_t c = pixel(x, y);
      r.pixels.push_back(static_cast<std::uint8_t>(c & 0xFF));          // B
      r.pixels.push_back(static_cast<std::uint8_t>((c >> 8) & 0xFF));   // G
      r.pixels.push_back(static_cast<std::uint8_t>((c >> 16) & 0xFF));  // R
    }
  }
  return r;
}

// A deterministic hash of a texel to [0, 1).
float hash01(std::uint32_t x, std::uint32_t y, std::uint32_t seed) {
  std::uint32_t h = (x * 0x8DA6B343U) ^ (y * 0xD8163841U) ^ (seed * 0xCB1AB31FU);
  h ^= h >> 13;
  h *= 0x5BD1E995U;
  h ^= h >> 15;
  return static_cast<float>(h & 0xFFFFFFU) / 16777216.0F;
}

// Value noise with `cell`-texel features that tiles over `size` texels
// (cell divides size): random lattice values, smoothstep-interpolated.
float tiling_noise(int x, int y, int size, int cell, std::uint32_t seed) {
  const int n = size / cell;
  const int x0 = x / cell;
  const int y0 = y / cell;
  const auto smooth = [](float t) { return t * t * (3.0F - 2.0F * t); };
  const float fx = smooth((static_cast<float>(x % cell) + 0.5F) / static_cast<float>(cell));
  const float fy = smooth((static_cast<float>(y % cell) + 0.5F) / static_cast<float>(cell));
  const auto at = [&](int i, int j) {
    return hash01(static_cast<std::uint32_t>(i % n), static_cast<std::uint32_t>(j % n), seed);
  };
  const float south = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * fx;
  const float north = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * fx;
  return south + (north - south) * fy;
}

// A terrain texture that mipmaps without moire: its variation is broad
// (16- and 8-texel features, tiling) plus a faint per-texel grain, so every
// mip level is the same ground a little smoother. A short-period lattice
// pattern (the old x*31 + y*17 mod 7) beats against the 2x2 mip box filter
// and bakes bands into the coarse levels, which show as moire in the distance.
RenderSurface terrain_image(int size, std::uint32_t rgb, std::uint32_t seed) {
  return rgb_image(size, [size, rgb, seed](int x, int y) {
    const float broad = 0.65F * tiling_noise(x, y, size, 16, seed) + 0.35F * tiling_noise(x, y, size, 8, seed + 1);
    const float grain = hash01(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), seed + 2) - 0.5F;
    const float k = 0.86F + 0.28F * broad + 0.08F * grain;
    const auto channel = [k](std::uint32_t c) {
      return static_cast<std::uint32_t>(std::clamp(static_cast<float>(c) * k + 0.5F, 0.0F, 255.0F));
    };
    return (channel((rgb >> 16) & 0xFFU) << 16) | (channel((rgb >> 8) & 0xFFU) << 8) | channel(rgb & 0xFFU);
  });
}

std::uint16_t rgb565(std::uint32_t r, std::uint32_t g, std::uint32_t b) {
  return static_cast<std::uint16_t>(((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3));
}

// A DXT1 image: one colour pair per 4x4 block, indices making a diagonal pattern.
RenderSurface dxt1_image(int size) {
  RenderSurface r;
  r.width = size;
  r.height = size;
  r.format = PixelFormat::DXT1;
  ByteWriter w;
  for (int by = 0; by < size / 4; ++by) {
    for (int bx = 0; bx < size / 4; ++bx) {
      const auto shade = static_cast<std::uint32_t>(96 + ((bx + by) * 16) % 128);
      w.u16(rgb565(shade, shade / 2 + 40, 30));  // color0 > color1: four-colour mode
      w.u16(rgb565(shade / 3, shade / 4, 10));
      std::uint32_t indices = 0;
      for (int i = 0; i < 16; ++i) indices |= static_cast<std::uint32_t>(((i / 4 + i % 4) % 4)) << (2 * i);
      w.u32(indices);
    }
  }
  r.pixels = std::move(w).take();
  return r;
}

// A DXT5 image: a radial alpha glow.
RenderSurface dxt5_glow(int size) {
  RenderSurface r;
  r.width = size;
  r.height = size;
  r.format = PixelFormat::DXT5;
  ByteWriter w;
  const float half = static_cast<float>(size) / 2.0F;
  for (int by = 0; by < size / 4; ++by) {
    for (int bx = 0; bx < size / 4; ++bx) {
      const float cx = static_cast<float>(bx * 4 + 2) - half;
      const float cy = static_cast<float>(by * 4 + 2) - half;
      const float d = std::min(1.0F, std::sqrt(cx * cx + cy * cy) / half);
      const auto alpha = static_cast<std::uint8_t>(255.0F * (1.0F - d));
      w.u8(alpha);                          // alpha0
      w.u8(0);                              // alpha1
      for (int i = 0; i < 6; ++i) w.u8(0);  // every pixel uses alpha0
      w.u16(rgb565(255, 240, 200));
      w.u16(rgb565(255, 160, 60));
      w.u32(0);
    }
  }
  r.pixels = std::move(w).take();
  return r;
}

// A P8 image through a palette.
RenderSurface p8_image(int size) {
  RenderSurface r;
  r.width = size;
  r.height = size;
  r.format = PixelFormat::P8;
  r.default_palette = kStonePalette;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) {
      r.pixels.push_back(static_cast<std::uint8_t>(((x * 7) ^ (y * 13)) & 0xFF));
    }
  }
  return r;
}

// ---- the human's colours --------------------------------------------------------------------------
// The human's skin is a P8 texture through kHumanPalette, a 2048-colour
// palette laid out as retail's character palettes are: skin colours 0..191,
// hair 192..255, eyes 256..319 (the ranges CharGen's skin, hair and eye
// choices replace: chargen::kSkinColors, kHairColors, kEyeColors). Its skin
// range reproduces the old A8R8G8B8 skin (R 200..219 across, G 160..175
// down, B 130) to within one step, so the world looks as it did; the eye
// strips put a face with hair (or a bald one) on the head, drawn from the
// same palette, so the preview shows every choice. The skin PaletteSet runs
// pale to dark; each hair colour's PaletteSet, light to dark.

constexpr std::uint32_t kSkinLevels = 12;  // 12 x 16 = 192 skin colours
constexpr std::uint32_t kSkinShades = 4;
constexpr std::uint32_t kHairColorCount = 3;
constexpr std::uint32_t kHairShades = 3;
constexpr std::uint32_t kEyeColorCount = 3;
constexpr std::uint32_t kSkinFirst = 0;
constexpr std::uint32_t kHairFirst = 192;
constexpr std::uint32_t kEyeFirst = 256;
constexpr std::uint32_t kClothFirst = 320;  // the clothing colours, past the eyes'
constexpr std::uint32_t kClothColors = 256;

// The skin index of texel column x, row y: 16 rows of green, 12 columns of red.
std::uint8_t skin_index(int x, int y) {
  const auto column = static_cast<std::uint32_t>(x % 20);
  const std::uint32_t level = (column * (kSkinLevels - 1) + 9) / 19;
  return static_cast<std::uint8_t>(kSkinFirst + level * 16 + static_cast<std::uint32_t>(y % 16));
}

// A 2048-colour palette: skin colours of (r, g, b) plus the level's and the
// row's steps, hair and eye ramps from their dark to their light colour, grey beyond.
Palette human_palette(Did id, std::uint32_t skin, std::uint32_t hair, std::uint32_t eyes) {
  const auto channel = [](std::uint32_t c, int shift) { return (c >> shift) & 0xFFU; };
  const auto scaled = [&](std::uint32_t c, std::uint32_t num, std::uint32_t den) {
    return argb(255, channel(c, 16) * num / den, channel(c, 8) * num / den, channel(c, 0) * num / den);
  };
  Palette p;
  p.id = id;
  p.colors.assign(kModifiedPaletteColors, argb(255, 128, 128, 128));
  for (std::uint32_t level = 0; level < kSkinLevels; ++level) {
    for (std::uint32_t row = 0; row < 16; ++row) {
      const std::uint32_t red_step = (level * 19 + (kSkinLevels - 1) / 2) / (kSkinLevels - 1);
      p.colors[kSkinFirst + level * 16 + row] = argb(255, std::min(255U, channel(skin, 16) + red_step),
                                                     std::min(255U, channel(skin, 8) + row), channel(skin, 0));
    }
  }
  for (std::uint32_t i = 0; i < 64; ++i) p.colors[kHairFirst + i] = scaled(hair, 64 + i * 3, 256);
  for (std::uint32_t i = 0; i < 64; ++i) p.colors[kEyeFirst + i] = scaled(eyes, 128 + i * 2, 256);
  return p;
}

// The skin: the old skin's gradient through the skin colours.
RenderSurface human_skin_image() {
  RenderSurface r;
  r.width = 32;
  r.height = 32;
  r.format = PixelFormat::P8;
  r.default_palette = kHumanPalette;
  for (int y = 0; y < 32; ++y) {
    for (int x = 0; x < 32; ++x) r.pixels.push_back(skin_index(x, y));
  }
  return r;
}

// The head's face, INDEX16 (the eye colours lie past 255): skin, two eyes a
// third of the way down, and with `hair` the top third and the sides' upper
// rows in hair colours (a box head's texture wraps every face of it alike).
RenderSurface human_face_image(bool hair) {
  RenderSurface r;
  r.width = 32;
  r.height = 32;
  r.format = PixelFormat::INDEX16;
  r.default_palette = kHumanPalette;
  for (int y = 0; y < 32; ++y) {
    for (int x = 0; x < 32; ++x) {
      std::uint32_t index = skin_index(x, y);
      if (y >= 13 && y < 17 && ((x >= 7 && x < 12) || (x >= 20 && x < 25))) {
        index = kEyeFirst + 40 + static_cast<std::uint32_t>(x % 4) * 4;
      }
      if (hair && (y < 10 || (y < 13 && (x < 4 || x >= 28)))) {
        index = kHairFirst + static_cast<std::uint32_t>((x * 3 + y * 5) % 48);
      }
      r.pixels.push_back(static_cast<std::uint8_t>(index & 0xFFU));
      r.pixels.push_back(static_cast<std::uint8_t>(index >> 8));
    }
  }
  return r;
}

void add_human_colors(Records& out) {
  add_texture(out, kSkinSurface, 0x05000001, 0x06000001, human_skin_image(), surface_type::kBase1Image);
  // The face textures (no Surface of their own: the eye strips put them on the skin Surface).
  const auto add_face = [&](Did texture, Did pixels_id, RenderSurface pixels) {
    pixels.id = pixels_id;
    out.push_back({pixels_id, write_render_surface(pixels)});
    SurfaceTexture tex;
    tex.id = texture;
    tex.render_surfaces = {pixels_id};
    out.push_back({texture, write_surface_texture(tex)});
  };
  add_face(kFaceTexture, 0x06000050, human_face_image(true));
  add_face(kBaldFaceTexture, 0x06000051, human_face_image(false));
  constexpr std::uint32_t kSkin = 0xC8A082;  // the old skin's first texel
  constexpr std::uint32_t kBrownHair = 0x6A4428;
  constexpr std::uint32_t kBlueEyes = 0x3C64B4;
  out.push_back({kHumanPalette, write_palette(human_palette(kHumanPalette, kSkin, kBrownHair, kBlueEyes))});
  // Skin shades, pale to dark; only their skin range is read.
  constexpr std::uint32_t kSkins[kSkinShades] = {0xF0C8AA, kSkin, 0x966446, 0x503020};
  PaletteSet skin_set;
  skin_set.id = kSkinPaletteSet;
  for (std::uint32_t i = 0; i < kSkinShades; ++i) {
    const Did id = kFirstSkinPalette + i;
    out.push_back({id, write_palette(human_palette(id, kSkins[i], kBrownHair, kBlueEyes))});
    skin_set.palettes.push_back(id);
  }
  out.push_back({kSkinPaletteSet, write_palette_set(skin_set)});
  // Hair colours (brown, blond, red), each light to dark.
  constexpr std::uint32_t kHairs[kHairColorCount] = {kBrownHair, 0xE6C86E, 0xB4461E};
  for (std::uint32_t c = 0; c < kHairColorCount; ++c) {
    PaletteSet set;
    set.id = kFirstHairPaletteSet + c;
    for (std::uint32_t shade = 0; shade < kHairShades; ++shade) {
      const Did id = kFirstHairPalette + c * kHairShades + shade;
      const std::uint32_t hair =
          argb(0, ((kHairs[c] >> 16) & 0xFFU) * (3 - shade) / 3 + 16, ((kHairs[c] >> 8) & 0xFFU) * (3 - shade) / 3 + 16,
               (kHairs[c] & 0xFFU) * (3 - shade) / 3 + 16);
      out.push_back({id, write_palette(human_palette(id, kSkin, hair & 0xFFFFFFU, kBlueEyes))});
      set.palettes.push_back(id);
    }
    out.push_back({set.id, write_palette_set(set)});
  }
  // The clothing colours' palette: a cloth blue ramp over kClothFirst.. (the
  // ClothingTables recolour that range, so a server's clothing ObjDesc
  // leaves the skin, hair and eye colours alone).
  Palette cloth = human_palette(kClothPalette, kSkin, kBrownHair, kBlueEyes);
  for (std::uint32_t i = 0; i < kClothColors; ++i) {
    cloth.colors[kClothFirst + i] = argb(255, 32 + i / 8, 48 + i / 8, 112 + i / 4);
  }
  out.push_back({kClothPalette, write_palette(cloth)});
  // Eye colours (blue, green, brown).
  constexpr std::uint32_t kEyes[kEyeColorCount] = {kBlueEyes, 0x3C9650, 0x643C1E};
  for (std::uint32_t c = 0; c < kEyeColorCount; ++c) {
    const Did id = kFirstEyePalette + c;
    out.push_back({id, write_palette(human_palette(id, kSkin, kBrownHair, kEyes[c]))});
  }
}

void add_textures(Records& out) {
  add_human_colors(out);
  add_texture(out, kClothSurface, 0x05000002, 0x06000002,
              rgb_image(32, [](int x, int y) { return ((x / 4 + y / 4) % 2) ? 0x3050A0U : 0x203070U; }),
              surface_type::kBase1Image);
  Palette stone;
  stone.id = kStonePalette;
  for (std::uint32_t i = 0; i < 256; ++i) stone.colors.push_back(argb(255, 90 + i / 4, 90 + i / 4, 100 + i / 5));
  out.push_back({kStonePalette, write_palette(stone)});
  add_texture(out, kStoneSurface, 0x05000003, 0x06000003, p8_image(32), surface_type::kBase1Image);
  add_texture(out, kBarkSurface, 0x05000004, 0x06000004, dxt1_image(32), surface_type::kBase1Image);
  add_texture(out, kLeafSurface, 0x05000005, 0x06000005,
              rgb_image(16, [](int x, int y) { return ((x * y) % 5) ? 0x2A7A2AU : 0x3C9A34U; }),
              surface_type::kBase1Image);
  add_texture(out, kGlowSurface, 0x05000006, 0x06000006, dxt5_glow(16),
              surface_type::kBase1ClipMap | surface_type::kAdditive | surface_type::kLuminous);
  // Terrain textures for the region's terrain types.
  add_texture(out, 0x08000020, 0x05000020, 0x06000020, terrain_image(64, 0x427E35U, 1), surface_type::kBase1Image);
  add_texture(out, 0x08000021, 0x05000021, 0x06000021, terrain_image(64, 0x7E6848U, 2), surface_type::kBase1Image);
  add_texture(out, 0x08000022, 0x05000022, 0x06000022, terrain_image(64, 0x909088U, 3), surface_type::kBase1Image);
  add_texture(out, 0x08000023, kWaterTexture, 0x06000023, terrain_image(64, 0x2E5A8CU, 4), surface_type::kBase1Image);
  // The house: whitewashed plaster, red-brown roof tiles in rows, planks.
  add_texture(out, kPlasterSurface, 0x05000030, 0x06000030, terrain_image(32, 0xD8CCB4U, 5), surface_type::kBase1Image);
  add_texture(out, kRoofSurface, 0x05000031, 0x06000031,
              rgb_image(32,
                        [](int x, int y) {
                          const bool gap = y % 8 == 0 || (x + (y / 8) * 4) % 8 == 0;
                          return gap ? 0x4A2418U
                                     : 0x9A4A30U + static_cast<std::uint32_t>((x * 5 + y * 3) % 4) * 0x040200U;
                        }),
              surface_type::kBase1Image);
  add_texture(out, kPlankSurface, 0x05000032, 0x06000032,
              rgb_image(32,
                        [](int x, int y) {
                          const bool seam = x % 8 == 0 || (y + (x / 8) * 11) % 32 == 0;
                          return seam ? 0x3C2814U : 0x8A6238U + static_cast<std::uint32_t>((y * 7 + x) % 3) * 0x030201U;
                        }),
              surface_type::kBase1Image);
  // The dungeon: grey-brown stone blocks in courses (each block a shade of
  // its own, dark mortar between), and large worn flagstones.
  add_texture(out, kDungeonWallSurface, 0x05000033, 0x06000033,
              rgb_image(64,
                        [](int x, int y) {
                          const int course = y / 16;
                          const int bx = (x + (course % 2) * 16) / 32;
                          const bool mortar = y % 16 == 0 || (x + (course % 2) * 16) % 32 == 0;
                          if (mortar) return 0x2A2622U;
                          const float n = hash01(static_cast<std::uint32_t>(bx), static_cast<std::uint32_t>(course), 7);
                          const float grain = hash01(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), 8);
                          const auto c = static_cast<std::uint32_t>(84.0F + 40.0F * n + 14.0F * grain);
                          return (c << 16) | ((c - 6) << 8) | (c - 14);
                        }),
              surface_type::kBase1Image);
  add_texture(out, kDungeonFloorSurface, 0x05000034, 0x06000034,
              rgb_image(64,
                        [](int x, int y) {
                          if (x % 32 == 0 || y % 32 == 0) return 0x1E1A16U;
                          const float n =
                              hash01(static_cast<std::uint32_t>(x / 32), static_cast<std::uint32_t>(y / 32), 9);
                          const float grain = hash01(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), 10);
                          const auto c = static_cast<std::uint32_t>(70.0F + 30.0F * n + 16.0F * grain);
                          return (c << 16) | (c << 8) | (c - 8);
                        }),
              surface_type::kBase1Image);
  // The portal's swirl: violet arms turning about the centre, paling to
  // white in the middle, fading to black at the rim: drawn additively (ONE,
  // ONE), so black adds nothing and the disc glows over what is behind it.
  add_texture(out, kPortalSurface, 0x05000035, 0x06000035,
              argb_image(64,
                         [](int x, int y) {
                           const float dx = (static_cast<float>(x) - 31.5F) / 32.0F;
                           const float dy = (static_cast<float>(y) - 31.5F) / 32.0F;
                           const float r = std::min(1.0F, std::sqrt(dx * dx + dy * dy));
                           const float arms = 0.5F + 0.5F * std::sin(3.0F * std::atan2(dy, dx) + 9.0F * r);
                           const float glow = std::clamp((1.0F - r) * (0.45F + 0.55F * arms), 0.0F, 1.0F);
                           const float hot = std::clamp(1.0F - r * 3.0F, 0.0F, 1.0F);
                           const auto ch = [&](float rim, float centre) {
                             return static_cast<std::uint32_t>(std::clamp(rim * glow + centre * hot, 0.0F, 255.0F));
                           };
                           const auto a = static_cast<std::uint32_t>(255.0F * std::min(1.0F, glow * 1.6F));
                           return argb(a, ch(170.0F, 255.0F), ch(70.0F, 230.0F), ch(255.0F, 255.0F));
                         }),
              surface_type::kBase1Image | surface_type::kAdditive | surface_type::kLuminous);

  // The spell sparks' glows: each spell's colour, paling to its hot centre,
  // at full brightness, with the alpha falling off to the rim (as the
  // shared glow's). Alpha reaches 255 in the middle, so a spark shows from
  // its birth (the ClipMap test passes alpha >= 200: docs/render.md, "Notes
  // on the demo world").
  const struct {
    Did surface;
    std::uint32_t r, g, b;     // the rim's colour
    std::uint32_t cr, cg, cb;  // the centre's
  } glows[] = {
      {kFlameGlow, 255, 90, 20, 255, 220, 110},
      {kFrostGlow, 150, 210, 255, 235, 250, 255},
      {kLightningGlow, 255, 235, 90, 255, 255, 240},
      {kAcidGlow, 90, 230, 30, 210, 255, 120},
  };
  for (std::uint32_t i = 0; i < 4; ++i) {
    const auto& gl = glows[i];
    add_texture(out, gl.surface, 0x05000040 + i, 0x06000040 + i,
                argb_image(16,
                           [&gl](int x, int y) {
                             const float dx = static_cast<float>(x) - 7.5F;
                             const float dy = static_cast<float>(y) - 7.5F;
                             const float d = std::min(1.0F, std::sqrt(dx * dx + dy * dy) / 8.0F);
                             const float hot = std::clamp(1.0F - d * 2.0F, 0.0F, 1.0F);  // the pale core
                             const auto mix = [hot](std::uint32_t rim, std::uint32_t centre) {
                               return static_cast<std::uint32_t>(static_cast<float>(rim) * (1.0F - hot) +
                                                                 static_cast<float>(centre) * hot);
                             };
                             return argb(static_cast<std::uint32_t>(255.0F * (1.0F - d)), mix(gl.r, gl.cr),
                                         mix(gl.g, gl.cg), mix(gl.b, gl.cb));
                           }),
                surface_type::kBase1ClipMap | surface_type::kAdditive | surface_type::kLuminous);
  }

  // Solid-colour surfaces for projectiles.
  const std::pair<Did, std::uint32_t> solids[] = {
      {kFlameSurface, argb(255, 255, 110, 20)}, {kFrostSurface, argb(255, 190, 235, 255)},
      {kAcidSurface, argb(255, 110, 235, 40)},  {kLightningSurface, argb(255, 255, 255, 170)},
      {kWoodSurface, argb(255, 120, 80, 40)},   {kForceSurface, argb(255, 200, 120, 255)},
  };
  for (const auto& [id, color] : solids) {
    Surface s;
    s.id = id;
    s.type = surface_type::kBase1Solid | surface_type::kLuminous;
    s.color = color;
    s.luminosity = 1.0F;
    out.push_back({id, write_surface(s)});
  }
}

// ---- meshes -------------------------------------------------------------------------------------

// A drawing BSP that is one leaf holding every polygon.
BspTree single_leaf(std::size_t polygons, const Sphere& bounds) {
  BspNode leaf;
  leaf.tag = kBspLeaf;
  leaf.leaf_index = 0;
  leaf.solid = 1;
  leaf.sphere = bounds;
  for (std::size_t i = 0; i < polygons; ++i) leaf.polys.push_back(static_cast<std::uint16_t>(i));
  BspTree t;
  t.nodes.push_back(std::move(leaf));
  return t;
}

// A drawing BSP of one node over one leaf: the node carries the bounding
// sphere (a drawing tree's leaf has none on disk, BSPLEAF::UnPackLeaf). A
// GfxObj placed as scenery on its own needs it on ACE, whose simple setup
// takes its sorting sphere from the drawing tree's root and fails on a leaf.
BspTree bounded_leaf(std::size_t polygons, const Sphere& bounds) {
  BspNode root;
  root.tag = kBspBPnn;
  root.plane = Plane{{0, 0, 1}, 1.0e4F};  // everything in front
  root.sphere = bounds;
  root.pos = 1;
  BspTree t = single_leaf(polygons, bounds);
  t.nodes.insert(t.nodes.begin(), std::move(root));
  return t;
}

void add_quad(GfxObj& g, std::array<glm::vec3, 4> corners, glm::vec3 normal, std::int16_t surface,
              std::int32_t sides = 0) {
  const auto base = static_cast<std::int16_t>(g.vertices.size());
  const UvCoord uv[4] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
  for (int i = 0; i < 4; ++i) {
    SwVertex v;
    v.id = static_cast<std::uint16_t>(g.vertices.size());
    v.origin = corners[static_cast<std::size_t>(i)];
    v.normal = normal;
    v.uvs = {uv[i]};
    g.vertices.push_back(v);
  }
  Polygon p;
  p.id = static_cast<std::uint16_t>(g.polygons.size());
  p.sides_type = sides;
  p.pos_surface = surface;
  p.neg_surface = sides == 0 ? 0 : surface;
  p.vertex_ids = {base, static_cast<std::int16_t>(base + 1), static_cast<std::int16_t>(base + 2),
                  static_cast<std::int16_t>(base + 3)};
  p.pos_uv_indices = {0, 0, 0, 0};
  if (p.has_neg_uvs()) p.neg_uv_indices = {0, 0, 0, 0};
  g.polygons.push_back(std::move(p));
}

GfxObj box_mesh(Did id, glm::vec3 lo, glm::vec3 hi, Did surface) {
  GfxObj g;
  g.id = id;
  g.flags = GfxObj::kHasDrawing;
  g.surfaces = {surface};
  const glm::vec3 c[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {lo.x, hi.y, lo.z},
                          {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
  add_quad(g, {c[4], c[5], c[6], c[7]}, {0, 0, 1}, 0);   // top
  add_quad(g, {c[3], c[2], c[1], c[0]}, {0, 0, -1}, 0);  // bottom
  add_quad(g, {c[0], c[1], c[5], c[4]}, {0, -1, 0}, 0);  // south
  add_quad(g, {c[2], c[3], c[7], c[6]}, {0, 1, 0}, 0);   // north
  add_quad(g, {c[1], c[2], c[6], c[5]}, {1, 0, 0}, 0);   // east
  add_quad(g, {c[3], c[0], c[4], c[7]}, {-1, 0, 0}, 0);  // west
  g.sort_center = (lo + hi) * 0.5F;
  g.drawing_bsp = single_leaf(g.polygons.size(), Sphere{g.sort_center, glm::length(hi - lo) * 0.5F});
  return g;
}

// A flat two-sided square in the XZ plane, for GfxObj particles.
GfxObj spark_mesh(Did id = kSparkMesh, Did degrades = kSparkDegrades, Did surface = kGlowSurface) {
  GfxObj g;
  g.id = id;
  g.flags = GfxObj::kHasDrawing | GfxObj::kHasDidDegrade;
  g.degrade_id = degrades;
  g.surfaces = {surface};
  add_quad(g, {glm::vec3{-0.1F, 0, -0.1F}, {0.1F, 0, -0.1F}, {0.1F, 0, 0.1F}, {-0.1F, 0, 0.1F}}, {0, -1, 0}, 0, 1);
  g.drawing_bsp = single_leaf(1, Sphere{{0, 0, 0}, 0.15F});
  return g;
}

// A triangle of `g`, its points ordered so that it faces away from `inside`.
void add_tri(GfxObj& g, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 inside) {
  glm::vec3 n = glm::cross(b - a, c - a);
  if (glm::dot(n, (a + b + c) / 3.0F - inside) < 0.0F) {
    std::swap(b, c);
    n = -n;
  }
  n = glm::normalize(n);
  const auto base = static_cast<std::int16_t>(g.vertices.size());
  const UvCoord uv[3] = {{0, 1}, {1, 1}, {0.5F, 0}};
  const glm::vec3 pts[3] = {a, b, c};
  for (int i = 0; i < 3; ++i) {
    SwVertex v;
    v.id = static_cast<std::uint16_t>(g.vertices.size());
    v.origin = pts[i];
    v.normal = n;
    v.uvs = {uv[i]};
    g.vertices.push_back(v);
  }
  Polygon p;
  p.id = static_cast<std::uint16_t>(g.polygons.size());
  p.pos_surface = 0;
  p.vertex_ids = {base, static_cast<std::int16_t>(base + 1), static_cast<std::int16_t>(base + 2)};
  p.pos_uv_indices = {0, 0, 0};
  g.polygons.push_back(std::move(p));
}

// A bolt along +y shaped as two pyramids on a `sides`-gon ring of `radius`
// at y `ring`: the nose at y `nose`, the tail at y `tail` (a spindle).
GfxObj spindle_mesh(Did id, Did surface, float nose, float tail, float ring, float radius, int sides) {
  GfxObj g;
  g.id = id;
  g.flags = GfxObj::kHasDrawing;
  g.surfaces = {surface};
  const glm::vec3 tip{0, nose, 0};
  const glm::vec3 end{0, tail, 0};
  const glm::vec3 centre{0, ring, 0};
  for (int i = 0; i < sides; ++i) {
    const auto angle = [sides](int k) {
      return 2.0F * std::numbers::pi_v<float> * static_cast<float>(k) / static_cast<float>(sides);
    };
    const glm::vec3 p{radius * std::cos(angle(i)), ring, radius * std::sin(angle(i))};
    const glm::vec3 q{radius * std::cos(angle(i + 1)), ring, radius * std::sin(angle(i + 1))};
    add_tri(g, tip, p, q, centre);
    add_tri(g, end, q, p, centre);
  }
  g.sort_center = centre;
  g.drawing_bsp = single_leaf(g.polygons.size(), Sphere{centre, std::max({nose - ring, ring - tail, radius})});
  return g;
}

// A double cone along +z: a `sides`-gon ring of `radius` at z `ring`, one
// apex at `top` and one at `bottom` (a bush, a boulder, a pine's crown).
GfxObj double_cone_mesh(Did id, Did surface, float bottom, float ring, float top, float radius, int sides,
                        float twist = 0.0F) {
  GfxObj g;
  g.id = id;
  g.flags = GfxObj::kHasDrawing;
  g.surfaces = {surface};
  const glm::vec3 up{0, 0, top};
  const glm::vec3 down{0, 0, bottom};
  const glm::vec3 centre{0, 0, ring};
  const auto corner = [&](int k) {
    const float a = twist + 2.0F * std::numbers::pi_v<float> * static_cast<float>(k) / static_cast<float>(sides);
    return glm::vec3{radius * std::cos(a), radius * std::sin(a), ring};
  };
  for (int i = 0; i < sides; ++i) {
    add_tri(g, up, corner(i), corner(i + 1), centre);
    add_tri(g, down, corner(i + 1), corner(i), centre);
  }
  g.sort_center = centre;
  g.drawing_bsp = single_leaf(g.polygons.size(), Sphere{centre, std::max({top - ring, ring - bottom, radius})});
  return g;
}

// The scenery bush: a low double cone with no physics (walked through), its
// drawing tree rooted in a node that carries its bounds.
GfxObj bush_mesh() {
  GfxObj g = double_cone_mesh(kBushMesh, kLeafSurface, 0.0F, 0.45F, 1.2F, 0.9F, 7, 0.3F);
  g.drawing_bsp = bounded_leaf(g.polygons.size(), g.drawing_bsp.nodes.front().sphere);
  return g;
}

// The lightning bolt: three thin strokes zigzagging along +y, joined.
GfxObj zigzag_mesh(Did id, Did surface) {
  GfxObj g;
  g.id = id;
  g.flags = GfxObj::kHasDrawing;
  g.surfaces = {surface};
  const float t = 0.025F;  // half the stroke's thickness
  const std::array<std::pair<glm::vec3, glm::vec3>, 5> strokes = {{
      {{0.04F - t, 0.15F, -t}, {0.10F + t, 0.50F, t}},  // the head, right of the axis
      {{-0.10F - t, 0.15F - t, -t}, {0.10F + t, 0.15F + t, t}},
      {{-0.10F - t, -0.20F, -t}, {-0.04F + t, 0.15F, t}},  // the middle, left of it
      {{-0.10F - t, -0.20F - t, -t}, {0.10F + t, -0.20F + t, t}},
      {{0.04F - t, -0.50F, -t}, {0.10F + t, -0.20F, t}},  // the tail, right again
  }};
  for (const auto& [lo, hi] : strokes) {
    const glm::vec3 c[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {lo.x, hi.y, lo.z},
                            {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}};
    add_quad(g, {c[4], c[5], c[6], c[7]}, {0, 0, 1}, 0);
    add_quad(g, {c[3], c[2], c[1], c[0]}, {0, 0, -1}, 0);
    add_quad(g, {c[0], c[1], c[5], c[4]}, {0, -1, 0}, 0);
    add_quad(g, {c[2], c[3], c[7], c[6]}, {0, 1, 0}, 0);
    add_quad(g, {c[1], c[2], c[6], c[5]}, {1, 0, 0}, 0);
    add_quad(g, {c[3], c[0], c[4], c[7]}, {-1, 0, 0}, 0);
  }
  g.sort_center = {0, 0, 0};
  g.drawing_bsp = single_leaf(g.polygons.size(), Sphere{{0, 0, 0}, 0.55F});
  return g;
}

void add_meshes(Records& out) {
  const GfxObj meshes[] = {
      box_mesh(kTorsoMesh, {-0.22F, -0.12F, 0.0F}, {0.22F, 0.12F, 0.6F}, kClothSurface),
      box_mesh(kHeadMesh, {-0.11F, -0.11F, 0.0F}, {0.11F, 0.11F, 0.24F}, kSkinSurface),
      box_mesh(kArmMesh, {-0.06F, -0.06F, -0.6F}, {0.06F, 0.06F, 0.0F}, kSkinSurface),
      box_mesh(kLegMesh, {-0.08F, -0.08F, -0.85F}, {0.08F, 0.08F, 0.0F}, kClothSurface),
      box_mesh(kArrowMesh, {-0.015F, -0.4F, -0.015F}, {0.015F, 0.4F, 0.015F}, kWoodSurface),
      box_mesh(kBoltMesh, {-0.12F, -0.25F, -0.12F}, {0.12F, 0.25F, 0.12F}, kFlameSurface),
      box_mesh(kBladeMesh, {-0.25F, -0.02F, -0.25F}, {0.25F, 0.02F, 0.25F}, kForceSurface),
      box_mesh(kFistMesh, {-0.12F, -0.12F, -0.12F}, {0.12F, 0.12F, 0.12F}, kStoneSurface),
      box_mesh(kTreeTrunkMesh, {-0.25F, -0.25F, 0.0F}, {0.25F, 0.25F, 3.0F}, kBarkSurface),
      box_mesh(kTreeCrownMesh, {-1.5F, -1.5F, 2.5F}, {1.5F, 1.5F, 5.5F}, kLeafSurface),
      box_mesh(kRockMesh, {-0.8F, -0.6F, 0.0F}, {0.8F, 0.6F, 0.7F}, kStoneSurface),
      box_mesh(kPineTrunkMesh, {-0.18F, -0.18F, 0.0F}, {0.18F, 0.18F, 1.6F}, kBarkSurface),
      double_cone_mesh(kPineCrownMesh, kLeafSurface, 1.1F, 1.4F, 6.5F, 1.7F, 8),
      bush_mesh(),
      spark_mesh(),
      spindle_mesh(kFlameMesh, kFlameSurface, 0.22F, -0.55F, 0.02F, 0.19F, 8),
      spindle_mesh(kFrostMesh, kFrostSurface, 0.55F, -0.35F, 0.08F, 0.06F, 4),
      zigzag_mesh(kLightningMesh, kLightningSurface),
      spindle_mesh(kAcidMesh, kAcidSurface, 0.18F, -0.32F, 0.0F, 0.17F, 6),
      spark_mesh(kFlameSpark, 0x11000021, kFlameGlow),
      spark_mesh(kFrostSpark, 0x11000022, kFrostGlow),
      spark_mesh(kLightningSpark, 0x11000023, kLightningGlow),
      spark_mesh(kAcidSpark, 0x11000024, kAcidGlow),
  };
  for (const auto& m : meshes) out.push_back({m.id, write_gfx_obj(m)});
  // The boulder: a squat five-sided double cone, solid (a physics box inside it).
  GfxObj boulder = double_cone_mesh(kBoulderMesh, kStoneSurface, -0.2F, 0.45F, 1.3F, 1.1F, 5, 0.5F);
  boulder.flags |= GfxObj::kHasPhysics;
  add_solid_box(boulder, {-0.75F, -0.75F, 0.0F}, {0.75F, 0.75F, 1.0F});
  out.push_back({boulder.id, write_gfx_obj(boulder)});
  // The spark faces the viewer at every distance, as retail's particle
  // GfxObjs do through their degrade info (CPhysicsPart::calc_draw_frame mode 2).
  GfxObjDegradeInfo spark_degrades;
  spark_degrades.id = kSparkDegrades;
  spark_degrades.degrades = {GfxObjDegrade{kSparkMesh, 2, 0.0F, 0.0F, 1000.0F}};
  out.push_back({kSparkDegrades, write_gfx_obj_degrade_info(spark_degrades)});
  for (const Did spark : {kFlameSpark, kFrostSpark, kLightningSpark, kAcidSpark}) {
    GfxObjDegradeInfo d;
    d.id = 0x11000000 | (spark & 0xFFFF);
    d.degrades = {GfxObjDegrade{spark, 2, 0.0F, 0.0F, 1000.0F}};
    out.push_back({d.id, write_gfx_obj_degrade_info(d)});
  }
}

// ---- setups -------------------------------------------------------------------------------------

constexpr std::uint32_t kHumanParts = 6;  // torso, head, left arm, right arm, left leg, right leg

std::vector<Frame> human_pose(float swing, float bob) {
  const auto rot_x = [](float radians) { return glm::angleAxis(radians, glm::vec3(1, 0, 0)); };
  return {
      Frame{{0, 0, 0.9F + bob}, glm::quat(1, 0, 0, 0)},   // torso
      Frame{{0, 0, 1.52F + bob}, glm::quat(1, 0, 0, 0)},  // head
      Frame{{-0.3F, 0, 1.45F + bob}, rot_x(swing)},       // left arm
      Frame{{0.3F, 0, 1.45F + bob}, rot_x(-swing)},       // right arm
      Frame{{-0.12F, 0, 0.9F + bob}, rot_x(-swing)},      // left leg
      Frame{{0.12F, 0, 0.9F + bob}, rot_x(swing)},        // right leg
  };
}

Setup human_setup() {
  Setup s;
  s.id = kHumanSetup;
  s.flags = Setup::kHasParent | Setup::kHasDefaultScale;
  s.parts = {kTorsoMesh, kHeadMesh, kArmMesh, kArmMesh, kLegMesh, kLegMesh};
  s.parent_indices = {0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF};
  s.default_scales.assign(kHumanParts, glm::vec3(1.0F));
  s.holding_locations = {SetupLocation{1, 3, Frame{{0, 0, -0.6F}, glm::quat(1, 0, 0, 0)}},   // right hand
                         SetupLocation{2, 2, Frame{{0, 0, -0.6F}, glm::quat(1, 0, 0, 0)}}};  // left hand
  SetupPlacement placement;
  placement.key = 0;  // Default
  placement.frame.part_frames = human_pose(0, 0);
  s.placement_frames = {placement};
  s.cyl_spheres = {CylSphere{{0, 0, 0}, 0.35F, 1.8F}};
  s.spheres = {Sphere{{0, 0, 0.5F}, 0.45F}, Sphere{{0, 0, 1.25F}, 0.45F}};
  s.height = 1.8F;
  s.radius = 0.45F;
  s.step_up_height = 0.6F;
  s.step_down_height = 0.6F;
  s.sorting_sphere = Sphere{{0, 0, 0.9F}, 1.0F};
  s.selection_sphere = Sphere{{0, 0, 0.9F}, 1.0F};
  s.default_motion_table = kHumanMotionTable;
  s.default_sound_table = kHumanSoundTable;
  s.default_script_table = kHumanScriptTable;
  return s;
}

Setup one_part_setup(Did id, Did mesh, const Sphere& sphere) {
  Setup s;
  s.id = id;
  s.parts = {mesh};
  s.spheres = {sphere};
  s.height = sphere.radius * 2;
  s.radius = sphere.radius;
  s.sorting_sphere = Sphere{{0, 0, 0}, 0.5F};
  s.selection_sphere = Sphere{{0, 0, 0}, 0.5F};
  SetupPlacement placement;
  placement.frame.part_frames = {Frame{}};
  s.placement_frames = {placement};
  return s;
}

void add_setups(Records& out) {
  out.push_back({kHumanSetup, write_setup(human_setup())});
  for (const auto& p : kProjectiles) {
    Did mesh = kBoltMesh;
    if (p.wcid == 7277) mesh = kFlameMesh;
    if (p.wcid == 7279) mesh = kFrostMesh;
    if (p.wcid == 7280) mesh = kLightningMesh;
    if (p.wcid == 7276) mesh = kAcidMesh;
    if (p.wcid == 300 || p.wcid == 305) mesh = kArrowMesh;
    if (p.wcid == 7282 || p.wcid == 7281) mesh = kBladeMesh;
    if (p.wcid == 23144) mesh = kFistMesh;
    Setup s = one_part_setup(p.setup, mesh, p.sphere);
    s.default_script_table = p.script_table;
    if (p.setup == kTuskerFistSetup) s.default_script = kTuskerFistDefaultScript;
    out.push_back({p.setup, write_setup(s)});
  }
  Setup tree;
  tree.id = kTreeSetup;
  tree.parts = {kTreeTrunkMesh, kTreeCrownMesh};
  tree.cyl_spheres = {CylSphere{{0, 0, 0}, 0.3F, 5.0F}};
  tree.height = 5.5F;
  tree.radius = 1.5F;
  tree.sorting_sphere = Sphere{{0, 0, 2.75F}, 3.0F};
  tree.selection_sphere = tree.sorting_sphere;
  SetupPlacement placement;
  placement.frame.part_frames = {Frame{}, Frame{}};
  tree.placement_frames = {placement};
  out.push_back({kTreeSetup, write_setup(tree)});
  // The scenery pine: a thin trunk (its cylinder) under a tall cone.
  Setup pine;
  pine.id = kPineSetup;
  pine.parts = {kPineTrunkMesh, kPineCrownMesh};
  pine.cyl_spheres = {CylSphere{{0, 0, 0}, 0.25F, 6.5F}};
  pine.height = 6.5F;
  pine.radius = 1.7F;
  pine.sorting_sphere = Sphere{{0, 0, 3.25F}, 3.5F};
  pine.selection_sphere = pine.sorting_sphere;
  pine.placement_frames = {placement};
  out.push_back({kPineSetup, write_setup(pine)});
}

// The Scenes the grass's scene type picks from (CLandBlock::get_land_scenes
// 0x00530460 takes one per vertex by its hash, then each object by its
// freq): a grove of pines with a bush, a rocky patch, and an open meadow.
// Each object stands about its vertex's cell corner, displaced up to 10 m,
// turned and scaled by the hash; the pines and bushes want gentle ground.
void add_scenes(Records& out) {
  const auto desc = [](Did id, glm::vec2 base, float freq, float displace, float min_scale, float max_scale,
                       float min_slope) {
    ObjectDesc d;
    d.obj_id = id;
    d.base_loc.origin = {base.x, base.y, 0.0F};
    d.freq = freq;
    d.displace_x = displace;
    d.displace_y = displace;
    d.min_scale = min_scale;
    d.max_scale = max_scale;
    d.max_rot = 360.0F;
    d.min_slope = min_slope;
    d.max_slope = 1.0F;
    return d;
  };
  ObjectDesc boulder = desc(kBoulderMesh, {8, 4}, 0.45F, 8.0F, 0.6F, 1.4F, 0.6F);
  boulder.align = 1;  // ObjectDesc::ObjAlign: faces up its slope
  const Scene scenes[] = {
      Scene{kGroveScene,
            {desc(kPineSetup, {10, 10}, 0.55F, 10.0F, 0.8F, 1.3F, 0.85F),
             desc(kPineSetup, {4, 16}, 0.35F, 6.0F, 0.7F, 1.1F, 0.85F),
             desc(kBushMesh, {16, 5}, 0.4F, 6.0F, 0.7F, 1.3F, 0.8F)}},
      Scene{kRockyScene, {boulder, desc(kBushMesh, {6, 14}, 0.35F, 8.0F, 0.8F, 1.2F, 0.8F)}},
      Scene{kMeadowScene, {desc(kBushMesh, {12, 12}, 0.3F, 10.0F, 0.6F, 1.0F, 0.8F)}},
  };
  for (const Scene& scene : scenes) out.push_back({scene.id, write_scene(scene)});
}

// ---- the house ------------------------------------------------------------------------------------
// A building (LandBlockInfo) whose GfxObj kHouseModel is the outside: walls
// with a door in the south and the north wall, a pitched roof, and a physics
// BSP of the walls; and its one room, the EnvCell kRoomCell over the
// Environment kRoomEnvironment's CellStruct 0: floor, ceiling and walls facing
// in (drawing and physics polygons), the two doorways as portals to the
// outside, and the cell BSP of the room's box. Both stand at the same frame,
// kRoomOrigin; in it the room is 0..kRoomSide on x and y and 0..kRoomHeight
// up, the doorways x kDoorLow..kDoorHigh, 0..kDoorHeight up.

constexpr float kWall = 0.25F;  // the shell's thickness outside the room's box

// Texture coordinates of a point on a face with normal n: metres along the
// face over `tile` (walls: along the wall and up; floors and roofs: x, y).
UvCoord planar_uv(glm::vec3 p, glm::vec3 n, float tile) {
  if (std::abs(n.z) > 0.9F) return {p.x / tile, p.y / tile};
  const glm::vec3 along = glm::normalize(glm::vec3(-n.y, n.x, 0.0F));
  return {glm::dot(p, along) / tile, -p.z / tile};
}

glm::vec3 face_normal(const std::vector<glm::vec3>& pts) {
  return glm::normalize(glm::cross(pts[1] - pts[0], pts[2] - pts[0]));
}

// A drawing polygon of the house's GfxObj, its points counter-clockwise seen
// from the side it faces.
void add_face(GfxObj& g, const std::vector<glm::vec3>& pts, std::int16_t surface, float tile, std::int32_t sides = 0) {
  const glm::vec3 n = face_normal(pts);
  Polygon p;
  p.id = static_cast<std::uint16_t>(g.polygons.size());
  p.sides_type = sides;
  p.pos_surface = surface;
  p.neg_surface = sides == 0 ? 0 : surface;
  for (const glm::vec3& c : pts) {
    SwVertex v;
    v.id = static_cast<std::uint16_t>(g.vertices.size());
    v.origin = c;
    v.normal = n;
    v.uvs = {planar_uv(c, n, tile)};
    p.vertex_ids.push_back(static_cast<std::int16_t>(v.id));
    p.pos_uv_indices.push_back(0);
    g.vertices.push_back(std::move(v));
  }
  g.polygons.push_back(std::move(p));
}

}  // namespace

// The house's walls and the tests' obstacles use it (demo_world.hpp).
std::int32_t add_solid_box(GfxObj& g, glm::vec3 lo, glm::vec3 hi) {
  const Sphere bound{(lo + hi) * 0.5F, glm::length(hi - lo) * 0.5F + 0.01F};
  struct Face {
    std::array<glm::vec3, 4> c;
    glm::vec3 n;
    float d;
  };
  const Face faces[] = {
      {{{{hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {hi.x, hi.y, hi.z}, {hi.x, lo.y, hi.z}}}, {1, 0, 0}, -hi.x},
      {{{{lo.x, lo.y, lo.z}, {lo.x, lo.y, hi.z}, {lo.x, hi.y, hi.z}, {lo.x, hi.y, lo.z}}}, {-1, 0, 0}, lo.x},
      {{{{lo.x, hi.y, lo.z}, {lo.x, hi.y, hi.z}, {hi.x, hi.y, hi.z}, {hi.x, hi.y, lo.z}}}, {0, 1, 0}, -hi.y},
      {{{{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {hi.x, lo.y, hi.z}, {lo.x, lo.y, hi.z}}}, {0, -1, 0}, lo.y},
      {{{{lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z}}}, {0, 0, 1}, -hi.z},
      {{{{lo.x, lo.y, lo.z}, {lo.x, hi.y, lo.z}, {hi.x, hi.y, lo.z}, {hi.x, lo.y, lo.z}}}, {0, 0, -1}, lo.z},
  };
  std::vector<BspNode>& nodes = g.physics_bsp.nodes;
  const auto first = static_cast<std::int32_t>(nodes.size());
  BspNode solid;
  solid.tag = kBspLeaf;
  solid.solid = 1;
  solid.sphere = bound;
  for (const Face& f : faces) {
    Polygon p;
    p.id = static_cast<std::uint16_t>(g.physics_polygons.size());
    p.stippling = Polygon::kNoPos;  // no texture coordinates
    for (const glm::vec3& c : f.c) {
      SwVertex v;
      v.id = static_cast<std::uint16_t>(g.vertices.size());
      v.origin = c;
      v.normal = f.n;
      p.vertex_ids.push_back(static_cast<std::int16_t>(v.id));
      g.vertices.push_back(std::move(v));
    }
    solid.polys.push_back(p.id);
    g.physics_polygons.push_back(std::move(p));
    BspNode node;
    node.tag = kBspBPIN;
    node.plane = Plane{f.n, f.d};
    node.sphere = bound;
    node.pos = static_cast<std::int32_t>(nodes.size()) + 1;
    node.neg = static_cast<std::int32_t>(nodes.size()) + 2;
    nodes.push_back(node);
    BspNode empty;
    empty.tag = kBspLeaf;
    empty.sphere = bound;
    nodes.push_back(empty);
  }
  nodes.push_back(std::move(solid));
  return first;
}

namespace {

// A node splitting the physics BSP by `plane`: the solids `front` appends
// lie in front of it, those `back` appends behind (pre-order: the node,
// then its front subtree, then its back subtree).
template <class Front, class Back>
void add_split(GfxObj& g, Plane plane, const Sphere& bound, Front front, Back back) {
  const auto at = g.physics_bsp.nodes.size();
  BspNode node;
  node.tag = kBspBPIN;
  node.plane = plane;
  node.sphere = bound;
  g.physics_bsp.nodes.push_back(node);
  const std::int32_t pos = front();
  g.physics_bsp.nodes[at].pos = pos;
  const std::int32_t neg = back();
  g.physics_bsp.nodes[at].neg = neg;
}

GfxObj house_model() {
  constexpr float s = kRoomSide;
  constexpr float h = kRoomHeight;
  constexpr float t = kWall;
  constexpr float d0 = kDoorLow;
  constexpr float d1 = kDoorHigh;
  constexpr float dh = kDoorHeight;
  constexpr float base = -0.3F;  // the walls reach a little into the ground
  GfxObj g;
  g.id = kHouseModel;
  g.flags = GfxObj::kHasPhysics | GfxObj::kHasDrawing;
  g.surfaces = {kPlasterSurface, kRoofSurface, kPlankSurface};
  constexpr std::int16_t wall = 0, roof = 1, wood = 2;
  // The outside of the walls: south (y -t) and north (y s+t) around their
  // doors, west (x -t) and east (x s+t) whole.
  for (const float y : {-t, s + t}) {
    const bool south = y < 0;
    const auto face = [&](float a, float b, float c, float e) {
      if (south) {
        add_face(g, {{a, y, c}, {b, y, c}, {b, y, e}, {a, y, e}}, wall, 2.0F);
      } else {
        add_face(g, {{a, y, c}, {a, y, e}, {b, y, e}, {b, y, c}}, wall, 2.0F);
      }
    };
    face(-t, d0, base, h);
    face(d1, s + t, base, h);
    face(d0, d1, dh, h);
    // The doorway's sides and top, inside the wall's thickness.
    const float y0 = south ? -t : s;
    const float y1 = south ? 0.0F : s + t;
    add_face(g, {{d0, y0, 0}, {d0, y1, 0}, {d0, y1, dh}, {d0, y0, dh}}, wood, 1.0F);
    add_face(g, {{d1, y0, 0}, {d1, y0, dh}, {d1, y1, dh}, {d1, y1, 0}}, wood, 1.0F);
    add_face(g, {{d0, y0, dh}, {d0, y1, dh}, {d1, y1, dh}, {d1, y0, dh}}, wood, 1.0F);
  }
  add_face(g, {{-t, -t, base}, {-t, -t, h}, {-t, s + t, h}, {-t, s + t, base}}, wall, 2.0F);
  add_face(g, {{s + t, -t, base}, {s + t, s + t, base}, {s + t, s + t, h}, {s + t, -t, h}}, wall, 2.0F);
  // The roof: ridge along y over the middle, eaves overhanging the walls.
  constexpr float over = 0.55F;
  constexpr float eave = 2.9F;
  constexpr float ridge = h + 1.6F;
  constexpr float mid = s * 0.5F;
  add_face(g, {{-over, -over, eave}, {mid, -over, ridge}, {mid, s + over, ridge}, {-over, s + over, eave}}, roof, 1.5F,
           1);
  add_face(g, {{s + over, -over, eave}, {s + over, s + over, eave}, {mid, s + over, ridge}, {mid, -over, ridge}}, roof,
           1.5F, 1);
  // The gables between the walls' tops and the roof.
  add_face(g, {{-t, -t, h}, {s + t, -t, h}, {mid, -t, ridge - 0.1F}}, wall, 2.0F);
  add_face(g, {{-t, s + t, h}, {mid, s + t, ridge - 0.1F}, {s + t, s + t, h}}, wall, 2.0F);
  g.sort_center = {mid, mid, h * 0.5F};
  g.drawing_bsp = single_leaf(g.polygons.size(), Sphere{g.sort_center, s});

  // The physics BSP: the south wall's three pieces (in front of y 0, facing
  // -y), the north wall's (in front of y s, facing +y), then the west wall
  // (in front of x 0, facing -x) and the east wall behind it.
  const Sphere all{{mid, mid, h * 0.5F}, s};
  const auto door_wall = [&](float y0, float y1) {
    return [&g, y0, y1, all] {
      const auto at = static_cast<std::int32_t>(g.physics_bsp.nodes.size());
      add_split(
          g, Plane{{-1, 0, 0}, d0}, all,
          [&] {
            return add_solid_box(g, {-t, y0, 0}, {d0, y1, h});
          },
          [&] {
            const auto back = static_cast<std::int32_t>(g.physics_bsp.nodes.size());
            add_split(
                g, Plane{{1, 0, 0}, -d1}, all,
                [&] {
                  return add_solid_box(g, {d1, y0, 0}, {s + t, y1, h});
                },
                [&] {
                  return add_solid_box(g, {d0, y0, dh}, {d1, y1, h});
                });
            return back;
          });
      return at;
    };
  };
  add_split(g, Plane{{0, -1, 0}, 0}, all, door_wall(-t, 0), [&] {
    const auto at = static_cast<std::int32_t>(g.physics_bsp.nodes.size());
    add_split(g, Plane{{0, 1, 0}, -s}, all, door_wall(s, s + t), [&] {
      const auto west = static_cast<std::int32_t>(g.physics_bsp.nodes.size());
      add_split(
          g, Plane{{-1, 0, 0}, 0}, all,
          [&] {
            return add_solid_box(g, {-t, 0, 0}, {0, s, h});
          },
          [&] {
            return add_solid_box(g, {s, 0, 0}, {s + t, s, h});
          });
      return west;
    });
    return at;
  });
  return g;
}

// A polygon of the room's CellStruct: points counter-clockwise seen from
// inside the room, texture coordinates when it is drawn.
std::uint16_t add_room_face(CellStruct& cs, std::vector<EnvPolygon>& into, const std::vector<glm::vec3>& pts,
                            std::int16_t surface, float tile, bool drawn) {
  const glm::vec3 n = face_normal(pts);
  EnvPolygon p;
  p.id = static_cast<std::uint16_t>(into.size());
  p.pos_surface = surface;
  p.stippling = drawn ? 0 : Polygon::kNoPos;
  for (const glm::vec3& c : pts) {
    EnvVertex v;
    v.id = static_cast<std::uint16_t>(cs.vertices.size());
    v.origin = c;
    v.normal = n;
    if (drawn) {
      const UvCoord uv = planar_uv(c, n, tile);
      v.uvs = {EnvUv{uv.u, uv.v}};
      p.pos_uv_indices.push_back(0);
    }
    p.vertex_ids.push_back(v.id);
    cs.vertices.push_back(std::move(v));
  }
  into.push_back(std::move(p));
  return static_cast<std::uint16_t>(into.size() - 1);
}

Environment room_environment() {
  constexpr float s = kRoomSide;
  constexpr float h = kRoomHeight;
  constexpr float d0 = kDoorLow;
  constexpr float d1 = kDoorHigh;
  constexpr float dh = kDoorHeight;
  // The EnvCell's surface list: 0 floor and ceiling planks, 1 plaster walls.
  constexpr std::int16_t planks = 0, plaster = 1;
  CellStruct cs;
  cs.id = 0;
  // The doorways first: polygons 0 (south, facing +y into the room) and 1
  // (north, facing -y), the cell's portals; never drawn.
  add_room_face(cs, cs.polygons, {{d0, 0, 0}, {d0, 0, dh}, {d1, 0, dh}, {d1, 0, 0}}, 0, 1.0F, false);
  add_room_face(cs, cs.polygons, {{d0, s, 0}, {d1, s, 0}, {d1, s, dh}, {d0, s, dh}}, 0, 1.0F, false);
  cs.portals = {0, 1};
  const std::vector<std::pair<std::vector<glm::vec3>, std::int16_t>> faces = {
      {{{0, 0, 0}, {s, 0, 0}, {s, s, 0}, {0, s, 0}}, planks},   // floor, up
      {{{0, 0, h}, {0, s, h}, {s, s, h}, {s, 0, h}}, planks},   // ceiling, down
      {{{s, 0, 0}, {s, 0, h}, {s, s, h}, {s, s, 0}}, plaster},  // east, facing -x
      {{{0, 0, 0}, {0, s, 0}, {0, s, h}, {0, 0, h}}, plaster},  // west, facing +x
      // south (facing +y) and north (facing -y) around their doors
      {{{0, 0, 0}, {0, 0, h}, {d0, 0, h}, {d0, 0, 0}}, plaster},
      {{{d1, 0, 0}, {d1, 0, h}, {s, 0, h}, {s, 0, 0}}, plaster},
      {{{d0, 0, dh}, {d0, 0, h}, {d1, 0, h}, {d1, 0, dh}}, plaster},
      {{{0, s, 0}, {d0, s, 0}, {d0, s, h}, {0, s, h}}, plaster},
      {{{d1, s, 0}, {s, s, 0}, {s, s, h}, {d1, s, h}}, plaster},
      {{{d0, s, dh}, {d1, s, dh}, {d1, s, h}, {d0, s, h}}, plaster},
  };
  for (const auto& [pts, surface] : faces) {
    add_room_face(cs, cs.polygons, pts, surface, 2.0F, true);
    add_room_face(cs, cs.physics_polygons, pts, surface, 2.0F, false);
  }
  // The physics BSP: one leaf, not solid, holding every wall.
  EnvBspNode leaf;
  leaf.tag = bsp_tag::kLeaf;
  leaf.sphere = Sphere{{s * 0.5F, s * 0.5F, h * 0.5F}, s};
  for (std::uint16_t i = 0; i < cs.physics_polygons.size(); ++i) leaf.polygons.push_back(i);
  cs.physics_bsp.nodes = {leaf};
  // The cell BSP: inside is in front of all six planes of the room's box.
  const std::pair<glm::vec3, float> planes[] = {{{1, 0, 0}, 0},  {{-1, 0, 0}, s}, {{0, 1, 0}, 0},
                                                {{0, -1, 0}, s}, {{0, 0, 1}, 0},  {{0, 0, -1}, h}};
  for (std::size_t i = 0; i < std::size(planes); ++i) {
    EnvBspNode n;
    n.tag = bsp_tag::kBPIn;  // the positive child only
    n.plane = Plane{planes[i].first, planes[i].second};
    n.pos = static_cast<std::int32_t>(i) + 1;
    cs.cell_bsp.nodes.push_back(n);
  }
  EnvBspNode inside;
  inside.tag = bsp_tag::kLeaf;
  cs.cell_bsp.nodes.push_back(inside);
  Environment env;
  env.id = kRoomEnvironment;
  env.cells = {std::move(cs)};
  return env;
}

void add_house(Records& out) {
  out.push_back({kHouseModel, write_gfx_obj(house_model())});
  out.push_back({kRoomEnvironment, write_environment(room_environment())});
}

// ---- the dungeon -----------------------------------------------------------------------------------
// Five boxes (kDungeonRooms), each the CellStruct of the same index in the
// Environment kDungeonEnvironment: in the cell's frame the box is 0..size,
// its floor, ceiling and walls facing in, the walls cut around its
// doorways. A doorway is the cell's portal polygon, facing in like the
// room's; the corridors' doorways are their whole ends. Drawn faces are cut
// into tiles of about 2 m, so the torches' and the portal's lights, which
// light meshes at their vertices, make pools on them; the physics polygons
// are the uncut pieces.

// A doorway of a box: in wall `wall` (0 west x 0, 1 east x size.x, 2 south
// y 0, 3 north y size.y), from `lo` to `hi` along the wall, 0..height up;
// it leads to dungeon cell `to` (the index in kDungeonRooms), through that
// cell's portal `to_portal`.
struct Doorway {
  int wall;
  float lo, hi, height;
  std::size_t to;
  std::uint16_t to_portal;
};

struct DungeonCell {
  std::vector<Doorway> doors;
};

// The rooms' doorways, in each cell's portal order (docs/dat.md, "The dungeon").
const std::array<DungeonCell, kDungeonRooms.size()>& dungeon_cells() {
  static const std::array<DungeonCell, kDungeonRooms.size()> cells = {{
      {{{1, 3.5F, 6.5F, 3.0F, 1, 0}}},                               // entry hall: east, to the corridor
      {{{0, 0.0F, 3.0F, 3.0F, 0, 0}, {1, 0.0F, 3.0F, 3.0F, 2, 0}}},  // corridor east: both ends
      {{{0, 6.5F, 9.5F, 3.0F, 1, 1}, {3, 5.5F, 8.5F, 3.0F, 3, 0}}},  // great hall: west and north
      {{{2, 0.0F, 3.0F, 3.0F, 2, 1}, {3, 0.0F, 3.0F, 3.0F, 4, 0}}},  // corridor north: both ends
      {{{2, 4.5F, 7.5F, 3.0F, 3, 1}}},                               // shrine: south
  }};
  return cells;
}

// A point of wall `wall` of a box `size`: `u` along it, `v` up.
glm::vec3 wall_point(int wall, glm::vec3 size, float u, float v) {
  switch (wall) {
    case 0: return {0.0F, u, v};
    case 1: return {size.x, u, v};
    case 2: return {u, 0.0F, v};
    default: return {u, size.y, v};
  }
}

// The rectangle u0..u1, v0..v1 of a wall, its points counter-clockwise seen
// from inside the box.
std::vector<glm::vec3> wall_rect(int wall, glm::vec3 size, float u0, float u1, float v0, float v1) {
  std::vector<glm::vec3> pts = {wall_point(wall, size, u0, v0), wall_point(wall, size, u1, v0),
                                wall_point(wall, size, u1, v1), wall_point(wall, size, u0, v1)};
  const glm::vec3 inward = wall == 0   ? glm::vec3(1, 0, 0)
                           : wall == 1 ? glm::vec3(-1, 0, 0)
                           : wall == 2 ? glm::vec3(0, 1, 0)
                                       : glm::vec3(0, -1, 0);
  if (glm::dot(face_normal(pts), inward) < 0.0F) std::reverse(pts.begin(), pts.end());
  return pts;
}

// A rectangle's points cut into tiles of at most `tile` metres a side, each
// tile's points in the rectangle's order (a, b, c, d: a quad a-b-c-d).
std::vector<std::vector<glm::vec3>> tiles(const std::vector<glm::vec3>& quad, float tile) {
  const glm::vec3 a = quad[0], b = quad[1], d = quad[3];
  const int nu = std::max(1, static_cast<int>(std::ceil(glm::length(b - a) / tile - 0.01F)));
  const int nv = std::max(1, static_cast<int>(std::ceil(glm::length(d - a) / tile - 0.01F)));
  std::vector<std::vector<glm::vec3>> out;
  const auto at = [&](int i, int j) {
    return a + (b - a) * (static_cast<float>(i) / static_cast<float>(nu)) +
           (d - a) * (static_cast<float>(j) / static_cast<float>(nv));
  };
  for (int j = 0; j < nv; ++j) {
    for (int i = 0; i < nu; ++i) out.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)});
  }
  return out;
}

CellStruct dungeon_cell_struct(std::uint32_t id, glm::vec3 size, const std::vector<Doorway>& doors) {
  // The EnvCell's surface list: 0 flagstones, 1 stone blocks.
  constexpr std::int16_t flagstones = 0, stone = 1;
  CellStruct cs;
  cs.id = id;
  // The doorways first: polygons 0.., the cell's portals, never drawn.
  for (const Doorway& d : doors) {
    cs.portals.push_back(
        add_room_face(cs, cs.polygons, wall_rect(d.wall, size, d.lo, d.hi, 0.0F, d.height), 0, 1.0F, false));
  }
  std::vector<std::pair<std::vector<glm::vec3>, std::int16_t>> faces = {
      {{{0, 0, 0}, {size.x, 0, 0}, {size.x, size.y, 0}, {0, size.y, 0}}, flagstones},                 // up
      {{{0, 0, size.z}, {0, size.y, size.z}, {size.x, size.y, size.z}, {size.x, 0, size.z}}, stone},  // down
  };
  for (int wall = 0; wall < 4; ++wall) {
    const float length = wall < 2 ? size.y : size.x;
    // The wall's pieces around its doorways (at most one a wall here).
    float from = 0.0F;
    for (const Doorway& d : doors) {
      if (d.wall != wall) continue;
      if (d.lo > from) faces.push_back({wall_rect(wall, size, from, d.lo, 0.0F, size.z), stone});
      if (d.height < size.z) faces.push_back({wall_rect(wall, size, d.lo, d.hi, d.height, size.z), stone});
      from = d.hi;
    }
    if (from < length) faces.push_back({wall_rect(wall, size, from, length, 0.0F, size.z), stone});
  }
  for (const auto& [pts, surface] : faces) {
    for (const auto& tile : tiles(pts, 2.0F)) add_room_face(cs, cs.polygons, tile, surface, 2.0F, true);
    add_room_face(cs, cs.physics_polygons, pts, surface, 2.0F, false);
  }
  const Sphere bound{size * 0.5F, glm::length(size) * 0.5F + 0.01F};
  EnvBspNode leaf;
  leaf.tag = bsp_tag::kLeaf;
  leaf.sphere = bound;
  for (std::uint16_t i = 0; i < cs.physics_polygons.size(); ++i) leaf.polygons.push_back(i);
  cs.physics_bsp.nodes = {leaf};
  // The cell BSP: inside is in front of all six planes of the box.
  const std::pair<glm::vec3, float> planes[] = {{{1, 0, 0}, 0},       {{-1, 0, 0}, size.x}, {{0, 1, 0}, 0},
                                                {{0, -1, 0}, size.y}, {{0, 0, 1}, 0},       {{0, 0, -1}, size.z}};
  for (std::size_t i = 0; i < std::size(planes); ++i) {
    EnvBspNode n;
    n.tag = bsp_tag::kBPIn;
    n.plane = Plane{planes[i].first, planes[i].second};
    n.pos = static_cast<std::int32_t>(i) + 1;
    cs.cell_bsp.nodes.push_back(n);
  }
  EnvBspNode inside;
  inside.tag = bsp_tag::kLeaf;
  cs.cell_bsp.nodes.push_back(inside);
  return cs;
}

Environment dungeon_environment() {
  Environment env;
  env.id = kDungeonEnvironment;
  for (std::size_t i = 0; i < kDungeonRooms.size(); ++i) {
    env.cells.push_back(
        dungeon_cell_struct(static_cast<std::uint32_t>(i), kDungeonRooms[i].size, dungeon_cells()[i].doors));
  }
  return env;
}

// The portal's disc: an upright ellipse in the x-z plane (facing along y),
// a fan of triangles about its centre, both sides drawn.
GfxObj portal_disc() {
  constexpr int kSides = 20;
  constexpr float kRx = 0.85F, kRz = 1.25F, kCentre = 1.35F;
  GfxObj g;
  g.id = kPortalMesh;
  g.flags = GfxObj::kHasDrawing;
  g.surfaces = {kPortalSurface};
  const auto vertex = [&](float x, float z) {
    SwVertex v;
    v.id = static_cast<std::uint16_t>(g.vertices.size());
    v.origin = {x, 0.0F, z};
    v.normal = {0.0F, -1.0F, 0.0F};
    v.uvs = {UvCoord{0.5F + 0.5F * x / kRx, 0.5F - 0.5F * (z - kCentre) / kRz}};
    g.vertices.push_back(v);
    return static_cast<std::int16_t>(v.id);
  };
  const std::int16_t centre = vertex(0.0F, kCentre);
  std::vector<std::int16_t> rim;
  for (int i = 0; i < kSides; ++i) {
    const float a = 2.0F * std::numbers::pi_v<float> * static_cast<float>(i) / static_cast<float>(kSides);
    rim.push_back(vertex(kRx * std::cos(a), kCentre + kRz * std::sin(a)));
  }
  for (int i = 0; i < kSides; ++i) {
    Polygon p;
    p.id = static_cast<std::uint16_t>(g.polygons.size());
    p.sides_type = 1;
    p.pos_surface = 0;
    p.neg_surface = 0;
    // Counter-clockwise seen from -y: centre, the next rim point, this one.
    p.vertex_ids = {centre, rim[static_cast<std::size_t>((i + 1) % kSides)], rim[static_cast<std::size_t>(i)]};
    p.pos_uv_indices = {0, 0, 0};
    g.polygons.push_back(std::move(p));
  }
  g.sort_center = {0.0F, 0.0F, kCentre};
  g.drawing_bsp = single_leaf(g.polygons.size(), Sphere{g.sort_center, kRz});
  return g;
}

Setup portal_setup() {
  Setup s;
  s.id = kPortalSetup;
  s.parts = {kPortalMesh, kPortalPostMesh, kPortalPostMesh};
  SetupPlacement placement;
  placement.frame.part_frames = {Frame{}, Frame{{-1.05F, 0, 0}, glm::quat(1, 0, 0, 0)},
                                 Frame{{1.05F, 0, 0}, glm::quat(1, 0, 0, 0)}};
  s.placement_frames = {placement};
  s.cyl_spheres = {CylSphere{{0, 0, 0}, 1.0F, 2.8F}};
  s.height = 2.8F;
  s.radius = 1.2F;
  s.sorting_sphere = Sphere{{0, 0, 1.4F}, 1.6F};
  s.selection_sphere = s.sorting_sphere;
  s.lights = {SetupLight{0, Frame{{0, 0, 1.4F}, glm::quat(1, 0, 0, 0)}, argb(255, 190, 110, 255), 8.0F, 5.0F, 0.0F}};
  return s;
}

Setup torch_setup() {
  Setup s;
  s.id = kTorchSetup;
  s.parts = {kTorchPostMesh, kTorchFlameMesh};
  SetupPlacement placement;
  placement.frame.part_frames = {Frame{}, Frame{}};
  s.placement_frames = {placement};
  s.cyl_spheres = {CylSphere{{0, 0, 0}, 0.15F, 2.0F}};
  s.height = 2.0F;
  s.radius = 0.2F;
  s.sorting_sphere = Sphere{{0, 0, 1.0F}, 1.1F};
  s.selection_sphere = s.sorting_sphere;
  s.lights = {SetupLight{0, Frame{{0, 0, 1.9F}, glm::quat(1, 0, 0, 0)}, argb(255, 255, 170, 90), 12.0F, 6.0F, 0.0F}};
  return s;
}

void add_dungeon(Records& out) {
  out.push_back({kDungeonEnvironment, write_environment(dungeon_environment())});
  const GfxObj meshes[] = {
      portal_disc(),
      box_mesh(kPortalPostMesh, {-0.15F, -0.15F, -0.6F}, {0.15F, 0.15F, 2.8F}, kDungeonWallSurface),
      box_mesh(kTorchPostMesh, {-0.06F, -0.06F, 0.0F}, {0.06F, 0.06F, 1.6F}, kBarkSurface),
      double_cone_mesh(kTorchFlameMesh, kFlameSurface, 1.55F, 1.72F, 2.1F, 0.13F, 6),
  };
  for (const GfxObj& m : meshes) out.push_back({m.id, write_gfx_obj(m)});
  out.push_back({kPortalSetup, write_setup(portal_setup())});
  out.push_back({kTorchSetup, write_setup(torch_setup())});
}

// The dungeon's records in the cell DAT: its flat, empty landblock, its
// LandBlockInfo (no objects, no buildings: only its cells) and its EnvCells.
void add_dungeon_cells(Records& out) {
  LandBlock block;
  block.id = kDungeonLandBlock;
  block.has_objects = 1;
  // Height 0 everywhere; dirt (type 1), whose scene types hold no scenery.
  for (std::size_t i = 0; i < block.terrain.size(); ++i) block.terrain[i] = make_terrain_word(0, 1, 0);
  out.push_back({block.id, write_land_block(block)});
  LandBlockInfo info;
  info.id = kDungeonLandBlockInfo;
  info.num_cells = static_cast<std::uint32_t>(kDungeonRooms.size());
  out.push_back({info.id, write_land_block_info(info)});
  for (std::size_t i = 0; i < kDungeonRooms.size(); ++i) {
    const DungeonRoom& r = kDungeonRooms[i];
    EnvCell c;
    c.id = r.cell;
    c.flags = 0;  // not SeenOutside: nothing outside is drawn from it, and it is not seen from outside
    c.surfaces = {static_cast<std::uint16_t>(kDungeonFloorSurface & 0xFFFFU),
                  static_cast<std::uint16_t>(kDungeonWallSurface & 0xFFFFU)};
    c.environment_id = static_cast<std::uint16_t>(kDungeonEnvironment & 0xFFFFU);
    c.cell_struct = static_cast<std::uint16_t>(i);
    c.position = Frame{r.origin, glm::quat(1, 0, 0, 0)};
    for (std::size_t p = 0; p < dungeon_cells()[i].doors.size(); ++p) {
      const Doorway& d = dungeon_cells()[i].doors[p];
      c.portals.push_back(CellPortal{0, static_cast<std::uint16_t>(p),
                                     static_cast<std::uint16_t>(kDungeonRooms[d.to].cell & 0xFFFFU), d.to_portal});
    }
    // Every other cell of the dungeon is visible from it (CEnvCell::UnPack's
    // stab list: LScape keeps them loaded while the player is in one).
    for (const DungeonRoom& other : kDungeonRooms) {
      if (other.cell != r.cell) c.visible_cells.push_back(static_cast<std::uint16_t>(other.cell & 0xFFFFU));
    }
    out.push_back({c.id, write_env_cell(c)});
  }
}

// ---- animation ----------------------------------------------------------------------------------

Animation cycle_animation(Did id, int frames, float swing_amplitude, float bob_amplitude, float step) {
  Animation a;
  a.id = id;
  a.num_parts = kHumanParts;
  if (step != 0) a.flags = Animation::kHasPosFrames;
  for (int f = 0; f < frames; ++f) {
    const float phase = 2.0F * std::numbers::pi_v<float> * static_cast<float>(f) / static_cast<float>(frames);
    AnimationFrame frame;
    frame.part_frames = human_pose(swing_amplitude * std::sin(phase), bob_amplitude * std::abs(std::sin(phase)));
    a.frames.push_back(std::move(frame));
    if (step != 0) a.pos_frames.push_back(Frame{{0, step, 0}, glm::quat(1, 0, 0, 0)});
  }
  return a;
}

Animation recall_animation() {
  // 120 frames at 9.96 fps: the caster raises the arms; frame 16 opens the
  // portal cloud on the whole object (part -1) with logical id 19.
  Animation a;
  a.id = kRecallAnimation;
  a.num_parts = kHumanParts;
  for (std::uint32_t f = 0; f < 120; ++f) {
    const float t = static_cast<float>(f) / 119.0F;
    AnimationFrame frame;
    frame.part_frames = human_pose(-2.4F * std::sin(std::numbers::pi_v<float> * t), 0);
    if (f == kRecallEmitterFrame) {
      frame.hooks.push_back(hook(CreateParticleHook{kRecallEmitter, kWholeObject, Frame{}, kRecallEmitterLogicalId}));
    }
    for (const std::uint32_t s : kRecallSoundFrames) {
      if (f == s) frame.hooks.push_back(hook(SoundTweakedHook{kRecallWave, 1.0F, 0.5F, 0.8F}));
    }
    a.frames.push_back(std::move(frame));
  }
  return a;
}

MotionData motion_data(Did anim, float framerate, glm::vec3 velocity = {}, glm::vec3 omega = {},
                       std::uint8_t bitfield = 0) {
  MotionData m;
  m.bitfield = bitfield;
  m.anims = {AnimData{anim, 0, -1, framerate}};
  if (velocity != glm::vec3(0.0F)) {
    m.flags |= MotionData::kHasVelocity;
    m.velocity = velocity;
  }
  if (omega != glm::vec3(0.0F)) {
    m.flags |= MotionData::kHasOmega;
    m.omega = omega;
  }
  return m;
}

std::uint32_t cycle_key(std::uint32_t style, std::uint32_t substate) {
  return (style << 16) | (substate & 0xFFFFFF);
}

void add_animation(Records& out) {
  out.push_back({kReadyAnimation, write_animation(cycle_animation(kReadyAnimation, 30, 0.03F, 0.01F, 0))});
  out.push_back({kWalkAnimation, write_animation(cycle_animation(kWalkAnimation, 30, 0.5F, 0.03F, 0))});
  out.push_back({kRunAnimation, write_animation(cycle_animation(kRunAnimation, 20, 0.9F, 0.06F, 0))});
  out.push_back({kTurnAnimation, write_animation(cycle_animation(kTurnAnimation, 20, 0.15F, 0.0F, 0))});
  out.push_back({kRecallAnimation, write_animation(recall_animation())});

  MotionTable t;
  t.id = kHumanMotionTable;
  t.default_style = motion::NonCombat;
  t.style_defaults = {MotionStyleDefault{motion::NonCombat, motion::Ready}};
  t.cycles = {
      MotionEntry{cycle_key(motion::NonCombat, motion::Ready), motion_data(kReadyAnimation, 30.0F)},
      MotionEntry{cycle_key(motion::NonCombat, motion::WalkForward), motion_data(kWalkAnimation, 30.0F, {0, 3.12F, 0})},
      MotionEntry{cycle_key(motion::NonCombat, motion::RunForward), motion_data(kRunAnimation, 30.0F, {0, 4.0F, 0})},
      // Turning and sidestepping are cycles only from Ready (bitfield 0x2, as
      // in retail's tables); from a walk or run they are the modifiers below.
      MotionEntry{cycle_key(motion::NonCombat, motion::TurnRight),
                  motion_data(kTurnAnimation, 30.0F, {}, {0, 0, -1.5F}, 0x2)},
      // Sidestepping walks the walk cycle sideways at 1.25 m/s (retail's
      // SidestepAnimSpeed); falling holds the ready pose.
      MotionEntry{cycle_key(motion::NonCombat, motion::SideStepRight),
                  motion_data(kWalkAnimation, 30.0F, {1.25F, 0, 0}, {}, 0x2)},
      MotionEntry{cycle_key(motion::NonCombat, motion::Falling), motion_data(kReadyAnimation, 30.0F)},
  };
  // Turning or sidestepping while walking or running adds the motion as a
  // modifier: its omega or velocity on top of the cycle (GetObjectSequence).
  t.modifiers = {
      MotionEntry{cycle_key(motion::NonCombat, motion::TurnRight),
                  motion_data(kTurnAnimation, 30.0F, {}, {0, 0, -1.5F})},
      MotionEntry{cycle_key(motion::NonCombat, motion::SideStepRight),
                  motion_data(kWalkAnimation, 30.0F, {1.25F, 0, 0})},
  };
  // The recall is a link from NonCombat/Ready: the full command is the inner key.
  t.links = {MotionLinks{cycle_key(motion::NonCombat, motion::Ready),
                         {MotionEntry{motion::Recall, motion_data(kRecallAnimation, kRecallFramerate)}}}};
  out.push_back({kHumanMotionTable, write_motion_table(t)});
}

// ---- particles ----------------------------------------------------------------------------------

ParticleEmitterInfo emitter(Did id, ParticleType type, EmitterType emitter_type, Did gfx) {
  ParticleEmitterInfo e;
  e.id = id;
  e.emitter_type = emitter_type;
  e.particle_type = type;
  e.gfx_obj_id = gfx;
  e.hw_gfx_obj_id = gfx;
  e.birthrate = emitter_type == EmitterType::BirthratePerMeter ? 0.25 : 0.05;
  e.max_particles = 40;
  e.initial_particles = 4;
  e.total_particles = 0;
  e.total_seconds = 0;
  e.lifespan = 0.8;
  e.lifespan_rand = 0.2;
  e.offset_dir = {0, 0, 1};
  e.min_offset = 0;
  e.max_offset = 0.2F;
  e.a = {0, 0, 1};
  e.min_a = 0.5F;
  e.max_a = 1.0F;
  e.b = {0, 0, -1};
  e.min_b = 0.2F;
  e.max_b = 0.5F;
  e.c = {0, 0, 1};
  e.min_c = 0.5F;
  e.max_c = 1.5F;
  e.start_scale = 0.6F;
  e.final_scale = 0.1F;
  e.scale_rand = 0.1F;
  e.start_trans = 0.0F;
  e.final_trans = 1.0F;
  e.trans_rand = 0.0F;
  e.is_parent_local = 0;
  return e;
}

void add_particles(Records& out) {
  // One emitter per particle type, alternating the two emitter types.
  for (std::int32_t type = 1; type <= 12; ++type) {
    const Did id = kFirstTypeEmitter + static_cast<Did>(type - 1);
    auto e = emitter(id, static_cast<ParticleType>(type),
                     type % 2 ? EmitterType::BirthratePerSec : EmitterType::BirthratePerMeter, kSparkMesh);
    e.is_parent_local = type == 2 ? 1U : 0U;
    out.push_back({id, write_particle_emitter_info(e)});
  }
  // Trails: births per metre travelled, world-released particles that stay
  // where they were born, each spell's its own: flame's large embers rising
  // and shrinking; frost's small flakes drifting down slowly and lasting;
  // lightning's sparks scattered wide and gone at once; acid's drops
  // falling under their own weight.
  {
    auto e = emitter(kArrowTrail, ParticleType::ParabolicLVGA, EmitterType::BirthratePerMeter, kSparkMesh);
    e.birthrate = 0.15;
    e.max_particles = 60;
    e.lifespan = 0.6;
    out.push_back({kArrowTrail, write_particle_emitter_info(e)});
  }
  {
    auto e = emitter(kFlameTrail, ParticleType::ParabolicLVGA, EmitterType::BirthratePerMeter, kFlameSpark);
    e.birthrate = 0.1;
    e.max_particles = 80;
    e.lifespan = 0.55;
    e.a = {0, 0, 1};  // rising
    e.min_a = 0.8F;
    e.max_a = 1.6F;
    e.b = {0, 0, 1};
    e.min_b = 0.5F;
    e.max_b = 1.0F;
    e.max_offset = 0.15F;
    e.start_scale = 1.3F;
    e.final_scale = 0.2F;
    out.push_back({kFlameTrail, write_particle_emitter_info(e)});
  }
  {
    auto e = emitter(kFrostTrail, ParticleType::ParabolicLVGA, EmitterType::BirthratePerMeter, kFrostSpark);
    e.birthrate = 0.2;
    e.max_particles = 80;
    e.lifespan = 1.4;
    e.lifespan_rand = 0.4;
    e.a = {0, 0, -1};  // drifting down
    e.min_a = 0.1F;
    e.max_a = 0.3F;
    e.b = {0, 0, -1};
    e.min_b = 0.2F;
    e.max_b = 0.4F;
    e.min_offset = 0.05F;
    e.max_offset = 0.3F;
    e.start_scale = 0.8F;
    e.final_scale = 0.6F;
    e.scale_rand = 0.2F;
    out.push_back({kFrostTrail, write_particle_emitter_info(e)});
  }
  {
    auto e = emitter(kLightningTrail, ParticleType::ParabolicLVGA, EmitterType::BirthratePerMeter, kLightningSpark);
    e.birthrate = 0.08;
    e.max_particles = 60;
    e.lifespan = 0.25;
    e.lifespan_rand = 0.05;
    e.a = {1, 0, 1};  // flicking out sideways and up
    e.min_a = 2.0F;
    e.max_a = 5.0F;
    e.b = {0, 0, 0};
    e.min_b = 0.0F;
    e.max_b = 0.0F;
    e.min_offset = 0.2F;
    e.max_offset = 0.6F;
    e.start_scale = 1.3F;
    e.final_scale = 0.1F;
    out.push_back({kLightningTrail, write_particle_emitter_info(e)});
  }
  {
    auto e = emitter(kAcidTrail, ParticleType::ParabolicLVGA, EmitterType::BirthratePerMeter, kAcidSpark);
    e.birthrate = 0.15;
    e.max_particles = 60;
    e.lifespan = 0.9;
    e.a = {0, 0, -1};
    e.min_a = 0.2F;
    e.max_a = 0.5F;
    e.b = {0, 0, -1};  // dripping: gravity
    e.min_b = 6.0F;
    e.max_b = 9.8F;
    e.max_offset = 0.1F;
    e.start_scale = 0.7F;
    e.final_scale = 0.4F;
    out.push_back({kAcidTrail, write_particle_emitter_info(e)});
  }
  // Explosions: a burst of particles flying outwards (Explode: the speed is
  // a.x along a random direction, a.z up, b an acceleration), then the
  // emitter retires. Flame: a big ball of fire; frost: many small shards,
  // flung wide and falling; lightning: a short blinding flash; acid: a
  // splash of drops that fall back.
  struct Burst {
    Did id;
    Did spark;
    std::int32_t count;
    glm::vec3 a;
    float min_a, max_a;
    glm::vec3 b;
    float min_b, max_b;
    double lifespan;
    float start_scale, final_scale;
  };
  const Burst bursts[] = {
      {kFlameBurst, kFlameSpark, 36, {1.5F, 0, 1}, 1.0F, 2.0F, {0, 0, 1}, 0.5F, 1.0F, 0.9, 3.2F, 0.8F},
      {kFrostBurst, kFrostSpark, 60, {4.0F, 0, 0.5F}, 1.0F, 1.5F, {0, 0, -1}, 4.0F, 6.0F, 1.2, 1.6F, 0.6F},
      {kLightningBurst, kLightningSpark, 24, {6.0F, 0, 0}, 0.8F, 1.2F, {0, 0, 0}, 0.0F, 0.0F, 0.45, 6.0F, 1.0F},
      {kAcidBurst, kAcidSpark, 40, {2.5F, 0, 2.5F}, 0.8F, 1.2F, {0, 0, -1}, 9.0F, 9.8F, 1.0, 1.1F, 0.6F},
  };
  for (const Burst& bu : bursts) {
    auto e = emitter(bu.id, ParticleType::Explode, EmitterType::BirthratePerSec, bu.spark);
    e.initial_particles = bu.count;
    e.max_particles = bu.count;
    e.total_particles = bu.count;
    e.total_seconds = 0.5;
    e.a = bu.a;
    e.min_a = bu.min_a;
    e.max_a = bu.max_a;
    e.b = bu.b;
    e.min_b = bu.min_b;
    e.max_b = bu.max_b;
    e.lifespan = bu.lifespan;
    e.start_scale = bu.start_scale;
    e.final_scale = bu.final_scale;
    out.push_back({bu.id, write_particle_emitter_info(e)});
  }
  // The recall cloud and the portal swirl: parent-local, they follow the caster.
  for (const Did id : {kRecallEmitter, kPortalSwirl}) {
    auto e = emitter(id, ParticleType::Swarm, EmitterType::BirthratePerSec, kSparkMesh);
    e.is_parent_local = 1;
    e.total_seconds = 8.0;
    e.max_particles = 80;
    e.min_offset = 0.5F;
    e.max_offset = 1.0F;
    out.push_back({id, write_particle_emitter_info(e)});
  }
  auto fist = emitter(kTuskerFistEmitter, ParticleType::Implode, EmitterType::BirthratePerSec, kSparkMesh);
  fist.is_parent_local = 1;
  out.push_back({kTuskerFistEmitter, write_particle_emitter_info(fist)});
}

// ---- scripts ------------------------------------------------------------------------------------

PhysicsScript script(Did id, std::vector<PhysicsScriptHook> hooks) {
  PhysicsScript s;
  s.id = id;
  s.hooks = std::move(hooks);
  sort_hooks_by_start_time(s.hooks);
  return s;
}

PhysicsScriptHook at(double time, HookPayload payload) {
  return PhysicsScriptHook{time, hook(std::move(payload))};
}

CreateParticleHook particle(Did emitter_id, std::uint32_t part = 0, std::uint32_t logical = 0) {
  return CreateParticleHook{emitter_id, part, Frame{}, logical};
}

PhysicsScriptTableEntry entry(std::uint32_t type, std::vector<ScriptAndMod> scripts) {
  return PhysicsScriptTableEntry{type, std::move(scripts)};
}

void add_scripts(Records& out) {
  std::vector<PhysicsScript> scripts = {
      // Arrow table scripts.
      script(0x33000719, {at(0, particle(kArrowTrail))}),
      script(0x33000233, {at(0, StopParticleHook{0}), at(0, SoundTableHook{kSoundHit})}),
      script(0x33000302, {at(0, TransparentHook{0, 1, 0.5F}), at(0.5, NoDrawHook{1})}),
      // The shared projectile collision script lights the impact.
      script(0x33000109, {at(0, SetLightHook{1}), at(0.3, SetLightHook{0})}),
      // Flame: launch trails at three intensities, explosions at three.
      script(0x3300011B, {at(0, particle(kFlameTrail)), at(0, SoundTableHook{kSoundLaunch})}),
      script(0x3300011C,
             {at(0, particle(kFlameTrail)), at(0, ScaleHook{1.25F, 0.2F}), at(0, SoundTableHook{kSoundLaunch})}),
      script(0x3300011D, {at(0, particle(kFlameTrail)), at(0, ScaleHook{1.5F, 0.2F}),
                          at(0.1, particle(kFirstTypeEmitter + 2)), at(0, SoundTableHook{kSoundLaunch})}),
      script(0x3300011E, {at(0, particle(kFlameBurst)), at(0, SoundTableHook{kSoundExplode})}),
      script(0x3300012B, {at(0, particle(kFlameBurst)), at(0.05, particle(kFirstTypeEmitter + 5)),
                          at(0, SoundTableHook{kSoundExplode})}),
      script(0x33000120, {at(0, particle(kFlameBurst)), at(0.05, particle(kFirstTypeEmitter + 5)),
                          at(0.1, particle(kFirstTypeEmitter + 6)), at(0, SoundTableHook{kSoundExplode})}),
      // Frost, lightning, acid.
      script(0x330008BF, {at(0, particle(kFrostTrail)), at(0, SoundTableHook{kSoundLaunch})}),
      script(0x33000119, {at(0, particle(kFrostBurst)), at(0, SoundTableHook{kSoundExplode})}),
      script(0x330008C0, {at(0, particle(kLightningTrail)), at(0, SoundTableHook{kSoundLaunch})}),
      script(0x3300013E, {at(0, particle(kLightningBurst)), at(0, SoundTableHook{kSoundExplode})}),
      script(0x330008C2, {at(0, particle(kAcidTrail)), at(0, SoundTableHook{kSoundLaunch})}),
      script(0x33000132, {at(0, particle(kAcidBurst)), at(0, SoundTableHook{kSoundExplode})}),
      // Hidden / UnHide (seed 11.3).
      script(kHiddenScript, {at(0, particle(kPortalSwirl, kWholeObject)), at(0, SoundTableHook{kSoundPortal}),
                             at(0.8, TransparentHook{0, 1, 0.4F})}),
      script(kUnHideScript, {at(0, TransparentHook{1, 0, 0.6F}), at(0, particle(kPortalSwirl, kWholeObject)),
                             at(0, SoundTableHook{kSoundPortal})}),
      // Tusker Fist's default script: all at time zero (seed 11.2).
      script(kTuskerFistDefaultScript, {at(0, ScaleHook{1.2F, 0.0F}), at(0, particle(kTuskerFistEmitter, 0)),
                                        at(0, SoundTableHook{kSoundLaunch})}),
  };
  // Blocking scripts 0x33000AEA..0x33000AF8 (seed 11.4): a blocking create on the
  // whole object with logical id 1, then a sound; a second run while the
  // emitter lives creates nothing.
  for (Did id = kFirstBlockingScript; id <= kLastBlockingScript; ++id) {
    CreateBlockingParticleHook blocking;
    blocking.emitter_info = kFirstTypeEmitter + (id - kFirstBlockingScript) % 12;
    blocking.part_index = kWholeObject;
    blocking.emitter_id = 1;
    scripts.push_back(script(id, {at(0, blocking), at(0.25, SoundTableHook{kSoundHit})}));
  }
  for (const auto& s : scripts) out.push_back({s.id, write_physics_script(s)});

  namespace ps = play_script;
  const PhysicsScriptTable tables[] = {
      {0x3400002B,
       {entry(ps::Create, {{1, 0x33000719}}), entry(ps::Destroy, {{1, 0x33000233}}),
        entry(ps::DisappearDestroy, {{1, 0x33000302}})}},
      {0x34000005,
       {entry(ps::ProjectileCollision, {{1, 0x33000109}}),
        entry(ps::Launch, {{0, 0x3300011B}, {0.5F, 0x3300011C}, {1, 0x3300011D}}),
        entry(ps::Explode, {{0, 0x3300011E}, {0.5F, 0x3300012B}, {1, 0x33000120}})}},
      {0x34000080,
       {entry(ps::ProjectileCollision, {{1, 0x33000109}}), entry(ps::Launch, {{1, 0x330008BF}}),
        entry(ps::Explode, {{1, 0x33000119}})}},
      {0x34000081,
       {entry(ps::ProjectileCollision, {{1, 0x33000109}}), entry(ps::Launch, {{1, 0x330008C0}}),
        entry(ps::Explode, {{1, 0x3300013E}})}},
      {0x34000082,
       {entry(ps::ProjectileCollision, {{1, 0x33000109}}), entry(ps::Launch, {{1, 0x330008C2}}),
        entry(ps::Explode, {{1, 0x33000132}})}},
      {kHumanScriptTable, {entry(ps::UnHide, {{1, kUnHideScript}}), entry(ps::Hidden, {{1, kHiddenScript}})}},
  };
  for (const auto& t : tables) out.push_back({t.id, write_physics_script_table(t)});
}

// ---- sound --------------------------------------------------------------------------------------

Wave tone(Did id, float frequency, float seconds, float noise) {
  constexpr std::uint32_t kRate = 22050;
  Wave w;
  w.id = id;
  ByteWriter fmt;
  fmt.u16(kWaveFormatPcm);
  fmt.u16(1);
  fmt.u32(kRate);
  fmt.u32(kRate * 2);
  fmt.u16(2);
  fmt.u16(16);
  fmt.u16(0);
  w.format = std::move(fmt).take();
  ByteWriter data;
  const auto samples = static_cast<std::uint32_t>(seconds * static_cast<float>(kRate));
  std::uint32_t lcg = id;  // deterministic noise
  for (std::uint32_t i = 0; i < samples; ++i) {
    const float t = static_cast<float>(i) / static_cast<float>(kRate);
    const float envelope = std::exp(-4.0F * t / seconds);
    lcg = lcg * 1664525U + 1013904223U;
    const float n = (static_cast<float>(lcg >> 8) / 16777216.0F) * 2.0F - 1.0F;
    const float s =
        envelope * ((1.0F - noise) * std::sin(2.0F * std::numbers::pi_v<float> * frequency * t) + noise * n);
    data.u16(static_cast<std::uint16_t>(static_cast<std::int16_t>(s * 12000.0F)));
  }
  w.data = std::move(data).take();
  return w;
}

void add_sound(Records& out) {
  const Wave waves[] = {tone(kLaunchWave, 660, 0.35F, 0.2F), tone(kExplodeWave, 90, 0.6F, 0.8F),
                        tone(kHitWave, 220, 0.2F, 0.5F), tone(kPortalWave, 440, 0.8F, 0.1F),
                        tone(kRecallWave, 523, 0.5F, 0.05F)};
  for (const auto& w : waves) out.push_back({w.id, write_wave(w)});
  SoundTable t;
  t.id = kHumanSoundTable;
  const std::pair<std::uint32_t, Did> sounds[] = {
      {kSoundLaunch, kLaunchWave}, {kSoundExplode, kExplodeWave}, {kSoundHit, kHitWave}, {kSoundPortal, kPortalWave}};
  for (const auto& [sound, wave] : sounds) {
    SoundTableData child;
    child.hash_key = sound;
    child.entries = {SoundEntry{wave, 0.5F, 1.0F, 0.9F}};
    t.root.children.push_back(std::move(child));
  }
  out.push_back({kHumanSoundTable, write_sound_table(t)});
}

// ---- terrain ------------------------------------------------------------------------------------

// Vertices are numbered world-wide from the centre landblock's south-west
// corner: (gx, gy) with gx = 8 * (block x - 0xA9) + x, likewise gy, so the
// centre is 0..8 on both and a vertex on a seam is one vertex of both blocks
// (each block computes it from the same (gx, gy), which keeps heights and
// terrain types equal across the seams).
//
// The made-up height field at vertex (gx, gy), before quantising. The cross
// term is the centre's own; beyond the centre it keeps the value at the
// nearest centre vertex, so the neighbours stay as gentle as the centre.
double terrain_height(int gx, int gy) {
  const double fx = gx, fy = gy;
  const double cx = std::clamp(gx, 0, 8), cy = std::clamp(gy, 0, 8);
  return 40.0 + 14.0 * std::sin(fx * 0.7) + 10.0 * std::cos(fy * 0.55) + 3.0 * std::sin(cx * cy * 0.3);
}

std::uint8_t height_byte(double h) {
  return static_cast<std::uint8_t>(std::clamp(h, 0.0, 255.0));
}

// Vertices set by hand over the height field (height bytes: z = byte / 2),
// for what the collision rules need (docs/dat.md, "The synthetic demo world"):
// - the house's cell (4, 4) flat at z 14 (x 96..120, y 96..120);
// - the walkable slope south of it, cell (4, 3): z 14 at y 96 up to z 22 at
//   y 72 (rise 8 m over 24 m, normal z 0.949);
// - the hill east of them, cells (5, 3) and (5, 4): z 22 and 14 at x 120 up
//   to 58 and 50 at x 144 (normal z 0.545 and 0.555, steeper than walkable
//   0.66417414), its back falling east to column 7;
// - the lake in the low north-east corner, vertices (6..8, 6..8) at z 8
//   (water, kWaterTerrainType).
struct VertexOverride {
  int x;  // world-wide vertex numbers; all of them lie in the centre block
  int y;
  std::uint8_t height;
  bool water = false;
};
constexpr VertexOverride kVertexOverrides[] = {
    {4, 4, 28},       {5, 4, 28},       {4, 5, 28},       {5, 5, 28},  // the flat ground of the house
    {4, 3, 44},       {5, 3, 44},                                      // the top of the walkable slope
    {6, 3, 116},      {6, 4, 100},      {6, 5, 100},                   // the hill's steep face
    {7, 3, 60},       {7, 4, 64},       {7, 5, 56},                    // its back
    {6, 6, 16, true}, {7, 6, 16, true}, {8, 6, 16, true},              // the lake
    {6, 7, 16, true}, {7, 7, 16, true}, {8, 7, 16, true}, {6, 8, 16, true}, {7, 8, 16, true}, {8, 8, 16, true},
};

const VertexOverride* vertex_override(int gx, int gy) {
  for (const VertexOverride& v : kVertexOverrides) {
    if (v.x == gx && v.y == gy) return &v;
  }
  return nullptr;
}

std::uint8_t vertex_height(int gx, int gy) {
  const VertexOverride* v = vertex_override(gx, gy);
  return v != nullptr ? v->height : height_byte(terrain_height(gx, gy));
}

// The terrain word of vertex (gx, gy): the road runs north-south along gx 4
// (through the centre and the blocks north and south of it); the type by
// height (dirt low, rock high, grass between), water where the lake is; scene
// bits 0 (the grass's scenery, add_scenes), or 1 (no scenery) in the town's
// clearing: the centre block's vertices x 1..5, y 4..7, so that no pine or
// boulder (each within 22 m of its vertex) stands in the bolt lanes (y 96 and
// 120), by the NPCs or on the player's scripted walk (x 22..122, y 94..170
// stay clear); the slope south of the lanes keeps its scenery, in the
// demo's first view.
std::uint16_t vertex_terrain(int gx, int gy) {
  const VertexOverride* v = vertex_override(gx, gy);
  const double h = v != nullptr ? static_cast<double>(v->height) : terrain_height(gx, gy);
  std::uint32_t type = h > 55 ? 2 : (h < 32 ? 1 : 0);
  if (v != nullptr && v->water) type = kWaterTerrainType;
  const bool clearing = gx >= 1 && gx <= 5 && gy >= 4 && gy <= 7;
  return make_terrain_word(gx == 4 ? 1 : 0, type, clearing ? 1 : 0);
}

// The ground z at vertex (x, y) of the centre block: the Region's height
// table is i * 0.5.
float ground_z(std::size_t x, std::size_t y) {
  return static_cast<float>(vertex_height(static_cast<int>(x), static_cast<int>(y))) * 0.5F;
}

void add_region(Records& out) {
  Region r;
  r.id = kRegion;
  r.name = "Dereth (demo)";
  for (std::size_t i = 0; i < r.land_defs.land_height_table.size(); ++i) {
    r.land_defs.land_height_table[i] = static_cast<float>(i) * 0.5F;
  }
  r.game_time.day_length = 7620.0F;
  r.game_time.days_per_year = 360;
  r.game_time.year_spec = "P.Y.";
  r.game_time.times_of_day = {TimeOfDay{0.0F, 1, "Darktide"}, TimeOfDay{0.25F, 0, "Dawnsong"},
                              TimeOfDay{0.75F, 1, "Gloaming"}};
  r.game_time.day_names = {"Snowreap", "Coldeve"};
  r.game_time.seasons = {Season{0, "Winter"}};
  r.terrain.terrain_types = {TerrainType{"Grassland", argb(255, 60, 120, 50), {}},
                             TerrainType{"Dirt", argb(255, 120, 100, 70), {}},
                             TerrainType{"Rock", argb(255, 140, 140, 130), {}}};
  // Terrain types are indices into this list: the unused ones up to the
  // water type are grey, type 16 is water (TERRAIN_SURF_CHAR makes 16..20
  // water for the physics, whatever the Region calls them).
  while (r.terrain.terrain_types.size() < kWaterTerrainType) {
    r.terrain.terrain_types.push_back(TerrainType{"Unused", argb(255, 128, 128, 128), {}});
  }
  r.terrain.terrain_types.push_back(TerrainType{"Water", argb(255, 46, 90, 140), {}});
  // The scene part servers and the client index on every landblock load
  // (TerrainTypes[type].SceneTypes[scene bits], then SceneInfo.SceneTypes[that].Scenes):
  // no ambient sound tables (-1: the demo Region has no sound part, and GDLE
  // resolves any other index into it). Every terrain type lists two scene
  // types, so each scene bits value a demo terrain word uses (0 or 1) names one.
  r.scene = SceneDesc{{SceneType{0xFFFFFFFFU, {}}, SceneType{0xFFFFFFFFU, {kGroveScene, kRockyScene, kMeadowScene}}}};
  r.parts_mask |= region_parts::kScene;
  // Scene bits 0 on grass name the scenery (scene type 1); scene bits 1 (the
  // clearing around the town's lanes, vertex_terrain) and every other terrain
  // type name the empty one.
  for (TerrainType& type : r.terrain.terrain_types) type.scene_types = {0, 0};
  r.terrain.terrain_types[0].scene_types = {1, 0};
  r.terrain.tex_merge.base_tex_size = 64;
  const std::pair<std::uint32_t, Did> textures[] = {
      {0, 0x05000020}, {1, 0x05000021}, {2, 0x05000022}, {kWaterTerrainType, kWaterTexture}};
  for (const auto& [type, texture] : textures) {
    TerrainTex tex;
    tex.terrain_type = type;
    tex.texture = texture;
    tex.tex_tiling = 2;
    r.terrain.tex_merge.terrain_textures.push_back(tex);
  }
  // The sky's light and fog by time of day (SkyDesc::GetLighting and
  // GetWorldFog interpolate between these): night, dawn, noon, dusk. Noon is
  // the light the renderer used before it read a SkyDesc (sun 0.65 from the
  // south-east, 50 degrees up; ambient 0.45), with fog the sky's colour.
  const auto sky_time = [](float begin, float sun, float heading, float pitch, std::uint32_t sun_color, float ambient,
                           std::uint32_t ambient_color, float fog_min, float fog_max, std::uint32_t fog_color) {
    SkyTimeOfDay t;
    t.begin = begin;
    t.dir_bright = sun;
    t.dir_heading = heading;
    t.dir_pitch = pitch;
    t.dir_color = sun_color;
    t.amb_bright = ambient;
    t.amb_color = ambient_color;
    t.world_fog = 1;
    t.min_world_fog = fog_min;
    t.max_world_fog = fog_max;
    t.world_fog_color = fog_color;
    return t;
  };
  DayGroup clear;
  clear.chance_of_occur = 1.0F;
  clear.name = "Clear";
  clear.sky_times = {
      sky_time(0.0F, 0.25F, 0.0F, -20.0F, argb(255, 96, 112, 160), 0.25F, argb(255, 80, 96, 160), 60.0F, 250.0F,
               argb(255, 28, 36, 64)),
      sky_time(0.25F, 0.7F, 90.0F, 15.0F, argb(255, 255, 192, 144), 0.4F, argb(255, 192, 160, 160), 90.0F, 320.0F,
               argb(255, 160, 140, 140)),
      sky_time(0.5F, 0.65F, 141.3F, 50.3F, argb(255, 255, 255, 255), 0.45F, argb(255, 255, 255, 255), 150.0F, 450.0F,
               argb(255, 120, 161, 219)),
      sky_time(0.75F, 0.6F, 270.0F, 18.0F, argb(255, 255, 160, 112), 0.45F, argb(255, 200, 168, 168), 90.0F, 320.0F,
               argb(255, 154, 124, 128)),
  };
  SkyDesc sky;
  sky.tick_size = 5.0;
  sky.light_tick_size = 30.0;
  sky.day_groups = {clear};
  r.sky = sky;
  r.parts_mask |= region_parts::kSky;
  add_demo_sky(r, out);  // the sky objects (demo_sky.cpp)
  out.push_back({kRegion, write_region(r)});
}

// ---- tables a server reads at start ---------------------------------------------------------------
// GDLE / ClassicDereth and ACE read these from client_portal.dat when they
// start. Every name, number and list below is made up for the demo; only the
// record layouts and the enum values servers key them by are facts.

constexpr Did kDemoPaletteSet = 0x0F000001;

// The clothing CharGen offers (each sex lists one of each): the ClothingTables
// and the weenie class ids a server spawns for them (retail's plain cloth
// cap, shirt, pants and shoes classes: 118, 130, 127 and 132, as ACE's
// WeenieClassName enum names them; a server whose world database lacks them
// hands out a stand-in or nothing, but needs the lists to index).
struct DemoGear {
  std::string_view name;
  Did clothing_table;
  std::uint32_t weenie;
};
constexpr DemoGear kDemoCap{"Cap", 0x10000001, 118};
constexpr DemoGear kDemoShirt{"Shirt", 0x10000002, 130};
constexpr DemoGear kDemoPants{"Pants", 0x10000003, 127};
constexpr DemoGear kDemoShoes{"Shoes", 0x10000004, 132};
// CharGen's clothing colours: the palette templates each ClothingTable keys
// its recolouring by.
constexpr std::uint32_t kClothingColors[] = {1, 2};

// Attribute numbers (SkillFormula attr1/attr2, CharGen templates).
constexpr std::uint32_t kStrength = 1;
constexpr std::uint32_t kEndurance = 2;
constexpr std::uint32_t kQuickness = 3;
constexpr std::uint32_t kCoordination = 4;
constexpr std::uint32_t kFocus = 5;
constexpr std::uint32_t kSelf = 6;

// Skill numbers (the Skill enum) of the demo's six skills.
constexpr std::uint32_t kSkillMeleeDefense = 6;
constexpr std::uint32_t kSkillMagicDefense = 15;
constexpr std::uint32_t kSkillJump = 22;
constexpr std::uint32_t kSkillRun = 24;
constexpr std::uint32_t kSkillWarMagic = 34;
constexpr std::uint32_t kSkillLightWeapons = 45;

// The XpTable's maxima: character level 275 (the cap both servers assume;
// GDLE only lowers it by config), attribute / vital / trained / specialized
// ranks 190 / 196 / 208 / 226, so a server indexing by any rank or level it
// allows stays inside the tables.
constexpr std::size_t kMaxLevel = 275;
constexpr std::size_t kMaxAttributeRank = 190;
constexpr std::size_t kMaxVitalRank = 196;
constexpr std::size_t kMaxTrainedRank = 208;
constexpr std::size_t kMaxSpecializedRank = 226;

SkillFormula formula(std::uint32_t attr1, std::uint32_t attr2, std::uint32_t divisor) {
  return SkillFormula{0, 1, attr2 == 0 ? 0U : 1U, divisor, attr1, attr2};
}

CharGenObjDesc texture_swap(std::uint8_t part, Did from, Did to) {
  CharGenObjDesc d;
  d.texture_changes.push_back({part, from, to});
  return d;
}

// The sex's colour choices: the skin PaletteSet (base_palette and
// skin_palette_set are set by demo_sex), a PaletteSet per hair colour, a
// Palette per eye colour (see "the human's colours").
void demo_sex_colors(CharGenSex& s) {
  s.obj_desc = {};  // the sex's own ObjDesc changes nothing: the choices make the look
  s.hair_colors.clear();
  for (std::uint32_t c = 0; c < kHairColorCount; ++c) s.hair_colors.push_back(kFirstHairPaletteSet + c);
  s.eye_colors.clear();
  for (std::uint32_t c = 0; c < kEyeColorCount; ++c) s.eye_colors.push_back(kFirstEyePalette + c);
}

// The face strips. The demo head is one textured box, so one strip gives it
// its face: the eye strip swaps the skin for the face with hair (its bald
// variant: the face without). The nose and mouth strips, which a server
// reads the first texture change of, swap textures the head does not draw,
// so they do not hide the eyes' face.
void demo_sex_face(CharGenSex& s) {
  s.eye_strips = {EyeStrip{0x06000003, 0x06000003, texture_swap(1, 0x05000001, kFaceTexture),
                           texture_swap(1, 0x05000001, kBaldFaceTexture)}};
  s.nose_strips = {FaceStrip{0x06000004, texture_swap(1, 0x05000004, 0x05000005)}};
  s.mouth_strips = {FaceStrip{0x06000005, texture_swap(1, 0x05000005, 0x05000004)}};
}

CharGenSex demo_sex(std::uint32_t gender, std::string name) {
  CharGenSex s;
  s.gender = gender;
  s.name = std::move(name);
  s.scale = 100;
  s.setup = kHumanSetup;
  s.sound_table = kHumanSoundTable;
  s.icon = 0x06000001;
  s.base_palette = kHumanPalette;
  s.skin_palette_set = kSkinPaletteSet;
  s.physics_table = kHumanScriptTable;
  s.motion_table = kHumanMotionTable;
  s.combat_table = 0;  // the demo has no CombatTable
  demo_sex_colors(s);
  HairStyle hair;
  hair.icon = 0x06000002;
  hair.obj_desc.part_changes = {{1, kHeadMesh}};
  HairStyle bald = hair;
  bald.bald = 1;
  s.hair_styles = {hair, bald};
  demo_sex_face(s);
  const auto gear = [](const DemoGear& g) {
    return std::vector<CharGenGear>{CharGenGear{std::string(g.name), g.clothing_table, g.weenie}};
  };
  s.headgear = gear(kDemoCap);
  s.shirts = gear(kDemoShirt);
  s.pants = gear(kDemoPants);
  s.footwear = gear(kDemoShoes);
  s.clothing_colors.assign(std::begin(kClothingColors), std::end(kClothingColors));
  return s;
}

// A ClothingTable for the demo humanoid: each (part, mesh) of kHumanSetup
// gets that mesh with the skin texture swapped for `cloth`; every clothing
// colour recolours the clothing colours (kClothFirst..) from the demo's PaletteSet.
ClothingTable demo_clothing(Did id, std::initializer_list<std::pair<std::uint32_t, Did>> parts, Did cloth) {
  ClothingTable t;
  t.id = id;
  t.base_buckets = 8;
  ClothingBaseEffect human;
  human.setup = kHumanSetup;
  for (const auto& [part, mesh] : parts) {
    human.objects.push_back(CloObjectEffect{part, mesh, {CloTextureEffect{0x05000001, cloth}}});
  }
  t.base_effects = {human};
  t.subpal_buckets = 8;
  for (const std::uint32_t color : kClothingColors) {
    t.subpal_effects.push_back(
        CloSubPalEffect{color, 0x06000002, {CloSubPalette{{{kClothFirst, kClothColors}}, kDemoPaletteSet}}});
  }
  return t;
}

CharGen demo_char_gen() {
  CharGen c;
  StarterArea crossing;
  crossing.name = "Demo Crossing";
  // Outdoor cell 0x25 of the demo landblock (x 96..120, y 96..120, flat at
  // z 14), 4 m inside its south-west corner and facing north: clear of the
  // house room (x 111..117, y 106..112) and its south door, and off every
  // cell boundary, so that a client and a server place the player in the
  // same cell (on the corner vertex (4, 4) one said 0x24, the other 0x25).
  crossing.locations.push_back(CharGenPosition{(kLandBlock & 0xFFFF0000U) | 0x25U,
                                               Frame{{100.0F, 100.0F, ground_z(4, 4)}, glm::quat(1, 0, 0, 0)}});
  c.starter_areas = {crossing};

  HeritageGroup h;
  h.heritage = 1;
  h.name = "Wayfarers";
  h.icon = 0x06000001;
  h.setup = kHumanSetup;
  h.environment_setup = kTreeSetup;
  h.attribute_credits = 330;
  h.skill_credits = 50;
  h.primary_start_areas = {0};
  h.skills = {{kSkillMeleeDefense, 10, 20}, {kSkillLightWeapons, 6, 12}};
  CharGenTemplate wanderer;
  wanderer.name = "Wanderer";
  wanderer.icon = 0x06000002;
  wanderer.title = 1;
  wanderer.strength = 60;
  wanderer.endurance = 60;
  wanderer.coordination = 50;
  wanderer.quickness = 50;
  wanderer.focus = 50;
  wanderer.self = 60;
  wanderer.normal_skills = {kSkillJump, kSkillRun};
  wanderer.primary_skills = {kSkillWarMagic};
  h.templates = {wanderer};
  h.genders = {demo_sex(1, "Male"), demo_sex(2, "Female")};
  c.heritage_groups = {h};
  return c;
}

SkillTable demo_skill_table() {
  SkillTable t;
  t.buckets = 32;
  auto skill = [&](std::uint32_t number, std::string name, std::string description, Did icon, std::int32_t trained,
                   std::int32_t specialized, std::uint32_t category, SkillFormula f) {
    SkillBase b;
    b.name = std::move(name);
    b.description = std::move(description);
    b.icon = icon;
    b.trained_cost = trained;
    b.specialized_cost = specialized;
    b.category = category;
    b.chargen_use = 1;
    b.min_level = 1;
    b.formula = f;
    b.upper_bound = 1000.0;
    b.lower_bound = 0.0;
    b.learn_mod = 1.0;
    t.skills.push_back({number, std::move(b)});
  };
  skill(kSkillMeleeDefense, "Melee Defense", "Turning aside blows in the demo world.", 0x06000001, 10, 20, 1,
        formula(kCoordination, kQuickness, 3));
  skill(kSkillMagicDefense, "Magic Defense", "Shrugging off hostile spells.", 0x06000002, 12, 24, 3,
        formula(kFocus, kSelf, 7));
  skill(kSkillJump, "Jump", "Leaping over the demo's rocks.", 0x06000003, 0, 4, 2,
        formula(kStrength, kCoordination, 2));
  skill(kSkillRun, "Run", "Crossing the demo landblock quickly.", 0x06000004, 0, 4, 2, formula(kQuickness, 0, 1));
  skill(kSkillWarMagic, "War Magic", "Hurling made-up bolts.", 0x06000005, 16, 28, 3, formula(kFocus, kSelf, 4));
  skill(kSkillLightWeapons, "Light Weapons", "Fighting with light blades.", 0x06000006, 6, 12, 1,
        formula(kStrength, kCoordination, 3));
  return t;
}

SpellComponentTable demo_spell_components() {
  SpellComponentTable t;
  t.buckets = 32;
  auto add = [&](std::uint32_t id, std::string name, std::uint32_t type, std::string words, float time) {
    SpellComponentBase c;
    c.name = std::move(name);
    c.category = type;
    c.icon = 0x06000003;
    c.type = type;
    c.gesture = motion::Ready;  // a motion the demo's MotionTable has
    c.time = time;
    c.words = std::move(words);
    c.cdm = 1.0F;
    t.components.push_back({id, std::move(c)});
  };
  add(1, "Clay Beetle", spell_component_type::Scarab, "", 0.5F);
  add(2, "Mossleaf", spell_component_type::Herb, "Zeb", 0.25F);
  add(3, "Ash Dust", spell_component_type::Powder, "Kor", 0.25F);
  add(4, "Brine Phial", spell_component_type::Potion, "Ul", 0.25F);
  add(5, "Oak Charm", spell_component_type::Talisman, "", 0.5F);
  add(6, "Tallow Stub", spell_component_type::Taper, "", 0.0F);
  return t;
}

SpellTable demo_spell_table() {
  SpellTable t;
  t.spell_buckets = 32;
  auto spell = [&](std::uint32_t id, std::string name, std::string description, std::uint32_t school,
                   std::uint32_t type, std::array<std::uint32_t, kSpellFormulaSize> components) -> SpellBase& {
    SpellBase s;
    s.name = std::move(name);
    s.description = std::move(description);
    s.school = school;
    s.icon = 0x06000006;
    s.category = id;
    s.base_mana = 10 * id;
    s.base_range_constant = 10.0F;
    s.base_range_mod = 0.5F;
    s.power = id;
    s.spell_economy_mod = 1.0F;
    s.formula_version = 0;  // components as listed, no per-account variation
    s.component_loss = 0.05F;
    s.meta_spell_type = type;
    s.meta_spell_id = id;
    set_spell_formula(s, components);
    s.display_order = id;
    s.non_component_target_type = 0x10;  // creatures
    t.spells.push_back({id, std::move(s)});
    return t.spells.back().base;
  };
  SpellBase& bolt = spell(27, "Flame Bolt I", "Shoots a bolt of flame at the target.", 1, spell_type::Projectile,
                          {1, 2, 3, 4, 5, 0, 0, 0});
  // A first-level bolt a new character can afford: real servers charge the
  // SpellTable's base mana, and a new character has well under 270.
  bolt.base_mana = 15;
  SpellBase& hide = spell(2, "Stone Hide", "Toughens the caster's skin for a while.", 4, spell_type::Enchantment,
                          {1, 2, 3, 4, 5, 6, 0, 0});
  hide.duration = 1800.0;
  hide.degrade_modifier = 0.0F;
  hide.degrade_limit = 0.0F;
  spell(3, "Homeward Step", "Returns the caster to the crossing.", 3, spell_type::PortalRecall,
        {1, 3, 4, 5, 2, 0, 0, 0});
  SpellBase& gate =
      spell(4, "Lantern Gate", "Opens a short-lived gate.", 3, spell_type::PortalSummon, {1, 4, 3, 2, 5, 0, 0, 0});
  gate.portal_lifetime = 60.0;
  t.set_buckets = 8;
  SpellSet set;
  set.set = 1;
  set.buckets = 4;
  set.tiers = {{2, {2}}, {4, {2, 27}}};
  t.sets = {set};
  return t;
}

XpTable demo_xp_table() {
  XpTable t;
  auto ranks = [](std::size_t max, std::uint32_t cube, std::uint32_t linear) {
    std::vector<std::uint32_t> v;
    for (std::uint32_t r = 0; r <= max; ++r) v.push_back(cube * r * r * r + linear * r);
    return v;
  };
  t.attribute = ranks(kMaxAttributeRank, 12, 400);
  t.vital = ranks(kMaxVitalRank, 9, 300);
  t.trained_skill = ranks(kMaxTrainedRank, 8, 250);
  t.specialized_skill = ranks(kMaxSpecializedRank, 5, 200);
  // Level 1 needs no XP; credits arrive every fifth level.
  for (std::uint64_t n = 0; n <= kMaxLevel; ++n) {
    const std::uint64_t k = n == 0 ? 0 : n - 1;
    t.level.push_back(25 * k * k * k * k + 975 * k);
    t.skill_credits.push_back(n > 1 && n % 5 == 0 ? 1U : 0U);
  }
  return t;
}

QualityFilter demo_enchantable_filter() {
  QualityFilter f;
  f.int_stats = {28, 44};  // made-up choice of int properties enchantments may raise
  f.float_stats = {22, 29};
  f.attribute_stats = {kStrength, kEndurance, kQuickness, kCoordination, kFocus, kSelf};
  f.attribute2nd_stats = {1, 3, 5};  // maximum health, stamina, mana
  f.skill_stats = {kSkillMeleeDefense, kSkillMagicDefense, kSkillJump, kSkillRun, kSkillWarMagic, kSkillLightWeapons};
  return f;
}

void add_tables(Records& out) {
  PaletteSet set;
  set.id = kDemoPaletteSet;
  set.palettes = {kClothPalette};
  out.push_back({kDemoPaletteSet, write_palette_set(set)});
  out.push_back({kCharGenId, write_char_gen(demo_char_gen())});
  // The human's parts: 0 torso, 1 head, 2 and 3 arms, 4 and 5 legs.
  const ClothingTable clothing[] = {
      demo_clothing(kDemoCap.clothing_table, {{1, kHeadMesh}}, 0x05000003),
      demo_clothing(kDemoShirt.clothing_table, {{0, kTorsoMesh}, {2, kArmMesh}, {3, kArmMesh}}, 0x05000002),
      demo_clothing(kDemoPants.clothing_table, {{4, kLegMesh}, {5, kLegMesh}}, 0x05000002),
      demo_clothing(kDemoShoes.clothing_table, {{4, kLegMesh}, {5, kLegMesh}}, 0x05000004),
  };
  for (const auto& t : clothing) out.push_back({t.id, write_clothing_table(t)});
  VitalTable vitals;
  vitals.max_health = formula(kEndurance, 0, 2);
  vitals.max_stamina = formula(kEndurance, 0, 1);
  vitals.max_mana = formula(kSelf, 0, 1);
  out.push_back({kVitalTableId, write_vital_table(vitals)});
  out.push_back({kSkillTableId, write_skill_table(demo_skill_table())});
  out.push_back({kSpellTableId, write_spell_table(demo_spell_table())});
  out.push_back({kSpellComponentTableId, write_spell_component_table(demo_spell_components())});
  out.push_back({kXpTableId, write_xp_table(demo_xp_table())});
  out.push_back({kEnchantableFilterId, write_quality_filter(demo_enchantable_filter())});
}

// The landblock at block (bx, by), its terrain from the world-wide vertex
// functions; only the centre has objects (its LandBlockInfo).
LandBlock demo_land_block(std::uint32_t bx, std::uint32_t by) {
  constexpr auto kCentreX = static_cast<int>((kLandBlock >> 24) & 0xFFU);
  constexpr auto kCentreY = static_cast<int>((kLandBlock >> 16) & 0xFFU);
  constexpr int kSide = static_cast<int>(kLandBlockCellSide);
  LandBlock b;
  b.id = (bx << 24) | (by << 16) | 0xFFFFU;
  b.has_objects = b.id == kLandBlock ? 1 : 0;
  const int x0 = (static_cast<int>(bx) - kCentreX) * kSide;
  const int y0 = (static_cast<int>(by) - kCentreY) * kSide;
  for (std::size_t x = 0; x < kLandBlockSide; ++x) {
    for (std::size_t y = 0; y < kLandBlockSide; ++y) {
      const int gx = x0 + static_cast<int>(x), gy = y0 + static_cast<int>(y);
      b.height[land_block_vertex(x, y)] = vertex_height(gx, gy);
      b.terrain[land_block_vertex(x, y)] = vertex_terrain(gx, gy);
    }
  }
  return b;
}

Records cell_records() {
  Records out;
  for (std::uint32_t bx = kWorldWest; bx <= kWorldEast; ++bx) {
    for (std::uint32_t by = kWorldSouth; by <= kWorldNorth; ++by) {
      const LandBlock block = demo_land_block(bx, by);
      out.push_back({block.id, write_land_block(block)});
    }
  }
  const LandBlock b = demo_land_block(kLandBlock >> 24, (kLandBlock >> 16) & 0xFFU);
  LandBlockInfo info;
  info.id = kLandBlockInfo;
  const std::pair<Did, glm::vec3> statics[] = {
      {kTreeSetup, {40, 60, 0}}, {kTreeSetup, {130, 40, 0}}, {kTreeSetup, {120, 168, 0}},
      {kRockMesh, {90, 120, 0}}, {kRockMesh, {60, 150, 0}},
  };
  for (const auto& [id, where] : statics) {
    const auto vx = static_cast<std::size_t>(where.x / kLandCellLength);
    const auto vy = static_cast<std::size_t>(where.y / kLandCellLength);
    const float z = static_cast<float>(b.height[land_block_vertex(vx, vy)]) * 0.5F;
    info.objects.push_back(Stab{id, Frame{{where.x, where.y, z}, glm::quat(1, 0, 0, 0)}});
  }
  // The house over its room: the building's two doors lead into the room
  // (its portals 0 and 1), the room's two portals lead outside.
  const Frame house_frame{{kRoomOriginX, kRoomOriginY, kRoomOriginZ}, glm::quat(1, 0, 0, 0)};
  BuildingInfo house;
  house.model_id = kHouseModel;
  house.frame = house_frame;
  house.num_leaves = 1;
  // Each door sees the room (its stab list: CLandBlock::init_buildings
  // gathers it, and LScape's grab makes the room visible from outside).
  const auto room_low = static_cast<std::uint16_t>(kRoomCell & 0xFFFFU);
  house.portals = {BuildingPortal{0, room_low, 0, {room_low}}, BuildingPortal{0, room_low, 1, {room_low}}};
  info.buildings = {house};
  info.num_cells = 1;
  out.push_back({kLandBlockInfo, write_land_block_info(info)});
  EnvCell room;
  room.id = kRoomCell;
  room.flags = env_cell_flags::kSeenOutside;
  room.surfaces = {static_cast<std::uint16_t>(kPlankSurface & 0xFFFFU),
                   static_cast<std::uint16_t>(kPlasterSurface & 0xFFFFU)};
  room.environment_id = static_cast<std::uint16_t>(kRoomEnvironment & 0xFFFFU);
  room.cell_struct = 0;
  room.position = house_frame;
  constexpr std::uint16_t kLeadsOutside = 4;
  room.portals = {CellPortal{kLeadsOutside, 0, kCellPortalOutside, 0},
                  CellPortal{kLeadsOutside, 1, kCellPortalOutside, 1}};
  out.push_back({kRoomCell, write_env_cell(room)});
  add_dungeon_cells(out);
  return out;
}

}  // namespace

core::Result<DemoWorld> build_demo_world() {
  Records portal;
  add_textures(portal);
  add_meshes(portal);
  add_setups(portal);
  add_house(portal);
  add_dungeon(portal);
  add_animation(portal);
  add_particles(portal);
  add_scripts(portal);
  add_sound(portal);
  add_region(portal);
  add_scenes(portal);
  add_tables(portal);
  DemoWorld world;
  DERETH_TRY(world.portal, build_dat(portal, DatWriterOptions{DatKind::Portal}));
  const Records cells = cell_records();
  DERETH_TRY(world.cell, build_dat(cells, DatWriterOptions{DatKind::Cell}));
  return world;
}

core::Result<void> write_demo_world(const std::filesystem::path& folder) {
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) return std::unexpected(core::Error{core::ErrorKind::Io, folder.string(), "folder", 0, ec.message()});
  DERETH_TRY(const auto world, build_demo_world());
  DERETH_CHECK(core::write_file_atomic(folder / "client_portal.dat", world.portal));
  DERETH_CHECK(core::write_file_atomic(folder / "client_cell_1.dat", world.cell));
  return {};
}

}  // namespace dereth::demo
