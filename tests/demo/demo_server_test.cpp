// What a real server (ACE, the GDLE fork) reads from the demo DATs, pinned as
// invariants: the Region's scene part covers every terrain word, every
// landblock a player can enter has all eight neighbours, the terrain joins across
// the seams and can be walked, CharGen's lists a server indexes for a default
// character are filled and name records that exist, and the SkillTable leaves
// out the retired skills a server adds itself (docs/dat.md, "What a server
// reads").
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <glm/glm.hpp>

#include "dereth/dat/char_gen.hpp"
#include "dereth/dat/clothing_table.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/palette_set.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/dat/scene.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/dat/skill_table.hpp"
#include "dereth/demo/demo_world.hpp"

using namespace dereth::dat;
using namespace dereth::demo;

namespace {

struct Files {
  DatFile portal;
  DatFile cell;
};

const Files& files() {
  static const Files f = [] {
    auto world = build_demo_world();
    if (!world) FAIL(world.error().message());
    auto portal = DatFile::from_bytes(world->portal, "client_portal.dat");
    auto cell = DatFile::from_bytes(world->cell, "client_cell_1.dat");
    if (!portal || !cell) FAIL("the demo world does not open");
    return Files{std::move(*portal), std::move(*cell)};
  }();
  return f;
}

bool exists(const DatFile& file, Did id) {
  auto found = file.find(id);
  return found.has_value() && found->has_value();
}

template <class T, class Read>
T load(const DatFile& file, Did id, Read&& read) {
  auto bytes = file.read(id);
  INFO("id 0x" << std::hex << id);
  REQUIRE(bytes.has_value());
  auto record = read(*bytes, id);
  REQUIRE(record.has_value());
  return *record;
}

// Every LandBlock in the cell DAT, by its id.
std::map<Did, LandBlock> land_blocks() {
  std::map<Did, LandBlock> out;
  auto entries = files().cell.entries();
  REQUIRE(entries.has_value());
  for (const auto& e : *entries) {
    if ((e.id & 0xFFFFU) != 0xFFFFU) continue;
    out.emplace(e.id, load<LandBlock>(files().cell, e.id, [](auto b, Did id) { return read_land_block(b, id); }));
  }
  return out;
}

Did block_id(std::uint32_t x, std::uint32_t y) {
  return (x << 24) | (y << 16) | 0xFFFFU;
}

// The floor a creature can stand on (PhysicsGlobals::floor_z).
constexpr float kFloorZ = 0.66417414F;

}  // namespace

TEST_CASE("Demo server: the Region has a scene part and every terrain word indexes a scene type in it",
          "[demo][server]") {
  const auto region = load<Region>(files().portal, kRegion, [](auto b, Did id) { return read_region(b, id); });
  REQUIRE((region.parts_mask & region_parts::kScene) != 0);
  REQUIRE(region.scene.has_value());
  const auto& scene_types = region.scene->scene_types;
  REQUIRE_FALSE(scene_types.empty());
  // No sound part: a scene type's ambient table index is -1 (GDLE resolves
  // any other into the sound part).
  const std::size_t sound_tables = region.sound ? region.sound->tables.size() : 0;
  for (const auto& t : scene_types) {
    CHECK((t.sound_table_index == 0xFFFFFFFFU || t.sound_table_index < sound_tables));
    for (const Did scene : t.scenes) CHECK(exists(files().portal, scene));
  }
  // Every terrain type has at least one scene type, each one in SceneDesc.
  REQUIRE_FALSE(region.terrain.terrain_types.empty());
  for (const auto& type : region.terrain.terrain_types) {
    INFO(type.name);
    CHECK_FALSE(type.scene_types.empty());
    for (const auto index : type.scene_types) CHECK(index < scene_types.size());
  }
  // What a landblock load indexes: TerrainTypes[type].SceneTypes[scene bits].
  for (const auto& [id, block] : land_blocks()) {
    for (const std::uint16_t word : block.terrain) {
      INFO("landblock 0x" << std::hex << id << " word 0x" << word);
      REQUIRE(terrain_type(word) < region.terrain.terrain_types.size());
      CHECK(terrain_scenery(word) < region.terrain.terrain_types[terrain_type(word)].scene_types.size());
    }
  }
}

