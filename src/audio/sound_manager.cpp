#include "dereth/audio/sound_manager.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/core/frame.hpp"

namespace dereth::audio {

namespace {

// Degrees to radians as retail multiplies it: 0.017453292, a hair under
// pi/180, so |sin| of a right angle falls just short of 1 and the truncated
// pan never reaches 15.
constexpr double kRetailDegreesToRadians = static_cast<double>(0.017453292f);
// 20 * log10(2): decibels per doubling.
constexpr double kDbPerOctave = 6.0206;

// Position::heading 0x005A9520: the compass heading of the horizontal offset
// from `from` to `to`; 0 when that offset is too small to normalise.
float position_heading(const glm::vec3& from, const glm::vec3& to) noexcept {
  glm::vec3 d = to - from;
  d.z = 0.0f;
  if (!(glm::length(d) >= core::kEpsilon)) return 0.0f;
  return core::compass_heading(d);
}

float clamp_slider(float v) noexcept {
  return std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 0.0f;
}

}  // namespace

const char* to_string(PlayOutcome outcome) noexcept {
  switch (outcome) {
    case PlayOutcome::Started: return "started";
    case PlayOutcome::NoWave: return "no-wave";
    case PlayOutcome::CutOff: return "cut-off";
    case PlayOutcome::NoVoice: return "no-voice";
  }
  return "?";
}

void SoundManager::set_settings(const SoundSettings& settings) noexcept {
  settings_ = settings;
  settings_.effect_volume = clamp_slider(settings.effect_volume);
  settings_.ambient_volume = clamp_slider(settings.ambient_volume);
}

// SoundManager::SetPlayerPosition 0x005503C0
void SoundManager::set_player_position(const Listener& listener) noexcept {
  player_position_ = listener;
}

// SoundManager::GetAttenuation 0x00550020
Attenuation SoundManager::get_attenuation(float distance, float volume, bool is_ambient) const noexcept {
  double gain = distance >= 5.0f ? kVolMinDistSq * static_cast<double>(volume) /
                                       (static_cast<double>(distance) * static_cast<double>(distance))
                                 : static_cast<double>(volume);
  if (gain > 1.0) gain = 1.0;
  gain *= static_cast<double>(is_ambient ? settings_.ambient_volume : settings_.effect_volume);
  // `gain > 0` is false for NaN as well: retail's compare fails the same way.
  if (!(gain > 0.0)) return Attenuation{false, kVolMin};
  const double db = std::ceil(std::log2(gain) * kDbPerOctave);
  if (db < static_cast<double>(kVolMin)) return Attenuation{false, kVolMin};
  return Attenuation{true, static_cast<int>(db)};
}

// SoundManager::PlaySoundInternal 0x00550170
PlayResult SoundManager::play_sound_internal(float priority, const glm::vec3& position, float volume, bool is_ambient,
                                             core::Seconds now, VoiceStatus& voices) {
  const core::Frame viewer(player_position_.position, player_position_.orientation);
  const float player_heading = viewer.get_heading();
  const float distance = glm::length(player_position_.position - position);
  const float angle = position_heading(position, player_position_.position);
  int pan = 0;
  if (settings_.features != SoundFeatures::Mono) {
    double delta = std::fmod(static_cast<double>(angle) - static_cast<double>(player_heading), 360.0);
    if (delta > 180.0) delta -= 360.0;
    if (distance >= kPanMinDistance) {
      pan = static_cast<int>(std::trunc(std::sin(delta * kRetailDegreesToRadians) * -15.0));
    }
  }
  const Attenuation a = get_attenuation(distance, volume, is_ambient);
  if (!a.audible) {
    PlayResult r;
    r.outcome = PlayOutcome::CutOff;
    r.pan = pan;
    r.attenuation = a.db;
    r.distance = distance;
    return r;
  }
  PlayResult r = play_sound_internal(priority, pan, a.db, now, voices);
  r.distance = distance;
  return r;
}

// SoundManager::PlaySoundInternal 0x0054FEC0
PlayResult SoundManager::play_sound_internal(float priority, int pan, int attenuation, core::Seconds now,
                                             VoiceStatus& voices) {
  PlayResult r;
  r.pan = pan;
  r.attenuation = attenuation;
  std::size_t chosen = kVoiceCount;
  // First pass, round-robin from the cursor: an empty slot, a slot whose
  // stored priority is exactly +0.0 (retail tests the float's bits), or a
  // voice that has stopped sounding.
  for (std::size_t i = 0; i < kVoiceCount; ++i) {
    const std::size_t v = (curr_playing_buffer_ + i) % kVoiceCount;
    const Slot& s = playing_sounds_[v];
    if (!s.used) {
      chosen = v;
      break;
    }
    if (std::bit_cast<std::uint32_t>(s.priority) == 0U || !voices.voice_playing(v)) {
      chosen = v;
      r.replaced = true;
      break;
    }
  }
  if (chosen == kVoiceCount) {
    // Second pass: a sounding voice of strictly lower priority is stopped and
    // its slot reused; when none qualifies the new sound is dropped.
    for (std::size_t i = 0; i < kVoiceCount; ++i) {
      const std::size_t v = (curr_playing_buffer_ + i) % kVoiceCount;
      const float p = playing_sounds_[v].priority;
      if (!(p < priority)) continue;
      if (settings_.steal == StealPolicy::Retail) {
        chosen = v;
        break;
      }
      if (chosen == kVoiceCount || p < playing_sounds_[chosen].priority) chosen = v;
    }
    if (chosen == kVoiceCount) {
      r.outcome = PlayOutcome::NoVoice;
      return r;
    }
    r.replaced = true;
    r.stole = true;
  }
  playing_sounds_[chosen] = Slot{true, priority, now};
  curr_playing_buffer_ = (chosen + 1) % kVoiceCount;
  r.outcome = PlayOutcome::Started;
  r.voice = static_cast<int>(chosen);
  return r;
}

void SoundManager::release_all() noexcept {
  playing_sounds_.fill(Slot{});
}

}  // namespace dereth::audio
