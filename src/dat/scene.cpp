#include "dereth/dat/scene.hpp"

#include <string>

namespace dereth::dat {

// Scene::UnPack 0x005A6300 and ObjectDesc::UnPack 0x005A6110; retail reads a
// short record's missing fields as their defaults, here it is Truncated.
Result<Scene> read_scene(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "Scene");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  Scene scene;
  scene.id = id;
  DERETH_TRY(const std::size_t count, read_count(r, kObjectDescBytes, "num_objects"));
  scene.objects.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    ObjectDesc o;
    DERETH_TRY(o.obj_id, r.u32("objects.obj_id"));
    DERETH_TRY(o.base_loc, read_frame(r, "objects.base_loc"));
    DERETH_TRY(o.freq, r.f32("objects.freq"));
    DERETH_TRY(o.displace_x, r.f32("objects.displace_x"));
    DERETH_TRY(o.displace_y, r.f32("objects.displace_y"));
    DERETH_TRY(o.min_scale, r.f32("objects.min_scale"));
    DERETH_TRY(o.max_scale, r.f32("objects.max_scale"));
    DERETH_TRY(o.max_rot, r.f32("objects.max_rot"));
    DERETH_TRY(o.min_slope, r.f32("objects.min_slope"));
    DERETH_TRY(o.max_slope, r.f32("objects.max_slope"));
    DERETH_TRY(o.align, r.u32("objects.align"));
    DERETH_TRY(o.orient, r.u32("objects.orient"));
    DERETH_TRY(o.weenie_obj, r.u32("objects.weenie_obj"));
    scene.objects.push_back(o);
  }
  DERETH_CHECK(r.expect_end());
  return scene;
}

// Scene::Pack 0x005A6270, ObjectDesc::Pack 0x005A5FF0
std::vector<std::uint8_t> write_scene(const Scene& scene) {
  ByteWriter w;
  w.u32(scene.id);
  w.u32(static_cast<std::uint32_t>(scene.objects.size()));
  for (const ObjectDesc& o : scene.objects) {
    w.u32(o.obj_id);
    write_frame(w, o.base_loc);
    w.f32(o.freq);
    w.f32(o.displace_x);
    w.f32(o.displace_y);
    w.f32(o.min_scale);
    w.f32(o.max_scale);
    w.f32(o.max_rot);
    w.f32(o.min_slope);
    w.f32(o.max_slope);
    w.u32(o.align);
    w.u32(o.orient);
    w.u32(o.weenie_obj);
  }
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const Scene& scene) {
  j.begin_object();
  j.key("type").string("Scene");
  j.key("id").hex(scene.id);
  j.key("objects").begin_array();
  for (const ObjectDesc& o : scene.objects) {
    j.begin_object();
    j.key("obj_id").hex(o.obj_id);
    j.key("base_loc");
    json_frame(j, o.base_loc);
    j.key("freq").f32(o.freq);
    j.key("displace_x").f32(o.displace_x);
    j.key("displace_y").f32(o.displace_y);
    j.key("min_scale").f32(o.min_scale);
    j.key("max_scale").f32(o.max_scale);
    j.key("max_rot").f32(o.max_rot);
    j.key("min_slope").f32(o.min_slope);
    j.key("max_slope").f32(o.max_slope);
    j.key("align").number(o.align);
    j.key("orient").number(o.orient);
    j.key("weenie_obj").number(o.weenie_obj);
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

}  // namespace dereth::dat
