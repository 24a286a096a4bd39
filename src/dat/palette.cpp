#include "dereth/dat/palette.hpp"

#include <string>

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

}  // namespace dereth::dat
