#pragma once
// The game clock the world keeps: the Timer fed by TimeSync and the Region's
// GameTime read at Timer::cur_time (retail GameTime::UseTime adds a clock
// offset and the GameTime.TimeZeroDelta setting, both 0).

#include <optional>
#include <utility>

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

}  // namespace dereth::sim
