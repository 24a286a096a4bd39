#pragma once
// First-use loads on the renderer's asset workers (private header,
// docs/render.md "Asset workers"): what a worker reads and decodes, kept by
// what the frame asked for until a frame uploads it within the load budget.

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "dereth/core/worker_pool.hpp"
#include "dereth/dat/record_cache.hpp"

namespace dereth::render {

// First-use loads handed to the asset workers (RendererOptions::asset_workers,
// under a load budget), by what was asked for: pending while a worker reads
// and decodes, then prepared until a frame asks again and uploads it within
// the budget. A result read through another record cache than the
// renderer's when it comes back, or no longer wanted, is dropped.
template <class Key, class Prepared>
class WorkerLoads {
 public:
  // The result for `key` if a worker has made it (let go); else none, and
  // `make` (returning a Prepared) runs on `pool` unless it is already pending.
  template <class Make>
  std::optional<Prepared> take_or_start(core::WorkerPool& pool, const Key& key,
                                        std::shared_ptr<dat::RecordCache> records, Make make) {
    if (auto node = prepared_.extract(key)) return std::move(node.mapped());
    if (pending_.insert(key).second) {
      pool.submit([box = box_, key, records = std::move(records), make = std::move(make)]() mutable {
        Prepared prepared = make();
        const std::lock_guard lock(box->mutex);
        box->done.push_back(Done{key, std::move(records), std::move(prepared)});
      });
    }
    return std::nullopt;
  }
  // Takes in what the workers finished; `wanted(key)` false drops it.
  template <class Wanted>
  void collect(const std::shared_ptr<dat::RecordCache>& records, Wanted wanted) {
    std::vector<Done> done;
    {
      const std::lock_guard lock(box_->mutex);
      done.swap(box_->done);
    }
    for (Done& d : done) {
      pending_.erase(d.key);
      if (d.records != records || !wanted(d.key)) continue;
      prepared_.insert_or_assign(d.key, std::move(d.prepared));
    }
  }
  [[nodiscard]] bool ready(const Key& key) const { return prepared_.contains(key); }
  // With a worker, or back and not yet taken.
  [[nodiscard]] bool loading(const Key& key) const { return pending_.contains(key) || prepared_.contains(key); }
  // Pending or prepared, not yet taken.
  [[nodiscard]] std::size_t size() const noexcept { return pending_.size() + prepared_.size(); }
  void clear() {
    pending_.clear();
    prepared_.clear();
  }

 private:
  struct Done {
    Key key;
    std::shared_ptr<dat::RecordCache> records;
    Prepared prepared;
  };
  struct Box {
    std::mutex mutex;
    std::vector<Done> done;
  };
  std::shared_ptr<Box> box_ = std::make_shared<Box>();
  std::set<Key> pending_;
  std::map<Key, Prepared> prepared_;
};

}  // namespace dereth::render
