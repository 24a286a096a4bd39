#include "dereth/dat/records.hpp"

#include <fmt/format.h>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/animation.hpp"
#include "dereth/dat/char_gen.hpp"
#include "dereth/dat/clothing_table.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/gfx_obj_degrade_info.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/motion_table.hpp"
#include "dereth/dat/palette.hpp"
#include "dereth/dat/palette_set.hpp"
#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/dat/physics_script.hpp"
#include "dereth/dat/physics_script_table.hpp"
#include "dereth/dat/quality_filter.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/dat/render_surface.hpp"
#include "dereth/dat/scene.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/dat/skill_table.hpp"
#include "dereth/dat/sound_table.hpp"
#include "dereth/dat/spell_component_table.hpp"
#include "dereth/dat/spell_table.hpp"
#include "dereth/dat/surface.hpp"
#include "dereth/dat/surface_texture.hpp"
#include "dereth/dat/vital_table.hpp"
#include "dereth/dat/wave.hpp"
#include "dereth/dat/xp_table.hpp"

namespace dereth::dat {

namespace {

// Calls `f` with the decoded record, whatever its type.
template <class F>
core::Result<void> with_record(Did id, DbType type, std::span<const std::uint8_t> bytes, F&& f) {
  auto run = [&](auto result) -> core::Result<void> {
    if (!result) return std::unexpected(std::move(result.error()));
    f(*result);
    return {};
  };
  switch (type) {
    case DbType::GfxObj: return run(read_gfx_obj(bytes, id));
    case DbType::GfxObjDegradeInfo: return run(read_gfx_obj_degrade_info(bytes, id));
    case DbType::Setup: return run(read_setup(bytes, id));
    case DbType::Animation: return run(read_animation(bytes, id));
    case DbType::Palette: return run(read_palette(bytes, id));
    case DbType::SurfaceTexture: return run(read_surface_texture(bytes, id));
    case DbType::RenderSurface: return run(read_render_surface(bytes, id));
    case DbType::Surface: return run(read_surface(bytes, id));
    case DbType::MotionTable: return run(read_motion_table(bytes, id));
    case DbType::Wave: return run(read_wave(bytes, id));
    case DbType::Environment: return run(read_environment(bytes, id));
    case DbType::CharGen: return run(read_char_gen(bytes, id));
    case DbType::VitalTable: return run(read_vital_table(bytes, id));
    case DbType::SkillTable: return run(read_skill_table(bytes, id));
    case DbType::SpellTable: return run(read_spell_table(bytes, id));
    case DbType::SpellComponentTable: return run(read_spell_component_table(bytes, id));
    case DbType::XpTable: return run(read_xp_table(bytes, id));
    case DbType::QualityFilter: return run(read_quality_filter(bytes, id));
    case DbType::PaletteSet: return run(read_palette_set(bytes, id));
    case DbType::ClothingTable: return run(read_clothing_table(bytes, id));
    case DbType::Region: return run(read_region(bytes, id));
    case DbType::Scene: return run(read_scene(bytes, id));
    case DbType::SoundTable: return run(read_sound_table(bytes, id));
    case DbType::ParticleEmitterInfo: return run(read_particle_emitter_info(bytes, id));
    case DbType::PhysicsScript: return run(read_physics_script(bytes, id));
    case DbType::PhysicsScriptTable: return run(read_physics_script_table(bytes, id));
    case DbType::LandBlock: return run(read_land_block(bytes, id));
    case DbType::LandBlockInfo: return run(read_land_block_info(bytes, id));
    case DbType::EnvCell: return run(read_env_cell(bytes, id));
    case DbType::Iteration: {
      const std::string context = fmt::format("DAT 0x{:08X} Iteration", id);
      auto list = parse_iteration_list(bytes, context);
      if (!list) return std::unexpected(std::move(list.error()));
      f(*list);
      return {};
    }
    default:
      return std::unexpected(core::Error{core::ErrorKind::Unsupported, fmt::format("DAT 0x{:08X}", id), "type", 0,
                                         fmt::format("no reader for {} records", db_type_name(type))});
  }
}

void write_iterations(core::JsonWriter& j, const std::vector<std::int32_t>& list) {
  j.begin_object();
  j.key("count").number(static_cast<std::uint64_t>(list.size()));
  if (!list.empty()) {
    j.key("first").number(static_cast<std::int64_t>(list.front()));
    j.key("last").number(static_cast<std::int64_t>(list.back()));
  }
  j.end_object();
}

}  // namespace

bool has_record_reader(DbType type) noexcept {
  switch (type) {
    case DbType::GfxObj:
    case DbType::Setup:
    case DbType::Animation:
    case DbType::Palette:
    case DbType::SurfaceTexture:
    case DbType::RenderSurface:
    case DbType::Surface:
    case DbType::MotionTable:
    case DbType::Wave:
    case DbType::Environment:
    case DbType::PaletteSet:
    case DbType::Region:
    case DbType::Scene:
    case DbType::CharGen:
    case DbType::VitalTable:
    case DbType::SkillTable:
    case DbType::SpellTable:
    case DbType::SpellComponentTable:
    case DbType::XpTable:
    case DbType::QualityFilter:
    case DbType::SoundTable:
    case DbType::ParticleEmitterInfo:
    case DbType::PhysicsScript:
    case DbType::PhysicsScriptTable:
    case DbType::LandBlock:
    case DbType::LandBlockInfo:
    case DbType::EnvCell:
    case DbType::Iteration:
    case DbType::GfxObjDegradeInfo:
    case DbType::ClothingTable: return true;
    default: return false;
  }
}

core::Result<std::string> record_json(Did id, DbType type, std::span<const std::uint8_t> bytes) {
  core::JsonWriter j;
  j.begin_object();
  j.key("id").hex(id);
  j.key("type").string(db_type_name(type));
  j.key("size").number(static_cast<std::uint64_t>(bytes.size()));
  j.key("record");
  DERETH_CHECK(with_record(id, type, bytes, [&](const auto& record) {
    using T = std::decay_t<decltype(record)>;
    if constexpr (std::is_same_v<T, std::vector<std::int32_t>>) {
      write_iterations(j, record);
    } else {
      write_json(j, record);
    }
  }));
  j.end_object();
  return j.str();
}

core::Result<void> decode_record(Did id, DbType type, std::span<const std::uint8_t> bytes) {
  return with_record(id, type, bytes, [](const auto&) {});
}

}  // namespace dereth::dat
