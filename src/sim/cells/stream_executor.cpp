// The landblock streamer's executors (docs/streaming.md).
#include "dereth/sim/cells/stream_executor.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace dereth::sim {

ThreadPoolExecutor::ThreadPoolExecutor(int workers) {
  const int n = std::max(1, workers);
  threads_.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) threads_.emplace_back([this] { work(); });
}

ThreadPoolExecutor::~ThreadPoolExecutor() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
    jobs_.clear();
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void ThreadPoolExecutor::submit(Job job) {
  {
    const std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void ThreadPoolExecutor::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return jobs_.empty() && running_ == 0; });
}

void ThreadPoolExecutor::work() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stop_ || !jobs_.empty(); });
      if (stop_) return;
      job = std::move(jobs_.front());
      jobs_.pop_front();
      ++running_;
    }
    job();
    {
      const std::lock_guard lock(mutex_);
      --running_;
      if (running_ == 0 && jobs_.empty()) idle_.notify_all();
    }
  }
}

void ManualExecutor::run(std::size_t index, bool again) {
  if (index >= jobs_.size()) throw std::out_of_range("ManualExecutor::run: no such held job");
  Job job = again ? jobs_[index] : std::move(jobs_[index]);
  if (!again) jobs_.erase(jobs_.begin() + static_cast<std::ptrdiff_t>(index));
  job();
}

void ManualExecutor::run_all() {
  while (!jobs_.empty()) run(0);
}

std::unique_ptr<StreamExecutor> make_stream_executor(int workers) {
  if (workers <= 0) return std::make_unique<InlineExecutor>();
  return std::make_unique<ThreadPoolExecutor>(workers);
}

}  // namespace dereth::sim
