#include "dereth/scenario/impairment.hpp"

#include <fmt/format.h>

namespace dereth::scenario {

std::string to_string(const Endpoint& e) {
  return fmt::format("{}.{}.{}.{}:{}", (e.address >> 24) & 0xFFU, (e.address >> 16) & 0xFFU, (e.address >> 8) & 0xFFU,
                     e.address & 0xFFU, e.port);
}

ImpairedLink::ImpairedLink(const Impairment& config) : config_(config), rng_(config.seed) {}

void ImpairedLink::push(Datagram d, double now) {
  if (!config_.active()) {
    ++stats_.passed;
    in_flight_.emplace(std::pair{now, order_++}, std::move(d));
    return;
  }
  // A fixed number of draws per datagram and copy, whatever the outcome, so
  // that changing one probability does not reshuffle every later decision.
  const double lose = static_cast<double>(rng_.unit());
  const double twice = static_cast<double>(rng_.unit());
  if (lose < config_.loss) {
    ++stats_.lost;
    return;
  }
  ++stats_.passed;
  const int copies = twice < config_.duplicate ? 2 : 1;
  if (copies == 2) ++stats_.duplicated;
  for (int i = 0; i < copies; ++i) {
    const double jitter = static_cast<double>(rng_.unit()) * config_.jitter_ms;
    const double hold = static_cast<double>(rng_.unit());
    const double window = 1.0 + static_cast<double>(rng_.unit()) * (config_.reorder_window_ms - 1.0);
    double due = now + (config_.delay_ms + jitter) / 1000.0;
    if (hold < config_.reorder) {
      due += window / 1000.0;
      ++stats_.held_back;
    }
    in_flight_.emplace(std::pair{due, order_++}, i + 1 == copies ? std::move(d) : d);
  }
}

std::vector<Datagram> ImpairedLink::pop_ready(double now) {
  std::vector<Datagram> out;
  while (!in_flight_.empty() && in_flight_.begin()->first.first <= now) {
    out.push_back(std::move(in_flight_.begin()->second));
    in_flight_.erase(in_flight_.begin());
  }
  return out;
}

}  // namespace dereth::scenario
