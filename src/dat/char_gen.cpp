#include "dereth/dat/char_gen.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace dereth::dat {

namespace {

constexpr std::uint8_t kObjDescVersion = 0x11;
constexpr Did kPaletteBase = 0x04000000;
constexpr Did kTextureBase = 0x05000000;
constexpr Did kGfxObjBase = 0x01000000;

// Smallest encodings (CompressedUInt counts and lengths of 1 byte, empty
// lists, padding not counted), the bounds for the counts below.
constexpr std::size_t kMinPosition = 32;
constexpr std::size_t kMinStarterArea = 2;
constexpr std::size_t kMinHeritage = 4 + 1 + 20 + 6;
constexpr std::size_t kMinSkill = 12;
constexpr std::size_t kMinTemplate = 1 + 32 + 2;
constexpr std::size_t kMinObjDesc = 4;
constexpr std::size_t kMinSex = 4 + 1 + 36 + kMinObjDesc + 11;
constexpr std::size_t kMinHairStyle = 9 + kMinObjDesc;
constexpr std::size_t kMinEyeStrip = 8 + 2 * kMinObjDesc;
constexpr std::size_t kMinFaceStrip = 4 + kMinObjDesc;
constexpr std::size_t kMinGear = 1 + 8;

// ---- reading ------------------------------------------------------------------------------------

Result<void> read_obj_desc(ByteReader& r, CharGenObjDesc& d) {
  DERETH_CHECK(r.align4("obj_desc.padding"));
  const std::size_t at = r.position();
  DERETH_CHECK(r.require(4, "obj_desc"));
  const std::uint8_t version = *r.u8("obj_desc.version");
  if (version != kObjDescVersion) {
    return std::unexpected(
        r.error_at(at, core::ErrorKind::Invalid, "obj_desc.version", fmt::format("0x{:02X}, expected 0x11", version)));
  }
  const std::size_t subpalettes = *r.u8("obj_desc.subpalettes.count");
  const std::size_t textures = *r.u8("obj_desc.texture_changes.count");
  const std::size_t parts = *r.u8("obj_desc.part_changes.count");
  // Smallest packed forms: 2-byte DIDs. Bounded before anything is allocated.
  const std::size_t needed = (subpalettes > 0 ? 2 : 0) + subpalettes * 4 + textures * 5 + parts * 3;
  if (needed > r.remaining()) {
    return std::unexpected(
        r.error_at(at + 1, core::ErrorKind::TooLarge, "obj_desc.counts",
                   fmt::format("the lists need at least {} bytes, {} remain", needed, r.remaining())));
  }
  if (subpalettes > 0) {
    DERETH_TRY(d.palette, r.packed_did(kPaletteBase, "obj_desc.palette"));
  }
  d.subpalettes.reserve(subpalettes);
  for (std::size_t i = 0; i < subpalettes; ++i) {
    CharGenSubPalette s;
    DERETH_TRY(s.palette, r.packed_did(kPaletteBase, "obj_desc.subpalettes.palette"));
    DERETH_TRY(s.offset, r.u8("obj_desc.subpalettes.offset"));
    DERETH_TRY(s.num_colors, r.u8("obj_desc.subpalettes.num_colors"));
    d.subpalettes.push_back(s);
  }
  d.texture_changes.reserve(textures);
  for (std::size_t i = 0; i < textures; ++i) {
    CharGenTextureChange t;
    DERETH_TRY(t.part, r.u8("obj_desc.texture_changes.part"));
    DERETH_TRY(t.old_texture, r.packed_did(kTextureBase, "obj_desc.texture_changes.old"));
    DERETH_TRY(t.new_texture, r.packed_did(kTextureBase, "obj_desc.texture_changes.new"));
    d.texture_changes.push_back(t);
  }
  d.part_changes.reserve(parts);
  for (std::size_t i = 0; i < parts; ++i) {
    CharGenPartChange p;
    DERETH_TRY(p.part, r.u8("obj_desc.part_changes.part"));
    DERETH_TRY(p.gfx_obj, r.packed_did(kGfxObjBase, "obj_desc.part_changes.gfx_obj"));
    d.part_changes.push_back(p);
  }
  DERETH_CHECK(r.align4("obj_desc.padding"));
  return {};
}

Result<void> read_u32_list(ByteReader& r, std::vector<std::uint32_t>& out, std::string_view field) {
  DERETH_TRY(const std::size_t n, read_compressed_count(r, 4, field));
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(*r.u32(field));
  return {};
}

// A SmartArray of T read by `read_one(r, T&)`.
template <class T, class F>
Result<void> read_list(ByteReader& r, std::vector<T>& out, std::size_t min_size, std::string_view field, F&& read_one) {
  DERETH_TRY(const std::size_t n, read_compressed_count(r, min_size, field));
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    T item;
    DERETH_CHECK(read_one(r, item));
    out.push_back(std::move(item));
  }
  return {};
}

