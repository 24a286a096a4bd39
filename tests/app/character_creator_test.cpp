// The character-creation screen's rows (include/dereth/app/character_creator.hpp).
#include "dereth/app/character_creator.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

#include <fmt/format.h>

#include "dereth/demo/demo_world.hpp"

using dereth::app::CharacterCreator;
using Kind = CharacterCreator::RowKind;

namespace {

const dereth::chargen::CharGenData& demo_data() {
  static const dereth::chargen::CharGenData data = [] {
    auto world = dereth::demo::build_demo_world();
    REQUIRE(world);
    auto portal = dereth::dat::DatFile::from_bytes(world->portal, "client_portal.dat");
    REQUIRE(portal);
    dereth::dat::RecordCache records(&*portal);
    auto d = dereth::chargen::load_char_gen_data(records);
    REQUIRE(d);
    return std::move(*d);
  }();
  return data;
}

bool has_line(const std::vector<std::string>& lines, const std::string& text) {
  return std::find(lines.begin(), lines.end(), text) != lines.end();
}

}  // namespace

TEST_CASE("CharacterCreator: rows, credits and problems as the screen shows them", "[app][chargen]") {
  CharacterCreator c(demo_data());
  const auto lines = c.lines();
  CHECK(has_line(lines, "> Heritage: Wayfarers"));
  CHECK(has_line(lines, "  Sex: Male"));
  CHECK(has_line(lines, "  Profession: Wanderer"));
  CHECK(has_line(lines, "  Attributes: 330 of 330 credits used, 0 left"));
  CHECK(has_line(lines, "  Strength: 60"));
  const auto war = c.builder().skill_cost(34);
  REQUIRE(war);
  const auto spec = war->trained + war->specialized;
  CHECK(has_line(lines, fmt::format("  Skills: {} of 50 credits used, {} left", spec, 50 - spec)));
  CHECK(has_line(lines, fmt::format("  War Magic: specialised (train 16, specialise {})", spec)));
  CHECK(has_line(lines, "  Starting town: Demo Crossing"));
  CHECK(has_line(lines, "! Type a name for the character."));
  const auto kinds = c.line_kinds();
  REQUIRE(kinds.size() == lines.size());
  CHECK(kinds.front() == CharacterCreator::LineKind::Title);
  CHECK(kinds.back() == CharacterCreator::LineKind::Problem);
}

TEST_CASE("CharacterCreator: keys change values, the name is typed, Create waits for a valid character",
          "[app][chargen]") {
  CharacterCreator c(demo_data());
  c.down();
  c.right();  // Sex: Female
  CHECK(c.builder().gender() == 2);
  REQUIRE(c.select(Kind::Attribute, 0));
  c.right();  // 61: one over
  CHECK(c.builder().attribute_credits_left() == -1);
  CHECK(has_line(c.lines(), "! The attributes use 331 credits; Wayfarers have 330."));
  c.left(true);  // -10
  CHECK(c.builder().attribute(dereth::chargen::Attribute::Strength) == 51);
  REQUIRE(c.select(Kind::Skill, 15));  // Magic Defense
  c.right();
  CHECK(c.builder().skill(15) == dereth::chargen::SkillClass::Trained);
  REQUIRE(c.select(Kind::Skill, 34));  // War Magic: specialised, one step on is untrained
  c.right();
  CHECK(c.builder().skill(34) == dereth::chargen::SkillClass::Untrained);
  c.type("Ae");
  c.type("rX");
  c.backspace();
  CHECK(c.builder().name() == "Aer");
  REQUIRE(c.select(Kind::Create));
  c.builder().set_name("A1");
  CHECK(c.enter() == CharacterCreator::Outcome::None);
  CHECK(c.status().rfind("Not yet: ", 0) == 0);
  CHECK(c.status_is_error());
  c.builder().set_name("Aerfalle");
  CHECK(c.enter() == CharacterCreator::Outcome::Submit);
  const auto m = c.message();
  CHECK(m.name == "Aerfalle");
  CHECK(m.gender == 2);
  CHECK(m.abilities[0] == 51);
  CHECK(m.skills.size() == 55);
  REQUIRE(c.select(Kind::Back));
  CHECK(c.enter() == CharacterCreator::Outcome::Back);
}

TEST_CASE("CharacterCreator: a click selects a row and steps its value by the side clicked", "[app][chargen]") {
  CharacterCreator c(demo_data());
  REQUIRE(c.select(Kind::Attribute, 5));  // Self
  const auto line = c.line_of_row(c.selected());
  c.up();
  CHECK(c.click(line, 0.9F) == CharacterCreator::Outcome::None);
  CHECK(c.builder().attribute(dereth::chargen::Attribute::Self) == 61);
  CHECK(c.click(line, 0.1F) == CharacterCreator::Outcome::None);
  CHECK(c.builder().attribute(dereth::chargen::Attribute::Self) == 60);
  CHECK(c.row_at_line(0) == std::nullopt);  // the title
  c.builder().set_name("Aerfalle");
  REQUIRE(c.select(Kind::Create));
  CHECK(c.click(c.line_of_row(c.selected()), 0.5F) == CharacterCreator::Outcome::Submit);
}

TEST_CASE("CharacterCreator: rows scroll to keep the selected one within the lines a window holds", "[app][chargen]") {
  CharacterCreator c(demo_data());
  c.set_max_lines(12);
  auto lines = c.lines();
  CHECK(lines.size() <= 12);
  CHECK(lines[1] == "> Heritage: Wayfarers");
  CHECK(lines[lines.size() - 2] == "  ... more below (Down)");
  CHECK(lines.back() == "! Type a name for the character.");
  REQUIRE(c.select(Kind::Back));
  lines = c.lines();
  CHECK(lines.size() <= 12);
  CHECK(lines[1] == "  ... more above (Up)");
  CHECK(std::find(lines.begin(), lines.end(), "> [ Back to the list ]") != lines.end());
  // A click maps through the scrolled lines.
  const auto back_line = c.line_of_row(c.selected());
  CHECK(lines[back_line] == "> [ Back to the list ]");
  CHECK(c.click(back_line, 0.5F) == CharacterCreator::Outcome::Back);
}
