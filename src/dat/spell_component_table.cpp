#include "dereth/dat/spell_component_table.hpp"

#include <algorithm>
#include <string>

namespace dereth::dat {

namespace {

// u32 key, two strings (at least 4 bytes each: entries start aligned), 5 x 4, f32.
constexpr std::size_t kMinEntrySize = 4 + 4 + 20 + 4 + 4;

}  // namespace

Result<SpellComponentTable> read_spell_component_table(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "SpellComponentTable");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  SpellComponentTable t;
  t.id = id;
  DERETH_TRY(const HashTableHeader header, read_hash_table_header(r, kMinEntrySize, "components.count"));
  t.buckets = header.buckets;
  t.components.reserve(header.count);
  for (std::size_t i = 0; i < header.count; ++i) {
    SpellComponentEntry e;
    DERETH_TRY(e.component, r.u32("components.key"));
    DERETH_TRY(e.base.name, read_obfuscated_string(r, "components.name"));
    DERETH_CHECK(r.require(20, "components.fields"));
    e.base.category = *r.u32("components.category");
    e.base.icon = *r.u32("components.icon");
    e.base.type = *r.u32("components.type");
    e.base.gesture = *r.u32("components.gesture");
    e.base.time = *r.f32("components.time");
    DERETH_TRY(e.base.words, read_obfuscated_string(r, "components.words"));
    DERETH_TRY(e.base.cdm, r.f32("components.cdm"));
    t.components.push_back(std::move(e));
  }
  DERETH_CHECK(r.expect_end());
  return t;
}

std::vector<std::uint8_t> write_spell_component_table(const SpellComponentTable& table) {
  ByteWriter w;
  w.u32(table.id);
  const std::size_t n = std::min<std::size_t>(table.components.size(), 0xFFFF);
  write_hash_table_header(w, n, table.buckets);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& e = table.components[i];
    w.u32(e.component);
    write_obfuscated_string(w, e.base.name);
    w.u32(e.base.category);
    w.u32(e.base.icon);
    w.u32(e.base.type);
    w.u32(e.base.gesture);
    w.f32(e.base.time);
    write_obfuscated_string(w, e.base.words);
    w.f32(e.base.cdm);
  }
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const SpellComponentTable& table) {
  j.begin_object();
  j.key("type").string("SpellComponentTable");
  j.key("id").hex(table.id);
  j.key("buckets").number(table.buckets);
  j.key("components").begin_array();
  for (const auto& e : table.components) {
    j.begin_object();
    j.key("component").number(e.component);
    j.key("name").string(e.base.name);
    j.key("category").number(e.base.category);
    j.key("icon").hex(e.base.icon);
    j.key("type").number(e.base.type);
    j.key("gesture").hex(e.base.gesture);
    j.key("time").f32(e.base.time);
    j.key("words").string(e.base.words);
    j.key("cdm").f32(e.base.cdm);
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

const SpellComponentBase* find_spell_component(const SpellComponentTable& table, std::uint32_t component) noexcept {
  for (const auto& e : table.components) {
    if (e.component == component) return &e.base;
  }
  return nullptr;
}

}  // namespace dereth::dat
