#include "dereth/render/sky.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "dereth/render/camera.hpp"

using namespace dereth;
using render::Rgb8;

namespace {

dat::SkyTimeOfDay key(float begin, float dir_bright, float heading, float pitch, std::uint32_t dir_color,
                      float amb_bright, std::uint32_t amb_color, bool fog, float fog_min, float fog_max,
                      std::uint32_t fog_color) {
  dat::SkyTimeOfDay k;
  k.begin = begin;
  k.dir_bright = dir_bright;
  k.dir_heading = heading;
  k.dir_pitch = pitch;
  k.dir_color = dir_color;
  k.amb_bright = amb_bright;
  k.amb_color = amb_color;
  k.world_fog = fog ? 1U : 0U;
  k.min_world_fog = fog_min;
  k.max_world_fog = fog_max;
  k.world_fog_color = fog_color;
  return k;
}

dat::SkyDesc four_keys() {
  dat::DayGroup g;
  g.name = "Clear";
  g.sky_times = {key(0.0F, 0.2F, 90.0F, -10.0F, 0xFF402010U, 0.2F, 0xFF101030U, true, 50.0F, 200.0F, 0xFF000020U),
                 key(0.25F, 0.6F, 90.0F, 10.0F, 0xFF806040U, 0.3F, 0xFF606080U, true, 80.0F, 300.0F, 0xFF6080A0U),
                 key(0.5F, 1.0F, 180.0F, 60.0F, 0xFFFFFFF0U, 0.5F, 0xFFC8C8FFU, true, 120.0F, 400.0F, 0xFF78A0DCU),
                 key(0.75F, 0.6F, 270.0F, 10.0F, 0xFFA05030U, 0.3F, 0xFF505070U, false, 0.0F, 0.0F, 0U)};
  dat::SkyDesc sky;
  sky.day_groups = {g};
  return sky;
}

// The whole cover of the 576 m square (24 x 24 cells of 24 m) about the
// world's origin, its ground 0..max_z high, relative to the frame's `origin`.
render::TerrainCover square_cover(const glm::vec3& origin, float max_z) {
  render::TerrainCover cover;
  cover.whole = true;
  cover.lo = glm::vec2(-288.0F) - glm::vec2(origin);
  cover.hi = glm::vec2(288.0F) - glm::vec2(origin);
  cover.min_z = 0.0F - origin.z;
  cover.max_z = max_z - origin.z;
  return cover;
}

}  // namespace

TEST_CASE("DayGroup::GetTimeOfDay 0x005009B0 picks the keyframes around the time and wraps after the last",
          "[retail][sky]") {
  const dat::SkyDesc sky = four_keys();
  const auto& times = sky.day_groups[0].sky_times;
  const auto at = [&](float t) {
    auto keys = render::get_time_of_day(sky.day_groups[0], t);
    REQUIRE(keys.has_value());
    return *keys;
  };
  auto k = at(0.6F);
  CHECK(k.before == &times[2]);
  CHECK(k.after == &times[3]);
  CHECK(k.ratio == Approx(0.4F));
  k = at(0.5F);  // a keyframe's own begin: it, ratio 0
  CHECK(k.before == &times[2]);
  CHECK(k.ratio == 0.0F);
  k = at(0.9F);  // after the last: towards the first, over what is left of the day
  CHECK(k.before == &times[3]);
  CHECK(k.after == &times[0]);
  CHECK(k.ratio == Approx(0.6F));
  k = at(-0.5F);  // before the first: the first, extrapolated as retail does
  CHECK(k.before == &times[0]);
  CHECK(k.after == &times[1]);
  CHECK(k.ratio == Approx(-2.0F));
  CHECK_FALSE(render::get_time_of_day(dat::DayGroup{}, 0.5F).has_value());
  // One keyframe at 1: retail divides by zero; the ratio is 0 here.
  dat::DayGroup one;
  one.sky_times = {key(1.0F, 1, 0, 0, 0, 1, 0, false, 0, 0, 0)};
  CHECK(render::get_time_of_day(one, 0.5F)->ratio == 0.0F);
}

