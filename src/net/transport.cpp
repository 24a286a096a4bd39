#include "dereth/net/transport.hpp"

#include <algorithm>
#include <cmath>

namespace dereth::net {

namespace pf = packet_flag;

namespace {

constexpr std::size_t kMaxBody = 464;
constexpr std::size_t kKeyWindow = 1024;

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
  receive_window_.clear();
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
    pending_chunks_.push_back(Chunk{sequence, static_cast<std::uint16_t>(count), static_cast<std::uint16_t>(i),
                                    queue, std::vector<std::uint8_t>(message.begin() + static_cast<std::ptrdiff_t>(begin),
                                                                     message.begin() + static_cast<std::ptrdiff_t>(end))});
  }
  ++stats_.messages_sent;
}

bool Transport::checksum_ok(const Packet& p) {
  if ((p.header.flags & pf::EncryptedChecksum) == 0) return cleartext_checksum_ok(p);
  if (!receive_keys_) return false;
  const std::uint32_t key = recover_key(p);
  if (std::find(receive_window_.begin(), receive_window_.end(), key) != receive_window_.end()) return true;
  for (int i = 0; i < 256; ++i) {
    const std::uint32_t k = receive_keys_->next();
    receive_window_.push_back(k);
    if (receive_window_.size() > kKeyWindow) receive_window_.erase(receive_window_.begin());
    if (k == key) return true;
  }
  return false;
}

void Transport::receive(std::span<const std::uint8_t> datagram, double now) {
  auto parsed = parse_packet(datagram);
  if (!parsed) {
    ++stats_.bad_packets;
    return;
  }
  const Packet& p = *parsed;
  if (!checksum_ok(p)) {
    ++stats_.bad_checksums;
    return;
  }
  ++stats_.packets_received;
  last_receive_ = now;
  if (p.header.flags & (pf::Disconnect | pf::NetErrorDisconnect)) peer_disconnected_ = true;
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
    unacked_.erase(unacked_.begin(), unacked_.upper_bound(acked));
  }
  if (p.optional.request_retransmit && started_ && !stopped_) {
    std::vector<std::uint32_t> rejected;
    for (const std::uint32_t seq : *p.optional.request_retransmit) {
      auto it = unacked_.find(seq);
      if (it == unacked_.end()) {
        rejected.push_back(seq);
        continue;
      }
      Packet again = it->second.packet;
      again.header.flags |= pf::Retransmission;
      outgoing_.push_back(serialize_packet(again, it->second.key));
      ++stats_.retransmits_sent;
    }
    if (!rejected.empty()) {
      Packet reject;
      reject.header.sequence = next_sequence_++;
      last_sent_sequence_ = reject.header.sequence;
      reject.header.id = header_id_;
      reject.header.iteration = iteration_;
      reject.header.time = header_time(now);
      reject.optional.reject_retransmit = std::move(rejected);
      outgoing_.push_back(serialize_packet(reject));
      ++stats_.packets_sent;
    }
  }
  if (p.optional.reject_retransmit) {
    // The peer can no longer resend these: hold empty stand-ins so ordering goes on.
    for (const std::uint32_t seq : *p.optional.reject_retransmit) {
      if (seq > processed_ && !held_.contains(seq)) {
        held_.emplace(seq, Packet{});
        ++stats_.rejected_retransmits;
      }
    }
  }
  if (is_unsequenced(p.header.flags)) {
    // A pure ack carries the peer's last sent sequence: a later one means we miss packets.
    if (p.header.sequence > processed_ && !gap_since_) gap_since_ = now;
    peer_last_sent_ = std::max(peer_last_sent_, p.header.sequence);
  } else {
    process(p, now);
  }
  // Drain what the gap was holding back.
  while (!held_.empty() && held_.begin()->first == processed_ + 1) {
    auto node = held_.extract(held_.begin());
    processed_ = node.key();
    for (const auto& f : node.mapped().fragments) {
      if (auto m = reassembler_.add(f)) {
        inbox_.push_back(std::move(*m));
        ++stats_.messages_received;
      }
    }
  }
  while (!held_.empty() && held_.begin()->first <= processed_) held_.erase(held_.begin());
  if (held_.empty() && peer_last_sent_ <= processed_) gap_since_.reset();
}

void Transport::process(const Packet& p, double now) {
  const std::uint32_t seq = p.header.sequence;
  peer_last_sent_ = std::max(peer_last_sent_, seq);
  if (seq <= processed_) {
    ++stats_.duplicates;
    return;
  }
  if (seq == processed_ + 1) {
    processed_ = seq;
    for (const auto& f : p.fragments) {
      if (auto m = reassembler_.add(f)) {
        inbox_.push_back(std::move(*m));
        ++stats_.messages_received;
      }
    }
    return;
  }
  if (held_.contains(seq)) {
    ++stats_.duplicates;
    return;
  }
  if (held_.size() >= config_.max_held_packets) {
    ++stats_.held_overflow;
    return;
  }
  held_.emplace(seq, p);
  if (!gap_since_) gap_since_ = now;
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
      const std::uint32_t id =
          role_ == Role::Client ? (0x03000000U | (c.sequence & 0xFFFFU)) : 0x80000000U;
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
  if (role_ == Role::Server && now - last_time_sync_sent_ >= config_.time_sync_interval &&
      pending_chunks_.empty()) {
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
  return started_ && now - last_receive_ > config_.silence_timeout;
}

}  // namespace dereth::net
