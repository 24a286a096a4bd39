// Forged and damaged datagrams against net::Transport, in memory: whatever a
// stranger sends (even well-formed, even as if from the server), every
// scripted message still arrives exactly once and in order, what the
// transport holds stays bounded, and the counter for the drop moves.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "dereth/net/transport.hpp"

using namespace dereth::net;

namespace {

constexpr std::uint32_t kClientSeed = 0x11111111;  // keys client-to-server
constexpr std::uint32_t kServerSeed = 0x22222222;  // keys server-to-client
constexpr int kMessages = 50;

std::vector<std::uint8_t> message(int n) {
  std::vector<std::uint8_t> m(8 + static_cast<std::size_t>(n * 37) % 900);
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<std::uint8_t>((n * 13 + static_cast<int>(i)) & 0xFF);
  m[0] = static_cast<std::uint8_t>(n);
  return m;
}

std::vector<std::vector<std::uint8_t>> expected() {
  std::vector<std::vector<std::uint8_t>> e;
  for (int i = 0; i < kMessages; ++i) e.push_back(message(i));
  return e;
}

// A client and a server transport over a perfect in-memory link with hooks
// that drop chosen datagrams; the server (or the client) sends one scripted
// message per step.
struct Pair {
  Transport client{Role::Client};
  Transport server{Role::Server};
  double now = 1000.0;
  int step_count = 0;
  int to_client_sent = 0;
  int to_server_sent = 0;
  bool server_streams = true;
  bool client_streams = false;
  bool server_alive = true;
  int stream_every = 1;  // steps between scripted messages
  std::function<bool(const std::vector<std::uint8_t>&)> drop_c2s;
  std::vector<std::vector<std::uint8_t>> got_client, got_server;

  Pair() {
    client.start(kClientSeed, kServerSeed, 7, 1, now);
    server.start(kServerSeed, kClientSeed, 0x000B, 1, now);
  }
  void step() {
    now += 0.02;
    ++step_count;
    if (server_streams && to_client_sent < kMessages && step_count % stream_every == 0) {
      server.send_message(message(to_client_sent++), 10);
    }
    if (client_streams && to_server_sent < kMessages) client.send_message(message(to_server_sent++), 3);
    client.tick(now);
    if (server_alive) server.tick(now);
    for (auto& d : client.take_outgoing()) {
      if (drop_c2s && drop_c2s(d)) continue;
      if (server_alive) server.receive(d, now);
    }
    if (server_alive) {
      for (auto& d : server.take_outgoing()) client.receive(d, now);
    }
    while (auto m = client.poll_message()) got_client.push_back(std::move(m->bytes));
    while (auto m = server.poll_message()) got_server.push_back(std::move(m->bytes));
  }
  void run(int steps) {
    for (int i = 0; i < steps; ++i) step();
  }
  // Runs until both streams are in (or a generous bound of steps).
  void finish() {
    for (int i = 0; i < 3000; ++i) {
      const bool client_done = !server_streams || static_cast<int>(got_client.size()) >= kMessages;
      const bool server_done = !client_streams || static_cast<int>(got_server.size()) >= kMessages;
      if (client_done && server_done) {
        run(20);  // and a little longer: nothing more may arrive
        return;
      }
      step();
    }
  }
};

// A packet as if from the server: encrypted with `key` (a guess), one fragment.
std::vector<std::uint8_t> forged_data(std::uint32_t sequence, std::uint32_t key, std::uint32_t fragment_sequence) {
  Packet p;
  p.header.sequence = sequence;
  p.header.flags = packet_flag::EncryptedChecksum;
  p.header.id = 0x000B;
  p.header.iteration = 1;
  p.fragments.push_back(Fragment{fragment_sequence, 0x80000000, 1, 0, 10, {0xEE, 0xEE, 0xEE, 0xEE}});
  return serialize_packet(p, key);
}

std::vector<std::uint8_t> forged_pure_ack(std::uint32_t sequence, std::uint32_t acked) {
  Packet p;
  p.header.sequence = sequence;
  p.header.id = 0x000B;
  p.header.iteration = 1;
  p.optional.ack_sequence = acked;
  return serialize_packet(p);
}

void check_stream(const std::vector<std::vector<std::uint8_t>>& got) {
  REQUIRE(got.size() == static_cast<std::size_t>(kMessages));
  CHECK(got == expected());
}

void check_bounded(const Transport& t) {
  const TransportConfig c;
  CHECK(t.held_count() <= c.max_held_packets);
  CHECK(t.unacked_count() <= c.max_unacked_packets);
  CHECK(t.partial_count() <= 256);
  CHECK(t.receive_key_count() <= c.receive_window + 256);
}

}  // namespace

