// The player's qualities as movement reads them: EncumbranceSystem,
// MovementSystem, SkillFormula, ExperienceTable/ExperienceSystem, Skill's
// unpack checks and CACQualities' skill, load, run-rate and jump queries.
// RE: PORTAL/gameplay_misc/EncumbranceSystem.c, MovementSystem.c,
// AC/accqualities/CACQualitiesSkills.c, CACQualitiesData.c,
// AC/acqualities/Skill.c, AttributeCache.c, AC/acgameplay_misc/ExperienceTable.c.
#include "dereth/sim/player/qualities.hpp"

#include <catch2/catch.hpp>

#include <cmath>

#include "player/qualities_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;

TEST_CASE("EncumbranceSystem::EncumbranceCapacity 0x004FCC00: 150 per Strength, augmentations capped at 150",
          "[retail]") {
  CHECK(encumbrance_capacity(100, 0) == 15000);
  CHECK(encumbrance_capacity(100, 2) == 21000);
  CHECK(encumbrance_capacity(100, 10) == 30000);  // 300 clamps to 150
  CHECK(encumbrance_capacity(100, -1) == 15000);  // a negative bonus is ignored
  CHECK(encumbrance_capacity(0, 5) == 0);
  CHECK(encumbrance_capacity(-3, 5) == 0);
}

TEST_CASE("EncumbranceSystem::Load 0x004FCC40 and LoadMod 0x004FCC70", "[retail]") {
  CHECK(encumbrance_load(0, 100) == 3.0);  // no capacity: overloaded
  CHECK(encumbrance_load(100, -5) == 0.0);
  CHECK(encumbrance_load(200, 50) == 0.25);
  CHECK(encumbrance_load_mod(0.5f) == 1.0);
  CHECK(encumbrance_load_mod(1.0f) == 1.0);  // 2 - 1
  CHECK(encumbrance_load_mod(1.5f) == 0.5);
  CHECK(encumbrance_load_mod(2.0f) == 0.0);
  CHECK(encumbrance_load_mod(3.0f) == 0.0);
}

TEST_CASE("MovementSystem::GetRunRate 0x006B0950: skill 800 is exactly 4.5", "[retail]") {
  CHECK(get_run_rate(0.0f, 800, 1.0f) == 4.5);
  CHECK(get_run_rate(1.5f, 800, 1.0f) == 4.5);  // the odd case ignores the burden
  CHECK(get_run_rate(0.0f, 0, 1.0f) == 1.0);
  CHECK(get_run_rate(0.0f, 100, 1.0f) == Approx((100.0 / 300.0 * 11.0 + 4.0) / 4.0));
  CHECK(get_run_rate(1.5f, 100, 1.0f) == Approx((0.5 * (100.0 / 300.0 * 11.0) + 4.0) / 4.0));
  CHECK(get_run_rate(0.0f, 100, 2.0f) == Approx((100.0 / 300.0 * 11.0 + 4.0) / 8.0));
  CHECK(get_run_rate(0.0f, 801, 1.0f) < 4.5);  // 801 takes the formula: (801/1001*11+4)/4
}

TEST_CASE("MovementSystem::GetJumpHeight 0x006B09B0: power clamped to 0..1, never below 0.35", "[retail]") {
  const double h100 = 100.0 / 1400.0 * static_cast<double>(22.2f) + static_cast<double>(0.05f);
  CHECK(get_jump_height(0.0f, 100, 1.0f, 1.0f) == Approx(h100));
  CHECK(get_jump_height(0.0f, 100, 2.0f, 1.0f) == get_jump_height(0.0f, 100, 1.0f, 1.0f));
  CHECK(get_jump_height(0.0f, 100, -1.0f, 1.0f) == static_cast<double>(0.35f));
  CHECK(get_jump_height(0.0f, 0, 1.0f, 1.0f) == static_cast<double>(0.35f));  // 0.05 floors to 0.35
  CHECK(get_jump_height(1.5f, 100, 1.0f, 1.0f) == Approx(0.5 * h100));
}

TEST_CASE("SkillFormula::Calculate 0x00591960 rounds half up and refuses a zero divisor", "[retail]") {
  std::uint32_t out = 7;
  CHECK(skill_formula_calculate(dat::SkillFormula{0, 1, 1, 2, 1, 4}, 100, 101, out));
  CHECK(out == 101);  // floor(201 / 2 + 0.5)
  CHECK(skill_formula_calculate(dat::SkillFormula{0, 1, 1, 3, 1, 4}, 100, 101, out));
  CHECK(out == 67);  // floor(67.0 + 0.5)
  CHECK(skill_formula_calculate(dat::SkillFormula{5, 1, 0, 1, 3, 0}, 100, 0, out));
  CHECK(out == 105);
  out = 7;
  CHECK_FALSE(skill_formula_calculate(dat::SkillFormula{0, 1, 1, 0, 1, 4}, 100, 101, out));
  CHECK(out == 7);
}

