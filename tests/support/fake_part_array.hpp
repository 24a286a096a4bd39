#pragma once
// The one fake sim::PartArray the tests and benchmarks configure: a shape
// (spheres, cylinders, step heights, a physics BSP posed at its owner), the
// per-part render setters it records, and, given an event log, the order of
// the lifecycle calls. What is not configured answers as the base PartArray,
// except that placement frames are accepted (accept_placement; the shape
// factories below refuse them, as PartArray does).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/sim/collision/bsp.hpp"
#include "dereth/sim/collision/gfx_obj_physics.hpp"
#include "dereth/sim/object/part_array.hpp"
#include "dereth/sim/object/physics_obj.hpp"

namespace dereth::test {

using EventLog = std::vector<std::string>;

class FakePartArray final : public sim::PartArray {
 public:
  FakePartArray() = default;
  explicit FakePartArray(EventLog& log) : log_(&log) {}

  // A walker or obstacle: one sphere of `radius` standing on the origin
  // (centre at z = radius) and the given step heights.
  static std::unique_ptr<FakePartArray> sphere(float radius, float step_height) {
    auto p = std::make_unique<FakePartArray>();
    p->sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, radius), radius}};
    p->sphere_count = 1;
    p->step_up = step_height;
    p->step_down = step_height;
    p->accept_placement = false;
    return p;
  }
  // A static object whose one part is the physics BSP `gfx` posed at `owner`.
  // A creature-sized obstacle: one cylinder sphere standing on the origin.
  static std::unique_ptr<FakePartArray> cylinder(float radius, float height) {
    auto p = std::make_unique<FakePartArray>();
    p->cyl_list = {dat::CylSphere{glm::vec3(0.0f), radius, height}};
    p->accept_placement = false;
    return p;
  }
  static std::unique_ptr<FakePartArray> bsp(const sim::PhysicsObj& owner, std::shared_ptr<const sim::GfxObjPhysics> gfx,
                                            std::optional<std::size_t> parts = 1) {
    auto p = std::make_unique<FakePartArray>();
    p->bsp_owner = &owner;
    p->bsp_physics = std::move(gfx);
    p->parts = parts;
    p->accept_placement = false;
    return p;
  }

  void update(sim::FloatSeconds quantum, core::Frame& offset) override {
    quanta.push_back(quantum.count());
    log("part_update");
    offset.origin += root_motion;
  }
  bool has_anims() const override { return anims; }
  std::size_t num_spheres() const override { return sphere_count; }
  std::span<const dat::Sphere> spheres() const override { return sphere_list; }
  std::span<const dat::CylSphere> cyl_spheres() const override { return cyl_list; }
  float step_up_height() const override { return step_up; }
  float step_down_height() const override { return step_down; }
  bool allows_free_heading() const override { return free_heading; }
  float get_radius() const override { return radius; }
  float get_height() const override { return height; }
  dat::Sphere sorting_sphere() const override { return sorting; }
  bool set_motion_table_id(std::uint32_t id) override {
    motion_tables.push_back(id);
    return accept_motion_table;
  }
  bool set_placement_frame(std::uint32_t id) override {
    placements.push_back(id);
    log("placement:" + std::to_string(id));
    return accept_placement;
  }
  void set_frame(const core::Frame& /*frame*/) override { ++set_frames; }
  void init_lights() override {
    ++lights_on;
    log("init_lights");
  }
  void destroy_lights() override {
    ++lights_off;
    log("destroy_lights");
  }
  void set_no_draw(bool no_draw) override {
    no_draw_calls.push_back(no_draw);
    log(no_draw ? "no_draw:1" : "no_draw:0");
  }
  void handle_enter_world() override { log("enter_world"); }
  void handle_exit_world() override { log("exit_world"); }
  void set_scale(const glm::vec3& s) override { scale = s; }
  void set_translucency(float t) override { translucency = t; }
  void set_part_translucency(std::uint32_t part, float value) override {
    calls.push_back({"translucency", part, value});
  }
  void set_part_luminosity(std::uint32_t part, float value) override { calls.push_back({"luminosity", part, value}); }
  void set_part_diffusion(std::uint32_t part, float value) override { calls.push_back({"diffusion", part, value}); }
  void replace_part_gfx(std::uint32_t part, std::uint32_t gfx) override { replaced.emplace_back(part, gfx); }
  std::size_t num_parts() const override { return parts ? *parts : sim::PartArray::num_parts(); }
  sim::TransitionState find_obj_collisions(sim::Transition& t) override {
    if (bsp_physics == nullptr) return sim::PartArray::find_obj_collisions(t);
    return sim::find_part_collisions(bsp_physics.get(), bsp_owner->position(), 1.0f, t);
  }
  std::optional<core::Frame> part_frame(std::uint32_t index) const override {
    if (auto it = part_frames.find(index); it != part_frames.end()) return it->second;
    return std::nullopt;
  }
  void part_bounds(std::uint32_t owner_cell, std::vector<sim::PartBounds>& out) const override {
    for (sim::PartBounds b : bounds_list) {
      b.pos.objcell_id = owner_cell;
      out.push_back(b);
    }
  }
  std::optional<sim::HoldingLocation> holding_location(std::uint32_t where) const override {
    if (auto it = holding.find(where); it != holding.end()) return it->second;
    return std::nullopt;
  }

  // The shape.
  bool anims = false;
  std::size_t sphere_count = 0;
  std::vector<dat::Sphere> sphere_list;  // the collision spheres (Setup space)
  std::vector<dat::CylSphere> cyl_list;
  std::vector<sim::PartBounds> bounds_list;  // the parts' bounds, frames block-local
  float step_up = 0.0099999998f;             // PartArray's defaults
  float step_down = 0.0099999998f;
  bool free_heading = false;
  float radius = 0.0f;
  float height = 0.0f;
  dat::Sphere sorting;               // the Setup's sorting sphere
  std::optional<std::size_t> parts;  // num_parts; none: PartArray's
  const sim::PhysicsObj* bsp_owner = nullptr;
  std::shared_ptr<const sim::GfxObjPhysics> bsp_physics;  // find_obj_collisions' one part
  bool accept_motion_table = true;
  bool accept_placement = true;
  glm::vec3 root_motion{0.0f};
  std::map<std::uint32_t, sim::HoldingLocation> holding;
  std::map<std::uint32_t, core::Frame> part_frames;

  // What was called.
  struct Call {
    std::string what;
    std::uint32_t part;
    float value;
  };
  std::vector<float> quanta;
  std::vector<std::uint32_t> placements;
  std::vector<std::uint32_t> motion_tables;
  int set_frames = 0;
  glm::vec3 scale{1.0f};
  float translucency = 0.0f;
  std::vector<Call> calls;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> replaced;
  std::vector<bool> no_draw_calls;
  int lights_on = 0;
  int lights_off = 0;

 private:
  void log(std::string entry) {
    if (log_ != nullptr) log_->push_back(std::move(entry));
  }
  EventLog* log_ = nullptr;
};

}  // namespace dereth::test
