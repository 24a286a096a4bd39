// The landblock streamer's executors (docs/streaming.md).
#include "dereth/sim/cells/stream_executor.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace dereth::sim {

void ManualExecutor::run(std::size_t index, bool again) {
  if (index >= jobs_.size()) throw std::out_of_range("ManualExecutor::run: no such held job");
  Job job = again ? jobs_[index].job : std::move(jobs_[index].job);
  if (!again) jobs_.erase(jobs_.begin() + static_cast<std::ptrdiff_t>(index));
  job();
}

std::optional<std::size_t> ManualExecutor::find(StreamJobTag tag) const noexcept {
  for (std::size_t i = 0; i < jobs_.size(); ++i) {
    if (jobs_[i].tag == tag) return i;
  }
  return std::nullopt;
}

void ManualExecutor::run_all() {
  while (!jobs_.empty()) run(0);
}

std::unique_ptr<StreamExecutor> make_stream_executor(int workers) {
  if (workers <= 0) return std::make_unique<InlineExecutor>();
  return std::make_unique<ThreadPoolExecutor>(workers);
}

}  // namespace dereth::sim
