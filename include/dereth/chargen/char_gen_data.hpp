#pragma once
// The two portal records character creation is checked against: CharGen
// (0x0E000002: heritages, sexes, appearance strips, templates, starting
// areas) and the SkillTable (0x0E000004: each skill's trained and
// specialised credit costs). The client's creation screen and the scenario
// server's F656 check read the same pair.

#include <map>

#include "dereth/core/error.hpp"
#include "dereth/dat/char_gen.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/palette_set.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/skill_table.hpp"

namespace dereth::chargen {

struct CharGenData {
  dat::CharGen char_gen;
  dat::SkillTable skill_table;
  // The sexes' skin and hair-colour PaletteSets (0x0F...) that read: the
  // preview's skin and hair palettes are picked from them by shade.
  std::map<dat::Did, dat::PaletteSet> palette_sets;
};

// Both records through a cache of a client_portal.dat's records (a world's,
// or the character screens' own before there is a world), so each is read
// once. A missing or malformed record is an error naming the record and why
// (the file it is not in). The PaletteSets the CharGen names are read too;
// one that is missing or malformed is left out (logged), and the preview then
// shows that choice in the base palette's colours.
core::Result<CharGenData> load_char_gen_data(dat::RecordCache& records);

}  // namespace dereth::chargen
