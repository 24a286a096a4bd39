#pragma once
// PhysicsScript (0x33) (spec/dat-format.md 3.5): timed AnimationHooks.
// u32 DID, u32 count, count x (f64 startTime, AnimationHook incl. its pad),
// then a final pad to four (always a no-op: every entry ends aligned).
//
// The reader sorts the entries by start time as retail does after loading;
// the writer writes them in the struct's order.

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

struct PhysicsScriptHook {
  double start_time = 0;  // seconds after the script starts
  AnimationHook hook;
  bool operator==(const PhysicsScriptHook&) const = default;
};

struct PhysicsScript {
  Did id = 0;
  std::vector<PhysicsScriptHook> hooks;

  // Retail's script length: the start time of the last entry once sorted
  // (0 when empty). Scripts on one object queue back to back by this length.
  [[nodiscard]] double length() const noexcept { return hooks.empty() ? 0.0 : hooks.back().start_time; }
  bool operator==(const PhysicsScript&) const = default;
};

// Stable ascending sort by start time: equal times keep their stored order;
// NaN start times go last (retail's comparator gives NaN no consistent place).
void sort_hooks_by_start_time(std::vector<PhysicsScriptHook>& hooks);

// Reads the entries, then sorts them with sort_hooks_by_start_time.
Result<PhysicsScript> read_physics_script(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_physics_script(const PhysicsScript& script);
void write_json(core::JsonWriter& j, const PhysicsScript& script);

}  // namespace dereth::dat
