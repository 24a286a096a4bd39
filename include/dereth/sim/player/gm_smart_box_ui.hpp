#pragma once
// gmSmartBoxUI's portal-space teleport animation (seed portal-completion
// section 2; gmSmartBoxUI.c): the tunnel, its fades, then LoginComplete
// (CPlayerSystem::SendLoginCompleteNotification, on which the server takes the
// player out of portal space). Time is the world's clock (Timer::cur_time), read
// once per call; the camera's turns come from a seeded generator of its own.
// States and timings: docs/sim.md "Portal space".

#include <cstdint>

#include "dereth/core/rng.hpp"
#include "dereth/snapshot/teleport_anim_state.hpp"

namespace dereth::sim {

class SmartBox;

// TeleportAnimState: dereth/snapshot/teleport_anim_state.hpp (the render
// snapshot carries it).
[[nodiscard]] const char* to_string(TeleportAnimState s) noexcept;

// UIGlobals::GetAnimLevel 0x004EE540: the eased level (0..1024) of a fraction
// in [0, 1] from UIGlobals::Init's table (0x004EE470): the normalised running
// sum of sin(i * pi / 99) * 1024 over 100 entries.
[[nodiscard]] std::int16_t get_anim_level(float fraction) noexcept;

class GmSmartBoxUi {
 public:
  // The portal-space object's animation, modelled (deviation: no DAT
  // animation is read): frames from kPortalStartFrame looping through
  // kPortalLastFrame at kPortalFrameRate (the binary's
  // set_sequence_animation(..., start_frame 1, 40.0) and its "120 - frame").
  static constexpr std::uint32_t kPortalStartFrame = 1;
  static constexpr std::uint32_t kPortalLastFrame = 119;
  static constexpr double kPortalFrameRate = 40.0;
  // The normal view distance (SmartBox::GetOverrideFovDistance) as 1: the
  // fade is exposed as a fraction of it, down to the binary's 0.001.
  static constexpr double kGameViewDistance = 1.0;
  static constexpr double kMinViewDistance = 0.001;

  explicit GmSmartBoxUi(std::uint32_t seed = core::Rng::kDefaultSeed) noexcept : rng_(seed) {}

  // gmSmartBoxUI::BeginTeleportAnimation 0x004D6300
  void begin_teleport_animation(TeleportAnimState state, double now);
  // gmSmartBoxUI::EndTeleportAnimation 0x004D65A0
  void end_teleport_animation(double now);
  // gmSmartBoxUI::UseTime 0x004D6E30: one frame at `now`. Returns true when
  // the client sends LoginComplete now (the animation's end, or a teleport
  // completed with no animation running: SmartBox::teleport_occured).
  bool use_time(SmartBox& box, double now);

  [[nodiscard]] TeleportAnimState state() const noexcept { return state_; }
  // CPlayerSystem::teleportInProgress.
  [[nodiscard]] bool teleport_in_progress() const noexcept { return teleport_in_progress_; }
  // The portal-space viewport is shown (the world, SmartBox::Hide, is not).
  [[nodiscard]] bool portal_space_visible() const noexcept { return portal_space_visible_; }
  // teleportCurVDist over the game's view distance: 1 the whole view, down
  // to 0.001 at the bottom of a fade (1 when no override is in force).
  [[nodiscard]] double view_distance() const noexcept {
    return view_distance_override_ ? cur_view_distance_ : game_view_distance_;
  }
  // Whether SmartBox::SetOverrideFovDistance is in force (view_distance applies).
  [[nodiscard]] bool view_distance_overridden() const noexcept { return view_distance_override_; }
  // teleportRotationCurAngle: the portal-space camera's heading in degrees.
  [[nodiscard]] double rotation_angle() const noexcept { return rotation_cur_angle_; }
  [[nodiscard]] double transition_start_time() const noexcept { return transition_start_; }
  // When the portal-space object's loop began (the viewport shown): the
  // tunnel's time zero.
  [[nodiscard]] double portal_anim_start() const noexcept { return portal_anim_start_; }
  // Sound_UI_EnterPortal (BeginTeleportAnimation) and Sound_UI_ExitPortal
  // (SmartBox::Show) plays from the UI sound table so far: the frame loop
  // plays the new ones (the snapshot carries the counts).
  [[nodiscard]] std::uint64_t enter_portal_sounds() const noexcept { return enter_portal_sounds_; }
  [[nodiscard]] std::uint64_t exit_portal_sounds() const noexcept { return exit_portal_sounds_; }
  // The portal-space object's current frame (CPhysicsObj::get_curr_frame_number).
  [[nodiscard]] std::uint32_t portal_frame(double now) const noexcept;
  // LoginCompletes sent (CPlayerSystem::SendLoginCompleteNotification calls).
  [[nodiscard]] std::uint64_t login_completes() const noexcept { return login_completes_; }
  // "In Portal Space - Please Wait..." notices shown (one per new rotation).
  [[nodiscard]] std::uint64_t portal_notices() const noexcept { return portal_notices_; }

 private:
  // RandDouble 0x006843D0: rand() * (1/32767) * (max - min) + min.
  double rand_double(double min, double max) noexcept;

  core::Rng rng_;
  TeleportAnimState state_ = TeleportAnimState::Off;
  bool teleport_in_progress_ = false;
  bool portal_space_visible_ = false;
  double portal_anim_start_ = 0.0;
  double game_view_distance_ = kGameViewDistance;
  double cur_view_distance_ = kGameViewDistance;
  bool view_distance_override_ = false;
  double rotation_start_time_ = 0.0;
  double rotation_duration_ = 0.0;
  double rotation_start_angle_ = 0.0;
  double rotation_end_angle_ = 0.0;
  double rotation_cur_angle_ = 0.0;
  double transition_start_ = 0.0;
  std::uint64_t login_completes_ = 0;
  std::uint64_t portal_notices_ = 0;
  std::uint64_t enter_portal_sounds_ = 0;
  std::uint64_t exit_portal_sounds_ = 0;
};

}  // namespace dereth::sim
