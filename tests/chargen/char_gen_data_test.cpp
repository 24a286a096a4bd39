#include "dereth/chargen/char_gen_data.hpp"

#include <catch2/catch.hpp>

#include "dereth/dat/dat_writer.hpp"
#include "dereth/demo/demo_world.hpp"

using namespace dereth;

TEST_CASE("load_char_gen_data reads the demo portal's CharGen and SkillTable", "[chargen]") {
  auto world = demo::build_demo_world();
  REQUIRE(world);
  auto portal = dat::DatFile::from_bytes(world->portal, "client_portal.dat");
  REQUIRE(portal);
  dat::RecordCache records(&*portal);
  auto data = chargen::load_char_gen_data(records);
  REQUIRE(data);
  CHECK_FALSE(data->char_gen.heritage_groups.empty());
  CHECK_FALSE(data->skill_table.skills.empty());
  CHECK_FALSE(data->palette_sets.empty());
  // Through the cache: read once however often asked, and shared with
  // whoever else reads through it (a world's player qualities).
  const std::size_t size = records.size();
  REQUIRE(chargen::load_char_gen_data(records));
  CHECK(records.size() == size);
  CHECK(*records.skill_table() == data->skill_table);
  CHECK(records.size() == size);
}

TEST_CASE("load_char_gen_data names the record a portal DAT lacks", "[chargen]") {
  auto world = demo::build_demo_world();
  REQUIRE(world);
  // The cell DAT has no CharGen.
  auto cell = dat::DatFile::from_bytes(world->cell, "client_cell_1.dat");
  REQUIRE(cell);
  dat::RecordCache records(&*cell);
  auto data = chargen::load_char_gen_data(records);
  REQUIRE_FALSE(data);
  CHECK_THAT(data.error().message(), Catch::Contains("CharGen 0x0E000002"));
  CHECK_THAT(data.error().message(), Catch::Contains("client_cell_1.dat"));
  // Counted missing once, for the QA report.
  REQUIRE(records.missing().size() == 1);
  CHECK(records.missing()[0].kind == "CharGen");

  // Without a portal at all.
  dat::RecordCache none(nullptr);
  auto nothing = chargen::load_char_gen_data(none);
  REQUIRE_FALSE(nothing);
  CHECK_THAT(nothing.error().message(), Catch::Contains("0E000002"));
}

TEST_CASE("load_char_gen_data refuses a truncated CharGen or SkillTable, naming it, and leaves out a bad PaletteSet",
          "[chargen]") {
  auto world = demo::build_demo_world();
  REQUIRE(world);
  auto portal = dat::DatFile::from_bytes(world->portal, "client_portal.dat");
  REQUIRE(portal);
  dat::RecordCache full(&*portal);
  const auto good = chargen::load_char_gen_data(full);
  REQUIRE(good);
  REQUIRE_FALSE(good->palette_sets.empty());
  const dat::Did palette_set = good->palette_sets.begin()->first;
  // The demo portal's records, one of them cut in half.
  const auto with_cut = [&](dat::Did cut) {
    dat::DatWriter writer;
    for (const dat::Did id : {dat::kCharGenId, dat::kSkillTableId, palette_set}) {
      auto bytes = portal->read(id);
      REQUIRE(bytes);
      if (id == cut) bytes->resize(bytes->size() / 2);
      writer.add(id, std::move(*bytes));
    }
    for (const auto& [id, set] : good->palette_sets) {
      if (id != palette_set) writer.add(id, dat::write_palette_set(set));
    }
    auto bytes = writer.build();
    REQUIRE(bytes);
    auto file = dat::DatFile::from_bytes(std::move(*bytes), "cut.dat");
    REQUIRE(file);
    return std::move(*file);
  };
  {
    const auto cut = with_cut(dat::kCharGenId);
    dat::RecordCache records(&cut);
    auto data = chargen::load_char_gen_data(records);
    REQUIRE_FALSE(data);
    CHECK_THAT(data.error().message(), Catch::Contains("CharGen 0x0E000002"));
  }
  {
    const auto cut = with_cut(dat::kSkillTableId);
    dat::RecordCache records(&cut);
    auto data = chargen::load_char_gen_data(records);
    REQUIRE_FALSE(data);
    CHECK_THAT(data.error().message(), Catch::Contains("SkillTable 0x0E000004"));
  }
  {
    const auto cut = with_cut(palette_set);
    dat::RecordCache records(&cut);
    auto data = chargen::load_char_gen_data(records);
    REQUIRE(data);
    CHECK_FALSE(data->palette_sets.contains(palette_set));
    CHECK(data->palette_sets.size() == good->palette_sets.size() - 1);
    REQUIRE(records.missing().size() == 1);
    CHECK(records.missing()[0].kind == "PaletteSet");
  }
}
