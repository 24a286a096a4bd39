#pragma once
// A player's qualities for the movement tests: a small SkillTable (Run =
// Quickness / 1, Jump = (Strength + Coordination) / 2), a small XpTable and a
// PlayerDescription with the attributes and stamina the rules read.
#include <memory>

#include "dereth/dat/skill_table.hpp"
#include "dereth/dat/xp_table.hpp"
#include "dereth/protocol/player_description.hpp"
#include "dereth/sim/player/qualities.hpp"

namespace dereth::sim::test {

inline dat::SkillTable movement_skill_table() {
  dat::SkillTable t;
  t.buckets = 32;
  const auto add = [&](std::uint32_t skill, dat::SkillFormula f, std::uint32_t min_level) {
    dat::SkillBase b;
    b.formula = f;
    b.min_level = min_level;
    t.skills.push_back({skill, b});
  };
  add(skill_type::Run, dat::SkillFormula{0, 1, 0, 1, 3, 0}, 1);
  add(skill_type::Jump, dat::SkillFormula{0, 1, 1, 2, 1, 4}, 1);
  add(0x2B, dat::SkillFormula{0, 1, 0, 1, 1, 0}, 1);  // a skill of the +10 augmentation group 302
  add(0x2C, dat::SkillFormula{0, 1, 0, 1, 1, 0}, 2);  // usable trained only
  return t;
}

// Entry i is the total experience for rank i (maxima 4).
inline dat::XpTable small_xp_table() {
  dat::XpTable t;
  t.attribute = {0, 100, 300};
  t.vital = {0, 100, 300};
  t.trained_skill = {0, 10, 30, 60, 100};
  t.specialized_skill = {0, 5, 15, 30, 50};
  t.level = {0, 1000};
  t.skill_credits = {0, 1};
  return t;
}

struct MovementStats {
  std::uint32_t strength = 100;
  std::uint32_t coordination = 100;
  std::uint32_t quickness = 100;
  std::uint32_t stamina = 100;                     // current
  protocol::SkillWire run{0, 1, 1, 0, 0, 0, 0.0};  // untrained, no experience
  protocol::SkillWire jump{0, 1, 1, 0, 0, 0, 0.0};
  std::int32_t burden = 0;  // PropertyInt EncumbranceVal
};

inline protocol::PlayerDescription movement_description(const MovementStats& s) {
  protocol::PlayerDescription d;
  d.property_flags = protocol::quality_flag::Int;
  d.weenie_type = 1;
  d.ints = {{5, s.burden}};
  d.vector_flags = protocol::quality_vector_flag::Attribute | protocol::quality_vector_flag::Skill;
  d.attributes[0] = protocol::AttributeWire{0, s.strength, 0};
  d.attributes[2] = protocol::AttributeWire{0, s.quickness, 0};
  d.attributes[3] = protocol::AttributeWire{0, s.coordination, 0};
  d.vitals[1] = protocol::SecondaryAttributeWire{0, 100, 0, s.stamina};
  d.skills = {{skill_type::Run, s.run}, {skill_type::Jump, s.jump}};
  return d;
}

inline std::unique_ptr<Qualities> movement_qualities(const MovementStats& s) {
  return std::make_unique<Qualities>(movement_description(s), movement_skill_table(), small_xp_table());
}

}  // namespace dereth::sim::test
