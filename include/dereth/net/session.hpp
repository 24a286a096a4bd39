#pragma once
// The client session (spec/protocol.md section 3), sans-IO like Transport: the
// LoginRequest / ConnectRequest / ConnectResponse handshake on ports N and N+1,
// then DDD, the character choice and world entry over the transport. The world's
// owner sends LoginComplete (retail sends it when portal space ends). Timings
// and rules: docs/net.md "The session's handshake".

#include <atomic>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dereth/net/transport.hpp"
#include "dereth/protocol/character_create.hpp"
#include "dereth/protocol/login.hpp"

namespace dereth::net {

struct SessionConfig {
  std::string account;
  std::string password;
  std::optional<std::string> character;  // by name; the first character when empty
  // With no character named: wait in CharacterSelect for choose_character
  // (the window's character list) instead of taking the first.
  bool wait_for_choice = false;
  // `play --create`: once the list has arrived, send this F656 (the account
  // and slot are taken from the list), then enter the world with the new
  // character; a refusal ends the session with the server's reason.
  std::optional<protocol::CharacterCreate> create;
  std::string server_name = "the server";  // for messages: "127.0.0.1:9000"
  double login_resend_interval = 2.0;
  int login_attempts = 20;
  // Seconds from start() to a connected session (ConnectRequest answered and
  // accepted) before the login gives up with one sentence; retail resends its
  // LoginRequest, and a player should not wait longer than this.
  double login_timeout = 8.0;
  double connect_resend_interval = 0.3;
  double connect_give_up = 3.0;  // unanswered ConnectResponses for this long start a fresh handshake
  TransportConfig transport;
};

enum class SessionState : std::uint8_t {
  Idle,
  LoggingIn,        // LoginRequest sent, waiting for ConnectRequest
  Connecting,       // ConnectResponse sent, waiting for traffic from N+1
  CharacterSelect,  // connected, waiting for the character list / server ready
  EnteringWorld,    // F657 sent, waiting for the player
  InWorld,
  Closed,
  Failed,
};

[[nodiscard]] const char* to_string(SessionState s) noexcept;

struct OutgoingDatagram {
  std::vector<std::uint8_t> bytes;
  std::uint8_t port_offset = 0;  // 0: the server's port N; 1: port N+1
  // What a recording keeps instead of `bytes`, when they hold a secret: the
  // LoginRequest with every password byte replaced by '*' (same length) and
  // its checksum recomputed, so the recording stays a valid capture.
  std::optional<std::vector<std::uint8_t>> for_recording;
  [[nodiscard]] const std::vector<std::uint8_t>& recorded_bytes() const noexcept {
    return for_recording ? *for_recording : bytes;
  }
};

// The filler that stands for each password byte in a recording.
inline constexpr char kPasswordFiller = '*';

struct SessionMessage {
  double time = 0;
  std::uint16_t queue = 0;
  std::vector<std::uint8_t> bytes;  // opcode first
};

class ClientSession {
 public:
  explicit ClientSession(SessionConfig config);

  void start(double now);
  // A datagram from the server; `from_port_offset` says whether it came from port N (0) or N+1 (1).
  void receive(std::span<const std::uint8_t> datagram, std::uint8_t from_port_offset, double now);
  void tick(double now);
  // The system reported the server's port `port` (N or N+1) unreachable (an
  // ICMP port-unreachable for a datagram sent there): nothing listens there
  // any more, so the session ends now with one sentence naming that port.
  void port_unreachable(std::uint16_t port, double now);
  std::vector<OutgoingDatagram> take_outgoing();
  // Every game message received, in order (the login ones included).
  std::optional<SessionMessage> poll_message();

  // Queues a game message for the server (only once connected).
  bool send_message(std::span<const std::uint8_t> message, std::uint16_t queue);
  // The F7B1 sequence ("stamp") for the next game action: 1, 2, ...
  // (retail Proto_UI::GetNextUICounter), one counter for every game action
  // the client sends: the session's LoginComplete and the command
  // interpreter's movement alike. Safe to call from another thread.
  std::uint32_t next_action_sequence() noexcept { return action_sequence_.fetch_add(1, std::memory_order_relaxed); }
  // Logs off politely (F653 then Disconnect).
  void logout(double now);

