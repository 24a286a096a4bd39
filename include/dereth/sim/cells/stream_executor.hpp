#pragma once
// StreamExecutor: what runs the landblock streamer's builds (DAT reads and
// decoding, docs/streaming.md). InlineExecutor runs each at once on the
// caller's thread (deterministic: the headless demo, replays, tests);
// ThreadPoolExecutor on a small fixed pool of workers (the window and
// `dereth play`); ManualExecutor holds them until a test runs them, in the
// order it chooses (the generation races, driven deterministically).
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "dereth/core/worker_pool.hpp"

namespace dereth::sim {

// What a build is for: its landblock (0xXXYY0000) and whether it reads the
// Near records. Executors that run jobs as they come ignore it; a test
// holding them finds a block's build by it.
struct StreamJobTag {
  std::uint32_t block = 0;
  bool near = false;
  bool operator==(const StreamJobTag&) const = default;
};

class StreamExecutor {
 public:
  using Job = std::function<void()>;
  StreamExecutor() = default;
  StreamExecutor(const StreamExecutor&) = delete;
  StreamExecutor& operator=(const StreamExecutor&) = delete;
  virtual ~StreamExecutor() = default;
  // Runs `job` some time (a job touches no simulation state).
  virtual void submit(Job job, StreamJobTag tag) = 0;
  // Whether submit has run the job before it returns.
  [[nodiscard]] virtual bool is_inline() const noexcept { return false; }
};

class InlineExecutor final : public StreamExecutor {
 public:
  void submit(Job job, StreamJobTag /*tag*/) override { job(); }
  [[nodiscard]] bool is_inline() const noexcept override { return true; }
};

// A fixed pool of `workers` threads (at least one) taking jobs first come,
// first served. Its destructor drops the jobs not yet started and joins the
// workers (the job running finishes first).
class ThreadPoolExecutor final : public StreamExecutor {
 public:
  explicit ThreadPoolExecutor(int workers) : pool_(workers) {}
  void submit(Job job, StreamJobTag /*tag*/) override { pool_.submit(std::move(job)); }
  // Blocks until no job is queued or running (benchmarks, tests).
  void wait_idle() { pool_.wait_idle(); }
  [[nodiscard]] std::size_t workers() const noexcept { return pool_.workers(); }

 private:
  core::WorkerPool pool_;
};

// Holds every job until the test runs it (on the test's thread).
class ManualExecutor final : public StreamExecutor {
 public:
  void submit(Job job, StreamJobTag tag) override { jobs_.push_back(Held{std::move(job), tag}); }
  [[nodiscard]] std::size_t held() const noexcept { return jobs_.size(); }
  // What the held job `index` builds.
  [[nodiscard]] StreamJobTag tag(std::size_t index) const { return jobs_.at(index).tag; }
  // The index of the first held job building `tag`, if one is held.
  [[nodiscard]] std::optional<std::size_t> find(StreamJobTag tag) const noexcept;
  // Runs the held job `index` (in submission order) and lets it go; with
  // `again`, keeps it to run a second time (a duplicate completion).
  void run(std::size_t index, bool again = false);
  // Runs every held job in submission order (and those they submit).
  void run_all();
  // Drops every held job unrun.
  void drop_all() noexcept { jobs_.clear(); }

 private:
  struct Held {
    Job job;
    StreamJobTag tag;
  };
  std::deque<Held> jobs_;
};

// A pool of `workers` threads, or inline for 0 (or fewer).
[[nodiscard]] std::unique_ptr<StreamExecutor> make_stream_executor(int workers);

}  // namespace dereth::sim
