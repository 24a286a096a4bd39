#pragma once
// gmSpellcastingUI's state: which of the eight spell-bar tabs is open and
// which spell each tab has selected (SpellCastSubMenu::m_selectedSpellID),
// as the MagicCombat keys move them (ClientCombatSystem::HandleMagicAction
// 0x0056A6E0 sends the notices below). A tab's list is the player's
// favourites list of the same index (PlayerModule::GetFavoriteSpellsList).
// Casting the selected spell (gmSpellcastingUI::Cast) belongs to the caster:
// it reads selected_spell(). Drawing the bar is the overlay's.
//
// The bar's own changes to the favourites (a spell added from the
// spellbook, one the spell book no longer holds taken off) change the
// PlayerModule and come back as the actions retail sends the server with
// them (CM_Character::Event_AddSpellFavorite / Event_RemoveSpellFavorite),
// in retail's order, for the caller to send.
//
// Not ported: the endowment slot (a wielded item's spell, which dereth has
// no inventory for) and dragging spells along or off the bar (retail's mouse
// drags; SpellCastSubMenu::AddFavorite's replacing form is ported for them).
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "dereth/sim/player/player_module.hpp"

namespace dereth::sim {

class Qualities;

// One favourites change to tell the server: AddSpellFavorite (spell, index,
// list) or RemoveSpellFavorite (spell, list).
struct FavoriteChange {
  bool add = true;
  std::uint32_t spell = 0;
  std::uint32_t index = 0;  // AddSpellFavorite only
  std::int32_t list = 0;
  bool operator==(const FavoriteChange&) const = default;
};

class GmSpellcastingUi {
 public:
  static constexpr std::int32_t kTabCount = 8;

  // gmSpellcastingUI::GetNextTabID 0x004C5810 / GetPrevTabID 0x004C5890 on
  // tab indices: the eight tabs in a ring (an index outside 0..7 is taken as 0).
  [[nodiscard]] static std::int32_t get_next_tab(std::int32_t tab) noexcept;
  [[nodiscard]] static std::int32_t get_prev_tab(std::int32_t tab) noexcept;

  // RecvNotice_NextSpellTab 0x004C73E0, PrevSpellTab 0x004C7420,
  // FirstSpellTab 0x004C7740, LastSpellTab 0x004C7770: the open tab.
  void recv_notice_next_spell_tab() noexcept { tab_ = get_next_tab(tab_); }
  void recv_notice_prev_spell_tab() noexcept { tab_ = get_prev_tab(tab_); }
  void recv_notice_first_spell_tab() noexcept { tab_ = 0; }
  void recv_notice_last_spell_tab() noexcept { tab_ = kTabCount - 1; }

  // RecvNotice_NextSpellSelection 0x004C7460: the spell after the selected
  // one in the open tab's list, the first after the last (and when the
  // selected spell is not in the list); nothing with an empty list.
  void recv_notice_next_spell_selection(const PlayerModule& module);
  // RecvNotice_PrevSpellSelection 0x004C75D0: the spell before, the last
  // before the first; the first when the selected spell is not in the list.
  void recv_notice_prev_spell_selection(const PlayerModule& module);
  // RecvNotice_FirstSpellSelection 0x004C77A0 / LastSpellSelection
  // 0x004C7820: the list's first or last spell; nothing with an empty list.
  void recv_notice_first_spell_selection(const PlayerModule& module);
  void recv_notice_last_spell_selection(const PlayerModule& module);
  // RecvNotice_CastQuickslotSpell 0x004C78B0: the spell in slot `slot`
  // (0-based) of the open tab becomes the selection and is returned for the
  // caster to cast (retail then calls gmSpellcastingUI::Cast); none, and no
  // change, for an empty slot.
  std::optional<std::uint32_t> recv_notice_cast_quickslot_spell(const PlayerModule& module, std::int32_t slot);

  // gmSpellcastingUI::RecvNotice_AddSpellShortcut 0x004C7A70 (the
  // spellbook's double-click): SpellCastSubMenu::AddFavorite 0x004C7060 on
  // the open tab with no place and no replacing. A spell the tab already
  // holds changes nothing; else it goes at the end, is selected, and the
  // index told the server is the tab's new count (one past the last place:
  // retail's m_numSpells after its increment), which PlayerModule::
  // AddSpellFavorite also takes as the end. Spell 0 does nothing.
  std::vector<FavoriteChange> recv_notice_add_spell_shortcut(PlayerModule& module, const Qualities* qualities,
                                                             std::uint32_t spell);
  // SpellCastSubMenu::AddFavorite 0x004C7060 on the open tab: `pos` -1 is
  // the end; with `allow_replace` a spell already there is first taken off
  // (RemoveSpellFromMenu) and `pos` moves down one if it was before it.
  std::vector<FavoriteChange> add_favorite(PlayerModule& module, const Qualities* qualities, std::uint32_t spell,
                                           std::int32_t pos, bool allow_replace);
  // SpellCastSubMenu::RemoveSpellFromMenu 0x004C68F0 on the open tab: the
  // spell's first place, taken off the PlayerModule (RemoveSpellFromPlayer
  // Module 0x004C6410, told the server), the tab then rebuilt
  // (UpdateFromPlayerModule) and its selection cleared if it was the spell;
  // none for spell 0 or a spell the tab does not hold.
  std::optional<std::size_t> remove_spell_from_menu(PlayerModule& module, const Qualities* qualities,
                                                    std::uint32_t spell, std::vector<FavoriteChange>& told);
  // gmSpellcastingUI::RecvNotice_PlayerDescReceived 0x004C69A0 and
  // RecvNotice_SpellRemoved 0x004C6A00: every tab rebuilt from the
  // PlayerModule (SpellCastSubMenu::UpdateFromPlayerModule 0x004C6570),
  // which takes off each favourite the spell book does not know
  // (CACQualities::IsSpellKnown), last first. Nothing without qualities
  // (retail's PlayerDesc missing).
  std::vector<FavoriteChange> recv_notice_player_desc_received(PlayerModule& module, const Qualities* qualities);
  std::vector<FavoriteChange> recv_notice_spell_removed(PlayerModule& module, const Qualities* qualities) {
    return recv_notice_player_desc_received(module, qualities);
  }

  // The open tab (0..7).
  [[nodiscard]] std::int32_t tab() const noexcept { return tab_; }
  // The open tab's selected spell: what gmSpellcastingUI::Cast 0x004C6050
  // casts (0: none, "You must select a spell to cast").
  [[nodiscard]] std::uint32_t selected_spell() const noexcept { return selected_[static_cast<std::size_t>(tab_)]; }
  // Where the open tab's selected spell sits in its list (its first
  // place); none when nothing is selected or it is not in the list.
  [[nodiscard]] std::optional<std::size_t> selected_slot(const PlayerModule& module) const;

 private:
  // SpellCastSubMenu::SelectSpellFromIndex 0x004C5B90: false (no change)
  // when `index` is outside the list.
  bool select_spell_from_index(const PlayerModule& module, std::size_t index);
  // SpellCastSubMenu::UpdateFromPlayerModule 0x004C6570 for tab `tab`.
  static void update_from_player_module(PlayerModule& module, const Qualities* qualities, std::int32_t tab,
                                        std::vector<FavoriteChange>& told);

  std::int32_t tab_ = 0;
  std::array<std::uint32_t, kTabCount> selected_{};
};

}  // namespace dereth::sim
