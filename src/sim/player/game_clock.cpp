#include "dereth/sim/player/game_clock.hpp"

namespace dereth::sim {

// ClientNet::HandleTimeSynch 0x00543D30
void GameClock::time_sync(double server_time, double local_now) noexcept {
  timer_.set_time(server_time, local_now);
}

std::optional<SkyTime> GameClock::use_time(double local_now) noexcept {
  if (!timer_.synced()) return std::nullopt;
  const double now = timer_.cur_time(local_now);
  game_time_.use_time(now);
  SkyTime t;
  t.time_of_day = game_time_.present_time_of_day();
  t.day = game_time_.current_day();
  t.days_per_year = game_time_.desc().days_per_year;
  t.year = game_time_.current_year();
  t.seconds = now;
  return t;
}

void SkyClock::use_time(double now, dat::RecordCache& records) {
  if (!time_sync_) return;
  if (!tried_) {
    tried_ = true;
    if (const auto region = records.region()) clock_.emplace(region->game_time);
  }
  if (!clock_) return;
  if (time_sync_ != last_time_sync_) {
    clock_->time_sync(*time_sync_, now);
    last_time_sync_ = time_sync_;
  }
  sky_time_ = clock_->use_time(now);
}

}  // namespace dereth::sim
