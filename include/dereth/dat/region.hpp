#pragma once
// Region (0x13xxxxxx; 0x13000000 "Dereth"), retail CRegionDesc::UnPack
// (RE:src/PORTAL/cregion/CRegionDesc.c): LandDefs, GameTime, sky, sound,
// scene and terrain descriptions. Every part is decoded and kept, because
// the optional parts carry no length and sit before TerrainDesc, and so that
// records round-trip. Layout and the quirks kept: docs/dat.md "Region".

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

namespace region_parts {
inline constexpr std::uint32_t kSound = 0x01;
inline constexpr std::uint32_t kScene = 0x02;
inline constexpr std::uint32_t kSky = 0x10;
inline constexpr std::uint32_t kMisc = 0x200;
}  // namespace region_parts

inline constexpr std::uint32_t kRegionVersion = 3;
// The portal's one Region, "Dereth".
inline constexpr Did kRegionId = 0x13000000;

struct LandDefs {
  std::int32_t num_block_length = 255;
  std::int32_t num_block_width = 255;
  float square_length = 24.0F;
  std::int32_t lblock_length = 8;
  std::int32_t vertex_per_cell = 1;
  float max_obj_height = 200.0F;
  float sky_height = 1000.0F;
  float road_width = 5.0F;
  std::array<float, 256> land_height_table{};
  bool operator==(const LandDefs&) const = default;
};

struct TimeOfDay {
  float start = 0;
  std::uint32_t is_night = 0;
  std::string name;
  bool operator==(const TimeOfDay&) const = default;
};

struct Season {
  std::uint32_t start = 0;
  std::string name;
  bool operator==(const Season&) const = default;
};

struct GameTime {
  double zero_time_of_year = 0;
  std::uint32_t zero_year = 0;
  float day_length = 0;
  std::uint32_t days_per_year = 0;
  std::string year_spec;
  std::vector<TimeOfDay> times_of_day;
  std::vector<std::string> day_names;
  std::vector<Season> seasons;
  bool operator==(const GameTime&) const = default;
};

struct SkyObject {
  float begin_time = 0;
  float end_time = 0;
  float begin_angle = 0;
  float end_angle = 0;
  float tex_velocity_x = 0;
  float tex_velocity_y = 0;
  Did default_gfx_object = 0;  // GfxObj 0x01...
  Did default_pes_object = 0;  // PhysicsScript 0x33...
  std::uint32_t properties = 0;
  bool operator==(const SkyObject&) const = default;
};

struct SkyObjectReplace {
  std::uint32_t object_index = 0;
  Did gfx_obj = 0;
  float rotate = 0;
  float transparent = 0;
  float luminosity = 0;
  float max_bright = 0;
  bool operator==(const SkyObjectReplace&) const = default;
};

struct SkyTimeOfDay {
  float begin = 0;
  float dir_bright = 0;
  float dir_heading = 0;
  float dir_pitch = 0;
  std::uint32_t dir_color = 0;  // ColorARGB
  float amb_bright = 0;
  std::uint32_t amb_color = 0;  // ColorARGB
  float min_world_fog = 0;
  float max_world_fog = 0;
  std::uint32_t world_fog_color = 0;  // ColorARGB
  std::uint32_t world_fog = 0;
  std::vector<SkyObjectReplace> replaces;
  bool operator==(const SkyTimeOfDay&) const = default;
};

struct DayGroup {
  float chance_of_occur = 0;
  std::string name;
  std::vector<SkyObject> sky_objects;
  std::vector<SkyTimeOfDay> sky_times;
  bool operator==(const DayGroup&) const = default;
};

struct SkyDesc {
  double tick_size = 0;
  double light_tick_size = 0;
  std::vector<DayGroup> day_groups;
  bool operator==(const SkyDesc&) const = default;
};

struct AmbientSound {
  std::uint32_t sound_type = 0;  // Sound enum
  float volume = 0;
  float base_chance = 0;
  float min_rate = 0;
  float max_rate = 0;
  bool operator==(const AmbientSound&) const = default;
};

