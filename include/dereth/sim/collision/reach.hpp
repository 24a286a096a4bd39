#pragma once
// The broad phase's cheap test before an object's shapes (issue 35,
// section 4): CObjCell's object search passes over an object no sphere of
// the mover can reach, where retail would have tested it and found nothing.
// Not retail's: retail tests every shadow; what is found is the same.
// Defined in obj_cell.cpp.
#include <span>

#include "dereth/dat/types.hpp"
#include "dereth/sim/collision/sphere_path.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

// Whether none of the mover's spheres on `path` (the foot, and the head when
// it has two) can touch any of an object's spheres or cylinders, scaled by
// `scale`, at `where`. A conservative bound, so CSphere / CCylSphere
// intersects_sphere on those shapes would find no overlap and return OK
// having recorded nothing.
[[nodiscard]] bool beyond_reach(std::span<const dat::Sphere> spheres, std::span<const dat::CylSphere> cylinders,
                                float scale, const Position& where, const SpherePath& path);

// The object's half of that bound: the largest of each shape's centre
// distance (for a sphere, the sum of its centre's coordinates' magnitudes)
// plus its radius (and height, for a cylinder), times |scale|. What
// PhysicsObj::sphere_reach caches for an object of spheres alone.
[[nodiscard]] float shapes_reach(std::span<const dat::Sphere> spheres, std::span<const dat::CylSphere> cylinders,
                                 float scale) noexcept;

}  // namespace dereth::sim
