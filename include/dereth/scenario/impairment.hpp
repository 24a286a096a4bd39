#pragma once
// A seeded impaired link: datagrams go in with the time they were sent and
// come out when they are due, some lost, some twice, some held back so that
// later ones overtake them. The same seed, configuration and call sequence
// give the same deliveries, so an in-memory test is reproducible.

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "dereth/core/rng.hpp"
#include "dereth/scenario/scenario.hpp"

namespace dereth::scenario {

// An IPv4 endpoint; the address in host order (127.0.0.1 is 0x7F000001).
struct Endpoint {
  std::uint32_t address = 0;
  std::uint16_t port = 0;
  auto operator<=>(const Endpoint&) const = default;
};

// "127.0.0.1:9000"
[[nodiscard]] std::string to_string(const Endpoint& e);

// One datagram at the server's edge. `peer` is the destination of an
// outgoing datagram and the source of an incoming one; `local_port` says
// which server socket sends or received it: 0 = port N, 1 = port N+1.
struct Datagram {
  Endpoint peer;
  int local_port = 0;
  std::vector<std::uint8_t> bytes;
};

struct LinkStats {
  std::uint64_t passed = 0;  // datagrams pushed and not lost
  std::uint64_t lost = 0;
  std::uint64_t duplicated = 0;  // extra copies made
  std::uint64_t held_back = 0;   // datagrams (copies) delayed to reorder them
};

class ImpairedLink {
 public:
  explicit ImpairedLink(const Impairment& config);

  // Sends one datagram at `now` (seconds).
  void push(Datagram d, double now);
  // The datagrams due by `now`, in due order (send order among equals).
  std::vector<Datagram> pop_ready(double now);
  [[nodiscard]] bool empty() const noexcept { return in_flight_.empty(); }
  [[nodiscard]] const LinkStats& stats() const noexcept { return stats_; }

 private:
  Impairment config_;
  core::Rng rng_;
  std::uint64_t order_ = 0;
  std::map<std::pair<double, std::uint64_t>, Datagram> in_flight_;
  LinkStats stats_;
};

}  // namespace dereth::scenario