TEST_CASE(
    "ExperienceTable::GetLevelForExperience 0x005C9D40: the highest rank the experience reaches "
    "(ExperienceTable::GetExperienceForLevel 0x005C9CD0)",
    "[retail]") {
  const dat::XpTable t = small_xp_table();  // trained 0, 10, 30, 60, 100
  const auto trained = [&](std::uint32_t pp) { return level_for_experience(t, ExperienceType::TrainedSkill, pp); };
  CHECK(trained(0) == 0);
  CHECK(trained(9) == 0);
  CHECK(trained(10) == 1);
  CHECK(trained(59) == 2);
  CHECK(trained(60) == 3);
  CHECK(trained(100) == 4);
  CHECK(trained(5000) == 4);
  CHECK(trained(0xFFFFFFFFu) == 4);
  CHECK(experience_for_level(t, ExperienceType::TrainedSkill, 5) == 0xFFFFFFFFu);  // past the table
  CHECK(experience_for_level(t, ExperienceType::Level, 1) == 0xFFFFFFFFu);         // levels are u64, not here
  CHECK(level_for_experience(t, ExperienceType::SpecializedSkill, 30) == 3);
}

TEST_CASE("ExperienceSystem::SkillLevelFromExperience 0x005C8440: untrained or no table is 0", "[retail]") {
  const dat::XpTable t = small_xp_table();
  CHECK(skill_level_from_experience(&t, 2, 60) == 3);
  CHECK(skill_level_from_experience(&t, 3, 30) == 3);
  CHECK(skill_level_from_experience(&t, 1, 60) == 0);
  CHECK(skill_level_from_experience(nullptr, 2, 60) == 0);
}

TEST_CASE("Skill::SanityCheck 0x005CA9C0 and Skill::AdjPP 0x005CA960", "[retail]") {
  const dat::XpTable t = small_xp_table();
  Skill s{.sac = 7, .pp = 60, .init_level = 0, .level_from_pp = 9};
  CHECK_FALSE(s.sanity_check(&t));  // an unknown class becomes untrained, level 0
  CHECK(s.sac == 1);
  CHECK(s.level_from_pp == 0);
  Skill trained{.sac = 2, .pp = 60, .init_level = 0, .level_from_pp = 5};
  CHECK_FALSE(trained.sanity_check(&t));  // the table's level wins over the sent one
  CHECK(trained.level_from_pp == 3);
  CHECK(trained.sanity_check(&t));

  Skill a{.sac = 2, .pp = 10, .init_level = 0, .level_from_pp = 1};
  std::uint32_t amount = 50;
  CHECK(a.adj_pp(&t, amount));
  CHECK(a.pp == 60);
  CHECK(a.level_from_pp == 3);
  Skill full{.sac = 2, .pp = 0xFFFFFFF0u, .init_level = 0, .level_from_pp = 4};
  amount = 0x20;
  CHECK_FALSE(full.adj_pp(&t, amount));  // saturates; the level stays 4
  CHECK(full.pp == 0xFFFFFFFFu);
  CHECK(amount == 0xFu);
}

TEST_CASE("Skill::UnPack 0x005CAAC0 moves an old-form init_level into experience", "[retail]") {
  MovementStats s;
  s.run = protocol::SkillWire{0, 0, 2, 10, 50, 0, 0.0};  // not adjusted: init_level 50 is experience
  const auto q = movement_qualities(s);
  const Skill* run = q->find_skill(skill_type::Run);
  REQUIRE(run != nullptr);
  CHECK(run->pp == 60);
  CHECK(run->init_level == 0);
  CHECK(run->level_from_pp == 3);
}

