#include "dereth/sim/player/command_list.hpp"

namespace dereth::sim {

// CommandList::AddCommand 0x006B4B80
void CommandList::add_command(std::uint32_t command, float speed, bool hold_run) {
  entries_.insert(entries_.begin(), CommandListElement{command, speed, hold_run});
}

// CommandList::RemoveCommand 0x006B4960
bool CommandList::remove_command(std::uint32_t command) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->command != command) continue;
    const bool was_head = it == entries_.begin();
    entries_.erase(it);
    return was_head;
  }
  return false;
}

}  // namespace dereth::sim
