// dereth_bench_net: packets per second through parsing and reassembly, and
// example.pcap's replay speed as a multiple of real time (docs/benchmarks.md).
#include <cstdio>
#include <cstdlib>

#include <benchmark/benchmark.h>

#include "dereth/net/capture_reader.hpp"
#include "dereth/net/packet.hpp"
#include "dereth/net/reassembler.hpp"

#include "support/pcap_messages.hpp"

namespace {

const dereth::test::CaptureContents& capture() {
  static const auto c = [] {
    auto r = dereth::test::read_capture(dereth::test::shared_path("captures/example.pcap"));
    if (!r) {
      std::fprintf(stderr, "%s\n", r.error().message().c_str());
      std::exit(2);
    }
    return *r;
  }();
  return c;
}

// Every datagram of the capture: parse, then reassemble per direction.
void BM_ParseAndReassemble(benchmark::State& state) {
  const auto& datagrams = capture().raw_datagrams;
  std::size_t bytes = 0;
  for (const auto& d : datagrams) bytes += d.bytes.size();
  for (auto _ : state) {
    dereth::net::Reassembler s2c, c2s;
    std::size_t messages = 0;
    for (const auto& d : datagrams) {
      auto p = dereth::net::parse_packet(d.bytes);
      if (!p) continue;
      for (const auto& f : p->fragments) {
        if ((d.server_to_client ? s2c : c2s).add(f)) ++messages;
      }
    }
    benchmark::DoNotOptimize(messages);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(datagrams.size()));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
}

// The whole replay path from the file (libpcap, framing, checksums,
// reassembly); "x_real_time" is the 49.8 s capture's length over the time taken.
void BM_ReplayExamplePcap(benchmark::State& state) {
  const auto path = dereth::test::shared_path("captures/example.pcap");
  const auto& d = capture().raw_datagrams;
  const double span = d.back().time - d.front().time;
  for (auto _ : state) {
    auto replay = dereth::net::CaptureReplay::open(path);
    if (!replay) state.SkipWithError("cannot open the capture");
    std::size_t n = 0;
    while (replay->next_message()) ++n;
    benchmark::DoNotOptimize(n);
  }
  state.counters["x_real_time"] =
      benchmark::Counter(span * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(d.size()));
}

BENCHMARK(BM_ParseAndReassemble);
BENCHMARK(BM_ReplayExamplePcap);

}  // namespace

BENCHMARK_MAIN();
