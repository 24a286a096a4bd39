#include "dereth/dat/region.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

namespace dereth::dat {

namespace {

// Smallest encodings, for bounding counts before allocating. An empty PString
// is 4 bytes (u16 0 + 2 bytes of padding).
constexpr std::size_t kMinPString = 4;
constexpr std::size_t kMinTimeOfDay = 4 + 4 + kMinPString;
constexpr std::size_t kMinSeason = 4 + kMinPString;
constexpr std::size_t kMinDayGroup = 4 + kMinPString + 4 + 4;
constexpr std::size_t kSkyObjectSize = 9 * 4;
constexpr std::size_t kMinSkyTimeOfDay = 12 * 4;
constexpr std::size_t kSkyObjectReplaceSize = 6 * 4;
constexpr std::size_t kMinAmbientTable = 8;
constexpr std::size_t kAmbientSoundSize = 5 * 4;
constexpr std::size_t kMinSceneType = 8;
constexpr std::size_t kMinTerrainType = kMinPString + 4 + 4;
constexpr std::size_t kAlphaMapSize = 8;
constexpr std::size_t kTerrainTexSize = 11 * 4;

Result<void> read_land_defs(ByteReader& r, LandDefs& d) {
  DERETH_CHECK(r.require(8 * 4 + 256 * 4, "land_defs"));
  d.num_block_length = *r.i32("land_defs.num_block_length");
  d.num_block_width = *r.i32("land_defs.num_block_width");
  d.square_length = *r.f32("land_defs.square_length");
  d.lblock_length = *r.i32("land_defs.lblock_length");
  d.vertex_per_cell = *r.i32("land_defs.vertex_per_cell");
  d.max_obj_height = *r.f32("land_defs.max_obj_height");
  d.sky_height = *r.f32("land_defs.sky_height");
  d.road_width = *r.f32("land_defs.road_width");
  for (auto& h : d.land_height_table) h = *r.f32("land_defs.land_height_table");
  return {};
}

void write_land_defs(ByteWriter& w, const LandDefs& d) {
  w.i32(d.num_block_length);
  w.i32(d.num_block_width);
  w.f32(d.square_length);
  w.i32(d.lblock_length);
  w.i32(d.vertex_per_cell);
  w.f32(d.max_obj_height);
  w.f32(d.sky_height);
  w.f32(d.road_width);
  for (const float h : d.land_height_table) w.f32(h);
}

Result<void> read_game_time(ByteReader& r, GameTime& g) {
  DERETH_CHECK(r.require(8 + 4 + 4 + 4, "game_time"));
  g.zero_time_of_year = *r.f64("game_time.zero_time_of_year");
  g.zero_year = *r.u32("game_time.zero_year");
  g.day_length = *r.f32("game_time.day_length");
  g.days_per_year = *r.u32("game_time.days_per_year");
  DERETH_TRY(g.year_spec, r.string16l("game_time.year_spec"));
  DERETH_TRY(const std::size_t n_times, read_count(r, kMinTimeOfDay, "game_time.times_of_day.count"));
  g.times_of_day.reserve(n_times);
  for (std::size_t i = 0; i < n_times; ++i) {
    TimeOfDay t;
    DERETH_TRY(t.start, r.f32("game_time.times_of_day.start"));
    DERETH_TRY(t.is_night, r.u32("game_time.times_of_day.is_night"));
    DERETH_TRY(t.name, r.string16l("game_time.times_of_day.name"));
    g.times_of_day.push_back(std::move(t));
  }
  DERETH_TRY(const std::size_t n_days, read_count(r, kMinPString, "game_time.day_names.count"));
  g.day_names.reserve(n_days);
  for (std::size_t i = 0; i < n_days; ++i) {
    DERETH_TRY(auto name, r.string16l("game_time.day_names"));
    g.day_names.push_back(std::move(name));
  }
  DERETH_TRY(const std::size_t n_seasons, read_count(r, kMinSeason, "game_time.seasons.count"));
  g.seasons.reserve(n_seasons);
  for (std::size_t i = 0; i < n_seasons; ++i) {
    Season s;
    DERETH_TRY(s.start, r.u32("game_time.seasons.start"));
    DERETH_TRY(s.name, r.string16l("game_time.seasons.name"));
    g.seasons.push_back(std::move(s));
  }
  return {};
}

void write_game_time(ByteWriter& w, const GameTime& g) {
  w.f64(g.zero_time_of_year);
  w.u32(g.zero_year);
  w.f32(g.day_length);
  w.u32(g.days_per_year);
  w.string16l(g.year_spec);
  w.u32(static_cast<std::uint32_t>(g.times_of_day.size()));
  for (const auto& t : g.times_of_day) {
    w.f32(t.start);
    w.u32(t.is_night);
    w.string16l(t.name);
  }
  w.u32(static_cast<std::uint32_t>(g.day_names.size()));
  for (const auto& d : g.day_names) w.string16l(d);
  w.u32(static_cast<std::uint32_t>(g.seasons.size()));
  for (const auto& s : g.seasons) {
    w.u32(s.start);
    w.string16l(s.name);
  }
}

Result<SkyDesc> read_sky(ByteReader& r) {
  SkyDesc sky;
  DERETH_CHECK(r.require(16, "sky"));
  sky.tick_size = *r.f64("sky.tick_size");
  sky.light_tick_size = *r.f64("sky.light_tick_size");
  DERETH_TRY(const std::size_t n_groups, read_count(r, kMinDayGroup, "sky.day_groups.count"));
  sky.day_groups.reserve(n_groups);
  for (std::size_t g = 0; g < n_groups; ++g) {
    DayGroup dg;
    DERETH_TRY(dg.chance_of_occur, r.f32("sky.day_groups.chance_of_occur"));
    DERETH_TRY(dg.name, r.string16l("sky.day_groups.name"));
    DERETH_TRY(const std::size_t n_objects, read_count(r, kSkyObjectSize, "sky.day_groups.sky_objects.count"));
    dg.sky_objects.reserve(n_objects);
    for (std::size_t i = 0; i < n_objects; ++i) {
      SkyObject o;
      o.begin_time = *r.f32("sky.sky_objects.begin_time");
      o.end_time = *r.f32("sky.sky_objects.end_time");
      o.begin_angle = *r.f32("sky.sky_objects.begin_angle");
      o.end_angle = *r.f32("sky.sky_objects.end_angle");
      o.tex_velocity_x = *r.f32("sky.sky_objects.tex_velocity_x");
      o.tex_velocity_y = *r.f32("sky.sky_objects.tex_velocity_y");
      o.default_gfx_object = *r.u32("sky.sky_objects.default_gfx_object");
      o.default_pes_object = *r.u32("sky.sky_objects.default_pes_object");
      o.properties = *r.u32("sky.sky_objects.properties");
      dg.sky_objects.push_back(o);
    }
    DERETH_TRY(const std::size_t n_times, read_count(r, kMinSkyTimeOfDay, "sky.day_groups.sky_times.count"));
    dg.sky_times.reserve(n_times);
    for (std::size_t i = 0; i < n_times; ++i) {
      SkyTimeOfDay t;
      DERETH_CHECK(r.require(11 * 4, "sky.sky_times"));
      t.begin = *r.f32("sky.sky_times.begin");
      t.dir_bright = *r.f32("sky.sky_times.dir_bright");
      t.dir_heading = *r.f32("sky.sky_times.dir_heading");
      t.dir_pitch = *r.f32("sky.sky_times.dir_pitch");
      t.dir_color = *r.u32("sky.sky_times.dir_color");
      t.amb_bright = *r.f32("sky.sky_times.amb_bright");
      t.amb_color = *r.u32("sky.sky_times.amb_color");
      t.min_world_fog = *r.f32("sky.sky_times.min_world_fog");
      t.max_world_fog = *r.f32("sky.sky_times.max_world_fog");
      t.world_fog_color = *r.u32("sky.sky_times.world_fog_color");
      t.world_fog = *r.u32("sky.sky_times.world_fog");
      DERETH_TRY(const std::size_t n_rep, read_count(r, kSkyObjectReplaceSize, "sky.sky_times.replaces.count"));
      t.replaces.reserve(n_rep);
      for (std::size_t k = 0; k < n_rep; ++k) {
        SkyObjectReplace rep;
        rep.object_index = *r.u32("sky.replaces.object_index");
        rep.gfx_obj = *r.u32("sky.replaces.gfx_obj");
        rep.rotate = *r.f32("sky.replaces.rotate");
        rep.transparent = *r.f32("sky.replaces.transparent");
        rep.luminosity = *r.f32("sky.replaces.luminosity");
        rep.max_bright = *r.f32("sky.replaces.max_bright");
        t.replaces.push_back(rep);
      }
      dg.sky_times.push_back(std::move(t));
    }
    sky.day_groups.push_back(std::move(dg));
  }
  return sky;
}

void write_sky(ByteWriter& w, const SkyDesc& sky) {
  w.f64(sky.tick_size);
  w.f64(sky.light_tick_size);
  w.u32(static_cast<std::uint32_t>(sky.day_groups.size()));
  for (const auto& dg : sky.day_groups) {
    w.f32(dg.chance_of_occur);
    w.string16l(dg.name);
    w.u32(static_cast<std::uint32_t>(dg.sky_objects.size()));
    for (const auto& o : dg.sky_objects) {
      w.f32(o.begin_time);
      w.f32(o.end_time);
      w.f32(o.begin_angle);
      w.f32(o.end_angle);
      w.f32(o.tex_velocity_x);
      w.f32(o.tex_velocity_y);
      w.u32(o.default_gfx_object);
      w.u32(o.default_pes_object);
      w.u32(o.properties);
    }
    w.u32(static_cast<std::uint32_t>(dg.sky_times.size()));
    for (const auto& t : dg.sky_times) {
      w.f32(t.begin);
      w.f32(t.dir_bright);
      w.f32(t.dir_heading);
      w.f32(t.dir_pitch);
      w.u32(t.dir_color);
      w.f32(t.amb_bright);
      w.u32(t.amb_color);
      w.f32(t.min_world_fog);
      w.f32(t.max_world_fog);
      w.u32(t.world_fog_color);
      w.u32(t.world_fog);
      w.u32(static_cast<std::uint32_t>(t.replaces.size()));
      for (const auto& rep : t.replaces) {
        w.u32(rep.object_index);
        w.u32(rep.gfx_obj);
        w.f32(rep.rotate);
        w.f32(rep.transparent);
        w.f32(rep.luminosity);
        w.f32(rep.max_bright);
      }
    }
  }
}

Result<SoundDesc> read_sound(ByteReader& r) {
  SoundDesc s;
  DERETH_TRY(const std::size_t n, read_count(r, kMinAmbientTable, "sound.tables.count"));
  s.tables.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    AmbientSoundTable t;
    DERETH_TRY(t.sound_table, r.u32("sound.tables.sound_table"));
    DERETH_TRY(const std::size_t k, read_count(r, kAmbientSoundSize, "sound.tables.sounds.count"));
    t.sounds.reserve(k);
    for (std::size_t j = 0; j < k; ++j) {
      AmbientSound a;
      a.sound_type = *r.u32("sound.sounds.sound_type");
      a.volume = *r.f32("sound.sounds.volume");
      a.base_chance = *r.f32("sound.sounds.base_chance");
      a.min_rate = *r.f32("sound.sounds.min_rate");
      a.max_rate = *r.f32("sound.sounds.max_rate");
      t.sounds.push_back(a);
    }
    s.tables.push_back(std::move(t));
  }
  return s;
}

void write_sound(ByteWriter& w, const SoundDesc& s) {
  w.u32(static_cast<std::uint32_t>(s.tables.size()));
  for (const auto& t : s.tables) {
    w.u32(t.sound_table);
    w.u32(static_cast<std::uint32_t>(t.sounds.size()));
    for (const auto& a : t.sounds) {
      w.u32(a.sound_type);
      w.f32(a.volume);
      w.f32(a.base_chance);
      w.f32(a.min_rate);
      w.f32(a.max_rate);
    }
  }
}

Result<SceneDesc> read_scene(ByteReader& r) {
  SceneDesc s;
  DERETH_TRY(const std::size_t n, read_count(r, kMinSceneType, "scene.scene_types.count"));
  s.scene_types.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    SceneType t;
    DERETH_TRY(t.sound_table_index, r.u32("scene.scene_types.sound_table_index"));
    DERETH_TRY(const std::size_t k, read_count(r, 4, "scene.scene_types.scenes.count"));
    t.scenes.reserve(k);
    for (std::size_t j = 0; j < k; ++j) t.scenes.push_back(*r.u32("scene.scene_types.scenes"));
    s.scene_types.push_back(std::move(t));
  }
  return s;
}

