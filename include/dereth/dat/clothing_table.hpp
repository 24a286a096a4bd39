#pragma once
// ClothingTable (0x10xxxxxx): how one piece of clothing changes a body and
// which palettes recolour it; CharGen's gear lists name one per piece, and a
// server gives it to the spawned piece as its ClothingBase. Layout:
// docs/dat.md "Tables for third-party servers".

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

struct CloTextureEffect {
  Did old_texture = 0;  // 0x05xxxxxx
  Did new_texture = 0;
  bool operator==(const CloTextureEffect&) const = default;
};

struct CloObjectEffect {
  std::uint32_t part = 0;
  Did gfx_obj = 0;  // 0x01xxxxxx
  std::vector<CloTextureEffect> textures;
  bool operator==(const CloObjectEffect&) const = default;
};

struct ClothingBaseEffect {
  Did setup = 0;  // the hash key: the wearer's Setup
  std::vector<CloObjectEffect> objects;
  bool operator==(const ClothingBaseEffect&) const = default;
};

struct CloSubPaletteRange {
  std::uint32_t offset = 0;      // first colour
  std::uint32_t num_colors = 0;  // colours
  bool operator==(const CloSubPaletteRange&) const = default;
};

struct CloSubPalette {
  std::vector<CloSubPaletteRange> ranges;
  Did palette_set = 0;  // 0x0Fxxxxxx
  bool operator==(const CloSubPalette&) const = default;
};

struct CloSubPalEffect {
  std::uint32_t palette_template = 0;  // the hash key (CharGen's clothing colours)
  Did icon = 0;                        // 0x06xxxxxx
  std::vector<CloSubPalette> subpalettes;
  bool operator==(const CloSubPalEffect&) const = default;
};

struct ClothingTable {
  Did id = 0;
  std::uint16_t base_buckets = 0;
  std::vector<ClothingBaseEffect> base_effects;
  std::uint16_t subpal_buckets = 0;
  std::vector<CloSubPalEffect> subpal_effects;
  bool operator==(const ClothingTable&) const = default;
};

Result<ClothingTable> read_clothing_table(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_clothing_table(const ClothingTable& table);
void write_json(core::JsonWriter& j, const ClothingTable& table);

[[nodiscard]] const ClothingBaseEffect* find_base_effect(const ClothingTable& table, Did setup) noexcept;
[[nodiscard]] const CloSubPalEffect* find_subpal_effect(const ClothingTable& table,
                                                        std::uint32_t palette_template) noexcept;

}  // namespace dereth::dat
