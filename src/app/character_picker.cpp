#include "dereth/app/character_picker.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "dereth/protocol/chat.hpp"

namespace dereth::app {

namespace {

// The most slots the list shows (retail's character list has 11 at most).
constexpr std::size_t kMaxSlotsShown = 11;

std::string time_left(std::uint32_t seconds) {
  if (seconds >= 3600) return fmt::format("{} h {} min", seconds / 3600, (seconds % 3600) / 60);
  if (seconds >= 60) return fmt::format("{} min", (seconds + 59) / 60);
  return fmt::format("{} s", seconds);
}

}  // namespace

CharacterPicker::CharacterPicker(protocol::CharacterList list, std::string server_name)
    : list_(std::move(list)), server_name_(std::move(server_name)) {
  // Start on the first character that can be chosen (an empty slot when none can).
  selected_ = list_.characters.size() < slots() ? list_.characters.size() : 0;
  for (std::size_t i = 0; i < list_.characters.size(); ++i) {
    if (list_.characters[i].seconds_greyed_out == 0) {
      selected_ = i;
      break;
    }
  }
}

std::size_t CharacterPicker::slots() const noexcept {
  const std::size_t max = std::min<std::size_t>(list_.max_slots, kMaxSlotsShown);
  return std::max(max, list_.characters.size());
}

std::vector<std::string> CharacterPicker::lines() const {
  std::vector<std::string> out;
  const std::string server =
      server_name_.empty() ? std::string("The server") : protocol::sanitize_chat_text(server_name_, 64);
  out.push_back(
      fmt::format("{}: {} of {} slots used, {} free", server, list_.characters.size(), slots(), free_slots()));
  for (std::size_t i = 0; i < slots(); ++i) {
    const char mark = i == selected_ ? '>' : ' ';
    if (i >= list_.characters.size()) {
      out.push_back(fmt::format("{} {}. (empty slot)", mark, i + 1));
      continue;
    }
    const auto& c = list_.characters[i];
    const std::string name = protocol::sanitize_chat_text(c.name, 64);
    out.push_back(fmt::format("{} {}. {}{}", mark, i + 1, name,
                              c.seconds_greyed_out > 0
                                  ? fmt::format("  (pending deletion, {} left)", time_left(c.seconds_greyed_out))
                                  : std::string()));
  }
  out.push_back("[Enter] Enter   [C] Create   [Del] Delete");
  if (!message_.empty()) out.push_back(message_);
  return out;
}

void CharacterPicker::replace_list(protocol::CharacterList list) {
  std::optional<std::uint32_t> keep;
  if (selected_ < list_.characters.size()) keep = list_.characters[selected_].guid;
  list_ = std::move(list);
  if (selected_ >= slots()) selected_ = slots() > 0 ? slots() - 1 : 0;
  if (keep) select_guid(*keep);
  if (!deleting_) return;
  const auto it = std::find_if(list_.characters.begin(), list_.characters.end(),
                               [&](const protocol::CharacterEntry& c) { return c.guid == *deleting_; });
  if (it == list_.characters.end()) {
    set_message("The character was deleted.");
  } else if (it->seconds_greyed_out > 0) {
    set_message(fmt::format("{} is pending deletion and will be removed in {}.",
                            protocol::sanitize_chat_text(it->name, 64), time_left(it->seconds_greyed_out)));
  } else {
    return;  // not answered yet: still deleting
  }
  deleting_.reset();
}

void CharacterPicker::set_message(std::string message, bool error) {
  message_ = std::move(message);
  message_error_ = error;
}

void CharacterPicker::select_guid(std::uint32_t guid) {
  for (std::size_t i = 0; i < list_.characters.size(); ++i) {
    if (list_.characters[i].guid == guid) selected_ = i;
  }
}

void CharacterPicker::up() {
  if (selected_ > 0) --selected_;
  delete_armed_.reset();
}

void CharacterPicker::down() {
  if (selected_ + 1 < slots()) ++selected_;
  delete_armed_.reset();
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

PickerAction CharacterPicker::activate() {
  delete_armed_.reset();
  if (selected_ >= list_.characters.size()) return create();
  const auto& c = list_.characters[selected_];
  if (c.seconds_greyed_out > 0) {
    set_message(
        fmt::format("{} is pending deletion and cannot enter the world.", protocol::sanitize_chat_text(c.name, 64)),
        true);
    return {};
  }
  return PickerAction{PickerAction::Kind::Enter, c.guid};
}

PickerAction CharacterPicker::create() {
  delete_armed_.reset();
  if (free_slots() == 0) {
    set_message("Every slot is used: delete a character to make room.", true);
    return {};
  }
  return PickerAction{PickerAction::Kind::Create, 0};
}

PickerAction CharacterPicker::remove() {
  if (selected_ >= list_.characters.size()) {
    set_message("Select a character to delete.", true);
    return {};
  }
  const auto& c = list_.characters[selected_];
  const std::string name = protocol::sanitize_chat_text(c.name, 64);
  if (c.seconds_greyed_out > 0) {
    set_message(fmt::format("{} is already pending deletion.", name), true);
    return {};
  }
  if (delete_armed_ != c.guid) {
    delete_armed_ = c.guid;
    set_message(fmt::format("Press Delete again to delete {}.", name), true);
    return {};
  }
  delete_armed_.reset();
  deleting_ = c.guid;
  set_message(fmt::format("Deleting {}...", name));
  return PickerAction{PickerAction::Kind::Delete, c.guid};
}

PickerAction CharacterPicker::click(std::size_t line, float fraction_across) {
  if (line >= line_of(0) && line < line_of(slots())) {
    const std::size_t i = line - line_of(0);
    if (i != selected_) delete_armed_.reset();
    selected_ = i;
    return activate();
  }
  if (line == actions_line()) {
    if (fraction_across < 1.0F / 3.0F) return activate();
    if (fraction_across < 2.0F / 3.0F) return create();
    return remove();
  }
  return {};
}

}  // namespace dereth::app
