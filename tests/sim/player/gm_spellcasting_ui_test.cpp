// gmSpellcastingUI's open tab and each tab's selected spell, as the
// MagicCombat keys move them.

#include "dereth/sim/player/gm_spellcasting_ui.hpp"

#include <catch2/catch.hpp>

#include "dereth/protocol/player_description.hpp"
#include "dereth/sim/player/player_module.hpp"

using dereth::sim::GmSpellcastingUi;
using dereth::sim::PlayerModule;

namespace {

PlayerModule module_with(std::vector<std::vector<std::uint32_t>> lists) {
  dereth::protocol::SpellListsWire wire;
  wire.favorite_spells = std::move(lists);
  return PlayerModule(wire);
}

}  // namespace

TEST_CASE("gmSpellcastingUI::GetNextTabID 0x004C5810 and GetPrevTabID 0x004C5890 ring the eight tabs", "[retail]") {
  CHECK(GmSpellcastingUi::get_next_tab(0) == 1);
  CHECK(GmSpellcastingUi::get_next_tab(6) == 7);
  CHECK(GmSpellcastingUi::get_next_tab(7) == 0);
  CHECK(GmSpellcastingUi::get_prev_tab(0) == 7);
  CHECK(GmSpellcastingUi::get_prev_tab(7) == 6);
  CHECK(GmSpellcastingUi::get_prev_tab(1) == 0);
  // An unknown tab is the first (retail's default case).
  CHECK(GmSpellcastingUi::get_next_tab(12) == 1);
  CHECK(GmSpellcastingUi::get_prev_tab(-3) == 7);
}

TEST_CASE(
    "gmSpellcastingUI::RecvNotice_NextSpellTab 0x004C73E0 and the other tab notices move the open tab, each tab "
    "keeps its own selection",
    "[retail]") {
  const PlayerModule module = module_with({{11, 12}, {21, 22, 23}});
  GmSpellcastingUi ui;
  CHECK(ui.tab() == 0);
  CHECK(ui.selected_spell() == 0);  // nothing selected until the player selects
  ui.recv_notice_last_spell_selection(module);
  CHECK(ui.selected_spell() == 12);
  ui.recv_notice_next_spell_tab();
  CHECK(ui.tab() == 1);
  CHECK(ui.selected_spell() == 0);
  ui.recv_notice_first_spell_selection(module);
  CHECK(ui.selected_spell() == 21);
  ui.recv_notice_prev_spell_tab();
  CHECK(ui.tab() == 0);
  CHECK(ui.selected_spell() == 12);
  ui.recv_notice_prev_spell_tab();
  CHECK(ui.tab() == 7);
  ui.recv_notice_first_spell_tab();
  CHECK(ui.tab() == 0);
  ui.recv_notice_last_spell_tab();
  CHECK(ui.tab() == 7);
}

TEST_CASE("gmSpellcastingUI::RecvNotice_NextSpellSelection 0x004C7460 steps forward and wraps to the first",
          "[retail]") {
  const PlayerModule module = module_with({{11, 12, 13}});
  GmSpellcastingUi ui;
  ui.recv_notice_next_spell_selection(module);  // none selected: the first
  CHECK(ui.selected_spell() == 11);
  CHECK(ui.selected_slot(module) == 0U);
  ui.recv_notice_next_spell_selection(module);
  CHECK(ui.selected_spell() == 12);
  ui.recv_notice_next_spell_selection(module);
  CHECK(ui.selected_spell() == 13);
  CHECK(ui.selected_slot(module) == 2U);
  ui.recv_notice_next_spell_selection(module);
  CHECK(ui.selected_spell() == 11);
  // A selection no longer in the list: the next is the first.
  const PlayerModule changed = module_with({{13, 14}});
  ui.recv_notice_next_spell_selection(changed);
  CHECK(ui.selected_spell() == 13);
  // An empty tab: nothing happens.
  GmSpellcastingUi empty;
  empty.recv_notice_next_spell_selection(module_with({}));
  CHECK(empty.selected_spell() == 0);
}

TEST_CASE(
    "gmSpellcastingUI::RecvNotice_PrevSpellSelection 0x004C75D0 steps back, wraps to the last, and takes the "
    "first for a selection not in the list",
    "[retail]") {
  const PlayerModule module = module_with({{11, 12, 13}});
  GmSpellcastingUi ui;
  ui.recv_notice_prev_spell_selection(module);  // none selected: the first, not the last
  CHECK(ui.selected_spell() == 11);
  ui.recv_notice_prev_spell_selection(module);
  CHECK(ui.selected_spell() == 13);
  ui.recv_notice_prev_spell_selection(module);
  CHECK(ui.selected_spell() == 12);
  const PlayerModule changed = module_with({{14, 15}});
  ui.recv_notice_prev_spell_selection(changed);
  CHECK(ui.selected_spell() == 14);
  CHECK_FALSE(ui.selected_slot(module));
}

TEST_CASE(
    "gmSpellcastingUI::RecvNotice_FirstSpellSelection 0x004C77A0 and LastSpellSelection 0x004C7820 pick the "
    "ends of the list, an empty list changes nothing",
    "[retail]") {
  const PlayerModule module = module_with({{11, 12, 13}});
  GmSpellcastingUi ui;
  ui.recv_notice_last_spell_selection(module);
  CHECK(ui.selected_spell() == 13);
  ui.recv_notice_first_spell_selection(module);
  CHECK(ui.selected_spell() == 11);
  ui.recv_notice_last_spell_selection(module_with({}));
  ui.recv_notice_first_spell_selection(module_with({}));
  CHECK(ui.selected_spell() == 11);
}

TEST_CASE(
    "gmSpellcastingUI::RecvNotice_CastQuickslotSpell 0x004C78B0 selects the slot's spell and hands it to the "
    "caster, an empty slot does nothing",
    "[retail]") {
  const PlayerModule module = module_with({{11, 12, 13}, {}, {31}});
  GmSpellcastingUi ui;
  CHECK(ui.recv_notice_cast_quickslot_spell(module, 1) == 12U);
  CHECK(ui.selected_spell() == 12);
  CHECK_FALSE(ui.recv_notice_cast_quickslot_spell(module, 3));
  CHECK_FALSE(ui.recv_notice_cast_quickslot_spell(module, -1));
  CHECK(ui.selected_spell() == 12);
  ui.recv_notice_next_spell_tab();
  ui.recv_notice_next_spell_tab();
  CHECK(ui.recv_notice_cast_quickslot_spell(module, 0) == 31U);
  CHECK(ui.selected_spell() == 31);
}