TEST_CASE("Transport attack: bad encrypted checksums consume no key, the stream goes on", "[net][transport][attack]") {
  Pair pair;
  pair.run(10);
  REQUIRE(pair.got_client.size() >= 5);
  const std::uint32_t next = pair.client.highest_processed() + 1;
  for (std::uint32_t i = 0; i < 5; ++i)
    pair.client.receive(forged_data(next + i, 0xDEADBEEF + i * 7919, 900 + i), pair.now);
  CHECK(pair.client.stats().bad_checksums == 5);
  pair.finish();
  check_stream(pair.got_client);
  CHECK(pair.client.stats().bad_checksums == 5);
  check_bounded(pair.client);
}

TEST_CASE("Transport attack: a bad-checksum flood against every sequence of the window changes nothing",
          "[net][transport][attack]") {
  Pair pair;
  pair.run(5);
  const std::uint32_t base = pair.client.highest_processed();
  for (std::uint32_t s = 0; s < 3000; ++s)
    pair.client.receive(forged_data(base + 1 + s % 1500, s * 2654435761U, s), pair.now);
  pair.finish();
  check_stream(pair.got_client);
  CHECK(pair.client.stats().bad_checksums + pair.client.stats().out_of_window == 3000);
  check_bounded(pair.client);
}

TEST_CASE("Transport attack: pure acks with a huge sequence are dropped, no data is skipped",
          "[net][transport][attack]") {
  Pair pair;
  pair.run(10);
  for (int i = 0; i < 3; ++i)
    pair.client.receive(forged_pure_ack(0x7FFFFFF0U + static_cast<std::uint32_t>(i), 1), pair.now);
  CHECK(pair.client.stats().out_of_window == 3);
  pair.finish();
  check_stream(pair.got_client);
  CHECK(pair.server.stats().reject_packets_sent == 0);
  check_bounded(pair.client);
}

TEST_CASE("Transport attack: an acknowledgement of everything leaves the resend store whole",
          "[net][transport][attack]") {
  Pair pair;
  pair.server_streams = false;
  pair.client_streams = true;
  int data_packets = 0;
  bool dropped = false;
  pair.drop_c2s = [&](const std::vector<std::uint8_t>& d) {
    auto p = parse_packet(d);
    if (!p || p->fragments.empty() || (p->header.flags & packet_flag::Retransmission) != 0) return false;
    if (++data_packets == 10) {
      dropped = true;
      return true;
    }
    return false;
  };
  while (!dropped) pair.step();
  // A stranger acknowledges every sequence there could be, as if from the server.
  pair.client.receive(forged_pure_ack(pair.server.last_sent_sequence(), 0xFFFFFFFFU), pair.now);
  CHECK(pair.client.stats().acks_beyond_sent == 1);
  CHECK(pair.client.unacked_count() > 0);
  pair.finish();
  check_stream(pair.got_server);
  CHECK(pair.client.stats().retransmits_sent >= 1);
  check_bounded(pair.client);
}

TEST_CASE("Transport attack: a flood of RejectRetransmit lists neither skips data nor grows memory",
          "[net][transport][attack]") {
  Pair pair;
  pair.run(10);
  const std::uint32_t base = pair.client.highest_processed();
  for (std::uint32_t i = 0; i < 2400; ++i) {
    Packet p;
    p.header.sequence = base + 1;
    p.header.id = 0x000B;
    p.header.iteration = 1;
    std::vector<std::uint32_t> list;
    for (std::uint32_t k = 0; k < 100; ++k) list.push_back(base + 1 + (i * 100 + k) % 200000);
    p.optional.reject_retransmit = std::move(list);
    pair.client.receive(serialize_packet(p), pair.now);
  }
  check_bounded(pair.client);
  CHECK(pair.client.stats().rejects_ignored == 240000);
  pair.finish();
  check_stream(pair.got_client);
  check_bounded(pair.client);
}

TEST_CASE("Transport attack: only verified packets refresh the silence timer", "[net][transport][attack]") {
  Pair pair;
  pair.finish();
  check_stream(pair.got_client);
  // The server falls silent; a stranger keeps sending well-formed cleartext
  // packets with valid checksums: data, a TimeSync far ahead, a pure ack far off.
  pair.server_alive = false;
  const double silent_from = pair.now;
  const std::uint32_t base = pair.client.highest_processed();
  std::uint64_t forged_messages = 0;
  double timed_out_at = 0;
  for (int second = 1; second <= 70 && timed_out_at == 0; ++second) {
    Packet data;
    data.header.sequence = base + 1;
    data.header.id = 0x000B;
    data.fragments.push_back(Fragment{5000U + static_cast<std::uint32_t>(second), 0x80000000, 1, 0, 10, {1, 2, 3, 4}});
    Packet sync;
    sync.header.sequence = base + 100000;
    sync.optional.time_sync = 1.0;
    for (int i = 0; i < 50; ++i) {
      pair.now += 0.02;
      if (i == 0) {
        pair.client.receive(serialize_packet(data), pair.now);
        pair.client.receive(serialize_packet(sync), pair.now);
        pair.client.receive(forged_pure_ack(0x70000000U, 1), pair.now);
      }
      pair.client.tick(pair.now);
      (void)pair.client.take_outgoing();
      while (pair.client.poll_message()) ++forged_messages;
      if (pair.client.timed_out(pair.now)) {
        timed_out_at = pair.now;
        break;
      }
    }
  }
  CHECK(forged_messages == 0);
  REQUIRE(timed_out_at > 0);
  CHECK(timed_out_at - silent_from <= 60.5);
  CHECK(timed_out_at - silent_from >= 57.0);
  CHECK(pair.client.stats().unverified_content >= 55);
  CHECK(pair.client.stats().out_of_window >= 110);
}

