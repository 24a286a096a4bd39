#include "terrain_assets.hpp"

#include <cstddef>
#include <utility>

#include "dereth/render/terrain.hpp"

namespace dereth::render {

void TerrainAssets::set_region(std::shared_ptr<const dat::Region> given) noexcept {
  if (given == region) return;
  region = std::move(given);
  region_tried_ = false;
}

void TerrainAssets::ensure_region() {
  if (region_tried_) return;
  region_tried_ = true;
  // The layers and the blocks composited from another Region's go first
  // (the composite's program with them: made again).
  if (terrain_layers != 0) {
    release();
    if (auto made = cache.create_gl(); !made) ctx_.log_once(0xFFFFFFFFU, made.error().message());
  }
  if (!region || !ctx_.records) return;
  const RenderContext::LoadScope scope(ctx_);
  const TerrainLayers layers = build_terrain_layers(*region, ctx_.records.get(), ctx_.options.terrain_layer_size);
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
}

// A landblock arriving: its record from the cell records (the one the
// landscape holds, when it does), its surface composited into the cache;
// null (and remembered as absent) when it is not in the cell DAT or does not
// read (the cell records log that once).
const TerrainBlock* TerrainAssets::load_terrain_block(std::uint32_t block_id) {
  const RenderContext::LoadScope scope(ctx_);
  if (cache.arriving(block_id)) return cache.advance(block_id, terrain_layers, arrival_bands());
  const TerrainBlock* result = nullptr;
  std::shared_ptr<const dat::LandBlock> block = ctx_.cells->land_block(block_id);
  if (!block && ctx_.cells->unreadable(block_id)) {
    // In the cell DAT but malformed (the cache logged why): drawn as the
    // landscape loads it (LandblockStreamer::build), flat and empty.
    auto flat = std::make_shared<dat::LandBlock>();
    flat->id = block_id;
    block = std::move(flat);
  }
  if (block) {
    const auto side = static_cast<std::size_t>(2 * terrain_radius() + 1);
    const TerrainMesh mesh = build_terrain_mesh(*block, region->land_defs);
    result = cache.arrive(mesh, std::move(block), terrain_layers,
                          surface_side(terrain_layer_texels, side * side, ctx_.options.terrain_cache_bytes),
                          ctx_.options.terrain_cache_bytes, arrival_bands());
  }
  if (result == nullptr) cache.mark_absent(block_id);
  return result != nullptr && result->complete ? result : nullptr;
}

void TerrainAssets::release() {
  cache.clear();
  if (terrain_layers != 0) glDeleteTextures(1, &terrain_layers);
  terrain_layers = 0;
}

}  // namespace dereth::render
