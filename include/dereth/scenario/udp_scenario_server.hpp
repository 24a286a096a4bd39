#pragma once
// The scenario server on real loopback UDP: two Asio sockets bound to
// 127.0.0.1 ports N and N+1, driving a ScenarioServer on a thread of its own
// with a periodic timer. Loopback only: it never binds another address.

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "dereth/core/error.hpp"
#include "dereth/scenario/scenario_server.hpp"

namespace dereth::scenario {

struct UdpServerOptions {
  std::uint16_t port = 0;        // N; 0 picks a free pair N, N+1 in 20000-59999
  double tick_interval = 0.010;  // seconds between timer ticks of the core
  // Send every datagram from port N, as GDLE does (ACE sends from N+1 after
  // the ConnectRequest); the client must take the session from either port.
  bool single_port = false;
  ServerConfig server;
};

class UdpScenarioServer {
 public:
  explicit UdpScenarioServer(Scenario scenario, UdpServerOptions options = {});
  ~UdpScenarioServer();  // stops and joins
  UdpScenarioServer(const UdpScenarioServer&) = delete;
  UdpScenarioServer& operator=(const UdpScenarioServer&) = delete;

  // Binds both ports and starts the thread. An error when the ports cannot be
  // bound (for port 0: no free pair after many tries) or when already started.
  core::Result<void> start();
  // Closes the sockets, stops the timer and joins the thread; idempotent.
  void stop();
  [[nodiscard]] bool running() const noexcept;

  // N (N+1 is the ConnectResponse port); 0 before start().
  [[nodiscard]] std::uint16_t port() const noexcept;

  // Copies of what the core recorded, taken under its lock (any thread).
  [[nodiscard]] std::vector<ClientMessage> client_messages() const;
  [[nodiscard]] std::vector<SentMessage> sent_messages() const;
  [[nodiscard]] std::vector<ServerEvent> events() const;
  [[nodiscard]] std::vector<SessionInfo> sessions() const;
  [[nodiscard]] ServerStats stats() const;
  // Sends `bytes` from port N (local_port 0) or N+1 (1) to `to`, outside any
  // session: tests forge datagrams with it as if the server had sent them.
  void send_raw(int local_port, const Endpoint& to, std::vector<std::uint8_t> bytes);
  // A muted server has fallen silent but keeps its ports: what arrives is read
  // and discarded, the core is neither fed nor ticked, and nothing goes out
  // but send_raw's datagrams (tests of the client's silence timeout, which a
  // closed port would cut short with ICMP port-unreachable).
  void mute(bool muted);
  // Runs `f` on the core under its lock.
  void inspect(const std::function<void(const ScenarioServer&)>& f) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dereth::scenario
