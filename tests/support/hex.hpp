#pragma once
// Hex text <-> bytes for tests: fixtures written as hex dumps, and readable
// failure messages.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dereth::test {

// Parses hex digits (either case). Whitespace, '|' and ':' are ignored
// anywhere, so "F7 55|00:00" and "f7550000" give the same bytes. Throws
// std::invalid_argument on any other character or an odd number of digits.
std::vector<std::uint8_t> from_hex(std::string_view text);

// Lowercase hex, two digits a byte, no separators: {0xF7, 0x55} -> "f755".
std::string to_hex(std::span<const std::uint8_t> bytes);

}  // namespace dereth::test
