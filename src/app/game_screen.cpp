#include "dereth/app/game_screen.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

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

// gmVitalsUI::Update 0x004BFE30
std::optional<render::VitalsPanel> vitals_panel(const sim::Qualities* qualities) {
  if (qualities == nullptr) return std::nullopt;
  render::VitalsPanel panel;
  for (std::uint32_t i = 0; i < 3; ++i) {
    render::VitalBar& bar = panel.bars[i];
    std::uint32_t current = 0;
    if (qualities->inq_attribute_2nd_level(2 * i + 2, current, false)) bar.current = current;
    std::uint32_t max = 0;
    if (qualities->inq_attribute_2nd_level(2 * i + 1, max, false)) bar.max = max;
  }
  return panel;
}

render::CombatPanel combat_panel(const sim::ClientCombatSystem& combat) {
  render::CombatPanel panel;
  switch (combat.combat_mode) {
    case sim::CombatMode::Melee: panel.mode = "Melee"; break;
    case sim::CombatMode::Missile: panel.mode = "Missile"; break;
    case sim::CombatMode::Magic: panel.mode = "Magic"; break;
    default: panel.mode = "Peace"; break;
  }
  if (combat.combat_mode == sim::CombatMode::Melee || combat.combat_mode == sim::CombatMode::Missile) {
    panel.power =
        combat.power_bar_mode == sim::ClientCombatSystem::PowerBarMode::Combat ? combat.latest_power_bar_level : 0.0F;
  }
  return panel;
}

std::string spell_name(const dat::SpellTable* table, std::uint32_t spell) {
  if (table != nullptr) {
    if (const dat::SpellBase* base = dat::find_spell(*table, spell); base != nullptr && !base->name.empty()) {
      return base->name;
    }
  }
  return fmt::format("0x{:08X}", spell);
}

std::optional<render::SpellBarPanel> spell_bar_panel(sim::CombatMode mode, const sim::PlayerModule& module,
                                                     const sim::GmSpellcastingUi& ui, const dat::SpellTable* table) {
  if (mode != sim::CombatMode::Magic) return std::nullopt;
  render::SpellBarPanel panel;
  panel.tab = ui.tab();
  for (const std::uint32_t spell : module.favorite_spells(ui.tab())) panel.spells.push_back(spell_name(table, spell));
  panel.selected = ui.selected_slot(module);
  return panel;
}

render::TextPanel spellbook_panel(const sim::GmSpellbookUi& ui, const dat::SpellTable* table, std::int32_t tab) {
  constexpr render::Rgba8 kTitle{255, 255, 255, 255};
  constexpr render::Rgba8 kSpell{220, 220, 220, 255};
  constexpr render::Rgba8 kSelected{255, 230, 90, 255};
  constexpr render::Rgba8 kHelp{150, 200, 255, 255};
  // In the top-left stack, under the vitals and the HUD: nothing drawn over it.
  render::TextPanel panel{render::Anchor::TopLeft, {}, kSpell, 0.75F, {}};
  const std::size_t n = ui.spells().size();
  panel.lines.push_back(fmt::format("Spellbook ({} spell{})", n, n == 1 ? "" : "s"));
  panel.line_colors.push_back(kTitle);
  for (const std::uint32_t spell : ui.spells()) {
    panel.lines.push_back(spell_name(table, spell));
    panel.line_colors.push_back(spell == ui.selected() ? kSelected : kSpell);
  }
  if (ui.spells().empty()) {
    panel.lines.push_back("(no spells known)");
    panel.line_colors.push_back(kHelp);
  }
  panel.lines.push_back(fmt::format("Double-click: onto spell bar tab {}", tab + 1));
  panel.line_colors.push_back(kHelp);
  return panel;
}

std::optional<std::size_t> add_game_screen(render::OverlayFrame& frame, const Presenter& presenter, bool radar,
                                           bool panels) {
  if (radar && presenter.hud_radar) frame.radar = *presenter.hud_radar;
  if (!panels) return std::nullopt;
  if (!presenter.hud_target.empty()) {
    frame.target = render::TargetPanel{presenter.hud_target, presenter.hud_target_health};
  }
  frame.vitals = presenter.hud_vitals;
  frame.combat = presenter.hud_combat;
  frame.spell_bar = presenter.hud_spell_bar;
  if (!presenter.hud_spellbook) return std::nullopt;
  frame.panels.push_back(*presenter.hud_spellbook);
  return frame.panels.size() - 1;
}

}  // namespace dereth::app
