#pragma once
// SPHEREPATH (RE cphysics/CSpherePath.c): the mover's spheres along a
// transition, in global and obstacle-local space, with the begin, current,
// check and backup positions and cells (sphere_path.cpp).
#include <array>
#include <cstdint>
#include <optional>

#include <glm/vec3.hpp>

#include "dereth/sim/collision/polygon.hpp"
#include "dereth/sim/collision/sphere.hpp"
#include "dereth/sim/collision/transition_state.hpp"
#include "dereth/sim/object/physics_obj.hpp"  // Plane
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

class ObjCell;

// SPHEREPATH.
struct SpherePath {
  std::uint32_t num_sphere = 0;
  std::array<CollisionSphere, 2> local_sphere{};
  glm::vec3 local_low_point{0.0f};
  std::array<CollisionSphere, 2> global_sphere{};
  glm::vec3 global_low_point{0.0f};
  std::array<glm::vec3, 2> global_curr_center{};
  // The obstacle being tested, and the mover's spheres in its frame
  // divided by its scale (SPHEREPATH::cache_localspace_sphere 0x0050C9D0).
  Position localspace_pos;
  std::array<CollisionSphere, 2> localspace_sphere{};
  std::array<glm::vec3, 2> localspace_curr_center{};
  glm::vec3 localspace_z{0.0f, 0.0f, 1.0f};  // world up in the obstacle's frame
  glm::vec3 localspace_low_point{0.0f};

  ObjCell* begin_cell = nullptr;
  std::optional<Position> begin_pos;
  Position end_pos;
  ObjCell* curr_cell = nullptr;
  Position curr_pos;
  ObjCell* check_cell = nullptr;
  Position check_pos;
  glm::vec3 global_offset{0.0f};

  bool step_up = false;
  glm::vec3 step_up_normal{0.0f};
  bool collide = false;
  InsertType insert_type = InsertType::Transition;
  InsertType backup = InsertType::Transition;
  bool step_down = false;
  ObjCell* backup_cell = nullptr;
  Position backup_check_pos;
  bool obstruction_ethereal = false;
  bool hits_interior_cell = false;
  bool building_check = false;
  bool cell_array_valid = false;
  float walkable_allowance = 0.0f;
  float walk_interp = 1.0f;
  float step_down_amt = 0.0f;
  // The walkable polygon a BSP step-down or landing stood the mover on
  // (SPHEREPATH::set_walkable), with the sphere, up and frame it was found in.
  const Polygon* walkable = nullptr;
  CollisionSphere walkable_check_pos;
  glm::vec3 walkable_up{0.0f};
  Position walkable_pos;
  float walkable_scale = 1.0f;
  bool check_walkable = false;
  bool neg_step_up = false;
  glm::vec3 neg_collision_normal{0.0f};
  bool neg_poly_hit = false;
  bool placement_allows_sliding = true;

  // SPHEREPATH::init 0x0050C330
  void init() noexcept;
  // SPHEREPATH::init_sphere 0x0050C670: at most 2 spheres, times scale.
  void init_sphere(std::uint32_t count, const CollisionSphere* spheres, float scale) noexcept;
  // SPHEREPATH::init_path 0x0050CE20
  void init_path(ObjCell* begin, const Position* begin_position, const Position& end) noexcept;
  // SPHEREPATH::cache_global_curr_center 0x0050C740
  void cache_global_curr_center() noexcept;
  // SPHEREPATH::cache_global_sphere 0x0050C810
  void cache_global_sphere(const glm::vec3* offset) noexcept;
  // SPHEREPATH::add_offset_to_check_pos 0x00536A60
  void add_offset_to_check_pos(const glm::vec3& offset) noexcept;
  // SPHEREPATH::save_check_pos 0x0050A880
  void save_check_pos() noexcept;
  // SPHEREPATH::restore_check_pos 0x0050B100
  void restore_check_pos() noexcept;
  // SPHEREPATH::set_check_pos 0x0050A8B0
  void set_check_pos(const Position& p, ObjCell* cell) noexcept;
  // SPHEREPATH::adjust_check_pos 0x0050CC00
  void adjust_check_pos(std::uint32_t cell_id) noexcept;
  // SPHEREPATH::set_collide 0x005378A0
  void set_collide(const glm::vec3& normal) noexcept;
  // SPHEREPATH::is_walkable_allowable 0x005368D0
  [[nodiscard]] bool is_walkable_allowable(float z) const noexcept { return z > walkable_allowance; }
  // SPHEREPATH::check_walkables 0x0050C3E0: true without a recorded
  // walkable polygon; else halves the recorded sphere's radius (kept, as the
  // binary writes it back) and asks CPolygon::check_walkable.
  [[nodiscard]] bool check_walkables() noexcept;
  // SPHEREPATH::cache_localspace_sphere 0x0050C9D0: the spheres at the
  // check and current positions in p's frame, divided by `scale`.
  void cache_localspace_sphere(const Position& p, float scale) noexcept;
  // SPHEREPATH::set_walkable 0x00539FC0
  void set_walkable(const CollisionSphere& sphere, const Polygon* poly, const glm::vec3& zaxis,
                    const Position& local_pos, float scale) noexcept;
  // SPHEREPATH::set_neg_poly_hit 0x005398E0: the normal is stored negated.
  void set_neg_poly_hit(bool step_up_hit, const glm::vec3& collision_normal) noexcept;
  // The curr -> check landblock offset (SPHEREPATH::get_curr_pos_check_pos_block_offset 0x00509FD0).
  [[nodiscard]] glm::vec3 curr_to_check_block_offset() const noexcept;
  void copy_curr_to_check() noexcept;  // check = curr, cell too, spheres cached
};

}  // namespace dereth::sim
