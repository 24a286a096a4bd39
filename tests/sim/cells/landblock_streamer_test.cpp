// LandblockStreamer (docs/streaming.md): its builds and their generation and
// tier rules, driven deterministically by a ManualExecutor (each build runs
// when and in the order the test says), and the same records on a pool of
// two workers.
#include <catch2/catch.hpp>

#include <memory>
#include <optional>
#include <vector>

#include "cells/stream_support.hpp"

using namespace dereth;
using dereth::sim::StreamTier;
using namespace dereth::sim::test;

TEST_CASE("LandblockStreamer publishes a build only at drain, after its worker ran", "[sim][streaming]") {
  const StreamDats dats;
  Streamer s(dats);
  CHECK(s.streamer->streams());
  CHECK_FALSE(s.streamer->request(kCentre, StreamTier::Near));
  CHECK(s.jobs->held() == 1);
  CHECK_FALSE(s.streamer->request(kCentre, StreamTier::Near));  // one build on its way is enough
  CHECK(s.jobs->held() == 1);
  // The build says what it is for: a test finds a block's build by it.
  CHECK(s.jobs->tag(0) == sim::StreamJobTag{kCentre, true});
  CHECK(s.jobs->find(sim::StreamJobTag{kCentre, true}) == std::optional<std::size_t>(0));
  CHECK_FALSE(s.jobs->find(sim::StreamJobTag{kCentre, false}).has_value());
  CHECK(s.streamer->drain() == 0);  // nothing ran yet
  CHECK(s.streamer->resident_tier(kCentre) == StreamTier::None);
  s.jobs->run(0);
  CHECK(s.streamer->resident_tier(kCentre) == StreamTier::None);  // built, not yet published
  CHECK(s.streamer->drain() == 1);
  CHECK(s.streamer->resident_tier(kCentre) == StreamTier::Near);
  CHECK(s.streamer->request(kCentre, StreamTier::Near));
  CHECK(s.streamer->request(kCentre, StreamTier::Far));  // Near will do for Far
  const sim::LandblockBuild* b = s.streamer->published(kCentre);
  REQUIRE(b != nullptr);
  CHECK(height_of(*b) == Approx(2.0f * 12));  // block (A9, B4): step 2 + 5 * 2
  CHECK(s.streamer->in_flight() == 0);
}

TEST_CASE("LandblockStreamer rejects a build of an older generation even when its landblock id overlaps the new region",
          "[sim][streaming]") {
  const StreamDats dats;
  Streamer s(dats);
  CHECK_FALSE(s.streamer->request(kCentre, StreamTier::Near));  // generation 1
  s.streamer->begin_region();                                   // a hard recenter
  CHECK_FALSE(s.streamer->request(kCentre, StreamTier::Near));  // the same id, generation 2
  REQUIRE(s.jobs->held() == 2);
  s.jobs->run(0);  // the old build completes first
  CHECK(s.streamer->drain() == 0);
  CHECK(s.streamer->stats().rejected_generation == 1);
  CHECK(s.streamer->resident_tier(kCentre) == StreamTier::None);
  s.jobs->run(0);  // the new one
  CHECK(s.streamer->drain() == 1);
  CHECK(s.streamer->resident_tier(kCentre) == StreamTier::Near);
  CHECK(s.streamer->published(kCentre)->generation == s.streamer->generation());

  SECTION("a record published before the recenter does not answer for the new region") {
    s.streamer->begin_region();
    CHECK(s.streamer->resident_tier(kCentre) == StreamTier::None);
    CHECK_FALSE(s.streamer->request(kCentre, StreamTier::Near));
  }
}