Result<void> read_u32s(ByteReader& r, std::initializer_list<std::uint32_t*> fields, std::string_view field) {
  DERETH_CHECK(r.require(fields.size() * 4, field));
  for (std::uint32_t* f : fields) *f = *r.u32(field);
  return {};
}

Result<void> read_gear(ByteReader& r, CharGenGear& g) {
  DERETH_TRY(g.name, read_compressed_string(r, "gear.name"));
  return read_u32s(r, {&g.clothing_table, &g.weenie}, "gear");
}

Result<void> read_face_strip(ByteReader& r, FaceStrip& f) {
  DERETH_TRY(f.icon, r.u32("face_strip.icon"));
  return read_obj_desc(r, f.obj_desc);
}

Result<void> read_hair_style(ByteReader& r, HairStyle& h) {
  DERETH_CHECK(r.require(9, "hair_style"));
  h.icon = *r.u32("hair_style.icon");
  h.bald = *r.u8("hair_style.bald");
  h.alternate_setup = *r.u32("hair_style.alternate_setup");
  return read_obj_desc(r, h.obj_desc);
}

Result<void> read_eye_strip(ByteReader& r, EyeStrip& e) {
  DERETH_CHECK(read_u32s(r, {&e.icon, &e.bald_icon}, "eye_strip"));
  DERETH_CHECK(read_obj_desc(r, e.obj_desc));
  return read_obj_desc(r, e.bald_obj_desc);
}

Result<void> read_skill(ByteReader& r, CharGenSkill& s) {
  DERETH_CHECK(r.require(12, "skills"));
  s.skill = *r.u32("skills.skill");
  s.normal_cost = *r.i32("skills.normal_cost");
  s.primary_cost = *r.i32("skills.primary_cost");
  return {};
}

Result<void> read_position(ByteReader& r, CharGenPosition& p) {
  DERETH_TRY(p.cell, r.u32("locations.cell"));
  DERETH_TRY(p.frame, read_frame(r, "locations.frame"));
  return {};
}

