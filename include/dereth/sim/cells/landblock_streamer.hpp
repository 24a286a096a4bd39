#pragma once
// LandblockStreamer: the landscape's records, read and decoded off the
// simulation thread and published on it between ticks (docs/streaming.md).
//
// A build reads a landblock's LandBlock (0xXXYYFFFF) and makes its
// LandBlockStruct; at the Near tier it also reads the LandBlockInfo
// (0xXXYYFFFE) and every EnvCell it numbers. Builds run on a
// StreamExecutor (stream_executor.hpp) and touch no simulation state; their
// results wait in an inbox until drain() publishes them on the main thread.
// What is published is what DatLandscapeLoader hands LScape.
//
// Every request and result carries the generation it was asked in. The
// landscape advances it at every hard recenter, dungeon collapse and
// expansion (begin_region), so a build asked for before is rejected even
// when its landblock id overlaps the new region. Within a generation: a
// Far result never overwrites a Near one, a Near result arriving after its
// block was demoted to Far publishes its terrain only, a result for a block
// unloaded since is dropped, and a second completion of a build already
// published is ignored. Unload and demotion run on the main thread at once;
// an unload names the generation its block was loaded in, so tearing down
// an old block never cancels the new region's build of the same id.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "dereth/dat/cell_record_cache.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/sim/cells/land_block_struct.hpp"
#include "dereth/sim/cells/stream_executor.hpp"

namespace dereth::sim {

// Far: terrain only. Near: terrain, LandBlockInfo (buildings, statics,
// restrictions) and EnvCells: what collision and the statics need.
enum class StreamTier : std::uint8_t { None = 0, Far = 1, Near = 2 };

// One landblock's records as a build made them (immutable once published).
struct LandblockBuild {
  std::uint32_t key = 0;  // 0xXXYY0000
  StreamTier tier = StreamTier::Far;
  std::uint64_t generation = 0;
  std::uint64_t ticket = 0;  // the request's serial number
  // The LandBlock and its terrain; both null when the block is not in the
  // DAT (nothing there). One there that cannot be read or built is
  // malformed (logged with its id): no LandBlock, a flat terrain (every
  // height 0) and, at Near, no LandBlockInfo or EnvCells: it loads empty.
  std::shared_ptr<const dat::LandBlock> land_block;
  std::shared_ptr<const LandBlockStruct> terrain;
  // Near only (null/empty at Far, or when absent).
  std::shared_ptr<const dat::LandBlockInfo> info;
  std::map<std::uint32_t, std::shared_ptr<const dat::EnvCell>> env_cells;  // by cell id
  bool malformed = false;                                                  // in the DAT but not usable
  double build_seconds = 0.0;                                              // the worker's time, read to built
};

struct StreamStats {
  std::uint64_t submitted = 0;
  std::uint64_t published = 0;
  std::uint64_t terrain_only = 0;         // Near results published as Far after a demotion
  std::uint64_t rejected_generation = 0;  // asked for in an older generation
  std::uint64_t rejected_unloaded = 0;    // the block was unloaded (or never asked for) since
  std::uint64_t rejected_stale_far = 0;   // a Far result for a block already Near
  std::uint64_t rejected_duplicate = 0;   // a build already published completing again
  // Load-to-publish (request to drain) times of the published builds, seconds.
  double near_publish_seconds = 0.0;
  double far_publish_seconds = 0.0;
  std::uint64_t near_published = 0;
  std::uint64_t far_published = 0;
};

class LandblockStreamer {
 public:
  // `cells` (thread-safe) must outlive the streamer; null `executor`:
  // inline. `defs` and `region_id` are the Region's (LandBlockStruct::build).
  LandblockStreamer(dat::CellRecordCache& cells, dat::LandDefs defs, dat::Did region_id,
                    std::unique_ptr<StreamExecutor> executor = nullptr);
  // Stops the executor first (its workers joined), then the rest.
  ~LandblockStreamer();
  LandblockStreamer(const LandblockStreamer&) = delete;
  LandblockStreamer& operator=(const LandblockStreamer&) = delete;

