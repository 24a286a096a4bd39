#include "dereth/sim/player/client_combat_system.hpp"

#include <algorithm>
#include <cmath>

#include "dereth/protocol/combat.hpp"
#include "dereth/sim/motion/movement_manager.hpp"

namespace dereth::sim {

namespace {
// Motion styles (retail MotionCommand values) the combat system tests.
constexpr std::uint32_t kDualWieldCombat = 0x80000046;
constexpr std::uint32_t kMissileStyles[] = {0x8000003F /* BowCombat */,    0x80000041 /* CrossbowCombat */,
                                            0x80000043 /* SlingCombat */,  0x80000047 /* ThrownWeaponCombat */,
                                            0x80000138 /* AtlatlCombat */, 0x80000139 /* ThrownShieldCombat */};
constexpr char kNoTarget[] = "You must select a valid combat target before attacking";
}  // namespace

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

// ClientCombatSystem::FinishJump 0x0056A9B0
void ClientCombatSystem::finish_jump() {
  if (jump_pending) hide_power_bar();
  if (interpreter_->player_object() != nullptr) interpreter_->set_standing_longjump(false);
  jump_pending = false;
}

// ClientCombatSystem::DoJump 0x0056B110
std::uint32_t ClientCombatSystem::do_jump(bool autonomous) {
  constexpr float kMinJumpExtent = 0.001f;  // MIN_JUMP_EXTENT
  if (!autonomous) {
    finish_jump();  // clears jump_pending: the binary's level branch below is never taken
    float extent = 0.0f;
    if (jump_pending) {
      const auto level = static_cast<float>(get_power_bar_level());
      extent = static_cast<double>(level) >= 0.001 ? level : kMinJumpExtent;
    }
    interpreter_->send_jump_non_autonomous_event(extent);
    return 0;
  }
  if (!jump_pending) return 0;
  const auto level = static_cast<float>(get_power_bar_level());
  const float extent = static_cast<double>(level) >= 0.001 ? level : kMinJumpExtent;
  finish_jump();
  int stamina_adjustment = 0;  // computed by the weenie and not used here: the server charges it
  const std::uint32_t result = interpreter_->jump(extent, stamina_adjustment);
  if (result == 0) interpreter_->send_jump_event(extent);
  // 73, 72 and 36 are the UI's "You can't jump ..." lines.
  return result;
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
  latest_power_bar_level = 0.0f;
}

// ClientCombatSystem::GetPowerBarLevel 0x0056ADE0
double ClientCombatSystem::get_power_bar_level() const {
  if (!build_in_progress) return 0.0;
  // The player's interpreted style: the interpreter's raw style stands in
  // (they are the same command; docs/sim.md).
  const double full = interpreter_->raw_state().current_style == kDualWieldCombat ? 0.8 : 1.0;
  const double level = (interpreter_->now() - build_start_time).count() / full;
  if (level > 1.0) return 1.0;
  if (level < 0.0) return 0.0;
  return level;
}

// ClientCombatSystem::RepeatAttackInProgress 0x0056A860
bool ClientCombatSystem::repeat_attack_in_progress() const noexcept {
  return auto_repeat_attack && (attack_in_progress || power_bar_mode == PowerBarMode::Combat);
}

// ClientCombatSystem::GetAttackTarget 0x0056A8F0
std::uint32_t ClientCombatSystem::get_attack_target() const {
  if (selected_id == 0 || !lookup_) return 0;
  const PhysicsObj* selected = lookup_(selected_id);
  // No weenie, or one the player owns (carried items: dereth has no
  // containment yet, so only the player itself is the player's own).
  if (selected == nullptr || !selected->weenie()) return 0;
  const PhysicsObj* player = interpreter_->player_object();
  if (player != nullptr && selected == player) return 0;
  return selected_id;
}

// ClientCombatSystem::ObjectIsAttackable 0x0056A600
bool ClientCombatSystem::object_is_attackable(std::uint32_t guid) const {
  if (guid == 0) return true;
  const PhysicsObj* player = interpreter_->player_object();
  if (player != nullptr && guid == player->id()) return true;
  const PhysicsObj* target = lookup_ ? lookup_(guid) : nullptr;
  if (target == nullptr || !target->weenie() || !target->weenie()->is_creature) return false;
  const WeenieTraits& t = *target->weenie();
  if (t.is_free_pk) return true;
  if (player == nullptr || !player->weenie()) return false;
  const WeenieTraits& p = *player->weenie();
  if (p.is_free_pk) return true;
  if (t.is_player) return (t.is_pk && p.is_pk) || (t.is_pklite && p.is_pklite);
  return t.is_attackable;
}

// ClientCombatSystem::PlayerInReadyPosition 0x0056B820
bool ClientCombatSystem::player_in_ready_position(bool consider_attacking_ready) const {
  const PhysicsObj* player = interpreter_->player_object();
  if (player == nullptr) return false;
  const auto motions_done = [player] {
    return player->movement_manager() == nullptr || !player->movement_manager()->motions_pending();
  };
  switch (combat_mode) {
    case CombatMode::NonCombat:
    case CombatMode::Magic: return motions_done();
    case CombatMode::Melee:
      // The CombatManeuverTable is taken as present (no PlayerDescription).
      return consider_attacking_ready || motions_done();
    case CombatMode::Missile: {
      const RawMotionState& s = interpreter_->raw_state();
      const bool missile_style =
          std::find(std::begin(kMissileStyles), std::end(kMissileStyles), s.current_style) != std::end(kMissileStyles);
      if (!missile_style || s.forward_command != command::Ready) return false;
      return consider_attacking_ready || motions_done();
    }
    default: return false;
  }
}

// ClientCombatSystem::AttemptStartBuildingAttack 0x0056BB00
void ClientCombatSystem::attempt_start_building_attack() {
  if (!player_in_ready_position(true) || build_in_progress) return;
  power_bar_mode = advanced_combat_mode ? PowerBarMode::Advanced : PowerBarMode::Combat;
  start_power_bar_build();
}

// ClientCombatSystem::ExecuteAttack 0x0056BB70
void ClientCombatSystem::execute_attack(AttackHeight height, bool expect_server_response) {
  build_in_progress = false;
  build_start_time = core::Seconds{0.0};
  std::uint32_t target = get_attack_target();
  if (!object_is_attackable(target)) target = 0;
  bool message = false;
  if (player_in_ready_position(true)) {
    if (target != 0) {
      if (combat_mode == CombatMode::Melee || combat_mode == CombatMode::Missile) {
        protocol::TargetedAttack attack;
        attack.sequence = interpreter_->next_stamp();
        attack.action = combat_mode == CombatMode::Melee ? protocol::combat_action::TargetedMeleeAttack
                                                         : protocol::combat_action::TargetedMissileAttack;
        attack.target = target;
        attack.height = static_cast<std::uint32_t>(height);
        attack.power = requested_attack_power;
        interpreter_->send_message(protocol::encode(attack));
      }
      if (auto_repeat_attack) repeat_attacking = true;
      attack_server_response_pending = true;
    } else {
      message = true;
    }
  } else if (target == 0) {
    message = true;
  }
  if (message) messages_.emplace_back(kNoTarget);
  if (!attack_server_response_pending) hide_power_bar();
  if (!expect_server_response) attack_server_response_pending = false;
}

// ClientCombatSystem::StartAttackRequest 0x0056C040
void ClientCombatSystem::start_attack_request() {
  const std::uint32_t target = get_attack_target();
  if (!(advanced_combat_mode || (target != 0 && object_is_attackable(target)))) {
    messages_.emplace_back(kNoTarget);
    return;
  }
  attack_request_in_progress = true;
  requested_attack_power = 1.0f;
  // The two interpreter calls (vtable slots of the ACCmdInterp) that stop
  // the player's turning toward a mouse point are not ported: dereth has no
  // mouse movement commands.
  current_build_is_automatic = false;
  attempt_start_building_attack();
}

// ClientCombatSystem::EndAttackRequest 0x0056C0E0
void ClientCombatSystem::end_attack_request(AttackHeight height, float power) {
  if (!attack_request_in_progress) return;
  attack_request_in_progress = false;
  const auto level = static_cast<float>(get_power_bar_level());
  if (power == -1.0f) {
    requested_attack_power = advanced_combat_mode ? level : std::min(ui_requested_power, level);
  } else {
    requested_attack_power = power;
  }
  if (attack_server_response_pending) {
    attack_when_response_received = true;
    attack_when_response_received_power = requested_attack_power;
  } else if (advanced_combat_mode || ui_requested_power <= level || repeat_attacking) {
    execute_attack(height, true);
    if (!advanced_combat_mode && requested_attack_power > ui_requested_power) {
      requested_attack_power = ui_requested_power;
      execute_attack(height, true);
    }
  }
}

// ClientCombatSystem::UseTime 0x0056C1F0
void ClientCombatSystem::use_time() {
  if (build_in_progress) {
    const auto level = static_cast<float>(get_power_bar_level());
    if (power_bar_mode == PowerBarMode::Combat || power_bar_mode == PowerBarMode::Advanced) {
      if (player_in_ready_position(true)) {
        if (attack_request_in_progress || advanced_combat_mode || level < requested_attack_power) {
          set_power_bar_level(level);
        } else {
          set_power_bar_level(std::min(requested_attack_power, level));
          if (current_build_is_automatic) {
            build_in_progress = false;
            build_start_time = core::Seconds{0.0};
          } else {
            execute_attack(requested_attack_height, true);
          }
        }
      } else {
        if (auto_repeat_attack) {
          interpreter_->send_game_action(game_action::CancelAttack);
          repeat_attacking = false;
        }
        if (attack_request_in_progress) {
          build_in_progress = false;
          build_start_time = core::Seconds{0.0};
          set_power_bar_level(0.0f);
        } else {
          hide_power_bar();
        }
      }
    } else if (power_bar_mode == PowerBarMode::Jump) {
      set_power_bar_level(level);
    }
  }
  if (attack_request_in_progress && !build_in_progress && !attack_server_response_pending) {
    attempt_start_building_attack();
  }
  if (pending_combat_mode != CombatMode::Undef && player_in_ready_position(false)) {
    set_combat_mode(pending_combat_mode, true);
    pending_combat_mode = CombatMode::Undef;
  }
}

// ClientCombatSystem::SetCombatMode 0x0056BE30
void ClientCombatSystem::set_combat_mode(CombatMode mode, bool player_requested) {
  if (mode == combat_mode) return;
  if (player_requested && !player_in_ready_position(false)) {
    pending_combat_mode = mode;
    return;
  }
  combat_mode = mode;
  if (player_requested) {
    interpreter_->send_message(
        protocol::encode_change_combat_mode(interpreter_->next_stamp(), static_cast<std::uint32_t>(mode)));
  }
  if (mode != CombatMode::Melee && mode != CombatMode::Missile) return;
  const std::uint32_t target = get_attack_target();
  const PhysicsObj* player = interpreter_->player_object();
  if (player != nullptr && selected_id == player->id()) return;
  if (!object_is_attackable(target)) {
    selected_id = 0;
  } else if (selected_id != target) {
    selected_id = target;
  }
}

// ClientCombatSystem::ToggleCombatMode 0x0056C8C0
void ClientCombatSystem::toggle_combat_mode() {
  set_combat_mode(combat_mode == CombatMode::NonCombat ? CombatMode::Melee : CombatMode::NonCombat, true);
}

// ClientCombatSystem::HandleCommenceAttackEvent 0x0056AD20
void ClientCombatSystem::handle_commence_attack_event() {
  attack_in_progress = true;
  attack_server_response_pending = true;
  if (!attack_request_in_progress) {
    if (power_bar_mode == PowerBarMode::Undef) {
      power_bar_mode = advanced_combat_mode ? PowerBarMode::Advanced : PowerBarMode::Combat;
    }
    set_power_bar_level(requested_attack_power);
    build_in_progress = false;
    build_start_time = core::Seconds{0.0};
  }
}

// ClientCombatSystem::HandleAttackDoneEvent 0x0056C500
void ClientCombatSystem::handle_attack_done_event(std::uint32_t error) {
  attack_in_progress = false;
  attack_server_response_pending = false;
  if (error != 0 && repeat_attacking) abort_automatic_attack();
  if (!attack_request_in_progress && !advanced_combat_mode && auto_repeat_attack && repeat_attacking &&
      std::fabs(requested_attack_power - ui_requested_power) > 0.0099999998) {
    requested_attack_power = ui_requested_power;
    execute_attack(requested_attack_height, false);
  }
  bool start_building = false;
  if (!auto_repeat_attack || !repeat_attacking) {
    repeat_attacking = false;
    if (power_bar_mode != PowerBarMode::Jump) hide_power_bar();
    start_building = attack_request_in_progress;
  } else if (!attack_request_in_progress) {
    start_power_bar_build();
    current_build_is_automatic = true;
  } else {
    start_building = true;
  }
  if (start_building && !build_in_progress && !attack_server_response_pending) attempt_start_building_attack();
  if (attack_when_response_received) {
    start_attack_request();
    end_attack_request(requested_attack_height, attack_when_response_received_power);
    attack_when_response_received = false;
    attack_when_response_received_power = 0.0f;
  }
}

// ClientCombatSystem::HandlePlayerDeathEvent 0x0056C320
std::optional<protocol::ChatLine> handle_player_death_event(const protocol::PlayerKilled& m, std::uint32_t player_id) {
  if (m.victim == player_id || m.killer == player_id) return std::nullopt;
  protocol::ChatLine line;
  line.chat_type = protocol::chat_type::Broadcast;
  line.channel = protocol::chat_channel_name(line.chat_type);
  line.text = protocol::sanitize_server_text(m.text);
  if (line.text.empty()) return std::nullopt;
  return line;
}

}  // namespace dereth::sim
