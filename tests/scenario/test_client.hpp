#pragma once
// A minimal hand-driven AC client for the scenario-server tests, written
// without I/O like the server: it follows spec/protocol.md 0.3 and 3.9
// (LoginRequest resent until a ConnectRequest arrives, ConnectResponse to
// port N+1 resent every 0.3 s until a packet comes from N+1, a fresh
// handshake when none does), then drives a client net::Transport through the
// character list, DDD, world entry and LoginComplete. It keeps every message
// it receives, in order, for the tests to compare with what the server sent.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dereth/net/packet.hpp"
#include "dereth/net/transport.hpp"
#include "dereth/protocol/character_create.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/scenario/scenario_server.hpp"

namespace scenario_test {

namespace net = dereth::net;
namespace protocol = dereth::protocol;
namespace lo = dereth::protocol::login_opcode;

struct ClientOptions {
  std::string account = "Tester";
  std::string password = "secret";
  std::string version = "1802";
  bool enter_with_typed_account = false;  // F657 with the typed name, not F658's
  std::size_t character_index = 0;
  double login_retry = 2.0;
  double connect_retry = 0.3;
  double connect_give_up = 3.0;
  // Set: on the character list the client sends this F656 (with the list's
  // account) instead of F7C8; after F643 Ok it sends F7C8 and enters the
  // world with the new character.
  std::optional<protocol::CharacterCreate> create;
};

// A datagram from the client: to port N (0) or N+1 (1).
struct ClientDatagram {
  int to_port = 0;
  std::vector<std::uint8_t> bytes;
};

class TestClient {
 public:
  enum class Phase { Login, Connect, Connected, Entering, InWorld, Failed };

  explicit TestClient(ClientOptions o = {}) : options(std::move(o)) {}

  void start(double now) { send_login(now); }

  void receive(std::span<const std::uint8_t> datagram, int from_port, double now) {
    if (from_port == 1) {
      if (!transport) return;
      heard_from_n1 = true;
      if (phase == Phase::Connect) phase = Phase::Connected;
      transport->receive(datagram, now);
      drain(now);
      return;
    }
    auto p = net::parse_packet(datagram);
    if (!p) return;
    if (p->optional.connect_request) {
      if (!net::cleartext_checksum_ok(*p)) return;
      const auto& body = *p->optional.connect_request;
      // A repeat of the ConnectRequest we follow, or one after the connection is up: ignored.
      if (connect && connect->cookie == body.cookie) return;
      if (phase != Phase::Login && phase != Phase::Connect) return;
      ++connect_requests_seen;
      connect = body;
      messages.clear();
      transport = std::make_unique<net::Transport>(net::Role::Client);
      transport->start(body.client_seed, body.server_seed, static_cast<std::uint16_t>(body.net_id), p->header.iteration,
                       now);
      phase = Phase::Connect;
      connect_started = now;
      send_connect_response(now);
      return;
    }
    if (!p->fragments.empty() && (!transport || phase == Phase::Login)) {
      // Before any seed: a cleartext packet (the F7DC boot).
      if ((p->header.flags & net::packet_flag::EncryptedChecksum) != 0 || !net::cleartext_checksum_ok(*p)) return;
      for (const auto& f : p->fragments) {
        if (f.count == 1) handle(f.data, now);
      }
      return;
    }
    if (transport) {
      transport->receive(datagram, now);
      drain(now);
    }
  }

  void tick(double now) {
    if (phase == Phase::Login && now - last_login >= options.login_retry) send_login(now);
    if (phase == Phase::Connect && !heard_from_n1) {
      if (now - connect_started >= options.connect_give_up) {
        // ConnectResponses never answered: a fresh handshake (spec correction 3).
        phase = Phase::Login;
        transport.reset();
        connect.reset();
        send_login(now);
      } else if (now - last_connect_response >= options.connect_retry) {
        send_connect_response(now);
      }
    }
    if (transport && phase != Phase::Login) {
      transport->tick(now);
      for (auto& d : transport->take_outgoing()) out.push_back({0, std::move(d)});
    }
  }

