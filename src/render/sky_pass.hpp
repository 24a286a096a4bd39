#pragma once
// The sky pass (private header): the frame's sun, ambient and fog from the
// Region's SkyDesc at the time of day (or the options' fixed light), and the
// day group's sky objects (GameSky) drawn around the eye through the mesh
// pass, behind everything.

#include <cstddef>
#include <span>

#include "dereth/dat/region.hpp"
#include "dereth/render/camera.hpp"
#include "dereth/render/sky.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

#include "frame_lights.hpp"
#include "gpu_assets.hpp"
#include "mesh_pass.hpp"
#include "render_context.hpp"
#include "terrain_assets.hpp"

namespace dereth::render {

class SkyPass {
 public:
  SkyPass(RenderContext& context, const TerrainAssets& terrain, GpuAssets& assets, MeshPass& meshes)
      : ctx_(context), terrain_(terrain), assets_(assets), meshes_(meshes) {}
  SkyPass(const SkyPass&) = delete;
  SkyPass& operator=(const SkyPass&) = delete;

  [[nodiscard]] std::size_t day_group_now(const dat::SkyDesc& sky, const sim::RenderSnapshot& snapshot) const noexcept;
  // The fraction of the day drawn: the snapshot's game time, else options.time_of_day.
  [[nodiscard]] float time_of_day(const sim::RenderSnapshot& snapshot) const noexcept;
  [[nodiscard]] FrameSky frame_sky(const sim::RenderSnapshot& snapshot) const;
  // `covered_rows`: per vertical strip of the frame (sky_cover_strips), the
  // rows at its bottom left out (a scissor above them), where the world
  // drawn first covers every pixel; empty: none.
  void draw_sky(const sim::RenderSnapshot& snapshot, const Camera& camera, int width, int height, const FrameSky& sky,
                std::span<const int> covered_rows);

 private:
  RenderContext& ctx_;
  const TerrainAssets& terrain_;
  GpuAssets& assets_;
  MeshPass& meshes_;
  GameSky game_sky_;  // the sky objects between frames
};

}  // namespace dereth::render
