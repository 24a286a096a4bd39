#pragma once
// The local player's CommandInterpreter and ClientCombatSystem, attached to
// a world and a frame loop: the SmartBox's PlayerController, run once per
// frame at the outbound step (ClientCombatSystem::UseTime, then
// CommandInterpreter::UseTime), sending its MoveToState, AutonomousPosition
// and combat actions through the session's outbound path. Every run that
// logs in (the demo headless or in a window, `dereth play`) attaches the
// same controls, so the local player is handled the same way everywhere.
// The controls also own the chat box's outbound side: a typed line
// (PlayerInput::on_chat_input, or say/say_at for scripted runs) goes out as
// its F7B1 chat action with the same game-action stamp; and the selected
// target (Tab and retail's selection keys cycle the creatures by distance,
// a click picks by bounding sphere, Escape clears; docs/controls.md).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/app/frame_hooks.hpp"
#include "dereth/app/key_map.hpp"
#include "dereth/app/targeting.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/sim/player/client_combat_system.hpp"
#include "dereth/sim/player/command_interpreter.hpp"
#include "dereth/sim/player/gm_spellbook_ui.hpp"
#include "dereth/sim/player/gm_spellcasting_ui.hpp"

namespace dereth::app {

class World;
class FrameLoop;
class Presenter;

// The key action a scenario `input` line names (the same names as the
// settings file's key.<name>).
[[nodiscard]] KeyAction key_action_for(scenario::InputKey key) noexcept;

class Controls final : public OutboundStep, public PlayerInput {
 public:
  // One outbound game message and its queue (the session's send_message).
  using SendFn = std::function<void(std::vector<std::uint8_t> message, std::uint16_t queue)>;
  // The session's next F7B1 game-action sequence (retail
  // Proto_UI::GetNextUICounter: one counter for every game action).
  using StampFn = std::function<std::uint32_t()>;

  // Installs the interpreter as `world`'s player controller, runs the
  // combat system's and the interpreter's use_time at each frame's outbound
  // step and, when `presenter` is not null, takes its keys and clicks. All
  // four must outlive the controls.
  Controls(World& world, FrameLoop& loop, Presenter* presenter, SendFn send, StampFn next_stamp);
  ~Controls() override;
  Controls(const Controls&) = delete;
  Controls& operator=(const Controls&) = delete;

  [[nodiscard]] sim::CommandInterpreter& interpreter() noexcept { return *interpreter_; }
  [[nodiscard]] sim::ClientCombatSystem& combat() noexcept { return *combat_; }

  // Sends what the player typed (app::parse_chat_input); false when it
  // sends nothing (blank, or a tell without a name or text).
  bool say(std::string_view typed);
  // Says `typed` at the first outbound step at or after `time` (the loop's
  // clock), for scripted runs (`dereth play --say TEXT --at T`).
  void say_at(double time, std::string typed);
  [[nodiscard]] std::uint64_t chat_sent() const noexcept { return chat_sent_; }
  // LoginCompletes sent: one each time the world's teleport animation
  // (World::take_login_completes) called for one, at the outbound step.
  [[nodiscard]] std::uint64_t login_completes_sent() const noexcept { return login_completes_sent_; }
  // Presses (or releases) `action` at the first outbound step at or after
  // `time` seconds after the player entered the world (the scenario's
  // `input` lines; docs/scenario.md). The player enters the world when its
  // first LoginComplete goes out (the end of the portal-space animation),
  // the moment a scenario server starts its timeline.
  void input_at(double time, KeyAction action, bool pressed);
  // Every `input` line of a scenario, through input_at.
  void schedule_inputs(const std::vector<scenario::InputEvent>& inputs);
  // The loop time the player entered the world: its first LoginComplete (none yet).
  [[nodiscard]] std::optional<double> entered_world_at() const noexcept { return entered_at_; }
  [[nodiscard]] std::uint64_t inputs_pressed() const noexcept { return inputs_pressed_; }
  // The player's own movement (a movement key or a mouse turn from the
  // presenter) ends a scripted walk: the keys not yet pressed are dropped
  // and those the script holds are released. Called by the presenter's
  // callbacks; true once it has happened.
  void take_over_from_script();
  [[nodiscard]] bool taken_over() const noexcept { return taken_over_; }
  // Whether `action` moves the player (a motion, autorun or jump).
  [[nodiscard]] static bool is_movement(KeyAction action) noexcept;

  // A bound key's action (the window's on_key_action and on_motion_key, and
  // tests): movement to the interpreter, attacks and the combat mode to the
  // combat system, selection and the spell bar's keys here. Returns whether
  // it was used.
  bool key_action(KeyAction action, bool pressed);
  // The selection (ACCWeenieObject::selectedID; 0: none).
  [[nodiscard]] std::uint32_t selected() const noexcept { return combat_->selected_id; }
  // ACCWeenieObject::SetSelectedObject 0x0058C2E0 with the toolbar's notice
  // (gmToolbarUI::RecvNotice_SelectionChanged 0x004BF380): the QueryHealth
  // actions for the new selection (a 0 taking a shown meter down first).
  void select(std::uint32_t guid);
  // The creatures (weenie says creature; not the player) the selection keys
  // step through, with their global positions.
  [[nodiscard]] std::vector<TargetCandidate> creature_candidates() const;
  // Picks the object the ray meets (its Setup's selection sphere, scaled;
  // a 1 m sphere a metre up when it has none) and selects it; a miss keeps
  // the selection. Returns what was picked.
  std::optional<std::uint32_t> pick(const PickRay& ray);
  // The selected object's name (empty: none, or nameless).
  [[nodiscard]] std::string selected_name() const;
  // The spell bar's open tab and selections (the MagicCombat keys move
  // them); selected_spell() is what the cast key casts (0: none).
  [[nodiscard]] const sim::GmSpellcastingUi& spellcasting() const noexcept { return spellcasting_; }
  [[nodiscard]] std::uint32_t selected_spell() const noexcept { return spellcasting_.selected_spell(); }

