#include "dereth/render/world_lights.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace dereth::render;

namespace {

LightSource point(glm::vec3 p, float falloff = 2.0F, bool is_static = false) {
  return LightSource{p, glm::vec3(1.0F, 0.5F, 0.25F), 1.0F, falloff, is_static};
}

std::vector<std::size_t> sources(const std::vector<RenderLight>& v) {
  std::vector<std::size_t> out;
  for (const auto& l : v) out.push_back(l.source);
  return out;
}

std::vector<std::size_t> sources(const std::vector<const RenderLight*>& v) {
  std::vector<std::size_t> out;
  for (const auto* l : v) out.push_back(l->source);
  return out;
}

}  // namespace

TEST_CASE("Render::SetDegradeLevelInternal 0x0054C3C0 scales lights and distances either side of deg_mul 0",
          "[retail][render]") {
  const DegradeLimits zero = set_degrade_level_internal(0.0F);
  CHECK(zero.max_static_lights == 40);
  CHECK(zero.max_dynamic_lights == 7);
  CHECK(zero.object_distance_2dsq == Approx(25.0F * 25.0F));
  CHECK(zero.particle_distance_2dsq == Approx(16.0F * 16.0F));
  const DegradeLimits high = set_degrade_level_internal(1.0F);
  CHECK(high.max_static_lights == 60);
  CHECK(high.max_dynamic_lights == 10);
  CHECK(high.object_distance_2dsq == Approx(50.0F * 50.0F));
  CHECK(high.particle_distance_2dsq == Approx(25.0F * 25.0F));
  const DegradeLimits low = set_degrade_level_internal(-1.0F);
  CHECK(low.max_static_lights == 20);
  CHECK(low.max_dynamic_lights == 5);
  CHECK(low.object_distance_2dsq == Approx(8.0F * 8.0F));
  CHECK(low.particle_distance_2dsq == Approx(8.0F * 8.0F));
  // Counts truncate: 7 + 3 * 0.5 = 8.5 -> 8 dynamic; 7 + 2 * -0.5 = 6 -> 6.
  CHECK(set_degrade_level_internal(0.5F).max_dynamic_lights == 8);
  CHECK(set_degrade_level_internal(-0.5F).max_dynamic_lights == 6);
  CHECK(set_degrade_level_internal(-0.5F).max_static_lights == 30);
  // NaN compares unordered: the low branch, and the counts convert to 0.
  const DegradeLimits nan = set_degrade_level_internal(std::numeric_limits<float>::quiet_NaN());
  CHECK(nan.max_static_lights == 0);
  CHECK(nan.max_dynamic_lights == 0);
  CHECK(std::isnan(nan.object_distance_2dsq));
}

TEST_CASE("Render::insert_light 0x0054D1B0 keeps the list nearest first and drops the farthest when full",
          "[retail][render]") {
  const glm::vec3 viewer{0, 0, 0};
  std::vector<RenderLight> sorted;
  insert_light(3, sorted, point({5, 0, 0}), 0, viewer);
  insert_light(3, sorted, point({1, 0, 0}), 1, viewer);
  insert_light(3, sorted, point({3, 0, 0}), 2, viewer);
  CHECK(sources(sorted) == std::vector<std::size_t>{1, 2, 0});
  CHECK(sorted[0].distancesq == Approx(1.0F));
  CHECK(sorted[2].distancesq == Approx(25.0F));
  // Full: a light nearer than the farthest pushes it out.
  insert_light(3, sorted, point({2, 0, 0}), 3, viewer);
  CHECK(sources(sorted) == std::vector<std::size_t>{1, 3, 2});
  // Full: one no nearer than every light is dropped, equal distance included.
  insert_light(3, sorted, point({0, 3, 0}), 4, viewer);
  CHECK(sources(sorted) == std::vector<std::size_t>{1, 3, 2});
  insert_light(3, sorted, point({9, 0, 0}), 5, viewer);
  CHECK(sources(sorted) == std::vector<std::size_t>{1, 3, 2});
  // An equal distance goes after the lights already there (strict < search).
  std::vector<RenderLight> ties;
  insert_light(4, ties, point({0, 2, 0}), 10, viewer);
  insert_light(4, ties, point({2, 0, 0}), 11, viewer);
  insert_light(4, ties, point({0, 0, 2}), 12, viewer);
  CHECK(sources(ties) == std::vector<std::size_t>{10, 11, 12});
}

TEST_CASE("Render::insert_light 0x0054D1B0 quantises colour to 8 bits a channel, truncating and wrapping",
          "[retail][render]") {
  std::vector<RenderLight> sorted;
  LightSource l = point({1, 0, 0});
  l.color = {0.5F, 1.5F, 1.0F};  // 127.5 -> 127; 382.5 -> 382 & 0xFF = 126; 255
  insert_light(8, sorted, l, 0, {0, 0, 0});
  REQUIRE(sorted.size() == 1);
  CHECK(sorted[0].color.r == Approx(127.0F / 255.0F));
  CHECK(sorted[0].color.g == Approx(126.0F / 255.0F));
  CHECK(sorted[0].color.b == Approx(1.0F));
  CHECK(sorted[0].intensity == 1.0F);
  CHECK(sorted[0].falloff == 2.0F);
}

