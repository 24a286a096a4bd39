#include "dereth/scenario/scenario_server.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "dereth/core/byte_reader.hpp"
#include "dereth/core/byte_writer.hpp"
#include "dereth/core/log.hpp"
#include "dereth/protocol/character_create.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/player_description.hpp"
#include "dereth/protocol/player_updates.hpp"

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

std::uint16_t& stamp(Stamps& s, TimestampIndex i) {
  return s[static_cast<std::size_t>(i)];
}
std::uint16_t bump(Stamps& s, TimestampIndex i) {
  return ++stamp(s, i);
}

bool same_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::uint16_t header_time(double now) {
  return static_cast<std::uint16_t>(static_cast<std::uint64_t>(std::max(0.0, now)) & 0xFFFFU);
}

// A client message of a kind the server decodes: the decoded form into
// `field`, or the decoder's error into the record.
template <class T, class Decode>
void keep_decoded(ClientMessage& rec, std::optional<T>& field, Decode decode) {
  if (auto d = decode(rec.bytes)) {
    field = std::move(*d);
  } else {
    rec.decode_error = d.error().message();
  }
}

// The player's qualities as the PlayerDescription (F7B0 0x0013) tells them:
// the scenario's attributes, vitals at their maxima (Health = Endurance / 2,
// Stamina = Endurance, Mana = Self, the usual formulas), Run and Jump
// trained without experience, and the spell book: the spell bar's spells
// and the scenario's `book` ones.
protocol::PlayerDescription player_description(const PlayerSpec& player) {
  protocol::PlayerDescription d;
  d.weenie_type = 1;
  d.vector_flags = protocol::quality_vector_flag::Attribute | protocol::quality_vector_flag::Skill |
                   protocol::quality_vector_flag::Spell;
  for (const auto& list : {player.spells, player.book}) {
    for (const std::uint32_t spell : list) {
      const bool known = std::any_of(d.spells.begin(), d.spells.end(), [&](const auto& e) { return e.first == spell; });
      if (!known) d.spells.emplace_back(spell, 0.0F);
    }
  }
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
  // Spell list 0, the spell bar's first tab (no option flag: one list).
  d.spell_lists = protocol::SpellListsWire{{}, {player.spells}};
  return d;
}

