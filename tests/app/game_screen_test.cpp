// The game screen's vitals, combat panel and spell bar made from the world
// (app::vitals_panel, combat_panel, spell_bar_panel), handed to the
// presenter each frame by the controls; the spell bar's MagicCombat keys.
#include "dereth/app/game_screen.hpp"

#include <catch2/catch.hpp>

#include <SDL.h>

#include "dereth/app/controls.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/key_map.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/net/inbox.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/magic.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/player_description.hpp"

#include "world_support.hpp"

using namespace dereth;
using app::KeyAction;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;

// A PlayerDescription: Endurance 60 and Self 90 (the demo VitalTable's
// maxima: health 30, stamina 60, mana 90), the current vitals given, and the
// spell bar's first tab, its spells in the spell book with `book`.
std::vector<std::uint8_t> description(std::array<std::uint32_t, 3> current, std::vector<std::uint32_t> tab0,
                                      std::vector<std::uint32_t> book = {}) {
  protocol::PlayerDescription d;
  d.weenie_type = 1;
  d.vector_flags = protocol::quality_vector_flag::Attribute | protocol::quality_vector_flag::Spell;
  for (const std::uint32_t id : tab0) d.spells.emplace_back(id, 0.0F);
  for (const std::uint32_t id : book) d.spells.emplace_back(id, 0.0F);
  for (auto& a : d.attributes) a = protocol::AttributeWire{0, 100, 0};
  d.attributes[1] = protocol::AttributeWire{0, 60, 0};
  d.attributes[5] = protocol::AttributeWire{0, 90, 0};
  for (std::size_t i = 0; i < 3; ++i) d.vitals[i] = protocol::SecondaryAttributeWire{0, 0, 0, current[i]};
  d.options = protocol::PlayerOptionsWire{0, 0};
  d.spell_lists = protocol::SpellListsWire{{}, {std::move(tab0)}};
  return protocol::encode_game_event(kPlayer, 1, protocol::login_opcode::PlayerDescriptionEvent,
                                     protocol::encode_player_description_qualities(d));
}

struct NoInbox final : net::MessageInbox {
  std::vector<net::SessionMessage> drain(double /*now*/) override { return {}; }
  [[nodiscard]] bool finished() const override { return false; }
};

struct Blank final : app::Presenter {
  core::Result<void> present(const sim::RenderSnapshot& /*s*/, const app::FrameInfo& /*i*/) override { return {}; }
  core::Result<void> screenshot(const std::filesystem::path& /*p*/) override { return {}; }
};

// A world on the demo portal with the player in it, its controls and a presenter.
struct Screen {
  core::ManualClock clock{core::Seconds{1.0}};
  app::World world{clock, &test::demo_dats().portal};
  NoInbox inbox;
  Blank presenter;
  app::FrameLoop loop{world, inbox, &clock, &presenter, nullptr, app::LoopOptions{}};
  std::vector<std::vector<std::uint8_t>> sent;  // what the controls sent the server
  app::Controls controls{world, loop, &presenter,
                         [this](std::vector<std::uint8_t> m, std::uint16_t /*q*/) { sent.push_back(std::move(m)); },
                         [] { return 1U; }};

  Screen() {
    protocol::CreateObject player;
    player.guid = kPlayer;
    player.physics.state = 0x00400C08;
    player.physics.position = protocol::Position{0xA9B40021, {10, 10, 0}, {1, 0, 0, 0}};
    player.weenie.name = "Tester";
    player.weenie.item_type = 0x10;
    world.handle(protocol::encode(player));
    world.handle(protocol::encode(protocol::PlayerCreate{kPlayer}));
  }
  void outbound() { loop.run_outbound(clock.now().count()); }
};

}  // namespace

