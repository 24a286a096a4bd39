// The synthetic demo world: deterministic, complete, every record decodes, and
// the seed's asset chains are present exactly as stored (seed section 11).
#include "dereth/demo/demo_world.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <variant>

#include "dereth/dat/animation.hpp"
#include "dereth/dat/char_gen.hpp"
#include "dereth/dat/clothing_table.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/motion_table.hpp"
#include "dereth/dat/palette.hpp"
#include "dereth/dat/palette_set.hpp"
#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/dat/physics_script.hpp"
#include "dereth/dat/physics_script_table.hpp"
#include "dereth/dat/quality_filter.hpp"
#include "dereth/dat/records.hpp"
#include "dereth/dat/render_surface.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/dat/skill_table.hpp"
#include "dereth/dat/spell_component_table.hpp"
#include "dereth/dat/spell_table.hpp"
#include "dereth/dat/surface.hpp"
#include "dereth/dat/vital_table.hpp"
#include "dereth/dat/xp_table.hpp"

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

template <class T, class Read>
T load(const DatFile& file, Did id, Read&& read) {
  auto bytes = file.read(id);
  INFO("id 0x" << std::hex << id);
  REQUIRE(bytes.has_value());
  auto record = read(*bytes, id);
  REQUIRE(record.has_value());
  return *record;
}

}  // namespace

TEST_CASE("Demo world: byte-identical on every build", "[dat][demo]") {
  auto a = build_demo_world();
  auto b = build_demo_world();
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  CHECK(a->portal == b->portal);
  CHECK(a->cell == b->cell);
  CHECK(files().portal.block_size() == 1024);
  CHECK(files().cell.block_size() == 256);
  CHECK(files().portal.kind() == DatKind::Portal);
  CHECK(files().cell.kind() == DatKind::Cell);
}

TEST_CASE("Demo world: every record of both files decodes exactly", "[dat][demo]") {
  for (const auto* file : {&files().portal, &files().cell}) {
    auto entries = file->entries();
    REQUIRE(entries.has_value());
    CHECK(entries->size() >= (file == &files().portal ? 100u : 3u));
    for (const auto& e : *entries) {
      const auto type = db_type_of(e.id, *file->kind());
      INFO(file->name() << " 0x" << std::hex << e.id << " " << db_type_name(type));
      REQUIRE(has_record_reader(type));
      auto bytes = file->read(e);
      REQUIRE(bytes.has_value());
      auto decoded = decode_record(e.id, type, *bytes);
      CHECK(decoded.has_value());
      if (!decoded) INFO(decoded.error().message());
    }
  }
}