// The PlayerDescription event's payload as ACE sends one: the qualities, the
// option words and spell list 0 (protocol/player_description.hpp; no option
// blocks), then empty inventory lists.
std::vector<std::uint8_t> player_description_payload(const protocol::PlayerDescription& d) {
  core::ByteWriter w;
  w.bytes(protocol::encode_player_description_qualities(d));
  if (!d.spell_lists) w.u32(0);  // spell list 0, empty
  w.u32(0);                      // inventory count
  w.u32(0);                      // equipped count
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

// A landblock's id (0xXXYY) and whether a cell is an indoor one (an EnvCell, 0x0100 up).
std::uint32_t landblock_of(std::uint32_t cell_id) {
  return cell_id >> 16;
}
bool indoor(std::uint32_t cell_id) {
  return (cell_id & 0xFFFFU) >= 0x0100U;
}

// Whether a player going from `from` to `to` walks into `portal`: the path
// comes within the portal's radius of its origin, horizontally (across
// landblocks), with the feet between a metre below the portal's origin and
// its height above.
bool walks_into(const PortalSpec& portal, const protocol::Position& from, const protocol::Position& to) {
  constexpr double kBelow = 1.0, kAbove = 2.8;
  const auto global = [](const protocol::Position& p) {
    const double bx = static_cast<double>((p.cell_id >> 24) & 0xFF) * 192.0;
    const double by = static_cast<double>((p.cell_id >> 16) & 0xFF) * 192.0;
    return std::array<double, 3>{bx + p.origin.x, by + p.origin.y, static_cast<double>(p.origin.z)};
  };
  if (!portal.create.physics.position) return false;
  const auto c = global(*portal.create.physics.position);
  const auto a = global(from);
  const auto b = global(to);
  const double dx = b[0] - a[0], dy = b[1] - a[1];
  const double len2 = dx * dx + dy * dy;
  const double t = len2 > 1e-12 ? std::clamp(((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / len2, 0.0, 1.0) : 0.0;
  const double px = a[0] + dx * t, py = a[1] + dy * t, pz = a[2] + (b[2] - a[2]) * t;
  if (std::hypot(px - c[0], py - c[1]) > static_cast<double>(portal.radius)) return false;
  return pz >= c[2] - kBelow && pz <= c[2] + kAbove;
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
  // The portals this session was shown (`portal` events, by guid): where
  // each stands and where it sends the player.
  std::map<std::uint32_t, PortalSpec> portals;
  // The objects standing in dungeon landblocks (indoor cells of a landblock
  // the player is not in), by landblock and guid, with the script line that
  // made them: ACE shows a dungeon's objects only to those inside it, so
  // each is sent when the player arrives there (again on every arrival).
  std::map<std::uint32_t, std::map<std::uint32_t, std::pair<protocol::CreateObject, int>>> dungeon_objects;
};

// The sandbox's world, shared by every session (ACE's creatures are the
// world's, not a session's): the Attackable creatures the scenario creates,
// and each session's combat mode and swing in progress.
struct ScenarioServer::SandboxState {
  struct Creature {
    protocol::CreateObject create;  // as the scenario creates it
    std::uint32_t health = 0;
    bool alive = true;
    std::optional<double> delete_at;   // dead: the body goes then
    std::optional<double> respawn_at;  // dead: it comes back then
  };
  struct Swing {
    std::uint32_t target = 0;
    float power = 0;
    double strike_at = 0;
    double done_at = 0;
    bool struck = false;
  };
  explicit SandboxState(const SandboxRules& r) : rules(r), rng(r.seed) {}
  SandboxRules rules;
  core::Rng rng;
  std::map<std::uint32_t, Creature> creatures;          // by guid
  std::map<std::uint32_t, Swing> swings;                // by session id
  std::map<std::uint32_t, std::uint32_t> combat_modes;  // by session id: the last ChangeCombatMode
  struct Cast {
    std::uint32_t target = 0;
    std::size_t spell = 0;  // index in rules.spells
    double launch_at = 0;
    std::optional<double> done_at;  // launched: UseDone then
  };
  struct Projectile {
    std::uint32_t guid = 0;
    std::uint32_t session = 0;
    std::uint32_t target = 0;
    std::size_t spell = 0;
    double impact_at = 0;
    std::optional<double> delete_at;  // struck: the body goes then
  };
  std::map<std::uint32_t, Cast> casts;  // by session id
  std::vector<Projectile> projectiles;
  std::map<std::uint32_t, std::uint32_t> mana;  // by session id: the player's current mana
  std::uint32_t next_projectile = 0x80001000;
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
  if (config_.sandbox || scenario_.sandbox) {
    sandbox_ = std::make_unique<SandboxState>(config_.sandbox_rules);
    for (const auto& e : scenario_.stream) {
      const auto* create = std::get_if<protocol::CreateObject>(&e.message);
      if (create == nullptr || e.to_player || (create->weenie.object_description_flags & 0x10U) == 0) continue;
      SandboxState::Creature creature;
      creature.create = *create;
      creature.health = config_.sandbox_rules.creature_health;
      sandbox_->creatures[create->guid] = std::move(creature);
    }
  }
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

void ScenarioServer::receive(std::span<const std::uint8_t> datagram, const Endpoint& from, int local_port, double now) {
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

  const auto live =
      std::ranges::count_if(sessions_, [](const auto& x) { return x->info.state != SessionState::Ended; });
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
    const auto message = protocol::encode(protocol::AccountBoot{fmt::format(
        "client version {} is not the correct version ({})", body->client_version, scenario_.client_version)});
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

void ScenarioServer::handle_connect_response(std::span<const std::uint8_t> datagram, const Endpoint& from, double now) {
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
  send(*s,
       protocol::encode(protocol::ServerName{scenario_.connections, scenario_.max_connections, scenario_.world_name}),
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
    rec.action_sequence = core::load_le<std::uint32_t>(m.bytes.data() + 4);
    rec.action = protocol::peek_wrapped_type(m.bytes);
    const std::uint32_t a = rec.action;
    if (a == protocol::opcode::MoveToState) {
      keep_decoded(rec, rec.move_to_state, protocol::decode_move_to_state);
    } else if (a == protocol::chat_action::Talk || a == protocol::chat_action::Tell ||
               a == protocol::chat_action::Emote || a == protocol::chat_action::SoulEmote) {
      keep_decoded(rec, rec.chat, protocol::decode_chat_action);
    } else if (a == protocol::combat_action::TargetedMeleeAttack ||
               a == protocol::combat_action::TargetedMissileAttack) {
      keep_decoded(rec, rec.attack, protocol::decode_targeted_attack);
    } else if (a == protocol::magic_action::CastTargetedSpell) {
      keep_decoded(rec, rec.cast, protocol::decode_cast_targeted_spell);
    } else if (a == protocol::magic_action::CastUntargetedSpell) {
      keep_decoded(rec, rec.cast_untargeted, protocol::decode_cast_untargeted_spell);
    } else if (a == protocol::magic_action::AddSpellFavorite) {
      keep_decoded(rec, rec.add_favorite, protocol::decode_add_spell_favorite);
    } else if (a == protocol::magic_action::RemoveSpellFavorite) {
      keep_decoded(rec, rec.remove_favorite, protocol::decode_remove_spell_favorite);
    } else if (a == protocol::opcode::Jump) {
      keep_decoded(rec, rec.jump, protocol::decode_jump);
    } else if (a == protocol::opcode::AutonomousPosition) {
      keep_decoded(rec, rec.autonomous_position, protocol::decode_autonomous_position);
    }
  } else if (rec.opcode == lo::CharacterEnterWorld) {
    keep_decoded(rec, rec.enter_world, protocol::decode_character_enter_world);
  }
  record(received_, std::move(rec));
  const ClientMessage& msg = received_.back();

  const SessionState state = s.info.state;
  if (state == SessionState::Rejected || state == SessionState::LoggingOff || state == SessionState::Ended) return;

  // The sandbox answers chat, attacks and health queries itself.
  if (sandbox_ && state == SessionState::InWorld && s.character != nullptr && sandbox_answer(s, msg, now)) return;

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
      const protocol::Position from = s.player_position;
      s.player_position = msg.move_to_state->position;
      relay_motion(s, *msg.move_to_state, now);
      enter_portals(s, from, now);
      return;
    }
    if (msg.autonomous_position) {
      const protocol::Position from = s.player_position;
      s.player_position = msg.autonomous_position->position;
      relay_position(s, *msg.autonomous_position, now);
      enter_portals(s, from, now);
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
    default: break;
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
  send(s, protocol::encode(protocol::CharacterCreateResponse{cr::Ok, guid, m->name, 0}), protocol::queue::Ui, 0, now);
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
  wd.item_type = 0x10;                // Creature
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
          if (sandbox_ && !e.to_player && sandbox_hides(spec.guid)) return;
          protocol::CreateObject m = spec;
          m.guid = target(spec.guid);
          create_object(s, m, e.line, now);
        } else if constexpr (std::is_same_v<T, PortalSpec>) {
          PortalSpec p = spec;
          p.create.guid = target(spec.create.guid);
          s.portals[p.create.guid] = p;
          create_object(s, p.create, e.line, now);
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
          s.portals.erase(m.guid);
          for (auto& [block, objects] : s.dungeon_objects) objects.erase(m.guid);
          send(s, protocol::encode(m), smartbox, e.line, now);
        } else if constexpr (std::is_same_v<T, TeleportSpec>) {
          teleport(s, spec.destination, e.line, now);
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

// An object's CreateObject (its next instance stamp), unless it stands in a
// dungeon landblock the player is not in: ACE shows a dungeon's objects only
// to those inside, so it waits for the player's arrival there (teleport).
void ScenarioServer::create_object(Session& s, protocol::CreateObject m, int line, double now) {
  const std::uint32_t cell = m.physics.position ? m.physics.position->cell_id : 0;
  if (m.guid != s.character->guid && indoor(cell)) {
    s.dungeon_objects[landblock_of(cell)][m.guid] = {m, line};
    if (landblock_of(cell) != landblock_of(s.player_position.cell_id)) {
      event(now, s.info.id,
            fmt::format("0x{:08X} waits for the player in dungeon landblock 0x{:04X}", m.guid, landblock_of(cell)));
      return;
    }
  }
  auto& st = s.stamps[m.guid];
  bump(st, TimestampIndex::Instance);
  m.physics.timestamps = st;
  send(s, protocol::encode(m), protocol::queue::SmartBox, line, now);
}

// ACE Player.Teleport (spec 3.8): F751, a provisional F748, then the pink
// bubble; the server has the player at the destination from then on, and
// shows it the objects of the dungeon it arrives in.
void ScenarioServer::teleport(Session& s, const std::optional<protocol::Position>& destination, int line, double now) {
  constexpr std::uint16_t smartbox = protocol::queue::SmartBox;
  const std::uint32_t player = s.character->guid;
  auto& st = s.stamps[player];
  send(s, protocol::encode(protocol::PlayerTeleport{bump(st, TimestampIndex::Teleport)}), smartbox, line, now);
  if (destination) {
    protocol::UpdatePosition up;
    up.guid = player;
    const auto& d = *destination;
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
    send(s, protocol::encode(up), smartbox, line, now);
  }
  s.player_state |= ps::Hidden | ps::IgnoreCollisions;
  protocol::SetState set{player, s.player_state, stamp(st, TimestampIndex::Instance), bump(st, TimestampIndex::State)};
  send(s, protocol::encode(set), smartbox, line, now);
  s.info.teleporting = true;
  if (!destination) return;
  s.player_position = *destination;
  if (!indoor(destination->cell_id)) return;
  const auto here = s.dungeon_objects.find(landblock_of(destination->cell_id));
  if (here == s.dungeon_objects.end()) return;
  const auto objects = here->second;  // create_object records each again
  for (const auto& [guid, made] : objects) create_object(s, made.first, made.second, now);
}

// ACE's Portal.OnCollideObject -> ActOnUse -> Player.Teleport: the first
// portal the player's path from `from` to where it is now walks into sends
// it to the portal's destination.
void ScenarioServer::enter_portals(Session& s, const protocol::Position& from, double now) {
  for (const auto& [guid, portal] : s.portals) {
    if (!walks_into(portal, from, s.player_position)) continue;
    event(now, s.info.id,
          fmt::format("the player walks into portal 0x{:08X} '{}': teleported to 0x{:08X}", guid,
                      portal.create.weenie.name, portal.destination.cell_id));
    const protocol::Position destination = portal.destination;
    teleport(s, destination, 0, now);
    return;
  }
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
  if (sandbox_) sandbox_tick(now);  // strikes, deaths and respawns, sent by the loop below
  for (auto& owned : sessions_) {
    Session& s = *owned;
    switch (s.info.state) {
      case SessionState::Ended: continue;
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

std::vector<Datagram> ScenarioServer::take_outgoing() {
  return outbound_.pop_ready(now_);
}

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

// ---------------------------------------------------------------------------
// The sandbox (config_.sandbox; docs/scenario.md, "The sandbox"): the answers
// an ACE server gives a player, in ACE's messages.

namespace {

// ACE's broadcast range for local speech and emotes (WorldObject.LocalBroadcastRange).
constexpr double kLocalBroadcastRange = 96.0;
// WeenieError numbers (ACE's WeenieError enum).
constexpr std::uint32_t kYoureTooBusy = 0x001D;
constexpr std::uint32_t kActionCancelled = 0x0036;
constexpr std::uint32_t kCharacterNotAvailable = 0x052B;
// COMBAT_MODE.
constexpr std::uint32_t kNonCombatMode = 1;
constexpr std::uint32_t kMeleeMode = 2;
constexpr std::uint32_t kMissileMode = 4;
constexpr std::uint32_t kMagicMode = 8;
constexpr std::uint32_t kNotEnoughMana = 0x0401;  // WeenieError YouDontHaveEnoughManaToCast
constexpr std::uint16_t kMagicStyle = 0x0049;     // MotionStance Magic 0x80000049
constexpr std::uint16_t kReadyCommand = 0x0003;   // MotionCommand Ready 0x41000003
constexpr std::uint32_t kManaCurrent = 6;         // STypeAttribute2nd: current mana
// PhysicsState of a flying bolt (ReportCollisions | Missile | AlignPath |
// PathClipped | Lighting, the demo's) and of one that struck (Ethereal |
// IgnoreCollisions | NoDraw | Cloaked), as ACE's ProjectileImpact sets it.
constexpr std::uint32_t kBoltState = 0x00000B48;
constexpr std::uint32_t kStruckBoltState = 0x00100374;
constexpr std::uint32_t kLaunchScript = 0x04;   // PlayScript Launch
constexpr std::uint32_t kExplodeScript = 0x05;  // PlayScript Explode

// The word a damage type has in ACE's damage lines (one type).
std::string_view damage_type_word(std::uint32_t type) {
  switch (type) {
    case 0x1: return "slashing";
    case 0x2: return "piercing";
    case 0x4: return "bludgeoning";
    case 0x8: return "cold";
    case 0x10: return "fire";
    case 0x20: return "acid";
    case 0x40: return "electric";
    default: return "magical";
  }
}

// A position's landblock-global coordinates, and back (the outdoor cell of
// the landblock the point lies in).
struct G3 {
  double x = 0, y = 0, z = 0;
  G3 operator+(const G3& o) const { return {x + o.x, y + o.y, z + o.z}; }
  G3 operator-(const G3& o) const { return {x - o.x, y - o.y, z - o.z}; }
  G3 operator*(double k) const { return {x * k, y * k, z * k}; }
  [[nodiscard]] double length() const { return std::hypot(x, y, z); }
};
G3 global_of(const protocol::Position& p) {
  return {static_cast<double>((p.cell_id >> 24) & 0xFF) * 192.0 + p.origin.x,
          static_cast<double>((p.cell_id >> 16) & 0xFF) * 192.0 + p.origin.y, static_cast<double>(p.origin.z)};
}
protocol::Position position_at(const G3& g) {
  const auto lbx = static_cast<std::uint32_t>(std::clamp(std::floor(g.x / 192.0), 0.0, 254.0));
  const auto lby = static_cast<std::uint32_t>(std::clamp(std::floor(g.y / 192.0), 0.0, 254.0));
  const double x = g.x - lbx * 192.0;
  const double y = g.y - lby * 192.0;
  const auto cx = static_cast<std::uint32_t>(std::clamp(std::floor(x / 24.0), 0.0, 7.0));
  const auto cy = static_cast<std::uint32_t>(std::clamp(std::floor(y / 24.0), 0.0, 7.0));
  protocol::Position p;
  p.cell_id = (lbx << 24) | (lby << 16) | (cx * 8 + cy + 1);
  p.origin = {static_cast<float>(x), static_cast<float>(y), static_cast<float>(g.z)};
  return p;
}
constexpr std::uint16_t kNonCombatStyle = 0x003D;
constexpr std::uint16_t kDeadCommand = 0x0011;  // MotionCommand Dead 0x40000011

std::string_view trim_spaces(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

}  // namespace

std::vector<ScenarioServer::Session*> ScenarioServer::hearers_of(Session& s, double range) {
  std::vector<Session*> out{&s};
  for (auto& other : sessions_) {
    if (other.get() == &s || other->info.state != SessionState::InWorld || other->character == nullptr) continue;
    if (distance(other->player_position, s.player_position) > range) continue;
    out.push_back(other.get());
  }
  return out;
}

bool ScenarioServer::sandbox_answer(Session& s, const ClientMessage& m, double now) {
  const std::uint32_t player = s.character->guid;
  if (m.chat) {
    const protocol::ChatAction& c = *m.chat;
    if (c.action == protocol::chat_action::Talk) {
      // ACE reads a Talk that starts with @ as a command.
      if (!c.text.empty() && c.text.front() == '@') {
        sandbox_command(s, c.text, now);
      } else {
        sandbox_talk(s, c.text, now);
      }
    } else if (c.action == protocol::chat_action::Tell) {
      sandbox_tell(s, c, now);
    } else {
      // Emote and SoulEmote: HearEmote / HearSoulEmote to the speaker and everyone in range.
      const protocol::HearEmote emote{player, s.character->name, c.text, c.action == protocol::chat_action::SoulEmote};
      for (Session* h : hearers_of(s, kLocalBroadcastRange)) {
        send(*h, protocol::encode(emote), protocol::queue::Ui, 0, now);
      }
      event(now, s.info.id, fmt::format("sandbox: {} echoed", emote.soul ? "soul emote" : "emote"));
    }
    return true;
  }
  if (m.attack) {
    sandbox_attack(s, *m.attack, now);
    return true;
  }
  if (m.cast) {
    sandbox_cast(s, m.cast->target, m.cast->spell, now);
    return true;
  }
  if (m.cast_untargeted) {
    sandbox_cast(s, 0, m.cast_untargeted->spell, now);
    return true;
  }
  // ACE keeps the favourites the client tells it (no answer goes back).
  if (m.add_favorite) {
    event(now, s.info.id,
          fmt::format("sandbox: spell bar {} gets spell {} at {}", m.add_favorite->list + 1, m.add_favorite->spell,
                      m.add_favorite->index));
    return true;
  }
  if (m.remove_favorite) {
    event(now, s.info.id,
          fmt::format("sandbox: spell bar {} loses spell {}", m.remove_favorite->list + 1, m.remove_favorite->spell));
    return true;
  }
  if (m.action == protocol::combat_action::ChangeCombatMode) {
    if (auto mode = protocol::decode_change_combat_mode(m.bytes)) {
      sandbox_->combat_modes[s.info.id] = mode->mode;
      event(now, s.info.id, fmt::format("sandbox: combat mode {}", mode->mode));
    }
    return true;
  }
  if (m.action == protocol::combat_action::CancelAttack) {
    // ACE's HandleActionCancelAttack: a swing not yet struck ends now.
    const auto swing = sandbox_->swings.find(s.info.id);
    if (swing != sandbox_->swings.end() && !swing->second.struck) {
      sandbox_->swings.erase(swing);
      send(s, protocol::encode_attack_done(player, s.event_sequence++, protocol::AttackDone{kActionCancelled}),
           protocol::queue::Ui, 0, now);
      event(now, s.info.id, "sandbox: attack cancelled");
    }
    return true;
  }
  if (m.action == kQueryHealthAction && m.bytes.size() >= 16) {
    // ACE's QueryHealth: the object's health as a fraction of its maximum.
    const std::uint32_t guid = core::load_le<std::uint32_t>(m.bytes.data() + 12);
    std::optional<float> fraction;
    if (const auto c = sandbox_->creatures.find(guid); c != sandbox_->creatures.end()) {
      fraction =
          static_cast<float>(c->second.health) / static_cast<float>(std::max(1U, sandbox_->rules.creature_health));
    } else {
      for (auto& other : sessions_) {
        if (other->info.state == SessionState::InWorld && other->character && other->character->guid == guid) {
          fraction = 1.0F;
        }
      }
    }
    if (fraction) {
      send(s, encode_update_health(guid, *fraction, player, s.event_sequence++), protocol::queue::Ui, 0, now);
    }
    return true;
  }
  return false;
}

void ScenarioServer::sandbox_talk(Session& s, const std::string& text, double now) {
  // ACE's HandleActionTalk: HearSpeech to every player within the local
  // broadcast range, the speaker included.
  const protocol::HearSpeech speech{text, s.character->name, s.character->guid, std::nullopt,
                                    protocol::chat_type::Speech};
  const auto hearers = hearers_of(s, kLocalBroadcastRange);
  for (Session* h : hearers) send(*h, protocol::encode(speech), protocol::queue::Ui, 0, now);
  event(now, s.info.id, fmt::format("sandbox: speech echoed to {} player(s)", hearers.size()));
}

void ScenarioServer::sandbox_command(Session& s, const std::string& text, double now) {
  // The word after the @, as ACE's CommandManager splits it.
  std::string_view rest = trim_spaces(std::string_view(text).substr(1));
  std::string word(rest.substr(0, rest.find(' ')));
  for (char& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  std::string answer;
  if (word == "help") {
    answer =
        "This is dereth's sandbox server. Speech, emotes and tells (@tell NAME, text) are answered as a server "
        "would; the creatures nearby can be attacked. It has no other @ commands.";
  } else if (word.empty()) {
    answer = "A command needs a name after the @. Type @help for what this server answers.";
  } else {
    answer = fmt::format("This server has no @{} command. Type @help for what it answers.", word);
  }
  send(s, protocol::encode(protocol::ServerMessage{answer, protocol::chat_type::Help}), protocol::queue::Ui, 0, now);
  event(now, s.info.id, fmt::format("sandbox: @{} answered", word));
}

void ScenarioServer::sandbox_tell(Session& s, const protocol::ChatAction& m, double now) {
  // ACE's GameActionTell: the target by name among the players online.
  const std::string_view name = trim_spaces(m.target);
  Session* to = nullptr;
  for (auto& other : sessions_) {
    if (other->info.state == SessionState::InWorld && other->character != nullptr &&
        same_ignoring_case(other->character->name, name)) {
      to = other.get();
    }
  }
  const std::uint32_t player = s.character->guid;
  if (to == nullptr) {
    send(s, protocol::encode(protocol::WeenieError{kCharacterNotAvailable, std::nullopt}, player, s.event_sequence++),
         protocol::queue::Ui, 0, now);
    event(now, s.info.id, fmt::format("sandbox: tell to '{}' refused: not online", name));
    return;
  }
  if (to != &s) {
    send(s,
         protocol::encode(protocol::ServerMessage{fmt::format("You tell {}, \"{}\"", to->character->name, m.text),
                                                  protocol::chat_type::OutgoingTell}),
         protocol::queue::Ui, 0, now);
  }
  const protocol::HearDirectSpeech tell{
      m.text, s.character->name, player, to->character->guid, protocol::chat_type::Tell, 0};
  send(*to, protocol::encode(tell, to->character->guid, to->event_sequence++), protocol::queue::Ui, 0, now);
  event(now, s.info.id, fmt::format("sandbox: tell delivered to session {}", to->info.id));
}

void ScenarioServer::sandbox_attack(Session& s, const protocol::TargetedAttack& m, double now) {
  // ACE's HandleActionTargetedMeleeAttack (and the missile one): checks in
  // ACE's order; each refusal ends the attack with AttackDone
  // ActionCancelled (ACE's OnAttackDone).
  const std::uint32_t player = s.character->guid;
  auto done = [&](const std::string& why) {
    send(s, protocol::encode_attack_done(player, s.event_sequence++, protocol::AttackDone{kActionCancelled}),
         protocol::queue::Ui, 0, now);
    event(now, s.info.id, fmt::format("sandbox: attack on 0x{:08X} refused: {}", m.target, why));
  };
  const bool melee = m.action == protocol::combat_action::TargetedMeleeAttack;
  const auto mode = sandbox_->combat_modes.find(s.info.id);
  const std::uint32_t current = mode == sandbox_->combat_modes.end() ? kNonCombatMode : mode->second;
  if (current != (melee ? kMeleeMode : kMissileMode)) {
    done(fmt::format("the player is in combat mode {}", current));
    return;
  }
  if (s.info.teleporting) {
    send(s, protocol::encode(protocol::WeenieError{kYoureTooBusy, std::nullopt}, player, s.event_sequence++),
         protocol::queue::Ui, 0, now);
    done("the player is in portal space");
    return;
  }
  // Already swinging: ACE keeps the swing it has.
  if (sandbox_->swings.contains(s.info.id)) {
    event(now, s.info.id, fmt::format("sandbox: attack on 0x{:08X} ignored: a swing is in progress", m.target));
    return;
  }
  const auto c = sandbox_->creatures.find(m.target);
  if (c == sandbox_->creatures.end()) {
    for (auto& other : sessions_) {
      if (other->info.state == SessionState::InWorld && other->character != nullptr &&
          other->character->guid == m.target) {
        // ACE's CanDamage: players are not fair game outside player killing.
        send(
            s,
            protocol::encode(protocol::StatusString{fmt::format("You cannot attack {}", other->character->name), false},
                             player, s.event_sequence++),
            protocol::queue::Ui, 0, now);
        done("the target is a player");
        return;
      }
    }
    done("no such creature");
    return;
  }
  if (!c->second.alive) {
    done("the creature is dead");
    return;
  }
  sandbox_->swings[s.info.id] =
      SandboxState::Swing{m.target, std::clamp(m.power, 0.0F, 1.0F), now + sandbox_->rules.strike_delay,
                          now + sandbox_->rules.swing_time, false};
  event(
      now, s.info.id,
      fmt::format("sandbox: attack 0x{:04X} on 0x{:08X}, height {}, power {}", m.action, m.target, m.height, m.power));
}

void ScenarioServer::sandbox_strike(Session& s, std::uint32_t target, float power, double now) {
  auto& c = sandbox_->creatures.at(target);
  if (!c.alive) return;  // another player's strike killed it first
  const SandboxRules& rules = sandbox_->rules;
  const std::string& name = c.create.weenie.name;
  const std::uint32_t player = s.character->guid;
  if (sandbox_->rng.unit() < rules.evade_chance) {
    protocol::CombatNotification evaded;
    evaded.event = protocol::combat_event::EvasionAttackerNotification;
    evaded.name = name;
    send(s, encode(evaded, player, s.event_sequence++), protocol::queue::Ui, 0, now);
    event(now, s.info.id, fmt::format("sandbox: '{}' evaded", name));
    return;
  }
  const auto roll = sandbox_->rng.uniform_int(static_cast<std::int32_t>(rules.min_damage),
                                              static_cast<std::int32_t>(rules.max_damage));
  const auto damage = static_cast<std::uint32_t>(
      std::max(1.0, std::round(static_cast<double>(roll) * (0.5 + static_cast<double>(power)))));
  c.health = damage >= c.health ? 0 : c.health - damage;
  if (c.health > 0) {
    protocol::CombatNotification hit;
    hit.event = protocol::combat_event::AttackerNotification;
    hit.name = name;
    hit.damage_type = 0x4;  // Bludgeon: an unarmed strike
    hit.damage = damage;
    hit.health_fraction = static_cast<double>(damage) / static_cast<double>(std::max(1U, rules.creature_health));
    send(s, encode(hit, player, s.event_sequence++), protocol::queue::Ui, 0, now);
    event(now, s.info.id, fmt::format("sandbox: '{}' hit for {} ({} left)", name, damage, c.health));
    return;
  }
  protocol::CombatNotification killed;
  killed.event = protocol::combat_event::KillerNotification;
  killed.name = fmt::format("You have killed {}!", name);
  sandbox_kill(s, target, encode(killed, player, s.event_sequence++), now);
  event(now, s.info.id, fmt::format("sandbox: '{}' killed by {} ({} damage)", name, s.character->name, damage));
}

void ScenarioServer::sandbox_broadcast(const StreamMessage& message, double now) {
  for (auto& other : sessions_) {
    if (other->info.state != SessionState::InWorld || other->character == nullptr) continue;
    play_event(*other, StreamEvent{now, 0, false, message}, now);
  }
}

void ScenarioServer::sandbox_kill(Session& killer, std::uint32_t target, const std::vector<std::uint8_t>& told,
                                  double now) {
  // ACE's Creature.Die: the killer is told, the creature falls dead where
  // it stands for everyone, its body goes later and it comes back later.
  auto& c = sandbox_->creatures.at(target);
  c.alive = false;
  c.health = 0;
  c.delete_at = now + sandbox_->rules.corpse_time;
  c.respawn_at = now + sandbox_->rules.respawn_time;
  send(killer, told, protocol::queue::Ui, 0, now);
  protocol::MovementEvent dead;
  dead.guid = target;
  dead.data.current_style = kNonCombatStyle;
  protocol::InterpretedMovement im;
  im.state.forward_command = kDeadCommand;
  dead.data.payload = im;
  sandbox_broadcast(dead, now);
}

// ACE's HandleActionCastTargetedSpell / HandleActionMagicCastUnTargetedSpell,
// in its order: not in magic mode, UseDone and nothing more; a cast already
// under way, busy; a spell the sandbox does not have, or a target that is no
// live creature, refused; too little mana, UseDone NotEnoughMana. Then the
// windup and cast gesture (the player's motion in the magic stance, to every
// player), and after the gesture sandbox_launch.
void ScenarioServer::sandbox_cast(Session& s, std::uint32_t target, std::uint32_t spell, double now) {
  const std::uint32_t player = s.character->guid;
  auto use_done = [&](std::uint32_t error, const std::string& why) {
    send(s, protocol::encode(protocol::UseDone{error}, player, s.event_sequence++), protocol::queue::Ui, 0, now);
    event(now, s.info.id, fmt::format("sandbox: cast of {} at 0x{:08X} refused: {}", spell, target, why));
  };
  const auto mode = sandbox_->combat_modes.find(s.info.id);
  const std::uint32_t current = mode == sandbox_->combat_modes.end() ? kNonCombatMode : mode->second;
  if (current != kMagicMode) {
    use_done(0, fmt::format("the player is in combat mode {}", current));
    return;
  }
  if (sandbox_->casts.contains(s.info.id)) {
    use_done(kYoureTooBusy, "a cast is under way");
    return;
  }
  const auto& spells = sandbox_->rules.spells;
  const auto known = std::find_if(spells.begin(), spells.end(), [&](const SandboxSpell& k) { return k.id == spell; });
  if (known == spells.end()) {
    use_done(0, "the sandbox has no such spell");
    return;
  }
  const auto c = sandbox_->creatures.find(target);
  if (c == sandbox_->creatures.end() || !c->second.alive) {
    use_done(0, target == 0 ? "a bolt needs a target" : "no live creature there");
    return;
  }
  if (!sandbox_->mana.contains(s.info.id)) {
    // Full mana at first: the PlayerDescription's maximum (Self).
    std::uint32_t self = scenario_.player.attributes[5];
    if (const auto r = records_.find(player); r != records_.end() && r->second.abilities)
      self = (*r->second.abilities)[5];
    sandbox_->mana[s.info.id] = self;
  }
  if (sandbox_->mana[s.info.id] < known->mana) {
    use_done(kNotEnoughMana, "not enough mana");
    return;
  }
  protocol::MovementEvent gesture;
  gesture.guid = player;
  gesture.data.current_style = kMagicStyle;
  protocol::InterpretedMovement im;
  im.state.current_style = kMagicStyle;
  im.state.forward_command = known->gesture;
  gesture.data.payload = im;
  sandbox_broadcast(gesture, now);
  sandbox_->casts[s.info.id] = SandboxState::Cast{target, static_cast<std::size_t>(known - spells.begin()),
                                                  now + sandbox_->rules.cast_time, std::nullopt};
  event(now, s.info.id, fmt::format("sandbox: cast of {} ({}) at 0x{:08X}", spell, known->name, target));
}

// ACE's DoCastSpell and LaunchSpellProjectile, then FinishCast: the mana
// spent (PrivateUpdateAttribute2ndLevel, current mana), the bolt created
// between the caster and the target flying at the spell's speed, its Launch
// script, the caster back to the magic stance's Ready; UseDone comes later.
void ScenarioServer::sandbox_launch(Session& s, double now) {
  auto& cast = sandbox_->casts.at(s.info.id);
  const SandboxSpell& spell = sandbox_->rules.spells[cast.spell];
  const std::uint32_t player = s.character->guid;
  auto& mana = sandbox_->mana[s.info.id];
  mana = mana >= spell.mana ? mana - spell.mana : 0;
  protocol::PrivateUpdateStatLevel spent;
  spent.wts = static_cast<std::uint8_t>(s.event_sequence & 0xFF);
  spent.stype = kManaCurrent;
  spent.value = mana;
  send(s, protocol::encode(spent), protocol::queue::Ui, 0, now);
  const auto c = sandbox_->creatures.find(cast.target);
  if (c != sandbox_->creatures.end() && c->second.alive) {
    // From a metre in front of the caster's chest to the target's chest.
    const G3 from0 = global_of(s.player_position) + G3{0, 0, 1.2};
    const G3 to = global_of(c->second.create.physics.position.value_or(protocol::Position{})) + G3{0, 0, 1.0};
    G3 dir = to - from0;
    const double length = dir.length();
    dir = length > 1e-3 ? dir * (1.0 / length) : G3{0, 1, 0};
    const G3 from = from0 + dir * std::min(1.0, length * 0.5);
    const double flight = (to - from).length() / std::max(0.1, static_cast<double>(spell.speed));
    protocol::CreateObject bolt;
    bolt.guid = sandbox_->next_projectile++;
    auto& ph = bolt.physics;
    ph.setup_id = spell.setup;
    ph.physics_script_table_id = spell.pes;
    ph.state = kBoltState;
    protocol::Position at = position_at(from);
    // Facing along the flight (the bolt's +Y), as the client's AlignPath keeps it.
    const double heading = std::atan2(-dir.x, dir.y);
    at.orientation = {static_cast<float>(std::cos(heading / 2)), 0.0F, 0.0F, static_cast<float>(std::sin(heading / 2))};
    ph.position = at;
    const G3 v = dir * static_cast<double>(spell.speed);
    ph.velocity = protocol::Vec3{static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)};
    bolt.weenie.name = spell.name;
    bolt.weenie.weenie_class_id = spell.wcid;
    bolt.weenie.icon_id = 0x06001066;
    bolt.weenie.item_type = 0x80;
    sandbox_broadcast(bolt, now);
    sandbox_broadcast(protocol::PlayScriptType{bolt.guid, kLaunchScript, std::bit_cast<std::uint32_t>(1.0F)}, now);
    sandbox_->projectiles.push_back(
        SandboxState::Projectile{bolt.guid, s.info.id, cast.target, cast.spell, now + flight, std::nullopt});
    event(now, s.info.id,
          fmt::format("sandbox: {} 0x{:08X} launched at 0x{:08X} ({} mana left, {:.2f} s of flight)", spell.name,
                      bolt.guid, cast.target, mana, flight));
  }
  protocol::MovementEvent ready;
  ready.guid = player;
  ready.data.current_style = kMagicStyle;
  protocol::InterpretedMovement im;
  im.state.current_style = kMagicStyle;
  im.state.forward_command = kReadyCommand;
  ready.data.payload = im;
  sandbox_broadcast(ready, now);
  cast.done_at = now + 1.0;
}

// ACE's SpellProjectile.OnCollideObject: ProjectileImpact (the struck
// state, the Explode script, the bolt stopped), then the damage: the
// caster's line "You <verb> <target> for N points of <type> damage!" (chat
// type Magic) and the target's health (UpdateHealth), or at zero the
// creature's death with the caster's line (chat type Broadcast).
void ScenarioServer::sandbox_impact(std::size_t index, double now) {
  auto& p = sandbox_->projectiles[index];
  p.delete_at = now + 1.0;
  sandbox_broadcast(protocol::SetState{p.guid, kStruckBoltState, 0, 0}, now);
  sandbox_broadcast(protocol::PlayScriptType{p.guid, kExplodeScript, std::bit_cast<std::uint32_t>(1.0F)}, now);
  sandbox_broadcast(protocol::VectorUpdate{p.guid, {}, {}, 0, 0}, now);
  Session* s = nullptr;
  for (auto& owned : sessions_) {
    if (owned->info.id == p.session && owned->info.state == SessionState::InWorld && owned->character != nullptr) {
      s = owned.get();
    }
  }
  const auto c = sandbox_->creatures.find(p.target);
  if (s == nullptr || c == sandbox_->creatures.end() || !c->second.alive) return;  // it died meanwhile
  const SandboxRules& rules = sandbox_->rules;
  const SandboxSpell& spell = rules.spells[p.spell];
  const std::string& name = c->second.create.weenie.name;
  const auto damage = static_cast<std::uint32_t>(sandbox_->rng.uniform_int(
      static_cast<std::int32_t>(spell.min_damage), static_cast<std::int32_t>(spell.max_damage)));
  auto& health = c->second.health;
  health = damage >= health ? 0 : health - damage;
  const std::uint32_t player = s->character->guid;
  if (health == 0) {
    const std::string text = fmt::format("You have killed {}!", name);
    sandbox_kill(*s, p.target, protocol::encode(protocol::ServerMessage{text, protocol::chat_type::Broadcast}), now);
    event(now, s->info.id,
          fmt::format("sandbox: '{}' killed by {}'s {} ({} damage)", name, s->character->name, spell.name, damage));
    return;
  }
  const double share = static_cast<double>(damage) / static_cast<double>(std::max(1U, rules.creature_health));
  const protocol::CombatVerb verb = protocol::combat_hit_adjectives(spell.damage_type, share);
  const std::string text = fmt::format("You {} {} for {} points of {} damage!", verb.single, name, damage,
                                       damage_type_word(spell.damage_type));
  send(*s, protocol::encode(protocol::ServerMessage{text, protocol::chat_type::Magic}), protocol::queue::Ui, 0, now);
  const float fraction = static_cast<float>(health) / static_cast<float>(std::max(1U, rules.creature_health));
  send(*s, encode_update_health(p.target, fraction, player, s->event_sequence++), protocol::queue::Ui, 0, now);
  event(now, s->info.id, fmt::format("sandbox: '{}' hit by {} for {} ({} left)", name, spell.name, damage, health));
}

void ScenarioServer::sandbox_tick(double now) {
  auto find_session = [&](std::uint32_t id) -> Session* {
    for (auto& owned : sessions_) {
      if (owned->info.id == id && owned->info.state == SessionState::InWorld && owned->character != nullptr) {
        return owned.get();
      }
    }
    return nullptr;
  };
  for (auto it = sandbox_->swings.begin(); it != sandbox_->swings.end();) {
    Session* s = find_session(it->first);
    if (s == nullptr) {
      it = sandbox_->swings.erase(it);
      continue;
    }
    SandboxState::Swing& swing = it->second;
    if (!swing.struck && now >= swing.strike_at) {
      swing.struck = true;
      sandbox_strike(*s, swing.target, swing.power, now);
    }
    if (now >= swing.done_at) {
      // No repeat attacks (the sandbox's players lack AutoRepeatAttacks):
      // ACE's OnAttackDone ends the attack.
      send(
          *s,
          protocol::encode_attack_done(s->character->guid, s->event_sequence++, protocol::AttackDone{kActionCancelled}),
          protocol::queue::Ui, 0, now);
      it = sandbox_->swings.erase(it);
      continue;
    }
    ++it;
  }
  for (auto it = sandbox_->casts.begin(); it != sandbox_->casts.end();) {
    Session* s = find_session(it->first);
    if (s == nullptr) {
      it = sandbox_->casts.erase(it);
      continue;
    }
    if (!it->second.done_at && now >= it->second.launch_at) sandbox_launch(*s, now);
    if (it->second.done_at && now >= *it->second.done_at) {
      // FinishCast: UseDone a second after the launch, the cast over.
      send(*s, protocol::encode(protocol::UseDone{0}, s->character->guid, s->event_sequence++), protocol::queue::Ui, 0,
           now);
      it = sandbox_->casts.erase(it);
      continue;
    }
    ++it;
  }
  for (std::size_t i = 0; i < sandbox_->projectiles.size(); ++i) {
    if (!sandbox_->projectiles[i].delete_at && now >= sandbox_->projectiles[i].impact_at) sandbox_impact(i, now);
  }
  std::erase_if(sandbox_->projectiles, [&](const SandboxState::Projectile& p) {
    if (!p.delete_at || now < *p.delete_at) return false;
    sandbox_broadcast(protocol::DeleteObject{p.guid, 0}, now);
    return true;
  });
  for (auto& [guid, c] : sandbox_->creatures) {
    if (c.delete_at && now >= *c.delete_at) {
      c.delete_at.reset();
      for (auto& other : sessions_) {
        if (other->info.state != SessionState::InWorld || other->character == nullptr) continue;
        play_event(*other, StreamEvent{now, 0, false, protocol::DeleteObject{guid, 0}}, now);
      }
      event(now, 0, fmt::format("sandbox: '{}' (0x{:08X}) removed", c.create.weenie.name, guid));
    }
    if (c.respawn_at && now >= *c.respawn_at) {
      c.respawn_at.reset();
      c.alive = true;
      c.health = sandbox_->rules.creature_health;
      for (auto& other : sessions_) {
        if (other->info.state != SessionState::InWorld || other->character == nullptr) continue;
        play_event(*other, StreamEvent{now, 0, false, c.create}, now);
      }
      event(now, 0, fmt::format("sandbox: '{}' (0x{:08X}) respawned", c.create.weenie.name, guid));
    }
  }
}

bool ScenarioServer::sandbox_hides(std::uint32_t guid) const {
  const auto c = sandbox_->creatures.find(guid);
  return c != sandbox_->creatures.end() && !c->second.alive;
}

}  // namespace dereth::scenario
