#pragma once
// The window's key bindings: retail's default key map for the actions
// dereth has (movement, combat, target selection, chat), and rebinding from
// the settings file (`key.<action> = <key>[, <key>...]`, docs/config.md).
//
// The defaults are retail's (the MovementCommands, Combat, MeleeCombat,
// MagicCombat, ItemSelectionCommands and ChatCommands input maps of the
// retail client's default keymap, docs/controls.md names the sources); the
// MagicCombat keys act only in magic mode. dereth adds Tab for
// the next monster and Escape to clear the selection. Modifier chords
// (retail's Alt+A strafe, Ctrl+... selections) are not modelled: a binding
// is one key.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/core/error.hpp"

namespace dereth::app {

enum class KeyAction : std::uint8_t {
  Forward,
  Backward,
  TurnLeft,
  TurnRight,
  StrafeLeft,
  StrafeRight,
  Walk,
  AutoRun,
  Jump,
  CombatToggle,
  AttackHigh,
  AttackMedium,
  AttackLow,
  Chat,
  SelectClosestMonster,
  SelectNextMonster,
  SelectPreviousMonster,
  ClearSelection,
  // Casting (docs/controls.md "Casting"): kept last, after every other action.
  MagicMode,
  CastCurrentSpell,
  // Retail's MagicCombat input map (ClientCombatSystem::HandleMagicAction
  // 0x0056A6E0): bound only while the player is in magic combat mode.
  PrevSpellTab,
  NextSpellTab,
  FirstSpellTab,
  LastSpellTab,
  PrevSpell,
  NextSpell,
  FirstSpell,
  LastSpell,
  SpellSlot1,
  SpellSlot2,
  SpellSlot3,
  SpellSlot4,
  SpellSlot5,
  SpellSlot6,
  SpellSlot7,
  SpellSlot8,
  SpellSlot9,
  SpellSlot10,
  SpellSlot11,
  SpellSlot12,
  Spellbook,  // dereth's: the spellbook window (retail opens it from its panel bar)
};

// Whether `action` is of retail's MagicCombat input map: its keys act only
// in magic combat mode, where they take precedence over the same keys'
// other actions (retail binds Delete, End and PageDown to the attacks in
// the MeleeCombat map and to the spell bar in the MagicCombat map).
[[nodiscard]] bool is_magic_action(KeyAction action) noexcept;
// The spell-bar slot (0-based) of a SpellSlotN action; none for another action.
[[nodiscard]] std::optional<std::int32_t> spell_slot_of(KeyAction action) noexcept;

struct KeyActionInfo {
  KeyAction action;
  std::string_view name;         // the settings file's name: key.<name>
  std::string_view retail_name;  // retail's input action
  std::string_view description;
};

// Every action, in the order the README and the settings file list them.
[[nodiscard]] std::span<const KeyActionInfo> key_actions() noexcept;
[[nodiscard]] const KeyActionInfo& key_action_info(KeyAction action) noexcept;
// An action by its settings name (case-insensitive).
[[nodiscard]] std::optional<KeyAction> parse_key_action(std::string_view name) noexcept;
// A key (SDL keycode) by dereth's name for it ("W", "PageDown", "Grave",
// "Keypad5"; case-insensitive), and back.
[[nodiscard]] std::optional<std::int32_t> parse_key_name(std::string_view name) noexcept;
[[nodiscard]] std::string key_name(std::int32_t key);

// One settings-file rebinding: the keys replace the action's defaults.
struct KeyRebind {
  KeyAction action = KeyAction::Forward;
  std::vector<std::int32_t> keys;
  bool operator==(const KeyRebind&) const = default;
};
// Parses `key.<action>`'s value: key names separated by commas or blanks
// (empty: the action is unbound). An unknown action or key is an error
// naming it.
[[nodiscard]] core::Result<KeyRebind> parse_key_rebind(std::string_view action, std::string_view keys);

class KeyMap {
 public:
  // Retail's defaults (see above).
  [[nodiscard]] static KeyMap retail_default();
  // The action bound to `key`, if any: in magic mode a MagicCombat action
  // first, then any other; otherwise only the other actions.
  [[nodiscard]] std::optional<KeyAction> action_for(std::int32_t key, bool magic_mode = false) const noexcept;
  [[nodiscard]] std::vector<std::int32_t> keys_for(KeyAction action) const;
  // Replaces the action's keys; a key taken from another action of the
  // same map (MagicCombat or not) leaves it.
  void rebind(const KeyRebind& rebind);
  void apply(std::span<const KeyRebind> rebinds) {
    for (const auto& r : rebinds) rebind(r);
  }

 private:
  struct Binding {
    std::int32_t key;
    KeyAction action;
  };
  std::vector<Binding> bindings_;
};

// The key table `dereth keys` prints (and the README shows): one line per
// action, its keys, retail's action name and what it does.
[[nodiscard]] std::string format_key_table(const KeyMap& keys);

// The retail MotionCommand a movement action gives the CommandInterpreter
// (HoldRun for Walk), or none for the other actions.
[[nodiscard]] std::optional<std::uint32_t> motion_command_for(KeyAction action) noexcept;

}  // namespace dereth::app
