#pragma once
// Retail's TeleportAnimState (acclient.h), the states of gmSmartBoxUI's
// portal-space animation. Its own header so that the render snapshot can
// carry the state the renderer draws (RenderSnapshot::portal) without the
// renderer reading the simulation, and sim::GmSmartBoxUi runs the same enum.

#include <cstdint>

namespace dereth::sim {

// Values as the binary's.
enum class TeleportAnimState : std::uint8_t {
  Off = 0,
  WorldFadeOut = 1,
  TunnelFadeIn = 2,
  Tunnel = 3,
  TunnelContinue = 4,
  TunnelFadeOut = 5,
  WorldFadeIn = 6,
};

}  // namespace dereth::sim
