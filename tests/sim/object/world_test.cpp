// Entering and leaving the world, frames, children and lights
// (CPhysicsObj entry points the seed sections 3, 3.1 and 9 lean on).
#include <catch2/catch.hpp>

#include <algorithm>

#include "dereth/sim/object/physics_obj.hpp"

#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;
namespace ts = transient_state;

namespace {

FakePartArray& attach_parts(PhysicsObj& object, EventLog& log) {
  auto parts = std::make_unique<FakePartArray>(log);
  FakePartArray& ref = *parts;
  object.set_part_array(std::move(parts));
  return ref;
}

Position at(glm::vec3 origin, std::uint32_t cell = kCell) {
  return Position{cell, core::Frame(origin, glm::quat(1, 0, 0, 0))};
}

}  // namespace

TEST_CASE("CPhysicsObj::enter_world 0x00516170 enters a cell and activates", "[retail][sim]") {
  World w;
  w.clock.set(core::Seconds{3.0});
  PhysicsObj object(w.context, 1, LocalId{1});
  object.set_state(0, false);
  auto& parts = attach_parts(object, w.log);
  REQUIRE(object.enter_world(at({10, 10, 10})));
  CHECK(object.in_cell());
  CHECK((object.transient_state() & ts::Active) != 0);
  CHECK(object.last_update_time().count() == 3.0);
  CHECK(std::count(w.log.begin(), w.log.end(), "enter_world") == 1);
  CHECK(parts.set_frames >= 1);

  SECTION("outdoor positions are re-homed into the right cell") {
    PhysicsObj walker(w.context, 2, LocalId{2});
    REQUIRE(walker.enter_world(at({200.0f, 30.0f, 0.0f}, 0xA9B40001)));
    // 200 m east is 8 m into the next landblock east, cell column 0, row 1.
    CHECK(walker.position().objcell_id == 0xAAB40002u);
    CHECK(walker.position().frame.origin.x == Approx(8.0f));
  }
  SECTION("a static object enters without becoming active") {
    PhysicsObj rock(w.context, 3, LocalId{3});
    rock.set_state(ps::Static, false);
    REQUIRE(rock.enter_world(at({1, 1, 1})));
    CHECK(rock.in_cell());
    CHECK((rock.transient_state() & ts::Active) == 0);
  }
  SECTION("a parented object does not enter") {
    PhysicsObj held(w.context, 4, LocalId{4});
    parts.holding[1] = HoldingLocation{};
    object.enter_world(at({10, 10, 10}));
    REQUIRE(held.set_parent(object, 1));
    CHECK_FALSE(held.enter_world(at({5, 5, 5})));
  }
  SECTION("an invalid cell is the lost cell: out of the world, inactive") {
    PhysicsObj lost(w.context, 5, LocalId{5});
    lost.enter_world(at({1, 1, 1}, 0xA9B40000));
    CHECK_FALSE(lost.in_cell());
  }
}

TEST_CASE("CPhysicsObj::set_frame 0x00514090 poses the parts and moves the children", "[retail][sim]") {
  World w;
  PhysicsObj parent(w.context, 1, LocalId{1});
  PhysicsObj child(w.context, 2, LocalId{2});
  auto& parts = attach_parts(parent, w.log);
  parts.holding[1] = HoldingLocation{99, core::Frame(glm::vec3(1.0f, 0.0f, 0.0f), glm::quat(1, 0, 0, 0))};
  parent.enter_world(at({10, 10, 10}));
  REQUIRE(child.set_parent(parent, 1));
  const int frames_before = parts.set_frames;
  parent.set_frame(core::Frame(glm::vec3(20.0f, 10.0f, 10.0f), glm::quat(1, 0, 0, 0)));
  CHECK(parts.set_frames == frames_before + 1);
  CHECK(child.position().frame.origin == glm::vec3(21.0f, 10.0f, 10.0f));
  // UpdateChild refreshes the child's particles and scripts.
  CHECK(w.effects.particle_updates >= 1);

  SECTION("a particle-emitter object does not pose its parts") {
    parent.set_state(ps::ParticleEmitter, false);
    const int before = parts.set_frames;
    parent.set_frame(core::Frame(glm::vec3(30.0f, 10.0f, 10.0f), glm::quat(1, 0, 0, 0)));
    CHECK(parts.set_frames == before);
    CHECK(child.position().frame.origin == glm::vec3(31.0f, 10.0f, 10.0f));
  }
}

