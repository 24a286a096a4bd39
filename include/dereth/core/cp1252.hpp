#pragma once
// Windows-1252, the code page AC's servers write text in: its bytes as
// Unicode code points and back, and a code point as UTF-8. The protocol
// converts chat with it; the overlay's font draws what it covers.

#include <array>
#include <cstddef>
#include <optional>
#include <string>

namespace dereth::core::cp1252 {

// 0x80..0x9F as Unicode code points (0: undefined in CP1252).
inline constexpr std::array<char32_t, 32> kHigh = {0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
                                                   0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0,      0x017D, 0,
                                                   0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
                                                   0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

// The code point of byte `b` (0 for the five bytes CP1252 leaves undefined).
[[nodiscard]] constexpr char32_t to_unicode(unsigned char b) noexcept {
  return b >= 0x80 && b <= 0x9F ? kHigh[b - 0x80U] : b;
}

// The byte of code point `c`; none where CP1252 has no such character (the
// C1 controls U+0080..U+009F included: CP1252 puts other characters there).
[[nodiscard]] constexpr std::optional<unsigned char> from_unicode(char32_t c) noexcept {
  if (c < 0x80 || (c >= 0xA0 && c <= 0xFF)) return static_cast<unsigned char>(c);
  for (std::size_t i = 0; i < kHigh.size(); ++i) {
    if (kHigh[i] != 0 && kHigh[i] == c) return static_cast<unsigned char>(0x80U + i);
  }
  return std::nullopt;
}

// Appends `c` (below U+10000) as UTF-8.
inline void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0U | (c >> 6)));
    out.push_back(static_cast<char>(0x80U | (c & 0x3FU)));
  } else {
    out.push_back(static_cast<char>(0xE0U | (c >> 12)));
    out.push_back(static_cast<char>(0x80U | ((c >> 6) & 0x3FU)));
    out.push_back(static_cast<char>(0x80U | (c & 0x3FU)));
  }
}

}  // namespace dereth::core::cp1252
