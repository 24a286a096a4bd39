// The shared creation rules (include/dereth/chargen/rules.hpp) against the
// demo world's CharGen and SkillTable.
#include "dereth/chargen/rules.hpp"

#include <catch2/catch.hpp>

#include "demo_character.hpp"

using namespace dereth;
namespace sa = protocol::skill_advancement;

TEST_CASE("check_name allows 3 to 32 letters, apostrophes, hyphens and spaces", "[chargen][rules]") {
  CHECK_FALSE(chargen::check_name("Fen"));
  CHECK_FALSE(chargen::check_name("Asheron's Kin-Tor"));
  CHECK_FALSE(chargen::check_name(std::string(32, 'a')));
  auto short_name = chargen::check_name("Al");
  REQUIRE(short_name);
  CHECK_THAT(*short_name, Catch::Contains("3"));
  auto long_name = chargen::check_name(std::string(33, 'a'));
  REQUIRE(long_name);
  CHECK_THAT(*long_name, Catch::Contains("32"));
  for (const char* bad : {"R2D2", "Fen!", "Fen_x", "Caf\xC3\xA9"}) {
    INFO(bad);
    auto why = chargen::check_name(bad);
    REQUIRE(why);
    CHECK_THAT(*why, Catch::Contains("letters"));
  }
}

TEST_CASE("check_attributes keeps each ability in 10..100 and the sum within the heritage's credits",
          "[chargen][rules]") {
  const std::array<std::uint32_t, 6> ok{10, 100, 10, 100, 10, 100};
  CHECK_FALSE(chargen::check_attributes(ok));
  std::array<std::uint32_t, 6> low{9, 100, 10, 100, 10, 100};
  auto why = chargen::check_attributes(low);
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("Strength"));
  std::array<std::uint32_t, 6> high{10, 10, 10, 10, 10, 101};
  why = chargen::check_attributes(high);
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("Self"));
  std::array<std::uint32_t, 6> many{60, 60, 60, 60, 50, 50};  // 340
  why = chargen::check_attributes(many);
  REQUIRE(why);
  CHECK_THAT(*why, Catch::Contains("340"));
  CHECK_FALSE(chargen::check_attributes(many, 340));
}

TEST_CASE("Credits come from the heritage, costs from its own list before the SkillTable", "[chargen][rules]") {
  const auto data = test::demo_char_gen_data();
  CHECK(chargen::skill_credit_total(data, 1) == 50);
  CHECK(chargen::attribute_credit_total(data, 1) == chargen::kAttributeTotal);
  CHECK(chargen::skill_credit_total(data, 99) == 0);
  CHECK(chargen::attribute_credit_total(data, 99) == 0);
  // Light Weapons (45): the heritage lists 6 / 12, the same as the table;
  // War Magic (34): only the table, trained 16 and specialised 28, so the
  // upgrade costs 12 (ACE's UpgradeCostFromTrainedToSpecialized); 1 is in neither.
  CHECK(chargen::skill_cost(data, 1, 45) == chargen::SkillCost{6, 12});
  CHECK(chargen::skill_cost(data, 1, 34) == chargen::SkillCost{16, 12});
  CHECK_FALSE(chargen::skill_cost(data, 1, 1));

  std::vector<std::uint32_t> adv(55, sa::Inactive);
  CHECK(chargen::skill_credits_spent(data, 1, adv) == 0);
  adv[45] = sa::Trained;
  CHECK(chargen::skill_credits_spent(data, 1, adv) == 6);
  adv[34] = sa::Specialized;
  CHECK(chargen::skill_credits_spent(data, 1, adv) == 6 + 16 + 12);
  adv[22] = sa::Untrained;
  adv[1] = sa::Trained;  // not in the table: costs nothing here, the server refuses it
  CHECK(chargen::skill_credits_spent(data, 1, adv) == 34);
}

TEST_CASE("The heritage's own skill cost overrides the SkillTable's", "[chargen][rules]") {
  auto data = test::demo_char_gen_data();
  auto& group = data.char_gen.heritage_groups.at(0);
  group.skills.push_back({34, 2, 3});
  CHECK(chargen::skill_cost(data, 1, 34) == chargen::SkillCost{2, 3});
  // Another heritage pays the table's price.
  CHECK(chargen::skill_cost(data, 7, 34) == chargen::SkillCost{16, 12});
}
