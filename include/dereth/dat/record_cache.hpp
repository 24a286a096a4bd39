#pragma once
// RecordCache: the one cache of decoded portal records a world reads through.
// The object factory (Setups, Animations, MotionTables), the effects
// (PhysicsScripts, PhysicsScriptTables, ParticleEmitterInfos, SoundTables and
// their Setups), the audio system (Waves), the landscape loader
// (Environments), the player's qualities (SkillTable, XpTable), character
// creation (CharGen, SkillTable, PaletteSets), the terrain and game clock
// (the Region) and the renderer (the Region, GfxObjs, Surfaces, textures,
// Palettes) all ask this cache, so each record is read and decoded once per
// world, whoever asks first.
//
// A record that is absent, unreadable or malformed is cached as null too: it
// is logged once, remembered in missing() (the QA report's "assets missing"),
// and never re-read. Id 0 means "none" and is neither read nor counted. With
// no portal DAT every lookup gives null and nothing is counted missing.
//
// Thread-safe: the frame loop's thread (the simulation and the renderer) and
// the renderer's asset workers read through it at once. The table is behind
// one mutex and a DAT read and decode runs outside it, so two threads asking
// for the same record at once may both read it; the first answer kept is the
// one both get (and a missing record is logged and counted once).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "dereth/dat/animation.hpp"
#include "dereth/dat/char_gen.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/gfx_obj_degrade_info.hpp"
#include "dereth/dat/motion_table.hpp"
#include "dereth/dat/palette.hpp"
#include "dereth/dat/palette_set.hpp"
#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/dat/physics_script.hpp"
#include "dereth/dat/physics_script_table.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/dat/render_surface.hpp"
#include "dereth/dat/scene.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/dat/skill_table.hpp"
#include "dereth/dat/sound_table.hpp"
#include "dereth/dat/spell_table.hpp"
#include "dereth/dat/surface.hpp"
#include "dereth/dat/surface_texture.hpp"
#include "dereth/dat/vital_table.hpp"
#include "dereth/dat/wave.hpp"
#include "dereth/dat/xp_table.hpp"

namespace dereth::dat {

// A record a lookup could not give.
struct MissingRecord {
  Did id = 0;
  std::string kind;  // "Setup", "Wave", ...
  std::string why;   // "not in client_portal.dat", or the decode error
};

// The DAT reads (each with its decode) the calling thread has done through
// any RecordCache or CellRecordCache: the renderer's tests assert that a
// frame loading on asset workers reads nothing on its own thread. The caches
// count each with note_read_on_this_thread.
[[nodiscard]] std::uint64_t reads_on_this_thread() noexcept;
void note_read_on_this_thread() noexcept;

class RecordCache {
 public:
  // `portal` may be null (no DAT data); it must outlive the cache.
  explicit RecordCache(const DatFile* portal) : portal_(portal) {}
  RecordCache(const RecordCache&) = delete;
  RecordCache& operator=(const RecordCache&) = delete;

  [[nodiscard]] std::shared_ptr<const Setup> setup(Did id);
  [[nodiscard]] std::shared_ptr<const Animation> animation(Did id);
  [[nodiscard]] std::shared_ptr<const MotionTable> motion_table(Did id);
  [[nodiscard]] std::shared_ptr<const PhysicsScript> physics_script(Did id);
  [[nodiscard]] std::shared_ptr<const PhysicsScriptTable> physics_script_table(Did id);
  [[nodiscard]] std::shared_ptr<const ParticleEmitterInfo> particle_emitter_info(Did id);
  [[nodiscard]] std::shared_ptr<const SoundTable> sound_table(Did id);
  [[nodiscard]] std::shared_ptr<const Wave> wave(Did id);
  // With its BSP trees kept (the physics tree is what collision needs).
  [[nodiscard]] std::shared_ptr<const GfxObj> gfx_obj(Did id);
  [[nodiscard]] std::shared_ptr<const GfxObjDegradeInfo> gfx_obj_degrade_info(Did id);
  [[nodiscard]] std::shared_ptr<const Environment> environment(Did id);
  // A Region scene type's Scene (0x12...): the objects CLandBlock::get_land_scenes places.
  [[nodiscard]] std::shared_ptr<const Scene> scene(Did id);
  // The portal's Region (0x13000000): LandDefs, GameTime, SkyDesc, terrain types.
  [[nodiscard]] std::shared_ptr<const Region> region(Did id = kRegionId);
  [[nodiscard]] std::shared_ptr<const SkillTable> skill_table(Did id = kSkillTableId);
  [[nodiscard]] std::shared_ptr<const XpTable> xp_table(Did id = kXpTableId);
  // The vitals' maxima (CACQualities::InqAttribute2nd) and the spells' names (the spell bar).
  [[nodiscard]] std::shared_ptr<const VitalTable> vital_table(Did id = kVitalTableId);
  [[nodiscard]] std::shared_ptr<const SpellTable> spell_table(Did id = kSpellTableId);
  [[nodiscard]] std::shared_ptr<const CharGen> char_gen(Did id = kCharGenId);
  [[nodiscard]] std::shared_ptr<const PaletteSet> palette_set(Did id);
  // What the renderer's GPU caches upload from.
  [[nodiscard]] std::shared_ptr<const Palette> palette(Did id);
  [[nodiscard]] std::shared_ptr<const Surface> surface(Did id);
  [[nodiscard]] std::shared_ptr<const SurfaceTexture> surface_texture(Did id);
  [[nodiscard]] std::shared_ptr<const RenderSurface> render_surface(Did id);

  [[nodiscard]] const DatFile* portal() const noexcept { return portal_; }
  // Records looked up so far (found or not), over all kinds.
  [[nodiscard]] std::size_t size() const;
  // Records that could not be had, in the order they were first asked for (a copy).
  [[nodiscard]] std::vector<MissingRecord> missing() const;
  // Why the record of `kind` ("Region", ...) and `id` could not be had; none
  // when it was not asked for or was had.
  [[nodiscard]] std::optional<MissingRecord> find_missing(std::string_view kind, Did id) const;

 private:
  enum class Kind : std::uint8_t {
    Setup,
    Animation,
    MotionTable,
    PhysicsScript,
    PhysicsScriptTable,
    ParticleEmitterInfo,
    SoundTable,
    Wave,
    GfxObj,
    GfxObjDegradeInfo,
    Environment,
    Scene,
    Region,
    SkillTable,
    XpTable,
    VitalTable,
    SpellTable,
    CharGen,
    PaletteSet,
    Palette,
    Surface,
    SurfaceTexture,
    RenderSurface
  };
  template <class T, class Read>
  std::shared_ptr<const T> get(Kind kind, Did id, const char* name, Read read);

  const DatFile* portal_;
  // Keyed by kind and id (the kind in the high word): an id is untrusted and
  // may be asked for as two kinds, and each lookup must get its own kind
  // back. The value is the decoded record, type-erased (null = missing).
  mutable std::mutex mutex_;  // guards the two below
  std::unordered_map<std::uint64_t, std::shared_ptr<const void>> entries_;
  std::vector<MissingRecord> missing_;
};

}  // namespace dereth::dat
