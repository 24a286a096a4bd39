#include "dereth/render/sky.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <span>

#include <glm/mat4x4.hpp>
#include <glm/matrix.hpp>
#include <glm/vec4.hpp>

namespace dereth::render {

namespace {

constexpr double kDegreesToRadians = 0.0174532925199433;

// One channel of a ColorARGB interpolated as retail does: the bytes as
// doubles, (after - before) * ratio + before, truncated to a byte.
std::uint8_t lerp_channel(std::uint32_t before, std::uint32_t after, int shift, float ratio) noexcept {
  const auto b = static_cast<double>((before >> shift) & 0xFFU);
  const auto a = static_cast<double>((after >> shift) & 0xFFU);
  double v = (a - b) * static_cast<double>(ratio) + b;
  if (!(v > 0.0)) v = 0.0;  // NaN too (a hostile ratio)
  if (v > 255.0) v = 255.0;
  return static_cast<std::uint8_t>(v);
}

Rgb8 lerp_color(std::uint32_t before, std::uint32_t after, float ratio) noexcept {
  return {lerp_channel(before, after, 16, ratio), lerp_channel(before, after, 8, ratio),
          lerp_channel(before, after, 0, ratio)};
}

const dat::DayGroup* day_group(const dat::SkyDesc& sky, std::size_t group) noexcept {
  return group < sky.day_groups.size() ? &sky.day_groups[group] : nullptr;
}

}  // namespace

// DayGroup::GetTimeOfDay 0x005009B0
std::optional<TimeOfDayKeys> get_time_of_day(const dat::DayGroup& group, float time_of_day) noexcept {
  const auto& times = group.sky_times;
  const std::size_t n = times.size();
  if (n == 0) return std::nullopt;
  std::size_t i = 0;
  while (i + 1 < n && !(times[i + 1].begin > time_of_day)) ++i;
  TimeOfDayKeys keys;
  keys.before = &times[i];
  const double t = time_of_day;
  if (i == n - 1) {
    keys.after = &times[0];
    keys.ratio = static_cast<float>((t - keys.before->begin) / (1.0 - keys.before->begin));
  } else {
    keys.after = &times[i + 1];
    keys.ratio = static_cast<float>((t - keys.before->begin) / (keys.after->begin - keys.before->begin));
  }
  if (!std::isfinite(keys.ratio)) keys.ratio = 0.0F;
  return keys;
}

// SkyDesc::GetLighting 0x00500A80
SkyLighting get_lighting(const dat::SkyDesc& sky, std::size_t group, float time_of_day) noexcept {
  SkyLighting out;
  const dat::DayGroup* g = day_group(sky, group);
  const auto keys = g != nullptr ? get_time_of_day(*g, time_of_day) : std::nullopt;
  if (!keys) {
    out.ambient_level = 0.3F;
    out.ambient_color = {255, 255, 255};
    out.sunlight = {0.5F, 0.0F, 0.8F};
    out.sunlight_color = {255, 255, 255};
    return out;
  }
  const dat::SkyTimeOfDay& b = *keys->before;
  const dat::SkyTimeOfDay& a = *keys->after;
  const float r = keys->ratio;
  out.ambient_level = (a.amb_bright - b.amb_bright) * r + b.amb_bright;
  out.ambient_color = lerp_color(b.amb_color, a.amb_color, r);
  const float bright = b.dir_bright + (a.dir_bright - b.dir_bright) * r;
  const double pitch = static_cast<double>((a.dir_pitch - b.dir_pitch) * r + b.dir_pitch) * kDegreesToRadians;
  const double heading = static_cast<double>(b.dir_heading + (a.dir_heading - b.dir_heading) * r) * kDegreesToRadians;
  const double cos_pitch = std::cos(static_cast<float>(pitch));
  out.sunlight.x = static_cast<float>(std::sin(heading) * bright * cos_pitch);
  out.sunlight.y = static_cast<float>(std::cos(heading) * bright * cos_pitch);
  out.sunlight.z = static_cast<float>(bright * std::sin(static_cast<float>(pitch)));
  out.sunlight_color = lerp_color(b.dir_color, a.dir_color, r);
  return out;
}

// SkyDesc::GetWorldFog 0x00500CE0
std::optional<SkyFog> get_world_fog(const dat::SkyDesc& sky, std::size_t group, float time_of_day) noexcept {
  const dat::DayGroup* g = day_group(sky, group);
  const auto keys = g != nullptr ? get_time_of_day(*g, time_of_day) : std::nullopt;
  if (!keys || keys->before->world_fog == 0 || keys->after->world_fog == 0) return std::nullopt;
  const dat::SkyTimeOfDay& b = *keys->before;
  const dat::SkyTimeOfDay& a = *keys->after;
  const float r = keys->ratio;
  SkyFog fog;
  fog.min = (a.min_world_fog - b.min_world_fog) * r + b.min_world_fog;
  fog.max = (a.max_world_fog - b.max_world_fog) * r + b.max_world_fog;
  fog.color = lerp_color(b.world_fog_color, a.world_fog_color, r);
  return fog;
}

// SkyDesc::CalcPresentDayGroup 0x00500E10
std::size_t calc_present_day_group(std::uint32_t current_day, std::uint32_t days_per_year, std::uint32_t current_year,
                                   std::size_t groups) noexcept {
  const std::uint32_t day = current_day + days_per_year * current_year;
  const std::uint32_t hash = 1782775218U * day - 1967253934U;
  constexpr double kTwoToMinus32 = 1.0 / 4294967296.0;
  const double scaled = std::floor(static_cast<double>(hash) * kTwoToMinus32 * static_cast<double>(groups));
  const auto group = static_cast<std::size_t>(scaled);
  return group < groups ? group : 0;
}

// SkyDesc::GetSky 0x00501EC0
std::vector<CelestialPosition> get_sky(const dat::SkyDesc& sky, std::size_t group, float time_of_day) {
  std::vector<CelestialPosition> out;
  const dat::DayGroup* g = day_group(sky, group);
  if (g == nullptr) return out;
  const double t = time_of_day;
  out.reserve(g->sky_objects.size());
  for (const dat::SkyObject& o : g->sky_objects) {
    CelestialPosition p;
    const bool always = o.begin_time == o.end_time;
    p.gfx_id = always || (t > o.begin_time && t < o.end_time) ? o.default_gfx_object : 0;
    p.pes_id = o.default_pes_object;
    p.properties = o.properties;
    p.heading = 0.0F;
    p.rotation =
        always ? o.begin_angle
               : static_cast<float>((o.end_angle - o.begin_angle) * (t - o.begin_time) / (o.end_time - o.begin_time) +
                                    o.begin_angle);
    p.tex_velocity = {o.tex_velocity_x, o.tex_velocity_y};
    out.push_back(p);
  }
  const auto keys = get_time_of_day(*g, time_of_day);
  if (!keys) return out;
  const float ratio = keys->ratio;
  for (const dat::SkyObjectReplace& r : keys->before->replaces) {
    if (r.object_index >= out.size()) continue;  // retail: past the array
    CelestialPosition& p = out[r.object_index];
    if (r.gfx_obj != 0) p.gfx_id = r.gfx_obj;
    if (r.rotate != 0.0F) p.heading = r.rotate;
    if (!(r.luminosity > 0.0F || r.max_bright > 0.0F || r.transparent >= 0.0F)) continue;
    const dat::SkyObjectReplace* next = nullptr;
    for (const dat::SkyObjectReplace& n : keys->after->replaces) {
      if (n.object_index == r.object_index) {
        next = &n;
        break;
      }
    }
    if (next == nullptr) continue;
    if (r.luminosity > 0.0F && next->luminosity > 0.0F) {
      p.luminosity = (next->luminosity - r.luminosity) * ratio + r.luminosity;
    }
    if (r.max_bright > 0.0F && next->max_bright > 0.0F) {
      p.max_bright = (next->max_bright - r.max_bright) * ratio + r.max_bright;
    }
    if (r.transparent >= 0.0F && next->transparent >= 0.0F) {
      p.transparent = (next->transparent - r.transparent) * ratio + r.transparent;
    }
  }
  return out;
}

// GameSky::CalcFrame 0x00506F80
core::Frame calc_frame(core::Frame frame, float heading, float rotation) noexcept {
  if (heading != 0.0F) frame.set_heading(heading);
  if (rotation != 0.0F) {
    frame.grotate(glm::vec3(0.0F, static_cast<float>(-static_cast<double>(rotation) * kDegreesToRadians), 0.0F));
  }
  return frame;
}

// GameSky::UseTime 0x005075B0
void GameSky::use_time(const dat::SkyDesc& sky, std::size_t group, float time_of_day, bool weather_enabled) {
  const std::vector<CelestialPosition> positions = get_sky(sky, group, time_of_day);
  // GameSky::CreateDeletePhysicsObjects 0x005073C0
  const bool weather_changed = weather_enabled != weather_enabled_;
  weather_enabled_ = weather_enabled;
  objects_.resize(positions.size());
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const CelestialPosition& p = positions[i];
    std::optional<SkyObjectState>& slot = objects_[i];
    const bool keep = slot && slot->gfx_obj == p.gfx_id && slot->properties == p.properties &&
                      !(weather_changed && (p.properties & sky_properties::kWeather) != 0);
    if (keep) continue;
    slot.reset();
    // GameSky::MakeObject 0x00506EE0
    if (p.gfx_id == 0 || ((p.properties & sky_properties::kWeather) != 0 && !weather_enabled)) continue;
    SkyObjectState made;
    made.gfx_obj = p.gfx_id;
    made.properties = p.properties;
    made.tex_velocity = p.tex_velocity;
    slot = made;
  }
  for (std::size_t i = 0; i < positions.size(); ++i) {
    if (!objects_[i]) continue;
    const CelestialPosition& p = positions[i];
    SkyObjectState& o = *objects_[i];
    o.frame = calc_frame(core::Frame(), p.heading, p.rotation);
    if (p.luminosity > 0.0F) o.luminosity = p.luminosity * 0.0099999998F;
    if (p.max_bright > 0.0F) o.diffusion = p.max_bright * 0.0099999998F;
    if (p.transparent >= 0.0F) o.translucency = p.transparent * 0.0099999998F;
  }
}

