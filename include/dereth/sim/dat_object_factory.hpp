#pragma once
// DatObjectFactory: the ObjectFactory seam over a portal DAT. Setups,
// MotionTables and Animations are read on first use and cached (absent and
// unreadable records too, so each is logged once); a missing or malformed
// record is treated as absent and never stops the world.
//
// Part arrays it makes are DatPartArrays; movement managers are
// DatMovementManagers. The factory must outlive every object it equips (part
// arrays read animations and motion tables through it).

#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>

#include "dereth/dat/animation.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/sim/motion_table.hpp"
#include "dereth/sim/seams.hpp"
#include "dereth/sim/sequence.hpp"

namespace dereth::sim {

class DatObjectFactory final : public ObjectFactory, public AnimationSource, public MotionTableSource {
 public:
  // `portal` is not owned and must outlive the factory.
  explicit DatObjectFactory(const dat::DatFile& portal) : portal_(&portal) {}

  // The Setup fields CPhysicsObj::InitDefaults reads; none when the Setup is
  // absent or unreadable.
  [[nodiscard]] std::optional<SetupDefaults> setup_defaults(std::uint32_t setup_did) override;
  // CPartArray::CreateSetup: none when the Setup is absent or unreadable.
  [[nodiscard]] std::unique_ptr<PartArray> make_part_array(PhysicsObj& owner, std::uint32_t setup_did) override;
  // MovementManager::Create
  [[nodiscard]] std::unique_ptr<MovementManager> make_movement_manager(PhysicsObj& owner) override;

  [[nodiscard]] std::shared_ptr<const dat::Setup> get_setup(std::uint32_t did);
  [[nodiscard]] std::shared_ptr<const dat::Animation> get_animation(std::uint32_t did) override;
  [[nodiscard]] std::shared_ptr<const MotionTable> get_motion_table(std::uint32_t did) override;

  // Records read (or found absent) so far, for tests and tools.
  [[nodiscard]] std::size_t cached_records() const noexcept {
    return setups_.size() + animations_.size() + motion_tables_.size();
  }

 private:
  const dat::DatFile* portal_;
  std::unordered_map<std::uint32_t, std::shared_ptr<const dat::Setup>> setups_;
  std::unordered_map<std::uint32_t, std::shared_ptr<const dat::Animation>> animations_;
  std::unordered_map<std::uint32_t, std::shared_ptr<const MotionTable>> motion_tables_;
};

}  // namespace dereth::sim