Result<void> read_sex(ByteReader& r, CharGenSex& s) {
  DERETH_TRY(s.gender, r.u32("genders.key"));
  DERETH_TRY(s.name, read_compressed_string(r, "genders.name"));
  DERETH_CHECK(read_u32s(r,
                         {&s.scale, &s.setup, &s.sound_table, &s.icon, &s.base_palette, &s.skin_palette_set,
                          &s.physics_table, &s.motion_table, &s.combat_table},
                         "genders.fields"));
  DERETH_CHECK(read_obj_desc(r, s.obj_desc));
  DERETH_CHECK(read_u32_list(r, s.hair_colors, "genders.hair_colors"));
  DERETH_CHECK(read_list(r, s.hair_styles, kMinHairStyle, "genders.hair_styles", read_hair_style));
  DERETH_CHECK(read_u32_list(r, s.eye_colors, "genders.eye_colors"));
  DERETH_CHECK(read_list(r, s.eye_strips, kMinEyeStrip, "genders.eye_strips", read_eye_strip));
  DERETH_CHECK(read_list(r, s.nose_strips, kMinFaceStrip, "genders.nose_strips", read_face_strip));
  DERETH_CHECK(read_list(r, s.mouth_strips, kMinFaceStrip, "genders.mouth_strips", read_face_strip));
  DERETH_CHECK(read_list(r, s.headgear, kMinGear, "genders.headgear", read_gear));
  DERETH_CHECK(read_list(r, s.shirts, kMinGear, "genders.shirts", read_gear));
  DERETH_CHECK(read_list(r, s.pants, kMinGear, "genders.pants", read_gear));
  DERETH_CHECK(read_list(r, s.footwear, kMinGear, "genders.footwear", read_gear));
  DERETH_CHECK(read_u32_list(r, s.clothing_colors, "genders.clothing_colors"));
  return {};
}

Result<void> read_template(ByteReader& r, CharGenTemplate& t) {
  DERETH_TRY(t.name, read_compressed_string(r, "templates.name"));
  DERETH_CHECK(
      read_u32s(r, {&t.icon, &t.title, &t.strength, &t.endurance, &t.coordination, &t.quickness, &t.focus, &t.self},
                "templates.fields"));
  DERETH_CHECK(read_u32_list(r, t.normal_skills, "templates.normal_skills"));
  DERETH_CHECK(read_u32_list(r, t.primary_skills, "templates.primary_skills"));
  return {};
}

Result<void> read_heritage(ByteReader& r, HeritageGroup& h) {
  DERETH_TRY(h.heritage, r.u32("heritage_groups.key"));
  DERETH_TRY(h.name, read_compressed_string(r, "heritage_groups.name"));
  DERETH_CHECK(read_u32s(r, {&h.icon, &h.setup, &h.environment_setup, &h.attribute_credits, &h.skill_credits},
                         "heritage_groups.fields"));
  DERETH_CHECK(read_u32_list(r, h.primary_start_areas, "heritage_groups.primary_start_areas"));
  DERETH_CHECK(read_u32_list(r, h.secondary_start_areas, "heritage_groups.secondary_start_areas"));
  DERETH_CHECK(read_list(r, h.skills, kMinSkill, "heritage_groups.skills", read_skill));
  DERETH_CHECK(read_list(r, h.templates, kMinTemplate, "heritage_groups.templates", read_template));
  DERETH_TRY(h.gender_buckets, r.u8("heritage_groups.genders.buckets"));
  DERETH_CHECK(read_list(r, h.genders, kMinSex, "heritage_groups.genders.count", read_sex));
  return {};
}

Result<void> read_starter_area(ByteReader& r, StarterArea& a) {
  DERETH_TRY(a.name, read_compressed_string(r, "starter_areas.name"));
  return read_list(r, a.locations, kMinPosition, "starter_areas.locations", read_position);
}

// ---- writing ------------------------------------------------------------------------------------

void write_obj_desc(ByteWriter& w, const CharGenObjDesc& d) {
  w.align4();
  const std::size_t subpalettes = std::min<std::size_t>(d.subpalettes.size(), 255);
  const std::size_t textures = std::min<std::size_t>(d.texture_changes.size(), 255);
  const std::size_t parts = std::min<std::size_t>(d.part_changes.size(), 255);
  w.u8(kObjDescVersion);
  w.u8(static_cast<std::uint8_t>(subpalettes));
  w.u8(static_cast<std::uint8_t>(textures));
  w.u8(static_cast<std::uint8_t>(parts));
  if (subpalettes > 0) w.packed_did(d.palette, kPaletteBase);
  for (std::size_t i = 0; i < subpalettes; ++i) {
    w.packed_did(d.subpalettes[i].palette, kPaletteBase);
    w.u8(d.subpalettes[i].offset);
    w.u8(d.subpalettes[i].num_colors);
  }
  for (std::size_t i = 0; i < textures; ++i) {
    w.u8(d.texture_changes[i].part);
    w.packed_did(d.texture_changes[i].old_texture, kTextureBase);
    w.packed_did(d.texture_changes[i].new_texture, kTextureBase);
  }
  for (std::size_t i = 0; i < parts; ++i) {
    w.u8(d.part_changes[i].part);
    w.packed_did(d.part_changes[i].gfx_obj, kGfxObjBase);
  }
  w.align4();
}

