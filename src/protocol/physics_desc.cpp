#include "dereth/protocol/physics_desc.hpp"

#include <bit>
#include <cstring>
#include <string>
#include <type_traits>

#include "read_if.hpp"

namespace dereth::protocol {

namespace f = physics_desc_flag;

namespace {

std::uint32_t set_bit(std::uint32_t bits, std::uint32_t flag, bool present) {
  return present ? (bits | flag) : (bits & ~flag);
}

}  // namespace

bool PhysicsDesc::operator==(const PhysicsDesc& o) const {
  return bitfield == o.bitfield && state == o.state && movement == o.movement && animation_frame == o.animation_frame &&
         position == o.position && motion_table_id == o.motion_table_id && sound_table_id == o.sound_table_id &&
         physics_script_table_id == o.physics_script_table_id && setup_id == o.setup_id && parent == o.parent &&
         children == o.children && same_bits(object_scale, o.object_scale) && same_bits(friction, o.friction) &&
         same_bits(elasticity, o.elasticity) && same_bits(translucency, o.translucency) && velocity == o.velocity &&
         acceleration == o.acceleration && omega == o.omega && default_script_type == o.default_script_type &&
         same_bits(default_script_intensity, o.default_script_intensity) && timestamps == o.timestamps;
}

std::uint32_t PhysicsDesc::encoded_bitfield() const {
  std::uint32_t bits = bitfield;
  bits = set_bit(bits, f::Movement, movement.has_value());
  // AnimationFrame is read only when Movement is absent; with Movement the
  // bit is ignored by the reader, so the stored bit is kept as it was.
  if (!movement) bits = set_bit(bits, f::AnimationFrame, animation_frame.has_value());
  bits = set_bit(bits, f::Position, position.has_value());
  bits = set_bit(bits, f::MTable, motion_table_id.has_value());
  bits = set_bit(bits, f::STable, sound_table_id.has_value());
  bits = set_bit(bits, f::PeTable, physics_script_table_id.has_value());
  bits = set_bit(bits, f::CSetup, setup_id.has_value());
  bits = set_bit(bits, f::Parent, parent.has_value());
  bits = set_bit(bits, f::Children, children.has_value());
  bits = set_bit(bits, f::ObjScale, object_scale.has_value());
  bits = set_bit(bits, f::Friction, friction.has_value());
  bits = set_bit(bits, f::Elasticity, elasticity.has_value());
  bits = set_bit(bits, f::Translucency, translucency.has_value());
  bits = set_bit(bits, f::Velocity, velocity.has_value());
  bits = set_bit(bits, f::Acceleration, acceleration.has_value());
  bits = set_bit(bits, f::Omega, omega.has_value());
  bits = set_bit(bits, f::DefaultScript, default_script_type.has_value());
  bits = set_bit(bits, f::DefaultScriptIntensity, default_script_intensity.has_value());
  return bits;
}

// PhysicsDesc::UnPack 0x0051DDD0
Result<PhysicsDesc> read_physics_desc(ByteReader& r) {
  PhysicsDesc d;
  DERETH_CHECK(read_physics_desc(r, d));
  return d;
}

namespace {

using detail::FieldSize;
using detail::read_if;
using detail::read_if_rare;
using detail::RunSize;
using detail::size_if;
using detail::through;
using detail::Unchecked;

// The fields from AnimationFrame to Parent, field by field: each read checks
// its own bytes (the path of a message cut short inside them).
[[gnu::noinline]] Result<void> read_cell_fields_checked(ByteReader& r, PhysicsDesc& d, std::uint32_t bits) {
  if ((bits & f::Movement) == 0) {
    DERETH_CHECK(
        read_if(bits & f::AnimationFrame, d.animation_frame, [&] { return r.u32("PhysicsDesc.animation_frame"); }));
  }
  DERETH_CHECK(read_if(bits & f::Position, d.position, [&] { return read_position(r, "PhysicsDesc.position"); }));
  DERETH_CHECK(read_if(bits & f::MTable, d.motion_table_id, [&] { return r.u32("PhysicsDesc.motion_table_id"); }));
  DERETH_CHECK(read_if(bits & f::STable, d.sound_table_id, [&] { return r.u32("PhysicsDesc.sound_table_id"); }));
  DERETH_CHECK(read_if(bits & f::PeTable, d.physics_script_table_id,
                       [&] { return r.u32("PhysicsDesc.physics_script_table_id"); }));
  DERETH_CHECK(read_if(bits & f::CSetup, d.setup_id, [&] { return r.u32("PhysicsDesc.setup_id"); }));
  d.parent.reset();
  if (bits & f::Parent) {
    DERETH_CHECK(r.require(8, "PhysicsDesc.parent"));
    ParentLink p;
    p.parent_guid = *r.u32("PhysicsDesc.parent.guid");
    p.location_id = *r.u32("PhysicsDesc.parent.location_id");
    d.parent = p;
  }
  return {};
}

constexpr RunSize kCellRun(
    {{f::Position, 32}, {f::MTable, 4}, {f::STable, 4}, {f::PeTable, 4}, {f::CSetup, 4}, {f::Parent, 8}});

// The same fields when all their bytes are there (one check for the run).
DERETH_READ_INLINE Result<void> read_cell_fields(ByteReader& r, ByteReader& spill, PhysicsDesc& d, std::uint32_t bits) {
  const bool frame = (bits & f::Movement) == 0 && (bits & f::AnimationFrame) != 0;
  const std::size_t size = (frame ? 4 : 0) + kCellRun.of(bits);
  if (size > r.remaining()) [[unlikely]] {
    return through(r, spill, [&](ByteReader& s) { return read_cell_fields_checked(s, d, bits); });
  }
  Unchecked u((*r.bytes(size, "PhysicsDesc")).data());
  if ((bits & f::Movement) == 0) u.take_if_rare(frame, d.animation_frame);
  u.take_if(bits & f::Position, d.position);
  u.take_if(bits & f::MTable, d.motion_table_id);
  u.take_if(bits & f::STable, d.sound_table_id);
  u.take_if(bits & f::PeTable, d.physics_script_table_id);
  u.take_if(bits & f::CSetup, d.setup_id);
  if (bits & f::Parent) {
    ParentLink p;
    p.parent_guid = u.take<std::uint32_t>();
    p.location_id = u.take<std::uint32_t>();
    d.parent = p;
  } else {
    d.parent.reset();
  }
  return {};
}

// The fields from ObjScale to the timestamps and the alignment, field by
// field.
[[gnu::noinline]] Result<void> read_tail_checked(ByteReader& r, PhysicsDesc& d, std::uint32_t bits) {
  DERETH_CHECK(read_if(bits & f::ObjScale, d.object_scale, [&] { return r.f32("PhysicsDesc.object_scale"); }));
  DERETH_CHECK(read_if(bits & f::Friction, d.friction, [&] { return r.f32("PhysicsDesc.friction"); }));
  DERETH_CHECK(read_if(bits & f::Elasticity, d.elasticity, [&] { return r.f32("PhysicsDesc.elasticity"); }));
  DERETH_CHECK(read_if(bits & f::Translucency, d.translucency, [&] { return r.f32("PhysicsDesc.translucency"); }));
  DERETH_CHECK(read_if(bits & f::Velocity, d.velocity, [&] { return read_vec3(r, "PhysicsDesc.velocity"); }));
  DERETH_CHECK(
      read_if(bits & f::Acceleration, d.acceleration, [&] { return read_vec3(r, "PhysicsDesc.acceleration"); }));
  DERETH_CHECK(read_if(bits & f::Omega, d.omega, [&] { return read_vec3(r, "PhysicsDesc.omega"); }));
  DERETH_CHECK(read_if(bits & f::DefaultScript, d.default_script_type,
                       [&] { return r.u32("PhysicsDesc.default_script_type"); }));
  DERETH_CHECK(read_if(bits & f::DefaultScriptIntensity, d.default_script_intensity,
                       [&] { return r.f32("PhysicsDesc.default_script_intensity"); }));

  DERETH_TRY(const auto stamps, r.bytes(2 * kTimestampCount, "PhysicsDesc.timestamps"));
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(d.timestamps.data(), stamps.data(), 2 * kTimestampCount);
  } else {
    for (std::size_t i = 0; i < kTimestampCount; ++i) {
      d.timestamps[i] = core::load_le<std::uint16_t>(stamps.data() + 2 * i);
    }
  }
  DERETH_CHECK(r.align4("PhysicsDesc.align"));
  return {};
}

constexpr RunSize kTailRun({{f::ObjScale, 4},
                            {f::Friction, 4},
                            {f::Elasticity, 4},
                            {f::Translucency, 4},
                            {f::Velocity, 12},
                            {f::Acceleration, 12},
                            {f::Omega, 12},
                            {f::DefaultScript, 4},
                            {f::DefaultScriptIntensity, 4}});

// The same when all their bytes and the padding are there.
DERETH_READ_INLINE Result<void> read_tail(ByteReader& r, ByteReader& spill, PhysicsDesc& d, std::uint32_t bits) {
  const std::size_t fields = kTailRun.of(bits) + 2 * kTimestampCount;
  const std::size_t size = fields + ((4 - ((r.position() + fields) & 3U)) & 3U);
  if (size > r.remaining()) [[unlikely]] {
    return through(r, spill, [&](ByteReader& s) { return read_tail_checked(s, d, bits); });
  }
  // With none of the run's bits set (most objects) each field is one store;
  // else a present field falls through (take_if).
  const auto take_all = [&d](Unchecked& u, auto run) {
    u.take_if(run & f::ObjScale, d.object_scale);
    u.take_if(run & f::Friction, d.friction);
    u.take_if(run & f::Elasticity, d.elasticity);
    u.take_if(run & f::Translucency, d.translucency);
    u.take_if(run & f::Velocity, d.velocity);
    u.take_if(run & f::Acceleration, d.acceleration);
    u.take_if(run & f::Omega, d.omega);
    u.take_if(run & f::DefaultScript, d.default_script_type);
    u.take_if(run & f::DefaultScriptIntensity, d.default_script_intensity);
  };
  Unchecked u((*r.bytes(size, "PhysicsDesc")).data());
  if (fields == 2 * kTimestampCount) {
    take_all(u, std::integral_constant<std::uint32_t, 0>{});
  } else {
    take_all(u, bits);
  }
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(d.timestamps.data(), u.skip(2 * kTimestampCount), 2 * kTimestampCount);
  } else {
    for (auto& stamp : d.timestamps) stamp = u.take<std::uint16_t>();
  }
  return {};
}