TEST_CASE("Transport attack: a request for a sequence not yet sent is ignored, never rejected",
          "[net][transport][attack]") {
  Pair pair;
  pair.run(10);
  // As if from the client: resend 20 sequences the server has not sent yet.
  Packet nak;
  nak.header.sequence = pair.client.last_sent_sequence();
  nak.header.id = 7;
  nak.header.iteration = 1;
  std::vector<std::uint32_t> list;
  for (std::uint32_t s = 1; s <= 20; ++s) list.push_back(pair.server.last_sent_sequence() + s);
  nak.optional.request_retransmit = list;
  pair.server.receive(serialize_packet(nak), pair.now);
  CHECK(pair.server.stats().requests_unsent == 20);
  for (auto& d : pair.server.take_outgoing()) {
    auto p = parse_packet(d);
    REQUIRE(p.has_value());
    CHECK_FALSE(p->optional.reject_retransmit.has_value());
    pair.client.receive(d, pair.now);
  }
  pair.finish();
  check_stream(pair.got_client);
  check_bounded(pair.server);
}

TEST_CASE("Transport attack: retransmit requests are bounded per packet and in total", "[net][transport][attack]") {
  Pair pair;
  pair.server_streams = false;
  pair.client_streams = true;
  pair.run(kMessages);  // the client has sent everything; the server acked some of it
  const auto resent_before = pair.client.stats().retransmits_sent;
  // A flood of requests for every sequence the client sent, as if from the server.
  for (int i = 0; i < 1000; ++i) {
    Packet nak;
    nak.header.sequence = pair.server.last_sent_sequence();
    nak.header.id = 0x000B;
    std::vector<std::uint32_t> list;
    for (std::uint32_t s = 2; s <= 240; ++s) list.push_back(s);
    nak.optional.request_retransmit = list;
    pair.client.receive(serialize_packet(nak), pair.now);
  }
  const auto out = pair.client.take_outgoing();
  const auto resent = pair.client.stats().retransmits_sent - resent_before;
  CHECK(resent <= TransportConfig{}.max_resends_per_second);
  std::size_t rejects = 0;
  for (const auto& d : out) {
    auto p = parse_packet(d);
    REQUIRE(p.has_value());
    if (p->optional.reject_retransmit) ++rejects;
  }
  CHECK(rejects <= 1);
  CHECK(pair.client.stats().requests_throttled > 0);
  CHECK(out.size() <= TransportConfig{}.max_resends_per_second + 1);
}

TEST_CASE("Transport: a RejectRetransmit packet takes a sequence but no key, and the receiver follows",
          "[net][transport][attack]") {
  // ACE's answer to a request for a packet it no longer holds takes the next
  // sequence without an ISAAC key (spec/protocol.md 1.6, 2.6): the keys of
  // later packets are one sequence behind, and the receiver still verifies them.
  Pair pair;
  pair.stream_every = 10;
  pair.run(150);  // the client has acknowledged the first packets by now
  for (int round = 0; round < 3; ++round) {
    Packet nak;
    nak.header.sequence = pair.client.last_sent_sequence();
    nak.header.id = 7;
    nak.optional.request_retransmit = std::vector<std::uint32_t>{2};  // long acknowledged
    pair.server.receive(serialize_packet(nak), pair.now);
    pair.run(100);
  }
  CHECK(pair.server.stats().reject_packets_sent >= 1);
  pair.finish();
  check_stream(pair.got_client);
  CHECK(pair.client.stats().keyless_skipped >= 1);
  CHECK(pair.client.stats().bad_checksums == 0);
}

TEST_CASE("Transport attack: a message of more than 1,024 fragments is dropped whole and counted once",
          "[net][transport][attack]") {
  Pair pair;
  pair.server_streams = false;
  pair.server.send_message(std::vector<std::uint8_t>(1025 * kMaxFragmentData, 0x42), 10);
  pair.server.send_message(message(0), 10);
  pair.run(20);
  REQUIRE(pair.got_client.size() == 1);
  CHECK(pair.got_client[0] == message(0));
  CHECK(pair.client.stats().oversized_messages == 1);
  CHECK(pair.client.stats().fragments_dropped == 0);
}

TEST_CASE("Transport: the drop counters add up in dropped()", "[net][transport]") {
  TransportStats s;
  s.bad_packets = 1;
  s.out_of_window = 2;
  s.rejects_ignored = 4;
  s.foreign_datagrams = 8;
  CHECK(s.dropped() == 15);
}
