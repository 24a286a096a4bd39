// LandblockStreamer: landblock records built off the simulation thread and
// published between ticks under generation and tier rules
// (docs/streaming.md).
#include "dereth/sim/cells/landblock_streamer.hpp"

#include <chrono>
#include <exception>
#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/sim/cells/scenery.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"

namespace dereth::sim {

namespace {

constexpr std::uint32_t kBlockMask = 0xFFFF0000u;

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A Near build's read-ahead (LandblockStreamer::set_portal_records): the
// block's scenery (every placement, buildings' cells included), stabs,
// buildings and EnvCells with their stabs.
void read_ahead(dat::RecordCache& portal, dat::Did region_id, const LandblockBuild& b) {
  if (b.terrain) {
    if (const auto region = portal.region(region_id)) {
      const auto placements = get_land_scenes(
          *b.terrain, *region, [&](dat::Did id) { return portal.scene(id); }, nullptr);
      for (const ScenePlacement& p : placements) DatObjectFactory::read_ahead(portal, p.obj_id);
    }
  }
  if (b.info) {
    for (const dat::Stab& stab : b.info->objects) DatObjectFactory::read_ahead(portal, stab.id);
    for (const dat::BuildingInfo& building : b.info->buildings) DatObjectFactory::read_ahead(portal, building.model_id);
  }
  for (const auto& [id, cell] : b.env_cells) {
    if (!cell) continue;
    (void)portal.environment(cell->environment_did());
    for (const dat::Stab& stab : cell->static_objects) DatObjectFactory::read_ahead(portal, stab.id);
  }
}

}  // namespace

LandblockStreamer::LandblockStreamer(dat::CellRecordCache& cells, dat::LandDefs defs, dat::Did region_id,
                                     std::unique_ptr<StreamExecutor> executor)
    : cells_(&cells),
      defs_(std::make_shared<const dat::LandDefs>(std::move(defs))),
      region_id_(region_id),
      executor_(executor ? std::move(executor) : std::make_unique<InlineExecutor>()) {}

LandblockStreamer::~LandblockStreamer() {
  executor_.reset();  // workers joined before the inbox and slots go
}

// A worker's job: the records read through the (thread-safe) cell cache and
// the terrain built; nothing of the simulation is touched.
LandblockBuild LandblockStreamer::build(dat::CellRecordCache& cells, const dat::LandDefs& defs, dat::Did region_id,
                                        std::uint32_t key, StreamTier tier, dat::RecordCache* portal) {
  const double start = steady_seconds();
  LandblockBuild b;
  b.key = key;
  b.tier = tier;
  try {
    b.land_block = cells.land_block(key | 0xFFFFu);
    if (b.land_block) {
      auto built = LandBlockStruct::build(*b.land_block, defs, region_id);
      if (built) {
        b.terrain = std::make_shared<const LandBlockStruct>(std::move(*built));
      } else {
        core::logger(core::Module::App)->warn("landblock {:08X}: {}", key | 0xFFFFu, built.error().message());
        b.malformed = true;
      }
    } else {
      // In the DAT but not readable (the cache logged why): malformed.
      b.malformed = cells.unreadable(key | 0xFFFFu);
    }
    if (b.malformed) {
      // Loads as empty: flat, nothing on it, so the game goes on.
      core::logger(core::Module::Sim)->error("landblock {:08X} is malformed: it loads flat and empty", key | 0xFFFFu);
      b.land_block.reset();
      dat::LandBlock flat;
      flat.id = key | 0xFFFFu;
      if (auto built = LandBlockStruct::build(flat, defs, region_id)) {
        b.terrain = std::make_shared<const LandBlockStruct>(std::move(*built));
      }
    }
    if (tier == StreamTier::Near && !b.malformed) {
      b.info = cells.land_block_info(key | 0xFFFEu);
      // EnvCells are numbered from 0x0100 (LandBlockInfo's numCells).
      for (std::uint32_t i = 0; b.info && i < b.info->num_cells && 0x0100u + i < 0xFFFEu; ++i) {
        const std::uint32_t id = key | (0x0100u + i);
        if (auto cell = cells.env_cell(id)) b.env_cells.emplace(id, std::move(cell));
      }
      if (portal != nullptr) read_ahead(*portal, region_id, b);
    }
  } catch (const std::exception& e) {
    core::logger(core::Module::Sim)->error("landblock {:08X}: build failed: {}", key | 0xFFFFu, e.what());
    b = LandblockBuild{};
    b.key = key;
    b.tier = tier;
    b.malformed = true;
  }
  b.build_seconds = steady_seconds() - start;
  return b;
}

void LandblockStreamer::submit(std::uint32_t key, StreamTier tier) {
  Slot& slot = slots_[key];
  if (slot.pending_generation != generation_) {
    slot.near_in_flight = false;
    slot.far_in_flight = false;
    slot.pending_generation = generation_;
  }
  (tier == StreamTier::Near ? slot.near_in_flight : slot.far_in_flight) = true;
  (tier == StreamTier::Near ? slot.near_asked : slot.far_asked) = steady_seconds();
  ++stats_.submitted;
  const std::uint64_t generation = generation_;
  const std::uint64_t ticket = next_ticket_++;
  executor_->submit(
      [cells = cells_, portal = executor_->is_inline() ? nullptr : portal_, defs = defs_, region = region_id_,
       inbox = inbox_, key, tier, generation, ticket] {
        LandblockBuild b = build(*cells, *defs, region, key, tier, portal);
        b.generation = generation;
        b.ticket = ticket;
        const std::lock_guard lock(inbox->mutex);
        inbox->done.push_back(std::move(b));
      },
      StreamJobTag{key, tier == StreamTier::Near});
}

bool LandblockStreamer::request(std::uint32_t block_id, StreamTier tier) {
  const std::uint32_t key = block_id & kBlockMask;
  if (tier == StreamTier::None) return true;
  Slot& slot = slots_[key];
  slot.wanted = tier;
  if (slot.records && slot.records->generation == generation_ && slot.records->tier >= tier) return true;
  const bool current = slot.pending_generation == generation_;
  const bool on_its_way = current && (slot.near_in_flight || (tier == StreamTier::Far && slot.far_in_flight));
  if (!on_its_way) submit(key, tier);
  if (executor_->is_inline()) drain();
  const Slot& after = slots_[key];
  return after.records && after.records->generation == generation_ && after.records->tier >= tier;
}

const LandblockBuild* LandblockStreamer::published(std::uint32_t block_id) const noexcept {
  const auto it = slots_.find(block_id & kBlockMask);
  return it != slots_.end() && it->second.records ? it->second.records.get() : nullptr;
}

StreamTier LandblockStreamer::resident_tier(std::uint32_t block_id) const noexcept {
  const LandblockBuild* b = published(block_id);
  return b != nullptr && b->generation == generation_ ? b->tier : StreamTier::None;
}

namespace {

// The Far payload of a Near build: its terrain, nothing else.
std::shared_ptr<const LandblockBuild> terrain_only(const LandblockBuild& near) {
  auto far = std::make_shared<LandblockBuild>();
  far->key = near.key;
  far->tier = StreamTier::Far;
  far->generation = near.generation;
  far->ticket = near.ticket;
  far->land_block = near.land_block;
  far->terrain = near.terrain;
  far->malformed = near.malformed;
  far->build_seconds = near.build_seconds;
  return far;
}

}  // namespace

void LandblockStreamer::demote(std::uint32_t block_id) {
  const auto it = slots_.find(block_id & kBlockMask);
  if (it == slots_.end()) return;
  Slot& slot = it->second;
  slot.wanted = StreamTier::Far;
  if (slot.records && slot.records->tier == StreamTier::Near) slot.records = terrain_only(*slot.records);
}

void LandblockStreamer::unload(std::uint32_t block_id, std::uint64_t generation) {
  const auto it = slots_.find(block_id & kBlockMask);
  if (it == slots_.end()) return;
  Slot& slot = it->second;
  if (slot.records && slot.records->generation <= generation) slot.records.reset();
  if (slot.pending_generation <= generation) {
    slot.near_in_flight = false;
    slot.far_in_flight = false;
  }
  if (!slot.records && !slot.near_in_flight && !slot.far_in_flight) slots_.erase(it);
}

std::size_t LandblockStreamer::drain() {
  std::vector<LandblockBuild> done;
  {
    const std::lock_guard lock(inbox_->mutex);
    done.swap(inbox_->done);
  }
  const std::uint64_t before = stats_.published;
  for (LandblockBuild& result : done) accept(std::move(result));
  return static_cast<std::size_t>(stats_.published - before);
}

void LandblockStreamer::accept(LandblockBuild result) {
  // An old build, even of a block id the new region has too.
  if (result.generation != generation_) {
    ++stats_.rejected_generation;
    return;
  }
  const auto it = slots_.find(result.key);
  const bool near = result.tier == StreamTier::Near;
  if (it == slots_.end()) {
    ++stats_.rejected_unloaded;
    return;
  }
  Slot& slot = it->second;
  const bool current_records = slot.records && slot.records->generation == generation_;
  bool& in_flight = near ? slot.near_in_flight : slot.far_in_flight;
  if (slot.pending_generation != generation_ || !in_flight) {
    // Published already (a second completion), or unloaded since.
    if (current_records && slot.records->tier >= result.tier) {
      ++stats_.rejected_duplicate;
    } else {
      ++stats_.rejected_unloaded;
    }
    return;
  }
  in_flight = false;
  if (!near && current_records && slot.records->tier == StreamTier::Near) {
    ++stats_.rejected_stale_far;
    return;
  }
  if (near && slot.wanted == StreamTier::Far) {
    // Demoted while on its way: its terrain is what a Far load would give.
    ++stats_.terrain_only;
    auto far = terrain_only(result);
    LandblockBuild copy = *far;
    publish(slot, std::move(copy));
    return;
  }
  publish(slot, std::move(result));
}

void LandblockStreamer::publish(Slot& slot, LandblockBuild result) {
  const double waited = steady_seconds() - (result.tier == StreamTier::Near ? slot.near_asked : slot.far_asked);
  if (result.tier == StreamTier::Near) {
    stats_.near_publish_seconds += waited;
    ++stats_.near_published;
  } else {
    stats_.far_publish_seconds += waited;
    ++stats_.far_published;
  }
  ++stats_.published;
  slot.records = std::make_shared<const LandblockBuild>(std::move(result));
  if (on_publish_) on_publish_(*slot.records);
}

std::size_t LandblockStreamer::in_flight() const noexcept {
  std::size_t n = 0;
  for (const auto& [key, slot] : slots_) {
    if (slot.pending_generation != generation_) continue;
    n += (slot.near_in_flight ? 1u : 0u) + (slot.far_in_flight ? 1u : 0u);
  }
  return n;
}

std::size_t LandblockStreamer::resident_count() const noexcept {
  std::size_t n = 0;
  for (const auto& [key, slot] : slots_) n += slot.records ? 1u : 0u;
  return n;
}

}  // namespace dereth::sim
