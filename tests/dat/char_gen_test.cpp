#include "dereth/dat/char_gen.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

CharGenObjDesc swap(Did from, Did to) {
  CharGenObjDesc d;
  d.texture_changes = {{1, from, to}};
  return d;
}

CharGenSex sex(std::uint32_t gender) {
  CharGenSex s;
  s.gender = gender;
  s.name = gender == 1 ? "Male" : "Female";
  s.scale = 100;
  s.setup = 0x02000001;
  s.sound_table = 0x20000001;
  s.icon = 0x06000001;
  s.base_palette = 0x04000001;
  s.skin_palette_set = 0x0F000001;
  s.physics_table = 0x34000004;
  s.motion_table = 0x09000001;
  s.combat_table = 0x30000001;
  s.obj_desc.palette = 0x04000001;
  s.obj_desc.subpalettes = {{0x04000001, 0, 32}, {0x04009000, 4, 0}};  // the second needs the 4-byte packed DID
  s.hair_colors = {0x0F000001};
  HairStyle hair;
  hair.icon = 0x06000002;
  hair.bald = 1;
  hair.alternate_setup = 0x02000002;
  hair.obj_desc.part_changes = {{1, 0x01000002}, {2, 0x0100A000}};
  hair.obj_desc.texture_changes = {{16, 0x05000010, 0x05000011}};
  HairStyle plain;  // every field zero but the ObjDesc's palette list
  plain.obj_desc.palette = 0x04000002;
  plain.obj_desc.subpalettes = {{0x04000003, 8, 16}};
  s.hair_styles = {hair, plain};
  s.eye_colors = {0x04000001, 0x04000007};
  s.eye_strips = {EyeStrip{0x06000003, 0x06000004, swap(0x05000001, 0x05000002), swap(0x05000001, 0x05000003)}};
  s.nose_strips = {FaceStrip{0x06000004, swap(0x05000001, 0x05000004)}};
  s.mouth_strips = {FaceStrip{0x06000005, CharGenObjDesc{}}};
  s.headgear = {CharGenGear{"Cap", 0x10000001, 100}};
  s.shirts = {CharGenGear{"Shirt", 0x10000004, 130}, CharGenGear{"Tunic", 0x10000005, 134}};
  s.pants = {CharGenGear{"Pants", 0x10000006, 127}};
  s.footwear = {CharGenGear{"Boots", 0x10000002, 101}, CharGenGear{"", 0x10000003, 0}};
  s.clothing_colors = {1, 2};
  return s;
}

CharGen sample() {
  CharGen c;
  StarterArea a;
  a.name = "Demo Crossing";
  a.locations = {CharGenPosition{0xA9B40025, Frame{{96, 96, 17.5F}, glm::quat(1, 0, 0, 0)}},
                 CharGenPosition{0xA9B40001, Frame{{1, 2, 3}, glm::quat(0, 0, 0, 1)}}};
  c.starter_areas = {a, StarterArea{"Empty", {}}};
  HeritageGroup h;
  h.heritage = 1;
  h.name = "Wayfarers";
  h.icon = 0x06000001;
  h.setup = 0x02000001;
  h.environment_setup = 0x02000100;
  h.attribute_credits = 330;
  h.skill_credits = 50;
  h.primary_start_areas = {0};
  h.secondary_start_areas = {1, 0};
  h.skills = {{6, 10, 20}, {45, -6, 12}};
  CharGenTemplate t;
  t.name = "Wanderer";
  t.icon = 0x06000002;
  t.title = 1;
  t.strength = 60;
  t.endurance = 60;
  t.coordination = 50;
  t.quickness = 50;
  t.focus = 50;
  t.self = 60;
  t.normal_skills = {22, 24};
  t.primary_skills = {34};
  CharGenTemplate u = t;
  u.name = "Adept";
  u.icon = 0x06000003;
  u.title = 2;
  u.strength = 10;
  u.endurance = 20;
  u.coordination = 30;
  u.quickness = 40;
  u.focus = 100;
  u.self = 100;
  u.normal_skills = {};
  u.primary_skills = {34, 15};
  h.templates = {t, u};
  h.gender_buckets = 3;
  h.genders = {sex(1), sex(2)};
  HeritageGroup empty;
  empty.heritage = 9;
  empty.name = std::string(200, 'x');  // a two-byte CompressedUInt length
  c.heritage_groups = {h, empty};
  c.heritage_buckets = 5;
  return c;
}

}  // namespace

