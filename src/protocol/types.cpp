#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

Result<Vec3> read_vec3(ByteReader& r, std::string_view field) {
  // Check all twelve bytes first so a truncated vector fails at its start.
  DERETH_CHECK(r.require(12, field));
  Vec3 v;
  v.x = *r.f32(field);
  v.y = *r.f32(field);
  v.z = *r.f32(field);
  return v;
}

void write_vec3(ByteWriter& w, const Vec3& v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}

Result<Position> read_position(ByteReader& r, std::string_view field) {
  DERETH_CHECK(r.require(32, field));
  Position p;
  p.cell_id = *r.u32(field);
  p.origin.x = *r.f32(field);
  p.origin.y = *r.f32(field);
  p.origin.z = *r.f32(field);
  p.orientation.w = *r.f32(field);
  p.orientation.x = *r.f32(field);
  p.orientation.y = *r.f32(field);
  p.orientation.z = *r.f32(field);
  return p;
}

void write_position(ByteWriter& w, const Position& p) {
  w.u32(p.cell_id);
  write_vec3(w, p.origin);
  w.f32(p.orientation.w);
  w.f32(p.orientation.x);
  w.f32(p.orientation.y);
  w.f32(p.orientation.z);
}

Result<Origin> read_origin(ByteReader& r, std::string_view field) {
  DERETH_CHECK(r.require(16, field));
  Origin o;
  o.cell_id = *r.u32(field);
  o.origin.x = *r.f32(field);
  o.origin.y = *r.f32(field);
  o.origin.z = *r.f32(field);
  return o;
}

void write_origin(ByteWriter& w, const Origin& o) {
  w.u32(o.cell_id);
  write_vec3(w, o.origin);
}

}  // namespace dereth::protocol
