#include "dereth/sim/dat_object_factory.hpp"

#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/dat/motion_table.hpp"
#include "dereth/sim/dat_part_array.hpp"

namespace dereth::sim {

namespace {

// Reads and decodes one record; absent, unreadable and undecodable records
// are logged and give nullptr.
template <typename T, typename Reader>
std::shared_ptr<const T> load(const dat::DatFile& file, std::uint32_t did, const char* what, Reader reader) {
  const auto entry = file.find(did);
  if (!entry) {
    core::logger(core::Module::Sim)->warn("{} {:#010x}: directory unreadable: {}", what, did, entry.error().message());
    return nullptr;
  }
  if (!*entry) {
    core::logger(core::Module::Sim)->warn("{} {:#010x}: not in {}", what, did, file.name());
    return nullptr;
  }
  auto bytes = file.read(**entry);
  if (!bytes) {
    core::logger(core::Module::Sim)->warn("{} {:#010x}: unreadable: {}", what, did, bytes.error().message());
    return nullptr;
  }
  auto record = reader(*bytes, did);
  if (!record) {
    core::logger(core::Module::Sim)->warn("{} {:#010x}: malformed: {}", what, did, record.error().message());
    return nullptr;
  }
  return std::make_shared<const T>(std::move(*record));
}

}  // namespace

std::shared_ptr<const dat::Setup> DatObjectFactory::get_setup(std::uint32_t did) {
  if (did == 0) return nullptr;
  if (auto it = setups_.find(did); it != setups_.end()) return it->second;
  auto setup = load<dat::Setup>(*portal_, did, "Setup", [](auto bytes, auto id) { return dat::read_setup(bytes, id); });
  setups_.emplace(did, setup);
  return setup;
}

std::shared_ptr<const dat::Animation> DatObjectFactory::get_animation(std::uint32_t did) {
  if (did == 0) return nullptr;
  if (auto it = animations_.find(did); it != animations_.end()) return it->second;
  auto anim = load<dat::Animation>(*portal_, did, "Animation",
                                   [](auto bytes, auto id) { return dat::read_animation(bytes, id); });
  animations_.emplace(did, anim);
  return anim;
}

std::shared_ptr<const MotionTable> DatObjectFactory::get_motion_table(std::uint32_t did) {
  if (did == 0) return nullptr;
  if (auto it = motion_tables_.find(did); it != motion_tables_.end()) return it->second;
  std::shared_ptr<const MotionTable> table;
  if (auto data = load<dat::MotionTable>(*portal_, did, "MotionTable",
                                         [](auto bytes, auto id) { return dat::read_motion_table(bytes, id); })) {
    table = std::make_shared<const MotionTable>(std::move(data));
  }
  motion_tables_.emplace(did, table);
  return table;
}

std::optional<SetupDefaults> DatObjectFactory::setup_defaults(std::uint32_t setup_did) {
  const auto setup = get_setup(setup_did);
  if (!setup) return std::nullopt;
  SetupDefaults d;
  d.default_script_id = setup->default_script;
  d.default_motion_table_id = setup->default_motion_table;
  d.default_sound_table_id = setup->default_sound_table;
  d.default_script_table_id = setup->default_script_table;
  d.default_anim_id = setup->default_animation;
  return d;
}

std::unique_ptr<PartArray> DatObjectFactory::make_part_array(PhysicsObj& owner, std::uint32_t setup_did) {
  auto setup = get_setup(setup_did);
  if (!setup) return nullptr;
  return std::make_unique<DatPartArray>(owner, std::move(setup), this, this);
}

std::unique_ptr<MovementManager> DatObjectFactory::make_movement_manager(PhysicsObj& owner) {
  return std::make_unique<DatMovementManager>(owner);
}

}  // namespace dereth::sim