TEST_CASE("CharGen: layout and round trip", "[dat][char_gen]") {
  const CharGen c = sample();
  const auto bytes = write_char_gen(c);
  CHECK(bytes[4] == 0x02);  // the DID again
  CHECK(bytes[7] == 0x0E);
  CHECK(bytes[8] == 2);   // CompressedUInt starter area count
  CHECK(bytes[9] == 13);  // CompressedUInt name length, no padding after it
  CHECK(bytes[10] == 'D');
  auto back = read_char_gen(bytes, kCharGenId);
  REQUIRE(back.has_value());
  CHECK(*back == c);
  CHECK(write_char_gen(*back) == bytes);
  const HeritageGroup* h = find_heritage(*back, 1);
  REQUIRE(h != nullptr);
  REQUIRE(h->genders.size() == 2);
  CHECK(h->genders[1].gender == 2);
  CHECK(h->genders[0].obj_desc.subpalettes[1].palette == 0x04009000);
  CHECK(h->genders[0].hair_styles[0].obj_desc.part_changes[1].gfx_obj == 0x0100A000);
  CHECK(find_heritage(*back, 9)->name.size() == 200);
  CHECK(find_heritage(*back, 2) == nullptr);
  CHECK(back->heritage_buckets == 5);
  CHECK(h->gender_buckets == 3);
  CHECK(h->genders[0].combat_table == 0x30000001);
  CHECK(h->genders[0].shirts[1] == CharGenGear{"Tunic", 0x10000005, 134});
  CHECK(h->genders[0].pants[0].weenie == 127);
  CHECK(h->templates[1].primary_skills == std::vector<std::uint32_t>{34, 15});
  CHECK(h->genders[1].hair_styles[1].obj_desc.subpalettes[0] == CharGenSubPalette{0x04000003, 8, 16});

  // The u32 after the DID is kept as stored, whatever it is.
  CharGen odd = c;
  odd.repeated_id = 0x0E00FFFF;
  auto odd_back = read_char_gen(write_char_gen(odd), kCharGenId);
  REQUIRE(odd_back.has_value());
  CHECK(odd_back->repeated_id == 0x0E00FFFF);

  // Without subpalettes the palette is not on disk.
  CharGen bare = c;
  bare.heritage_groups[0].genders[0].obj_desc.subpalettes.clear();
  auto bare_back = read_char_gen(write_char_gen(bare), kCharGenId);
  REQUIRE(bare_back.has_value());
  CHECK(bare_back->heritage_groups[0].genders[0].obj_desc.palette == 0);

  CharGen none;
  dereth::core::JsonWriter j;
  write_json(j, none);
  CHECK(j.str() ==
        R"({"type":"CharGen","id":"0x0E000002","repeated_id":"0x0E000002","starter_areas":[],"heritage_groups":[]})");
  dereth::core::JsonWriter full;
  write_json(full, c);
  CHECK(full.str().find(R"("cell":"0xA9B40025")") != std::string::npos);
  CHECK(full.str().find(R"("name":"Wayfarers")") != std::string::npos);
  CHECK(full.str().find(R"("combat_table":"0x30000001")") != std::string::npos);
  CHECK(full.str().find(R"("shirts":[{"name":"Shirt","clothing_table":"0x10000004","weenie":130})") !=
        std::string::npos);
  CHECK(full.str().find(R"("pants":[{"name":"Pants")") != std::string::npos);
}

TEST_CASE("CharGen: truncation, absurd counts, a bad ObjDesc, trailing bytes", "[dat][char_gen]") {
  const CharGen c = sample();
  const auto bytes = write_char_gen(c);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_char_gen(std::span<const std::uint8_t>(bytes.data(), n), kCharGenId);
    INFO("length " << n);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
    CHECK(r.error().context == "DAT 0x0E000002 CharGen");
  }
  auto huge = bytes;
  huge[8] = 0xC0;  // a four-byte CompressedUInt: 0x00xx.... starter areas
  huge[9] = 0x10;
  auto r = read_char_gen(huge, kCharGenId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "starter_areas.count");
  CHECK(r.error().offset == 8);
  CHECK(r.error().context == "DAT 0x0E000002 CharGen");

  // The first ObjDesc (the first gender's) starts with 0x11 after padding.
  CharGen one = c;
  one.heritage_groups.resize(1);
  auto base = write_char_gen(one);
  std::size_t at = 0;
  for (std::size_t i = 0; i + 3 < base.size(); ++i) {
    if (i % 4 == 0 && base[i] == 0x11 && base[i + 1] == 2 && base[i + 2] == 0 && base[i + 3] == 0) {
      at = i;
      break;
    }
  }
  REQUIRE(at != 0);
  auto bad = base;
  bad[at] = 0x12;
  r = read_char_gen(bad, kCharGenId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::Invalid);
  CHECK(r.error().field == "obj_desc.version");
  CHECK(r.error().offset == at);
  auto crowded = base;
  crowded[at + 2] = 0xFF;  // 255 texture changes cannot fit
  crowded[at + 3] = 0xFF;
  r = read_char_gen(crowded, kCharGenId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);

  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_char_gen(trailing, kCharGenId).error().kind == ErrorKind::Trailing);
  CHECK(read_char_gen(bytes, 0x0E000003).error().kind == ErrorKind::Invalid);
}
