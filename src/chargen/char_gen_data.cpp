#include "dereth/chargen/char_gen_data.hpp"

#include <fmt/format.h>

#include "dereth/core/log.hpp"

namespace dereth::chargen {

namespace {

template <class T, class Read>
core::Result<T> read_record(const dat::DatFile& portal, dat::Did id, const char* what, Read read) {
  auto bytes = portal.read(id);
  if (!bytes) return std::unexpected(bytes.error());
  auto record = read(std::span<const std::uint8_t>(*bytes), id);
  if (!record) {
    core::Error e = record.error();
    e.context = fmt::format("{} 0x{:08X} ({})", what, id, e.context);
    return std::unexpected(std::move(e));
  }
  return std::move(*record);
}

}  // namespace

core::Result<CharGenData> load_char_gen_data(const dat::DatFile& portal) {
  CharGenData out;
  DERETH_TRY(out.char_gen, read_record<dat::CharGen>(portal, dat::kCharGenId, "CharGen", dat::read_char_gen));
  DERETH_TRY(out.skill_table,
             read_record<dat::SkillTable>(portal, dat::kSkillTableId, "SkillTable", dat::read_skill_table));
  const auto add_set = [&](dat::Did id) {
    if (id == 0 || out.palette_sets.contains(id)) return;
    if (auto set = read_record<dat::PaletteSet>(portal, id, "PaletteSet", dat::read_palette_set)) {
      out.palette_sets.emplace(id, std::move(*set));
    } else {
      core::logger(core::Module::Dat)->warn("CharGen: {}", set.error().message());
    }
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
