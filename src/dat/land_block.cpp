#include "dereth/dat/land_block.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace dereth::dat {

Result<LandBlock> read_land_block(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "LandBlock");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  LandBlock b;
  b.id = id;
  DERETH_TRY(b.has_objects, r.u32("has_objects"));
  DERETH_CHECK(r.require(kLandBlockVertices * 2, "terrain"));
  for (auto& t : b.terrain) t = *r.u16("terrain");
  DERETH_TRY(const auto heights, r.bytes(kLandBlockVertices, "height"));
  std::copy(heights.begin(), heights.end(), b.height.begin());
  DERETH_CHECK(r.skip(1, "padding"));
  DERETH_CHECK(r.expect_end());
  return b;
}

std::vector<std::uint8_t> write_land_block(const LandBlock& block) {
  ByteWriter w;
  w.u32(block.id);
  w.u32(block.has_objects);
  for (const auto t : block.terrain) w.u16(t);
  w.bytes(block.height);
  w.u8(0);
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const LandBlock& block) {
  j.begin_object();
  j.key("type").string("LandBlock");
  j.key("id").hex(block.id);
  j.key("has_objects").number(block.has_objects);
  j.key("vertices").number(static_cast<std::uint64_t>(kLandBlockVertices));
  const std::uint16_t t0 = block.terrain[0];
  j.key("vertex0").begin_object();
  j.key("terrain").hex(t0);
  j.key("terrain_type").number(terrain_type(t0));
  j.key("road").number(terrain_road(t0));
  j.key("scenery").number(terrain_scenery(t0));
  j.key("height").number(block.height[0]);
  j.end_object();
  std::uint32_t min_h = 255;
  std::uint32_t max_h = 0;
  for (const auto h : block.height) {
    min_h = h < min_h ? h : min_h;
    max_h = h > max_h ? h : max_h;
  }
  j.key("min_height").number(min_h);
  j.key("max_height").number(max_h);
  j.end_object();
}

// LScape::get_block_orient 0x00504F90
BlockOrient get_block_orient(int mid_radius, int ix, int iy) noexcept {
  const int dy = iy - mid_radius;
  const int dx = ix - mid_radius;
  const int d = std::max(std::abs(dx), std::abs(dy));
  BlockOrient o;
  if (d > 4) return BlockOrient{8, LandDirection::InViewerBlock};
  o.size = d > 2 ? 4 : (d > 1 ? 2 : 1);
  const int ring = static_cast<int>(o.size);
  if (dx == ring) {
    o.dir = dy == ring ? LandDirection::NortheastOfViewer
                       : (dy == -ring ? LandDirection::SoutheastOfViewer : LandDirection::EastOfViewer);
  } else if (dx == -ring) {
    o.dir = dy == ring ? LandDirection::NorthwestOfViewer
                       : (dy == -ring ? LandDirection::SouthwestOfViewer : LandDirection::WestOfViewer);
  } else if (dy == ring) {
    o.dir = LandDirection::NorthOfViewer;
  } else {
    o.dir = dy == -ring ? LandDirection::SouthOfViewer : LandDirection::InViewerBlock;
  }
  return o;
}

}  // namespace dereth::dat
