// F7B0 0x0248 UpdateRestrictions: the bytes the retail dispatcher
// (CM_House::DispatchUI_Recv_UpdateRestrictions 0x006AA430) reads after the
// event type: u8 stamp, u32 object, then the RestrictionDB (version
// 0x10000002, bitmask, monarch, u16 count, u16 buckets, count x {guid, value};
// or one of RestrictionDB::UnPack's two older layouts with an OldPHashTable).

#include "dereth/protocol/house.hpp"

#include <catch2/catch.hpp>

#include <array>

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

TEST_CASE("CM_House::DispatchUI_Recv_UpdateRestrictions 0x006AA430 bytes and round trip", "[retail]") {
  const auto bytes = encode_update_restrictions(0x50000001, 12, sample());
  const std::vector<std::uint8_t> expected = {
      0xB0, 0xF7, 0,    0,    0x01, 0, 0, 0x50, 12,   0, 0, 0,    0x48, 0x02, 0, 0,  // F7B0, player, sequence, 0x0248
      0x81, 0x01, 0x40, 0x9B, 0x7A,                                                  // stamp, object
      0x02, 0,    0,    0x10, 0,    0, 0, 0,    0x04, 0, 0, 0x50,                    // version, bitmask, monarch
      0x01, 0,    0x00, 0x01, 0x03, 0, 0, 0x50, 0x01, 0, 0, 0};                      // count, buckets, one entry
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

namespace {

// An UpdateRestrictions body (after the F7B0 header) with `db` as given bytes.
std::vector<std::uint8_t> with_db(const std::vector<std::uint8_t>& db) {
  constexpr std::array<std::uint8_t, 21> kHead = {0xB0, 0xF7, 0,    0, 0x01, 0,    0,    0x50, 12,   0,   0,
                                                  0,    0x48, 0x02, 0, 0,    0x81, 0x01, 0x40, 0x9B, 0x7A};
  std::vector<std::uint8_t> bytes;
  bytes.reserve(kHead.size() + db.size());
  for (const std::uint8_t b : kHead) bytes.push_back(b);
  for (const std::uint8_t b : db) bytes.push_back(b);
  return bytes;
}

}  // namespace

TEST_CASE("RestrictionDB::UnPack 0x005AE990 reads the two older layouts through OldPHashTable::UnPack 0x005AE750",
          "[retail]") {
  SECTION("a version below 0x10000002: bitmask and monarch, then the old table") {
    // Old table header: top byte log2(buckets) + 1 (4: 8 buckets), count 2.
    const auto bytes = with_db({0x01, 0, 0, 0x10, 0x01, 0, 0, 0, 0x04, 0, 0, 0x50,  // version, bitmask, monarch
                                0x02, 0, 0, 0x04,                                   // count 2, 8 buckets
                                0x03, 0, 0, 0x50, 0x01, 0, 0, 0,                    // guid, value
                                0x05, 0, 0, 0x50, 0x00, 0, 0, 0});
    auto m = decode_update_restrictions(bytes);
    REQUIRE(m);
    CHECK(m->db.version == 0x10000001u);
    CHECK(m->db.open_status == 1u);
    CHECK(m->db.monarch_guid == 0x50000004u);
    CHECK(m->db.buckets == 8);
    CHECK(m->db.entries == std::vector<RestrictionEntry>{{0x50000003, 1}, {0x50000005, 0}});
    CHECK(encode_update_restrictions(0x50000001, 12, *m) == bytes);
  }
  SECTION("no version (high word 0): the first u32 is the open flag (SetOpenHouse), no monarch") {
    const auto bytes = with_db({0x01, 0, 0, 0,     // open
                                0x01, 0, 0, 0x01,  // count 1, 1 bucket
                                0x03, 0, 0, 0x50, 0x02, 0, 0, 0});
    auto m = decode_update_restrictions(bytes);
    REQUIRE(m);
    CHECK(m->db.version == 0u);
    CHECK(m->db.open_status == 1u);  // bit 0 set
    CHECK(m->db.monarch_guid == 0u);
    CHECK(m->db.entries == std::vector<RestrictionEntry>{{0x50000003, 2}});
    CHECK(encode_update_restrictions(0x50000001, 12, *m) == bytes);
    // Any non-zero flag opens the house.
    auto flag = bytes;
    flag[21] = 0x07;
    auto open = decode_update_restrictions(flag);
    REQUIRE(open);
    CHECK(open->db.open_status == 1u);
    // An empty old table: header 0.
    auto empty = decode_update_restrictions(with_db({0, 0, 0, 0, 0, 0, 0, 0}));
    REQUIRE(empty);
    CHECK(empty->db.open_status == 0u);
    CHECK(empty->db.entries.empty());
  }
  SECTION("the old table's refusals, and truncation anywhere") {
    // More than 2^31 buckets (top byte 0x21).
    CHECK_FALSE(decode_update_restrictions(with_db({0, 0, 0, 0, 0, 0, 0, 0x21})));
    // No buckets but a count.
    CHECK_FALSE(decode_update_restrictions(with_db({0, 0, 0, 0, 0x01, 0, 0, 0, 0x03, 0, 0, 0x50, 0, 0, 0, 0})));
    // The same guid twice (OldHashTable::add refuses it).
    CHECK_FALSE(decode_update_restrictions(
        with_db({0, 0, 0, 0, 0x02, 0, 0, 0x01, 0x03, 0, 0, 0x50, 0, 0, 0, 0, 0x03, 0, 0, 0x50, 0x01, 0, 0, 0})));
    // A count larger than the bytes left is refused before anything is made.
    CHECK_FALSE(decode_update_restrictions(with_db({0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0x01})));
    const auto bytes =
        with_db({0x01, 0, 0, 0x10, 0x01, 0, 0, 0, 0x04, 0, 0, 0x50, 0x01, 0, 0, 0x01, 0x03, 0, 0, 0x50, 0x01, 0, 0, 0});
    REQUIRE(decode_update_restrictions(bytes));
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      CHECK_FALSE(decode_update_restrictions(std::span(bytes).first(n)));
    }
  }
}