void write_scene(ByteWriter& w, const SceneDesc& s) {
  w.u32(static_cast<std::uint32_t>(s.scene_types.size()));
  for (const auto& t : s.scene_types) {
    w.u32(t.sound_table_index);
    w.u32(static_cast<std::uint32_t>(t.scenes.size()));
    for (const Did d : t.scenes) w.u32(d);
  }
}

Result<std::vector<TerrainAlphaMap>> read_alpha_maps(ByteReader& r, std::string_view field) {
  DERETH_TRY(const std::size_t n, read_count(r, kAlphaMapSize, field));
  std::vector<TerrainAlphaMap> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    TerrainAlphaMap m;
    m.code = *r.u32(field);
    m.texture = *r.u32(field);
    out.push_back(m);
  }
  return out;
}

void write_alpha_maps(ByteWriter& w, const std::vector<TerrainAlphaMap>& maps) {
  w.u32(static_cast<std::uint32_t>(maps.size()));
  for (const auto& m : maps) {
    w.u32(m.code);
    w.u32(m.texture);
  }
}

Result<TerrainDesc> read_terrain(ByteReader& r) {
  TerrainDesc t;
  DERETH_TRY(const std::size_t n_types, read_count(r, kMinTerrainType, "terrain.terrain_types.count"));
  t.terrain_types.reserve(n_types);
  for (std::size_t i = 0; i < n_types; ++i) {
    TerrainType tt;
    DERETH_TRY(tt.name, r.string16l("terrain.terrain_types.name"));
    DERETH_TRY(tt.color, r.u32("terrain.terrain_types.color"));
    DERETH_TRY(const std::size_t k, read_count(r, 4, "terrain.terrain_types.scene_types.count"));
    tt.scene_types.reserve(k);
    for (std::size_t j = 0; j < k; ++j) tt.scene_types.push_back(*r.u32("terrain.terrain_types.scene_types"));
    t.terrain_types.push_back(std::move(tt));
  }
  DERETH_TRY(t.land_surf_type, r.u32("terrain.land_surf.type"));
  TexMerge& m = t.tex_merge;
  DERETH_TRY(m.base_tex_size, r.u32("terrain.tex_merge.base_tex_size"));
  DERETH_TRY(m.corner_maps, read_alpha_maps(r, "terrain.tex_merge.corner_maps"));
  DERETH_TRY(m.side_maps, read_alpha_maps(r, "terrain.tex_merge.side_maps"));
  DERETH_TRY(m.road_maps, read_alpha_maps(r, "terrain.tex_merge.road_maps"));
  DERETH_TRY(const std::size_t n_tex, read_count(r, kTerrainTexSize, "terrain.tex_merge.terrain_textures.count"));
  m.terrain_textures.reserve(n_tex);
  for (std::size_t i = 0; i < n_tex; ++i) {
    TerrainTex x;
    x.terrain_type = *r.u32("terrain.tex_merge.terrain_textures.terrain_type");
    x.texture = *r.u32("terrain.tex_merge.terrain_textures.texture");
    x.tex_tiling = *r.u32("terrain.tex_merge.terrain_textures.tex_tiling");
    x.max_vert_bright = *r.u32("terrain.tex_merge.terrain_textures.max_vert_bright");
    x.min_vert_bright = *r.u32("terrain.tex_merge.terrain_textures.min_vert_bright");
    x.max_vert_saturate = *r.u32("terrain.tex_merge.terrain_textures.max_vert_saturate");
    x.min_vert_saturate = *r.u32("terrain.tex_merge.terrain_textures.min_vert_saturate");
    x.max_vert_hue = *r.u32("terrain.tex_merge.terrain_textures.max_vert_hue");
    x.min_vert_hue = *r.u32("terrain.tex_merge.terrain_textures.min_vert_hue");
    x.detail_tex_tiling = *r.u32("terrain.tex_merge.terrain_textures.detail_tex_tiling");
    x.detail_texture = *r.u32("terrain.tex_merge.terrain_textures.detail_texture");
    m.terrain_textures.push_back(x);
  }
  return t;
}

