// Headless OpenGL tests: EGL surfaceless (Mesa llvmpipe on machines without a
// GPU). Without a usable EGL these tests print why and pass with a WARN,
// unless DERETH_REQUIRE_GL=1, when they fail.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/surface.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/render/camera.hpp"
#include "dereth/render/headless_context.hpp"
#include "dereth/render/image.hpp"
#include "dereth/render/renderer.hpp"
#include "dereth/render/terrain.hpp"

#include "support/gl_context.hpp"
#include "support/temp_dir.hpp"

using namespace dereth;
using render::Camera;
using render::Image;
using render::Renderer;

namespace {

using Px = std::array<std::uint8_t, 4>;

struct DemoDats {
  dat::DatFile portal;
  dat::DatFile cell;
};

const DemoDats& demo() {
  static const auto* dats = [] {
    auto world = demo::build_demo_world();
    REQUIRE(world.has_value());
    auto portal = dat::DatFile::from_bytes(world->portal, "demo_portal");
    auto cell = dat::DatFile::from_bytes(world->cell, "demo_cell");
    REQUIRE(portal.has_value());
    REQUIRE(cell.has_value());
    return new DemoDats{std::move(*portal), std::move(*cell)};
  }();
  return *dats;
}

// The demo portal's Region as a world hands it to the renderer (the renderer
// reads none itself): decoded once, through a record cache.
dat::RecordCache& demo_records() {
  static auto* records = new dat::RecordCache(&demo().portal);
  return *records;
}

std::shared_ptr<const dat::Region> demo_region() {
  auto region = demo_records().region(demo::kRegion);
  REQUIRE(region != nullptr);
  return region;
}

std::unique_ptr<Renderer> make_renderer(bool terrain, bool with_cell = false) {
  render::RendererOptions options;
  options.draw_terrain = terrain;
  options.draw_sky_objects = false;  // these tests read the background where the demo's sky dome would be
  auto r =
      Renderer::create(render::HeadlessContext::loader(), &demo().portal, with_cell ? &demo().cell : nullptr, options);
  if (!r) FAIL(r.error().message());
  (*r)->set_region(demo_region());
  return std::move(*r);
}

Px sky(const Renderer& r) {
  const auto& c = r.options().clear_color;
  const auto unorm = [](float f) { return static_cast<std::uint8_t>(f * 255.0F + 0.5F); };
  return {unorm(c[0]), unorm(c[1]), unorm(c[2]), 255};
}

bool near(const Px& a, const Px& b, int tolerance) {
  for (std::size_t i = 0; i < 4; ++i) {
    if (std::abs(static_cast<int>(a[i]) - static_cast<int>(b[i])) > tolerance) return false;
  }
  return true;
}

Px at(const Image& img, glm::vec2 p) {
  return img.at(static_cast<int>(p.x), static_cast<int>(p.y));
}

sim::ObjectSnapshot marker_object(glm::vec3 where, std::uint32_t guid = 0x50000001, bool player = true) {
  sim::ObjectSnapshot o;
  o.id = static_cast<sim::LocalId>(guid & 0xFF);
  o.guid = guid;
  o.root.origin = where;
  o.is_player = player;
  return o;
}

constexpr glm::vec3 kSpot{100.0F, 100.0F, 50.0F};
constexpr dat::Did kGlowTexture = 0x05000006;  // the demo's DXT5 radial glow

// A non-player object at kSpot drawn by one part: the demo GfxObj `gfx_obj`, also at kSpot.
sim::ObjectSnapshot object_with_part(std::uint32_t guid, std::uint32_t gfx_obj) {
  auto obj = marker_object(kSpot, guid, false);
  sim::PartPose part;
  part.gfx_obj = gfx_obj;
  part.frame.origin = kSpot;
  obj.parts.push_back(part);
  return obj;
}

Camera looking_north_at(glm::vec3 target, float distance) {
  return Camera::look_at(target - glm::vec3(0.0F, distance, 0.0F), target);
}

}  // namespace

TEST_CASE("Headless: a marker object and an emitter's particles are drawn where the camera projects them",
          "[render][gl]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer(false);
  sim::RenderSnapshot snap;
  snap.objects.push_back(marker_object(kSpot));  // no parts: the marker cube, 0.6 m, base at the origin
  sim::EmitterSnapshot emitter;
  emitter.texture = kGlowTexture;
  emitter.particles.push_back(sim::ParticleSnapshot{kSpot + glm::vec3(-1.0F, 0.0F, 0.3F), 1.0F, 1.0F});
  snap.emitters.push_back(emitter);

  const glm::vec3 marker_centre = kSpot + glm::vec3(0.0F, 0.0F, 0.3F);
  const Camera cam = looking_north_at(marker_centre, 3.0F);
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  const Image img = renderer->read_pixels();
  REQUIRE(img.width == 64);
  REQUIRE(img.height == 64);
  CHECK(renderer->stats().markers == 1);
  CHECK(renderer->stats().particles_drawn == 1);

  const Px background = sky(*renderer);
  // The marker: the player's yellow at its projected centre and a few pixels around.
  const auto centre = cam.project(marker_centre, 64, 64);
  REQUIRE(centre.has_value());
  CHECK(centre->x == Approx(32.0F).margin(0.01));
  for (const glm::vec2 d : {glm::vec2(0, 0), glm::vec2(3, 0), glm::vec2(-3, 0), glm::vec2(0, 3), glm::vec2(0, -3)}) {
    const Px p = at(img, *centre + d);
    INFO("marker pixel at offset " << d.x << "," << d.y << ": " << int(p[0]) << " " << int(p[1]) << " " << int(p[2]));
    CHECK(p[0] > 200);
    CHECK(p[1] > 150);
    CHECK(p[2] < 100);
  }
  // Just beyond the cube's projected edge (0.3 m at 2.7 m): background.
  const auto beside = cam.project(marker_centre + glm::vec3(0.5F, -0.3F, 0.0F), 64, 64);
  REQUIRE(beside.has_value());
  CHECK(near(at(img, *beside), background, 1));

  // The particle: a camera-facing glow blended over the sky at its projected position.
  const auto particle = cam.project(kSpot + glm::vec3(-1.0F, 0.0F, 0.3F), 64, 64);
  REQUIRE(particle.has_value());
  const Px glow = at(img, *particle);
  INFO("particle pixel " << int(glow[0]) << " " << int(glow[1]) << " " << int(glow[2]));
  CHECK(glow[0] > background[0] + 20);

  // Everywhere else: the background.
  for (const auto& corner :
       {glm::vec2(0, 0), glm::vec2(63, 0), glm::vec2(0, 63), glm::vec2(63, 63), glm::vec2(55, 32)}) {
    CHECK(near(at(img, corner), background, 1));
  }
  std::size_t non_background = 0;
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x) non_background += near(img.at(x, y), background, 1) ? 0U : 1U;
  }
  CHECK(non_background > 60);  // the marker (about 11x11) and the glow
  CHECK(non_background < 64 * 20);
  CHECK(img.at(5, 5)[3] == 255);  // alpha stays opaque for screenshots
}

TEST_CASE("Headless: Hidden, NoDraw and fully translucent things draw nothing, the picture follows the scene",
          "[render][gl]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer(false);
  const glm::vec3 centre = kSpot + glm::vec3(0.0F, 0.0F, 0.3F);
  const Camera cam = looking_north_at(centre, 3.0F);
  const Image empty_sky(64, 64, sky(*renderer));

  const auto render = [&](const sim::RenderSnapshot& s) {
    REQUIRE(renderer->render(s, cam, 64, 64).has_value());
    return renderer->read_pixels();
  };

  sim::RenderSnapshot snap;
  snap.objects.push_back(marker_object(kSpot));
  const Image shown = render(snap);
  CHECK(render::compare_images(shown, empty_sky, 1).differing_pixels > 50);

  snap.objects[0].hidden = true;
  CHECK(render::compare_images(render(snap), empty_sky, 1).differing_pixels == 0);
  CHECK(renderer->stats().objects_skipped == 1);
  snap.objects[0].hidden = false;
  snap.objects[0].no_draw = true;
  CHECK(render::compare_images(render(snap), empty_sky, 1).differing_pixels == 0);
  snap.objects[0].no_draw = false;
  snap.objects[0].translucency = 1.0F;  // CPhysicsPart::SetTranslucency: exactly 1 is not drawn
  CHECK(render::compare_images(render(snap), empty_sky, 1).differing_pixels == 0);
  snap.objects[0].translucency = 0.5F;  // half translucent: drawn, blended with the sky
  const Image half = render(snap);
  CHECK(render::compare_images(half, empty_sky, 1).differing_pixels > 50);
  CHECK(render::compare_images(half, shown, 1).differing_pixels > 50);
  snap.objects[0].translucency = 0.0F;

  // An object whose only part is no_draw draws nothing (no marker either).
  sim::PartPose hidden_part;
  hidden_part.gfx_obj = 0x01000001;
  hidden_part.no_draw = true;
  snap.objects[0].parts.push_back(hidden_part);
  CHECK(render::compare_images(render(snap), empty_sky, 1).differing_pixels == 0);
  snap.objects[0].parts.clear();

  // A particle with alpha 0 (translucency 1) is not drawn.
  sim::EmitterSnapshot emitter;
  emitter.texture = kGlowTexture;
  emitter.particles.push_back(sim::ParticleSnapshot{kSpot + glm::vec3(-1.0F, 0.0F, 0.3F), 1.0F, 0.0F});
  sim::RenderSnapshot only_particle;
  only_particle.emitters.push_back(emitter);
  CHECK(render::compare_images(render(only_particle), empty_sky, 1).differing_pixels == 0);

  // Moving the object changes the picture; putting it back restores it exactly.
  snap.objects[0].root.origin += glm::vec3(0.8F, 0.0F, 0.0F);
  const Image moved = render(snap);
  CHECK(render::compare_images(moved, shown, 1).differing_pixels > 20);
  snap.objects[0].root.origin -= glm::vec3(0.8F, 0.0F, 0.0F);
  CHECK(render::compare_images(render(snap), shown, 0).differing_pixels == 0);
}

TEST_CASE("Headless: GfxObj parts draw from the DAT, a part that will not load falls back to the marker",
          "[render][gl]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer(false);
  const Camera cam = looking_north_at(kSpot + glm::vec3(0.0F, 0.0F, 0.3F), 2.0F);
  const Image empty_sky(64, 64, sky(*renderer));

  sim::RenderSnapshot snap;
  // The demo torso: a 0.44 x 0.24 x 0.6 m cloth-textured box.
  snap.objects.push_back(object_with_part(0x50000002, 0x01000001));
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  const Image body = renderer->read_pixels();
  CHECK(renderer->stats().parts_drawn == 1);
  CHECK(renderer->stats().markers == 0);
  CHECK(renderer->stats().parts_missing == 0);
  const Px mid = body.at(32, 32);
  INFO("torso pixel " << int(mid[0]) << " " << int(mid[1]) << " " << int(mid[2]));
  CHECK(mid[2] > mid[0]);  // the cloth texture is blue
  CHECK_FALSE(near(mid, sky(*renderer), 8));

  // Translucency exactly 1 hides the part (and no marker replaces it).
  snap.objects[0].parts[0].translucency = 1.0F;
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  CHECK(render::compare_images(renderer->read_pixels(), empty_sky, 1).differing_pixels == 0);
  CHECK(renderer->stats().markers == 0);

  // A GfxObj that is not in the DAT: logged once, the object shows as the marker.
  snap.objects[0].parts[0].translucency = 0.0F;
  snap.objects[0].parts[0].gfx_obj = 0x0100DEAD;
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  CHECK(renderer->stats().parts_missing == 1);
  CHECK(renderer->stats().markers == 1);
  CHECK(render::compare_images(renderer->read_pixels(), empty_sky, 1).differing_pixels > 50);
}

TEST_CASE("Headless: the renderer reads its GfxObjs, Surfaces and textures through the record cache it is handed",
          "[render][gl]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer(false);
  const Camera cam = looking_north_at(kSpot + glm::vec3(0.0F, 0.0F, 0.3F), 2.0F);
  sim::RenderSnapshot snap;
  auto obj = object_with_part(0x50000002, 0x01000001);
  obj.parts.push_back(obj.parts[0]);
  obj.parts[1].gfx_obj = 0x0100BEEF;  // not in the DAT
  snap.objects.push_back(obj);

  // The world's cache, as a frame loop hands it over (World::shared_records):
  // the torso's GfxObj, its Surface and texture are decoded there, and the
  // missing GfxObj is remembered there with why (the QA report's list).
  auto world_records = std::make_shared<dat::RecordCache>(demo_records().portal());
  renderer->set_records(world_records);
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  CHECK(renderer->stats().parts_drawn == 1);
  CHECK(world_records->size() >= 3);  // GfxObj, Surface, SurfaceTexture (and what they name)
  const auto missing = world_records->find_missing("GfxObj", 0x0100BEEF);
  REQUIRE(missing.has_value());
  CHECK_FALSE(missing->why.empty());
  // The record the renderer asked for is the one the simulation gets: the same decoded object.
  const std::size_t asked = world_records->size();
  CHECK(world_records->gfx_obj(0x01000001) != nullptr);
  CHECK(world_records->size() == asked);

  // Taken back (null): its own cache; nothing more reaches the world's.
  renderer->set_records(nullptr);
  snap.objects[0].parts[0].gfx_obj = 0x01000002;
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  CHECK(world_records->size() == asked);
}

TEST_CASE("Headless: a part's ObjDesc texture changes draw its surface with the new texture", "[render][gl][objdesc]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer(false);
  const Camera cam = looking_north_at(kSpot + glm::vec3(0.0F, 0.0F, 0.3F), 2.0F);
  sim::RenderSnapshot snap;
  // The demo torso, its surface textured with the cloth (0x05000002).
  snap.objects.push_back(object_with_part(0x50000002, 0x01000001));
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  const Image cloth = renderer->read_pixels();
  REQUIRE(cloth.at(32, 32)[2] > cloth.at(32, 32)[1]);  // blue cloth

  // The cloth swapped for the leaf texture (green): the surface draws green.
  snap.objects[0].parts[0].texture_changes = {{0x05000002, 0x05000005}};
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  const Px leaf = renderer->read_pixels().at(32, 32);
  INFO("swapped pixel " << int(leaf[0]) << " " << int(leaf[1]) << " " << int(leaf[2]));
  CHECK(leaf[1] > leaf[2]);
  CHECK(renderer->stats().parts_drawn == 1);

  // The last change naming a texture wins.
  snap.objects[0].parts[0].texture_changes = {{0x05000002, 0x05000005}, {0x05000002, 0x05000003}};
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  const Image stone = renderer->read_pixels();
  CHECK_FALSE(near(stone.at(32, 32), leaf, 8));

  // A change naming a texture the part does not draw, and one to a texture
  // not in the DAT (logged once), leave the cloth.
  snap.objects[0].parts[0].texture_changes = {{0x05000001, 0x05000005}};
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  CHECK(render::compare_images(renderer->read_pixels(), cloth, 1).differing_pixels == 0);
  snap.objects[0].parts[0].texture_changes = {{0x05000002, 0x0500DEAD}};
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  CHECK(render::compare_images(renderer->read_pixels(), cloth, 1).differing_pixels == 0);
}

