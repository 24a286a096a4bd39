// WorkerPool: a fixed pool of threads (include/dereth/core/worker_pool.hpp).
#include "dereth/core/worker_pool.hpp"

#include <algorithm>
#include <utility>

namespace dereth::core {

WorkerPool::WorkerPool(int workers) {
  const int n = std::max(1, workers);
  threads_.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) threads_.emplace_back([this] { work(); });
}

WorkerPool::~WorkerPool() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
    jobs_.clear();
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::submit(Job job) {
  {
    const std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void WorkerPool::wait_idle() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return jobs_.empty() && running_ == 0; });
}

void WorkerPool::work() {
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

}  // namespace dereth::core
