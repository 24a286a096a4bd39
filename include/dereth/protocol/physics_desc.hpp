#pragma once
// PhysicsDesc, the physics section of CreateObject/UpdateObject
// (seed retail-projectile-vfx section 1, PhysicsDesc::UnPack 0x0051DDD0).
// Absent optional fields stay std::nullopt, distinct from a present zero.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

// PhysicsDesc bitfield flags (seed section 1).
namespace physics_desc_flag {
inline constexpr std::uint32_t CSetup = 0x00000001;
inline constexpr std::uint32_t MTable = 0x00000002;
inline constexpr std::uint32_t Velocity = 0x00000004;
inline constexpr std::uint32_t Acceleration = 0x00000008;
inline constexpr std::uint32_t Omega = 0x00000010;
inline constexpr std::uint32_t Parent = 0x00000020;
inline constexpr std::uint32_t Children = 0x00000040;
inline constexpr std::uint32_t ObjScale = 0x00000080;
inline constexpr std::uint32_t Friction = 0x00000100;
inline constexpr std::uint32_t Elasticity = 0x00000200;
inline constexpr std::uint32_t Timestamps = 0x00000400;  // defined; the nine stamps are always sent
inline constexpr std::uint32_t STable = 0x00000800;
inline constexpr std::uint32_t PeTable = 0x00001000;
inline constexpr std::uint32_t DefaultScript = 0x00002000;
inline constexpr std::uint32_t DefaultScriptIntensity = 0x00004000;
inline constexpr std::uint32_t Position = 0x00008000;
inline constexpr std::uint32_t Movement = 0x00010000;
inline constexpr std::uint32_t AnimationFrame = 0x00020000;
inline constexpr std::uint32_t Translucency = 0x00040000;
}  // namespace physics_desc_flag

// PhysicsState bits (seed section 3).
namespace physics_state {
inline constexpr std::uint32_t Static = 0x1;
inline constexpr std::uint32_t Ethereal = 0x4;
inline constexpr std::uint32_t ReportCollisions = 0x8;
inline constexpr std::uint32_t IgnoreCollisions = 0x10;
inline constexpr std::uint32_t NoDraw = 0x20;
inline constexpr std::uint32_t Missile = 0x40;
inline constexpr std::uint32_t Pushable = 0x80;
inline constexpr std::uint32_t AlignPath = 0x100;
inline constexpr std::uint32_t PathClipped = 0x200;
inline constexpr std::uint32_t Gravity = 0x400;
inline constexpr std::uint32_t Lighting = 0x800;
inline constexpr std::uint32_t ParticleEmitter = 0x1000;
inline constexpr std::uint32_t Hidden = 0x4000;
inline constexpr std::uint32_t ScriptedCollision = 0x8000;
inline constexpr std::uint32_t HasPhysicsBsp = 0x10000;
inline constexpr std::uint32_t Inelastic = 0x20000;
inline constexpr std::uint32_t HasDefaultAnim = 0x40000;
inline constexpr std::uint32_t HasDefaultScript = 0x80000;
inline constexpr std::uint32_t Cloaked = 0x100000;
inline constexpr std::uint32_t ReportAsEnvironment = 0x200000;
inline constexpr std::uint32_t EdgeSlide = 0x400000;
inline constexpr std::uint32_t Sledding = 0x800000;
inline constexpr std::uint32_t Frozen = 0x1000000;
}  // namespace physics_state

struct ParentLink {
  std::uint32_t parent_guid = 0;
  std::uint32_t location_id = 0;
  bool operator==(const ParentLink&) const = default;
};

struct ChildLink {
  std::uint32_t guid = 0;
  std::uint32_t location_id = 0;
  bool operator==(const ChildLink&) const = default;
};

// The length-prefixed movement buffer: MovementData without its header
// (decode it with decode_movement_buffer in movement.hpp). The trailing
// autonomous u32 is present only when the length is non-zero.
struct MovementBuffer {
  std::vector<std::uint8_t> bytes;
  std::optional<std::uint32_t> autonomous;
  bool operator==(const MovementBuffer&) const = default;
};

struct PhysicsDesc {
  // The bitfield as received. The writer keeps its unknown bits and sets or
  // clears each field's bit from the field's presence.
  std::uint32_t bitfield = 0;
  std::uint32_t state = 0;
  std::optional<MovementBuffer> movement;                   // 0x00010000
  std::optional<std::uint32_t> animation_frame;             // 0x00020000, only without Movement
  std::optional<Position> position;                         // 0x00008000
  std::optional<std::uint32_t> motion_table_id;             // 0x00000002
  std::optional<std::uint32_t> sound_table_id;              // 0x00000800
  std::optional<std::uint32_t> physics_script_table_id;     // 0x00001000 (PeTable)
  std::optional<std::uint32_t> setup_id;                    // 0x00000001
  std::optional<ParentLink> parent;                         // 0x00000020
  std::optional<std::vector<ChildLink>> children;           // 0x00000040
  std::optional<float> object_scale;                        // 0x00000080
  std::optional<float> friction;                            // 0x00000100
  std::optional<float> elasticity;                          // 0x00000200
  std::optional<float> translucency;                        // 0x00040000
  std::optional<Vec3> velocity;                             // 0x00000004
  std::optional<Vec3> acceleration;                         // 0x00000008
  std::optional<Vec3> omega;                                // 0x00000010
  std::optional<std::uint32_t> default_script_type;         // 0x00002000
  std::optional<float> default_script_intensity;            // 0x00004000
  std::array<std::uint16_t, kTimestampCount> timestamps{};  // wire order, see TimestampIndex

  [[nodiscard]] std::uint16_t timestamp(TimestampIndex i) const { return timestamps[static_cast<std::size_t>(i)]; }
  // The bitfield the writer emits for this description.
  [[nodiscard]] std::uint32_t encoded_bitfield() const;

  bool operator==(const PhysicsDesc&) const;
};

// PhysicsDesc::UnPack 0x0051DDD0: every gated field in retail order, nine
// timestamps, then alignment to four bytes from the message start.
Result<PhysicsDesc> read_physics_desc(ByteReader& r);
// The same, into caller-owned storage: every field is overwritten (absent
// ones cleared) and the movement bytes and children keep their capacity, so
// a description of the shape `out` already holds is read without allocating.
// On failure `out` holds a partial read.
Result<void> read_physics_desc(ByteReader& r, PhysicsDesc& out);
void write_physics_desc(ByteWriter& w, const PhysicsDesc& desc);

}  // namespace dereth::protocol
