#include "dereth/core/byte_reader.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "dereth/core/byte_writer.hpp"

using namespace dereth::core;

namespace {
std::vector<std::uint8_t> bytes(std::initializer_list<int> list) {
  std::vector<std::uint8_t> out;
  for (int b : list) out.push_back(static_cast<std::uint8_t>(b));
  return out;
}
}  // namespace

TEST_CASE("ByteReader reads little-endian integers", "[core][byte_reader]") {
  auto data = bytes({0x01, 0x34, 0x12, 0x78, 0x56, 0x34, 0x12, 0xEF, 0xCD, 0xAB, 0x89, 0x67, 0x45, 0x23, 0x01});
  ByteReader r(data, "test");
  CHECK(r.u8("a").value() == 0x01);
  CHECK(r.u16("b").value() == 0x1234);
  CHECK(r.u32("c").value() == 0x12345678);
  CHECK(r.u64("d").value() == 0x0123456789ABCDEFULL);
  CHECK(r.at_end());
}

TEST_CASE("ByteReader refuses a short read without moving", "[core][byte_reader]") {
  auto data = bytes({0xAA, 0xBB, 0xCC});
  ByteReader r(data, "F74B SetState");
  REQUIRE(r.u8("first").has_value());
  auto v = r.u32("state");
  REQUIRE_FALSE(v.has_value());
  CHECK(v.error().kind == ErrorKind::Truncated);
  CHECK(v.error().field == "state");
  CHECK(v.error().offset == 1);
  CHECK(v.error().context == "F74B SetState");
  CHECK(v.error().message() == "F74B SetState: state at offset 1: truncated (needs 4 bytes, 2 remain)");
  CHECK(r.position() == 1);
}

TEST_CASE("ByteReader f32 keeps NaN payload bits", "[core][byte_reader]") {
  ByteWriter w;
  w.f32_bits(0x7FC01234);
  w.f32_bits(0xFF800000);  // -inf
  w.f32_bits(0x7F800001);  // signalling NaN
  ByteReader r(w.view(), "test");
  CHECK(std::bit_cast<std::uint32_t>(r.f32("nan").value()) == 0x7FC01234u);
  CHECK(std::isinf(r.f32("ninf").value()));
  const float snan = r.f32("snan").value();
  CHECK(std::bit_cast<std::uint32_t>(snan) == 0x7F800001u);
  ByteWriter again;
  again.f32(snan);
  CHECK(again.data() == bytes({0x01, 0x00, 0x80, 0x7F}));
}

TEST_CASE("ByteReader align4 is relative to the reader's first byte", "[core][byte_reader]") {
  auto data = bytes({1, 2, 3, 0, 5, 0, 0, 0, 9});
  ByteReader r(data, "test");
  REQUIRE(r.skip(3, "x").has_value());
  REQUIRE(r.align4("pad").has_value());
  CHECK(r.position() == 4);
  REQUIRE(r.align4("pad").has_value());  // already aligned: no move
  CHECK(r.position() == 4);
  REQUIRE(r.u8("y").has_value());
  REQUIRE(r.align4("pad").has_value());
  CHECK(r.position() == 8);
  REQUIRE(r.u8("z").has_value());
  auto bad = r.align4("tail padding");
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().kind == ErrorKind::Truncated);
}

TEST_CASE("String16L round trip with padding", "[core][byte_reader]") {
  for (const std::string& text : std::vector<std::string>{"", "a", "Door", "Tusker Fist", std::string(300, 'x')}) {
    ByteWriter w;
    w.string16l(text);
    CHECK(w.size() % 4 == 0);
    CHECK(w.size() == ((2 + text.size() + 3) & ~std::size_t{3}));
    ByteReader r(w.view(), "test");
    CHECK(r.string16l("name").value() == text);
    CHECK(r.at_end());
  }
}

TEST_CASE("String16L refuses a length beyond the bytes", "[core][byte_reader]") {
  auto data = bytes({0x10, 0x00, 'a', 'b'});
  ByteReader r(data, "F745 CreateObject");
  auto s = r.string16l("WeenieDesc.name");
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().kind == ErrorKind::TooLarge);
  CHECK(r.position() == 0);
  // The 0xFFFF escape: a u32 length follows.
  auto big = bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF});
  ByteReader r2(big, "test");
  CHECK(r2.string16l("s").error().kind == ErrorKind::TooLarge);
}

TEST_CASE("PackedDWORD both forms", "[core][byte_reader]") {
  for (std::uint32_t v : {0u, 1u, 0x7FFFu, 0x8000u, 0x31A1u, 0x12345u, 0x7FFFFFFFu}) {
    ByteWriter w;
    w.packed_dword(v);
    CHECK(w.size() == (v <= 0x7FFF ? 2u : 4u));
    ByteReader r(w.view(), "test");
    CHECK(r.packed_dword("v").value() == v);
  }
  // spec/protocol.md 5.0: WCID 0x31A1 is the two bytes A1 31.
  ByteWriter w;
  w.packed_dword(0x31A1);
  CHECK(w.data() == bytes({0xA1, 0x31}));
  ByteWriter w2;
  w2.packed_dword(0x12345);
  CHECK(w2.data() == bytes({0x01, 0x80, 0x45, 0x23}));
}

TEST_CASE("PackedDWORD of known type adds the base in both forms", "[core][byte_reader]") {
  // Icon 0x1317 -> 0x06001317 (the retail Door example, spec/protocol.md 5.1).
  auto two = bytes({0x17, 0x13});
  ByteReader r(two, "test");
  CHECK(r.packed_did(0x06000000, "icon").value() == 0x06001317u);
  // A four-byte form: base re-added, high word masked with 0x3FFF.
  for (std::uint32_t v : {0x06000000u, 0x06007FFFu, 0x06008000u, 0x0600ABCDu, 0x06123456u}) {
    ByteWriter w;
    w.packed_did(v, 0x06000000);
    ByteReader rr(w.view(), "test");
    CHECK(rr.packed_did(0x06000000, "icon").value() == v);
  }
  auto four = bytes({0x00, 0xC0, 0x01, 0x00});  // high word 0xC000 -> masked to 0
  ByteReader r4(four, "test");
  CHECK(r4.packed_did(0x05000000, "tex").value() == 0x05000001u);
  auto half = bytes({0x01, 0x80});
  ByteReader rh(half, "test");
  CHECK(rh.packed_did(0x05000000, "tex").error().kind == ErrorKind::Truncated);
  CHECK(rh.position() == 0);
}

TEST_CASE("checked_count bounds a count before allocation", "[core][byte_reader]") {
  std::vector<std::uint8_t> data(16, 0);
  ByteReader r(data, "test");
  CHECK(r.checked_count(2, 8, "n").value() == 2);
  CHECK(r.checked_count(3, 8, "n").error().kind == ErrorKind::TooLarge);
  CHECK(r.checked_count(0xFFFFFFFFu, 1, "n").error().kind == ErrorKind::TooLarge);
  CHECK(r.expect_end().error().kind == ErrorKind::Trailing);
}

TEST_CASE("ByteWriter patch and alignment", "[core][byte_writer]") {
  ByteWriter w;
  w.u32(0);
  w.u8(7);
  w.align4();
  CHECK(w.size() == 8);
  w.patch_u32(0, 0xF745);
  CHECK(w.data() == bytes({0x45, 0xF7, 0, 0, 7, 0, 0, 0}));
}
