#pragma once
// XpTable (0x0E000018): the experience needed for each rank and level, a table
// a server reads at start. Layout: docs/dat.md "Tables for third-party servers".

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

inline constexpr Did kXpTableId = 0x0E000018;

struct XpTable {
  Did id = kXpTableId;
  std::vector<std::uint32_t> attribute;          // maximum attribute rank + 1 entries
  std::vector<std::uint32_t> vital;              // maximum vital rank + 1
  std::vector<std::uint32_t> trained_skill;      // maximum trained skill rank + 1
  std::vector<std::uint32_t> specialized_skill;  // maximum specialized skill rank + 1
  std::vector<std::uint64_t> level;              // maximum level + 1
  std::vector<std::uint32_t> skill_credits;      // credits granted on reaching level i; as many as `level`
  bool operator==(const XpTable&) const = default;
};

// A maximum whose table the remaining bytes cannot hold is TooLarge at the
// maximum's offset (checked in 64 bits, so 0xFFFFFFFF cannot wrap).
Result<XpTable> read_xp_table(std::span<const std::uint8_t> bytes, Did id);
// Every table holds at least one entry on disk (the maximum is size - 1): an
// empty table is written as one 0; skill_credits is written with exactly as
// many entries as `level` (zeros fill, extras are dropped).
std::vector<std::uint8_t> write_xp_table(const XpTable& table);
void write_json(core::JsonWriter& j, const XpTable& table);

}  // namespace dereth::dat
