#pragma once
// AudioBackend: where sounds go. The base class runs retail's SoundManager
// logic (gain, pan, cut-off, the 16-voice pool) identically for every backend
// (OpenAL, or the null one); a backend only starts, stops and polls voices
// (docs/audio.md "Backends"). Single-threaded: call from the frame loop only.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "dereth/audio/sound_manager.hpp"
#include "dereth/audio/sound_request.hpp"
#include "dereth/audio/wave_decode.hpp"
#include "dereth/core/clock.hpp"

namespace dereth::audio {

struct AudioCounters {
  std::uint64_t requests = 0;       // play() calls
  std::uint64_t started = 0;        // PlayOutcome::Started
  std::uint64_t stolen = 0;         // of those, how many stopped a lower-priority sounding voice
  std::uint64_t no_wave = 0;        // PlayOutcome::NoWave
  std::uint64_t cut_off = 0;        // PlayOutcome::CutOff
  std::uint64_t no_voice = 0;       // PlayOutcome::NoVoice
  std::uint64_t device_errors = 0;  // the device refused to start a voice the pool had chosen
  bool operator==(const AudioCounters&) const = default;
};

class AudioBackend : public VoiceStatus {
 public:
  explicit AudioBackend(const SoundSettings& settings) : manager_(settings) {}
  ~AudioBackend() override = default;

  // "openal", "openal-loopback" or "null".
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;

  // Plays one request heard from the current listener. `pcm` null: NoWave
  // (retail plays only waves it has loaded). Then CutOff, NoVoice or Started,
  // as SoundManager decides.
  PlayResult play(const SoundRequest& request, const std::shared_ptr<const Pcm>& pcm);

  // SoundManager::SetPlayerPosition: the camera pose later plays are heard from.
  void set_listener(const Listener& listener) noexcept { manager_.set_player_position(listener); }
  [[nodiscard]] const Listener& listener() const noexcept { return manager_.player_position(); }

  // Advances the backend's clock (never backwards); a request's own time
  // advances it too.
  void update(core::Seconds now) noexcept;
  [[nodiscard]] core::Seconds now() const noexcept { return now_; }

  // Stops every voice and empties the pool (retail SoundManager::ShutDown).
  void stop_all();

  void set_settings(const SoundSettings& settings) noexcept { manager_.set_settings(settings); }
  [[nodiscard]] const SoundSettings& settings() const noexcept { return manager_.settings(); }
  [[nodiscard]] const AudioCounters& counters() const noexcept { return counters_; }
  [[nodiscard]] const SoundManager& manager() const noexcept { return manager_; }

 protected:
  // Stops the voice and releases what it held (no effect on an idle voice).
  virtual void voice_stop(std::size_t voice) = 0;
  // Starts `pcm` on the voice with `how.pan` and `how.attenuation`; false when
  // the device refused.
  virtual bool voice_start(std::size_t voice, const SoundRequest& request, const std::shared_ptr<const Pcm>& pcm,
                           const PlayResult& how) = 0;
  // Sees every request and its result, in order (NullBackend records them).
  virtual void on_play(const SoundRequest& /*request*/, const PlayResult& /*result*/) {}

 private:
  SoundManager manager_;
  AudioCounters counters_;
  core::Seconds now_{0.0};
};

}  // namespace dereth::audio
