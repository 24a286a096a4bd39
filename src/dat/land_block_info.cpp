#include "dereth/dat/land_block_info.hpp"

#include <string>

namespace dereth::dat {

namespace {

constexpr std::size_t kStabSize = 4 + 28;
constexpr std::size_t kMinBuildingSize = 4 + 28 + 4 + 4;
constexpr std::size_t kMinPortalSize = 8;

Result<BuildingPortal> read_portal(ByteReader& r) {
  BuildingPortal p;
  DERETH_CHECK(r.require(kMinPortalSize, "buildings.portals"));
  p.flags = *r.u16("buildings.portals.flags");
  p.other_cell_id = *r.u16("buildings.portals.other_cell_id");
  p.other_portal_id = *r.u16("buildings.portals.other_portal_id");
  const std::uint16_t n = *r.u16("buildings.portals.num_stabs");
  DERETH_TRY(const std::size_t count, r.checked_count(n, 2, "buildings.portals.num_stabs"));
  p.stab_list.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    p.stab_list.push_back(*r.u16("buildings.portals.stab_list"));
  }
  // Retail skips two bytes after an odd stab count; every portal starts
  // 4-aligned, so that is alignment to 4 from the record start.
  DERETH_CHECK(r.align4("buildings.portals.padding"));
  return p;
}

}  // namespace

Result<Stab> read_stab(ByteReader& r, std::string_view field) {
  DERETH_CHECK(r.require(kStabSize, field));
  Stab s;
  s.id = *r.u32(field);
  s.frame = *read_frame(r, field);
  return s;
}

void write_stab(ByteWriter& w, const Stab& stab) {
  w.u32(stab.id);
  write_frame(w, stab.frame);
}

Result<LandBlockInfo> read_land_block_info(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "LandBlockInfo");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  LandBlockInfo info;
  info.id = id;
  DERETH_TRY(info.num_cells, r.u32("num_cells"));
  DERETH_TRY(const std::size_t num_objects, read_count(r, kStabSize, "num_objects"));
  info.objects.reserve(num_objects);
  for (std::size_t i = 0; i < num_objects; ++i) {
    DERETH_TRY(auto stab, read_stab(r, "objects"));
    info.objects.push_back(stab);
  }
  DERETH_TRY(const std::uint16_t num_buildings, r.u16("num_buildings"));
  DERETH_TRY(info.pack_flags, r.u16("pack_flags"));
  DERETH_TRY(const std::size_t buildings, r.checked_count(num_buildings, kMinBuildingSize, "num_buildings"));
  info.buildings.reserve(buildings);
  for (std::size_t b = 0; b < buildings; ++b) {
    BuildingInfo bi;
    DERETH_CHECK(r.require(4 + 28 + 4, "buildings"));
    bi.model_id = *r.u32("buildings.model_id");
    bi.frame = *read_frame(r, "buildings.frame");
    bi.num_leaves = *r.u32("buildings.num_leaves");
    DERETH_TRY(const std::size_t portals, read_count(r, kMinPortalSize, "buildings.num_portals"));
    bi.portals.reserve(portals);
    for (std::size_t p = 0; p < portals; ++p) {
      DERETH_TRY(auto portal, read_portal(r));
      bi.portals.push_back(std::move(portal));
    }
    info.buildings.push_back(std::move(bi));
  }
  if (info.has_restrictions()) {
    DERETH_TRY(const std::uint16_t count, r.u16("restrictions.count"));
    DERETH_TRY(info.restriction_buckets, r.u16("restrictions.buckets"));
    DERETH_TRY(const std::size_t n, r.checked_count(count, 8, "restrictions.count"));
    info.restrictions.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      RestrictionEntry e;
      e.key = *r.u32("restrictions.key");
      e.value = *r.u32("restrictions.value");
      info.restrictions.push_back(e);
    }
  }
  DERETH_CHECK(r.expect_end());
  return info;
}

std::vector<std::uint8_t> write_land_block_info(const LandBlockInfo& info) {
  ByteWriter w;
  w.u32(info.id);
  w.u32(info.num_cells);
  w.u32(static_cast<std::uint32_t>(info.objects.size()));
  for (const auto& s : info.objects) write_stab(w, s);
  w.u16(static_cast<std::uint16_t>(info.buildings.size()));
  w.u16(info.pack_flags);
  for (const auto& b : info.buildings) {
    w.u32(b.model_id);
    write_frame(w, b.frame);
    w.u32(b.num_leaves);
    w.u32(static_cast<std::uint32_t>(b.portals.size()));
    for (const auto& p : b.portals) {
      w.u16(p.flags);
      w.u16(p.other_cell_id);
      w.u16(p.other_portal_id);
      w.u16(static_cast<std::uint16_t>(p.stab_list.size()));
      for (const auto c : p.stab_list) w.u16(c);
      w.align4();
    }
  }
  if (info.has_restrictions()) {
    w.u16(static_cast<std::uint16_t>(info.restrictions.size()));
    w.u16(info.restriction_buckets);
    for (const auto& e : info.restrictions) {
      w.u32(e.key);
      w.u32(e.value);
    }
  }
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const LandBlockInfo& info) {
  j.begin_object();
  j.key("type").string("LandBlockInfo");
  j.key("id").hex(info.id);
  j.key("num_cells").number(info.num_cells);
  j.key("objects").begin_array();
  for (const auto& s : info.objects) {
    j.begin_object();
    j.key("id").hex(s.id);
    j.key("frame");
    json_frame_array(j, s.frame);
    j.end_object();
  }
  j.end_array();
  j.key("buildings").begin_array();
  for (const auto& b : info.buildings) {
    j.begin_object();
    j.key("model_id").hex(b.model_id);
    j.key("frame");
    json_frame_array(j, b.frame);
    j.key("num_leaves").number(b.num_leaves);
    j.key("portals").begin_array();
    for (const auto& p : b.portals) {
      j.begin_object();
      j.key("flags").number(p.flags);
      j.key("other_cell_id").hex(p.other_cell_id);
      j.key("other_portal_id").number(p.other_portal_id);
      j.key("stab_list").begin_array();
      for (const auto c : p.stab_list) j.hex(c);
      j.end_array();
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("pack_flags").hex(info.pack_flags);
  if (info.has_restrictions()) {
    j.key("restriction_buckets").number(info.restriction_buckets);
    j.key("restrictions").begin_array();
    for (const auto& e : info.restrictions) {
      j.begin_object();
      j.key("key").hex(e.key);
      j.key("value").hex(e.value);
      j.end_object();
    }
    j.end_array();
  }
  j.end_object();
}

}  // namespace dereth::dat
