#include "dereth/net/transport.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "dereth/core/rng.hpp"

using namespace dereth::net;

namespace {

// A one-way link that loses, duplicates, reorders and delays datagrams,
// driven by a seeded generator so every run is the same.
struct LossyLink {
  dereth::core::Rng rng;
  double loss = 0, duplicate = 0, max_delay = 0;
  std::multimap<double, std::vector<std::uint8_t>> in_flight;
  std::uint64_t dropped = 0;

  LossyLink(std::uint32_t seed, double l, double d, double delay)
      : rng(seed), loss(l), duplicate(d), max_delay(delay) {}

  void send(std::vector<std::uint8_t> datagram, double now) {
    if (rng.unit() < loss) {
      ++dropped;
      return;
    }
    const int copies = rng.unit() < duplicate ? 2 : 1;
    for (int i = 0; i < copies; ++i) {
      in_flight.emplace(now + 0.01 + static_cast<double>(rng.uniform(0.0F, static_cast<float>(max_delay))), datagram);
    }
  }
  void deliver(Transport& to, double now) {
    while (!in_flight.empty() && in_flight.begin()->first <= now) {
      to.receive(in_flight.begin()->second, now);
      in_flight.erase(in_flight.begin());
    }
  }
};

std::vector<std::uint8_t> make_message(std::uint32_t n, std::size_t size) {
  std::vector<std::uint8_t> m(std::max<std::size_t>(size, 8));
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<std::uint8_t>((n * 31 + i) & 0xFF);
  m[0] = static_cast<std::uint8_t>(n & 0xFF);
  m[1] = static_cast<std::uint8_t>((n >> 8) & 0xFF);
  return m;
}

struct Run {
  std::vector<std::vector<std::uint8_t>> to_client, to_server;
  TransportStats client, server;
  double seconds = 0;  // simulated time until both streams were in
};

Run run(double loss, double duplicate, double delay, std::uint32_t seed, int messages) {
  Transport client(Role::Client), server(Role::Server);
  const double t0 = 1000.0;
  client.start(0x11111111, 0x22222222, 7, 1, t0);
  server.start(0x22222222, 0x11111111, 0x000B, 1, t0);
  LossyLink c2s(seed, loss, duplicate, delay), s2c(seed + 1, loss, duplicate, delay);
  Run r;
  double now = t0;
  int sent = 0;
  for (int step = 0; step < 20000; ++step) {
    now += 0.02;
    if (sent < messages) {
      // Sizes from 8 bytes to three fragments.
      const std::size_t size = 8 + static_cast<std::size_t>(sent * 97) % 1200;
      server.send_message(make_message(static_cast<std::uint32_t>(sent), size), 10);
      client.send_message(make_message(static_cast<std::uint32_t>(sent), size / 2), 3);
      ++sent;
    }
    client.tick(now);
    server.tick(now);
    for (auto& d : client.take_outgoing()) c2s.send(std::move(d), now);
    for (auto& d : server.take_outgoing()) s2c.send(std::move(d), now);
    c2s.deliver(server, now);
    s2c.deliver(client, now);
    while (auto m = client.poll_message()) r.to_client.push_back(std::move(m->bytes));
    while (auto m = server.poll_message()) r.to_server.push_back(std::move(m->bytes));
    if (sent == messages && static_cast<int>(r.to_client.size()) == messages &&
        static_cast<int>(r.to_server.size()) == messages) {
      break;
    }
  }
  r.client = client.stats();
  r.server = server.stats();
  r.seconds = now - t0;
  return r;
}

void check_exactly_once_in_order(const Run& r, int messages) {
  REQUIRE(static_cast<int>(r.to_client.size()) == messages);
  REQUIRE(static_cast<int>(r.to_server.size()) == messages);
  for (int i = 0; i < messages; ++i) {
    const std::size_t size = 8 + static_cast<std::size_t>(i * 97) % 1200;
    CHECK(r.to_client[static_cast<std::size_t>(i)] == make_message(static_cast<std::uint32_t>(i), size));
    CHECK(r.to_server[static_cast<std::size_t>(i)] == make_message(static_cast<std::uint32_t>(i), size / 2));
  }
}

}  // namespace

TEST_CASE("Transport: a clean link delivers every message once, in order", "[net][transport]") {
  const auto r = run(0, 0, 0, 1, 300);
  check_exactly_once_in_order(r, 300);
  CHECK(r.client.bad_checksums == 0);
  CHECK(r.server.bad_checksums == 0);
  CHECK(r.client.naks_sent == 0);
}

TEST_CASE("Transport: 20% loss, duplication and reordering still deliver exactly once, in order", "[net][transport]") {
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    INFO("seed " << seed);
    const auto r = run(0.2, 0.2, 0.15, seed, 300);
    check_exactly_once_in_order(r, 300);
    CHECK(r.client.naks_sent > 0);
    CHECK(r.server.retransmits_sent > 0);
    CHECK(r.client.duplicates + r.server.duplicates > 0);
    CHECK(r.client.bad_checksums == 0);
  }
}

