// gmToolbarUI's selected-object health meter: the QueryHealth it asks for on
// selection, and the answers it takes.

#include "dereth/sim/player/gm_toolbar_ui.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using dereth::sim::GmToolbarUi;

TEST_CASE("gmToolbarUI::RecvNotice_SelectionChanged 0x004BF380 queries a creature's health, and 0 to take a meter down",
          "[retail]") {
  GmToolbarUi toolbar;
  CHECK(toolbar.selection_changed(0x80000A01, true) == std::vector<std::uint32_t>{0x80000A01});
  CHECK_FALSE(toolbar.health());
  // Selecting it again asks nothing.
  CHECK(toolbar.selection_changed(0x80000A01, true).empty());
  CHECK(toolbar.recv_notice_update_object_health(0x80000A01, 0.5F));
  // Another creature: the shown meter goes (QueryHealth 0), then the new one is asked for.
  CHECK(toolbar.selection_changed(0x80000A02, true) == std::vector<std::uint32_t>{0, 0x80000A02});
  CHECK_FALSE(toolbar.health());
  // An object with no health (a door): nothing asked; the meter was not shown, so no 0 either.
  CHECK(toolbar.selection_changed(0x7A9B0001, false).empty());
  CHECK(toolbar.selection_changed(0, false).empty());
}

TEST_CASE("gmToolbarUI::RecvNotice_UpdateObjectHealth 0x004BD110 shows the answer for the selected object only",
          "[retail]") {
  GmToolbarUi toolbar;
  // Nothing selected: an answer is not kept.
  CHECK_FALSE(toolbar.recv_notice_update_object_health(0x80000A01, 0.75F));
  toolbar.selection_changed(0x80000A01, true);
  CHECK_FALSE(toolbar.recv_notice_update_object_health(0x80000A02, 0.75F));
  CHECK_FALSE(toolbar.health());
  CHECK(toolbar.recv_notice_update_object_health(0x80000A01, 0.75F));
  CHECK(toolbar.health() == 0.75F);
  // A later answer replaces it; a hostile value is held within 0..1.
  CHECK(toolbar.recv_notice_update_object_health(0x80000A01, 7.0F));
  CHECK(toolbar.health() == 1.0F);
  CHECK(toolbar.recv_notice_update_object_health(0x80000A01, -2.0F));
  CHECK(toolbar.health() == 0.0F);
  CHECK(toolbar.recv_notice_update_object_health(0x80000A01, std::numeric_limits<float>::quiet_NaN()));
  CHECK(toolbar.health() == 0.0F);
}
