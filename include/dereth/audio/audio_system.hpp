#pragma once
// AudioSystem: the audio side of the frame loop. Each frame it takes the
// snapshot's sound requests and the camera pose, sets the listener and plays
// each request with its wave decoded once from the world's record cache (a bad
// wave is logged once and plays nothing). docs/audio.md "Waves".

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <unordered_map>

#include "dereth/audio/audio_backend.hpp"
#include "dereth/dat/record_cache.hpp"

namespace dereth::audio {

struct AudioSystemStats {
  std::uint64_t frames = 0;         // update() calls
  std::uint64_t waves_decoded = 0;  // waves read and decoded
  std::uint64_t waves_failed = 0;   // waves missing, malformed or unsupported (each counted once)
  bool operator==(const AudioSystemStats&) const = default;
};

class AudioSystem {
 public:
  // `records` may be null (no DAT: only waves given to add_wave play). It must
  // outlive the system.
  AudioSystem(std::unique_ptr<AudioBackend> backend, dat::RecordCache* records);

  // One frame: update the backend's clock to `now`, set the listener, then
  // play the requests in order. `now` and the requests' times must come from
  // the same clock (the simulation's).
  void update(std::span<const SoundRequest> requests, const Listener& listener, core::Seconds now);

  // The decoded wave, from the cache or the DAT; null when it cannot be had.
  // `owner` only names the requester in the log line.
  std::shared_ptr<const Pcm> wave(std::uint32_t wave_id, std::uint32_t owner = 0);
  // Puts samples in the cache under pcm->wave_id (generated sounds, tests).
  void add_wave(std::shared_ptr<const Pcm> pcm);
  [[nodiscard]] std::size_t cached_waves() const noexcept { return cache_.size(); }

  [[nodiscard]] AudioBackend& backend() noexcept { return *backend_; }
  [[nodiscard]] const AudioBackend& backend() const noexcept { return *backend_; }
  [[nodiscard]] const AudioSystemStats& stats() const noexcept { return stats_; }

 private:
  std::unique_ptr<AudioBackend> backend_;
  dat::RecordCache* records_;
  std::unordered_map<std::uint32_t, std::shared_ptr<const Pcm>> cache_;  // null value = known failure
  AudioSystemStats stats_;
};

}  // namespace dereth::audio