TEST_CASE("gmVitalsUI::Update 0x004BFE30: the vitals are current over the maximum the VitalTable gives",
          "[app][retail]") {
  Screen s;
  CHECK_FALSE(app::vitals_panel(s.world.player_qualities()));  // no PlayerDescription yet
  s.outbound();
  CHECK_FALSE(s.presenter.hud_vitals);
  s.world.handle(description({20, 60, 45}, {}));
  const auto panel = app::vitals_panel(s.world.player_qualities());
  REQUIRE(panel);
  CHECK(panel->bars[0] == render::VitalBar{20, 30});  // health: Endurance / 2
  CHECK(panel->bars[1] == render::VitalBar{60, 60});  // stamina: Endurance
  CHECK(panel->bars[2] == render::VitalBar{45, 90});  // mana: Self
  s.outbound();
  REQUIRE(s.presenter.hud_vitals);
  CHECK(s.presenter.hud_vitals->bars == panel->bars);
}

TEST_CASE("The combat panel names the mode and shows the combat power bar in melee and missile mode", "[app]") {
  Screen s;
  sim::ClientCombatSystem& combat = s.controls.combat();
  render::CombatPanel peace = app::combat_panel(combat);
  CHECK(peace.mode == "Peace");
  CHECK_FALSE(peace.power);
  combat.combat_mode = sim::CombatMode::Melee;
  CHECK(app::combat_panel(combat).mode == "Melee");
  CHECK(app::combat_panel(combat).power == 0.0F);  // no bar built
  combat.power_bar_mode = sim::ClientCombatSystem::PowerBarMode::Combat;
  combat.latest_power_bar_level = 0.4F;
  CHECK(app::combat_panel(combat).power == 0.4F);
  // The jump's bar is not the attack's (gmCombatUI::RecvNotice_SetPowerbarLevel 0x004CC0E0 takes the combat bar's).
  combat.power_bar_mode = sim::ClientCombatSystem::PowerBarMode::Jump;
  CHECK(app::combat_panel(combat).power == 0.0F);
  combat.combat_mode = sim::CombatMode::Missile;
  CHECK(app::combat_panel(combat).mode == "Missile");
  combat.combat_mode = sim::CombatMode::Magic;
  CHECK(app::combat_panel(combat).mode == "Magic");
  CHECK_FALSE(app::combat_panel(combat).power);
  // Handed to the presenter each frame while the player is in the world.
  s.outbound();
  REQUIRE(s.presenter.hud_combat);
  CHECK(s.presenter.hud_combat->mode == "Magic");
}

TEST_CASE("Spells are named from the SpellTable, else by their id in hex", "[app]") {
  Screen s;
  const auto table = s.world.records().spell_table();
  REQUIRE(table);
  CHECK(app::spell_name(table.get(), 27) == "Flame Bolt I");
  CHECK(app::spell_name(table.get(), 0x5E9) == "0x000005E9");
  CHECK(app::spell_name(nullptr, 1) == "0x00000001");
}

