#pragma once
// SoundManager: retail's positional gain, pan, distance cut-off and 16-voice
// pool (SoundManager::PlaySoundInternal, GetAttenuation; RE
// PORTAL/sound/SoundManager.c; spec/physics.md 9.4 and 9.5), owned by each
// backend rather than kept in statics. The formulas and the pool's rules:
// docs/audio.md "What happens to one request", "Voices".

#include <array>
#include <cstddef>
#include <cstdint>

#include <glm/vec3.hpp>

#include "dereth/audio/sound_request.hpp"
#include "dereth/core/clock.hpp"

namespace dereth::audio {

inline constexpr std::size_t kVoiceCount = 16;      // SoundManager::playing_sounds_[16]
inline constexpr int kVolMin = -50;                 // SoundManager::VOL_MIN, whole dB
inline constexpr double kVolMinDistSq = 5.0 * 5.0;  // VOL_MIN_DIST_SQ: inverse-square beyond 5 m
inline constexpr float kPanMinDistance = 5.0f;      // no pan closer than this
inline constexpr int kMaxPan = 15;                  // SoundBuf::Play clamps the pan index to [-15, 15]

// The "Sound Features" preference (choices "Stereo", "Mono"); Mono never pans.
enum class SoundFeatures : std::uint8_t { Stereo = 0, Mono = 1 };

// Which busy voice a new sound may take when all 16 are sounding and none has
// priority 0. Both steal only a voice whose priority is strictly lower than
// the new sound's (an equal priority never steals: the new sound is dropped).
//   Retail: the first such voice in round-robin order from the cursor
//           (SoundManager::PlaySoundInternal 0x0054FEC0).
//   Lowest: the lowest-priority such voice; among equals the first in
//           round-robin order from the cursor.
enum class StealPolicy : std::uint8_t { Retail, Lowest };

enum class PlayOutcome : std::uint8_t {
  Started,  // a voice was started
  NoWave,   // no playable samples for the wave (missing, malformed or unsupported): nothing started
  CutOff,   // attenuation below VOL_MIN (distance, volume or slider): not started
  NoVoice,  // all 16 voices busy and none of lower priority: the new sound is dropped
};
[[nodiscard]] const char* to_string(PlayOutcome outcome) noexcept;

struct Attenuation {
  bool audible = false;
  int db = kVolMin;  // whole decibels, <= 0 with sliders in [0, 1]; VOL_MIN when not audible
  bool operator==(const Attenuation&) const = default;
};

struct PlayResult {
  PlayOutcome outcome = PlayOutcome::NoWave;
  int voice = -1;             // the voice slot started, else -1
  int pan = 0;                // [-15, 15], positive = right
  int attenuation = kVolMin;  // whole dB
  float distance = 0.0f;      // metres from the listener
  bool replaced = false;      // the slot held an earlier sound, which was stopped and released
  bool stole = false;         // that sound was still sounding and lost on priority (the second pass)
  bool operator==(const PlayResult&) const = default;
};

// What a backend tells the manager about its voices.
class VoiceStatus {
 public:
  VoiceStatus() = default;
  VoiceStatus(const VoiceStatus&) = delete;
  VoiceStatus& operator=(const VoiceStatus&) = delete;
  virtual ~VoiceStatus() = default;
  // SoundBuf::GetStatus & DSBSTATUS_PLAYING: the voice is still sounding.
  [[nodiscard]] virtual bool voice_playing(std::size_t voice) = 0;
};

struct SoundSettings {
  float effect_volume = 1.0f;   // SoundManager::effect_sound_volume, clamped to [0, 1]
  float ambient_volume = 1.0f;  // SoundManager::ambient_sound_volume, clamped to [0, 1]
  SoundFeatures features = SoundFeatures::Stereo;
  StealPolicy steal = StealPolicy::Retail;
  bool operator==(const SoundSettings&) const = default;
};

class SoundManager {
 public:
  // One entry of playing_sounds_: {buffer, priority, start_time}.
  struct Slot {
    bool used = false;
    float priority = 0.0f;
    core::Seconds start_time{0.0};
    bool operator==(const Slot&) const = default;
  };

  SoundManager() = default;
  explicit SoundManager(const SoundSettings& settings) noexcept { set_settings(settings); }

  void set_settings(const SoundSettings& settings) noexcept;
  [[nodiscard]] const SoundSettings& settings() const noexcept { return settings_; }

  void set_player_position(const Listener& listener) noexcept;
  [[nodiscard]] const Listener& player_position() const noexcept { return player_position_; }

  [[nodiscard]] Attenuation get_attenuation(float distance, float volume, bool is_ambient) const noexcept;

  // The positional overload: distance, pan and attenuation from the listener,
  // then the voice pool. CutOff when not audible.
  PlayResult play_sound_internal(float priority, const glm::vec3& position, float volume, bool is_ambient,
                                 core::Seconds now, VoiceStatus& voices);
  // The voice pool: Started (voice, replaced, stole) or NoVoice.
  PlayResult play_sound_internal(float priority, int pan, int attenuation, core::Seconds now, VoiceStatus& voices);

  // Forgets every voice (the backend stops them); the cursor stays.
  void release_all() noexcept;

  [[nodiscard]] const std::array<Slot, kVoiceCount>& slots() const noexcept { return playing_sounds_; }
  // SoundManager::curr_playing_buffer_: where the next search starts.
  [[nodiscard]] std::size_t cursor() const noexcept { return curr_playing_buffer_; }

 private:
  SoundSettings settings_;
  Listener player_position_;
  std::array<Slot, kVoiceCount> playing_sounds_{};
  std::size_t curr_playing_buffer_ = 0;
};

}  // namespace dereth::audio
