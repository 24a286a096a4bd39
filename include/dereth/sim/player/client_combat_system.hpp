#pragma once
// ClientCombatSystem (retail AC/accui_misc/CombatSystem.c): the player's melee
// and missile attacks as the client keeps them: the request, the power bar,
// the Targeted*Attack it sends, the server's CombatCommenceAttack and
// AttackDone, repeat attacks, and their cancel by movement and jumps (seed
// login-placement, "Movement cancels repeat attack"). Each step, its address,
// and what is not ported: docs/controls.md "Attacks (ClientCombatSystem)".

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dereth/core/clock.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/player_updates.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

namespace dereth::sim {

// COMBAT_MODE.
enum class CombatMode : std::uint32_t { Undef = 0, NonCombat = 1, Melee = 2, Missile = 4, Magic = 8 };
// ATTACK_HEIGHT.
enum class AttackHeight : std::uint32_t { Undef = 0, High = 1, Medium = 2, Low = 3 };

// ClientCombatSystem::HandlePlayerDeathEvent 0x0056C320: the PlayerKilled
// broadcast's line for the chat window (chat type 0, the server's sentence),
// none when the player is the victim or the killer (the Victim or Killer
// notification says it to them) or the sentence is empty.
std::optional<protocol::ChatLine> handle_player_death_event(const protocol::PlayerKilled& m, std::uint32_t player_id);

class ClientCombatSystem {
 public:
  enum class PowerBarMode : std::uint8_t { Undef = 0, Combat = 1, Advanced = 2, Jump = 3 };
  // The objects the combat system asks about (ClientObjMaintSystem::GetWeenieObject).
  using ObjectLookup = std::function<const PhysicsObj*(std::uint32_t guid)>;

  explicit ClientCombatSystem(CommandInterpreter& interpreter) : interpreter_(&interpreter) {}

  void set_object_lookup(ObjectLookup lookup) { lookup_ = std::move(lookup); }