TEST_CASE(
    "Headless: an ObjDesc's composed palette recolours the palettized surfaces of the parts whose palette is "
    "its base (CPartArray::SetPalette 0x00518E10, Palette::makeModifiedPalette 0x0053E3C0)",
    "[render][gl][objdesc][palette][retail]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer(false);
  const Camera cam = looking_north_at(kSpot + glm::vec3(0.0F, 0.0F, 0.12F), 0.6F);
  // The demo head: a box of the skin Surface, a P8 texture whose default
  // palette is the human palette 0x04000010 (skin colours 0..191).
  constexpr dat::Did kHumanPalette = 0x04000010;
  constexpr dat::Did kDarkSkin = 0x04000014;  // the skin PaletteSet's darkest
  sim::RenderSnapshot snap;
  snap.objects.push_back(object_with_part(0x50000003, 0x01000002));
  const auto draw = [&](const sim::PaletteChange& palette) {
    snap.objects[0].palette = palette;
    REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
    return renderer->read_pixels();
  };
  const Image plain = draw({});
  const Px skin = plain.at(32, 32);
  INFO("plain skin " << int(skin[0]) << " " << int(skin[1]) << " " << int(skin[2]));
  REQUIRE(skin[0] > 150);  // the default skin: light, reddish
  REQUIRE(skin[0] > skin[2]);

  // The dark skin's colours over 0..191 of the base: the head draws dark.
  const Image dark = draw({kHumanPalette, {{kDarkSkin, 0, 192}}});
  const Px d = dark.at(32, 32);
  INFO("dark skin " << int(d[0]) << " " << int(d[1]) << " " << int(d[2]));
  CHECK(d[0] + 60 < skin[0]);
  CHECK(d[0] > d[2]);  // still a skin colour, not grey
  CHECK(render::compare_images(dark, plain, 8).differing_pixels > 500);
  // Drawn twice, the same (the composition and its texture are cached by their content).
  CHECK(render::compare_images(draw({kHumanPalette, {{kDarkSkin, 0, 192}}}), dark, 0).differing_pixels == 0);

  // A range outside the skin's indices (the eyes' 256..319) changes nothing on it.
  CHECK(render::compare_images(draw({kHumanPalette, {{kDarkSkin, 256, 64}}}), plain, 1).differing_pixels == 0);
  // A base that is not the part's palette: the part keeps its own.
  CHECK(render::compare_images(draw({0x04000011, {{kDarkSkin, 0, 192}}}), plain, 1).differing_pixels == 0);
  // Compositions that make no palette (logged once) leave the part as it is:
  // a subpalette not in the DAT, a base not in the DAT, a range past 2048
  // colours (offset 255 x 8 and 256 x 8 colours from the wire), id 0.
  for (const sim::PaletteChange& bad :
       {sim::PaletteChange{kHumanPalette, {{0x0400DEAD, 0, 192}}},
        sim::PaletteChange{0x0400DEAD, {{kDarkSkin, 0, 192}}},
        sim::PaletteChange{kHumanPalette, {{kDarkSkin, 2040, 2048}}}, sim::PaletteChange{kHumanPalette, {{0, 0, 192}}},
        sim::PaletteChange{0, {{kDarkSkin, 0, 192}}}}) {
    CHECK(render::compare_images(draw(bad), plain, 1).differing_pixels == 0);
    CHECK(renderer->stats().parts_drawn == 1);
  }
  // The cloth torso (an R8G8B8 texture, no palette) ignores any palette.
  snap.objects[0].parts[0].gfx_obj = 0x01000001;
  snap.objects[0].parts[0].frame.origin = kSpot - glm::vec3(0.0F, 0.0F, 0.2F);
  const Image torso = draw({});
  CHECK(render::compare_images(draw({kHumanPalette, {{kDarkSkin, 0, 2048}}}), torso, 1).differing_pixels == 0);
}

TEST_CASE("Headless: the demo landblock's terrain fills the ground below the sky", "[render][gl]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer(true, true);
  const glm::vec3 block = render::land_block_origin(demo::kLandBlock);
  const glm::vec3 centre = block + glm::vec3(96.0F, 96.0F, 20.0F);
  const Camera cam = Camera::look_at(centre + glm::vec3(0.0F, -80.0F, 40.0F), centre);
  sim::RenderSnapshot snap;
  snap.lights.push_back(sim::LightSnapshot{sim::LocalId::None, centre + glm::vec3(0, 0, 3), glm::vec4(1, 0.5F, 0.2F, 1),
                                           1.0F, 10.0F, 0.0F});
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  const Image img = renderer->read_pixels();
  // The 3 x 3 landblocks within terrain_radius 1 of the camera (the demo
  // world is 7 x 7; the rest are beyond the radius and never loaded): the
  // camera stands in the centre block looking north, the southern row behind it.
  CHECK(renderer->stats().terrain_blocks == 6);
  CHECK(renderer->stats().terrain_blocks_culled == 3);
  CHECK(renderer->stats().lights == 1);
  const Px background = sky(*renderer);
  CHECK_FALSE(near(img.at(32, 40), background, 4));  // the ground in the lower half
  CHECK(near(img.at(32, 0), background, 1));         // the sky at the top
  // Drawing the same snapshot twice gives the same picture.
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  CHECK(render::compare_images(renderer->read_pixels(), img, 0).differing_pixels == 0);
  // The light brightens the ground under it and leaves the far ground alone.
  const sim::RenderSnapshot dark;
  REQUIRE(renderer->render(dark, cam, 64, 64).has_value());
  const Image unlit = renderer->read_pixels();
  CHECK(renderer->stats().lights == 0);
  const auto under = cam.project(centre, 64, 64);
  REQUIRE(under.has_value());
  const Px lit_px = at(img, *under);
  const Px dark_px = at(unlit, *under);
  INFO("under the light: " << int(lit_px[0]) << " vs " << int(dark_px[0]));
  CHECK(lit_px[0] > dark_px[0]);
  CHECK(near(img.at(2, 62), unlit.at(2, 62), 0));
  // Timing counters advance.
  CHECK(renderer->timing_totals().frames == 3);
  CHECK(renderer->last_timing().submit >= 0.0);
  CHECK(renderer->last_timing().readback >= 0.0);
}

namespace {

// A cell DAT holding the demo landblock's bytes under every id given.
dat::DatFile cell_with_blocks(const std::vector<std::uint32_t>& ids) {
  auto bytes = demo().cell.read(demo::kLandBlock);
  REQUIRE(bytes.has_value());
  auto block = dat::read_land_block(*bytes, demo::kLandBlock);
  REQUIRE(block.has_value());
  std::vector<dat::DatRecord> records;
  for (const std::uint32_t id : ids) {
    dat::LandBlock b = *block;
    b.id = id;
    b.has_objects = 0;
    records.push_back({id, dat::write_land_block(b)});
  }
  auto built = dat::build_dat(records, dat::DatWriterOptions{dat::DatKind::Cell});
  REQUIRE(built.has_value());
  auto file = dat::DatFile::from_bytes(std::move(*built), "terrain cache cell");
  REQUIRE(file.has_value());
  return std::move(*file);
}

constexpr std::uint32_t block_id(std::uint32_t x, std::uint32_t y) {
  return (x << 24) | (y << 16) | 0xFFFFU;
}

std::unique_ptr<Renderer> make_renderer(const dat::DatFile& cell, const render::RendererOptions& options) {
  auto r = Renderer::create(render::HeadlessContext::loader(), &demo().portal, &cell, options);
  if (!r) FAIL(r.error().message());
  (*r)->set_region(demo_region());
  return std::move(*r);
}

// Looking down at the middle of landblock (x, y).
Camera over_block(std::uint32_t x, std::uint32_t y) {
  const glm::vec3 centre = render::land_block_origin(block_id(x, y)) + glm::vec3(96.0F, 96.0F, 20.0F);
  return Camera::look_at(centre + glm::vec3(0.0F, -60.0F, 80.0F), centre);
}

}  // namespace

TEST_CASE(
    "Headless: a landblock in the cell DAT that does not read is drawn as the landscape loads it, flat ground, "
    "while one absent from the DAT is nothing",
    "[render][gl][terrain][streaming]") {
  DERETH_GL_OR_RETURN();
  constexpr std::uint32_t kCorrupt = block_id(0x05, 0x05);
  const std::vector<dat::DatRecord> records = {{kCorrupt, {0x01, 0x02, 0x03}}};  // three bytes of a LandBlock
  auto built = dat::build_dat(records, dat::DatWriterOptions{dat::DatKind::Cell});
  REQUIRE(built.has_value());
  auto file = dat::DatFile::from_bytes(std::move(*built), "corrupt cell");
  REQUIRE(file.has_value());
  render::RendererOptions options;
  options.terrain_radius = 0;
  options.draw_sky_objects = false;  // the background is the clear colour
  const auto made = make_renderer(*file, options);
  Renderer& renderer = *made;
  const sim::RenderSnapshot snap;
  REQUIRE(renderer.render(snap, over_block(0x05, 0x05), 64, 64).has_value());
  CHECK(renderer.stats().terrain_blocks == 1);
  CHECK(renderer.terrain_cache_stats().built == 1);
  CHECK(renderer.landblock_ready(kCorrupt));
  // Looking down at it: ground, not the sky behind a hole, and one flat colour-lit plane.
  const Image ground = renderer.read_pixels();
  CHECK(ground.at(32, 40) != sky(renderer));
  CHECK(ground.at(32, 32) != sky(renderer));

  // A block the DAT does not have stays a hole: the sky shows through.
  REQUIRE(renderer.render(snap, over_block(0x06, 0x06), 64, 64).has_value());
  CHECK(renderer.stats().terrain_blocks == 0);
  CHECK(renderer.landblock_ready(block_id(0x06, 0x06)));  // known absent: nothing to wait for
  CHECK(renderer.read_pixels().at(32, 40) == sky(renderer));
}

TEST_CASE("Headless: the terrain surface cache composites each landblock once and frees it on unload",
          "[render][gl][terrain]") {
  DERETH_GL_OR_RETURN();
  // 3x4 landblocks at 0xA8..0xAA x 0xB3..0xB6, and one far away at 0x10 0x10.
  std::vector<std::uint32_t> ids;
  for (std::uint32_t x = 0xA8; x <= 0xAA; ++x) {
    for (std::uint32_t y = 0xB3; y <= 0xB6; ++y) ids.push_back(block_id(x, y));
  }
  ids.push_back(block_id(0x10, 0x10));
  const dat::DatFile cell = cell_with_blocks(ids);
  render::RendererOptions options;
  const auto made = make_renderer(cell, options);
  Renderer& renderer = *made;
  const sim::RenderSnapshot snap;
  const auto& cache = renderer.terrain_cache_stats();

  // The first frame over 0xA9B4 brings its 3x3 ring: nine composites.
  REQUIRE(renderer.render(snap, over_block(0xA9, 0xB4), 64, 64).has_value());
  // All nine are loaded; those outside the view are culled, not drawn.
  CHECK(renderer.stats().terrain_blocks + renderer.stats().terrain_blocks_culled == 9);
  CHECK(renderer.stats().terrain_blocks_culled > 0);  // the camera looks north: the southern row is behind it
  CHECK(cache.built == 9);
  CHECK(cache.resident == 9);
  CHECK(cache.freed == 0);
  CHECK(cache.resident_bytes == 9 * render::surface_bytes(8 * options.terrain_layer_size));
  const Image first = renderer.read_pixels();
  // Further frames, and a camera that moves within the block, composite nothing.
  for (int i = 0; i < 3; ++i) REQUIRE(renderer.render(snap, over_block(0xA9, 0xB4), 64, 64).has_value());
  Camera nearby = over_block(0xA9, 0xB4);
  nearby.position += glm::vec3(20.0F, 10.0F, 0.0F);
  REQUIRE(renderer.render(snap, nearby, 64, 64).has_value());
  CHECK(cache.built == 9);
  CHECK(cache.freed == 0);
  // The cached surfaces draw the same picture again.
  REQUIRE(renderer.render(snap, over_block(0xA9, 0xB4), 64, 64).has_value());
  CHECK(render::compare_images(renderer.read_pixels(), first, 0).differing_pixels == 0);

  // One block north: only the new row (0xB6) arrives; the 0xB3 row is kept (within the next ring).
  REQUIRE(renderer.render(snap, over_block(0xA9, 0xB5), 64, 64).has_value());
  CHECK(cache.built == 12);
  CHECK(cache.freed == 0);
  CHECK(cache.resident == 12);

  // Far away: every block of the old ring is unloaded and freed, the far block arrives.
  REQUIRE(renderer.render(snap, over_block(0x10, 0x10), 64, 64).has_value());
  CHECK(renderer.stats().terrain_blocks == 1);
  CHECK(cache.built == 13);
  CHECK(cache.freed == 12);
  CHECK(cache.resident == 1);
  CHECK(cache.resident_bytes == render::surface_bytes(8 * options.terrain_layer_size));
  CHECK(cache.evicted == 0);

  // Back again: the ring arrives anew (a block is rebuilt only when it arrives again).
  REQUIRE(renderer.render(snap, over_block(0xA9, 0xB4), 64, 64).has_value());
  CHECK(cache.built == 22);
  CHECK(cache.freed == 13);
  CHECK(render::compare_images(renderer.read_pixels(), first, 0).differing_pixels == 0);
}

TEST_CASE("Headless: the terrain surface cache stays within its memory bound", "[render][gl][terrain]") {
  DERETH_GL_OR_RETURN();
  std::vector<std::uint32_t> ids;
  for (std::uint32_t x = 0xA8; x <= 0xAA; ++x) {
    for (std::uint32_t y = 0xB3; y <= 0xB6; ++y) ids.push_back(block_id(x, y));
  }
  const dat::DatFile cell = cell_with_blocks(ids);
  render::RendererOptions options;
  // Room for the nine blocks in view at a quarter of the full resolution (128 texels a side, not 512).
  options.terrain_cache_bytes = 9 * render::surface_bytes(128) + 1000;
  const auto made = make_renderer(cell, options);
  Renderer& renderer = *made;
  const sim::RenderSnapshot snap;
  const auto& cache = renderer.terrain_cache_stats();
  CHECK(render::surface_side(options.terrain_layer_size, 9, options.terrain_cache_bytes) == 128);

  REQUIRE(renderer.render(snap, over_block(0xA9, 0xB4), 64, 64).has_value());
  CHECK(cache.built == 9);
  CHECK(cache.resident_bytes == 9 * render::surface_bytes(128));
  const Image low = renderer.read_pixels();
  CHECK_FALSE(near(low.at(32, 50), sky(renderer), 4));  // still terrain

  // Moving north, the three new blocks evict the three least recently drawn (the 0xB3 row).
  REQUIRE(renderer.render(snap, over_block(0xA9, 0xB5), 64, 64).has_value());
  CHECK(renderer.stats().terrain_blocks + renderer.stats().terrain_blocks_culled == 9);
  CHECK(cache.built == 12);
  CHECK(cache.evicted == 3);
  CHECK(cache.freed == 3);
  CHECK(cache.resident == 9);
  CHECK(cache.peak_bytes <= options.terrain_cache_bytes);
  // Going back brings the evicted row in again, evicting the 0xB6 row.
  REQUIRE(renderer.render(snap, over_block(0xA9, 0xB4), 64, 64).has_value());
  CHECK(cache.built == 15);
  CHECK(cache.evicted == 6);
  CHECK(cache.peak_bytes <= options.terrain_cache_bytes);
}

