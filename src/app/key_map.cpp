#include "dereth/app/key_map.hpp"

#include <algorithm>
#include <array>

#include <SDL.h>
#include <fmt/format.h>

#include "dereth/sim/player/command_interpreter.hpp"

namespace dereth::app {

namespace {

constexpr std::array<KeyActionInfo, 41> kActions = {{
    {KeyAction::Forward, "forward", "MovementForward", "walk or run forward (cancels a repeat attack)"},
    {KeyAction::Backward, "backward", "MovementBackup", "walk backward (cancels a repeat attack)"},
    {KeyAction::TurnLeft, "turn_left", "MovementTurnLeft", "turn left"},
    {KeyAction::TurnRight, "turn_right", "MovementTurnRight", "turn right"},
    {KeyAction::StrafeLeft, "strafe_left", "MovementStrafeLeft", "sidestep left"},
    {KeyAction::StrafeRight, "strafe_right", "MovementStrafeRight", "sidestep right"},
    {KeyAction::Walk, "walk", "MovementWalkMode", "held: switches between walking and running"},
    {KeyAction::AutoRun, "autorun", "MovementRunLock", "autorun on/off"},
    {KeyAction::Jump, "jump", "MovementJump", "jump"},
    {KeyAction::CombatToggle, "combat_mode", "CombatToggleCombat", "peace / melee combat mode"},
    {KeyAction::AttackHigh, "attack_high", "CombatHighAttack", "attack high (hold to build power)"},
    {KeyAction::AttackMedium, "attack_medium", "CombatMediumAttack", "attack medium (hold to build power)"},
    {KeyAction::AttackLow, "attack_low", "CombatLowAttack", "attack low (hold to build power)"},
    {KeyAction::Chat, "chat", "EnterChatMode", "open the chat line"},
    {KeyAction::SelectClosestMonster, "select_closest_monster", "SelectionClosestMonster",
     "select the nearest creature"},
    {KeyAction::SelectNextMonster, "select_next_monster", "SelectionNextMonster",
     "select the next creature by distance"},
    {KeyAction::SelectPreviousMonster, "select_previous_monster", "SelectionPreviousMonster",
     "select the previous creature by distance"},
    {KeyAction::ClearSelection, "clear_selection", "EscapeKey", "clear the selection (with none: the menu)"},
    // Casting. Retail enters magic mode through CombatToggleCombat with a
    // wand wielded; dereth has no inventory, so magic mode has its own key.
    // In magic mode End (attack_medium's key) is retail's
    // CombatCastCurrentSpell, as the MagicCombat input map binds it.
    {KeyAction::MagicMode, "magic_mode", "-", "peace / magic combat mode (dereth's key: no wand to wield)"},
    {KeyAction::CastCurrentSpell, "cast_spell", "CombatCastCurrentSpell",
     "cast the spell bar's spell at the selection (in magic mode End casts too)"},
    {KeyAction::PrevSpellTab, "prev_spell_tab", "CombatPrevSpellTab", "magic mode: the spell bar's previous tab"},
    {KeyAction::NextSpellTab, "next_spell_tab", "CombatNextSpellTab", "magic mode: the spell bar's next tab"},
    {KeyAction::FirstSpellTab, "first_spell_tab", "CombatFirstSpellTab", "magic mode: the spell bar's first tab"},
    {KeyAction::LastSpellTab, "last_spell_tab", "CombatLastSpellTab", "magic mode: the spell bar's last tab"},
    {KeyAction::PrevSpell, "prev_spell", "CombatPrevSpell", "magic mode: select the previous spell"},
    {KeyAction::NextSpell, "next_spell", "CombatNextSpell", "magic mode: select the next spell"},
    {KeyAction::FirstSpell, "first_spell", "CombatFirstSpell", "magic mode: select the tab's first spell"},
    {KeyAction::LastSpell, "last_spell", "CombatLastSpell", "magic mode: select the tab's last spell"},
    {KeyAction::SpellSlot1, "spell_slot_1", "UseSpellSlot_1", "magic mode: cast the tab's 1st spell"},
    {KeyAction::SpellSlot2, "spell_slot_2", "UseSpellSlot_2", "magic mode: cast the tab's 2nd spell"},
    {KeyAction::SpellSlot3, "spell_slot_3", "UseSpellSlot_3", "magic mode: cast the tab's 3rd spell"},
    {KeyAction::SpellSlot4, "spell_slot_4", "UseSpellSlot_4", "magic mode: cast the tab's 4th spell"},
    {KeyAction::SpellSlot5, "spell_slot_5", "UseSpellSlot_5", "magic mode: cast the tab's 5th spell"},
    {KeyAction::SpellSlot6, "spell_slot_6", "UseSpellSlot_6", "magic mode: cast the tab's 6th spell"},
    {KeyAction::SpellSlot7, "spell_slot_7", "UseSpellSlot_7", "magic mode: cast the tab's 7th spell"},
    {KeyAction::SpellSlot8, "spell_slot_8", "UseSpellSlot_8", "magic mode: cast the tab's 8th spell"},
    {KeyAction::SpellSlot9, "spell_slot_9", "UseSpellSlot_9", "magic mode: cast the tab's 9th spell"},
    {KeyAction::SpellSlot10, "spell_slot_10", "UseSpellSlot_10", "magic mode: cast the tab's 10th spell"},
    {KeyAction::SpellSlot11, "spell_slot_11", "UseSpellSlot_11", "magic mode: cast the tab's 11th spell"},
    {KeyAction::SpellSlot12, "spell_slot_12", "UseSpellSlot_12", "magic mode: cast the tab's 12th spell"},
    {KeyAction::Spellbook, "spellbook", "-",
     "open / close the spellbook (dereth's key); double-click a spell to put it on the spell bar"},
}};

struct NamedKey {
  std::string_view name;
  std::int32_t key;
};

constexpr std::array<NamedKey, 44> kNamedKeys = {{
    {"Up", SDLK_UP},
    {"Down", SDLK_DOWN},
    {"Left", SDLK_LEFT},
    {"Right", SDLK_RIGHT},
    {"Space", SDLK_SPACE},
    {"Return", SDLK_RETURN},
    {"Enter", SDLK_RETURN},
    {"KeypadEnter", SDLK_KP_ENTER},
    {"Escape", SDLK_ESCAPE},
    {"Tab", SDLK_TAB},
    {"Backspace", SDLK_BACKSPACE},
    {"Insert", SDLK_INSERT},
    {"Delete", SDLK_DELETE},
    {"Home", SDLK_HOME},
    {"End", SDLK_END},
    {"PageUp", SDLK_PAGEUP},
    {"PageDown", SDLK_PAGEDOWN},
    {"LeftShift", SDLK_LSHIFT},
    {"RightShift", SDLK_RSHIFT},
    {"LeftCtrl", SDLK_LCTRL},
    {"RightCtrl", SDLK_RCTRL},
    {"LeftAlt", SDLK_LALT},
    {"RightAlt", SDLK_RALT},
    {"Grave", SDLK_BACKQUOTE},
    {"Minus", SDLK_MINUS},
    {"Equals", SDLK_EQUALS},
    {"LeftBracket", SDLK_LEFTBRACKET},
    {"RightBracket", SDLK_RIGHTBRACKET},
    {"Backslash", SDLK_BACKSLASH},
    {"Semicolon", SDLK_SEMICOLON},
    {"Apostrophe", SDLK_QUOTE},
    {"Comma", SDLK_COMMA},
    {"Period", SDLK_PERIOD},
    {"Slash", SDLK_SLASH},
    {"Keypad0", SDLK_KP_0},
    {"Keypad1", SDLK_KP_1},
    {"Keypad2", SDLK_KP_2},
    {"Keypad3", SDLK_KP_3},
    {"Keypad4", SDLK_KP_4},
    {"Keypad5", SDLK_KP_5},
    {"Keypad6", SDLK_KP_6},
    {"Keypad7", SDLK_KP_7},
    {"Keypad8", SDLK_KP_8},
    {"Keypad9", SDLK_KP_9},
}};

// Retail's default key map for these actions (docs/controls.md).
constexpr std::array<std::pair<std::int32_t, KeyAction>, 38> kRetailDefaults = {{
    {SDLK_w, KeyAction::Forward},
    {SDLK_UP, KeyAction::Forward},
    {SDLK_x, KeyAction::Backward},
    {SDLK_DOWN, KeyAction::Backward},
    {SDLK_a, KeyAction::TurnLeft},
    {SDLK_LEFT, KeyAction::TurnLeft},
    {SDLK_d, KeyAction::TurnRight},
    {SDLK_RIGHT, KeyAction::TurnRight},
    {SDLK_z, KeyAction::StrafeLeft},
    {SDLK_c, KeyAction::StrafeRight},
    {SDLK_LSHIFT, KeyAction::Walk},
    {SDLK_q, KeyAction::AutoRun},
    {SDLK_SPACE, KeyAction::Jump},
    {SDLK_BACKQUOTE, KeyAction::CombatToggle},
    {SDLK_PAGEDOWN, KeyAction::AttackHigh},
    {SDLK_END, KeyAction::AttackMedium},
    {SDLK_DELETE, KeyAction::AttackLow},
    {SDLK_RETURN, KeyAction::Chat},
    {SDLK_QUOTE, KeyAction::SelectClosestMonster},
    {SDLK_SEMICOLON, KeyAction::SelectNextMonster},
    {SDLK_TAB, KeyAction::SelectNextMonster},  // dereth's addition
    {SDLK_l, KeyAction::SelectPreviousMonster},
    {SDLK_ESCAPE, KeyAction::ClearSelection},  // retail's EscapeKey
    // The MagicCombat map (its Ctrl chords for the first and last tab and
    // spell are not modelled; UseSpellSlot_10..12 have no default key).
    {SDLK_INSERT, KeyAction::PrevSpellTab},
    {SDLK_PAGEUP, KeyAction::NextSpellTab},
    {SDLK_DELETE, KeyAction::PrevSpell},
    {SDLK_PAGEDOWN, KeyAction::NextSpell},
    {SDLK_1, KeyAction::SpellSlot1},
    {SDLK_2, KeyAction::SpellSlot2},
    {SDLK_3, KeyAction::SpellSlot3},
    {SDLK_4, KeyAction::SpellSlot4},
    {SDLK_5, KeyAction::SpellSlot5},
    {SDLK_6, KeyAction::SpellSlot6},
    {SDLK_7, KeyAction::SpellSlot7},
    {SDLK_8, KeyAction::SpellSlot8},
    {SDLK_9, KeyAction::SpellSlot9},
    {SDLK_BACKSLASH, KeyAction::MagicMode},  // dereth's addition
    {SDLK_b, KeyAction::Spellbook},          // dereth's addition
}};

char lower(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequals(std::string_view a, std::string_view b) noexcept {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

}  // namespace

bool is_magic_action(KeyAction action) noexcept {
  return action >= KeyAction::PrevSpellTab && action <= KeyAction::SpellSlot12;
}

std::optional<std::int32_t> spell_slot_of(KeyAction action) noexcept {
  if (action < KeyAction::SpellSlot1 || action > KeyAction::SpellSlot12) return std::nullopt;
  return static_cast<std::int32_t>(action) - static_cast<std::int32_t>(KeyAction::SpellSlot1);
}

std::span<const KeyActionInfo> key_actions() noexcept {
  return kActions;
}

const KeyActionInfo& key_action_info(KeyAction action) noexcept {
  return kActions[static_cast<std::size_t>(action)];
}

std::optional<KeyAction> parse_key_action(std::string_view name) noexcept {
  for (const auto& a : kActions) {
    if (iequals(a.name, name)) return a.action;
  }
  return std::nullopt;
}

std::optional<std::int32_t> parse_key_name(std::string_view name) noexcept {
  if (name.size() == 1) {
    const char c = lower(name[0]);
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) return static_cast<std::int32_t>(c);
  }
  if (name.size() >= 2 && name.size() <= 3 && lower(name[0]) == 'f') {
    int n = 0;
    for (char c : name.substr(1)) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + (c - '0');
    }
    if (n >= 1 && n <= 12) return static_cast<std::int32_t>(SDLK_F1 + (n - 1));
    return std::nullopt;
  }
  for (const auto& k : kNamedKeys) {
    if (iequals(k.name, name)) return k.key;
  }
  return std::nullopt;
}

std::string key_name(std::int32_t key) {
  if ((key >= 'a' && key <= 'z')) return std::string(1, static_cast<char>(key - 'a' + 'A'));
  if (key >= '0' && key <= '9') return std::string(1, static_cast<char>(key));
  if (key >= SDLK_F1 && key <= SDLK_F12) return fmt::format("F{}", key - SDLK_F1 + 1);
  for (const auto& k : kNamedKeys) {
    if (k.key == key) return std::string(k.name);
  }
  return fmt::format("0x{:X}", key);
}

core::Result<KeyRebind> parse_key_rebind(std::string_view action, std::string_view keys) {
  const auto which = parse_key_action(action);
  if (!which) {
    std::string names;
    for (const auto& a : kActions) names += (names.empty() ? "" : ", ") + std::string(a.name);
    return std::unexpected(core::Error{core::ErrorKind::Invalid, "key map", "action", 0,
                                       fmt::format("unknown action \"{}\"; the actions are: {}", action, names)});
  }
  KeyRebind r;
  r.action = *which;
  std::size_t at = 0;
  while (at < keys.size()) {
    const auto end = keys.find_first_of(", \t", at);
    const std::string_view name = keys.substr(at, end == std::string_view::npos ? keys.size() - at : end - at);
    if (!name.empty()) {
      const auto key = parse_key_name(name);
      if (!key) {
        return std::unexpected(core::Error{core::ErrorKind::Invalid, "key map",
                                           std::string(key_action_info(*which).name), 0,
                                           fmt::format("unknown key \"{}\"", name)});
      }
      if (std::find(r.keys.begin(), r.keys.end(), *key) == r.keys.end()) r.keys.push_back(*key);
    }
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return r;
}

KeyMap KeyMap::retail_default() {
  KeyMap m;
  for (const auto& [key, action] : kRetailDefaults) m.bindings_.push_back(Binding{key, action});
  return m;
}

std::optional<KeyAction> KeyMap::action_for(std::int32_t key, bool magic_mode) const noexcept {
  if (magic_mode) {
    for (const auto& b : bindings_) {
      if (b.key == key && is_magic_action(b.action)) return b.action;
    }
  }
  for (const auto& b : bindings_) {
    if (b.key == key && !is_magic_action(b.action)) return b.action;
  }
  return std::nullopt;
}

std::vector<std::int32_t> KeyMap::keys_for(KeyAction action) const {
  std::vector<std::int32_t> out;
  for (const auto& b : bindings_) {
    if (b.action == action) out.push_back(b.key);
  }
  return out;
}

void KeyMap::rebind(const KeyRebind& rebind) {
  const bool magic = is_magic_action(rebind.action);
  std::erase_if(bindings_, [&](const Binding& b) {
    return b.action == rebind.action || (is_magic_action(b.action) == magic &&
                                         std::find(rebind.keys.begin(), rebind.keys.end(), b.key) != rebind.keys.end());
  });
  for (std::int32_t key : rebind.keys) bindings_.push_back(Binding{key, rebind.action});
}

std::string format_key_table(const KeyMap& keys) {
  std::string out;
  for (const auto& a : kActions) {
    std::string names;
    for (std::int32_t k : keys.keys_for(a.action)) names += (names.empty() ? "" : ", ") + key_name(k);
    out += fmt::format("{:<24} {:<18} {:<25} {}\n", a.name, names.empty() ? "-" : names, a.retail_name, a.description);
  }
  return out;
}

std::optional<std::uint32_t> motion_command_for(KeyAction action) noexcept {
  namespace cmd = sim::command;
  switch (action) {
    case KeyAction::Forward: return cmd::WalkForward;
    case KeyAction::Backward: return cmd::WalkBackwards;
    case KeyAction::TurnLeft: return cmd::TurnLeft;
    case KeyAction::TurnRight: return cmd::TurnRight;
    case KeyAction::StrafeLeft: return cmd::SideStepLeft;
    case KeyAction::StrafeRight: return cmd::SideStepRight;
    case KeyAction::Walk: return cmd::HoldRun;
    default: return std::nullopt;
  }
}

}  // namespace dereth::app