  // The world's portal record cache (thread-safe), which a Near build reads
  // ahead into what the main thread will make of the block when it is
  // published: its statics' and scenery's Setups and GfxObjs (with their
  // parts, degrade levels and default animation, motion, script and sound
  // tables), its buildings' models, its EnvCells' Environments. Null: none.
  void set_portal_records(dat::RecordCache* records) noexcept { portal_ = records; }

  // Whether builds complete only at drain (false: inline, everything is
  // at hand when asked for, as retail's DBCache with nothing to download).
  [[nodiscard]] bool streams() const noexcept { return !executor_->is_inline(); }
  [[nodiscard]] std::uint64_t generation() const noexcept { return generation_; }
  // A hard recenter, dungeon collapse or expansion: builds asked for before
  // are rejected when they complete.
  void begin_region() noexcept { ++generation_; }

  // The records of `block_id`'s landblock at `tier` (or better) published
  // in this generation: true. Otherwise false, and a build is asked for
  // unless one that will do is on its way (Load; Promote for a Far block
  // wanted Near). Inline, the build runs and publishes before it returns.
  // Asking for Far while a Near build is on its way is a demotion.
  bool request(std::uint32_t block_id, StreamTier tier);
  // The published records of `block_id`'s landblock (any generation), or null.
  [[nodiscard]] const LandblockBuild* published(std::uint32_t block_id) const noexcept;
  // The tier published in this generation (None: nothing yet).
  [[nodiscard]] StreamTier resident_tier(std::uint32_t block_id) const noexcept;
  // The block is wanted at Far only: its Near records are let go (terrain
  // kept), and a Near build on its way publishes terrain only.
  void demote(std::uint32_t block_id);
  // The block's records and builds of generation `generation` or older go
  // (a later completion of them is dropped); newer ones stay.
  void unload(std::uint32_t block_id, std::uint64_t generation);

  // Publishes the completed builds, in completion order, under the rules
  // above; returns how many were published. Main thread, between ticks.
  std::size_t drain();
  // Builds asked for and not yet published or dropped.
  [[nodiscard]] std::size_t in_flight() const noexcept;
  // Landblocks with published records.
  [[nodiscard]] std::size_t resident_count() const noexcept;
  [[nodiscard]] const StreamStats& stats() const noexcept { return stats_; }
  // Called with each build as it is published (benchmarks, tests); null: none.
  void set_on_publish(std::function<void(const LandblockBuild&)> hook) { on_publish_ = std::move(hook); }

 private:
  struct Slot {
    std::shared_ptr<const LandblockBuild> records;
    StreamTier wanted = StreamTier::None;  // the tier last asked for
    std::uint64_t pending_generation = 0;  // of the builds on their way
    bool near_in_flight = false;
    bool far_in_flight = false;
    double near_asked = 0.0;  // when each was asked for (steady seconds)
    double far_asked = 0.0;
  };
  // What the workers share with the main thread: the inbox.
  struct Inbox {
    std::mutex mutex;
    std::vector<LandblockBuild> done;
  };
  void submit(std::uint32_t key, StreamTier tier);
  // Makes the build (a worker's job: no simulation state).
  static LandblockBuild build(dat::CellRecordCache& cells, const dat::LandDefs& defs, dat::Did region_id,
                              std::uint32_t key, StreamTier tier, dat::RecordCache* portal = nullptr);
  void accept(LandblockBuild result);
  void publish(Slot& slot, LandblockBuild result);

  dat::CellRecordCache* cells_;
  dat::RecordCache* portal_ = nullptr;
  std::shared_ptr<const dat::LandDefs> defs_;
  dat::Did region_id_;
  std::shared_ptr<Inbox> inbox_ = std::make_shared<Inbox>();
  std::map<std::uint32_t, Slot> slots_;  // by 0xXXYY0000
  std::uint64_t generation_ = 1;
  std::uint64_t next_ticket_ = 1;
  StreamStats stats_;
  std::function<void(const LandblockBuild&)> on_publish_;
  // Last: destroyed first, so no worker runs once the rest goes.
  std::unique_ptr<StreamExecutor> executor_;
};

}  // namespace dereth::sim