TEST_CASE("Headless: bad target sizes are errors, not crashes, screenshots need a frame", "[render][gl]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer(false);
  const dereth::test::TempDir tmp("render-screenshot");
  const auto& dir = tmp.path();
  CHECK_FALSE(renderer->write_screenshot(dir / "none.png").has_value());
  CHECK_FALSE(std::filesystem::exists(dir / "none.png"));
  sim::RenderSnapshot snap;
  CHECK_FALSE(renderer->render(snap, Camera{}, 0, 64).has_value());
  CHECK_FALSE(renderer->render(snap, Camera{}, 64, -1).has_value());
  CHECK_FALSE(renderer->render(snap, Camera{}, 100000, 64).has_value());
  REQUIRE(renderer->render(snap, Camera{}, 17, 9).has_value());
  const Image img = renderer->read_pixels();
  CHECK(img.width == 17);
  CHECK(img.height == 9);
  // --screenshot: the same pixels through a PNG.
  snap.objects.push_back(marker_object(kSpot));
  REQUIRE(renderer->render(snap, looking_north_at(kSpot, 3.0F), 40, 30).has_value());
  REQUIRE(renderer->write_screenshot(dir / "shot.png").has_value());
  auto back = render::read_png(dir / "shot.png");
  REQUIRE(back.has_value());
  CHECK(*back == renderer->read_pixels());
}

// Not run by ctest (hidden tag): frame time of the demo at 1280x720; with
// DERETH_SCREENSHOT_DIR set, the first frame is written there as a PNG.
namespace {

constexpr dat::Did kTorsoMesh = 0x01000001;  // the demo torso: an opaque 0.44 x 0.24 x 0.6 m cloth box
constexpr dat::Did kBladeMesh = 0x01000012;  // a 0.5 x 0.04 x 0.5 m plate, no degrade info (mode 1)
constexpr dat::Did kSparkMesh = 0x01000020;  // the demo spark: degrade info with mode 2 (faces the viewer)

sim::ObjectSnapshot torso_object(sim::LocalId id, glm::vec3 where, float translucency) {
  sim::ObjectSnapshot o;
  o.id = id;
  o.guid = 0x50000100U + static_cast<std::uint32_t>(id);
  o.root.origin = where;
  sim::PartPose part;
  part.gfx_obj = kTorsoMesh;
  part.frame.origin = where;
  part.translucency = translucency;
  o.parts.push_back(part);
  return o;
}

const dat::DatFile& demo_portal() {
  return demo().portal;
}
const dat::DatFile& demo_cell() {
  return demo().cell;
}

std::size_t count_not_sky(const Image& img, const Px& background) {
  std::size_t n = 0;
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) {
      if (!near(img.at(x, y), background, 2)) ++n;
    }
  }
  return n;
}

}  // namespace

TEST_CASE(
    "Headless: translucent parts and particles are drawn after the opaque world, farthest first, as retail's "
    "alpha lists (D3DPolyRender::FlushAlphaList 0x0059D2E0, CShadowPart::insertion_sort 0x006B5130)",
    "[render][gl][sort]") {
  DERETH_GL_OR_RETURN();
  render::RendererOptions options;
  options.record_draw_list = true;
  options.draw_sky_objects = false;  // the sky pass comes first (its own test below)
  auto created = Renderer::create(render::HeadlessContext::loader(), &demo_portal(), &demo_cell(), options);
  REQUIRE(created.has_value());
  (*created)->set_region(demo_region());
  Renderer& renderer = **created;
  const glm::vec3 spot = render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 96.0F, 60.0F);
  const Camera cam = Camera::look_at(spot - glm::vec3(0.0F, 6.0F, 0.0F), spot);

  // In the snapshot's order none is sorted: near translucent, opaque, far translucent, middle translucent.
  sim::RenderSnapshot snap;
  snap.objects.push_back(torso_object(sim::LocalId{1}, spot + glm::vec3(0.0F, -3.0F, 0.0F), 0.5F));  // 3 m
  snap.objects.push_back(torso_object(sim::LocalId{2}, spot, 0.0F));                                 // opaque
  snap.objects.push_back(torso_object(sim::LocalId{3}, spot + glm::vec3(0.0F, 5.0F, 0.0F), 0.4F));   // 11 m
  snap.objects.push_back(torso_object(sim::LocalId{4}, spot + glm::vec3(1.0F, 2.0F, 0.0F), 0.6F));   // 8.1 m
  sim::EmitterSnapshot sparks;
  sparks.owner = sim::LocalId{5};
  sparks.gfx_obj = kSparkMesh;
  sparks.particles.push_back(sim::ParticleSnapshot{spot + glm::vec3(-1.0F, 1.0F, 0.3F), 1.0F, 0.8F});  // 7.1 m
  sparks.particles.push_back(sim::ParticleSnapshot{spot + glm::vec3(0.0F, 8.0F, 0.3F), 1.0F, 0.8F});   // 14 m
  snap.emitters.push_back(sparks);
  REQUIRE(renderer.render(snap, cam, 96, 64).has_value());

  const auto& list = renderer.last_draw_list();
  REQUIRE_FALSE(list.empty());
  CHECK(list.front().kind == render::DrawKind::Terrain);
  // Passes never go back: terrain and opaque parts, then the clip list, then the alpha list.
  std::vector<const render::DrawRecord*> alpha;
  std::size_t terrain = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& r = list[i];
    if (r.kind == render::DrawKind::Terrain) {
      ++terrain;
      CHECK(i + 1 == terrain);  // every terrain draw before any part
    }
    if (i > 0) CHECK(static_cast<int>(list[i - 1].alpha) <= static_cast<int>(r.alpha));
    if (r.alpha == render::AlphaClass::Alpha) alpha.push_back(&r);
  }
  CHECK(terrain == renderer.stats().terrain_blocks);
  const auto opaque_torso =
      std::find_if(list.begin(), list.end(), [](const render::DrawRecord& r) { return r.owner == sim::LocalId{2}; });
  REQUIRE(opaque_torso != list.end());
  CHECK(opaque_torso->alpha == render::AlphaClass::Opaque);
  CHECK(opaque_torso->state.depth_write);
  CHECK_FALSE(opaque_torso->state.blend);

  // The alpha list, farthest first: the far spark, the far torso, the middle one, the near spark, the near torso.
  std::vector<sim::LocalId> owners;
  for (const auto* r : alpha) owners.push_back(r->owner);
  CHECK(owners ==
        std::vector<sim::LocalId>{sim::LocalId{5}, sim::LocalId{3}, sim::LocalId{4}, sim::LocalId{5}, sim::LocalId{1}});
  for (std::size_t i = 1; i < alpha.size(); ++i) CHECK(alpha[i - 1]->distance >= alpha[i]->distance);
  for (const auto* r : alpha) {
    CHECK(r->state.blend);
    CHECK_FALSE(r->state.depth_write);
    // The torso's distance is to its sort centre, 0.3 m above the part's origin.
    if (r->owner == sim::LocalId{3}) CHECK(r->distance == Approx(glm::length(glm::vec3(0.0F, 11.0F, 0.3F))));
    // Particles: the spark's degrade info turns it to the viewer; parts keep their frame.
    CHECK(r->degrade_mode == (r->kind == render::DrawKind::Particle ? 2U : 1U));
    if (r->kind == render::DrawKind::Particle) {
      CHECK(r->gfx_obj == kSparkMesh);
      CHECK(r->surface == 0x08000006);  // the additive glow: Additive puts it in the alpha list, not the clip list
      // SetSurface's state for a translucent part over the clip-mapped glow: plain alpha blending.
      CHECK(r->state ==
            render::D3DPolyRender::set_surface(render::SurfaceInput{
                dat::surface_type::kBase1ClipMap | dat::surface_type::kAdditive | dat::surface_type::kLuminous, 0.0F,
                true, false, true}));
    }
  }
  // The list is the frame's only when asked for.
  renderer.options().record_draw_list = false;
  REQUIRE(renderer.render(snap, cam, 96, 64).has_value());
  CHECK(renderer.last_draw_list().empty());
}

TEST_CASE(
    "Headless: a GfxObj particle is drawn at its snapshot orientation unless its degrade mode turns it to the "
    "viewer (CPhysicsPart::calc_draw_frame 0x0050DFA0)",
    "[render][gl][particles]") {
  DERETH_GL_OR_RETURN();
  render::RendererOptions options;
  options.draw_terrain = false;
  options.record_draw_list = true;
  options.draw_sky_objects = false;  // the sky pass comes first (its own test below)
  auto created = Renderer::create(render::HeadlessContext::loader(), &demo_portal(), nullptr, options);
  REQUIRE(created.has_value());
  (*created)->set_region(demo_region());
  Renderer& renderer = **created;
  const Camera cam = looking_north_at(kSpot, 2.0F);
  const Px background = sky(renderer);
  const glm::quat quarter_turn = glm::angleAxis(glm::radians(90.0F), glm::vec3(0.0F, 0.0F, 1.0F));
  const auto draw = [&](dat::Did gfx_obj, const glm::quat& orientation) {
    sim::RenderSnapshot snap;
    sim::EmitterSnapshot e;
    e.gfx_obj = gfx_obj;
    e.particles.push_back(sim::ParticleSnapshot{kSpot, 1.0F, 0.9F, orientation});
    snap.emitters.push_back(e);
    REQUIRE(renderer.render(snap, cam, 64, 64).has_value());
    REQUIRE(renderer.last_draw_list().size() == 1);
    return renderer.read_pixels();
  };
  // The plate (mode 1): face on at the identity, edge on turned a quarter about +Z.
  const Image face_on = draw(kBladeMesh, glm::quat(1.0F, 0.0F, 0.0F, 0.0F));
  CHECK(renderer.last_draw_list()[0].degrade_mode == 1U);
  const Image edge_on = draw(kBladeMesh, quarter_turn);
  const std::size_t face_pixels = count_not_sky(face_on, background);
  const std::size_t edge_pixels = count_not_sky(edge_on, background);
  INFO("plate face on " << face_pixels << " pixels, edge on " << edge_pixels);
  CHECK(face_pixels > 120);
  CHECK(edge_pixels * 4 < face_pixels);
  // The spark (mode 2) faces the viewer whatever its orientation: the same picture.
  const Image spark = draw(kSparkMesh, glm::quat(1.0F, 0.0F, 0.0F, 0.0F));
  CHECK(renderer.last_draw_list()[0].degrade_mode == 2U);
  CHECK(count_not_sky(spark, background) > 20);
  CHECK(render::compare_images(draw(kSparkMesh, quarter_turn), spark, 0).differing_pixels == 0);
  // An invalid orientation (zero quaternion) is the identity, not a crash.
  CHECK(render::compare_images(draw(kBladeMesh, glm::quat(0.0F, 0.0F, 0.0F, 0.0F)), face_on, 0).differing_pixels == 0);
}

namespace {

// The demo landblock's ground height at block-local (x, y).
float demo_ground(float x, float y) {
  auto region = dat::read_region(*demo_portal().read(demo::kRegion), demo::kRegion);
  auto block = dat::read_land_block(*demo_cell().read(demo::kLandBlock), demo::kLandBlock);
  REQUIRE(region.has_value());
  REQUIRE(block.has_value());
  render::LandBlockStruct s;
  s.construct_vertices(*block, region->land_defs);
  s.construct_polygons(demo::kLandBlock);
  return s.height_at(x, y);
}

}  // namespace

TEST_CASE(
    "Headless: textures are filtered trilinearly, and anisotropically where the context has it (retail's "
    "highest Render.TextureFiltering)",
    "[render][gl][terrain]") {
  DERETH_GL_OR_RETURN();
  const glm::vec3 block = render::land_block_origin(demo::kLandBlock);
  // Where the demo starts the player (cell 0x25), 2.5 m up, looking north over the grass.
  const glm::vec3 eye = block + glm::vec3(108.0F, 100.0F, demo_ground(108.0F, 100.0F) + 2.5F);
  const glm::vec3 ahead = block + glm::vec3(108.0F, 130.0F, demo_ground(108.0F, 130.0F));
  const Camera cam = Camera::look_at(eye, ahead);
  const auto draw = [&](float max_anisotropy, float& degree, bool on_software = true) {
    render::RendererOptions options;
    options.max_anisotropy = max_anisotropy;
    options.anisotropic_on_software = on_software;
    auto created = Renderer::create(render::HeadlessContext::loader(), &demo_portal(), &demo_cell(), options);
    REQUIRE(created.has_value());
    (*created)->set_region(demo_region());
    degree = (*created)->anisotropy();
    REQUIRE((*created)->render(sim::RenderSnapshot{}, cam, 640, 360).has_value());
    if (const char* dir = std::getenv("DERETH_SCREENSHOT_DIR"); dir != nullptr) {
      REQUIRE((*created)->write_screenshot(std::filesystem::path(dir) /
                                           ("terrain_grazing_aniso" + std::to_string(int(degree)) + ".png")));
    }
    return std::pair{(*created)->read_pixels(), sky(**created)};
  };
  float trilinear_degree = 0.0F;
  float best_degree = 0.0F;
  const auto [trilinear, background] = draw(1.0F, trilinear_degree);
  const auto [best, unused] = draw(16.0F, best_degree);
  CHECK(trilinear_degree == 1.0F);  // max_anisotropy 1: trilinear only
  CHECK(best_degree >= 1.0F);
  CHECK(best_degree <= 16.0F);
  // By default a software rasteriser stays trilinear (anisotropic filtering triples llvmpipe's frame time).
  float default_degree = 0.0F;
  const auto [by_default, unused2] = draw(16.0F, default_degree, false);
  const std::string& renderer_name = ::dereth::test::gl_context()->renderer();
  INFO("GL_RENDERER " << renderer_name);
  if (renderer_name.find("llvmpipe") != std::string::npos) {
    CHECK(default_degree == 1.0F);
    CHECK(render::compare_images(by_default, trilinear, 0).differing_pixels == 0);
  }
  CHECK(count_not_sky(best, background) > 640 * 120);  // the ground fills the lower part
  if (best_degree > 1.0F) {
    // The degree reaches the landscape surfaces: the ground towards the horizon is filtered differently.
    const auto diff = render::compare_images(best, trilinear, 2);
    INFO("anisotropic x" << best_degree << ": " << diff.differing_pixels << " pixels differ from trilinear");
    CHECK(diff.differing_pixels > 500);
  } else {
    WARN("no anisotropic filtering in this context; trilinear only");
  }
}

