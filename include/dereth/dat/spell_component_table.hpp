#pragma once
// SpellComponentTable (0x0E00000F): after the DID, a PackableHashTable
// (u16 count, u16 buckets) of u32 component id -> SpellComponentBase
// {obfuscated String16L name, u32 category, u32 icon, u32 type, u32 gesture,
// f32 time, obfuscated String16L words, f32 cdm}. The strings are stored with
// each byte's nibbles swapped (types.hpp read_obfuscated_string); the struct
// holds the plain text. Entries keep their stored order.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

inline constexpr Did kSpellComponentTableId = 0x0E00000F;

// SpellComponentBase::type values servers rely on.
namespace spell_component_type {
inline constexpr std::uint32_t Scarab = 1;
inline constexpr std::uint32_t Herb = 2;
inline constexpr std::uint32_t Powder = 3;
inline constexpr std::uint32_t Potion = 4;
inline constexpr std::uint32_t Talisman = 5;
inline constexpr std::uint32_t Taper = 6;
}  // namespace spell_component_type

struct SpellComponentBase {
  std::string name;
  std::uint32_t category = 0;
  Did icon = 0;  // 0x06xxxxxx
  std::uint32_t type = 0;
  std::uint32_t gesture = 0;  // a motion command
  float time = 0;
  std::string words;  // the syllable spoken while casting
  float cdm = 0;
  bool operator==(const SpellComponentBase&) const = default;
};

struct SpellComponentEntry {
  std::uint32_t component = 0;
  SpellComponentBase base;
  bool operator==(const SpellComponentEntry&) const = default;
};

struct SpellComponentTable {
  Did id = kSpellComponentTableId;
  std::uint16_t buckets = 0;  // kept as stored
  std::vector<SpellComponentEntry> components;
  bool operator==(const SpellComponentTable&) const = default;
};

Result<SpellComponentTable> read_spell_component_table(std::span<const std::uint8_t> bytes, Did id);
// At most 65535 entries are written (the count is a u16).
std::vector<std::uint8_t> write_spell_component_table(const SpellComponentTable& table);
void write_json(core::JsonWriter& j, const SpellComponentTable& table);

[[nodiscard]] const SpellComponentBase* find_spell_component(const SpellComponentTable& table,
                                                             std::uint32_t component) noexcept;

}  // namespace dereth::dat
