#include "terrain_assets.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <utility>

#include "dereth/render/terrain.hpp"

namespace dereth::render {

void TerrainAssets::set_region(std::shared_ptr<const dat::Region> given) noexcept {
  if (given == region) return;
  region = std::move(given);
  region_tried_ = false;
}

namespace {

// The block the landscape loads (LandblockStreamer::build): its record, or
// flat and empty when it is in the cell DAT but malformed (the cache logged
// why); null when absent.
std::shared_ptr<const dat::LandBlock> read_block(dat::CellRecordCache& cells, std::uint32_t block_id) {
  std::shared_ptr<const dat::LandBlock> block = cells.land_block(block_id);
  if (!block && cells.unreadable(block_id)) {
    auto flat = std::make_shared<dat::LandBlock>();
    flat->id = block_id;
    block = std::move(flat);
  }
  return block;
}

}  // namespace

bool TerrainAssets::ensure_region() {
  if (region_tried_) return true;
  std::optional<TerrainLayers> decoded;
  if (region && on_workers()) {
    const dat::Region* key = region.get();
    layer_loads_.collect(ctx_.records, [&](const dat::Region* r) { return r == region.get(); });
    if (layer_loads_.ready(key) && !ctx_.may_load()) return false;
    decoded =
        layer_loads_.take_or_start(ctx_.workers(), key, ctx_.records,
                                   [given = region, records = ctx_.records, size = ctx_.options.terrain_layer_size] {
                                     return build_terrain_layers(*given, records.get(), size);
                                   });
    if (!decoded) return false;
  }
  region_tried_ = true;
  // The layers and the blocks composited from another Region's go first
  // (the composite's program with them: made again).
  if (terrain_layers != 0) {
    release();
    if (auto made = cache.create_gl(); !made) ctx_.log_once(0xFFFFFFFFU, made.error().message());
  }
  if (!region || !ctx_.records) return true;
  const RenderContext::LoadScope scope(ctx_);
  if (!decoded) decoded = build_terrain_layers(*region, ctx_.records.get(), ctx_.options.terrain_layer_size);
  const TerrainLayers& layers = *decoded;
  terrain_layer_texels = layers.size;
  glGenTextures(1, &terrain_layers);
  glBindTexture(GL_TEXTURE_2D_ARRAY, terrain_layers);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_RGBA8, layers.size, layers.size, static_cast<GLsizei>(layers.layers.size()),
               0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  for (std::size_t i = 0; i < layers.layers.size(); ++i) {
    glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, static_cast<GLint>(i), layers.size, layers.size, 1, GL_RGBA,
                    GL_UNSIGNED_BYTE, layers.layers[i].pixels.data());
  }
  glGenerateMipmap(GL_TEXTURE_2D_ARRAY);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_WRAP_T, GL_REPEAT);
  return true;
}

// A landblock arriving: its record from the cell records (the one the
// landscape holds, when it does), its surface composited into the cache;
// null (and remembered as absent) when it is not in the cell DAT or does not
// read (the cell records log that once).
const TerrainBlock* TerrainAssets::load_terrain_block(std::uint32_t block_id) {
  if (cache.arriving(block_id)) {
    const RenderContext::LoadScope scope(ctx_);
    return cache.advance(block_id, terrain_layers, arrival_bands());
  }
  if (on_workers()) {
    block_loads_.collect(ctx_.records, [&](std::uint32_t id) { return !cache.arriving(id); });
    std::optional<PreparedBlock> p = block_loads_.take_or_start(
        ctx_.workers(), block_id, ctx_.records, [cells = ctx_.cells, given = region, block_id] {
          PreparedBlock made;
          made.block = read_block(*cells, block_id);
          if (made.block) made.mesh = build_terrain_mesh(*made.block, given->land_defs);
          return made;
        });
    if (!p) return nullptr;
    const RenderContext::LoadScope scope(ctx_);
    return arrive(block_id, std::move(p->block), &p->mesh);
  }
  const RenderContext::LoadScope scope(ctx_);
  return arrive(block_id, read_block(*ctx_.cells, block_id), nullptr);
}

// The block's surface composited into the cache (its first step under a
// budget), from `mesh` or one built now; absent when there is no block.
const TerrainBlock* TerrainAssets::arrive(std::uint32_t block_id, std::shared_ptr<const dat::LandBlock> block,
                                          const TerrainMesh* mesh) {
  const TerrainBlock* result = nullptr;
  if (block) {
    const auto side = static_cast<std::size_t>(2 * terrain_radius() + 1);
    const TerrainMesh built = mesh != nullptr ? TerrainMesh{} : build_terrain_mesh(*block, region->land_defs);
    result = cache.arrive(mesh != nullptr ? *mesh : built, std::move(block), terrain_layers,
                          surface_side(terrain_layer_texels, side * side, ctx_.options.terrain_cache_bytes),
                          ctx_.options.terrain_cache_bytes, arrival_bands());
  }
  if (result == nullptr) cache.mark_absent(block_id);
  return result != nullptr && result->complete ? result : nullptr;
}

void TerrainAssets::release() {
  layer_loads_.clear();
  block_loads_.clear();
  cache.clear();
  if (terrain_layers != 0) glDeleteTextures(1, &terrain_layers);
  terrain_layers = 0;
}

}  // namespace dereth::render
