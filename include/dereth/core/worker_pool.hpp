#pragma once
// WorkerPool: a small fixed pool of threads taking jobs first come, first
// served. The landblock streamer's live executor (sim::ThreadPoolExecutor)
// and the renderer's asset workers (meshes and textures read and decoded off
// the frame loop's thread) each hold one. A job must not touch what its
// submitter owns without its own synchronisation.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace dereth::core {

class WorkerPool {
 public:
  using Job = std::function<void()>;
  // `workers` threads, at least one.
  explicit WorkerPool(int workers);
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  // Drops the jobs not yet started and joins the workers (the jobs running finish first).
  ~WorkerPool();
  void submit(Job job);
  // Blocks until no job is queued or running (benchmarks, tests).
  void wait_idle();
  [[nodiscard]] std::size_t workers() const noexcept { return threads_.size(); }

 private:
  void work();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<Job> jobs_;
  int running_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace dereth::core
