#pragma once
// CCylSphere (RE cgeometry/CCylSphere.c; spec/physics.md section 5.7): the
// Setup's cylinder record as a collision obstacle and its responses
// (cyl_sphere.cpp).
#include <glm/vec3.hpp>

#include "dereth/dat/types.hpp"
#include "dereth/sim/collision/sphere.hpp"
#include "dereth/sim/collision/transition_state.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

class Transition;
struct SpherePath;

// CCylSphere: a vertical cylinder standing on its low point (the Setup's
// record; `origin` is retail's low_pt).
using CollisionCylinder = dat::CylSphere;

// CCylSphere's collision responses, in the transition's block-local space:
// `cyl` is the obstacle already posed there (z up), `check` the mover's
// sphere tested, `disp` its centre less the cylinder's low point and
// `radsum` the two radii less EPSILON.
namespace cylsphere {
// CCylSphere::collides_with_sphere 0x0053A880: within radsum across and
// within the cylinder's height widened by the sphere's radius.
[[nodiscard]] bool collides_with_sphere(const CollisionCylinder& cyl, const CollisionSphere& check,
                                        const glm::vec3& disp, float radsum) noexcept;
// CCylSphere::normal_of_collision 0x0053AB50: the side normal (xy of the
// current centre) or the top/bottom one; false when a side hit came from
// above or below the cylinder and may have met its top or bottom instead.
bool normal_of_collision(const CollisionCylinder& cyl, const SpherePath& path, const CollisionSphere& check,
                         const glm::vec3& disp, float radsum, int sphere_num, glm::vec3& normal) noexcept;
// CCylSphere::step_sphere_down 0x0053A9B0
TransitionState step_sphere_down(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                                 const glm::vec3& disp, float radsum);
// CCylSphere::collide_with_point 0x0053ACB0
TransitionState collide_with_point(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                                   const glm::vec3& disp, float radsum, int sphere_num);
// CCylSphere::slide_sphere 0x0053B2A0
TransitionState slide_sphere(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                             const glm::vec3& disp, float radsum, int sphere_num);
// CCylSphere::step_sphere_up 0x0053B310
TransitionState step_sphere_up(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                               const glm::vec3& disp, float radsum);
// CCylSphere::land_on_cylinder 0x0053B3D0
TransitionState land_on_cylinder(const CollisionCylinder& cyl, Transition& t, const CollisionSphere& check,
                                 const glm::vec3& disp, float radsum);
// CCylSphere::intersects_sphere 0x0053B440: the obstacle cylinder against
// the mover's spheres (no creature exemption, unlike CSphere's).
TransitionState intersects_sphere(const CollisionCylinder& cyl, Transition& t);
// CCylSphere::intersects_sphere 0x0053B8F0: an object cylinder posed at `p`
// with `scale`.
TransitionState intersects_sphere(const CollisionCylinder& local, const Position& p, float scale, Transition& t);
}  // namespace cylsphere

}  // namespace dereth::sim