DERETH_READ_INLINE Result<void> read_physics_desc_body(ByteReader& r, ByteReader& spill, PhysicsDesc& d) {
  DERETH_TRY(d.bitfield, r.u32("PhysicsDesc.bitfield"));
  DERETH_TRY(d.state, r.u32("PhysicsDesc.state"));
  const std::uint32_t bits = d.bitfield;

  if (bits & f::Movement) {
    if (!d.movement) d.movement.emplace();
    MovementBuffer& m = *d.movement;
    const std::size_t length_at = r.position();
    DERETH_TRY(const std::uint32_t length, r.u32("PhysicsDesc.movement.length"));
    if (length > r.remaining()) {
      return std::unexpected(through(r, spill, [&](ByteReader& s) {
        return s.error_at(
            length_at, core::ErrorKind::TooLarge, "PhysicsDesc.movement.length",
            "length " + std::to_string(length) + " exceeds the " + std::to_string(s.remaining()) + " bytes remaining");
      }));
    }
    DERETH_TRY(const auto body, r.bytes(length, "PhysicsDesc.movement.bytes"));
    // Resized and copied: a buffer of the length it had needs no call.
    m.bytes.resize(length);
    detail::copy_bytes(m.bytes.data(), body.data(), length);
    m.autonomous.reset();
    if (length > 0) {
      DERETH_TRY(m.autonomous, r.u32("PhysicsDesc.movement.autonomous"));
    }
    d.animation_frame.reset();
  } else {
    d.movement.reset();
  }

  DERETH_CHECK(read_cell_fields(r, spill, d, bits));
  if (bits & f::Children) {
    DERETH_TRY(const std::uint32_t count, r.u32("PhysicsDesc.children.count"));
    DERETH_TRY(const std::size_t n, r.checked_count(count, 8, "PhysicsDesc.children.count"));
    if (!d.children) d.children.emplace();
    d.children->resize(n);
    for (auto& c : *d.children) {
      c.guid = *r.u32("PhysicsDesc.children.guid");
      c.location_id = *r.u32("PhysicsDesc.children.location_id");
    }
  } else {
    d.children.reset();
  }
  return read_tail(r, spill, d, bits);
}

}  // namespace

