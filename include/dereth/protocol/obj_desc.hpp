#pragma once
// ObjDesc ("ModelData"): appearance overrides in CreateObject, UpdateObject
// and ObjDescEvent (spec/protocol.md section 5.1).

#include <cstdint>
#include <optional>
#include <vector>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

struct SubPalette {
  std::uint32_t palette_id = 0;  // PackedDWORD of known type 0x04000000
  std::uint8_t offset = 0;
  std::uint8_t num_colors = 0;
  bool operator==(const SubPalette&) const = default;
};

struct TextureChange {
  std::uint8_t part_index = 0;
  std::uint32_t old_texture = 0;  // 0x05000000 base
  std::uint32_t new_texture = 0;
  bool operator==(const TextureChange&) const = default;
};

struct AnimPartChange {
  std::uint8_t part_index = 0;
  std::uint32_t gfx_obj_id = 0;  // 0x01000000 base
  bool operator==(const AnimPartChange&) const = default;
};

struct ObjDesc {
  std::uint8_t version = 0x11;
  std::optional<std::uint32_t> base_palette;  // present exactly when palettes is non-empty
  std::vector<SubPalette> palettes;
  std::vector<TextureChange> texture_changes;
  std::vector<AnimPartChange> anim_part_changes;
  bool operator==(const ObjDesc&) const = default;
};

Result<ObjDesc> read_obj_desc(ByteReader& r);
// The same, into caller-owned storage: every field is overwritten and the
// lists keep their capacity, so a description that fits what `out` already
// holds is read without allocating. On failure `out` holds a partial read.
ReadResult<void> read_obj_desc(ByteReader& r, ObjDesc& out);
void write_obj_desc(ByteWriter& w, const ObjDesc& d);

}  // namespace dereth::protocol
