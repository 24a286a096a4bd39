#pragma once
// Palette (0x04xxxxxx), spec/dat-format.md 3.7: u32 DID, i32 count, count x
// ColorARGB (u32 0xAARRGGBB, stored B, G, R, A). INDEX16 textures typically
// use 2048-entry palettes. RE:src/PORTAL/image/Palette.c.

#include <cstdint>
#include <functional>
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

// ---- palette composition (an ObjDesc's base palette and subpalettes) ----------------------------
// Retail recolours an object by building one 2048-colour palette: the base
// palette's colours, then each subpalette's range [offset, offset +
// num_colors) copied from the same indices of its own palette, in order
// (Palette::makeModifiedPalette). Which parts draw through it and the wire
// units are in docs/dat.md "Palette composition".

// The size of a composed palette (Palette::makeModifiedPalette's 2048).
inline constexpr std::uint32_t kModifiedPaletteColors = 2048;

// One subpalette in colours (unpacked): copy colours [offset, offset +
// num_colors) of palette `palette` over the same indices.
struct Subpalette {
  Did palette = 0;  // 0x04...
  std::uint32_t offset = 0;
  std::uint32_t num_colors = 0;
  bool operator==(const Subpalette&) const = default;
};

// Subpalette::UnPack 0x005ADAB0: the wire's (and CharGen's) bytes are in
// units of 8 colours, a count of 0 meaning 256 (2048 colours).
[[nodiscard]] Subpalette unpack_subpalette(Did palette, std::uint8_t offset, std::uint8_t num_colors) noexcept;

// ObjDesc::AddSubpalette 0x005AB970: appends `sub` to an ObjDesc's list the
// way retail's list keeps it. A whole-palette subpalette already in the list
// (offset 0, 2048 colours: Subpalette::supercedes) drops a later partial one;
// otherwise every earlier entry the new one replaces (the same range, or any
// entry when the new one is whole: Subpalette::replaces,
// ObjDesc::RemoveDuplicateSubpalette) is removed first. Lists hold at most
// 255 entries; false when `sub` is not added for that reason.
bool add_subpalette(std::vector<Subpalette>& list, const Subpalette& sub);

// Palette::Modify 0x0053E160: copies colours [offset, offset + num_colors)
// of `source` over the same indices of `target`. False, changing nothing,
// when the range does not fit `target` (retail's check) or `source` (DAT
// bytes: retail reads past a short palette; dereth refuses).
bool modify_palette(Palette& target, const Palette& source, std::uint32_t offset, std::uint32_t num_colors) noexcept;

// Looks a palette up by id; null when it is missing or does not read.
using PaletteLookup = std::function<const Palette*(Did)>;

// Palette::makeModifiedPalette 0x0053E3C0: the palette an ObjDesc's base
// palette and subpalettes make. A base of 0 makes none. One subpalette
// covering the whole palette is that palette itself. Otherwise a 2048-colour
// palette (id `base`) takes the base's first 2048 colours, then each
// subpalette in order. Any copy that fails (a palette missing, a range past
// 2048 colours or past its palette's end) makes no palette at all, as in
// retail: the object keeps its parts' own palettes. The error names the
// palette and the range.
[[nodiscard]] Result<Palette> make_modified_palette(Did base, std::span<const Subpalette> subs,
                                                    const PaletteLookup& lookup);

}  // namespace dereth::dat
