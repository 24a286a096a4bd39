#include <catch2/catch.hpp>

#include <asio.hpp>

#include <chrono>
#include <thread>

#include "dereth/net/udp_client.hpp"

using namespace dereth::net;

TEST_CASE("UdpClient: a server that never answers ends in one sentence, and the thread stops cleanly",
          "[net][udp]") {
  // A bound port that takes the datagrams and never answers.
  asio::io_context io;
  asio::ip::udp::socket silent(io, asio::ip::udp::endpoint(asio::ip::address_v4::loopback(), 0));
  const std::uint16_t port = silent.local_endpoint().port();
  UdpClientOptions o;
  o.host = "127.0.0.1";
  o.port = port;
  o.session.account = "a";
  o.session.password = "b";
  o.session.server_name = "127.0.0.1:" + std::to_string(port);
  o.session.login_resend_interval = 0.05;
  o.session.login_attempts = 3;
  auto client = UdpClient::connect(o);
  REQUIRE(client.has_value());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while ((*client)->status().state != SessionState::Failed && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const auto s = (*client)->status();
  CHECK(s.state == SessionState::Failed);
  CHECK(s.failure.find("no answer from 127.0.0.1:" + std::to_string(port) + " after 3 login attempts") == 0);
  (*client)->stop();
}

TEST_CASE("UdpClient: a port nothing listens on is reported by the system at once (ICMP port unreachable)",
          "[net][udp]") {
  UdpClientOptions o;
  o.host = "127.0.0.1";
  o.port = 9;  // discard: nothing listens on loopback
  o.session.account = "a";
  o.session.password = "b";
  o.session.server_name = "127.0.0.1:9";
  auto client = UdpClient::connect(o);
  REQUIRE(client.has_value());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while ((*client)->status().state != SessionState::Failed && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const auto s = (*client)->status();
  CHECK(s.state == SessionState::Failed);
  CHECK(s.failure == "nothing answers on 127.0.0.1:9 (the system reports the port unreachable); is the server running?");
  (*client)->stop();
}

TEST_CASE("UdpClient: an unknown host is a clear error", "[net][udp]") {
  UdpClientOptions o;
  o.host = "no-such-host.invalid";
  auto client = UdpClient::connect(o);
  REQUIRE_FALSE(client.has_value());
  CHECK(client.error().context == "no-such-host.invalid");
}
