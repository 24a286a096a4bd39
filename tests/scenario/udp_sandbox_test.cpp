// The sandbox over real loopback UDP: dereth's client session (UdpClient)
// logs into a UdpScenarioServer serving sandbox_scenario() with the sandbox
// on, as `dereth-server` with no scenario file does, enters the world, says a
// line, tells a name nobody has, tries an unknown @command, and attacks the
// demo's Drudge Skulker; every answer comes back over the wire, and in the
// seconds the demo's recall would have begun, nothing moves the player.
#include <catch2/catch.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <thread>

#include "dereth/core/byte_reader.hpp"
#include "dereth/net/udp_client.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/scenario/sandbox.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

#include "support/login_complete_stand_in.hpp"

using namespace dereth;

namespace {

constexpr std::uint32_t kDrudge = 0x80000011;  // the demo's "Drudge Skulker"

// Client and server on loopback; `received` holds every message the client got.
struct Live {
  Live() {
    auto sc = scenario::sandbox_scenario();
    REQUIRE(sc.has_value());
    scenario::UdpServerOptions so;
    so.server.sandbox = true;
    server = std::make_unique<scenario::UdpScenarioServer>(std::move(*sc), so);
    REQUIRE(server->start().has_value());
    net::UdpClientOptions o;
    o.host = "127.0.0.1";
    o.port = server->port();
    o.session.account = "demo";
    o.session.password = "demo";
    o.session.server_name = "the sandbox";
    o.session.login_timeout = 30.0;
    auto c = net::UdpClient::connect(o);
    REQUIRE(c.has_value());
    client = std::move(*c);
  }
  ~Live() {
    if (client) client->logout();
    if (server) server->stop();
  }
  // Pumps the client until `done` or `seconds` of wall time pass.
  bool pump_until(const std::function<bool()>& done, double seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
      for (auto& m : client->drain_messages()) {
        if (stand_in.on_message(m.bytes)) {
          client->send_message(test::LoginCompleteStandIn::login_complete(client->next_action_sequence()),
                               protocol::queue::Weenie);
          entered_at = received.size();
        }
        received.push_back(std::move(m.bytes));
      }
      if (done()) return true;
      // Polling a real-time server: the loop's pace, not a synchronisation.
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return done();
  }
  void act(std::vector<std::uint8_t> action) { client->send_message(std::move(action), protocol::queue::Weenie); }

  std::size_t count_event(std::uint32_t type) const {
    std::size_t n = 0;
    for (const auto& m : received) {
      if (protocol::peek_opcode(m) == protocol::login_opcode::GameEvent && protocol::peek_wrapped_type(m) == type) ++n;
    }
    return n;
  }
  std::size_t count_opcode(std::uint32_t opcode) const {
    std::size_t n = 0;
    for (const auto& m : received) n += protocol::peek_opcode(m) == opcode ? 1U : 0U;
    return n;
  }

  std::unique_ptr<scenario::UdpScenarioServer> server;
  std::unique_ptr<net::UdpClient> client;
  test::LoginCompleteStandIn stand_in;
  std::vector<std::vector<std::uint8_t>> received;
  std::optional<std::size_t> entered_at;
};

}  // namespace

TEST_CASE("UDP sandbox: speech, a tell to nobody, an @command and an attack are answered over the wire",
          "[scenario][e2e][sandbox]") {
  Live live;
  REQUIRE(live.pump_until([&] { return live.entered_at.has_value(); }, 30.0));
  const auto entered = std::chrono::steady_clock::now();

  live.act(protocol::encode_talk(live.client->next_action_sequence(), "hello over the wire"));
  live.act(protocol::encode_tell(live.client->next_action_sequence(), "hi", "Nobody Here"));
  live.act(protocol::encode_talk(live.client->next_action_sequence(), "@nonesuch"));
  live.act(protocol::encode_change_combat_mode(live.client->next_action_sequence(), 2));
  live.act(protocol::encode(protocol::TargetedAttack{live.client->next_action_sequence(),
                                                     protocol::combat_action::TargetedMeleeAttack, kDrudge, 2, 1.0F}));
  REQUIRE(live.pump_until([&] { return live.count_event(protocol::combat_event::AttackDone) >= 1; }, 10.0));

  std::optional<protocol::HearSpeech> speech;
  std::optional<protocol::WeenieError> error;
  std::optional<protocol::ServerMessage> help;
  for (const auto& m : live.received) {
    const auto op = protocol::peek_opcode(m);
    if (op == protocol::chat_opcode::HearSpeech) {
      auto d = protocol::decode_hear_speech(m);
      REQUIRE(d.has_value());
      speech = *d;
    } else if (op == protocol::login_opcode::ServerMessage) {
      auto d = protocol::decode_server_message(m);
      REQUIRE(d.has_value());
      help = *d;
    } else if (op == protocol::login_opcode::GameEvent &&
               protocol::peek_wrapped_type(m) == protocol::chat_event::WeenieError) {
      auto d = protocol::decode_weenie_error(m);
      REQUIRE(d.has_value());
      error = *d;
    }
  }
  REQUIRE(speech.has_value());
  CHECK(speech->text == "hello over the wire");
  CHECK(speech->sender == "Demo Player");
  REQUIRE(error.has_value());
  CHECK(error->code == 0x052B);
  REQUIRE(help.has_value());
  CHECK(help->chat_type == protocol::chat_type::Help);
  CHECK_THAT(help->text, Catch::Contains("@nonesuch"));
  // The attack landed or was evaded, then ended.
  CHECK(live.count_event(scenario::sandbox_event::AttackerNotification) +
            live.count_event(scenario::sandbox_event::EvasionAttackerNotification) ==
        1);

  // The demo's recall began 5 s after entry; the sandbox leaves the player be.
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - entered).count();
  live.pump_until([] { return false; }, std::max(0.0, 6.5 - waited));
  CHECK(live.count_opcode(protocol::opcode::PlayerTeleport) == 0);
  for (const auto& m : live.received) {
    if (protocol::peek_opcode(m) != protocol::opcode::Movement) continue;
    auto d = protocol::decode_movement_event(m);
    REQUIRE(d.has_value());
    CHECK(d->guid != 0x50000001U);
  }
  CHECK(live.client->status().state == net::SessionState::InWorld);
}