TEST_CASE(
    "The spell bar shows the open tab's favourites in magic mode only (gmSpellcastingUI::RecvNotice_"
    "SetCombatMode 0x004C7280), moved by the MagicCombat keys",
    "[app][retail]") {
  Screen s;
  s.world.handle(description({20, 60, 45}, {27, 0x5E9, 3}));
  REQUIRE(s.world.player_module().favorite_spells(0) == std::vector<std::uint32_t>{27, 0x5E9, 3});
  s.outbound();
  CHECK_FALSE(s.presenter.hud_spell_bar);  // peace: no spell bar
  s.controls.combat().combat_mode = sim::CombatMode::Magic;
  CHECK(s.controls.magic_mode());
  s.outbound();
  REQUIRE(s.presenter.hud_spell_bar);
  CHECK(s.presenter.hud_spell_bar->tab == 0);
  CHECK(s.presenter.hud_spell_bar->spells == std::vector<std::string>{"Flame Bolt I", "0x000005E9", "Homeward Step"});
  CHECK_FALSE(s.presenter.hud_spell_bar->selected);  // nothing selected yet
  CHECK(s.controls.selected_spell() == 0);

  CHECK(s.controls.key_action(KeyAction::NextSpell, true));
  CHECK(s.controls.key_action(KeyAction::NextSpell, false));  // a release does nothing
  CHECK(s.controls.selected_spell() == 27);
  s.controls.key_action(KeyAction::PrevSpell, true);  // wraps to the last
  CHECK(s.controls.selected_spell() == 3);
  s.outbound();
  CHECK(s.presenter.hud_spell_bar->selected == 2U);
  // A slot key selects its spell and casts it (gmSpellcastingUI::Cast), at
  // nothing selected here: CastUntargetedSpell.
  s.sent.clear();
  s.controls.key_action(KeyAction::SpellSlot2, true);
  CHECK(s.controls.selected_spell() == 0x5E9);
  REQUIRE(s.sent.size() == 1);
  const auto cast = protocol::decode_cast_untargeted_spell(s.sent[0]);
  REQUIRE(cast.has_value());
  CHECK(cast->spell == 0x5E9u);
  s.controls.key_action(KeyAction::SpellSlot2, false);  // the release casts nothing
  s.controls.key_action(KeyAction::SpellSlot9, true);   // an empty slot: no change, no cast
  CHECK(s.controls.selected_spell() == 0x5E9);
  CHECK(s.sent.size() == 1);
  s.controls.key_action(KeyAction::FirstSpell, true);
  CHECK(s.controls.selected_spell() == 27);
  s.controls.key_action(KeyAction::LastSpell, true);
  CHECK(s.controls.selected_spell() == 3);
  // Another tab: empty, its own (no) selection; back again, the selection kept.
  s.controls.key_action(KeyAction::NextSpellTab, true);
  CHECK(s.controls.spellcasting().tab() == 1);
  CHECK(s.controls.selected_spell() == 0);
  s.outbound();
  CHECK(s.presenter.hud_spell_bar->tab == 1);
  CHECK(s.presenter.hud_spell_bar->spells.empty());
  s.controls.key_action(KeyAction::PrevSpellTab, true);
  CHECK(s.controls.selected_spell() == 3);
  s.controls.key_action(KeyAction::LastSpellTab, true);
  CHECK(s.controls.spellcasting().tab() == 7);
  s.controls.key_action(KeyAction::FirstSpellTab, true);
  CHECK(s.controls.spellcasting().tab() == 0);
}

TEST_CASE("The MagicCombat keys act in magic mode only, over the attacks on the same keys", "[app][controls]") {
  const app::KeyMap m = app::KeyMap::retail_default();
  // Retail's MagicCombat map: Insert / PageUp the tabs, Delete / PageDown the spells, 1..9 the slots.
  CHECK(m.action_for(SDLK_INSERT, true) == KeyAction::PrevSpellTab);
  CHECK(m.action_for(SDLK_PAGEUP, true) == KeyAction::NextSpellTab);
  CHECK(m.action_for(SDLK_DELETE, true) == KeyAction::PrevSpell);
  CHECK(m.action_for(SDLK_PAGEDOWN, true) == KeyAction::NextSpell);
  CHECK(m.action_for(SDLK_1, true) == KeyAction::SpellSlot1);
  CHECK(m.action_for(SDLK_9, true) == KeyAction::SpellSlot9);
  CHECK(m.keys_for(KeyAction::SpellSlot10).empty());
  CHECK(m.keys_for(KeyAction::FirstSpellTab).empty());  // retail's Ctrl chord: not modelled
  // Outside magic mode the same keys are the attacks, or nothing.
  CHECK(m.action_for(SDLK_DELETE) == KeyAction::AttackLow);
  CHECK(m.action_for(SDLK_PAGEDOWN) == KeyAction::AttackHigh);
  CHECK_FALSE(m.action_for(SDLK_INSERT).has_value());
  CHECK_FALSE(m.action_for(SDLK_1).has_value());
  // A key the MagicCombat map leaves alone keeps its action in magic mode.
  CHECK(m.action_for(SDLK_END, true) == KeyAction::AttackMedium);
  CHECK(m.action_for(SDLK_w, true) == KeyAction::Forward);
  CHECK(app::spell_slot_of(KeyAction::SpellSlot1) == 0);
  CHECK(app::spell_slot_of(KeyAction::SpellSlot12) == 11);
  CHECK_FALSE(app::spell_slot_of(KeyAction::Jump));

  // Rebinding a magic action to a key takes it from the magic map only.
  app::KeyMap r = app::KeyMap::retail_default();
  auto rebind = app::parse_key_rebind("next_spell", "End");
  REQUIRE(rebind);
  r.rebind(*rebind);
  CHECK(r.action_for(SDLK_END, true) == KeyAction::NextSpell);
  CHECK(r.action_for(SDLK_END) == KeyAction::AttackMedium);
  CHECK_FALSE(r.action_for(SDLK_PAGEDOWN, true) == KeyAction::NextSpell);
  CHECK(r.action_for(SDLK_PAGEDOWN, true) == KeyAction::AttackHigh);  // no magic binding left: the attack
}

