#include "dereth/dat/spell_component_table.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

SpellComponentTable sample() {
  SpellComponentTable t;
  t.buckets = 16;
  SpellComponentBase herb;
  herb.name = "Mossleaf";
  herb.category = 2;
  herb.icon = 0x06000003;
  herb.type = spell_component_type::Herb;
  herb.gesture = 0x41000003;
  herb.time = 0.25F;
  herb.words = "Zeb";
  herb.cdm = 1.0F;
  SpellComponentBase scarab = herb;
  scarab.name = "Clay";
  scarab.type = spell_component_type::Scarab;
  scarab.words = "";
  t.components = {{2, herb}, {1, scarab}};
  return t;
}

}  // namespace

TEST_CASE("SpellComponentTable: layout, obfuscated strings and round trip", "[dat][spell_component_table]") {
  const SpellComponentTable t = sample();
  const auto bytes = write_spell_component_table(t);
  // DID, header, (key, name 2+8+2, 20, words 2+3+3, cdm), (key, name 2+4+2, 20, words 4, cdm).
  REQUIRE(bytes.size() == 4 + 4 + (4 + 12 + 20 + 8 + 4) + (4 + 8 + 20 + 4 + 4));
  CHECK(bytes[4] == 2);
  CHECK(bytes[6] == 16);
  CHECK(bytes[12] == 8);     // name length
  CHECK(bytes[14] == 0xD4);  // 'M' (0x4D) with its nibbles swapped
  CHECK(bytes[15] == 0xF6);  // 'o' (0x6F)
  auto back = read_spell_component_table(bytes, kSpellComponentTableId);
  REQUIRE(back.has_value());
  CHECK(*back == t);
  CHECK(write_spell_component_table(*back) == bytes);
  REQUIRE(find_spell_component(*back, 2) != nullptr);
  CHECK(find_spell_component(*back, 2)->words == "Zeb");
  CHECK(find_spell_component(*back, 3) == nullptr);

  dereth::core::JsonWriter j;
  write_json(j, t);
  CHECK(j.str().find(R"("component":2,"name":"Mossleaf")") != std::string::npos);
}

TEST_CASE("SpellComponentTable: truncation, absurd counts, trailing bytes", "[dat][spell_component_table]") {
  const auto bytes = write_spell_component_table(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_spell_component_table(std::span<const std::uint8_t>(bytes.data(), n), kSpellComponentTableId);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
  }
  auto huge = bytes;
  huge[5] = 0x80;  // 0x8002 components
  auto r = read_spell_component_table(huge, kSpellComponentTableId);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "components.count");
  CHECK(r.error().offset == 4);
  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_spell_component_table(trailing, kSpellComponentTableId).error().kind == ErrorKind::Trailing);
}
