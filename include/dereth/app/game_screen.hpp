#pragma once
// The game screen's panels, made each frame from the world for the window's
// overlay: the radar now (sim::GmRadarUi's blips, the heading and the
// coordinates line). Vitals, the target and the spell bar are to come
// (issue 33).

#include <cstdint>

#include "dereth/render/overlay.hpp"
#include "dereth/sim/object/smart_box.hpp"

namespace dereth::app {

// gmRadarUI's view of `box` (the player's radar, `selected` framed); none
// without a player in the world.
[[nodiscard]] std::optional<render::RadarPanel> radar_panel(const sim::SmartBox& box, std::uint32_t selected);

}  // namespace dereth::app
