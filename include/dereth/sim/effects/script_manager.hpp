#pragma once
// ScriptManager (retail ScriptManager, RE cphysobj/CScriptManager.c): one
// serial FIFO of PhysicsScripts per physics object (seed
// retail-projectile-vfx section 6, spec/physics.md section 8.2).
//
// - A script queued on an empty manager starts now; otherwise it starts when
//   the tail script ends (tail start + tail length, where a script's length is
//   the start time of its last hook). Duplicates are kept: the queue is a
//   FIFO, not a set. Scripts on one owner never overlap.
// - A hook is due when Timer::cur_time >= script start + hook start time. One
//   update runs every due hook in order, popping finished scripts on the way,
//   so a long frame fires its whole backlog at once.
//
// The clock is the frame clock (SimContext::now(), retail Timer::cur_time),
// not the per-object physics timer.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>

#include "dereth/core/clock.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/dat/physics_script.hpp"

namespace dereth::sim {

// One queued script (retail ScriptData: start_time, script, next_data).
struct ScriptData {
  core::Seconds start_time{0.0};
  std::shared_ptr<const dat::PhysicsScript> script;
};

class ScriptManager {
 public:
  // ScriptManager::ScriptManager 0x0051B2F0: empty, hook_index -1, next hook time 0.
  ScriptManager() = default;

  // ScriptManager::AddScriptInternal 0x0051B310: append `script`, starting
  // `now` when the queue is empty, else when the tail ends. A null script is
  // refused (retail AddScript fails when the DBObj does not load).
  bool add_script_internal(std::shared_ptr<const dat::PhysicsScript> script, core::Seconds now);

  // ScriptManager::NextHook 0x0051B3F0: advance to the current script's next
  // hook and return it (null when the current script has none left), setting
  // the time the hook after it is due (-1 s when nothing follows).
  const dat::AnimationHook* next_hook();

  // ScriptManager::UpdateScripts 0x0051B480: while a script is current and
  // `now` >= the next hook time, run the next hook through `execute` (called
  // as execute(const dat::AnimationHook&)), or pop the finished script.
  // `execute` may queue further scripts on this manager.
  template <class Execute>
  void update_scripts(core::Seconds now, Execute&& execute);

  [[nodiscard]] bool empty() const noexcept { return queue_.empty(); }
  [[nodiscard]] std::size_t size() const noexcept { return queue_.size(); }
  [[nodiscard]] const std::deque<ScriptData>& queue() const noexcept { return queue_; }
  // Index of the current script's last hook handed out (-1 before the first).
  [[nodiscard]] std::int32_t hook_index() const noexcept { return hook_index_; }
  // When the next hook is due (-1 s: after the last hook of the last script).
  [[nodiscard]] core::Seconds next_hook_time() const noexcept { return next_hook_time_; }

 private:
  // The start time of the script's first hook (0 for a script without hooks,
  // where retail would read past its empty array).
  [[nodiscard]] static double first_hook_start(const dat::PhysicsScript& script) noexcept;
  // The pop branch of UpdateScripts: release the head, arm the next script.
  void pop_current();

  std::deque<ScriptData> queue_;  // front = retail curr_data, back = last_data
  std::int32_t hook_index_ = -1;
  core::Seconds next_hook_time_{0.0};
};

// ScriptManager::UpdateScripts 0x0051B480
template <class Execute>
void ScriptManager::update_scripts(core::Seconds now, Execute&& execute) {
  while (!queue_.empty()) {
    // Retail breaks only on `now < next`: a NaN hook time is due at once.
    if (now < next_hook_time_) break;
    if (const dat::AnimationHook* hook = next_hook(); hook != nullptr) {
      // The hook lives in the script, which the queue (and the asset cache)
      // keeps alive; a push_back from `execute` does not move deque elements.
      execute(*hook);
    } else {
      pop_current();
    }
  }
}

}  // namespace dereth::sim
