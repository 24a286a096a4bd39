#include "dereth/dat/physics_script_table.hpp"

namespace dereth::dat {

std::optional<Did> PhysicsScriptTable::get_script(std::uint32_t type, float intensity) const {
  // PhysicsScriptTable::GetScript 0x00521E40: exact type lookup, first key wins.
  for (const auto& entry : entries) {
    if (entry.type != type) continue;
    // PhysicsScriptTableData::GetScript 0x00521A20: first stored entry with intensity <= mod (NaN: none:
    // the x86 compare at 0x00521A3B, `test ah, 0x41; jnp`, goes on while intensity > mod or unordered).
    for (const auto& candidate : entry.scripts) {
      if (intensity <= candidate.mod) return candidate.script;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

Result<PhysicsScriptTable> read_physics_script_table(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "PhysicsScriptTable");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  PhysicsScriptTable table;
  table.id = id;
  DERETH_TRY(const std::size_t count, read_count(r, 8, "num_types"));
  table.entries.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    PhysicsScriptTableEntry entry;
    DERETH_TRY(entry.type, r.u32("entries.type"));
    DERETH_TRY(const std::size_t n, read_count(r, 8, "entries.num_scripts"));
    entry.scripts.reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
      ScriptAndMod s;
      s.mod = *r.f32("entries.mod");
      s.script = *r.u32("entries.script");
      entry.scripts.push_back(s);
    }
    table.entries.push_back(std::move(entry));
  }
  DERETH_CHECK(r.expect_end());
  return table;
}

std::vector<std::uint8_t> write_physics_script_table(const PhysicsScriptTable& table) {
  ByteWriter w;
  w.u32(table.id);
  w.u32(static_cast<std::uint32_t>(table.entries.size()));
  for (const auto& entry : table.entries) {
    w.u32(entry.type);
    w.u32(static_cast<std::uint32_t>(entry.scripts.size()));
    for (const auto& s : entry.scripts) {
      w.f32(s.mod);
      w.u32(s.script);
    }
  }
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const PhysicsScriptTable& table) {
  j.begin_object();
  j.key("id").hex(table.id);
  j.key("entries").begin_array();
  for (const auto& entry : table.entries) {
    j.begin_object();
    j.key("type").number(entry.type);
    j.key("scripts").begin_array();
    for (const auto& s : entry.scripts) {
      j.begin_object();
      j.key("mod").f32(s.mod);
      j.key("script").hex(s.script);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

}  // namespace dereth::dat