TEST_CASE("Transport: 35% and 50% loss with duplication and reordering deliver exactly once, in order, in bounded time",
          "[net][transport]") {
  // The bound scales with the loss: about 1 / (1 - loss)^2 tries per exchange.
  for (const auto& [loss, bound] : {std::pair{0.35, 60.0}, std::pair{0.5, 120.0}}) {
    for (std::uint32_t seed : {4u, 5u}) {
      INFO("loss " << loss << " seed " << seed);
      const auto r = run(loss, 0.2, 0.15, seed, 300);
      check_exactly_once_in_order(r, 300);
      CHECK(r.seconds < bound);
      CHECK(r.client.bad_checksums == 0);
      CHECK(r.server.bad_checksums == 0);
    }
  }
}

TEST_CASE("Transport: hostile datagrams are dropped and counted, memory stays bounded", "[net][transport][malformed]") {
  Transport t(Role::Client);
  t.start(1, 2, 7, 1, 0.0);
  std::vector<std::uint8_t> junk(30, 0xAB);
  t.receive(junk, 0.1);
  CHECK(t.stats().bad_packets == 1);
  // A well-formed packet with a wrong cleartext checksum.
  Packet p;
  p.header.sequence = 2;
  p.fragments.push_back(Fragment{1, 0x80000000, 1, 0, 10, {1, 2, 3, 4}});
  auto bytes = serialize_packet(p);
  bytes[8] ^= 0xFF;
  t.receive(bytes, 0.2);
  CHECK(t.stats().bad_checksums == 1);
  // A flood of far-future packets, each with its sequence's own key: those
  // within the receive window are held (at most max_held_packets), the rest
  // are out of the window.
  AcIsaac keys(2);
  std::vector<std::uint32_t> key_for(3000);
  for (std::uint32_t s = 2; s < 3000; ++s) key_for[s] = keys.next();
  for (std::uint32_t s = 100; s < 3000; ++s) {
    Packet f;
    f.header.sequence = s;
    f.header.flags = packet_flag::EncryptedChecksum;
    f.fragments.push_back(Fragment{s, 0x80000000, 1, 0, 10, {5, 6, 7, 8}});
    t.receive(serialize_packet(f, key_for[s]), 0.3);
  }
  const std::uint32_t in_window = 1 + 1024 - 100 + 1;
  CHECK(t.held_count() == 512);
  CHECK(t.stats().held_overflow == in_window - 512);
  CHECK(t.stats().out_of_window == 3000 - 100 - in_window);
  CHECK_FALSE(t.poll_message().has_value());
}

TEST_CASE("Transport: silence ends the connection after 60 s", "[net][transport]") {
  Transport t(Role::Client);
  t.start(1, 2, 7, 1, 10.0);
  CHECK_FALSE(t.timed_out(69.0));
  CHECK(t.timed_out(70.5));
}

TEST_CASE("Transport: disconnect sends flag 0x8000 and the peer notices", "[net][transport]") {
  Transport a(Role::Client), b(Role::Server);
  a.start(5, 6, 7, 1, 0.0);
  b.start(6, 5, 11, 1, 0.0);
  a.disconnect(1.0);
  auto out = a.take_outgoing();
  REQUIRE(out.size() == 1);
  auto p = parse_packet(out[0]);
  REQUIRE(p.has_value());
  CHECK((p->header.flags & packet_flag::Disconnect) != 0);
  b.receive(out[0], 1.0);
  CHECK(b.peer_disconnected());
}

TEST_CASE("Transport: the client sends EchoRequest in seconds since start and the server answers", "[net][transport]") {
  Transport client(Role::Client), server(Role::Server);
  client.start(3, 4, 7, 1, 50.0);
  server.start(4, 3, 11, 1, 50.0);
  std::vector<float> requests;
  for (double now = 50.0; now < 57.0; now += 0.05) {
    client.tick(now);
    for (auto& d : client.take_outgoing()) {
      auto p = parse_packet(d);
      REQUIRE(p.has_value());
      if (p->optional.echo_request) requests.push_back(*p->optional.echo_request);
      server.receive(d, now + 0.01);
    }
    server.tick(now + 0.02);
    for (auto& d : server.take_outgoing()) client.receive(d, now + 0.03);
  }
  REQUIRE(requests.size() >= 3);
  CHECK(requests[0] == Approx(0.0).margin(0.06));
  for (std::size_t i = 1; i < requests.size(); ++i) CHECK(requests[i] - requests[i - 1] == Approx(2.0).margin(0.06));
  REQUIRE(client.echo_round_trip().has_value());
  CHECK(*client.echo_round_trip() == Approx(0.03).margin(0.02));
}