TEST_CASE(
    "Headless: the Region's SkyDesc lights the frame by time of day and fogs the distance (SkyDesc::GetLighting "
    "0x00500A80, SkyDesc::GetWorldFog 0x00500CE0)",
    "[render][gl][sky]") {
  DERETH_GL_OR_RETURN();
  const auto make = [](bool with_terrain, bool region_sky, float time_of_day) {
    render::RendererOptions options;
    options.draw_terrain = with_terrain;
    options.use_region_sky = region_sky;
    options.time_of_day = time_of_day;
    auto created = Renderer::create(render::HeadlessContext::loader(), &demo_portal(), &demo_cell(), options);
    REQUIRE(created.has_value());
    (*created)->set_region(demo_region());
    return std::move(*created);
  };
  SECTION("the ground is darker at night than at noon") {
    const glm::vec3 block = render::land_block_origin(demo::kLandBlock);
    const glm::vec3 eye = block + glm::vec3(108.0F, 100.0F, demo_ground(108.0F, 100.0F) + 2.5F);
    const Camera cam = Camera::look_at(eye, block + glm::vec3(108.0F, 120.0F, demo_ground(108.0F, 120.0F)));
    const auto mean_ground = [&](float time_of_day) {
      auto r = make(true, true, time_of_day);
      REQUIRE(r->render(sim::RenderSnapshot{}, cam, 96, 54).has_value());
      const Image img = r->read_pixels();
      double sum = 0.0;
      for (int y = 40; y < 54; ++y) {  // the ground just ahead, inside any fog's clear range
        for (int x = 0; x < 96; ++x) sum += (img.at(x, y)[0] + img.at(x, y)[1] + img.at(x, y)[2]) / 3.0;
      }
      return sum / (14.0 * 96.0);
    };
    const double noon = mean_ground(0.5F);
    const double night = mean_ground(0.0F);
    INFO("mean ground luminance: noon " << noon << ", night " << night);
    CHECK(noon > night * 1.5);
  }
  SECTION("a far object takes the fog's colour, a near one keeps its own") {
    // Dusk in the demo's SkyDesc: fog from 90 m, whole at 320 m, colour (154, 124, 128).
    const glm::vec3 spot = kSpot;
    const auto marker_at = [&](float distance, bool region_sky) {
      auto r = make(false, region_sky, 0.75F);
      sim::RenderSnapshot snap;
      auto o = marker_object(spot + glm::vec3(0.0F, distance, 0.0F), 0x50000003, false);
      o.scale = distance / 10.0F;  // about the same size on screen
      snap.objects.push_back(o);
      const glm::vec3 centre = o.root.origin + glm::vec3(0.0F, 0.0F, 0.3F * o.scale);
      const Camera cam = Camera::look_at(spot, centre);
      REQUIRE(r->render(snap, cam, 32, 32).has_value());
      return r->read_pixels().at(16, 16);
    };
    const Px fog{154, 124, 128, 255};
    const Px near_own = marker_at(30.0F, false);
    const Px near_sky = marker_at(30.0F, true);
    const Px far_own = marker_at(400.0F, false);
    const Px far_sky = marker_at(400.0F, true);
    INFO("near " << int(near_sky[0]) << "," << int(near_sky[1]) << "," << int(near_sky[2]) << "; far "
                 << int(far_sky[0]) << "," << int(far_sky[1]) << "," << int(far_sky[2]) << " (without sky "
                 << int(far_own[0]) << "," << int(far_own[1]) << "," << int(far_own[2]) << ")");
    CHECK(near(far_sky, fog, 2));          // its near face at 388 m, past 320: all fog
    CHECK_FALSE(near(far_own, fog, 30));   // without the SkyDesc: no fog
    CHECK_FALSE(near(near_sky, fog, 30));  // within 90 m: clear
    CHECK_FALSE(near(near_own, fog, 30));
  }
}

TEST_CASE("Headless: the landscape's building and EnvCell room are drawn, the room seen through the door",
          "[render][gl][cells]") {
  DERETH_GL_OR_RETURN();
  render::RendererOptions options;
  options.draw_terrain = false;
  options.record_draw_list = true;
  auto created = Renderer::create(render::HeadlessContext::loader(), &demo_portal(), nullptr, options);
  REQUIRE(created.has_value());
  (*created)->set_region(demo_region());
  Renderer& renderer = **created;
  const Image empty_sky(64, 64, sky(renderer));

  // The demo house and its room at one frame (the room 6 x 6 x 3 m from it).
  const core::Frame frame(kSpot, glm::quat(1, 0, 0, 0));
  auto landscape = std::make_shared<sim::LandscapeSnapshot>();
  sim::ObjectSnapshot house;
  house.setup_id = demo::kHouseModel;
  house.root = frame;
  house.parts.push_back(sim::PartPose{demo::kHouseModel, frame});
  sim::CellSnapshot room;
  room.cell_id = demo::kRoomCell;
  room.environment_id = demo::kRoomEnvironment;
  room.environment = demo_records().environment(demo::kRoomEnvironment);  // as the world's loader hands it over
  REQUIRE(room.environment != nullptr);
  room.cell_struct = 0;
  room.surfaces = {0x08000032, 0x08000030};  // planks, plaster
  room.frame = frame;
  const auto count = [&](render::DrawKind kind) {
    return std::count_if(renderer.last_draw_list().begin(), renderer.last_draw_list().end(),
                         [kind](const render::DrawRecord& r) { return r.kind == kind; });
  };

  SECTION("the building: its wall beside the south door, from outside") {
    landscape->buildings.push_back(house);
    sim::RenderSnapshot snap;
    snap.landscape = landscape;
    const glm::vec3 wall = kSpot + glm::vec3(1.0F, -0.25F, 1.5F);
    REQUIRE(renderer.render(snap, Camera::look_at(wall - glm::vec3(0, 5, 0), wall), 64, 64).has_value());
    const Image img = renderer.read_pixels();
    CHECK(renderer.stats().parts_drawn == 1);
    CHECK(count(render::DrawKind::Part) == 3);  // plaster, roof, door frames
    const Px mid = img.at(32, 32);
    INFO("wall pixel " << int(mid[0]) << " " << int(mid[1]) << " " << int(mid[2]));
    CHECK_FALSE(near(mid, sky(renderer), 24));
    CHECK(mid[0] > 120);  // whitewashed plaster, lit
  }
  SECTION("the room: its north wall from inside, its floor through the south door from outside") {
    landscape->cells.push_back(room);
    sim::RenderSnapshot snap;
    snap.landscape = landscape;
    const glm::vec3 wall = kSpot + glm::vec3(1.0F, 6.0F, 1.5F);
    REQUIRE(renderer.render(snap, Camera::look_at(kSpot + glm::vec3(1.0F, 2.0F, 1.5F), wall), 64, 64).has_value());
    CHECK(renderer.stats().cells_drawn == 1);
    REQUIRE(count(render::DrawKind::Cell) == 2);  // planks and plaster
    for (const auto& r : renderer.last_draw_list()) {
      if (r.kind != render::DrawKind::Cell) continue;
      CHECK(r.block == demo::kRoomCell);
      CHECK(r.gfx_obj == demo::kRoomEnvironment);
      CHECK((r.surface == 0x08000030 || r.surface == 0x08000032));
    }
    const Px inside = renderer.read_pixels().at(32, 32);
    CHECK_FALSE(near(inside, sky(renderer), 24));

    // With the building too: from outside, through the door, the room's floor.
    landscape->buildings.push_back(house);
    const glm::vec3 floor = kSpot + glm::vec3(3.0F, 2.5F, 0.0F);
    const Camera outside = Camera::look_at(kSpot + glm::vec3(3.0F, -5.0F, 1.6F), floor);
    REQUIRE(renderer.render(snap, outside, 64, 64).has_value());
    const Px planks = renderer.read_pixels().at(32, 32);
    INFO("floor pixel " << int(planks[0]) << " " << int(planks[1]) << " " << int(planks[2]));
    CHECK_FALSE(near(planks, sky(renderer), 24));
    CHECK(planks[0] > planks[2] + 20);  // brown planks
    // Without the room the door shows what is behind it: nothing here, the
    // background (the clear colour, or the Region's sky dome where it has one).
    REQUIRE(renderer.render(sim::RenderSnapshot{}, outside, 64, 64).has_value());
    const Px background = renderer.read_pixels().at(32, 32);
    CHECK_FALSE(near(planks, background, 24));
    landscape->cells.clear();
    REQUIRE(renderer.render(snap, outside, 64, 64).has_value());
    CHECK(near(renderer.read_pixels().at(32, 32), background, 2));
  }
  SECTION("the room without its decoded Environment: not drawn, though the portal has it (the renderer reads none)") {
    room.environment = nullptr;
    landscape->cells.push_back(room);
    sim::RenderSnapshot snap;
    snap.landscape = landscape;
    const glm::vec3 wall = kSpot + glm::vec3(1.0F, 6.0F, 1.5F);
    REQUIRE(renderer.render(snap, Camera::look_at(kSpot + glm::vec3(1.0F, 2.0F, 1.5F), wall), 64, 64).has_value());
    CHECK(renderer.stats().cells_drawn == 0);
    CHECK(count(render::DrawKind::Cell) == 0);
  }
}

TEST_CASE("Headless: demo frame time at 1280x720", "[.][perf][render][gl]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer(true, true);
  const glm::vec3 block = render::land_block_origin(demo::kLandBlock);
  const glm::vec3 spot = block + glm::vec3(96.0F, 96.0F, 25.0F);
  sim::RenderSnapshot snap;
  for (int i = 0; i < 20; ++i) {
    auto o = marker_object(spot + glm::vec3(static_cast<float>(i % 5) * 2.0F, static_cast<float>(i / 5) * 2.0F, 0.0F),
                           0x50000100U + static_cast<std::uint32_t>(i), i == 0);
    sim::PartPose p;
    p.gfx_obj = 0x01000001 + static_cast<std::uint32_t>(i % 4);
    p.frame.origin = o.root.origin;
    o.parts.push_back(p);
    snap.objects.push_back(o);
  }
  sim::EmitterSnapshot e;
  e.gfx_obj = 0x01000020;
  for (int i = 0; i < 60; ++i) {
    e.particles.push_back(
        sim::ParticleSnapshot{spot + glm::vec3(static_cast<float>(i) * 0.1F, 0.0F, 1.0F), 1.0F, 0.8F});
  }
  snap.emitters.push_back(e);
  const Camera cam = Camera::look_at(spot + glm::vec3(0.0F, -12.0F, 5.0F), spot);
  for (int frame = 0; frame < 6; ++frame) {
    REQUIRE(renderer->render(snap, cam, 1280, 720).has_value());
    const Image shot = renderer->read_pixels();
    if (const char* dir = std::getenv("DERETH_SCREENSHOT_DIR"); dir != nullptr && frame == 0) {
      CHECK(render::write_png(std::string(dir) + "/demo_1280x720.png", shot).has_value());
    }
    const auto& t = renderer->last_timing();
    std::printf(
        "frame %d: load %.2f ms, prepare %.3f ms, submit %.3f ms, finish %.2f ms, readback %.2f ms, "
        "%zu draw calls, %zu triangles\n",
        frame, t.load * 1e3, t.prepare * 1e3, t.submit * 1e3, t.finish * 1e3, t.readback * 1e3,
        renderer->stats().draw_calls, renderer->stats().triangles);
  }
  CHECK(renderer->timing_totals().frames == 6);
}

TEST_CASE(
    "Headless: the Region's sky objects are drawn behind everything, depth-free, around the eye, by time of "
    "day (GameSky::Draw 0x00506FF0)",
    "[render][gl][sky][retail]") {
  DERETH_GL_OR_RETURN();
  render::RendererOptions options;
  options.record_draw_list = true;
  auto created = Renderer::create(render::HeadlessContext::loader(), &demo_portal(), &demo_cell(), options);
  REQUIRE(created.has_value());
  (*created)->set_region(demo_region());
  Renderer& renderer = **created;
  const glm::vec3 centre = render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 96.0F, 30.0F);
  const Camera cam = Camera::look_at(centre + glm::vec3(0.0F, 60.0F, 12.0F), centre + glm::vec3(0.0F, 0.0F, 18.0F));
  const sim::RenderSnapshot empty;
  constexpr dat::Did kDome = 0x01000E01, kSun = 0x01000E02, kMoon = 0x01000E03, kClouds = 0x01000E04;
  const auto sky_draws = [&renderer](float time_of_day) {
    renderer.options().time_of_day = time_of_day;
    REQUIRE(renderer.render(sim::RenderSnapshot{}, Camera::look_at({0, 0, 50}, {0, 10, 50}), 32, 32).has_value());
    std::vector<dat::Did> objects;
    for (const auto& r : renderer.last_draw_list()) {
      if (r.kind == render::DrawKind::Sky && (objects.empty() || objects.back() != r.gfx_obj)) {
        objects.push_back(r.gfx_obj);
      }
    }
    return objects;
  };
  // Noon: the dome, the sun, the clouds, in SkyObject order; night: the
  // moon (rising before midnight, setting after) instead of the sun.
  CHECK(sky_draws(0.5F) == std::vector<dat::Did>{kDome, kSun, kClouds});
  CHECK(renderer.stats().sky_objects_drawn == 3);
  CHECK(sky_draws(0.9F) == std::vector<dat::Did>{kDome, kMoon, kClouds});
  CHECK(sky_draws(0.1F) == std::vector<dat::Did>{kDome, kMoon, kClouds});
  CHECK(sky_draws(0.72F) == std::vector<dat::Did>{kDome, kSun, kMoon, kClouds});  // both up at dusk

  // Retail's order (sky_first): before anything else, with the depth test
  // always passing and no depth writes.
  renderer.options().time_of_day = 0.5F;
  renderer.options().sky_first = true;
  sim::RenderSnapshot scene;
  scene.objects.push_back(torso_object(sim::LocalId{1}, centre + glm::vec3(0.0F, 30.0F, 14.0F), 0.0F));
  scene.objects.push_back(torso_object(sim::LocalId{2}, centre + glm::vec3(0.5F, 28.0F, 14.0F), 0.5F));
  REQUIRE(renderer.render(scene, cam, 96, 64).has_value());
  {
    const auto& list = renderer.last_draw_list();
    REQUIRE(list.size() > 3);
    std::size_t first_other = 0;
    while (first_other < list.size() && list[first_other].kind == render::DrawKind::Sky) ++first_other;
    CHECK(first_other >= 3);
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i].kind != render::DrawKind::Sky) {
        CHECK(list[i].depth == render::DepthMode::Test);
        continue;
      }
      CHECK(i < first_other);
      CHECK(list[i].depth == render::DepthMode::Always);
      CHECK_FALSE(list[i].state.depth_write);
    }
    REQUIRE(first_other < list.size());
    CHECK(list[first_other].kind == render::DrawKind::Terrain);
  }
  const Image retail_order = renderer.read_pixels();

  // The default: after the opaque world and the clip list, at the far
  // plane, before the alpha list; the same picture.
  renderer.options().sky_first = false;
  REQUIRE(renderer.render(scene, cam, 96, 64).has_value());
  {
    const auto& list = renderer.last_draw_list();
    bool seen_sky = false;
    bool seen_alpha = false;
    for (const auto& r : list) {
      if (r.kind == render::DrawKind::Sky) {
        seen_sky = true;
        CHECK_FALSE(seen_alpha);
        CHECK(r.depth == render::DepthMode::FarPlane);
        CHECK_FALSE(r.state.depth_write);
      } else if (r.alpha == render::AlphaClass::Alpha) {
        seen_alpha = true;
        CHECK(seen_sky);
      } else {
        CHECK_FALSE(seen_sky);  // terrain, opaque and clip draws before the sky
      }
    }
    CHECK(seen_sky);
    CHECK(seen_alpha);  // the half-translucent torso, over the sky
  }
  const Image with_sky = renderer.read_pixels();
  const auto same = render::compare_images(with_sky, retail_order, 2);
  INFO("largest channel delta " << same.max_channel_delta);
  CHECK(same.differing_pixels == 0);

  // The same frame without sky objects: the ground is the same pixels (the
  // sky neither hides it nor leaves depth behind); the sky is not the
  // background colour.
  REQUIRE(renderer.render(empty, cam, 96, 64).has_value());
  const Image sky_only = renderer.read_pixels();
  renderer.options().draw_sky_objects = false;
  REQUIRE(renderer.render(empty, cam, 96, 64).has_value());
  const Image bare = renderer.read_pixels();
  CHECK(render::compare_images(sky_only, bare, 0).differing_pixels > 96 * 8);
  CHECK(near(sky_only.at(48, 60), bare.at(48, 60), 0));
  CHECK_FALSE(near(sky_only.at(48, 1), bare.at(48, 1), 8));

  // Around the eye: the sky alone (no terrain) looks the same from a place
  // 500 m away, looking the same way.
  renderer.options().draw_sky_objects = true;
  renderer.options().draw_terrain = false;
  REQUIRE(renderer.render(empty, Camera::look_at({0, 0, 50}, {10, 10, 60}), 48, 48).has_value());
  const Image here = renderer.read_pixels();
  REQUIRE(renderer.render(empty, Camera::look_at({500, -300, 250}, {510, -290, 260}), 48, 48).has_value());
  CHECK(render::compare_images(here, renderer.read_pixels(), 0).differing_pixels == 0);

  // The clouds' texture velocity scrolls them with the snapshot's game clock
  // (at 0 without one).
  const Camera up = Camera::look_at({0, 0, 50}, {0, 3, 60});
  REQUIRE(renderer.render(empty, up, 48, 48).has_value());
  const Image still = renderer.read_pixels();
  sim::RenderSnapshot later;
  later.sky = sim::SkyTime{renderer.options().time_of_day, 0, 360, 0, 40.0};
  REQUIRE(renderer.render(later, up, 48, 48).has_value());
  CHECK(render::compare_images(still, renderer.read_pixels(), 8).differing_pixels > 20);
  later.sky->seconds = 0.0;
  REQUIRE(renderer.render(later, up, 48, 48).has_value());
  CHECK(render::compare_images(still, renderer.read_pixels(), 0).differing_pixels == 0);
}

