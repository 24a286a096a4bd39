#pragma once
// CharGen (0x0E000002): the character creation data a server checks new
// characters against (heritage groups, genders, appearance choices, starting
// areas). Its layout: docs/dat.md, "CharGen".
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

inline constexpr Did kCharGenId = 0x0E000002;

struct CharGenSubPalette {
  Did palette = 0;              // 0x04xxxxxx
  std::uint8_t offset = 0;      // first colour / 8
  std::uint8_t num_colors = 0;  // colours / 8; 0 means 256 (2048 colours)
  bool operator==(const CharGenSubPalette&) const = default;
};

struct CharGenTextureChange {
  std::uint8_t part = 0;
  Did old_texture = 0;  // 0x05xxxxxx
  Did new_texture = 0;
  bool operator==(const CharGenTextureChange&) const = default;
};

struct CharGenPartChange {
  std::uint8_t part = 0;
  Did gfx_obj = 0;  // 0x01xxxxxx
  bool operator==(const CharGenPartChange&) const = default;
};

// The ObjDesc as stored in CharGen. Packed DIDs must lie in their type's
// range (0x04/0x05/0x01 high byte) to round-trip; `palette` is on disk only
// when there are subpalettes (read back as 0 otherwise). Lists hold at most
// 255 entries on disk (u8 counts).
struct CharGenObjDesc {
  Did palette = 0;
  std::vector<CharGenSubPalette> subpalettes;
  std::vector<CharGenTextureChange> texture_changes;
  std::vector<CharGenPartChange> part_changes;
  bool operator==(const CharGenObjDesc&) const = default;
};

struct CharGenPosition {
  std::uint32_t cell = 0;  // 0xXXYYnnnn
  Frame frame;
  bool operator==(const CharGenPosition&) const = default;
};

struct StarterArea {
  std::string name;
  std::vector<CharGenPosition> locations;
  bool operator==(const StarterArea&) const = default;
};

struct CharGenSkill {
  std::uint32_t skill = 0;
  std::int32_t normal_cost = 0;
  std::int32_t primary_cost = 0;
  bool operator==(const CharGenSkill&) const = default;
};

struct CharGenTemplate {
  std::string name;
  Did icon = 0;
  std::uint32_t title = 0;
  std::uint32_t strength = 0;
  std::uint32_t endurance = 0;
  std::uint32_t coordination = 0;
  std::uint32_t quickness = 0;
  std::uint32_t focus = 0;
  std::uint32_t self = 0;
  std::vector<std::uint32_t> normal_skills;
  std::vector<std::uint32_t> primary_skills;
  bool operator==(const CharGenTemplate&) const = default;
};

struct HairStyle {
  Did icon = 0;
  std::uint8_t bald = 0;  // 1 = bald
  Did alternate_setup = 0;
  CharGenObjDesc obj_desc;
  bool operator==(const HairStyle&) const = default;
};

struct EyeStrip {
  Did icon = 0;
  Did bald_icon = 0;
  CharGenObjDesc obj_desc;
  CharGenObjDesc bald_obj_desc;
  bool operator==(const EyeStrip&) const = default;
};

struct FaceStrip {
  Did icon = 0;
  CharGenObjDesc obj_desc;
  bool operator==(const FaceStrip&) const = default;
};

struct CharGenGear {
  std::string name;
  Did clothing_table = 0;    // 0x10xxxxxx
  std::uint32_t weenie = 0;  // the default weenie class id
  bool operator==(const CharGenGear&) const = default;
};

struct CharGenSex {
  std::uint32_t gender = 0;  // the hash key: 1 male, 2 female
  std::string name;
  std::uint32_t scale = 0;
  Did setup = 0;
  Did sound_table = 0;
  Did icon = 0;
  Did base_palette = 0;
  Did skin_palette_set = 0;
  Did physics_table = 0;
  Did motion_table = 0;
  Did combat_table = 0;
  CharGenObjDesc obj_desc;
  std::vector<Did> hair_colors;  // PaletteSets
  std::vector<HairStyle> hair_styles;
  std::vector<Did> eye_colors;  // Palettes
  std::vector<EyeStrip> eye_strips;
  std::vector<FaceStrip> nose_strips;
  std::vector<FaceStrip> mouth_strips;
  std::vector<CharGenGear> headgear;
  std::vector<CharGenGear> shirts;
  std::vector<CharGenGear> pants;
  std::vector<CharGenGear> footwear;
  std::vector<Did> clothing_colors;
  bool operator==(const CharGenSex&) const = default;
};

struct HeritageGroup {
  std::uint32_t heritage = 0;  // the hash key
  std::string name;
  Did icon = 0;
  Did setup = 0;
  Did environment_setup = 0;
  std::uint32_t attribute_credits = 0;
  std::uint32_t skill_credits = 0;
  std::vector<std::uint32_t> primary_start_areas;  // indices into CharGen::starter_areas
  std::vector<std::uint32_t> secondary_start_areas;
  std::vector<CharGenSkill> skills;
  std::vector<CharGenTemplate> templates;
  std::uint8_t gender_buckets = 1;  // the gender HashTable's bucket byte
  std::vector<CharGenSex> genders;
  bool operator==(const HeritageGroup&) const = default;
};

struct CharGen {
  Did id = kCharGenId;
  std::uint32_t repeated_id = kCharGenId;  // the u32 after the DID
  std::vector<StarterArea> starter_areas;
  std::uint8_t heritage_buckets = 1;  // the heritage HashTable's bucket byte
  std::vector<HeritageGroup> heritage_groups;
  bool operator==(const CharGen&) const = default;
};

// An ObjDesc whose first byte is not 0x11 is Invalid.
Result<CharGen> read_char_gen(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_char_gen(const CharGen& record);
void write_json(core::JsonWriter& j, const CharGen& record);

[[nodiscard]] const HeritageGroup* find_heritage(const CharGen& record, std::uint32_t heritage) noexcept;

}  // namespace dereth::dat
