#include "dereth/net/inbox.hpp"

#include <catch2/catch.hpp>

#include <optional>

#include "support/pcap_messages.hpp"

using namespace dereth::net;

TEST_CASE("CapturePlayer: as fast as possible delivers every server message in order at once", "[net][replay]") {
  auto player = CapturePlayer::open(dereth::test::shared_path("captures/example.pcap"), 0);
  REQUIRE(player.has_value());
  auto all = player->drain(0.0);
  CHECK(all.size() == 1985);
  CHECK(player->finished());
  CHECK(player->drain(1.0).empty());
  auto reference = dereth::test::read_capture(dereth::test::shared_path("captures/example.pcap"));
  REQUIRE(reference.has_value());
  std::size_t i = 0;
  for (const auto& m : reference->messages) {
    if (!m.server_to_client) continue;
    REQUIRE(i < all.size());
    CHECK(all[i++].bytes == m.bytes);
  }
}

TEST_CASE("CapturePlayer: paced by capture time, scaled by speed", "[net][replay]") {
  auto player = CapturePlayer::open(dereth::test::shared_path("captures/example.pcap"), 2.0);
  REQUIRE(player.has_value());
  std::size_t total = 0;
  double first = -1, last_time = 0;
  // At double speed, 10 s of our clock covers the first 20 s of the capture.
  for (double now = 100.0; now <= 110.0; now += 0.5) {
    for (const auto& m : player->drain(now)) {
      if (first < 0) first = m.time;
      CHECK(m.time - first <= (now - 100.0) * 2.0 + 1e-9);
      CHECK(m.time >= last_time);
      last_time = m.time;
      ++total;
    }
  }
  CHECK(total > 0);
  CHECK(total < 1985);
  CHECK_FALSE(player->finished());
  // Far in the future everything has arrived.
  total += player->drain(1000.0).size();
  CHECK(total == 1985);
  CHECK(player->finished());
}

TEST_CASE("CapturePlayer: the server's TimeSync headers come with the messages played, for the game clock",
          "[net][replay][sky]") {
  // Paced: nothing played, no TimeSync yet; each value seen belongs to a
  // packet already played, and the values only move forward.
  auto paced = CapturePlayer::open(dereth::test::shared_path("captures/example.pcap"), 1.0);
  REQUIRE(paced.has_value());
  CHECK_FALSE(paced->last_time_sync().has_value());
  std::optional<double> previous;
  std::size_t changes = 0;
  for (double now = 0.0; now <= 2000.0 && !paced->finished(); now += 5.0) {
    (void)paced->drain(now);
    const auto sync = paced->last_time_sync();
    if (previous) {
      REQUIRE(sync.has_value());
      CHECK(*sync >= *previous);
    }
    if (sync != previous) ++changes;
    previous = sync;
  }
  // A real ACE session: TimeSync arrives, and more than once.
  REQUIRE(previous.has_value());
  CHECK(changes > 1);
  CHECK(*previous > 1.0e6);  // the server's clock, not seconds since the capture started
}
