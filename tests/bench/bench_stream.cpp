// dereth_bench_stream: load-to-publish time per landblock (docs/benchmarks.md,
// docs/streaming.md): every landblock of the demo world's client_cell_1.dat
// asked for at the Near and the Far tier through a LandblockStreamer over a
// cold cell cache, inline and on a pool of two workers (asked for all at
// once, published at one drain after the pool went idle). A plain program:
// it prints the mean and the worst time from request to publication.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "dereth/dat/cell_record_cache.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/sim/cells/landblock_streamer.hpp"
#include "dereth/sim/cells/stream_executor.hpp"

namespace {

using namespace dereth;
using Clock = std::chrono::steady_clock;

struct Result {
  double mean_ms = 0.0;
  double worst_ms = 0.0;
  double total_ms = 0.0;
  std::size_t published = 0;
};

// One pass over `keys` at `tier` with `workers` (0: inline), cold cache.
Result pass(const dat::DatFile& cell, const dat::Region& region, const std::vector<std::uint32_t>& keys,
            sim::StreamTier tier, int workers) {
  dat::CellRecordCache cells(&cell);
  auto executor = sim::make_stream_executor(workers);
  auto* pool = dynamic_cast<sim::ThreadPoolExecutor*>(executor.get());
  sim::LandblockStreamer streamer(cells, region.land_defs, region.id, std::move(executor));
  std::vector<double> waits;
  std::vector<Clock::time_point> asked(keys.size());
  Result r;
  const Clock::time_point start = Clock::now();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    asked[i] = Clock::now();
    if (streamer.request(keys[i], tier))
      waits.push_back(std::chrono::duration<double>(Clock::now() - asked[i]).count());
  }
  if (pool != nullptr) {
    pool->wait_idle();
    streamer.drain();
    const Clock::time_point now = Clock::now();
    for (std::size_t i = 0; i < keys.size(); ++i)
      waits.push_back(std::chrono::duration<double>(now - asked[i]).count());
  }
  r.total_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  r.published = static_cast<std::size_t>(streamer.stats().published);
  double sum = 0.0;
  for (const double w : waits) {
    sum += w;
    r.worst_ms = std::max(r.worst_ms, w * 1000.0);
  }
  r.mean_ms = waits.empty() ? 0.0 : sum / static_cast<double>(waits.size()) * 1000.0;
  return r;
}

}  // namespace

int main() {
  auto built = demo::build_demo_world();
  if (!built) {
    std::fprintf(stderr, "demo world: %s\n", built.error().message().c_str());
    return 2;
  }
  auto portal = dat::DatFile::from_bytes(built->portal, "client_portal.dat");
  auto cell = dat::DatFile::from_bytes(built->cell, "client_cell_1.dat");
  if (!portal || !cell) return 2;
  dat::RecordCache records(&*portal);
  const auto region = records.region();
  if (!region) return 2;
  std::vector<std::uint32_t> keys;
  const auto entries = cell->entries();
  if (!entries) return 2;
  for (const dat::DatEntry& e : *entries) {
    if ((e.id & 0xFFFFu) == 0xFFFFu) keys.push_back(e.id & 0xFFFF0000u);
  }
  std::printf("%zu landblocks in the demo world's cell file\n", keys.size());
  constexpr int kRuns = 20;
  for (const sim::StreamTier tier : {sim::StreamTier::Near, sim::StreamTier::Far}) {
    for (const int workers : {0, 2}) {
      std::vector<Result> runs;
      for (int i = 0; i < kRuns; ++i) runs.push_back(pass(*cell, *region, keys, tier, workers));
      std::sort(runs.begin(), runs.end(), [](const Result& a, const Result& b) { return a.total_ms < b.total_ms; });
      const Result& median = runs[runs.size() / 2];
      std::printf(
          "%s, %s: load-to-publish per landblock mean %.3f ms, worst %.3f ms; all %zu in %.3f ms (median of %d)\n",
          tier == sim::StreamTier::Near ? "Near" : "Far", workers == 0 ? "inline" : "2 workers", median.mean_ms,
          median.worst_ms, median.published, median.total_ms, kRuns);
    }
  }
  return 0;
}
