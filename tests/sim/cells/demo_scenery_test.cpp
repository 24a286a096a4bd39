// The demo world's scenery (src/demo add_scenes, docs/dat.md "The synthetic
// demo world"): its grass gets pines, bushes and boulders by retail's rule
// (CLandBlock::get_land_scenes), none in the town's clearing, on the road or
// in the house's cell.
#include <catch2/catch.hpp>

#include <memory>

#include <glm/gtc/quaternion.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/sim/cells/scenery.hpp"
#include "dereth/sim/object/physics_obj.hpp"

#include "cells/dat_cells_support.hpp"

using namespace dereth;

TEST_CASE("The demo's grass has scenery, clear of the town's clearing, the road and the house", "[sim][demo]") {
  auto built = demo::build_demo_world();
  REQUIRE(built);
  auto portal = dat::DatFile::from_bytes(std::move(built->portal), "portal");
  auto cell = dat::DatFile::from_bytes(std::move(built->cell), "cell");
  REQUIRE(portal);
  REQUIRE(cell);
  core::ManualClock clock;
  sim::test::DatCells world(clock, &*portal);
  REQUIRE(world.use_terrain(&*cell));
  REQUIRE(world.set_mid_radius(1));
  constexpr std::uint32_t kCentre = demo::kLandBlock & 0xFFFF0000u;
  sim::test::load_grid(world, kCentre | 0x01u);
  std::size_t centre = 0;
  std::size_t around = 0;
  for (const sim::PhysicsObj* o : world.static_objects()) {
    if ((o->id() & sim::kSceneryIdBit) == 0) continue;  // the LandBlockInfo's stabs
    const std::uint32_t block = o->position().objcell_id & 0xFFFF0000u;
    const glm::vec3 at = o->position().frame.origin;
    INFO("scenery " << std::hex << o->id() << std::dec << " at " << at.x << ", " << at.y);
    CHECK((o->id() & 0x0FFFF000u) == ((block >> 24) << 20 | ((block >> 16) & 0xFFu) << 12));
    // The road along the middle column's x 96: nothing within its 5 m band.
    if ((block >> 24) == (kCentre >> 24)) CHECK_FALSE((at.x > 91.0F && at.x < 101.0F));
    if (block == kCentre) {
      ++centre;
      CHECK_FALSE((at.x > 22.0F && at.x < 122.0F && at.y > 94.0F && at.y < 170.0F));
      CHECK((o->position().objcell_id & 0xFFFFu) != 0x25u);  // the house's cell
    } else {
      ++around;
    }
  }
  CHECK(centre > 0);
  CHECK(around > 8 * 20);  // the eight blocks around it
}