TEST_CASE("LandblockStreamer never lets a stale Far result overwrite a Near one", "[sim][streaming]") {
  const StreamDats dats;
  Streamer s(dats);
  CHECK_FALSE(s.streamer->request(kCentre, StreamTier::Far));   // Load at Far
  CHECK_FALSE(s.streamer->request(kCentre, StreamTier::Near));  // Promote before it came
  REQUIRE(s.jobs->held() == 2);
  s.jobs->run(1);  // the Near build first
  CHECK(s.streamer->drain() == 1);
  CHECK(s.streamer->resident_tier(kCentre) == StreamTier::Near);
  s.jobs->run(0);  // then the stale Far
  CHECK(s.streamer->drain() == 0);
  CHECK(s.streamer->stats().rejected_stale_far == 1);
  CHECK(s.streamer->resident_tier(kCentre) == StreamTier::Near);
  CHECK(s.streamer->published(kCentre)->info == nullptr);  // the A9B4 block has no LandBlockInfo
  CHECK(s.streamer->published(kCentre)->tier == StreamTier::Near);
}

TEST_CASE("LandblockStreamer publishes a Near result arriving after its block was demoted as terrain only",
          "[sim][streaming]") {
  const StreamDats dats;
  Streamer s(dats);
  CHECK_FALSE(s.streamer->request(kDungeon, StreamTier::Near));
  CHECK_FALSE(s.streamer->request(kDungeon, StreamTier::Far));  // demoted while on its way
  REQUIRE(s.jobs->held() == 1);                                 // no second build: the Near one will do
  s.jobs->run(0);
  CHECK(s.streamer->drain() == 1);
  CHECK(s.streamer->stats().terrain_only == 1);
  const sim::LandblockBuild* b = s.streamer->published(kDungeon);
  REQUIRE(b != nullptr);
  CHECK(b->tier == StreamTier::Far);
  CHECK(b->terrain != nullptr);  // its terrain, without a second read
  CHECK(b->info == nullptr);
  CHECK(b->env_cells.empty());
  CHECK(s.streamer->request(kDungeon, StreamTier::Far));
  CHECK_FALSE(s.streamer->request(kDungeon, StreamTier::Near));  // promoted again: a new build

  SECTION("a Near block demoted on the main thread keeps its terrain only") {
    s.jobs->run(0);
    s.streamer->drain();
    REQUIRE(s.streamer->published(kDungeon)->env_cells.size() == 1);
    s.streamer->demote(kDungeon);
    CHECK(s.streamer->resident_tier(kDungeon) == StreamTier::Far);
    CHECK(s.streamer->published(kDungeon)->env_cells.empty());
    CHECK(s.streamer->published(kDungeon)->terrain != nullptr);
  }
}

TEST_CASE("LandblockStreamer ignores a duplicate completion", "[sim][streaming]") {
  const StreamDats dats;
  Streamer s(dats);
  CHECK_FALSE(s.streamer->request(kDungeon, StreamTier::Near));
  s.jobs->run(0, true);  // completes, and is kept to complete again
  CHECK(s.streamer->drain() == 1);
  const sim::LandblockBuild* first = s.streamer->published(kDungeon);
  s.jobs->run(0);
  CHECK(s.streamer->drain() == 0);
  CHECK(s.streamer->stats().rejected_duplicate == 1);
  CHECK(s.streamer->stats().published == 1);
  CHECK(s.streamer->published(kDungeon) == first);  // the first publication stands
}

TEST_CASE("LandblockStreamer unload in an old generation keeps the new generation's build of the same landblock",
          "[sim][streaming]") {
  const StreamDats dats;
  Streamer s(dats);
  CHECK_FALSE(s.streamer->request(kCentre, StreamTier::Near));
  s.jobs->run(0);
  s.streamer->drain();
  const std::uint64_t old_generation = s.streamer->generation();
  s.streamer->begin_region();
  CHECK_FALSE(s.streamer->request(kCentre, StreamTier::Near));  // the new region's build on its way
  s.streamer->unload(kCentre, old_generation);                  // the old block torn down afterwards
  CHECK(s.streamer->published(kCentre) == nullptr);
  CHECK(s.streamer->in_flight() == 1);
  s.jobs->run(0);
  CHECK(s.streamer->drain() == 1);
  CHECK(s.streamer->resident_tier(kCentre) == StreamTier::Near);

  SECTION("while an unload in the current generation drops a build still on its way") {
    s.streamer->unload(kCentre, s.streamer->generation());
    CHECK_FALSE(s.streamer->request(kCentre, StreamTier::Far));
    s.streamer->unload(kCentre, s.streamer->generation());
    s.jobs->run(0);
    CHECK(s.streamer->drain() == 0);
    CHECK(s.streamer->stats().rejected_unloaded == 1);
    CHECK(s.streamer->published(kCentre) == nullptr);
    CHECK(s.streamer->resident_count() == 0);
  }
}

