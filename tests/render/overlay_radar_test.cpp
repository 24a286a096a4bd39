// The radar's layout (GL-free): the disc in the top-right corner, each lit
// radar pixel a square where the radar puts it, the compass letters turned
// against the heading, the coordinates line under the disc.
#include <catch2/catch.hpp>

#include <cmath>

#include "dereth/render/overlay.hpp"

#include "overlay_support.hpp"

using namespace dereth::render;
using dereth::test::has_colour_in;

TEST_CASE("Overlay radar: the disc sits in the top-right corner and each dot is a radar pixel there",
          "[render][overlay]") {
  OverlayOptions options;  // margin 8, radar pixels of 2 screen pixels
  OverlayFrame frame;
  RadarPanel radar;
  radar.dots = {{50, 36, {255, 171, 0, 255}}, {70, 50, {64, 168, 255, 255}}, {200, 5, {1, 2, 3, 255}}};
  frame.radar = radar;
  const OverlayLayout layout = layout_overlay(frame, 640, 480, options);
  REQUIRE(layout.radar);
  CHECK(layout.radar->x1 == 640.0F - 8.0F);
  CHECK(layout.radar->y0 == 8.0F);
  CHECK(layout.radar->width() == 202.0F);
  CHECK(layout.radar->height() == 202.0F);
  const float x0 = layout.radar->x0;
  // The gold dot 14 radar pixels above the centre: one 2 x 2 square.
  CHECK(has_colour_in(layout, {255, 171, 0, 255}, Rect{x0 + 100.0F, 8.0F + 72.0F, x0 + 102.0F, 8.0F + 74.0F}));
  CHECK(has_colour_in(layout, {64, 168, 255, 255}, Rect{x0 + 140.0F, 8.0F + 100.0F, x0 + 142.0F, 8.0F + 102.0F}));
  // A dot off the radar is not drawn.
  for (const OverlayVertex& v : layout.vertices) CHECK_FALSE(v.color == Rgba8{1, 2, 3, 255});
  // No coordinates (indoors): no line.
  CHECK_FALSE(layout.coordinates);
  // No radar: none laid out.
  CHECK_FALSE(layout_overlay(OverlayFrame{}, 640, 480, options).radar);
}

TEST_CASE("Overlay radar: the compass turns against the heading and the coordinates sit under the disc",
          "[render][overlay]") {
  OverlayFrame frame;
  RadarPanel radar;
  radar.coordinates = "42.5N,33.7E";
  frame.radar = radar;
  const OverlayLayout north = layout_overlay(frame, 640, 480);
  REQUIRE(north.radar);
  const float cx = (north.radar->x0 + north.radar->x1) * 0.5F;
  const float cy = (north.radar->y0 + north.radar->y1) * 0.5F;
  const auto centre = [](const Rect& r) { return std::pair{(r.x0 + r.x1) * 0.5F, (r.y0 + r.y1) * 0.5F}; };
  // Facing north: N at the top, E right, S bottom, W left.
  CHECK(centre(north.compass[0]).second < cy - 50.0F);
  CHECK(std::abs(centre(north.compass[0]).first - cx) < 2.0F);
  CHECK(centre(north.compass[1]).first > cx + 50.0F);
  CHECK(centre(north.compass[2]).second > cy + 50.0F);
  CHECK(centre(north.compass[3]).first < cx - 50.0F);
  // Facing east (a quarter turn clockwise): north is on the left.
  frame.radar->heading = 1.5707964F;
  const OverlayLayout east = layout_overlay(frame, 640, 480);
  CHECK(centre(east.compass[0]).first < cx - 50.0F);
  CHECK(std::abs(centre(east.compass[0]).second - cy) < 2.0F);
  CHECK(centre(east.compass[1]).second < cy - 50.0F);  // east ahead
  // The coordinates: a line under the disc, centred on it.
  REQUIRE(north.coordinates);
  CHECK(north.coordinates->y0 > north.radar->y1);
  CHECK(std::abs((north.coordinates->x0 + north.coordinates->x1) * 0.5F - cx) < 1.0F);
  CHECK(north.coordinates->width() > 11.0F * 4.0F);  // eleven glyphs at scale 2
}

TEST_CASE("Overlay target: the selected object's name at the top centre, its health bar once answered",
          "[render][overlay]") {
  OverlayOptions options;
  OverlayFrame frame;
  frame.target = TargetPanel{"Drudge Skulker", std::nullopt};
  const OverlayLayout asked = layout_overlay(frame, 640, 480, options);
  REQUIRE(asked.target);
  CHECK(std::abs((asked.target->x0 + asked.target->x1) * 0.5F - 320.0F) <= 1.0F);
  CHECK(asked.target->y0 == 8.0F);
  CHECK_FALSE(asked.target_bar);  // no answer yet: no bar

  frame.target->health = 0.25F;
  const OverlayLayout answered = layout_overlay(frame, 640, 480, options);
  REQUIRE(answered.target_bar);
  const Rect bar = *answered.target_bar;
  CHECK(bar.width() == 200.0F);
  CHECK(bar.y0 > answered.target->y0);
  CHECK(bar.y1 <= answered.target->y1);
  // A quarter of the track is red, the rest the track's grey.
  CHECK(has_colour_in(answered, options.health_color, Rect{bar.x0, bar.y0, bar.x0 + 50.0F, bar.y1}));
  bool red_beyond = false;
  for (const OverlayVertex& v : answered.vertices) {
    if (v.color == options.health_color && v.x > bar.x0 + 50.5F) red_beyond = true;
  }
  CHECK_FALSE(red_beyond);
  // A health outside 0..1 is held at the bound; NaN draws none.
  frame.target->health = std::nanf("");
  for (const OverlayVertex& v : layout_overlay(frame, 640, 480, options).vertices) {
    CHECK_FALSE(v.color == options.health_color);
  }
}