  // The spell the cast key casts: the spell bar's selected spell, else (none
  // selected yet) the open tab's first (dereth's: retail casts nothing
  // until a spell is selected; docs/deviations.md); 0 with none.
  [[nodiscard]] std::uint32_t current_spell() const;
  // ClientMagicSystem::CastSpell 0x00568040 as far as dereth has it
  // (docs/controls.md "Casting"): in magic mode, the current spell at the
  // selection (CM_Magic::Event_CastTargetedSpell, through
  // FreeHandsAndCastSpell), or with nothing selected untargeted
  // (Event_CastUntargetedSpell). dereth has no spell table on the client, so
  // the selection alone decides; no components are checked. Returns whether
  // an action went out (not in magic mode, or no spell: nothing).
  bool cast_current_spell();
  // Casts sent (targeted and untargeted).
  [[nodiscard]] std::uint64_t casts_sent() const noexcept { return casts_sent_; }

  // The spellbook window's list (gmSpellbookUI), kept from the world's
  // spell notices at each outbound step; shown while open (the spellbook
  // key) and only then.
  [[nodiscard]] const sim::GmSpellbookUi& spellbook() const noexcept { return spellbook_; }
  [[nodiscard]] bool spellbook_open() const noexcept { return spellbook_open_; }
  void set_spellbook_open(bool open) noexcept { spellbook_open_ = open; }
  // A spellbook double-click (gmSpellbookUI::ListenToElementMessage
  // 0x0048BFD0 -> gmSpellcastingUI::RecvNotice_AddSpellShortcut): `spell`
  // onto the spell bar's open tab, the AddSpellFavorite sent. Returns
  // whether the bar changed.
  bool add_spell_to_bar(std::uint32_t spell);
  // AddSpellFavorite and RemoveSpellFavorite actions sent.
  [[nodiscard]] std::uint64_t favorites_sent() const noexcept { return favorites_sent_; }

  // The frame's outbound step (FrameLoop, step 6): the LoginCompletes the
  // teleport animation called for, ClientCombatSystem::UseTime, then
  // CommandInterpreter::UseTime; the combat system's lines to the chat
  // window, the HUD's target, then the scripted keys and lines now due.
  void outbound(double now) override;
  // The presenter's input (PlayerInput): a typed line is said; a movement
  // key, a movement action or a mouse turn of the player's own takes over
  // from a scripted walk first.
  void on_chat_input(const std::string& typed) override;
  void on_motion_key(std::uint32_t command, bool pressed) override;
  bool on_key_action(KeyAction action, bool pressed) override;
  void on_pick(const PickRay& ray) override;
  void on_mouse_turn(int direction) override;
  [[nodiscard]] bool magic_mode() const override { return combat_->combat_mode == sim::CombatMode::Magic; }
  // gmSpellbookUI::ListenToElementMessage 0x0048BFD0: a click selects the
  // spell (gmSpellbookUI::SetSelected), a double click puts it on the bar.
  void on_spellbook_click(std::size_t index, bool double_click) override;

 private:
  struct Scheduled {
    double time = 0.0;
    std::string typed;
  };
  void mouse_turn(int direction);
  // A movement key (HandleKeyboardCommand), pressed or released; a release
  // of a command not pressed through here is dropped.
  void motion_key(std::uint32_t command, bool pressed);
  // The session's next game-action stamp (0 without a session).
  [[nodiscard]] std::uint32_t next_stamp() const;
  // The world's spell notices to the spellbook and the spell bar.
  void take_spell_notices();
  // The bar's changes to the server (CM_Character::Event_AddSpellFavorite / Event_RemoveSpellFavorite).
  void send_favorites(const std::vector<sim::FavoriteChange>& changes);
  World* world_;
  FrameLoop* loop_;
  Presenter* presenter_;
  std::unique_ptr<sim::CommandInterpreter> interpreter_;
  std::unique_ptr<sim::ClientCombatSystem> combat_;
  sim::GmSpellcastingUi spellcasting_;
  sim::GmSpellbookUi spellbook_;
  bool spellbook_open_ = false;
  std::uint64_t favorites_sent_ = 0;
  SendFn send_;
  std::uint64_t login_completes_sent_ = 0;
  StampFn next_stamp_;
  struct ScheduledInput {
    double time = 0.0;  // after world entry
    KeyAction action = KeyAction::Forward;
    bool pressed = true;
  };
  std::vector<Scheduled> scheduled_;
  std::vector<ScheduledInput> inputs_;    // sorted by time
  std::vector<KeyAction> scripted_held_;  // the movement keys the script holds down
  bool taken_over_ = false;
  std::optional<double> entered_at_;
  std::uint64_t inputs_pressed_ = 0;
  std::uint64_t chat_sent_ = 0;
  std::uint64_t casts_sent_ = 0;
  int mouse_turn_ = 0;                       // the turn mouse look holds: +1 right, -1 left
  std::vector<std::uint32_t> held_motions_;  // motion commands pressed and not yet released
};

}  // namespace dereth::app
