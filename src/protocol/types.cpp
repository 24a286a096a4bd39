#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

void write_vec3(ByteWriter& w, const Vec3& v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}

void write_position(ByteWriter& w, const Position& p) {
  w.u32(p.cell_id);
  write_vec3(w, p.origin);
  w.f32(p.orientation.w);
  w.f32(p.orientation.x);
  w.f32(p.orientation.y);
  w.f32(p.orientation.z);
}

void write_origin(ByteWriter& w, const Origin& o) {
  w.u32(o.cell_id);
  write_vec3(w, o.origin);
}

}  // namespace dereth::protocol
