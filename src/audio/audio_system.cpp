#include "dereth/audio/audio_system.hpp"

#include <utility>

#include "dereth/audio/null_backend.hpp"
#include "dereth/core/log.hpp"

namespace dereth::audio {

AudioSystem::AudioSystem(std::unique_ptr<AudioBackend> backend, dat::RecordCache* records)
    : backend_(backend ? std::move(backend) : std::make_unique<NullBackend>()), records_(records) {}

void AudioSystem::update(std::span<const SoundRequest> requests, const Listener& listener, core::Seconds now) {
  ++stats_.frames;
  backend_->update(now);
  backend_->set_listener(listener);
  for (const SoundRequest& request : requests) {
    backend_->play(request,
                   request.wave_id == 0 ? nullptr : wave(request.wave_id, static_cast<std::uint32_t>(request.owner)));
  }
}

std::shared_ptr<const Pcm> AudioSystem::wave(std::uint32_t wave_id, std::uint32_t owner) {
  if (auto it = cache_.find(wave_id); it != cache_.end()) return it->second;
  auto fail = [&](const std::string& why) -> std::shared_ptr<const Pcm> {
    ++stats_.waves_failed;
    core::logger(core::Module::Audio)
        ->warn("wave 0x{:08X} (first asked for by object {}) does not play: {}", wave_id, owner, why);
    cache_.emplace(wave_id, nullptr);
    return nullptr;
  };
  if (records_ == nullptr || records_->portal() == nullptr) return fail("no portal DAT is loaded");
  const auto record = records_->wave(wave_id);
  if (!record) {
    const auto missing = records_->find_missing("Wave", wave_id);
    return fail(missing.has_value() ? missing->why : "not a Wave");
  }
  auto pcm = decode_wave(*record);
  if (!pcm) return fail(pcm.error().message());
  ++stats_.waves_decoded;
  auto shared = std::make_shared<const Pcm>(std::move(*pcm));
  cache_.emplace(wave_id, shared);
  return shared;
}

void AudioSystem::add_wave(std::shared_ptr<const Pcm> pcm) {
  if (!pcm) return;
  const std::uint32_t id = pcm->wave_id;
  cache_.insert_or_assign(id, std::move(pcm));
}

}  // namespace dereth::audio