  std::vector<ClientDatagram> take_outgoing() {
    std::vector<ClientDatagram> o;
    o.swap(out);
    return o;
  }

  // Queues a game message (F7B1 etc.) on the transport.
  void send(std::span<const std::uint8_t> message, std::uint16_t queue) { transport->send_message(message, queue); }
  std::uint32_t next_stamp() { return stamp++; }

  void log_off() { send(protocol::encode_opcode_only(lo::CharacterLogOff), protocol::queue::Logon); }
  void disconnect(double now) {
    transport->disconnect(now);
    for (auto& d : transport->take_outgoing()) out.push_back({0, std::move(d)});
  }

  ClientOptions options;
  Phase phase = Phase::Login;
  std::unique_ptr<net::Transport> transport;
  std::optional<net::ConnectRequestBody> connect;
  std::optional<protocol::CharacterList> list;
  std::optional<protocol::ServerName> server_name;
  std::optional<std::uint32_t> character_error;
  std::optional<std::string> boot;
  std::optional<std::uint32_t> player;
  std::optional<protocol::CharacterCreateResponse> create_response;
  std::optional<std::uint32_t> created_guid;
  bool saw_description = false;
  bool saw_logoff = false;
  std::vector<std::vector<std::uint8_t>> messages;  // every message of the current connection, in order
  std::size_t world_entry_index = 0;                // the player's CreateObject in `messages`
  int login_requests_sent = 0;
  int connect_responses_sent = 0;
  int connect_requests_seen = 0;
  int login_completes_sent = 0;

 private:
  void send_login(double now) {
    protocol::LoginRequest body;
    body.client_version = options.version;
    body.account = options.account;
    body.password = options.password;
    net::Packet p;
    p.optional.login_request = protocol::encode(body);
    out.push_back({0, net::serialize_packet(p)});
    last_login = now;
    ++login_requests_sent;
  }

  void send_connect_response(double now) {
    net::Packet p;
    p.header.id = static_cast<std::uint16_t>(connect->net_id);
    p.header.iteration = 1;
    p.optional.connect_response = connect->cookie;
    out.push_back({1, net::serialize_packet(p)});
    last_connect_response = now;
    ++connect_responses_sent;
  }

  void send_login_complete() {
    send(protocol::encode_game_action(next_stamp(), lo::LoginCompleteAction), protocol::queue::Weenie);
    ++login_completes_sent;
  }

  void drain(double now) {
    while (auto m = transport->poll_message()) {
      messages.push_back(m->bytes);
      handle(m->bytes, now);
    }
  }

