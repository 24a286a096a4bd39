#include "dereth/net/reassembler.hpp"

#include <catch2/catch.hpp>

#include <map>

#include "support/pcap_messages.hpp"

using namespace dereth::net;

namespace {
Fragment frag(std::uint32_t seq, std::uint16_t count, std::uint16_t index, std::vector<std::uint8_t> data) {
  return Fragment{seq, 0x80000000, count, index, 10, std::move(data)};
}
}  // namespace

TEST_CASE("Reassembler: single, multi, tail-first and duplicate fragments", "[net][reassembly]") {
  Reassembler r;
  auto one = r.add(frag(1, 1, 0, {1, 2, 3}));
  REQUIRE(one.has_value());
  CHECK(one->bytes == std::vector<std::uint8_t>{1, 2, 3});
  CHECK_FALSE(r.add(frag(1, 1, 0, {1, 2, 3})).has_value());  // retransmitted
  CHECK(r.stats().duplicate_fragments == 1);

  CHECK_FALSE(r.add(frag(2, 3, 2, {7})).has_value());  // the tail first
  CHECK_FALSE(r.add(frag(2, 3, 0, {5})).has_value());
  CHECK_FALSE(r.add(frag(2, 3, 0, {9})).has_value());  // duplicate index dropped
  auto three = r.add(frag(2, 3, 1, {6}));
  REQUIRE(three.has_value());
  CHECK(three->bytes == std::vector<std::uint8_t>{5, 6, 7});
  CHECK(r.partial_count() == 0);
}

TEST_CASE("Reassembler: hostile fragments are counted, memory stays bounded", "[net][reassembly][malformed]") {
  Reassembler r(16, 64, 128);
  CHECK_FALSE(r.add(frag(5, 2, 2, {1})).has_value());     // index >= count
  CHECK_FALSE(r.add(frag(5, 0, 0, {1})).has_value());     // count 0
  CHECK_FALSE(r.add(frag(5, 1000, 0, {1})).has_value());  // absurd count
  CHECK(r.stats().inconsistent_fragments == 2);
  CHECK(r.stats().oversized_messages == 1);
  CHECK_FALSE(r.add(frag(6, 3, 0, {1})).has_value());
  CHECK_FALSE(r.add(frag(6, 4, 1, {1})).has_value());  // count disagrees
  CHECK(r.stats().mismatched_fragments == 1);
  // A flood of never-completed partials: at most 16 held.
  for (std::uint32_t s = 100; s < 100000; ++s) r.add(frag(s, 2, 0, {0}));
  CHECK(r.partial_count() == 16);
  CHECK(r.stats().evicted_partials == 100000 - 100 - 16 + 1);
}

TEST_CASE("Reassembler over the real capture's datagrams gives the capture's 1,985 server messages",
          "[net][reassembly][capture]") {
  auto capture = dereth::test::read_capture(dereth::test::shared_path("captures/example.pcap"));
  REQUIRE(capture.has_value());
  Reassembler s2c;
  std::vector<std::vector<std::uint8_t>> messages;
  for (const auto& d : capture->raw_datagrams) {
    if (!d.server_to_client) continue;
    auto p = parse_packet(d.bytes);
    REQUIRE(p.has_value());
    for (const auto& f : p->fragments) {
      if (auto m = s2c.add(f)) messages.push_back(std::move(m->bytes));
    }
  }
  CHECK(messages.size() == 1985);
  CHECK(s2c.stats().fragments == 2005);
  // Same messages, same order, as the independent test reader.
  std::vector<std::vector<std::uint8_t>> expected;
  for (const auto& m : capture->messages) {
    if (m.server_to_client) expected.push_back(m.bytes);
  }
  CHECK(messages == expected);
}

TEST_CASE("Reassembler attack: two messages sharing a fragment sequence with different ids are never spliced",
          "[net][reassembly][attack]") {
  Reassembler r;
  const auto a0 = Fragment{5, 0x80000000, 2, 0, 10, {1, 1}};
  const auto a1 = Fragment{5, 0x80000000, 2, 1, 10, {2, 2}};
  const auto b0 = Fragment{5, 0x80000001, 2, 0, 10, {8, 8}};
  const auto b1 = Fragment{5, 0x80000001, 2, 1, 10, {9, 9}};
  CHECK_FALSE(r.add(a0).has_value());
  CHECK_FALSE(r.add(b1).has_value());  // another blob id: its own partial
  auto a = r.add(a1);
  REQUIRE(a.has_value());
  CHECK(a->bytes == std::vector<std::uint8_t>{1, 1, 2, 2});
  auto b = r.add(b0);
  REQUIRE(b.has_value());
  CHECK(b->bytes == std::vector<std::uint8_t>{8, 8, 9, 9});
}

TEST_CASE("Reassembler attack: a fragment whose count or queue disagrees with its partial is dropped and counted",
          "[net][reassembly][attack]") {
  Reassembler r;
  CHECK_FALSE(r.add(Fragment{6, 0x80000000, 3, 0, 10, {1}}).has_value());
  CHECK_FALSE(r.add(Fragment{6, 0x80000000, 3, 1, 9, {2}}).has_value());   // queue 9, not 10
  CHECK_FALSE(r.add(Fragment{6, 0x80000000, 4, 1, 10, {2}}).has_value());  // count 4, not 3
  CHECK(r.stats().mismatched_fragments == 2);
  CHECK_FALSE(r.add(Fragment{6, 0x80000000, 3, 1, 10, {2}}).has_value());
  auto m = r.add(Fragment{6, 0x80000000, 3, 2, 10, {3}});
  REQUIRE(m.has_value());
  CHECK(m->bytes == std::vector<std::uint8_t>{1, 2, 3});
  CHECK(m->queue == 10);
}

TEST_CASE("Reassembler attack: a message of more than 1,024 fragments is counted once as oversized",
          "[net][reassembly][attack]") {
  Reassembler r;
  for (std::uint16_t i = 0; i < 1025; ++i) CHECK_FALSE(r.add(Fragment{7, 0x80000000, 1025, i, 10, {0}}).has_value());
  CHECK(r.stats().oversized_messages == 1);
  CHECK(r.partial_count() == 0);
  CHECK(r.add(Fragment{8, 0x80000000, 1, 0, 10, {4}}).has_value());
}
