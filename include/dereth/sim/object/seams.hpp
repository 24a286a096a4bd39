#pragma once
// The seams where later work plugs into the object loop, one header each.
// Each interface names the retail owner it stands for; the defaults do what
// retail does when that owner is absent (a null part array, no script table).
// PositionManager is the retail class itself (virtual so tests can record).
//
// - effects_sink.hpp: PhysicsScriptTable resolution, ScriptManager, ParticleManager.
// - part_array.hpp, movement_manager.hpp: animation, placement frames, lights, motion.
// - position_manager.hpp: interpolation, sticky, constraint (interpolation_manager.hpp,
//   sticky_manager.hpp, constraint_manager.hpp).
// - physics_obj_hook.hpp, anim_hook.hpp, dat_anim_hook.hpp: timed and animation hooks.
// - object_factory.hpp: Setup defaults and the per-object parts above.
// - player_controller.hpp: the CommandInterpreter questions the SmartBox asks.

#include "dereth/sim/effects/effects_sink.hpp"
#include "dereth/sim/motion/movement_manager.hpp"
#include "dereth/sim/motion/position_manager.hpp"
#include "dereth/sim/object/anim_hook.hpp"
#include "dereth/sim/object/dat_anim_hook.hpp"
#include "dereth/sim/object/object_factory.hpp"
#include "dereth/sim/object/part_array.hpp"
#include "dereth/sim/object/physics_obj_hook.hpp"
#include "dereth/sim/player/player_controller.hpp"
