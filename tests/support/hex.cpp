#include "support/hex.hpp"

#include <stdexcept>

namespace dereth::test {

namespace {

// The value of a hex digit, or -1 when c is not one.
int digit_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_separator(char c) noexcept {
  switch (c) {
    case ' ':
    case '\t':
    case '\n':
    case '\r':
    case '\v':
    case '\f':
    case '|':
    case ':': return true;
    default: return false;
  }
}

}  // namespace

std::vector<std::uint8_t> from_hex(std::string_view text) {
  std::vector<std::uint8_t> out;
  out.reserve(text.size() / 2);
  int high = -1;  // the pending first digit of a byte
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (is_separator(c)) continue;
    const int value = digit_value(c);
    if (value < 0) {
      throw std::invalid_argument("from_hex: bad character at index " + std::to_string(i));
    }
    if (high < 0) {
      high = value;
    } else {
      out.push_back(static_cast<std::uint8_t>(high * 16 + value));
      high = -1;
    }
  }
  if (high >= 0) {
    throw std::invalid_argument("from_hex: odd number of hex digits");
  }
  return out;
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const std::uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4]);
    out.push_back(kDigits[b & 0x0F]);
  }
  return out;
}

}  // namespace dereth::test
