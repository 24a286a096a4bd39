#include "dereth/sim/position.hpp"

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

}  // namespace dereth::sim
