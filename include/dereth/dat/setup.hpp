#pragma once
// Setup (0x02), CSetup::UnPack (spec/dat-format.md 3.2): the parts of an
// object, their placement frames, collision shapes, lights and default DIDs.
// Part frames are absolute object-space transforms; parent_indices are
// attachment metadata, not a bone hierarchy.

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/animation.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

// A holding location or connection point: LocationType {i32 partId, Frame}
// under its i32 key (ParentLocation for holding locations).
struct SetupLocation {
  std::int32_t key = 0;
  std::int32_t part_id = 0;
  Frame frame;
  bool operator==(const SetupLocation&) const = default;
};

// A placement frame: u32 Placement key, then an AnimationFrame with one frame
// per part.
struct SetupPlacement {
  std::uint32_t key = 0;
  AnimationFrame frame;
  bool operator==(const SetupPlacement&) const = default;
};

// LightInfo (44 bytes with its key).
struct SetupLight {
  std::int32_t key = 0;
  Frame view_space_location;
  std::uint32_t color = 0;  // 0xAARRGGBB
  float intensity = 0;
  float falloff = 0;
  float cone_angle = 0;
  bool operator==(const SetupLight&) const = default;
};

struct Setup {
  Did id = 0;
  std::uint32_t flags = 0;
  std::vector<Did> parts;  // GfxObj DIDs
  // One per part, written only with kHasParent (root presumably 0xFFFFFFFF).
  std::vector<std::uint32_t> parent_indices;
  // One per part, written only with kHasDefaultScale.
  std::vector<glm::vec3> default_scales;
  std::vector<SetupLocation> holding_locations;
  std::vector<SetupLocation> connection_points;
  std::vector<SetupPlacement> placement_frames;
  std::vector<CylSphere> cyl_spheres;
  std::vector<Sphere> spheres;
  float height = 0;
  float radius = 0;
  float step_up_height = 0;  // step-up precedes step-down on disk
  float step_down_height = 0;
  Sphere sorting_sphere;
  Sphere selection_sphere;
  std::vector<SetupLight> lights;
  Did default_animation = 0;     // 0x03...
  Did default_script = 0;        // 0x33... PhysicsScript
  Did default_motion_table = 0;  // 0x09...
  Did default_sound_table = 0;   // 0x20...
  Did default_script_table = 0;  // 0x34... PhysicsScriptTable

  static constexpr std::uint32_t kHasParent = 0x1;
  static constexpr std::uint32_t kHasDefaultScale = 0x2;
  static constexpr std::uint32_t kAllowFreeHeading = 0x4;
  static constexpr std::uint32_t kHasPhysicsBsp = 0x8;

  bool operator==(const Setup&) const = default;
};

Result<Setup> read_setup(std::span<const std::uint8_t> bytes, Did id);
// The per-part lists (parent indices, default scales, each placement frame's
// part frames) are written with exactly parts.size() entries: missing ones
// as 0xFFFFFFFF, scale (1,1,1) or the identity frame; extra ones dropped.
std::vector<std::uint8_t> write_setup(const Setup& setup);
void write_json(core::JsonWriter& j, const Setup& setup);

}  // namespace dereth::dat
