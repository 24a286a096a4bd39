#pragma once
// StreamExecutor: what runs the landblock streamer's builds (DAT reads and
// decoding, docs/streaming.md). InlineExecutor runs each at once on the
// caller's thread (deterministic: the headless demo, replays, tests);
// ThreadPoolExecutor on a small fixed pool of workers (the window and
// `dereth play`); ManualExecutor holds them until a test runs them, in the
// order it chooses (the generation races, driven deterministically).
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "dereth/core/worker_pool.hpp"

namespace dereth::sim {

class StreamExecutor {
 public:
  using Job = std::function<void()>;
  StreamExecutor() = default;
  StreamExecutor(const StreamExecutor&) = delete;
  StreamExecutor& operator=(const StreamExecutor&) = delete;
  virtual ~StreamExecutor() = default;
  // Runs `job` some time (a job touches no simulation state).
  virtual void submit(Job job) = 0;
  // Whether submit has run the job before it returns.
  [[nodiscard]] virtual bool is_inline() const noexcept { return false; }
};

class InlineExecutor final : public StreamExecutor {
 public:
  void submit(Job job) override { job(); }
  [[nodiscard]] bool is_inline() const noexcept override { return true; }
};

// A fixed pool of `workers` threads (at least one) taking jobs first come,
// first served. Its destructor drops the jobs not yet started and joins the
// workers (the job running finishes first).
class ThreadPoolExecutor final : public StreamExecutor {
 public:
  explicit ThreadPoolExecutor(int workers) : pool_(workers) {}
  void submit(Job job) override { pool_.submit(std::move(job)); }
  // Blocks until no job is queued or running (benchmarks, tests).
  void wait_idle() { pool_.wait_idle(); }
  [[nodiscard]] std::size_t workers() const noexcept { return pool_.workers(); }

 private:
  core::WorkerPool pool_;
};

// Holds every job until the test runs it (on the test's thread).
class ManualExecutor final : public StreamExecutor {
 public:
  void submit(Job job) override { jobs_.push_back(std::move(job)); }
  [[nodiscard]] std::size_t held() const noexcept { return jobs_.size(); }
  // Runs the held job `index` (in submission order) and lets it go; with
  // `again`, keeps it to run a second time (a duplicate completion).
  void run(std::size_t index, bool again = false);
  // Runs every held job in submission order (and those they submit).
  void run_all();
  // Drops every held job unrun.
  void drop_all() noexcept { jobs_.clear(); }

 private:
  std::deque<Job> jobs_;
};

// A pool of `workers` threads, or inline for 0 (or fewer).
[[nodiscard]] std::unique_ptr<StreamExecutor> make_stream_executor(int workers);

}  // namespace dereth::sim