TEST_CASE("Demo world: the projectile tables hold the seed's entries in stored order", "[dat][demo]") {
  const auto& f = files().portal;
  auto read = [](auto bytes, Did id) { return read_physics_script_table(bytes, id); };
  const auto arrow = load<PhysicsScriptTable>(f, 0x3400002B, read);
  REQUIRE(arrow.entries.size() == 3);
  CHECK(arrow.entries[0].type == play_script::Create);
  CHECK(arrow.entries[0].scripts == std::vector<ScriptAndMod>{{1, 0x33000719}});
  CHECK(arrow.entries[1].scripts == std::vector<ScriptAndMod>{{1, 0x33000233}});
  CHECK(arrow.entries[2].type == play_script::DisappearDestroy);
  CHECK_FALSE(arrow.get_script(play_script::Launch, 1.0F).has_value());  // no Launch entry
  CHECK_FALSE(arrow.get_script(play_script::Explode, 1.0F).has_value());

  const auto flame = load<PhysicsScriptTable>(f, 0x34000005, read);
  REQUIRE(flame.entries.size() == 3);
  CHECK(flame.entries[0].type == play_script::ProjectileCollision);
  CHECK(flame.entries[1].scripts == std::vector<ScriptAndMod>{{0, 0x3300011B}, {0.5F, 0x3300011C}, {1, 0x3300011D}});
  CHECK(flame.entries[2].scripts == std::vector<ScriptAndMod>{{0, 0x3300011E}, {0.5F, 0x3300012B}, {1, 0x33000120}});
  CHECK(flame.get_script(play_script::Launch, 0.25F) == Did{0x3300011C});
  CHECK(flame.get_script(play_script::Launch, 1.5F) == std::nullopt);
  CHECK(flame.get_script(play_script::Launch, std::numeric_limits<float>::quiet_NaN()) == std::nullopt);
  CHECK(flame.get_script(play_script::Launch, -std::numeric_limits<float>::infinity()) == Did{0x3300011B});

  const std::pair<Did, std::array<Did, 2>> singles[] = {{0x34000080, {0x330008BF, 0x33000119}},
                                                        {0x34000081, {0x330008C0, 0x3300013E}},
                                                        {0x34000082, {0x330008C2, 0x33000132}}};
  for (const auto& [id, scripts] : singles) {
    const auto t = load<PhysicsScriptTable>(f, id, read);
    REQUIRE(t.entries.size() == 3);
    CHECK(t.get_script(play_script::ProjectileCollision, 1.0F) == Did{0x33000109});
    CHECK(t.get_script(play_script::Launch, 1.0F) == scripts[0]);
    CHECK(t.get_script(play_script::Explode, 1.0F) == scripts[1]);
  }
  const auto hidden = load<PhysicsScriptTable>(f, kHumanScriptTable, read);
  CHECK(hidden.get_script(play_script::UnHide, 1.0F) == kUnHideScript);
  CHECK(hidden.get_script(play_script::Hidden, 1.0F) == kHiddenScript);
  // Every script a table names exists.
  for (Did t : {0x3400002Bu, 0x34000005u, 0x34000080u, 0x34000081u, 0x34000082u, kHumanScriptTable}) {
    for (const auto& e : load<PhysicsScriptTable>(f, t, read).entries) {
      for (const auto& s : e.scripts) CHECK(f.find(s.script).value().has_value());
    }
  }
}

TEST_CASE("Demo world: projectile Setups carry the seed's collision spheres", "[dat][demo]") {
  for (const auto& p : kProjectiles) {
    const auto s = load<Setup>(files().portal, p.setup, [](auto b, Did id) { return read_setup(b, id); });
    INFO(p.name);
    REQUIRE(s.spheres.size() == 1);
    CHECK(s.cyl_spheres.empty());
    CHECK(s.spheres[0] == p.sphere);
    CHECK(s.default_script_table == p.script_table);
  }
  const auto force = load<Setup>(files().portal, 0x0200087D, [](auto b, Did id) { return read_setup(b, id); });
  CHECK(force.spheres[0].center == glm::vec3(0, -0.165F, 0.1045F));
  CHECK(force.spheres[0].radius == 0.102F);
}

TEST_CASE("Demo world: the recall chain resolves to Animation 0x030009BF with its frame-16 emitter", "[dat][demo]") {
  const auto& f = files().portal;
  const auto table = load<MotionTable>(f, kHumanMotionTable, [](auto b, Did id) { return read_motion_table(b, id); });
  CHECK(table.default_style == motion::NonCombat);
  const MotionData* recall = nullptr;
  for (const auto& links : table.links) {
    if (links.outer_key != 0x003D0003) continue;
    for (const auto& l : links.links) {
      if (l.key == motion::Recall) recall = &l.data;
    }
  }
  REQUIRE(recall != nullptr);
  REQUIRE(recall->anims.size() == 1);
  CHECK(recall->anims[0].anim_id == kRecallAnimation);
  CHECK(recall->anims[0].low_frame == 0);
  CHECK(recall->anims[0].high_frame == -1);
  CHECK(recall->anims[0].framerate == kRecallFramerate);
  std::set<std::uint32_t> cycles;
  for (const auto& c : table.cycles) cycles.insert(c.key);
  CHECK(cycles == std::set<std::uint32_t>{0x003D0003, 0x003D0005, 0x003D0007, 0x003D000D, 0x003D000F, 0x003D0015});
  std::set<std::uint32_t> modifiers;
  for (const auto& m : table.modifiers) modifiers.insert(m.key);
  CHECK(modifiers == std::set<std::uint32_t>{0x003D000D, 0x003D000F});

  const auto anim = load<Animation>(f, kRecallAnimation, [](auto b, Did id) { return read_animation(b, id); });
  REQUIRE(anim.frames.size() >= 117);
  std::vector<std::uint32_t> sound_frames;
  int emitters = 0;
  for (std::uint32_t i = 0; i < anim.frames.size(); ++i) {
    for (const auto& h : anim.frames[i].hooks) {
      if (h.type() == HookType::SoundTweaked) sound_frames.push_back(i);
      if (h.type() == HookType::CreateParticle) {
        ++emitters;
        const auto& p = std::get<CreateParticleHook>(h.payload);
        CHECK(i == kRecallEmitterFrame);
        CHECK(p.emitter_info == kRecallEmitter);
        CHECK(p.part_index == 0xFFFFFFFFu);
        CHECK(p.emitter_id == kRecallEmitterLogicalId);
        CHECK(p.offset.origin == glm::vec3(0.0F));
      }
      CHECK(h.type() != HookType::CallPES);  // no CallPES in the human recall chain
    }
  }
  CHECK(emitters == 1);
  CHECK(sound_frames == std::vector<std::uint32_t>(kRecallSoundFrames.begin(), kRecallSoundFrames.end()));
}