TEST_CASE("Headless: the sky scissor leaves out the rows the terrain covers and changes no pixel",
          "[render][gl][sky]") {
  DERETH_GL_OR_RETURN();
  const auto made = make_renderer(demo_cell(), render::RendererOptions{});
  Renderer& renderer = *made;
  sim::RenderSnapshot scene;
  const glm::vec3 block = render::land_block_origin(demo::kLandBlock);
  const glm::vec3 centre = block + glm::vec3(96.0F, 96.0F, 30.0F);
  scene.objects.push_back(torso_object(sim::LocalId{1}, centre + glm::vec3(0.0F, 10.0F, 2.0F), 0.0F));
  // Views across the block towards its edges and the horizon, down at it,
  // from high above, from its corner looking out, and up at the sky; at
  // times of day with and without fog; at two sizes.
  struct View {
    glm::vec3 eye;
    glm::vec3 at;
    float time_of_day;
  };
  const std::vector<View> views{
      {centre + glm::vec3(0.0F, 60.0F, 12.0F), centre + glm::vec3(0.0F, 0.0F, 18.0F), 0.5F},
      {centre + glm::vec3(0.0F, -20.0F, 6.0F), centre + glm::vec3(0.0F, 80.0F, 4.0F), 0.5F},
      {centre + glm::vec3(10.0F, 0.0F, 40.0F), centre + glm::vec3(60.0F, 30.0F, 0.0F), 0.77F},
      {centre + glm::vec3(0.0F, 0.0F, 200.0F), centre + glm::vec3(90.0F, 20.0F, 0.0F), 0.5F},
      {block + glm::vec3(4.0F, 4.0F, 45.0F), block + glm::vec3(-50.0F, -40.0F, 40.0F), 0.5F},
      {centre + glm::vec3(-30.0F, 10.0F, 3.0F), centre + glm::vec3(30.0F, 25.0F, 4.0F), 0.68F},
      {centre, centre + glm::vec3(5.0F, 20.0F, 30.0F), 0.5F},
  };
  int partly_covered = 0;
  for (const auto& [w, h] : {std::pair{320, 180}, std::pair{97, 61}}) {
    for (const View& v : views) {
      renderer.options().time_of_day = v.time_of_day;
      const Camera cam = Camera::look_at(v.eye, v.at);
      renderer.options().sky_scissor = false;
      REQUIRE(renderer.render(scene, cam, w, h).has_value());
      CHECK(renderer.stats().sky_rows_covered == 0);
      const Image whole = renderer.read_pixels();
      renderer.options().sky_scissor = true;
      REQUIRE(renderer.render(scene, cam, w, h).has_value());
      const int rows = renderer.stats().sky_rows_covered;
      const Image scissored = renderer.read_pixels();
      INFO("view from " << v.eye.x << ", " << v.eye.y << ", " << v.eye.z << " at " << w << "x" << h << ": " << rows
                        << " rows covered");
      CHECK(renderer.stats().sky_objects_drawn >= 3);
      CHECK(render::compare_images(whole, scissored, 0).differing_pixels == 0);
      if (rows > 0 && rows < h) ++partly_covered;
    }
  }
  // Several views leave part of the sky's rows out (the scissor is in use,
  // not only proved harmless): four of the fourteen frames when written.
  CHECK(partly_covered >= 3);
}

namespace {
// Four objects 2 m apart about `spot` in the demo's landblock (ids 10..13),
// each one part of its own GfxObj: four first-use mesh loads.
sim::RenderSnapshot four_meshes_at(glm::vec3 spot) {
  sim::RenderSnapshot scene;
  for (std::uint32_t i = 0; i < 4; ++i) {
    auto o = marker_object(spot + glm::vec3(static_cast<float>(i) * 2.0F - 3.0F, 0.0F, 0.0F), 0x50000200U + i, false);
    o.id = sim::LocalId{10 + i};
    o.cell_id = (demo::kLandBlock & 0xFFFF0000U) | 0x0021U;
    sim::PartPose p;
    p.gfx_obj = 0x01000001 + i;
    p.frame.origin = o.root.origin;
    o.parts.push_back(p);
    scene.objects.push_back(o);
  }
  return scene;
}
}  // namespace

TEST_CASE(
    "Headless: a load budget spreads first-use loads over frames, draws an object only whole, and says what is "
    "ready",
    "[render][gl]") {
  DERETH_GL_OR_RETURN();
  const glm::vec3 block = render::land_block_origin(demo::kLandBlock);
  const glm::vec3 spot = block + glm::vec3(96.0F, 96.0F, 40.0F);
  const sim::RenderSnapshot scene = four_meshes_at(spot);
  const Camera cam = Camera::look_at(spot + glm::vec3(0.0F, -12.0F, 4.0F), spot);
  const auto make = [] { return make_renderer(demo_cell(), render::RendererOptions{}); };

  // No budget (the default): everything in the first frame.
  const auto all_at_once = make();
  REQUIRE(all_at_once->render(scene, cam, 160, 90).has_value());
  CHECK(all_at_once->stats().loads_deferred == 0);
  CHECK(all_at_once->render_ready());
  CHECK(all_at_once->object_ready(sim::LocalId{10}));
  CHECK(all_at_once->landblock_ready(demo::kLandBlock));
  const Image whole = all_at_once->read_pixels();

  // A budget no load fits in: one first-use load a frame.
  const auto budgeted = make();
  budgeted->options().load_budget_ms = 1e-9;
  REQUIRE(budgeted->render(scene, cam, 160, 90).has_value());
  CHECK(budgeted->stats().loads_deferred > 0);
  CHECK_FALSE(budgeted->render_ready());
  CHECK_FALSE(budgeted->landblock_ready(demo::kLandBlock));
  CHECK(budgeted->stats().markers == 0);  // a waiting object is not drawn as a marker either
  CHECK(budgeted->stats().parts_missing == 0);
  int frames = 1;
  std::vector<int> ready_at(4, 0);
  while (!budgeted->render_ready() && frames < 200) {
    REQUIRE(budgeted->render(scene, cam, 160, 90).has_value());
    ++frames;
    for (std::uint32_t i = 0; i < 4; ++i) {
      const bool ready = budgeted->object_ready(sim::LocalId{10 + i});
      if (ready && ready_at[i] == 0) ready_at[i] = frames;
      // Once drawn, always drawn: what is uploaded stays.
      if (ready_at[i] != 0) CHECK(ready);
    }
    // Drawn objects are whole: each drawn object's one part.
    CHECK(budgeted->stats().parts_drawn + budgeted->stats().parts_culled == 4 - budgeted->stats().objects_deferred);
  }
  INFO(frames << " frames to load everything");
  CHECK(frames > 4);  // at least the terrain square's blocks and four meshes, one a frame
  CHECK(frames < 200);
  CHECK(budgeted->landblock_ready(demo::kLandBlock));
  CHECK(budgeted->landblock_ready(demo::kLandBlock & 0xFFFF0000U));
  // Not in the snapshot: not known to be ready.
  CHECK_FALSE(budgeted->object_ready(sim::LocalId{99}));
  // Every mesh came in its own frame.
  std::ranges::sort(ready_at);
  CHECK(std::ranges::adjacent_find(ready_at) == ready_at.end());
  // The same picture once everything is in.
  CHECK(render::compare_images(whole, budgeted->read_pixels(), 0).differing_pixels == 0);

  // A portal-space frame draws no world: nothing is ready after it.
  sim::RenderSnapshot tunnel = scene;
  tunnel.portal.visible = true;
  REQUIRE(budgeted->render(tunnel, cam, 160, 90).has_value());
  REQUIRE(budgeted->stats().portal_space);
  CHECK_FALSE(budgeted->render_ready());
  CHECK_FALSE(budgeted->object_ready(sim::LocalId{10}));
  CHECK_FALSE(budgeted->landblock_ready(demo::kLandBlock));
}

TEST_CASE(
    "Headless: with asset workers a GfxObj is read and decoded off the frame's thread, waits undrawn, and is uploaded "
    "when back, the same picture",
    "[render][gl][streaming]") {
  DERETH_GL_OR_RETURN();
  const glm::vec3 spot = render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 96.0F, 40.0F);
  const sim::RenderSnapshot scene = four_meshes_at(spot);
  const Camera cam = Camera::look_at(spot + glm::vec3(0.0F, -12.0F, 4.0F), spot);
  render::RendererOptions o;
  o.draw_terrain = false;  // the meshes alone
  o.draw_sky_objects = false;
  const auto at_once = make_renderer(demo_cell(), o);
  REQUIRE(at_once->render(scene, cam, 160, 90).has_value());
  REQUIRE(at_once->stats().parts_drawn == 4);
  const Image whole = at_once->read_pixels();

  o.load_budget_ms = 1000.0;  // a budget every upload fits in: only the workers make anything wait
  o.asset_workers = 2;
  const auto made = make_renderer(demo_cell(), o);
  Renderer& r = *made;
  auto records = std::make_shared<dat::RecordCache>(demo_records().portal());
  r.set_records(records);

  // The first frame hands the four GfxObjs to the workers and draws none of them.
  REQUIRE(r.render(scene, cam, 160, 90).has_value());
  CHECK(r.stats().parts_drawn == 0);
  CHECK(r.stats().objects_deferred == 4);
  CHECK(r.stats().meshes_preparing == 4);
  CHECK_FALSE(r.render_ready());
  // The workers read the records and decode the textures with no frame drawn.
  r.wait_for_asset_workers();
  for (std::uint32_t i = 0; i < 4; ++i) {
    INFO("GfxObj " << i);
    const auto obj = records->gfx_obj(0x01000001 + i);
    REQUIRE(obj != nullptr);
    CHECK(records->surface(obj->surfaces.front()) != nullptr);
  }
  const std::size_t read = records->size();
  // The next frame uploads them: all four drawn, nothing read on its thread.
  REQUIRE(r.render(scene, cam, 160, 90).has_value());
  CHECK(r.stats().parts_drawn + r.stats().parts_culled == 4);
  CHECK(r.stats().objects_deferred == 0);
  CHECK(r.stats().meshes_preparing == 0);
  CHECK(r.render_ready());
  CHECK(records->size() == read);
  CHECK(render::compare_images(whole, r.read_pixels(), 0).differing_pixels == 0);

  // Without a budget (a screenshot) the workers are not asked: loaded in the frame.
  o.load_budget_ms = 0.0;
  const auto unbudgeted = make_renderer(demo_cell(), o);
  REQUIRE(unbudgeted->render(scene, cam, 160, 90).has_value());
  CHECK(unbudgeted->stats().parts_drawn == 4);
  CHECK(unbudgeted->stats().meshes_preparing == 0);
}

namespace {
// Frames of `r` drawing `scene` until it is render-ready (at most `most`),
// the asset workers idle between them, checking that no frame read the DAT
// on this thread; `after_first` runs after the first. The frames drawn.
int frames_until_ready_reading_nothing(Renderer& r, const sim::RenderSnapshot& scene, const Camera& cam, int most,
                                       const std::function<void()>& after_first) {
  int frames = 0;
  while (frames < most) {
    const std::uint64_t reads = dat::reads_on_this_thread();
    REQUIRE(r.render(scene, cam, 160, 90).has_value());
    ++frames;
    INFO("frame " << frames);
    CHECK(dat::reads_on_this_thread() == reads);
    if (frames == 1) after_first();
    if (r.render_ready()) break;
    r.wait_for_asset_workers();
  }
  return frames;
}
}  // namespace

TEST_CASE(
    "Headless: with asset workers a texture change, a composed palette, a billboard and an EnvCell are read and "
    "decoded off the frame's thread, the same picture",
    "[render][gl][streaming]") {
  DERETH_GL_OR_RETURN();
  const glm::vec3 spot = render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 96.0F, 40.0F);
  const std::uint32_t cell = (demo::kLandBlock & 0xFFFF0000U) | 0x0021U;
  sim::RenderSnapshot scene;
  const auto part_object = [&](std::uint32_t id, dat::Did gfx_obj, glm::vec3 at) {
    auto o = marker_object(at, 0x50000300U + id, false);
    o.id = sim::LocalId{id};
    o.cell_id = cell;
    sim::PartPose p;
    p.gfx_obj = gfx_obj;
    p.frame.origin = at;
    o.parts.push_back(p);
    return o;
  };
  // The torso with its cloth changed for the leaf texture; the head through
  // the dark skin palette; a glow billboard; the demo room behind them.
  scene.objects.push_back(part_object(20, 0x01000001, spot + glm::vec3(-0.6F, 0.0F, 0.0F)));
  scene.objects.back().parts[0].texture_changes = {{0x05000002, 0x05000005}};
  scene.objects.push_back(part_object(21, 0x01000002, spot + glm::vec3(0.6F, 0.0F, 0.0F)));
  scene.objects.back().palette = sim::PaletteChange{0x04000010, {{0x04000014, 0, 192}}};
  sim::EmitterSnapshot glow;
  glow.owner = sim::LocalId{22};
  glow.texture = kGlowTexture;
  glow.particles.push_back(sim::ParticleSnapshot{spot + glm::vec3(0.0F, 0.0F, 0.8F), 0.5F, 1.0F});
  scene.emitters.push_back(glow);
  auto landscape = std::make_shared<sim::LandscapeSnapshot>();
  sim::CellSnapshot room;
  room.cell_id = demo::kRoomCell;
  room.environment_id = demo::kRoomEnvironment;
  room.environment = demo_records().environment(demo::kRoomEnvironment);
  REQUIRE(room.environment != nullptr);
  room.surfaces = {0x08000032, 0x08000030};  // planks, plaster
  room.frame = core::Frame(spot + glm::vec3(-3.0F, 2.0F, -1.0F), glm::quat(1, 0, 0, 0));
  landscape->cells.push_back(room);
  scene.landscape = landscape;
  const Camera cam = Camera::look_at(spot + glm::vec3(0.0F, -4.0F, 0.5F), spot);

  render::RendererOptions o;
  o.draw_terrain = false;
  o.draw_sky_objects = false;
  const auto at_once = make_renderer(demo_cell(), o);
  REQUIRE(at_once->render(scene, cam, 160, 90).has_value());
  REQUIRE(at_once->stats().parts_drawn == 2);
  REQUIRE(at_once->stats().particles_drawn == 1);
  REQUIRE(at_once->stats().cells_drawn == 1);
  const Image whole = at_once->read_pixels();

  o.load_budget_ms = 1000.0;  // a budget every upload fits in: only the workers make anything wait
  o.asset_workers = 2;
  const auto made = make_renderer(demo_cell(), o);
  Renderer& r = *made;
  r.set_records(std::make_shared<dat::RecordCache>(demo_records().portal()));
  // Frame after frame: nothing is read on the frame's thread. A texture
  // change or a palette is asked for only once its mesh is up, so the
  // workers take a few rounds.
  bool deferred_first = false;
  const int frames = frames_until_ready_reading_nothing(r, scene, cam, 10, [&] {
    deferred_first = r.stats().others_preparing > 0 && r.stats().parts_drawn == 0 && r.stats().particles_drawn == 0 &&
                     r.stats().cells_drawn == 0;
  });
  CHECK(deferred_first);
  CHECK(frames > 2);
  REQUIRE(r.render_ready());
  CHECK(r.stats().others_preparing == 0);
  CHECK(r.stats().meshes_preparing == 0);
  CHECK(r.stats().parts_drawn == 2);
  CHECK(r.stats().particles_drawn == 1);
  CHECK(r.stats().cells_drawn == 1);
  CHECK(render::compare_images(whole, r.read_pixels(), 0).differing_pixels == 0);
}

