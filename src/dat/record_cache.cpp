#include "dereth/dat/record_cache.hpp"

#include <cstdint>
#include <mutex>
#include <utility>

#include "dereth/core/log.hpp"

namespace dereth::dat {

namespace {
thread_local std::uint64_t thread_reads = 0;
}  // namespace

std::uint64_t reads_on_this_thread() noexcept {
  return thread_reads;
}

void note_read_on_this_thread() noexcept {
  ++thread_reads;
}

template <class T, class Read>
std::shared_ptr<const T> RecordCache::get(Kind kind, Did id, const char* name, Read read) {
  if (id == 0 || portal_ == nullptr) return nullptr;
  const std::uint64_t key = (static_cast<std::uint64_t>(kind) << 32) | id;
  {
    const std::lock_guard lock(mutex_);
    if (auto it = entries_.find(key); it != entries_.end()) return std::static_pointer_cast<const T>(it->second);
  }
  // Read and decoded outside the lock (DatFile reads from several threads).
  note_read_on_this_thread();
  std::shared_ptr<const T> value;
  std::string why;
  if (auto entry = portal_->find(id); !entry) {
    why = entry.error().message();
  } else if (!*entry) {
    why = "not in " + portal_->name();
  } else if (auto bytes = portal_->read(**entry); !bytes) {
    why = bytes.error().message();
  } else if (auto record = read(*bytes, id); !record) {
    why = record.error().message();
  } else {
    value = std::make_shared<const T>(std::move(*record));
  }
  const std::lock_guard lock(mutex_);
  // Another thread had it meanwhile: its answer is the one kept and given.
  if (auto it = entries_.find(key); it != entries_.end()) return std::static_pointer_cast<const T>(it->second);
  if (!value) {
    core::logger(core::Module::Dat)->warn("{} {:#010x} cannot be used: {}", name, id, why);
    missing_.push_back(MissingRecord{id, name, std::move(why)});
  }
  entries_.emplace(key, value);
  return value;
}

std::size_t RecordCache::size() const {
  const std::lock_guard lock(mutex_);
  return entries_.size();
}

std::vector<MissingRecord> RecordCache::missing() const {
  const std::lock_guard lock(mutex_);
  return missing_;
}

std::shared_ptr<const Setup> RecordCache::setup(Did id) {
  return get<Setup>(Kind::Setup, id, "Setup", read_setup);
}

std::shared_ptr<const Animation> RecordCache::animation(Did id) {
  return get<Animation>(Kind::Animation, id, "Animation", read_animation);
}

std::shared_ptr<const MotionTable> RecordCache::motion_table(Did id) {
  return get<MotionTable>(Kind::MotionTable, id, "MotionTable", read_motion_table);
}

std::shared_ptr<const PhysicsScript> RecordCache::physics_script(Did id) {
  return get<PhysicsScript>(Kind::PhysicsScript, id, "PhysicsScript", read_physics_script);
}

std::shared_ptr<const PhysicsScriptTable> RecordCache::physics_script_table(Did id) {
  return get<PhysicsScriptTable>(Kind::PhysicsScriptTable, id, "PhysicsScriptTable", read_physics_script_table);
}

std::shared_ptr<const ParticleEmitterInfo> RecordCache::particle_emitter_info(Did id) {
  return get<ParticleEmitterInfo>(Kind::ParticleEmitterInfo, id, "ParticleEmitterInfo", read_particle_emitter_info);
}

std::shared_ptr<const SoundTable> RecordCache::sound_table(Did id) {
  return get<SoundTable>(Kind::SoundTable, id, "SoundTable", read_sound_table);
}

std::shared_ptr<const Wave> RecordCache::wave(Did id) {
  return get<Wave>(Kind::Wave, id, "Wave", read_wave);
}

std::shared_ptr<const GfxObj> RecordCache::gfx_obj(Did id) {
  return get<GfxObj>(Kind::GfxObj, id, "GfxObj",
                     [](std::span<const std::uint8_t> bytes, Did did) { return read_gfx_obj(bytes, did); });
}

std::shared_ptr<const GfxObjDegradeInfo> RecordCache::gfx_obj_degrade_info(Did id) {
  return get<GfxObjDegradeInfo>(Kind::GfxObjDegradeInfo, id, "GfxObjDegradeInfo", read_gfx_obj_degrade_info);
}

std::shared_ptr<const Environment> RecordCache::environment(Did id) {
  return get<Environment>(Kind::Environment, id, "Environment", read_environment);
}

std::shared_ptr<const Scene> RecordCache::scene(Did id) {
  return get<Scene>(Kind::Scene, id, "Scene", read_scene);
}

std::shared_ptr<const Region> RecordCache::region(Did id) {
  return get<Region>(Kind::Region, id, "Region", read_region);
}

std::shared_ptr<const SkillTable> RecordCache::skill_table(Did id) {
  return get<SkillTable>(Kind::SkillTable, id, "SkillTable", read_skill_table);
}

std::shared_ptr<const XpTable> RecordCache::xp_table(Did id) {
  return get<XpTable>(Kind::XpTable, id, "XpTable", read_xp_table);
}

std::shared_ptr<const VitalTable> RecordCache::vital_table(Did id) {
  return get<VitalTable>(Kind::VitalTable, id, "VitalTable", read_vital_table);
}

std::shared_ptr<const SpellTable> RecordCache::spell_table(Did id) {
  return get<SpellTable>(Kind::SpellTable, id, "SpellTable", read_spell_table);
}

std::shared_ptr<const CharGen> RecordCache::char_gen(Did id) {
  return get<CharGen>(Kind::CharGen, id, "CharGen", read_char_gen);
}

std::shared_ptr<const PaletteSet> RecordCache::palette_set(Did id) {
  return get<PaletteSet>(Kind::PaletteSet, id, "PaletteSet", read_palette_set);
}

std::shared_ptr<const Palette> RecordCache::palette(Did id) {
  return get<Palette>(Kind::Palette, id, "Palette", read_palette);
}

std::shared_ptr<const Surface> RecordCache::surface(Did id) {
  return get<Surface>(Kind::Surface, id, "Surface", read_surface);
}

std::shared_ptr<const SurfaceTexture> RecordCache::surface_texture(Did id) {
  return get<SurfaceTexture>(Kind::SurfaceTexture, id, "SurfaceTexture", read_surface_texture);
}

std::shared_ptr<const RenderSurface> RecordCache::render_surface(Did id) {
  return get<RenderSurface>(Kind::RenderSurface, id, "RenderSurface", read_render_surface);
}

std::optional<MissingRecord> RecordCache::find_missing(std::string_view kind, Did id) const {
  const std::lock_guard lock(mutex_);
  for (const MissingRecord& m : missing_) {
    if (m.id == id && m.kind == kind) return m;
  }
  return std::nullopt;
}

}  // namespace dereth::dat
