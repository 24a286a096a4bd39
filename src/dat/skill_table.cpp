#include "dereth/dat/skill_table.hpp"

#include <algorithm>
#include <string>

namespace dereth::dat {

namespace {

// u32 key + two empty strings (4 bytes each with padding) + 6 x 4 + formula + 3 x 8.
constexpr std::size_t kMinEntrySize = 4 + 4 + 4 + 24 + kSkillFormulaSize + 24;

}  // namespace

Result<SkillFormula> read_skill_formula(ByteReader& r, std::string_view field) {
  DERETH_CHECK(r.require(kSkillFormulaSize, field));
  SkillFormula f;
  f.w = *r.u32(field);
  f.x = *r.u32(field);
  f.y = *r.u32(field);
  f.z = *r.u32(field);
  f.attr1 = *r.u32(field);
  f.attr2 = *r.u32(field);
  return f;
}

void write_skill_formula(ByteWriter& w, const SkillFormula& f) {
  w.u32(f.w);
  w.u32(f.x);
  w.u32(f.y);
  w.u32(f.z);
  w.u32(f.attr1);
  w.u32(f.attr2);
}

void json_skill_formula(core::JsonWriter& j, const SkillFormula& f) {
  j.begin_object();
  j.key("w").number(f.w);
  j.key("x").number(f.x);
  j.key("y").number(f.y);
  j.key("z").number(f.z);
  j.key("attr1").number(f.attr1);
  j.key("attr2").number(f.attr2);
  j.end_object();
}

Result<SkillTable> read_skill_table(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "SkillTable");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  SkillTable t;
  t.id = id;
  DERETH_TRY(const HashTableHeader header, read_hash_table_header(r, kMinEntrySize, "skills.count"));
  t.buckets = header.buckets;
  t.skills.reserve(header.count);
  for (std::size_t i = 0; i < header.count; ++i) {
    SkillTableEntry e;
    DERETH_TRY(e.skill, r.u32("skills.key"));
    DERETH_TRY(e.base.description, r.string16l("skills.description"));
    DERETH_TRY(e.base.name, r.string16l("skills.name"));
    DERETH_CHECK(r.require(24, "skills.costs"));
    e.base.icon = *r.u32("skills.icon");
    e.base.trained_cost = *r.i32("skills.trained_cost");
    e.base.specialized_cost = *r.i32("skills.specialized_cost");
    e.base.category = *r.u32("skills.category");
    e.base.chargen_use = *r.u32("skills.chargen_use");
    e.base.min_level = *r.u32("skills.min_level");
    DERETH_TRY(e.base.formula, read_skill_formula(r, "skills.formula"));
    DERETH_CHECK(r.require(24, "skills.bounds"));
    e.base.upper_bound = *r.f64("skills.upper_bound");
    e.base.lower_bound = *r.f64("skills.lower_bound");
    e.base.learn_mod = *r.f64("skills.learn_mod");
    t.skills.push_back(std::move(e));
  }
  DERETH_CHECK(r.expect_end());
  return t;
}

std::vector<std::uint8_t> write_skill_table(const SkillTable& table) {
  ByteWriter w;
  w.u32(table.id);
  const std::size_t n = std::min<std::size_t>(table.skills.size(), 0xFFFF);
  write_hash_table_header(w, n, table.buckets);
  for (std::size_t i = 0; i < n; ++i) {
    const auto& e = table.skills[i];
    w.u32(e.skill);
    w.string16l(e.base.description);
    w.string16l(e.base.name);
    w.u32(e.base.icon);
    w.i32(e.base.trained_cost);
    w.i32(e.base.specialized_cost);
    w.u32(e.base.category);
    w.u32(e.base.chargen_use);
    w.u32(e.base.min_level);
    write_skill_formula(w, e.base.formula);
    w.f64(e.base.upper_bound);
    w.f64(e.base.lower_bound);
    w.f64(e.base.learn_mod);
  }
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const SkillTable& table) {
  j.begin_object();
  j.key("type").string("SkillTable");
  j.key("id").hex(table.id);
  j.key("buckets").number(table.buckets);
  j.key("skills").begin_array();
  for (const auto& e : table.skills) {
    j.begin_object();
    j.key("skill").number(e.skill);
    j.key("name").string(e.base.name);
    j.key("description").string(e.base.description);
    j.key("icon").hex(e.base.icon);
    j.key("trained_cost").number(e.base.trained_cost);
    j.key("specialized_cost").number(e.base.specialized_cost);
    j.key("category").number(e.base.category);
    j.key("chargen_use").number(e.base.chargen_use);
    j.key("min_level").number(e.base.min_level);
    j.key("formula");
    json_skill_formula(j, e.base.formula);
    j.key("upper_bound").f64(e.base.upper_bound);
    j.key("lower_bound").f64(e.base.lower_bound);
    j.key("learn_mod").f64(e.base.learn_mod);
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

const SkillBase* find_skill(const SkillTable& table, std::uint32_t skill) noexcept {
  for (const auto& e : table.skills) {
    if (e.skill == skill) return &e.base;
  }
  return nullptr;
}

}  // namespace dereth::dat
