#include "dereth/sim/object/verdict.hpp"

namespace dereth::sim {

std::string_view to_string(Verdict verdict) noexcept {
  switch (verdict) {
    case Verdict::Applied: return "applied";
    case Verdict::StaleTimestamp: return "stale-timestamp";
    case Verdict::WrongInstance: return "wrong-instance";
    case Verdict::StaleGeneration: return "stale-generation";
    case Verdict::NewGeneration: return "new-generation";
    case Verdict::QueuedForAbsentObject: return "queued-for-absent-object";
    case Verdict::QueuedFutureInstance: return "queued-future-instance";
    case Verdict::Replayed: return "replayed";
    case Verdict::RejectedLocalPlayer: return "rejected-local-player";
    case Verdict::QueuedBeforePlayer: return "queued-before-player";
    case Verdict::DroppedQueueFull: return "dropped-queue-full";
    case Verdict::Ignored: return "ignored";
  }
  return "unknown";
}

}  // namespace dereth::sim
