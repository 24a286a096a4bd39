// Seed retail-projectile-vfx section 10: OBJECTINFO::missile_ignore.
#include <catch2/catch.hpp>

#include "dereth/sim/collision/transition.hpp"
#include "dereth/sim/object/physics_obj.hpp"

#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;

TEST_CASE("OBJECTINFO::missile_ignore 0x0050CEB0 every branch", "[retail][sim]") {
  World w;
  PhysicsObj arrow(w.context, 0x80000001, LocalId{1});
  arrow.set_state(ps::Missile, false);
  PhysicsObj other(w.context, 0x50000002, LocalId{2});
  ObjectInfo info;
  info.init(arrow, arrow.get_object_info(false));

  // The target id starts at zero; nothing infers it.
  CHECK(info.target_id == 0u);
  CHECK(info.object == &arrow);

  SECTION("another missile is ignored, whoever moves") {
    other.set_state(ps::Missile, false);
    CHECK(info.missile_ignore(other));
    PhysicsObj rock(w.context, 3, LocalId{3});
    ObjectInfo rock_info;
    rock_info.init(rock, 0);
    CHECK(rock_info.missile_ignore(other));
  }
  SECTION("a mover that is not a missile collides") {
    PhysicsObj rock(w.context, 3, LocalId{3});
    ObjectInfo rock_info;
    rock_info.init(rock, 0);
    other.set_state(ps::Ethereal, false);
    other.set_weenie(WeenieTraits{});
    CHECK_FALSE(rock_info.missile_ignore(other));
  }
  SECTION("the designated target always collides") {
    other.set_state(ps::Ethereal, false);
    WeenieTraits creature;
    creature.is_creature = true;
    other.set_weenie(creature);
    info.target_id = other.id();
    CHECK_FALSE(info.missile_ignore(other));
  }
  SECTION("ethereal with a weenie is ignored; without a weenie it collides") {
    other.set_state(ps::Ethereal, false);
    CHECK_FALSE(info.missile_ignore(other));
    other.set_weenie(WeenieTraits{});
    CHECK(info.missile_ignore(other));
  }
  SECTION("with a target set, other creatures are ignored") {
    WeenieTraits creature;
    creature.is_creature = true;
    other.set_weenie(creature);
    CHECK_FALSE(info.missile_ignore(other));  // target zero: collide
    info.target_id = 0x50000099;
    CHECK(info.missile_ignore(other));
    other.set_weenie(WeenieTraits{});  // not a creature
    CHECK_FALSE(info.missile_ignore(other));
  }
}

TEST_CASE("OBJECTINFO::init 0x0050CF30 copies scale, ethereal and the weenie flags", "[retail][sim]") {
  World w;
  PhysicsObj mover(w.context, 1, LocalId{1});
  mover.set_state(ps::Ethereal | ps::Missile, false);
  WeenieTraits traits;
  traits.is_player = true;
  traits.is_pk = true;
  mover.set_weenie(traits);
  ObjectInfo info;
  info.init(mover, mover.get_object_info(false));
  CHECK(info.ethereal);
  CHECK(info.scale == 1.0f);
  CHECK((info.state & object_info_state::PathClipped) != 0);
  CHECK((info.state & object_info_state::IsPlayer) != 0);
  CHECK((info.state & object_info_state::IsPk) != 0);
  CHECK((info.state & object_info_state::IsPkLite) == 0);
  CHECK((info.state & object_info_state::PerfectClip) == 0);
}
