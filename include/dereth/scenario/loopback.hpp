#pragma once
// An in-process pairing of the scenario server and dereth's own client
// session over the real protocol (packets, checksums, fragments, acks), with
// no sockets and a virtual clock. Headless runs (dereth-sim, dereth demo
// --headless, tests) use it so that a scenario plays the same, byte for byte,
// every time and as fast as the CPU allows.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dereth/net/session.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/scenario_server.hpp"

namespace dereth::scenario {

struct LoopbackOptions {
  // The account and character to log in with; empty: the scenario's first
  // account (with its password) and that account's first character.
  std::string account;
  std::string password;
  std::optional<std::string> character;
  // The server's settings (its portal tables among them).
  ServerConfig server;
};

class Loopback {
 public:
  // Fails when the scenario has no account to log in with.
  static Result<Loopback> create(Scenario scenario, LoopbackOptions options = {});
  Loopback(Loopback&&) noexcept;
  Loopback& operator=(Loopback&&) noexcept;
  ~Loopback();

  // Runs both sides' timers up to `now` (seconds on the shared virtual
  // clock, never decreasing) and exchanges datagrams until neither side has
  // more to say. Returns the game messages the client received, in order.
  std::vector<net::SessionMessage> advance(double now);
  // Queues a client game message (an outbound MoveToState, say).
  bool send(std::span<const std::uint8_t> message, std::uint16_t queue);
  // The client session's next F7B1 game-action sequence.
  std::uint32_t next_action_sequence() noexcept;

  [[nodiscard]] net::SessionState state() const noexcept;
  [[nodiscard]] const std::string& failure() const noexcept;
  [[nodiscard]] std::uint32_t player_guid() const noexcept;
  [[nodiscard]] const ScenarioServer& server() const noexcept;
  [[nodiscard]] std::uint64_t datagrams() const noexcept { return datagrams_; }
  // The server time of the last TimeSync header the client received.
  [[nodiscard]] std::optional<double> last_time_sync() const noexcept;

 private:
  struct Parts;
  explicit Loopback(std::unique_ptr<Parts> parts);
  std::unique_ptr<Parts> parts_;
  std::uint64_t datagrams_ = 0;
};

}  // namespace dereth::scenario
