#include "dereth/net/transport.hpp"

#include <algorithm>
#include <cmath>

namespace dereth::net {

namespace pf = packet_flag;

namespace {

constexpr std::size_t kMaxBody = 464;
// Keyless sequences (RejectRetransmit answers) tolerated between two packets
// that verify; the peer sends at most one a second.
constexpr std::uint32_t kMaxKeyShift = 64;
// What a cleartext packet may carry after the handshake (retail sends pure
// acks, retransmit requests and rejections in cleartext): never fragments.
constexpr std::uint32_t kCleartextAllowed = pf::Retransmission | pf::RequestRetransmit | pf::RejectRetransmit |
                                            pf::AckSequence | pf::Disconnect | pf::TimeSync | pf::EchoRequest |
                                            pf::EchoResponse | pf::Flow;

// Packets that reuse the sender's current sequence instead of taking a new one.
bool is_unsequenced(std::uint32_t flags) {
  const std::uint32_t f = flags & ~pf::Retransmission;
  return f == pf::AckSequence || (f & pf::RequestRetransmit) != 0;
}

}  // namespace

Transport::Transport(Role role, TransportConfig config) : role_(role), config_(config) {
  next_fragment_sequence_ = role == Role::Client ? 1 : 0;
}

void Transport::start(std::uint32_t send_seed, std::uint32_t receive_seed, std::uint16_t header_id,
                      std::uint16_t iteration, double now) {
  send_keys_.emplace(send_seed);
  receive_keys_.emplace(receive_seed);
  receive_keys_drawn_.clear();
  receive_key_base_ = 0;
  receive_key_next_ = 0;
  key_shift_ = 0;
  header_id_ = header_id;
  iteration_ = iteration;
  started_ = true;
  start_time_ = now;
  last_receive_ = now;
  last_ack_sent_ = now;
}

std::uint16_t Transport::header_time(double now) const {
  // The client counts half-seconds of session time; a server sends whole seconds.
  const double t = role_ == Role::Client ? (now - start_time_) * 2.0 : now;
  return static_cast<std::uint16_t>(static_cast<std::uint64_t>(std::max(0.0, t)) & 0xFFFFU);
}

void Transport::send_message(std::span<const std::uint8_t> message, std::uint16_t queue) {
  const std::uint32_t sequence = next_fragment_sequence_++;
  const std::size_t count = std::max<std::size_t>(1, (message.size() + kMaxFragmentData - 1) / kMaxFragmentData);
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t begin = i * kMaxFragmentData;
    const std::size_t end = std::min(message.size(), begin + kMaxFragmentData);
    pending_chunks_.push_back(Chunk{sequence, static_cast<std::uint16_t>(count), static_cast<std::uint16_t>(i), queue,
                                    std::vector<std::uint8_t>(message.begin() + static_cast<std::ptrdiff_t>(begin),
                                                              message.begin() + static_cast<std::ptrdiff_t>(end))});
  }
  ++stats_.messages_sent;
}

std::uint32_t Transport::receive_key(std::uint32_t index) {
  while (receive_key_next_ <= index) {
    receive_keys_drawn_.push_back(receive_keys_->next());
    ++receive_key_next_;
  }
  return receive_keys_drawn_[index - receive_key_base_];
}

std::optional<std::uint32_t> Transport::verify_encrypted(const Packet& p) {
  if (!receive_keys_) return std::nullopt;
  // Keys are tied to sequences (retail, BZR ChecksumXorGenerator: sequence s
  // takes output s-1): sequence s carries key index s - 2 - r, where r counts
  // the sequences before s that took no key (the peer's RejectRetransmit
  // answers, spec/protocol.md 1.6 and 2.6). r is at least what it is at the
  // processed sequence and grows by at most one per sequence since, so the
  // search is a handful of comparisons and draws nothing that a later packet
  // would miss: a failed match consumes nothing.
  const std::uint32_t key = recover_key(p);
  const std::uint32_t s = p.header.sequence;
  const std::uint32_t extra = std::min(s - processed_ - 1, kMaxKeyShift);
  for (std::uint32_t r = key_shift_; r <= key_shift_ + extra; ++r) {
    if (s < 2 + r) break;
    const std::uint32_t index = s - 2 - r;
    if (index < receive_key_base_) break;
    if (receive_key(index) == key) return r;
  }
  return std::nullopt;
}

bool Transport::in_sequence_window(std::uint32_t sequence) const noexcept {
  const std::uint64_t low = processed_ > config_.receive_window ? processed_ - config_.receive_window : 0;
  const std::uint64_t high = static_cast<std::uint64_t>(processed_) + config_.receive_window;
  return sequence >= low && sequence <= high;
}

