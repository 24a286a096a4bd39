#include "dereth/chargen/char_gen_data.hpp"

#include <catch2/catch.hpp>

#include "dereth/demo/demo_world.hpp"

using namespace dereth;

TEST_CASE("load_char_gen_data reads the demo portal's CharGen and SkillTable", "[chargen]") {
  auto world = demo::build_demo_world();
  REQUIRE(world);
  auto portal = dat::DatFile::from_bytes(world->portal, "client_portal.dat");
  REQUIRE(portal);
  auto data = chargen::load_char_gen_data(*portal);
  REQUIRE(data);
  CHECK_FALSE(data->char_gen.heritage_groups.empty());
  CHECK_FALSE(data->skill_table.skills.empty());
}

TEST_CASE("load_char_gen_data names the record a portal DAT lacks", "[chargen]") {
  auto world = demo::build_demo_world();
  REQUIRE(world);
  // The cell DAT has no CharGen.
  auto cell = dat::DatFile::from_bytes(world->cell, "client_cell_1.dat");
  REQUIRE(cell);
  auto data = chargen::load_char_gen_data(*cell);
  REQUIRE_FALSE(data);
  CHECK_THAT(data.error().message(), Catch::Contains("0E000002"));
}
