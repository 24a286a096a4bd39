#pragma once
// The scenario server: a sans-IO test double of ACE (spec/protocol.md 1-4).
// It performs the handshake, character list, DDD and world entry, plays the
// scenario's timed message stream and records what clients send. The rules
// and boots: docs/scenario.md "What the server does".

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dereth/chargen/char_gen_data.hpp"
#include "dereth/chargen/verify.hpp"
#include "dereth/net/transport.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/magic.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/protocol/player_description.hpp"
#include "dereth/scenario/impairment.hpp"
#include "dereth/scenario/sandbox.hpp"
#include "dereth/scenario/scenario.hpp"

namespace dereth::scenario {

enum class SessionState : std::uint8_t {
  AwaitingConnectResponse,  // ConnectRequest sent
  Connected,                // ACE's AuthConnected: character list, DDD, F7C8, F657
  InWorld,                  // F657 accepted: world entry burst and the scripted stream
  LoggingOff,               // F653 answered; waiting for the client's Disconnect
  Rejected,                 // F659 sent after the ConnectRequest; dropped shortly
  Ended,
};
[[nodiscard]] const char* to_string(SessionState s) noexcept;

// One message a client sent, in the order the server's transport delivered it.
struct ClientMessage {
  double time = 0;
  std::uint32_t session = 0;  // SessionInfo::id
  std::uint16_t queue = 0;
  std::uint32_t opcode = 0;
  std::uint32_t action = 0;           // F7B1: the action type
  std::uint32_t action_sequence = 0;  // F7B1: the client's stamp
  std::vector<std::uint8_t> bytes;    // the whole message, opcode first
  std::optional<protocol::MoveToState> move_to_state;
  std::optional<protocol::AutonomousPosition> autonomous_position;
  std::optional<protocol::Jump> jump;
  std::optional<protocol::CharacterEnterWorld> enter_world;
  std::optional<protocol::ChatAction> chat;                      // F7B1 Talk, Tell, Emote, SoulEmote
  std::optional<protocol::TargetedAttack> attack;                // F7B1 TargetedMeleeAttack, TargetedMissileAttack
  std::optional<protocol::CastTargetedSpell> cast;               // F7B1 CastTargetedSpell
  std::optional<protocol::CastUntargetedSpell> cast_untargeted;  // F7B1 CastUntargetedSpell
  std::optional<protocol::AddSpellFavorite> add_favorite;        // F7B1 AddSpellFavorite
  std::optional<protocol::RemoveSpellFavorite> remove_favorite;  // F7B1 RemoveSpellFavorite
  std::string decode_error;                                      // a message of a decoded kind that failed to decode
};

// One message the server queued for a client.
struct SentMessage {
  double time = 0;
  std::uint32_t session = 0;
  std::uint16_t queue = 0;
  std::vector<std::uint8_t> bytes;
  int script_line = 0;  // the scenario line it was played from; 0 for protocol replies
};

// Something the server decided, in words ("session 1: wrong password").
struct ServerEvent {
  double time = 0;
  std::uint32_t session = 0;  // 0 when no session is involved
  std::string text;
};

struct SessionInfo {
  std::uint32_t id = 0;      // 1, 2, ... in order of LoginRequests accepted for processing
  std::uint16_t net_id = 0;  // the NetID in the ConnectRequest
  Endpoint c2s;              // where the LoginRequest came from
  Endpoint s2c;              // where the ConnectResponse came from (traffic goes there)
  SessionState state = SessionState::AwaitingConnectResponse;
  std::string account;  // the scenario's spelling
  std::uint32_t character = 0;
  std::uint64_t cookie = 0;
  std::uint32_t server_seed = 0;
  std::uint32_t client_seed = 0;
  std::optional<std::uint32_t> rejection;  // the F659 code, or 0xF7DC for a boot
  int login_completes = 0;                 // 0xA1 actions that ended world entry or a teleport
  bool teleporting = false;
  std::size_t scripted_sent = 0;
  bool stream_complete = false;  // every scripted message queued (never, for an endless loop)
  std::string end_reason;
  net::TransportStats transport;
};

struct ServerStats {
  std::uint64_t datagrams_received = 0;
  std::uint64_t datagrams_sent = 0;
  std::uint64_t ignored_datagrams = 0;  // from no session, unparseable, on the wrong port
  std::uint64_t logins = 0;             // LoginRequests that started a session
  std::uint64_t rejected_logins = 0;
  std::uint64_t ignored_connect_responses = 0;
  std::uint64_t dropped_records = 0;  // records forgotten to respect max_records
  LinkStats outbound;
  LinkStats inbound;
};

struct ServerConfig {
  double half_open_timeout = 15.0;  // ACE's auth timeout: no ConnectResponse by then ends the session
  double linger = 10.0;             // a rejected or logged-off session keeps answering retransmit requests this long
  std::size_t max_live_sessions = 127;   // further LoginRequests are dropped (ACE has 128 session slots)
  std::size_t max_ended_sessions = 256;  // older ended sessions are forgotten
  std::size_t max_records = 200000;      // per record list; the oldest quarter goes when it is full
  net::TransportConfig transport;
  // A player's run rate from the PlayerDescription the server sends it (ACE:
  // Creature.GetRunRate, MovementSystem::GetRunRate over the Run skill its
  // DAT's SkillTable gives): the speed a relayed run carries. The app and
  // tests answer with the client's own rules (sim::Qualities over the
  // portal's SkillTable and XpTable), so observers see the rate the mover's
  // client uses. Unset, or no answer: 1.
  std::function<std::optional<float>(const protocol::PlayerDescription&)> run_rate;
  // Character creation (F656, docs/scenario.md): the CharGen and SkillTable
  // a new character is checked against and placed by. Without them every
  // F656 is answered F643 DatabaseDown, with the reason in the events.
  std::shared_ptr<const chargen::CharGenData> char_gen;
  chargen::CreateRules create_rules;
  // F655: how long a deleted character stays in the list, greyed out,
  // before it is gone (ACE's char_delete_time, 3600 s).
  double char_delete_time = 3600.0;
  // The sandbox (sandbox.hpp, docs/scenario.md "The sandbox"): answer the
  // players as ACE does (speech, emotes and tells echoed, a tell to a name
  // not online refused, @commands answered) and let them fight the
  // scenario's Attackable creatures under `sandbox_rules`. Off, the server
  // only records what players say and answers each attack with AttackDone.
  bool sandbox = false;
  SandboxRules sandbox_rules;
};

class ScenarioServer {
 public:
  explicit ScenarioServer(Scenario scenario, ServerConfig config = {});
  ~ScenarioServer();
  ScenarioServer(const ScenarioServer&) = delete;
  ScenarioServer& operator=(const ScenarioServer&) = delete;

