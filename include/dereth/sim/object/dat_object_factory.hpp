#pragma once
// DatObjectFactory: the ObjectFactory seam over a portal DAT. Setups,
// MotionTables and Animations are read through the world's one RecordCache
// (absent and unreadable records are logged once there); a missing or
// malformed record is treated as absent and never stops the world.
//
// Part arrays it makes are DatPartArrays; movement managers are
// DatMovementManagers. The factory must outlive every object it equips (part
// arrays read animations and motion tables through it), and the cache must
// outlive the factory.

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>

#include "dereth/dat/animation.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/sim/collision/bsp.hpp"
#include "dereth/sim/collision/gfx_obj_physics.hpp"
#include "dereth/sim/motion/motion_table.hpp"
#include "dereth/sim/motion/sequence.hpp"
#include "dereth/sim/object/seams.hpp"

namespace dereth::sim {

class DatObjectFactory final : public ObjectFactory,
                               public AnimationSource,
                               public MotionTableSource,
                               public GfxObjPhysicsSource {
 public:
  // `records` is not owned and must outlive the factory.
  explicit DatObjectFactory(dat::RecordCache& records) : records_(&records) {}

  // The Setup fields CPhysicsObj::InitDefaults reads; none when the Setup is
  // absent or unreadable.
  [[nodiscard]] std::optional<SetupDefaults> setup_defaults(std::uint32_t setup_did) override;
  // CPartArray::CreateSetup (CPartArray::CreateMesh for a GfxObj id
  // 0x01...: a one-part array): none when the record is absent or unreadable.
  [[nodiscard]] std::unique_ptr<PartArray> make_part_array(PhysicsObj& owner, std::uint32_t setup_did) override;
  // Reads into `records` (thread-safe; a landblock build's worker calls it)
  // what making the object `did` (a Setup or GfxObj) here reads: its parts'
  // GfxObjs with their first degrade level, and a Setup's default animation,
  // motion, script and sound tables.
  static void read_ahead(dat::RecordCache& records, std::uint32_t did);
  // MovementManager::Create
  [[nodiscard]] std::unique_ptr<MovementManager> make_movement_manager(PhysicsObj& owner) override;

  [[nodiscard]] std::shared_ptr<const dat::Setup> get_setup(std::uint32_t did);
  // CSetup::makeSimpleSetup 0x00520090: the one-part Setup of a GfxObj
  // (made once each); null when the GfxObj is absent.
  [[nodiscard]] std::shared_ptr<const dat::Setup> make_simple_setup(std::uint32_t gfx_obj_did);
  [[nodiscard]] std::shared_ptr<const dat::Animation> get_animation(std::uint32_t did) override;
  [[nodiscard]] std::shared_ptr<const MotionTable> get_motion_table(std::uint32_t did) override;
  // The GfxObj's physics tree, built and checked once; null without one,
  // and for a record whose tree is refused (logged, kept in
  // refused_physics()).
  [[nodiscard]] std::shared_ptr<const GfxObjPhysics> get_gfx_obj_physics(std::uint32_t did) override;
  [[nodiscard]] std::optional<PartGfx> get_part_gfx(std::uint32_t did) override;
  [[nodiscard]] const std::vector<core::Error>& refused_physics() const noexcept { return refused_physics_; }

  [[nodiscard]] dat::RecordCache& records() noexcept { return *records_; }

 private:
  dat::RecordCache* records_;
  // The motion tables built over the cache's records (built once each).
  std::unordered_map<std::uint32_t, std::shared_ptr<const MotionTable>> motion_tables_;
  std::unordered_map<std::uint32_t, std::shared_ptr<const GfxObjPhysics>> physics_;
  std::unordered_map<std::uint32_t, std::shared_ptr<const dat::Setup>> simple_setups_;
  std::vector<core::Error> refused_physics_;
};

}  // namespace dereth::sim
