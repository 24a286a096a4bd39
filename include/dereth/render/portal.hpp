#pragma once
// Portal space on screen (docs/render.md "Portal space"), without GL: what a
// frame draws of the snapshot's sim::PortalSpace. No retail art exists for
// the tunnel (retail drew a portal-space object in its own viewport), so the
// tunnel is dereth's own: a swirling, moving tunnel from a fragment shader
// over the whole frame, a function of the tunnel's time and the camera's
// heading only, so every picture of it is deterministic.

#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::render {

struct PortalFrame {
  // The tunnel instead of the world (the viewport shown, SmartBox::Hide).
  bool tunnel = false;
  // The tunnel's brightness: 0 black .. 1 whole (its fades).
  float tunnel_brightness = 0.0F;
  // Over the world: black at this opacity (its fades; 0 draws nothing).
  float veil = 0.0F;
  bool operator==(const PortalFrame&) const = default;
};

// The tunnel while `visible`, as bright as the fade (TunnelFadeIn,
// TunnelFadeOut: the view distance gmSmartBoxUI eases between the game's and
// 0.001); otherwise the world, veiled by 1 - fade (WorldFadeOut,
// WorldFadeIn). Fades outside [0, 1] (or not finite) are clamped (NaN: none).
[[nodiscard]] PortalFrame portal_frame(const sim::PortalSpace& portal) noexcept;

}  // namespace dereth::render
