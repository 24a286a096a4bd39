// gmSpellbookUI's list of known spells (GAME/game_ui_misc/gmSpellbookUI.c).
#include "dereth/sim/player/gm_spellbook_ui.hpp"

#include "dereth/sim/player/qualities.hpp"

namespace dereth::sim {

// gmSpellbookUI::UpdateFromPlayerDesc 0x0048BAF0
void GmSpellbookUi::update_from_player_desc(const Qualities* qualities, const dat::SpellTable* table) {
  spells_.clear();
  if (qualities == nullptr || !qualities->has_spell_book()) return;
  for (const std::uint32_t spell : qualities->transcribe_spells()) add_spell(spell, table);
}

// gmSpellbookUI::AddSpell 0x0048B7A0 with GetSortedInsertionPlace 0x0048B440
void GmSpellbookUi::add_spell(std::uint32_t spell, const dat::SpellTable* table) {
  if (table == nullptr) return;
  const dat::SpellBase* base = dat::find_spell(*table, spell);
  if (base == nullptr) return;
  auto at = spells_.begin();
  for (; at != spells_.end(); ++at) {
    const dat::SpellBase* other = dat::find_spell(*table, *at);
    if (other != nullptr && base->display_order < other->display_order) break;
  }
  spells_.insert(at, spell);
}

// gmSpellbookUI::RecvNotice_SpellAdded 0x0048B8D0
void GmSpellbookUi::recv_notice_spell_added(std::uint32_t spell, const dat::SpellTable* table) {
  add_spell(spell, table);
  if (table != nullptr && dat::find_spell(*table, spell) != nullptr) set_selected(spell);
}

}  // namespace dereth::sim
