#pragma once
// The reliable AC transport after the handshake, written without I/O
// ("sans-IO"): datagrams and the current time go in, datagrams and whole
// in-order messages come out. The client session and the scenario server
// both drive one over their sockets; tests drive two over a lossy in-memory
// link. Rules from spec/protocol.md 1.4, 1.6, 2.4-2.6 and 3.5.
//
// Sending: messages are cut into fragments of at most 448 bytes and packed
// into packets of at most 464 body bytes; every data packet takes the next
// sequence (from 2) and the next ISAAC key of the sending stream; sent
// packets are kept until the peer acknowledges them and are resent, with
// the Retransmission flag and the same key, when the peer asks.
// Receiving: checksums are verified (cleartext, or the recovered key within
// a window of the receiving stream); packets are processed strictly in
// sequence order, later ones held (bounded) until the gap fills; missing
// sequences are requested after a short delay; acknowledgements go out at
// least every two seconds; 60 s of silence ends the connection.

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "dereth/net/checksum.hpp"
#include "dereth/net/packet.hpp"
#include "dereth/net/reassembler.hpp"

namespace dereth::net {

enum class Role : std::uint8_t { Client, Server };

struct TransportConfig {
  double ack_interval = 2.0;      // seconds between acknowledgements while data arrives
  double nak_delay = 0.3;         // how long a gap may stand before it is requested
  double nak_repeat = 1.0;        // how often an unfilled gap is requested again
  double silence_timeout = 60.0;  // no valid packet for this long ends the connection
  double time_sync_interval = 20.0;  // server only: TimeSync every this often
  double echo_interval = 2.0;        // client only: EchoRequest every this often (0 = never)
  std::size_t max_held_packets = 512;  // out-of-order packets held while a gap fills
  std::size_t max_unacked_packets = 4096;  // sent packets kept for retransmission
  std::size_t max_nak_list = 115;
};

struct TransportStats {
  std::uint64_t packets_sent = 0;
  std::uint64_t packets_received = 0;    // valid packets accepted
  std::uint64_t retransmits_sent = 0;
  std::uint64_t naks_sent = 0;
  std::uint64_t acks_sent = 0;           // pure acknowledgement packets
  std::uint64_t duplicates = 0;          // packets at or below the processed sequence
  std::uint64_t bad_packets = 0;         // unparseable datagrams
  std::uint64_t bad_checksums = 0;
  std::uint64_t held_overflow = 0;       // out-of-order packets dropped because too many were held
  std::uint64_t rejected_retransmits = 0;  // sequences the peer could no longer resend
  std::uint64_t messages_sent = 0;
  std::uint64_t messages_received = 0;
  std::optional<double> echo_round_trip;  // seconds: the last answered EchoRequest (client), when one was
};

class Transport {
 public:
  Transport(Role role, TransportConfig config = {});

  // Starts the post-handshake transport. `send_seed` keys this side's
  // outgoing checksums, `receive_seed` the peer's. `header_id` goes into
  // every outgoing header's Id (the client's NetID, or 0x000B for a server).
  void start(std::uint32_t send_seed, std::uint32_t receive_seed, std::uint16_t header_id,
             std::uint16_t iteration, double now);
  [[nodiscard]] bool started() const noexcept { return started_; }

  // Queues one whole message (opcode first) on a fragment queue.
  void send_message(std::span<const std::uint8_t> message, std::uint16_t queue);
  // Feeds one received datagram.
  void receive(std::span<const std::uint8_t> datagram, double now);
  // Runs the timers (acks, retransmit requests, time sync) and packs queued
  // messages into packets.
  void tick(double now);
  // Sends a Disconnect packet (flag 0x8000) and stops sending.
  void disconnect(double now);

  // Datagrams ready to go out, oldest first.
  std::vector<std::vector<std::uint8_t>> take_outgoing();
  // The next message received, in order.
  std::optional<ReassembledMessage> poll_message();

  [[nodiscard]] bool timed_out(double now) const noexcept;
  [[nodiscard]] bool peer_disconnected() const noexcept { return peer_disconnected_; }
  [[nodiscard]] const TransportStats& stats() const noexcept { return stats_; }
  [[nodiscard]] std::optional<double> last_time_sync() const noexcept { return time_sync_; }
  [[nodiscard]] std::uint32_t highest_processed() const noexcept { return processed_; }
  // Client: the round trip of the last answered EchoRequest, in seconds.
  [[nodiscard]] std::optional<double> echo_round_trip() const noexcept { return echo_rtt_; }

 private:
  struct Sent {
    Packet packet;
    std::optional<std::uint32_t> key;
  };
  struct Chunk {
    std::uint32_t sequence;
    std::uint16_t count;
    std::uint16_t index;
    std::uint16_t queue;
    std::vector<std::uint8_t> data;
  };

  void process(const Packet& p, double now);
  bool checksum_ok(const Packet& p);
  void flush_data(double now);
  void send_packet(Packet p, bool keyed);
  void send_pure_ack(double now);
  std::size_t add_echo(Packet& p, double now);  // adds an EchoRequest/Response when due; returns its bytes
  void send_nak(double now);
  std::uint16_t header_time(double now) const;

  Role role_;
  TransportConfig config_;
  bool started_ = false;
  bool stopped_ = false;
  bool peer_disconnected_ = false;
  std::uint16_t header_id_ = 0;
  std::uint16_t iteration_ = 0;
  std::optional<AcIsaac> send_keys_;
  std::optional<AcIsaac> receive_keys_;
  std::vector<std::uint32_t> receive_window_;  // drawn, unused receive keys
  std::uint32_t next_sequence_ = 2;
  std::uint32_t last_sent_sequence_ = 1;
  std::uint32_t next_fragment_sequence_ = 1;
  std::deque<Chunk> pending_chunks_;
  std::map<std::uint32_t, Sent> unacked_;
  std::uint32_t processed_ = 1;  // highest contiguous peer sequence processed
  std::uint32_t peer_last_sent_ = 1;  // the highest sequence the peer has shown us
  std::map<std::uint32_t, Packet> held_;
  std::optional<double> gap_since_;
  double last_nak_ = -1e9;
  double last_ack_sent_ = 0;
  std::uint32_t last_acked_value_ = 1;
  double last_receive_ = 0;
  double last_time_sync_sent_ = -1e9;
  double start_time_ = 0;
  std::optional<double> time_sync_;
  double last_echo_sent_ = -1e9;
  std::optional<float> echo_to_answer_;  // server: the client time of an EchoRequest not yet answered
  double echo_received_at_ = 0;
  std::optional<double> echo_rtt_;
  std::optional<std::uint32_t> piggyback_ack_;
  Reassembler reassembler_;
  std::deque<ReassembledMessage> inbox_;
  std::vector<std::vector<std::uint8_t>> outgoing_;
  TransportStats stats_;
};

}  // namespace dereth::net