TEST_CASE("Demo world: Tusker Fist's direct default script runs Scale, a part-0 emitter and a sound at time zero",
          "[dat][demo]") {
  const auto& f = files().portal;
  const auto setup = load<Setup>(f, kTuskerFistSetup, [](auto b, Did id) { return read_setup(b, id); });
  CHECK(setup.default_script == kTuskerFistDefaultScript);
  const auto s =
      load<PhysicsScript>(f, kTuskerFistDefaultScript, [](auto b, Did id) { return read_physics_script(b, id); });
  REQUIRE(s.hooks.size() == 3);
  for (const auto& h : s.hooks) CHECK(h.start_time == 0.0);
  CHECK(s.hooks[0].hook.type() == HookType::Scale);
  REQUIRE(s.hooks[1].hook.type() == HookType::CreateParticle);
  CHECK(std::get<CreateParticleHook>(s.hooks[1].hook.payload).emitter_info == kTuskerFistEmitter);
  CHECK(std::get<CreateParticleHook>(s.hooks[1].hook.payload).part_index == 0u);
  CHECK(s.hooks[2].hook.type() == HookType::SoundTable);
}

TEST_CASE("Demo world: blocking scripts 0x33000AEA..0x33000AF8 each start with a CreateBlockingParticle",
          "[dat][demo]") {
  for (Did id = kFirstBlockingScript; id <= kLastBlockingScript; ++id) {
    const auto s = load<PhysicsScript>(files().portal, id, [](auto b, Did i) { return read_physics_script(b, i); });
    REQUIRE_FALSE(s.hooks.empty());
    CHECK(s.hooks[0].hook.type() == HookType::CreateBlockingParticle);
  }
}

TEST_CASE("Demo world: emitters cover every particle type and both emitter types", "[dat][demo]") {
  std::set<ParticleType> particles;
  std::set<EmitterType> emitters;
  const auto entries = files().portal.entries().value();
  for (const auto& e : entries) {
    if (db_type_of(e.id, DatKind::Portal) != DbType::ParticleEmitterInfo) continue;
    const auto info = load<ParticleEmitterInfo>(files().portal, e.id,
                                                [](auto b, Did id) { return read_particle_emitter_info(b, id); });
    particles.insert(info.particle_type);
    emitters.insert(info.emitter_type);
    CHECK(files().portal.find(info.hw_gfx_obj_id).value().has_value());
  }
  CHECK(particles.size() == 12);
  CHECK(emitters == std::set<EmitterType>{EmitterType::BirthratePerSec, EmitterType::BirthratePerMeter});
  CHECK(files().portal.find(kRecallEmitter).value().has_value());
  CHECK(files().portal.find(kTuskerFistEmitter).value().has_value());
}

