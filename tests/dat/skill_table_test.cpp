// SkillTable and VitalTable (which shares SkillFormula).
#include "dereth/dat/skill_table.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/vital_table.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

SkillTable sample() {
  SkillTable t;
  t.buckets = 32;
  SkillBase run;
  run.description = "Go fast.";  // 8 bytes: no padding after the length
  run.name = "Run";              // 3 bytes: 3 pad bytes
  run.icon = 0x06000004;
  run.trained_cost = 0;
  run.specialized_cost = 4;
  run.category = 2;
  run.chargen_use = 1;
  run.min_level = 1;
  run.formula = {0, 1, 0, 1, 3, 0};
  run.upper_bound = 1000.0;
  run.learn_mod = 1.0;
  SkillBase jump = run;
  jump.name = "Jump";
  jump.description = "";
  jump.trained_cost = -1;
  jump.formula = {5, 1, 1, 2, 1, 4};
  t.skills = {{24, run}, {22, jump}};
  return t;
}

}  // namespace

TEST_CASE("SkillTable: layout and round trip", "[dat][skill_table]") {
  const SkillTable t = sample();
  const auto bytes = write_skill_table(t);
  // DID, header, then per entry key + strings + 24 + 24 + 24.
  REQUIRE(bytes.size() == 4 + 4 + (4 + 12 + 8 + 72) + (4 + 4 + 8 + 72));
  CHECK(bytes[4] == 2);   // u16 count
  CHECK(bytes[6] == 32);  // u16 buckets
  CHECK(bytes[8] == 24);  // first key, stored order
  auto back = read_skill_table(bytes, kSkillTableId);
  REQUIRE(back.has_value());
  CHECK(*back == t);
  CHECK(write_skill_table(*back) == bytes);
  REQUIRE(find_skill(*back, 22) != nullptr);
  CHECK(find_skill(*back, 22)->formula.attr2 == 4);
  CHECK(find_skill(*back, 7) == nullptr);

  dereth::core::JsonWriter j;
  write_json(j, t);
  CHECK(j.str().find(R"("skill":24,"name":"Run","description":"Go fast.")") != std::string::npos);
}

TEST_CASE("SkillTable: truncation, absurd counts, trailing bytes", "[dat][skill_table]") {
  const auto bytes = write_skill_table(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_skill_table(std::span<const std::uint8_t>(bytes.data(), n), kSkillTableId);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
  }
  auto huge = bytes;
  huge[4] = 0xFF;
  huge[5] = 0xFF;
  auto r = read_skill_table(huge, kSkillTableId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "skills.count");
  CHECK(r.error().offset == 4);
  CHECK(r.error().context == "DAT 0x0E000004 SkillTable");
  auto long_name = bytes;
  long_name[12] = 0xF0;  // description length 0x00F0: past the end
  r = read_skill_table(long_name, kSkillTableId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);

  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_skill_table(trailing, kSkillTableId).error().kind == ErrorKind::Trailing);
}

TEST_CASE("VitalTable: layout, round trip, truncation", "[dat][vital_table]") {
  VitalTable t;
  t.max_health = {0, 1, 0, 2, 2, 0};
  t.max_stamina = {0, 1, 0, 1, 2, 0};
  t.max_mana = {0, 1, 0, 1, 6, 0};
  const auto bytes = write_vital_table(t);
  REQUIRE(bytes.size() == 76);
  CHECK(bytes[4 + 12] == 2);       // max_health divisor (W, X, Y, Z order)
  CHECK(bytes[4 + 48 + 16] == 6);  // max_mana attr1
  auto back = read_vital_table(bytes, kVitalTableId);
  REQUIRE(back.has_value());
  CHECK(*back == t);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_vital_table(std::span<const std::uint8_t>(bytes.data(), n), kVitalTableId);
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().kind == ErrorKind::Truncated);
  }
  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_vital_table(trailing, kVitalTableId).error().kind == ErrorKind::Trailing);
  CHECK(read_vital_table(bytes, 0x0E000004).error().kind == ErrorKind::Invalid);

  dereth::core::JsonWriter j;
  write_json(j, t);
  CHECK(j.str().find(R"("max_mana":{"w":0,"x":1,"y":0,"z":1,"attr1":6,"attr2":0})") != std::string::npos);
}
