// The game screen's vitals, combat panel and spell bar (GL-free layout):
// the vitals in the top-left corner with the HUD's stack under them, the
// combat panel at the bottom centre with the chat's stack above it, the
// spell bar above the combat panel with its selected spell framed.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "dereth/render/overlay.hpp"

#include "overlay_support.hpp"

using namespace dereth::render;
using dereth::test::has_colour_in;

namespace {

// The rightmost x of any vertex of `color` (-1 when none).
float rightmost(const OverlayLayout& layout, Rgba8 color) {
  float x = -1.0F;
  for (const OverlayVertex& v : layout.vertices) {
    if (v.color == color) x = std::max(x, v.x);
  }
  return x;
}

VitalsPanel vitals(VitalBar health, VitalBar stamina, VitalBar mana) {
  VitalsPanel p;
  p.bars = {health, stamina, mana};
  return p;
}

}  // namespace

TEST_CASE("Overlay vitals: a vital reads current/max, or the current value alone without a maximum",
          "[render][overlay]") {
  CHECK(format_vital(VitalBar{45, 90}) == "45/90");
  CHECK(format_vital(VitalBar{0, 0}) == "0/0");
  CHECK(format_vital(VitalBar{4294967295U, 4294967295U}) == "4294967295/4294967295");
  CHECK(format_vital(VitalBar{12, std::nullopt}) == "12");
}

TEST_CASE("Overlay vitals: three bars in the top-left corner, red, yellow and blue, each filled by current over max",
          "[render][overlay]") {
  OverlayOptions options;  // margin 8, padding 4, scale 2: a line is 24 pixels
  OverlayFrame frame;
  frame.vitals = vitals({25, 100}, {100, 100}, {0, 50});
  const OverlayLayout layout = layout_overlay(frame, 640, 480, options);
  REQUIRE(layout.vitals);
  CHECK(layout.vitals->x0 == 8.0F);
  CHECK(layout.vitals->y0 == 8.0F);
  CHECK(layout.vitals->width() == 208.0F);  // the 200-pixel bars and the padding
  const auto& bars = layout.vital_bars;
  for (const Rect& bar : bars) {
    CHECK(bar.width() == 200.0F);
    CHECK(bar.height() == 24.0F);
  }
  CHECK(bars[0].y1 < bars[1].y0);
  CHECK(bars[1].y1 < bars[2].y0);
  CHECK(bars[2].y1 <= layout.vitals->y1);
  // Health a quarter full of red; stamina full of yellow; mana empty (no blue at all).
  CHECK(has_colour_in(layout, options.vital_colors[0], bars[0]));
  CHECK(rightmost(layout, options.vital_colors[0]) == bars[0].x0 + 50.0F);
  CHECK(rightmost(layout, options.vital_colors[1]) == bars[1].x1);
  CHECK(rightmost(layout, options.vital_colors[2]) == -1.0F);
  // Each label is centred on its bar.
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(std::abs((layout.vital_labels[i].x0 + layout.vital_labels[i].x1) - (bars[i].x0 + bars[i].x1)) <= 2.0F);
    CHECK(layout.vital_labels[i].width() > 0.0F);
  }
}

TEST_CASE(
    "Overlay vitals: a maximum of 0 draws an empty bar, an unknown one a full bar, a current above the maximum "
    "a full one",
    "[render][overlay]") {
  OverlayOptions options;
  OverlayFrame frame;
  frame.vitals = vitals({10, 0}, {7, std::nullopt}, {900, 100});
  const OverlayLayout layout = layout_overlay(frame, 640, 480, options);
  CHECK(rightmost(layout, options.vital_colors[0]) == -1.0F);
  CHECK(rightmost(layout, options.vital_colors[1]) == layout.vital_bars[1].x1);
  CHECK(rightmost(layout, options.vital_colors[2]) == layout.vital_bars[2].x1);
}

TEST_CASE("Overlay vitals: the HUD's top-left panels stack under the vitals", "[render][overlay]") {
  OverlayFrame frame;
  frame.panels.push_back(TextPanel{Anchor::TopLeft, {"FPS 60"}, {255, 255, 255, 255}, 0.6F, {}});
  const OverlayLayout without = layout_overlay(frame, 640, 480);
  CHECK(without.panels[0].box.y0 == 8.0F);
  frame.vitals = vitals({1, 2}, {3, 4}, {5, 6});
  const OverlayLayout with = layout_overlay(frame, 640, 480);
  REQUIRE(with.vitals);
  CHECK(with.panels[0].box.y0 == with.vitals->y1 + 8.0F);
}

