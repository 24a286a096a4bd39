#pragma once
// GfxObjDegradeInfo (0x11xxxxxx), spec/dat-format.md: u32 DID, u32 count,
// count x {u32 GfxObj, u32 degrade mode, f32 min, ideal, max distance}.
// GfxObjDegradeInfo::UnPack 0x0051E400. A GfxObj names its degrade info with
// GfxObj::kHasDidDegrade; the renderer reads the levels' degrade modes
// (1 drawn as posed, 2 facing the viewer, 3..5 turned about local X, Y, Z).

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

struct GfxObjDegrade {
  Did gfx_obj = 0;                 // the GfxObj drawn at this level
  std::uint32_t degrade_mode = 1;  // CPhysicsPart::calc_draw_frame's mode
  float min_dist = 0.0F;
  float ideal_dist = 0.0F;
  float max_dist = 0.0F;
  bool operator==(const GfxObjDegrade&) const = default;
};

struct GfxObjDegradeInfo {
  Did id = 0;
  std::vector<GfxObjDegrade> degrades;
  bool operator==(const GfxObjDegradeInfo&) const = default;
};

Result<GfxObjDegradeInfo> read_gfx_obj_degrade_info(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_gfx_obj_degrade_info(const GfxObjDegradeInfo& info);
void write_json(core::JsonWriter& j, const GfxObjDegradeInfo& info);

}  // namespace dereth::dat
