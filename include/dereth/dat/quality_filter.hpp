#pragma once
// QualityFilter (0x0E010000-0x0E01FFFF): lists of property ids that pass a
// filter; servers read 0x0E010001 as the set of qualities enchantments may
// change. Layout, after the DID: eight u32 counts (int, int64, bool, float,
// data id, instance id, string, position), those eight lists of u32 property
// ids, then three u32 counts (attribute, secondary attribute, skill) and
// those three lists.

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

inline constexpr Did kEnchantableFilterId = 0x0E010001;

struct QualityFilter {
  Did id = kEnchantableFilterId;
  std::vector<std::uint32_t> int_stats;
  std::vector<std::uint32_t> int64_stats;
  std::vector<std::uint32_t> bool_stats;
  std::vector<std::uint32_t> float_stats;
  std::vector<std::uint32_t> did_stats;
  std::vector<std::uint32_t> iid_stats;
  std::vector<std::uint32_t> string_stats;
  std::vector<std::uint32_t> position_stats;
  std::vector<std::uint32_t> attribute_stats;
  std::vector<std::uint32_t> attribute2nd_stats;
  std::vector<std::uint32_t> skill_stats;
  bool operator==(const QualityFilter&) const = default;
};

// Counts are bounded as a running total against the bytes remaining, before
// any list is allocated (TooLarge at the first count that does not fit).
Result<QualityFilter> read_quality_filter(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_quality_filter(const QualityFilter& filter);
void write_json(core::JsonWriter& j, const QualityFilter& filter);

}  // namespace dereth::dat
