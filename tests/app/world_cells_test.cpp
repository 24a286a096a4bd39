// World::handle's house restrictions: an UpdateRestrictions game event
// gives a house its RestrictionDB (the cells' records from DAT bytes are
// tested with the cells wing: tests/sim/cells/dat_landscape_cells_test.cpp).
#include <catch2/catch.hpp>

#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/protocol/house.hpp"
#include "dereth/protocol/messages.hpp"

using namespace dereth;

TEST_CASE(
    "World::handle gives a house its UpdateRestrictions RestrictionDB, a malformed one is counted and dropped "
    "(CM_House::DispatchUI_Recv_UpdateRestrictions 0x006AA430, "
    "ClientHousingSystem::Handle_House__Recv_UpdateRestrictions 0x005859E0)",
    "[app][retail]") {
  core::ManualClock clock;
  app::World world(clock, nullptr);
  world.assume_player(0x50000001);
  protocol::CreateObject house;
  house.guid = 0x7A9B4001;
  house.weenie.house_owner = 0x50000002;
  world.handle(protocol::encode(house));
  REQUIRE(world.box().get_object(0x7A9B4001) != nullptr);
  protocol::UpdateRestrictions update;
  update.timestamp = 1;
  update.object = 0x7A9B4001;
  update.db.open_status = 1;
  update.db.entries = {{0x50000003, 0}};
  world.handle(protocol::encode_update_restrictions(0x50000001, 4, update));
  const auto& weenie = world.box().get_object(0x7A9B4001)->weenie();
  REQUIRE(weenie);
  REQUIRE(weenie->db);
  CHECK(weenie->db->bitmask == 1);
  CHECK(weenie->db->table.contains(0x50000003));
  const auto errors = world.stats().decode_errors;
  auto bytes = protocol::encode_update_restrictions(0x50000001, 5, update);
  bytes.pop_back();
  world.handle(bytes);
  CHECK(world.stats().decode_errors == errors + 1);
}
