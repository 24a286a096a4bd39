#pragma once
// A GfxObj's collision half (CGfxObj's physics tree, bounds and spheres),
// where the part arrays find it, and CPhysicsPart's test of a posed part
// against it. Defined in bsp.cpp beside the tree they wrap.
#include <cstdint>
#include <memory>
#include <optional>

#include "dereth/dat/types.hpp"
#include "dereth/sim/collision/bbox.hpp"
#include "dereth/sim/collision/bsp.hpp"

namespace dereth::sim {

// CGfxObj's collision half: the physics tree and the bounding sphere
// (CGfxObj::physics_sphere, the tree's root sphere).
struct GfxObjPhysics {
  std::uint32_t id = 0;
  BspTree bsp;
  dat::Sphere physics_sphere;

  // CGfxObj::find_obj_collisions 0x00534700: the tree is tested only when
  // one of the mover's localspace spheres overlaps the bounding sphere.
  TransitionState find_obj_collisions(Transition& t, float scale) const;
};

// What a part's cell search reads of its CGfxObj (PartBounds, bbox.hpp).
struct GfxObjBounds {
  // CGfxObj::gfx_bound_box (CGfxObj::init_end 0x00534200)
  BBox gfx_bound_box;
  // CGfxObj::physics_sphere / drawing_sphere: the trees' root spheres
  // (CGfxObj::UnPack); none without the tree.
  std::optional<dat::Sphere> physics_sphere;
  std::optional<dat::Sphere> drawing_sphere;
};

// Where a part array finds its parts' physics trees (the DAT object
// factory; tests give their own). Null: the GfxObj has no physics BSP (or
// its record is missing or refused, which the source reports).
class GfxObjPhysicsSource {
 public:
  GfxObjPhysicsSource() = default;
  GfxObjPhysicsSource(const GfxObjPhysicsSource&) = delete;
  GfxObjPhysicsSource& operator=(const GfxObjPhysicsSource&) = delete;
  virtual ~GfxObjPhysicsSource() = default;
  [[nodiscard]] virtual std::shared_ptr<const GfxObjPhysics> get_gfx_obj_physics(std::uint32_t did) = 0;
  // The bounds of the GfxObj a part with root GfxObj `did` draws at its
  // first degrade level (CPhysicsPart::LoadGfxObjArray 0x0050DCF0: the
  // degrade table's first GfxObj when the GfxObj has one), and whether that
  // part is Always2D; null when that GfxObj is absent (the part is not made).
  struct PartGfx {
    GfxObjBounds bounds;
    bool always_2d = false;
  };
  [[nodiscard]] virtual std::optional<PartGfx> get_part_gfx(std::uint32_t /*did*/) { return std::nullopt; }
};

// CPhysicsPart::find_obj_collisions 0x0050D8D0: a part posed at `part_pos`
// (its Position: the owner's cell and the part's frame) with its GfxObj
// scale's z.
TransitionState find_part_collisions(const GfxObjPhysics* gfx, const Position& part_pos, float gfxobj_scale_z,
                                     Transition& t);

}  // namespace dereth::sim
