#pragma once
// Reassembles blob fragments into whole messages (spec/protocol.md 1.4), keyed
// by the whole blob id (sequence and id) so two messages sharing a sequence are
// never spliced; out-of-order, duplicate and disagreeing fragments are handled,
// and everything is bounded and counted. docs/net.md "Transport rules as
// implemented".

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <unordered_set>
#include <vector>

#include "dereth/net/packet.hpp"

namespace dereth::net {

struct ReassembledMessage {
  std::uint32_t sequence = 0;
  std::uint16_t queue = 0;
  std::vector<std::uint8_t> bytes;  // opcode first
};

struct ReassemblerStats {
  std::uint64_t fragments = 0;
  std::uint64_t messages = 0;
  std::uint64_t duplicate_fragments = 0;     // an index already held, or a completed sequence again
  std::uint64_t inconsistent_fragments = 0;  // a count that disagrees with the first fragment's
  std::uint64_t evicted_partials = 0;        // partial messages dropped to respect the cap
  std::uint64_t mismatched_fragments = 0;    // a count or queue that disagrees with the partial it joins
  std::uint64_t oversized_messages = 0;      // messages of more than max_fragments fragments, each counted once
};

class Reassembler {
 public:
  // At most `max_partials` incomplete messages are held (the oldest is
  // evicted beyond that); messages of more than `max_fragments` fragments are
  // refused (that is 448 bytes each).
  explicit Reassembler(std::size_t max_partials = 256, std::uint16_t max_fragments = 1024,
                       std::size_t remembered_sequences = 4096);

  // Adds one fragment; returns the message it completes, if any.
  std::optional<ReassembledMessage> add(const Fragment& f);

  [[nodiscard]] const ReassemblerStats& stats() const noexcept { return stats_; }
  [[nodiscard]] std::size_t partial_count() const noexcept { return partials_.size(); }

 private:
  struct Partial {
    std::uint16_t count = 0;
    std::uint16_t queue = 0;
    std::uint16_t received = 0;
    std::vector<std::optional<std::vector<std::uint8_t>>> pieces;
  };
  void remember_completed(std::uint64_t key);

  std::size_t max_partials_;
  std::uint16_t max_fragments_;
  std::size_t remembered_;
  // Keys are (sequence << 32) | id.
  std::map<std::uint64_t, Partial> partials_;
  std::deque<std::uint64_t> partial_order_;      // arrival order, for eviction
  std::unordered_set<std::uint64_t> completed_;  // completed (or dropped as oversized) blobs
  std::deque<std::uint64_t> completed_order_;
  ReassemblerStats stats_;
};

}  // namespace dereth::net
