#pragma once
// SoundTable (0x20xxxxxx), spec/dat-format.md 3.8. The record is a recursive
// SoundTableData (SoundTableData::UnPack, RE:src/PORTAL/sound/cstable.c):
//   u32 hashKey, u32 n, n x SoundEntry{u32 waveDID, f32 priority,
//   f32 probability, f32 volume}, u32 numChildren, numChildren x
//   SoundTableData (a child's hashKey is a Sound enum value),
// after the DID, then padding to 4 (a no-op: every field is 4 bytes).
// In practice the root's hashKey is 0, its entries are a default set and
// every child is a leaf.
//
// The child count: retail reads and writes one u32 (SoundTableData::Pack
// writes the element count); ACE reads the same four bytes as a u16 count +
// u16 bucket count (a PackedHashTable), equivalent because the high half is 0.
// This reader keeps retail's u32, so a non-zero "bucket" half reads as a huge
// count and fails the bounds check, as it would crash retail.
// Children nest at most kMaxSoundTableDepth levels (real data: 2).

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
