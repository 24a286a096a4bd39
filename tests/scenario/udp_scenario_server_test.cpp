// The scenario server over real loopback UDP: UdpScenarioServer on its own
// thread, and the test's client on a plain POSIX datagram socket (the test
// program does not see Asio, which the module links privately).
#include "dereth/scenario/udp_scenario_server.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <optional>
#include <string>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../chargen/demo_character.hpp"
#include "test_client.hpp"

using namespace dereth::scenario;
using scenario_test::TestClient;
namespace protocol = dereth::protocol;

namespace {

class LoopbackSocket {
 public:
  LoopbackSocket() {
    fd_ = ::socket(AF_INET, SOCK_DGRAM, 0);
    REQUIRE(fd_ >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    REQUIRE(::bind(fd_, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0);
  }
  ~LoopbackSocket() { ::close(fd_); }
  LoopbackSocket(const LoopbackSocket&) = delete;
  LoopbackSocket& operator=(const LoopbackSocket&) = delete;

  void send_to(std::uint16_t port, const std::vector<std::uint8_t>& bytes) const {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    ::sendto(fd_, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&a), sizeof a);
  }

  // One datagram and the port it came from, waiting at most `timeout_ms`.
  std::optional<std::pair<std::uint16_t, std::vector<std::uint8_t>>> receive(int timeout_ms) const {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return std::nullopt;
    std::vector<std::uint8_t> buf(2048);
    sockaddr_in from{};
    socklen_t len = sizeof from;
    const auto n = ::recvfrom(fd_, buf.data(), buf.size(), 0, reinterpret_cast<sockaddr*>(&from), &len);
    if (n < 0) return std::nullopt;
    buf.resize(static_cast<std::size_t>(n));
    return std::pair{ntohs(from.sin_port), std::move(buf)};
  }

 private:
  int fd_ = -1;
};

Scenario basic() {
  auto s = load_scenario_file(std::string(DERETH_SOURCE_DIR) + "/tests/scenario/data/basic.scenario");
  REQUIRE(s.has_value());
  return *s;
}

}  // namespace

TEST_CASE("UDP scenario server: a full login and world entry over real loopback UDP", "[scenario][udp]") {
  UdpScenarioServer server(basic());
  REQUIRE(server.start().has_value());
  REQUIRE(server.running());
  const std::uint16_t n = server.port();
  REQUIRE(n >= 20000);

  LoopbackSocket socket;
  TestClient client;
  const auto t0 = std::chrono::steady_clock::now();
  auto now = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  client.start(now());

  std::uint32_t session = 0;
  bool done = false;
  std::uint64_t strangers = 0;
  double next_check = 0;
  while (!done && now() < 4.0) {
    client.tick(now());
    for (auto& d : client.take_outgoing()) socket.send_to(static_cast<std::uint16_t>(n + d.to_port), d.bytes);
    for (int waited = 0; auto d = socket.receive(waited == 0 ? 5 : 0); ++waited) {
      if (d->first != n && d->first != n + 1) {
        ++strangers;
        continue;
      }
      client.receive(d->second, d->first - n, now());
    }
    if (now() >= next_check) {
      next_check = now() + 0.02;
      const auto sessions = server.sessions();
      if (!sessions.empty()) {
        const auto& s = sessions.back();
        session = s.id;
        if (s.state == SessionState::InWorld && s.stream_complete && s.login_completes >= 2) {
          std::size_t sent = 0;
          for (const auto& m : server.sent_messages()) sent += m.session == s.id ? 1U : 0U;
          done = client.messages.size() == sent;
        }
      }
    }
  }
  REQUIRE(done);
  CHECK(strangers == 0);
  CHECK(client.phase == TestClient::Phase::InWorld);
  REQUIRE(client.list.has_value());
  CHECK(client.list->account == "Tester");
  CHECK(client.login_completes_sent == 2);

  // Exactly once, in order, and the scripted stream among it.
  std::vector<std::vector<std::uint8_t>> sent, scripted;
  for (const auto& m : server.sent_messages()) {
    if (m.session != session) continue;
    sent.push_back(m.bytes);
    if (m.script_line != 0) scripted.push_back(m.bytes);
  }
  CHECK(client.messages == sent);
  CHECK(scripted.size() == 14);
  const auto sessions = server.sessions();
  REQUIRE(sessions.size() == 1);
  CHECK(sessions[0].c2s.address == 0x7F000001u);
  CHECK(sessions[0].s2c == sessions[0].c2s);
  CHECK(sessions[0].transport.bad_checksums == 0);

  // The client's messages were recorded on the server's side.
  bool saw_login_complete = false;
  server.inspect([&](const ScenarioServer& core) {
    for (const auto& m : core.client_messages()) saw_login_complete |= m.action == 0xA1;
  });
  CHECK(saw_login_complete);

  server.stop();
  CHECK_FALSE(server.running());
  server.stop();  // idempotent
}

TEST_CASE("UDP scenario server: free port pairs, a busy port is an error, restart after stop", "[scenario][udp]") {
  UdpScenarioServer a(basic());
  UdpScenarioServer b(basic());
  REQUIRE(a.start().has_value());
  REQUIRE(b.start().has_value());
  CHECK(a.port() != b.port());
  CHECK(a.port() + 1 != b.port());
  CHECK(b.port() + 1 != a.port());
  CHECK_FALSE(a.start().has_value());  // already started

  UdpServerOptions clash;
  clash.port = static_cast<std::uint16_t>(a.port() + 1);  // N+1 of `a` is N of this one
  UdpScenarioServer c(basic(), clash);
  auto r = c.start();
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message().find("cannot bind") != std::string::npos);