TEST_CASE("Demo world: textures in R8G8B8, A8R8G8B8, P8, INDEX16, DXT1 and DXT5 decode to pixels", "[dat][demo]") {
  const auto& f = files().portal;
  std::set<PixelFormat> formats;
  const auto entries = f.entries().value();
  for (const auto& e : entries) {
    if (db_type_of(e.id, DatKind::Portal) != DbType::RenderSurface) continue;
    const auto rs = load<RenderSurface>(f, e.id, [](auto b, Did id) { return read_render_surface(b, id); });
    formats.insert(rs.format);
    INFO("0x" << std::hex << e.id);
    Palette palette;  // each palettized surface through its own default palette
    if (has_palette(rs.format)) {
      palette = load<Palette>(f, rs.default_palette, [](auto b, Did id) { return read_palette(b, id); });
    }
    auto rgba = decode_rgba8(rs, has_palette(rs.format) ? &palette : nullptr);
    REQUIRE(rgba.has_value());
    CHECK(rgba->size() == static_cast<std::size_t>(rs.width * rs.height * 4));
  }
  for (auto fmt : {PixelFormat::R8G8B8, PixelFormat::A8R8G8B8, PixelFormat::P8, PixelFormat::INDEX16, PixelFormat::DXT1,
                   PixelFormat::DXT5}) {
    CHECK(formats.contains(fmt));
  }
}

TEST_CASE("Demo world: the human's skin is palettized and looks as the old A8R8G8B8 skin did", "[dat][demo][palette]") {
  const auto& f = files().portal;
  const auto rs = load<RenderSurface>(f, 0x06000001, [](auto b, Did id) { return read_render_surface(b, id); });
  REQUIRE(rs.format == PixelFormat::P8);
  const auto palette = load<Palette>(f, rs.default_palette, [](auto b, Did id) { return read_palette(b, id); });
  CHECK(palette.colors.size() == 2048);
  const auto rgba = decode_rgba8(rs, &palette);
  REQUIRE(rgba.has_value());
  REQUIRE(rs.width == 32);
  for (int y = 0; y < 32; ++y) {
    for (int x = 0; x < 32; ++x) {
      const auto at = static_cast<std::size_t>((y * 32 + x) * 4);
      INFO(x << ", " << y);
      // The old skin: A8R8G8B8 (255, 200 + x % 20, 160 + y % 16, 130); skin colours are indices 0..191.
      CHECK(std::abs(int((*rgba)[at]) - (200 + x % 20)) <= 1);
      CHECK(int((*rgba)[at + 1]) == 160 + y % 16);
      CHECK(int((*rgba)[at + 2]) == 130);
      CHECK(rs.pixels[static_cast<std::size_t>(y * 32 + x)] < 192);
    }
  }
}

TEST_CASE("Demo world: the terrain textures keep their variation broad, so they mipmap without moire", "[dat][demo]") {
  // The fraction of a texture's luminance variance finer than a 5x5 box
  // (tiling): what the first mip levels average away. A short-period lattice
  // (the old grass, x*31 + y*17 mod 7, had 0.87; the old dirt and stone 1.0
  // and 1.17) beats against the 2x2 mip filter and shows as moire bands in
  // the distance; broad tiling noise with a faint grain stays under 0.3.
  for (const Did id : {Did{0x06000020}, Did{0x06000021}, Did{0x06000022}}) {
    const auto rs = load<RenderSurface>(files().portal, id, [](auto b, Did i) { return read_render_surface(b, i); });
    auto rgba = decode_rgba8(rs, nullptr);
    REQUIRE(rgba.has_value());
    const int w = rs.width;
    const int h = rs.height;
    REQUIRE(w == 64);
    REQUIRE(h == 64);
    std::vector<double> lum(static_cast<std::size_t>(w * h));
    double mean = 0.0;
    for (std::size_t i = 0; i < lum.size(); ++i) {
      lum[i] = ((*rgba)[i * 4] + (*rgba)[i * 4 + 1] + (*rgba)[i * 4 + 2]) / 3.0;
      mean += lum[i];
    }
    mean /= static_cast<double>(lum.size());
    double variance = 0.0;
    double fine = 0.0;
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        double box = 0.0;
        for (int j = -2; j <= 2; ++j) {
          for (int i = -2; i <= 2; ++i) box += lum[static_cast<std::size_t>(((y + j + h) % h) * w + (x + i + w) % w)];
        }
        const double v = lum[static_cast<std::size_t>(y * w + x)];
        variance += (v - mean) * (v - mean);
        fine += (v - box / 25.0) * (v - box / 25.0);
      }
    }
    INFO("texture 0x" << std::hex << id << std::dec << ": variance " << variance / (w * h) << ", finer than 5x5 "
                      << fine / variance);
    CHECK(variance / (w * h) > 5.0);  // not flat: there is ground to see
    CHECK(fine / variance < 0.3);
  }
}

