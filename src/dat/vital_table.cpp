#include "dereth/dat/vital_table.hpp"

#include <string>

namespace dereth::dat {

Result<VitalTable> read_vital_table(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "VitalTable");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  VitalTable t;
  t.id = id;
  DERETH_TRY(t.max_health, read_skill_formula(r, "max_health"));
  DERETH_TRY(t.max_stamina, read_skill_formula(r, "max_stamina"));
  DERETH_TRY(t.max_mana, read_skill_formula(r, "max_mana"));
  DERETH_CHECK(r.expect_end());
  return t;
}

std::vector<std::uint8_t> write_vital_table(const VitalTable& table) {
  ByteWriter w;
  w.u32(table.id);
  write_skill_formula(w, table.max_health);
  write_skill_formula(w, table.max_stamina);
  write_skill_formula(w, table.max_mana);
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const VitalTable& table) {
  j.begin_object();
  j.key("type").string("VitalTable");
  j.key("id").hex(table.id);
  j.key("max_health");
  json_skill_formula(j, table.max_health);
  j.key("max_stamina");
  json_skill_formula(j, table.max_stamina);
  j.key("max_mana");
  json_skill_formula(j, table.max_mana);
  j.end_object();
}

}  // namespace dereth::dat
