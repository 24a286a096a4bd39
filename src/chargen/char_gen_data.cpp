#include "dereth/chargen/char_gen_data.hpp"

#include <fmt/format.h>

namespace dereth::chargen {

namespace {

// The cached record, or an error naming it and why the cache could not have it.
template <class T>
core::Result<T> need(const std::shared_ptr<const T>& record, const dat::RecordCache& records, const char* what,
                     dat::Did id) {
  if (record) return *record;
  const auto missing = records.find_missing(what, id);
  return std::unexpected(core::Error{core::ErrorKind::Invalid, fmt::format("{} 0x{:08X}", what, id), "", 0,
                                     missing.has_value() ? missing->why : "no client_portal.dat"});
}

}  // namespace

core::Result<CharGenData> load_char_gen_data(dat::RecordCache& records) {
  CharGenData out;
  DERETH_TRY(out.char_gen, need(records.char_gen(), records, "CharGen", dat::kCharGenId));
  DERETH_TRY(out.skill_table, need(records.skill_table(), records, "SkillTable", dat::kSkillTableId));
  // A PaletteSet that cannot be had is left out (the cache logged it).
  const auto add_set = [&](dat::Did id) {
    if (id == 0 || out.palette_sets.contains(id)) return;
    if (const auto set = records.palette_set(id)) out.palette_sets.emplace(id, *set);
  };
  for (const auto& h : out.char_gen.heritage_groups) {
    for (const auto& sex : h.genders) {
      add_set(sex.skin_palette_set);
      for (const dat::Did id : sex.hair_colors) add_set(id);
    }
  }
  return out;
}

}  // namespace dereth::chargen
