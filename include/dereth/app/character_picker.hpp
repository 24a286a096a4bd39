#pragma once
// The character list after login (F658): the account's characters and its
// slot count as the window shows them, chosen with Up/Down and Enter, a
// number key, or a click on a line. No SDL here; the window feeds it keys.
// A character pending deletion (greyed out) is shown and cannot be chosen.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dereth/protocol/login.hpp"

namespace dereth::app {

class CharacterPicker {
 public:
  explicit CharacterPicker(protocol::CharacterList list);

  // The panel: a header line, then one line per character (the selected one
  // marked with '>'), then how to choose.
  [[nodiscard]] std::vector<std::string> lines() const;
  // The panel line character `i` is on (lines()[line_of(i)]).
  [[nodiscard]] static std::size_t line_of(std::size_t character) noexcept { return character + 1; }
  [[nodiscard]] std::size_t selected() const noexcept { return selected_; }
  [[nodiscard]] std::size_t size() const noexcept { return list_.characters.size(); }

  void up();
  void down();
  // Enter: the selected character's guid, unless it is greyed out.
  [[nodiscard]] std::optional<std::uint32_t> choose();
  // A number key (1 = the first) or a click on panel line `line`: selects
  // that character and chooses it.
  [[nodiscard]] std::optional<std::uint32_t> choose_number(std::size_t number);
  [[nodiscard]] std::optional<std::uint32_t> choose_line(std::size_t line);

 private:
  protocol::CharacterList list_;
  std::size_t selected_ = 0;
};

}  // namespace dereth::app
