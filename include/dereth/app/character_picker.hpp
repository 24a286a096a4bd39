#pragma once
// The character list after login (F658), as retail's shows it: the server's
// name, the account's characters and its empty slots (used and free), and
// Enter / Create / Delete. Up/Down select, Enter enters the selected
// character (or creates in a selected empty slot), a number key enters that
// character, C creates, Delete (pressed twice) deletes; a click on a line
// selects it and acts as Enter, a click on an action acts as its key. A
// character pending deletion (greyed out) is shown with its time left and
// cannot be entered. No SDL here; the window feeds it keys and clicks.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dereth/protocol/login.hpp"

namespace dereth::app {

// What a key or click on the list asks for.
struct PickerAction {
  enum class Kind : std::uint8_t { None, Enter, Create, Delete };
  Kind kind = Kind::None;
  std::uint32_t guid = 0;  // Enter, Delete: the character
  bool operator==(const PickerAction&) const = default;
};

class CharacterPicker {
 public:
  explicit CharacterPicker(protocol::CharacterList list, std::string server_name = {});

  // The panel: a header line (the server, the slots used and free), one line
  // per character (the selected one marked with '>'), one per empty slot,
  // the actions line, then the message (if any).
  [[nodiscard]] std::vector<std::string> lines() const;
  // The panel line character or slot `i` is on (lines()[line_of(i)]).
  [[nodiscard]] static std::size_t line_of(std::size_t character) noexcept { return character + 1; }
  // The actions line ("[Enter] Enter   [C] Create   [Del] Delete").
  [[nodiscard]] std::size_t actions_line() const noexcept { return 1 + slots(); }
  [[nodiscard]] std::size_t selected() const noexcept { return selected_; }
  [[nodiscard]] std::size_t size() const noexcept { return list_.characters.size(); }
  // Every slot the list shows: the characters and the free ones.
  [[nodiscard]] std::size_t slots() const noexcept;
  [[nodiscard]] std::size_t free_slots() const noexcept { return slots() - size(); }
  [[nodiscard]] const protocol::CharacterList& list() const noexcept { return list_; }

  // A sentence under the list (a refusal, "Creating ..."); empty hides it.
  void set_message(std::string message, bool error = false);
  [[nodiscard]] const std::string& message() const noexcept { return message_; }
  [[nodiscard]] bool message_is_error() const noexcept { return message_error_; }
  // A new F658 from the server (after a creation, a deletion): the list is
  // replaced, the selection kept on the same character where it is still
  // listed, and a "Deleting ..." message becomes what the server did with it.
  void replace_list(protocol::CharacterList list);
  // The server's name for the header (F7E1 may come after the list).
  void set_server_name(std::string name) { server_name_ = std::move(name); }
  // Selects the character `guid` when listed.
  void select_guid(std::uint32_t guid);

  void up();
  void down();
  // Enter: the selected character's guid, unless it is greyed out.
  [[nodiscard]] std::optional<std::uint32_t> choose();
  // A number key (1 = the first) or a click on panel line `line`: selects
  // that character and chooses it.
  [[nodiscard]] std::optional<std::uint32_t> choose_number(std::size_t number);
  [[nodiscard]] std::optional<std::uint32_t> choose_line(std::size_t line);

  // Enter as an action: Enter for a character that can be entered, Create
  // for a selected empty slot, None otherwise (the message says why).
  [[nodiscard]] PickerAction activate();
  // C: Create when a slot is free (else None, and the message says so).
  [[nodiscard]] PickerAction create();
  // Delete: the first press asks for a second; the second deletes.
  [[nodiscard]] PickerAction remove();
  // A click on panel line `line`: a character or slot line selects it and
  // activates it; the actions line's thirds are Enter, Create and Delete.
  [[nodiscard]] PickerAction click(std::size_t line, float fraction_across);

 private:
  protocol::CharacterList list_;
  std::string server_name_;
  std::size_t selected_ = 0;
  std::string message_;
  bool message_error_ = false;
  std::optional<std::uint32_t> deleting_;  // sent F655 for it, the server's answer not seen yet
  std::optional<std::uint32_t> delete_armed_;
};

}  // namespace dereth::app
