// dereth's client (UdpClient) against the scenario server over loopback UDP
// while datagrams forged as the server's (sent from the server's own ports
// N and N+1) reach the client's port: every scripted message still arrives
// exactly once and in order, and the counter for the drop moves.
//
// Against the transport before the hardening (src/net and include/dereth/net
// of cd636fb's parent, these tests with the checks of counters that did not
// exist yet removed; 2026-12-01): "bad encrypted checksums" and "a flood of
// RejectRetransmit lists" fail (the client stays in the world but the
// scripted messages never arrive: 14 failed assertions each, at the 60 s
// deadline); "pure acks with a huge sequence", "acknowledge everything",
// "cleartext data" and "garbage while connecting" still deliver every
// message, so against the old code only their counter checks (which could
// not compile there) tell them apart. The same way (cd636fb's changes to
// src/net and include/dereth/net reverted on this tree; 2026-12-01): "a
// request for a sequence the client has not sent yet" fails there, the
// client answering with a RejectRetransmit of all 20 sequences (the old
// server's rejected_retransmits, its count of rejected sequences taken, is
// 20, where this test checks rejects_ignored);
// "cleartext packets after the server falls silent" fails there, the client
// still in the world 10 s after the server fell silent (a 4 s timeout).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>

#include "dereth/net/udp_client.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

#include "support/login_complete_stand_in.hpp"

using namespace dereth;

namespace {

scenario::Scenario basic() {
  auto s =
      scenario::load_scenario_file(std::filesystem::path(DERETH_SOURCE_DIR) / "tests/scenario/data/basic.scenario");
  if (!s) FAIL(s.error().message());
  return *s;
}

bool in_order(const std::vector<std::vector<std::uint8_t>>& got, const std::vector<std::vector<std::uint8_t>>& wanted) {
  std::size_t i = 0;
  for (const auto& m : got) {
    if (i < wanted.size() && m == wanted[i]) ++i;
  }
  return i == wanted.size();
}

// What an attack sees each round: the server (to send from its ports), the
// client's endpoint as the server saw it, and the server's view of the session.
struct Attack {
  scenario::UdpScenarioServer& server;
  scenario::Endpoint client;
  scenario::SessionInfo session;
  int round = 0;
  net::TransportStats client_transport;  // the client's own counters this round
};

// What a run ends with: the client's counters and the server's for the session.
struct Outcome {
  net::TransportStats client;
  net::TransportStats server;
};

// The server's next sequence, near enough: every packet it sent took at most one.
std::uint32_t near_sequence(const scenario::SessionInfo& s) {
  return static_cast<std::uint32_t>(s.transport.packets_sent + 1);
}

std::unique_ptr<net::UdpClient> connect(const scenario::UdpScenarioServer& server, double silence_timeout = 60.0) {
  net::UdpClientOptions o;
  o.host = "127.0.0.1";
  o.port = server.port();
  o.session.account = "tester";
  o.session.password = "secret";
  o.session.server_name = "the scenario server";
  o.session.transport.nak_delay = 0.05;
  o.session.transport.nak_repeat = 0.1;
  o.session.transport.silence_timeout = silence_timeout;
  o.session.login_timeout = 60.0;
  auto client = net::UdpClient::connect(o);
  REQUIRE(client.has_value());
  return std::move(*client);
}

// Nothing forged reached the client as a message.
void check_nothing_forged(const std::vector<std::vector<std::uint8_t>>& received) {
  for (const auto& m : received) CHECK(std::count(m.begin(), m.end(), std::uint8_t{0xEE}) < 4);
}

// Plays the scenario to its end under `attack` (called every round once the
// server has a session): every scripted message arrives exactly once and in
// order, and the client entered the world twice (login and teleport).
void play(scenario::UdpScenarioServer& server, net::UdpClient& client, const std::function<void(Attack&)>& attack,
          std::vector<std::vector<std::uint8_t>>& received) {
  std::vector<std::vector<std::uint8_t>> scripted;
  int round = 0;
  dereth::test::LoginCompleteStandIn stand_in;  // the World's portal-space animation is not run here
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    for (auto& m : client.drain_messages()) {
      if (stand_in.on_message(m.bytes)) {
        client.send_message(dereth::test::LoginCompleteStandIn::login_complete(client.next_action_sequence()),
                            protocol::queue::Weenie);
      }
      received.push_back(std::move(m.bytes));
    }
    const auto status = client.status();
    if (status.state == net::SessionState::Failed) break;
    const auto sessions = server.sessions();
    if (!sessions.empty()) {
      Attack a{server, sessions.back().c2s, sessions.back(), round++, status.transport};
      attack(a);
    }
    scripted.clear();
    for (const auto& s : server.sent_messages()) {
      if (s.script_line > 0) scripted.push_back(s.bytes);
    }
    int completes = 0;
    for (const auto& c : server.client_messages()) {
      if (protocol::peek_wrapped_type(c.bytes) == protocol::login_opcode::LoginCompleteAction) ++completes;
    }
    if (scripted.size() >= 14 && in_order(received, scripted) && completes >= 2) break;
    // Polling a real-time server: the loop's pace, not a synchronisation.
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const auto status = client.status();
  INFO("client state: " << net::to_string(status.state) << " " << status.failure);
  REQUIRE(status.state == net::SessionState::InWorld);
  REQUIRE(scripted.size() == 14);
  CHECK(in_order(received, scripted));
  for (const auto& m : scripted) CHECK(std::count(received.begin(), received.end(), m) == 1);
  check_nothing_forged(received);
}

Outcome run(scenario::Scenario sc, const std::function<void(Attack&)>& attack) {
  scenario::UdpScenarioServer server(std::move(sc));
  REQUIRE(server.start().has_value());
  auto client = connect(server);
  std::vector<std::vector<std::uint8_t>> received;
  play(server, *client, attack, received);
  const auto sessions = server.sessions();
  REQUIRE_FALSE(sessions.empty());
  Outcome out{client->status().transport, sessions.back().transport};
  client->logout();
  return out;
}

std::vector<std::uint8_t> encrypted(std::uint32_t sequence, std::uint32_t key) {
  net::Packet p;
  p.header.sequence = sequence;
  p.header.flags = net::packet_flag::EncryptedChecksum;
  p.header.id = 0x000B;
  p.header.iteration = 1;
  p.fragments.push_back(net::Fragment{9000 + sequence, 0x80000000, 1, 0, 10, {0xEE, 0xEE, 0xEE, 0xEE, 0xEE}});
  return net::serialize_packet(p, key);
}

std::vector<std::uint8_t> pure_ack(std::uint32_t sequence, std::uint32_t acked) {
  net::Packet p;
  p.header.sequence = sequence;
  p.header.id = 0x000B;
  p.header.iteration = 1;
  p.optional.ack_sequence = acked;
  return net::serialize_packet(p);
}

bool in_world(const Attack& a) {
  return a.session.state == scenario::SessionState::InWorld;
}

}  // namespace

