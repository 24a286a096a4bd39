#pragma once
// OpenAlBackend: OpenAL Soft playback. Sixteen AL sources are the sixteen
// retail voices. Retail computed pan and attenuation in software and played
// plain 2D buffers, so each sound is a mono source relative to the listener
// with distance rolloff off: placed on the unit circle in front at
// asin(pan / 15) (pan 15 = hard right) with gain 10^(dB / 20) (spec/physics.md
// 9.4, mapping (b)). The AL listener never moves; the SoundManager's listener
// (the camera) is what positions are measured from.
//
// Two devices:
//   open_device:   the default (or a named) output device. On a machine
//                  without sound hardware this fails, and open_audio falls
//                  back to NullBackend.
//   open_loopback: ALC_SOFT_loopback; nothing is heard, render() mixes the
//                  next frames into memory, so tests check real OpenAL output.
//                  The mix is 32-bit float: integer output is dithered, so
//                  silence would not render as exact zeros.
//
// OpenAL's current context is process-global: every call here makes this
// backend's context current first, so several backends may coexist (tests).
// Decoded waves are uploaded once per Pcm object and kept while the backend
// lives.

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
