#include "dereth/dat/surface.hpp"

#include <string>

namespace dereth::dat {

Result<Surface> read_surface(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "Surface");
  ByteReader r(bytes, context);
  Surface s;
  s.id = id;  // no DID prefix on disk (spec 3.0, 3.7)
  DERETH_TRY(s.type, r.u32("type"));
  if (s.has_texture()) {
    DERETH_TRY(s.texture, r.u32("orig_texture_id"));
    DERETH_TRY(s.palette, r.u32("orig_palette_id"));
  } else {
    DERETH_TRY(s.color, r.u32("color"));
  }
  DERETH_TRY(s.translucency, r.f32("translucency"));
  DERETH_TRY(s.luminosity, r.f32("luminosity"));
  DERETH_TRY(s.diffuse, r.f32("diffuse"));
  DERETH_CHECK(r.expect_end());
  return s;
}

std::vector<std::uint8_t> write_surface(const Surface& surface) {
  ByteWriter w;
  w.u32(surface.type);
  if (surface.has_texture()) {
    w.u32(surface.texture);
    w.u32(surface.palette);
  } else {
    w.u32(surface.color);
  }
  w.f32(surface.translucency);
  w.f32(surface.luminosity);
  w.f32(surface.diffuse);
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const Surface& surface) {
  j.begin_object();
  j.key("type").string("Surface");
  j.key("id").hex(surface.id);
  j.key("surface_type").hex(surface.type);
  if (surface.has_texture()) {
    j.key("texture").hex(surface.texture);
    j.key("palette").hex(surface.palette);
  } else {
    j.key("color").hex(surface.color);
  }
  j.key("translucency").f32(surface.translucency);
  j.key("luminosity").f32(surface.luminosity);
  j.key("diffuse").f32(surface.diffuse);
  j.end_object();
}

}  // namespace dereth::dat
