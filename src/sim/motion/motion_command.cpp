#include "dereth/sim/motion/motion_command.hpp"

namespace dereth::sim {

namespace mc = motion_command;

std::optional<std::uint32_t> motion_command_from_wire(std::uint16_t command) noexcept {
  // The command_ids[] entries for the commands dereth's motion code names.
  switch (command) {
    case 0x0003: return mc::Ready;
    case 0x0004: return mc::Stop;
    case 0x0005: return mc::WalkForward;
    case 0x0006: return mc::WalkBackwards;
    case 0x0007: return mc::RunForward;
    case 0x000D: return mc::TurnRight;
    case 0x000E: return mc::TurnLeft;
    case 0x000F: return mc::SideStepRight;
    case 0x0010: return mc::SideStepLeft;
    case 0x0011: return mc::Dead;
    case 0x0012: return mc::Crouch;
    case 0x0013: return mc::Sitting;
    case 0x0014: return mc::Sleeping;
    case 0x0015: return mc::Falling;
    case 0x003B: return mc::Jump;
    case 0x003C: return mc::HandCombat;
    case 0x003D: return mc::NonCombat;
    case 0x0153: return mc::LifestoneRecall;
    default: return std::nullopt;
  }
}

}  // namespace dereth::sim