void write_u32_list(ByteWriter& w, const std::vector<std::uint32_t>& v) {
  write_compressed_uint(w, static_cast<std::uint32_t>(v.size()));
  for (const auto x : v) w.u32(x);
}

template <class T, class F>
void write_list(ByteWriter& w, const std::vector<T>& v, F&& write_one) {
  write_compressed_uint(w, static_cast<std::uint32_t>(v.size()));
  for (const auto& item : v) write_one(w, item);
}

void write_gear(ByteWriter& w, const CharGenGear& g) {
  write_compressed_string(w, g.name);
  w.u32(g.clothing_table);
  w.u32(g.weenie);
}

void write_face_strip(ByteWriter& w, const FaceStrip& f) {
  w.u32(f.icon);
  write_obj_desc(w, f.obj_desc);
}

void write_sex(ByteWriter& w, const CharGenSex& s) {
  w.u32(s.gender);
  write_compressed_string(w, s.name);
  for (const auto v : {s.scale, s.setup, s.sound_table, s.icon, s.base_palette, s.skin_palette_set, s.physics_table,
                       s.motion_table, s.combat_table}) {
    w.u32(v);
  }
  write_obj_desc(w, s.obj_desc);
  write_u32_list(w, s.hair_colors);
  write_list(w, s.hair_styles, [](ByteWriter& out, const HairStyle& h) {
    out.u32(h.icon);
    out.u8(h.bald);
    out.u32(h.alternate_setup);
    write_obj_desc(out, h.obj_desc);
  });
  write_u32_list(w, s.eye_colors);
  write_list(w, s.eye_strips, [](ByteWriter& out, const EyeStrip& e) {
    out.u32(e.icon);
    out.u32(e.bald_icon);
    write_obj_desc(out, e.obj_desc);
    write_obj_desc(out, e.bald_obj_desc);
  });
  write_list(w, s.nose_strips, write_face_strip);
  write_list(w, s.mouth_strips, write_face_strip);
  write_list(w, s.headgear, write_gear);
  write_list(w, s.shirts, write_gear);
  write_list(w, s.pants, write_gear);
  write_list(w, s.footwear, write_gear);
  write_u32_list(w, s.clothing_colors);
}

void write_heritage(ByteWriter& w, const HeritageGroup& h) {
  w.u32(h.heritage);
  write_compressed_string(w, h.name);
  for (const auto v : {h.icon, h.setup, h.environment_setup, h.attribute_credits, h.skill_credits}) w.u32(v);
  write_u32_list(w, h.primary_start_areas);
  write_u32_list(w, h.secondary_start_areas);
  write_list(w, h.skills, [](ByteWriter& out, const CharGenSkill& s) {
    out.u32(s.skill);
    out.i32(s.normal_cost);
    out.i32(s.primary_cost);
  });
  write_list(w, h.templates, [](ByteWriter& out, const CharGenTemplate& t) {
    write_compressed_string(out, t.name);
    for (const auto v : {t.icon, t.title, t.strength, t.endurance, t.coordination, t.quickness, t.focus, t.self}) {
      out.u32(v);
    }
    write_u32_list(out, t.normal_skills);
    write_u32_list(out, t.primary_skills);
  });
  w.u8(h.gender_buckets);
  write_list(w, h.genders, write_sex);
}

