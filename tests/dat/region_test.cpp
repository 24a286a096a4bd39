#include "dereth/dat/region.hpp"

#include <catch2/catch.hpp>

#include <limits>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

constexpr Did kId = 0x13000000;

Region minimal() {
  Region r;
  r.id = kId;
  r.region_number = 1;
  r.version = 3;
  r.name = "Dereth";
  for (std::size_t i = 0; i < 256; ++i) r.land_defs.land_height_table[i] = static_cast<float>(i) * 2.0F;
  r.game_time.zero_time_of_year = 3600.0;
  r.game_time.zero_year = 10;
  r.game_time.day_length = 7620.0F;
  r.game_time.days_per_year = 360;
  r.game_time.year_spec = "P.Y.";
  return r;
}

Region full() {
  Region r = minimal();
  r.game_time.times_of_day = {{0.0F, 1, "Darktide"}, {0.0625F, 0, "Darktide-and-Half"}, {0.5F, 0, "Midsong"}};
  r.game_time.day_names = {"Snowreap", "Coldeve", "Wintersebb", "Morningthaw", "Solclaim"};
  r.game_time.seasons = {{0, "Winter"}, {90, "Spring"}};
  r.parts_mask = region_parts::kSky | region_parts::kSound | region_parts::kScene | region_parts::kMisc | 0x04 | 0x08;

  SkyDesc sky;
  sky.tick_size = 0.25;
  sky.light_tick_size = 0.5;
  DayGroup dg;
  dg.chance_of_occur = 0.5F;
  dg.name = "Sunny";
  dg.sky_objects = {{0.0F, 1.0F, 10.0F, 170.0F, 0.01F, 0.0F, 0x01004C33, 0, 1},
                    {0.25F, 0.75F, 0.0F, 180.0F, 0.0F, 0.02F, 0x01004C34, 0x33000001, 0}};
  SkyTimeOfDay t;
  t.begin = 0.25F;
  t.dir_bright = 0.8F;
  t.dir_heading = 90.0F;
  t.dir_pitch = 45.0F;
  t.dir_color = 0xFFFFEEDD;
  t.amb_bright = 0.3F;
  t.amb_color = 0xFF202040;
  t.min_world_fog = 100.0F;
  t.max_world_fog = 500.0F;
  t.world_fog_color = 0xFF808080;
  t.world_fog = 1;
  t.replaces = {{0, 0x01004C35, 15.0F, 0.5F, 1.0F, 0.9F}};
  SkyTimeOfDay t2 = t;
  t2.begin = 0.75F;
  t2.replaces.clear();
  dg.sky_times = {t, t2};
  DayGroup rainy;
  rainy.chance_of_occur = 0.25F;
  rainy.name = "Rain";  // 4 chars: PString of 6 bytes + 2 padding
  sky.day_groups = {dg, rainy};
  r.sky = sky;

  SoundDesc sound;
  sound.tables = {{0x20000050, {{0x65, 0.5F, 0.1F, 10.0F, 20.0F}, {0x66, 0.25F, 0.2F, 5.0F, 8.0F}}}, {0x20000051, {}}};
  r.sound = sound;

  SceneDesc scene;
  scene.scene_types = {{0, {0x120000C4, 0x120000C5}}, {0xFFFFFFFF, {}}};
  r.scene = scene;

  r.terrain.terrain_types = {{"BarrenRock", 0xFF808080, {0, 1}}, {"Grassland", 0xFF00A000, {}}};
  r.terrain.land_surf_type = 0;
  r.terrain.tex_merge.base_tex_size = 512;
  r.terrain.tex_merge.corner_maps = {{8, 0x05003020}, {9, 0x05003021}};
  r.terrain.tex_merge.side_maps = {{10, 0x05003030}};
  r.terrain.tex_merge.road_maps = {{5, 0x05003040}, {6, 0x05003041}, {7, 0x05003042}};
  r.terrain.tex_merge.terrain_textures = {{0, 0x05000D20, 4, 255, 0, 255, 0, 255, 0, 16, 0x05003A00},
                                          {1, 0x05000D21, 2, 200, 10, 180, 20, 160, 30, 8, 0x05003A01}};
  r.misc = RegionMisc{1, 0x06000261, 0x06000262, 4, 0x00000000, 0x00000000};
  return r;
}

}  // namespace

TEST_CASE("Region: minimal record (partsMask 0) layout and round trip", "[dat][region]") {
  const Region r = minimal();
  const auto bytes = write_region(r);
  // DID, number, version, "Dereth" (2 + 6 = 8), LandDefs (32 + 1024), GameTime
  // (8 + 12 + "P.Y." 8 + three empty lists 12), partsMask, TerrainDesc
  // (types 4, land surf 4, base 4, four empty lists 16).
  REQUIRE(bytes.size() == 12 + 8 + 1056 + 40 + 4 + 28);
  CHECK(bytes[8] == 3);
  CHECK(bytes[12] == 6);
  CHECK(bytes[14] == 'D');
  auto back = read_region(bytes, kId);
  REQUIRE(back.has_value());
  CHECK(*back == r);
  CHECK_FALSE(back->sky.has_value());
  CHECK_FALSE(back->misc.has_value());
}