TEST_CASE("Render::insert_light 0x0054D1B0 with no room keeps nothing", "[retail][render]") {
  // Retail inserts into an empty list whatever its maximum (a 0 maximum, from
  // a NaN degrade level, would then write past the array); dereth keeps none.
  std::vector<RenderLight> sorted;
  insert_light(0, sorted, point({1, 0, 0}), 0, {0, 0, 0});
  insert_light(0, sorted, point({2, 0, 0}), 1, {0, 0, 0});
  CHECK(sorted.empty());
}

TEST_CASE("Render::add_static_light 0x0054D3E0 and add_dynamic_light 0x0054D420 cap each list by the degrade level",
          "[retail][render]") {
  DegradeLimits limits;
  limits.max_static_lights = 2;
  limits.max_dynamic_lights = 1;
  WorldLights world(limits, {0, 0, 0});
  world.add(point({4, 0, 0}, 2.0F, true), 0);
  world.add(point({3, 0, 0}, 2.0F, false), 1);
  world.add(point({1, 0, 0}, 2.0F, true), 2);
  world.add(point({2, 0, 0}, 2.0F, false), 3);
  world.add(point({0.5F, 0, 0}, 2.0F, true), 4);
  CHECK(sources(world.static_lights()) == std::vector<std::size_t>{4, 2});
  CHECK(sources(world.dynamic_lights()) == std::vector<std::size_t>{3});
}

TEST_CASE("Render::remove_object_light 0x0054C1B0 leaves out a light whose falloff does not reach the object's sphere",
          "[retail][render]") {
  RenderLight l;
  l.position = {10, 0, 0};
  l.falloff = 3.0F;
  // Reach = falloff + radius = 3 + 2 = 5 (not falloff * 1.3: that is how far the light shines).
  CHECK_FALSE(remove_object_light(l, {6, 0, 0}, 2.0F));  // 4 < 5
  CHECK(remove_object_light(l, {5, 0, 0}, 2.0F));        // 5: at the reach is out
  CHECK(remove_object_light(l, {0, 0, 0}, 2.0F));        // 10
  CHECK_FALSE(remove_object_light(l, {5.01F, 0, 0}, 2.0F));
  // A NaN centre compares unordered: the light stays.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(remove_object_light(l, {nan, 0, 0}, 2.0F));
}

TEST_CASE("Render::minimize_object_lighting 0x0054D480 takes at most 8: reaching dynamic lights first, then static",
          "[retail][render]") {
  DegradeLimits limits;
  limits.max_static_lights = 40;
  limits.max_dynamic_lights = 10;
  const glm::vec3 viewer{0, 0, 0};
  WorldLights world(limits, viewer);
  // Dynamic lights at x = 1..10 (viewer order), falloff 2; static at y = 1..6.
  for (int i = 0; i < 10; ++i) world.add(point({float(i + 1), 0, 0}, 2.0F, false), std::size_t(i));
  for (int i = 0; i < 6; ++i) world.add(point({0, float(i + 1), 0}, 2.0F, true), std::size_t(100 + i));
  SECTION("an object near the origin: the reaching dynamic lights, then the reaching static ones") {
    // Centre (0,0,0), radius 1: reach 3 -> dynamic x = 1, 2 (3 is at the reach: out); static y = 1, 2.
    CHECK(sources(world.minimize_object_lighting({0, 0, 0}, 1.0F)) == std::vector<std::size_t>{0, 1, 100, 101});
  }
  SECTION("a large object: eight at most, the dynamic ones take the slots first") {
    CHECK(sources(world.minimize_object_lighting({0, 0, 0}, 100.0F)) ==
          std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7});
  }
  SECTION("an object far away: none") {
    CHECK(world.minimize_object_lighting({500, 500, 0}, 1.0F).empty());
  }
  SECTION("a dynamic light out of reach leaves its slot to a static one") {
    // Centre (0, 5, 0), radius 0.5: reach 2.5. Dynamic x=1 is sqrt(26) away: out.
    // Static y = 3..6 (distances 2, 1, 0, 1) reach; y = 7 would not exist.
    CHECK(sources(world.minimize_object_lighting({0, 5, 0}, 0.5F)) == std::vector<std::size_t>{102, 103, 104, 105});
  }
}

TEST_CASE("Render::minimize_envcell_lighting 0x0054C170 lights a cell by the dynamic lights only, eight at most",
          "[retail][render]") {
  DegradeLimits limits;
  limits.max_dynamic_lights = 10;
  WorldLights world(limits, {0, 0, 0});
  for (int i = 0; i < 10; ++i) world.add(point({float(i + 1) * 100.0F, 0, 0}, 1.0F, false), std::size_t(i));
  world.add(point({0, 1, 0}, 1.0F, true), 99);
  // However far: no reach test for a cell; the static light is not used.
  CHECK(sources(world.minimize_envcell_lighting()) == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7});
  WorldLights none(limits, {0, 0, 0});
  none.add(point({0, 1, 0}, 1.0F, true), 0);
  CHECK(none.minimize_envcell_lighting().empty());
}
