// The soak (docs/net.md, "The soak"): dereth's real client (net::UdpClient)
// against the scenario server over loopback UDP for a long time (600 s by
// default) at 20% loss both ways, while 100 datagrams a second forged as the
// server's (sent from its own ports N and N+1) reach the client's port. It
// checks that the scripted messages the client receives are exactly those
// the server queued, in order: none lost, duplicated, reordered or forged;
// and that the process's resident memory after the first minute stays within
// 10% of what it was at the first minute. It prints its figures.
//
//   dereth_soak [--seconds S]
//
// Under ctest ("soak" label, never in the default run) it runs only when
// DERETH_SOAK_SECONDS is set, for that many seconds; otherwise it reports
// itself skipped (exit status 77).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <unistd.h>

#include "dereth/core/rng.hpp"
#include "dereth/net/packet.hpp"
#include "dereth/net/udp_client.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/scenario_server.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

using namespace dereth;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kSkipped = 77;
constexpr double kForgedPerSecond = 100.0;
constexpr double kLoss = 0.2;
constexpr double kBaselineAt = 60.0;          // seconds: RSS is measured here first, then must stay within 10%
constexpr double kDrainSeconds = 30.0;        // after the run: time for the last messages to arrive
constexpr std::size_t kServerRecords = 1024;  // the server's record lists stay this short

std::uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0;
  std::uint64_t resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::uint32_t opcode_of(const std::vector<std::uint8_t>& m) {
  if (m.size() < 4) return 0;
  return static_cast<std::uint32_t>(m[0]) | (static_cast<std::uint32_t>(m[1]) << 8) |
         (static_cast<std::uint32_t>(m[2]) << 16) | (static_cast<std::uint32_t>(m[3]) << 24);
}

// Forges the flood: one datagram of each kind in turn, sent from port N or
// N+1 as if by the server.
class Forger {
 public:
  explicit Forger(std::uint32_t seed) : rng_(seed) {}

  // `server_next`: about the server's next sequence; `client_sent`: the
  // client's packets so far (so a forged ack can be just beyond them).
  std::vector<std::uint8_t> next(std::uint32_t server_next, std::uint32_t client_sent, int& port) {
    port = static_cast<int>(rng_.next_u32() & 1U);
    const int kind = static_cast<int>(count_++ % kKinds);
    ++by_kind_[kind];
    net::Packet p;
    p.header.sequence = server_next;
    p.header.id = 0x000B;
    p.header.iteration = 1;
    switch (kind) {
      case 0: {  // garbage: random bytes of a random length
        std::vector<std::uint8_t> bytes(static_cast<std::size_t>(rng_.uniform_int(1, 600)));
        for (auto& b : bytes) b = static_cast<std::uint8_t>(rng_.next_u32());
        return bytes;
      }
      case 1: {  // an encrypted packet a little ahead, under a guessed key: a bad checksum
        p.header.sequence = server_next + static_cast<std::uint32_t>(rng_.uniform_int(0, 40));
        p.header.flags = net::packet_flag::EncryptedChecksum;
        p.fragments.push_back(net::Fragment{blob(0x70000000U), 0x80000000, 1, 0, 10, poison(8)});
        return net::serialize_packet(p, rng_.next_u32());
      }
      case 2: {  // a pure ack beyond what the client sent, or with a sequence far outside the window
        if (rng_.next_u32() & 1U) {
          p.optional.ack_sequence = client_sent + 1000U + (rng_.next_u32() % 0x7FFFFFFFU);
        } else {
          p.header.sequence = server_next + 5000U + (rng_.next_u32() % 0x7FFFFFFFU);
          p.optional.ack_sequence = 1;
        }
        return net::serialize_packet(p);
      }
      case 3: {  // a RejectRetransmit list of the next 100 sequences
        std::vector<std::uint32_t> list;
        for (std::uint32_t k = 0; k < 100; ++k) list.push_back(server_next + k);
        p.optional.reject_retransmit = std::move(list);
        return net::serialize_packet(p);
      }
      case 4: {  // cleartext fragments with a valid checksum: halves of one blob under two ids, and a huge count
        p.fragments.push_back(net::Fragment{blob(0x71000000U), 0x80000000, 2, 0, 10, poison(4)});
        p.fragments.push_back(net::Fragment{blob(0x71000000U), 0x80000001, 2, 1, 10, poison(4)});
        p.fragments.push_back(net::Fragment{blob(0x72000000U), 0x80000000, 2000, 0, 10, poison(4)});
        return net::serialize_packet(p);
      }
      default: {  // an encrypted packet with a fragment that claims to be the next sequence
        p.header.flags = net::packet_flag::EncryptedChecksum;
        p.fragments.push_back(net::Fragment{blob(0x73000000U), 0x80000000, 1, 0, 10, poison(16)});
        return net::serialize_packet(p, rng_.next_u32());
      }
    }
  }