// ---- JSON ---------------------------------------------------------------------------------------

void json_obj_desc(core::JsonWriter& j, const CharGenObjDesc& d) {
  j.begin_object();
  j.key("palette").hex(d.palette);
  j.key("subpalettes").begin_array();
  for (const auto& s : d.subpalettes) {
    j.begin_object();
    j.key("palette").hex(s.palette);
    j.key("offset").number(s.offset);
    j.key("num_colors").number(s.num_colors);
    j.end_object();
  }
  j.end_array();
  j.key("texture_changes").begin_array();
  for (const auto& t : d.texture_changes) {
    j.begin_object();
    j.key("part").number(t.part);
    j.key("old").hex(t.old_texture);
    j.key("new").hex(t.new_texture);
    j.end_object();
  }
  j.end_array();
  j.key("part_changes").begin_array();
  for (const auto& p : d.part_changes) {
    j.begin_object();
    j.key("part").number(p.part);
    j.key("gfx_obj").hex(p.gfx_obj);
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

void json_dids(core::JsonWriter& j, std::string_view name, const std::vector<std::uint32_t>& v) {
  j.key(name).begin_array();
  for (const auto x : v) j.hex(x);
  j.end_array();
}

void json_numbers(core::JsonWriter& j, std::string_view name, const std::vector<std::uint32_t>& v) {
  j.key(name).begin_array();
  for (const auto x : v) j.number(x);
  j.end_array();
}

void json_gear(core::JsonWriter& j, std::string_view name, const std::vector<CharGenGear>& v) {
  j.key(name).begin_array();
  for (const auto& g : v) {
    j.begin_object();
    j.key("name").string(g.name);
    j.key("clothing_table").hex(g.clothing_table);
    j.key("weenie").number(g.weenie);
    j.end_object();
  }
  j.end_array();
}

void json_face_strips(core::JsonWriter& j, std::string_view name, const std::vector<FaceStrip>& v) {
  j.key(name).begin_array();
  for (const auto& f : v) {
    j.begin_object();
    j.key("icon").hex(f.icon);
    j.key("obj_desc");
    json_obj_desc(j, f.obj_desc);
    j.end_object();
  }
  j.end_array();
}

void json_sex(core::JsonWriter& j, const CharGenSex& s) {
  j.begin_object();
  j.key("gender").number(s.gender);
  j.key("name").string(s.name);
  j.key("scale").number(s.scale);
  j.key("setup").hex(s.setup);
  j.key("sound_table").hex(s.sound_table);
  j.key("icon").hex(s.icon);
  j.key("base_palette").hex(s.base_palette);
  j.key("skin_palette_set").hex(s.skin_palette_set);
  j.key("physics_table").hex(s.physics_table);
  j.key("motion_table").hex(s.motion_table);
  j.key("combat_table").hex(s.combat_table);
  j.key("obj_desc");
  json_obj_desc(j, s.obj_desc);
  json_dids(j, "hair_colors", s.hair_colors);
  j.key("hair_styles").begin_array();
  for (const auto& h : s.hair_styles) {
    j.begin_object();
    j.key("icon").hex(h.icon);
    j.key("bald").number(h.bald);
    j.key("alternate_setup").hex(h.alternate_setup);
    j.key("obj_desc");
    json_obj_desc(j, h.obj_desc);
    j.end_object();
  }
  j.end_array();
  json_dids(j, "eye_colors", s.eye_colors);
  j.key("eye_strips").begin_array();
  for (const auto& e : s.eye_strips) {
    j.begin_object();
    j.key("icon").hex(e.icon);
    j.key("bald_icon").hex(e.bald_icon);
    j.key("obj_desc");
    json_obj_desc(j, e.obj_desc);
    j.key("bald_obj_desc");
    json_obj_desc(j, e.bald_obj_desc);
    j.end_object();
  }
  j.end_array();
  json_face_strips(j, "nose_strips", s.nose_strips);
  json_face_strips(j, "mouth_strips", s.mouth_strips);
  json_gear(j, "headgear", s.headgear);
  json_gear(j, "shirts", s.shirts);
  json_gear(j, "pants", s.pants);
  json_gear(j, "footwear", s.footwear);
  json_dids(j, "clothing_colors", s.clothing_colors);
  j.end_object();
}

}  // namespace

Result<CharGen> read_char_gen(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "CharGen");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  CharGen c;
  c.id = id;
  DERETH_TRY(c.repeated_id, r.u32("repeated_id"));
  DERETH_CHECK(read_list(r, c.starter_areas, kMinStarterArea, "starter_areas.count", read_starter_area));
  DERETH_TRY(c.heritage_buckets, r.u8("heritage_groups.buckets"));
  DERETH_CHECK(read_list(r, c.heritage_groups, kMinHeritage, "heritage_groups.count", read_heritage));
  DERETH_CHECK(r.expect_end());
  return c;
}

