#pragma once
// Position: a cell id plus a Frame, and the LandDefs helpers the object loop
// needs (spec/physics.md section 4.2; the helpers live in land_defs.hpp).

#include <cstdint>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/protocol/types.hpp"
#include "dereth/sim/cells/land_defs.hpp"

namespace dereth::sim {

struct Position {
  std::uint32_t objcell_id = 0;
  core::Frame frame;
};

// The wire Position as a simulation Position: the quaternion goes through
// Frame::set_rotate, so an invalid one leaves the identity.
[[nodiscard]] Position to_position(const protocol::Position& p) noexcept;
[[nodiscard]] Position to_position(std::uint32_t cell_id, const protocol::Vec3& origin,
                                   const protocol::Quat& orientation) noexcept;
[[nodiscard]] glm::vec3 to_vec3(const protocol::Vec3& v) noexcept;
// The wire Position of a simulation Position (cell, origin, w x y z).
[[nodiscard]] protocol::Position to_wire(const Position& p) noexcept;

// Position::IsValid 0x005A9480: LandDefs::inbound_valid_cellid and Frame::IsValid.
[[nodiscard]] bool position_is_valid(const Position& p) noexcept;

// LandDefs::get_block_offset 0x0043E630 (land_defs.hpp).
[[nodiscard]] inline glm::vec3 block_offset(std::uint32_t from_cell, std::uint32_t to_cell) noexcept {
  return LandDefs::get_block_offset(from_cell, to_cell);
}

// Position::get_offset 0x00509F60: the vector from `from` to `to`, landblock-aware.
[[nodiscard]] glm::vec3 get_offset(const Position& from, const Position& to) noexcept;

// Position::localtoglobal 0x00456180: the point `v` of p's frame, in the
// landblock space of `space` (the transition's check position).
[[nodiscard]] glm::vec3 localtoglobal(const Position& space, const Position& p, const glm::vec3& v) noexcept;

// Position::distance 0x005A94B0: the length of get_offset.
[[nodiscard]] float distance(const Position& a, const Position& b) noexcept;

// Position::subtract2 0x00555A90: `to` in `from`'s local frame: the origin of
// `to` in from's local axes (landblock-aware) and the rotation
// conj(from.q) * to.q (Frame::subtract2 0x00535650), so that
// Frame::combine(from.frame, subtract2(to, from)) is to's frame.
[[nodiscard]] core::Frame subtract2(const Position& to, const Position& from) noexcept;

// Position::cylinder_distance_no_z 0x005A98B0: despite the name, the full 3D
// distance between the origins less both radii.
[[nodiscard]] float cylinder_distance_no_z(float r1, const Position& p1, float r2, const Position& p2) noexcept;

// Position::heading 0x005A9520: the compass heading from `from` to `to`
// (horizontal part; 0 when they are closer than the epsilon).
[[nodiscard]] float heading(const Position& from, const Position& to) noexcept;

// LandDefs::adjust_to_outside 0x005A9BC0 (land_defs.hpp): re-homes an
// outdoor position that walked off its landblock. Returns false (and sets the
// cell to 0) for an invalid cell range or a position off the world.
inline bool adjust_to_outside(std::uint32_t& cell_id, glm::vec3& origin) noexcept {
  return LandDefs::adjust_to_outside(cell_id, origin);
}

// The position in global metres: landblock (x, y) adds (x*192, y*192); the
// frame's rotation is kept. What the render snapshot publishes.
[[nodiscard]] core::Frame global_frame(const Position& p) noexcept;

// True for the valid objcell ranges (1..0x40, 0x100..0xFFFD, 0xFFFF).
[[nodiscard]] inline bool is_valid_cell(std::uint32_t cell_id) noexcept {
  return LandDefs::is_valid_cell(cell_id);
}

}  // namespace dereth::sim
