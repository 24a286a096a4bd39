#pragma once
// The Region's light and fog by time of day (retail SkyDesc), without GL.
//
// A SkyDesc holds day groups; each has SkyTimeOfDay keyframes (begin in [0, 1)
// of the day, sun brightness, heading, pitch and colour, ambient brightness
// and colour, world fog). Retail interpolates between the keyframe at or
// before the time and the next one (wrapping to the first after the last).

#include <array>
#include <cstdint>
#include <optional>

#include <glm/vec3.hpp>

#include "dereth/dat/region.hpp"

namespace dereth::render {

using Rgb8 = std::array<std::uint8_t, 3>;

struct TimeOfDayKeys {
  const dat::SkyTimeOfDay* before = nullptr;
  const dat::SkyTimeOfDay* after = nullptr;
  float ratio = 0.0F;
};

// DayGroup::GetTimeOfDay 0x005009B0: the last keyframe (from the second on)
// whose begin is not after `time_of_day` (else the first), the next one (the
// first after the last), and how far between them; nothing without keyframes.
// A ratio that is not finite (two keyframes at one time, a last one at 1) is
// 0 here (retail divides by zero).
[[nodiscard]] std::optional<TimeOfDayKeys> get_time_of_day(const dat::DayGroup& group, float time_of_day) noexcept;

// What SkyDesc::GetLighting gives LScape::set_landscape_lighting.
struct SkyLighting {
  float ambient_level = 0.0F;
  Rgb8 ambient_color{};
  glm::vec3 sunlight{0.0F};  // towards the sun, length the sun's brightness
  Rgb8 sunlight_color{};
  bool operator==(const SkyLighting&) const = default;
};

// SkyDesc::GetLighting 0x00500A80 for day group `group`: brightness, heading
// and pitch interpolated linearly, sunlight = bright * (sin h cos p, cos h
// cos p, sin p) (degrees), colours per channel truncated to bytes. Without
// keyframes (or no such group): ambient 0.3 white, sunlight (0.5, 0, 0.8)
// white.
[[nodiscard]] SkyLighting get_lighting(const dat::SkyDesc& sky, std::size_t group, float time_of_day) noexcept;

struct SkyFog {
  float min = 0.0F;  // metres from the eye where fog starts
  float max = 0.0F;  // where it is whole
  Rgb8 color{};
  bool operator==(const SkyFog&) const = default;
};

// SkyDesc::GetWorldFog 0x00500CE0: the interpolated fog when both keyframes
// have world fog on; nothing otherwise.
[[nodiscard]] std::optional<SkyFog> get_world_fog(const dat::SkyDesc& sky, std::size_t group,
                                                  float time_of_day) noexcept;

}  // namespace dereth::render