namespace {

// The F7B1 action in `bytes` (its type after the stamp), 0 for another message.
std::uint32_t action_of(const std::vector<std::uint8_t>& bytes) {
  return protocol::peek_opcode(bytes) == protocol::login_opcode::GameAction ? protocol::peek_wrapped_type(bytes) : 0;
}

// The spell-bar and cast actions among what the controls sent (not the
// player's movement and position events), taken from `sent`.
std::vector<std::vector<std::uint8_t>> spell_actions(std::vector<std::vector<std::uint8_t>>& sent) {
  std::vector<std::vector<std::uint8_t>> out;
  for (auto& m : sent) {
    const std::uint32_t a = action_of(m);
    if (a == protocol::magic_action::AddSpellFavorite || a == protocol::magic_action::RemoveSpellFavorite ||
        a == protocol::magic_action::CastTargetedSpell || a == protocol::magic_action::CastUntargetedSpell) {
      out.push_back(std::move(m));
    }
  }
  sent.clear();
  return out;
}

}  // namespace

TEST_CASE("gmSpellcastingUI::RecvNotice_AddSpellShortcut 0x004C7A70 from the spellbook: a double-click fills the bar",
          "[app][retail]") {
  Screen s;
  // Nothing on the bar; the book knows Flame Bolt I (27), Stone Hide (2) and Homeward Step (3).
  s.world.handle(description({20, 60, 45}, {}, {27, 2, 3}));
  s.outbound();
  // gmSpellbookUI::UpdateFromPlayerDesc 0x0048BAF0: by the SpellTable's display order.
  CHECK(s.controls.spellbook().spells() == std::vector<std::uint32_t>{2, 3, 27});
  CHECK(spell_actions(s.sent).empty());  // nothing on the bar to take off
  // The window is shown only while open.
  CHECK_FALSE(s.presenter.hud_spellbook);
  CHECK(s.controls.key_action(KeyAction::Spellbook, true));
  s.controls.key_action(KeyAction::Spellbook, false);
  s.outbound();
  REQUIRE(s.presenter.hud_spellbook);
  CHECK(s.presenter.hud_spellbook->lines == std::vector<std::string>{"Spellbook (3 spells)", "Stone Hide",
                                                                     "Homeward Step", "Flame Bolt I",
                                                                     "Double-click: onto spell bar tab 1"});
  // A spell learnt (0x02C1): listed in its place and selected.
  s.world.handle(protocol::encode(protocol::MagicUpdateSpell{4}, kPlayer, 3));
  s.outbound();
  CHECK(s.controls.spellbook().spells() == std::vector<std::uint32_t>{2, 3, 4, 27});
  CHECK(s.controls.spellbook().selected() == 4);
  CHECK(s.presenter.hud_spellbook->line_colors[3] != s.presenter.hud_spellbook->line_colors[1]);  // lit
  // A click selects; a double click puts Flame Bolt I on the open tab.
  s.controls.on_spellbook_click(3, false);
  CHECK(s.controls.spellbook().selected() == 27);
  CHECK(spell_actions(s.sent).empty());
  s.controls.on_spellbook_click(3, true);
  auto sent = spell_actions(s.sent);
  REQUIRE(sent.size() == 1);
  const auto added = protocol::decode_add_spell_favorite(sent[0]);
  REQUIRE(added);
  CHECK(added->spell == 27U);
  CHECK(added->index == 1U);  // the tab's new count, as retail sends it
  CHECK(added->list == 0U);
  CHECK(s.world.player_module().favorite_spells(0) == std::vector<std::uint32_t>{27});
  CHECK(s.controls.selected_spell() == 27);
  // Twice does nothing more; a click past the spells neither.
  s.controls.on_spellbook_click(3, true);
  s.controls.on_spellbook_click(9, true);
  CHECK(spell_actions(s.sent).empty());
  // In magic mode the bar shows it and the cast key casts it.
  s.controls.combat().combat_mode = sim::CombatMode::Magic;
  s.outbound();
  REQUIRE(s.presenter.hud_spell_bar);
  CHECK(s.presenter.hud_spell_bar->spells == std::vector<std::string>{"Flame Bolt I"});
  CHECK(s.controls.cast_current_spell());
  sent = spell_actions(s.sent);
  REQUIRE(sent.size() == 1);
  const auto cast = protocol::decode_cast_untargeted_spell(sent[0]);
  REQUIRE(cast);
  CHECK(cast->spell == 27U);
  // Closed again, the window is gone and clicks do nothing.
  s.controls.key_action(KeyAction::Spellbook, true);
  s.outbound();
  CHECK_FALSE(s.presenter.hud_spellbook);
  s.controls.on_spellbook_click(0, true);
  CHECK(spell_actions(s.sent).empty());
}

