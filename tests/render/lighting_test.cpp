#include "dereth/render/lighting.hpp"

#include <catch2/catch.hpp>

using dereth::render::calc_point_light;
using dereth::render::PointLight;

namespace {

PointLight light_at(glm::vec3 p, float intensity = 1.0F, float falloff = 10.0F) {
  return PointLight{p, glm::vec3(1.0F, 0.5F, 0.25F), intensity, falloff};
}

}  // namespace

TEST_CASE("calc_point_light 0x0059C8B0 falls off with dist^3 beyond a metre and linearly to falloff*1.3", "[retail]") {
  // d = (0,0,2): dist 2, range 13, w = (0.5*2 + 2) / 1.5 = 2,
  // k = 2 / (4 * 2) * (1 - 2/13) * 1 = 0.25 * 11/13.
  const glm::vec3 c = calc_point_light({0, 0, 0}, {0, 0, 1}, light_at({0, 0, 2}));
  const float k = 0.25F * 11.0F / 13.0F;
  CHECK(c.r == Approx(k * 1.0F));
  CHECK(c.g == Approx(k * 0.5F));
  CHECK(c.b == Approx(k * 0.25F));
}

TEST_CASE("calc_point_light 0x0059C8B0 within a metre divides by dist only and clamps each channel at the colour",
          "[retail]") {
  // d = (0,0,0.5): dist2 0.25 <= 1, w = (0.25 + 0.5) / 1.5 = 0.5,
  // k = 0.5 / 0.5 * (1 - 0.5/13) * 2 = 1.923..; every channel clamps to the colour.
  const glm::vec3 c = calc_point_light({0, 0, 0}, {0, 0, 1}, light_at({0, 0, 0.5F}, 2.0F));
  CHECK(c.r == Approx(1.0F));
  CHECK(c.g == Approx(0.5F));
  CHECK(c.b == Approx(0.25F));
  // Intensity 0.5 keeps it under the clamp: k = 0.5 * (12.5/13).
  const glm::vec3 d = calc_point_light({0, 0, 0}, {0, 0, 1}, light_at({0, 0, 0.5F}, 0.5F));
  CHECK(d.r == Approx(0.5F * 12.5F / 13.0F));
}

TEST_CASE("calc_point_light 0x0059C8B0 wraps half a distance around the horizon and stops at range", "[retail]") {
  // A light in the surface's plane still lights it: w = 0.5 * dist / 1.5.
  const glm::vec3 side = calc_point_light({0, 0, 0}, {0, 0, 1}, light_at({2, 0, 0}));
  const float w = (0.5F * 2.0F) / 1.5F;
  CHECK(side.r == Approx(w / 8.0F * (1.0F - 2.0F / 13.0F)));
  // Behind the surface: w = (1 - 2) / 1.5 < 0, nothing.
  CHECK(calc_point_light({0, 0, 0}, {0, 0, 1}, light_at({0, 0, -2})) == glm::vec3(0.0F));
  // Slightly below the horizon still lit while 0.5*dist + n.d > 0: d = (2, 0, -0.9).
  CHECK(calc_point_light({0, 0, 0}, {0, 0, 1}, light_at({2, 0, -0.9F})).r > 0.0F);
  // At and beyond falloff * 1.3 = 13: nothing.
  CHECK(calc_point_light({0, 0, 0}, {0, 0, 1}, light_at({0, 0, 13.0F})) == glm::vec3(0.0F));
  CHECK(calc_point_light({0, 0, 0}, {0, 0, 1}, light_at({0, 0, 12.9F})).r > 0.0F);
  // A zero falloff never lights.
  CHECK(calc_point_light({0, 0, 0}, {0, 0, 1}, light_at({0, 0, 0.5F}, 1.0F, 0.0F)) == glm::vec3(0.0F));
}