  static constexpr int kKinds = 6;
  [[nodiscard]] std::uint64_t count() const noexcept { return count_; }
  [[nodiscard]] std::uint64_t by_kind(int k) const noexcept { return by_kind_[k]; }

 private:
  // A blob sequence of its own for each forged datagram.
  [[nodiscard]] std::uint32_t blob(std::uint32_t base) const noexcept {
    return base + static_cast<std::uint32_t>(count_ & 0xFFFFFFU);
  }
  // Bytes no scripted message holds four of (0xEE).
  static std::vector<std::uint8_t> poison(std::size_t n) { return std::vector<std::uint8_t>(n, 0xEE); }

  core::Rng rng_;
  std::uint64_t count_ = 0;
  std::uint64_t by_kind_[kKinds] = {};
};

struct Options {
  double seconds = 600.0;
};

std::optional<Options> parse(int argc, char** argv, int& status) {
  Options o;
  bool from_ctest = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--seconds" && i + 1 < argc) {
      o.seconds = std::strtod(argv[++i], nullptr);
    } else if (a == "--ctest") {
      from_ctest = true;
    } else {
      std::fprintf(stderr, "usage: dereth_soak [--seconds S]\n");
      status = 2;
      return std::nullopt;
    }
  }
  if (from_ctest) {
    const char* env = std::getenv("DERETH_SOAK_SECONDS");
    if (env == nullptr || *env == '\0') {
      std::printf("soak: skipped (set DERETH_SOAK_SECONDS, e.g. 600, to run it)\n");
      status = kSkipped;
      return std::nullopt;
    }
    o.seconds = std::strtod(env, nullptr);
  }
  if (!(o.seconds >= 1.0)) {
    std::fprintf(stderr, "soak: the duration must be at least 1 second\n");
    status = 2;
    return std::nullopt;
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  int status = 0;
  const auto options = parse(argc, argv, status);
  if (!options) return status;
  const double duration = options->seconds;
  // A run shorter than two minutes takes its baseline at half time.
  const double baseline_at = duration >= 2 * kBaselineAt ? kBaselineAt : duration / 2;

  auto sc = scenario::load_scenario_file(std::string(DERETH_SOURCE_DIR) + "/tests/soak/soak.scenario");
  if (!sc) {
    std::fprintf(stderr, "soak: %s\n", sc.error().message().c_str());
    return 1;
  }
  sc->impairment.seed = 17;
  sc->impairment.loss = kLoss;
  sc->impairment.inbound = true;
  std::set<std::uint32_t> scripted_opcodes;
  scenario::UdpServerOptions so;
  so.server.max_records = kServerRecords;
  scenario::UdpScenarioServer server(std::move(*sc), so);
  if (auto ok = server.start(); !ok) {
    std::fprintf(stderr, "soak: %s\n", ok.error().message().c_str());
    return 1;
  }
  net::UdpClientOptions o;
  o.host = "127.0.0.1";
  o.port = server.port();
  o.session.account = "soaker";
  o.session.password = "secret";
  o.session.server_name = "the scenario server";
  o.session.login_timeout = 60.0;  // 20% loss both ways can cost a few LoginRequests
  auto client = net::UdpClient::connect(o);
  if (!client) {
    std::fprintf(stderr, "soak: %s\n", client.error().message().c_str());
    return 1;
  }

  // Every message the server queued from the script, not yet matched, and
  // every message of those opcodes the client delivered, not yet matched.
  std::deque<std::vector<std::uint8_t>> expected;
  std::deque<std::vector<std::uint8_t>> received;
  std::size_t seen_records = 0;  // the size of the server's list at the last look
  std::uint64_t scripted = 0;    // scripted messages the server queued
  std::uint64_t matched = 0;
  std::uint64_t delivered = 0;        // every message the client delivered
  std::uint64_t forged_payloads = 0;  // delivered messages holding the forger's bytes
  std::string failure;

  // Whatever the server recorded since the last look. The record list keeps
  // its last kServerRecords entries: when full it forgets its oldest quarter,
  // which a look sees as the list shrinking (the soak looks every 10 ms, far
  // more often than a quarter of the list fills).
  auto take_records = [&] {
    server.inspect([&](const scenario::ScenarioServer& core) {
      const auto& sent = core.sent_messages();
      std::size_t from = seen_records;
      if (sent.size() < seen_records) from = seen_records - kServerRecords / 4;
      if (from > sent.size()) {
        failure = "the server's records moved faster than the soak read them";
        from = sent.size();
      }
      for (std::size_t i = from; i < sent.size(); ++i) {
        const auto op = opcode_of(sent[i].bytes);
        // The NPC's CreateObject (F745) plays once, before the loop; the
        // player's, outside the script, shares its opcode: neither is tracked.
        if (sent[i].script_line > 0 && op != 0xF745) {
          scripted_opcodes.insert(op);
          expected.push_back(sent[i].bytes);
          ++scripted;
        }
      }
      for (std::size_t i = from; i < sent.size(); ++i) {
        if (sent[i].script_line == 0 && scripted_opcodes.contains(opcode_of(sent[i].bytes))) {
          failure = fmt::format("the server sent opcode {:04X} outside the script; the soak cannot tell it apart",
                                opcode_of(sent[i].bytes));
        }
      }
      seen_records = sent.size();
    });
  };
  auto take_messages = [&] {
    for (auto& m : (*client)->drain_messages()) {
      ++delivered;
      std::size_t poison = 0;
      for (auto b : m.bytes) poison += b == 0xEE ? 1 : 0;
      if (poison >= 4) ++forged_payloads;
      const auto op = opcode_of(m.bytes);
      if (scripted_opcodes.contains(op)) received.push_back(std::move(m.bytes));
    }
  };
  auto match = [&] {
    while (failure.empty() && !expected.empty() && !received.empty()) {
      if (expected.front() != received.front()) {
        failure = fmt::format(
            "scripted message {} differs: the server queued opcode {:04X} ({} bytes), the client "
            "delivered opcode {:04X} ({} bytes): lost, duplicated or reordered",
            matched + 1, opcode_of(expected.front()), expected.front().size(), opcode_of(received.front()),
            received.front().size());
        break;
      }
      expected.pop_front();
      received.pop_front();
      ++matched;
    }
  };

  Forger forger(0x50A4U);
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  std::optional<double> in_world_at;
  std::uint64_t rss_baseline = 0;
  std::uint64_t rss_max_after = 0;
  std::uint64_t rss_end = 0;
  double next_rss = 1.0;
  double next_report = 60.0;
  net::UdpClientStatus st;

  // The server records a message before it sends it, so reading the records
  // first means every scripted message the client delivers is known.
  while (failure.empty() && elapsed() < duration) {
    take_records();
    take_messages();
    match();
    st = (*client)->status();
    if (st.state == net::SessionState::Failed || st.state == net::SessionState::Closed) {
      failure = fmt::format("the session ended: {} {}", net::to_string(st.state), st.failure);
      break;
    }
    const auto sessions = server.sessions();
    const double t = elapsed();
    if (!in_world_at && st.state == net::SessionState::InWorld && !sessions.empty() &&
        sessions.back().state == scenario::SessionState::InWorld) {
      in_world_at = t;
    }
    if (in_world_at && !sessions.empty()) {
      const auto& s = sessions.back();
      const auto server_next = static_cast<std::uint32_t>(s.transport.packets_sent + 1);
      const auto target = static_cast<std::uint64_t>((t - *in_world_at) * kForgedPerSecond);
      while (forger.count() < target) {
        int port = 0;
        auto bytes = forger.next(server_next, static_cast<std::uint32_t>(st.transport.packets_sent), port);
        server.send_raw(port, s.c2s, std::move(bytes));
      }
    }
    if (t >= next_rss) {
      next_rss += 1.0;
      const auto rss = resident_bytes();
      if (t >= baseline_at) {
        if (rss_baseline == 0) rss_baseline = rss;
        rss_max_after = std::max(rss_max_after, rss);
      }
    }
    if (t >= next_report) {
      next_report += 60.0;
      std::printf("soak: %.0f s: %llu scripted messages matched, %llu forged, RSS %.1f MiB\n", t,
                  static_cast<unsigned long long>(matched), static_cast<unsigned long long>(forger.count()),
                  static_cast<double>(resident_bytes()) / (1024.0 * 1024.0));
      std::fflush(stdout);
    }
    // Polling real-time threads: the loop's pace, not a synchronisation.
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  rss_end = resident_bytes();
  const double ran = elapsed();

  // Every message queued by the end of the run must arrive (the stream goes
  // on meanwhile; later ones are not waited for).
  const std::uint64_t due = scripted;
  const auto drain_until = Clock::now() + std::chrono::duration<double>(kDrainSeconds);
  while (failure.empty() && matched < due && Clock::now() < drain_until) {
    take_records();
    take_messages();
    match();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  st = (*client)->status();
  const auto server_stats = server.stats();
  (*client)->logout();
  server.stop();

  if (failure.empty() && !in_world_at) failure = "the client never entered the world";
  if (failure.empty() && matched < due) {
    failure = fmt::format("{} of the {} scripted messages queued by the end never arrived", due - matched, due);
  }
  if (failure.empty() && forged_payloads > 0) {
    failure = fmt::format("{} delivered messages hold forged bytes", forged_payloads);
  }
  const double growth =
      rss_baseline == 0 ? 0.0 : static_cast<double>(rss_max_after) / static_cast<double>(rss_baseline) - 1.0;
  if (failure.empty() && rss_baseline == 0) failure = "no RSS baseline was taken";
  if (failure.empty() && growth > 0.10) {
    failure = fmt::format("RSS grew {:.1f}% after {:.0f} s (over 10%)", growth * 100.0, baseline_at);
  }

  const auto& tr = st.transport;
  const auto mib = [](std::uint64_t b) { return static_cast<double>(b) / (1024.0 * 1024.0); };
  std::printf("soak: ran %.1f s (in world after %.2f s), loss %.0f%% both ways, %.0f forged datagrams a second\n", ran,
              in_world_at.value_or(-1.0), kLoss * 100.0, kForgedPerSecond);
  std::printf(
      "soak: scripted messages: %llu queued by the end of the run, %llu matched in order in all (the stream "
      "goes on while the last arrive); messages delivered %llu\n",
      static_cast<unsigned long long>(due), static_cast<unsigned long long>(matched),
      static_cast<unsigned long long>(delivered));
  std::printf(
      "soak: forged %llu (garbage %llu, bad encrypted checksum %llu, acks %llu, reject lists %llu, "
      "cleartext fragments %llu, encrypted next-sequence %llu)\n",
      static_cast<unsigned long long>(forger.count()), static_cast<unsigned long long>(forger.by_kind(0)),
      static_cast<unsigned long long>(forger.by_kind(1)), static_cast<unsigned long long>(forger.by_kind(2)),
      static_cast<unsigned long long>(forger.by_kind(3)), static_cast<unsigned long long>(forger.by_kind(4)),
      static_cast<unsigned long long>(forger.by_kind(5)));
  std::printf("soak: RSS at %.0f s %.2f MiB, max after %.2f MiB (%+.1f%%), at the end %.2f MiB\n", baseline_at,
              mib(rss_baseline), mib(rss_max_after), growth * 100.0, mib(rss_end));
  std::printf("soak: server link out: passed %llu lost %llu; in: passed %llu lost %llu\n",
              static_cast<unsigned long long>(server_stats.outbound.passed),
              static_cast<unsigned long long>(server_stats.outbound.lost),
              static_cast<unsigned long long>(server_stats.inbound.passed),
              static_cast<unsigned long long>(server_stats.inbound.lost));
  std::printf(
      "soak: client transport: packets_sent %llu packets_received %llu retransmits_sent %llu naks_sent %llu "
      "acks_sent %llu duplicates %llu bad_packets %llu bad_checksums %llu held_overflow %llu "
      "out_of_window %llu unverified_content %llu acks_beyond_sent %llu requests_unsent %llu "
      "requests_throttled %llu rejects_ignored %llu keyless_skipped %llu stalled %llu fragments_dropped %llu "
      "partials_evicted %llu oversized_messages %llu handshake_dropped %llu foreign_datagrams %llu "
      "queue_overflow %llu messages_received %llu dropped %llu\n",
      static_cast<unsigned long long>(tr.packets_sent), static_cast<unsigned long long>(tr.packets_received),
      static_cast<unsigned long long>(tr.retransmits_sent), static_cast<unsigned long long>(tr.naks_sent),
      static_cast<unsigned long long>(tr.acks_sent), static_cast<unsigned long long>(tr.duplicates),
      static_cast<unsigned long long>(tr.bad_packets), static_cast<unsigned long long>(tr.bad_checksums),
      static_cast<unsigned long long>(tr.held_overflow), static_cast<unsigned long long>(tr.out_of_window),
      static_cast<unsigned long long>(tr.unverified_content), static_cast<unsigned long long>(tr.acks_beyond_sent),
      static_cast<unsigned long long>(tr.requests_unsent), static_cast<unsigned long long>(tr.requests_throttled),
      static_cast<unsigned long long>(tr.rejects_ignored), static_cast<unsigned long long>(tr.keyless_skipped),
      static_cast<unsigned long long>(tr.stalled), static_cast<unsigned long long>(tr.fragments_dropped),
      static_cast<unsigned long long>(tr.partials_evicted), static_cast<unsigned long long>(tr.oversized_messages),
      static_cast<unsigned long long>(tr.handshake_dropped), static_cast<unsigned long long>(tr.foreign_datagrams),
      static_cast<unsigned long long>(tr.queue_overflow), static_cast<unsigned long long>(tr.messages_received),
      static_cast<unsigned long long>(tr.dropped()));
  if (!failure.empty()) {
    std::printf("soak: FAILED: %s\n", failure.c_str());
    return 1;
  }
  std::printf("soak: passed\n");
  return 0;
}