void Transport::receive(std::span<const std::uint8_t> datagram, double now) {
  auto parsed = parse_packet(datagram);
  if (!parsed) {
    ++stats_.bad_packets;
    return;
  }
  Packet& p = *parsed;
  if (!started_) {
    ++stats_.out_of_window;
    return;
  }
  const std::uint32_t seq = p.header.sequence;
  if ((p.header.flags & pf::EncryptedChecksum) == 0) {
    // Cleartext: anyone can compute the checksum, so it may only carry what
    // retail sends in cleartext, and only near the session's sequences.
    if (!cleartext_checksum_ok(p)) {
      ++stats_.bad_checksums;
      return;
    }
    if ((p.header.flags & ~kCleartextAllowed) != 0 || !p.fragments.empty()) {
      ++stats_.unverified_content;
      return;
    }
    if ((p.header.flags & pf::Disconnect) != 0) {
      // Retail ends the session on a cleartext Disconnect as well.
      peer_disconnected_ = true;
      return;
    }
    if (!in_sequence_window(seq)) {
      ++stats_.out_of_window;
      return;
    }
    ++stats_.packets_received;
    last_receive_ = now;
    handle_control(p, now);
    if (is_unsequenced(p.header.flags)) {
      // A pure ack carries the peer's last sent sequence: a later one means we miss packets.
      if (seq > processed_ && !gap_since_) gap_since_ = now;
      peer_last_sent_ = std::max(peer_last_sent_, seq);
    }
    return;
  }
  if (seq <= processed_ || held_.contains(seq)) {
    ++stats_.duplicates;
    return;
  }
  if (seq - processed_ > config_.receive_window) {
    ++stats_.out_of_window;
    return;
  }
  const auto shift = verify_encrypted(p);
  if (!shift) {
    ++stats_.bad_checksums;
    return;
  }
  ++stats_.packets_received;
  last_receive_ = now;
  if (p.header.flags & (pf::Disconnect | pf::NetErrorDisconnect)) peer_disconnected_ = true;
  handle_control(p, now);
  accept_sequenced(std::move(p), *shift, now);
}

void Transport::handle_control(const Packet& p, double now) {
  if (p.optional.time_sync) time_sync_ = *p.optional.time_sync;
  if (p.optional.echo_request && role_ == Role::Server) {
    echo_to_answer_ = *p.optional.echo_request;
    echo_received_at_ = now;
  }
  if (p.optional.echo_response && role_ == Role::Client) {
    // The client's own clock: seconds since start, as sent in the request.
    echo_rtt_ = (now - start_time_) - static_cast<double>(p.optional.echo_response->client_time);
  }
  if (p.optional.ack_sequence) {
    const std::uint32_t acked = *p.optional.ack_sequence;
    if (acked > last_sent_sequence_) {
      // Nothing above what was sent can be acknowledged: a forgery, and the
      // resend store must survive it.
      ++stats_.acks_beyond_sent;
    } else {
      unacked_.erase(unacked_.begin(), unacked_.upper_bound(acked));
    }
  }
  if (p.optional.request_retransmit && !stopped_) handle_retransmit_request(*p.optional.request_retransmit, now);
  if (p.optional.reject_retransmit) {
    // Retail gives a rejected sequence up; a RejectRetransmit travels in
    // cleartext and can be forged, so dereth never skips data on one (the
    // sequence the rejection itself took is skipped when the key stream
    // proves it keyless). docs/deviations.md, "Network".
    stats_.rejects_ignored += p.optional.reject_retransmit->size();
  }
}

void Transport::handle_retransmit_request(const std::vector<std::uint32_t>& list, double now) {
  if (now - resend_window_start_ >= 1.0) {
    resend_window_start_ = now;
    resends_in_window_ = 0;
  }
  std::vector<std::uint32_t> rejected;
  std::size_t handled = 0;
  for (const std::uint32_t seq : list) {
    if (handled >= config_.max_nak_list) {
      ++stats_.requests_throttled;
      continue;
    }
    ++handled;
    if (seq < 2 || seq > last_sent_sequence_) {
      ++stats_.requests_unsent;
      continue;
    }
    auto it = unacked_.find(seq);
    if (it == unacked_.end()) {
      rejected.push_back(seq);
      continue;
    }
    if (now - it->second.last_resent < config_.min_resend_interval ||
        resends_in_window_ >= config_.max_resends_per_second) {
      ++stats_.requests_throttled;
      continue;
    }
    it->second.last_resent = now;
    ++resends_in_window_;
    Packet again = it->second.packet;
    again.header.flags |= pf::Retransmission;
    outgoing_.push_back(serialize_packet(again, it->second.key));
    ++stats_.retransmits_sent;
  }
  if (rejected.empty()) return;
  if (now - last_reject_sent_ < config_.min_reject_interval) {
    stats_.requests_throttled += rejected.size();
    return;
  }
  // As ACE: a RejectRetransmit takes the next sequence and no key.
  Packet reject;
  reject.header.sequence = next_sequence_++;
  last_sent_sequence_ = reject.header.sequence;
  reject.header.id = header_id_;
  reject.header.iteration = iteration_;
  reject.header.time = header_time(now);
  reject.optional.reject_retransmit = std::move(rejected);
  outgoing_.push_back(serialize_packet(reject));
  ++stats_.packets_sent;
  ++stats_.reject_packets_sent;
  last_reject_sent_ = now;
}