TEST_CASE("Demo world: a landblock with varied terrain and its statics", "[dat][demo]") {
  const auto block = load<LandBlock>(files().cell, kLandBlock, [](auto b, Did id) { return read_land_block(b, id); });
  std::set<std::uint8_t> heights(block.height.begin(), block.height.end());
  std::set<std::uint32_t> types;
  for (auto t : block.terrain) types.insert(terrain_type(t));
  CHECK(heights.size() > 10);
  CHECK(types.size() >= 2);
  CHECK(block.has_objects == 1);
  const auto info =
      load<LandBlockInfo>(files().cell, kLandBlockInfo, [](auto b, Did id) { return read_land_block_info(b, id); });
  CHECK(info.objects.size() >= 3);
  for (const auto& o : info.objects) CHECK(files().portal.find(o.id).value().has_value());
}

TEST_CASE("Demo world: the dungeon is laid out as retail lays out a dungeon landblock, its cells joined by portals",
          "[dat][demo][dungeon]") {
  // A landblock of its own far from the town, flat at height 0 (ACE's test
  // for a dungeon landblock), without scenery, whose LandBlockInfo holds
  // only its EnvCells: no objects, no buildings.
  const auto block =
      load<LandBlock>(files().cell, kDungeonLandBlock, [](auto b, Did id) { return read_land_block(b, id); });
  CHECK(block.has_objects == 1);
  CHECK(std::ranges::all_of(block.height, [](std::uint8_t h) { return h == 0; }));
  CHECK(std::abs(static_cast<int>(kDungeonLandBlock >> 24) - static_cast<int>(kLandBlock >> 24)) > 2);
  const auto info = load<LandBlockInfo>(files().cell, kDungeonLandBlockInfo,
                                        [](auto b, Did id) { return read_land_block_info(b, id); });
  CHECK(info.objects.empty());
  CHECK(info.buildings.empty());
  REQUIRE(info.num_cells == kDungeonRooms.size());
  const auto env =
      load<Environment>(files().portal, kDungeonEnvironment, [](auto b, Did id) { return read_environment(b, id); });
  // Each cell: 0x01120100 + i, not seen outside, over its own cell struct,
  // its surfaces and every portal's polygon present; each portal's other
  // side is a portal of the other cell leading back, whose polygon is the
  // same rectangle in the world, facing the other way.
  std::map<Did, EnvCell> cells;
  for (std::size_t i = 0; i < kDungeonRooms.size(); ++i) {
    const Did id = (kDungeonLandBlock & 0xFFFF0000U) | static_cast<Did>(0x0100U + i);
    REQUIRE(kDungeonRooms[i].cell == id);
    cells[id] = load<EnvCell>(files().cell, id, [](auto b, Did d) { return read_env_cell(b, d); });
  }
  const auto world_points = [&](const EnvCell& c, std::uint16_t polygon) {
    const CellStruct* cs = find_cell_struct(env, c.cell_struct);
    REQUIRE(cs != nullptr);
    REQUIRE(polygon < cs->polygons.size());
    std::vector<std::tuple<float, float, float>> pts;
    for (const std::uint16_t v : cs->polygons[polygon].vertex_ids) {
      const glm::vec3 p = cs->vertices.at(v).origin + c.position.origin;
      pts.emplace_back(std::round(p.x * 100) / 100, std::round(p.y * 100) / 100, std::round(p.z * 100) / 100);
    }
    std::ranges::sort(pts);
    return pts;
  };
  std::size_t portals = 0;
  for (const auto& [id, c] : cells) {
    INFO("cell 0x" << std::hex << id);
    CHECK((c.flags & env_cell_flags::kSeenOutside) == 0);
    CHECK(c.environment_did() == kDungeonEnvironment);
    CHECK(c.visible_cells.size() == kDungeonRooms.size() - 1);
    for (std::size_t s = 0; s < c.surfaces.size(); ++s)
      CHECK(files().portal.find(c.surface_did(s)).value().has_value());
    REQUIRE_FALSE(c.portals.empty());
    for (const CellPortal& p : c.portals) {
      CHECK(p.other_cell_id != kCellPortalOutside);
      const Did other_id = (id & 0xFFFF0000U) | p.other_cell_id;
      REQUIRE(cells.contains(other_id));
      const EnvCell& other = cells.at(other_id);
      REQUIRE(p.other_portal_id < other.portals.size());
      const CellPortal& back = other.portals[p.other_portal_id];
      CHECK(((id & 0xFFFF0000U) | back.other_cell_id) == id);
      CHECK(world_points(c, p.polygon_index) == world_points(other, back.polygon_index));
      ++portals;
    }
  }
  CHECK(portals == 8);  // four doorways, each seen from both sides
}

