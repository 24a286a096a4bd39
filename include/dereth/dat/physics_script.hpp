#pragma once
// PhysicsScript (0x33xxxxxx): AnimationHooks at start times. The reader sorts
// them as retail's PhysicsScript::UnPack does (with MSVCR70's qsort, which does
// not keep equal times in stored order); the writer keeps the struct's order.
// Layout: docs/dat.md "PhysicsScript".

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

// PhysicsScriptData::Sort 0x00521600, the comparator PhysicsScript::UnPack
// hands to qsort: -1 when a's start time is below b's, else +1. It never
// returns 0: equal times give +1 in either order, and a NaN on either side
// gives -1 (the `>=` is false).
[[nodiscard]] int physics_script_data_sort(const PhysicsScriptHook& a, const PhysicsScriptHook& b) noexcept;

// PhysicsScript::UnPack 0x005218B0's sort: MSVCR70's qsort (msvcr70_qsort.hpp)
// with the comparator above, so equal start times come out in retail's order
// (not stored order: 15 hooks at one time are permuted) and NaN start times
// where that comparator's answers leave them.
void sort_hooks_by_start_time(std::vector<PhysicsScriptHook>& hooks);

// Reads the entries, then sorts them with sort_hooks_by_start_time.
Result<PhysicsScript> read_physics_script(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_physics_script(const PhysicsScript& script);
void write_json(core::JsonWriter& j, const PhysicsScript& script);

}  // namespace dereth::dat
