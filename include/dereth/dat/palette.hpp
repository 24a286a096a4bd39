#pragma once
// Palette (0x04xxxxxx), spec/dat-format.md 3.7: u32 DID, i32 count, count x
// ColorARGB (u32 0xAARRGGBB, stored B, G, R, A). INDEX16 textures typically
// use 2048-entry palettes. RE:src/PORTAL/image/Palette.c.

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

struct Palette {
  Did id = 0;
  std::vector<std::uint32_t> colors;  // 0xAARRGGBB
  bool operator==(const Palette&) const = default;
};

Result<Palette> read_palette(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_palette(const Palette& palette);
void write_json(core::JsonWriter& j, const Palette& palette);

}  // namespace dereth::dat