TEST_CASE("SkyDesc::GetLighting 0x00500A80 interpolates sun and ambient, truncating colour channels", "[retail][sky]") {
  const dat::SkyDesc sky = four_keys();
  const auto noon = render::get_lighting(sky, 0, 0.5F);
  CHECK(noon.ambient_level == 0.5F);
  CHECK(noon.ambient_color == Rgb8{200, 200, 255});
  CHECK(noon.sunlight_color == Rgb8{255, 255, 240});
  CHECK(noon.sunlight.x == Approx(0.0F).margin(1e-6));  // heading 180: south
  CHECK(noon.sunlight.y == Approx(-0.5F));              // cos 60
  CHECK(noon.sunlight.z == Approx(std::sqrt(3.0F) / 2.0F));
  // Half way from 0.25 to 0.5: brightness 0.8, heading 135, pitch 35.
  const auto morning = render::get_lighting(sky, 0, 0.375F);
  CHECK(morning.ambient_level == Approx(0.4F));
  const float rad = 3.14159265F / 180.0F;
  CHECK(morning.sunlight.x == Approx(0.8F * std::sin(135.0F * rad) * std::cos(35.0F * rad)));
  CHECK(morning.sunlight.y == Approx(0.8F * std::cos(135.0F * rad) * std::cos(35.0F * rad)));
  CHECK(morning.sunlight.z == Approx(0.8F * std::sin(35.0F * rad)));
  // (255 - 128) / 2 + 128 = 191.5, (255 - 96) / 2 + 96 = 175.5: truncated, not rounded.
  CHECK(morning.sunlight_color == Rgb8{191, 175, 152});
  CHECK(morning.ambient_color == Rgb8{148, 148, 191});  // 0x60..0xC8: 148 exactly; 0x80..0xFF: 191.5 -> 191
  // No keyframes, or no such day group: retail's fixed light.
  const render::SkyLighting fixed{0.3F, {255, 255, 255}, {0.5F, 0.0F, 0.8F}, {255, 255, 255}};
  CHECK(render::get_lighting(dat::SkyDesc{}, 0, 0.5F) == fixed);
  CHECK(render::get_lighting(sky, 3, 0.5F) == fixed);
}

TEST_CASE("SkyDesc::GetWorldFog 0x00500CE0 gives fog only when both keyframes have it", "[retail][sky]") {
  const dat::SkyDesc sky = four_keys();
  const auto fog = render::get_world_fog(sky, 0, 0.375F);
  REQUIRE(fog.has_value());
  CHECK(fog->min == Approx(100.0F));
  CHECK(fog->max == Approx(350.0F));
  CHECK(fog->color == Rgb8{108, 144, 190});                      // (0x60+0x78)/2, (0x80+0xA0)/2, (0xA0+0xDC)/2
  CHECK_FALSE(render::get_world_fog(sky, 0, 0.6F).has_value());  // towards the fogless dusk
  CHECK_FALSE(render::get_world_fog(sky, 0, 0.9F).has_value());  // from it
  CHECK_FALSE(render::get_world_fog(dat::SkyDesc{}, 0, 0.5F).has_value());
  CHECK(render::get_world_fog(sky, 0, std::numeric_limits<float>::quiet_NaN()) == std::nullopt);  // NaN: the last
}

TEST_CASE("sky_cover_rows: the rows whose every pixel looks down onto the covered square", "[render][sky]") {
  // A 576 m square of terrain 0..10 m high around the world's origin; each
  // frame takes it relative to its camera's centre, as the renderer does.
  bool whole = true;
  float top = 10.0F;
  float half = 288.0F;
  const auto rows = [&](glm::vec3 eye, glm::vec3 at, int w = 320, int h = 180) {
    const render::Camera cam = render::Camera::look_at(eye, at);
    const glm::vec3 origin = cam.center();
    render::TerrainCover cover;
    cover.whole = whole;
    cover.lo = glm::vec2(-half) - glm::vec2(origin);
    cover.hi = glm::vec2(half) - glm::vec2(origin);
    cover.min_z = 0.0F - origin.z;
    cover.max_z = top - origin.z;
    return render::sky_cover_rows(cam.view_projection(std::max(w, 1), h, origin), cover, w, h);
  };
  // Looking down at 45 degrees from 40 m: the whole frame is ground.
  CHECK(rows({0.0F, 0.0F, 40.0F}, {0.0F, 40.0F, 0.0F}) == 180);
  // Looking level from 40 m: the rows below the horizon whose rays meet the
  // ground within the square (40 m down over at most ~288 m out: about 8
  // degrees down and more), never the horizon's own rows.
  const int level = rows({0.0F, 0.0F, 40.0F}, {0.0F, 40.0F, 40.0F});
  CHECK(level > 30);
  CHECK(level < 90);  // the horizon is the middle row
  // Nearer the square's edge, looking out: fewer rows.
  CHECK(rows({0.0F, 200.0F, 40.0F}, {0.0F, 240.0F, 40.0F}) < level);
  // Not whole, or a frame with no size: nothing covered.
  whole = false;
  CHECK(rows({0.0F, 0.0F, 40.0F}, {0.0F, 40.0F, 0.0F}) == 0);
  whole = true;
  CHECK(rows({0.0F, 0.0F, 40.0F}, {0.0F, 40.0F, 0.0F}, 0, 180) == 0);
  // The eye below the square's top: nothing known (the terrain could be
  // nearer than the near plane).
  top = 50.0F;
  CHECK(rows({0.0F, 0.0F, 40.0F}, {0.0F, 40.0F, 0.0F}) == 0);
  top = 10.0F;
  // Looking up: no row looks down.
  CHECK(rows({0.0F, 0.0F, 40.0F}, {0.0F, 40.0F, 80.0F}) == 0);
  // Down over a 10 km square: from 800 m every ray meets the ground at a
  // view depth within nine tenths of the 1,500 m far plane; from 2 km none
  // does (the ground too near the far plane to count).
  half = 5000.0F;
  CHECK(rows({0.0F, 0.0F, 800.0F}, {0.0F, 0.01F, 0.0F}) == 180);
  CHECK(rows({0.0F, 0.0F, 2000.0F}, {0.0F, 0.01F, 0.0F}) == 0);
}

