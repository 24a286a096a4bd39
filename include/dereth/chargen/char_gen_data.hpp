#pragma once
// The two portal records character creation is checked against: CharGen
// (0x0E000002: heritages, sexes, appearance strips, templates, starting
// areas) and the SkillTable (0x0E000004: each skill's trained and
// specialised credit costs). The client's creation screen and the scenario
// server's F656 check read the same pair.

#include "dereth/core/error.hpp"
#include "dereth/dat/char_gen.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/skill_table.hpp"

namespace dereth::chargen {

struct CharGenData {
  dat::CharGen char_gen;
  dat::SkillTable skill_table;
};

// Reads both records from a client_portal.dat. A missing or malformed record
// is an error naming the record and the file.
core::Result<CharGenData> load_char_gen_data(const dat::DatFile& portal);

}  // namespace dereth::chargen
