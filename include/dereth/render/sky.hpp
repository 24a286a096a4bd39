#pragma once
// The Region's light and fog by time of day (retail SkyDesc), without GL.
//
// A SkyDesc holds day groups; each has SkyTimeOfDay keyframes (begin in [0, 1)
// of the day, sun brightness, heading, pitch and colour, ambient brightness
// and colour, world fog). Retail interpolates between the keyframe at or
// before the time and the next one (wrapping to the first after the last).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
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

// SkyDesc::CalcPresentDayGroup 0x00500E10: the day group of a game day.
// Retail hashes the absolute day n = current_day + days_per_year *
// current_year (32-bit unsigned arithmetic, wrapping) as
// floor(((1782775218 * n - 1967253934) mod 2^32) * 2^-32 * groups) and takes
// group 0 when that is not below the count (no groups: 0). The same day
// always has the same group; GameTime (sim/player/game_time.hpp) gives the day.
[[nodiscard]] std::size_t calc_present_day_group(std::uint32_t current_day, std::uint32_t days_per_year,
                                                 std::uint32_t current_year, std::size_t groups) noexcept;

// SkyObject::properties bits as GameSky reads them.
namespace sky_properties {
inline constexpr std::uint32_t kAfter = 0x1;      // drawn after the landscape (GameSky::Draw(1)), in the after-sky cell
inline constexpr std::uint32_t kFogHidden = 0x2;  // not drawn while LScape's fog override is on and fog is enabled
inline constexpr std::uint32_t kWeather = 0x4;    // weather: made and drawn only with LScape::weather_enabled
inline constexpr std::uint32_t kWeatherKeepZ = 0x8;  // weather at the viewer's height (else z = -120)
}  // namespace sky_properties

// One sky object's look at a time of day (retail CelestialPosition).
struct CelestialPosition {
  dat::Did gfx_id = 0;  // 0: nothing to draw now
  dat::Did pes_id = 0;
  std::uint32_t properties = 0;
  float heading = 0.0F;   // degrees (Frame::set_heading), from a replace's rotate
  float rotation = 0.0F;  // degrees about the world's y axis (GameSky::CalcFrame)
  glm::vec2 tex_velocity{0.0F};
  // Percent; negative: not set this time (-1).
  float luminosity = -1.0F;
  float max_bright = -1.0F;
  float transparent = -1.0F;
  bool operator==(const CelestialPosition&) const = default;
};

// SkyDesc::GetSky 0x00501EC0 for day group `group` (retail: the present day
// group): one position per SkyObject of the group, in order. An object shows
// its default GfxObj when begin_time == end_time or begin_time < t < end_time
// (strictly; else none), at rotation begin_angle + (end_angle - begin_angle)
// * (t - begin_time) / (end_time - begin_time) (begin_angle when the times
// are equal, drawn or not). The keyframe at or before t
// (DayGroup::GetTimeOfDay) replaces an object's GfxObj (when non-zero) and
// heading (when rotate is non-zero); its luminosity, max_bright and
// transparent are interpolated towards the next keyframe's replace of the
// same object, each only when both are set (luminosity and max_bright > 0,
// transparent >= 0), else left unset. A replace naming no object of the
// group is skipped (retail indexes past its array); no such group: empty.
[[nodiscard]] std::vector<CelestialPosition> get_sky(const dat::SkyDesc& sky, std::size_t group, float time_of_day);

// GameSky::CalcFrame 0x00506F80: set_heading(heading) when heading is not 0,
// then a turn of -rotation degrees about the world's y axis (grotate) when
// rotation is not 0: rotation 0 leaves a sky object's +x side on the east
// horizon, 90 lifts it to the zenith, 180 sets it in the west.
[[nodiscard]] core::Frame calc_frame(core::Frame frame, float heading, float rotation) noexcept;

// A sky object as GameSky keeps it between frames (its CPhysicsObj).
struct SkyObjectState {
  dat::Did gfx_obj = 0;
  std::uint32_t properties = 0;
  core::Frame frame;  // rotation about the viewer (the origin is the eye's)
  glm::vec2 tex_velocity{0.0F};
  float luminosity = 0.0F;    // CPhysicsObj::SetLuminosity
  float diffusion = 1.0F;     // CPhysicsObj::SetDiffusion
  float translucency = 0.0F;  // CPhysicsObj::SetTranslucency
};