TEST_CASE("LandblockStreamer on a pool of two workers publishes what the inline build does", "[sim][streaming]") {
  const StreamDats dats;
  dat::RecordCache records(dats.portal.get());
  const auto region = records.region();
  REQUIRE(region);
  dat::CellRecordCache pooled_cells(dats.cell.get());
  auto pool = std::make_unique<sim::ThreadPoolExecutor>(2);
  sim::ThreadPoolExecutor* workers = pool.get();
  sim::LandblockStreamer pooled(pooled_cells, region->land_defs, dat::kRegionId, std::move(pool));
  dat::CellRecordCache inline_cells(dats.cell.get());
  sim::LandblockStreamer inline_streamer(inline_cells, region->land_defs, dat::kRegionId);
  CHECK_FALSE(inline_streamer.streams());
  std::vector<std::uint32_t> keys;
  for (int x = 0xA7; x <= 0xAB; ++x) {
    for (int y = 0xB2; y <= 0xB6; ++y) keys.push_back(block(x, y));
  }
  keys.push_back(kDungeon);
  for (const std::uint32_t key : keys) CHECK_FALSE(pooled.request(key, StreamTier::Near));
  workers->wait_idle();
  CHECK(pooled.drain() == keys.size());
  for (const std::uint32_t key : keys) {
    CHECK(inline_streamer.request(key, StreamTier::Near));  // inline: at hand when asked
    const sim::LandblockBuild* a = pooled.published(key);
    const sim::LandblockBuild* b = inline_streamer.published(key);
    REQUIRE(a != nullptr);
    REQUIRE(b != nullptr);
    CHECK(height_of(*a) == height_of(*b));
    CHECK(a->env_cells.size() == b->env_cells.size());
  }
  CHECK(pooled.stats().near_published == keys.size());
}

TEST_CASE("LandblockStreamer publishes a corrupt landblock flat and empty, naming it, and goes on",
          "[sim][streaming]") {
  const StreamDats dats;
  Streamer s(dats);
  CHECK_FALSE(s.streamer->request(kCorrupt, StreamTier::Near));
  s.jobs->run(0);
  CHECK(s.streamer->drain() == 1);
  const sim::LandblockBuild* b = s.streamer->published(kCorrupt);
  REQUIRE(b != nullptr);
  CHECK(b->malformed);
  CHECK(b->land_block == nullptr);
  REQUIRE(b->terrain != nullptr);
  CHECK(height_of(*b) == Approx(0.0f));  // flat
  CHECK(b->info == nullptr);
  CHECK(s.cells.missing().size() == 1);
  CHECK(s.cells.missing()[0].id == (kCorrupt | 0xFFFFu));
  CHECK(s.streamer->request(kCorrupt, StreamTier::Near));  // resident: nothing to wait for

  SECTION("while a landblock the DAT does not have is nothing at all") {
    CHECK_FALSE(s.streamer->request(0x06060000u, StreamTier::Near));
    s.jobs->run(0);
    s.streamer->drain();
    const sim::LandblockBuild* absent = s.streamer->published(0x06060000u);
    REQUIRE(absent != nullptr);
    CHECK_FALSE(absent->malformed);
    CHECK(absent->terrain == nullptr);
  }
}
