#pragma once
// PositionPack, the body of UpdatePosition F748 (PositionPack::UnPack 0x00516740).
// Presence is kept for diagnostics; the absent-as-zero defaults that retail
// installs are exposed by the *_or_zero accessors.

#include <cstdint>
#include <optional>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

namespace position_flag {
inline constexpr std::uint32_t HasVelocity = 0x01;
inline constexpr std::uint32_t HasPlacementId = 0x02;
inline constexpr std::uint32_t IsGrounded = 0x04;
inline constexpr std::uint32_t OrientationHasNoW = 0x08;
inline constexpr std::uint32_t OrientationHasNoX = 0x10;
inline constexpr std::uint32_t OrientationHasNoY = 0x20;
inline constexpr std::uint32_t OrientationHasNoZ = 0x40;
}  // namespace position_flag

struct PositionPack {
  std::uint32_t flags = 0;  // as received; the writer derives presence bits from the fields
  std::uint32_t cell_id = 0;
  Vec3 origin;
  std::optional<float> qw, qx, qy, qz;  // each absent when its OrientationHasNo* bit is set
  std::optional<Vec3> velocity;
  std::optional<std::uint32_t> placement_id;
  std::uint16_t instance_ts = 0;
  std::uint16_t position_ts = 0;
  std::uint16_t teleport_ts = 0;
  std::uint16_t force_position_ts = 0;

  // PositionPack::UnPack 0x00516740: an absent component is zero.
  [[nodiscard]] Quat orientation() const {
    return {qw.value_or(0.0F), qx.value_or(0.0F), qy.value_or(0.0F), qz.value_or(0.0F)};
  }
  // PositionPack::UnPack 0x00516740: velocity (0,0,0) and placement 0 when absent.
  [[nodiscard]] Vec3 velocity_or_zero() const { return velocity.value_or(Vec3{}); }
  [[nodiscard]] std::uint32_t placement_or_zero() const { return placement_id.value_or(0); }
  [[nodiscard]] bool is_grounded() const { return (flags & position_flag::IsGrounded) != 0; }
  [[nodiscard]] std::uint32_t encoded_flags() const;

  bool operator==(const PositionPack&) const;
};

// PositionPack::UnPack 0x00516740
Result<PositionPack> read_position_pack(ByteReader& r);
void write_position_pack(ByteWriter& w, const PositionPack& p);

}  // namespace dereth::protocol
