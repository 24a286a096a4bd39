// The character list after login (include/dereth/app/character_picker.hpp).
#include <catch2/catch.hpp>

#include "dereth/app/character_picker.hpp"

using dereth::app::CharacterPicker;

namespace {

dereth::protocol::CharacterList list() {
  dereth::protocol::CharacterList l;
  l.characters = {{0x50000001, "Aerin", 0}, {0x50000002, "Borin the Bold", 0}, {0x50000003, "Old Cid", 3600}};
  l.max_slots = 11;
  l.account = "tester";
  return l;
}

}  // namespace

TEST_CASE("CharacterPicker: the list with its slots, keys and numbers, greyed-out characters refused",
          "[app][characters]") {
  CharacterPicker p(list());
  const auto lines = p.lines();
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] == "Choose a character (3 of 11 slots used)");
  CHECK(lines[1] == "> 1. Aerin");
  CHECK(lines[2] == "  2. Borin the Bold");
  CHECK(lines[3] == "  3. Old Cid  (being deleted)");
  p.up();  // already at the top
  CHECK(p.selected() == 0);
  p.down();
  CHECK(p.lines()[CharacterPicker::line_of(1)] == "> 2. Borin the Bold");
  CHECK(p.choose() == std::optional<std::uint32_t>(0x50000002));
  p.down();
  p.down();  // at the bottom
  CHECK(p.selected() == 2);
  CHECK_FALSE(p.choose().has_value());  // being deleted
  CHECK(p.choose_number(1) == std::optional<std::uint32_t>(0x50000001));
  CHECK_FALSE(p.choose_number(0).has_value());
  CHECK_FALSE(p.choose_number(4).has_value());
  CHECK(p.choose_line(CharacterPicker::line_of(1)) == std::optional<std::uint32_t>(0x50000002));
  CHECK_FALSE(p.choose_line(0).has_value());  // the header
}

TEST_CASE("CharacterPicker starts on the first character that can be chosen", "[app][characters]") {
  auto l = list();
  l.characters[0].seconds_greyed_out = 10;
  CharacterPicker p(l);
  CHECK(p.selected() == 1);
}
