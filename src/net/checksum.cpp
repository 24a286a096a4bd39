#include "dereth/net/checksum.hpp"

#include <cstring>

namespace dereth::net {

std::uint32_t hash32(std::span<const std::uint8_t> bytes) noexcept {
  const std::size_t n = bytes.size();
  std::uint32_t sum = static_cast<std::uint32_t>(n) << 16;
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    std::uint32_t word = 0;
    std::memcpy(&word, bytes.data() + i, 4);
    sum += word;
  }
  int shift = 24;
  for (; i < n; ++i, shift -= 8) {
    sum += static_cast<std::uint32_t>(bytes[i]) << shift;
  }
  return sum;
}

namespace {

inline void mix(std::uint32_t& a, std::uint32_t& b, std::uint32_t& c, std::uint32_t& d, std::uint32_t& e,
                std::uint32_t& f, std::uint32_t& g, std::uint32_t& h) noexcept {
  a ^= b << 11;
  d += a;
  b += c;
  b ^= c >> 2;
  e += b;
  c += d;
  c ^= d << 8;
  f += c;
  d += e;
  d ^= e >> 16;
  g += d;
  e += f;
  e ^= f << 10;
  h += e;
  f += g;
  f ^= g >> 4;
  a += f;
  g += h;
  g ^= h << 8;
  b += g;
  h += a;
  h ^= a >> 9;
  c += h;
  a += b;
}

}  // namespace

AcIsaac::AcIsaac(std::uint32_t seed) noexcept {
  // randinit with an all-zero seed array: the table is the same for every
  // seed; only a, b and c carry it.
  std::uint32_t w[8];
  for (auto& v : w) v = 0x9E3779B9U;
  for (int i = 0; i < 4; ++i) mix(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t j = 0; j < 256; j += 8) {
      for (std::size_t k = 0; k < 8; ++k) w[k] += pass == 0 ? rsl_[j + k] : mm_[j + k];
      mix(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]);
      for (std::size_t k = 0; k < 8; ++k) mm_[j + k] = w[k];
    }
  }
  a_ = b_ = c_ = seed;
  generate();
}

void AcIsaac::generate() noexcept {
  c_ += 1;
  b_ += c_;
  for (std::size_t i = 0; i < 256; ++i) {
    const std::uint32_t x = mm_[i];
    switch (i & 3U) {
      case 0: a_ ^= a_ << 13; break;
      case 1: a_ ^= a_ >> 6; break;
      case 2: a_ ^= a_ << 2; break;
      default: a_ ^= a_ >> 16; break;
    }
    a_ += mm_[(i + 128) & 255U];
    const std::uint32_t y = mm_[(x >> 2) & 255U] + a_ + b_;
    mm_[i] = y;
    b_ = mm_[(y >> 10) & 255U] + x;
    rsl_[i] = b_;
  }
  remaining_ = 256;
}

std::uint32_t AcIsaac::next() noexcept {
  if (remaining_ == 0) generate();
  --remaining_;
  return rsl_[static_cast<std::size_t>(remaining_)];
}

}  // namespace dereth::net