TEST_CASE(
    "Headless: with asset workers the Region's terrain layers and the landblocks are read, decoded and meshed off "
    "the frame's thread, the same picture",
    "[render][gl][streaming]") {
  DERETH_GL_OR_RETURN();
  const glm::vec3 spot = render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 96.0F, 40.0F);
  const sim::RenderSnapshot nothing;
  const Camera cam = Camera::look_at(spot + glm::vec3(0.0F, -60.0F, 30.0F), spot);
  render::RendererOptions o;
  o.terrain_radius = 1;
  o.draw_sky_objects = false;
  const auto at_once = make_renderer(demo_cell(), o);
  REQUIRE(at_once->render(nothing, cam, 160, 90).has_value());
  REQUIRE(at_once->stats().terrain_blocks > 0);
  const Image whole = at_once->read_pixels();

  o.load_budget_ms = 1000.0;
  o.asset_workers = 2;
  const auto made = make_renderer(demo_cell(), o);
  Renderer& r = *made;
  // Neither the Region's textures nor a LandBlock is read on the frame's
  // thread: the layers, then each block read, then its strips and mipmaps.
  // Every block drawn in the end with no read on this thread is the proof
  // that the workers read them. (Whether the first frame still draws no
  // terrain depends on how fast the workers run: a frame takes in what came
  // back at each of its loads, so a descheduled frame thread can find the
  // layers and some blocks already back, and the check failed under load.)
  frames_until_ready_reading_nothing(r, nothing, cam, 40, [] {});
  REQUIRE(r.render_ready());
  CHECK(r.stats().others_preparing == 0);
  CHECK(r.stats().terrain_blocks == at_once->stats().terrain_blocks);
  CHECK(render::compare_images(whole, r.read_pixels(), 0).differing_pixels == 0);
}

TEST_CASE(
    "Headless: under a load budget a landblock's surface arrives in strips of rows, one step a frame, and is drawn "
    "only when whole and mipmapped, the same as composited at once",
    "[render][gl][streaming]") {
  DERETH_GL_OR_RETURN();
  const glm::vec3 spot = render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 96.0F, 40.0F);
  const sim::RenderSnapshot nothing;
  const Camera cam = Camera::look_at(spot + glm::vec3(0.0F, -40.0F, 30.0F), spot);
  render::RendererOptions o;
  o.terrain_radius = 0;  // the camera's landblock alone
  o.draw_sky_objects = false;
  const auto at_once = make_renderer(demo_cell(), o);
  REQUIRE(at_once->render(nothing, cam, 160, 90).has_value());
  REQUIRE(at_once->stats().terrain_blocks == 1);
  CHECK(at_once->terrain_cache_stats().built == 1);
  CHECK(at_once->landblock_ready(demo::kLandBlock));
  const Image whole = at_once->read_pixels();

  o.load_budget_ms = 1e-9;  // one load step a frame
  const auto stepped = make_renderer(demo_cell(), o);
  constexpr int kSteps = 9;  // eight strips of rows, then the mipmaps
  for (int frame = 1; frame < kSteps; ++frame) {
    INFO("frame " << frame);
    REQUIRE(stepped->render(nothing, cam, 160, 90).has_value());
    CHECK(stepped->stats().terrain_blocks == 0);  // not drawn half made
    CHECK(stepped->stats().terrain_blocks_deferred == 1);
    CHECK(stepped->terrain_cache_stats().built == 0);
    CHECK(stepped->terrain_cache_stats().resident == 1);  // its texture is held while it arrives
    CHECK_FALSE(stepped->render_ready());
    CHECK_FALSE(stepped->landblock_ready(demo::kLandBlock));
  }
  REQUIRE(stepped->render(nothing, cam, 160, 90).has_value());
  CHECK(stepped->stats().terrain_blocks == 1);
  CHECK(stepped->terrain_cache_stats().built == 1);
  CHECK(stepped->render_ready());
  CHECK(stepped->landblock_ready(demo::kLandBlock));
  CHECK(render::compare_images(whole, stepped->read_pixels(), 0).differing_pixels == 0);
}

TEST_CASE(
    "Headless: the mesh cache stays within mesh_cache_bytes by freeing what the frame did not draw, and a freed "
    "mesh comes back the same when seen again",
    "[render][gl][streaming]") {
  DERETH_GL_OR_RETURN();
  const glm::vec3 spot = render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 96.0F, 40.0F);
  const sim::RenderSnapshot four = four_meshes_at(spot);
  const sim::RenderSnapshot none;
  const Camera cam = Camera::look_at(spot + glm::vec3(0.0F, -12.0F, 4.0F), spot);
  const auto make = [](std::size_t budget) {
    render::RendererOptions o;
    o.draw_terrain = false;  // the meshes alone
    o.draw_sky_objects = false;
    o.mesh_cache_bytes = budget;
    return make_renderer(demo_cell(), o);
  };
  // No bound: what was drawn stays.
  const auto unbounded = make(0);
  REQUIRE(unbounded->render(four, cam, 160, 90).has_value());
  const std::size_t four_bytes = unbounded->stats().mesh_cache_bytes;
  CHECK(four_bytes > 0);
  const Image first = unbounded->read_pixels();
  REQUIRE(unbounded->render(none, cam, 160, 90).has_value());
  CHECK(unbounded->stats().mesh_cache_bytes == four_bytes);
  CHECK(unbounded->stats().mesh_cache_evicted == 0);

  // A bound below one frame's assets: a frame keeps what it drew (it may not
  // free what it draws), the next frame that does not draw them frees them
  // all, meshes and then their textures.
  const auto bounded = make(1);
  REQUIRE(bounded->render(four, cam, 160, 90).has_value());
  CHECK(bounded->stats().mesh_cache_bytes == four_bytes);
  CHECK(bounded->stats().mesh_cache_evicted == 0);
  REQUIRE(bounded->render(none, cam, 160, 90).has_value());
  CHECK(bounded->stats().mesh_cache_bytes == 0);
  CHECK(bounded->stats().mesh_cache_evicted >= 4);  // four meshes and their textures
  // Seen again: loaded again, the same picture.
  REQUIRE(bounded->render(four, cam, 160, 90).has_value());
  CHECK(bounded->stats().parts_drawn + bounded->stats().parts_culled == 4);
  CHECK(bounded->stats().mesh_cache_bytes == four_bytes);
  CHECK(render::compare_images(first, bounded->read_pixels(), 0).differing_pixels == 0);
}

TEST_CASE(
    "Headless: prepare_landblock uploads an asked-for landblock behind portal space, one load a frame under the "
    "budget, and says ready only when all of it is in",
    "[render][gl][streaming]") {
  DERETH_GL_OR_RETURN();
  const glm::vec3 block = render::land_block_origin(demo::kLandBlock);
  const glm::vec3 spot = block + glm::vec3(96.0F, 96.0F, 40.0F);
  sim::RenderSnapshot tunnel = four_meshes_at(spot);
  tunnel.portal.visible = true;
  // The camera looks at the destination, but portal space draws no world.
  const Camera cam = Camera::look_at(spot + glm::vec3(0.0F, -12.0F, 4.0F), spot);
  render::RendererOptions one_a_frame;
  one_a_frame.load_budget_ms = 1e-9;  // one first-use load a frame
  const auto made = make_renderer(demo_cell(), one_a_frame);
  Renderer& r = *made;

  // Never asked: not ready, and a tunnel frame loads nothing of the world.
  CHECK_FALSE(r.prepare_landblock(demo::kLandBlock));
  sim::RenderSnapshot nothing_asked = tunnel;
  {
    const auto fresh = make_renderer(demo_cell(), one_a_frame);
    REQUIRE(fresh->render(nothing_asked, cam, 160, 90).has_value());
    CHECK(fresh->terrain_cache_stats().built == 0);
    CHECK(fresh->stats().loads_deferred == 0);
  }

  // Asked on every frame (as the gate asks on every tick): the terrain block
  // and the four meshes, one a frame, then ready.
  int frames = 0;
  bool ready = false;
  while (!ready && frames < 200) {
    REQUIRE(r.render(tunnel, cam, 160, 90).has_value());
    REQUIRE(r.stats().portal_space);
    ++frames;
    ready = r.prepare_landblock(demo::kLandBlock | 0x0021U);  // any cell of it names the block
  }
  INFO(frames << " tunnel frames to prepare the landblock");
  CHECK(ready);
  CHECK(frames >= 5);  // the terrain block and four GfxObjs, one load a frame
  CHECK(frames < 200);
  CHECK(r.terrain_cache_stats().built == 1);  // that block only, not the camera's terrain square

  // The world's first frame after it, under the same budget, finds the
  // asked-for block and its objects uploaded: all four drawn at once.
  sim::RenderSnapshot world = tunnel;
  world.portal = {};
  REQUIRE(r.render(world, cam, 160, 90).has_value());
  for (std::uint32_t i = 0; i < 4; ++i) CHECK(r.object_ready(sim::LocalId{10 + i}));
  CHECK(r.stats().objects_deferred == 0);
  CHECK(r.landblock_ready(demo::kLandBlock));

  // A landblock not asked about before the last frame is forgotten (asked
  // again: not ready until a frame has looked); one absent from the cell DAT
  // is ready after one frame.
  REQUIRE(r.render(world, cam, 160, 90).has_value());  // nothing asked since the frame before
  CHECK_FALSE(r.prepare_landblock(demo::kLandBlock));
  CHECK_FALSE(r.prepare_landblock(0xF0F00000U));
  REQUIRE(r.render(tunnel, cam, 160, 90).has_value());
  CHECK(r.prepare_landblock(demo::kLandBlock));
  CHECK(r.prepare_landblock(0xF0F0FFFFU));
}

TEST_CASE(
    "Headless: the frame is lit and its sky drawn at the snapshot's game time, at the options' fixed hour "
    "without one",
    "[render][gl][sky]") {
  DERETH_GL_OR_RETURN();
  const auto made = make_renderer(demo_cell(), render::RendererOptions{});
  Renderer& renderer = *made;
  const glm::vec3 centre = render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 96.0F, 30.0F);
  const Camera cam = Camera::look_at(centre + glm::vec3(0.0F, 60.0F, 12.0F), centre + glm::vec3(0.0F, 0.0F, 18.0F));
  const auto frame = [&](const sim::RenderSnapshot& s) {
    REQUIRE(renderer.render(s, cam, 64, 48).has_value());
    return renderer.read_pixels();
  };
  const sim::RenderSnapshot no_game_time;
  const Image fixed_noon = frame(no_game_time);
  renderer.options().time_of_day = 0.72F;
  const Image fixed_dusk = frame(no_game_time);
  CHECK(render::compare_images(fixed_noon, fixed_dusk, 8).differing_pixels > 64 * 4);

  // A snapshot at dusk over the options' noon draws dusk, and one at noon
  // over the options' dusk draws noon: the fixed hour only stands in.
  renderer.options().time_of_day = 0.5F;
  sim::RenderSnapshot dusk;
  dusk.sky = sim::SkyTime{0.72F, 3, 360, 0, 0.0};
  CHECK(render::compare_images(frame(dusk), fixed_dusk, 0).differing_pixels == 0);
  renderer.options().time_of_day = 0.72F;
  sim::RenderSnapshot noon;
  noon.sky = sim::SkyTime{0.5F, 3, 360, 0, 0.0};
  CHECK(render::compare_images(frame(noon), fixed_noon, 0).differing_pixels == 0);
}

TEST_CASE(
    "Headless: frustum culling drops parts, markers, particles and terrain outside the view and keeps what is in it",
    "[render][gl][cull]") {
  DERETH_GL_OR_RETURN();
  render::RendererOptions options;
  options.record_draw_list = true;
  options.draw_sky_objects = false;
  auto created = Renderer::create(render::HeadlessContext::loader(), &demo_portal(), &demo_cell(), options);
  REQUIRE(created.has_value());
  (*created)->set_region(demo_region());
  Renderer& renderer = **created;
  const glm::vec3 spot = render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 96.0F, 60.0F);
  const Camera cam = Camera::look_at(spot - glm::vec3(0.0F, 6.0F, 0.0F), spot);  // looking north at the spot

  sim::RenderSnapshot snap;
  snap.objects.push_back(torso_object(sim::LocalId{1}, spot, 0.0F));                                  // in view
  snap.objects.push_back(torso_object(sim::LocalId{2}, spot + glm::vec3(0.0F, -12.0F, 0.0F), 0.0F));  // behind the eye
  snap.objects.push_back(torso_object(sim::LocalId{3}, spot + glm::vec3(40.0F, 0.0F, 0.0F), 0.0F));   // far right
  // A part just past the left edge whose box still reaches into the view: kept.
  snap.objects.push_back(torso_object(sim::LocalId{4}, spot + glm::vec3(-2.8F, 0.0F, 0.0F), 0.0F));
  snap.objects.push_back(marker_object(spot + glm::vec3(0.0F, 0.0F, 60.0F), 0x50000010, false));  // high above
  sim::EmitterSnapshot sparks;
  sparks.owner = sim::LocalId{5};
  sparks.gfx_obj = kSparkMesh;
  sparks.particles.push_back(sim::ParticleSnapshot{spot + glm::vec3(0.5F, 1.0F, 0.0F), 1.0F, 0.8F});    // in view
  sparks.particles.push_back(sim::ParticleSnapshot{spot + glm::vec3(0.0F, -20.0F, 0.0F), 1.0F, 0.8F});  // behind
  snap.emitters.push_back(sparks);

  REQUIRE(renderer.render(snap, cam, 96, 64).has_value());
  const render::RenderStats culled_stats = renderer.stats();
  const Image culled = renderer.read_pixels();
  std::vector<sim::LocalId> owners;
  for (const auto& r : renderer.last_draw_list()) {
    if (r.kind != render::DrawKind::Terrain) owners.push_back(r.owner);
  }
  CHECK(culled_stats.parts_drawn == 2);
  CHECK(culled_stats.parts_culled == 3);  // two torsos and the marker
  CHECK(culled_stats.markers == 0);
  CHECK(culled_stats.particles_drawn == 1);
  CHECK(culled_stats.particles_culled == 1);
  CHECK(std::count(owners.begin(), owners.end(), sim::LocalId{1}) > 0);
  CHECK(std::count(owners.begin(), owners.end(), sim::LocalId{4}) > 0);
  CHECK(std::count(owners.begin(), owners.end(), sim::LocalId{2}) == 0);
  CHECK(std::count(owners.begin(), owners.end(), sim::LocalId{3}) == 0);
  // Of the 3 x 3 landblocks within terrain_radius 1 (of the demo world's
  // 7 x 7), the eye in the centre block looking north sees the centre and
  // the northern row; the rest is outside the view.
  CHECK(culled_stats.terrain_blocks == 4);
  CHECK(culled_stats.terrain_blocks_culled == 5);

  // Without culling everything is submitted, and the picture is the same.
  renderer.options().frustum_cull = false;
  REQUIRE(renderer.render(snap, cam, 96, 64).has_value());
  CHECK(renderer.stats().parts_drawn == 4);
  CHECK(renderer.stats().markers == 1);
  CHECK(renderer.stats().particles_drawn == 2);
  CHECK(renderer.stats().parts_culled == 0);
  CHECK(renderer.stats().terrain_blocks == culled_stats.terrain_blocks + culled_stats.terrain_blocks_culled);
  CHECK(render::compare_images(renderer.read_pixels(), culled, 0).differing_pixels == 0);
}