TEST_CASE("sky_cover_strips: each cell's own heights bound the rays over it, strip by strip", "[render][sky]") {
  // A 576 m square (24 x 24 cells of 24 m) of ground 0..1 m high around the
  // world's origin, with one 60 m hill behind the eye.
  const glm::vec3 eye(0.0F, 0.0F, 40.0F);
  const render::Camera cam = render::Camera::look_at(eye, eye + glm::vec3(0.0F, 40.0F, 0.0F));
  const glm::vec3 origin = cam.center();
  render::TerrainCover cover = square_cover(origin, 60.0F);
  const glm::mat4 vp = cam.view_projection(320, 180, origin);
  // One range for the whole square: the eye is below the hill's top, so
  // nothing is known.
  CHECK(render::sky_cover_rows(vp, cover, 320, 180) == 0);
  cover.grid_x = cover.grid_y = 24;
  const auto cell = [&](int i, int j) -> glm::vec2& { return cover.heights[static_cast<std::size_t>(j * 24 + i)]; };
  for (int j = 0; j < 24; ++j) {
    for (int i = 0; i < 24; ++i) cell(i, j) = glm::vec2(0.0F, 1.0F) - glm::vec2(origin.z);
  }
  cell(12, 2) = glm::vec2(0.0F, 60.0F) - glm::vec2(origin.z);  // the hill, 240 m behind the eye
  // Each cell's own range: the rows below the horizon whose rays meet the
  // ground within the square, as for a flat square (the horizon is the
  // middle row).
  const int level = render::sky_cover_rows(vp, cover, 320, 180);
  CHECK(level > 30);
  CHECK(level < 90);
  std::array<int, 4> strips{};
  render::sky_cover_strips(vp, cover, 320, 180, strips);
  for (const int rows : strips) CHECK(rows >= level);
  // A 100 m pit ahead and to the left: the left strips' rays over it must
  // reach below it, further than the square reaches; the right strips keep
  // their rows.
  for (int j = 14; j < 20; ++j) {
    for (int i = 4; i < 10; ++i) cell(i, j) = glm::vec2(-100.0F, 1.0F) - glm::vec2(origin.z);
  }
  std::array<int, 4> pitted{};
  render::sky_cover_strips(vp, cover, 320, 180, pitted);
  CHECK(pitted[0] < strips[0]);
  CHECK(pitted[3] == strips[3]);
  // The strips of an empty frame, or a cover not whole: nothing.
  render::sky_cover_strips(vp, cover, 0, 180, pitted);
  CHECK(pitted == std::array<int, 4>{});
  cover.whole = false;
  render::sky_cover_strips(vp, cover, 320, 180, pitted);
  CHECK(pitted == std::array<int, 4>{});
}

TEST_CASE("sky_cover_rows: the cells' triangle planes bound the starts of an eye low over a slope", "[render][sky]") {
  // A 576 m square (24 x 24 cells of 24 m) rising northwards by 1 m in 4
  // (6 m a cell), the eye 2.5 m over it looking north and down: the cell
  // under the eye rises above the eye, so its range proves nothing, but the
  // slope's own plane is 2.5 m under the eye.
  const auto ground = [](float y) { return 0.25F * (y + 288.0F); };
  const auto rows = [&](float over, bool planes) {
    const glm::vec3 eye(5.0F, 5.0F, ground(5.0F) + over);
    const render::Camera cam = render::Camera::look_at(eye, eye + glm::vec3(0.0F, 40.0F, -25.0F));
    const glm::vec3 origin = cam.center();
    render::TerrainCover cover = square_cover(origin, 144.0F);
    cover.grid_x = cover.grid_y = 24;
    cover.planes = planes;
    for (int j = 0; j < 24; ++j) {
      const float south = 6.0F * static_cast<float>(j) - origin.z;
      for (int i = 0; i < 24; ++i) {
        const auto cell = static_cast<std::size_t>(j * 24 + i);
        cover.heights[cell] = glm::vec2(south, south + 6.0F);
        cover.corners[cell] = glm::vec4(south, south, south + 6.0F, south + 6.0F);
        cover.cut_sw_ne[cell] = (i + j) % 2 == 0;
      }
    }
    return render::sky_cover_rows(cam.view_projection(320, 180, origin), cover, 320, 180);
  };
  CHECK(rows(2.5F, false) == 0);
  const int covered = rows(2.5F, true);
  CHECK(covered > 60);  // (every row of this frame: each ray going down meets the rising slope)
  // The eye under the slope's plane (or within the metre's margin of it): nothing.
  CHECK(rows(0.5F, true) == 0);
  CHECK(rows(-1.0F, true) == 0);
}
