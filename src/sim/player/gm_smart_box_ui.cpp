#include "dereth/sim/player/gm_smart_box_ui.hpp"

#include <array>
#include <cmath>

#include "dereth/sim/object/smart_box.hpp"

namespace dereth::sim {

namespace {

using TAS = TeleportAnimState;

// UIGlobals::Init 0x004EE470: 100 levels of sin(i * 3.141592 / 99) * 1024
// (truncated to 16 bits), then each replaced by the running sum scaled to
// 1024 over the total, in integers as the binary does.
std::array<std::int16_t, 100> make_level_array() noexcept {
  std::array<std::uint16_t, 100> raw{};
  int total = 0;
  for (int i = 0; i < 100; ++i) {
    raw[static_cast<std::size_t>(i)] =
        static_cast<std::uint16_t>(static_cast<std::uint64_t>(std::sin(i * 3.141592 * 0.0101010101010101) * 1024.0));
    total += raw[static_cast<std::size_t>(i)];
  }
  std::array<std::int16_t, 100> level{};
  int sum = 0;
  for (std::size_t i = 0; i < 100; ++i) {
    sum += raw[i];
    level[i] = static_cast<std::int16_t>((sum << 10) / total);
  }
  return level;
}

const std::array<std::int16_t, 100>& level_array() noexcept {
  static const std::array<std::int16_t, 100> levels = make_level_array();
  return levels;
}

bool in_tunnel(TAS s) noexcept {
  return s == TAS::TunnelFadeIn || s == TAS::Tunnel || s == TAS::TunnelContinue || s == TAS::TunnelFadeOut;
}

// The fraction of a 1 s transition that has run, capped at 1.
float transition_fraction(double now, double start) noexcept {
  const double f = (now - start) / 1.0;
  return static_cast<float>(f >= 1.0 ? 1.0 : f);
}

}  // namespace

const char* to_string(TeleportAnimState s) noexcept {
  switch (s) {
    case TAS::Off: return "off";
    case TAS::WorldFadeOut: return "world fade out";
    case TAS::TunnelFadeIn: return "tunnel fade in";
    case TAS::Tunnel: return "tunnel";
    case TAS::TunnelContinue: return "tunnel continue";
    case TAS::TunnelFadeOut: return "tunnel fade out";
    case TAS::WorldFadeIn: return "world fade in";
  }
  return "unknown";
}

// UIGlobals::GetAnimLevel 0x004EE540
std::int16_t get_anim_level(float fraction) noexcept {
  double f = fraction;
  if (fraction < 0.0F) f = 0.0;
  if (f > 1.0) f = 1.0;
  return level_array()[static_cast<std::size_t>(f * 99.0)];
}

// RandDouble 0x006843D0
double GmSmartBoxUi::rand_double(double min, double max) noexcept {
  // rand(): 15 bits, 0..32767 (the top bits of the seeded generator's draw).
  const auto r = static_cast<double>(rng_.next_u32() >> 17U);
  return r * 0.00003051850947599719 * (max - min) + min;
}

std::uint32_t GmSmartBoxUi::portal_frame(double now) const noexcept {
  if (!portal_space_visible_) return 0;
  constexpr std::uint32_t kLoop = kPortalLastFrame - kPortalStartFrame + 1;
  const double elapsed = now - portal_anim_start_;
  const auto frames = elapsed <= 0.0 ? 0U : static_cast<std::uint32_t>(std::floor(elapsed * kPortalFrameRate));
  return kPortalStartFrame + frames % kLoop;
}

// gmSmartBoxUI::BeginTeleportAnimation 0x004D6300
void GmSmartBoxUi::begin_teleport_animation(TeleportAnimState state, double now) {
  if (state_ == TAS::Off) game_view_distance_ = kGameViewDistance;  // SmartBox::GetOverrideFovDistance
  cur_view_distance_ = game_view_distance_;
  rotation_start_time_ = 0.0;
  rotation_duration_ = 0.0;
  rotation_start_angle_ = 0.0;
  rotation_end_angle_ = 0.0;
  state_ = state;
  transition_start_ = now;
  ++enter_portal_sounds_;  // PlaySoundFromCenter(Sound_UI_EnterPortal, the UI sound table)
}

// gmSmartBoxUI::EndTeleportAnimation 0x004D65A0
void GmSmartBoxUi::end_teleport_animation(double now) {
  if (state_ == TAS::Off) return;
  state_ = TAS::TunnelContinue;
  transition_start_ = now;
  view_distance_override_ = false;  // SmartBox::SetOverrideFovDistance(0, 0.0)
}

// gmSmartBoxUI::UseTime 0x004D6E30
bool GmSmartBoxUi::use_time(SmartBox& box, double now) {
  bool login_complete = false;
  // (the log-off fade, TAS_WORLD_FADE_OUT on CPlayerSystem::logOffRequested,
  // is not ported: dereth logs off at once; docs/deviations.md)
  const bool in_progress = box.teleport_in_progress();
  if (in_progress != teleport_in_progress_) {
    if (in_progress) {
      teleport_in_progress_ = true;  // CPlayerSystem::SetTeleportInProgress(1)
      begin_teleport_animation(TAS::Tunnel, now);
    } else if (state_ == TAS::Tunnel) {
      end_teleport_animation(now);
    }
  }
  if (state_ == TAS::Off) {
    if (box.teleport_occured()) {
      ++login_completes_;
      login_complete = true;
    }
    return login_complete;
  }
  if (in_tunnel(state_)) {
    if (!portal_space_visible_) {
      // The portal-space object's loop starts (set_sequence_animation, start
      // frame 1, 40 frames a second), the viewport is shown, the world hidden.
      portal_anim_start_ = now;
      portal_space_visible_ = true;
    }
    if (rotation_duration_ + rotation_start_time_ > now) {
      const float pct = static_cast<float>((now - rotation_start_time_) / rotation_duration_);
      const int level = get_anim_level(pct);
      rotation_cur_angle_ =
          (rotation_end_angle_ - rotation_start_angle_) * (static_cast<double>(level) * 0.0009765625) +
          rotation_start_angle_;
    } else {
      rotation_cur_angle_ = rotation_end_angle_;
      rotation_start_time_ = now;
      rotation_duration_ = rand_double(0.6, 1.8);
      rotation_start_angle_ = rotation_cur_angle_;
      rotation_end_angle_ = rand_double(0.0, 360.0);
      ++portal_notices_;  // "In Portal Space - Please Wait..."
    }
  }
  if (state_ == TAS::WorldFadeOut || state_ == TAS::TunnelFadeOut) {
    const int level = get_anim_level(transition_fraction(now, transition_start_));
    cur_view_distance_ = static_cast<float>(
        static_cast<double>(level) * 0.0009765625 * (kMinViewDistance - game_view_distance_) + game_view_distance_);
    view_distance_override_ = true;
  }
  if (state_ == TAS::TunnelFadeIn || state_ == TAS::WorldFadeIn) {
    const int level = get_anim_level(transition_fraction(now, transition_start_));
    cur_view_distance_ = static_cast<float>(
        static_cast<double>(level) * 0.0009765625 * (game_view_distance_ - kMinViewDistance) + kMinViewDistance);
    view_distance_override_ = true;
  }
  if (state_ == TAS::TunnelContinue && now - transition_start_ >= 2.0) {
    const auto left = static_cast<float>(static_cast<double>(120 - static_cast<int>(portal_frame(now))) / 40.0);
    if (now - transition_start_ >= 5.0 || (1.0 + 0.1000000014901161 < left && 1.0 + 0.300000011920929 > left)) {
      state_ = TAS::TunnelFadeOut;
      transition_start_ = now;
    }
  }
  if (state_ == TAS::WorldFadeOut && now - transition_start_ >= 1.0) {
    state_ = TAS::TunnelFadeIn;
    transition_start_ = now;
  }
  if (state_ == TAS::TunnelFadeIn && now - transition_start_ >= 1.0) {
    state_ = TAS::Tunnel;
    transition_start_ = now;
  }
  if (state_ == TAS::TunnelFadeOut && now - transition_start_ >= 1.0) {
    view_distance_override_ = true;  // SetOverrideFovDistance(1, teleportCurVDist)
    portal_space_visible_ = false;   // the viewport hidden, SmartBox::Show
    // (clear_sequence_anims)
    ++exit_portal_sounds_;  // PlaySoundFromCenter(Sound_UI_ExitPortal, the UI sound table)
    state_ = TAS::WorldFadeIn;
    transition_start_ = now;
  }
  if (state_ == TAS::WorldFadeIn && now - transition_start_ >= 1.0) {
    transition_start_ = now - 1.0;
    ++login_completes_;  // CPlayerSystem::SendLoginCompleteNotification
    login_complete = true;
    teleport_in_progress_ = false;
    state_ = TAS::Off;
    view_distance_override_ = false;
    (void)box.teleport_occured();
  }
  return login_complete;
}

}  // namespace dereth::sim
