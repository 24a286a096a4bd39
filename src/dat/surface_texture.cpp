#include "dereth/dat/surface_texture.hpp"

#include <string>

namespace dereth::dat {

Result<SurfaceTexture> read_surface_texture(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "SurfaceTexture");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  SurfaceTexture t;
  t.id = id;
  DERETH_TRY(t.data_category, r.u32("data_category"));
  DERETH_TRY(t.texture_type, r.u8("texture_type"));
  // i32 on disk; a negative count reads as a huge u32 and fails the bound check.
  DERETH_TRY(const std::size_t count, read_count(r, 4, "count"));
  t.render_surfaces.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    DERETH_TRY(const Did d, r.u32("render_surfaces"));
    t.render_surfaces.push_back(d);
  }
  DERETH_CHECK(r.expect_end());
  return t;
}

std::vector<std::uint8_t> write_surface_texture(const SurfaceTexture& texture) {
  ByteWriter w;
  w.u32(texture.id);
  w.u32(texture.data_category);
  w.u8(texture.texture_type);
  w.u32(static_cast<std::uint32_t>(texture.render_surfaces.size()));
  for (const Did d : texture.render_surfaces) w.u32(d);
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const SurfaceTexture& texture) {
  j.begin_object();
  j.key("type").string("SurfaceTexture");
  j.key("id").hex(texture.id);
  j.key("data_category").number(texture.data_category);
  j.key("texture_type").number(texture.texture_type);
  j.key("render_surfaces").begin_array();
  for (const Did d : texture.render_surfaces) j.hex(d);
  j.end_array();
  j.end_object();
}

}  // namespace dereth::dat
