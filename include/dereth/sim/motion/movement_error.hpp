#pragma once
// The movement path's retail error codes (WERROR_*): what DoMotion,
// PerformMovement and the jump checks answer.

#include <cstdint>

namespace dereth::sim {

// Retail error codes of the movement path (WERROR_*).
namespace movement_error {
inline constexpr std::uint32_t None = 0;
inline constexpr std::uint32_t NoPhysicsObject = 8;
inline constexpr std::uint32_t NoMotionTable = 7;
inline constexpr std::uint32_t CantCrouchInCombat = 63;
inline constexpr std::uint32_t CantSitInCombat = 64;
inline constexpr std::uint32_t CantLieDownInCombat = 65;
inline constexpr std::uint32_t CantChatEmoteInCombat = 66;
inline constexpr std::uint32_t NoMtableData = 67;
inline constexpr std::uint32_t TooManyActions = 69;
inline constexpr std::uint32_t GeneralMovementFailure = 71;
inline constexpr std::uint32_t CantJumpLoad = 73;  // "You're too loaded down to jump"
inline constexpr std::uint32_t YouCantJumpFromThisPosition = 36;
}  // namespace movement_error

}  // namespace dereth::sim