TEST_CASE("Demo world: the tables a server reads at start are present and consistent", "[dat][demo]") {
  const auto& f = files().portal;
  const auto gen = load<CharGen>(f, kCharGenId, [](auto b, Did id) { return read_char_gen(b, id); });
  const auto vitals = load<VitalTable>(f, kVitalTableId, [](auto b, Did id) { return read_vital_table(b, id); });
  const auto skills = load<SkillTable>(f, kSkillTableId, [](auto b, Did id) { return read_skill_table(b, id); });
  const auto spells = load<SpellTable>(f, kSpellTableId, [](auto b, Did id) { return read_spell_table(b, id); });
  const auto comps = load<SpellComponentTable>(f, kSpellComponentTableId,
                                               [](auto b, Did id) { return read_spell_component_table(b, id); });
  const auto xp = load<XpTable>(f, kXpTableId, [](auto b, Did id) { return read_xp_table(b, id); });
  const auto filter =
      load<QualityFilter>(f, kEnchantableFilterId, [](auto b, Did id) { return read_quality_filter(b, id); });

  // CharGen: one heritage group with both genders, every list a server indexes
  // by a creation choice non-empty, and a start position in the demo landblock.
  REQUIRE(gen.heritage_groups.size() == 1);
  const auto& h = gen.heritage_groups[0];
  CHECK(h.setup == kHumanSetup);
  REQUIRE(h.genders.size() == 2);
  for (const auto& sex : h.genders) {
    CHECK(sex.motion_table == kHumanMotionTable);
    CHECK_FALSE(sex.hair_colors.empty());
    CHECK_FALSE(sex.hair_styles.empty());
    CHECK_FALSE(sex.eye_colors.empty());
    CHECK_FALSE(sex.eye_strips.empty());
    CHECK_FALSE(sex.nose_strips.empty());
    CHECK_FALSE(sex.mouth_strips.empty());
    CHECK(f.find(sex.skin_palette_set).value().has_value());
  }
  REQUIRE(gen.starter_areas.size() == 1);
  REQUIRE(gen.starter_areas[0].locations.size() == 1);
  CHECK((gen.starter_areas[0].locations[0].cell >> 16) == (kLandBlock >> 16));
  for (const auto area : h.primary_start_areas) CHECK(area < gen.starter_areas.size());
  // Every skill CharGen names is in the SkillTable.
  for (const auto& s : h.skills) CHECK(find_skill(skills, s.skill) != nullptr);
  for (const auto& t : h.templates) {
    for (const auto s : t.normal_skills) CHECK(find_skill(skills, s) != nullptr);
    for (const auto s : t.primary_skills) CHECK(find_skill(skills, s) != nullptr);
  }
  // Formulas the servers can evaluate (X and Z non-zero).
  for (const auto* formula : {&vitals.max_health, &vitals.max_stamina, &vitals.max_mana}) {
    CHECK(formula->x != 0);
    CHECK(formula->z != 0);
  }
  for (const auto& e : skills.skills) CHECK(e.base.formula.z != 0);
  // Every spell component of every spell is in the component table.
  REQUIRE(spells.spells.size() >= 3);
  for (const auto& e : spells.spells) {
    for (const auto c : spell_formula(e.base)) {
      if (c != 0) CHECK(find_spell_component(comps, c) != nullptr);
    }
  }
  for (const auto& set : spells.sets) {
    for (const auto& tier : set.tiers) {
      for (const auto s : tier.spells) CHECK(find_spell(spells, s) != nullptr);
    }
  }
  // XP: level 275 is indexable, level 1 costs nothing, totals never fall.
  REQUIRE(xp.level.size() == 276);
  CHECK(xp.skill_credits.size() == 276);
  CHECK(xp.level[1] == 0);
  CHECK(std::is_sorted(xp.level.begin(), xp.level.end()));
  CHECK(std::is_sorted(xp.attribute.begin(), xp.attribute.end()));
  CHECK(xp.attribute.size() == 191);
  CHECK(xp.vital.size() == 197);
  CHECK(xp.trained_skill.size() == 209);
  CHECK(xp.specialized_skill.size() == 227);
  CHECK(filter.attribute_stats.size() == 6);
}