TEST_CASE("CACQualities::InqSkillBaseLevel 0x00592140 and InqSkill 0x00592660", "[retail]") {
  MovementStats s;
  s.run = protocol::SkillWire{3, 1, 2, 60, 10, 0, 0.0};  // trained, rank 3 by the table, +10 initial
  auto d = movement_description(s);
  Qualities q(d, movement_skill_table(), small_xp_table());
  int level = 0;
  REQUIRE(q.inq_skill_base_level(skill_type::Run, level));
  CHECK(level == 100);  // Quickness / 1
  REQUIRE(q.inq_skill(skill_type::Run, level, false));
  CHECK(level == 113);
  REQUIRE(q.inq_skill(skill_type::Jump, level, false));
  CHECK(level == 100);                           // (Strength + Coordination) / 2, untrained, no ranks
  CHECK_FALSE(q.inq_skill(0x99, level, false));  // not in the SkillTable

  SECTION("a trained-only skill untrained is 0") {
    REQUIRE(q.inq_skill_base_level(0x2C, level));
    CHECK(level == 0);
  }
  SECTION("enlightenment, the all-skills augmentation, the specialized luminance augmentation, group +10") {
    d.ints = {{0x16D, 2}, {0x146, 1}, {0x158, 3}, {302, 1}};
    d.skills[0].second.sac = 3;  // specialized: pp 60 is rank 4 of the specialized table
    Qualities aug(d, movement_skill_table(), small_xp_table());
    REQUIRE(aug.inq_skill(skill_type::Run, level, false));
    CHECK(level == 100 + 10 + 4 + 2 + 5 + 6);
    REQUIRE(aug.inq_skill(skill_type::Run, level, true));  // raw: no +5, no luminance
    CHECK(level == 100 + 10 + 4 + 2);
    REQUIRE(aug.inq_skill(0x2B, level, true));
    CHECK(level == 100 + 2 + 10);  // Strength, enlightenment, the group's +10
  }
  SECTION("without the SkillTable nothing is known") {
    Qualities none(d, std::nullopt, small_xp_table());
    CHECK_FALSE(none.inq_skill(skill_type::Run, level, false));
  }
}

TEST_CASE("CACQualities::InqLoad 0x0058F130 divides the burden by 150 x Strength (10 when unknown)", "[retail]") {
  MovementStats s;
  s.burden = 3000;
  float load = 0;
  REQUIRE(movement_qualities(s)->inq_load(load));
  CHECK(load == 0.2f);
  protocol::PlayerDescription bare;
  bare.property_flags = protocol::quality_flag::Int;
  bare.ints = {{5, 750}};
  Qualities q(bare, std::nullopt, std::nullopt);
  REQUIRE(q.inq_load(load));
  CHECK(load == 0.5f);  // 750 / (150 x 10)
}

TEST_CASE("CACQualities::InqRunRate 0x00592800: the run skill, the burden, no stamina no skill", "[retail]") {
  MovementStats s;
  s.run = protocol::SkillWire{3, 1, 2, 60, 10, 0, 0.0};
  float rate = 0;
  REQUIRE(movement_qualities(s)->inq_run_rate(rate));
  CHECK(rate == static_cast<float>(get_run_rate(0.0f, 113, 1.0f)));
  CHECK(rate == Approx(1.9928115f));
  s.burden = 22500;  // load 1.5: half the skill's share
  REQUIRE(movement_qualities(s)->inq_run_rate(rate));
  CHECK(rate == Approx((0.5 * (113.0 / 313.0 * 11.0) + 4.0) / 4.0));
  s.burden = 0;
  s.stamina = 0;  // exhausted: the skill counts as 0
  REQUIRE(movement_qualities(s)->inq_run_rate(rate));
  CHECK(rate == 1.0f);
  auto d = movement_description(s);
  d.vitals[1].reset();  // no stamina told: no answer
  CHECK_FALSE(Qualities(d, movement_skill_table(), small_xp_table()).inq_run_rate(rate));
}

TEST_CASE("CACQualities::InqJumpVelocity 0x00592980: sqrt(height x 19.6)", "[retail]") {
  MovementStats s;
  float v_z = 0;
  REQUIRE(movement_qualities(s)->inq_jump_velocity(1.0f, v_z));
  CHECK(v_z == static_cast<float>(std::sqrt(get_jump_height(0.0f, 100, 1.0f, 1.0f) * 19.6)));
  CHECK(v_z == Approx(5.6623f).epsilon(1e-4));
  REQUIRE(movement_qualities(s)->inq_jump_velocity(0.0f, v_z));
  CHECK(v_z == static_cast<float>(std::sqrt(static_cast<double>(0.35f) * 19.6)));  // the 0.35 m floor
}

