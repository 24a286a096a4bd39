#include "sky_pass.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/geometric.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/render/material.hpp"

namespace dereth::render {

namespace {

glm::vec3 unit_color(const Rgb8& c) noexcept {
  return glm::vec3(static_cast<float>(c[0]), static_cast<float>(c[1]), static_cast<float>(c[2])) / 255.0F;
}

}  // namespace

// The day group drawn: retail's for the snapshot's game day
// (CRegionDesc::CalcDayGroup -> SkyDesc::CalcPresentDayGroup 0x00500E10) when
// it has one, else options.day_group (group 0 when out of range).
std::size_t SkyPass::day_group_now(const dat::SkyDesc& sky, const sim::RenderSnapshot& snapshot) const noexcept {
  if (snapshot.sky) {
    return calc_present_day_group(snapshot.sky->day, snapshot.sky->days_per_year, snapshot.sky->year,
                                  sky.day_groups.size());
  }
  return ctx_.options.day_group < sky.day_groups.size() ? ctx_.options.day_group : 0;
}

float SkyPass::time_of_day(const sim::RenderSnapshot& snapshot) const noexcept {
  return snapshot.sky ? snapshot.sky->time_of_day : ctx_.options.time_of_day;
}

// The sun, ambient and fog of this frame: from the Region's SkyDesc at the
// time of day as LScape::PreFetchCells and set_landscape_lighting use it
// (SkyDesc::GetLighting, SkyDesc::GetWorldFog), else the options' fixed
// light and no fog.
FrameSky SkyPass::frame_sky(const sim::RenderSnapshot& snapshot) const {
  FrameSky f;
  if (!terrain_.region || !terrain_.region->sky || terrain_.region->sky->day_groups.empty() ||
      !ctx_.options.use_region_sky) {
    f.mesh_ambient = f.terrain_ambient = ctx_.options.ambient;
    f.sun_color = ctx_.options.sun_color;
    f.sun_towards = glm::length(ctx_.options.sun_towards) > 0.0F ? glm::normalize(ctx_.options.sun_towards)
                                                                 : glm::vec3(0.0F, 0.0F, 1.0F);
    return f;
  }
  const dat::SkyDesc& sky = *terrain_.region->sky;
  const std::size_t group = day_group_now(sky, snapshot);
  const SkyLighting l = get_lighting(sky, group, time_of_day(snapshot));
  const float level = std::isfinite(l.ambient_level) ? std::max(l.ambient_level, 0.0F) : 0.0F;  // min_ambient 0
  const float strength = std::isfinite(glm::length(l.sunlight)) ? glm::length(l.sunlight) : 0.0F;
  const glm::vec3 ambient = unit_color(l.ambient_color);
  f.terrain_ambient = ambient * level;
  f.mesh_ambient = ambient * (strength * 0.2F + level);
  f.sun_color = unit_color(l.sunlight_color) * strength;
  f.sun_towards = strength > core::kEpsilon ? l.sunlight / strength : glm::vec3(0.0F, 0.0F, 1.0F);
  if (const auto fog = get_world_fog(sky, group, time_of_day(snapshot));
      fog && std::isfinite(fog->min) && std::isfinite(fog->max) && fog->max > fog->min) {
    f.fog = true;
    f.fog_min = fog->min;
    f.fog_max = fog->max;
    f.fog_color = unit_color(fog->color);
  }
  return f;
}

// The sky objects (GameSky::Draw 0x00506FF0 with after = 0): GameSky::UseTime
// at the time of day, then each object the draw keeps, in SkyObject
// order, around the eye (the view without its translation) under a far
// plane four times the camera's (Render::zfar * 4), with no depth writes
// and no fog. Retail draws them before the landblocks with the depth test
// always passing (options.sky_first); by default they are drawn after the
// opaque world and the clip list at the far plane, which leaves the same
// picture (each sky object still over the last, everything drawn so far in
// front) without shading the sky under the terrain (docs/deviations.md).
// An object's batches go at once: opaque, then clip, then alpha.
void SkyPass::draw_sky(const sim::RenderSnapshot& snapshot, const Camera& camera, int width, int height,
                       const FrameSky& sky, std::span<const int> covered_rows) {
  if (!ctx_.options.draw_sky_objects || !terrain_.region || !terrain_.region->sky || !ctx_.options.use_region_sky)
    return;
  const dat::SkyDesc& desc = *terrain_.region->sky;
  const std::size_t group = day_group_now(desc, snapshot);
  game_sky_.use_time(desc, group, time_of_day(snapshot));
  const std::vector<const SkyObjectState*> objects = game_sky_.draw_before();
  if (objects.empty()) return;
  Camera far_camera = camera;
  far_camera.far_plane = camera.far_plane * 4.0F;
  FrameView view;
  view.origin = camera.eye();
  view.view_projection = far_camera.view_projection(width, height, view.origin);
  view.eye = view.origin;
  FrameSky unfogged = sky;
  unfogged.fog = false;
  std::vector<DrawItem> items;
  if (ctx_.options.sky_first) {
    glDepthFunc(GL_ALWAYS);
  } else {
    glDepthRange(1.0, 1.0);  // every sky fragment at the far plane: behind whatever was drawn
  }
  for (const SkyObjectState* o : objects) {
    const GpuMesh* m = assets_.mesh(o->gfx_obj);
    if (m == nullptr) continue;
    PhysicsPart draw_state;
    draw_state.set_translucency(o->translucency);
    if (!draw_state.drawn()) continue;
    const glm::mat4 model(o->frame.matrix());
    DrawLists lists;
    meshes_.add_batches(*m, model, glm::mat3(model), draw_state.translucency(), o->luminosity, o->diffusion,
                        PartTag{DrawKind::Sky, sim::LocalId::None, o->gfx_obj, 0.0F, 1}, lists);
    const double scroll = snapshot.sky ? snapshot.sky->seconds : 0.0;
    const glm::vec2 offset(static_cast<float>(std::fmod(static_cast<double>(o->tex_velocity.x) * scroll, 1.0)),
                           static_cast<float>(std::fmod(static_cast<double>(o->tex_velocity.y) * scroll, 1.0)));
    for (auto* list : {&lists.opaque, &lists.clip, &lists.alpha}) {
      for (DrawItem& item : *list) {
        item.state.depth_write = false;
        item.uv_offset = std::isfinite(offset.x) && std::isfinite(offset.y) ? offset : glm::vec2(0.0F);
        items.push_back(item);
      }
    }
    ++ctx_.stats.sky_objects_drawn;
  }
  // Rows the world covers whole would only fail the depth test: the
  // rasteriser is kept out of them (RendererOptions::sky_scissor), strip by
  // strip, neighbours with the same rows under one scissor. Each pixel is in
  // one strip, so it still sees every sky object in order.
  const DepthMode depth = ctx_.options.sky_first ? DepthMode::Always : DepthMode::FarPlane;
  const auto n = static_cast<long long>(covered_rows.size());
  const auto rows_of = [&](long long k) { return std::clamp(covered_rows[static_cast<std::size_t>(k)], 0, height); };
  long long covered_pixels = 0;
  bool any = false;
  for (long long k = 0; k < n; ++k) {
    const int rows = rows_of(k);
    covered_pixels += static_cast<long long>(rows) * ((k + 1) * width / n - k * width / n);
    any = any || rows > 0;
  }
  ctx_.stats.sky_rows_covered = width > 0 ? static_cast<int>(covered_pixels / width) : 0;
  if (!any) {
    meshes_.submit(items, view, unfogged, depth, true);
  } else {
    glEnable(GL_SCISSOR_TEST);
    bool submitted = false;
    for (long long k = 0; k < n;) {
      long long end = k + 1;
      while (end < n && rows_of(end) == rows_of(k)) ++end;
      const auto x0 = static_cast<int>(k * width / n);
      const auto x1 = static_cast<int>(end * width / n);
      const int rows = rows_of(k);
      if (x1 > x0 && rows < height) {
        glScissor(x0, rows, x1 - x0, height - rows);
        if (!submitted) {
          meshes_.submit(items, view, unfogged, depth, true);
          submitted = true;
        } else {  // the same draws again, under another scissor: counted and recorded once
          const RenderStats kept = ctx_.stats;
          const std::size_t records = ctx_.draw_list.size();
          meshes_.submit(items, view, unfogged, depth, true);
          ctx_.stats.draw_calls = kept.draw_calls;
          ctx_.stats.batches = kept.batches;
          ctx_.stats.triangles = kept.triangles;
          ctx_.draw_list.resize(records);
        }
      }
      k = end;
    }
    glDisable(GL_SCISSOR_TEST);
  }
  glDepthRange(0.0, 1.0);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_TRUE);
}

}  // namespace dereth::render
