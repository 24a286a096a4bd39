// libFuzzer target over the transport's state machine: the input is a script
// of steps between a client and a server Transport, some delivering the
// server's real datagrams (in order, late, twice or never), some delivering
// forged ones (raw bytes, or well-formed cleartext acks, retransmit requests
// and rejections with chosen sequences, or encrypted packets with a guessed
// key) to either side. Whatever the script: nothing crashes, what the client
// delivers is always an in-order prefix of what the server sent (nothing
// skipped, duplicated, reordered or forged), the transports' holdings stay
// bounded, and once the script ends a clean link delivers every message.
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <span>
#include <vector>

#include "dereth/net/transport.hpp"

namespace {

using namespace dereth::net;

struct Script {
  std::span<const std::uint8_t> bytes;
  std::size_t at = 0;
  bool done() const { return at >= bytes.size(); }
  std::uint8_t u8() { return done() ? 0 : bytes[at++]; }
  std::uint32_t u32() {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= static_cast<std::uint32_t>(u8()) << (8 * i);
    return v;
  }
};

std::vector<std::uint8_t> message(std::uint32_t n) {
  std::vector<std::uint8_t> m(8 + (n * 131) % 1400);
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<std::uint8_t>(n * 7 + i);
  m[0] = static_cast<std::uint8_t>(n);
  m[1] = static_cast<std::uint8_t>(n >> 8);
  return m;
}

void check_bounded(const Transport& t) {
  const TransportConfig c;
  if (t.held_count() > c.max_held_packets || t.unacked_count() > c.max_unacked_packets || t.partial_count() > 256 ||
      t.receive_key_count() > c.receive_window + 256) {
    std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Script s{std::span<const std::uint8_t>(data, size)};
  Transport client(Role::Client), server(Role::Server);
  double now = 10.0;
  client.start(0x11111111, 0x22222222, 7, 1, now);
  server.start(0x22222222, 0x11111111, 0x000B, 1, now);
  std::deque<std::vector<std::uint8_t>> s2c, c2s;  // in flight
  std::uint32_t sent = 0, delivered = 0;
  auto drain = [&] {
    while (auto m = client.poll_message()) {
      if (m->bytes != message(delivered)) std::abort();  // skipped, duplicated, reordered or forged
      ++delivered;
    }
    while (server.poll_message()) {
    }
  };
  // A forged pure ack within what was sent cannot be told from the peer's own
  // (retail sends acks in cleartext): it may empty the resend store, so the
  // final liveness check does not apply after one (docs/net.md).
  bool plausible_ack_forged = false;
  auto forged_cleartext = [&](std::uint8_t kind, const Transport& target) {
    Packet p;
    p.header.sequence = (kind & 0x80) ? s.u32() : server.last_sent_sequence() + (s.u8() % 8);
    p.header.id = 0x000B;
    const std::uint32_t value = (kind & 0x40) ? s.u32() : client.last_sent_sequence() + s.u8() % 4;
    switch (kind % 4) {
      case 0:
        p.optional.ack_sequence = value;
        if (value <= target.last_sent_sequence()) plausible_ack_forged = true;
        break;
      case 1: p.optional.request_retransmit = std::vector<std::uint32_t>{value, value + 1}; break;
      case 2: p.optional.reject_retransmit = std::vector<std::uint32_t>{client.highest_processed() + 1, value}; break;
      default: p.optional.time_sync = 1.0; break;
    }
    return serialize_packet(p);
  };
  for (int steps = 0; steps < 2000 && !s.done(); ++steps) {
    const std::uint8_t op = s.u8();
    switch (op % 10) {
      case 0:
        if (sent < 400) server.send_message(message(sent++), 10);
        break;
      case 1:
      case 2:  // deliver the oldest server datagram
        if (!s2c.empty()) {
          client.receive(s2c.front(), now);
          s2c.pop_front();
        }
        break;
      case 3:  // lose it, or deliver it twice, or late
        if (!s2c.empty()) {
          if (op & 0x10) client.receive(s2c.front(), now);
          if (op & 0x20) s2c.push_back(s2c.front());
          s2c.pop_front();
        }
        break;
      case 4: {  // raw forged bytes to the client
        std::vector<std::uint8_t> raw(s.u8() % 64 + 20);
        for (auto& b : raw) b = s.u8();
        client.receive(raw, now);
        break;
      }
      case 5:  // a well-formed forged cleartext packet to the client
        client.receive(forged_cleartext(s.u8(), client), now);
        break;
      case 6:  // ... or to the server
        server.receive(forged_cleartext(s.u8(), server), now);
        break;
      case 7: {  // an encrypted packet with a guessed key
        Packet p;
        p.header.sequence = client.highest_processed() + 1 + s.u8() % 16;
        p.header.flags = packet_flag::EncryptedChecksum;
        p.fragments.push_back(Fragment{s.u32() % 64, 0x80000000, 1, 0, 10, {0xEE, 0xEE}});
        client.receive(serialize_packet(p, s.u32()), now);
        break;
      }
      case 8:  // the client's datagrams reach the server (or are lost)
        while (!c2s.empty()) {
          if ((op & 0x10) == 0) server.receive(c2s.front(), now);
          c2s.pop_front();
        }
        break;
      default: now += 0.01 * (1 + s.u8() % 50); break;
    }
    client.tick(now);
    server.tick(now);
    for (auto& d : server.take_outgoing()) {
      if (s2c.size() < 4096) s2c.push_back(std::move(d));
    }
    for (auto& d : client.take_outgoing()) {
      if (c2s.size() < 4096) c2s.push_back(std::move(d));
    }
    drain();
    check_bounded(client);
    check_bounded(server);
  }
  if (plausible_ack_forged || client.peer_disconnected() || server.peer_disconnected() || client.timed_out(now) ||
      server.timed_out(now)) {
    return 0;
  }
  // A clean link from here on: everything the server sent arrives.
  for (int i = 0; i < 3000 && delivered < sent; ++i) {
    now += 0.02;
    client.tick(now);
    server.tick(now);
    while (!s2c.empty()) {
      client.receive(s2c.front(), now);
      s2c.pop_front();
    }
    while (!c2s.empty()) {
      server.receive(c2s.front(), now);
      c2s.pop_front();
    }
    for (auto& d : server.take_outgoing()) s2c.push_back(std::move(d));
    for (auto& d : client.take_outgoing()) c2s.push_back(std::move(d));
    drain();
  }
  if (delivered != sent && !client.timed_out(now)) std::abort();
  return 0;
}
