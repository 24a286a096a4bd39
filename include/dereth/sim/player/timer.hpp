#pragma once
// The client's clock of the server's time (retail Timer, CORE/timer/Timer.c):
// every TimeSync optional header (0x01000000, an f64 of server seconds) goes
// to ClientNet::HandleTimeSynch 0x00543D30 and on to Timer::set_time. Nothing
// here reads a wall clock: the caller passes its clock's seconds.

namespace dereth::sim {

// The client's clock of server time: local seconds plus an offset learnt
// from TimeSync.
class Timer {
 public:
  // Timer::set_time 0x0040F840: a server time more than 1e-9 s ahead of the
  // clock's reading moves the clock there (offset = server - local); one at
  // or behind the reading leaves it (the clock never runs backwards; retail's
  // momentary hold of a time between the last reading and now is not
  // modelled). Non-finite times are ignored.
  void set_time(double server_time, double local_now) noexcept;
  // Timer::cur_time: local seconds plus the offset.
  [[nodiscard]] double cur_time(double local_now) const noexcept { return local_now + offset_; }
  // Whether a server time ever arrived (adopted or not: before the first
  // one the clock reads local time, as retail's does).
  [[nodiscard]] bool synced() const noexcept { return synced_; }

 private:
  double offset_ = 0.0;
  bool synced_ = false;
};

}  // namespace dereth::sim