  [[nodiscard]] SessionState state() const noexcept { return state_; }
  [[nodiscard]] const std::string& failure() const noexcept { return failure_; }
  [[nodiscard]] std::uint32_t player_guid() const noexcept { return player_guid_; }
  [[nodiscard]] const std::optional<protocol::CharacterList>& characters() const noexcept { return characters_; }
  // Waiting for choose_character (wait_for_choice, the list has arrived).
  [[nodiscard]] bool awaiting_choice() const noexcept { return awaiting_choice_; }
  // Enters the world with the listed character `guid`; false (nothing sent)
  // when not awaiting a choice or `guid` is not on the list.
  bool choose_character(std::uint32_t guid);
  // Character creation and deletion while the list is shown (awaiting a
  // choice). create_character sends F656 with the account as the list
  // spelled it and the first free slot; false (nothing sent) when not
  // awaiting a choice or while another creation waits for its F643. On F643
  // Ok the new character joins the list (it can be entered at once); on a
  // refusal the list stays and create_response() holds the code.
  bool create_character(protocol::CharacterCreate m);
  [[nodiscard]] bool creating() const noexcept { return creating_; }
  [[nodiscard]] const std::optional<protocol::CharacterCreateResponse>& create_response() const noexcept {
    return create_response_;
  }
  // F655 for the listed character `guid` (its slot is its place in the
  // list); false when not awaiting a choice or `guid` is not listed. The
  // server's F655 answer marks it pending deletion until its next list says
  // otherwise.
  bool delete_character(std::uint32_t guid);
  // The world's name from F7E1 ServerName (empty until it arrives).
  [[nodiscard]] const std::string& world_name() const noexcept { return world_name_; }
  // Counts every change to characters() (a new list, a created or deleted character).
  [[nodiscard]] std::uint32_t characters_revision() const noexcept { return characters_revision_; }
  [[nodiscard]] const Transport& transport() const noexcept { return transport_; }
  // LoginComplete actions (0xF7B1 0x00A1) sent, by either path.
  [[nodiscard]] int login_complete_count() const noexcept { return login_completes_; }
  // CM_Character::Event_LoginCompleteNotification: queues the LoginComplete
  // game action; false (nothing sent) before the session is connected.
  bool send_login_complete();
  // Datagrams that arrived during the handshake and did not advance it
  // (garbage, a bad checksum, a ConnectRequest from the wrong port, ...).
  [[nodiscard]] std::uint64_t handshake_dropped() const noexcept { return handshake_dropped_; }

 private:
  void fail(std::string sentence);
  void on_message(const ReassembledMessage& m, double now);
  void send_login_request(double now);
  void send_connect_response(double now);
  void send_create(protocol::CharacterCreate m);
  void enter(std::uint32_t guid);

  SessionConfig config_;
  SessionState state_ = SessionState::Idle;
  std::string failure_;
  Transport transport_;
  std::vector<OutgoingDatagram> outgoing_;
  std::deque<SessionMessage> inbox_;
  int login_sent_ = 0;
  double started_at_ = 0;
  double last_now_ = 0;  // the latest time the session was given (for a Disconnect from fail())
  double last_login_sent_ = 0;
  double last_connect_sent_ = 0;
  double connect_started_ = 0;
  std::optional<ConnectRequestBody> connect_;
  std::uint16_t server_iteration_ = 0;
  std::optional<protocol::CharacterList> characters_;
  bool awaiting_choice_ = false;
  bool creating_ = false;
  bool create_sent_ = false;  // SessionConfig::create went out
  std::optional<protocol::CharacterCreateResponse> create_response_;
  std::uint32_t pending_delete_ = 0;  // the guid an F655 was sent for
  std::uint32_t characters_revision_ = 0;
  std::string world_name_;
  std::uint32_t chosen_guid_ = 0;
  std::uint32_t player_guid_ = 0;
  bool player_created_ = false;
  int login_completes_ = 0;
  std::uint64_t handshake_dropped_ = 0;
  std::atomic<std::uint32_t> action_sequence_{1};
};

}  // namespace dereth::net
