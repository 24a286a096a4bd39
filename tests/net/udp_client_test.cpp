#include "dereth/net/udp_client.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <string>
#include <thread>

#include <asio.hpp>

using namespace dereth::net;

TEST_CASE("UdpClient: a server that never answers ends in one sentence, and the thread stops cleanly", "[net][udp]") {
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
  CHECK(s.failure ==
        "nothing answers on 127.0.0.1:9 (the system reports the port unreachable); is the server running?");
  (*client)->stop();
}

TEST_CASE("UdpClient: an unknown host is a clear error", "[net][udp]") {
  UdpClientOptions o;
  o.host = "no-such-host.invalid";
  auto client = UdpClient::connect(o);
  REQUIRE_FALSE(client.has_value());
  CHECK(client.error().context == "no-such-host.invalid");
}

TEST_CASE("UdpClient: an IPv6 host ([::1] or ::1) is reached over IPv6, and ICMPv6 port unreachable is heard",
          "[net][udp][ipv6]") {
  asio::io_context io;
  asio::ip::udp::socket listener(io);
  std::error_code ec;
  listener.open(asio::ip::udp::v6(), ec);
  if (!ec) listener.bind(asio::ip::udp::endpoint(asio::ip::address_v6::loopback(), 0), ec);
  if (ec) {
    WARN("no IPv6 loopback here: " << ec.message());
    return;
  }
  const std::uint16_t port = listener.local_endpoint().port();
  for (const std::string host : {"::1", "[::1]"}) {
    INFO(host);
    UdpClientOptions o;
    o.host = host;
    o.port = port;
    o.session.account = "a";
    o.session.password = "b";
    o.session.server_name = "[::1]:" + std::to_string(port);
    auto client = UdpClient::connect(o);
    REQUIRE(client.has_value());
    // The LoginRequest arrives on the IPv6 socket, from the IPv6 loopback.
    std::array<std::uint8_t, 2048> buffer{};
    asio::ip::udp::endpoint from;
    listener.non_blocking(true);
    std::size_t got = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    while (got == 0 && std::chrono::steady_clock::now() < deadline) {
      std::error_code rec;
      got = listener.receive_from(asio::buffer(buffer), from, 0, rec);
      if (rec) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    CHECK(got > 0);
    CHECK(from.address() == asio::ip::address(asio::ip::address_v6::loopback()));
    (*client)->stop();
  }
  // Nothing listens on [::1]:9: the system says so at once (ICMPv6).
  UdpClientOptions o;
  o.host = "::1";
  o.port = 9;
  o.session.account = "a";
  o.session.password = "b";
  o.session.server_name = "[::1]:9";
  auto client = UdpClient::connect(o);
  REQUIRE(client.has_value());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while ((*client)->status().state != SessionState::Failed && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK((*client)->status().failure ==
        "nothing answers on [::1]:9 (the system reports the port unreachable); is the server running?");
  (*client)->stop();
}
