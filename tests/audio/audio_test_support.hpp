#pragma once
// Helpers for the audio tests: synthetic waves and samples.

#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <vector>

#include "dereth/audio/wave_decode.hpp"
#include "dereth/core/byte_writer.hpp"
#include "dereth/dat/wave.hpp"

namespace dereth::audio::test {

// A WAVEFORMATEX header (18 bytes, cbSize 0).
inline std::vector<std::uint8_t> wave_header(std::uint16_t tag, std::uint16_t channels, std::uint32_t rate,
                                             std::uint16_t bits) {
  core::ByteWriter w;
  const auto block = static_cast<std::uint16_t>(channels * bits / 8);
  w.u16(tag);
  w.u16(channels);
  w.u32(rate);
  w.u32(rate * block);
  w.u16(block);
  w.u16(bits);
  w.u16(0);
  return std::move(w).take();
}

// A mono 16-bit PCM Wave holding a sine of `frequency` Hz.
inline dat::Wave sine_wave(std::uint32_t id, double frequency, std::uint32_t rate, double seconds,
                           double amplitude = 10000.0) {
  dat::Wave wave;
  wave.id = id;
  wave.format = wave_header(dat::kWaveFormatPcm, 1, rate, 16);
  core::ByteWriter data;
  const auto frames = static_cast<std::uint32_t>(seconds * rate);
  for (std::uint32_t i = 0; i < frames; ++i) {
    const double s = amplitude * std::sin(2.0 * std::numbers::pi * frequency * i / rate);
    data.u16(static_cast<std::uint16_t>(static_cast<std::int16_t>(std::lround(s))));
  }
  wave.data = std::move(data).take();
  return wave;
}

// Decoded samples of `seconds` length (a 440 Hz sine), for voice tests.
inline std::shared_ptr<const Pcm> pcm_of(std::uint32_t id, double seconds, std::uint32_t rate = 22050) {
  auto decoded = decode_wave(sine_wave(id, 440.0, rate, seconds));
  return std::make_shared<const Pcm>(std::move(decoded.value()));
}

}  // namespace dereth::audio::test
