#include "dereth/dat/motion_table.hpp"

#include <algorithm>

namespace dereth::dat {

namespace {

using core::JsonWriter;

constexpr std::size_t kAnimDataSize = 16;
constexpr std::size_t kEntryMinSize = 4 + 4;  // key + MotionData header with its pad
constexpr std::size_t kMaxAnims = 255;

Result<MotionData> read_motion_data(ByteReader& r) {
  MotionData m;
  DERETH_TRY(const std::uint8_t num_anims, r.u8("MotionData.num_anims"));
  DERETH_TRY(m.bitfield, r.u8("MotionData.bitfield"));
  DERETH_TRY(m.flags, r.u8("MotionData.flags"));
  DERETH_CHECK(r.align4("MotionData.pad"));
  DERETH_CHECK(r.require(kAnimDataSize * num_anims, "MotionData.anims"));
  m.anims.reserve(num_anims);
  for (std::size_t i = 0; i < num_anims; ++i) {
    AnimData a;
    a.anim_id = *r.u32("MotionData.anims");
    a.low_frame = *r.i32("MotionData.anims");
    a.high_frame = *r.i32("MotionData.anims");
    a.framerate = *r.f32("MotionData.anims");
    m.anims.push_back(a);
  }
  if ((m.flags & MotionData::kHasVelocity) != 0) {
    DERETH_TRY(m.velocity, read_vec3(r, "MotionData.velocity"));
  }
  if ((m.flags & MotionData::kHasOmega) != 0) {
    DERETH_TRY(m.omega, read_vec3(r, "MotionData.omega"));
  }
  return m;
}

void write_motion_data(ByteWriter& w, const MotionData& m) {
  const std::size_t n = std::min(m.anims.size(), kMaxAnims);
  w.u8(static_cast<std::uint8_t>(n));
  w.u8(m.bitfield);
  w.u8(m.flags);
  w.align4();
  for (std::size_t i = 0; i < n; ++i) {
    w.u32(m.anims[i].anim_id);
    w.i32(m.anims[i].low_frame);
    w.i32(m.anims[i].high_frame);
    w.f32(m.anims[i].framerate);
  }
  if ((m.flags & MotionData::kHasVelocity) != 0) write_vec3(w, m.velocity);
  if ((m.flags & MotionData::kHasOmega) != 0) write_vec3(w, m.omega);
}

Result<std::vector<MotionEntry>> read_entries(ByteReader& r, std::string_view count_field, std::string_view key_field) {
  DERETH_TRY(const std::size_t count, read_count(r, kEntryMinSize, count_field));
  std::vector<MotionEntry> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    MotionEntry e;
    DERETH_TRY(e.key, r.u32(key_field));
    DERETH_TRY(e.data, read_motion_data(r));
    out.push_back(std::move(e));
  }
  return out;
}

void write_entries(ByteWriter& w, const std::vector<MotionEntry>& entries) {
  w.u32(static_cast<std::uint32_t>(entries.size()));
  for (const auto& e : entries) {
    w.u32(e.key);
    write_motion_data(w, e.data);
  }
}

void json_motion_data(JsonWriter& j, const MotionData& m) {
  j.begin_object();
  j.key("bitfield").number(m.bitfield);
  j.key("flags").number(m.flags);
  j.key("anims").begin_array();
  for (const auto& a : m.anims) {
    j.begin_object();
    j.key("anim_id").hex(a.anim_id);
    j.key("low_frame").number(a.low_frame);
    j.key("high_frame").number(a.high_frame);
    j.key("framerate").f32(a.framerate);
    j.end_object();
  }
  j.end_array();
  if ((m.flags & MotionData::kHasVelocity) != 0) {
    j.key("velocity");
    json_vec3(j, m.velocity);
  }
  if ((m.flags & MotionData::kHasOmega) != 0) {
    j.key("omega");
    json_vec3(j, m.omega);
  }
  j.end_object();
}

void json_entries(JsonWriter& j, const std::vector<MotionEntry>& entries) {
  j.begin_array();
  for (const auto& e : entries) {
    j.begin_object();
    j.key("key").hex(e.key);
    j.key("data");
    json_motion_data(j, e.data);
    j.end_object();
  }
  j.end_array();
}

}  // namespace

Result<MotionTable> read_motion_table(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "MotionTable");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  MotionTable t;
  t.id = id;
  DERETH_TRY(t.default_style, r.u32("default_style"));
  DERETH_TRY(const std::size_t num_defaults, read_count(r, 8, "num_style_defaults"));
  t.style_defaults.reserve(num_defaults);
  for (std::size_t i = 0; i < num_defaults; ++i) {
    MotionStyleDefault d;
    d.style = *r.u32("style_defaults");
    d.substate = *r.u32("style_defaults");
    t.style_defaults.push_back(d);
  }
  DERETH_TRY(t.cycles, read_entries(r, "num_cycles", "cycles.key"));
  DERETH_TRY(t.modifiers, read_entries(r, "num_modifiers", "modifiers.key"));
  DERETH_TRY(const std::size_t num_links, read_count(r, 8, "num_links"));
  t.links.reserve(num_links);
  for (std::size_t i = 0; i < num_links; ++i) {
    MotionLinks l;
    DERETH_TRY(l.outer_key, r.u32("links.outer_key"));
    DERETH_TRY(l.links, read_entries(r, "links.count", "links.inner_key"));
    t.links.push_back(std::move(l));
  }
  DERETH_CHECK(r.expect_end());
  return t;
}

std::vector<std::uint8_t> write_motion_table(const MotionTable& t) {
  ByteWriter w;
  w.u32(t.id);
  w.u32(t.default_style);
  w.u32(static_cast<std::uint32_t>(t.style_defaults.size()));
  for (const auto& d : t.style_defaults) {
    w.u32(d.style);
    w.u32(d.substate);
  }
  write_entries(w, t.cycles);
  write_entries(w, t.modifiers);
  w.u32(static_cast<std::uint32_t>(t.links.size()));
  for (const auto& l : t.links) {
    w.u32(l.outer_key);
    write_entries(w, l.links);
  }
  return std::move(w).take();
}

void write_json(JsonWriter& j, const MotionTable& t) {
  j.begin_object();
  j.key("id").hex(t.id);
  j.key("default_style").hex(t.default_style);
  j.key("style_defaults").begin_array();
  for (const auto& d : t.style_defaults) {
    j.begin_object();
    j.key("style").hex(d.style);
    j.key("substate").hex(d.substate);
    j.end_object();
  }
  j.end_array();
  j.key("cycles");
  json_entries(j, t.cycles);
  j.key("modifiers");
  json_entries(j, t.modifiers);
  j.key("links").begin_array();
  for (const auto& l : t.links) {
    j.begin_object();
    j.key("outer_key").hex(l.outer_key);
    j.key("links");
    json_entries(j, l.links);
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

}  // namespace dereth::dat
