#include "dereth/sim/object/position.hpp"

#include <cmath>

#include <glm/gtc/quaternion.hpp>

namespace dereth::sim {

Position to_position(std::uint32_t cell_id, const protocol::Vec3& origin, const protocol::Quat& q) noexcept {
  return Position{cell_id, core::Frame(to_vec3(origin), glm::quat(q.w, q.x, q.y, q.z))};
}

Position to_position(const protocol::Position& p) noexcept {
  return to_position(p.cell_id, p.origin, p.orientation);
}

glm::vec3 to_vec3(const protocol::Vec3& v) noexcept {
  return {v.x, v.y, v.z};
}

core::Frame global_frame(const Position& p) noexcept {
  core::Frame f = p.frame;
  f.origin.x += static_cast<float>((p.objcell_id >> 24) & 0xFFu) * LandDefs::kBlockLength;
  f.origin.y += static_cast<float>((p.objcell_id >> 16) & 0xFFu) * LandDefs::kBlockLength;
  return f;
}

// Position::get_offset 0x00509F60
glm::vec3 get_offset(const Position& from, const Position& to) noexcept {
  return block_offset(from.objcell_id, to.objcell_id) + to.frame.origin - from.frame.origin;
}

// Position::localtoglobal 0x00456180
glm::vec3 localtoglobal(const Position& space, const Position& p, const glm::vec3& v) noexcept {
  return p.frame.localtoglobal(v) + block_offset(space.objcell_id, p.objcell_id);
}

// Position::distance 0x005A94B0
float distance(const Position& a, const Position& b) noexcept {
  const glm::vec3 v = get_offset(a, b);
  return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

// Position::subtract2 0x00555A90 (Frame::subtract2 0x00535650 for the rotation)
core::Frame subtract2(const Position& to, const Position& from) noexcept {
  const glm::vec3 local = from.frame.globaltolocalvec(get_offset(from, to));
  return core::Frame(local, glm::conjugate(from.frame.orientation()) * to.frame.orientation());
}

// Position::cylinder_distance_no_z 0x005A98B0
float cylinder_distance_no_z(float r1, const Position& p1, float r2, const Position& p2) noexcept {
  return distance(p1, p2) - (r1 + r2);
}

// Position::heading 0x005A9520
float heading(const Position& from, const Position& to) noexcept {
  glm::vec3 d = get_offset(from, to);
  d.z = 0.0f;
  if (std::sqrt(d.x * d.x + d.y * d.y) < core::kEpsilon) return 0.0f;  // PhysicsGlobals EPSILON
  return core::compass_heading(d);
}

// Position::IsValid 0x005A9480
bool position_is_valid(const Position& p) noexcept {
  return LandDefs::inbound_valid_cellid(p.objcell_id) && p.frame.is_valid();
}

protocol::Position to_wire(const Position& p) noexcept {
  const glm::quat& q = p.frame.orientation();
  return protocol::Position{p.objcell_id, {p.frame.origin.x, p.frame.origin.y, p.frame.origin.z}, {q.w, q.x, q.y, q.z}};
}

}  // namespace dereth::sim