namespace {
// Two empty emitters: the demo's spark mesh (owner `owner`) and its glow
// billboard texture (owner + 1).
struct SparksAndGlows {
  sim::EmitterSnapshot sparks;
  sim::EmitterSnapshot glows;
};
SparksAndGlows sparks_and_glows(std::uint32_t owner) {
  SparksAndGlows out;
  out.sparks.owner = sim::LocalId{owner};
  out.sparks.gfx_obj = kSparkMesh;
  out.glows.owner = sim::LocalId{owner + 1};
  out.glows.texture = kGlowTexture;
  return out;
}

// Two-sided sparks (degrade mode 2: turned to face the eye) and glow
// squares (texture billboards), 200 of each crowded so that they overlap
// and blend over each other, fading as they go, in front of five torsos
// about `spot` (with `markers`, a marker cube above each torso).
sim::RenderSnapshot crowded_particles(const glm::vec3& spot, bool markers) {
  sim::RenderSnapshot snap;
  for (int x = -2; x <= 2; ++x) {
    const glm::vec3 where = spot + glm::vec3(static_cast<float>(x) * 0.8F, 2.0F, 0.0F);
    snap.objects.push_back(torso_object(sim::LocalId{static_cast<std::uint32_t>(10 + x)}, where, 0.0F));
    if (markers) {
      snap.objects.push_back(
          marker_object(where + glm::vec3(0.0F, 0.0F, 1.0F), 0x50000300U + static_cast<std::uint32_t>(x + 2), false));
    }
  }
  auto [sparks, glows] = sparks_and_glows(500);
  for (int i = 0; i < 200; ++i) {
    const float a = static_cast<float>(i) * 0.37F;
    const glm::vec3 p = spot + glm::vec3(std::cos(a) * 1.5F, 0.2F + static_cast<float>(i % 13) * 0.25F,
                                         std::sin(a) * 0.8F + static_cast<float>(i % 5) * 0.3F);
    sparks.particles.push_back(sim::ParticleSnapshot{p, 0.9F, 0.2F + 0.003F * static_cast<float>(i)});
    glows.particles.push_back(sim::ParticleSnapshot{p + glm::vec3(0.2F, 0.1F, 0.3F), 0.7F, 0.6F});
  }
  snap.emitters.push_back(sparks);
  snap.emitters.push_back(glows);
  return snap;
}

// One view of crowded_particles' crowd rendered with a RendererOptions flag
// on, then off: the stats, the picture and the draw list of each.
struct OnOff {
  render::RenderStats on;
  render::RenderStats off;
  Image on_image;
  Image off_image;
  std::vector<render::DrawRecord> on_list;
  std::vector<render::DrawRecord> off_list;
};
// Renders crowded_particles(spot, markers) seen from four sides (the eye at
// spot - from) at two sizes, each view with `flag` on and then off, and calls
// check(result) for each (the view named in the failure's message).
template <class Check>
void crowd_on_and_off(bool markers, bool render::RendererOptions::*flag, Check&& check) {
  render::RendererOptions options;
  options.record_draw_list = true;
  const auto made = make_renderer(demo_cell(), options);
  Renderer& renderer = *made;
  const glm::vec3 spot = render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 96.0F, 60.0F);
  const sim::RenderSnapshot snap = crowded_particles(spot, markers);
  for (const glm::vec3 from : {glm::vec3(0.0F, 6.0F, -1.0F), glm::vec3(-4.0F, 2.0F, -0.5F),
                               glm::vec3(1.0F, -5.0F, 0.2F), glm::vec3(0.0F, 0.3F, -3.0F)}) {
    const Camera cam = Camera::look_at(spot - from, spot + glm::vec3(0.0F, 1.0F, 0.5F));
    for (const auto& [w, h] : {std::pair{160, 90}, std::pair{333, 211}}) {
      OnOff r;
      renderer.options().*flag = true;
      REQUIRE(renderer.render(snap, cam, w, h).has_value());
      r.on = renderer.stats();
      r.on_image = renderer.read_pixels();
      r.on_list = renderer.last_draw_list();
      renderer.options().*flag = false;
      REQUIRE(renderer.render(snap, cam, w, h).has_value());
      r.off = renderer.stats();
      r.off_image = renderer.read_pixels();
      r.off_list = renderer.last_draw_list();
      INFO("view from " << from.x << ", " << from.y << ", " << from.z << " at " << w << "x" << h);
      check(r);
    }
  }
}
}  // namespace

TEST_CASE("Headless: runs of one mesh and surface are drawn as one instanced call, with the same pixels and order",
          "[render][gl][batch]") {
  DERETH_GL_OR_RETURN();
  render::RendererOptions options;
  options.record_draw_list = true;
  auto created = Renderer::create(render::HeadlessContext::loader(), &demo_portal(), &demo_cell(), options);
  REQUIRE(created.has_value());
  (*created)->set_region(demo_region());
  Renderer& renderer = **created;
  const glm::vec3 spot = render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 96.0F, 60.0F);
  const Camera cam = Camera::look_at(spot - glm::vec3(0.0F, 8.0F, -1.0F), spot);

  // A crowd of opaque torsos and markers, a few translucent torsos, and a
  // cloud of sparks and glows in front: the sky, terrain, opaque, clip and alpha passes.
  sim::RenderSnapshot snap;
  std::uint32_t id = 1;
  for (int x = -3; x <= 3; ++x) {
    for (int y = 0; y < 3; ++y) {
      const glm::vec3 where = spot + glm::vec3(static_cast<float>(x) * 0.9F, static_cast<float>(y) * 2.0F, 0.0F);
      const float translucency = (x + y) % 3 == 0 ? 0.5F : 0.0F;
      snap.objects.push_back(torso_object(sim::LocalId{id++}, where, translucency));
      snap.objects.push_back(marker_object(where + glm::vec3(0.0F, 0.0F, 1.0F), 0x50000200U + id++, false));
    }
  }
  auto [sparks, glows] = sparks_and_glows(200);
  for (int i = 0; i < 40; ++i) {
    const float a = static_cast<float>(i) * 0.7F;
    const glm::vec3 p = spot + glm::vec3(std::cos(a) * 2.5F, 1.0F + static_cast<float>(i % 7) * 0.6F, std::sin(a));
    sparks.particles.push_back(sim::ParticleSnapshot{p, 0.8F, 0.3F + 0.015F * static_cast<float>(i)});
    glows.particles.push_back(sim::ParticleSnapshot{p + glm::vec3(0.3F, 0.2F, 0.4F), 0.6F, 0.7F});
  }
  snap.emitters.push_back(sparks);
  snap.emitters.push_back(glows);

  REQUIRE(renderer.render(snap, cam, 160, 90).has_value());
  const render::RenderStats batched = renderer.stats();
  const Image batched_image = renderer.read_pixels();
  const std::vector<render::DrawRecord> batched_list = renderer.last_draw_list();

  renderer.options().batch_draws = false;
  REQUIRE(renderer.render(snap, cam, 160, 90).has_value());
  const render::RenderStats single = renderer.stats();
  const std::vector<render::DrawRecord>& single_list = renderer.last_draw_list();

  INFO("batched: " << batched.draw_calls << " calls for " << batched.batches
                   << " batches; single: " << single.draw_calls << " calls");
  CHECK(single.draw_calls == single.batches);
  CHECK(batched.batches == single.batches);
  CHECK(batched.triangles == single.triangles);
  CHECK(batched.draw_calls * 2 < single.draw_calls);
  // The same pixels either way.
  const auto diff = render::compare_images(renderer.read_pixels(), batched_image, 0);
  CHECK(diff.differing_pixels == 0);
  // The delayed lists keep their order (farthest first); only the opaque list is sorted by state.
  REQUIRE(batched_list.size() == single_list.size());
  std::size_t delayed = 0;
  for (std::size_t i = 0; i < batched_list.size(); ++i) {
    if (batched_list[i].alpha == render::AlphaClass::Opaque) continue;
    ++delayed;
    CHECK(batched_list[i].owner == single_list[i].owner);
    CHECK(batched_list[i].distance == single_list[i].distance);
    CHECK(batched_list[i].kind == single_list[i].kind);
  }
  CHECK(delayed > 80);
}

TEST_CASE("Headless: a flat particle seen from one side sends no back faces and draws the same pixels",
          "[render][gl][particles]") {
  DERETH_GL_OR_RETURN();
  // The crowd of sparks and glows in front of torsos, back faces left out and sent.
  std::size_t left_out = 0;
  crowd_on_and_off(false, &render::RendererOptions::skip_flat_back_faces, [&](const OnOff& r) {
    CHECK(r.off.back_faces_left_out == 0);
    CHECK(r.on.triangles + r.on.back_faces_left_out == r.off.triangles);
    CHECK(r.on.particles_drawn == r.off.particles_drawn);
    CHECK(r.on_list.size() == r.off_list.size());
    CHECK(render::compare_images(r.off_image, r.on_image, 0).differing_pixels == 0);
    left_out += r.on.back_faces_left_out;
  });
  CHECK(left_out > 1000);  // each drawn spark's two back triangles, each glow's one
}

TEST_CASE("Headless: runs of a small mesh drawn expanded, not instanced, draw the same pixels in the same order",
          "[render][gl][particles]") {
  DERETH_GL_OR_RETURN();
  // The crowd of sparks and glows in front of torsos and marker cubes (too
  // many vertices to expand), expanded and instanced.
  std::size_t expanded = 0;
  crowd_on_and_off(true, &render::RendererOptions::expand_small_runs, [&](const OnOff& r) {
    CHECK(r.off.expanded_draws == 0);
    CHECK(r.on.draw_calls == r.off.draw_calls);
    CHECK(r.on.batches == r.off.batches);
    CHECK(r.on.triangles == r.off.triangles);
    CHECK(r.on.particles_drawn == r.off.particles_drawn);
    REQUIRE(r.on_list.size() == r.off_list.size());
    for (std::size_t i = 0; i < r.on_list.size(); ++i) {
      CHECK(r.on_list[i].owner == r.off_list[i].owner);
      CHECK(r.on_list[i].distance == r.off_list[i].distance);
    }
    CHECK(render::compare_images(r.off_image, r.on_image, 0).differing_pixels == 0);
    expanded += r.on.expanded_draws;
  });
  CHECK(expanded > 8);  // the sparks' and the glows' runs in every view
}

TEST_CASE(
    "Headless: each draw is lit only by the lights that reach it, eight at most (Render::minimize_object_lighting "
    "0x0054D480)",
    "[retail][render][gl][lights]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer(false);
  renderer->options().record_draw_list = true;
  // No sun, no ambient: only the marker's own 0.35 luminosity, so a light shows.
  renderer->options().use_region_sky = false;
  renderer->options().ambient = glm::vec3(0.0F);
  renderer->options().sun_color = glm::vec3(0.0F);
  const glm::vec3 left = kSpot + glm::vec3(-1.5F, 0.0F, 0.0F);
  const glm::vec3 right = kSpot + glm::vec3(1.5F, 0.0F, 0.0F);
  sim::RenderSnapshot snap;
  snap.objects.push_back(marker_object(left, 0x80000011, false));
  snap.objects.push_back(marker_object(right, 0x80000012, false));
  // A blue light 0.8 m in front of the left marker, falloff 1 m: it reaches
  // the left cube's sphere (centre 0.3 m up, radius about 0.52) but not the
  // right one's, 3 m away.
  sim::LightSnapshot red;
  red.position = left + glm::vec3(0.0F, -0.8F, 0.3F);
  red.color = glm::vec4(0.0F, 0.0F, 1.0F, 1.0F);
  red.intensity = 2.0F;
  red.falloff = 1.0F;
  snap.lights.push_back(red);
  const Camera cam = looking_north_at(kSpot + glm::vec3(0.0F, 0.0F, 0.3F), 5.0F);
  const auto lights_of = [&](std::uint32_t guid) {
    for (const auto& r : renderer->last_draw_list()) {
      if (r.kind == render::DrawKind::Marker && r.owner == static_cast<sim::LocalId>(guid & 0xFF)) return r.lights;
    }
    FAIL("no draw for the marker");
    return std::size_t{99};
  };
  REQUIRE(renderer->render(snap, cam, 64, 64).has_value());
  CHECK(renderer->stats().lights == 1);
  CHECK(lights_of(0x80000011) == 1);
  CHECK(lights_of(0x80000012) == 0);
  const Image lit = renderer->read_pixels();
  // The right marker looks as it does with no light at all; the left one is bluer.
  sim::RenderSnapshot dark = snap;
  dark.lights.clear();
  REQUIRE(renderer->render(dark, cam, 64, 64).has_value());
  const Image unlit = renderer->read_pixels();
  const auto l = cam.project(left + glm::vec3(0.0F, -0.3F, 0.3F), 64, 64);
  const auto r = cam.project(right + glm::vec3(0.0F, -0.3F, 0.3F), 64, 64);
  REQUIRE(l.has_value());
  REQUIRE(r.has_value());
  INFO("left lit " << int(at(lit, *l)[2]) << " unlit " << int(at(unlit, *l)[2]));
  CHECK(at(lit, *l)[2] > at(unlit, *l)[2] + 20);
  CHECK(near(at(lit, *r), at(unlit, *r), 0));
  // Lit per vertex (retail's fixed-function Gouraud, the default), the face's
  // centre gets the corners' light; per fragment it gets its own, nearer the
  // light, so brighter.
  // (A weaker light, so neither saturates.)
  REQUIRE(renderer->options().vertex_lighting);
  sim::RenderSnapshot weak = snap;
  weak.lights[0].intensity = 0.3F;
  REQUIRE(renderer->render(weak, cam, 64, 64).has_value());
  const Image per_vertex = renderer->read_pixels();
  renderer->options().vertex_lighting = false;
  REQUIRE(renderer->render(weak, cam, 64, 64).has_value());
  const Image per_fragment = renderer->read_pixels();
  renderer->options().vertex_lighting = true;
  INFO("face centre per vertex " << int(at(per_vertex, *l)[2]) << ", per fragment " << int(at(per_fragment, *l)[2]));
  CHECK(at(per_vertex, *l)[2] > at(unlit, *l)[2]);
  CHECK(at(per_fragment, *l)[2] > at(per_vertex, *l)[2]);

  // Twelve dynamic lights around the left marker: at retail's highest
  // degrade level (deg_mul 1) the dynamic list holds ten, the marker takes
  // eight. Two static lights join the static list and find no slot left.
  sim::RenderSnapshot many = dark;
  for (int i = 0; i < 12; ++i) {
    sim::LightSnapshot d = red;
    d.position = left + glm::vec3(0.05F * static_cast<float>(i), -0.8F, 0.3F);
    many.lights.push_back(d);
  }
  for (int i = 0; i < 2; ++i) {
    sim::LightSnapshot s = red;
    s.is_static = true;
    s.position = left + glm::vec3(0.0F, -0.5F - 0.1F * static_cast<float>(i), 0.3F);
    many.lights.push_back(s);
  }
  REQUIRE(renderer->options().degrade.deg_mul == 1.0F);
  REQUIRE(renderer->render(many, cam, 64, 64).has_value());
  CHECK(renderer->stats().lights == 12);  // 10 dynamic + 2 static
  CHECK(lights_of(0x80000011) == 8);
  CHECK(lights_of(0x80000012) == 0);
  // At deg_mul 0 the dynamic list holds seven: seven dynamic and one static.
  renderer->options().degrade.deg_mul = 0.0F;
  REQUIRE(renderer->render(many, cam, 64, 64).has_value());
  CHECK(renderer->stats().lights == 9);
  CHECK(lights_of(0x80000011) == 8);
  CHECK(lights_of(0x80000012) == 0);
}

