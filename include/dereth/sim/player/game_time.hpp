#pragma once
// The Region's calendar over the server's time (retail GameTime,
// PORTAL/gametime/GameTime.c): year, day, season, the named time of day and
// the fraction of the day the sky is drawn at (docs/sim.md, "Game time").

#include <cstdint>

#include "dereth/dat/region.hpp"

namespace dereth::sim {

// The Region's calendar at a time (retail GameTime).
class GameTime {
 public:
  // year_length = day_length * days_per_year (GameTime::UnPack 0x005A6EC0);
  // time_of_day_begin starts at -1 (not yet computed).
  explicit GameTime(dat::GameTime desc);

  // GameTime::CalcDayBegin 0x005A6400: with total = time + zero_time_of_year,
  // current_year = zero_year + floor(total / year_length), current_day =
  // floor(offset in the year / day_length), current_season = the last season
  // (from the second on) whose begin day is not after the day (signed
  // compare), time_of_day_begin = time - (offset in the year - day *
  // day_length).
  void calc_day_begin(double time) noexcept;
  // GameTime::CalcTimeOfDay 0x005A64A0: the fraction f = (time -
  // time_of_day_begin) / day_length; current_time_of_day = the last named
  // time of day (from the second on) whose begin is not after f;
  // time_of_next_event = the next one's begin * day_length +
  // time_of_day_begin (after the last: day_length + time_of_day_begin), and
  // present_time_in_day_unit = how far f is between the two begins (after
  // the last: (f - begin) / (day_length - begin), as retail divides).
  void calc_time_of_day(double time) noexcept;
  // GameTime::UseTime 0x005A66F0 at `time` (retail: Timer::cur_time +
  // clock_offset + time_zero_start_delta): the day begin when not yet
  // computed (time_of_day_begin < 0), present_time_of_day = (time -
  // time_of_day_begin) / day_length (a float); at or after
  // time_of_next_event a new day (when that fraction is 1 or more) and the
  // named time of day. A day_length or year_length that is not positive and
  // finite, or a non-finite time, changes nothing (retail divides by zero).
  void use_time(double time) noexcept;

  [[nodiscard]] const dat::GameTime& desc() const noexcept { return desc_; }
  [[nodiscard]] double year_length() const noexcept { return year_length_; }
  [[nodiscard]] float present_time_of_day() const noexcept { return present_time_of_day_; }
  [[nodiscard]] double time_of_day_begin() const noexcept { return time_of_day_begin_; }
  [[nodiscard]] double time_of_next_event() const noexcept { return time_of_next_event_; }
  [[nodiscard]] double present_time_in_day_unit() const noexcept { return present_time_in_day_unit_; }
  [[nodiscard]] std::uint32_t current_year() const noexcept { return current_year_; }
  [[nodiscard]] std::uint32_t current_day() const noexcept { return current_day_; }
  [[nodiscard]] std::uint32_t current_season() const noexcept { return current_season_; }
  [[nodiscard]] std::uint32_t current_time_of_day() const noexcept { return current_time_of_day_; }

 private:
  [[nodiscard]] bool usable() const noexcept;

  dat::GameTime desc_;
  double year_length_ = 0.0;
  float present_time_of_day_ = 0.0F;
  double time_of_day_begin_ = -1.0;
  double time_of_next_event_ = 0.0;
  double present_time_in_day_unit_ = 0.0;
  std::uint32_t current_year_ = 0;
  std::uint32_t current_day_ = 0;
  std::uint32_t current_season_ = 0;
  std::uint32_t current_time_of_day_ = 0;
};

}  // namespace dereth::sim
