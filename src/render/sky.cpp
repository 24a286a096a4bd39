#include "dereth/render/sky.hpp"

#include <cmath>

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

}  // namespace dereth::render
