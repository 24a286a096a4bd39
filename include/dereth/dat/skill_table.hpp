#pragma once
// SkillTable (0x0E000004) and the SkillFormula it shares with VitalTable.
//
// SkillFormula: six u32 (stored order W, X, Y, Z, attr1, attr2). A server
// computes the attribute contribution as (W + X * attr1 + Y * attr2) / Z,
// rounded; attr1 / attr2 are attribute numbers (Strength 1, Endurance 2,
// Quickness 3, Coordination 4, Focus 5, Self 6; 0 = none). Z = 0 or X = 0
// means "no formula" to the servers, so real formulas keep X >= 1, Z >= 1.
//
// SkillTable, after the DID: a PackableHashTable (u16 count, u16 buckets) of
// u32 skill number -> SkillBase {String16L description, String16L name (each
// padded to 4), u32 icon, i32 trained cost, i32 specialized cost, u32
// category, u32 chargen use, u32 min level, SkillFormula, f64 upper bound,
// f64 lower bound, f64 learn mod}. Entries keep their stored order.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

inline constexpr Did kSkillTableId = 0x0E000004;

struct SkillFormula {
  std::uint32_t w = 0;  // constant term
  std::uint32_t x = 0;  // multiplier of attr1
  std::uint32_t y = 0;  // multiplier of attr2
  std::uint32_t z = 0;  // divisor
  std::uint32_t attr1 = 0;
  std::uint32_t attr2 = 0;
  bool operator==(const SkillFormula&) const = default;
};
inline constexpr std::size_t kSkillFormulaSize = 24;

Result<SkillFormula> read_skill_formula(ByteReader& r, std::string_view field);
void write_skill_formula(ByteWriter& w, const SkillFormula& f);
void json_skill_formula(core::JsonWriter& j, const SkillFormula& f);

struct SkillBase {
  std::string description;
  std::string name;
  Did icon = 0;  // 0x06xxxxxx
  std::int32_t trained_cost = 0;
  std::int32_t specialized_cost = 0;
  std::uint32_t category = 0;  // 1 combat, 2 other, 3 magic
  std::uint32_t chargen_use = 0;
  std::uint32_t min_level = 0;
  SkillFormula formula;
  double upper_bound = 0;
  double lower_bound = 0;
  double learn_mod = 0;
  bool operator==(const SkillBase&) const = default;
};

struct SkillTableEntry {
  std::uint32_t skill = 0;  // the Skill enum value
  SkillBase base;
  bool operator==(const SkillTableEntry&) const = default;
};

struct SkillTable {
  Did id = kSkillTableId;
  std::uint16_t buckets = 0;  // the hash table's bucket count, kept as stored
  std::vector<SkillTableEntry> skills;
  bool operator==(const SkillTable&) const = default;
};

Result<SkillTable> read_skill_table(std::span<const std::uint8_t> bytes, Did id);
// At most 65535 entries are written (the count is a u16).
std::vector<std::uint8_t> write_skill_table(const SkillTable& table);
void write_json(core::JsonWriter& j, const SkillTable& table);

// The entry for `skill`, or null.
[[nodiscard]] const SkillBase* find_skill(const SkillTable& table, std::uint32_t skill) noexcept;

}  // namespace dereth::dat