TEST_CASE("Demo server: every scenery object has a sorting sphere where ACE looks for it", "[demo][server]") {
  // ACE places scenery through a simple setup whose sorting sphere is a
  // GfxObj's physics BSP root sphere, else its drawing BSP root sphere; a
  // drawing tree that is one leaf has none on disk, and ACE dies on the
  // null at world entry (PhysicsObj.obj_within_block). A Setup carries its own.
  const auto region = load<Region>(files().portal, kRegion, [](auto b, Did id) { return read_region(b, id); });
  REQUIRE(region.scene.has_value());
  std::set<Did> objects;
  for (const auto& type : region.scene->scene_types) {
    for (const Did id : type.scenes) {
      const auto scene = load<Scene>(files().portal, id, [](auto b, Did d) { return read_scene(b, d); });
      for (const auto& o : scene.objects) objects.insert(o.obj_id);
    }
  }
  REQUIRE_FALSE(objects.empty());
  for (const Did id : objects) {
    INFO("scenery object 0x" << std::hex << id);
    if ((id >> 24) == 0x02) {
      const auto setup = load<Setup>(files().portal, id, [](auto b, Did d) { return read_setup(b, d); });
      CHECK(setup.sorting_sphere.radius > 0.0F);
      continue;
    }
    REQUIRE((id >> 24) == 0x01);
    const auto gfx = load<GfxObj>(files().portal, id, [](auto b, Did d) { return read_gfx_obj(b, d); });
    const bool physics_root = !gfx.physics_bsp.nodes.empty();  // every physics node has a sphere on disk
    const bool drawing_root = !gfx.drawing_bsp.nodes.empty() && gfx.drawing_bsp.nodes.front().tag != kBspLeaf &&
                              gfx.drawing_bsp.nodes.front().sphere.radius > 0.0F;
    CHECK((physics_root || drawing_root));
  }
}

TEST_CASE(
    "Demo server: the world is the 7 x 7 block around the start and the dungeon's block, and every outdoor block a "
    "player can walk into has all eight neighbours",
    "[demo][server]") {
  const auto blocks = land_blocks();
  // The 7 x 7 block and the dungeon's landblock far from it, which a player
  // enters only by a portal, never across a seam.
  CHECK(blocks.size() == 49 + 1);
  CHECK(blocks.count(kDungeonLandBlock) == 1);
  for (std::uint32_t x = kWorldWest; x <= kWorldEast; ++x) {
    for (std::uint32_t y = kWorldSouth; y <= kWorldNorth; ++y) CHECK(blocks.count(block_id(x, y)) == 1);
  }
  CHECK(kWorldEast - kWorldWest == 6);
  CHECK(kWorldNorth - kWorldSouth == 6);
  CHECK(blocks.count(kLandBlock) == 1);
  CHECK(((kLandBlock >> 24) & 0xFFU) == kWorldWest + 3);
  CHECK(((kLandBlock >> 16) & 0xFFU) == kWorldSouth + 3);

  // A server loads all eight neighbours of every landblock a player enters,
  // on world entry and again at each seam crossing (ACE dies on a missing
  // one). A player can walk two blocks out from the start in any direction:
  // each of those 5 x 5 blocks has all eight neighbours in the DAT. Only the
  // outer ring, which a player never enters, has neighbours outside it.
  const auto centre_x = static_cast<int>((kLandBlock >> 24) & 0xFFU);
  const auto centre_y = static_cast<int>((kLandBlock >> 16) & 0xFFU);
  std::size_t enterable = 0;
  for (int px = centre_x - 2; px <= centre_x + 2; ++px) {
    for (int py = centre_y - 2; py <= centre_y + 2; ++py) {
      ++enterable;
      for (int dx = -1; dx <= 1; ++dx) {
        for (int dy = -1; dy <= 1; ++dy) {
          const auto x = static_cast<std::uint32_t>(px + dx);
          const auto y = static_cast<std::uint32_t>(py + dy);
          INFO("block 0x" << std::hex << block_id(static_cast<std::uint32_t>(px), static_cast<std::uint32_t>(py))
                          << " neighbour 0x" << block_id(x, y));
          CHECK(exists(files().cell, block_id(x, y)));
        }
      }
    }
  }
  CHECK(enterable == 25);
  // A LandBlockInfo exists exactly where hasObjects says so.
  for (const auto& [id, block] : blocks) {
    INFO("landblock 0x" << std::hex << id);
    CHECK(exists(files().cell, id - 1) == (block.has_objects == 1));
  }
  CHECK(blocks.at(kLandBlock).has_objects == 1);
}