struct AmbientSoundTable {
  Did sound_table = 0;  // SoundTable 0x20...
  std::vector<AmbientSound> sounds;
  bool operator==(const AmbientSoundTable&) const = default;
};

struct SoundDesc {
  std::vector<AmbientSoundTable> tables;
  bool operator==(const SoundDesc&) const = default;
};

struct SceneType {
  std::uint32_t sound_table_index = 0;  // index into SoundDesc::tables, 0xFFFFFFFF = none
  std::vector<Did> scenes;              // Scene 0x12...
  bool operator==(const SceneType&) const = default;
};

struct SceneDesc {
  std::vector<SceneType> scene_types;
  bool operator==(const SceneDesc&) const = default;
};

struct TerrainType {
  std::string name;
  std::uint32_t color = 0;                 // ColorARGB
  std::vector<std::uint32_t> scene_types;  // indices into SceneDesc::scene_types
  bool operator==(const TerrainType&) const = default;
};

// CornerTerrainMap / SideTerrainMap / RoadMap: a code and a SurfaceTexture.
struct TerrainAlphaMap {
  std::uint32_t code = 0;
  Did texture = 0;  // 0x05...
  bool operator==(const TerrainAlphaMap&) const = default;
};

struct TerrainTex {
  std::uint32_t terrain_type = 0;
  Did texture = 0;  // 0x05...
  std::uint32_t tex_tiling = 0;
  std::uint32_t max_vert_bright = 0;
  std::uint32_t min_vert_bright = 0;
  std::uint32_t max_vert_saturate = 0;
  std::uint32_t min_vert_saturate = 0;
  std::uint32_t max_vert_hue = 0;
  std::uint32_t min_vert_hue = 0;
  std::uint32_t detail_tex_tiling = 0;
  Did detail_texture = 0;  // 0x05...
  bool operator==(const TerrainTex&) const = default;
};

struct TexMerge {
  std::uint32_t base_tex_size = 0;
  std::vector<TerrainAlphaMap> corner_maps;
  std::vector<TerrainAlphaMap> side_maps;
  std::vector<TerrainAlphaMap> road_maps;
  std::vector<TerrainTex> terrain_textures;
  bool operator==(const TexMerge&) const = default;
};

struct TerrainDesc {
  std::vector<TerrainType> terrain_types;
  std::uint32_t land_surf_type = 0;
  TexMerge tex_merge;
  bool operator==(const TerrainDesc&) const = default;
};

struct RegionMisc {
  std::uint32_t version = 0;
  Did game_map = 0;
  Did autotest_map = 0;
  std::uint32_t autotest_map_size = 0;
  Did clear_cell = 0;
  Did clear_monster = 0;
  bool operator==(const RegionMisc&) const = default;
};

struct Region {
  Did id = 0;
  std::uint32_t region_number = 1;
  std::uint32_t version = kRegionVersion;
  std::string name;
  LandDefs land_defs;
  GameTime game_time;
  std::uint32_t parts_mask = 0;
  // On disk iff the matching parts_mask bit is set (the writer writes a
  // default-constructed part for a set bit whose optional is empty).
  std::optional<SkyDesc> sky;
  std::optional<SoundDesc> sound;
  std::optional<SceneDesc> scene;
  TerrainDesc terrain;
  std::optional<RegionMisc> misc;
  bool operator==(const Region&) const = default;
};

// Fails (Invalid) unless version == 3, as retail does.
Result<Region> read_region(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_region(const Region& region);
// Scalars, names and list sizes; the height table as min/max, not 256 floats.
void write_json(core::JsonWriter& j, const Region& region);

// landHeightTable[height], clamped to [0, 800] as the client does.
[[nodiscard]] float land_height(const LandDefs& defs, std::uint8_t height) noexcept;

}  // namespace dereth::dat
