// gmSpellcastingUI's open tab and each tab's selected spell
// (GAME/game_ui_misc/gmSpellcastingUI.c).
#include "dereth/sim/player/gm_spellcasting_ui.hpp"

#include <algorithm>
#include <vector>

#include "dereth/sim/player/qualities.hpp"

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

// SpellCastSubMenu::UpdateFromPlayerModule 0x004C6570: the favourites the
// spell book does not know are gathered onto a stack (each pushed on the
// front) and taken off from it, so the last goes first.
void GmSpellcastingUi::update_from_player_module(PlayerModule& module, const Qualities* qualities, std::int32_t tab,
                                                 std::vector<FavoriteChange>& told) {
  if (qualities == nullptr) return;
  std::vector<std::uint32_t> unknown;
  for (const std::uint32_t spell : module.favorite_spells(tab)) {
    if (!qualities->is_spell_known(spell)) unknown.push_back(spell);
  }
  for (auto it = unknown.rbegin(); it != unknown.rend(); ++it) {
    // SpellCastSubMenu::RemoveSpellFromPlayerModule 0x004C6410
    module.remove_spell_favorite(*it, tab);
    told.push_back(FavoriteChange{false, *it, 0, tab});
  }
}

// gmSpellcastingUI::RecvNotice_PlayerDescReceived 0x004C69A0
std::vector<FavoriteChange> GmSpellcastingUi::recv_notice_player_desc_received(PlayerModule& module,
                                                                               const Qualities* qualities) {
  std::vector<FavoriteChange> told;
  for (std::int32_t tab = 0; tab < kTabCount; ++tab) update_from_player_module(module, qualities, tab, told);
  return told;
}

// SpellCastSubMenu::RemoveSpellFromMenu 0x004C68F0
std::optional<std::size_t> GmSpellcastingUi::remove_spell_from_menu(PlayerModule& module, const Qualities* qualities,
                                                                    std::uint32_t spell,
                                                                    std::vector<FavoriteChange>& told) {
  if (spell == 0) return std::nullopt;
  const std::vector<std::uint32_t>& list = module.favorite_spells(tab_);
  const auto at = std::find(list.begin(), list.end(), spell);
  if (at == list.end()) return std::nullopt;
  const auto index = static_cast<std::size_t>(at - list.begin());
  module.remove_spell_favorite(spell, tab_);
  told.push_back(FavoriteChange{false, spell, 0, tab_});
  update_from_player_module(module, qualities, tab_, told);
  auto& selected = selected_[static_cast<std::size_t>(tab_)];
  if (spell == selected) selected = 0;
  return index;
}

// SpellCastSubMenu::AddFavorite 0x004C7060
std::vector<FavoriteChange> GmSpellcastingUi::add_favorite(PlayerModule& module, const Qualities* qualities,
                                                           std::uint32_t spell, std::int32_t pos, bool allow_replace) {
  std::vector<FavoriteChange> told;
  if (!allow_replace) {
    const std::vector<std::uint32_t>& list = module.favorite_spells(tab_);
    if (std::find(list.begin(), list.end(), spell) != list.end()) return told;
  }
  if (spell == 0) return told;
  std::int32_t place = pos;
  if (const auto removed = remove_spell_from_menu(module, qualities, spell, told);
      removed && static_cast<std::int32_t>(*removed) < pos) {
    --place;
  }
  // The menu's count after the new item went in (m_numSpells).
  const auto count = static_cast<std::int32_t>(module.favorite_spells(tab_).size()) + 1;
  if (place == -1) place = count;
  // SpellCastSubMenu::AddSpellToPlayerModule 0x004C64C0
  module.add_spell_favorite(spell, static_cast<std::uint32_t>(place), tab_);
  told.push_back(FavoriteChange{true, spell, static_cast<std::uint32_t>(place), tab_});
  selected_[static_cast<std::size_t>(tab_)] = spell;  // SpellCastSubMenu::SetSelected 0x004C5B00
  return told;
}

// gmSpellcastingUI::RecvNotice_AddSpellShortcut 0x004C7A70
std::vector<FavoriteChange> GmSpellcastingUi::recv_notice_add_spell_shortcut(PlayerModule& module,
                                                                             const Qualities* qualities,
                                                                             std::uint32_t spell) {
  return add_favorite(module, qualities, spell, -1, false);
}

}  // namespace dereth::sim
