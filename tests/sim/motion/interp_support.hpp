#pragma once
// Shared set-up for the position-manager tests (interp_*_test.cpp): a
// grounded object with one physics sphere, so update_object_internal commits
// the whole candidate frame, and a movement manager with a chosen max speed.
#include <memory>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>

#include "dereth/sim/object/physics_obj.hpp"

#include "fakes.hpp"

namespace dereth::sim::test {

inline constexpr std::uint32_t kIndoorCell = 0xA9B40105;

// A MovementManager standing in for CMotionInterp's max speeds.
class SpeedMovementManager final : public MovementManager {
 public:
  explicit SpeedMovementManager(float max_speed, float adjusted_max_speed)
      : max_speed_(max_speed), adjusted_(adjusted_max_speed) {}
  float get_max_speed() override { return max_speed_; }
  float get_adjusted_max_speed() override { return adjusted_; }
  int cancels = 0;
  void cancel_move_to() override { ++cancels; }

 private:
  float max_speed_;
  float adjusted_;
};

// Vectors equal within `tol` metres.
inline bool near_to(glm::vec3 a, glm::vec3 b, float tol = 1e-4f) {
  return glm::length(a - b) <= tol;
}

inline Position at(glm::vec3 origin, float heading = 0.0f, std::uint32_t cell = kCell) {
  core::Frame f(origin, glm::quat(1, 0, 0, 0));
  if (heading != 0.0f) f.set_heading(heading);
  return Position{cell, f};
}

// An object on the ground (Contact | OnWalkable) with one physics sphere.
struct Walker {
  Walker(World& w, std::uint32_t guid, glm::vec3 origin, std::uint32_t cell = kCell, float radius = 0.0f)
      : object(w.context, guid, LocalId{guid}) {
    auto p = std::make_unique<FakePartArray>(w.log);
    p->sphere_count = 1;
    p->radius = radius;
    parts = p.get();
    object.set_part_array(std::move(p));
    object.set_state(0, false);
    object.enter_world(at(origin, 0.0f, cell));
    ground();
  }
  void ground() {
    object.set_transient_state(object.transient_state() | transient_state::Contact | transient_state::OnWalkable);
  }
  // One fixed quantum of the object's own update.
  void tick(float quantum = 0.1f) { object.update_object_internal(FloatSeconds{quantum}); }
  void set_speed(float max_speed, float adjusted) {
    auto m = std::make_unique<SpeedMovementManager>(max_speed, adjusted);
    speed = m.get();
    object.set_movement_manager(std::move(m));
  }
  [[nodiscard]] InterpolationManager* im() const {
    return object.position_manager() ? object.position_manager()->interpolation_manager() : nullptr;
  }

  PhysicsObj object;
  FakePartArray* parts = nullptr;
  SpeedMovementManager* speed = nullptr;
};

}  // namespace dereth::sim::test