TEST_CASE("Region: full record with every optional part round-trips", "[dat][region]") {
  const Region r = full();
  const auto bytes = write_region(r);
  CHECK(bytes.size() % 4 == 0);
  auto back = read_region(bytes, kId);
  REQUIRE(back.has_value());
  CHECK(*back == r);
  CHECK(back->parts_mask == 0x21F);

  // Each optional part on its own.
  for (std::uint32_t bit : {region_parts::kSky, region_parts::kSound, region_parts::kScene, region_parts::kMisc}) {
    Region one = full();
    one.parts_mask = bit;
    if (bit != region_parts::kSky) one.sky.reset();
    if (bit != region_parts::kSound) one.sound.reset();
    if (bit != region_parts::kScene) one.scene.reset();
    if (bit != region_parts::kMisc) one.misc.reset();
    auto again = read_region(write_region(one), kId);
    REQUIRE(again.has_value());
    CHECK(*again == one);
  }

  // A set bit with an empty optional writes a default part.
  Region defaulted = minimal();
  defaulted.parts_mask = region_parts::kSky | region_parts::kMisc;
  auto d = read_region(write_region(defaulted), kId);
  REQUIRE(d.has_value());
  CHECK(d->sky == SkyDesc{});
  CHECK(d->misc == RegionMisc{});

  dereth::core::JsonWriter j;
  write_json(j, r);
  const std::string& s = j.str();
  CHECK(s.rfind(R"({"type":"Region","id":"0x13000000","region_number":1,"version":3,"name":"Dereth",)", 0) == 0);
  CHECK(s.find(R"("land_height_table":{"count":256,"first":0,"last":510})") != std::string::npos);
  CHECK(s.find(R"("terrain_types":["BarrenRock","Grassland"])") != std::string::npos);
  CHECK(s.find(R"("misc":{"version":1,"game_map":"0x06000261")") != std::string::npos);
}

TEST_CASE("Region: version must be 3", "[dat][region]") {
  Region r = minimal();
  for (std::uint32_t v : {0U, 2U, 4U}) {
    r.version = v;
    auto back = read_region(write_region(r), kId);
    REQUIRE_FALSE(back.has_value());
    CHECK(back.error().kind == ErrorKind::Invalid);
    CHECK(back.error().offset == 8);
    CHECK(back.error().message().rfind("DAT 0x13000000 Region: version at offset 8", 0) == 0);
  }
}

TEST_CASE("Region: truncation, oversized counts and strings, trailing bytes", "[dat][region]") {
  const Region r = full();
  const auto bytes = write_region(r);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto back = read_region(std::span<const std::uint8_t>(bytes.data(), n), kId);
    REQUIRE_FALSE(back.has_value());
    CHECK((back.error().kind == ErrorKind::Truncated || back.error().kind == ErrorKind::TooLarge));
  }
  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_region(trailing, kId).error().kind == ErrorKind::Trailing);

  auto name = bytes;
  name[12] = 0xFE;  // name length 0xFE
  name[13] = 0xFF;
  CHECK(read_region(name, kId).error().kind == ErrorKind::TooLarge);

  // The first GameTime list count (times of day) sits after the year spec.
  const std::size_t times_at = 12 + 8 + 1056 + 8 + 12 + 8;
  auto times = bytes;
  times[times_at + 3] = 0x40;
  auto back = read_region(times, kId);
  REQUIRE_FALSE(back.has_value());
  CHECK(back.error().kind == ErrorKind::TooLarge);
  CHECK(back.error().offset == times_at);

  // partsMask: after GameTime = 20 + "P.Y." 8 + times 72 + day names 68 + seasons 28.
  const std::size_t mask_at = 12 + 8 + 1056 + 196;
  REQUIRE(bytes[mask_at] == 0x1F);
  REQUIRE(bytes[mask_at + 1] == 0x02);
  // Dropping the Sky bit makes the reader take the sky bytes for later parts:
  // it must fail cleanly, not crash.
  auto no_sky = bytes;
  no_sky[mask_at] = 0x0F;
  CHECK_FALSE(read_region(no_sky, kId).has_value());
  // Dropping the Misc bit leaves its 24 bytes trailing.
  auto no_misc = bytes;
  no_misc[mask_at + 1] = 0x00;
  CHECK(read_region(no_misc, kId).error().kind == ErrorKind::Trailing);
}

TEST_CASE("Region: land_height clamps to [0, 800]", "[dat][region]") {
  LandDefs d;
  d.land_height_table[0] = -5.0F;
  d.land_height_table[1] = 120.5F;
  d.land_height_table[2] = 900.0F;
  d.land_height_table[3] = std::numeric_limits<float>::quiet_NaN();
  CHECK(land_height(d, 0) == 0.0F);
  CHECK(land_height(d, 1) == 120.5F);
  CHECK(land_height(d, 2) == 800.0F);
  CHECK(land_height(d, 3) == 0.0F);
}
