#include "dereth/dat/env_cell.hpp"

#include <string>

#include <fmt/format.h>

namespace dereth::dat {

namespace {

constexpr std::size_t kStabSize = 4 + 28;

}  // namespace

Result<EnvCell> read_env_cell(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "EnvCell");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  EnvCell c;
  c.id = id;
  DERETH_TRY(c.flags, r.u32("flags"));
  const std::size_t cell_id_at = r.position();
  DERETH_TRY(const std::uint32_t cell_id, r.u32("cell_id"));
  if (cell_id != id) {
    return std::unexpected(r.error_at(cell_id_at, core::ErrorKind::Invalid, "cell_id",
                                      fmt::format("cell id 0x{:08X} differs from the DID", cell_id)));
  }
  DERETH_TRY(const std::uint8_t num_surfaces, r.u8("num_surfaces"));
  DERETH_TRY(const std::uint8_t num_portals, r.u8("num_portals"));
  DERETH_TRY(const std::uint16_t num_visible, r.u16("num_visible_cells"));
  DERETH_TRY(const std::size_t surfaces, r.checked_count(num_surfaces, 2, "num_surfaces"));
  c.surfaces.reserve(surfaces);
  for (std::size_t i = 0; i < surfaces; ++i) c.surfaces.push_back(*r.u16("surfaces"));
  DERETH_TRY(c.environment_id, r.u16("environment_id"));
  DERETH_TRY(c.cell_struct, r.u16("cell_struct"));
  DERETH_TRY(c.position, read_frame(r, "position"));
  DERETH_TRY(const std::size_t portals, r.checked_count(num_portals, 8, "num_portals"));
  c.portals.reserve(portals);
  for (std::size_t i = 0; i < portals; ++i) {
    CellPortal p;
    p.flags = *r.u16("portals.flags");
    p.polygon_index = *r.u16("portals.polygon_index");
    p.other_cell_id = *r.u16("portals.other_cell_id");
    p.other_portal_id = *r.u16("portals.other_portal_id");
    c.portals.push_back(p);
  }
  DERETH_TRY(const std::size_t visible, r.checked_count(num_visible, 2, "num_visible_cells"));
  c.visible_cells.reserve(visible);
  for (std::size_t i = 0; i < visible; ++i) c.visible_cells.push_back(*r.u16("visible_cells"));
  if ((c.flags & env_cell_flags::kHasStaticObjs) != 0) {
    DERETH_TRY(const std::size_t n, read_count(r, kStabSize, "static_objects.count"));
    c.static_objects.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      DERETH_TRY(auto stab, read_stab(r, "static_objects"));
      c.static_objects.push_back(stab);
    }
  }
  if ((c.flags & env_cell_flags::kHasRestrictionObj) != 0) {
    DERETH_TRY(c.restriction_obj, r.u32("restriction_obj"));
  }
  DERETH_CHECK(r.expect_end());
  return c;
}

std::vector<std::uint8_t> write_env_cell(const EnvCell& cell) {
  ByteWriter w;
  w.u32(cell.id);
  w.u32(cell.flags);
  w.u32(cell.id);
  w.u8(static_cast<std::uint8_t>(cell.surfaces.size()));
  w.u8(static_cast<std::uint8_t>(cell.portals.size()));
  w.u16(static_cast<std::uint16_t>(cell.visible_cells.size()));
  for (const auto s : cell.surfaces) w.u16(s);
  w.u16(cell.environment_id);
  w.u16(cell.cell_struct);
  write_frame(w, cell.position);
  for (const auto& p : cell.portals) {
    w.u16(p.flags);
    w.u16(p.polygon_index);
    w.u16(p.other_cell_id);
    w.u16(p.other_portal_id);
  }
  for (const auto v : cell.visible_cells) w.u16(v);
  if ((cell.flags & env_cell_flags::kHasStaticObjs) != 0) {
    w.u32(static_cast<std::uint32_t>(cell.static_objects.size()));
    for (const auto& s : cell.static_objects) write_stab(w, s);
  }
  if ((cell.flags & env_cell_flags::kHasRestrictionObj) != 0) w.u32(cell.restriction_obj);
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const EnvCell& cell) {
  j.begin_object();
  j.key("type").string("EnvCell");
  j.key("id").hex(cell.id);
  j.key("flags").hex(cell.flags);
  j.key("surfaces").begin_array();
  for (const auto s : cell.surfaces) j.hex(0x08000000U | s);
  j.end_array();
  j.key("environment").hex(cell.environment_did());
  j.key("cell_struct").number(cell.cell_struct);
  j.key("position");
  json_frame_array(j, cell.position);
  j.key("portals").begin_array();
  for (const auto& p : cell.portals) {
    j.begin_object();
    j.key("flags").number(p.flags);
    j.key("polygon_index").number(p.polygon_index);
    j.key("other_cell_id").hex(p.other_cell_id);
    j.key("other_portal_id").number(p.other_portal_id);
    j.end_object();
  }
  j.end_array();
  j.key("visible_cells").begin_array();
  for (const auto v : cell.visible_cells) j.hex(v);
  j.end_array();
  if ((cell.flags & env_cell_flags::kHasStaticObjs) != 0) {
    j.key("static_objects").begin_array();
    for (const auto& s : cell.static_objects) {
      j.begin_object();
      j.key("id").hex(s.id);
      j.key("frame");
      json_frame_array(j, s.frame);
      j.end_object();
    }
    j.end_array();
  }
  if ((cell.flags & env_cell_flags::kHasRestrictionObj) != 0) j.key("restriction_obj").hex(cell.restriction_obj);
  j.end_object();
}

}  // namespace dereth::dat
