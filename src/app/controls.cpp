#include "dereth/app/controls.hpp"

#include "dereth/app/frame_loop.hpp"
#include "dereth/app/world.hpp"

namespace dereth::app {

Controls::Controls(World& world, FrameLoop& loop, Presenter* presenter, SendFn send, StampFn next_stamp)
    : world_(&world), loop_(&loop), presenter_(presenter) {
  interpreter_ = std::make_unique<sim::CommandInterpreter>(world.context(), std::move(send), std::move(next_stamp));
  world.context().set_controller(interpreter_.get());
  loop.outbound = [this](double) { interpreter_->use_time(); };
  if (presenter != nullptr) {
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
  if (presenter_ != nullptr) presenter_->on_motion_key = nullptr;
}

}  // namespace dereth::app
