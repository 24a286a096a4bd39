#pragma once
// Retail's motion ids: the class bits of a 32-bit motion (MotionCommand's
// high byte), the commands the motion code names, and the wire's u16 to
// 32-bit widening (command_ids[]; spec/physics.md section 2.1). Shared by the
// motion table, the interpreters and the player's command interpreter.

#include <cstdint>
#include <optional>

namespace dereth::sim {

// Motion id class bits (spec/physics.md section 2.1).
namespace motion_mask {
inline constexpr std::uint32_t Style = 0x80000000;
inline constexpr std::uint32_t SubState = 0x40000000;
inline constexpr std::uint32_t Modifier = 0x20000000;
inline constexpr std::uint32_t Action = 0x10000000;
inline constexpr std::uint32_t UI = 0x08000000;
inline constexpr std::uint32_t Toggle = 0x04000000;
inline constexpr std::uint32_t ChatEmote = 0x02000000;
inline constexpr std::uint32_t Mappable = 0x01000000;
inline constexpr std::uint32_t Command = 0x00FFFFFF;
}  // namespace motion_mask

// Motion commands the motion code names (retail MotionCommand values).
namespace motion_command {
inline constexpr std::uint32_t Invalid = 0;
inline constexpr std::uint32_t Ready = 0x41000003;
inline constexpr std::uint32_t Stop = 0x41000004;
inline constexpr std::uint32_t WalkForward = 0x45000005;
inline constexpr std::uint32_t WalkBackwards = 0x45000006;
inline constexpr std::uint32_t RunForward = 0x44000007;
inline constexpr std::uint32_t TurnRight = 0x6500000D;
inline constexpr std::uint32_t TurnLeft = 0x6500000E;
inline constexpr std::uint32_t SideStepRight = 0x6500000F;
inline constexpr std::uint32_t SideStepLeft = 0x65000010;
inline constexpr std::uint32_t Dead = 0x40000011;
inline constexpr std::uint32_t Crouch = 0x41000012;
inline constexpr std::uint32_t Sitting = 0x41000013;
inline constexpr std::uint32_t Sleeping = 0x41000014;
inline constexpr std::uint32_t Falling = 0x40000015;
inline constexpr std::uint32_t Jump = 0x2500003B;
inline constexpr std::uint32_t HandCombat = 0x8000003C;
inline constexpr std::uint32_t NonCombat = 0x8000003D;
inline constexpr std::uint32_t LifestoneRecall = 0x10000153;
}  // namespace motion_command

// The full 32-bit motion for the u16 a motion message carries (retail's
// command_ids[] table, spec/protocol.md section 0). Only the commands the
// motion code and the demo use are known; nullopt otherwise.
[[nodiscard]] std::optional<std::uint32_t> motion_command_from_wire(std::uint16_t command) noexcept;

}  // namespace dereth::sim
