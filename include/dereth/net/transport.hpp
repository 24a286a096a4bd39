#pragma once
// The reliable AC transport after the handshake, written without I/O
// ("sans-IO"): datagrams and the current time go in, datagrams and whole
// in-order messages come out. The client session and the scenario server both
// drive one; tests drive two over a lossy in-memory link. Its rules (spec
// 1.4-3.5): docs/net.md "Transport rules as implemented", "Hostile datagrams".

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
  double ack_interval = 2.0;               // seconds between acknowledgements while data arrives
  double nak_delay = 0.3;                  // how long a gap may stand before it is requested
  double nak_repeat = 1.0;                 // how often an unfilled gap is requested again
  double silence_timeout = 60.0;           // no valid packet for this long ends the connection
  double time_sync_interval = 20.0;        // server only: TimeSync every this often
  double echo_interval = 2.0;              // client only: EchoRequest every this often (0 = never)
  std::size_t max_held_packets = 512;      // out-of-order packets held while a gap fills
  std::size_t max_unacked_packets = 4096;  // sent packets kept for retransmission
  std::size_t max_nak_list = 115;          // sequences per retransmit request, sent or honoured
  // Sequences either side of the highest processed one that a packet may
  // carry; anything further is dropped and counted (ACE ends a session whose
  // gap exceeds 256; a lossy link at 50% needs more room than that).
  std::uint32_t receive_window = 1024;
  double min_resend_interval = 0.05;           // one sequence is resent at most this often
  std::uint32_t max_resends_per_second = 512;  // resends in total, whoever asked
  double min_reject_interval = 1.0;            // RejectRetransmit packets at most this often
};

struct TransportStats {
  std::uint64_t packets_sent = 0;
  std::uint64_t packets_received = 0;  // valid packets accepted
  std::uint64_t retransmits_sent = 0;
  std::uint64_t naks_sent = 0;
  std::uint64_t acks_sent = 0;    // pure acknowledgement packets
  std::uint64_t duplicates = 0;   // packets at or below the processed sequence
  std::uint64_t bad_packets = 0;  // unparseable datagrams
  std::uint64_t bad_checksums = 0;
  std::uint64_t held_overflow = 0;         // out-of-order packets dropped because too many were held
  std::uint64_t rejected_retransmits = 0;  // sequences the peer could no longer resend
  std::uint64_t reject_packets_sent = 0;   // RejectRetransmit answers to requests for packets no longer held
  std::uint64_t messages_sent = 0;
  std::uint64_t messages_received = 0;
  // Drops of datagrams (or parts of them) that do not prove they came from the peer.
  std::uint64_t out_of_window = 0;       // a sequence outside the receive window
  std::uint64_t unverified_content = 0;  // cleartext carrying what only an encrypted packet may (fragments, ...)
  std::uint64_t acks_beyond_sent = 0;    // an acknowledgement above the highest sequence sent
  std::uint64_t requests_unsent = 0;     // retransmit requests for a sequence never sent
  std::uint64_t requests_throttled = 0;  // retransmit requests over the per-packet or per-second bound
  std::uint64_t rejects_ignored = 0;     // RejectRetransmit entries not honoured (see docs/net.md)
  std::uint64_t keyless_skipped = 0;     // sequences the peer's key stream proves carried no data
  std::uint64_t stalled = 0;             // 1 once a missing sequence stayed missing past the silence timeout
  // The reassembler's drops (copied from ReassemblerStats).
  std::uint64_t fragments_dropped = 0;  // an index out of range, or a count or queue that disagrees
  std::uint64_t partials_evicted = 0;
  std::uint64_t oversized_messages = 0;  // messages of more fragments than allowed, dropped whole
  // Filled in by the session and the socket thread (UdpClient), not by Transport.
  std::uint64_t handshake_dropped = 0;    // datagrams that did not advance the handshake
  std::uint64_t foreign_datagrams = 0;    // from an address or port that is not the server's
  std::uint64_t queue_overflow = 0;       // messages dropped because a thread queue was full
  std::optional<double> echo_round_trip;  // seconds: the last answered EchoRequest (client), when one was

