// dereth_bench_decode: decode throughput of object and effect messages, beside
// a plain memcpy of the same bytes (docs/benchmarks.md).
//
// Sets (each benchmark iteration goes over its whole set):
//   F745  CreateObject bodies: the retail Door (spec/protocol.md 5.1) and
//         broad_projectile() encoded (the example capture has no F745).
//   F755  PlayScriptType bodies: every F755 message in
//         shared/captures/example.pcap (515 of them).
// For each set: the specific decoder, the dispatcher (decode_message), and
// memcpy of every body into a scratch buffer; for F745 also the decoder into
// caller-owned storage (decode_create_object_into, one scratch CreateObject
// per body of the set, as a client keeps one per stream of messages of a
// shape), also over two doors and over two projectiles (_doors,
// _projectiles). items/s counts messages and bytes/s counts message bytes, so the
// decode/memcpy ratio reads straight off the two rates. allocs_per_message
// counts the operator new calls made inside the timed loop (this program
// replaces the global operator new to count them).

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "dereth/protocol/messages.hpp"

#include "protocol/fixtures.hpp"
#include "support/pcap_messages.hpp"

namespace {
std::atomic<std::uint64_t> g_allocations{0};
}  // namespace

// Not inlined: inlined into a caller, malloc and free look mismatched with
// new and delete to GCC's -Wmismatched-new-delete.
[[gnu::noinline]] void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace {

namespace p = dereth::protocol;
using Bytes = std::vector<std::uint8_t>;

struct MessageSet {
  std::vector<Bytes> bodies;
  std::size_t total_bytes = 0;
  std::size_t largest = 0;

  void add(Bytes body) {
    total_bytes += body.size();
    largest = std::max(largest, body.size());
    bodies.push_back(std::move(body));
  }
};

const MessageSet& create_object_set() {
  static const MessageSet set = [] {
    MessageSet s;
    s.add(dereth::test::retail_door_create_object());
    s.add(p::encode(dereth::test::broad_projectile()));
    return s;
  }();
  return set;
}

// The F745 set's two shapes apart, two of each (a few fields and most
// fields): what each costs, without the alternation between them.
const MessageSet& door_set() {
  static const MessageSet set = [] {
    MessageSet s;
    s.add(dereth::test::retail_door_create_object());
    s.add(dereth::test::retail_door_create_object());
    return s;
  }();
  return set;
}
const MessageSet& projectile_set() {
  static const MessageSet set = [] {
    MessageSet s;
    s.add(p::encode(dereth::test::broad_projectile()));
    s.add(p::encode(dereth::test::broad_projectile()));
    return s;
  }();
  return set;
}

const MessageSet& play_script_type_set() {
  static const MessageSet set = [] {
    MessageSet s;
    const std::string path = dereth::test::shared_path("captures/example.pcap");
    auto capture = dereth::test::read_capture(path);
    if (!capture) {
      std::fprintf(stderr, "dereth_bench_decode: %s\n", capture.error().message().c_str());
      std::exit(1);
    }
    for (auto& m : capture->messages) {
      if (m.opcode() == p::opcode::PlayScriptType) s.add(std::move(m.bytes));
    }
    return s;
  }();
  return set;
}

void finish(benchmark::State& state, const MessageSet& set, std::uint64_t allocations) {
  const auto iterations = static_cast<std::int64_t>(state.iterations());
  state.counters["allocs_per_message"] =
      static_cast<double>(allocations) / (static_cast<double>(iterations) * static_cast<double>(set.bodies.size()));
  state.SetItemsProcessed(iterations * static_cast<std::int64_t>(set.bodies.size()));
  state.SetBytesProcessed(iterations * static_cast<std::int64_t>(set.total_bytes));
  state.counters["messages"] = static_cast<double>(set.bodies.size());
  state.counters["set_bytes"] = static_cast<double>(set.total_bytes);
}

// Decodes every body of the set per iteration; a body that fails to decode
// stops the benchmark with an error (the sets are all valid messages).
template <auto Decode>
void decode_set(benchmark::State& state, const MessageSet& set) {
  for (const auto& body : set.bodies) {
    if (!Decode(std::span<const std::uint8_t>(body))) {
      state.SkipWithError("a body of the set does not decode");
      return;
    }
  }
  const std::uint64_t before = g_allocations.load();
  for (auto _ : state) {
    for (const auto& body : set.bodies) {
      auto decoded = Decode(std::span<const std::uint8_t>(body));
      benchmark::DoNotOptimize(decoded);
    }
  }
  finish(state, set, g_allocations.load() - before);
}

// Decodes every body into its own caller-owned scratch message; the first
// pass (before timing) sizes the scratch's strings and lists.
template <class T, auto DecodeInto>
void decode_set_into(benchmark::State& state, const MessageSet& set) {
  std::vector<T> scratch(set.bodies.size());
  for (std::size_t i = 0; i < set.bodies.size(); ++i) {
    if (!DecodeInto(std::span<const std::uint8_t>(set.bodies[i]), scratch[i])) {
      state.SkipWithError("a body of the set does not decode");
      return;
    }
  }
  const std::uint64_t before = g_allocations.load();
  for (auto _ : state) {
    for (std::size_t i = 0; i < set.bodies.size(); ++i) {
      auto decoded = DecodeInto(std::span<const std::uint8_t>(set.bodies[i]), scratch[i]);
      benchmark::DoNotOptimize(decoded);
      benchmark::DoNotOptimize(scratch[i]);
    }
  }
  finish(state, set, g_allocations.load() - before);
}

void memcpy_set(benchmark::State& state, const MessageSet& set) {
  std::vector<std::uint8_t> scratch(set.largest);
  const std::uint64_t before = g_allocations.load();
  for (auto _ : state) {
    for (const auto& body : set.bodies) {
      std::memcpy(scratch.data(), body.data(), body.size());
      benchmark::DoNotOptimize(scratch.data());
      benchmark::ClobberMemory();
    }
  }
  finish(state, set, g_allocations.load() - before);
}

void BM_F745_CreateObject_decode(benchmark::State& state) {
  decode_set<p::decode_create_object>(state, create_object_set());
}
void BM_F745_CreateObject_decode_into(benchmark::State& state) {
  decode_set_into<p::CreateObject, p::decode_create_object_into>(state, create_object_set());
}
void BM_F745_CreateObject_dispatch(benchmark::State& state) {
  decode_set<p::decode_message>(state, create_object_set());
}
void BM_F745_CreateObject_memcpy(benchmark::State& state) {
  memcpy_set(state, create_object_set());
}

void BM_F755_PlayScriptType_decode(benchmark::State& state) {
  decode_set<p::decode_play_script_type>(state, play_script_type_set());
}
void BM_F755_PlayScriptType_dispatch(benchmark::State& state) {
  decode_set<p::decode_message>(state, play_script_type_set());
}
void BM_F755_PlayScriptType_memcpy(benchmark::State& state) {
  memcpy_set(state, play_script_type_set());
}

void BM_F745_CreateObject_decode_into_doors(benchmark::State& state) {
  decode_set_into<p::CreateObject, p::decode_create_object_into>(state, door_set());
}
void BM_F745_CreateObject_decode_into_projectiles(benchmark::State& state) {
  decode_set_into<p::CreateObject, p::decode_create_object_into>(state, projectile_set());
}

BENCHMARK(BM_F745_CreateObject_decode);
BENCHMARK(BM_F745_CreateObject_decode_into);
BENCHMARK(BM_F745_CreateObject_decode_into_doors);
BENCHMARK(BM_F745_CreateObject_decode_into_projectiles);
BENCHMARK(BM_F745_CreateObject_dispatch);
BENCHMARK(BM_F745_CreateObject_memcpy);
BENCHMARK(BM_F755_PlayScriptType_decode);
BENCHMARK(BM_F755_PlayScriptType_dispatch);
BENCHMARK(BM_F755_PlayScriptType_memcpy);

}  // namespace

BENCHMARK_MAIN();
