#pragma once
// CSphere (RE cgeometry/CSphere.c; spec/physics.md section 5.7): the Setup's
// sphere record as a collision obstacle and its responses, in the
// transition's block-local space (sphere.cpp).
#include <glm/vec3.hpp>

#include "dereth/dat/types.hpp"
#include "dereth/sim/collision/transition_state.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

class Transition;

// CSphere: a centre and a radius (the Setup's sphere record).
using CollisionSphere = dat::Sphere;

// CSphere's collision responses, in the transition's block-local space.
namespace sphere {
// CSphere::collides_with_sphere 0x005369E0: |disp|^2 <= radsum^2.
[[nodiscard]] bool collides_with_sphere(const glm::vec3& disp, float radsum) noexcept;
// CSphere::find_time_of_collision 0x005368F0: -1 when none.
[[nodiscard]] double find_time_of_collision(const glm::vec3& movement, const glm::vec3& disp, float radsum) noexcept;
// CSphere::intersects_sphere 0x00537A80: obstacle `obstacle` (already in the
// check position's space) against the mover's spheres.
TransitionState intersects_sphere(const CollisionSphere& obstacle, Transition& t, bool is_creature);
// CSphere::intersects_sphere 0x00537FD0: an object sphere posed at `p`
// with `scale`.
TransitionState intersects_sphere(const CollisionSphere& local, const Position& p, float scale, Transition& t,
                                  bool is_creature);
// CSphere::slide_sphere 0x00537440 (the five-argument form).
TransitionState slide_sphere(const CollisionSphere& check, Transition& t, glm::vec3 normal,
                             const glm::vec3& curr_center);
}  // namespace sphere

}  // namespace dereth::sim