  // Every datagram or part of one dropped for any reason above (the HUD's "drop").
  [[nodiscard]] std::uint64_t dropped() const noexcept {
    return bad_packets + bad_checksums + held_overflow + out_of_window + unverified_content + acks_beyond_sent +
           requests_unsent + requests_throttled + rejects_ignored + fragments_dropped + partials_evicted +
           oversized_messages + handshake_dropped + foreign_datagrams + queue_overflow;
  }
};

class Transport {
 public:
  Transport(Role role, TransportConfig config = {});

  // Starts the post-handshake transport. `send_seed` keys this side's
  // outgoing checksums, `receive_seed` the peer's. `header_id` goes into
  // every outgoing header's Id (the client's NetID, or 0x000B for a server).
  void start(std::uint32_t send_seed, std::uint32_t receive_seed, std::uint16_t header_id, std::uint16_t iteration,
             double now);
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
  [[nodiscard]] std::uint32_t last_sent_sequence() const noexcept { return last_sent_sequence_; }
  // What the transport holds, for memory bounds: out-of-order packets,
  // sent packets kept for resending, partial messages, receive keys drawn.
  [[nodiscard]] std::size_t held_count() const noexcept { return held_.size(); }
  [[nodiscard]] std::size_t unacked_count() const noexcept { return unacked_.size(); }
  [[nodiscard]] std::size_t partial_count() const noexcept { return reassembler_.partial_count(); }
  [[nodiscard]] std::size_t receive_key_count() const noexcept { return receive_keys_drawn_.size(); }
  // Client: the round trip of the last answered EchoRequest, in seconds.
  [[nodiscard]] std::optional<double> echo_round_trip() const noexcept { return echo_rtt_; }

 private:
  struct Sent {
    Packet packet;
    std::optional<std::uint32_t> key;
    double last_resent = -1e9;
  };
  struct Held {
    Packet packet;
    std::uint32_t key_shift = 0;  // keyless sequences before this one (see receive_key)
  };
  struct Chunk {
    std::uint32_t sequence;
    std::uint16_t count;
    std::uint16_t index;
    std::uint16_t queue;
    std::vector<std::uint8_t> data;
  };

  // Verifies an encrypted packet against the key its sequence calls for;
  // the shift it verified under, or nothing. Consumes nothing.
  std::optional<std::uint32_t> verify_encrypted(const Packet& p);
  std::uint32_t receive_key(std::uint32_t index);
  bool in_sequence_window(std::uint32_t sequence) const noexcept;
  void handle_control(const Packet& p, double now);
  void handle_retransmit_request(const std::vector<std::uint32_t>& list, double now);
  void accept_sequenced(Packet p, std::uint32_t key_shift, double now);
  void deliver(const Packet& p);
  void drain_held(double now);
  void sync_reassembly_stats();
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
  // Receive keys by index: key index i is the (i+1)-th output of the peer's
  // stream; sequence s carries key index s - 2 - (keyless sequences before s).
  std::deque<std::uint32_t> receive_keys_drawn_;
  std::uint32_t receive_key_base_ = 0;  // the index of receive_keys_drawn_.front()
  std::uint32_t receive_key_next_ = 0;  // the index the generator gives next
  std::uint32_t key_shift_ = 0;         // keyless sequences at or below processed_
  std::uint32_t next_sequence_ = 2;
  std::uint32_t last_sent_sequence_ = 1;
  std::uint32_t next_fragment_sequence_ = 1;
  std::deque<Chunk> pending_chunks_;
  std::map<std::uint32_t, Sent> unacked_;
  std::uint32_t processed_ = 1;       // highest contiguous peer sequence processed
  std::uint32_t peer_last_sent_ = 1;  // the highest sequence the peer has shown us
  std::map<std::uint32_t, Held> held_;
  double resend_window_start_ = -1e9;  // the second the resend budget counts in
  std::uint32_t resends_in_window_ = 0;
  double last_reject_sent_ = -1e9;
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
  bool stalled_ = false;
  Reassembler reassembler_;
  std::deque<ReassembledMessage> inbox_;
  std::vector<std::vector<std::uint8_t>> outgoing_;
  TransportStats stats_;
};

}  // namespace dereth::net