TEST_CASE("Overlay combat panel: the mode at the bottom centre, the power bar beside it in melee, the chat above it",
          "[render][overlay]") {
  OverlayOptions options;
  OverlayFrame frame;
  frame.combat = CombatPanel{"Peace", std::nullopt};
  frame.panels.push_back(TextPanel{Anchor::BottomLeft, {"[00:00:01] hello"}, {255, 240, 180, 255}, 0.5F, {}});
  const OverlayLayout peace = layout_overlay(frame, 640, 480, options);
  REQUIRE(peace.combat);
  CHECK(peace.combat->y1 == 480.0F - 8.0F);
  CHECK(std::abs((peace.combat->x0 + peace.combat->x1) * 0.5F - 320.0F) <= 1.0F);
  CHECK_FALSE(peace.power_bar);
  // The chat's box sits above the combat panel.
  CHECK(peace.panels[0].box.y1 == peace.combat->y0 - 8.0F);

  frame.combat = CombatPanel{"Melee", 0.5F};
  const OverlayLayout melee = layout_overlay(frame, 640, 480, options);
  REQUIRE(melee.power_bar);
  const Rect bar = *melee.power_bar;
  CHECK(bar.width() == 200.0F);
  CHECK(bar.y0 >= melee.combat->y0);
  CHECK(bar.y1 <= melee.combat->y1);
  CHECK(bar.x1 <= melee.combat->x1);
  CHECK(rightmost(melee, options.power_color) == bar.x0 + 100.0F);
  // Hostile powers: above 1 is full, NaN empty.
  frame.combat->power = 7.0F;
  CHECK(rightmost(layout_overlay(frame, 640, 480, options), options.power_color) == bar.x1);
  frame.combat->power = std::numeric_limits<float>::quiet_NaN();
  CHECK(rightmost(layout_overlay(frame, 640, 480, options), options.power_color) == -1.0F);
}

TEST_CASE("Overlay spell bar: the tab and the spells in a row above the combat panel, the selected one framed",
          "[render][overlay]") {
  OverlayOptions options;
  OverlayFrame frame;
  frame.combat = CombatPanel{"Magic", std::nullopt};
  frame.spell_bar = SpellBarPanel{2, {"Ember Dart", "Stone Hide", "0x0000BEEF"}, 1U, 0.6F};
  frame.panels.push_back(TextPanel{Anchor::BottomLeft, {"chat"}, {255, 240, 180, 255}, 0.5F, {}});
  const OverlayLayout layout = layout_overlay(frame, 800, 600, options);
  REQUIRE(layout.spell_bar);
  REQUIRE(layout.combat);
  CHECK(layout.spell_bar->y1 == layout.combat->y0 - 8.0F);
  CHECK(std::abs((layout.spell_bar->x0 + layout.spell_bar->x1) * 0.5F - 400.0F) <= 1.0F);
  CHECK(layout.panels[0].box.y1 == layout.spell_bar->y0 - 8.0F);
  REQUIRE(layout.spell_slots.size() == 3);
  for (std::size_t i = 0; i + 1 < layout.spell_slots.size(); ++i) {
    CHECK(layout.spell_slots[i].x1 < layout.spell_slots[i + 1].x0);
  }
  for (const Rect& slot : layout.spell_slots) {
    CHECK(slot.x0 >= layout.spell_bar->x0);
    CHECK(slot.x1 <= layout.spell_bar->x1);
    CHECK(slot.y0 >= layout.spell_bar->y0);
    CHECK(slot.y1 <= layout.spell_bar->y1);
  }
  // The frame surrounds the second slot, in the frame colour.
  REQUIRE(layout.spell_frame);
  CHECK(layout.spell_frame->x0 < layout.spell_slots[1].x0);
  CHECK(layout.spell_frame->x1 > layout.spell_slots[1].x1);
  CHECK(has_colour_in(layout, options.spell_frame_color, *layout.spell_frame));
  CHECK_FALSE(has_colour_in(layout, options.spell_frame_color, layout.spell_slots[0]));

  // No selection, or one past the end: no frame.
  frame.spell_bar->selected.reset();
  CHECK_FALSE(layout_overlay(frame, 800, 600, options).spell_frame);
  frame.spell_bar->selected = 3U;
  CHECK_FALSE(layout_overlay(frame, 800, 600, options).spell_frame);
  // An empty tab: the box holds the tab's number alone.
  frame.spell_bar->spells.clear();
  const OverlayLayout empty = layout_overlay(frame, 800, 600, options);
  REQUIRE(empty.spell_bar);
  CHECK(empty.spell_slots.empty());
  CHECK(empty.spell_bar->width() > 0.0F);
}

TEST_CASE("Overlay game screen: every panel stays inside a tiny framebuffer", "[render][overlay]") {
  OverlayFrame frame;
  frame.vitals = vitals({1, 2}, {3, 4}, {5, 6});
  frame.combat = CombatPanel{"Missile", 0.3F};
  frame.spell_bar = SpellBarPanel{7, {"A rather long spell name", "Another"}, 0U, 0.6F};
  const OverlayLayout layout = layout_overlay(frame, 40, 30);
  REQUIRE(layout.vitals);
  CHECK(layout.vitals->x1 <= 40.0F);
  CHECK(layout.vitals->y1 <= 30.0F);
  REQUIRE(layout.combat);
  CHECK(layout.combat->x0 >= 0.0F);
  CHECK(layout.combat->y0 >= 0.0F);
  CHECK(layout_overlay(frame, 0, 0).vertices.empty());
}