TEST_CASE("CPhysicsObj::UpdateChild 0x00512D50 hangs a child from its holding part", "[retail][sim]") {
  World w;
  PhysicsObj parent(w.context, 1, LocalId{1});
  PhysicsObj child(w.context, 2, LocalId{2});
  auto& parts = attach_parts(parent, w.log);
  parts.part_frames[3] = core::Frame(glm::vec3(5.0f, 5.0f, 5.0f), glm::quat(1, 0, 0, 0));
  parts.holding[1] = HoldingLocation{3, core::Frame(glm::vec3(0.0f, 0.0f, 1.0f), glm::quat(1, 0, 0, 0))};
  parts.holding[2] = HoldingLocation{7, core::Frame(glm::vec3(0.0f, 0.0f, 1.0f), glm::quat(1, 0, 0, 0))};
  parent.enter_world(at({10, 10, 10}));
  REQUIRE(child.set_parent(parent, 1));
  CHECK(child.position().frame.origin == glm::vec3(5.0f, 5.0f, 6.0f));
  CHECK(child.in_cell());
  CHECK(child.parent_location() == 1u);
  // A part index with no part falls back to the parent's own frame.
  REQUIRE(child.set_parent(parent, 2));
  CHECK(child.position().frame.origin == glm::vec3(10.0f, 10.0f, 11.0f));
  CHECK(parent.children().size() == 1);

  SECTION("no holding location: set_parent fails, as retail's add_child") {
    PhysicsObj other(w.context, 3, LocalId{3});
    CHECK_FALSE(other.set_parent(parent, 42));
    CHECK(other.parent() == nullptr);
  }
  SECTION("unparenting restores drawing when the parent was Hidden, and leaves no link") {
    parent.set_hidden(true, false);
    REQUIRE((child.state() & ps::NoDraw) != 0);
    child.unset_parent();
    CHECK((child.state() & ps::NoDraw) == 0);
    CHECK(parent.children().empty());
  }
}

TEST_CASE(
    "CPhysicsObj::set_lights 0x0050FCF0 drives the same lights as the Lighting bit (CPhysicsObj::set_state 0x00514DD0)",
    "[retail][sim]") {
  World w;
  PhysicsObj object(w.context, 1, LocalId{1});
  attach_parts(object, w.log);
  object.set_lights(false, false);
  CHECK((object.state() & ps::Lighting) == 0);
  object.set_lights(true, false);
  CHECK((object.state() & ps::Lighting) != 0);
  CHECK(w.log == EventLog{"destroy_lights", "init_lights"});
}

TEST_CASE("SmartBox::teleport_in_progress 0x00451C20 until SmartBox::UseTime 0x00455410 sees the wait end",
          "[retail][sim]") {
  World w;
  w.start(0x50000001);
  CHECK_FALSE(w.box.teleport_in_progress());  // no player object
  w.handle(create(0x50000001, 1, kInitialState | ps::Hidden));
  CHECK(w.box.teleport_in_progress());  // creating the player is a teleport
  w.box.use_time();
  CHECK_FALSE(w.box.teleport_in_progress());
  CHECK(w.box.has_been_teleported());

  w.handle(protocol::PlayerTeleport{1});
  CHECK(w.box.teleport_in_progress());
  w.box.use_time();
  CHECK(w.box.teleport_in_progress());  // still waiting: Hidden
  w.handle(protocol::SetState{0x50000001, kInitialState, 1, 1});
  CHECK_FALSE(w.box.waiting_for_teleport());
  w.box.use_time();
  CHECK_FALSE(w.box.teleport_in_progress());
}
