#pragma once
// Procedural scenery: the trees, rocks and bushes retail places over a
// landblock's terrain from the Region's scene tables by a pseudo-random rule
// of the vertex's world coordinates (CLandBlock::get_land_scenes 0x00530460
// and the ObjectDesc rules it calls), so every client and server that runs
// the rule puts the same object at the same spot. The placement is pure
// here; DatLandscapeLoader makes the objects with the block's statics.
// docs/sim.md "Scenery", src/sim/cells/README.md.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/dat/scene.hpp"
#include "dereth/sim/cells/land_block_struct.hpp"

namespace dereth::sim {

class PhysicsObj;

// Retail's noise scale, the float 2.3283064e-10: exactly 2^-32, so a u32
// hash becomes a fraction in [0, 1).
inline constexpr double kSceneNoiseScale = 1.0 / 4294967296.0;

// CLandBlock::get_land_scenes 0x00530460: which of a scene type's `count`
// scenes vertex (ix, iy) (world vertex numbers: the block's x * 8 + the
// vertex's) takes; 0 for one scene or an index that rounds to count.
[[nodiscard]] std::uint32_t scene_index(std::uint32_t ix, std::uint32_t iy, std::uint32_t count) noexcept;
// CLandBlock::get_land_scenes 0x00530460: the noise object k of the vertex's
// scene is compared with its freq ([0, 1)).
[[nodiscard]] double scene_object_noise(std::uint32_t ix, std::uint32_t iy, std::uint32_t k) noexcept;
// ObjectDesc::Place 0x005A5BB0: the object's offset within the vertex's cell:
// base_loc displaced by up to displace_x / displace_y, then turned by a
// quarter turn 0..3 picked by the vertex.
[[nodiscard]] glm::vec3 place(const dat::ObjectDesc& desc, std::uint32_t ix, std::uint32_t iy,
                              std::uint32_t iq) noexcept;
// ObjectDesc::GetObjFrame 0x005A5D50: base_loc's orientation at `loc`, turned
// to a heading of up to max_rot degrees when max_rot > 0.
[[nodiscard]] core::Frame get_obj_frame(const dat::ObjectDesc& desc, std::uint32_t x, std::uint32_t y, std::uint32_t k,
                                        const glm::vec3& loc) noexcept;
// ObjectDesc::ObjAlign 0x005A5E50: base_loc's orientation at `loc`, turned to
// the heading of the plane normal's negation (up the slope; 0 on flat
// ground, AC1Legacy::Vector3::get_heading's small-vector answer).
[[nodiscard]] core::Frame obj_align(const dat::ObjectDesc& desc, const glm::vec3& normal,
                                    const glm::vec3& loc) noexcept;
// ObjectDesc::ScaleObj 0x0052F0C0: max_scale when min and max agree, else
// min * (max / min)^noise.
[[nodiscard]] float scale_obj(const dat::ObjectDesc& desc, std::uint32_t x, std::uint32_t y, std::uint32_t k) noexcept;
// ObjectDesc::CheckSlope 0x0052F090: min_slope <= z <= max_slope.
[[nodiscard]] bool check_slope(const dat::ObjectDesc& desc, float z) noexcept;
// CLandBlock::on_road 0x0052FFF0: whether the block-local point (x, y in
// [0, 192)) lies on the road the terrain words' road bits (0..1) draw
// through its cell: within 5 m of a road corner's sides or diagonal.
[[nodiscard]] bool on_road(const LandBlockStruct& block, const glm::vec3& point) noexcept;
// CPhysicsObj::obj_within_block 0x00511030: whether the object's bounds (its
// sorting sphere with a physics BSP, else each cylinder, else the sorting
// sphere with spheres, else its origin) lie inside its landblock's
// 192 m square (its position's frame is block-local).
[[nodiscard]] bool obj_within_block(const PhysicsObj& obj) noexcept;

// One object get_land_scenes would make (up to CPhysicsObj::makeObject).
struct ScenePlacement {
  dat::Did obj_id = 0;         // Setup or GfxObj
  std::size_t cell_index = 0;  // the land cell, x * 8 + y
  core::Frame frame;           // block-local
  float scale = 1.0F;
  bool operator==(const ScenePlacement&) const = default;
};

// A Scene by id (the portal's record cache), null when absent or refused.
using SceneLookup = std::function<std::shared_ptr<const dat::Scene>(dat::Did)>;
// Whether land cell x * 8 + y holds a building (CSortCell::has_building).
using HasBuilding = std::function<bool(std::size_t)>;

// CLandBlock::get_land_scenes 0x00530460, up to makeObject: for each of the
// block's 9 x 9 vertices (x outer), the scene its terrain word's type and
// scene bits pick from the Region, and each of its objects that the noise
// keeps (and is not a server's weenie object): placed in the block, not on a
// road, in a cell without a building, over terrain whose slope it accepts,
// at the terrain's height.
[[nodiscard]] std::vector<ScenePlacement> get_land_scenes(const LandBlockStruct& block, const dat::Region& region,
                                                          const SceneLookup& scenes, const HasBuilding& has_building);

// The id of a landblock's n-th scenery object: 0x8XXYYIII (the scenery
// class bit, the block's x and y, a 12-bit counter); none once the counter
// passes 0xFFF, where it would run into the next block's ids.
inline constexpr std::uint32_t kSceneryIdBit = 0x80000000u;
inline constexpr std::uint32_t kMaxSceneryPerBlock = 0x1000u;
[[nodiscard]] std::optional<std::uint32_t> scenery_id(std::uint32_t block_id, std::uint32_t counter) noexcept;

}  // namespace dereth::sim
