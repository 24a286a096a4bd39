#pragma once
// CommandList (retail CommandList, ACCmdInterp's per-axis key lists): the keys
// held on one axis, the newest at the head.

#include <cstdint>
#include <vector>

namespace dereth::sim {

// One key list entry (retail CommandListElement).
struct CommandListElement {
  std::uint32_t command = 0;
  float speed = 1.0f;
  bool hold_run = false;
  bool operator==(const CommandListElement&) const = default;
};

// CommandList: the keys held on one axis, newest first. Only keyboard
// entries exist here (no mouse command).
class CommandList {
 public:
  // CommandList::AddCommand 0x006B4B80: a new entry at the head (a command
  // already in the list is not merged; it is there twice).
  void add_command(std::uint32_t command, float speed, bool hold_run);
  // CommandList::RemoveCommand 0x006B4960: removes the first entry for
  // `command` from the head; true only when that entry was the head.
  bool remove_command(std::uint32_t command);
  // CommandList::GetHead 0x006B4A50's caller view: the head, or none.
  [[nodiscard]] const CommandListElement* get_head() const noexcept {
    return entries_.empty() ? nullptr : &entries_.front();
  }
  // CommandList::ClearAllCommands 0x006B4A70
  void clear_all_commands() noexcept { entries_.clear(); }
  [[nodiscard]] const std::vector<CommandListElement>& entries() const noexcept { return entries_; }

 private:
  std::vector<CommandListElement> entries_;  // head first
};

}  // namespace dereth::sim
