#include "dereth/scenario/scenario_server.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "dereth/core/byte_writer.hpp"
#include "dereth/core/log.hpp"
#include "dereth/protocol/character_create.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/player_description.hpp"

namespace dereth::scenario {

namespace pf = net::packet_flag;
namespace lo = protocol::login_opcode;
namespace ps = protocol::physics_state;
using protocol::TimestampIndex;

namespace {

constexpr std::uint16_t kServerId = 0x000B;  // ACE's header Id on every server packet
constexpr std::uint16_t kIteration = 1;

// The nine per-object timestamps, in PhysicsDesc wire order.
using Stamps = std::array<std::uint16_t, protocol::kTimestampCount>;

std::uint16_t& stamp(Stamps& s, TimestampIndex i) { return s[static_cast<std::size_t>(i)]; }
std::uint16_t bump(Stamps& s, TimestampIndex i) { return ++stamp(s, i); }

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::uint16_t header_time(double now) {
  return static_cast<std::uint16_t>(static_cast<std::uint64_t>(std::max(0.0, now)) & 0xFFFFU);
}

// The player's qualities as the PlayerDescription (F7B0 0x0013) tells them:
// the scenario's attributes, vitals at their maxima (Health = Endurance / 2,
// Stamina = Endurance, Mana = Self, the usual formulas), Run and Jump
// trained without experience.
protocol::PlayerDescription player_description(const PlayerSpec& player) {
  protocol::PlayerDescription d;
  d.weenie_type = 1;
  d.vector_flags = protocol::quality_vector_flag::Attribute | protocol::quality_vector_flag::Skill;
  for (std::size_t i = 0; i < d.attributes.size(); ++i) {
    d.attributes[i] = protocol::AttributeWire{0, player.attributes[i], 0};
  }
  const std::uint32_t vitals[3] = {player.attributes[1] / 2, player.attributes[1], player.attributes[5]};
  for (std::size_t i = 0; i < d.vitals.size(); ++i) {
    d.vitals[i] = protocol::SecondaryAttributeWire{0, 0, 0, vitals[i]};
  }
  constexpr std::uint32_t kTrained = 2;
  constexpr std::uint32_t kJump = 0x16;
  constexpr std::uint32_t kRun = 0x18;
  d.skills = {{kJump, protocol::SkillWire{0, 1, kTrained, 0, 0, 0, 0.0}},
              {kRun, protocol::SkillWire{0, 1, kTrained, 0, 0, 0, 0.0}}};
  d.options = protocol::PlayerOptionsWire{0, player.character_options1};
  return d;
}

// The PlayerDescription event's payload as ACE sends one: the qualities and
// the option words (protocol/player_description.hpp; no option blocks), then
// spell list 0 empty and empty inventory lists.
std::vector<std::uint8_t> player_description_payload(const protocol::PlayerDescription& d) {
  core::ByteWriter w;
  w.bytes(protocol::encode_player_description_qualities(d));
  w.u32(0);  // spell list 0
  w.u32(0);  // inventory count
  w.u32(0);  // equipped count
  return std::move(w).take();
}

// The interpreted motion state an observer is sent for a client's
// MoveToState, as ACE's MovementData(Creature, MoveToState) forms it: walk or
// backward become WalkForward (RunForward with the Run hold key), backward at
// -0.65; a sidestep becomes SideStepRight at 3.12 / 1.25 / 2 (negated for
// left, clamped to 3); a turn becomes TurnRight at 1 (1.5 running; a raw
// speed up to 1.5 is mouse look and kept), negated for left. The speed with
// the Run hold key is the mover's run rate (ACE's Creature.GetRunRate).
// Nothing forward or sideways moves during a standing long jump.
protocol::MovementData relayed_motion(const protocol::MoveToState& m, float run_rate) {
  constexpr std::uint32_t kWalkForward = 0x45000005;
  constexpr std::uint32_t kWalkBackwards = 0x45000006;
  constexpr std::uint32_t kSideStepLeft = 0x65000010;
  constexpr std::uint32_t kTurnLeft = 0x6500000E;
  constexpr std::uint32_t kRunHoldKey = 2;
  const protocol::RawMotionState& raw = m.raw;
  const bool running = raw.current_hold_key.value_or(1) == kRunHoldKey;
  const bool long_jump = (m.contact_long_jump & 0x2) != 0;
  const float speed = running ? run_rate : 1.0F;
  protocol::MovementData out;
  out.current_style = static_cast<std::uint16_t>(raw.current_style.value_or(0x8000003D) & 0xFFFF);
  if (long_jump) out.motion_flags |= protocol::kMotionFlagStandingLongJump;
  protocol::InterpretedMovement im;
  auto& st = im.state;
  if (raw.current_style) st.current_style = static_cast<std::uint16_t>(*raw.current_style & 0xFFFF);
  if (raw.forward_command && !long_jump) {
    const std::uint32_t fwd = *raw.forward_command;
    if (fwd == kWalkForward || fwd == kWalkBackwards) {
      st.forward_command = static_cast<std::uint16_t>(fwd == kWalkForward && running ? 0x0007 : 0x0005);
      st.forward_speed = fwd == kWalkBackwards ? speed * -0.65F : speed;
    } else {
      st.forward_command = static_cast<std::uint16_t>(fwd & 0xFFFF);
    }
  }
  if (raw.sidestep_command && !long_jump) {
    st.sidestep_command = 0x000F;
    float v = speed * 3.12F / 1.25F * 0.5F;
    if (*raw.sidestep_command == kSideStepLeft) v = -v;
    st.sidestep_speed = std::clamp(v, -3.0F, 3.0F);
  }
  if (raw.turn_command) {
    st.turn_command = 0x000D;
    float v = running ? 1.5F : 1.0F;
    if (raw.turn_speed && *raw.turn_speed != 0.0F && *raw.turn_speed <= 1.5F) v = *raw.turn_speed;
    if (*raw.turn_command == kTurnLeft) v = -v;
    st.turn_speed = v;
  }
  st.commands = raw.commands;
  out.payload = std::move(im);
  return out;
}

// Observers hear a player within this distance (metres, across landblocks).
constexpr double kRelayRange = 192.0;

double distance(const protocol::Position& a, const protocol::Position& b) {
  const auto global = [](const protocol::Position& p) {
    const double bx = static_cast<double>((p.cell_id >> 24) & 0xFF) * 192.0;
    const double by = static_cast<double>((p.cell_id >> 16) & 0xFF) * 192.0;
    return std::array<double, 3>{bx + p.origin.x, by + p.origin.y, static_cast<double>(p.origin.z)};
  };
  const auto ga = global(a);
  const auto gb = global(b);
  return std::hypot(ga[0] - gb[0], ga[1] - gb[1], ga[2] - gb[2]);
}

}  // namespace

const char* to_string(SessionState s) noexcept {
  switch (s) {
    case SessionState::AwaitingConnectResponse: return "awaiting ConnectResponse";
    case SessionState::Connected: return "connected";
    case SessionState::InWorld: return "in world";
    case SessionState::LoggingOff: return "logging off";
    case SessionState::Rejected: return "rejected";
    case SessionState::Ended: return "ended";
  }
  return "unknown";
}

struct ScenarioServer::Session {
  explicit Session(const net::TransportConfig& c) : transport(net::Role::Server, c) {}

