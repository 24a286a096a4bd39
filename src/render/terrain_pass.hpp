#pragma once
// The terrain pass (private header): the landblocks around the camera
// centre, each at LScape's detail for its ring, loaded through the surface
// cache on arrival, culled by their boxes, and drawn one call per block over
// its composited surface with the terrain program.

#include <cstdint>
#include <vector>

#include <glad/gl.h>
#include <glm/vec3.hpp>

#include "dereth/core/error.hpp"
#include "dereth/render/sky.hpp"
#include "dereth/render/terrain.hpp"

#include "frame_lights.hpp"
#include "render_context.hpp"
#include "terrain_assets.hpp"

namespace dereth::render {

// A terrain block to draw and the detail LScape gives it.
struct TerrainDraw {
  const TerrainBlock* block = nullptr;
  BlockOrient orient;
};

class TerrainPass {
 public:
  TerrainPass(RenderContext& context, TerrainAssets& assets, FrameLights& lights)
      : ctx_(context), assets_(assets), lights_(lights) {}
  TerrainPass(const TerrainPass&) = delete;
  TerrainPass& operator=(const TerrainPass&) = delete;

  // The terrain program and its uniform locations.
  [[nodiscard]] core::Result<void> build_program();
  void release();

  std::vector<TerrainDraw> gather_terrain(const glm::vec3& origin);
  // Loads the terrain block `id` (0xXXYYFFFF) wherever the camera is, within
  // the frame's load budget: true once it is uploaded, absent from the cell
  // DAT, or no terrain is drawn.
  bool prepare_block(std::uint32_t id);
  // Draws the blocks; returns the square of full-detail blocks it drew
  // whole (each drawn, or culled as wholly outside the view), for the sky
  // scissor (sky_cover_rows).
  TerrainCover draw_terrain(const std::vector<TerrainDraw>& blocks, const FrameView& view, const FrameSky& sky);

 private:
  RenderContext& ctx_;
  TerrainAssets& assets_;
  FrameLights& lights_;
  GLuint program_ = 0;
  LightingUniforms lighting_;
  GLint u_offset_ = -1;
  GLint u_surface_ = -1;
  GLuint order_ebo_ = 0;          // a block's triangles last to first (terrain_front_to_back)
  std::vector<GLuint> reversed_;  // ... their indices
};

}  // namespace dereth::render
