// The sky objects: SkyDesc::GetSky, GameSky (Sky.c) and the day group per
// game day, without GL.
#include <catch2/catch.hpp>

#include <cmath>

#include "dereth/render/sky.hpp"

using namespace dereth;
using render::CelestialPosition;

namespace {

constexpr dat::Did kDome = 0x01000100;
constexpr dat::Did kSun = 0x01000101;
constexpr dat::Did kClouds = 0x01000102;
constexpr dat::Did kRain = 0x01000103;
constexpr dat::Did kMist = 0x01000104;
constexpr dat::Did kRedSun = 0x01000109;

dat::SkyObject object(float begin, float end, float begin_angle, float end_angle, dat::Did gfx,
                      std::uint32_t properties = 0, float u = 0.0F, float v = 0.0F) {
  dat::SkyObject o;
  o.begin_time = begin;
  o.end_time = end;
  o.begin_angle = begin_angle;
  o.end_angle = end_angle;
  o.default_gfx_object = gfx;
  o.properties = properties;
  o.tex_velocity_x = u;
  o.tex_velocity_y = v;
  return o;
}

dat::SkyObjectReplace replace(std::uint32_t index, dat::Did gfx, float rotate, float luminosity, float max_bright,
                              float transparent) {
  dat::SkyObjectReplace r;
  r.object_index = index;
  r.gfx_obj = gfx;
  r.rotate = rotate;
  r.luminosity = luminosity;
  r.max_bright = max_bright;
  r.transparent = transparent;
  return r;
}

dat::SkyTimeOfDay keyframe(float begin, std::vector<dat::SkyObjectReplace> replaces) {
  dat::SkyTimeOfDay k;
  k.begin = begin;
  k.replaces = std::move(replaces);
  return k;
}

// A dome (always), a sun (0.25 .. 0.75, east to west), drifting clouds, a
// weather object and an after-the-landscape object; keyframes at 0 and 0.5.
dat::SkyDesc sky_desc() {
  dat::DayGroup g;
  g.name = "Clear";
  g.sky_objects = {object(0.0F, 0.0F, 10.0F, 99.0F, kDome), object(0.25F, 0.75F, 0.0F, 180.0F, kSun),
                   object(0.0F, 0.0F, 0.0F, 0.0F, kClouds, 0, 0.01F, -0.02F),
                   object(0.0F, 0.0F, 0.0F, 0.0F, kRain, render::sky_properties::kWeather),
                   object(0.0F, 0.0F, 0.0F, 0.0F, kMist, render::sky_properties::kAfter)};
  g.sky_times = {keyframe(0.0F, {replace(0, 0, 0.0F, 20.0F, 50.0F, -1.0F),
                                 replace(1, kRedSun, 30.0F, 0.0F, 0.0F, -1.0F), replace(2, 0, 0.0F, 0.0F, 0.0F, 0.0F)}),
                 keyframe(0.5F, {replace(0, 0, 0.0F, 100.0F, 10.0F, -1.0F), replace(2, 0, 0.0F, 0.0F, 0.0F, 50.0F),
                                 replace(9, kRedSun, 45.0F, 50.0F, 50.0F, 50.0F)})};
  dat::SkyDesc sky;
  sky.day_groups = {g};
  return sky;
}

glm::vec3 turned(const core::Frame& f, glm::vec3 p) {
  return f.localtoglobal(p);
}

}  // namespace

