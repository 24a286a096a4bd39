#pragma once
// PlayerController: the CommandInterpreter questions the SmartBox asks about
// the local player (CommandInterpreter is the real one).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/types.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::sim {

class PhysicsObj;

// The CommandInterpreter questions SmartBox asks about the local player.
class PlayerController {
 public:
  PlayerController() = default;
  PlayerController(const PlayerController&) = delete;
  PlayerController& operator=(const PlayerController&) = delete;
  virtual ~PlayerController() = default;

  // Whether server vectors and positions move the player (the interpreter
  // slot SmartBox::DoVectorUpdate 0x004521C0 and HandleReceivedPosition
  // 0x00453FD0 both consult). A headless replay follows the server: true.
  [[nodiscard]] virtual bool server_controls_player() const { return true; }
  // Whether an interpolation toward a server position keeps the heading.
  [[nodiscard]] virtual bool keep_heading_on_interpolate() const { return false; }
  // CommandInterpreter::SendPositionEvent 0x006B4770 after a ForcePosition blip.
  virtual void send_position_event(const PhysicsObj& /*player*/) {}
  // A Movement applied to the player (CommandInterpreter notified).
  virtual void movement_applied(const PhysicsObj& /*player*/) {}
  // SmartBox::PlayerPositionUpdated 0x00453870 on a teleport (the player's
  // creation included): the interpreter's vtable slot 29
  // (`vfptr[9].OnLoseFocus` over the 3-entry IInputActionCallbackVtbl),
  // CommandInterpreter::PlayerTeleported 0x006B32B0.
  virtual void player_teleported(const PhysicsObj& /*player*/) {}
};

}  // namespace dereth::sim
