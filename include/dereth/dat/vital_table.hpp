#pragma once
// VitalTable (0x0E000003, the secondary attribute table): after the DID,
// three SkillFormulas (skill_table.hpp) for maximum health, stamina and mana,
// in that order; 76 bytes in all.

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/skill_table.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

inline constexpr Did kVitalTableId = 0x0E000003;

struct VitalTable {
  Did id = kVitalTableId;
  SkillFormula max_health;
  SkillFormula max_stamina;
  SkillFormula max_mana;
  bool operator==(const VitalTable&) const = default;
};

Result<VitalTable> read_vital_table(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_vital_table(const VitalTable& table);
void write_json(core::JsonWriter& j, const VitalTable& table);

}  // namespace dereth::dat