TEST_CASE("gmSpellcastingUI::RecvNotice_SpellRemoved 0x004C6A00: a forgotten spell leaves the book and the bar",
          "[app][retail]") {
  Screen s;
  s.world.handle(description({20, 60, 45}, {27, 3}));
  s.outbound();
  REQUIRE(s.world.player_module().favorite_spells(0) == std::vector<std::uint32_t>{27, 3});
  CHECK(spell_actions(s.sent).empty());
  // 0x01A8: Flame Bolt I forgotten.
  s.world.handle(protocol::encode(protocol::MagicRemoveSpell{27}, kPlayer, 3));
  CHECK_FALSE(s.world.player_qualities()->is_spell_known(27));
  s.outbound();
  CHECK(s.world.player_module().favorite_spells(0) == std::vector<std::uint32_t>{3});
  CHECK(s.controls.spellbook().spells() == std::vector<std::uint32_t>{3});
  CHECK(app::spellbook_panel(s.controls.spellbook(), s.world.records().spell_table().get(), 0).lines.front() ==
        "Spellbook (1 spell)");
  const auto sent = spell_actions(s.sent);
  REQUIRE(sent.size() == 1);
  const auto removed = protocol::decode_remove_spell_favorite(sent[0]);
  REQUIRE(removed);
  CHECK(removed->spell == 27U);
  CHECK(removed->list == 0U);
  // A description without a spell book knows nothing: its favourites all go (retail's own prune).
  protocol::PlayerDescription bare;
  bare.weenie_type = 1;
  bare.options = protocol::PlayerOptionsWire{0, 0};
  bare.spell_lists = protocol::SpellListsWire{{}, {{27, 3}}};
  s.world.handle(protocol::encode_game_event(kPlayer, 4, protocol::login_opcode::PlayerDescriptionEvent,
                                             protocol::encode_player_description_qualities(bare)));
  s.outbound();
  CHECK(s.world.player_module().favorite_spells(0).empty());
  CHECK(spell_actions(s.sent).size() == 2);
}
