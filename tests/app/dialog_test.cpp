// The dialogs over the world (dialog.hpp): the Esc game menu (Resume,
// Options, Log out asked once, Quit) and the server's popups, by keys and
// clicks, without a window.
#include "dereth/app/dialog.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

using dereth::app::Dialog;
using dereth::app::DialogKey;
using dereth::app::Dialogs;
using dereth::app::GameMenu;
using Outcome = dereth::app::GameMenu::Outcome;

TEST_CASE("A dialog: title, text and buttons as lines, the selection wraps, clicks land on buttons only",
          "[app][dialog]") {
  Dialog d("Log out?", {"Your character leaves the world."}, {"Yes, log out", "No"}, 1);
  CHECK(d.lines() ==
        std::vector<std::string>{"Log out?", "", "Your character leaves the world.", "", "> Yes, log out <", "  No"});
  CHECK(d.button_line(0) == 4);
  CHECK(d.enter() == 0);
  CHECK(d.escape() == 1);
  d.up();
  CHECK(d.selected() == 1);
  d.down();
  CHECK(d.selected() == 0);
  CHECK_FALSE(d.click(0).has_value());  // the title
  CHECK_FALSE(d.click(2).has_value());  // the text
  CHECK_FALSE(d.click(6).has_value());  // below the last button
  CHECK(d.click(5) == std::optional<std::size_t>{1});
  CHECK(d.selected() == 1);
  // No buttons: one, OK, which Esc chooses too.
  Dialog popup("Message", {"Welcome!"}, {});
  CHECK(popup.buttons() == 1);
  CHECK(popup.button(0) == "OK");
  CHECK(popup.escape() == 0);
}

TEST_CASE("The game menu: Resume, the options file, Log out asked once, Quit", "[app][dialog][menu]") {
  GameMenu menu("/home/p/.config/dereth/dereth.conf");
  CHECK(menu.page() == GameMenu::Page::Menu);
  CHECK(menu.dialog().lines() == std::vector<std::string>{"Menu", "", "Esc returns to the game.", "", "> Resume <",
                                                          "  Options", "  Log out", "  Quit"});
  CHECK(menu.choose(GameMenu::kResume) == Outcome::Resume);
  CHECK(menu.cancel() == Outcome::Resume);  // Esc on the menu resumes

  // Options: where the file is, and Back (or Esc) returns to the menu on Options.
  CHECK(menu.choose(GameMenu::kOptions) == Outcome::None);
  CHECK(menu.page() == GameMenu::Page::Options);
  const auto options = menu.dialog().lines();
  CHECK(std::find(options.begin(), options.end(), "/home/p/.config/dereth/dereth.conf") != options.end());
  CHECK(menu.cancel() == Outcome::None);
  CHECK(menu.page() == GameMenu::Page::Menu);
  CHECK(menu.dialog().selected() == GameMenu::kOptions);

  // Log out asks once: No (or Esc) goes back, Yes logs out.
  CHECK(menu.choose(GameMenu::kLogOut) == Outcome::None);
  CHECK(menu.page() == GameMenu::Page::ConfirmLogOut);
  CHECK(menu.dialog().title() == "Log out?");
  CHECK(menu.choose(1) == Outcome::None);
  CHECK(menu.page() == GameMenu::Page::Menu);
  CHECK(menu.dialog().selected() == GameMenu::kLogOut);
  CHECK(menu.choose(GameMenu::kLogOut) == Outcome::None);
  CHECK(menu.cancel() == Outcome::None);
  CHECK(menu.page() == GameMenu::Page::Menu);
  CHECK(menu.choose(GameMenu::kLogOut) == Outcome::None);
  CHECK(menu.choose(0) == Outcome::LogOut);

  GameMenu quit("x");
  CHECK(quit.choose(GameMenu::kQuit) == Outcome::Quit);  // no question: leaving logs off anyway
}

TEST_CASE("Dialogs by keys: Esc opens nothing by itself, Down/Enter walk the menu, popups come first",
          "[app][dialog][menu]") {
  Dialogs d("/home/player/.config/dereth/dereth.conf");
  CHECK_FALSE(d.active());
  CHECK(d.shown() == nullptr);
  CHECK(d.key(DialogKey::Enter) == Outcome::None);

  d.open_menu();
  REQUIRE(d.active());
  CHECK(d.shown()->title() == "Menu");
  CHECK(d.key(DialogKey::Escape) == Outcome::Resume);
  CHECK_FALSE(d.active());

  // Down, Down, Enter: Log out, asking; Enter on the question's Yes.
  d.open_menu();
  CHECK(d.key(DialogKey::Down) == Outcome::None);
  CHECK(d.key(DialogKey::Down) == Outcome::None);
  CHECK(d.key(DialogKey::Enter) == Outcome::None);
  CHECK(d.shown()->title() == "Log out?");
  CHECK(d.key(DialogKey::Enter) == Outcome::LogOut);
  CHECK_FALSE(d.active());

  // Up from Resume wraps to Quit.
  d.open_menu();
  CHECK(d.key(DialogKey::Up) == Outcome::None);
  CHECK(d.key(DialogKey::Enter) == Outcome::Quit);

  // A popup over the open menu takes the keys first; each is dismissed in turn.
  d.open_menu();
  d.popup("Welcome to Dereth!\nMind the drudges.");
  d.popup("Second");
  REQUIRE(d.popups() == 2);
  CHECK(d.shown()->title() == "Message");
  CHECK(d.shown()->text() == std::vector<std::string>{"Welcome to Dereth!", "Mind the drudges."});
  CHECK(d.key(DialogKey::Down) == Outcome::None);  // one button: stays on OK
  CHECK(d.key(DialogKey::Enter) == Outcome::None);
  CHECK(d.shown()->text() == std::vector<std::string>{"Second"});
  CHECK(d.key(DialogKey::Escape) == Outcome::None);
  CHECK(d.popups() == 0);
  CHECK(d.menu_open());
  CHECK(d.shown()->title() == "Menu");
  // A click on the menu's Quit line.
  CHECK(d.click(d.shown()->button_line(GameMenu::kQuit)) == Outcome::Quit);
  CHECK_FALSE(d.active());
  // A popup alone, dismissed by a click on OK; a click elsewhere does nothing.
  d.popup("Hi");
  CHECK(d.click(0) == Outcome::None);
  CHECK(d.active());
  CHECK(d.click(d.shown()->button_line(0)) == Outcome::None);
  CHECK_FALSE(d.active());
}
