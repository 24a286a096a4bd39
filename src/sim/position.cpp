#include "dereth/sim/position.hpp"

#include <cmath>

#include <glm/gtc/quaternion.hpp>

namespace dereth::sim {

namespace {

constexpr float kCellLength = 24.0f;     // metres per outdoor cell
constexpr float kBlockLength = 192.0f;   // metres per landblock
constexpr int kLandLength = 2040;        // cells across the world
constexpr float kSnapEpsilon = 0.0002f;  // PhysicsGlobals EPSILON

int block_x(std::uint32_t cell_id) noexcept {
  return static_cast<int>((cell_id >> 24) & 0xFFu);
}
int block_y(std::uint32_t cell_id) noexcept {
  return static_cast<int>((cell_id >> 16) & 0xFFu);
}

}  // namespace

Position to_position(std::uint32_t cell_id, const protocol::Vec3& origin, const protocol::Quat& q) noexcept {
  return Position{cell_id, core::Frame(to_vec3(origin), glm::quat(q.w, q.x, q.y, q.z))};
}

Position to_position(const protocol::Position& p) noexcept {
  return to_position(p.cell_id, p.origin, p.orientation);
}

glm::vec3 to_vec3(const protocol::Vec3& v) noexcept {
  return {v.x, v.y, v.z};
}

bool is_valid_cell(std::uint32_t cell_id) noexcept {
  const std::uint32_t cell = cell_id & 0xFFFFu;
  return (cell >= 1 && cell <= 0x40) || (cell >= 0x100 && cell <= 0xFFFD) || cell == 0xFFFF;
}

core::Frame global_frame(const Position& p) noexcept {
  core::Frame f = p.frame;
  f.origin.x += static_cast<float>(block_x(p.objcell_id)) * kBlockLength;
  f.origin.y += static_cast<float>(block_y(p.objcell_id)) * kBlockLength;
  return f;
}

// LandDefs::get_block_offset
glm::vec3 block_offset(std::uint32_t from_cell, std::uint32_t to_cell) noexcept {
  if ((from_cell >> 16) == (to_cell >> 16)) {
    return {0.0f, 0.0f, 0.0f};
  }
  return {static_cast<float>(block_x(to_cell) - block_x(from_cell)) * kBlockLength,
          static_cast<float>(block_y(to_cell) - block_y(from_cell)) * kBlockLength, 0.0f};
}

// Position::get_offset
glm::vec3 get_offset(const Position& from, const Position& to) noexcept {
  return block_offset(from.objcell_id, to.objcell_id) + to.frame.origin - from.frame.origin;
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
  if (std::sqrt(d.x * d.x + d.y * d.y) < kSnapEpsilon) return 0.0f;
  return core::compass_heading(d);
}

// LandDefs::adjust_to_outside (RE geometry/LandDefs.c line 144)
bool adjust_to_outside(std::uint32_t& cell_id, glm::vec3& origin) noexcept {
  if (!is_valid_cell(cell_id)) {
    cell_id = 0;
    return false;
  }
  if (std::fabs(origin.x) < kSnapEpsilon) origin.x = 0.0f;
  if (std::fabs(origin.y) < kSnapEpsilon) origin.y = 0.0f;
  const int cells_x = static_cast<int>(std::floor(origin.x / kCellLength));
  const int cells_y = static_cast<int>(std::floor(origin.y / kCellLength));
  const int lx = block_x(cell_id) * 8 + cells_x;
  const int ly = block_y(cell_id) * 8 + cells_y;
  if (lx < 0 || ly < 0 || lx >= kLandLength || ly >= kLandLength) {
    cell_id = 0;
    return false;
  }
  const auto bx = static_cast<std::uint32_t>(lx >> 3);
  const auto by = static_cast<std::uint32_t>(ly >> 3);
  const auto cx = static_cast<std::uint32_t>(lx & 7);
  const auto cy = static_cast<std::uint32_t>(ly & 7);
  cell_id = (bx << 24) | (by << 16) | (1u + cx * 8u + cy);
  origin.x -= std::floor(origin.x / kBlockLength) * kBlockLength;
  origin.y -= std::floor(origin.y / kBlockLength) * kBlockLength;
  return true;
}

}  // namespace dereth::sim
