#pragma once
// OpenAlBackend: OpenAL Soft playback, sixteen AL sources for retail's
// sixteen voices, panned and attenuated as retail's software mixer did
// (docs/audio.md "Backends"). Every call makes this backend's context current
// first (OpenAL's is process-global), so several may coexist (tests).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dereth/audio/audio_backend.hpp"
#include "dereth/core/error.hpp"

namespace dereth::audio {

class OpenAlBackend final : public AudioBackend {
 public:
  // `device_name` empty: the default device. `quiet`: while the device is
  // probed, stderr (fd 2) is sent to a temporary file and what the sound
  // libraries printed there (ALSA's "cannot find card" lines, OpenAL's own
  // log) is logged at debug level instead.
  static core::Result<std::unique_ptr<OpenAlBackend>> open_device(const SoundSettings& settings,
                                                                  const std::string& device_name = {},
                                                                  bool quiet = true);
  // A loopback device mixing float stereo at `frequency` Hz (8000..192000).
  static core::Result<std::unique_ptr<OpenAlBackend>> open_loopback(const SoundSettings& settings,
                                                                    std::uint32_t frequency = 44100);

  ~OpenAlBackend() override;
  OpenAlBackend(const OpenAlBackend&) = delete;
  OpenAlBackend& operator=(const OpenAlBackend&) = delete;

  [[nodiscard]] std::string_view name() const noexcept override;
  [[nodiscard]] bool is_loopback() const noexcept;
  // The device's name as OpenAL reports it.
  [[nodiscard]] const std::string& device_name() const noexcept;
  [[nodiscard]] std::uint32_t frequency() const noexcept;

  // Loopback only: mixes the next `frames` frames and returns them
  // interleaved left, right (2 * frames samples, full scale = 1.0). A stopped
  // source fades out over the next few milliseconds of mix.
  core::Result<std::vector<float>> render(std::size_t frames);

  [[nodiscard]] bool voice_playing(std::size_t voice) override;

 protected:
  void voice_stop(std::size_t voice) override;
  bool voice_start(std::size_t voice, const SoundRequest& request, const std::shared_ptr<const Pcm>& pcm,
                   const PlayResult& how) override;

 private:
  struct Impl;
  OpenAlBackend(const SoundSettings& settings, std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace dereth::audio
