#pragma once
// gmSpellbookUI's list: the spells the player knows
// (GAME/game_ui_misc/gmSpellbookUI.c), each the SpellTable holds, ordered by
// the table's display order, and the one the player last picked. A
// double-click on a spell puts it on the spell bar's open tab
// (gmSpellbookUI::ListenToElementMessage 0x0048BFD0 -> CM_Magic::
// SendNotice_AddSpellShortcut -> GmSpellcastingUi::recv_notice_add_spell_
// shortcut); the window's panel and its mouse are the app's.
//
// Not ported: the school and level filter buttons (gmSpellbookUI::
// IsFilteredOut 0x0048AEB0 reads PlayerModule's spell filters, which the
// PlayerDescription carries after the blocks dereth does not decode; retail's
// default, 0x3FFF, shows every school and levels 1 to 9, and dereth shows
// every spell), and deleting a spell (a confirmation dialog and
// CM_Magic::Event_RemoveSpell).
#include <cstdint>
#include <vector>

#include "dereth/dat/spell_table.hpp"

namespace dereth::sim {

class Qualities;

class GmSpellbookUi {
 public:
  // gmSpellbookUI::UpdateFromPlayerDesc 0x0048BAF0: the list emptied, then
  // each spell of the book in CACQualities::TranscribeSpells order through
  // AddSpell; nothing without a book (or without qualities). The
  // selection is kept.
  void update_from_player_desc(const Qualities* qualities, const dat::SpellTable* table);
  // gmSpellbookUI::AddSpell 0x0048B7A0: a spell the SpellTable holds goes
  // in at GetSortedInsertionPlace 0x0048B440 (before the first whose display
  // order is greater, so after those of the same order; entries the table
  // does not hold are passed over); one it does not hold is not shown.
  void add_spell(std::uint32_t spell, const dat::SpellTable* table);
  // gmSpellbookUI::RecvNotice_SpellAdded 0x0048B8D0: AddSpell, and the
  // spell selected when it is shown.
  void recv_notice_spell_added(std::uint32_t spell, const dat::SpellTable* table);
  // gmSpellbookUI::RecvNotice_SpellRemoved 0x0048BC00: the list rebuilt.
  void recv_notice_spell_removed(const Qualities* qualities, const dat::SpellTable* table) {
    update_from_player_desc(qualities, table);
  }
  // gmSpellbookUI::SetSelected 0x0048B540: the selected id, whether or not
  // the list holds it.
  void set_selected(std::uint32_t spell) noexcept { selected_ = spell; }

  [[nodiscard]] const std::vector<std::uint32_t>& spells() const noexcept { return spells_; }
  [[nodiscard]] std::uint32_t selected() const noexcept { return selected_; }

 private:
  std::vector<std::uint32_t> spells_;
  std::uint32_t selected_ = 0;
};

}  // namespace dereth::sim
