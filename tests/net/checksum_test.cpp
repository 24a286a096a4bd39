#include "dereth/net/checksum.hpp"

#include <catch2/catch.hpp>

#include <vector>

#include "support/hex.hpp"

using namespace dereth::net;
using dereth::test::from_hex;

TEST_CASE("Hash32 known answers (spec 2.1)", "[net][checksum]") {
  CHECK(hash32({}) == 0x00000000u);
  const std::vector<std::uint8_t> one{0x80};
  CHECK(hash32(one) == 0x80010000u);
  CHECK(hash32(from_hex("0102030405")) == 0x09080201u);
  CHECK(hash32(from_hex("01020304050607")) == 0x09100901u);
}

TEST_CASE("AC ISAAC known answers (spec 2.5)", "[net][isaac]") {
  AcIsaac a(0x99E77855);
  for (std::uint32_t expected : {0xAD497DF3u, 0x70FAAA14u, 0xECF9E209u, 0x7B9F5809u, 0xA4B1AB73u}) {
    CHECK(a.next() == expected);
  }
  AcIsaac b(0x12345678);
  CHECK(b.next() == 0xFDD4AFEBu);
  CHECK(b.next() == 0x398311D2u);
  CHECK(b.next() == 0xC71829A4u);
  for (int i = 3; i < 255; ++i) b.next();
  CHECK(b.next() == 0xDF7CA7E9u);  // 256th: the last of the first pool
  CHECK(b.next() == 0xA608787Au);  // 257th: the first of the next pool
  AcIsaac z(0);
  CHECK(z.next() == 0x182600F3u);
  CHECK(z.next() == 0x300B4A8Du);
  CHECK(z.next() == 0x301B6622u);
}
