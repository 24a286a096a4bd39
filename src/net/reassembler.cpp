#include "dereth/net/reassembler.hpp"

#include <algorithm>

namespace dereth::net {

Reassembler::Reassembler(std::size_t max_partials, std::uint16_t max_fragments, std::size_t remembered_sequences)
    : max_partials_(max_partials), max_fragments_(max_fragments), remembered_(remembered_sequences) {}

void Reassembler::remember_completed(std::uint32_t sequence) {
  if (completed_.insert(sequence).second) {
    completed_order_.push_back(sequence);
    if (completed_order_.size() > remembered_) {
      completed_.erase(completed_order_.front());
      completed_order_.pop_front();
    }
  }
}

std::optional<ReassembledMessage> Reassembler::add(const Fragment& f) {
  ++stats_.fragments;
  if (completed_.contains(f.sequence)) {
    ++stats_.duplicate_fragments;
    return std::nullopt;
  }
  if (f.count == 0 || f.index >= f.count || f.count > max_fragments_) {
    ++stats_.inconsistent_fragments;
    return std::nullopt;
  }
  if (f.count == 1) {
    remember_completed(f.sequence);
    ++stats_.messages;
    return ReassembledMessage{f.sequence, f.queue, f.data};
  }
  auto it = partials_.find(f.sequence);
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
    it = partials_.emplace(f.sequence, std::move(p)).first;
    partial_order_.push_back(f.sequence);
  }
  Partial& p = it->second;
  if (p.count != f.count) {
    ++stats_.inconsistent_fragments;
    return std::nullopt;
  }
  auto& slot = p.pieces[f.index];
  if (slot) {
    ++stats_.duplicate_fragments;
    return std::nullopt;
  }
  slot = f.data;
  if (f.index == 0) p.queue = f.queue;
  if (++p.received < p.count) return std::nullopt;

  ReassembledMessage m{f.sequence, p.queue, {}};
  for (auto& piece : p.pieces) m.bytes.insert(m.bytes.end(), piece->begin(), piece->end());
  partials_.erase(it);
  // The sequence stays in partial_order_ until it reaches the front; erase() above tolerates that.
  if (partial_order_.size() > 2 * max_partials_) {
    std::erase_if(partial_order_, [&](std::uint32_t s) { return !partials_.contains(s); });
  }
  remember_completed(f.sequence);
  ++stats_.messages;
  return m;
}

}  // namespace dereth::net
