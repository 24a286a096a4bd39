// SmartBox::PlayerPositionUpdated 0x00453870 on a teleport calls the command
// interpreter's vtable slot 29, CommandInterpreter::PlayerTeleported
// 0x006B32B0 (acclient.c 144713).
#include <catch2/catch.hpp>

#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
using TI = protocol::TimestampIndex;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;

}  // namespace

TEST_CASE("SmartBox::PlayerPositionUpdated 0x00453870 tells the interpreter of a teleport, never of a blip",
          "[retail][sim]") {
  World w;
  w.start(kPlayer);
  auto me = create(kPlayer, 1);
  set_stamp(me, TI::Position, 50);
  set_stamp(me, TI::Teleport, 7);
  set_stamp(me, TI::ForcePosition, 2);
  w.handle(me);
  // HandleCreateObject for the player: enter_world, then PlayerPositionUpdated(1).
  CHECK(w.controller.teleports == 1);

  SECTION("a Position with a newer Teleport stamp: TeleportPlayer, PlayerPositionUpdated(1)") {
    REQUIRE(w.handle(position(kPlayer, 1, 51, {100, 100, 5}, 8, 2)).verdict == Verdict::Applied);
    CHECK(w.object(kPlayer).position().frame.origin == glm::vec3(100, 100, 5));
    CHECK(w.controller.teleports == 2);
  }
  SECTION("a ForcePosition blip: BlipPlayer, PlayerPositionUpdated(0)") {
    REQUIRE(w.handle(position(kPlayer, 1, 40, {100, 100, 5}, 7, 3)).verdict == Verdict::Applied);
    CHECK(w.object(kPlayer).position().frame.origin == glm::vec3(100, 100, 5));
    CHECK(w.controller.teleports == 1);
  }
  SECTION("a remote object's teleport is not the player's") {
    auto other = create(0x50000042, 1);
    w.handle(other);
    REQUIRE(w.handle(position(0x50000042, 1, 1, {5, 5, 5}, 1, 0)).verdict == Verdict::Applied);
    CHECK(w.controller.teleports == 1);
  }
}
