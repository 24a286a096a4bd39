#pragma once
// Scene (portal 0x12xxxxxx): the objects a landblock vertex's scene places,
// each an ObjectDesc with the ranges retail's pseudo-random rule picks from
// (CLandBlock::get_land_scenes 0x00530460; Scene::UnPack 0x005A6300,
// ObjectDesc::UnPack 0x005A6110). Layout: docs/dat.md "Scene".

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

// ObjectDesc (76 bytes on disk). The defaults are retail's constructor's
// (ObjectDesc::ObjectDesc 0x005A5DF0).
struct ObjectDesc {
  Did obj_id = 0;           // Setup 0x02... or GfxObj 0x01...
  Frame base_loc;           // offset and orientation within the vertex's cell
  float freq = 1.0F;        // the chance it appears
  float displace_x = 0.0F;  // the range of its pseudo-random displacement
  float displace_y = 0.0F;
  float min_scale = 1.0F;
  float max_scale = 1.0F;
  float max_rot = 0.0F;    // degrees of pseudo-random heading
  float min_slope = 0.0F;  // the terrain normal's z it accepts
  float max_slope = 90.0F;
  std::uint32_t align = 0;  // nonzero: faces down the terrain's slope
  std::uint32_t orient = 0;
  std::uint32_t weenie_obj = 0;  // nonzero: a server's object, not placed by the client
  bool operator==(const ObjectDesc&) const = default;
};

inline constexpr std::size_t kObjectDescBytes = 4 + 28 + 8 * 4 + 3 * 4;

struct Scene {
  Did id = 0;
  std::vector<ObjectDesc> objects;
  bool operator==(const Scene&) const = default;
};

Result<Scene> read_scene(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_scene(const Scene& scene);
void write_json(core::JsonWriter& j, const Scene& scene);

}  // namespace dereth::dat
