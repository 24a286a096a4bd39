// The landscape and the renderer's terrain read the cell DAT through one
// cache (World::shared_cell_records): a landblock the landscape has loaded is
// not read again when the terrain draws it.
#include <catch2/catch.hpp>

#include <string>

#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/render/camera.hpp"
#include "dereth/render/headless_context.hpp"
#include "dereth/render/renderer.hpp"

#include "support/gl_context.hpp"
#include "world_support.hpp"

using namespace dereth;

TEST_CASE("World: the landscape and the terrain share the cell records, so neither reads a block the other holds",
          "[app][terrain][cell_records][gl]") {
  const auto& dats = dereth::test::demo_dats();
  const std::uint32_t centre = (demo::kLandBlock & 0xFFFF0000U) | 0x0024U;
  // What the landscape reads by itself: LScape's 11 x 11 grid around the
  // centre holds the whole 7 x 7 demo world (LandBlocks, LandBlockInfos, EnvCells).
  core::ManualClock clock;
  app::World alone(clock, &dats.portal);
  CHECK(alone.shared_cell_records() == nullptr);  // none before the terrain
  REQUIRE(alone.use_terrain(&dats.cell));
  dereth::test::load_grid(alone, centre);
  const std::size_t landscape_reads = alone.shared_cell_records()->reads();
  REQUIRE(landscape_reads > 49);

  DERETH_GL_OR_RETURN();
  render::RendererOptions options;
  options.draw_sky_objects = false;
  options.terrain_radius = 1;  // 3 x 3 blocks, all inside the landscape's grid
  // Above the centre block's middle (global metres: 192 a block), looking over it.
  const glm::vec3 spot(static_cast<float>(demo::kLandBlock >> 24) * 192.0F + 96.0F,
                       static_cast<float>((demo::kLandBlock >> 16) & 0xFFU) * 192.0F + 96.0F, 60.0F);
  const render::Camera cam = render::Camera::look_at(spot, spot + glm::vec3(0.0F, 40.0F, -40.0F));
  const sim::RenderSnapshot empty;
  // A renderer handed `world`'s caches, as a frame loop hands them over.
  const auto renderer_of = [&](app::World& world) {
    auto made = render::Renderer::create(render::HeadlessContext::loader(), &dats.portal, &dats.cell, options);
    REQUIRE(made.has_value());
    (*made)->set_records(world.shared_records());
    (*made)->set_cell_records(world.shared_cell_records());
    (*made)->set_region(world.region());
    return std::move(*made);
  };

  SECTION("the terrain first: the landscape reads only the blocks the terrain does not hold") {
    app::World world(clock, &dats.portal);
    REQUIRE(world.use_terrain(&dats.cell));
    const auto cells = world.shared_cell_records();
    auto renderer = renderer_of(world);
    REQUIRE(renderer->render(empty, cam, 64, 64).has_value());
    CHECK(renderer->stats().terrain_blocks > 0);
    CHECK(renderer->terrain_cache_stats().built == 9);
    CHECK(cells->reads() == 9);  // read through the world's records, not the renderer's own
    dereth::test::load_grid(world, centre);
    CHECK(cells->reads() == landscape_reads);  // the nine the terrain holds were not read again
  }
  SECTION("the landscape first: the terrain draws nine of its blocks and reads none") {
    auto renderer = renderer_of(alone);
    REQUIRE(renderer->render(empty, cam, 64, 64).has_value());
    CHECK(renderer->terrain_cache_stats().built == 9);
    CHECK(alone.shared_cell_records()->reads() == landscape_reads);
    CHECK(alone.shared_cell_records()->missing().empty());
  }
}
