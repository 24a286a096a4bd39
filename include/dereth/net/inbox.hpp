#pragma once
// The inbox the frame loop drains once per frame: whole server messages in
// arrival order, from a live session (UdpClient) or from a capture
// (CapturePlayer), so the rest of the client cannot tell them apart.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "dereth/core/error.hpp"
#include "dereth/net/capture_reader.hpp"
#include "dereth/net/session.hpp"

namespace dereth::net {

class MessageInbox {
 public:
  virtual ~MessageInbox() = default;
  // The messages that have arrived by `now` (seconds on the caller's clock).
  virtual std::vector<SessionMessage> drain(double now) = 0;
  // True when no more messages will ever arrive.
  [[nodiscard]] virtual bool finished() const = 0;
};

// Plays a capture's server-to-client messages into the inbox: paced by the
// capture's clock (scaled by `speed`; 1 = real time), or, with speed 0, all
// at once as fast as they can be read.
class CapturePlayer final : public MessageInbox {
 public:
  static core::Result<CapturePlayer> open(const std::filesystem::path& path, double speed, CaptureFilter filter = {});

  std::vector<SessionMessage> drain(double now) override;
  [[nodiscard]] bool finished() const override { return done_ && !pending_; }
  [[nodiscard]] const CaptureStats& stats() const noexcept { return replay_.stats(); }
  [[nodiscard]] std::string checksum_note() const { return replay_.checksum_note(); }
  // The server time of the last TimeSync header among the packets played so
  // far (the game clock follows it, as a live session's).
  [[nodiscard]] std::optional<double> last_time_sync() const noexcept { return last_time_sync_; }

 private:
  CapturePlayer(CaptureReplay replay, double speed) : replay_(std::move(replay)), speed_(speed) {}
  bool fetch();  // the next server-to-client message into pending_

  CaptureReplay replay_;
  std::optional<double> last_time_sync_;
  double speed_;
  std::optional<ReplayedMessage> pending_;
  std::optional<double> capture_start_;
  std::optional<double> clock_start_;
  bool done_ = false;
};

}  // namespace dereth::net
