#pragma once
// Wave (0x0Axxxxxx) to playable samples: uncompressed 8- or 16-bit PCM, mono or
// stereo, to 16-bit mono at the wave's own rate; anything else is an
// Unsupported error to log and skip. Bytes are untrusted. What is accepted and
// why stereo becomes mono: docs/audio.md "Waves".

#include <cstdint>
#include <vector>

#include "dereth/core/clock.hpp"
#include "dereth/core/error.hpp"
#include "dereth/dat/wave.hpp"

namespace dereth::audio {

// Rates outside [kMinSampleRate, kMaxSampleRate] are refused as Invalid.
inline constexpr std::uint32_t kMinSampleRate = 1000;
inline constexpr std::uint32_t kMaxSampleRate = 192000;

struct Pcm {
  std::uint32_t wave_id = 0;
  std::uint32_t sample_rate = 0;      // frames per second
  std::vector<std::int16_t> samples;  // mono, one sample per frame
  std::uint16_t source_channels = 0;  // as stored in the Wave (1 or 2)
  std::uint16_t source_bits = 0;      // as stored in the Wave (8 or 16)

  [[nodiscard]] core::Seconds duration() const noexcept {
    return sample_rate == 0 ? core::Seconds{0.0}
                            : core::Seconds{static_cast<double>(samples.size()) / static_cast<double>(sample_rate)};
  }
  bool operator==(const Pcm&) const = default;
};

// Decodes the wave. A trailing partial frame is ignored; a wave with no
// complete frame is an Invalid error (nothing to play).
[[nodiscard]] core::Result<Pcm> decode_wave(const dat::Wave& wave);

}  // namespace dereth::audio
