#pragma once
// The small interfaces a frame loop and its presenter call out through, so a
// reader can follow each call to the classes that implement it (what were
// std::function fields): the outbound step and the chat lines of each
// frame, the session the loop runs beside, and what the player does through
// a presenter (in the world, on the character screens, in the game menu).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <glm/vec3.hpp>

#include "dereth/app/key_map.hpp"
#include "dereth/app/targeting.hpp"
#include "dereth/net/transport.hpp"
#include "dereth/protocol/character_create.hpp"
#include "dereth/protocol/chat.hpp"

namespace dereth::app {

struct PickerAction;

// Step 6 of the frame, after render and audio: whatever sends for the
// player (Controls: the LoginCompletes, the combat system's and the command
// interpreter's UseTime with their MoveToState, AutonomousPosition and
// combat actions).
class OutboundStep {
 public:
  virtual ~OutboundStep() = default;
  virtual void outbound(double now) = 0;
};

// Where the follow camera may stand (global metres): given the point it
// turns about and the point it wants, the point the viewer sphere stops at
// (World, as retail's SmartBox::update_viewer); none when there is nothing
// to ask (no player yet).
class ViewerPlacer {
 public:
  virtual ~ViewerPlacer() = default;
  [[nodiscard]] virtual std::optional<glm::vec3> place_viewer(const glm::vec3& pivot, const glm::vec3& wanted) = 0;
};

// How far a run has got, as a fraction in [0, 1] (a capture's records read,
// a scenario's simulated seconds), and where the frame loop reports it now
// and then (dereth-sim's progress line).
class ProgressSource {
 public:
  virtual ~ProgressSource() = default;
  [[nodiscard]] virtual double fraction_done() const = 0;
};
class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  virtual void progress(double fraction) = 0;
};

// Where the chat lines the world routed go besides the presenter (a
// headless run writes them to standard output).
class ChatSink {
 public:
  virtual ~ChatSink() = default;
  virtual void on_chat(const protocol::ChatLine& line) = 0;
};

// What the frame loop asks of the session it runs beside (the live client,
// the loopback scenario server, a capture); each answers nothing unless the
// session has it.
class LoopSession {
 public:
  virtual ~LoopSession() = default;
  // Asked before each frame: true ends the run as the user quitting does
  // (LoopReport::quit_by_user), e.g. after Ctrl-C in a headless run.
  virtual bool stop_requested() { return false; }
  // A live session's transport counters for the HUD.
  virtual std::optional<net::TransportStats> network_stats() { return std::nullopt; }
  // The server time of the last TimeSync header received (a live
  // session's, the loopback's or a capture's). Each frame hands it to the
  // world (World::time_sync), whose game clock (the portal Region's
  // GameTime) gives the snapshot's sky time (docs/render.md "Time of day").
  virtual std::optional<double> time_sync() { return std::nullopt; }
};

// What the player does in the world through a presenter's keys and mouse
// (Controls takes it). Each does nothing unless overridden.
class PlayerInput {
 public:
  virtual ~PlayerInput() = default;
  // A line the player typed in the chat box (the controls send it).
  virtual void on_chat_input(const std::string& /*typed*/) {}
  // A movement key: a retail MotionCommand pressed or released (the
  // CommandInterpreter's).
  virtual void on_motion_key(std::uint32_t /*command*/, bool /*pressed*/) {}
  // The other bound keys (attacks, combat mode, jump, autorun, selection):
  // the action pressed or released. Returns whether it was used (Escape with
  // nothing selected opens the game menu instead).
  virtual bool on_key_action(KeyAction /*action*/, bool /*pressed*/) { return false; }
  // A left click in the world: the ray through the pointer, in global
  // metres; the app picks the object it meets.
  virtual void on_pick(const PickRay& /*ray*/) {}
  // Mouse look (right button held): the player turns right (+1), left (-1)
  // or stops turning (0).
  virtual void on_mouse_turn(int /*direction*/) {}
  // Whether the player is in magic combat mode, where the keys of retail's
  // MagicCombat map act (KeyMap::action_for).
  [[nodiscard]] virtual bool magic_mode() const { return false; }
  // A click on the spellbook window's spell `index` (0: the first spell
  // under its title); a double click puts it on the spell bar.
  virtual void on_spellbook_click(std::size_t /*index*/, bool /*double_click*/) {}
};

// The character list's and the creation screen's choices (the login flow
// of `dereth play` takes them). Each does nothing unless overridden.
class CharacterScreens {
 public:
  virtual ~CharacterScreens() = default;
  // The character the player chose from the list shown.
  virtual void on_character_chosen(std::uint32_t /*guid*/) {}
  // Create or Delete asked for on the list (Enter is on_character_chosen).
  virtual void on_picker_action(const PickerAction& /*action*/) {}
  // Create pressed with nothing invalid: the F656 to send.
  virtual void on_create_character(const protocol::CharacterCreate& /*m*/) {}
  // Back (or Esc) on the creation screen.
  virtual void on_creator_back() {}
};

// The game menu's choices the run acts on.
class GameMenuActions {
 public:
  virtual ~GameMenuActions() = default;
  // Log out, chosen and confirmed; the presenter's poll_input returns false
  // next (the run ends and logs off).
  virtual void on_log_out() = 0;
};

}  // namespace dereth::app
