#pragma once
// PhysicsScriptTable (0x34) (spec/dat-format.md 3.5, correction 7):
// u32 DID, u32 count, count x (u32 PlayScript type, u32 n,
// n x (f32 mod, u32 script DID)). Plain u32 counts; every list keeps its
// stored order and is never sorted (the lookup depends on that order).

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

// ScriptAndModData: `mod` is an upper intensity threshold, not a weight.
struct ScriptAndMod {
  float mod = 0;
  Did script = 0;  // PhysicsScript 0x33...
  bool operator==(const ScriptAndMod&) const = default;
};

struct PhysicsScriptTableEntry {
  std::uint32_t type = 0;             // PlayScript (4 Launch, 5 Explode, ...)
  std::vector<ScriptAndMod> scripts;  // stored order
  bool operator==(const PhysicsScriptTableEntry&) const = default;
};

struct PhysicsScriptTable {
  Did id = 0;
  std::vector<PhysicsScriptTableEntry> entries;  // stored order

  // PhysicsScriptTable::GetScript 0x00521E40 / PhysicsScriptTableData::GetScript
  // 0x00521A20: the first script, in stored order, whose mod satisfies
  // intensity <= mod. NaN never matches, +inf matches none, -inf the first;
  // an absent type gives nullopt. With a type stored twice, the first list
  // wins (retail's table keeps the first key inserted).
  [[nodiscard]] std::optional<Did> get_script(std::uint32_t type, float intensity) const;

  bool operator==(const PhysicsScriptTable&) const = default;
};

Result<PhysicsScriptTable> read_physics_script_table(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_physics_script_table(const PhysicsScriptTable& table);
void write_json(core::JsonWriter& j, const PhysicsScriptTable& table);

}  // namespace dereth::dat
