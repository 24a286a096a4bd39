#pragma once
// The scenario server paired in-process with the client session, as the
// frame loop's inbox (scenario::Loopback, docs/trace.md).

#include "dereth/app/frame_hooks.hpp"
#include "dereth/net/inbox.hpp"
#include "dereth/scenario/loopback.hpp"

namespace dereth::app {

class LoopbackInbox final : public net::MessageInbox, public LoopSession {
 public:
  explicit LoopbackInbox(scenario::Loopback loopback) : loopback_(std::move(loopback)) {}
  std::vector<net::SessionMessage> drain(double now) override { return loopback_.advance(now); }
  [[nodiscard]] bool finished() const override {
    return loopback_.state() == net::SessionState::Failed || loopback_.state() == net::SessionState::Closed;
  }
  [[nodiscard]] scenario::Loopback& loopback() noexcept { return loopback_; }
  // The scenario server's TimeSync drives the game clock, as a live server's does.
  std::optional<double> time_sync() override { return loopback_.last_time_sync(); }

 private:
  scenario::Loopback loopback_;
};

}  // namespace dereth::app
