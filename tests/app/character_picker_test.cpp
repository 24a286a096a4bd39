// The character list after login (include/dereth/app/character_picker.hpp).
#include "dereth/app/character_picker.hpp"

#include <catch2/catch.hpp>

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
  CharacterPicker p(list(), "Dereth (127.0.0.1:9000)");
  const auto lines = p.lines();
  REQUIRE(lines.size() == 13);  // header, 11 slots, actions
  CHECK(lines[0] == "Dereth (127.0.0.1:9000): 3 of 11 slots used, 8 free");
  CHECK(lines[1] == "> 1. Aerin");
  CHECK(lines[2] == "  2. Borin the Bold");
  CHECK(lines[3] == "  3. Old Cid  (pending deletion, 1 h 0 min left)");
  CHECK(lines[4] == "  4. (empty slot)");
  CHECK(lines[11] == "  11. (empty slot)");
  CHECK(lines[p.actions_line()] == "[Enter] Enter   [C] Create   [Del] Delete");
  p.up();  // already at the top
  CHECK(p.selected() == 0);
  p.down();
  CHECK(p.lines()[CharacterPicker::line_of(1)] == "> 2. Borin the Bold");
  CHECK(p.choose() == std::optional<std::uint32_t>(0x50000002));
  p.down();
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

TEST_CASE("CharacterPicker: Enter, Create and Delete as actions, by key and by click", "[app][characters]") {
  using Kind = dereth::app::PickerAction::Kind;
  CharacterPicker p(list());
  CHECK(p.activate() == dereth::app::PickerAction{Kind::Enter, 0x50000001});
  CHECK(p.create().kind == Kind::Create);
  // Delete asks twice; moving away disarms it.
  CHECK(p.remove().kind == Kind::None);
  CHECK(p.message() == "Press Delete again to delete Aerin.");
  p.down();
  CHECK(p.remove().kind == Kind::None);
  CHECK(p.message() == "Press Delete again to delete Borin the Bold.");
  CHECK(p.remove() == dereth::app::PickerAction{Kind::Delete, 0x50000002});
  // A character pending deletion can be neither entered nor deleted again.
  p.down();
  CHECK(p.activate().kind == Kind::None);
  CHECK(p.message() == "Old Cid is pending deletion and cannot enter the world.");
  CHECK(p.remove().kind == Kind::None);
  // Enter on an empty slot creates; so does a click on one.
  p.down();
  CHECK(p.selected() == 3);
  CHECK(p.activate().kind == Kind::Create);
  CHECK(p.click(CharacterPicker::line_of(6), 0.5F).kind == Kind::Create);
  CHECK(p.click(CharacterPicker::line_of(0), 0.5F) == dereth::app::PickerAction{Kind::Enter, 0x50000001});
  // The actions line: Enter, Create, Delete by thirds.
  CHECK(p.click(p.actions_line(), 0.1F).kind == Kind::Enter);
  CHECK(p.click(p.actions_line(), 0.5F).kind == Kind::Create);
  CHECK(p.click(p.actions_line(), 0.9F).kind == Kind::None);  // armed
  CHECK(p.click(p.actions_line(), 0.9F) == dereth::app::PickerAction{Kind::Delete, 0x50000001});
  CHECK(p.click(0, 0.5F).kind == Kind::None);  // the header
}

TEST_CASE("CharacterPicker: an account with no characters starts on an empty slot, a full one cannot create",
          "[app][characters]") {
  dereth::protocol::CharacterList empty;
  empty.max_slots = 3;
  CharacterPicker p(empty);
  CHECK(p.lines()[0] == "The server: 0 of 3 slots used, 3 free");
  CHECK(p.selected() == 0);
  CHECK(p.activate().kind == dereth::app::PickerAction::Kind::Create);

  dereth::protocol::CharacterList full;
  full.characters = {{1, "A", 0}, {2, "B", 0}};
  full.max_slots = 2;
  CharacterPicker f(full);
  CHECK(f.create().kind == dereth::app::PickerAction::Kind::None);
  CHECK(f.message() == "Every slot is used: delete a character to make room.");
}

TEST_CASE("CharacterPicker::replace_list: the server's answer to a deletion replaces \"Deleting ...\"",
          "[app][characters]") {
  dereth::protocol::CharacterList list;
  list.characters = {{0x50000001, "Aerin", 0}, {0x50000002, "Brannoc", 0}};
  list.max_slots = 3;
  dereth::app::CharacterPicker picker(list, "Dereth");
  picker.down();
  CHECK(picker.remove().kind == dereth::app::PickerAction::Kind::None);
  CHECK(picker.remove() == dereth::app::PickerAction{dereth::app::PickerAction::Kind::Delete, 0x50000002});
  CHECK(picker.message() == "Deleting Brannoc...");
  // A list that does not show the deletion yet leaves the message.
  picker.replace_list(list);
  CHECK(picker.message() == "Deleting Brannoc...");
  // The server's F658 with Brannoc greyed out: the message says so; the
  // selection stays on Brannoc, now second after a new first character.
  auto answered = list;
  answered.characters = {{0x50000003, "Ciel", 0}, {0x50000001, "Aerin", 0}, {0x50000002, "Brannoc", 3600}};
  picker.replace_list(answered);
  CHECK(picker.message() == "Brannoc is pending deletion and will be removed in 1 h 0 min.");
  CHECK(picker.selected() == 2);
  CHECK(picker.lines()[3].find("Brannoc  (pending deletion, 1 h 0 min left)") != std::string::npos);
  // A later list no longer speaks of it.
  picker.set_message("");
  auto gone = list;
  gone.characters = {{0x50000001, "Aerin", 0}};
  picker.replace_list(gone);
  CHECK(picker.message().empty());
  CHECK(picker.selected() < picker.slots());
}