TEST_CASE("SkyDesc::GetSky 0x00501EC0 places each sky object by its times, angles and the keyframe's replaces",
          "[retail][sky]") {
  const dat::SkyDesc sky = sky_desc();
  const std::vector<CelestialPosition> at = render::get_sky(sky, 0, 0.375F);
  REQUIRE(at.size() == 5);
  // The dome: equal times, always its GfxObj, the begin angle.
  CHECK(at[0].gfx_id == kDome);
  CHECK(at[0].rotation == 10.0F);
  CHECK(at[0].heading == 0.0F);
  // Its luminosity and max_bright run from keyframe 0 to keyframe 1 (ratio
  // 0.75); transparent is unset (-1) in both.
  CHECK(at[0].luminosity == Approx(80.0F));
  CHECK(at[0].max_bright == Approx(20.0F));
  CHECK(at[0].transparent == -1.0F);
  // The sun: a quarter of its way (0.125 / 0.5) from 0 to 180 degrees, and
  // keyframe 0 swaps its GfxObj and turns its heading.
  CHECK(at[1].gfx_id == kRedSun);
  CHECK(at[1].rotation == Approx(45.0F));
  CHECK(at[1].heading == 30.0F);
  CHECK(at[1].luminosity == -1.0F);  // luminosity 0 in the replace: not set
  // The clouds keep their texture velocity; transparent 0 counts as set.
  CHECK(at[2].tex_velocity == glm::vec2(0.01F, -0.02F));
  CHECK(at[2].transparent == Approx(37.5F));
  CHECK(at[3].properties == render::sky_properties::kWeather);
  CHECK(at[4].properties == render::sky_properties::kAfter);

  // After the last keyframe it wraps to the first (ratio 0.6 at 0.8); the
  // sun is past its end time: no GfxObj (its rotation still runs on), and
  // keyframe 1 has no replace for it. The replace of object 9 (no such
  // object) is skipped.
  const std::vector<CelestialPosition> late = render::get_sky(sky, 0, 0.8F);
  CHECK(late[1].gfx_id == 0);
  CHECK(late[1].rotation == Approx(198.0F));
  CHECK(late[1].heading == 0.0F);
  CHECK(late[0].luminosity == Approx(52.0F));
  CHECK(late[0].max_bright == Approx(34.0F));
  CHECK(late[2].transparent == Approx(20.0F));

  // Strictly inside the window: at its begin time the sun is not there.
  CHECK(render::get_sky(sky, 0, 0.25F)[1].gfx_id == kRedSun);  // only through keyframe 0's replace
  dat::SkyDesc plain = sky;
  plain.day_groups[0].sky_times.clear();
  CHECK(render::get_sky(plain, 0, 0.25F)[1].gfx_id == 0);
  CHECK(render::get_sky(plain, 0, 0.2501F)[1].gfx_id == kSun);
  CHECK(render::get_sky(plain, 0, 0.75F)[1].gfx_id == 0);
  // Without keyframes nothing is replaced: luminosity and the rest unset.
  CHECK(render::get_sky(plain, 0, 0.375F)[0].luminosity == -1.0F);
  // No such day group: nothing.
  CHECK(render::get_sky(sky, 1, 0.5F).empty());
}

TEST_CASE("SkyDesc::GetSky 0x00501EC0 interpolates a replace only towards the next keyframe's replace of that object",
          "[retail][sky]") {
  dat::DayGroup g;
  g.sky_objects = {object(0.0F, 0.0F, 0.0F, 0.0F, kDome)};
  g.sky_times = {keyframe(0.0F, {replace(0, 0, 0.0F, 40.0F, 0.0F, -1.0F)}),
                 keyframe(0.5F, {replace(0, 0, 0.0F, 60.0F, 0.0F, -1.0F)}), keyframe(0.75F, {})};
  dat::SkyDesc sky;
  sky.day_groups = {g};
  CHECK(render::get_sky(sky, 0, 0.25F)[0].luminosity == Approx(50.0F));
  CHECK(render::get_sky(sky, 0, 0.6F)[0].luminosity == -1.0F);  // keyframe 2 has no replace of the dome
  CHECK(render::get_sky(sky, 0, 0.8F)[0].luminosity == -1.0F);  // keyframe 2 replaces nothing

  // GameSky::UseTime: an unset value keeps the object's last one.
  render::GameSky game_sky;
  game_sky.use_time(sky, 0, 0.25F);
  REQUIRE(game_sky.objects()[0].has_value());
  CHECK(game_sky.objects()[0]->luminosity == Approx(0.5F));
  game_sky.use_time(sky, 0, 0.6F);
  CHECK(game_sky.objects()[0]->luminosity == Approx(0.5F));
  game_sky.use_time(sky, 0, 0.8F);
  CHECK(game_sky.objects()[0]->luminosity == Approx(0.5F));
}

