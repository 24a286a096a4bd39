// F7B0 0x0248 UpdateRestrictions: the bytes the retail dispatcher
// (CM_House::DispatchUI_Recv_UpdateRestrictions 0x006AA430) reads after the
// event type: u8 stamp, u32 object, then the RestrictionDB (version
// 0x10000002, bitmask, monarch, u16 count, u16 buckets, count x {guid, value}).

#include "dereth/protocol/house.hpp"

#include <catch2/catch.hpp>

using namespace dereth;
using namespace dereth::protocol;

namespace {

UpdateRestrictions sample() {
  UpdateRestrictions m;
  m.timestamp = 0x81;
  m.object = 0x7A9B4001;
  m.db.open_status = 0;
  m.db.monarch_guid = 0x50000004;
  m.db.buckets = 0x0100;
  m.db.entries = {{0x50000003, 1}};
  return m;
}

}  // namespace

TEST_CASE("CM_House::DispatchUI_Recv_UpdateRestrictions 0x006AA430 bytes and round trip", "[retail][0x006AA430]") {
  const auto bytes = encode_update_restrictions(0x50000001, 12, sample());
  const std::vector<std::uint8_t> expected = {
      0xB0, 0xF7, 0, 0, 0x01, 0, 0, 0x50, 12, 0, 0, 0, 0x48, 0x02, 0, 0,  // F7B0, player, sequence, 0x0248
      0x81, 0x01, 0x40, 0x9B, 0x7A,                                        // stamp, object
      0x02, 0, 0, 0x10, 0, 0, 0, 0, 0x04, 0, 0, 0x50,                      // version, bitmask, monarch
      0x01, 0, 0x00, 0x01, 0x03, 0, 0, 0x50, 0x01, 0, 0, 0};               // count, buckets, one entry
  CHECK(bytes == expected);
  auto back = decode_update_restrictions(bytes);
  REQUIRE(back);
  CHECK(*back == sample());
}

TEST_CASE("decode_update_restrictions refuses another event, a short body and bytes left over") {
  const auto bytes = encode_update_restrictions(0x50000001, 12, sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    CHECK_FALSE(decode_update_restrictions(std::span(bytes).first(n)));
  }
  auto longer = bytes;
  longer.push_back(0);
  CHECK_FALSE(decode_update_restrictions(longer));
  auto other = bytes;
  other[12] = 0x49;
  auto refused = decode_update_restrictions(other);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message().find("event_type") != std::string::npos);
  // A count larger than the bytes left is refused before anything is made.
  auto huge = bytes;
  huge[33] = 0xFF;
  huge[34] = 0xFF;
  CHECK_FALSE(decode_update_restrictions(huge));
}
