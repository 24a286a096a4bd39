#include "dereth/sim/physics_script_resolve.hpp"

namespace dereth::sim {

// PhysicsScriptTable::GetScript 0x00521E40 / PhysicsScriptTableData::GetScript 0x00521A20
std::uint32_t get_script(const dat::PhysicsScriptTable& table, std::uint32_t script_type, float intensity) noexcept {
  // The x86 compare at 0x00521A3B (`test ah, 0x41; jnp`) continues past an
  // entry while intensity > mod or unordered: `intensity <= mod` is the match.
  return table.get_script(script_type, intensity).value_or(0);
}

}  // namespace dereth::sim
