#include "dereth/net/inbox.hpp"

namespace dereth::net {

core::Result<CapturePlayer> CapturePlayer::open(const std::filesystem::path& path, double speed, CaptureFilter filter) {
  DERETH_TRY(auto replay, CaptureReplay::open(path, filter));
  return CapturePlayer(std::move(replay), speed < 0 ? 0 : speed);
}

bool CapturePlayer::fetch() {
  while (!pending_ && !done_) {
    auto m = replay_.next_message();
    if (!m) {
      done_ = true;
      break;
    }
    if (m->server_to_client) pending_ = std::move(*m);
  }
  return pending_.has_value();
}

std::vector<SessionMessage> CapturePlayer::drain(double now) {
  std::vector<SessionMessage> out;
  if (!clock_start_) clock_start_ = now;
  while (fetch()) {
    if (!capture_start_) capture_start_ = pending_->time;
    const double due = (pending_->time - *capture_start_) / (speed_ > 0 ? speed_ : 1.0);
    if (speed_ > 0 && now - *clock_start_ < due) break;  // not yet, on the capture's clock
    if (pending_->time_sync) last_time_sync_ = pending_->time_sync;
    out.push_back(SessionMessage{pending_->time, pending_->queue, std::move(pending_->bytes)});
    pending_.reset();
  }
  return out;
}

}  // namespace dereth::net
