#pragma once
// What the audio module is asked to play, and from where it is heard. A
// SoundRequest is the render snapshot's sim::SoundEvent itself, with no copy in
// between: audio never links the simulation (docs/audio.md). Global metres, AC
// axes.

#include <cstdint>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::audio {

// What the audio module is asked to play: the snapshot's sound events
// themselves (dereth_snapshot; the audio module never links the simulation).
// Its fields: the owner's LocalId (None for none), the Wave (0x0A..., 0 when
// the table chose none), the Sound type (0 for a direct Sound hook), the
// volume and priority, the owner's world position when it played (the sound
// does not follow it) and the simulation time.
using SoundRequest = sim::SoundEvent;

// The listener: retail SoundManager::player_position_, which SmartBox::set_viewer
// sets to the viewer (camera) position, not the player's body. Only the
// orientation's compass heading matters (Frame::get_heading of the forward,
// local +Y, axis).
struct Listener {
  glm::vec3 position{0.0f};
  glm::quat orientation{1.0f, 0.0f, 0.0f, 0.0f};  // glm::quat(w, x, y, z); identity faces north
  bool operator==(const Listener&) const = default;
};

}  // namespace dereth::audio