namespace {

// What a viewer sees of one spell's projectile: the bolt's own GfxObj and
// its colour, and the particles its Launch (trail) and Explode (burst)
// scripts create.
struct SpellLook {
  Did mesh = 0;
  std::size_t vertices = 0;
  std::uint32_t color = 0;
  ParticleEmitterInfo trail;
  Did trail_surface = 0;
  ParticleEmitterInfo burst;
  Did burst_surface = 0;
};

// The first emitter a script creates.
Did first_emitter(Did script) {
  const auto s = load<PhysicsScript>(files().portal, script, [](auto b, Did id) { return read_physics_script(b, id); });
  for (const auto& h : s.hooks) {
    if (const auto* c = std::get_if<CreateParticleHook>(&h.hook.payload)) return c->emitter_info;
  }
  FAIL("script 0x" << std::hex << script << " creates no emitter");
  return 0;
}

// The one surface of the GfxObj an emitter draws its particles with.
Did particle_surface(const ParticleEmitterInfo& e) {
  const auto g = load<GfxObj>(files().portal, e.gfx_obj_id, [](auto b, Did id) { return read_gfx_obj(b, id); });
  REQUIRE(g.surfaces.size() == 1);
  return g.surfaces[0];
}

SpellLook look_of(std::uint32_t wcid) {
  const auto& f = files().portal;
  const auto kind = std::ranges::find_if(kProjectiles, [wcid](const ProjectileKind& k) { return k.wcid == wcid; });
  REQUIRE(kind != kProjectiles.end());
  SpellLook out;
  const auto setup = load<Setup>(f, kind->setup, [](auto b, Did id) { return read_setup(b, id); });
  REQUIRE(setup.parts.size() == 1);
  out.mesh = setup.parts[0];
  const auto mesh = load<GfxObj>(f, out.mesh, [](auto b, Did id) { return read_gfx_obj(b, id); });
  out.vertices = mesh.vertices.size();
  REQUIRE(mesh.surfaces.size() == 1);
  out.color = load<Surface>(f, mesh.surfaces[0], [](auto b, Did id) { return read_surface(b, id); }).color;
  const auto table =
      load<PhysicsScriptTable>(f, kind->script_table, [](auto b, Did id) { return read_physics_script_table(b, id); });
  const auto read_emitter = [](auto b, Did id) { return read_particle_emitter_info(b, id); };
  const auto launch = table.get_script(play_script::Launch, 1.0F);
  const auto explode = table.get_script(play_script::Explode, 1.0F);
  REQUIRE(launch.has_value());
  REQUIRE(explode.has_value());
  out.trail = load<ParticleEmitterInfo>(f, first_emitter(*launch), read_emitter);
  out.trail_surface = particle_surface(out.trail);
  out.burst = load<ParticleEmitterInfo>(f, first_emitter(*explode), read_emitter);
  out.burst_surface = particle_surface(out.burst);
  return out;
}

}  // namespace

