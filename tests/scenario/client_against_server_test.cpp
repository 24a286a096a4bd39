// dereth's own client (UdpClient + ClientSession + Transport) against the
// scenario server over real loopback UDP: world entry, the scripted stream
// exactly once and in order, also with 20% loss, duplication and reordering.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <thread>

#include "dereth/net/capture_reader.hpp"
#include "dereth/net/udp_client.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

#include "support/login_complete_stand_in.hpp"
#include "support/pcap_messages.hpp"
#include "support/temp_dir.hpp"

using namespace dereth;

namespace {

scenario::Scenario basic() {
  auto s =
      scenario::load_scenario_file(std::filesystem::path(DERETH_SOURCE_DIR) / "tests/scenario/data/basic.scenario");
  if (!s) FAIL(s.error().message());
  return *s;
}

// True when `wanted` is a subsequence of `got`.
bool in_order(const std::vector<std::vector<std::uint8_t>>& got, const std::vector<std::vector<std::uint8_t>>& wanted) {
  std::size_t i = 0;
  for (const auto& m : got) {
    if (i < wanted.size() && m == wanted[i]) ++i;
  }
  return i == wanted.size();
}

// Runs the client until the server has played its whole stream and the
// client has received every scripted message, or a deadline passes.
void run(scenario::Scenario sc, const char* password, bool expect_world,
         std::optional<std::filesystem::path> record = std::nullopt) {
  scenario::UdpScenarioServer server(std::move(sc));
  REQUIRE(server.start().has_value());
  net::UdpClientOptions o;
  o.host = "127.0.0.1";
  o.port = server.port();
  o.session.account = "tester";  // typed in lower case; F657 must use the server's "Tester"
  o.session.password = password;
  o.session.server_name = "the scenario server";
  o.session.transport.nak_delay = 0.05;
  o.session.transport.nak_repeat = 0.1;
  // A lossy, duplicating link can take longer than the 8 s a player waits
  // (a duplicated LoginRequest drops the half-open session, as ACE does).
  o.session.login_timeout = 60.0;
  o.record_to = record;
  auto client = net::UdpClient::connect(o);
  REQUIRE(client.has_value());

  std::vector<std::vector<std::uint8_t>> received;
  dereth::test::LoginCompleteStandIn stand_in;  // the World's portal-space animation is not run here
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::size_t scripted_expected = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    for (auto& m : (*client)->drain_messages()) {
      if (stand_in.on_message(m.bytes)) {
        (*client)->send_message(dereth::test::LoginCompleteStandIn::login_complete((*client)->next_action_sequence()),
                                protocol::queue::Weenie);
      }
      received.push_back(std::move(m.bytes));
    }
    const auto status = (*client)->status();
    if (status.state == net::SessionState::Failed) break;
    std::vector<std::vector<std::uint8_t>> scripted;
    for (const auto& s : server.sent_messages()) {
      if (s.script_line > 0) scripted.push_back(s.bytes);
    }
    scripted_expected = scripted.size();
    // The whole stream has been sent and has arrived.
    if (scripted.size() >= 12 && in_order(received, scripted)) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const auto status = (*client)->status();
  if (!expect_world) {
    CHECK(status.state == net::SessionState::Failed);
    CHECK(status.failure == "the account name or password was not accepted");
    return;
  }
  INFO("client state: " << net::to_string(status.state) << " " << status.failure);
  REQUIRE(status.state == net::SessionState::InWorld);
  CHECK(status.player_guid == 0x50000001u);
  // Exactly once and in order: the scripted messages appear in what the
  // client received in the order sent (protocol replies may come between), each once.
  std::vector<std::vector<std::uint8_t>> scripted;
  for (const auto& s : server.sent_messages()) {
    if (s.script_line > 0) scripted.push_back(s.bytes);
  }
  REQUIRE(scripted.size() == scripted_expected);
  REQUIRE(scripted.size() >= 12);
  CHECK(in_order(received, scripted));
  for (const auto& m : scripted) CHECK(std::count(received.begin(), received.end(), m) == 1);
  // The server sees LoginComplete after world entry and again after the
  // teleport; the second one may still be on its way when the stream is in.
  int completes = 0;
  const auto wait_until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < wait_until) {
    completes = 0;
    for (const auto& c : server.client_messages()) {
      if (protocol::peek_wrapped_type(c.bytes) == protocol::login_opcode::LoginCompleteAction) ++completes;
    }
    if (completes >= 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(completes == 2);
  (*client)->logout();
  if (record) {
    // The recording replays to exactly the messages the client received, in order.
    auto replay = net::CaptureReplay::open(*record, net::CaptureFilter::port(server.port()));
    REQUIRE(replay.has_value());
    std::vector<std::vector<std::uint8_t>> replayed;
    while (auto m = replay->next_message()) {
      if (m->server_to_client) replayed.push_back(std::move(m->bytes));
    }
    CHECK(replay->stats().framing_errors == 0);
    CHECK(replay->stats().encrypted_checksums_verified);
    CHECK(replay->stats().encrypted_checksum_failures == 0);
    REQUIRE(replayed.size() >= received.size());
    CHECK(std::equal(received.begin(), received.end(), replayed.begin()));
  }
}

}  // namespace

TEST_CASE("Client against the scenario server over loopback UDP: world entry and the stream", "[scenario][e2e]") {
  run(basic(), "secret", true);
}

TEST_CASE("Client against the scenario server with 20% loss, duplication and reordering", "[scenario][e2e]") {
  auto sc = basic();
  sc.impairment.seed = 7;
  sc.impairment.loss = 0.2;
  sc.impairment.duplicate = 0.2;
  sc.impairment.reorder = 0.2;
  sc.impairment.inbound = true;
  run(std::move(sc), "secret", true);
}

TEST_CASE("A recorded live session replays to the same message sequence, checksums verified", "[scenario][e2e]") {
  const dereth::test::TempDir tmp("e2e");
  run(basic(), "secret", true, tmp / "session.pcap");
}

TEST_CASE("Client against the scenario server: a wrong password is one sentence", "[scenario][e2e]") {
  run(basic(), "wrong", false);
}
