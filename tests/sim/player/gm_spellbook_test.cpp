// The spellbook's list and the spell bar's own changes to the favourites:
// a known spell put on the open tab, one the book no longer holds taken off,
// each change told to the server in retail's order.

#include <catch2/catch.hpp>

#include "dereth/sim/player/gm_spellbook_ui.hpp"
#include "dereth/sim/player/gm_spellcasting_ui.hpp"
#include "dereth/sim/player/qualities.hpp"

using namespace dereth;
using sim::FavoriteChange;
using sim::GmSpellbookUi;
using sim::GmSpellcastingUi;
using sim::PlayerModule;

namespace {

dat::SpellTable table_of(std::vector<std::pair<std::uint32_t, std::uint32_t>> id_and_order) {
  dat::SpellTable t;
  for (const auto& [id, order] : id_and_order) {
    dat::SpellTableEntry e;
    e.spell = id;
    e.base.name = "spell " + std::to_string(id);
    e.base.display_order = order;
    t.spells.push_back(std::move(e));
  }
  return t;
}

sim::Qualities knowing(std::vector<std::uint32_t> spells, std::uint16_t buckets = 64) {
  protocol::PlayerDescription d;
  d.weenie_type = 1;
  d.vector_flags = protocol::quality_vector_flag::Spell;
  d.spell_buckets = buckets;
  for (const auto s : spells) d.spells.emplace_back(s, 2.0F);
  return sim::Qualities(d, std::nullopt, std::nullopt);
}

PlayerModule module_with(std::vector<std::vector<std::uint32_t>> lists) {
  protocol::SpellListsWire wire;
  wire.favorite_spells = std::move(lists);
  return PlayerModule(wire);
}

}  // namespace

TEST_CASE(
    "gmSpellbookUI::UpdateFromPlayerDesc 0x0048BAF0 and AddSpell 0x0048B7A0: the book by display order, ties in "
    "transcribed order, spells the table lacks left out",
    "[retail]") {
  // 27 and 3 share display order 5; 2 sorts first; 9 is not in the table.
  const auto table = table_of({{27, 5}, {3, 5}, {2, 1}, {4, 8}});
  // Buckets of 4: transcribed order is the table's iteration reversed:
  // iteration 4 (bucket 0), 9 (1), 2 (2), 27 then 3 (3: 27 at its head) -> 3, 27, 2, 9, 4.
  const auto q = knowing({4, 9, 2, 3, 27}, 4);
  REQUIRE(q.transcribe_spells() == std::vector<std::uint32_t>{3, 27, 2, 9, 4});
  GmSpellbookUi ui;
  ui.update_from_player_desc(&q, &table);
  // GetSortedInsertionPlace 0x0048B440: 3 first, 27 after it (not before:
  // equal orders go after), 2 before both, 4 last.
  CHECK(ui.spells() == std::vector<std::uint32_t>{2, 3, 27, 4});
  // Without a SpellTable nothing is shown; without a book neither.
  ui.update_from_player_desc(&q, nullptr);
  CHECK(ui.spells().empty());
  protocol::PlayerDescription none;
  const sim::Qualities bookless(none, std::nullopt, std::nullopt);
  ui.update_from_player_desc(&bookless, &table);
  CHECK(ui.spells().empty());
  ui.update_from_player_desc(nullptr, &table);
  CHECK(ui.spells().empty());
}

TEST_CASE(
    "gmSpellbookUI::RecvNotice_SpellAdded 0x0048B8D0 selects the spell it shows, RecvNotice_SpellRemoved "
    "0x0048BC00 rebuilds and keeps the selection",
    "[retail]") {
  const auto table = table_of({{27, 5}, {2, 1}});
  auto q = knowing({2});
  GmSpellbookUi ui;
  ui.update_from_player_desc(&q, &table);
  q.add_spell(27);
  ui.recv_notice_spell_added(27, &table);
  CHECK(ui.spells() == std::vector<std::uint32_t>{2, 27});
  CHECK(ui.selected() == 27);
  // A spell the table lacks is neither shown nor selected.
  q.add_spell(99);
  ui.recv_notice_spell_added(99, &table);
  CHECK(ui.spells() == std::vector<std::uint32_t>{2, 27});
  CHECK(ui.selected() == 27);
  // gmSpellbookUI::SetSelected 0x0048B540 keeps the id even when it leaves the list.
  REQUIRE(q.remove_spell(27));
  ui.recv_notice_spell_removed(&q, &table);
  CHECK(ui.spells() == std::vector<std::uint32_t>{2});
  CHECK(ui.selected() == 27);
}

