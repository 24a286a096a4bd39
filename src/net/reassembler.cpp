#include "dereth/net/reassembler.hpp"

#include <algorithm>

namespace dereth::net {

Reassembler::Reassembler(std::size_t max_partials, std::uint16_t max_fragments, std::size_t remembered_sequences)
    : max_partials_(max_partials), max_fragments_(max_fragments), remembered_(remembered_sequences) {}

void Reassembler::remember_completed(std::uint64_t key) {
  if (completed_.insert(key).second) {
    completed_order_.push_back(key);
    if (completed_order_.size() > remembered_) {
      completed_.erase(completed_order_.front());
      completed_order_.pop_front();
    }
  }
}

std::optional<ReassembledMessage> Reassembler::add(const Fragment& f) {
  ++stats_.fragments;
  const std::uint64_t key = (static_cast<std::uint64_t>(f.sequence) << 32) | f.id;
  if (completed_.contains(key)) {
    ++stats_.duplicate_fragments;
    return std::nullopt;
  }
  if (f.count == 0 || f.index >= f.count) {
    ++stats_.inconsistent_fragments;
    return std::nullopt;
  }
  if (f.count > max_fragments_) {
    // Dropped whole, counted once: its other fragments count as duplicates.
    ++stats_.oversized_messages;
    remember_completed(key);
    return std::nullopt;
  }
  if (f.count == 1) {
    remember_completed(key);
    ++stats_.messages;
    return ReassembledMessage{f.sequence, f.queue, f.data};
  }
  auto it = partials_.find(key);
  if (it == partials_.end()) {
    if (partials_.size() >= max_partials_) {
      // Evict the oldest partial still held.
      while (!partial_order_.empty()) {
        const auto oldest = partial_order_.front();
        partial_order_.pop_front();
        if (partials_.erase(oldest) > 0) {
          ++stats_.evicted_partials;
          break;
        }
      }
    }
    Partial p;
    p.count = f.count;
    p.queue = f.queue;
    p.pieces.resize(f.count);
    it = partials_.emplace(key, std::move(p)).first;
    partial_order_.push_back(key);
  }
  Partial& p = it->second;
  if (p.count != f.count || p.queue != f.queue) {
    ++stats_.mismatched_fragments;
    return std::nullopt;
  }
  auto& slot = p.pieces[f.index];
  if (slot) {
    ++stats_.duplicate_fragments;
    return std::nullopt;
  }
  slot = f.data;
  if (++p.received < p.count) return std::nullopt;

  ReassembledMessage m{f.sequence, p.queue, {}};
  for (auto& piece : p.pieces) m.bytes.insert(m.bytes.end(), piece->begin(), piece->end());
  partials_.erase(it);
  // The sequence stays in partial_order_ until it reaches the front; erase() above tolerates that.
  if (partial_order_.size() > 2 * max_partials_) {
    std::erase_if(partial_order_, [&](std::uint64_t k) { return !partials_.contains(k); });
  }
  remember_completed(key);
  ++stats_.messages;
  return m;
}

}  // namespace dereth::net
