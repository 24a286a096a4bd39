#include "dereth/render/sky.hpp"

#include <algorithm>
#include <cmath>

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

// Whether the rays through the pixel centres of one row, from its first
// centre to its last, all meet the terrain inside the cover. The rays of a
// row lie in one plane through the eye and their directions change
// linearly along it, so where they cross a horizontal plane (going down at
// both ends, so all the way along) lies on the segment between where the
// first and last rays cross it; the square is convex, so both ends inside
// put the whole segment inside, and each ray passes from above the
// terrain's top to below its bottom within the square: the continuous
// terrain surface lies across its path there.
bool row_covered(const glm::dmat4& inverse, const TerrainCover& c, double y_ndc, double x0_ndc,
                 double x1_ndc) noexcept {
  const double top = static_cast<double>(c.max_z) + kCoverMargin;
  const double bottom = static_cast<double>(c.min_z) - kCoverMargin;
  for (const double x : {x0_ndc, x1_ndc}) {
    const glm::dvec4 n4 = inverse * glm::dvec4(x, y_ndc, -1.0, 1.0);
    const glm::dvec4 f4 = inverse * glm::dvec4(x, y_ndc, 1.0, 1.0);
    if (!(n4.w != 0.0) || !(f4.w != 0.0)) return false;
    const glm::dvec3 n = glm::dvec3(n4) / n4.w;
    const glm::dvec3 f = glm::dvec3(f4) / f4.w;
    const double dz = f.z - n.z;
    if (!(dz < 0.0) || !(n.z > top)) return false;  // going down, from above the top
    for (const double z : {top, bottom}) {
      const double s = (z - n.z) / dz;  // the fraction of the near-to-far segment
      if (!(s > kCoverNearFraction && s < kCoverFarFraction)) return false;
      const double px = n.x + s * (f.x - n.x);
      const double py = n.y + s * (f.y - n.y);
      if (!(px > static_cast<double>(c.lo.x) + kCoverMargin && px < static_cast<double>(c.hi.x) - kCoverMargin &&
            py > static_cast<double>(c.lo.y) + kCoverMargin && py < static_cast<double>(c.hi.y) - kCoverMargin)) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

int sky_cover_rows(const glm::mat4& view_projection, const TerrainCover& cover, int width, int height) noexcept {
  if (!cover.whole || width <= 0 || height <= 0) return 0;
  const glm::dmat4 inverse = glm::inverse(glm::dmat4(view_projection));
  const double x0 = (0.5 / width) * 2.0 - 1.0;
  const double x1 = ((width - 0.5) / width) * 2.0 - 1.0;
  int rows = 0;
  while (rows < height && row_covered(inverse, cover, ((rows + 0.5) / height) * 2.0 - 1.0, x0, x1)) ++rows;
  return rows;
}

}  // namespace dereth::render
