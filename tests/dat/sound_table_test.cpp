#include "dereth/dat/sound_table.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

SoundTable sample() {
  SoundTable t;
  t.id = 0x20000001;
  t.root.hash_key = 0;
  t.root.entries = {{0x0A000010, 1.0F, 0.5F, 0.75F}, {0x0A000011, 0.0F, 1.0F, 1.0F}};
  SoundTableData hit;
  hit.hash_key = 0x09;  // Damage1
  hit.entries = {{0x0A000020, 0.25F, 0.5F, 1.0F}};
  SoundTableData none;
  none.hash_key = 0x12;  // a leaf with no entries
  t.root.children = {hit, none};
  return t;
}

}  // namespace

TEST_CASE("SoundTable: layout and round trip", "[dat][sound_table]") {
  const SoundTable t = sample();
  const auto bytes = write_sound_table(t);
  // DID, hashKey, n, 2 entries, numChildren, child(12 + 16), child(12).
  REQUIRE(bytes.size() == 4 + 4 + 4 + 32 + 4 + 28 + 12);
  CHECK(bytes[44] == 2);  // the child count is one u32 (retail)
  CHECK(bytes[45] == 0);
  CHECK(bytes[46] == 0);
  CHECK(bytes[47] == 0);
  auto back = read_sound_table(bytes, t.id);
  REQUIRE(back.has_value());
  CHECK(*back == t);
  REQUIRE(find_sound(*back, 0x09) != nullptr);
  CHECK(find_sound(*back, 0x09)->entries.at(0).wave == 0x0A000020);
  CHECK(find_sound(*back, 0x55) == nullptr);

  SoundTable empty;
  empty.id = 0x20000002;
  CHECK(read_sound_table(write_sound_table(empty), empty.id).value() == empty);

  // Deeper nesting (retail's format is recursive) also round-trips.
  SoundTable deep = t;
  deep.root.children[1].children.push_back(t.root.children[0]);
  CHECK(read_sound_table(write_sound_table(deep), deep.id).value() == deep);

  dereth::core::JsonWriter j;
  write_json(j, empty);
  CHECK(j.str() == R"({"type":"SoundTable","id":"0x20000002","root":{"hash_key":"0x00000000","entries":[]}})");
}

TEST_CASE("SoundTable: truncation, oversized counts, depth and trailing bytes", "[dat][sound_table]") {
  const SoundTable t = sample();
  const auto bytes = write_sound_table(t);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_sound_table(std::span<const std::uint8_t>(bytes.data(), n), t.id);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
  }
  auto huge = bytes;
  huge[11] = 0x40;  // entry count 0x40000002
  auto r = read_sound_table(huge, t.id);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().offset == 8);
  // ACE's "u16 count + u16 buckets" reading: a non-zero high half is a huge
  // u32 count for retail, so it is refused.
  auto buckets = bytes;
  buckets[46] = 0x08;
  r = read_sound_table(buckets, t.id);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "children.count");

  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_sound_table(trailing, t.id).error().kind == ErrorKind::Trailing);

  // 40 levels of single children: refused cleanly (no stack exhaustion).
  ByteWriter w;
  w.u32(0x20000003);
  for (int i = 0; i < 40; ++i) {
    w.u32(static_cast<std::uint32_t>(i));
    w.u32(0);
    w.u32(1);
  }
  w.u32(99);
  w.u32(0);
  w.u32(0);
  r = read_sound_table(w.view(), 0x20000003);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::Invalid);
}
