#pragma once
// PaletteSet (PalSet, 0x0Fxxxxxx), spec/dat-format.md 3.7: u32 DID, u32 n,
// n x u32 Palette DID. Clothing recolouring picks one palette by a shade in
// [0, 1]: index floor((n - 0.000001) * shade).

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

struct PaletteSet {
  Did id = 0;
  std::vector<Did> palettes;  // 0x04xxxxxx
  bool operator==(const PaletteSet&) const = default;
};

Result<PaletteSet> read_palette_set(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_palette_set(const PaletteSet& set);
void write_json(core::JsonWriter& j, const PaletteSet& set);

// The palette for a shade: index floor((n - 0.000001) * shade), shade clamped
// to [0, 1] (NaN counts as 0). Returns 0 for an empty set.
[[nodiscard]] Did palette_for_shade(const PaletteSet& set, float shade) noexcept;

}  // namespace dereth::dat
