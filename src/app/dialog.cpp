#include "dereth/app/dialog.hpp"

#include <utility>

namespace dereth::app {

Dialog::Dialog(std::string title, std::vector<std::string> text, std::vector<std::string> buttons, std::size_t cancel)
    : title_(std::move(title)), text_(std::move(text)), buttons_(std::move(buttons)), cancel_(cancel) {
  if (buttons_.empty()) buttons_.emplace_back("OK");
  if (cancel_ >= buttons_.size()) cancel_ = buttons_.size() - 1;
}

std::vector<std::string> Dialog::lines() const {
  std::vector<std::string> out;
  out.reserve(first_button_line() + buttons_.size());
  out.push_back(title_);
  out.emplace_back();
  for (const auto& t : text_) out.push_back(t);
  out.emplace_back();
  for (std::size_t i = 0; i < buttons_.size(); ++i) {
    out.push_back(i == selected_ ? "> " + buttons_[i] + " <" : "  " + buttons_[i]);
  }
  return out;
}

void Dialog::up() noexcept {
  selected_ = selected_ == 0 ? buttons_.size() - 1 : selected_ - 1;
}

void Dialog::down() noexcept {
  selected_ = (selected_ + 1) % buttons_.size();
}

std::optional<std::size_t> Dialog::click(std::size_t line) noexcept {
  if (line < first_button_line() || line - first_button_line() >= buttons_.size()) return std::nullopt;
  selected_ = line - first_button_line();
  return selected_;
}

namespace {
Dialog page_dialog(GameMenu::Page page, const std::string& options_file) {
  switch (page) {
    case GameMenu::Page::Options:
      return Dialog("Options",
                    {"dereth keeps its options in", options_file.empty() ? "(no options file)" : options_file,
                     "Edit it while dereth is closed, or give --set KEY=VALUE", "(docs/config.md lists the keys)."},
                    {"Back"});
    case GameMenu::Page::ConfirmLogOut:
      return Dialog("Log out?", {"Your character leaves the world."}, {"Yes, log out", "No"}, 1);
    case GameMenu::Page::Menu: break;
  }
  return Dialog("Menu", {"Esc returns to the game."}, {"Resume", "Options", "Log out", "Quit"}, GameMenu::kResume);
}
}  // namespace

GameMenu::GameMenu(std::string options_file)
    : options_file_(std::move(options_file)), dialog_(page_dialog(Page::Menu, options_file_)) {}

void GameMenu::show(Page page) {
  page_ = page;
  dialog_ = page_dialog(page, options_file_);
}

GameMenu::Outcome GameMenu::choose(std::size_t button) {
  switch (page_) {
    case Page::Menu:
      switch (button) {
        case kResume: return Outcome::Resume;
        case kOptions: show(Page::Options); return Outcome::None;
        case kLogOut: show(Page::ConfirmLogOut); return Outcome::None;
        case kQuit: return Outcome::Quit;
        default: return Outcome::None;
      }
    case Page::Options:
      show(Page::Menu);
      dialog_.click(dialog_.button_line(kOptions));  // back where the player was
      return Outcome::None;
    case Page::ConfirmLogOut:
      if (button == 0) return Outcome::LogOut;
      show(Page::Menu);
      dialog_.click(dialog_.button_line(kLogOut));
      return Outcome::None;
  }
  return Outcome::None;
}

GameMenu::Outcome GameMenu::cancel() {
  if (page_ == Page::Menu) return Outcome::Resume;
  return choose(dialog_.escape());
}

void Dialogs::popup(const std::string& text) {
  // The server's text as lines (it may carry line breaks); the window wraps
  // nothing, so long lines are cut to the panel by the overlay.
  std::vector<std::string> lines;
  std::string current;
  for (const char c : text) {
    if (c == '\n') {
      lines.push_back(std::move(current));
      current.clear();
    } else if (c != '\r') {
      current.push_back(c);
    }
  }
  lines.push_back(std::move(current));
  popups_.emplace_back("Message", std::move(lines), std::vector<std::string>{"OK"});
}

void Dialogs::open_menu() {
  if (!menu_) menu_.emplace(options_file_);
}

const Dialog* Dialogs::shown() const noexcept {
  if (!popups_.empty()) return &popups_.front();
  return menu_ ? &menu_->dialog() : nullptr;
}

Dialog* Dialogs::top() noexcept {
  if (!popups_.empty()) return &popups_.front();
  return menu_ ? &menu_->dialog() : nullptr;
}

GameMenu::Outcome Dialogs::chosen(std::size_t button) {
  if (!popups_.empty()) {
    popups_.pop_front();  // a popup's only answer: dismissed
    return GameMenu::Outcome::None;
  }
  if (!menu_) return GameMenu::Outcome::None;
  const auto outcome = menu_->choose(button);
  if (outcome != GameMenu::Outcome::None) menu_.reset();
  return outcome;
}

GameMenu::Outcome Dialogs::key(DialogKey key) {
  Dialog* d = top();
  if (d == nullptr) return GameMenu::Outcome::None;
  switch (key) {
    case DialogKey::Up: d->up(); return GameMenu::Outcome::None;
    case DialogKey::Down: d->down(); return GameMenu::Outcome::None;
    case DialogKey::Enter: return chosen(d->enter());
    case DialogKey::Escape:
      if (!popups_.empty()) return chosen(d->escape());
      if (menu_) {
        const auto outcome = menu_->cancel();
        if (outcome != GameMenu::Outcome::None) menu_.reset();
        return outcome;
      }
      return GameMenu::Outcome::None;
  }
  return GameMenu::Outcome::None;
}

GameMenu::Outcome Dialogs::click(std::size_t line) {
  Dialog* d = top();
  if (d == nullptr) return GameMenu::Outcome::None;
  if (auto button = d->click(line)) return chosen(*button);
  return GameMenu::Outcome::None;
}

}  // namespace dereth::app
