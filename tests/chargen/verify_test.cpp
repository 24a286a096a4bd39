// verify_character_create: every F643 code ACE's check can give, against
// the demo world's CharGen.
#include "dereth/chargen/verify.hpp"

#include <catch2/catch.hpp>

#include "demo_character.hpp"

using namespace dereth;
namespace cr = protocol::create_response;
namespace sa = protocol::skill_advancement;

namespace {

bool nobody(std::string_view) {
  return false;
}

chargen::CreateVerdict check(const chargen::CharGenData& data, const protocol::CharacterCreate& c,
                             const chargen::CreateRules& rules = {}) {
  return chargen::verify_character_create(data, c, nobody, rules);
}

void refused_as_corrupt(const chargen::CharGenData& data, const protocol::CharacterCreate& c, const char* words) {
  const auto v = check(data, c);
  INFO(v.reason);
  CHECK(v.code == cr::Corrupt);
  CHECK_FALSE(v.wrong_version);
  CHECK_THAT(v.reason, Catch::Contains(words));
}

}  // namespace

TEST_CASE("The demo template's own choices are accepted", "[chargen][verify]") {
  const auto data = test::demo_char_gen_data();
  const auto c = test::demo_character_create(data, "Fen", "acct");
  const auto v = check(data, c);
  INFO(v.reason);
  CHECK(v.ok());
  CHECK(v.reason.empty());
  const auto at = chargen::starting_position(data, 0);
  REQUIRE(at);
  CHECK(*at == data.char_gen.starter_areas.at(0).locations.at(0));
  CHECK_FALSE(chargen::starting_position(data, 1));
}

TEST_CASE("A name breaking the rules is NameBanned, a taken one NameInUse", "[chargen][verify]") {
  const auto data = test::demo_char_gen_data();
  auto c = test::demo_character_create(data, "Fe", "acct");
  auto v = check(data, c);
  CHECK(v.code == cr::NameBanned);
  CHECK_THAT(v.reason, Catch::Contains("at least"));
  c.name = "Fen7";
  CHECK(check(data, c).code == cr::NameBanned);

  c.name = "Fen";
  std::string asked;
  v = chargen::verify_character_create(data, c, [&](std::string_view n) {
    asked = n;
    return true;
  });
  CHECK(v.code == cr::NameInUse);
  CHECK(asked == "Fen");
  CHECK_THAT(v.reason, Catch::Contains("Fen"));
}

TEST_CASE("Olthoi are Pending while olthoi play is off", "[chargen][verify]") {
  const auto data = test::demo_char_gen_data();
  auto c = test::demo_character_create(data, "Fen", "acct");
  c.heritage = chargen::kHeritageOlthoi;
  chargen::CreateRules off;
  off.olthoi_play_disabled = true;
  CHECK(check(data, c, off).code == cr::Pending);
  // With olthoi play on, the demo CharGen has no olthoi heritage: Corrupt.
  CHECK(check(data, c).code == cr::Corrupt);
}

TEST_CASE("Heritage, gender, appearance, template and start area must name CharGen entries", "[chargen][verify]") {
  const auto data = test::demo_char_gen_data();
  const auto good = test::demo_character_create(data, "Fen", "acct");
  auto c = good;
  c.heritage = 5;
  refused_as_corrupt(data, c, "Heritage 5");
  c = good;
  c.gender = 3;
  refused_as_corrupt(data, c, "gender 3");
  c = good;
  c.appearance.hair_style = 2;
  refused_as_corrupt(data, c, "Hair style 2");
  c = good;
  c.appearance.eyes = 1;
  refused_as_corrupt(data, c, "Eye strip 1");
  c = good;
  c.appearance.nose = 1;
  refused_as_corrupt(data, c, "Nose strip");
  c = good;
  c.appearance.mouth = 1;
  refused_as_corrupt(data, c, "Mouth strip");
  // One past the demo sex's colour lists.
  const auto& sex = data.char_gen.heritage_groups.front().genders.front();
  c = good;
  c.appearance.hair_color = static_cast<std::uint32_t>(sex.hair_colors.size());
  refused_as_corrupt(data, c, "Hair colour");
  c = good;
  c.appearance.eye_color = static_cast<std::uint32_t>(sex.eye_colors.size());
  refused_as_corrupt(data, c, "Eye colour");
  c = good;
  c.template_option = 1;
  refused_as_corrupt(data, c, "Template 1");
  c.template_option = -1;
  refused_as_corrupt(data, c, "Template -1");
  c = good;
  c.start_area = 1;
  refused_as_corrupt(data, c, "Start area 1");
}

