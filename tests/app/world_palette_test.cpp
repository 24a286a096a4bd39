// A world object's ObjDesc palette, from the server's CreateObject and
// ObjDescEvent to the colours drawn: the demo human's skin (a P8 texture of
// the base palette 0x04000010) recoloured by a skin subpalette, as ACE
// sends a player's.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/render/camera.hpp"
#include "dereth/render/headless_context.hpp"
#include "dereth/render/image.hpp"
#include "dereth/render/renderer.hpp"

using namespace dereth;

namespace {

constexpr std::uint32_t kGuid = 0x50000042;
constexpr std::uint32_t kHumanPalette = 0x04000010;
constexpr std::uint32_t kDarkSkin = 0x04000014;
constexpr std::uint32_t kPaleSkin = 0x04000011;

const dat::DatFile& demo_portal() {
  static const auto* portal = [] {
    auto world = demo::build_demo_world();
    REQUIRE(world.has_value());
    auto p = dat::DatFile::from_bytes(world->portal, "demo_portal");
    REQUIRE(p.has_value());
    return new dat::DatFile(std::move(*p));
  }();
  return *portal;
}

const sim::ObjectSnapshot* find(const sim::RenderSnapshot& s, std::uint32_t guid) {
  for (const auto& o : s.objects) {
    if (o.guid == guid) return &o;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("A world object's ObjDesc palette and texture changes reach its snapshot and its drawn colours",
          "[app][objdesc][palette][gl]") {
  core::ManualClock clock;
  app::World world(clock, &demo_portal());
  world.assume_player(0x50000001);  // someone else: this object is another player or a creature
  protocol::CreateObject create;
  create.guid = kGuid;
  create.physics.setup_id = demo::kHumanSetup;
  create.physics.position = protocol::Position{(demo::kLandBlock & 0xFFFF0000U) | 0x25U, {100, 100, 20}, {1, 0, 0, 0}};
  create.weenie.name = "Dusk";
  // Skin 0..191 from the darkest skin palette (wire units of 8), and the
  // eye strip's face on the head.
  create.model.base_palette = kHumanPalette;
  create.model.palettes = {{kDarkSkin, 0, 24}};
  create.model.texture_changes = {{1, 0x05000001, 0x05000051}};
  world.handle(protocol::encode(create));
  const sim::SnapshotPtr snap = world.build_snapshot();
  const sim::ObjectSnapshot* o = find(*snap, kGuid);
  INFO("objects " << snap->objects.size() << ", handled " << world.stats().handled << ", decode errors "
                  << world.stats().decode_errors);
  REQUIRE(o != nullptr);
  REQUIRE(o->parts.size() == 6);
  CHECK(o->palette.base_palette == kHumanPalette);
  CHECK(o->palette.subpalettes == std::vector<sim::SubpaletteChange>{{kDarkSkin, 0, 192}});
  REQUIRE(o->parts[1].texture_changes.size() == 1);
  CHECK(o->parts[1].texture_changes[0] == sim::TextureChange{0x05000001, 0x05000051});

  // An ObjDescEvent replaces the description: now the palest skin.
  protocol::ObjDescEvent event;
  event.guid = kGuid;
  event.model.base_palette = kHumanPalette;
  event.model.palettes = {{kPaleSkin, 0, 24}};
  event.visual_desc_ts = 1;
  world.handle(protocol::encode(event));
  const sim::SnapshotPtr pale = world.build_snapshot();
  REQUIRE(find(*pale, kGuid) != nullptr);
  CHECK(find(*pale, kGuid)->palette.subpalettes == std::vector<sim::SubpaletteChange>{{kPaleSkin, 0, 192}});
  CHECK(find(*pale, kGuid)->parts[1].texture_changes.empty());

  // Drawn: the right arm (skin, no face) dark with the first description,
  // light with none.
  auto context = render::HeadlessContext::create();
  if (!context) {
    const char* required = std::getenv("DERETH_REQUIRE_GL");
    if (required != nullptr && std::string(required) == "1") FAIL(context.error().message());
    WARN("no headless OpenGL context: " << context.error().message());
    return;
  }
  REQUIRE(context->make_current());
  render::RendererOptions options;
  options.draw_terrain = false;
  options.draw_sky_objects = false;
  auto renderer = render::Renderer::create(render::HeadlessContext::loader(), &demo_portal(), nullptr, options);
  REQUIRE(renderer.has_value());
  (*renderer)->set_region(world.region());  // as the frame loop hands it over
  const glm::vec3 arm = o->parts[3].frame.origin + glm::vec3(0.0F, 0.0F, -0.3F);
  const render::Camera cam = render::Camera::look_at(arm + glm::vec3(0.0F, -0.8F, 0.0F), arm);
  const auto draw = [&](const sim::RenderSnapshot& s) {
    REQUIRE((*renderer)->render(s, cam, 48, 48).has_value());
    return (*renderer)->read_pixels();
  };
  const render::Image dark = draw(*snap);
  sim::RenderSnapshot plain_snap = *snap;
  for (auto& obj : plain_snap.objects) obj.palette = {};
  const render::Image plain = draw(plain_snap);
  const auto d = dark.at(24, 24);
  const auto p = plain.at(24, 24);
  INFO("arm with the dark skin " << int(d[0]) << " " << int(d[1]) << " " << int(d[2]) << ", without " << int(p[0])
                                 << " " << int(p[1]) << " " << int(p[2]));
  CHECK(p[0] > 150);
  CHECK(d[0] + 60 < p[0]);
  CHECK(render::compare_images(dark, plain, 8).differing_pixels > 150);
  if (const char* keep = std::getenv("DERETH_TEST_PICTURES"); keep != nullptr && *keep != '\0') {
    CHECK(render::write_png(std::filesystem::path(keep) / "world_object_dark_skin.png", dark));
    CHECK(render::write_png(std::filesystem::path(keep) / "world_object_no_palette.png", plain));
  }
}
