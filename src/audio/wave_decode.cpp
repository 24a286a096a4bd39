#include "dereth/audio/wave_decode.hpp"

#include <string>

#include <fmt/format.h>

namespace dereth::audio {

namespace {

core::Error wave_error(const dat::Wave& wave, core::ErrorKind kind, std::string field, std::size_t offset,
                       std::string detail) {
  core::Error e;
  e.kind = kind;
  e.context = dat::record_context(wave.id, "Wave");
  e.field = std::move(field);
  e.offset = offset;
  e.detail = std::move(detail);
  return e;
}

// Byte offsets of the WAVEFORMATEX fields inside Wave::format.
constexpr std::size_t kFormatTagAt = 0;
constexpr std::size_t kChannelsAt = 2;
constexpr std::size_t kSampleRateAt = 4;
constexpr std::size_t kBitsAt = 14;

std::int16_t sample_at(const std::vector<std::uint8_t>& data, std::size_t at, std::uint16_t bits) noexcept {
  if (bits == 8) {
    // 8-bit WAVE samples are unsigned, centred on 128.
    return static_cast<std::int16_t>((static_cast<int>(data[at]) - 128) * 256);
  }
  const auto lo = static_cast<std::uint16_t>(data[at]);
  const auto hi = static_cast<std::uint16_t>(data[at + 1]);
  return static_cast<std::int16_t>(static_cast<std::uint16_t>(lo | static_cast<std::uint16_t>(hi << 8U)));
}

}  // namespace

core::Result<Pcm> decode_wave(const dat::Wave& wave) {
  DERETH_TRY(const dat::WaveFormat f, dat::wave_format(wave));
  if (f.format_tag != dat::kWaveFormatPcm) {
    return std::unexpected(
        wave_error(wave, core::ErrorKind::Unsupported, "format_tag", kFormatTagAt,
                   fmt::format("format tag 0x{:04X} is not PCM (1); only PCM is decoded", f.format_tag)));
  }
  if (f.channels != 1 && f.channels != 2) {
    return std::unexpected(wave_error(wave, core::ErrorKind::Unsupported, "channels", kChannelsAt,
                                      fmt::format("{} channels; only mono and stereo are decoded", f.channels)));
  }
  if (f.bits_per_sample != 8 && f.bits_per_sample != 16) {
    return std::unexpected(wave_error(wave, core::ErrorKind::Unsupported, "bits_per_sample", kBitsAt,
                                      fmt::format("{} bits per sample; only 8 and 16 are decoded", f.bits_per_sample)));
  }
  if (f.samples_per_sec < kMinSampleRate || f.samples_per_sec > kMaxSampleRate) {
    return std::unexpected(
        wave_error(wave, core::ErrorKind::Invalid, "samples_per_sec", kSampleRateAt,
                   fmt::format("{} Hz is outside {}..{} Hz", f.samples_per_sec, kMinSampleRate, kMaxSampleRate)));
  }
  // The frame size comes from channels and depth; nBlockAlign is not trusted.
  const std::size_t bytes_per_sample = f.bits_per_sample / 8U;
  const std::size_t frame_bytes = bytes_per_sample * f.channels;
  const std::size_t frames = wave.data.size() / frame_bytes;
  if (frames == 0) {
    return std::unexpected(
        wave_error(wave, core::ErrorKind::Invalid, "data", 0,
                   fmt::format("{} data bytes hold no complete {}-byte frame", wave.data.size(), frame_bytes)));
  }
  Pcm pcm;
  pcm.wave_id = wave.id;
  pcm.sample_rate = f.samples_per_sec;
  pcm.source_channels = f.channels;
  pcm.source_bits = f.bits_per_sample;
  pcm.samples.resize(frames);
  for (std::size_t i = 0; i < frames; ++i) {
    const std::size_t at = i * frame_bytes;
    const int left = sample_at(wave.data, at, f.bits_per_sample);
    if (f.channels == 1) {
      pcm.samples[i] = static_cast<std::int16_t>(left);
    } else {
      const int right = sample_at(wave.data, at + bytes_per_sample, f.bits_per_sample);
      // The average of two int16 values always fits; division truncates toward zero.
      pcm.samples[i] = static_cast<std::int16_t>((left + right) / 2);
    }
  }
  return pcm;
}

}  // namespace dereth::audio
