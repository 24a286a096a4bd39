#pragma once
// ObjectFactory: where objects get their Setup data and their per-object
// parts (DatObjectFactory is the real one).
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/sim/motion/movement_manager.hpp"
#include "dereth/sim/motion/position_manager.hpp"
#include "dereth/sim/object/part_array.hpp"
#include "dereth/sim/object/position.hpp"
#include "dereth/sim/object/types.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::sim {

class PhysicsObj;

// The Setup fields CPhysicsObj::InitDefaults 0x005139D0 reads.
struct SetupDefaults {
  std::uint32_t default_script_id = 0;        // direct PhysicsScript (0x33...)
  std::uint32_t default_motion_table_id = 0;  // 0x09...
  std::uint32_t default_sound_table_id = 0;   // 0x20...
  std::uint32_t default_script_table_id = 0;  // PhysicsScriptTable (0x34...)
  std::uint32_t default_anim_id = 0;          // 0x03...
};

// Where objects get their Setup data and their per-object parts. The default
// has no DAT data: no Setup, no part array, no managers (objects still load,
// move and gate exactly as retail objects without those parts do).
class ObjectFactory {
 public:
  ObjectFactory() = default;
  ObjectFactory(const ObjectFactory&) = delete;
  ObjectFactory& operator=(const ObjectFactory&) = delete;
  virtual ~ObjectFactory() = default;

  [[nodiscard]] virtual std::optional<SetupDefaults> setup_defaults(std::uint32_t /*setup_did*/) {
    return std::nullopt;
  }
  [[nodiscard]] virtual std::unique_ptr<PartArray> make_part_array(PhysicsObj& /*owner*/, std::uint32_t /*setup_did*/) {
    return nullptr;
  }
  [[nodiscard]] virtual std::unique_ptr<MovementManager> make_movement_manager(PhysicsObj& /*owner*/) {
    return nullptr;
  }
  // None: CPhysicsObj::MakePositionManager then creates the retail one (a
  // test factory may hand out a recorder instead).
  [[nodiscard]] virtual std::unique_ptr<PositionManager> make_position_manager(PhysicsObj& /*owner*/) {
    return nullptr;
  }
};

}  // namespace dereth::sim