  // One datagram that arrived on port N (local_port 0) or N+1 (1) from `from`.
  void receive(std::span<const std::uint8_t> datagram, const Endpoint& from, int local_port, double now);
  // Runs the timers: the scripted stream, transport acks and resends, timeouts.
  void tick(double now);
  // The datagrams due by the latest time given to receive() or tick().
  std::vector<Datagram> take_outgoing();

  [[nodiscard]] const Scenario& scenario() const noexcept { return scenario_; }
  [[nodiscard]] const std::vector<ClientMessage>& client_messages() const noexcept { return received_; }
  [[nodiscard]] const std::vector<SentMessage>& sent_messages() const noexcept { return sent_; }
  [[nodiscard]] const std::vector<ServerEvent>& events() const noexcept { return events_; }
  [[nodiscard]] std::vector<SessionInfo> sessions() const;
  [[nodiscard]] ServerStats stats() const;

 private:
  struct Session;

  void handle_datagram(std::span<const std::uint8_t> datagram, const Endpoint& from, int local_port, double now);
  void handle_login(const net::Packet& p, const Endpoint& from, double now);
  void handle_connect_response(std::span<const std::uint8_t> datagram, const Endpoint& from, double now);
  void handle_message(Session& s, const net::ReassembledMessage& m, double now);
  void enter_world(Session& s, const protocol::CharacterEnterWorld& m, double now);
  // F656 and F655 (ACE's CharacterHandler.CharacterCreate / CharacterDelete).
  void create_character(Session& s, std::span<const std::uint8_t> bytes, double now);
  void delete_character(Session& s, std::span<const std::uint8_t> bytes, double now);
  // The F658 for the session's account: pending deletions greyed out, those
  // whose time has run out gone from the account.
  protocol::CharacterList character_list(Session& s, double now);
  [[nodiscard]] bool name_taken(std::string_view name) const;
  [[nodiscard]] std::uint32_t next_player_guid() const;
  // The F745 CreateObject that shows `of`'s player to `to` (to's stamps).
  std::vector<std::uint8_t> player_create(Session& to, const Session& of);
  // The other players in the world within the relay range of `mover`.
  std::vector<Session*> observers_of(const Session& mover);
  // A client's MoveToState to its observers as F74C (autonomous), its
  // AutonomousPosition as F748 (ACE's broadcasts; never to the mover).
  void relay_motion(Session& mover, const protocol::MoveToState& m, double now);
  void relay_position(Session& mover, const protocol::AutonomousPosition& m, double now);
  // The sandbox's answers (config_.sandbox; scenario_server.cpp, "The
  // sandbox"). sandbox_answer takes a message from a player in the world
  // and returns whether it answered it; sandbox_tick runs strikes, deaths
  // and respawns; sandbox_hides says a scripted CreateObject is for a
  // creature that is dead now.
  struct SandboxState;
  bool sandbox_answer(Session& s, const ClientMessage& m, double now);
  void sandbox_talk(Session& s, const std::string& text, double now);
  void sandbox_command(Session& s, const std::string& text, double now);
  void sandbox_tell(Session& s, const protocol::ChatAction& m, double now);
  void sandbox_attack(Session& s, const protocol::TargetedAttack& m, double now);
  void sandbox_strike(Session& s, std::uint32_t target, float power, double now);
  // A cast (ACE's Player_Magic: the gesture, then the mana, the projectile
  // and its flight, the impact and the damage); the spell is the sandbox's
  // (SandboxRules::spells), `target` 0 for an untargeted cast.
  void sandbox_cast(Session& s, std::uint32_t target, std::uint32_t spell, double now);
  void sandbox_launch(Session& s, double now);
  void sandbox_impact(std::size_t projectile, double now);
  // ACE's Creature.Die as the sandbox plays it: `killer` told (by `told`),
  // the creature falls dead for everyone, its body goes and it comes back later.
  void sandbox_kill(Session& killer, std::uint32_t target, const std::vector<std::uint8_t>& told, double now);
  // Every player in the world (the sandbox's broadcasts).
  void sandbox_broadcast(const StreamMessage& message, double now);
  void sandbox_tick(double now);
  [[nodiscard]] bool sandbox_hides(std::uint32_t guid) const;
  // The players in the world within `range` metres of `s` (s itself first).
  std::vector<Session*> hearers_of(Session& s, double range);
  void play_stream(Session& s, double now);
  void play_event(Session& s, const StreamEvent& e, double now);
  // A scripted object's CreateObject, held while it stands in a dungeon
  // landblock the player is not in; a teleport (the `teleport` event's, or a
  // portal's) and the dungeon objects shown on arrival; the portals the
  // player's path from `from` walks into.
  void create_object(Session& s, protocol::CreateObject m, int line, double now);
  void teleport(Session& s, const std::optional<protocol::Position>& destination, int line, double now);
  void enter_portals(Session& s, const protocol::Position& from, double now);
  void reject(Session& s, std::uint32_t code, const std::string& why, double now);
  void send(Session& s, std::vector<std::uint8_t> message, std::uint16_t queue, int script_line, double now);
  void send_raw(const Endpoint& to, int local_port, std::vector<std::uint8_t> bytes, double now);
  void flush(Session& s, double now);
  void end_session(Session& s, const std::string& why, double now);
  void forget_ended_sessions();
  void event(double now, std::uint32_t session, std::string text);
  Session* find_by_c2s(const Endpoint& from);
  template <class T>
  void record(std::vector<T>& list, T item);

  // What the server keeps about a character beyond the scenario's account
  // entry: where a created one enters the world and its abilities, and when
  // a deleted one goes for good.
  struct CharacterRecord {
    std::optional<protocol::Position> start;
    std::optional<std::array<std::uint32_t, 6>> abilities;  // F656 order
    std::optional<double> delete_at;                        // pending deletion until then
  };

  Scenario scenario_;
  ServerConfig config_;
  // The scenario's accounts as this server changes them (characters created
  // and deleted); the vector itself never grows, so sessions point into it.
  std::vector<ScenarioAccount> accounts_;
  std::map<std::uint32_t, CharacterRecord> records_;
  core::Rng handshake_rng_;
  ImpairedLink outbound_;
  ImpairedLink inbound_;
  double now_ = 0;
  std::uint32_t next_session_id_ = 1;
  std::vector<std::unique_ptr<Session>> sessions_;
  std::size_t ended_ = 0;
  std::vector<ClientMessage> received_;
  std::vector<SentMessage> sent_;
  std::vector<ServerEvent> events_;
  ServerStats stats_;
  std::unique_ptr<SandboxState> sandbox_;  // with config_.sandbox
};

}  // namespace dereth::scenario
