#pragma once
// The Region and the ground's GPU assets (private header): the Region
// (0x13000000) as the world decoded it (handed over, never read here), its
// terrain types as one 2D array texture (the composite's input), and the
// landscape surface cache of the landblocks around the camera
// (terrain_cache.hpp), each block read from the cell DAT on arrival. The sky
// reads the Region's SkyDesc from here too.

#include <algorithm>
#include <cstdint>
#include <memory>

#include <glad/gl.h>

#include "dereth/dat/region.hpp"
#include "dereth/render/terrain.hpp"

#include "render_context.hpp"
#include "terrain_cache.hpp"
#include "worker_loads.hpp"

namespace dereth::render {

class TerrainAssets {
 public:
  explicit TerrainAssets(RenderContext& context) : ctx_(context) {}
  TerrainAssets(const TerrainAssets&) = delete;
  TerrainAssets& operator=(const TerrainAssets&) = delete;

  // The Region to draw with (null: none, so no terrain and the fixed sky).
  // Another one than held replaces it: its layers are uploaded again at the
  // next ensure_region and the landblocks are composited again.
  void set_region(std::shared_ptr<const dat::Region> given) noexcept;
  // The Region's terrain layers uploaded, the first time asked after it was
  // set. With asset workers under a budget a worker decodes them and a later
  // call uploads them: false until then (no block may arrive before).
  bool ensure_region();
  // The landblocks drawn around the camera centre's: options.terrain_radius in 0..8.
  [[nodiscard]] int terrain_radius() const noexcept { return std::clamp(ctx_.options.terrain_radius, 0, 8); }
  // A landblock arriving: read from the cell DAT, its surface composited
  // into the cache; null (and remembered as absent) when it is not in the
  // cell DAT (one in it that does not read is drawn flat, as the landscape
  // loads it). Under a load budget (a shown frame) the
  // surface is composited in steps, one a call (arrival_bands()): null
  // while it is still arriving (cache.arriving), the block once complete.
  // With asset workers a worker reads the block and builds its mesh first
  // (null meanwhile). `loading` says a null block is on its way.
  const TerrainBlock* load_terrain_block(std::uint32_t block_id);
  [[nodiscard]] bool loading(std::uint32_t block_id) const {
    return cache.arriving(block_id) || block_loads_.loading(block_id);
  }
  // Terrain layers and blocks with the asset workers, not yet taken.
  [[nodiscard]] std::size_t preparing() const noexcept { return layer_loads_.size() + block_loads_.size(); }
  // The steps a block's surface is composited in: 1 (all at once) without a
  // load budget, else kArrivalBands strips of rows, then the mipmaps.
  [[nodiscard]] int arrival_bands() const noexcept { return ctx_.options.load_budget_ms > 0.0 ? kArrivalBands : 1; }
  static constexpr int kArrivalBands = 8;
  // Frees the cache and the layers (the context current).
  void release();

  std::shared_ptr<const dat::Region> region;
  TerrainSurfaceCache cache;  // landblocks: geometry and composited surface
  GLuint terrain_layers = 0;  // 2D array, one layer per terrain type (the composite's input)
  int terrain_layer_texels = 0;

 private:
  // A landblock as a worker read it: its record (null: absent) and mesh.
  struct PreparedBlock {
    std::shared_ptr<const dat::LandBlock> block;
    TerrainMesh mesh;
  };
  [[nodiscard]] bool on_workers() const noexcept { return ctx_.records && ctx_.cells && ctx_.has_asset_workers(); }
  const TerrainBlock* arrive(std::uint32_t block_id, std::shared_ptr<const dat::LandBlock> block,
                             const TerrainMesh* mesh);

  RenderContext& ctx_;
  bool region_tried_ = false;
  WorkerLoads<const dat::Region*, TerrainLayers> layer_loads_;
  WorkerLoads<std::uint32_t, PreparedBlock> block_loads_;
};

}  // namespace dereth::render
