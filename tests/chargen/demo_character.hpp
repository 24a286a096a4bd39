#pragma once
// A valid F656 for the demo world's CharGen, built from its first heritage's
// first template: the template's abilities, its normal skills Trained, its
// primary skills Specialized, the SkillTable's other skills Untrained. Shared
// by the chargen and scenario tests.

#include <catch2/catch.hpp>

#include "dereth/chargen/char_gen_data.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/protocol/character_create.hpp"

namespace dereth::test {

inline chargen::CharGenData demo_char_gen_data() {
  auto world = demo::build_demo_world();
  REQUIRE(world);
  auto portal = dat::DatFile::from_bytes(world->portal, "client_portal.dat");
  REQUIRE(portal);
  dat::RecordCache records(&*portal);
  auto data = chargen::load_char_gen_data(records);
  REQUIRE(data);
  return std::move(*data);
}

inline protocol::CharacterCreate demo_character_create(const chargen::CharGenData& data, std::string name,
                                                       std::string account) {
  namespace sa = protocol::skill_advancement;
  const auto& group = data.char_gen.heritage_groups.at(0);
  const auto& t = group.templates.at(0);
  protocol::CharacterCreate c;
  c.account = std::move(account);
  c.heritage = group.heritage;
  c.gender = group.genders.at(0).gender;
  c.appearance.headgear_style = 0xFFFFFFFF;
  c.appearance.skin_shade = 0.5;
  c.template_option = 0;
  c.abilities = {t.strength, t.endurance, t.coordination, t.quickness, t.focus, t.self};
  c.skills.assign(protocol::kCharacterCreateSkillCount, sa::Inactive);
  for (const auto& s : data.skill_table.skills) {
    if (s.skill < c.skills.size()) c.skills[s.skill] = sa::Untrained;
  }
  for (const auto s : t.normal_skills) c.skills.at(s) = sa::Trained;
  for (const auto s : t.primary_skills) c.skills.at(s) = sa::Specialized;
  c.name = std::move(name);
  c.start_area = 0;
  return c;
}

}  // namespace dereth::test