  // ClientCombatSystem::AbortAutomaticAttack 0x0056AE90: with a response
  // pending, a request or an attack in progress, or a repeat attack, send
  // Event_CancelAttack and stop repeating; a combat power bar that is being
  // built is hidden.
  void abort_automatic_attack();
  // ClientCombatSystem::CommenceJump 0x0056AF90: charge the jump; on success
  // a repeat attack (the AutoRepeatAttack option) is cancelled, the jump bar
  // starts building and a MoveToState goes out. Returns charge_jump's code.
  std::uint32_t commence_jump();
  // ClientCombatSystem::FinishJump 0x0056A9B0: a pending jump's bar goes,
  // the standing long jump and the pending flag are cleared.
  void finish_jump();
  // ClientCombatSystem::DoJump 0x0056B110. Autonomous: on the jump key's
  // release a pending jump takes the bar's level as its extent
  // (MIN_JUMP_EXTENT 0.001 below that), finishes the bar, jumps
  // (CMotionInterp::jump) and on success sends F7B1/F61B Jump. Returns the
  // jump's code (0, 36 in the air, 72 from a pose that cannot jump, 73 too
  // loaded down, ...); 0 when no jump was pending. Non-autonomous (autonomy
  // level 0): the bar is finished and F7B1/F7C9 Jump_NonAutonomous sent; the
  // binary finishes the bar (clearing jump_pending) before it reads
  // jump_pending, so the extent sent is always 0. Returns 0.
  std::uint32_t do_jump(bool autonomous);
  // ClientCombatSystem::HidePowerBar 0x0056A8B0
  void hide_power_bar();
  // ClientCombatSystem::StartPowerBarBuild 0x0056ADB0
  void start_power_bar_build();
  // ClientCombatSystem::SetPowerBarLevel 0x0056A890
  void set_power_bar_level(float level) noexcept { latest_power_bar_level = level; }
  // ClientCombatSystem::GetPowerBarLevel 0x0056ADE0: while building, the
  // seconds since the build began over 1.0 (0.8 in DualWieldCombat),
  // clamped to [0, 1]; 0 otherwise.
  [[nodiscard]] double get_power_bar_level() const;
  // ClientCombatSystem::RepeatAttackInProgress 0x0056A860
  [[nodiscard]] bool repeat_attack_in_progress() const noexcept;
  // ClientCombatSystem::GetAttackTarget 0x0056A8F0: the selected object,
  // when it is known and not the player's own.
  [[nodiscard]] std::uint32_t get_attack_target() const;
  // ClientCombatSystem::ObjectIsAttackable 0x0056A600
  [[nodiscard]] bool object_is_attackable(std::uint32_t guid) const;
  // ClientCombatSystem::PlayerInReadyPosition 0x0056B820
  [[nodiscard]] bool player_in_ready_position(bool consider_attacking_ready) const;
  // ClientCombatSystem::AttemptStartBuildingAttack 0x0056BB00
  void attempt_start_building_attack();
  // ClientCombatSystem::ExecuteAttack 0x0056BB70
  void execute_attack(AttackHeight height, bool expect_server_response);
  // ClientCombatSystem::StartAttackRequest 0x0056C040: an attack key went down.
  void start_attack_request();
  // ClientCombatSystem::EndAttackRequest 0x0056C0E0: it came up; `power`
  // -1 takes the bar's level (capped by the requested power).
  void end_attack_request(AttackHeight height, float power = -1.0f);
  // ClientCombatSystem::UseTime 0x0056C1F0
  void use_time();
  // ClientCombatSystem::HandleCommenceAttackEvent 0x0056AD20
  void handle_commence_attack_event();
  // ClientCombatSystem::HandleAttackDoneEvent 0x0056C500: `error` is the
  // event's WeenieError (non-zero ends a repeat attack).
  void handle_attack_done_event(std::uint32_t error);
  // ClientCombatSystem::SetCombatMode 0x0056BE30: a change the player asked
  // for waits (pending) until the player is ready, then goes to the server
  // as Event_ChangeCombatMode; entering melee or missile drops a selection
  // that cannot be attacked. No weapon compatibility check (dereth has no
  // inventory), no portal-space refusal, no AutoTarget.
  void set_combat_mode(CombatMode mode, bool player_requested);
  // ClientCombatSystem::ToggleCombatMode 0x0056C8C0: NonCombat goes to the
  // default mode (melee: dereth has no wielded weapon to choose by), any
  // other mode to NonCombat.
  void toggle_combat_mode();
  // ClientCombatSystem::SetRequestedAttackHeight 0x0056C8F0
  void set_requested_attack_height(AttackHeight height) noexcept { requested_attack_height = height; }

  // The UI's messages ("You must select a valid combat target before
  // attacking"), oldest first; take_messages empties them.
  std::vector<std::string> take_messages() { return std::exchange(messages_, {}); }

  bool attack_server_response_pending = false;
  bool attack_request_in_progress = false;
  bool attack_in_progress = false;
  bool repeat_attacking = false;
  bool build_in_progress = false;
  bool jump_pending = false;
  bool current_build_is_automatic = false;
  bool attack_when_response_received = false;
  float attack_when_response_received_power = 0.0f;
  bool auto_repeat_attack = false;    // PlayerModule::AutoRepeatAttack (a character option)
  bool advanced_combat_mode = false;  // m_bAdvancedCombatMode
  CombatMode combat_mode = CombatMode::NonCombat;
  CombatMode pending_combat_mode = CombatMode::Undef;
  PowerBarMode power_bar_mode = PowerBarMode::Undef;
  AttackHeight requested_attack_height = AttackHeight::Medium;
  float requested_attack_power = 0.0f;
  float ui_requested_power = 1.0f;  // m_rUIRequestedPower: the power the UI slider asks for
  float latest_power_bar_level = 0.0f;
  core::Seconds build_start_time{0.0};
  std::uint32_t selected_id = 0;  // ACCWeenieObject::selectedID

 private:
  CommandInterpreter* interpreter_;
  ObjectLookup lookup_;
  std::vector<std::string> messages_;
};

}  // namespace dereth::sim
