// Seed section 4: the exact F754 and F755 packet fixtures.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>

#include "dereth/protocol/messages.hpp"

#include "support/hex.hpp"

using namespace dereth::protocol;
using dereth::test::from_hex;

TEST_CASE("SmartBox::HandlePlayScriptID 0x00452020 fixture: F754 is 12 bytes", "[retail][protocol]") {
  const auto bytes = from_hex("54 F7 00 00 | 42 00 00 50 | 99 00 00 33");
  REQUIRE(bytes.size() == 12);
  auto m = decode_play_script_id(bytes);
  REQUIRE(m.has_value());
  CHECK(m->guid == 0x50000042u);
  CHECK(m->script_id == 0x33000099u);
  CHECK(encode(*m) == bytes);

  auto via_dispatch = decode_message(bytes);
  REQUIRE(via_dispatch.has_value());
  REQUIRE(std::holds_alternative<PlayScriptId>(*via_dispatch));
  CHECK(std::get<PlayScriptId>(*via_dispatch) == *m);
}

TEST_CASE("SmartBox::HandlePlayScriptType 0x00452070 fixture: F755 keeps raw type and NaN bits", "[retail][protocol]") {
  const auto bytes = from_hex("55 F7 00 00 | 42 00 00 50 | A5 A5 A5 A5 | 34 12 C0 7F");
  REQUIRE(bytes.size() == 16);
  auto m = decode_play_script_type(bytes);
  REQUIRE(m.has_value());
  CHECK(m->guid == 0x50000042u);
  CHECK(m->script_type == 0xA5A5A5A5u);     // unknown raw type kept
  CHECK(m->intensity_bits == 0x7FC01234u);  // NaN payload bits kept
  CHECK(std::isnan(m->intensity()));
  CHECK(std::bit_cast<std::uint32_t>(m->intensity()) == 0x7FC01234u);
  CHECK(encode(*m) == bytes);
}

TEST_CASE("F754 and F755 refuse every truncation and any trailing byte", "[protocol][malformed]") {
  const auto f754 = from_hex("54F70000 42000050 99000033");
  const auto f755 = from_hex("55F70000 42000050 A5A5A5A5 3412C07F");
  for (const auto* fixture : {&f754, &f755}) {
    for (std::size_t n = 0; n < fixture->size(); ++n) {
      std::span<const std::uint8_t> cut(fixture->data(), n);
      auto m = decode_message(cut);
      INFO("length " << n);
      REQUIRE_FALSE(m.has_value());
      CHECK(m.error().kind == dereth::core::ErrorKind::Truncated);
    }
    auto longer = *fixture;
    longer.push_back(0);
    auto m = decode_message(longer);
    REQUIRE_FALSE(m.has_value());
    CHECK(m.error().kind == dereth::core::ErrorKind::Trailing);
    CHECK(m.error().offset == fixture->size());
  }
}
