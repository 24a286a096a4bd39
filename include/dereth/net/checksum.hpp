#pragma once
// AC packet checksums (spec/protocol.md section 2): Hash32, the header hash
// and the AC variant of ISAAC that keys the "encrypted" checksum.

#include <array>
#include <cstdint>
#include <span>

namespace dereth::net {

// Hash32: (n << 16) + every whole little-endian u32 + the 0-3 trailing bytes
// placed from the top byte down (spec 2.1).
[[nodiscard]] std::uint32_t hash32(std::span<const std::uint8_t> bytes) noexcept;

// The AC ISAAC variant (spec 2.5): zero seed array, the seed in a = b = c,
// output read downward from rsl[255].
class AcIsaac {
 public:
  explicit AcIsaac(std::uint32_t seed) noexcept;
  // The next key of the stream.
  std::uint32_t next() noexcept;

 private:
  void generate() noexcept;
  std::array<std::uint32_t, 256> mm_{};
  std::array<std::uint32_t, 256> rsl_{};
  std::uint32_t a_ = 0, b_ = 0, c_ = 0;
  int remaining_ = 0;
};

}  // namespace dereth::net
