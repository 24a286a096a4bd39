#include "dereth/app/character_picker.hpp"

#include <utility>

#include <fmt/format.h>

#include "dereth/protocol/chat.hpp"

namespace dereth::app {

CharacterPicker::CharacterPicker(protocol::CharacterList list) : list_(std::move(list)) {
  // Start on the first character that can be chosen.
  for (std::size_t i = 0; i < list_.characters.size(); ++i) {
    if (list_.characters[i].seconds_greyed_out == 0) {
      selected_ = i;
      break;
    }
  }
}

std::vector<std::string> CharacterPicker::lines() const {
  std::vector<std::string> out;
  out.push_back(fmt::format("Choose a character ({} of {} slots used)", list_.characters.size(), list_.max_slots));
  for (std::size_t i = 0; i < list_.characters.size(); ++i) {
    const auto& c = list_.characters[i];
    const std::string name = protocol::sanitize_chat_text(c.name, 64);
    out.push_back(fmt::format("{} {}. {}{}", i == selected_ ? '>' : ' ', i + 1, name,
                              c.seconds_greyed_out > 0 ? "  (being deleted)" : ""));
  }
  out.push_back("Up/Down and Enter, a number, or click; Esc quits");
  return out;
}

void CharacterPicker::up() {
  if (selected_ > 0) --selected_;
}

void CharacterPicker::down() {
  if (selected_ + 1 < list_.characters.size()) ++selected_;
}

std::optional<std::uint32_t> CharacterPicker::choose() {
  if (selected_ >= list_.characters.size()) return std::nullopt;
  const auto& c = list_.characters[selected_];
  if (c.seconds_greyed_out > 0) return std::nullopt;
  return c.guid;
}

std::optional<std::uint32_t> CharacterPicker::choose_number(std::size_t number) {
  if (number == 0 || number > list_.characters.size()) return std::nullopt;
  selected_ = number - 1;
  return choose();
}

std::optional<std::uint32_t> CharacterPicker::choose_line(std::size_t line) {
  if (line == 0) return std::nullopt;
  return choose_number(line);
}

}  // namespace dereth::app
