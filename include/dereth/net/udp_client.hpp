#pragma once
// The live connection: one UDP socket and its timers on an Asio thread,
// driving a ClientSession. Decoded-order messages reach the main thread
// through a queue (drain_messages); outbound messages are queued from the
// main thread (send_message). Optionally records every datagram to a pcap.
// stop() (and the destructor) shut the thread down cleanly.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dereth/core/error.hpp"
#include "dereth/net/inbox.hpp"
#include "dereth/net/session.hpp"

namespace dereth::net {

struct UdpClientOptions {
  std::string host = "127.0.0.1";
  std::uint16_t port = 9000;
  SessionConfig session;
  std::optional<std::filesystem::path> record_to;  // a pcap file to write
};

struct UdpClientStatus {
  SessionState state = SessionState::Idle;
  std::string failure;
  std::uint32_t player_guid = 0;
  TransportStats transport;
  std::optional<double> time_sync;  // the server time of the last TimeSync header received
  // The account's characters once F658 arrived, and whether the session
  // waits for choose_character (SessionConfig::wait_for_choice).
  std::optional<protocol::CharacterList> characters;
  bool awaiting_choice = false;
  std::uint32_t characters_revision = 0;  // ClientSession::characters_revision
  std::string world_name;                 // ClientSession::world_name
  // A creation waiting for its F643, and the last F643 (ClientSession).
  bool creating = false;
  std::optional<protocol::CharacterCreateResponse> create_response;
};

class UdpClient final : public MessageInbox {
 public:
  // Resolves the host, opens the socket, starts the thread and the login.
  static core::Result<std::unique_ptr<UdpClient>> connect(UdpClientOptions options);
  ~UdpClient() override;
  UdpClient(const UdpClient&) = delete;
  UdpClient& operator=(const UdpClient&) = delete;

  // Messages received since the last call, in order. Thread-safe.
  std::vector<SessionMessage> drain_messages();
  // MessageInbox: the same, for the frame loop; finished once the session failed or closed.
  std::vector<SessionMessage> drain(double /*now*/) override { return drain_messages(); }
  [[nodiscard]] bool finished() const override {
    const auto s = status().state;
    return s == SessionState::Failed || s == SessionState::Closed;
  }
  // Queues a game message for the server. Thread-safe.
  void send_message(std::vector<std::uint8_t> message, std::uint16_t queue);
  // The session's next F7B1 game-action sequence (shared with its own
  // LoginComplete). Thread-safe.
  std::uint32_t next_action_sequence() noexcept;
  [[nodiscard]] UdpClientStatus status() const;
  // ClientSession::choose_character on the network thread. Thread-safe.
  void choose_character(std::uint32_t guid);
  // ClientSession::create_character / delete_character on the network
  // thread. Thread-safe; status().creating is true from this call on.
  void create_character(protocol::CharacterCreate m);
  void delete_character(std::uint32_t guid);
  // The file this session is recorded to (record_to, or the free name next
  // to it when that was taken); empty when not recording.
  [[nodiscard]] const std::filesystem::path& recording() const noexcept;
  // F653 + Disconnect, then stops the thread.
  void logout();
  void stop();

 private:
  struct Impl;
  explicit UdpClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace dereth::net
