#include "dereth/dat/setup.hpp"

namespace dereth::dat {

namespace {

constexpr std::size_t kFrameSize = 28;
constexpr std::size_t kLocationSize = 4 + 4 + kFrameSize;
constexpr std::size_t kLightSize = 4 + kFrameSize + 4 + 4 + 4 + 4;

using core::JsonWriter;

Result<std::vector<SetupLocation>> read_locations(ByteReader& r, std::string_view count_field, std::string_view field) {
  DERETH_TRY(const std::size_t count, read_count(r, kLocationSize, count_field));
  std::vector<SetupLocation> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    SetupLocation loc;
    DERETH_TRY(loc.key, r.i32(field));
    DERETH_TRY(loc.part_id, r.i32(field));
    DERETH_TRY(loc.frame, read_frame(r, field));
    out.push_back(loc);
  }
  return out;
}

void write_locations(ByteWriter& w, const std::vector<SetupLocation>& locations) {
  w.u32(static_cast<std::uint32_t>(locations.size()));
  for (const auto& loc : locations) {
    w.i32(loc.key);
    w.i32(loc.part_id);
    write_frame(w, loc.frame);
  }
}

void json_locations(JsonWriter& j, const std::vector<SetupLocation>& locations) {
  j.begin_array();
  for (const auto& loc : locations) {
    j.begin_object();
    j.key("key").number(loc.key);
    j.key("part_id").number(loc.part_id);
    j.key("frame");
    json_frame(j, loc.frame);
    j.end_object();
  }
  j.end_array();
}

}  // namespace

Result<Setup> read_setup(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "Setup");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  Setup s;
  s.id = id;
  DERETH_TRY(s.flags, r.u32("flags"));
  DERETH_TRY(const std::size_t num_parts, read_count(r, 4, "num_parts"));
  s.parts.reserve(num_parts);
  for (std::size_t i = 0; i < num_parts; ++i) {
    DERETH_TRY(const Did part, r.u32("parts"));
    s.parts.push_back(part);
  }
  if ((s.flags & Setup::kHasParent) != 0) {
    DERETH_CHECK(r.require(4 * num_parts, "parent_indices"));
    s.parent_indices.reserve(num_parts);
    for (std::size_t i = 0; i < num_parts; ++i) {
      DERETH_TRY(const std::uint32_t parent, r.u32("parent_indices"));
      s.parent_indices.push_back(parent);
    }
  }
  if ((s.flags & Setup::kHasDefaultScale) != 0) {
    DERETH_CHECK(r.require(12 * num_parts, "default_scales"));
    s.default_scales.reserve(num_parts);
    for (std::size_t i = 0; i < num_parts; ++i) {
      DERETH_TRY(const glm::vec3 scale, read_vec3(r, "default_scales"));
      s.default_scales.push_back(scale);
    }
  }
  DERETH_TRY(s.holding_locations, read_locations(r, "num_holding_locations", "holding_locations"));
  DERETH_TRY(s.connection_points, read_locations(r, "num_connection_points", "connection_points"));

  const auto parts32 = static_cast<std::uint32_t>(num_parts);
  DERETH_TRY(const std::size_t num_placements, read_count(r, 4 + kFrameSize * num_parts + 4, "num_placement_frames"));
  s.placement_frames.reserve(num_placements);
  for (std::size_t i = 0; i < num_placements; ++i) {
    SetupPlacement placement;
    DERETH_TRY(placement.key, r.u32("placement_frames.key"));
    DERETH_TRY(placement.frame, read_animation_frame(r, parts32));
    s.placement_frames.push_back(std::move(placement));
  }

  DERETH_TRY(const std::size_t num_cyl, read_count(r, 20, "num_cyl_spheres"));
  s.cyl_spheres.reserve(num_cyl);
  for (std::size_t i = 0; i < num_cyl; ++i) {
    DERETH_TRY(const CylSphere c, read_cyl_sphere(r, "cyl_spheres"));
    s.cyl_spheres.push_back(c);
  }
  DERETH_TRY(const std::size_t num_spheres, read_count(r, 16, "num_spheres"));
  s.spheres.reserve(num_spheres);
  for (std::size_t i = 0; i < num_spheres; ++i) {
    DERETH_TRY(const Sphere sphere, read_sphere(r, "spheres"));
    s.spheres.push_back(sphere);
  }

  DERETH_TRY(s.height, r.f32("height"));
  DERETH_TRY(s.radius, r.f32("radius"));
  DERETH_TRY(s.step_up_height, r.f32("step_up_height"));
  DERETH_TRY(s.step_down_height, r.f32("step_down_height"));
  DERETH_TRY(s.sorting_sphere, read_sphere(r, "sorting_sphere"));
  DERETH_TRY(s.selection_sphere, read_sphere(r, "selection_sphere"));

  DERETH_TRY(const std::size_t num_lights, read_count(r, kLightSize, "num_lights"));
  s.lights.reserve(num_lights);
  for (std::size_t i = 0; i < num_lights; ++i) {
    SetupLight light;
    DERETH_TRY(light.key, r.i32("lights.key"));
    DERETH_TRY(light.view_space_location, read_frame(r, "lights.view_space_location"));
    DERETH_TRY(light.color, r.u32("lights.color"));
    DERETH_TRY(light.intensity, r.f32("lights.intensity"));
    DERETH_TRY(light.falloff, r.f32("lights.falloff"));
    DERETH_TRY(light.cone_angle, r.f32("lights.cone_angle"));
    s.lights.push_back(light);
  }

  DERETH_TRY(s.default_animation, r.u32("default_animation"));
  DERETH_TRY(s.default_script, r.u32("default_script"));
  DERETH_TRY(s.default_motion_table, r.u32("default_motion_table"));
  DERETH_TRY(s.default_sound_table, r.u32("default_sound_table"));
  DERETH_TRY(s.default_script_table, r.u32("default_script_table"));
  DERETH_CHECK(r.expect_end());
  return s;
}

