#pragma once
// Small modal dialogs over the world, drawn by the overlay as one centred
// panel: a title, a few lines of text and a column of buttons, one selected.
// Two users: the game menu Esc opens with nothing selected (Resume, where the
// options file is, Log out, asked once, and Quit), as retail's and every game
// engine's players know it, and the server's PopupString, a message the
// player dismisses. While one is up it has the keyboard and the mouse:
// Up/Down (or Tab) move the selection, Enter chooses, Esc cancels, a click on
// a button chooses it. No SDL here; the window feeds it keys and clicks and
// draws lines().

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace dereth::app {

class Dialog {
 public:
  // `cancel`: the button Esc chooses. With no buttons there is one, "OK".
  Dialog(std::string title, std::vector<std::string> text, std::vector<std::string> buttons, std::size_t cancel = 0);

  // The panel: the title, a blank line, the text, a blank line, then one
  // line per button (the selected one marked "> ... <").
  [[nodiscard]] std::vector<std::string> lines() const;
  [[nodiscard]] std::size_t button_line(std::size_t button) const noexcept { return first_button_line() + button; }
  [[nodiscard]] std::size_t title_line() const noexcept { return 0; }
  [[nodiscard]] std::size_t selected() const noexcept { return selected_; }
  [[nodiscard]] std::size_t buttons() const noexcept { return buttons_.size(); }
  [[nodiscard]] const std::string& button(std::size_t i) const { return buttons_.at(i); }
  [[nodiscard]] const std::string& title() const noexcept { return title_; }
  [[nodiscard]] const std::vector<std::string>& text() const noexcept { return text_; }

  // Keyboard: the selection wraps around.
  void up() noexcept;
  void down() noexcept;
  // Enter: the selected button. Esc: the cancel button.
  [[nodiscard]] std::size_t enter() const noexcept { return selected_; }
  [[nodiscard]] std::size_t escape() const noexcept { return cancel_; }
  // A click on panel line `line`: the button there (selected too), or nothing.
  std::optional<std::size_t> click(std::size_t line) noexcept;

 private:
  [[nodiscard]] std::size_t first_button_line() const noexcept { return 2 + text_.size() + 1; }
  std::string title_;
  std::vector<std::string> text_;
  std::vector<std::string> buttons_;
  std::size_t cancel_;
  std::size_t selected_ = 0;
};

// The menu behind Esc: Resume, Options (the options file's location), Log
// out and Quit. Log out asks once ("Log out?" Yes / No); Quit leaves at once
// (dereth logs off on its way out either way).
class GameMenu {
 public:
  enum class Page : std::uint8_t { Menu, Options, ConfirmLogOut };
  enum class Outcome : std::uint8_t { None, Resume, LogOut, Quit };
  // The buttons of the menu page, in order.
  enum Button : std::size_t { kResume = 0, kOptions = 1, kLogOut = 2, kQuit = 3 };

  // `options_file`: where dereth keeps its options (the config file).
  explicit GameMenu(std::string options_file);

  [[nodiscard]] Page page() const noexcept { return page_; }
  [[nodiscard]] Dialog& dialog() noexcept { return dialog_; }
  [[nodiscard]] const Dialog& dialog() const noexcept { return dialog_; }
  // A button of the page shown was chosen (Enter or a click).
  Outcome choose(std::size_t button);
  // Esc: on the menu, Resume; on a page below it, back to the menu.
  Outcome cancel();

 private:
  void show(Page page);
  std::string options_file_;
  Page page_ = Page::Menu;
  Dialog dialog_;
};

// What the window does with a key while a dialog is up.
enum class DialogKey : std::uint8_t { Up, Down, Enter, Escape };

// The dialogs the window shows: the server's popups (first come, first
// shown, each dismissed by the player) over the game menu.
class Dialogs {
 public:
  explicit Dialogs(std::string options_file = {}) : options_file_(std::move(options_file)) {}
  // A PopupString: shown until dismissed, after those before it.
  void popup(const std::string& text);
  // Esc with nothing selected.
  void open_menu();
  [[nodiscard]] bool active() const noexcept { return !popups_.empty() || menu_.has_value(); }
  [[nodiscard]] bool menu_open() const noexcept { return menu_.has_value(); }
  [[nodiscard]] std::size_t popups() const noexcept { return popups_.size(); }
  // The dialog on top (a popup before the menu); null when none is up.
  [[nodiscard]] const Dialog* shown() const noexcept;
  // A key or a click on line `line` of the shown dialog: what the menu
  // asks for (a popup's button only dismisses it).
  GameMenu::Outcome key(DialogKey key);
  GameMenu::Outcome click(std::size_t line);

 private:
  Dialog* top() noexcept;
  GameMenu::Outcome chosen(std::size_t button);
  std::string options_file_;
  std::deque<Dialog> popups_;
  std::optional<GameMenu> menu_;
};

}  // namespace dereth::app
