// RecordCache's world records beside the Setup: the Environment, the Region,
// the SkillTable, the XpTable, the CharGen, the PaletteSets, the VitalTable
// and the SpellTable, each read and
// decoded once however many ask, a missing one listed once, a truncated one
// refused (listed with why), never crashed on.
#include "dereth/dat/record_cache.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "dereth/dat/dat_writer.hpp"

using namespace dereth::dat;

namespace {

constexpr Did kEnvironmentId = 0x0D000123;
constexpr Did kPaletteSetId = 0x0F000456;

struct Sample {
  Did id;
  const char* kind;
  std::vector<std::uint8_t> bytes;
};

Region sample_region() {
  Region r;
  r.id = kRegionId;
  r.name = "Test";
  return r;
}

SkillTable sample_skill_table() {
  SkillTable t;
  t.buckets = 32;
  SkillBase run;
  run.name = "Run";
  run.description = "Go fast.";
  run.trained_cost = 0;
  run.specialized_cost = 4;
  t.skills = {{24, run}};
  return t;
}

XpTable sample_xp_table() {
  XpTable t;
  t.attribute = {0, 110};
  t.vital = {0, 70};
  t.trained_skill = {0, 50};
  t.specialized_skill = {0, 30};
  t.level = {0, 1000};
  t.skill_credits = {0, 1};
  return t;
}

VitalTable sample_vital_table() {
  VitalTable t;
  t.max_health.attr1 = 2;
  t.max_health.x = 1;
  t.max_health.z = 2;
  return t;
}

SpellTable sample_spell_table() {
  SpellTable t;
  t.spell_buckets = 32;
  SpellBase dart;
  dart.name = "Ember Dart";
  dart.description = "A mote of fire.";
  t.spells = {{1, dart}};
  return t;
}

PaletteSet sample_palette_set() {
  PaletteSet p;
  p.id = kPaletteSetId;
  p.palettes = {0x04000001, 0x04000002};
  return p;
}

Environment sample_environment() {
  Environment e;
  e.id = kEnvironmentId;
  CellStruct cell;
  cell.id = 3;
  cell.portals = {0};
  e.cells.push_back(cell);
  return e;
}

// One of each new kind, written by our own writers.
std::vector<Sample> samples() {
  return {
      {kEnvironmentId, "Environment", write_environment(sample_environment())},
      {kRegionId, "Region", write_region(sample_region())},
      {kSkillTableId, "SkillTable", write_skill_table(sample_skill_table())},
      {kXpTableId, "XpTable", write_xp_table(sample_xp_table())},
      {kCharGenId, "CharGen", write_char_gen(CharGen{})},
      {kPaletteSetId, "PaletteSet", write_palette_set(sample_palette_set())},
      {kVitalTableId, "VitalTable", write_vital_table(sample_vital_table())},
      {kSpellTableId, "SpellTable", write_spell_table(sample_spell_table())},
  };
}

DatFile dat_of(const std::vector<Sample>& records) {
  DatWriter writer;
  for (const Sample& s : records) writer.add(s.id, s.bytes);
  auto bytes = writer.build();
  REQUIRE(bytes.has_value());
  auto file = DatFile::from_bytes(std::move(*bytes), "test portal");
  REQUIRE(file.has_value());
  return std::move(*file);
}

// Asks `cache` for the record of `kind` and `id` as a type-erased pointer
// (null: could not be had).
std::shared_ptr<const void> ask(RecordCache& cache, const std::string& kind, Did id) {
  if (kind == "Environment") return cache.environment(id);
  if (kind == "Region") return cache.region(id);
  if (kind == "SkillTable") return cache.skill_table(id);
  if (kind == "XpTable") return cache.xp_table(id);
  if (kind == "CharGen") return cache.char_gen(id);
  if (kind == "PaletteSet") return cache.palette_set(id);
  if (kind == "VitalTable") return cache.vital_table(id);
  if (kind == "SpellTable") return cache.spell_table(id);
  FAIL("no such kind " << kind);
  return nullptr;
}

}  // namespace