void Transport::deliver(const Packet& p) {
  for (const auto& f : p.fragments) {
    if (auto m = reassembler_.add(f)) {
      inbox_.push_back(std::move(*m));
      ++stats_.messages_received;
    }
  }
  sync_reassembly_stats();
}

void Transport::sync_reassembly_stats() {
  const ReassemblerStats& r = reassembler_.stats();
  stats_.fragments_dropped = r.inconsistent_fragments + r.mismatched_fragments;
  stats_.partials_evicted = r.evicted_partials;
  stats_.oversized_messages = r.oversized_messages;
}

void Transport::accept_sequenced(Packet p, std::uint32_t key_shift, double now) {
  const std::uint32_t seq = p.header.sequence;
  peer_last_sent_ = std::max(peer_last_sent_, seq);
  if (held_.size() >= config_.max_held_packets && seq != processed_ + 1) {
    ++stats_.held_overflow;
    return;
  }
  held_.emplace(seq, Held{std::move(p), key_shift});
  drain_held(now);
}

void Transport::drain_held(double now) {
  const std::uint32_t before = processed_;
  while (!held_.empty()) {
    auto it = held_.begin();
    if (it->first <= processed_) {
      held_.erase(it);
      continue;
    }
    const std::uint32_t gap = it->first - processed_ - 1;
    if (gap > 0) {
      // Every missing sequence below this one took no key (the peer's
      // RejectRetransmit answers): nothing is missing after all.
      if (it->second.key_shift < key_shift_ + gap) break;
      stats_.keyless_skipped += gap;
    }
    processed_ = it->first;
    key_shift_ = it->second.key_shift;
    deliver(it->second.packet);
    held_.erase(it);
  }
  if (processed_ != before) {
    // The key window slides with verified packets only.
    const std::uint32_t base = processed_ - 1 - key_shift_;
    while (receive_key_base_ < base) {
      if (!receive_keys_drawn_.empty()) {
        receive_keys_drawn_.pop_front();
      } else {
        receive_keys_->next();
        ++receive_key_next_;
      }
      ++receive_key_base_;
    }
    gap_since_.reset();
  }
  if (!held_.empty() || peer_last_sent_ > processed_) {
    if (!gap_since_) gap_since_ = now;
  } else {
    gap_since_.reset();
  }
}

void Transport::send_packet(Packet p, bool keyed) {
  p.header.id = header_id_;
  p.header.iteration = iteration_;
  std::optional<std::uint32_t> key;
  if (keyed && send_keys_) key = send_keys_->next();
  outgoing_.push_back(serialize_packet(p, key));
  ++stats_.packets_sent;
  if (!is_unsequenced(p.header.flags)) {
    if (unacked_.size() >= config_.max_unacked_packets) unacked_.erase(unacked_.begin());
    unacked_.emplace(p.header.sequence, Sent{std::move(p), key});
  }
}

void Transport::flush_data(double now) {
  while (!pending_chunks_.empty()) {
    Packet p;
    p.header.sequence = next_sequence_++;
    last_sent_sequence_ = p.header.sequence;
    p.header.time = header_time(now);
    std::size_t body = 0;
    if (processed_ != last_acked_value_) {
      p.optional.ack_sequence = processed_;
      last_acked_value_ = processed_;
      last_ack_sent_ = now;
      body += 4;
    }
    if (role_ == Role::Server && now - last_time_sync_sent_ >= config_.time_sync_interval) {
      p.optional.time_sync = now;
      last_time_sync_sent_ = now;
      body += 8;
    }
    body += add_echo(p, now);
    while (!pending_chunks_.empty()) {
      const Chunk& c = pending_chunks_.front();
      if (!p.fragments.empty() && body + kFragmentHeaderSize + c.data.size() > kMaxBody) break;
      body += kFragmentHeaderSize + c.data.size();
      const std::uint32_t id = role_ == Role::Client ? (0x03000000U | (c.sequence & 0xFFFFU)) : 0x80000000U;
      p.fragments.push_back(Fragment{c.sequence, id, c.count, c.index, c.queue, c.data});
      pending_chunks_.pop_front();
    }
    send_packet(std::move(p), true);
  }
}