void write_terrain(ByteWriter& w, const TerrainDesc& t) {
  w.u32(static_cast<std::uint32_t>(t.terrain_types.size()));
  for (const auto& tt : t.terrain_types) {
    w.string16l(tt.name);
    w.u32(tt.color);
    w.u32(static_cast<std::uint32_t>(tt.scene_types.size()));
    for (const auto s : tt.scene_types) w.u32(s);
  }
  w.u32(t.land_surf_type);
  const TexMerge& m = t.tex_merge;
  w.u32(m.base_tex_size);
  write_alpha_maps(w, m.corner_maps);
  write_alpha_maps(w, m.side_maps);
  write_alpha_maps(w, m.road_maps);
  w.u32(static_cast<std::uint32_t>(m.terrain_textures.size()));
  for (const auto& x : m.terrain_textures) {
    w.u32(x.terrain_type);
    w.u32(x.texture);
    w.u32(x.tex_tiling);
    w.u32(x.max_vert_bright);
    w.u32(x.min_vert_bright);
    w.u32(x.max_vert_saturate);
    w.u32(x.min_vert_saturate);
    w.u32(x.max_vert_hue);
    w.u32(x.min_vert_hue);
    w.u32(x.detail_tex_tiling);
    w.u32(x.detail_texture);
  }
}

}  // namespace

