#pragma once
// What the audio module is asked to play, and from where it is heard.
//
// SoundRequest mirrors sim::SoundEvent (include/dereth/sim/render_snapshot.hpp)
// field for field, so the app converts one to the other with plain
// assignments; the audio module never includes or links dereth_sim
// (docs/architecture.md: audio links core, dat and OpenAL only).
//
// Coordinates are global metres, AC axes: +X east, +Y north, +Z up.

#include <cstdint>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "dereth/core/clock.hpp"

namespace dereth::audio {

struct SoundRequest {
  std::uint32_t owner = 0;       // the sim's LocalId of the object that played it (0 = none)
  std::uint32_t wave_id = 0;     // 0x0A... the Wave to play (0 = the table chose none)
  std::uint32_t sound_type = 0;  // the Sound enum value (SoundTable hooks), 0 for a direct Sound hook
  float volume = 1.0f;           // the volume handed to retail SoundManager::PlaySoundInternal
  float priority = 0.0f;         // the voice priority (see docs/audio.md, "Voices")
  glm::vec3 position{0.0f};      // world position of the owner when it played (the sound does not follow it)
  core::Seconds time{0.0};       // simulation time of the event
  bool operator==(const SoundRequest&) const = default;
};

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
