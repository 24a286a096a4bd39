// dereth_bench_dat: DAT container lookups per second, and decode throughput
// (records/s, MB/s) of the GfxObj and Animation records of the demo world,
// beside a plain read of the same records (docs/benchmarks.md).
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <benchmark/benchmark.h>

#include "dereth/dat/animation.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/demo/demo_world.hpp"

namespace {

using namespace dereth::dat;

struct World {
  DatFile portal;
  std::vector<DatEntry> gfx;
  std::vector<DatEntry> anims;
  std::vector<Did> ids;
};

const World& world() {
  static const World w = [] {
    auto built = dereth::demo::build_demo_world();
    if (!built) {
      std::fprintf(stderr, "demo world: %s\n", built.error().message().c_str());
      std::exit(2);
    }
    auto file = DatFile::from_bytes(built->portal, "client_portal.dat");
    if (!file) std::exit(2);
    World out{std::move(*file), {}, {}, {}};
    const auto entries = out.portal.entries().value();
    for (const auto& e : entries) {
      out.ids.push_back(e.id);
      if (db_type_of(e.id, DatKind::Portal) == DbType::GfxObj) out.gfx.push_back(e);
      if (db_type_of(e.id, DatKind::Portal) == DbType::Animation) out.anims.push_back(e);
    }
    return out;
  }();
  return w;
}

// B-tree lookups of every id of the portal file.
void BM_Lookup(benchmark::State& state) {
  const auto& w = world();
  for (auto _ : state) {
    for (const Did id : w.ids) benchmark::DoNotOptimize(w.portal.find(id));
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * static_cast<std::int64_t>(w.ids.size())));
}

template <class Decode>
void decode_set(benchmark::State& state, const std::vector<DatEntry>& set, Decode&& decode, bool decode_it) {
  const auto& w = world();
  std::vector<std::vector<std::uint8_t>> bytes;
  std::size_t total = 0;
  for (const auto& e : set) {
    bytes.push_back(w.portal.read(e).value());
    total += bytes.back().size();
  }
  for (auto _ : state) {
    for (std::size_t i = 0; i < set.size(); ++i) {
      if (decode_it) {
        benchmark::DoNotOptimize(decode(bytes[i], set[i].id));
      } else {
        benchmark::DoNotOptimize(w.portal.read(set[i]));  // the container read alone
      }
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * static_cast<std::int64_t>(set.size())));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * static_cast<std::int64_t>(total)));
}

void BM_GfxObjRead(benchmark::State& s) {
  decode_set(
      s, world().gfx, [](auto b, Did id) { return read_gfx_obj(b, id); }, false);
}
void BM_GfxObjDecode(benchmark::State& s) {
  decode_set(
      s, world().gfx, [](auto b, Did id) { return read_gfx_obj(b, id); }, true);
}
void BM_AnimationRead(benchmark::State& s) {
  decode_set(
      s, world().anims, [](auto b, Did id) { return read_animation(b, id); }, false);
}
void BM_AnimationDecode(benchmark::State& s) {
  decode_set(
      s, world().anims, [](auto b, Did id) { return read_animation(b, id); }, true);
}

BENCHMARK(BM_Lookup);
BENCHMARK(BM_GfxObjRead);
BENCHMARK(BM_GfxObjDecode);
BENCHMARK(BM_AnimationRead);
BENCHMARK(BM_AnimationDecode);

}  // namespace

BENCHMARK_MAIN();
