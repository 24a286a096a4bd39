#pragma once
// The game screen's panels, made each frame from the world for the window's
// overlay (docs/game_screen.md): the radar (sim::GmRadarUi's blips, the
// heading and the coordinates line), the vitals (gmVitalsUI), the combat
// mode and the attack power bar (gmCombatUI), and the spell bar
// (gmSpellcastingUI).

#include <cstdint>
#include <optional>
#include <string>

#include "dereth/app/frame_loop.hpp"
#include "dereth/dat/spell_table.hpp"
#include "dereth/render/overlay.hpp"
#include "dereth/sim/object/smart_box.hpp"
#include "dereth/sim/player/client_combat_system.hpp"
#include "dereth/sim/player/gm_spellbook_ui.hpp"
#include "dereth/sim/player/gm_spellcasting_ui.hpp"
#include "dereth/sim/player/player_module.hpp"
#include "dereth/sim/player/qualities.hpp"

namespace dereth::app {

// gmRadarUI's view of `box` (the player's radar, `selected` framed); none
// without a player in the world.
[[nodiscard]] std::optional<render::RadarPanel> radar_panel(const sim::SmartBox& box, std::uint32_t selected);

// gmVitalsUI::Update 0x004BFE30: each vital's current value (2, 4, 6) over
// its maximum (1, 3, 5) as CACQualities::InqAttribute2nd gives them (raw:
// dereth's qualities do not apply enchantments yet); a maximum the
// qualities cannot give (no VitalTable) is left unknown. None without
// qualities (no PlayerDescription yet).
[[nodiscard]] std::optional<render::VitalsPanel> vitals_panel(const sim::Qualities* qualities);

// The combat mode's name ("Peace", "Melee", "Missile", "Magic") and, in
// melee and missile mode (where retail shows gmCombatUI), the attack power
// bar: the level ClientCombatSystem last set for the combat power bar
// (gmCombatUI::RecvNotice_SetPowerbarLevel 0x004CC0E0 takes the combat
// bar's only), 0 while none is built.
[[nodiscard]] render::CombatPanel combat_panel(const sim::ClientCombatSystem& combat);

// A spell's name from the SpellTable, or its id as "0x%08X" when the table
// is missing or does not hold it.
[[nodiscard]] std::string spell_name(const dat::SpellTable* table, std::uint32_t spell);

// The spell bar in magic mode (gmSpellcastingUI::RecvNotice_SetCombatMode
// 0x004C7280 shows it there alone): the open tab's favourites by name and
// the selected one's place; none in any other mode.
[[nodiscard]] std::optional<render::SpellBarPanel> spell_bar_panel(sim::CombatMode mode,
                                                                   const sim::PlayerModule& module,
                                                                   const sim::GmSpellcastingUi& ui,
                                                                   const dat::SpellTable* table);

// The spellbook window (gmSpellbookUI's list): a title, then each spell of
// `ui` by name (the selected one lit), then how to use it: a double-click
// puts a spell on the open tab `tab` (0-based) of the spell bar.
[[nodiscard]] render::TextPanel spellbook_panel(const sim::GmSpellbookUi& ui, const dat::SpellTable* table,
                                                std::int32_t tab);
// The spellbook panel's lines before its first spell (the title).
inline constexpr std::size_t kSpellbookTitleLines = 1;

// The game screen's panels the presenter was handed this frame
// (Presenter::hud_*) into `frame`: the radar (when `radar`, the setting),
// and when `panels` (the setting) the selected object, the vitals, the
// combat panel and the spell bar. The window draws them over the world;
// the golden image of the screen too. Returns where in frame.panels the
// spellbook went (none: not shown), for the window's clicks.
std::optional<std::size_t> add_game_screen(render::OverlayFrame& frame, const Presenter& presenter, bool radar,
                                           bool panels = true);

}  // namespace dereth::app