Result<void> read_physics_desc(ByteReader& r, PhysicsDesc& d) {
  ByteReader local = r;  // read_if.hpp, through: the cursor stays in registers
  auto result = read_physics_desc_body(local, r, d);
  r = local;
  return result;
}

void write_physics_desc(ByteWriter& w, const PhysicsDesc& d) {
  const std::uint32_t bits = d.encoded_bitfield();
  w.u32(bits);
  w.u32(d.state);
  if (d.movement) {
    w.u32(static_cast<std::uint32_t>(d.movement->bytes.size()));
    w.bytes(d.movement->bytes);
    if (!d.movement->bytes.empty()) {
      w.u32(d.movement->autonomous.value_or(0));
    }
  } else if (d.animation_frame) {
    w.u32(*d.animation_frame);
  }
  if (d.position) write_position(w, *d.position);
  if (d.motion_table_id) w.u32(*d.motion_table_id);
  if (d.sound_table_id) w.u32(*d.sound_table_id);
  if (d.physics_script_table_id) w.u32(*d.physics_script_table_id);
  if (d.setup_id) w.u32(*d.setup_id);
  if (d.parent) {
    w.u32(d.parent->parent_guid);
    w.u32(d.parent->location_id);
  }
  if (d.children) {
    w.u32(static_cast<std::uint32_t>(d.children->size()));
    for (const auto& c : *d.children) {
      w.u32(c.guid);
      w.u32(c.location_id);
    }
  }
  if (d.object_scale) w.f32(*d.object_scale);
  if (d.friction) w.f32(*d.friction);
  if (d.elasticity) w.f32(*d.elasticity);
  if (d.translucency) w.f32(*d.translucency);
  if (d.velocity) write_vec3(w, *d.velocity);
  if (d.acceleration) write_vec3(w, *d.acceleration);
  if (d.omega) write_vec3(w, *d.omega);
  if (d.default_script_type) w.u32(*d.default_script_type);
  if (d.default_script_intensity) w.f32(*d.default_script_intensity);
  for (const auto ts : d.timestamps) w.u16(ts);
  w.align4();
}

}  // namespace dereth::protocol
