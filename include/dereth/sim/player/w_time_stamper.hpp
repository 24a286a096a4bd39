#pragma once
// WTimeStamper: the one-byte timestamp retail keeps per quality of a weenie
// (the key is the stype with the quality kind in the high word: 0x10000 an
// int property, 0x40000 a skill, 0x80000 an attribute, 0x90000 a vital), so that a private update
// that arrives after a newer one of the same quality is dropped. Its
// comparison is a wrapping one over eight bits (WTimeStamper::UpdateTS
// 0x006B2D70), unlike the sixteen-bit physics stamps (core::is_newer).
#include <cstdint>
#include <utility>
#include <vector>

namespace dereth::sim {

// The quality kinds' key bits (ClientObjMaintSystem::UpdateStat<...>).
namespace stamp_key {
inline constexpr std::uint32_t Int = 0x10000;
inline constexpr std::uint32_t Skill = 0x40000;
inline constexpr std::uint32_t Attribute = 0x80000;
inline constexpr std::uint32_t Attribute2nd = 0x90000;
}  // namespace stamp_key

class WTimeStamper {
 public:
  // WTimeStamper::UpdateTS 0x006B2D70: a key seen for the first time takes
  // the stamp; otherwise the stamp is taken (and true returned) unless it
  // is older than the one held: lower when the two are within 127 of each
  // other, higher when they are further apart (the counter wrapped). An
  // equal stamp is taken.
  bool update_ts(std::uint32_t key, std::uint8_t new_ts);

 private:
  std::vector<std::pair<std::uint32_t, std::uint8_t>> stamps_;
};

}  // namespace dereth::sim