// The sky renderer's state (retail GameSky, PORTAL/lscape/Sky.c), without GL.
class GameSky {
 public:
  // GameSky::UseTime 0x005075B0: GetSky for the time of day, then
  // GameSky::CreateDeletePhysicsObjects 0x005073C0 (an object is made anew,
  // with luminosity 0, diffusion 1 and translucency 0, when its GfxObj or
  // properties changed; none for GfxObj 0 or for a weather object while
  // weather is off), then each object's frame (calc_frame) and, where the
  // position sets them, luminosity * 0.01, diffusion = max_bright * 0.01 and
  // translucency = transparent * 0.01; an unset value keeps the object's
  // last one.
  void use_time(const dat::SkyDesc& sky, std::size_t group, float time_of_day, bool weather_enabled = false);
  // GameSky::Draw 0x00506FF0 with after = 0 (before the landscape, depth
  // test always, no depth writes, fog off unless overridden): the objects
  // drawn, in SkyObject order: those without the after bit, weather ones
  // only with weather on, fog-hidden ones not while fog_override.
  [[nodiscard]] std::vector<const SkyObjectState*> draw_before(bool weather_enabled = false,
                                                               bool fog_override = false) const;
  // Every SkyObject's slot (empty: no object now).
  [[nodiscard]] const std::vector<std::optional<SkyObjectState>>& objects() const noexcept { return objects_; }

 private:
  std::vector<std::optional<SkyObjectState>> objects_;
  bool weather_enabled_ = false;
};

// The terrain a frame drew as one whole square of full-detail landblocks
// (no far-terrain seams), for the sky scissor: its corners and height range,
// in metres relative to the view's origin.
struct TerrainCover {
  bool whole = false;  // false: nothing is known to be covered
  glm::vec2 lo{0.0F};
  glm::vec2 hi{0.0F};
  float min_z = 0.0F;
  float max_z = 0.0F;
  // Each 24 m cell's own height range (x, y: min, max of its triangles'
  // corners), cell (i, j) of the square at heights[j * grid_x + i], its
  // corner lo + 24 m * (i, j); a grid_x or grid_y of 0 (or over kMaxCells):
  // every cell has the square's range.
  static constexpr int kMaxCells = 24;  // a 3x3 square of landblocks
  int grid_x = 0;
  int grid_y = 0;
  std::array<glm::vec2, static_cast<std::size_t>(kMaxCells* kMaxCells)> heights{};
  // Where `planes` is set, each cell's corner heights (x SW, y SE, z NW,
  // w NE, relative metres) at corners[j * grid_x + i], and whether its cut
  // runs SW to NE (dat::land_cell_split_sw_ne): its two triangles, whose
  // planes bound the terrain over a small box better than the cell's range.
  bool planes = false;
  std::array<glm::vec4, static_cast<std::size_t>(kMaxCells* kMaxCells)> corners{};
  std::array<bool, static_cast<std::size_t>(kMaxCells* kMaxCells)> cut_sw_ne{};
};

// How many pixel rows at the bottom of a width x height frame drawn with
// `view_projection` (relative to the cover's origin) the terrain covers
// whole: for every pixel centre of such a row, and every row below it, the
// ray from the near plane meets the cover's top height and then its bottom
// height inside the square (shrunk by a margin), past the near plane and
// before nine tenths of the way to the far plane, so the ray meets the
// (continuous) terrain there and the pixel's depth is below the far plane's.
// The sky objects, drawn behind everything at the far plane, can only fail
// the depth test in those rows. 0 when the cover is not whole or the eye is
// not above it.
[[nodiscard]] int sky_cover_rows(const glm::mat4& view_projection, const TerrainCover& cover, int width,
                                 int height) noexcept;

// The same per vertical strip: the frame's columns cut into rows.size()
// strips (strip k: columns k * width / n to (k + 1) * width / n), and for
// each the rows at its bottom the terrain covers whole, each cell's own
// height range bounding the rays over it. A rectangle of pixel centres
// counts when its four corner rays go down, start (at the near plane) above
// the highest cell under their start points, and cross a height below the
// lowest cell under their crossing points inside the square (shrunk by a
// margin), past the near plane and within nine tenths of the way to the
// far plane: every ray of the rectangle then starts and crosses inside the
// convex hulls of its corners' points, so it meets the terrain within the
// square. Rows are tried in bands of 8 from the bottom, then one by one.
void sky_cover_strips(const glm::mat4& view_projection, const TerrainCover& cover, int width, int height,
                      std::span<int> rows) noexcept;

}  // namespace dereth::render
