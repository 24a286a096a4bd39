#include "dereth/audio/audio_backend.hpp"

#include <algorithm>

#include "dereth/core/log.hpp"

namespace dereth::audio {

void AudioBackend::update(core::Seconds now) noexcept {
  now_ = std::max(now_, now);
}

PlayResult AudioBackend::play(const SoundRequest& request, const std::shared_ptr<const Pcm>& pcm) {
  ++counters_.requests;
  update(request.time);
  PlayResult result;
  if (!pcm || pcm->samples.empty() || pcm->sample_rate == 0) {
    // SoundManager::PlaySoundA looks the wave up in sound_hash_ first and
    // returns when it is not loaded: nothing else happens.
    result.outcome = PlayOutcome::NoWave;
    ++counters_.no_wave;
    on_play(request, result);
    return result;
  }
  result = manager_.play_sound_internal(request.priority, request.position, request.volume, false, now_, *this);
  switch (result.outcome) {
    case PlayOutcome::Started: {
      ++counters_.started;
      if (result.stole) ++counters_.stolen;
      const auto voice = static_cast<std::size_t>(result.voice);
      if (result.replaced) voice_stop(voice);
      if (!voice_start(voice, request, pcm, result)) {
        ++counters_.device_errors;
        core::logger(core::Module::Audio)
            ->warn("{}: could not start wave 0x{:08X} for object {} on voice {}", name(), request.wave_id,
                   static_cast<std::uint32_t>(request.owner), voice);
      }
      break;
    }
    case PlayOutcome::CutOff: ++counters_.cut_off; break;
    case PlayOutcome::NoVoice: ++counters_.no_voice; break;
    case PlayOutcome::NoWave: ++counters_.no_wave; break;
  }
  on_play(request, result);
  return result;
}

// SoundManager::ShutDown 0x005502B0 (the voice part: stop all sixteen)
void AudioBackend::stop_all() {
  for (std::size_t v = 0; v < kVoiceCount; ++v) voice_stop(v);
  manager_.release_all();
}

}  // namespace dereth::audio
