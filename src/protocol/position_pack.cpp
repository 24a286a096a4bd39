#include "dereth/protocol/position_pack.hpp"

#include <bit>

namespace dereth::protocol {

namespace pf = position_flag;

bool PositionPack::operator==(const PositionPack& o) const {
  return flags == o.flags && cell_id == o.cell_id && origin == o.origin && same_bits(qw, o.qw) && same_bits(qx, o.qx) &&
         same_bits(qy, o.qy) && same_bits(qz, o.qz) && velocity == o.velocity && placement_id == o.placement_id &&
         instance_ts == o.instance_ts && position_ts == o.position_ts && teleport_ts == o.teleport_ts &&
         force_position_ts == o.force_position_ts;
}

std::uint32_t PositionPack::encoded_flags() const {
  std::uint32_t bits = flags & ~(pf::HasVelocity | pf::HasPlacementId | pf::OrientationHasNoW | pf::OrientationHasNoX |
                                 pf::OrientationHasNoY | pf::OrientationHasNoZ);
  if (velocity) bits |= pf::HasVelocity;
  if (placement_id) bits |= pf::HasPlacementId;
  if (!qw) bits |= pf::OrientationHasNoW;
  if (!qx) bits |= pf::OrientationHasNoX;
  if (!qy) bits |= pf::OrientationHasNoY;
  if (!qz) bits |= pf::OrientationHasNoZ;
  return bits;
}

// PositionPack::UnPack 0x00516740
Result<PositionPack> read_position_pack(ByteReader& r) {
  PositionPack p;
  DERETH_TRY(p.flags, r.u32("PositionPack.flags"));
  DERETH_CHECK(r.require(16, "PositionPack.position"));
  p.cell_id = *r.u32("PositionPack.cell_id");
  p.origin.x = *r.f32("PositionPack.origin");
  p.origin.y = *r.f32("PositionPack.origin");
  p.origin.z = *r.f32("PositionPack.origin");
  if (!(p.flags & pf::OrientationHasNoW)) {
    DERETH_TRY(p.qw, r.f32("PositionPack.orientation.w"));
  }
  if (!(p.flags & pf::OrientationHasNoX)) {
    DERETH_TRY(p.qx, r.f32("PositionPack.orientation.x"));
  }
  if (!(p.flags & pf::OrientationHasNoY)) {
    DERETH_TRY(p.qy, r.f32("PositionPack.orientation.y"));
  }
  if (!(p.flags & pf::OrientationHasNoZ)) {
    DERETH_TRY(p.qz, r.f32("PositionPack.orientation.z"));
  }
  if (p.flags & pf::HasVelocity) {
    DERETH_TRY(p.velocity, read_vec3(r, "PositionPack.velocity"));
  }
  if (p.flags & pf::HasPlacementId) {
    DERETH_TRY(p.placement_id, r.u32("PositionPack.placement_id"));
  }
  DERETH_CHECK(r.require(8, "PositionPack.timestamps"));
  p.instance_ts = *r.u16("PositionPack.instance_ts");
  p.position_ts = *r.u16("PositionPack.position_ts");
  p.teleport_ts = *r.u16("PositionPack.teleport_ts");
  p.force_position_ts = *r.u16("PositionPack.force_position_ts");
  return p;
}

void write_position_pack(ByteWriter& w, const PositionPack& p) {
  w.u32(p.encoded_flags());
  w.u32(p.cell_id);
  write_vec3(w, p.origin);
  if (p.qw) w.f32(*p.qw);
  if (p.qx) w.f32(*p.qx);
  if (p.qy) w.f32(*p.qy);
  if (p.qz) w.f32(*p.qz);
  if (p.velocity) write_vec3(w, *p.velocity);
  if (p.placement_id) w.u32(*p.placement_id);
  w.u16(p.instance_ts);
  w.u16(p.position_ts);
  w.u16(p.teleport_ts);
  w.u16(p.force_position_ts);
}

}  // namespace dereth::protocol