namespace {

// A cell DAT of the 5x5 landblocks around (cx, cy), their heights a rough
// hash of the global vertex (so neighbours share their edges, as retail's
// landblocks do, and the edges are anything but straight), their terrain
// the demo block's.
dat::DatFile rough_cell(std::uint32_t cx, std::uint32_t cy) {
  auto demo_block = dat::read_land_block(*demo().cell.read(demo::kLandBlock), demo::kLandBlock);
  REQUIRE(demo_block.has_value());
  std::vector<dat::DatRecord> records;
  for (std::uint32_t x = cx - 2; x <= cx + 2; ++x) {
    for (std::uint32_t y = cy - 2; y <= cy + 2; ++y) {
      dat::LandBlock b = *demo_block;
      b.id = block_id(x, y);
      b.has_objects = 0;
      for (std::uint32_t vx = 0; vx <= 8; ++vx) {
        for (std::uint32_t vy = 0; vy <= 8; ++vy) {
          std::uint32_t h = (x * 8 + vx) * 73856093U ^ (y * 8 + vy) * 19349663U;
          h ^= h >> 13;
          h *= 2246822519U;
          h ^= h >> 16;
          b.height[dat::land_block_vertex(vx, vy)] = static_cast<std::uint8_t>(40U + h % 100U);  // 20..70 m
        }
      }
      records.push_back({b.id, dat::write_land_block(b)});
    }
  }
  auto built = dat::build_dat(records, dat::DatWriterOptions{dat::DatKind::Cell});
  REQUIRE(built.has_value());
  auto file = dat::DatFile::from_bytes(std::move(*built), "rough cell");
  REQUIRE(file.has_value());
  return std::move(*file);
}

}  // namespace

TEST_CASE("Headless: with terrain_radius 2 the outer ring is drawn at lower detail, with no gaps at the seams",
          "[render][gl][terrain]") {
  DERETH_GL_OR_RETURN();
  const dat::DatFile cell = rough_cell(0xA9, 0xB4);
  render::RendererOptions options;
  options.terrain_radius = 2;
  options.draw_sky_objects = false;
  options.use_region_sky = false;  // no fog: the background is the clear colour only
  const glm::vec3 centre = render::land_block_origin(block_id(0xA9, 0xB4)) + glm::vec3(96.0F, 96.0F, 0.0F);
  // From high over the centre block, looking steeply out: every pixel is terrain of the 5x5 blocks.
  const auto looking = [&centre](glm::vec3 d) {
    return Camera::look_at(centre - 80.0F * d + glm::vec3(0.0F, 0.0F, 500.0F), centre + 8.0F * d);
  };
  constexpr int kWidth = 288;
  constexpr int kHeight = 384;
  const sim::RenderSnapshot snap;
  const auto background_pixels = [](const Image& img, const Px& bg) {
    std::size_t n = 0;
    for (int y = 0; y < img.height; ++y) {
      for (int x = 0; x < img.width; ++x) n += near(img.at(x, y), bg, 3) ? 1U : 0U;
    }
    return n;
  };
  options.terrain_lod = false;
  const auto full = make_renderer(cell, options);
  options.terrain_lod = true;
  const auto lod = make_renderer(cell, options);
  const auto& cache = lod->terrain_cache_stats();
  const char* names[] = {"north", "east", "south", "west"};
  const glm::vec3 dirs[] = {{0.0F, 1.0F, 0.0F}, {1.0F, 0.0F, 0.0F}, {0.0F, -1.0F, 0.0F}, {-1.0F, 0.0F, 0.0F}};
  std::size_t far_drawn = 0;
  for (std::size_t v = 0; v < 4; ++v) {
    INFO("looking " << names[v]);
    const Camera cam = looking(dirs[v]);
    REQUIRE(full->render(snap, cam, kWidth, kHeight).has_value());
    const render::RenderStats full_stats = full->stats();
    const Image full_img = full->read_pixels();
    CHECK(full_stats.terrain_blocks + full_stats.terrain_blocks_culled == 25);
    CHECK(full_stats.terrain_blocks_far == 0);
    CHECK(full_stats.terrain_triangles == 128 * full_stats.terrain_blocks);
    CHECK(background_pixels(full_img, sky(*full)) == 0);  // the framing: terrain everywhere

    REQUIRE(lod->render(snap, cam, kWidth, kHeight).has_value());
    const render::RenderStats& stats = lod->stats();
    const Image img = lod->read_pixels();
    if (const char* dir = std::getenv("DERETH_SCREENSHOT_DIR"); dir != nullptr) {
      REQUIRE(lod->write_screenshot(std::filesystem::path(dir) / (std::string("terrain_lod_") + names[v] + ".png")));
      REQUIRE(full->write_screenshot(std::filesystem::path(dir) / (std::string("terrain_full_") + names[v] + ".png")));
    }
    CHECK(stats.terrain_blocks == full_stats.terrain_blocks);
    CHECK(stats.terrain_blocks_culled == full_stats.terrain_blocks_culled);
    // The outer ring at 4 cells a side: 32 triangles a block, not 128.
    const std::size_t near_blocks = stats.terrain_blocks - stats.terrain_blocks_far;
    CHECK(near_blocks <= 9);
    CHECK(stats.terrain_blocks_far >= 2);
    CHECK(stats.terrain_triangles == 128 * near_blocks + 32 * stats.terrain_blocks_far);
    CHECK(stats.terrain_triangles < full_stats.terrain_triangles);
    far_drawn += stats.terrain_blocks_far;
    // No seam opens onto the background, and the far ring is the coarser terrain, not the full one.
    CHECK(background_pixels(img, sky(*lod)) == 0);
    CHECK(render::compare_images(img, full_img, 8).differing_pixels > 100);
    // One far mesh per outer block (culled ones too: made when first asked for), none remade per frame.
    CHECK(cache.lod_meshes_built == 16);
    CHECK(cache.built == 25);
  }
  CHECK(far_drawn >= 8);
  const Camera cam = looking(dirs[0]);
  REQUIRE(lod->render(snap, cam, kWidth, kHeight).has_value());
  const Image img = lod->read_pixels();
  for (int i = 0; i < 2; ++i) REQUIRE(lod->render(snap, cam, kWidth, kHeight).has_value());
  CHECK(cache.lod_meshes_built == 16);
  CHECK(render::compare_images(lod->read_pixels(), img, 0).differing_pixels == 0);
  // A block north: the rings move; only the blocks whose detail or transition changed get a mesh.
  Camera north = cam;
  north.position += glm::vec3(0.0F, 192.0F, 0.0F);
  REQUIRE(lod->render(snap, north, kWidth, kHeight).has_value());
  const std::uint64_t after_move = cache.lod_meshes_built;
  CHECK(after_move > 16);
  REQUIRE(lod->render(snap, north, kWidth, kHeight).has_value());
  CHECK(cache.lod_meshes_built == after_move);
}

TEST_CASE("Headless: the terrain blocks are drawn nearest first, some reversed, with the pixels of the grid order",
          "[render][gl][terrain]") {
  DERETH_GL_OR_RETURN();
  const dat::DatFile cell = rough_cell(0xA9, 0xB4);
  const glm::vec3 centre = render::land_block_origin(block_id(0xA9, 0xB4)) + glm::vec3(96.0F, 96.0F, 0.0F);
  sim::RenderSnapshot scene;
  scene.objects.push_back(torso_object(sim::LocalId{1}, centre + glm::vec3(0.0F, 12.0F, 75.0F), 0.0F));
  // Low over the jagged blocks (heights 20..70 m), where hills hide the land
  // behind them and touching triangles meet at one depth on some pixels
  // (drawing each block's cells nearest first moved one pixel here), looking
  // each way, down, and out of a corner; the 3x3 square at full detail and
  // the 5x5 with its far ring.
  const std::vector<std::pair<glm::vec3, glm::vec3>> views{
      {centre + glm::vec3(0.0F, -60.0F, 75.0F), centre + glm::vec3(0.0F, 100.0F, 40.0F)},
      {centre + glm::vec3(0.0F, 60.0F, 75.0F), centre + glm::vec3(0.0F, -100.0F, 40.0F)},
      {centre + glm::vec3(60.0F, 0.0F, 75.0F), centre + glm::vec3(-100.0F, 10.0F, 40.0F)},
      {centre + glm::vec3(-60.0F, 20.0F, 75.0F), centre + glm::vec3(100.0F, -10.0F, 40.0F)},
      {centre + glm::vec3(-90.0F, -90.0F, 80.0F), centre + glm::vec3(-300.0F, -250.0F, 30.0F)},
      {centre + glm::vec3(10.0F, 5.0F, 300.0F), centre + glm::vec3(40.0F, 30.0F, 0.0F)},
  };
  std::size_t reordered = 0;
  std::size_t reversed = 0;
  for (const int radius : {1, 2}) {
    render::RendererOptions options;
    options.terrain_radius = radius;
    options.record_draw_list = true;
    const auto renderer = make_renderer(cell, options);
    for (const auto& [w, h] : {std::pair{240, 160}, std::pair{97, 61}}) {
      for (const auto& [eye, at] : views) {
        INFO("radius " << radius << ", " << w << "x" << h << ", eye " << eye.x - centre.x << ", " << eye.y - centre.y);
        const Camera cam = Camera::look_at(eye, at);
        renderer->options().terrain_front_to_back = false;
        REQUIRE(renderer->render(scene, cam, w, h).has_value());
        const Image grid = renderer->read_pixels();
        std::vector<std::uint32_t> grid_blocks;
        for (const auto& r : renderer->last_draw_list()) {
          if (r.kind == render::DrawKind::Terrain) grid_blocks.push_back(r.block);
        }
        renderer->options().terrain_front_to_back = true;
        REQUIRE(renderer->render(scene, cam, w, h).has_value());
        CHECK(render::compare_images(grid, renderer->read_pixels(), 0).differing_pixels == 0);
        // The block nearest the eye (by its distance to their squares) first.
        std::vector<std::uint32_t> blocks;
        std::vector<float> distances;
        for (const auto& r : renderer->last_draw_list()) {
          if (r.kind != render::DrawKind::Terrain) continue;
          blocks.push_back(r.block);
          const glm::vec2 lo(render::land_block_origin(r.block));
          const glm::vec2 e(cam.eye());
          distances.push_back(glm::length(glm::max(glm::max(lo - e, e - (lo + glm::vec2(192.0F))), glm::vec2(0.0F))));
        }
        REQUIRE_FALSE(blocks.empty());
        // (At most nine blocks in view are ordered: the 5x5 square keeps the grid order.)
        if (radius == 1) CHECK(distances.front() == *std::min_element(distances.begin(), distances.end()));
        reversed += renderer->stats().terrain_blocks_reversed;
        CHECK(blocks.size() == renderer->stats().terrain_blocks);
        CHECK(std::is_permutation(blocks.begin(), blocks.end(), grid_blocks.begin(), grid_blocks.end()));
        if (blocks != grid_blocks) ++reordered;
      }
    }
  }
  // The order is in use, not only harmless, reversed blocks included.
  CHECK(reordered >= 8);
  CHECK(reversed >= 8);
}

TEST_CASE("Headless: the renderer draws the terrain and sky with the Region it is handed and reads none itself",
          "[render][gl][terrain][record_cache]") {
  DERETH_GL_OR_RETURN();
  render::RendererOptions options;
  options.draw_sky_objects = false;
  auto created = Renderer::create(render::HeadlessContext::loader(), &demo_portal(), &demo_cell(), options);
  REQUIRE(created.has_value());
  Renderer& renderer = **created;
  const glm::vec3 spot = render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 96.0F, 60.0F);
  const Camera cam = Camera::look_at(spot + glm::vec3(0.0F, -80.0F, 40.0F), spot - glm::vec3(0.0F, 0.0F, 50.0F));
  const sim::RenderSnapshot empty;
  // None handed: no terrain, the fixed clear colour.
  REQUIRE(renderer.render(empty, cam, 64, 64).has_value());
  CHECK(renderer.stats().terrain_blocks == 0);
  const Image bare = renderer.read_pixels();
  CHECK(count_not_sky(bare, sky(renderer)) == 0);

  renderer.set_region(demo_region());
  REQUIRE(renderer.render(empty, cam, 64, 64).has_value());
  CHECK(renderer.stats().terrain_blocks > 0);
  const Image with_region = renderer.read_pixels();
  const auto built = renderer.terrain_cache_stats().built;
  CHECK(built > 0);
  // The same one again changes nothing; another (equal) one replaces it:
  // its layers uploaded and the blocks composited again, the same picture.
  renderer.set_region(demo_region());
  REQUIRE(renderer.render(empty, cam, 64, 64).has_value());
  CHECK(renderer.terrain_cache_stats().built == built);
  renderer.set_region(std::make_shared<const dat::Region>(*demo_region()));
  REQUIRE(renderer.render(empty, cam, 64, 64).has_value());
  CHECK(renderer.terrain_cache_stats().built == 2 * built);
  CHECK(renderer.read_pixels().pixels == with_region.pixels);
  // Taken away: no terrain again.
  renderer.set_region(nullptr);
  REQUIRE(renderer.render(empty, cam, 64, 64).has_value());
  CHECK(renderer.stats().terrain_blocks == 0);
  CHECK(renderer.read_pixels().pixels == bare.pixels);
}
