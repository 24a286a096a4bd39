#include "dereth/app/controls.hpp"

#include <algorithm>

#include "dereth/app/chat.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/world.hpp"

namespace dereth::app {

Controls::Controls(World& world, FrameLoop& loop, Presenter* presenter, SendFn send, StampFn next_stamp)
    : world_(&world), loop_(&loop), presenter_(presenter), send_(send), next_stamp_(next_stamp) {
  interpreter_ = std::make_unique<sim::CommandInterpreter>(world.context(), std::move(send), std::move(next_stamp));
  world.context().set_controller(interpreter_.get());
  loop.outbound = [this](double now) {
    interpreter_->use_time();
    // Scripted lines, in time order (say_at keeps them sorted).
    while (!scheduled_.empty() && scheduled_.front().time <= now) {
      const std::string typed = std::move(scheduled_.front().typed);
      scheduled_.erase(scheduled_.begin());
      say(typed);
    }
  };
  if (presenter != nullptr) {
    presenter->on_chat_input = [this](const std::string& typed) { say(typed); };
    presenter->on_motion_key = [this](std::uint32_t command, bool pressed) {
      if (command == sim::command::HoldRun) {
        interpreter_->set_hold_run(pressed);
      } else {
        interpreter_->handle_keyboard_command(command, pressed);
      }
    };
  }
}

Controls::~Controls() {
  world_->context().set_controller(nullptr);
  loop_->outbound = nullptr;
  if (presenter_ != nullptr) {
    presenter_->on_motion_key = nullptr;
    presenter_->on_chat_input = nullptr;
  }
}

bool Controls::say(std::string_view typed) {
  const auto command = parse_chat_input(typed);
  if (!command || !send_) return false;
  // Chat actions go on the same queue as the movement actions (3, Weenie).
  send_(encode_chat_command(*command, next_stamp_ ? next_stamp_() : 0), 3);
  ++chat_sent_;
  return true;
}

void Controls::say_at(double time, std::string typed) {
  const auto at = std::upper_bound(scheduled_.begin(), scheduled_.end(), time,
                                   [](double t, const Scheduled& s) { return t < s.time; });
  scheduled_.insert(at, Scheduled{time, std::move(typed)});
}

}  // namespace dereth::app