TEST_CASE("RecordCache reads each world record once, however many ask", "[dat][record_cache]") {
  const auto all = samples();
  const DatFile portal = dat_of(all);
  RecordCache cache(&portal);
  for (const Sample& s : all) {
    INFO(s.kind);
    const auto first = ask(cache, s.kind, s.id);
    REQUIRE(first != nullptr);
    const std::size_t size = cache.size();
    // The same decoded record, not a second read.
    CHECK(ask(cache, s.kind, s.id) == first);
    CHECK(ask(cache, s.kind, s.id) == first);
    CHECK(cache.size() == size);
  }
  CHECK(cache.size() == all.size());
  CHECK(cache.missing().empty());
  CHECK(!cache.find_missing("Region", kRegionId).has_value());
  // The decoded values are the records written.
  CHECK(cache.skill_table()->skills.size() == 1);
  CHECK(cache.xp_table()->level.back() == 1000);
  CHECK(cache.region(kRegionId)->name == "Test");
  CHECK(cache.palette_set(kPaletteSetId)->palettes.size() == 2);
  CHECK(cache.vital_table()->max_health.z == 2);
  REQUIRE(find_spell(*cache.spell_table(), 1) != nullptr);
  CHECK(find_spell(*cache.spell_table(), 1)->name == "Ember Dart");
  // The defaults name the portal's one SkillTable, XpTable and CharGen.
  CHECK(cache.skill_table() == cache.skill_table(kSkillTableId));
  CHECK(cache.xp_table() == cache.xp_table(kXpTableId));
  CHECK(cache.char_gen() == cache.char_gen(kCharGenId));
  CHECK(cache.vital_table() == cache.vital_table(kVitalTableId));
  CHECK(cache.spell_table() == cache.spell_table(kSpellTableId));
}

TEST_CASE(
    "RecordCache answers threads asking at once: every thread gets the same record, and a missing one is counted "
    "once",
    "[dat][record_cache]") {
  const auto all = samples();
  const DatFile portal = dat_of(all);
  for (int round = 0; round < 20; ++round) {
    RecordCache cache(&portal);
    constexpr int kThreads = 4;
    std::vector<std::vector<std::shared_ptr<const void>>> got(kThreads);
    std::vector<std::thread> threads;
    threads.reserve(kThreads);
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        for (const Sample& s : all) got[t].push_back(ask(cache, s.kind, s.id));
        got[t].push_back(cache.setup(0x02FFFFFF));  // not in the DAT
      });
    }
    for (auto& th : threads) th.join();
    for (int t = 1; t < kThreads; ++t) CHECK(got[t] == got[0]);
    for (std::size_t i = 0; i < all.size(); ++i) CHECK(got[0][i] != nullptr);
    CHECK(got[0].back() == nullptr);
    CHECK(cache.size() == all.size() + 1);
    REQUIRE(cache.missing().size() == 1);
    CHECK(cache.find_missing("Setup", 0x02FFFFFF).has_value());
  }
}

TEST_CASE("RecordCache counts a missing world record once and never re-reads it", "[dat][record_cache]") {
  const DatFile portal = dat_of({});
  RecordCache cache(&portal);
  for (const Sample& s : samples()) {
    INFO(s.kind);
    CHECK(ask(cache, s.kind, s.id) == nullptr);
    CHECK(ask(cache, s.kind, s.id) == nullptr);  // absence is cached
    const auto m = cache.find_missing(s.kind, s.id);
    REQUIRE(m.has_value());
    CHECK(m->why == "not in test portal");
  }
  REQUIRE(cache.missing().size() == 8);
  CHECK(cache.missing()[0].kind == "Environment");
  CHECK(cache.missing()[1].kind == "Region");
  CHECK(cache.missing()[5].kind == "PaletteSet");
  CHECK(cache.size() == 8);
  // Another kind under the same id is its own lookup.
  CHECK(!cache.find_missing("Setup", kRegionId).has_value());

  // Without a portal nothing is read and nothing is missing; id 0 is "none".
  RecordCache none(nullptr);
  CHECK(none.region(kRegionId) == nullptr);
  CHECK(none.skill_table() == nullptr);
  CHECK(none.missing().empty());
  RecordCache zero(&portal);
  CHECK(zero.environment(0) == nullptr);
  CHECK(zero.palette_set(0) == nullptr);
  CHECK(zero.missing().empty());
}

TEST_CASE("RecordCache refuses a truncated world record of each kind, listed with why", "[dat][record_cache]") {
  const auto all = samples();
  for (const Sample& s : all) {
    // Every cut short of the whole record.
    for (std::size_t cut = 0; cut < s.bytes.size(); ++cut) {
      INFO(s.kind << " cut at " << cut << " of " << s.bytes.size());
      Sample truncated = s;
      truncated.bytes.resize(cut);
      const DatFile portal = dat_of({truncated});
      RecordCache cache(&portal);
      CHECK(ask(cache, s.kind, s.id) == nullptr);
      REQUIRE(cache.missing().size() == 1);
      CHECK(cache.missing()[0].kind == s.kind);
      CHECK(cache.missing()[0].id == s.id);
      CHECK_FALSE(cache.missing()[0].why.empty());
      CHECK(ask(cache, s.kind, s.id) == nullptr);
      CHECK(cache.missing().size() == 1);
    }
  }
}
