// libFuzzer target over the DAT record decoders and the container reader.
// The first byte picks the record type (or the container); the rest is the
// record. Every decoder must return a value or an error, never crash; a record
// that decodes must re-encode and decode to the same JSON. A GfxObj or an
// Environment that decodes also has its physics and cell BSPs built (the
// collision code's checks) and, when accepted, asked sphere questions around
// its bounding sphere: none may crash or loop.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/db_type.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/records.hpp"
#include "dereth/sim/cells/env_cell.hpp"
#include "dereth/sim/collision/transition.hpp"

namespace {

using dereth::dat::DbType;

constexpr DbType kTypes[] = {
    DbType::GfxObj,
    DbType::Setup,
    DbType::Animation,
    DbType::Palette,
    DbType::SurfaceTexture,
    DbType::RenderSurface,
    DbType::Surface,
    DbType::MotionTable,
    DbType::Wave,
    DbType::Environment,
    DbType::PaletteSet,
    DbType::Region,
    DbType::SoundTable,
    DbType::ParticleEmitterInfo,
    DbType::PhysicsScript,
    DbType::PhysicsScriptTable,
    DbType::LandBlock,
    DbType::LandBlockInfo,
    DbType::EnvCell,
    DbType::Iteration,
    // Appended, so the older corpus files keep their picks.
    DbType::CharGen,
    DbType::VitalTable,
    DbType::SkillTable,
    DbType::SpellTable,
    DbType::SpellComponentTable,
    DbType::XpTable,
    DbType::QualityFilter,
};
constexpr std::size_t kTypeCount = sizeof(kTypes) / sizeof(kTypes[0]);

// Sphere questions at and around the tree's bounding sphere.
void ask(const dereth::sim::BspTree& tree) {
  using dereth::dat::Sphere;
  const Sphere& bound = tree.get_sphere();
  dereth::sim::SpherePath path;
  path.walk_interp = 1.0f;
  path.walkable_allowance = 0.66417414f;
  const glm::vec3 up(0.0f, 0.0f, 1.0f);
  for (const glm::vec3 off : {glm::vec3(0.0f), glm::vec3(bound.radius, 0.0f, 0.0f), glm::vec3(0.0f, 0.0f, 0.5f)}) {
    Sphere s{bound.center + off, 0.5f};
    const dereth::sim::Polygon* hit = nullptr;
    glm::vec3 contact{0.0f};
    bool changed = false;
    bool center_solid = false;
    (void)tree.sphere_intersects_solid(s, true);
    (void)tree.sphere_intersects_poly(s, -up, hit, contact);
    (void)tree.hits_walkable(path, s, up);
    tree.find_walkable(path, s, hit, -up * 0.4f, up, changed);
    (void)tree.sphere_intersects_solid_poly(s, s.radius, center_solid, hit, true);
    (void)tree.point_inside_cell_bsp(s.center);
    (void)tree.sphere_intersects_cell_bsp(s);
  }
}

void build_trees(dereth::dat::DbType type, std::uint32_t id, std::span<const std::uint8_t> body) {
  if (type == DbType::GfxObj) {
    auto gfx = dereth::dat::read_gfx_obj(body, id);
    if (!gfx || gfx->physics_bsp.nodes.empty()) return;
    if (auto tree = dereth::sim::BspTree::from_gfx_obj(*gfx)) ask(*tree);
  } else if (type == DbType::Environment) {
    auto env = dereth::dat::read_environment(body, id);
    if (!env) return;
    for (const auto& cs : env->cells) {
      auto built = dereth::sim::CellStructPhysics::build(cs, "fuzz");
      if (!built) continue;
      ask(built->cells);
      if (built->physics) ask(*built->physics);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::span<const std::uint8_t> body(data + 1, size - 1);
  const std::size_t pick = data[0];
  if (pick >= kTypeCount) {
    // The container: open the bytes as a DAT file, enumerate and read every entry.
    auto file = dereth::dat::DatFile::from_bytes(std::vector<std::uint8_t>(body.begin(), body.end()), "fuzz.dat");
    if (!file) {
      if (file.error().message().empty()) std::abort();
      return 0;
    }
    auto entries = file->entries();
    if (!entries) return 0;
    for (const auto& e : *entries) {
      auto bytes = file->read(e);
      if (bytes)
        (void)dereth::dat::decode_record(e.id, dereth::dat::db_type_of(e.id, dereth::dat::DatKind::Portal), *bytes);
    }
    return 0;
  }
  const DbType type = kTypes[pick];
  // The record's own id: what its first u32 says (records must name themselves).
  std::uint32_t id = 0;
  if (body.size() >= 4) id = body[0] | (body[1] << 8) | (body[2] << 16) | (static_cast<std::uint32_t>(body[3]) << 24);
  if (type == DbType::Surface) id = 0x08000001;  // Surface records carry no id
  if (type == DbType::Iteration) id = dereth::dat::kIterationId;
  auto json = dereth::dat::record_json(id, type, body);
  if (!json && json.error().message().empty()) std::abort();
  build_trees(type, id, body);
  return 0;
}
