#include "dereth/app/game_screen.hpp"

#include <algorithm>
#include <cmath>

#include "dereth/sim/player/gm_radar_ui.hpp"

namespace dereth::app {

namespace {

std::uint8_t channel(float v) noexcept {
  if (!std::isfinite(v)) return 0;
  return static_cast<std::uint8_t>(std::lround(std::clamp(v, 0.0F, 1.0F) * 255.0F));
}

}  // namespace

std::optional<render::RadarPanel> radar_panel(const sim::SmartBox& box, std::uint32_t selected) {
  const sim::PhysicsObj* player = box.player();
  if (player == nullptr || player->cell() == nullptr) return std::nullopt;
  render::RadarPanel panel;
  panel.side = 2 * sim::GmRadarUi::kRadius + 1;
  for (const sim::RadarBlip& blip : sim::GmRadarUi::draw_objects(box, selected)) {
    const render::Rgba8 colour{channel(blip.color.r), channel(blip.color.g), channel(blip.color.b),
                               channel(blip.color.a)};
    for (const auto& [x, y] : sim::GmRadarUi::blip_pixels(blip)) panel.dots.push_back({x, y, colour});
  }
  constexpr float kDegrees = 0.017453292519943295F;
  panel.heading = player->position().frame.get_heading() * kDegrees;
  if (const auto coords = sim::GmRadarUi::inq_player_coords(box)) {
    panel.coordinates = sim::GmRadarUi::coordinates_text(coords->first, coords->second);
  }
  return panel;
}

}  // namespace dereth::app