TEST_CASE("GameSky::CalcFrame 0x00506F80 turns a sky object by its heading, then about the world y axis",
          "[retail][sky]") {
  const glm::vec3 east(1.0F, 0.0F, 0.0F);
  const core::Frame rise = render::calc_frame(core::Frame(), 0.0F, 0.0F);
  CHECK(rise.orientation() == core::Frame().orientation());
  const glm::vec3 zenith = turned(render::calc_frame(core::Frame(), 0.0F, 90.0F), east);
  CHECK(zenith.x == Approx(0.0F).margin(1e-6));
  CHECK(zenith.z == Approx(1.0F));
  const glm::vec3 west = turned(render::calc_frame(core::Frame(), 0.0F, 180.0F), east);
  CHECK(west.x == Approx(-1.0F));
  CHECK(west.z == Approx(0.0F).margin(1e-6));
  const glm::vec3 morning = turned(render::calc_frame(core::Frame(), 0.0F, 45.0F), east);
  CHECK(morning.x == Approx(std::sqrt(0.5F)));
  CHECK(morning.z == Approx(std::sqrt(0.5F)));
  // A heading alone is Frame::set_heading's; rotation 0 adds no turn.
  core::Frame headed;
  headed.set_heading(30.0F);
  const core::Frame h = render::calc_frame(core::Frame(), 30.0F, 0.0F);
  CHECK(h.orientation().w == Approx(headed.orientation().w));
  CHECK(h.orientation().z == Approx(headed.orientation().z));
  // Heading first, then the turn about the world's y axis: the headed +y
  // axis, turned 90 degrees, ends where the heading put it, lifted.
  const core::Frame both = render::calc_frame(core::Frame(), 30.0F, 90.0F);
  const glm::vec3 headed_y = headed.localtoglobal(glm::vec3(0.0F, 1.0F, 0.0F));
  const glm::vec3 both_y = both.localtoglobal(glm::vec3(0.0F, 1.0F, 0.0F));
  CHECK(both_y.y == Approx(headed_y.y));  // the turn keeps y
  CHECK(both_y.z == Approx(headed_y.x));  // x goes up
  CHECK(both_y.x == Approx(0.0F).margin(1e-6));
}

TEST_CASE(
    "GameSky::UseTime 0x005075B0 makes sky objects anew only when their GfxObj or properties change "
    "(GameSky::CreateDeletePhysicsObjects 0x005073C0)",
    "[retail][sky]") {
  const dat::SkyDesc sky = sky_desc();
  render::GameSky game_sky;
  game_sky.use_time(sky, 0, 0.375F);
  const auto& objects = game_sky.objects();
  REQUIRE(objects.size() == 5);
  REQUIRE(objects[0].has_value());
  CHECK(objects[0]->gfx_obj == kDome);
  CHECK(objects[0]->luminosity == Approx(0.8F));  // 80 % (x 0.0099999998)
  CHECK(objects[0]->diffusion == Approx(0.2F));   // max_bright 20 %
  CHECK(objects[0]->translucency == 0.0F);        // never set: a new object's
  REQUIRE(objects[1].has_value());
  CHECK(objects[1]->gfx_obj == kRedSun);
  CHECK(objects[2]->tex_velocity == glm::vec2(0.01F, -0.02F));
  CHECK(objects[2]->translucency == Approx(0.375F));
  CHECK_FALSE(objects[3].has_value());  // weather is off: MakeObject makes nothing
  REQUIRE(objects[4].has_value());
  // The sun's frame: heading 30, then 45 degrees up from the east.
  const core::Frame expected = render::calc_frame(core::Frame(), 30.0F, 45.0F);
  CHECK(objects[1]->frame.orientation().w == Approx(expected.orientation().w));
  CHECK(objects[1]->frame.orientation().y == Approx(expected.orientation().y));

  // The sun sets (GfxObj 0): its object goes; the dome stays and takes the
  // new luminosity.
  game_sky.use_time(sky, 0, 0.8F);
  CHECK_FALSE(game_sky.objects()[1].has_value());
  CHECK(game_sky.objects()[0]->luminosity == Approx(0.52F));

  // A GfxObj change makes a new object: its old values are gone.
  dat::SkyDesc swapped = sky;
  swapped.day_groups[0].sky_objects[2].default_gfx_object = kRedSun;
  swapped.day_groups[0].sky_times[0].replaces[2].transparent = -1.0F;  // nothing sets it now
  game_sky.use_time(swapped, 0, 0.375F);
  CHECK(game_sky.objects()[2]->gfx_obj == kRedSun);
  CHECK(game_sky.objects()[2]->translucency == 0.0F);

  // Weather on: the weather object is made.
  game_sky.use_time(sky, 0, 0.375F, true);
  REQUIRE(game_sky.objects()[3].has_value());
  CHECK(game_sky.objects()[3]->gfx_obj == kRain);
}

