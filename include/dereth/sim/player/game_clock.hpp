#pragma once
// The game clock the world keeps: the Timer fed by TimeSync and the Region's
// GameTime read at Timer::cur_time (retail GameTime::UseTime adds a clock
// offset and the GameTime.TimeZeroDelta setting, both 0).

#include <memory>
#include <optional>
#include <utility>

#include "dereth/dat/record_cache.hpp"
#include "dereth/sim/player/game_time.hpp"
#include "dereth/sim/player/timer.hpp"
#include "dereth/snapshot/render_snapshot.hpp"  // SkyTime, what the clock gives the snapshot

namespace dereth::sim {

// The Timer fed by TimeSync plus the Region's GameTime: what the world keeps
// (its sky time rides in each render snapshot). Until the first TimeSync there is no game time (the caller draws its
// fixed hour).
class GameClock {
 public:
  explicit GameClock(dat::GameTime desc) : game_time_(std::move(desc)) {}
  // ClientNet::HandleTimeSynch 0x00543D30: the header's server time goes to
  // Timer::set_time.
  void time_sync(double server_time, double local_now) noexcept;
  // GameTime::UseTime at Timer::cur_time(local_now); nothing before a sync.
  // The sky's time then.
  [[nodiscard]] std::optional<SkyTime> use_time(double local_now) noexcept;
  [[nodiscard]] const Timer& timer() const noexcept { return timer_; }
  [[nodiscard]] const GameTime& game_time() const noexcept { return game_time_; }

 private:
  Timer timer_;
  GameTime game_time_;
};

// The game clock as the world keeps it across steps: the server time of the
// latest TimeSync (ClientNet::HandleTimeSynch), and a GameClock made from the
// portal Region's GameTime on the first step after one. Without a TimeSync,
// or without a readable Region, there is no sky time (the renderer keeps
// its fixed hour).
class SkyClock {
 public:
  // The latest TimeSync's server time; the clock follows it from the next use_time.
  void time_sync(double server_time) noexcept { time_sync_ = server_time; }
  // Every step, ticked or not: a new TimeSync goes to the Timer, then
  // GameTime::UseTime at `now` gives the sky time. The Region is read
  // through `records` once, at the first step after a TimeSync.
  void use_time(double now, dat::RecordCache& records);
  // The sky time of the last use_time (none before a TimeSync or without a Region).
  [[nodiscard]] const std::optional<SkyTime>& sky_time() const noexcept { return sky_time_; }

 private:
  std::optional<GameClock> clock_;
  bool tried_ = false;
  std::optional<double> time_sync_;
  std::optional<double> last_time_sync_;
  std::optional<SkyTime> sky_time_;
};

}  // namespace dereth::sim
