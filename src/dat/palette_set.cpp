#include "dereth/dat/palette_set.hpp"

#include <cmath>
#include <string>

namespace dereth::dat {

Result<PaletteSet> read_palette_set(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "PaletteSet");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  PaletteSet s;
  s.id = id;
  DERETH_TRY(const std::size_t count, read_count(r, 4, "count"));
  s.palettes.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    DERETH_TRY(const Did palette, r.u32("palettes"));
    s.palettes.push_back(palette);
  }
  DERETH_CHECK(r.expect_end());
  return s;
}

std::vector<std::uint8_t> write_palette_set(const PaletteSet& set) {
  ByteWriter w;
  w.u32(set.id);
  w.u32(static_cast<std::uint32_t>(set.palettes.size()));
  for (const Did d : set.palettes) w.u32(d);
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const PaletteSet& set) {
  j.begin_object();
  j.key("type").string("PaletteSet");
  j.key("id").hex(set.id);
  j.key("palettes").begin_array();
  for (const Did d : set.palettes) j.hex(d);
  j.end_array();
  j.end_object();
}

Did palette_for_shade(const PaletteSet& set, float shade) noexcept {
  if (set.palettes.empty()) return 0;
  double s = std::isnan(shade) ? 0.0 : static_cast<double>(shade);
  s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
  const double n = static_cast<double>(set.palettes.size());
  double index = std::floor((n - 0.000001) * s);
  if (index < 0.0) index = 0.0;
  auto i = static_cast<std::size_t>(index);
  if (i >= set.palettes.size()) i = set.palettes.size() - 1;
  return set.palettes[i];
}

}  // namespace dereth::dat