TEST_CASE("UDP attack: bad encrypted checksums from the server's port", "[scenario][e2e][attack]") {
  bool sent = false;
  const auto st = run(basic(), [&](Attack& a) {
    if (sent || !in_world(a)) return;
    sent = true;
    for (std::uint32_t i = 0; i < 5; ++i)
      a.server.send_raw(1, a.client, encrypted(near_sequence(a.session) + 20 + i, 0xBAD0 + i));
  });
  CHECK(st.client.bad_checksums >= 5);
}

TEST_CASE("UDP attack: pure acks with a huge sequence", "[scenario][e2e][attack]") {
  bool sent = false;
  const auto st = run(basic(), [&](Attack& a) {
    if (sent || !in_world(a)) return;
    sent = true;
    for (std::uint32_t i = 0; i < 3; ++i) a.server.send_raw(1, a.client, pure_ack(0x7FFFFFF0U + i, 1));
  });
  CHECK(st.client.out_of_window >= 3);
}

TEST_CASE("UDP attack: acknowledge everything, over a lossy link", "[scenario][e2e][attack]") {
  auto sc = basic();
  sc.impairment.seed = 7;
  sc.impairment.loss = 0.2;
  sc.impairment.inbound = true;
  const auto st = run(std::move(sc), [&](Attack& a) {
    if (a.round % 5 == 0) a.server.send_raw(1, a.client, pure_ack(near_sequence(a.session), 0xFFFFFFFFU));
  });
  CHECK(st.client.acks_beyond_sent > 0);
}

TEST_CASE("UDP attack: a flood of RejectRetransmit lists", "[scenario][e2e][attack]") {
  int batches = 0;
  const auto st = run(basic(), [&](Attack& a) {
    if (batches >= 24 || !in_world(a)) return;
    ++batches;
    for (std::uint32_t i = 0; i < 100; ++i) {
      net::Packet p;
      p.header.sequence = near_sequence(a.session);
      p.header.id = 0x000B;
      std::vector<std::uint32_t> list;
      for (std::uint32_t k = 0; k < 100; ++k) list.push_back(near_sequence(a.session) + k);
      p.optional.reject_retransmit = std::move(list);
      a.server.send_raw(1, a.client, net::serialize_packet(p));
    }
  });
  CHECK(st.client.rejects_ignored > 0);
  CHECK(st.client.held_overflow == 0);
}

TEST_CASE("UDP attack: cleartext data with valid checksums never becomes a message", "[scenario][e2e][attack]") {
  const auto st = run(basic(), [&](Attack& a) {
    if (!in_world(a)) return;
    net::Packet p;
    p.header.sequence = near_sequence(a.session);
    p.header.id = 0x000B;
    // Two halves of one "message" under different blob ids, and one of 2,000 fragments.
    p.fragments.push_back(net::Fragment{9999, 0x80000000, 2, 0, 10, {0xEE, 0xEE, 0xEE, 0xEE}});
    p.fragments.push_back(net::Fragment{9999, 0x80000001, 2, 1, 10, {0xEE, 0xEE, 0xEE, 0xEE}});
    p.fragments.push_back(net::Fragment{9998, 0x80000000, 2000, 0, 10, {0xEE, 0xEE, 0xEE, 0xEE}});
    a.server.send_raw(a.round % 2, a.client, net::serialize_packet(p));
  });
  CHECK(st.client.unverified_content > 0);
}

