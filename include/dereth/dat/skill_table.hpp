#pragma once
// SkillTable (0x0E000004), a table servers read at start, and the SkillFormula
// it shares with VitalTable. Layout and how servers evaluate a formula:
// docs/dat.md "Tables for third-party servers".

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