TEST_CASE("Demo server: the terrain joins across every seam and can be walked outside the centre's hill",
          "[demo][server]") {
  const auto blocks = land_blocks();
  std::size_t seams = 0;
  for (const auto& [id, block] : blocks) {
    const std::uint32_t x = id >> 24, y = (id >> 16) & 0xFFU;
    // East and north neighbours: the shared column / row of vertices is equal.
    if (auto east = blocks.find(block_id(x + 1, y)); east != blocks.end()) {
      ++seams;
      for (std::size_t j = 0; j < kLandBlockSide; ++j) {
        INFO("0x" << std::hex << id << " east seam, vertex " << j);
        CHECK(block.height[land_block_vertex(8, j)] == east->second.height[land_block_vertex(0, j)]);
        CHECK(block.terrain[land_block_vertex(8, j)] == east->second.terrain[land_block_vertex(0, j)]);
      }
    }
    if (auto north = blocks.find(block_id(x, y + 1)); north != blocks.end()) {
      ++seams;
      for (std::size_t i = 0; i < kLandBlockSide; ++i) {
        INFO("0x" << std::hex << id << " north seam, vertex " << i);
        CHECK(block.height[land_block_vertex(i, 8)] == north->second.height[land_block_vertex(i, 0)]);
        CHECK(block.terrain[land_block_vertex(i, 8)] == north->second.terrain[land_block_vertex(i, 0)]);
      }
    }
  }
  CHECK(seams == 2 * 7 * 6);

  // Every triangle outside the centre block is a floor (the centre keeps its
  // deliberately steep hill, pinned by the collision tests).
  const auto region = load<Region>(files().portal, kRegion, [](auto b, Did id) { return read_region(b, id); });
  for (const auto& [id, block] : blocks) {
    if (id == kLandBlock) continue;
    const std::uint32_t bx = id >> 24, by = (id >> 16) & 0xFFU;
    const auto vertex = [&](std::uint16_t v) {
      return glm::vec3(static_cast<float>(v / kLandBlockSide) * kLandCellLength,
                       static_cast<float>(v % kLandBlockSide) * kLandCellLength,
                       land_height(region.land_defs, block.height[v]));
    };
    for (std::size_t cx = 0; cx < kLandBlockCellSide; ++cx) {
      for (std::size_t cy = 0; cy < kLandBlockCellSide; ++cy) {
        const bool sw_ne =
            land_cell_split_sw_ne(bx * 8 + static_cast<std::uint32_t>(cx), by * 8 + static_cast<std::uint32_t>(cy));
        for (const auto& tri : land_cell_triangles(cx, cy, sw_ne)) {
          const glm::vec3 n =
              glm::normalize(glm::cross(vertex(tri[1]) - vertex(tri[0]), vertex(tri[2]) - vertex(tri[0])));
          INFO("landblock 0x" << std::hex << id << std::dec << " cell " << cx << ", " << cy);
          CHECK(n.z >= kFloorZ);
        }
      }
    }
  }
}