TEST_CASE("GameSky::Draw 0x00506FF0 before the landscape draws the sky objects in order, by their properties",
          "[retail][sky]") {
  const dat::SkyDesc sky = sky_desc();
  render::GameSky game_sky;
  game_sky.use_time(sky, 0, 0.375F);
  std::vector<dat::Did> drawn;
  for (const auto* o : game_sky.draw_before()) drawn.push_back(o->gfx_obj);
  // Not the after-landscape mist (property 1), not the weather (4).
  CHECK(drawn == std::vector<dat::Did>{kDome, kRedSun, kClouds});

  game_sky.use_time(sky, 0, 0.375F, true);
  drawn.clear();
  for (const auto* o : game_sky.draw_before(true)) drawn.push_back(o->gfx_obj);
  CHECK(drawn == std::vector<dat::Did>{kDome, kRedSun, kClouds, kRain});

  // Property 2: hidden while the fog override is on.
  dat::SkyDesc foggy = sky;
  foggy.day_groups[0].sky_objects[2].properties = render::sky_properties::kFogHidden;
  render::GameSky fog_sky;
  fog_sky.use_time(foggy, 0, 0.375F);
  CHECK(fog_sky.draw_before(false, false).size() == 3);
  CHECK(fog_sky.draw_before(false, true).size() == 2);
}

TEST_CASE("SkyDesc::CalcPresentDayGroup 0x00500E10 picks the day group from the absolute game day", "[retail][sky]") {
  using render::calc_present_day_group;
  // Two groups: days 0 and 1 draw group 1, day 2 group 0, ...
  const std::size_t two[] = {1, 1, 0, 1, 0, 1};
  for (std::uint32_t d = 0; d < 6; ++d) CHECK(calc_present_day_group(d, 360, 0, 2) == two[d]);
  const std::size_t three[] = {1, 2, 1, 2, 0, 1};
  for (std::uint32_t d = 0; d < 6; ++d) CHECK(calc_present_day_group(d, 360, 0, 3) == three[d]);
  // The absolute day: day 0 of year 1 is day 360 of year 0.
  CHECK(calc_present_day_group(0, 360, 1, 3) == calc_present_day_group(360, 360, 0, 3));
  CHECK(calc_present_day_group(0, 360, 1, 3) == 2);
  CHECK(calc_present_day_group(5, 360, 10, 4) == 3);
  // One group, or none: group 0.
  for (std::uint32_t d = 0; d < 10; ++d) CHECK(calc_present_day_group(d, 360, 0, 1) == 0);
  CHECK(calc_present_day_group(7, 360, 0, 0) == 0);
  // 32-bit wrap of the day number and the hash.
  CHECK(calc_present_day_group(0xFFFFFFFFU, 1, 1, 2) == calc_present_day_group(0, 360, 0, 2));
}
