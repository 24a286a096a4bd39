#include "dereth/sim/effects/script_manager.hpp"

namespace dereth::sim {

namespace {

// The -1.0 retail stores in next_hook_time once the last hook is handed out.
constexpr core::Seconds kNoNextHook{-1.0};

}  // namespace

double ScriptManager::first_hook_start(const dat::PhysicsScript& script) noexcept {
  return script.hooks.empty() ? 0.0 : script.hooks.front().start_time;
}

// ScriptManager::AddScriptInternal 0x0051B310
bool ScriptManager::add_script_internal(std::shared_ptr<const dat::PhysicsScript> script, core::Seconds now) {
  if (!script) return false;
  ScriptData node;
  if (!queue_.empty()) {
    // The tail may be the script playing now: a new script waits for all of
    // them, even when their last hooks are already in the past.
    const ScriptData& tail = queue_.back();
    node.start_time = tail.start_time + core::Seconds{tail.script->length()};
  } else {
    node.start_time = now;
  }
  node.script = std::move(script);
  const bool became_head = queue_.empty();
  queue_.push_back(std::move(node));
  if (became_head) {
    const ScriptData& head = queue_.front();
    hook_index_ = -1;
    next_hook_time_ = head.start_time + core::Seconds{first_hook_start(*head.script)};
  }
  return true;
}

// ScriptManager::NextHook 0x0051B3F0
const dat::AnimationHook* ScriptManager::next_hook() {
  ++hook_index_;
  const ScriptData& current = queue_.front();
  const auto& hooks = current.script->hooks;
  const auto index = static_cast<std::size_t>(hook_index_);
  if (hook_index_ < 0 || index >= hooks.size()) return nullptr;
  if (index + 1 < hooks.size()) {
    next_hook_time_ = current.start_time + core::Seconds{hooks[index + 1].start_time};
  } else if (queue_.size() > 1) {
    const ScriptData& next = queue_[1];
    next_hook_time_ = next.start_time + core::Seconds{first_hook_start(*next.script)};
  } else {
    next_hook_time_ = kNoNextHook;
  }
  return &hooks[index].hook;
}

// The pop branch of ScriptManager::UpdateScripts 0x0051B480.
void ScriptManager::pop_current() {
  queue_.pop_front();
  hook_index_ = -1;
  if (!queue_.empty()) {
    const ScriptData& next = queue_.front();
    next_hook_time_ = next.start_time + core::Seconds{first_hook_start(*next.script)};
  } else {
    next_hook_time_ = kNoNextHook;
  }
}

}  // namespace dereth::sim
