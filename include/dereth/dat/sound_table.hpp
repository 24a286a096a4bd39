#pragma once
// SoundTable (0x20xxxxxx): which Waves each Sound may play, with their
// priority, probability and volume (SoundTableData::UnPack,
// RE:src/PORTAL/sound/cstable.c). Layout, and why the child count is retail's
// u32 and not ACE's u16 pair: docs/dat.md "SoundTable".

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

inline constexpr int kMaxSoundTableDepth = 16;

struct SoundEntry {
  Did wave = 0;  // 0x0Axxxxxx
  float priority = 0;
  float probability = 0;
  float volume = 0;
  bool operator==(const SoundEntry&) const = default;
};

struct SoundTableData {
  std::uint32_t hash_key = 0;  // Sound enum value for children, 0 at the root
  std::vector<SoundEntry> entries;
  std::vector<SoundTableData> children;
  bool operator==(const SoundTableData&) const = default;
};

struct SoundTable {
  Did id = 0;
  SoundTableData root;
  bool operator==(const SoundTable&) const = default;
};

Result<SoundTable> read_sound_table(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_sound_table(const SoundTable& table);
void write_json(core::JsonWriter& j, const SoundTable& table);

// The root's child whose hash key is `sound` (a Sound enum value), or null.
[[nodiscard]] const SoundTableData* find_sound(const SoundTable& table, std::uint32_t sound) noexcept;

}  // namespace dereth::dat
