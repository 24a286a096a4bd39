#include "dereth/audio/null_backend.hpp"

namespace dereth::audio {

bool NullBackend::voice_playing(std::size_t voice) {
  if (voice >= kVoiceCount) return false;
  const Voice& v = voices_[voice];
  return v.active && v.end > now();
}

core::Seconds NullBackend::voice_end(std::size_t voice) const noexcept {
  return voice < kVoiceCount ? voices_[voice].end : core::Seconds{0.0};
}

std::uint32_t NullBackend::voice_wave(std::size_t voice) const noexcept {
  return voice < kVoiceCount && voices_[voice].active ? voices_[voice].wave : 0U;
}

void NullBackend::voice_stop(std::size_t voice) {
  if (voice < kVoiceCount) voices_[voice] = Voice{};
}

bool NullBackend::voice_start(std::size_t voice, const SoundRequest& request, const std::shared_ptr<const Pcm>& pcm,
                              const PlayResult& /*how*/) {
  if (voice >= kVoiceCount || !pcm) return false;
  voices_[voice] = Voice{true, request.wave_id, now() + pcm->duration()};
  return true;
}

void NullBackend::on_play(const SoundRequest& request, const PlayResult& result) {
  if (records_.size() >= record_limit_) {
    ++records_dropped_;
    return;
  }
  records_.push_back(PlayRecord{request, result, listener()});
}

}  // namespace dereth::audio