std::vector<std::uint8_t> write_setup(const Setup& s) {
  ByteWriter w;
  const std::size_t n = s.parts.size();
  w.u32(s.id);
  w.u32(s.flags);
  w.u32(static_cast<std::uint32_t>(n));
  for (const Did part : s.parts) w.u32(part);
  if ((s.flags & Setup::kHasParent) != 0) {
    for (std::size_t i = 0; i < n; ++i) w.u32(i < s.parent_indices.size() ? s.parent_indices[i] : 0xFFFFFFFFU);
  }
  if ((s.flags & Setup::kHasDefaultScale) != 0) {
    for (std::size_t i = 0; i < n; ++i) {
      write_vec3(w, i < s.default_scales.size() ? s.default_scales[i] : glm::vec3(1.0F));
    }
  }
  write_locations(w, s.holding_locations);
  write_locations(w, s.connection_points);
  w.u32(static_cast<std::uint32_t>(s.placement_frames.size()));
  for (const auto& placement : s.placement_frames) {
    w.u32(placement.key);
    write_animation_frame(w, placement.frame, static_cast<std::uint32_t>(n));
  }
  w.u32(static_cast<std::uint32_t>(s.cyl_spheres.size()));
  for (const auto& c : s.cyl_spheres) write_cyl_sphere(w, c);
  w.u32(static_cast<std::uint32_t>(s.spheres.size()));
  for (const auto& sphere : s.spheres) write_sphere(w, sphere);
  w.f32(s.height);
  w.f32(s.radius);
  w.f32(s.step_up_height);
  w.f32(s.step_down_height);
  write_sphere(w, s.sorting_sphere);
  write_sphere(w, s.selection_sphere);
  w.u32(static_cast<std::uint32_t>(s.lights.size()));
  for (const auto& light : s.lights) {
    w.i32(light.key);
    write_frame(w, light.view_space_location);
    w.u32(light.color);
    w.f32(light.intensity);
    w.f32(light.falloff);
    w.f32(light.cone_angle);
  }
  w.u32(s.default_animation);
  w.u32(s.default_script);
  w.u32(s.default_motion_table);
  w.u32(s.default_sound_table);
  w.u32(s.default_script_table);
  return std::move(w).take();
}

void write_json(JsonWriter& j, const Setup& s) {
  j.begin_object();
  j.key("id").hex(s.id);
  j.key("flags").hex(s.flags);
  j.key("parts").begin_array();
  for (const Did part : s.parts) j.hex(part);
  j.end_array();
  if ((s.flags & Setup::kHasParent) != 0) {
    j.key("parent_indices").begin_array();
    for (const auto p : s.parent_indices) j.hex(p);
    j.end_array();
  }
  if ((s.flags & Setup::kHasDefaultScale) != 0) {
    j.key("default_scales").begin_array();
    for (const auto& v : s.default_scales) json_vec3(j, v);
    j.end_array();
  }
  j.key("holding_locations");
  json_locations(j, s.holding_locations);
  j.key("connection_points");
  json_locations(j, s.connection_points);
  j.key("placement_frames").begin_array();
  for (const auto& placement : s.placement_frames) {
    j.begin_object();
    j.key("key").number(placement.key);
    j.key("frame");
    write_json(j, placement.frame);
    j.end_object();
  }
  j.end_array();
  j.key("cyl_spheres").begin_array();
  for (const auto& c : s.cyl_spheres) {
    j.begin_object();
    j.key("origin");
    json_vec3(j, c.origin);
    j.key("radius").f32(c.radius);
    j.key("height").f32(c.height);
    j.end_object();
  }
  j.end_array();
  j.key("spheres").begin_array();
  for (const auto& sphere : s.spheres) json_sphere(j, sphere);
  j.end_array();
  j.key("height").f32(s.height);
  j.key("radius").f32(s.radius);
  j.key("step_up_height").f32(s.step_up_height);
  j.key("step_down_height").f32(s.step_down_height);
  j.key("sorting_sphere");
  json_sphere(j, s.sorting_sphere);
  j.key("selection_sphere");
  json_sphere(j, s.selection_sphere);
  j.key("lights").begin_array();
  for (const auto& light : s.lights) {
    j.begin_object();
    j.key("key").number(light.key);
    j.key("view_space_location");
    json_frame(j, light.view_space_location);
    j.key("color").hex(light.color);
    j.key("intensity").f32(light.intensity);
    j.key("falloff").f32(light.falloff);
    j.key("cone_angle").f32(light.cone_angle);
    j.end_object();
  }
  j.end_array();
  j.key("default_animation").hex(s.default_animation);
  j.key("default_script").hex(s.default_script);
  j.key("default_motion_table").hex(s.default_motion_table);
  j.key("default_sound_table").hex(s.default_sound_table);
  j.key("default_script_table").hex(s.default_script_table);
  j.end_object();
}

}  // namespace dereth::dat
