#pragma once
// The local player's CommandInterpreter, attached to a world and a frame
// loop: the SmartBox's PlayerController, run once per frame at the outbound step
// (CommandInterpreter::UseTime), sending its MoveToState and
// AutonomousPosition through the session's outbound path. Every run that
// logs in (the demo headless or in a window, `dereth play`) attaches the
// same controls, so the local player is handled the same way everywhere.
// The controls also own the chat box's outbound side: a typed line
// (Presenter::on_chat_input, or say/say_at for scripted runs) goes out as
// its F7B1 chat action with the same game-action stamp.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/sim/command_interpreter.hpp"

namespace dereth::app {

class World;
class FrameLoop;
class Presenter;

class Controls {
 public:
  // One outbound game message and its queue (the session's send_message).
  using SendFn = std::function<void(std::vector<std::uint8_t> message, std::uint16_t queue)>;
  // The session's next F7B1 game-action sequence (retail
  // Proto_UI::GetNextUICounter: one counter for every game action).
  using StampFn = std::function<std::uint32_t()>;

  // Installs the interpreter as `world`'s player controller, runs its
  // use_time at each frame's outbound step and, when `presenter` is not null,
  // takes its movement keys. All four must outlive the controls.
  Controls(World& world, FrameLoop& loop, Presenter* presenter, SendFn send, StampFn next_stamp);
  ~Controls();
  Controls(const Controls&) = delete;
  Controls& operator=(const Controls&) = delete;

  [[nodiscard]] sim::CommandInterpreter& interpreter() noexcept { return *interpreter_; }

  // Sends what the player typed (app::parse_chat_input); false when it
  // sends nothing (blank, or a tell without a name or text).
  bool say(std::string_view typed);
  // Says `typed` at the first outbound step at or after `time` (the loop's
  // clock), for scripted runs (`dereth play --say TEXT --at T`).
  void say_at(double time, std::string typed);
  [[nodiscard]] std::uint64_t chat_sent() const noexcept { return chat_sent_; }

 private:
  struct Scheduled {
    double time = 0.0;
    std::string typed;
  };
  World* world_;
  FrameLoop* loop_;
  Presenter* presenter_;
  std::unique_ptr<sim::CommandInterpreter> interpreter_;
  SendFn send_;
  StampFn next_stamp_;
  std::vector<Scheduled> scheduled_;
  std::uint64_t chat_sent_ = 0;
};

}  // namespace dereth::app