TEST_CASE("Clothing indices are checked only against lists the sex has", "[chargen][verify]") {
  auto data = test::demo_char_gen_data();
  auto& sex = data.char_gen.heritage_groups.at(0).genders.at(0);
  sex.shirts.clear();  // a sex that offers no shirts and no headgear
  sex.headgear.clear();
  auto c = test::demo_character_create(data, "Fen", "acct");
  c.appearance.shirt_style = 4;  // no shirt list: not read
  CHECK(check(data, c).ok());
  sex.shirts.push_back({"Tunic", 0x10000001, 100});
  refused_as_corrupt(data, c, "Shirt 4");
  c.appearance.shirt_style = 0;
  CHECK(check(data, c).ok());
  sex.headgear.push_back({"Cap", 0x10000002, 101});
  c.appearance.headgear_style = 1;
  refused_as_corrupt(data, c, "Headgear 1");
  c.appearance.headgear_style = 0xFFFFFFFF;  // no headgear
  CHECK(check(data, c).ok());
}

TEST_CASE("Abilities out of range or over the heritage's credits are Corrupt", "[chargen][verify]") {
  const auto data = test::demo_char_gen_data();
  auto c = test::demo_character_create(data, "Fen", "acct");
  c.abilities[2] = 9;
  refused_as_corrupt(data, c, "Coordination");
  c.abilities = {100, 100, 100, 10, 10, 11};  // 331
  refused_as_corrupt(data, c, "331");
}

TEST_CASE("Another skill count is the wrong client version", "[chargen][verify]") {
  const auto data = test::demo_char_gen_data();
  auto c = test::demo_character_create(data, "Fen", "acct");
  c.skills.push_back(sa::Inactive);
  const auto v = check(data, c);
  CHECK(v.code == cr::Corrupt);
  CHECK(v.wrong_version);
  CHECK_THAT(v.reason, Catch::Contains("56"));
}

TEST_CASE("Skills must be in the SkillTable and within the heritage's credits", "[chargen][verify]") {
  const auto data = test::demo_char_gen_data();
  const auto good = test::demo_character_create(data, "Fen", "acct");
  auto c = good;
  c.skills[1] = sa::Untrained;  // skill 1 is not in the demo table
  refused_as_corrupt(data, c, "Skill 1 is not in the SkillTable");
  // The template spends 28 of 50 (War Magic specialised: 16 trained, then the
  // table's 28 less 16); Light Weapons specialised (6 + 12) makes 46 ...
  c = good;
  c.skills[45] = sa::Specialized;
  CHECK(check(data, c).ok());
  // ... and Melee Defense's 10 is over. Skills are paid in id order, so it is
  // Light Weapons (45), after Melee Defense (6) and War Magic (34), whose
  // specialisation finds too little left (6 + 12 with 10 + 28 + 6 spent).
  c.skills[6] = sa::Trained;
  refused_as_corrupt(data, c, "Specialising skill 45");
  // Trained Melee Defense, Magic Defense and Light Weapons with the template's
  // War Magic: 10 + 12 + 28 = 50 before Light Weapons' 6.
  c = good;
  c.skills[6] = sa::Trained;
  c.skills[15] = sa::Trained;
  c.skills[45] = sa::Trained;
  refused_as_corrupt(data, c, "Training skill 45");
  // A value past Specialized is ignored, as ACE ignores it.
  c = good;
  c.skills[6] = 7;
  CHECK(check(data, c).ok());
}