TEST_CASE("UDP attack: garbage from ports N and N+1 while connecting", "[scenario][e2e][attack]") {
  auto sc = basic();
  sc.connect_race_ms = 400;  // holds the handshake open long enough to be attacked
  const auto st = run(std::move(sc), [&](Attack& a) {
    if (a.session.state != scenario::SessionState::AwaitingConnectResponse) return;
    a.server.send_raw(1, a.client, std::vector<std::uint8_t>(40, 0x5A));
    a.server.send_raw(0, a.client, std::vector<std::uint8_t>(40, 0x5A));
  });
  CHECK(st.client.handshake_dropped > 0);
}

TEST_CASE("UDP attack: a request for a sequence the client has not sent yet is ignored, never rejected",
          "[scenario][e2e][attack]") {
  bool sent = false;
  const auto st = run(basic(), [&](Attack& a) {
    if (sent || !in_world(a)) return;
    sent = true;
    // The client's highest sequence is at most its packets sent + 1; ask for
    // 20 sequences from 10 beyond that, as if the server had lost them.
    const auto first = static_cast<std::uint32_t>(a.client_transport.packets_sent) + 10;
    net::Packet p;
    p.header.sequence = near_sequence(a.session);
    p.header.id = 0x000B;
    p.header.iteration = 1;
    std::vector<std::uint32_t> list;
    for (std::uint32_t k = 0; k < 20; ++k) list.push_back(first + k);
    p.optional.request_retransmit = std::move(list);
    a.server.send_raw(1, a.client, net::serialize_packet(p));
  });
  CHECK(st.client.requests_unsent == 20);
  CHECK(st.client.reject_packets_sent == 0);
  // No RejectRetransmit reached the server either.
  CHECK(st.server.rejects_ignored == 0);
}

TEST_CASE("UDP attack: cleartext packets after the server falls silent do not keep the session alive",
          "[scenario][e2e][attack]") {
  // A short silence timeout (the retail 60 s is TransportConfig's default).
  constexpr double kSilence = 4.0;
  scenario::UdpScenarioServer server(basic());
  REQUIRE(server.start().has_value());
  auto client = connect(server, kSilence);
  std::vector<std::vector<std::uint8_t>> received;
  play(
      server, *client, [](Attack&) {}, received);
  const auto sessions = server.sessions();
  REQUIRE_FALSE(sessions.empty());
  const auto session = sessions.back();
  // The server falls silent (its ports stay open); a stranger sends, from
  // both of its ports, well-formed cleartext packets with valid checksums:
  // data, a TimeSync far ahead of the session, a pure ack far off.
  server.mute(true);
  const auto silent_from = std::chrono::steady_clock::now();
  const std::uint32_t near = near_sequence(session);
  int rounds = 0;
  while (client->status().state == net::SessionState::InWorld &&
         std::chrono::steady_clock::now() - silent_from < std::chrono::duration<double>(kSilence + 6.0)) {
    net::Packet data;
    data.header.sequence = near;
    data.header.id = 0x000B;
    data.header.iteration = 1;
    data.fragments.push_back(net::Fragment{
        7000U + static_cast<std::uint32_t>(rounds), 0x80000000, 1, 0, 10, {0xEE, 0xEE, 0xEE, 0xEE, 0xEE}});
    net::Packet sync;
    sync.header.sequence = near + 100000;
    sync.header.id = 0x000B;
    sync.header.iteration = 1;
    sync.optional.time_sync = 1.0;
    const int from = rounds % 2;
    server.send_raw(from, session.c2s, net::serialize_packet(data));
    server.send_raw(from, session.c2s, net::serialize_packet(sync));
    server.send_raw(from, session.c2s, pure_ack(0x70000000U, 1));
    ++rounds;
    for (auto& m : client->drain_messages()) received.push_back(std::move(m.bytes));
    // Polling a real-time client: the forger's pace, not a synchronisation.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const double silent_for = std::chrono::duration<double>(std::chrono::steady_clock::now() - silent_from).count();
  for (auto& m : client->drain_messages()) received.push_back(std::move(m.bytes));
  const auto status = client->status();
  INFO("client state: " << net::to_string(status.state) << " " << status.failure << " after " << silent_for << " s");
  REQUIRE(status.state == net::SessionState::Failed);
  CHECK(status.failure.find("no packet from the scenario server for 4 s") != std::string::npos);
  // The last verified packet (an ack or EchoResponse, each every 2 s) came
  // up to 2 s before the server fell silent.
  CHECK(silent_for >= kSilence - 2.5);
  CHECK(silent_for <= kSilence + 1.5);
  check_nothing_forged(received);
  // Every round's forgeries but the last one's or two were read before the end.
  const auto counted = static_cast<std::uint64_t>(std::max(0, rounds - 2));
  CHECK(status.transport.unverified_content >= counted);
  CHECK(status.transport.out_of_window >= 2 * counted);
}