TEST_CASE("MovementSystem::JumpStaminaCost 0x006B0A40: ceil((load + 0.5) x power x 8 + 2), PK (power + 1) x 100",
          "[retail]") {
  CHECK(jump_stamina_cost(1.0f, 0.0f, false) == 6);  // ceil(0.5 x 8 + 2)
  CHECK(jump_stamina_cost(0.5f, 0.0f, false) == 4);
  CHECK(jump_stamina_cost(0.0f, 0.0f, false) == 2);    // the floor of every jump
  CHECK(jump_stamina_cost(0.001f, 0.0f, false) == 3);  // MIN_JUMP_EXTENT: 2.004 rounds up
  CHECK(jump_stamina_cost(1.0f, 1.5f, false) == 18);   // ceil(2 x 8 + 2)
  CHECK(jump_stamina_cost(1.0f, 0.2f, false) == 8);    // 7.6 up
  CHECK(jump_stamina_cost(1.0f, 0.0f, true) == 200);   // a PK in combat: the burden does not count
  CHECK(jump_stamina_cost(0.5f, 3.0f, true) == 150);
  CHECK(jump_stamina_cost(0.3f, 0.0f, true) == 130);  // 0.3f is a hair above 0.3
  CHECK(jump_stamina_cost(0.7f, 0.0f, true) == 169);  // 0.7f is a hair below: 169.99999 truncates
  CHECK(jump_stamina_cost(0.001f, 0.0f, true) == 100);
}

TEST_CASE("CACQualities::CanJump 0x00591B50: a load under 2 (twice the capacity)", "[retail]") {
  MovementStats s;  // Strength 100: capacity 15000
  CHECK(movement_qualities(s)->can_jump(1.0f));
  s.burden = 29999;  // load 1.99993
  CHECK(movement_qualities(s)->can_jump(1.0f));
  s.burden = 30000;  // load exactly 2: too loaded down
  CHECK_FALSE(movement_qualities(s)->can_jump(1.0f));
  CHECK_FALSE(movement_qualities(s)->can_jump(0.0f));  // the extent plays no part
  s.burden = -100;                                     // a negative burden is no load
  CHECK(movement_qualities(s)->can_jump(1.0f));
  protocol::PlayerDescription bare;  // no Strength told: 10, capacity 1500
  bare.property_flags = protocol::quality_flag::Int;
  bare.ints = {{5, 3000}};
  CHECK_FALSE(Qualities(bare, std::nullopt, std::nullopt).can_jump(1.0f));
  bare.ints = {{5, 2999}};
  CHECK(Qualities(bare, std::nullopt, std::nullopt).can_jump(1.0f));
  s.strength = 0;  // no capacity: load 3
  s.burden = 0;
  CHECK_FALSE(movement_qualities(s)->can_jump(1.0f));
}

TEST_CASE("CACQualities::JumpStaminaCost 0x00591B90: the PK rate within 20 s of a PK attack", "[retail]") {
  MovementStats s;
  s.burden = 3000;  // load 0.2
  auto d = movement_description(s);
  int cost = -1;
  REQUIRE(Qualities(d, movement_skill_table(), small_xp_table()).jump_stamina_cost(1.0f, 500.0, cost));
  CHECK(cost == 8);  // no PK status told: 8 (NPK)
  d.property_flags |= protocol::quality_flag::Float;
  d.ints.push_back({0x86, 4});        // PlayerKillerStatus PK
  d.floats.push_back({0x91, 100.0});  // LastPKAttackTimestamp
  const Qualities pk(d, movement_skill_table(), small_xp_table());
  REQUIRE(pk.jump_stamina_cost(1.0f, 110.0, cost));
  CHECK(cost == 200);
  REQUIRE(pk.jump_stamina_cost(0.5f, 119.999, cost));
  CHECK(cost == 150);
  REQUIRE(pk.jump_stamina_cost(1.0f, 120.0, cost));  // 100 + 20 is not after 120: the burden rate
  CHECK(cost == 8);
  d.ints.back().second = 64;  // PKLite counts too
  REQUIRE(Qualities(d, movement_skill_table(), small_xp_table()).jump_stamina_cost(1.0f, 110.0, cost));
  CHECK(cost == 200);
  d.ints.back().second = 2;  // NPK: never
  REQUIRE(Qualities(d, movement_skill_table(), small_xp_table()).jump_stamina_cost(1.0f, 110.0, cost));
  CHECK(cost == 8);
  d.ints.back().second = 4;
  d.floats.clear();  // PK without a PK attack on record
  REQUIRE(Qualities(d, movement_skill_table(), small_xp_table()).jump_stamina_cost(1.0f, 110.0, cost));
  CHECK(cost == 8);
  d.floats = {{0x91, 100.0}};
  d.property_flags &= ~protocol::quality_flag::Float;  // a float table not flagged is not read
  REQUIRE(Qualities(d, movement_skill_table(), small_xp_table()).jump_stamina_cost(1.0f, 110.0, cost));
  CHECK(cost == 8);
}
