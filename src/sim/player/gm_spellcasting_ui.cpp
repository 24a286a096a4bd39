// gmSpellcastingUI's open tab and each tab's selected spell
// (GAME/game_ui_misc/gmSpellcastingUI.c).
#include "dereth/sim/player/gm_spellcasting_ui.hpp"

#include <algorithm>
#include <vector>

namespace dereth::sim {

namespace {

std::int32_t valid_tab(std::int32_t tab) noexcept {
  return tab >= 0 && tab < GmSpellcastingUi::kTabCount ? tab : 0;
}

}  // namespace

// gmSpellcastingUI::GetNextTabID 0x004C5810
std::int32_t GmSpellcastingUi::get_next_tab(std::int32_t tab) noexcept {
  return (valid_tab(tab) + 1) % kTabCount;
}

// gmSpellcastingUI::GetPrevTabID 0x004C5890
std::int32_t GmSpellcastingUi::get_prev_tab(std::int32_t tab) noexcept {
  return (valid_tab(tab) + kTabCount - 1) % kTabCount;
}

// SpellCastSubMenu::SelectSpellFromIndex 0x004C5B90
bool GmSpellcastingUi::select_spell_from_index(const PlayerModule& module, std::size_t index) {
  const std::vector<std::uint32_t>& list = module.favorite_spells(tab_);
  if (index >= list.size() || list[index] == 0) return false;
  selected_[static_cast<std::size_t>(tab_)] = list[index];
  return true;
}

std::optional<std::size_t> GmSpellcastingUi::selected_slot(const PlayerModule& module) const {
  const std::uint32_t spell = selected_spell();
  if (spell == 0) return std::nullopt;
  const std::vector<std::uint32_t>& list = module.favorite_spells(tab_);
  const auto at = std::find(list.begin(), list.end(), spell);
  if (at == list.end()) return std::nullopt;
  return static_cast<std::size_t>(at - list.begin());
}

// gmSpellcastingUI::RecvNotice_NextSpellSelection 0x004C7460
void GmSpellcastingUi::recv_notice_next_spell_selection(const PlayerModule& module) {
  const std::size_t count = module.favorite_spells(tab_).size();
  if (count == 0) return;
  const auto slot = selected_slot(module);
  select_spell_from_index(module, slot && *slot + 1 < count ? *slot + 1 : 0);
}

// gmSpellcastingUI::RecvNotice_PrevSpellSelection 0x004C75D0
void GmSpellcastingUi::recv_notice_prev_spell_selection(const PlayerModule& module) {
  const std::size_t count = module.favorite_spells(tab_).size();
  if (count == 0) return;
  const auto slot = selected_slot(module);
  if (!slot) {
    select_spell_from_index(module, 0);
    return;
  }
  select_spell_from_index(module, *slot > 0 ? *slot - 1 : count - 1);
}

// gmSpellcastingUI::RecvNotice_FirstSpellSelection 0x004C77A0
void GmSpellcastingUi::recv_notice_first_spell_selection(const PlayerModule& module) {
  select_spell_from_index(module, 0);
}

// gmSpellcastingUI::RecvNotice_LastSpellSelection 0x004C7820
void GmSpellcastingUi::recv_notice_last_spell_selection(const PlayerModule& module) {
  const std::size_t count = module.favorite_spells(tab_).size();
  if (count > 0) select_spell_from_index(module, count - 1);
}

// gmSpellcastingUI::RecvNotice_CastQuickslotSpell 0x004C78B0
std::optional<std::uint32_t> GmSpellcastingUi::recv_notice_cast_quickslot_spell(const PlayerModule& module,
                                                                                std::int32_t slot) {
  if (slot < 0 || !select_spell_from_index(module, static_cast<std::size_t>(slot))) return std::nullopt;
  return selected_spell();
}

}  // namespace dereth::sim
