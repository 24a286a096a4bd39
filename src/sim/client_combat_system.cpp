#include "dereth/sim/client_combat_system.hpp"

namespace dereth::sim {

// ClientCombatSystem::AbortAutomaticAttack 0x0056AE90
void ClientCombatSystem::abort_automatic_attack() {
  if (!(attack_server_response_pending || attack_request_in_progress || attack_in_progress || repeat_attacking)) return;
  interpreter_->send_game_action(game_action::CancelAttack);
  repeat_attacking = false;
  // The attack flags stay: the server's answer clears them.
  if (build_in_progress && power_bar_mode == PowerBarMode::Combat) hide_power_bar();
}

// ClientCombatSystem::CommenceJump 0x0056AF90
std::uint32_t ClientCombatSystem::commence_jump() {
  if (jump_pending) return 0;
  const std::uint32_t error = interpreter_->charge_jump();
  if (error != 0) return error;  // "You can't jump ..." is the UI's
  if (auto_repeat_attack) {
    interpreter_->send_game_action(game_action::CancelAttack);
    repeat_attacking = false;
  }
  jump_pending = true;
  power_bar_mode = PowerBarMode::Jump;
  start_power_bar_build();
  interpreter_->send_movement_event();
  return 0;
}

// ClientCombatSystem::HidePowerBar 0x0056A8B0
void ClientCombatSystem::hide_power_bar() {
  build_in_progress = false;
  build_start_time = core::Seconds{0.0};
  power_bar_mode = PowerBarMode::Undef;
}

// ClientCombatSystem::StartPowerBarBuild 0x0056ADB0
void ClientCombatSystem::start_power_bar_build() {
  build_in_progress = true;
  build_start_time = interpreter_->now();
}

}  // namespace dereth::sim