TEST_CASE("Demo world: flame, frost, lightning and acid bolts each look their own: shape, colour, trail, burst",
          "[dat][demo]") {
  const std::uint32_t spells[] = {7277, 7279, 7280, 7276};  // Flame, Frost, Lightning, Acid
  std::vector<SpellLook> looks;
  for (const std::uint32_t w : spells) looks.push_back(look_of(w));
  for (std::size_t i = 0; i < looks.size(); ++i) {
    for (std::size_t j = i + 1; j < looks.size(); ++j) {
      INFO("spells " << spells[i] << " and " << spells[j]);
      const SpellLook& a = looks[i];
      const SpellLook& b = looks[j];
      CHECK(a.mesh != b.mesh);
      CHECK(a.vertices != b.vertices);  // a different shape, not the same box recoloured
      CHECK(a.color != b.color);
      // Trails and bursts: particles of their own colour, moving their own way.
      CHECK(a.trail.id != b.trail.id);
      CHECK(a.trail_surface != b.trail_surface);
      CHECK(std::tie(a.trail.lifespan, a.trail.start_scale, a.trail.a, a.trail.b) !=
            std::tie(b.trail.lifespan, b.trail.start_scale, b.trail.a, b.trail.b));
      CHECK(a.burst.id != b.burst.id);
      CHECK(a.burst_surface != b.burst_surface);
      CHECK(std::tie(a.burst.total_particles, a.burst.start_scale, a.burst.lifespan) !=
            std::tie(b.burst.total_particles, b.burst.start_scale, b.burst.lifespan));
    }
  }
  // Each spell's particle colour is its bolt's: the glow's hot hue matches
  // the solid colour's strongest channel (flame red, frost blue, lightning
  // and acid green, lightning's red as strong).
  const auto strongest = [](std::uint32_t argb) {
    const std::uint32_t r = (argb >> 16) & 0xFF, g = (argb >> 8) & 0xFF, b = argb & 0xFF;
    return r >= g && r >= b ? 'r' : (g >= b ? 'g' : 'b');
  };
  CHECK(strongest(looks[0].color) == 'r');
  CHECK(strongest(looks[1].color) == 'b');
  CHECK(strongest(looks[3].color) == 'g');
  for (const SpellLook& l : looks) {
    // The glows are textured (their own RenderSurface each), so sparks can fade.
    const auto s = load<Surface>(files().portal, l.trail_surface, [](auto b, Did id) { return read_surface(b, id); });
    CHECK(s.has_texture());
  }
}

TEST_CASE("Demo world: a character's colours and its clothing's compose, each in its own range",
          "[dat][demo][palette]") {
  const auto& f = files().portal;
  const auto cg = load<CharGen>(f, kCharGenId, [](auto b, Did id) { return read_char_gen(b, id); });
  REQUIRE_FALSE(cg.heritage_groups.empty());
  const auto& sex = cg.heritage_groups.front().genders.front();
  const auto set = [&](Did id) {
    return load<PaletteSet>(f, id, [](auto b, Did i) { return read_palette_set(b, i); });
  };
  std::map<Did, Palette> palettes;
  const PaletteLookup lookup = [&](Did id) -> const Palette* {
    if (!palettes.contains(id)) {
      palettes[id] = load<Palette>(f, id, [](auto b, Did i) { return read_palette(b, i); });
    }
    return &palettes.at(id);
  };
  // What ACE sends for a new character: skin, hair and eyes (gmCG3DView's
  // ranges), then each worn item's ClothingTable subpalettes.
  const Did skin = set(sex.skin_palette_set).palettes.back();
  std::vector<Subpalette> subs;
  add_subpalette(subs, {skin, 0, 192});
  add_subpalette(subs, {set(sex.hair_colors[1]).palettes.front(), 192, 64});
  add_subpalette(subs, {sex.eye_colors[1], 256, 64});
  for (const auto* gear : {&sex.headgear, &sex.shirts, &sex.pants, &sex.footwear}) {
    const auto table =
        load<ClothingTable>(f, gear->front().clothing_table, [](auto b, Did id) { return read_clothing_table(b, id); });
    const CloSubPalEffect* effect = find_subpal_effect(table, sex.clothing_colors.front());
    REQUIRE(effect != nullptr);
    for (const auto& sub : effect->subpalettes) {
      for (const auto& range : sub.ranges) {
        INFO("clothing range " << range.offset << " + " << range.num_colors);
        CHECK(range.offset >= 320);  // past the skin, hair and eye colours
        add_subpalette(subs, {set(sub.palette_set).palettes.front(), range.offset, range.num_colors});
      }
    }
  }
  const auto made = make_modified_palette(sex.base_palette, subs, lookup);
  REQUIRE(made);
  CHECK(made->colors[0] == lookup(skin)->colors[0]);
  CHECK(made->colors[191] == lookup(skin)->colors[191]);
  CHECK(made->colors[192] != lookup(sex.base_palette)->colors[192]);  // another hair colour
  CHECK(made->colors[256] == lookup(sex.eye_colors[1])->colors[256]);
}
