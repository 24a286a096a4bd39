#include "dereth/sim/cells/land_defs.hpp"

#include <cmath>
#include <cstdint>

#include "dereth/sim/object/types.hpp"

namespace dereth::sim {

namespace {

// The block's lcoord bits as retail's inline code reads them, whatever the
// range: x = (id >> 21) & 0x7F8 (XX * 8), y = 8 * YY.
LCoord raw_block_lcoord(std::uint32_t id) noexcept {
  return {static_cast<int>((id >> 21) & 0x7F8u), static_cast<int>(8u * ((id >> 16) & 0xFFu))};
}

// MSVC's __ftol2 as `(unsigned __int64)_floor(v)` uses it: a 64-bit
// conversion (fistp qword) whose low 32 bits the int keeps. A value outside
// the int64 range, infinity or NaN becomes 0x8000000000000000 ("integer
// indefinite"), whose low 32 bits are 0. `v` is already floored, so the
// truncation is exact.
int ftol_low32(double v) noexcept {
  constexpr double kTwo63 = 9223372036854775808.0;
  if (!(v >= -kTwo63 && v < kTwo63)) return 0;
  const auto wide = static_cast<std::int64_t>(v);
  return static_cast<int>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(wide)));
}

}  // namespace

bool LandDefs::is_valid_cell(std::uint32_t cell_id) noexcept {
  const std::uint32_t cell = cell_id & 0xFFFFu;
  return (cell >= 1 && cell <= kLastOutdoorCell) || (cell >= kFirstEnvCell && cell <= kLastEnvCell) ||
         cell == kLandBlockCell;
}

bool LandDefs::is_outdoor_cell(std::uint32_t cell_id) noexcept {
  const std::uint32_t cell = cell_id & 0xFFFFu;
  return cell >= 1 && cell <= kLastOutdoorCell;
}

// LandDefs::in_bounds 0x0043D650
bool LandDefs::in_bounds(int x, int y) noexcept {
  return x >= 0 && y >= 0 && x < kLandLength && y < kLandLength;
}

// LandDefs::inbound_valid_cellid 0x004979A0
bool LandDefs::inbound_valid_cellid(std::uint32_t cell_id) noexcept {
  if (!is_valid_cell(cell_id)) return false;
  const LCoord l = raw_block_lcoord(cell_id);
  return in_bounds(l.x, l.y);
}

// LandDefs::blockid_to_lcoord 0x0043D680
std::optional<LCoord> LandDefs::blockid_to_lcoord(std::uint32_t block_id) noexcept {
  if (block_id == 0) return std::nullopt;
  const LCoord l = raw_block_lcoord(block_id);
  if (!in_bounds(l.x, l.y)) return std::nullopt;
  return l;
}

// LandDefs::gid_to_lcoord 0x00497A90
std::optional<LCoord> LandDefs::gid_to_lcoord(std::uint32_t cell_id) noexcept {
  if (!inbound_valid_cellid(cell_id) || (cell_id & 0xFFFFu) >= kFirstEnvCell) return std::nullopt;
  LCoord l = raw_block_lcoord(cell_id);
  const std::uint32_t index = (cell_id & 0xFFFFu) - 1u;
  l.x += static_cast<int>(index >> 3);
  l.y += static_cast<int>(index & 7u);
  if (!in_bounds(l.x, l.y)) return std::nullopt;
  return l;
}

// LandDefs::lcoord_to_gid 0x004A19A0
std::uint32_t LandDefs::lcoord_to_gid(int x, int y) noexcept {
  if (!in_bounds(x, y)) return 0;
  const auto ux = static_cast<std::uint32_t>(x);
  const auto uy = static_cast<std::uint32_t>(y);
  return ((ux >> 3) << 24) | ((uy >> 3) << 16) | outdoor_cell_index(ux & 7u, uy & 7u);
}

// LandDefs::get_outside_lcoord 0x005A9B00
std::optional<LCoord> LandDefs::get_outside_lcoord(std::uint32_t cell_id, const glm::vec3& loc) noexcept {
  if (!is_valid_cell(cell_id)) return std::nullopt;
  // blockid_to_lcoord's result is ignored here: its x and y are written even
  // for block 0xFF, so a point west of or south of that block is still found.
  LCoord l = raw_block_lcoord(cell_id);
  const auto square = static_cast<double>(kSquareLength);
  l.x = static_cast<int>(static_cast<std::uint32_t>(l.x) +
                         static_cast<std::uint32_t>(ftol_low32(std::floor(static_cast<double>(loc.x) / square))));
  l.y = static_cast<int>(static_cast<std::uint32_t>(l.y) +
                         static_cast<std::uint32_t>(ftol_low32(std::floor(static_cast<double>(loc.y) / square))));
  if (!in_bounds(l.x, l.y)) return std::nullopt;
  return l;
}

// LandDefs::adjust_to_outside 0x005A9BC0
bool LandDefs::adjust_to_outside(std::uint32_t& cell_id, glm::vec3& loc) noexcept {
  if (!is_valid_cell(cell_id)) {
    cell_id = 0;
    return false;
  }
  if (std::fabs(static_cast<double>(loc.x)) < static_cast<double>(kPhysicsEpsilon)) loc.x = 0.0f;
  if (std::fabs(static_cast<double>(loc.y)) < static_cast<double>(kPhysicsEpsilon)) loc.y = 0.0f;
  const std::optional<LCoord> l = get_outside_lcoord(cell_id, loc);
  if (!l) {
    cell_id = 0;
    return false;
  }
  cell_id = lcoord_to_gid(l->x, l->y);
  const auto block = static_cast<double>(kBlockLength);
  const auto x = static_cast<double>(loc.x);
  const auto y = static_cast<double>(loc.y);
  loc.x = static_cast<float>(x - std::floor(x / block) * block);
  loc.y = static_cast<float>(y - std::floor(y / block) * block);
  return true;
}

// LandDefs::get_block_offset 0x0043E630
glm::vec3 LandDefs::get_block_offset(std::uint32_t cell_from, std::uint32_t cell_to) noexcept {
  if ((cell_from >> 16) == (cell_to >> 16)) return {0.0f, 0.0f, 0.0f};
  const LCoord from = cell_from != 0 ? raw_block_lcoord(cell_from) : LCoord{};
  std::uint32_t to_x = cell_from;
  std::uint32_t to_y = cell_from;
  if (cell_to != 0) {
    const LCoord to = raw_block_lcoord(cell_to);
    to_x = static_cast<std::uint32_t>(to.x);
    to_y = static_cast<std::uint32_t>(to.y);
  }
  const auto dx = static_cast<std::int32_t>(to_x - static_cast<std::uint32_t>(from.x));
  const auto dy = static_cast<std::int32_t>(to_y - static_cast<std::uint32_t>(from.y));
  const auto square = static_cast<double>(kSquareLength);
  return {static_cast<float>(static_cast<double>(dx) * square), static_cast<float>(static_cast<double>(dy) * square),
          0.0f};
}

// LandDefs::within_block 0x0050E800
bool LandDefs::within_block(const glm::vec3& point, float radius) noexcept {
  const auto r = static_cast<double>(radius);
  if (!(static_cast<double>(point.x) >= r && static_cast<double>(point.y) >= r)) return false;
  const double limit = static_cast<double>(kBlockLength) - r;
  return limit > static_cast<double>(point.x) && limit > static_cast<double>(point.y);
}

}  // namespace dereth::sim