  void handle(std::span<const std::uint8_t> m, double /*now*/) {
    const std::uint32_t op = protocol::peek_opcode(m);
    switch (op) {
      case lo::CharacterList:
        if (auto l = protocol::decode_character_list(m)) {
          list = *l;
          if (options.create && !create_sent) {
            protocol::CharacterCreate c = *options.create;
            c.account = list->account;
            send(protocol::encode(c), protocol::queue::Logon);
            create_sent = true;
          } else {
            send(protocol::encode_opcode_only(lo::CharacterEnterWorldRequest), protocol::queue::Logon);
          }
        }
        break;
      case lo::ServerName:
        if (auto n = protocol::decode_server_name(m)) server_name = *n;
        break;
      case lo::DddInterrogation: send(protocol::encode_ddd_interrogation_response(), protocol::queue::Database); break;
      case lo::CharacterCreateResponse:
        if (auto r = protocol::decode_character_create_response(m)) {
          create_response = *r;
          if (r->response == protocol::create_response::Ok) {
            created_guid = r->guid;
            send(protocol::encode_opcode_only(lo::CharacterEnterWorldRequest), protocol::queue::Logon);
          } else {
            phase = Phase::Failed;
          }
        }
        break;
      case lo::CharacterEnterWorldServerReady:
        if (list && created_guid) {
          send(protocol::encode(protocol::CharacterEnterWorld{*created_guid, list->account}), protocol::queue::Logon);
          phase = Phase::Entering;
        } else if (list && options.character_index < list->characters.size()) {
          protocol::CharacterEnterWorld enter{list->characters[options.character_index].guid,
                                              options.enter_with_typed_account ? options.account : list->account};
          send(protocol::encode(enter), protocol::queue::Logon);
          phase = Phase::Entering;
        }
        break;
      case lo::CharacterError:
        if (auto e = protocol::decode_character_error(m)) character_error = e->code;
        phase = Phase::Failed;
        break;
      case lo::AccountBoot:
        if (auto b = protocol::decode_account_boot(m)) boot = b->reason;
        phase = Phase::Failed;
        break;
      case lo::GameEvent:
        if (protocol::peek_wrapped_type(m) == lo::PlayerDescriptionEvent) saw_description = true;
        break;
      case lo::CharacterLogOff: saw_logoff = true; break;
      case protocol::opcode::PlayerCreate:
        if (auto pc = protocol::decode_player_create(m)) player = pc->guid;
        break;
      case protocol::opcode::CreateObject:
        if (auto c = protocol::decode_create_object(m); c && player && c->guid == *player && phase == Phase::Entering) {
          phase = Phase::InWorld;
          world_entry_index = messages.size() - 1;
          send_login_complete();
        }
        break;
      case protocol::opcode::PlayerTeleport: send_login_complete(); break;
      default: break;
    }
  }

  std::vector<ClientDatagram> out;
  double last_login = -1e9;
  double last_connect_response = -1e9;
  double connect_started = 0;
  bool heard_from_n1 = false;
  bool create_sent = false;
  std::uint32_t stamp = 1;
};

// The server and one client joined by an in-memory link, on simulated time.
struct Harness {
  explicit Harness(dereth::scenario::Scenario s, ClientOptions o = {}, dereth::scenario::ServerConfig config = {})
      : server(std::move(s), std::move(config)), client(std::move(o)) {}

  dereth::scenario::ScenarioServer server;
  TestClient client;
  dereth::scenario::Endpoint client_endpoint{0x7F000001, 50123};
  double now = 10.0;
  bool started = false;
  std::uint64_t misrouted = 0;  // server datagrams not addressed to the client

  void step(double dt = 0.01) {
    if (!started) {
      client.start(now);
      started = true;
    }
    now += dt;
    client.tick(now);
    for (auto& d : client.take_outgoing()) server.receive(d.bytes, client_endpoint, d.to_port, now);
    server.tick(now);
    for (auto& d : server.take_outgoing()) {
      if (d.peer != client_endpoint) {
        ++misrouted;
        continue;
      }
      client.receive(d.bytes, d.local_port, now);
    }
  }

  template <class Pred>
  bool run_until(Pred&& done, double max_seconds) {
    const double end = now + max_seconds;
    while (now < end) {
      step();
      if (done()) return true;
    }
    return false;
  }

  // The session that reached furthest (the last one created).
  [[nodiscard]] std::optional<dereth::scenario::SessionInfo> last_session() const {
    auto all = server.sessions();
    if (all.empty()) return std::nullopt;
    return all.back();
  }

  // Every message the server queued for a session, in order.
  [[nodiscard]] std::vector<std::vector<std::uint8_t>> sent_to(std::uint32_t session,
                                                               bool scripted_only = false) const {
    std::vector<std::vector<std::uint8_t>> out;
    for (const auto& m : server.sent_messages()) {
      if (m.session == session && (!scripted_only || m.script_line != 0)) out.push_back(m.bytes);
    }
    return out;
  }
};

}  // namespace scenario_test
