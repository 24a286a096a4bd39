#pragma once
// What every part of the renderer shares (private header): its options, DAT
// files and record cache, the frame's stats and draw list, the once-per-id warning of a
// record that does not draw, and the clock of asset loads that
// FrameTiming::load reports. The GPU caches and the passes each hold a
// reference to the Renderer's one RenderContext.

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/log.hpp"
#include "dereth/core/worker_pool.hpp"
#include "dereth/dat/cell_record_cache.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/render/renderer.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::render {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

inline std::string hex_id(std::uint32_t id) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", id);
  return buf;
}

inline bool finite(const glm::vec3& v) noexcept {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

struct RenderContext {
  RendererOptions options;
  std::optional<dat::DatFile> portal;
  std::optional<dat::DatFile> cell;
  // Where every portal record is read and decoded (GfxObjs, Surfaces,
  // textures, Palettes, DegradeInfos): the world's cache once a world hands
  // it over (Renderer::set_records), else own_records over `portal`.
  std::shared_ptr<dat::RecordCache> records;
  std::shared_ptr<dat::RecordCache> own_records;
  // Where the terrain's LandBlocks are read: the world's cell records once a
  // world hands them over (Renderer::set_cell_records), so a block the
  // landscape holds is not read again; else own_cells over `cell`.
  std::shared_ptr<dat::CellRecordCache> cells;
  std::shared_ptr<dat::CellRecordCache> own_cells;

  // The asset workers (RendererOptions::asset_workers), made at the first
  // load handed to one; loads go to them only under a load budget.
  std::unique_ptr<core::WorkerPool> asset_pool;
  [[nodiscard]] bool has_asset_workers() const noexcept {
    return options.asset_workers > 0 && options.load_budget_ms > 0.0;
  }
  core::WorkerPool& workers() {
    if (!asset_pool) asset_pool = std::make_unique<core::WorkerPool>(options.asset_workers);
    return *asset_pool;
  }

  RenderStats stats;
  std::vector<DrawRecord> draw_list;
  // The current world frame, for Renderer::render_ready: the objects
  // gathered with everything loaded (or hidden), the landblocks (0xXXYY0000) of objects
  // and terrain blocks that waited on the load budget, and the terrain
  // blocks (0xXXYYFFFF) in the square, uploaded or absent from the DAT.
  std::vector<sim::LocalId> ready_objects;
  std::vector<sim::LocalId> waiting_objects;  // owners of emitters that waited
  std::vector<std::uint32_t> waiting_landblocks;
  std::vector<std::uint32_t> terrain_blocks_known;
  std::unordered_set<std::uint32_t> logged;
  std::uint64_t frame_number = 0;  // frames drawn (Renderer::render*), the current one's
  double load_seconds = 0.0;       // accumulated by loads during the current frame
  int load_depth = 0;              // nested loads (a mesh loading its surfaces) count once
  int loads_started = 0;           // first-use loads may_load let start in the current frame

  // Whether a first-use load may start now (RendererOptions::load_budget_ms):
  // always without a budget, for the frame's first load, and for one nested
  // in a load under way (a mesh's surfaces); else while the frame's loads
  // have taken less than the budget. A load refused is counted in
  // stats.loads_deferred; its caller caches nothing and draws nothing of it.
  bool may_load() noexcept {
    if (options.load_budget_ms <= 0.0 || load_depth > 0) return true;
    if (loads_started == 0 || load_seconds * 1000.0 < options.load_budget_ms) {
      ++loads_started;
      return true;
    }
    ++stats.loads_deferred;
    return false;
  }

  void log_once(std::uint32_t id, const std::string& what) {
    if (logged.insert(id).second) core::logger(core::Module::Render)->warn("{} {}: {}", hex_id(id), "not drawn", what);
  }

  // Times the outermost asset load of a nest into load_seconds.
  class LoadScope {
   public:
    explicit LoadScope(RenderContext& context) : context_(context), start_(Clock::now()) { ++context_.load_depth; }
    LoadScope(const LoadScope&) = delete;
    LoadScope& operator=(const LoadScope&) = delete;
    ~LoadScope() {
      if (--context_.load_depth == 0) context_.load_seconds += seconds_since(start_);
    }

   private:
    RenderContext& context_;
    Clock::time_point start_;
  };
};

}  // namespace dereth::render
