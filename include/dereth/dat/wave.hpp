#pragma once
// Wave (0x0Axxxxxx), spec/dat-format.md 3.8 (DBWave::UnPack,
// RE:src/PORTAL/sound/DBWave.c): u32 DID, i32 headerSize, i32 dataSize,
// headerSize bytes of WAVEFORMATEX (+ extra), dataSize bytes of sample data.
// Not RIFF. wFormatTag 1 = PCM, 0x55 = MP3; headerSize is typically 18, some 30.

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

struct Wave {
  Did id = 0;
  std::vector<std::uint8_t> format;  // the WAVEFORMATEX bytes as stored (headerSize)
  std::vector<std::uint8_t> data;    // sample data (dataSize)
  bool operator==(const Wave&) const = default;
};

// The WAVEFORMATEX fields at the start of Wave::format.
struct WaveFormat {
  std::uint16_t format_tag = 0;  // 1 PCM, 0x55 MP3
  std::uint16_t channels = 0;
  std::uint32_t samples_per_sec = 0;
  std::uint32_t avg_bytes_per_sec = 0;
  std::uint16_t block_align = 0;
  std::uint16_t bits_per_sample = 0;
  std::uint16_t extra_size = 0;  // cbSize; 0 when the header stops at 16 bytes
  bool operator==(const WaveFormat&) const = default;
};

inline constexpr std::uint16_t kWaveFormatPcm = 1;
inline constexpr std::uint16_t kWaveFormatMp3 = 0x55;

Result<Wave> read_wave(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_wave(const Wave& wave);
// Header fields and sizes; never the samples.
void write_json(core::JsonWriter& j, const Wave& wave);

// Parses the header (at least the 16-byte WAVEFORMAT; cbSize when present).
Result<WaveFormat> wave_format(const Wave& wave);

// A playable RIFF/WAVE file: "fmt " holds the first 16 header bytes for PCM
// and the whole stored header otherwise (MP3 needs its extra bytes), then
// "data" holds the samples. Fails when the header is shorter than 16 bytes.
Result<std::vector<std::uint8_t>> wave_to_riff(const Wave& wave);

}  // namespace dereth::dat
