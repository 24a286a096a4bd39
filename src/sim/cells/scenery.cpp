// Procedural scenery (CLandBlock::get_land_scenes and the ObjectDesc rules it
// calls), retail's arithmetic: every hash is unsigned 32-bit arithmetic that
// wraps, scaled to [0, 1) by 2^-32 in double.
#include "dereth/sim/cells/scenery.hpp"

#include <cmath>

#include <glm/geometric.hpp>

#include "dereth/dat/land_block.hpp"
#include "dereth/protocol/physics_desc.hpp"
#include "dereth/sim/cells/land_defs.hpp"
#include "dereth/sim/object/part_array.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/position.hpp"

namespace dereth::sim {

namespace {

constexpr float kCellLength = 24.0F;  // LandDefs::square_length
constexpr float kRoadWidth = 5.0F;    // CLandBlock::on_road's road half-width at a corner
constexpr std::size_t kSide = dat::kLandBlockSide;

double noise(std::uint32_t hash) noexcept {
  return static_cast<double>(hash) * kSceneNoiseScale;
}

// The hash ObjectDesc's rules share: salt 45773 (x displacement), 72719 (y),
// 63127 (heading), 32593 (scale).
std::uint32_t object_hash(std::uint32_t x, std::uint32_t y, std::uint32_t k, std::uint32_t salt) noexcept {
  return 1813693831u * y - (k + salt) * (1360117743u * y * x + 1888038839u) - 1109124029u * x;
}

bool road(const LandBlockStruct& block, std::size_t x, std::size_t y) noexcept {
  return (block.terrain()[dat::land_block_vertex(x, y)] & 3u) != 0;
}

// Plane::set_height 0x0052F050: z on the plane under (x, y); unchanged on a
// near-vertical plane.
void set_height(const dat::Plane& plane, glm::vec3& point) noexcept {
  if (std::fabs(plane.normal.z) <= 0.00019999999F) return;
  point.z = -((point.y * plane.normal.y + point.x * plane.normal.x + plane.d) / plane.normal.z);
}

}  // namespace

// CLandBlock::get_land_scenes 0x00530460 (the scene pick)
std::uint32_t scene_index(std::uint32_t ix, std::uint32_t iy, std::uint32_t count) noexcept {
  if (count <= 1) return 0;
  const std::uint32_t hash = iy * (712977289u * ix + 1813693831u) - 1109124029u * ix + 2139937281u;
  const double index = std::floor(noise(hash) * static_cast<double>(count));
  return index >= static_cast<double>(count) ? 0 : static_cast<std::uint32_t>(index);
}

// CLandBlock::get_land_scenes 0x00530460 (each object's chance)
double scene_object_noise(std::uint32_t ix, std::uint32_t iy, std::uint32_t k) noexcept {
  return noise(object_hash(ix, iy, k, 23399u));
}

// ObjectDesc::Place 0x005A5BB0
glm::vec3 place(const dat::ObjectDesc& desc, std::uint32_t ix, std::uint32_t iy, std::uint32_t iq) noexcept {
  const glm::vec3& base = desc.base_loc.origin;
  float x = base.x;
  float y = base.y;
  if (desc.displace_x > 0.0F) {
    x = static_cast<float>(noise(object_hash(ix, iy, iq, 45773u)) * desc.displace_x + base.x);
  }
  if (desc.displace_y > 0.0F) {
    y = static_cast<float>(noise(object_hash(ix, iy, iq, 72719u)) * desc.displace_y + base.y);
  }
  const double quarter = noise(1813693831u * iy - ix * (1870387557u * iy + 1109124029u) - 402451965u);
  if (quarter < 0.25) return {x, y, base.z};
  if (quarter < 0.5) return {-y, x, base.z};
  if (quarter < 0.75) return {-x, -y, base.z};
  return {y, -x, base.z};
}

// ObjectDesc::GetObjFrame 0x005A5D50
core::Frame get_obj_frame(const dat::ObjectDesc& desc, std::uint32_t x, std::uint32_t y, std::uint32_t k,
                          const glm::vec3& loc) noexcept {
  core::Frame frame(loc, desc.base_loc.orientation);
  if (desc.max_rot > 0.0F) {
    frame.set_heading(static_cast<float>(noise(object_hash(x, y, k, 63127u)) * desc.max_rot));
  }
  return frame;
}

// ObjectDesc::ObjAlign 0x005A5E50
core::Frame obj_align(const dat::ObjectDesc& desc, const glm::vec3& normal, const glm::vec3& loc) noexcept {
  core::Frame frame(loc, desc.base_loc.orientation);
  // AC1Legacy::Vector3::get_heading 0x004575D0: 0 for a horizontal part
  // shorter than 0.0002 (normalize_check_small).
  const glm::vec3 down(-normal.x, -normal.y, 0.0F);
  const float heading = glm::length(down) < 0.00019999999F ? 0.0F : core::compass_heading(down);
  frame.set_heading(heading);
  return frame;
}

// ObjectDesc::ScaleObj 0x0052F0C0
float scale_obj(const dat::ObjectDesc& desc, std::uint32_t x, std::uint32_t y, std::uint32_t k) noexcept {
  if (desc.min_scale == desc.max_scale) return desc.max_scale;
  return static_cast<float>(
      std::pow(static_cast<double>(desc.max_scale / desc.min_scale), noise(object_hash(x, y, k, 32593u))) *
      desc.min_scale);
}

// ObjectDesc::CheckSlope 0x0052F090
bool check_slope(const dat::ObjectDesc& desc, float z) noexcept {
  return z >= desc.min_slope && z <= desc.max_slope;
}

// CLandBlock::on_road 0x0052FFF0: the corners of the point's cell that carry a
// road (south-west, north-west, south-east, north-east) decide which 5 m bands
// of the cell are road.
bool on_road(const LandBlockStruct& block, const glm::vec3& point) noexcept {
  const double fx = std::floor(static_cast<double>(point.x) / kCellLength);
  const double fy = std::floor(static_cast<double>(point.y) / kCellLength);
  if (!(fx >= 0.0 && fy >= 0.0 && fx < 8.0 && fy < 8.0)) return false;  // retail reads only in-block points
  const auto x = static_cast<std::size_t>(fx);
  const auto y = static_cast<std::size_t>(fy);
  const bool sw = road(block, x, y);
  const bool nw = road(block, x, y + 1);
  const bool se = road(block, x + 1, y);
  const bool ne = road(block, x + 1, y + 1);
  if (!sw && !nw && !se && !ne) return false;
  const float dx = point.x - static_cast<float>(fx) * kCellLength;
  const float dy = point.y - static_cast<float>(fy) * kCellLength;
  constexpr float kMin = kRoadWidth;
  constexpr float kMax = kCellLength - kRoadWidth;
  const int corners = (sw ? 1 : 0) | (nw ? 2 : 0) | (se ? 4 : 0) | (ne ? 8 : 0);
  switch (corners) {
    case 1 | 2 | 4 | 8: return true;
    case 1 | 2 | 4: return dx < kMin || dy < kMin;               // west and south sides
    case 1 | 2 | 8: return dx < kMin || dy > kMax;               // west and north
    case 1 | 4 | 8: return dx > kMax || dy < kMin;               // east and south
    case 2 | 4 | 8: return dx > kMax || dy > kMax;               // east and north
    case 1 | 2: return dx < kMin;                                // the west side
    case 4 | 8: return dx > kMax;                                // the east side
    case 1 | 4: return dy < kMin;                                // the south side
    case 2 | 8: return dy > kMax;                                // the north side
    case 1 | 8: return std::fabs(dx - dy) < kMin;                // the south-west to north-east diagonal
    case 2 | 4: return std::fabs(dx + dy - kCellLength) < kMin;  // the north-west to south-east diagonal
    case 1: return dx + dy < kMin;                               // one corner: the triangle at it
    case 2: return kCellLength + dx - dy < kMin;
    case 4: return kCellLength - dx + dy < kMin;
    default: return 2.0F * kCellLength - dx - dy < kMin;  // 8: the north-east corner
  }
}

// CPhysicsObj::obj_within_block 0x00511030
bool obj_within_block(const PhysicsObj& obj) noexcept {
  const PartArray* parts = obj.part_array();
  const core::Frame& frame = obj.position().frame;
  const auto sorting_within = [&] {
    const dat::Sphere sphere = parts != nullptr ? parts->sorting_sphere() : dat::Sphere{};  // dummy_sphere
    return LandDefs::within_block(frame.localtoglobal(sphere.center), sphere.radius);
  };
  if ((obj.state() & protocol::physics_state::HasPhysicsBsp) != 0) return sorting_within();
  if (parts != nullptr && !parts->cyl_spheres().empty()) {
    for (const dat::CylSphere& c : parts->cyl_spheres()) {
      if (!LandDefs::within_block(frame.localtoglobal(c.origin), c.radius)) return false;
    }
    return true;
  }
  if (parts != nullptr && parts->num_spheres() != 0) return sorting_within();
  return LandDefs::within_block(frame.origin, 0.0F);
}

// CLandBlock::get_land_scenes 0x00530460 (up to CPhysicsObj::makeObject)
std::vector<ScenePlacement> get_land_scenes(const LandBlockStruct& block, const dat::Region& region,
                                            const SceneLookup& scenes, const HasBuilding& has_building) {
  std::vector<ScenePlacement> out;
  if (!region.scene) return out;
  const auto& terrain_types = region.terrain.terrain_types;
  const auto& scene_types = region.scene->scene_types;
  const std::uint32_t block_x = ((block.block_id() >> 24) & 0xFFu) * 8u;  // block_coord, in cells
  const std::uint32_t block_y = ((block.block_id() >> 16) & 0xFFu) * 8u;
  for (std::size_t vx = 0; vx < kSide; ++vx) {
    for (std::size_t vy = 0; vy < kSide; ++vy) {
      const std::uint16_t word = block.terrain()[dat::land_block_vertex(vx, vy)];
      const std::uint32_t type = (word >> 2) & 0x1Fu;
      const std::uint32_t scene_type = static_cast<std::uint32_t>(word) >> 11;
      // CRegionDesc::NumSceneType / SceneCount / GetScene (CTerrainDesc's):
      // a terrain type's scene types index the Region's SceneDesc.
      if (type >= terrain_types.size() || scene_type >= terrain_types[type].scene_types.size()) continue;
      const std::uint32_t desc_index = terrain_types[type].scene_types[scene_type];
      if (desc_index >= scene_types.size()) continue;
      const auto& ids = scene_types[desc_index].scenes;
      if (ids.empty()) continue;
      const std::uint32_t ix = static_cast<std::uint32_t>(vx) + block_x;
      const std::uint32_t iy = static_cast<std::uint32_t>(vy) + block_y;
      const dat::Did scene_id = ids[scene_index(ix, iy, static_cast<std::uint32_t>(ids.size()))];
      if (scene_id == 0) continue;
      const auto scene = scenes(scene_id);
      if (!scene) continue;
      for (std::size_t k = 0; k < scene->objects.size(); ++k) {
        const dat::ObjectDesc& desc = scene->objects[k];
        const auto kq = static_cast<std::uint32_t>(k);
        if (!(scene_object_noise(ix, iy, kq) < static_cast<double>(desc.freq)) || desc.weenie_obj != 0) continue;
        glm::vec3 loc = place(desc, ix, iy, kq);
        loc.x = static_cast<float>(static_cast<double>(vx) * kCellLength + loc.x);
        loc.y = static_cast<float>(static_cast<double>(vy) * kCellLength + loc.y);
        if (!(loc.x >= 0.0F && loc.y >= 0.0F && loc.x < LandDefs::kBlockLength && loc.y < LandDefs::kBlockLength)) {
          continue;
        }
        if (on_road(block, loc)) continue;
        // Position::get_outside_cell_id, CLandBlock::get_landcell
        const auto cx = static_cast<std::size_t>(loc.x / kCellLength);
        const auto cy = static_cast<std::size_t>(loc.y / kCellLength);
        const std::size_t cell = std::min<std::size_t>(cx, 7) * 8 + std::min<std::size_t>(cy, 7);
        if (has_building && has_building(cell)) continue;                  // CSortCell::has_building
        const LandPolygon* walkable = block.find_terrain_poly(cell, loc);  // CLandCell::find_terrain_poly
        if (walkable == nullptr || !check_slope(desc, walkable->plane.normal.z)) continue;
        set_height(walkable->plane, loc);
        ScenePlacement p;
        p.obj_id = desc.obj_id;
        p.cell_index = cell;
        p.frame = desc.align != 0 ? obj_align(desc, walkable->plane.normal, loc) : get_obj_frame(desc, ix, iy, kq, loc);
        p.scale = scale_obj(desc, ix, iy, kq);
        out.push_back(p);
      }
    }
  }
  return out;
}

std::optional<std::uint32_t> scenery_id(std::uint32_t block_id, std::uint32_t counter) noexcept {
  if (counter >= kMaxSceneryPerBlock) return std::nullopt;
  const std::uint32_t x = (block_id >> 24) & 0xFFu;
  const std::uint32_t y = (block_id >> 16) & 0xFFu;
  return kSceneryIdBit | (x << 20) | (y << 12) | counter;
}

}  // namespace dereth::sim