Result<Region> read_region(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "Region");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  Region reg;
  reg.id = id;
  DERETH_TRY(reg.region_number, r.u32("region_number"));
  const std::size_t version_at = r.position();
  DERETH_TRY(reg.version, r.u32("version"));
  if (reg.version != kRegionVersion) {
    return std::unexpected(
        r.error_at(version_at, core::ErrorKind::Invalid, "version",
                   fmt::format("region version {} (retail accepts only {})", reg.version, kRegionVersion)));
  }
  DERETH_TRY(reg.name, r.string16l("name"));
  DERETH_CHECK(read_land_defs(r, reg.land_defs));
  DERETH_CHECK(read_game_time(r, reg.game_time));
  DERETH_TRY(reg.parts_mask, r.u32("parts_mask"));
  if ((reg.parts_mask & region_parts::kSky) != 0) {
    DERETH_TRY(auto sky, read_sky(r));
    reg.sky = std::move(sky);
  }
  if ((reg.parts_mask & region_parts::kSound) != 0) {
    DERETH_TRY(auto sound, read_sound(r));
    reg.sound = std::move(sound);
  }
  if ((reg.parts_mask & region_parts::kScene) != 0) {
    DERETH_TRY(auto scene, read_scene(r));
    reg.scene = std::move(scene);
  }
  DERETH_TRY(reg.terrain, read_terrain(r));
  if ((reg.parts_mask & region_parts::kMisc) != 0) {
    DERETH_CHECK(r.require(24, "misc"));
    RegionMisc m;
    m.version = *r.u32("misc.version");
    m.game_map = *r.u32("misc.game_map");
    m.autotest_map = *r.u32("misc.autotest_map");
    m.autotest_map_size = *r.u32("misc.autotest_map_size");
    m.clear_cell = *r.u32("misc.clear_cell");
    m.clear_monster = *r.u32("misc.clear_monster");
    reg.misc = m;
  }
  DERETH_CHECK(r.expect_end());
  return reg;
}

