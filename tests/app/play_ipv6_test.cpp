// `dereth play --server [::1]:PORT` (and [::1] alone, port 9000): the player
// reaches a server on the IPv6 loopback. The scenario server listens on
// 127.0.0.1 only, so a relay in this test listens on [::1] ports R and R+1
// and passes every datagram on to the server's N and N+1 over IPv4 (from one
// socket, so the server sees one client), and the answers back.
#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

#include "run_cli.hpp"
#include "support/temp_dir.hpp"

namespace {

class Ipv6Relay {
 public:
  // Relays [::1]:R and R+1 to 127.0.0.1:server_port and +1; ok() false when
  // this machine has no IPv6 loopback or no free pair.
  explicit Ipv6Relay(std::uint16_t server_port) : server_port_(server_port) {
    for (int attempt = 0; attempt < 20 && !ok_; ++attempt) {
      close_all();
      v6_[0] = bind6(0);
      const std::uint16_t r = v6_[0] >= 0 ? local_port6(v6_[0]) : 0;
      if (r == 0 || r == 65535) continue;
      v6_[1] = bind6(static_cast<std::uint16_t>(r + 1));
      if (v6_[1] < 0) continue;
      port_ = r;
      ok_ = true;
    }
    if (!ok_) return;
    v4_ = ::socket(AF_INET, SOCK_DGRAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ok_ = v4_ >= 0 && ::bind(v4_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0;
    if (ok_) thread_ = std::thread([this] { run(); });
  }
  ~Ipv6Relay() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    close_all();
  }
  Ipv6Relay(const Ipv6Relay&) = delete;
  Ipv6Relay& operator=(const Ipv6Relay&) = delete;
  [[nodiscard]] bool ok() const { return ok_; }
  [[nodiscard]] std::uint16_t port() const { return port_; }
  [[nodiscard]] int relayed_to_server() const { return to_server_; }

 private:
  static int bind6(std::uint16_t port) {
    const int fd = ::socket(AF_INET6, SOCK_DGRAM, 0);
    if (fd < 0) return -1;
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_addr = in6addr_loopback;
    a.sin6_port = htons(port);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
      ::close(fd);
      return -1;
    }
    return fd;
  }
  static std::uint16_t local_port6(int fd) {
    sockaddr_in6 a{};
    socklen_t len = sizeof(a);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    return ntohs(a.sin6_port);
  }
  void close_all() {
    for (int& fd : v6_) {
      if (fd >= 0) ::close(fd);
      fd = -1;
    }
    if (v4_ >= 0) ::close(v4_);
    v4_ = -1;
  }
  void run() {
    std::array<std::uint8_t, 2048> buffer{};
    std::optional<sockaddr_in6> client;
    while (!stop_) {
      std::array<pollfd, 3> fds{{{v6_[0], POLLIN, 0}, {v6_[1], POLLIN, 0}, {v4_, POLLIN, 0}}};
      if (::poll(fds.data(), fds.size(), 20) <= 0) continue;
      for (std::size_t i = 0; i < 2; ++i) {
        if ((fds[i].revents & POLLIN) == 0) continue;
        sockaddr_in6 from{};
        socklen_t len = sizeof(from);
        const auto n = ::recvfrom(v6_[i], buffer.data(), buffer.size(), 0, reinterpret_cast<sockaddr*>(&from), &len);
        if (n <= 0) continue;
        client = from;
        sockaddr_in to{};
        to.sin_family = AF_INET;
        to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        to.sin_port = htons(static_cast<std::uint16_t>(server_port_ + (i == 0 ? 0 : 1)));
        ::sendto(v4_, buffer.data(), static_cast<std::size_t>(n), 0, reinterpret_cast<sockaddr*>(&to), sizeof(to));
        ++to_server_;
      }
      if ((fds[2].revents & POLLIN) != 0) {
        sockaddr_in from{};
        socklen_t len = sizeof(from);
        const auto n = ::recvfrom(v4_, buffer.data(), buffer.size(), 0, reinterpret_cast<sockaddr*>(&from), &len);
        if (n <= 0 || !client) continue;
        // From the server's N goes out from R, from N+1 from R+1.
        const std::size_t side = ntohs(from.sin_port) == server_port_ ? 0 : 1;
        ::sendto(v6_[side], buffer.data(), static_cast<std::size_t>(n), 0, reinterpret_cast<sockaddr*>(&*client),
                 sizeof(*client));
      }
    }
  }
  std::uint16_t server_port_;
  std::uint16_t port_ = 0;
  std::array<int, 2> v6_{-1, -1};
  int v4_ = -1;
  bool ok_ = false;
  std::atomic<bool> stop_{false};
  std::atomic<int> to_server_{0};
  std::thread thread_;
};

}  // namespace

TEST_CASE("dereth play --server [::1]:PORT enters the world over IPv6", "[app][e2e][live][ipv6]") {
  auto scenario =
      dereth::scenario::load_scenario_file(std::string(DERETH_SOURCE_DIR) + "/tests/scenario/data/basic.scenario");
  REQUIRE(scenario.has_value());
  dereth::scenario::UdpScenarioServer server(std::move(*scenario));
  REQUIRE(server.start().has_value());
  const Ipv6Relay relay(server.port());
  if (!relay.ok()) {
    WARN("no IPv6 loopback port pair here");
    return;
  }
  const dereth::test::TempDir tmp("play-ipv6");
  const auto pw = tmp / "password";
  std::ofstream(pw) << "secret\n";
  const std::string where = "[::1]:" + std::to_string(relay.port());
  std::string out, err;
  const int rc = dereth::app::test::run({"dereth", "play", "--server", where, "--account", "tester", "--password-file",
                                         pw.string(), "--headless", "--ticks", "10", "--no-record", "--timeout", "10"},
                                        out, err);
  INFO(out << err);
  CHECK(rc == 0);
  CHECK(out.find("in the world on " + where + " (player 0x") != std::string::npos);
  CHECK(out.find(" ticks=10 ") != std::string::npos);
  CHECK(relay.relayed_to_server() > 0);
}