TEST_CASE("Demo server: CharGen's lists a server indexes for a default character are filled and name what exists",
          "[demo][server]") {
  const auto& portal = files().portal;
  const auto gen = load<CharGen>(portal, kCharGenId, [](auto b, Did id) { return read_char_gen(b, id); });
  const auto palette_set = [&](Did id) {
    return load<PaletteSet>(portal, id, [](auto b, Did d) { return read_palette_set(b, d); });
  };
  // The starting area: its first location (the one a server uses) lies in
  // a demo landblock, in an outdoor cell (1..64) of it.
  REQUIRE_FALSE(gen.starter_areas.empty());
  for (const auto& area : gen.starter_areas) {
    REQUIRE_FALSE(area.locations.empty());
    for (const auto& at : area.locations) {
      INFO(area.name << " 0x" << std::hex << at.cell);
      CHECK(exists(files().cell, at.cell | 0xFFFFU));
      CHECK((at.cell & 0xFFFFU) >= 1);
      CHECK((at.cell & 0xFFFFU) <= 64);
      CHECK(at.frame.origin.x >= 0);
      CHECK(at.frame.origin.x < 192);
      CHECK(at.frame.origin.y >= 0);
      CHECK(at.frame.origin.y < 192);
      // The land cell the position lies in is the one named, and the point is
      // at least a metre from every cell boundary: on a boundary the client
      // and a server each pick a cell of their own (the old spot, the corner
      // (96, 96) of cell 0x25, the client put in 0x24).
      const float cell_x = at.frame.origin.x / kLandCellLength, cell_y = at.frame.origin.y / kLandCellLength;
      const auto ix = static_cast<std::uint32_t>(cell_x), iy = static_cast<std::uint32_t>(cell_y);
      CHECK((at.cell & 0xFFFFU) == ix * kLandBlockCellSide + iy + 1);
      CHECK((cell_x - static_cast<float>(ix)) * kLandCellLength >= 1.0F);
      CHECK((static_cast<float>(ix + 1) - cell_x) * kLandCellLength >= 1.0F);
      CHECK((cell_y - static_cast<float>(iy)) * kLandCellLength >= 1.0F);
      CHECK((static_cast<float>(iy + 1) - cell_y) * kLandCellLength >= 1.0F);
      // Outside the house's room (and a metre clear of its walls).
      const bool in_house =
          at.frame.origin.x > kRoomOriginX - 1.0F && at.frame.origin.x < kRoomOriginX + kRoomSide + 1.0F &&
          at.frame.origin.y > kRoomOriginY - 1.0F && at.frame.origin.y < kRoomOriginY + kRoomSide + 1.0F;
      CHECK_FALSE(in_house);
    }
  }
  REQUIRE_FALSE(gen.heritage_groups.empty());
  for (const auto& h : gen.heritage_groups) {
    INFO(h.name);
    CHECK_FALSE(h.templates.empty());
    CHECK(exists(portal, h.setup));
    for (const auto area : h.primary_start_areas) CHECK(area < gen.starter_areas.size());
    for (const auto area : h.secondary_start_areas) CHECK(area < gen.starter_areas.size());
    REQUIRE_FALSE(h.genders.empty());
    for (const auto& sex : h.genders) {
      INFO(sex.name);
      CHECK((sex.gender == 1 || sex.gender == 2));
      for (const Did id : {sex.setup, sex.sound_table, sex.physics_table, sex.motion_table, sex.base_palette}) {
        INFO("0x" << std::hex << id);
        CHECK(exists(portal, id));
      }
      // Skin and hair colours are PaletteSets of palettes that exist; eye
      // colours are palettes.
      REQUIRE_FALSE(sex.hair_colors.empty());
      for (const Did set : {sex.skin_palette_set, sex.hair_colors[0]}) {
        const auto s = palette_set(set);
        REQUIRE_FALSE(s.palettes.empty());
        for (const Did p : s.palettes) CHECK(exists(portal, p));
      }
      REQUIRE_FALSE(sex.eye_colors.empty());
      CHECK(exists(portal, sex.eye_colors[0]));
      // The strips a server reads the first texture change of.
      REQUIRE_FALSE(sex.hair_styles.empty());
      REQUIRE_FALSE(sex.eye_strips.empty());
      REQUIRE_FALSE(sex.nose_strips.empty());
      REQUIRE_FALSE(sex.mouth_strips.empty());
      for (const auto* d : {&sex.eye_strips[0].obj_desc, &sex.eye_strips[0].bald_obj_desc, &sex.nose_strips[0].obj_desc,
                            &sex.mouth_strips[0].obj_desc}) {
        REQUIRE_FALSE(d->texture_changes.empty());
        CHECK(exists(portal, d->texture_changes[0].old_texture));
        CHECK(exists(portal, d->texture_changes[0].new_texture));
      }
      for (const auto& change : sex.hair_styles[0].obj_desc.part_changes) CHECK(exists(portal, change.gfx_obj));
      // The gear lists: shirt, pants and footwear are indexed unconditionally,
      // headgear unless the player picks none; each names a ClothingTable
      // that dresses this sex's setup and recolours by every clothing colour.
      REQUIRE_FALSE(sex.clothing_colors.empty());
      for (const auto* list : {&sex.headgear, &sex.shirts, &sex.pants, &sex.footwear}) {
        REQUIRE_FALSE(list->empty());
        for (const auto& gear : *list) {
          INFO(gear.name << " 0x" << std::hex << gear.clothing_table);
          CHECK(gear.weenie != 0);
          const auto table = load<ClothingTable>(portal, gear.clothing_table,
                                                 [](auto b, Did id) { return read_clothing_table(b, id); });
          const ClothingBaseEffect* base = find_base_effect(table, sex.setup);
          REQUIRE(base != nullptr);
          CHECK_FALSE(base->objects.empty());
          for (const auto& o : base->objects) {
            CHECK(exists(portal, o.gfx_obj));
            for (const auto& t : o.textures) {
              CHECK(exists(portal, t.old_texture));
              CHECK(exists(portal, t.new_texture));
            }
          }
          for (const auto color : sex.clothing_colors) {
            const CloSubPalEffect* effect = find_subpal_effect(table, color);
            REQUIRE(effect != nullptr);
            for (const auto& sub : effect->subpalettes) CHECK_FALSE(palette_set(sub.palette_set).palettes.empty());
          }
        }
      }
    }
  }
}

TEST_CASE("Demo server: the SkillTable leaves out the retired skills 1-5 and 9-13 a server adds itself",
          "[demo][server]") {
  const auto skills =
      load<SkillTable>(files().portal, kSkillTableId, [](auto b, Did id) { return read_skill_table(b, id); });
  REQUIRE_FALSE(skills.skills.empty());
  for (const auto& e : skills.skills) {
    INFO("skill " << e.skill);
    CHECK_FALSE((e.skill >= 1 && e.skill <= 5));
    CHECK_FALSE((e.skill >= 9 && e.skill <= 13));
  }
  // Every skill CharGen trains or specialises is in the table.
  const auto gen = load<CharGen>(files().portal, kCharGenId, [](auto b, Did id) { return read_char_gen(b, id); });
  for (const auto& h : gen.heritage_groups) {
    for (const auto& t : h.templates) {
      for (const auto s : t.normal_skills) CHECK(find_skill(skills, s) != nullptr);
      for (const auto s : t.primary_skills) CHECK(find_skill(skills, s) != nullptr);
    }
  }
}