std::vector<std::uint8_t> write_region(const Region& region) {
  ByteWriter w;
  w.u32(region.id);
  w.u32(region.region_number);
  w.u32(region.version);
  w.string16l(region.name);
  write_land_defs(w, region.land_defs);
  write_game_time(w, region.game_time);
  w.u32(region.parts_mask);
  if ((region.parts_mask & region_parts::kSky) != 0) write_sky(w, region.sky.value_or(SkyDesc{}));
  if ((region.parts_mask & region_parts::kSound) != 0) write_sound(w, region.sound.value_or(SoundDesc{}));
  if ((region.parts_mask & region_parts::kScene) != 0) write_scene(w, region.scene.value_or(SceneDesc{}));
  write_terrain(w, region.terrain);
  if ((region.parts_mask & region_parts::kMisc) != 0) {
    const RegionMisc m = region.misc.value_or(RegionMisc{});
    w.u32(m.version);
    w.u32(m.game_map);
    w.u32(m.autotest_map);
    w.u32(m.autotest_map_size);
    w.u32(m.clear_cell);
    w.u32(m.clear_monster);
  }
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const Region& region) {
  j.begin_object();
  j.key("type").string("Region");
  j.key("id").hex(region.id);
  j.key("region_number").number(region.region_number);
  j.key("version").number(region.version);
  j.key("name").string(region.name);
  const LandDefs& d = region.land_defs;
  j.key("land_defs").begin_object();
  j.key("num_block_length").number(d.num_block_length);
  j.key("num_block_width").number(d.num_block_width);
  j.key("square_length").f32(d.square_length);
  j.key("lblock_length").number(d.lblock_length);
  j.key("vertex_per_cell").number(d.vertex_per_cell);
  j.key("max_obj_height").f32(d.max_obj_height);
  j.key("sky_height").f32(d.sky_height);
  j.key("road_width").f32(d.road_width);
  j.key("land_height_table").begin_object();
  j.key("count").number(static_cast<std::uint64_t>(d.land_height_table.size()));
  j.key("first").f32(d.land_height_table.front());
  j.key("last").f32(d.land_height_table.back());
  j.end_object();
  j.end_object();
  const GameTime& g = region.game_time;
  j.key("game_time").begin_object();
  j.key("zero_time_of_year").f64(g.zero_time_of_year);
  j.key("zero_year").number(g.zero_year);
  j.key("day_length").f32(g.day_length);
  j.key("days_per_year").number(g.days_per_year);
  j.key("year_spec").string(g.year_spec);
  j.key("times_of_day").begin_array();
  for (const auto& t : g.times_of_day) j.string(t.name);
  j.end_array();
  j.key("day_names").begin_array();
  for (const auto& n : g.day_names) j.string(n);
  j.end_array();
  j.key("seasons").begin_array();
  for (const auto& s : g.seasons) j.string(s.name);
  j.end_array();
  j.end_object();
  j.key("parts_mask").hex(region.parts_mask);
  if (region.sky) {
    j.key("sky").begin_object();
    j.key("tick_size").f64(region.sky->tick_size);
    j.key("light_tick_size").f64(region.sky->light_tick_size);
    j.key("day_groups").number(static_cast<std::uint64_t>(region.sky->day_groups.size()));
    j.end_object();
  }
  if (region.sound) {
    j.key("sound").begin_object();
    j.key("tables").number(static_cast<std::uint64_t>(region.sound->tables.size()));
    j.end_object();
  }
  if (region.scene) {
    j.key("scene").begin_object();
    j.key("scene_types").number(static_cast<std::uint64_t>(region.scene->scene_types.size()));
    j.end_object();
  }
  const TerrainDesc& t = region.terrain;
  j.key("terrain").begin_object();
  j.key("terrain_types").begin_array();
  for (const auto& tt : t.terrain_types) j.string(tt.name);
  j.end_array();
  j.key("land_surf_type").number(t.land_surf_type);
  j.key("base_tex_size").number(t.tex_merge.base_tex_size);
  j.key("corner_maps").number(static_cast<std::uint64_t>(t.tex_merge.corner_maps.size()));
  j.key("side_maps").number(static_cast<std::uint64_t>(t.tex_merge.side_maps.size()));
  j.key("road_maps").number(static_cast<std::uint64_t>(t.tex_merge.road_maps.size()));
  j.key("terrain_textures").number(static_cast<std::uint64_t>(t.tex_merge.terrain_textures.size()));
  j.end_object();
  if (region.misc) {
    j.key("misc").begin_object();
    j.key("version").number(region.misc->version);
    j.key("game_map").hex(region.misc->game_map);
    j.key("autotest_map").hex(region.misc->autotest_map);
    j.key("autotest_map_size").number(region.misc->autotest_map_size);
    j.key("clear_cell").hex(region.misc->clear_cell);
    j.key("clear_monster").hex(region.misc->clear_monster);
    j.end_object();
  }
  j.end_object();
}

float land_height(const LandDefs& defs, std::uint8_t height) noexcept {
  const float h = defs.land_height_table[height];
  if (std::isnan(h)) return 0.0F;
  return std::clamp(h, 0.0F, 800.0F);
}

}  // namespace dereth::dat
