#include "dereth/sim/player/game_time.hpp"

#include <cmath>
#include <utility>

namespace dereth::sim {

namespace {

// A floored quotient as retail's (unsigned __int64) conversion keeps its low
// 32 bits; out of the 64-bit range (or NaN): 0.
std::uint32_t low_word(double floored) noexcept {
  if (!(std::abs(floored) < 9.0e18)) return 0;
  return static_cast<std::uint32_t>(static_cast<std::uint64_t>(static_cast<std::int64_t>(floored)));
}

bool positive_finite(double v) noexcept {
  return std::isfinite(v) && v > 0.0;
}

}  // namespace

GameTime::GameTime(dat::GameTime desc) : desc_(std::move(desc)) {
  // GameTime::UnPack 0x005A6EC0: year_length = day_length * days_per_year
  year_length_ = static_cast<double>(desc_.day_length) * static_cast<double>(desc_.days_per_year);
}

bool GameTime::usable() const noexcept {
  return positive_finite(desc_.day_length) && positive_finite(year_length_);
}

// GameTime::CalcDayBegin 0x005A6400
void GameTime::calc_day_begin(double time) noexcept {
  if (!usable() || !std::isfinite(time)) return;
  const double day_length = desc_.day_length;
  const double total = time + desc_.zero_time_of_year;
  const double years = std::floor(total / year_length_);
  const double offset_in_year = total - years * year_length_;
  current_year_ = desc_.zero_year + low_word(years);
  const std::uint32_t day = low_word(std::floor(offset_in_year / day_length));
  current_day_ = day;
  std::uint32_t season = 0;
  const std::size_t n = desc_.seasons.size();
  // Retail's loop runs from the second season; with no seasons it would read
  // past the array (here: season 0).
  while (n > 0 && season < n - 1) {
    if (static_cast<std::int32_t>(day) < static_cast<std::int32_t>(desc_.seasons[season + 1].start)) break;
    ++season;
  }
  current_season_ = season;
  time_of_day_begin_ = time - (offset_in_year - static_cast<double>(static_cast<std::int32_t>(day)) * day_length);
}

// GameTime::CalcTimeOfDay 0x005A64A0
void GameTime::calc_time_of_day(double time) noexcept {
  if (!usable() || !std::isfinite(time)) return;
  const double day_length = desc_.day_length;
  const double f = (time - time_of_day_begin_) / day_length;
  const auto& times = desc_.times_of_day;
  if (times.empty()) {  // retail reads past the array
    current_time_of_day_ = 0;
    time_of_next_event_ = day_length + time_of_day_begin_;
    present_time_in_day_unit_ = f;
    return;
  }
  std::size_t i = 0;
  while (i + 1 < times.size() && !(f < times[i + 1].start)) ++i;
  current_time_of_day_ = static_cast<std::uint32_t>(i);
  const double begin = times[i].start;
  if (i == times.size() - 1) {
    time_of_next_event_ = day_length + time_of_day_begin_;
    present_time_in_day_unit_ = (f - begin) / (day_length - begin);
  } else {
    const double next = times[i + 1].start;
    time_of_next_event_ = next * day_length + time_of_day_begin_;
    present_time_in_day_unit_ = (f - begin) / (next - begin);
  }
}

// GameTime::UseTime 0x005A66F0
void GameTime::use_time(double time) noexcept {
  if (!usable() || !std::isfinite(time)) return;
  if (time_of_day_begin_ < 0.0) calc_day_begin(time);
  const double day_length = desc_.day_length;
  double present = (time - time_of_day_begin_) / day_length;
  present_time_of_day_ = static_cast<float>(present);
  if (time >= time_of_next_event_) {
    if (present >= 1.0) {
      calc_day_begin(time);
      present = (time - time_of_day_begin_) / day_length;
      present_time_of_day_ = static_cast<float>(present);
    }
    calc_time_of_day(time);
  }
}

}  // namespace dereth::sim
