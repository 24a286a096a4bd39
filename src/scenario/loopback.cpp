#include "dereth/scenario/loopback.hpp"

#include <fmt/format.h>

namespace dereth::scenario {

namespace {
// The client's pretend address: 127.0.0.1:50000 for both directions.
constexpr Endpoint kClientEndpoint{0x7F000001u, 50000};
// Rounds of exchange within one advance() before giving up on quiet (a
// guard against a ping-pong bug; real exchanges settle in a few rounds).
constexpr int kMaxRounds = 64;
}  // namespace

struct Loopback::Parts {
  Parts(Scenario scenario, ServerConfig server_config, net::SessionConfig config)
      : server(std::move(scenario), std::move(server_config)), client(std::move(config)) {}
  ScenarioServer server;
  net::ClientSession client;
  bool started = false;
};

Result<Loopback> Loopback::create(Scenario scenario, LoopbackOptions options) {
  net::SessionConfig config;
  if (options.account.empty()) {
    if (scenario.accounts.empty()) {
      return std::unexpected(core::Error{core::ErrorKind::Invalid, scenario.name, "account", 0,
                                         "the scenario has no account to log in with"});
    }
    const ScenarioAccount& account = scenario.accounts.front();
    config.account = account.name;
    config.password = account.password;
  } else {
    config.account = options.account;
    config.password = options.password;
  }
  config.character = options.character;
  config.server_name = "the loopback scenario server";
  return Loopback(std::make_unique<Parts>(std::move(scenario), std::move(options.server), std::move(config)));
}

Loopback::Loopback(std::unique_ptr<Parts> parts) : parts_(std::move(parts)) {}
Loopback::Loopback(Loopback&&) noexcept = default;
Loopback& Loopback::operator=(Loopback&&) noexcept = default;
Loopback::~Loopback() = default;

std::vector<net::SessionMessage> Loopback::advance(double now) {
  Parts& p = *parts_;
  if (!p.started) {
    p.client.start(now);
    p.started = true;
  }
  p.client.tick(now);
  p.server.tick(now);
  for (int round = 0; round < kMaxRounds; ++round) {
    bool moved = false;
    for (auto& d : p.client.take_outgoing()) {
      ++datagrams_;
      p.server.receive(d.bytes, kClientEndpoint, d.port_offset, now);
      moved = true;
    }
    for (auto& d : p.server.take_outgoing()) {
      ++datagrams_;
      p.client.receive(d.bytes, static_cast<std::uint8_t>(d.local_port), now);
      moved = true;
    }
    if (!moved) break;
  }
  std::vector<net::SessionMessage> out;
  while (auto m = p.client.poll_message()) out.push_back(std::move(*m));
  return out;
}

bool Loopback::send(std::span<const std::uint8_t> message, std::uint16_t queue) {
  return parts_->client.send_message(message, queue);
}

std::uint32_t Loopback::next_action_sequence() noexcept {
  return parts_->client.next_action_sequence();
}

net::SessionState Loopback::state() const noexcept {
  return parts_->client.state();
}
const std::string& Loopback::failure() const noexcept {
  return parts_->client.failure();
}
std::uint32_t Loopback::player_guid() const noexcept {
  return parts_->client.player_guid();
}
const ScenarioServer& Loopback::server() const noexcept {
  return parts_->server;
}
std::optional<double> Loopback::last_time_sync() const noexcept {
  return parts_->client.transport().last_time_sync();
}

}  // namespace dereth::scenario
