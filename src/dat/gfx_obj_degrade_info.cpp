#include "dereth/dat/gfx_obj_degrade_info.hpp"

#include <string>

namespace dereth::dat {

namespace {
constexpr std::size_t kDegradeBytes = 20;  // u32, u32, 3 x f32
}  // namespace

// GfxObjDegradeInfo::UnPack 0x0051E400
Result<GfxObjDegradeInfo> read_gfx_obj_degrade_info(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "GfxObjDegradeInfo");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  GfxObjDegradeInfo info;
  info.id = id;
  DERETH_TRY(const std::size_t count, read_count(r, kDegradeBytes, "count"));
  info.degrades.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    GfxObjDegrade d;
    DERETH_TRY(d.gfx_obj, r.u32("gfx_obj"));
    DERETH_TRY(d.degrade_mode, r.u32("degrade_mode"));
    DERETH_TRY(d.min_dist, r.f32("min_dist"));
    DERETH_TRY(d.ideal_dist, r.f32("ideal_dist"));
    DERETH_TRY(d.max_dist, r.f32("max_dist"));
    info.degrades.push_back(d);
  }
  DERETH_CHECK(r.expect_end());
  return info;
}

std::vector<std::uint8_t> write_gfx_obj_degrade_info(const GfxObjDegradeInfo& info) {
  ByteWriter w;
  w.u32(info.id);
  w.u32(static_cast<std::uint32_t>(info.degrades.size()));
  for (const GfxObjDegrade& d : info.degrades) {
    w.u32(d.gfx_obj);
    w.u32(d.degrade_mode);
    w.f32(d.min_dist);
    w.f32(d.ideal_dist);
    w.f32(d.max_dist);
  }
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const GfxObjDegradeInfo& info) {
  j.begin_object();
  j.key("type").string("GfxObjDegradeInfo");
  j.key("id").hex(info.id);
  j.key("degrades").begin_array();
  for (const GfxObjDegrade& d : info.degrades) {
    j.begin_object();
    j.key("gfx_obj").hex(d.gfx_obj);
    j.key("degrade_mode").number(d.degrade_mode);
    j.key("min_dist").f32(d.min_dist);
    j.key("ideal_dist").f32(d.ideal_dist);
    j.key("max_dist").f32(d.max_dist);
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

}  // namespace dereth::dat
