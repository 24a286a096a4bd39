#pragma once
// PhysicsScriptTable resolution as the simulation calls it (seed
// retail-projectile-vfx section 5). The DAT record's own lookup
// (dat::PhysicsScriptTable::get_script) already follows retail; this wrapper
// names the two retail functions it stands for and turns "no script" into the
// invalid DID 0 the physics object passes on.

#include <cstdint>

#include "dereth/dat/physics_script_table.hpp"

namespace dereth::sim {

// PhysicsScriptTable::GetScript 0x00521E40: exact type lookup (the first list
// stored for a type wins), then PhysicsScriptTableData::GetScript 0x00521A20:
// the first entry, in stored order, with intensity <= mod. Equality matches;
// NaN and an intensity above every threshold give 0; -inf gives the first
// entry. The intensity is compared as given, bits and all.
[[nodiscard]] std::uint32_t get_script(const dat::PhysicsScriptTable& table, std::uint32_t script_type,
                                       float intensity) noexcept;

}  // namespace dereth::sim