// GameSky::Draw 0x00506FF0 (after = 0)
std::vector<const SkyObjectState*> GameSky::draw_before(bool weather_enabled, bool fog_override) const {
  std::vector<const SkyObjectState*> out;
  for (const auto& slot : objects_) {
    if (!slot) continue;
    const std::uint32_t props = slot->properties;
    if ((props & sky_properties::kAfter) != 0) continue;
    if (!weather_enabled && (props & sky_properties::kWeather) != 0) continue;
    if (fog_override && (props & sky_properties::kFogHidden) != 0) continue;
    out.push_back(&*slot);
  }
  return out;
}

namespace {

constexpr double kCoverMargin = 1.0;         // metres the square is shrunk by, and the heights widened by
constexpr double kCoverFarFraction = 0.9;    // of the near-to-far distance, where the bottom height must be met
constexpr double kCoverNearFraction = 1e-4;  // ... and past the near plane, where the top height must be

constexpr double kCoverCell = 24.0;  // a landblock cell's side in metres
constexpr int kCoverBand = 8;        // rows tried at once before one by one

// The lowest bottom and highest top of the cells under the box [x0, x1] x
// [y0, y1] (relative metres), widened by the margin.
glm::dvec2 cover_heights(const TerrainCover& c, double x0, double y0, double x1, double y1) noexcept {
  if (c.grid_x <= 0 || c.grid_y <= 0 || c.grid_x > TerrainCover::kMaxCells || c.grid_y > TerrainCover::kMaxCells) {
    return {static_cast<double>(c.min_z), static_cast<double>(c.max_z)};
  }
  const auto index = [](double v, double lo, int n) {
    const double i = std::floor((v - lo) / kCoverCell);
    return static_cast<int>(std::clamp(i, 0.0, static_cast<double>(n - 1)));
  };
  const int i0 = index(x0 - kCoverMargin, c.lo.x, c.grid_x);
  const int i1 = index(x1 + kCoverMargin, c.lo.x, c.grid_x);
  const int j0 = index(y0 - kCoverMargin, c.lo.y, c.grid_y);
  const int j1 = index(y1 + kCoverMargin, c.lo.y, c.grid_y);
  glm::dvec2 out(std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity());
  for (int j = j0; j <= j1; ++j) {
    for (int i = i0; i <= i1; ++i) {
      const glm::vec2 h = c.heights[static_cast<std::size_t>(j * c.grid_x + i)];
      out.x = std::min(out.x, static_cast<double>(h.x));
      out.y = std::max(out.y, static_cast<double>(h.y));
    }
  }
  return out;
}

// The highest the terrain rises over the box [x0, x1] x [y0, y1] (relative
// metres): at every point of a cell the terrain is one of the cell's two
// triangle planes, and a plane's highest over a box is at a corner, so the
// planes at the corners of the box's part in each cell bound it; the cells'
// ranges where the planes are not known or the box leaves the grid.
double cover_top(const TerrainCover& c, double x0, double y0, double x1, double y1) noexcept {
  const double gx1 = static_cast<double>(c.lo.x) + kCoverCell * c.grid_x;
  const double gy1 = static_cast<double>(c.lo.y) + kCoverCell * c.grid_y;
  if (!c.planes || c.grid_x <= 0 || c.grid_y <= 0 || c.grid_x > TerrainCover::kMaxCells ||
      c.grid_y > TerrainCover::kMaxCells || !(x0 >= c.lo.x) || !(y0 >= c.lo.y) || !(x1 <= gx1) || !(y1 <= gy1)) {
    return cover_heights(c, x0, y0, x1, y1).y + kCoverMargin;
  }
  const auto index = [](double v, double lo, int n) {
    return static_cast<int>(std::clamp(std::floor((v - lo) / kCoverCell), 0.0, static_cast<double>(n - 1)));
  };
  double top = -std::numeric_limits<double>::infinity();
  for (int j = index(y0, c.lo.y, c.grid_y); j <= index(y1, c.lo.y, c.grid_y); ++j) {
    for (int i = index(x0, c.lo.x, c.grid_x); i <= index(x1, c.lo.x, c.grid_x); ++i) {
      const auto cell = static_cast<std::size_t>(j * c.grid_x + i);
      const glm::dvec4 z(c.corners[cell]);  // SW, SE, NW, NE
      const double cx = static_cast<double>(c.lo.x) + kCoverCell * i;
      const double cy = static_cast<double>(c.lo.y) + kCoverCell * j;
      // The box's part in the cell, in cell units (0..1 from its SW corner).
      const double u0 = std::clamp((x0 - cx) / kCoverCell, 0.0, 1.0);
      const double u1 = std::clamp((x1 - cx) / kCoverCell, 0.0, 1.0);
      const double v0 = std::clamp((y0 - cy) / kCoverCell, 0.0, 1.0);
      const double v1 = std::clamp((y1 - cy) / kCoverCell, 0.0, 1.0);
      for (const double u : {u0, u1}) {
        for (const double v : {v0, v1}) {
          // SW-NE cut: (SW, SE, NE) and (SW, NE, NW); else (SW, SE, NW) and (NE, NW, SE).
          const double a =
              c.cut_sw_ne[cell] ? z.x + (z.y - z.x) * u + (z.w - z.y) * v : z.x + (z.y - z.x) * u + (z.z - z.x) * v;
          const double b = c.cut_sw_ne[cell] ? z.x + (z.w - z.z) * u + (z.z - z.x) * v
                                             : z.w + (z.w - z.z) * (u - 1.0) + (z.w - z.y) * (v - 1.0);
          top = std::max({top, a, b});
        }
      }
    }
  }
  return top + kCoverMargin;
}

// Whether every ray through the pixel centres of the rectangle [x0, x1] x
// [y0, y1] (NDC) meets the terrain inside the cover. The corner rays all
// going down put the rectangle below the horizon, so each ray's start (on
// the near plane) lies in the convex hull of the corners' starts, and where
// it crosses a horizontal plane in the hull of the corners' crossings (a
// central projection from the eye maps the rectangle onto a convex
// quadrilateral); the view depth, and so the fraction of the near-to-far
// segment, is affine over that plane, so it lies between the corners'. A
// ray starting above the highest block under the starts and crossing a
// height below the lowest block under the crossings, all inside the convex
// shrunk square, passes from above the continuous terrain surface to below
// it there.
bool rect_covered(const glm::dmat4& inverse, const TerrainCover& c, double x0_ndc, double x1_ndc, double y0_ndc,
                  double y1_ndc) noexcept {
  const double lo_x = static_cast<double>(c.lo.x) + kCoverMargin;
  const double lo_y = static_cast<double>(c.lo.y) + kCoverMargin;
  const double hi_x = static_cast<double>(c.hi.x) - kCoverMargin;
  const double hi_y = static_cast<double>(c.hi.y) - kCoverMargin;
  const auto inside = [&](double x, double y) { return x > lo_x && x < hi_x && y > lo_y && y < hi_y; };
  std::array<glm::dvec3, 4> near{};
  std::array<glm::dvec3, 4> far{};
  const std::array<glm::dvec2, 4> corners{glm::dvec2(x0_ndc, y0_ndc), glm::dvec2(x1_ndc, y0_ndc),
                                          glm::dvec2(x0_ndc, y1_ndc), glm::dvec2(x1_ndc, y1_ndc)};
  glm::dvec2 box_lo(std::numeric_limits<double>::infinity());
  glm::dvec2 box_hi(-std::numeric_limits<double>::infinity());
  double start_z = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < 4; ++k) {
    const glm::dvec4 n4 = inverse * glm::dvec4(corners[k], -1.0, 1.0);
    const glm::dvec4 f4 = inverse * glm::dvec4(corners[k], 1.0, 1.0);
    if (!(n4.w != 0.0) || !(f4.w != 0.0)) return false;
    near[k] = glm::dvec3(n4) / n4.w;
    far[k] = glm::dvec3(f4) / f4.w;
    if (!(far[k].z - near[k].z < 0.0) || !inside(near[k].x, near[k].y)) return false;  // going down, from inside
    box_lo = glm::min(box_lo, glm::dvec2(near[k]));
    box_hi = glm::max(box_hi, glm::dvec2(near[k]));
    start_z = std::min(start_z, near[k].z);
  }
  if (!(start_z > cover_top(c, box_lo.x, box_lo.y, box_hi.x, box_hi.y))) return false;
  // The height to cross: under the lowest cell below the starts, then
  // lowered to under the lowest cell below the crossings until it is.
  double h = cover_heights(c, box_lo.x, box_lo.y, box_hi.x, box_hi.y).x - kCoverMargin;
  for (int step = 0; step < 16 && h < start_z; ++step) {
    box_lo = glm::dvec2(std::numeric_limits<double>::infinity());
    box_hi = glm::dvec2(-std::numeric_limits<double>::infinity());
    for (std::size_t k = 0; k < 4; ++k) {
      const double s = (h - near[k].z) / (far[k].z - near[k].z);  // the fraction of the near-to-far segment
      // Lower heights are met further along each ray: past the far limit,
      // or outside the square once left, they fail too.
      if (!(s > kCoverNearFraction && s < kCoverFarFraction)) return false;
      const glm::dvec2 p(near[k].x + s * (far[k].x - near[k].x), near[k].y + s * (far[k].y - near[k].y));
      if (!inside(p.x, p.y)) return false;
      box_lo = glm::min(box_lo, p);
      box_hi = glm::max(box_hi, p);
    }
    const double under = cover_heights(c, box_lo.x, box_lo.y, box_hi.x, box_hi.y).x - kCoverMargin;
    if (h <= under) return true;
    h = under;
  }
  return false;
}

}  // namespace