std::size_t Transport::add_echo(Packet& p, double now) {
  if (role_ == Role::Client && config_.echo_interval > 0 && now - last_echo_sent_ >= config_.echo_interval) {
    // The client's seconds since start; ACE checks that they advance in real time.
    p.optional.echo_request = static_cast<float>(now - start_time_);
    last_echo_sent_ = now;
    return 4;
  }
  if (role_ == Role::Server && echo_to_answer_) {
    p.optional.echo_response = EchoResponseBody{*echo_to_answer_, static_cast<float>(now - echo_received_at_)};
    echo_to_answer_.reset();
    return 8;
  }
  return 0;
}

void Transport::send_pure_ack(double now) {
  Packet p;
  p.header.sequence = last_sent_sequence_;
  p.header.time = header_time(now);
  p.optional.ack_sequence = processed_;
  send_packet(std::move(p), false);
  last_acked_value_ = processed_;
  last_ack_sent_ = now;
  ++stats_.acks_sent;
}

void Transport::send_nak(double now) {
  std::vector<std::uint32_t> missing;
  const std::uint32_t upper = std::max(peer_last_sent_, held_.empty() ? 0U : held_.rbegin()->first);
  for (std::uint32_t s = processed_ + 1; s <= upper && missing.size() < config_.max_nak_list; ++s) {
    if (!held_.contains(s)) missing.push_back(s);
  }
  if (missing.empty()) return;
  Packet p;
  p.header.sequence = last_sent_sequence_;
  p.header.time = header_time(now);
  p.optional.request_retransmit = std::move(missing);
  send_packet(std::move(p), false);  // retransmit requests go in cleartext
  last_nak_ = now;
  ++stats_.naks_sent;
}

void Transport::tick(double now) {
  if (!started_ || stopped_) return;
  if (!held_.empty() && gap_since_ && now - *gap_since_ > config_.silence_timeout) {
    // A packet the peer sent (later ones verified) never came, resends and all.
    stalled_ = true;
    stats_.stalled = 1;
  }
  if (role_ == Role::Server && now - last_time_sync_sent_ >= config_.time_sync_interval && pending_chunks_.empty()) {
    Packet p;
    p.header.sequence = next_sequence_++;
    last_sent_sequence_ = p.header.sequence;
    p.header.time = header_time(now);
    p.optional.time_sync = now;
    last_time_sync_sent_ = now;
    send_packet(std::move(p), true);
  }
  if ((role_ == Role::Server && echo_to_answer_) ||
      (role_ == Role::Client && config_.echo_interval > 0 && now - last_echo_sent_ >= config_.echo_interval)) {
    if (pending_chunks_.empty()) {
      // Nothing to carry it: the echo goes in a packet of its own.
      Packet p;
      p.header.sequence = next_sequence_++;
      last_sent_sequence_ = p.header.sequence;
      p.header.time = header_time(now);
      add_echo(p, now);
      send_packet(std::move(p), true);
    }
  }
  flush_data(now);
  if (gap_since_ && now - *gap_since_ >= config_.nak_delay && now - last_nak_ >= config_.nak_repeat) {
    send_nak(now);
  }
  if (now - last_ack_sent_ >= config_.ack_interval) send_pure_ack(now);
}

void Transport::disconnect(double now) {
  if (stopped_) return;
  Packet p;
  p.header.sequence = next_sequence_++;
  p.header.flags = pf::Disconnect;
  p.header.time = header_time(now);
  send_packet(std::move(p), false);
  stopped_ = true;
}

std::vector<std::vector<std::uint8_t>> Transport::take_outgoing() {
  std::vector<std::vector<std::uint8_t>> out;
  out.swap(outgoing_);
  return out;
}

std::optional<ReassembledMessage> Transport::poll_message() {
  if (inbox_.empty()) return std::nullopt;
  auto m = std::move(inbox_.front());
  inbox_.pop_front();
  return m;
}

bool Transport::timed_out(double now) const noexcept {
  return started_ && (stalled_ || now - last_receive_ > config_.silence_timeout);
}

}  // namespace dereth::net
