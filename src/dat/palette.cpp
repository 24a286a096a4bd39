#include "dereth/dat/palette.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace dereth::dat {

Result<Palette> read_palette(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "Palette");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  Palette p;
  p.id = id;
  DERETH_TRY(const std::size_t count, read_count(r, 4, "count"));
  p.colors.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    DERETH_TRY(const std::uint32_t color, r.u32("colors"));
    p.colors.push_back(color);
  }
  DERETH_CHECK(r.expect_end());
  return p;
}

std::vector<std::uint8_t> write_palette(const Palette& palette) {
  ByteWriter w;
  w.u32(palette.id);
  w.u32(static_cast<std::uint32_t>(palette.colors.size()));
  for (const std::uint32_t c : palette.colors) w.u32(c);
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const Palette& palette) {
  j.begin_object();
  j.key("type").string("Palette");
  j.key("id").hex(palette.id);
  j.key("count").number(static_cast<std::uint64_t>(palette.colors.size()));
  if (!palette.colors.empty()) {
    j.key("first").hex(palette.colors.front());
    j.key("last").hex(palette.colors.back());
  }
  j.end_object();
}

namespace {

constexpr std::size_t kMaxSubpalettes = 255;  // an ObjDesc's u8 count

bool whole(const Subpalette& s) noexcept {
  return s.offset == 0 && s.num_colors == kModifiedPaletteColors;
}

// Subpalette::replaces 0x005AD830: `added` takes `earlier`'s place.
bool replaces(const Subpalette& added, const Subpalette& earlier) noexcept {
  return (added.offset == earlier.offset && added.num_colors == earlier.num_colors) || whole(added);
}

// Subpalette::supercedes 0x005AD870: a whole `earlier` keeps a partial `added` out.
bool supercedes(const Subpalette& earlier, const Subpalette& added) noexcept {
  return whole(earlier) && !whole(added);
}

core::Error composition_error(Did base, std::string field, std::string detail) {
  return core::Error{core::ErrorKind::Invalid, fmt::format("composed palette 0x{:08X}", base), std::move(field), 0,
                     std::move(detail)};
}

}  // namespace

// Subpalette::UnPack 0x005ADAB0
Subpalette unpack_subpalette(Did palette, std::uint8_t offset, std::uint8_t num_colors) noexcept {
  const std::uint32_t count = num_colors == 0 ? 256U : num_colors;
  return Subpalette{palette, std::uint32_t{offset} * 8U, count * 8U};
}

// ObjDesc::AddSubpalette 0x005AB970
bool add_subpalette(std::vector<Subpalette>& list, const Subpalette& sub) {
  if (std::any_of(list.begin(), list.end(), [&](const Subpalette& e) { return supercedes(e, sub); })) return true;
  // ObjDesc::RemoveDuplicateSubpalette 0x005AB640
  std::erase_if(list, [&](const Subpalette& e) { return replaces(sub, e); });
  if (list.size() >= kMaxSubpalettes) return false;
  list.push_back(sub);
  return true;
}

// Palette::Modify 0x0053E160
bool modify_palette(Palette& target, const Palette& source, std::uint32_t offset, std::uint32_t num_colors) noexcept {
  const std::uint64_t end = std::uint64_t{offset} + num_colors;
  if (end > target.colors.size() || end > source.colors.size()) return false;
  std::copy(source.colors.begin() + offset, source.colors.begin() + static_cast<std::ptrdiff_t>(end),
            target.colors.begin() + offset);
  return true;
}

// Palette::makeModifiedPalette 0x0053E3C0
Result<Palette> make_modified_palette(Did base, std::span<const Subpalette> subs, const PaletteLookup& lookup) {
  if (base == 0) return std::unexpected(composition_error(base, "base", "no base palette"));
  const auto get = [&](Did id, const char* field) -> Result<const Palette*> {
    const Palette* p = id != 0 && lookup ? lookup(id) : nullptr;
    if (p == nullptr) {
      return std::unexpected(composition_error(base, field, fmt::format("palette 0x{:08X} is missing", id)));
    }
    return p;
  };
  if (subs.size() == 1 && whole(subs.front())) {
    DERETH_TRY(const Palette* whole_palette, get(subs.front().palette, "subpalettes[0]"));
    return *whole_palette;
  }
  Palette out;
  out.id = base;
  out.colors.assign(kModifiedPaletteColors, 0);
  const auto copy = [&](const Subpalette& s, const std::string& field) -> Result<void> {
    DERETH_TRY(const Palette* source, get(s.palette, field.c_str()));
    if (!modify_palette(out, *source, s.offset, s.num_colors)) {
      return std::unexpected(composition_error(
          base, field,
          fmt::format("colours {}..{} of palette 0x{:08X} do not fit (it has {}, the composed palette {})", s.offset,
                      std::uint64_t{s.offset} + s.num_colors, s.palette, source->colors.size(),
                      kModifiedPaletteColors)));
    }
    return {};
  };
  DERETH_CHECK(copy(Subpalette{base, 0, kModifiedPaletteColors}, "base"));
  for (std::size_t i = 0; i < subs.size(); ++i) DERETH_CHECK(copy(subs[i], fmt::format("subpalettes[{}]", i)));
  return out;
}

}  // namespace dereth::dat