int sky_cover_rows(const glm::mat4& view_projection, const TerrainCover& cover, int width, int height) noexcept {
  std::array<int, 1> rows{};
  sky_cover_strips(view_projection, cover, width, height, rows);
  return rows[0];
}

void sky_cover_strips(const glm::mat4& view_projection, const TerrainCover& cover, int width, int height,
                      std::span<int> rows) noexcept {
  std::ranges::fill(rows, 0);
  if (!cover.whole || width <= 0 || height <= 0 || rows.empty()) return;
  const glm::dmat4 inverse = glm::inverse(glm::dmat4(view_projection));
  const auto ndc = [](int pixel, int size) { return ((pixel + 0.5) / size) * 2.0 - 1.0; };
  const auto n = static_cast<long long>(rows.size());
  for (long long k = 0; k < n; ++k) {
    const auto c0 = static_cast<int>(k * width / n);
    const auto c1 = static_cast<int>((k + 1) * width / n);
    if (c1 <= c0) continue;
    const double x0 = ndc(c0, width);
    const double x1 = ndc(c1 - 1, width);
    int r = 0;
    while (r < height) {
      const int band_end = std::min(r + kCoverBand, height);
      if (rect_covered(inverse, cover, x0, x1, ndc(r, height), ndc(band_end - 1, height))) {
        r = band_end;
        continue;
      }
      while (r < band_end && rect_covered(inverse, cover, x0, x1, ndc(r, height), ndc(r, height))) ++r;
      break;
    }
    rows[static_cast<std::size_t>(k)] = r;
  }
}

}  // namespace dereth::render