TEST_CASE(
    "gmSpellcastingUI::RecvNotice_AddSpellShortcut 0x004C7A70: SpellCastSubMenu::AddFavorite 0x004C7060 appends "
    "to the open tab, tells the server the new count as the index and selects the spell",
    "[retail]") {
  const auto q = knowing({27, 2, 3});
  PlayerModule module = module_with({{}, {2}});
  GmSpellcastingUi ui;
  // An empty tab: the index told is 1 (m_numSpells after its increment), not 0.
  CHECK(ui.recv_notice_add_spell_shortcut(module, &q, 27) == std::vector<FavoriteChange>{{true, 27, 1, 0}});
  CHECK(module.favorite_spells(0) == std::vector<std::uint32_t>{27});
  CHECK(ui.selected_spell() == 27);
  // A spell the tab holds already: nothing changes, nothing is told.
  CHECK(ui.recv_notice_add_spell_shortcut(module, &q, 27).empty());
  // The second: index 2, at the end.
  CHECK(ui.recv_notice_add_spell_shortcut(module, &q, 3) == std::vector<FavoriteChange>{{true, 3, 2, 0}});
  CHECK(module.favorite_spells(0) == std::vector<std::uint32_t>{27, 3});
  CHECK(ui.selected_spell() == 3);
  // On another tab the list is that tab's.
  ui.recv_notice_next_spell_tab();
  CHECK(ui.recv_notice_add_spell_shortcut(module, &q, 3) == std::vector<FavoriteChange>{{true, 3, 2, 1}});
  CHECK(module.favorite_spells(1) == std::vector<std::uint32_t>{2, 3});
  // Spell 0 does nothing.
  CHECK(ui.recv_notice_add_spell_shortcut(module, &q, 0).empty());
}

TEST_CASE(
    "SpellCastSubMenu::AddFavorite 0x004C7060 replacing: the spell taken off first (RemoveSpellFromMenu "
    "0x004C68F0), a later place moved down one",
    "[retail]") {
  const auto q = knowing({11, 12, 13, 14});
  PlayerModule module = module_with({{11, 12, 13, 14}});
  GmSpellcastingUi ui;
  // 12 (at 1) to place 3: removed, so place 2; the list then 11, 13, 12, 14.
  CHECK(ui.add_favorite(module, &q, 12, 3, true) == std::vector<FavoriteChange>{{false, 12, 0, 0}, {true, 12, 2, 0}});
  CHECK(module.favorite_spells(0) == std::vector<std::uint32_t>{11, 13, 12, 14});
  // 14 (at 3) to place 0: no move down.
  CHECK(ui.add_favorite(module, &q, 14, 0, true) == std::vector<FavoriteChange>{{false, 14, 0, 0}, {true, 14, 0, 0}});
  CHECK(module.favorite_spells(0) == std::vector<std::uint32_t>{14, 11, 13, 12});
}

TEST_CASE(
    "SpellCastSubMenu::RemoveSpellFromMenu 0x004C68F0 takes the spell off, tells the server and clears the "
    "tab's selection of it",
    "[retail]") {
  const auto q = knowing({11, 12});
  PlayerModule module = module_with({{11, 12}});
  GmSpellcastingUi ui;
  ui.recv_notice_last_spell_selection(module);
  REQUIRE(ui.selected_spell() == 12);
  std::vector<FavoriteChange> told;
  CHECK(ui.remove_spell_from_menu(module, &q, 12, told) == std::optional<std::size_t>{1});
  CHECK(told == std::vector<FavoriteChange>{{false, 12, 0, 0}});
  CHECK(module.favorite_spells(0) == std::vector<std::uint32_t>{11});
  CHECK(ui.selected_spell() == 0);
  told.clear();
  CHECK_FALSE(ui.remove_spell_from_menu(module, &q, 12, told));
  CHECK_FALSE(ui.remove_spell_from_menu(module, &q, 0, told));
  CHECK(told.empty());
}

TEST_CASE(
    "gmSpellcastingUI::RecvNotice_PlayerDescReceived 0x004C69A0: SpellCastSubMenu::UpdateFromPlayerModule "
    "0x004C6570 takes off every favourite the book does not know, the last first",
    "[retail]") {
  const auto q = knowing({27, 3});
  PlayerModule module = module_with({{5, 27, 6, 3, 7}, {}, {8}});
  GmSpellcastingUi ui;
  // Tab 0's unknown 5, 6, 7 go as 7, 6, 5 (a stack); then tab 2's 8.
  CHECK(ui.recv_notice_player_desc_received(module, &q) ==
        std::vector<FavoriteChange>{{false, 7, 0, 0}, {false, 6, 0, 0}, {false, 5, 0, 0}, {false, 8, 0, 2}});
  CHECK(module.favorite_spells(0) == std::vector<std::uint32_t>{27, 3});
  CHECK(module.favorite_spells(2).empty());
  // A message with no spell book knows nothing: every favourite goes.
  protocol::PlayerDescription none;
  const sim::Qualities bookless(none, std::nullopt, std::nullopt);
  CHECK(ui.recv_notice_spell_removed(module, &bookless).size() == 2);
  CHECK(module.favorite_spells(0).empty());
  // Without qualities (no PlayerDescription yet) nothing is touched.
  PlayerModule kept = module_with({{5}});
  CHECK(ui.recv_notice_player_desc_received(kept, nullptr).empty());
  CHECK(kept.favorite_spells(0) == std::vector<std::uint32_t>{5});
}