  const std::uint16_t port = a.port();
  a.stop();
  UdpServerOptions same;
  same.port = port;
  UdpScenarioServer d(basic(), same);
  REQUIRE(d.start().has_value());
  CHECK(d.port() == port);
}

TEST_CASE("UDP scenario server: a character created over real loopback UDP enters the world at the CharGen start",
          "[scenario][udp][chargen]") {
  auto data = std::make_shared<const dereth::chargen::CharGenData>(dereth::test::demo_char_gen_data());
  UdpServerOptions options;
  options.server.char_gen = data;
  UdpScenarioServer server(basic(), options);
  REQUIRE(server.start().has_value());
  const std::uint16_t n = server.port();

  LoopbackSocket socket;
  scenario_test::ClientOptions o;
  o.create = dereth::test::demo_character_create(*data, "Wren", "Tester");
  TestClient client(o);
  const auto t0 = std::chrono::steady_clock::now();
  auto now = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  client.start(now());
  while (client.phase != TestClient::Phase::InWorld && client.phase != TestClient::Phase::Failed && now() < 4.0) {
    client.tick(now());
    for (auto& d : client.take_outgoing()) socket.send_to(static_cast<std::uint16_t>(n + d.to_port), d.bytes);
    for (int waited = 0; auto d = socket.receive(waited == 0 ? 5 : 0); ++waited) {
      if (d->first != n && d->first != n + 1) continue;
      client.receive(d->second, d->first - n, now());
    }
  }
  REQUIRE(client.phase == TestClient::Phase::InWorld);
  REQUIRE(client.create_response.has_value());
  CHECK(client.create_response->response == protocol::create_response::Ok);
  CHECK(client.create_response->name == "Wren");
  CHECK(client.player == client.create_response->guid);
  auto create = protocol::decode_create_object(client.messages.at(client.world_entry_index));
  REQUIRE(create);
  REQUIRE(create->physics.position);
  CHECK(create->physics.position->cell_id == data->char_gen.starter_areas.at(0).locations.at(0).cell);
  const auto sessions = server.sessions();
  REQUIRE(sessions.size() == 1);
  CHECK(sessions[0].state == SessionState::InWorld);
  CHECK(sessions[0].character == client.create_response->guid);
  server.stop();
}
