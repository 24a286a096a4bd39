#pragma once
// ClientCombatSystem: the part of retail's combat system that movement
// reaches (login-placement seed, "Movement cancels repeat attack"): the attack
// flags, the power bar build and the jump charge. No attacks are started here.

#include <cstdint>

#include "dereth/core/clock.hpp"
#include "dereth/sim/command_interpreter.hpp"

namespace dereth::sim {

// ClientCombatSystem, the part movement reaches: the attack flags, the power
// bar build and the jump charge (no attacks are started here).
class ClientCombatSystem {
 public:
  enum class PowerBarMode : std::uint8_t { Undef = 0, Combat = 1, Advanced = 2, Jump = 3 };

  explicit ClientCombatSystem(CommandInterpreter& interpreter) : interpreter_(&interpreter) {}

  // ClientCombatSystem::AbortAutomaticAttack 0x0056AE90: with a response
  // pending, a request or an attack in progress, or a repeat attack, send
  // Event_CancelAttack and stop repeating; a combat power bar that is being
  // built is hidden.
  void abort_automatic_attack();
  // ClientCombatSystem::CommenceJump 0x0056AF90: charge the jump; on success
  // a repeat attack (the AutoRepeatAttack option) is cancelled, the jump bar
  // starts building and a MoveToState goes out. Returns charge_jump's code.
  std::uint32_t commence_jump();
  // ClientCombatSystem::HidePowerBar 0x0056A8B0
  void hide_power_bar();
  // ClientCombatSystem::StartPowerBarBuild 0x0056ADB0
  void start_power_bar_build();

  bool attack_server_response_pending = false;
  bool attack_request_in_progress = false;
  bool attack_in_progress = false;
  bool repeat_attacking = false;
  bool build_in_progress = false;
  bool jump_pending = false;
  bool auto_repeat_attack = false;  // PlayerModule::AutoRepeatAttack (a character option)
  PowerBarMode power_bar_mode = PowerBarMode::Undef;
  core::Seconds build_start_time{0.0};

 private:
  CommandInterpreter* interpreter_;
};

}  // namespace dereth::sim