  SessionInfo info;
  ScenarioAccount* account = nullptr;  // into ScenarioServer::accounts_
  double created = 0;
  double connect_request_time = 0;
  double linger_until = 0;
  net::Transport transport;

  // World state for this client.
  // The character in the world: a copy, so that characters created or
  // deleted on the same account meanwhile leave it alone.
  ScenarioCharacter character_copy;
  const ScenarioCharacter* character = nullptr;
  // When the scripted stream's clock started: the session's first
  // LoginComplete, as a server's world begins for a player only once it has
  // left portal space (none before it).
  std::optional<double> timeline_start;
  std::size_t cursor = 0;
  std::uint32_t iteration = 0;
  std::uint32_t event_sequence = 1;
  std::uint32_t player_state = 0;
  std::map<std::uint32_t, Stamps> stamps;
  // Per object: the 15-bit stamp of the last one-shot action sent in a
  // Movement's command list (the client plays only newer ones).
  std::map<std::uint32_t, std::uint16_t> action_stamps;
  // Where the client last said its player is (world entry, then every
  // MoveToState and AutonomousPosition): what nearby observers are told.
  protocol::Position player_position;
  float run_rate = 1.0F;  // the player's, from the PlayerDescription it was sent
};

ScenarioServer::ScenarioServer(Scenario scenario, ServerConfig config)
    : scenario_(std::move(scenario)),
      config_(config),
      handshake_rng_(scenario_.seed),
      outbound_(scenario_.impairment),
      inbound_([this] {
        Impairment in = scenario_.impairment;
        in.seed = scenario_.impairment.seed ^ 0x9E3779B9U;  // an independent stream
        if (!in.inbound) in = Impairment{};
        return in;
      }()) {
  accounts_ = scenario_.accounts;
}

ScenarioServer::~ScenarioServer() = default;

template <class T>
void ScenarioServer::record(std::vector<T>& list, T item) {
  if (list.size() >= config_.max_records) {
    const std::size_t drop = std::max<std::size_t>(1, config_.max_records / 4);
    list.erase(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(std::min(drop, list.size())));
    stats_.dropped_records += drop;
  }
  list.push_back(std::move(item));
}

void ScenarioServer::event(double now, std::uint32_t session, std::string text) {
  core::logger(core::Module::Scenario)->debug("[{:.3f}] session {}: {}", now, session, text);
  record(events_, ServerEvent{now, session, std::move(text)});
}

ScenarioServer::Session* ScenarioServer::find_by_c2s(const Endpoint& from) {
  for (auto& s : sessions_) {
    if (s->info.state != SessionState::Ended && s->info.c2s == from) return s.get();
  }
  return nullptr;
}

void ScenarioServer::receive(std::span<const std::uint8_t> datagram, const Endpoint& from, int local_port,
                             double now) {
  now_ = std::max(now_, now);
  ++stats_.datagrams_received;
  inbound_.push(Datagram{from, local_port, std::vector<std::uint8_t>(datagram.begin(), datagram.end())}, now);
  for (auto& d : inbound_.pop_ready(now)) handle_datagram(d.bytes, d.peer, d.local_port, now);
  forget_ended_sessions();
}

void ScenarioServer::handle_datagram(std::span<const std::uint8_t> datagram, const Endpoint& from, int local_port,
                                     double now) {
  if (local_port == 1) {
    handle_connect_response(datagram, from, now);
    return;
  }
  auto parsed = net::parse_packet(datagram);
  if (parsed && (parsed->header.flags & pf::LoginRequest) != 0) {
    handle_login(*parsed, from, now);
    return;
  }
  Session* s = find_by_c2s(from);
  if (s == nullptr || !s->transport.started()) {
    ++stats_.ignored_datagrams;
    return;
  }
  if (parsed && (parsed->header.flags & pf::ConnectResponse) != 0) {
    // ACE: "Packet sent to listener 0 is a ConnectResponse" - dropped.
    ++stats_.ignored_datagrams;
    event(now, s->info.id, "a ConnectResponse sent to port N instead of N+1 was ignored");
    return;
  }
  s->transport.receive(datagram, now);
  while (auto m = s->transport.poll_message()) handle_message(*s, *m, now);
  if (s->transport.peer_disconnected() && s->info.state != SessionState::Ended) {
    end_session(*s, "the client disconnected", now);
  }
  flush(*s, now);
}

void ScenarioServer::send_raw(const Endpoint& to, int local_port, std::vector<std::uint8_t> bytes, double now) {
  ++stats_.datagrams_sent;
  outbound_.push(Datagram{to, local_port, std::move(bytes)}, now);
}

void ScenarioServer::handle_login(const net::Packet& p, const Endpoint& from, double now) {
  if (p.header.flags != pf::LoginRequest || p.header.sequence != 0 || !net::cleartext_checksum_ok(p) ||
      !p.optional.login_request) {
    ++stats_.ignored_datagrams;
    event(now, 0,
          fmt::format("a malformed LoginRequest from {} was dropped (flags 0x{:08X}, sequence {})", to_string(from),
                      p.header.flags, p.header.sequence));
    return;
  }
  if (Session* old = find_by_c2s(from)) {
    if (old->info.state == SessionState::AwaitingConnectResponse) {
      // ACE: "Bad handshake" - the half-open session goes, and so does this packet.
      ++stats_.ignored_datagrams;
      end_session(*old, "a second LoginRequest arrived while the ConnectResponse was awaited", now);
      return;
    }
    if (old->info.state != SessionState::Rejected) {
      ++stats_.ignored_datagrams;
      event(now, old->info.id, "a LoginRequest for an established session was ignored");
      return;
    }
    end_session(*old, "the client logged in again", now);
  }
  auto body = protocol::decode_login_request(*p.optional.login_request);
  if (!body) {
    ++stats_.ignored_datagrams;
    event(now, 0, fmt::format("an undecodable LoginRequest from {}: {}", to_string(from), body.error().message()));
    return;
  }

  const auto live = std::ranges::count_if(
      sessions_, [](const auto& x) { return x->info.state != SessionState::Ended; });
  if (static_cast<std::size_t>(live) >= config_.max_live_sessions) {
    ++stats_.ignored_datagrams;
    event(now, 0, fmt::format("a LoginRequest from {} was dropped: {} sessions are live", to_string(from), live));
    return;
  }
  auto owned = std::make_unique<Session>(config_.transport);
  Session& s = *owned;
  sessions_.push_back(std::move(owned));
  s.info.id = next_session_id_++;
  s.info.net_id = static_cast<std::uint16_t>(1 + (s.info.id - 1) % 127);
  s.info.c2s = from;
  s.info.s2c = from;
  s.created = now;
  ++stats_.logins;
  event(now, s.info.id, fmt::format("LoginRequest from {} for account '{}'", to_string(from), body->account));

  if (body->client_version != scenario_.client_version) {
    // No seeds yet: a cleartext packet from port N carries the boot.
    net::Packet boot;
    boot.header.sequence = 0;
    boot.header.id = kServerId;
    boot.header.time = header_time(now);
    boot.header.iteration = kIteration;
    const auto message =
        protocol::encode(protocol::AccountBoot{fmt::format("client version {} is not the correct version ({})",
                                                           body->client_version, scenario_.client_version)});
    boot.fragments.push_back(net::Fragment{0, 0x80000000U, 1, 0, protocol::queue::Ui, message});
    send_raw(from, 0, net::serialize_packet(boot), now);
    record(sent_, SentMessage{now, s.info.id, protocol::queue::Ui, message, 0});
    s.info.rejection = lo::AccountBoot;
    ++stats_.rejected_logins;
    end_session(s, fmt::format("booted: client version '{}'", body->client_version), now);
    return;
  }

  // Handshake values: fixed by the scenario or drawn from its seed.
  const std::uint64_t cookie_hi = handshake_rng_.next_u32();
  const std::uint64_t cookie_lo = handshake_rng_.next_u32();
  const std::uint32_t server_seed = handshake_rng_.next_u32();
  const std::uint32_t client_seed = handshake_rng_.next_u32();
  s.info.cookie = scenario_.cookie.value_or((cookie_hi << 32) | cookie_lo);
  s.info.server_seed = scenario_.server_seed.value_or(server_seed);
  s.info.client_seed = scenario_.client_seed.value_or(client_seed);

  net::Packet cr;
  cr.header.sequence = 0;
  cr.header.id = kServerId;
  cr.header.time = header_time(now);
  cr.header.iteration = kIteration;
  cr.optional.connect_request =
      net::ConnectRequestBody{now, s.info.cookie, s.info.net_id, s.info.server_seed, s.info.client_seed, 0};
  send_raw(from, 0, net::serialize_packet(cr), now);
  s.connect_request_time = now;
  s.info.state = SessionState::AwaitingConnectResponse;

  for (auto& acc : accounts_) {
    if (same_ignoring_case(acc.name, body->account)) s.account = &acc;
  }
  if (s.account) s.info.account = s.account->name;
  if (scenario_.server_full) {
    reject(s, 0x15, "the server is full", now);
  } else if (body->auth_type != 2) {
    reject(s, 0x09, fmt::format("auth type 0x{:X} is not account and password", body->auth_type), now);
  } else if (s.account == nullptr) {
    reject(s, 0x0A, fmt::format("no account '{}'", body->account), now);
  } else if (s.account->password != body->password) {
    reject(s, 0x09, "wrong password", now);
  }
}

void ScenarioServer::reject(Session& s, std::uint32_t code, const std::string& why, double now) {
  // The session's transport starts at once (no ConnectResponse will be
  // accepted) so that the F659 is an ordinary, resendable packet.
  s.transport.start(s.info.server_seed, s.info.client_seed, kServerId, kIteration, now);
  s.info.state = SessionState::Rejected;
  s.info.rejection = code;
  s.linger_until = now + config_.linger;
  ++stats_.rejected_logins;
  event(now, s.info.id, fmt::format("rejected with F659 0x{:02X}: {}", code, why));
  send(s, protocol::encode(protocol::CharacterError{code}), protocol::queue::Ui, 0, now);
  s.transport.tick(now);
  flush(s, now);
}

void ScenarioServer::handle_connect_response(std::span<const std::uint8_t> datagram, const Endpoint& from,
                                             double now) {
  auto parsed = net::parse_packet(datagram);
  if (!parsed || (parsed->header.flags & pf::ConnectResponse) == 0 || !parsed->optional.connect_response ||
      (parsed->header.flags & pf::EncryptedChecksum) != 0 || !net::cleartext_checksum_ok(*parsed)) {
    // ACE: "Packet sent to listener 1 and is not a ConnectResponse".
    ++stats_.ignored_datagrams;
    return;
  }
  const std::uint64_t cookie = *parsed->optional.connect_response;
  Session* s = nullptr;
  for (auto& candidate : sessions_) {
    if (candidate->info.state == SessionState::AwaitingConnectResponse && candidate->info.cookie == cookie &&
        candidate->info.c2s.address == from.address) {
      s = candidate.get();
    }
  }
  if (s == nullptr) {
    ++stats_.ignored_connect_responses;
    return;
  }
  const double since_ms = (now - s->connect_request_time) * 1000.0;
  if (since_ms < scenario_.connect_race_ms) {
    ++stats_.ignored_connect_responses;
    event(now, s->info.id,
          fmt::format("a ConnectResponse {:.0f} ms after the ConnectRequest was ignored (race delay {:.0f} ms)",
                      since_ms, scenario_.connect_race_ms));
    return;
  }
  s->info.s2c = from;
  s->info.state = SessionState::Connected;
  s->transport.start(s->info.server_seed, s->info.client_seed, kServerId, kIteration, now);
  event(now, s->info.id, fmt::format("ConnectResponse accepted from {}", to_string(from)));

  send(*s, protocol::encode(character_list(*s, now)), protocol::queue::Ui, 0, now);
  send(*s, protocol::encode(protocol::ServerName{scenario_.connections, scenario_.max_connections,
                                                 scenario_.world_name}),
       protocol::queue::Ui, 0, now);
  send(*s, protocol::encode_ddd_interrogation(), protocol::queue::Database, 0, now);
  s->transport.tick(now);
  flush(*s, now);
}

void ScenarioServer::handle_message(Session& s, const net::ReassembledMessage& m, double now) {
  ClientMessage rec;
  rec.time = now;
  rec.session = s.info.id;
  rec.queue = m.queue;
  rec.bytes = m.bytes;
  rec.opcode = protocol::peek_opcode(m.bytes);
  if (rec.opcode == lo::GameAction && m.bytes.size() >= 12) {
    rec.action_sequence = static_cast<std::uint32_t>(m.bytes[4]) | (static_cast<std::uint32_t>(m.bytes[5]) << 8) |
                          (static_cast<std::uint32_t>(m.bytes[6]) << 16) |
                          (static_cast<std::uint32_t>(m.bytes[7]) << 24);
    rec.action = protocol::peek_wrapped_type(m.bytes);
    if (rec.action == protocol::opcode::MoveToState) {
      if (auto d = protocol::decode_move_to_state(m.bytes)) {
        rec.move_to_state = std::move(*d);
      } else {
        rec.decode_error = d.error().message();
      }
    } else if (rec.action == protocol::chat_action::Talk || rec.action == protocol::chat_action::Tell ||
               rec.action == protocol::chat_action::Emote || rec.action == protocol::chat_action::SoulEmote) {
      if (auto d = protocol::decode_chat_action(m.bytes)) {
        rec.chat = std::move(*d);
      } else {
        rec.decode_error = d.error().message();
      }
    } else if (rec.action == protocol::combat_action::TargetedMeleeAttack ||
               rec.action == protocol::combat_action::TargetedMissileAttack) {
      if (auto d = protocol::decode_targeted_attack(m.bytes)) {
        rec.attack = *d;
      } else {
        rec.decode_error = d.error().message();
      }
    } else if (rec.action == protocol::opcode::Jump) {
      if (auto d = protocol::decode_jump(m.bytes)) {
        rec.jump = *d;
      } else {
        rec.decode_error = d.error().message();
      }
    } else if (rec.action == protocol::opcode::AutonomousPosition) {
      if (auto d = protocol::decode_autonomous_position(m.bytes)) {
        rec.autonomous_position = std::move(*d);
      } else {
        rec.decode_error = d.error().message();
      }
    }
  } else if (rec.opcode == lo::CharacterEnterWorld) {
    if (auto d = protocol::decode_character_enter_world(m.bytes)) {
      rec.enter_world = std::move(*d);
    } else {
      rec.decode_error = d.error().message();
    }
  }
  record(received_, std::move(rec));
  const ClientMessage& msg = received_.back();

  const SessionState state = s.info.state;
  if (state == SessionState::Rejected || state == SessionState::LoggingOff || state == SessionState::Ended) return;

  // An attack in the world is logged and answered with AttackDone (no
  // error), as ACE ends each swing, so the client's attack state settles.
  if (msg.attack && state == SessionState::InWorld && s.character != nullptr) {
    event(now, s.info.id,
          fmt::format("attack 0x{:04X} on 0x{:08X}, height {}, power {}", msg.attack->action, msg.attack->target,
                      msg.attack->height, msg.attack->power));
    send(s, protocol::encode_attack_done(s.character->guid, s.event_sequence++, protocol::AttackDone{0}),
         protocol::queue::Ui, 0, now);
    return;
  }

  // The player's own motion and position (ACE's GameActionMoveToState and
  // GameActionAutonomousPosition): remembered, and relayed to the other
  // players nearby as F74C (autonomous) and F748, never back to the mover.
  if (state == SessionState::InWorld && s.character != nullptr && !s.info.teleporting) {
    if (msg.move_to_state) {
      s.player_position = msg.move_to_state->position;
      relay_motion(s, *msg.move_to_state, now);
      return;
    }
    if (msg.autonomous_position) {
      s.player_position = msg.autonomous_position->position;
      relay_position(s, *msg.autonomous_position, now);
      return;
    }
  }

  switch (msg.opcode) {
    case lo::DddInterrogationResponse:
      send(s, protocol::encode_opcode_only(lo::EndDdd), protocol::queue::Database, 0, now);
      break;
    case lo::CharacterEnterWorldRequest:
      if (state == SessionState::Connected) {
        send(s, protocol::encode_opcode_only(lo::CharacterEnterWorldServerReady), protocol::queue::Ui, 0, now);
      }
      break;
    case lo::CharacterCreate:
      if (state == SessionState::Connected) create_character(s, msg.bytes, now);
      break;
    case lo::CharacterDelete:
      if (state == SessionState::Connected) delete_character(s, msg.bytes, now);
      break;
    case lo::CharacterEnterWorld:
      if (state != SessionState::Connected) break;
      if (!msg.enter_world) {
        event(now, s.info.id, fmt::format("an undecodable F657: {}", msg.decode_error));
        break;
      }
      enter_world(s, *msg.enter_world, now);
      break;
    case lo::CharacterLogOff:
      send(s, protocol::encode_opcode_only(lo::CharacterLogOff), protocol::queue::Ui, 0, now);
      s.info.state = SessionState::LoggingOff;
      s.linger_until = now + config_.linger;
      event(now, s.info.id, "the character logged off");
      break;
    case lo::GameAction:
      if (state != SessionState::InWorld) break;  // ACE drops actions outside the world
      if (msg.action == lo::LoginCompleteAction) {
        // As ACE's handler, every LoginComplete leaves portal space (even one
        // that was meant for an earlier entry or teleport).
        s.info.teleporting = false;
        ++s.info.login_completes;
        const bool first = !s.timeline_start;
        if (first) s.timeline_start = now;
        s.player_state = (s.player_state & ~(ps::Hidden | ps::IgnoreCollisions)) | ps::ReportCollisions;
        auto& st = s.stamps[s.character->guid];
        protocol::SetState set{s.character->guid, s.player_state, stamp(st, TimestampIndex::Instance),
                               bump(st, TimestampIndex::State)};
        send(s, protocol::encode(set), protocol::queue::SmartBox, 0, now);
        event(now, s.info.id, "LoginComplete: the player leaves portal space");
        if (first) {
          event(now, s.info.id, "the scripted stream starts");
          play_stream(s, now);
        }
      }
      break;
    default:
      break;
  }
}

protocol::CharacterList ScenarioServer::character_list(Session& s, double now) {
  // Characters whose deletion time has passed are gone (ACE deletes them
  // for good once char_delete_time has run out).
  std::erase_if(s.account->characters, [&](const ScenarioCharacter& c) {
    const auto r = records_.find(c.guid);
    return r != records_.end() && r->second.delete_at && *r->second.delete_at <= now;
  });
  protocol::CharacterList list;
  for (const auto& c : s.account->characters) {
    std::uint32_t greyed = 0;
    const auto r = records_.find(c.guid);
    if (r != records_.end() && r->second.delete_at) {
      // Non-zero marks a pending deletion: the seconds left, at least 1.
      greyed = static_cast<std::uint32_t>(std::max(1.0, std::ceil(*r->second.delete_at - now)));
    }
    list.characters.push_back({c.guid, c.name, greyed});
  }
  list.max_slots = s.account->max_slots;
  list.account = s.account->name;
  return list;
}

bool ScenarioServer::name_taken(std::string_view name) const {
  // ACE's IsCharacterNameAvailable: any character not deleted and not
  // pending deletion holds its name (the database compares without case).
  for (const auto& acc : accounts_) {
    for (const auto& c : acc.characters) {
      // A deletion time, whether still ahead (pending) or passed (gone), frees the name.
      const auto r = records_.find(c.guid);
      const bool deleted = r != records_.end() && r->second.delete_at;
      if (!deleted && same_ignoring_case(c.name, name)) return true;
    }
  }
  return false;
}

std::uint32_t ScenarioServer::next_player_guid() const {
  // ACE's player guids start at 0x50000001; a new one follows every guid in
  // that range the accounts hold.
  std::uint32_t next = 0x50000001;
  for (const auto& acc : accounts_) {
    for (const auto& c : acc.characters) {
      if (c.guid >= 0x50000000U && c.guid < 0x70000000U && c.guid >= next) next = c.guid + 1;
    }
  }
  return next;
}

void ScenarioServer::create_character(Session& s, std::span<const std::uint8_t> bytes, double now) {
  namespace cr = protocol::create_response;
  auto m = protocol::decode_character_create(bytes);
  if (!m) {
    event(now, s.info.id, fmt::format("an undecodable F656 was ignored: {}", m.error().message()));
    return;
  }
  // ACE: an account spelled otherwise than the list's is ignored in silence.
  if (m->account != s.account->name) {
    event(now, s.info.id,
          fmt::format("F656 with account '{}' ignored (the list's account is '{}')", m->account, s.account->name));
    return;
  }
  auto answer = [&](std::uint32_t code, const std::string& why) {
    event(now, s.info.id, fmt::format("F656 '{}' refused with F643 {}: {}", m->name, code, why));
    send(s, protocol::encode(protocol::CharacterCreateResponse{code, 0, "", 0}), protocol::queue::Ui, 0, now);
  };
  if (!config_.char_gen) {
    answer(cr::DatabaseDown, "the server has no CharGen to check new characters against");
    return;
  }
  const auto verdict = chargen::verify_character_create(
      *config_.char_gen, *m, [&](std::string_view name) { return name_taken(name); }, config_.create_rules);
  if (verdict.wrong_version) {
    // ACE boots the client (F7DC) rather than answer F643.
    const std::string reason = " because your client is not the correct version for this server";
    event(now, s.info.id, fmt::format("F656 '{}': {} Booted.", m->name, verdict.reason));
    send(s, protocol::encode(protocol::AccountBoot{reason}), protocol::queue::Ui, 0, now);
    s.info.state = SessionState::Rejected;
    s.info.rejection = lo::AccountBoot;
    s.linger_until = now + config_.linger;
    return;
  }
  if (!verdict.ok()) {
    answer(verdict.code, verdict.reason);
    return;
  }
  const std::uint32_t guid = next_player_guid();
  s.account->characters.push_back(ScenarioCharacter{guid, m->name});
  CharacterRecord record;
  if (const auto at = chargen::starting_position(*config_.char_gen, m->start_area)) {
    protocol::Position p;
    p.cell_id = at->cell;
    p.origin = {at->frame.origin.x, at->frame.origin.y, at->frame.origin.z};
    p.orientation = {at->frame.orientation.w, at->frame.orientation.x, at->frame.orientation.y,
                     at->frame.orientation.z};
    record.start = p;
  }
  record.abilities = m->abilities;
  records_[guid] = record;
  event(now, s.info.id, fmt::format("F656 '{}' created as 0x{:08X}", m->name, guid));
  send(s, protocol::encode(protocol::CharacterCreateResponse{cr::Ok, guid, m->name, 0}), protocol::queue::Ui, 0,
       now);
}

void ScenarioServer::delete_character(Session& s, std::span<const std::uint8_t> bytes, double now) {
  constexpr std::uint32_t kDeleteError = 0x06;  // ACE's CharacterError.Delete
  auto m = protocol::decode_character_delete(bytes);
  if (!m) {
    event(now, s.info.id, fmt::format("an undecodable F655 was ignored: {}", m.error().message()));
    return;
  }
  auto refuse = [&](const std::string& why) {
    event(now, s.info.id, fmt::format("F655 for slot {} refused (F659 0x06): {}", m->slot, why));
    send(s, protocol::encode(protocol::CharacterError{kDeleteError}), protocol::queue::Ui, 0, now);
  };
  if (m->account != s.account->name) {
    refuse(fmt::format("account '{}' is not the list's '{}'", m->account, s.account->name));
    return;
  }
  if (m->slot >= s.account->characters.size()) {
    refuse(fmt::format("the account has {} characters", s.account->characters.size()));
    return;
  }
  const ScenarioCharacter& c = s.account->characters[m->slot];
  auto& record = records_[c.guid];
  if (record.delete_at) {
    refuse(fmt::format("'{}' is already pending deletion", c.name));
    return;
  }
  // ACE's order: the bare F655, then the list with the character greyed out.
  send(s, protocol::encode_opcode_only(lo::CharacterDelete), protocol::queue::Ui, 0, now);
  record.delete_at = now + config_.char_delete_time;
  event(now, s.info.id,
        fmt::format("F655: '{}' (0x{:08X}) pending deletion for {:.0f} s", c.name, c.guid, config_.char_delete_time));
  send(s, protocol::encode(character_list(s, now)), protocol::queue::Ui, 0, now);
}

void ScenarioServer::enter_world(Session& s, const protocol::CharacterEnterWorld& m, double now) {
  const ScenarioCharacter* character = nullptr;
  for (const auto& c : s.account->characters) {
    if (c.guid == m.guid) character = &c;
  }
  if (character == nullptr || m.account != s.account->name) {
    event(now, s.info.id,
          fmt::format("F657 for 0x{:08X} with account '{}' refused (F659 0x0F; the list's account is '{}')", m.guid,
                      m.account, s.account->name));
    send(s, protocol::encode(protocol::CharacterError{0x0F}), protocol::queue::Ui, 0, now);
    return;
  }
  const auto record = records_.find(character->guid);
  if (record != records_.end() && record->second.delete_at) {
    // ACE: a character pending deletion does not enter (EnterGameCharacterNotOwned).
    event(now, s.info.id, fmt::format("F657 for 0x{:08X} refused (F659 0x0F): it is pending deletion", m.guid));
    send(s, protocol::encode(protocol::CharacterError{0x0F}), protocol::queue::Ui, 0, now);
    return;
  }
  s.character_copy = *character;
  character = &s.character_copy;
  s.character = character;
  s.info.character = character->guid;
  s.info.state = SessionState::InWorld;
  s.timeline_start.reset();  // the stream waits for the first LoginComplete
  s.cursor = 0;
  s.iteration = 0;
  s.event_sequence = 1;
  s.player_state = ps::Hidden | ps::IgnoreCollisions | ps::Gravity | ps::EdgeSlide;
  event(now, s.info.id, fmt::format("'{}' (0x{:08X}) enters the world", character->name, character->guid));

  // A character created here enters at its CharGen starting position with
  // the abilities it was made with; the scenario's own at the scenario's.
  PlayerSpec spec = scenario_.player;
  if (record != records_.end()) {
    if (record->second.start) spec.position = *record->second.start;
    if (const auto& a = record->second.abilities) {
      // F656 order (Str, End, Coord, Quick, Focus, Self) to PlayerSpec's (Str, End, Quick, Coord, Focus, Self).
      spec.attributes = {(*a)[0], (*a)[1], (*a)[3], (*a)[2], (*a)[4], (*a)[5]};
    }
  }
  const protocol::PlayerDescription description = player_description(spec);
  // The player's run rate from this description (ServerConfig::run_rate); 1
  // without an answer.
  s.run_rate = 1.0F;
  if (config_.run_rate) {
    if (const std::optional<float> rate = config_.run_rate(description)) s.run_rate = *rate;
  }
  send(s,
       protocol::encode_game_event(character->guid, s.event_sequence++, lo::PlayerDescriptionEvent,
                                   player_description_payload(description)),
       protocol::queue::Ui, 0, now);
  send(s, protocol::encode(protocol::PlayerCreate{character->guid}), protocol::queue::SmartBox, 0, now);

  auto& st = s.stamps[character->guid];
  bump(st, TimestampIndex::Instance);
  protocol::CreateObject player;
  player.guid = character->guid;
  auto& ph = player.physics;
  ph.state = s.player_state;
  ph.position = spec.position;
  ph.setup_id = scenario_.player.setup_id;
  ph.motion_table_id = scenario_.player.motion_table_id;
  ph.sound_table_id = scenario_.player.sound_table_id;
  ph.physics_script_table_id = scenario_.player.physics_script_table_id;
  ph.timestamps = st;
  auto& wd = player.weenie;
  wd.name = character->name;
  wd.weenie_class_id = 1;
  wd.icon_id = 0x06001036;
  wd.item_type = 0x10;                 // Creature
  wd.object_description_flags = 0x8;  // Player
  send(s, protocol::encode(player), protocol::queue::SmartBox, 0, now);
  s.player_position = spec.position;
  // The players already in the world and this one see each other.
  for (auto& other : sessions_) {
    if (other.get() == &s || other->info.state != SessionState::InWorld || other->character == nullptr) continue;
    if (other->character->guid == character->guid) continue;
    send(*other, player_create(*other, s), protocol::queue::SmartBox, 0, now);
    send(s, player_create(s, *other), protocol::queue::SmartBox, 0, now);
  }
}

std::vector<std::uint8_t> ScenarioServer::player_create(Session& to, const Session& of) {
  auto& st = to.stamps[of.character->guid];
  bump(st, TimestampIndex::Instance);
  protocol::CreateObject m;
  m.guid = of.character->guid;
  auto& ph = m.physics;
  ph.state = of.player_state;
  ph.position = of.player_position;
  ph.setup_id = scenario_.player.setup_id;
  ph.motion_table_id = scenario_.player.motion_table_id;
  ph.sound_table_id = scenario_.player.sound_table_id;
  ph.physics_script_table_id = scenario_.player.physics_script_table_id;
  ph.timestamps = st;
  auto& wd = m.weenie;
  wd.name = of.character->name;
  wd.weenie_class_id = 1;
  wd.icon_id = 0x06001036;
  wd.item_type = 0x10;                // Creature
  wd.object_description_flags = 0x8;  // Player
  return protocol::encode(m);
}

std::vector<ScenarioServer::Session*> ScenarioServer::observers_of(const Session& mover) {
  std::vector<Session*> out;
  for (auto& other : sessions_) {
    if (other.get() == &mover || other->info.state != SessionState::InWorld || other->character == nullptr) continue;
    if (other->character->guid == mover.character->guid) continue;
    if (distance(other->player_position, mover.player_position) > kRelayRange) continue;
    out.push_back(other.get());
  }
  return out;
}

void ScenarioServer::relay_motion(Session& mover, const protocol::MoveToState& m, double now) {
  const std::uint32_t guid = mover.character->guid;
  for (Session* o : observers_of(mover)) {
    auto& st = o->stamps[guid];
    protocol::MovementEvent e;
    e.guid = guid;
    e.instance_ts = stamp(st, TimestampIndex::Instance);
    e.movement_ts = bump(st, TimestampIndex::Movement);
    // ACE: autonomous motion carries the current server-control stamp.
    e.server_control_ts = stamp(st, TimestampIndex::ServerControlledMove);
    e.is_autonomous = 1;
    e.data = relayed_motion(m, mover.run_rate);
    send(*o, protocol::encode(e), protocol::queue::SmartBox, 0, now);
    event(now, mover.info.id, fmt::format("MoveToState relayed to session {}", o->info.id));
  }
}

void ScenarioServer::relay_position(Session& mover, const protocol::AutonomousPosition& m, double now) {
  const std::uint32_t guid = mover.character->guid;
  for (Session* o : observers_of(mover)) {
    auto& st = o->stamps[guid];
    protocol::UpdatePosition up;
    up.guid = guid;
    up.position.cell_id = m.position.cell_id;
    up.position.origin = m.position.origin;
    up.position.qw = m.position.orientation.w;
    up.position.qx = m.position.orientation.x;
    up.position.qy = m.position.orientation.y;
    up.position.qz = m.position.orientation.z;
    if (m.contact != 0) up.position.flags |= protocol::position_flag::IsGrounded;
    up.position.instance_ts = stamp(st, TimestampIndex::Instance);
    up.position.position_ts = bump(st, TimestampIndex::Position);
    up.position.teleport_ts = stamp(st, TimestampIndex::Teleport);
    up.position.force_position_ts = stamp(st, TimestampIndex::ForcePosition);
    send(*o, protocol::encode(up), protocol::queue::SmartBox, 0, now);
    event(now, mover.info.id, fmt::format("AutonomousPosition relayed to session {}", o->info.id));
  }
}

void ScenarioServer::play_stream(Session& s, double now) {
  const auto& stream = scenario_.stream;
  if (stream.empty()) {
    s.info.stream_complete = true;
    return;
  }
  if (!s.timeline_start) return;  // still in portal space: the stream has not begun
  const double t = now - *s.timeline_start;
  const double period = scenario_.loop_period.value_or(0.0);
  while (!s.info.stream_complete) {
    if (s.cursor >= stream.size()) {
      const bool again = scenario_.loop_period && (!scenario_.loop_count || s.iteration + 1 < *scenario_.loop_count);
      if (!again) {
        s.info.stream_complete = true;
        break;
      }
      // Only the events at or after `loop from` repeat (the stream is sorted).
      s.cursor = static_cast<std::size_t>(
          std::ranges::find_if(stream, [&](const StreamEvent& x) { return x.time >= scenario_.loop_from; }) -
          stream.begin());
      ++s.iteration;
    }
    const StreamEvent& e = stream[s.cursor];
    if (e.time + period * static_cast<double>(s.iteration) > t) break;
    play_event(s, e, now);
    ++s.cursor;
  }
}

void ScenarioServer::play_event(Session& s, const StreamEvent& e, double now) {
  const std::uint32_t player = s.character->guid;
  auto target = [&](std::uint32_t guid) { return e.to_player ? player : guid; };
  constexpr std::uint16_t smartbox = protocol::queue::SmartBox;
  std::visit(
      [&]<class T>(const T& spec) {
        if constexpr (std::is_same_v<T, protocol::CreateObject>) {
          protocol::CreateObject m = spec;
          m.guid = target(spec.guid);
          auto& st = s.stamps[m.guid];
          bump(st, TimestampIndex::Instance);
          m.physics.timestamps = st;
          send(s, protocol::encode(m), smartbox, e.line, now);
        } else if constexpr (std::is_same_v<T, protocol::UpdatePosition>) {
          protocol::UpdatePosition m = spec;
          m.guid = target(spec.guid);
          auto& st = s.stamps[m.guid];
          m.position.instance_ts = stamp(st, TimestampIndex::Instance);
          m.position.position_ts = bump(st, TimestampIndex::Position);
          m.position.teleport_ts = stamp(st, TimestampIndex::Teleport);
          m.position.force_position_ts = stamp(st, TimestampIndex::ForcePosition);
          send(s, protocol::encode(m), smartbox, e.line, now);
        } else if constexpr (std::is_same_v<T, protocol::SetState>) {
          protocol::SetState m = spec;
          m.guid = target(spec.guid);
          auto& st = s.stamps[m.guid];
          m.instance_ts = stamp(st, TimestampIndex::Instance);
          m.state_ts = bump(st, TimestampIndex::State);
          if (m.guid == player) s.player_state = m.state;
          send(s, protocol::encode(m), smartbox, e.line, now);
        } else if constexpr (std::is_same_v<T, protocol::VectorUpdate>) {
          protocol::VectorUpdate m = spec;
          m.guid = target(spec.guid);
          auto& st = s.stamps[m.guid];
          m.instance_ts = stamp(st, TimestampIndex::Instance);
          m.vector_ts = bump(st, TimestampIndex::Vector);
          send(s, protocol::encode(m), smartbox, e.line, now);
        } else if constexpr (std::is_same_v<T, protocol::MovementEvent>) {
          protocol::MovementEvent m = spec;
          m.guid = target(spec.guid);
          auto& st = s.stamps[m.guid];
          m.instance_ts = stamp(st, TimestampIndex::Instance);
          m.movement_ts = bump(st, TimestampIndex::Movement);
          // ACE: the current server-control stamp for autonomous motion, the next otherwise.
          m.server_control_ts = m.is_autonomous != 0 ? stamp(st, TimestampIndex::ServerControlledMove)
                                                     : bump(st, TimestampIndex::ServerControlledMove);
          if (auto* im = std::get_if<protocol::InterpretedMovement>(&m.data.payload)) {
            // Each action gets the object's next 15-bit action stamp; bit 15
            // (autonomous) stays as the scenario set it.
            for (auto& item : im->state.commands) {
              std::uint16_t& action = s.action_stamps[m.guid];
              action = static_cast<std::uint16_t>((action + 1U) & 0x7FFFU);
              item.packed_sequence = static_cast<std::uint16_t>((item.packed_sequence & 0x8000U) | action);
            }
          }
          send(s, protocol::encode(m), smartbox, e.line, now);
        } else if constexpr (std::is_same_v<T, protocol::PlayScriptType>) {
          protocol::PlayScriptType m = spec;
          m.guid = target(spec.guid);
          send(s, protocol::encode(m), smartbox, e.line, now);
        } else if constexpr (std::is_same_v<T, protocol::PlayScriptId>) {
          protocol::PlayScriptId m = spec;
          m.guid = target(spec.guid);
          send(s, protocol::encode(m), smartbox, e.line, now);
        } else if constexpr (std::is_same_v<T, protocol::DeleteObject>) {
          protocol::DeleteObject m = spec;
          m.guid = target(spec.guid);
          m.instance_ts = stamp(s.stamps[m.guid], TimestampIndex::Instance);
          send(s, protocol::encode(m), smartbox, e.line, now);
        } else if constexpr (std::is_same_v<T, TeleportSpec>) {
          // ACE Player.Teleport (spec 3.8): F751, a provisional F748, then the pink bubble.
          auto& st = s.stamps[player];
          send(s, protocol::encode(protocol::PlayerTeleport{bump(st, TimestampIndex::Teleport)}), smartbox, e.line,
               now);
          if (spec.destination) {
            protocol::UpdatePosition up;
            up.guid = player;
            const auto& d = *spec.destination;
            up.position.cell_id = d.cell_id;
            up.position.origin = d.origin;
            up.position.qw = d.orientation.w;
            up.position.qx = d.orientation.x;
            up.position.qy = d.orientation.y;
            up.position.qz = d.orientation.z;
            up.position.instance_ts = stamp(st, TimestampIndex::Instance);
            up.position.position_ts = bump(st, TimestampIndex::Position);
            up.position.teleport_ts = stamp(st, TimestampIndex::Teleport);
            up.position.force_position_ts = stamp(st, TimestampIndex::ForcePosition);
            send(s, protocol::encode(up), smartbox, e.line, now);
          }
          s.player_state |= ps::Hidden | ps::IgnoreCollisions;
          protocol::SetState set{player, s.player_state, stamp(st, TimestampIndex::Instance),
                                 bump(st, TimestampIndex::State)};
          send(s, protocol::encode(set), smartbox, e.line, now);
          s.info.teleporting = true;
        } else if constexpr (std::is_same_v<T, protocol::Sound>) {
          protocol::Sound m = spec;
          m.guid = target(spec.guid);
          send(s, protocol::encode(m), smartbox, e.line, now);
        } else if constexpr (std::is_same_v<T, protocol::ServerMessage>) {
          send(s, protocol::encode(spec), protocol::queue::Ui, e.line, now);
        } else if constexpr (std::is_same_v<T, ChatSpec>) {
          // Speech and emotes are plain messages; the rest are game events to the player.
          std::visit(
              [&](const auto& chat) {
                using C = std::decay_t<decltype(chat)>;
                if constexpr (std::is_same_v<C, protocol::HearSpeech> || std::is_same_v<C, protocol::HearEmote>) {
                  send(s, protocol::encode(chat), protocol::queue::Ui, e.line, now);
                } else {
                  send(s, protocol::encode(chat, player, s.event_sequence++), protocol::queue::Ui, e.line, now);
                }
              },
              spec.message);
        } else if constexpr (std::is_same_v<T, RawMessage>) {
          send(s, spec.bytes, spec.queue, e.line, now);
        }
      },
      e.message);
}

void ScenarioServer::send(Session& s, std::vector<std::uint8_t> message, std::uint16_t queue, int script_line,
                          double now) {
  s.transport.send_message(message, queue);
  if (script_line != 0) ++s.info.scripted_sent;
  record(sent_, SentMessage{now, s.info.id, queue, std::move(message), script_line});
}

void ScenarioServer::flush(Session& s, double now) {
  for (auto& d : s.transport.take_outgoing()) send_raw(s.info.s2c, 1, std::move(d), now);
}

void ScenarioServer::end_session(Session& s, const std::string& why, double now) {
  if (s.info.state == SessionState::Ended) return;
  s.info.state = SessionState::Ended;
  s.info.end_reason = why;
  event(now, s.info.id, fmt::format("session ended: {}", why));
  ++ended_;
}

void ScenarioServer::forget_ended_sessions() {
  // Called between loops over sessions_ only: forgets the oldest ended sessions.
  if (ended_ <= config_.max_ended_sessions) return;
  std::size_t excess = ended_ - config_.max_ended_sessions;
  std::erase_if(sessions_, [&](const auto& x) {
    if (excess == 0 || x->info.state != SessionState::Ended) return false;
    --excess;
    --ended_;
    return true;
  });
}

void ScenarioServer::tick(double now) {
  now_ = std::max(now_, now);
  for (auto& d : inbound_.pop_ready(now)) handle_datagram(d.bytes, d.peer, d.local_port, now);
  for (auto& owned : sessions_) {
    Session& s = *owned;
    switch (s.info.state) {
      case SessionState::Ended:
        continue;
      case SessionState::AwaitingConnectResponse:
        if (now - s.created > config_.half_open_timeout) end_session(s, "no ConnectResponse arrived", now);
        continue;
      case SessionState::Rejected:
      case SessionState::LoggingOff:
        if (now >= s.linger_until) {
          end_session(s, s.info.state == SessionState::Rejected ? "rejected" : "logged off", now);
          continue;
        }
        break;
      case SessionState::Connected:
      case SessionState::InWorld:
        if (s.transport.timed_out(now)) {
          end_session(s, "the client fell silent", now);
          continue;
        }
        if (s.info.state == SessionState::InWorld) play_stream(s, now);
        break;
    }
    s.transport.tick(now);
    flush(s, now);
  }
  forget_ended_sessions();
}

std::vector<Datagram> ScenarioServer::take_outgoing() { return outbound_.pop_ready(now_); }

std::vector<SessionInfo> ScenarioServer::sessions() const {
  std::vector<SessionInfo> out;
  out.reserve(sessions_.size());
  for (const auto& s : sessions_) {
    SessionInfo info = s->info;
    info.transport = s->transport.stats();
    out.push_back(std::move(info));
  }
  return out;
}

ServerStats ScenarioServer::stats() const {
  ServerStats st = stats_;
  st.outbound = outbound_.stats();
  st.inbound = inbound_.stats();
  return st;
}

}  // namespace dereth::scenario