std::vector<std::uint8_t> write_char_gen(const CharGen& record) {
  ByteWriter w;
  w.u32(record.id);
  w.u32(record.repeated_id);
  write_list(w, record.starter_areas, [](ByteWriter& out, const StarterArea& a) {
    write_compressed_string(out, a.name);
    write_list(out, a.locations, [](ByteWriter& o, const CharGenPosition& p) {
      o.u32(p.cell);
      write_frame(o, p.frame);
    });
  });
  w.u8(record.heritage_buckets);
  write_list(w, record.heritage_groups, write_heritage);
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const CharGen& record) {
  j.begin_object();
  j.key("type").string("CharGen");
  j.key("id").hex(record.id);
  j.key("repeated_id").hex(record.repeated_id);
  j.key("starter_areas").begin_array();
  for (const auto& a : record.starter_areas) {
    j.begin_object();
    j.key("name").string(a.name);
    j.key("locations").begin_array();
    for (const auto& p : a.locations) {
      j.begin_object();
      j.key("cell").hex(p.cell);
      j.key("frame");
      json_frame(j, p.frame);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("heritage_groups").begin_array();
  for (const auto& h : record.heritage_groups) {
    j.begin_object();
    j.key("heritage").number(h.heritage);
    j.key("name").string(h.name);
    j.key("icon").hex(h.icon);
    j.key("setup").hex(h.setup);
    j.key("environment_setup").hex(h.environment_setup);
    j.key("attribute_credits").number(h.attribute_credits);
    j.key("skill_credits").number(h.skill_credits);
    json_numbers(j, "primary_start_areas", h.primary_start_areas);
    json_numbers(j, "secondary_start_areas", h.secondary_start_areas);
    j.key("skills").begin_array();
    for (const auto& s : h.skills) {
      j.begin_object();
      j.key("skill").number(s.skill);
      j.key("normal_cost").number(s.normal_cost);
      j.key("primary_cost").number(s.primary_cost);
      j.end_object();
    }
    j.end_array();
    j.key("templates").begin_array();
    for (const auto& t : h.templates) {
      j.begin_object();
      j.key("name").string(t.name);
      j.key("icon").hex(t.icon);
      j.key("title").number(t.title);
      j.key("attributes").begin_array();
      for (const auto v : {t.strength, t.endurance, t.coordination, t.quickness, t.focus, t.self}) j.number(v);
      j.end_array();
      json_numbers(j, "normal_skills", t.normal_skills);
      json_numbers(j, "primary_skills", t.primary_skills);
      j.end_object();
    }
    j.end_array();
    j.key("genders").begin_array();
    for (const auto& s : h.genders) json_sex(j, s);
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

const HeritageGroup* find_heritage(const CharGen& record, std::uint32_t heritage) noexcept {
  for (const auto& h : record.heritage_groups) {
    if (h.heritage == heritage) return &h;
  }
  return nullptr;
}

}  // namespace dereth::dat
