// Seed retail-projectile-vfx sections 3, 3.1 and 4: SmartBox's freshness
// rules, generations, channel gates and effect packets.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>

#include "dereth/core/timestamp.hpp"

#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;
using TI = protocol::TimestampIndex;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;
constexpr std::uint32_t kObject = 0x70000010;
constexpr std::uint32_t kTable = 0x34000005;

protocol::SetState set_state(std::uint32_t guid, std::uint32_t state, std::uint16_t instance, std::uint16_t ts) {
  return protocol::SetState{guid, state, instance, ts};
}

protocol::VectorUpdate vector(std::uint32_t guid, glm::vec3 v, glm::vec3 w, std::uint16_t instance, std::uint16_t ts) {
  return protocol::VectorUpdate{guid, {v.x, v.y, v.z}, {w.x, w.y, w.z}, instance, ts};
}

}  // namespace

// --- generations ------------------------------------------------------------------

TEST_CASE("SmartBox::HandleCreateObject 0x00454C80 no live generation copies all nine stamps wholesale",
          "[retail][sim]") {
  World w;
  w.start(kPlayer);
  auto m = create(kObject, 4);
  for (std::size_t i = 0; i < protocol::kTimestampCount; ++i) {
    m.physics.timestamps[i] = static_cast<std::uint16_t>(i == 8 ? 4 : 0x9000 + i);
  }
  const HandleResult r = w.handle(wire(m));
  CHECK(r.verdict == Verdict::Applied);
  REQUIRE(r.local_id != LocalId::None);
  const PhysicsObj& object = w.object(kObject);
  for (std::size_t i = 0; i < protocol::kTimestampCount; ++i)
    CHECK(object.update_times()[i] == m.physics.timestamps[i]);
  CHECK(object.in_cell());
  CHECK(object.position().frame.origin == glm::vec3(10.0f, 20.0f, 30.0f));
  CHECK(w.box.local_id(kObject) == r.local_id);
}

TEST_CASE("SmartBox::HandleCreateObject 0x00454C80 a newer Instance begins a new generation", "[retail][sim]") {
  World w;
  w.start(kPlayer);
  auto first = create(kObject, 4);
  set_stamp(first, TI::State, 900);
  const LocalId local = w.handle(first).local_id;
  // A packet for Instance 5 arrives before its CreateObject: held, not adopted.
  CHECK(w.handle(set_state(kObject, ps::Ethereal, 5, 1)).verdict == Verdict::QueuedFutureInstance);
  CHECK(w.object(kObject).instance() == 4);
  CHECK((w.object(kObject).state() & ps::Ethereal) == 0);

  auto second = create(kObject, 5, kInitialState, {1.0f, 2.0f, 3.0f});
  set_stamp(second, TI::State, 3);  // older than 900, but the generation is new
  const HandleResult r = w.handle(second);
  CHECK(r.verdict == Verdict::NewGeneration);
  CHECK(r.local_id == local);  // one canonical id per GUID
  const PhysicsObj& object = w.object(kObject);
  CHECK(object.instance() == 5);
  CHECK(object.update_time(TI::State) == 3);  // all nine replaced
  CHECK(object.position().frame.origin == glm::vec3(1.0f, 2.0f, 3.0f));
  // Retail discards what was held on the old generation with it.
  CHECK(w.box.objects().stats().discarded_with_generation == 1);
  CHECK((object.state() & ps::Ethereal) == 0);
  CHECK(w.effects.destroyed == std::vector<LocalId>{local});
}

TEST_CASE("SmartBox::HandleCreateObject 0x00454C80 a stale Instance is rejected", "[retail][sim]") {
  World w;
  w.start(kPlayer);
  w.handle(create(kObject, 7, kInitialState, {5.0f, 5.0f, 5.0f}));
  const HandleResult r = w.handle(create(kObject, 6, kInitialState | ps::Ethereal, {9.0f, 9.0f, 9.0f}));
  CHECK(r.verdict == Verdict::StaleGeneration);
  CHECK(w.object(kObject).instance() == 7);
  CHECK(w.object(kObject).position().frame.origin == glm::vec3(5.0f, 5.0f, 5.0f));
  CHECK((w.object(kObject).state() & ps::Ethereal) == 0);
}

TEST_CASE("SmartBox::HandleCreateObject 0x00454C80 the same Instance routes each branch through its own channel",
          "[retail][sim]") {
  World w;
  w.start(kPlayer);
  auto first = create(kObject, 2);
  set_stamp(first, TI::State, 10);
  set_stamp(first, TI::Vector, 10);
  set_stamp(first, TI::Position, 10);
  set_stamp(first, TI::ObjDesc, 10);
  w.handle(first);

  auto again = create(kObject, 2, kInitialState | ps::Ethereal, {50.0f, 60.0f, 70.0f});
  again.physics.velocity = protocol::Vec3{1.0f, 0.0f, 0.0f};
  again.model.palettes.push_back(protocol::SubPalette{0x04000001, 0, 1});
  again.model.base_palette = 0x04000002;
  set_stamp(again, TI::State, 10);    // equal: stale
  set_stamp(again, TI::Vector, 11);   // newer: applies
  set_stamp(again, TI::Position, 9);  // older: stale
  set_stamp(again, TI::ObjDesc, 11);  // newer: applies
  const HandleResult r = w.handle(wire(again));
  CHECK(r.verdict == Verdict::Applied);
  const PhysicsObj& object = w.object(kObject);
  CHECK((object.state() & ps::Ethereal) == 0);
  CHECK(object.update_time(TI::State) == 10);
  CHECK(object.velocity() == glm::vec3(1.0f, 0.0f, 0.0f));
  CHECK(object.update_time(TI::Vector) == 11);
  CHECK(object.position().frame.origin == glm::vec3(10.0f, 20.0f, 30.0f));
  CHECK(object.update_time(TI::Position) == 10);
  CHECK(object.visual_desc().palettes.size() == 1);
  CHECK(object.update_time(TI::ObjDesc) == 11);

  SECTION("a newer State in the snapshot applies") {
    auto newer = again;
    set_stamp(newer, TI::State, 11);
    w.handle(newer);
    CHECK((w.object(kObject).state() & ps::Ethereal) != 0);
  }
  SECTION("no Position in the snapshot is a pickup when its stamp is newer") {
    auto gone = again;
    gone.physics.position.reset();
    set_stamp(gone, TI::Position, 12);
    w.handle(gone);
    CHECK_FALSE(w.object(kObject).in_cell());
    CHECK(w.object(kObject).position().objcell_id == 0u);
    CHECK(w.object(kObject).update_time(TI::Position) == 12);
  }
}

TEST_CASE("SmartBox::HandleUpdateObject 0x00455580 recreates the object even at the same Instance", "[retail][sim]") {
  World w;
  w.start(kPlayer);
  auto m = create(kObject, 3);
  set_stamp(m, TI::State, 50);
  const LocalId local = w.handle(m).local_id;
  protocol::UpdateObject update;
  static_cast<protocol::CreateObject&>(update) = create(kObject, 3, kInitialState | ps::Ethereal);
  set_stamp(update, TI::State, 1);  // would be stale on the State channel
  const HandleResult r = w.handle(wire(update));
  CHECK(r.verdict == Verdict::NewGeneration);
  CHECK(r.local_id == local);
  CHECK((w.object(kObject).state() & ps::Ethereal) != 0);
  CHECK(w.object(kObject).update_time(TI::State) == 1);
}

TEST_CASE("SmartBox::HandleCreateObject 0x00454C80 a child whose parent is absent waits on the parent's GUID",
          "[retail][sim]") {
  World w;
  w.factory.holding[1] = HoldingLocation{0, core::Frame{glm::vec3(0.0f, 0.0f, 1.0f), glm::quat(1, 0, 0, 0)}};
  w.start(kPlayer);
  auto child = create(0x70000020, 1);
  child.physics.position.reset();
  child.physics.parent = protocol::ParentLink{kObject, 1};
  CHECK(w.handle(child).verdict == Verdict::QueuedForAbsentObject);
  CHECK(w.box.get_object(0x70000020) == nullptr);
  CHECK(w.box.objects().pending_count(kObject) == 1);

  w.handle(create(kObject, 1));
  const PhysicsObj* made = w.box.get_object(0x70000020);
  REQUIRE(made != nullptr);
  CHECK(made->parent() == &w.object(kObject));
  CHECK(made->position().frame.origin == glm::vec3(10.0f, 20.0f, 31.0f));
  REQUIRE(w.trace.records.size() >= 2);
  CHECK(w.trace.records.back().verdict == Verdict::Replayed);
  CHECK(w.trace.records.back().replayed);
  CHECK(w.trace.records.back().guid == 0x70000020u);
}

// --- the channel gates ------------------------------------------------------------

TEST_CASE(
    "SmartBox::HandleSetState 0x004533E0 exact Instance and a strictly newer State stamp (SmartBox::DoSetState "
    "0x004520D0)",
    "[retail][sim]") {
  World w;
  w.start(kPlayer);
  auto m = create(kObject, 4);
  set_stamp(m, TI::State, 100);
  w.handle(m);
  CHECK(w.handle(wire(set_state(kObject, ps::Ethereal, 4, 100))).verdict == Verdict::StaleTimestamp);
  CHECK(w.handle(set_state(kObject, ps::Ethereal, 4, 99)).verdict == Verdict::StaleTimestamp);
  CHECK((w.object(kObject).state() & ps::Ethereal) == 0);
  CHECK(w.handle(set_state(kObject, ps::Ethereal, 3, 101)).verdict == Verdict::WrongInstance);
  CHECK(w.object(kObject).update_time(TI::State) == 100);
  CHECK(w.handle(set_state(kObject, ps::Ethereal, 4, 101)).verdict == Verdict::Applied);
  CHECK(w.object(kObject).state() == ps::Ethereal);
  CHECK(w.object(kObject).update_time(TI::State) == 101);
  CHECK(w.handle(set_state(0x7FFFFFFF, ps::Ethereal, 1, 1)).verdict == Verdict::QueuedForAbsentObject);
  CHECK(w.handle(set_state(kObject, 0, 5, 102)).verdict == Verdict::QueuedFutureInstance);
  CHECK(w.object(kObject).state() == ps::Ethereal);
}

TEST_CASE("SmartBox::DoSetState 0x004520D0 compares with the retail wrap rule", "[retail][sim]") {
  World w;
  w.start(kPlayer);
  auto m = create(kObject, 1);
  set_stamp(m, TI::State, 0xFFFF);
  w.handle(m);
  // 0x0000 follows 0xFFFF.
  CHECK(w.handle(set_state(kObject, ps::Ethereal, 1, 0x0000)).verdict == Verdict::Applied);
  // From 0x0000, 0x8000 is exactly half a cycle away: the lower stamp wins.
  CHECK(w.handle(set_state(kObject, 0, 1, 0x8000)).verdict == Verdict::StaleTimestamp);
  CHECK(w.handle(set_state(kObject, 0, 1, 0x7FFF)).verdict == Verdict::Applied);
  CHECK(w.object(kObject).update_time(TI::State) == 0x7FFF);
  CHECK(w.object(kObject).state() == 0u);
}

TEST_CASE(
    "SmartBox::DoSetState 0x004520D0 a visible player state ends the teleport wait (SmartBox::HandlePlayerTeleport "
    "0x00452150)",
    "[retail][sim]") {
  World w;
  w.start(kPlayer);
  w.handle(create(kPlayer, 1, kInitialState | ps::Hidden));
  REQUIRE(w.box.player() == &w.object(kPlayer));
  CHECK(w.handle(protocol::PlayerTeleport{0}).verdict == Verdict::Applied);
  CHECK(w.box.waiting_for_teleport());
  w.handle(set_state(kPlayer, kInitialState | ps::Hidden, 1, 1));
  CHECK(w.box.waiting_for_teleport());  // still hidden
  w.handle(set_state(kPlayer, kInitialState, 1, 2));
  CHECK_FALSE(w.box.waiting_for_teleport());
}

TEST_CASE("SmartBox::DoVectorUpdate 0x004521C0 and HandleVectorUpdate 0x00453480", "[retail][sim]") {
  World w;
  w.start(kPlayer);
  w.handle(create(kObject, 2));
  w.handle(create(kPlayer, 1));
  CHECK(w.handle(wire(vector(kObject, {1, 2, 3}, {0, 0, 1}, 2, 1))).verdict == Verdict::Applied);
  CHECK(w.object(kObject).velocity() == glm::vec3(1, 2, 3));
  CHECK(w.object(kObject).omega() == glm::vec3(0, 0, 1));
  CHECK(w.handle(vector(kObject, {9, 9, 9}, {9, 9, 9}, 2, 1)).verdict == Verdict::StaleTimestamp);
  CHECK(w.handle(vector(kObject, {9, 9, 9}, {9, 9, 9}, 1, 2)).verdict == Verdict::WrongInstance);
  CHECK(w.object(kObject).velocity() == glm::vec3(1, 2, 3));

  SECTION("a player the server does not control keeps its vector but the stamp advances") {
    w.controller.server_controls = false;
    CHECK(w.handle(vector(kPlayer, {4, 0, 0}, {0, 0, 0}, 1, 1)).verdict == Verdict::Ignored);
    CHECK(w.object(kPlayer).velocity() == glm::vec3(0.0f));
    CHECK(w.object(kPlayer).update_time(TI::Vector) == 1);
  }
}

TEST_CASE("SmartBox::HandleObjDescEvent 0x00453340 and UpdateVisualDesc 0x00451F40", "[retail][sim]") {
  World w;
  w.start(kPlayer);
  w.handle(create(kObject, 2));
  protocol::ObjDescEvent e;
  e.guid = kObject;
  e.instance_ts = 2;
  e.visual_desc_ts = 1;
  e.model.anim_part_changes.push_back(protocol::AnimPartChange{3, 0x01000042});
  CHECK(w.handle(wire(e)).verdict == Verdict::Applied);
  CHECK(w.object(kObject).visual_desc().anim_part_changes.size() == 1);
  auto stale = e;
  stale.model.anim_part_changes.clear();
  CHECK(w.handle(stale).verdict == Verdict::StaleTimestamp);
  CHECK(w.object(kObject).visual_desc().anim_part_changes.size() == 1);
  stale.visual_desc_ts = 2;
  stale.instance_ts = 1;
  CHECK(w.handle(stale).verdict == Verdict::WrongInstance);
  stale.instance_ts = 3;
  CHECK(w.handle(stale).verdict == Verdict::QueuedFutureInstance);
  CHECK(w.object(kObject).visual_desc().anim_part_changes.size() == 1);
}

TEST_CASE("CPhysics::SetObjectMovement 0x00509690 Movement then ServerControlledMove gates (0x005595D0)",
          "[retail][sim]") {
  World w;
  w.start(kPlayer);
  w.handle(create(kObject, 1));
  w.handle(create(kPlayer, 1));
  protocol::MovementEvent m;
  m.guid = kObject;
  m.instance_ts = 1;
  m.movement_ts = 5;
  m.server_control_ts = 5;
  m.data.current_style = 0x3D;
  m.data.payload = protocol::InterpretedMovement{};
  CHECK(w.handle(wire(m)).verdict == Verdict::Applied);
  REQUIRE(w.factory.movement_managers.count(kObject) == 1);
  CHECK(w.factory.movement_managers.at(kObject)->unpacked.size() == 1);
  CHECK(w.handle(m).verdict == Verdict::StaleTimestamp);  // equal Movement stamp

  m.movement_ts = 6;
  m.server_control_ts = 4;  // older server-control stamp
  CHECK(w.handle(m).verdict == Verdict::StaleTimestamp);
  CHECK(w.object(kObject).update_time(TI::Movement) == 6);  // the Movement stamp stays advanced
  CHECK(w.object(kObject).update_time(TI::ServerControlledMove) == 5);
  CHECK(w.factory.movement_managers.at(kObject)->unpacked.size() == 1);

  SECTION("an autonomous movement of the local player is not replayed onto it") {
    protocol::MovementEvent mine = m;
    mine.guid = kPlayer;
    mine.movement_ts = 1;
    mine.server_control_ts = 1;
    mine.is_autonomous = 1;
    CHECK(w.handle(mine).verdict == Verdict::Ignored);
    CHECK(w.factory.movement_managers.count(kPlayer) == 0);
    mine.movement_ts = 2;
    mine.is_autonomous = 0;
    CHECK(w.handle(mine).verdict == Verdict::Applied);
    CHECK(w.controller.movements == 1);
  }
}

// --- delete ---------------------------------------------------------------------------

TEST_CASE("SmartBox::HandleDeleteObject 0x00451EA0 never deletes the local player", "[retail][sim]") {
  World w;
  w.start(kPlayer);
  w.handle(create(kPlayer, 3));
  const HandleResult r = w.handle(wire(protocol::DeleteObject{kPlayer, 3}));
  CHECK(r.verdict == Verdict::RejectedLocalPlayer);
  REQUIRE(w.box.get_object(kPlayer) != nullptr);
  CHECK(w.box.player() == w.box.get_object(kPlayer));
  CHECK(w.context.player == w.box.player());
  CHECK(w.box.objects().pending_count(kPlayer) == 0);
}

TEST_CASE("SmartBox::HandleDeleteObject 0x00451EA0 needs the exact Instance", "[retail][sim]") {
  World w;
  w.start(kPlayer);
  w.handle(create(kObject, 5));
  CHECK(w.handle(protocol::DeleteObject{kObject, 4}).verdict == Verdict::WrongInstance);
  REQUIRE(w.box.get_object(kObject) != nullptr);
  CHECK(w.handle(protocol::DeleteObject{kObject, 6}).verdict == Verdict::QueuedFutureInstance);
  REQUIRE(w.box.get_object(kObject) != nullptr);
  const LocalId local = w.box.local_id(kObject);
  CHECK(w.handle(protocol::DeleteObject{kObject, 5}).verdict == Verdict::Applied);
  CHECK(w.box.get_object(kObject) == nullptr);
  CHECK(w.box.objects().object_count() == 0);
  // The held Instance-6 delete went with generation 5.
  CHECK(w.box.objects().stats().discarded_with_generation == 1);
  CHECK(w.box.local_id(kObject) == local);  // the GUID keeps its id

  SECTION("a delete for an absent object waits for it") {
    CHECK(w.handle(protocol::DeleteObject{kObject, 9}).verdict == Verdict::QueuedForAbsentObject);
    w.handle(create(kObject, 9));
    CHECK(w.box.get_object(kObject) == nullptr);  // replayed against the new generation
    CHECK(w.trace.records.back().verdict == Verdict::Replayed);
  }
}

// --- parent and pickup ---------------------------------------------------------------

TEST_CASE("SmartBox::HandleParentEvent 0x004535D0 and DoParentEvent 0x00452290", "[retail][sim]") {
  World w;
  w.factory.holding[2] = HoldingLocation{0, core::Frame{glm::vec3(0.5f, 0.0f, 0.0f), glm::quat(1, 0, 0, 0)}};
  w.start(kPlayer);
  w.handle(create(kObject, 4));
  auto sword = create(0x70000030, 1, kInitialState, {0, 0, 0});
  set_stamp(sword, TI::Position, 20);
  w.handle(sword);

  protocol::ParentEvent p{kObject, 0x70000030, 2, 0x65, 4, 20};
  CHECK(w.handle(wire(p)).verdict == Verdict::StaleTimestamp);  // equal child Position stamp
  CHECK(w.object(0x70000030).parent() == nullptr);
  p.parent_instance_ts = 3;
  p.child_position_ts = 21;
  CHECK(w.handle(p).verdict == Verdict::WrongInstance);
  p.parent_instance_ts = 4;
  CHECK(w.handle(p).verdict == Verdict::Applied);
  const PhysicsObj& child = w.object(0x70000030);
  CHECK(child.parent() == &w.object(kObject));
  CHECK(child.update_time(TI::Position) == 21);  // the one Position counter
  CHECK(child.position().frame.origin == glm::vec3(10.5f, 20.0f, 30.0f));
  REQUIRE_FALSE(w.parts(0x70000030).placements.empty());
  CHECK(w.parts(0x70000030).placements.back() == 0x65u);

  SECTION("a parent Instance from the future waits on the parent") {
    p.parent_instance_ts = 5;
    p.child_position_ts = 22;
    CHECK(w.handle(p).verdict == Verdict::QueuedFutureInstance);
    CHECK(w.box.objects().pending_count(kObject) == 1);
  }
  SECTION("an absent child waits on the child") {
    protocol::ParentEvent q{kObject, 0x70000031, 2, 0, 4, 1};
    CHECK(w.handle(q).verdict == Verdict::QueuedForAbsentObject);
    CHECK(w.box.objects().pending_count(0x70000031) == 1);
  }
}

TEST_CASE(
    "SmartBox::DoPickupEvent 0x00452240 leaves the world but keeps the object and its stamps "
    "(SmartBox::HandlePickupEvent 0x00453530)",
    "[retail][sim]") {
  World w;
  w.start(kPlayer);
  auto m = create(kObject, 2);
  set_stamp(m, TI::Position, 7);
  set_stamp(m, TI::State, 3);
  w.handle(m);
  CHECK(w.handle(wire(protocol::PickupEvent{kObject, 2, 7})).verdict == Verdict::StaleTimestamp);
  CHECK(w.object(kObject).in_cell());
  CHECK(w.handle(protocol::PickupEvent{kObject, 1, 8}).verdict == Verdict::WrongInstance);
  CHECK(w.handle(protocol::PickupEvent{kObject, 2, 8}).verdict == Verdict::Applied);
  REQUIRE(w.box.get_object(kObject) != nullptr);
  CHECK_FALSE(w.object(kObject).in_cell());
  CHECK(w.object(kObject).position().objcell_id == 0u);
  CHECK(w.object(kObject).update_time(TI::Position) == 8);
  CHECK(w.object(kObject).update_time(TI::State) == 3);
}

// --- positions ---------------------------------------------------------------------------

TEST_CASE("SmartBox::HandleReceivedPosition 0x00453FD0 remote objects: strictly newer Position (0x004542C0)",
          "[retail][sim]") {
  World w;
  w.start(kPlayer);
  auto m = create(kObject, 1);
  set_stamp(m, TI::Position, 10);
  w.handle(m);
  CHECK(w.handle(wire(position(kObject, 1, 10, {1, 1, 1}))).verdict == Verdict::StaleTimestamp);
  CHECK(w.object(kObject).position().frame.origin == glm::vec3(10, 20, 30));
  CHECK(w.handle(position(kObject, 0, 11, {1, 1, 1})).verdict == Verdict::WrongInstance);
  CHECK(w.handle(position(kObject, 2, 11, {1, 1, 1})).verdict == Verdict::QueuedFutureInstance);
  CHECK(w.handle(position(0x7FFF0000, 1, 1, {1, 1, 1})).verdict == Verdict::QueuedForAbsentObject);

  auto grounded = position(kObject, 1, 11, {2, 3, 4});
  grounded.position.flags = protocol::position_flag::IsGrounded;
  CHECK(w.handle(wire(grounded)).verdict == Verdict::Applied);
  CHECK(w.object(kObject).update_time(TI::Position) == 11);
  // 96 m or more from the player (here: no player object, distance FLT_MAX):
  // CPhysicsObj::MoveOrTeleport 0x00516330 places the object at once.
  CHECK(w.object(kObject).position().frame.origin == glm::vec3(2, 3, 4));

  SECTION("without contact a remote object is not moved, but the stamp advanced") {
    CHECK(w.handle(position(kObject, 1, 12, {7, 7, 7})).verdict == Verdict::Applied);
    CHECK(w.object(kObject).position().frame.origin == glm::vec3(2, 3, 4));
    CHECK(w.object(kObject).update_time(TI::Position) == 12);
  }
  SECTION("near the player the move is an interpolation") {
    // The grounded position above already made the object's PositionManager
    // (ConstrainTo); a recorder replaces it.
    auto recorder = std::make_unique<FakePositionManager>(w.object(kObject));
    const FakePositionManager* recorded = recorder.get();
    w.object(kObject).set_position_manager(std::move(recorder));
    w.handle(create(kPlayer, 1, kInitialState, {3, 3, 4}));
    w.clock.advance(core::Seconds{0.05});
    w.box.use_time();  // update_object measures the distance to the player
    REQUIRE(w.object(kObject).player_distance() < 96.0f);
    auto next = position(kObject, 1, 13, {8, 8, 8});
    next.position.flags = protocol::position_flag::IsGrounded;
    w.handle(next);
    const auto& manager = *recorded;
    REQUIRE(manager.interpolations.size() == 1);
    CHECK(manager.interpolations[0].first.frame.origin == glm::vec3(8, 8, 8));
    CHECK(manager.constraints.size() == 1);
    // GetStartConstraintDistance 0x0050EBC0 / GetMaxConstraintDistance 0x0050EC10 outdoors.
    CHECK(manager.constraint_distances[0] == std::pair<float, float>(10.0f, 50.0f));
    CHECK(w.object(kObject).position().frame.origin != glm::vec3(8, 8, 8));
  }
  SECTION("near the player the retail PositionManager queues the position instead of placing it") {
    w.handle(create(kPlayer, 1, kInitialState, {3, 3, 4}));
    w.clock.advance(core::Seconds{0.05});
    w.box.use_time();
    REQUIRE(w.object(kObject).player_distance() < 96.0f);
    auto next = position(kObject, 1, 13, {8, 8, 8});
    next.position.flags = protocol::position_flag::IsGrounded;
    w.handle(next);
    CHECK(w.object(kObject).position().frame.origin == glm::vec3(2, 3, 4));
    CHECK(w.object(kObject).is_interpolating());
    REQUIRE(w.object(kObject).position_manager() != nullptr);
    const InterpolationManager* im = w.object(kObject).position_manager()->interpolation_manager();
    REQUIRE(im != nullptr);
    REQUIRE(im->queue().size() == 1);
    CHECK(im->queue().front().p.frame.origin == glm::vec3(8, 8, 8));
  }
}

TEST_CASE("SmartBox::HandleReceivedPosition 0x00453FD0 a stored Teleport newer than the packet's restores Position",
          "[retail][sim]") {
  World w;
  w.start(kPlayer);
  auto m = create(kObject, 1);
  set_stamp(m, TI::Position, 10);
  set_stamp(m, TI::Teleport, 5);
  w.handle(m);
  auto old_teleport = position(kObject, 1, 11, {1, 1, 1}, 4);
  old_teleport.position.flags = protocol::position_flag::IsGrounded;
  CHECK(w.handle(old_teleport).verdict == Verdict::StaleTimestamp);
  CHECK(w.object(kObject).update_time(TI::Position) == 10);
  CHECK(w.object(kObject).position().frame.origin == glm::vec3(10, 20, 30));

  SECTION("a newer packet Teleport advances Teleport and moves even without contact") {
    CHECK(w.handle(position(kObject, 1, 11, {6, 6, 6}, 6)).verdict == Verdict::Applied);
    CHECK(w.object(kObject).update_time(TI::Teleport) == 6);
    CHECK(w.object(kObject).position().frame.origin == glm::vec3(6, 6, 6));
  }
  SECTION("a stale Position with a newer Teleport counts a retail error") {
    CHECK(w.handle(position(kObject, 1, 10, {6, 6, 6}, 6)).verdict == Verdict::StaleTimestamp);
    CHECK(w.box.stats().position_error_count == 1);
  }
}

TEST_CASE(
    "PositionPack::UnPack 0x00516740 absent placement and velocity are zero when consumed "
    "(SmartBox::HandleReceivedPosition 0x00453FD0)",
    "[retail][sim]") {
  auto with = position(kObject, 1, 2, {1, 2, 3});
  with.position.placement_id = 0x65;
  with.position.velocity = protocol::Vec3{4, 5, 6};
  const ReceivedPosition a = received_position(with.position);
  CHECK(a.placement_id == 0x65u);
  CHECK(a.velocity == glm::vec3(4, 5, 6));
  const protocol::Message bare = wire(position(kObject, 1, 2, {1, 2, 3}));
  const protocol::PositionPack& pack = std::get<protocol::UpdatePosition>(bare).position;
  REQUIRE_FALSE(pack.placement_id.has_value());
  REQUIRE_FALSE(pack.velocity.has_value());
  const ReceivedPosition b = received_position(pack);
  CHECK(b.placement_id == 0u);
  CHECK(b.velocity == glm::vec3(0.0f));

  World w;
  w.start(kPlayer);
  auto m = create(kObject, 1);
  w.handle(m);
  w.handle(with);
  REQUIRE_FALSE(w.parts(kObject).placements.empty());
  CHECK(w.parts(kObject).placements.back() == 0x65u);
  w.handle(position(kObject, 1, 3, {1, 2, 3}));
  CHECK(w.parts(kObject).placements.back() == 0u);  // not the previous 0x65

  SECTION("an object with active animations keeps its placement") {
    w.parts(kObject).anims = true;
    auto placed = position(kObject, 1, 4, {1, 2, 3});
    placed.position.placement_id = 0x33;
    const std::size_t before = w.parts(kObject).placements.size();
    w.handle(placed);
    CHECK(w.parts(kObject).placements.size() == before);
  }
}

TEST_CASE(
    "SmartBox::HandleReceivedPosition 0x00453FD0 local player ForcePosition blip unless the stored Teleport is newer "
    "(SmartBox::BlipPlayer 0x00453940)",
    "[retail][sim]") {
  World w;
  w.start(kPlayer);
  auto me = create(kPlayer, 1);
  set_stamp(me, TI::Position, 50);
  set_stamp(me, TI::Teleport, 7);
  set_stamp(me, TI::ForcePosition, 2);
  w.handle(me);
  PhysicsObj& player = w.object(kPlayer);
  player.set_heading(90.0f, false);
  player.set_velocity({3, 0, 0}, false);
  player.set_transient_state(transient_state::Contact | transient_state::OnWalkable | transient_state::Active);

  // Older Position stamp, equal Teleport, newer ForcePosition.
  auto force = position(kPlayer, 1, 40, {100, 100, 5}, 7, 3);
  CHECK(w.handle(wire(force)).verdict == Verdict::Applied);
  CHECK(player.position().frame.origin == glm::vec3(100, 100, 5));
  CHECK(player.get_heading() == Approx(90.0f).margin(0.01));  // live heading kept
  CHECK(player.velocity() == glm::vec3(3, 0, 0));             // velocity kept
  CHECK(player.update_time(TI::Position) == 40);              // assigned even though older
  CHECK(player.update_time(TI::Teleport) == 7);               // not advanced
  CHECK(player.update_time(TI::ForcePosition) == 3);
  CHECK(w.controller.position_events == 1);  // grounded: sent at once
  CHECK((player.transient_state() & transient_state::OnWalkable) != 0);

  SECTION("an equal ForcePosition takes the normal path") {
    CHECK(w.handle(position(kPlayer, 1, 40, {1, 1, 1}, 7, 3)).verdict == Verdict::StaleTimestamp);
  }
  SECTION("a newer ForcePosition with a newer Teleport blips too, and does not teleport (the binary, not the seed)") {
    // acclient.c 145124: the blip is taken unless the stored Teleport is
    // newer than the incoming one; the seed says only an equal one.
    const bool teleporting = w.box.teleport_in_progress();
    CHECK(w.handle(position(kPlayer, 1, 41, {1, 1, 1}, 8, 4)).verdict == Verdict::Applied);
    CHECK(player.update_time(TI::ForcePosition) == 4);
    CHECK(player.update_time(TI::Teleport) == 7);    // not advanced: no teleport
    CHECK(player.velocity() == glm::vec3(3, 0, 0));  // a blip keeps velocity
    CHECK(w.box.teleport_in_progress() == teleporting);
    CHECK(player.position().frame.origin == glm::vec3(1, 1, 1));
    CHECK(player.update_time(TI::Position) == 41);
    CHECK(w.controller.position_events == 2);
  }
  SECTION("a newer ForcePosition with an older Teleport takes the normal path, storing ForcePosition") {
    CHECK(w.handle(position(kPlayer, 1, 41, {1, 1, 1}, 6, 4)).verdict == Verdict::StaleTimestamp);
    CHECK(player.update_time(TI::ForcePosition) == 4);  // newer_event stored it before the Teleport test
    CHECK(player.update_time(TI::Position) == 40);      // put back by the stale Teleport
    CHECK(player.position().frame.origin == glm::vec3(100, 100, 5));
  }
  SECTION("the Teleport test wraps as every stamp does: 0x7FFF ahead blips, 0x8000 ahead is older") {
    CHECK(w.handle(position(kPlayer, 1, 41, {2, 2, 2}, 7 + 0x7FFF, 4)).verdict == Verdict::Applied);
    CHECK(player.position().frame.origin == glm::vec3(2, 2, 2));
    CHECK(player.update_time(TI::Teleport) == 7);
    CHECK(w.handle(position(kPlayer, 1, 42, {3, 3, 3}, 7 + 0x8000, 5)).verdict == Verdict::StaleTimestamp);
    CHECK(player.position().frame.origin == glm::vec3(2, 2, 2));
  }
}

TEST_CASE(
    "SmartBox::HandleReceivedPosition 0x00453FD0 local player normal path installs no packet velocity "
    "(SmartBox::TeleportPlayer 0x00453910)",
    "[retail][sim]") {
  World w;
  w.factory.with_position_managers = true;
  w.start(kPlayer);
  w.handle(create(kPlayer, 1));
  PhysicsObj& player = w.object(kPlayer);
  player.set_velocity({0, 2, 0}, false);
  auto p = position(kPlayer, 1, 1, {5, 5, 5});
  p.position.velocity = protocol::Vec3{9, 9, 9};
  p.position.flags = protocol::position_flag::HasVelocity | protocol::position_flag::IsGrounded;
  CHECK(w.handle(wire(p)).verdict == Verdict::Applied);
  CHECK(player.velocity() == glm::vec3(0, 2, 0));
  REQUIRE(w.factory.position_managers.count(kPlayer) == 1);
  const auto& manager = *w.factory.position_managers.at(kPlayer);
  CHECK(manager.constraints.size() == 1);
  REQUIRE(manager.interpolations.size() == 1);
  CHECK(manager.interpolations[0].first.frame.origin == glm::vec3(5, 5, 5));

  SECTION("without contact the player is only constrained") {
    w.handle(position(kPlayer, 1, 2, {6, 6, 6}));
    CHECK(manager.constraints.size() == 2);
    CHECK(manager.interpolations.size() == 1);
  }
  SECTION("a newer Teleport teleports the player and zeroes its velocity") {
    w.handle(position(kPlayer, 1, 2, {6, 6, 6}, 1));
    CHECK(player.position().frame.origin == glm::vec3(6, 6, 6));
    CHECK(player.velocity() == glm::vec3(0.0f));
    CHECK(player.update_time(TI::Teleport) == 1);
    CHECK(w.box.teleport_in_progress());
    w.box.use_time();
    CHECK_FALSE(w.box.teleport_in_progress());
    CHECK(w.box.has_been_teleported());
  }
}

TEST_CASE("SmartBox::HandlePlayerTeleport 0x00452150 older rejected, equal and newer accepted, Teleport kept",
          "[retail][sim]") {
  World w;
  w.start(kPlayer);
  CHECK(w.handle(protocol::PlayerTeleport{1}).verdict == Verdict::Ignored);  // no player object yet
  auto me = create(kPlayer, 1);
  set_stamp(me, TI::Teleport, 0x0010);
  w.handle(me);
  w.box.use_time();
  REQUIRE_FALSE(w.box.waiting_for_teleport());
  CHECK(w.handle(wire(protocol::PlayerTeleport{0x000F})).verdict == Verdict::StaleTimestamp);
  CHECK_FALSE(w.box.waiting_for_teleport());
  CHECK(w.handle(protocol::PlayerTeleport{0x0010}).verdict == Verdict::Applied);
  CHECK(w.box.waiting_for_teleport());
  CHECK(w.box.teleport_in_progress());
  CHECK(w.object(kPlayer).update_time(TI::Teleport) == 0x0010);
  CHECK(w.handle(protocol::PlayerTeleport{0x0011}).verdict == Verdict::Applied);
  CHECK(w.object(kPlayer).update_time(TI::Teleport) == 0x0010);
  // Across the wrap: 0x8010 is exactly half a cycle from 0x0010, so it is older.
  CHECK(w.handle(protocol::PlayerTeleport{0x8010}).verdict == Verdict::StaleTimestamp);
}

// --- effects ------------------------------------------------------------------------------

TEST_CASE("SmartBox::HandlePlayScriptID 0x00452020 plays the direct DID and never the table", "[retail][sim]") {
  World w;
  w.effects.add_entry(kTable, 0x33000099, 1.0f, 0x33000001);  // a table entry that must not be used
  w.start(kPlayer);
  auto m = create(0x50000042, 1);
  m.physics.physics_script_table_id = kTable;
  const LocalId local = w.handle(m).local_id;
  const protocol::PlayScriptId direct{0x50000042, 0x33000099};
  CHECK(w.handle(wire(direct)).verdict == Verdict::Applied);
  CHECK(w.effects.resolves.empty());
  REQUIRE(w.effects.plays.size() == 1);
  CHECK(w.effects.plays[0].script == 0x33000099u);
  CHECK(w.effects.plays[0].owner == local);

  SECTION("an object out of the world plays nothing, as retail's play_script") {
    w.handle(protocol::PickupEvent{0x50000042, 1, 1});
    CHECK(w.handle(direct).verdict == Verdict::Applied);
    CHECK(w.effects.plays.size() == 1);
  }
}

TEST_CASE(
    "SmartBox::HandlePlayScriptID 0x00452020 F754 and F755 for an absent object queue whole, in order "
    "(SmartBox::HandlePlayScriptType 0x00452070)",
    "[retail][sim]") {
  World w;
  w.effects.add_entry(kTable, 4, 1.0f, 0x3300011D);
  w.start(kPlayer);
  CHECK(w.handle(protocol::PlayScriptId{0x50000042, 0x33000099}).verdict == Verdict::QueuedForAbsentObject);
  CHECK(w.handle(protocol::PlayScriptType{0x50000042, 4, std::bit_cast<std::uint32_t>(0.5f)}).verdict ==
        Verdict::QueuedForAbsentObject);
  CHECK(w.handle(protocol::PlayScriptId{0x50000042, 0x33000077}).verdict == Verdict::QueuedForAbsentObject);
  CHECK(w.box.objects().pending_count(0x50000042) == 3);
  CHECK(w.effects.plays.empty());

  auto m = create(0x50000042, 1);
  m.physics.physics_script_table_id = kTable;
  w.handle(m);
  REQUIRE(w.effects.plays.size() == 3);
  CHECK(w.effects.plays[0].script == 0x33000099u);
  CHECK(w.effects.plays[1].script == 0x3300011Du);
  CHECK(w.effects.plays[2].script == 0x33000077u);
  CHECK(w.box.objects().pending_count(0x50000042) == 0);
  CHECK(w.box.objects().stats().replayed == 3);
  int replays = 0;
  for (const auto& r : w.trace.records) replays += r.replayed && r.verdict == Verdict::Replayed ? 1 : 0;
  CHECK(replays == 3);
}

TEST_CASE("SmartBox::HandlePlayScriptType 0x00452070 resolves type and raw intensity through the current table",
          "[retail][sim]") {
  World w;
  w.effects.add_entry(kTable, 0x4, 1.0f, 0x3300011D);
  w.start(kPlayer);
  auto m = create(0x50000042, 1);
  m.physics.physics_script_table_id = kTable;
  w.handle(m);
  CHECK(w.handle(wire(protocol::PlayScriptType{0x50000042, 0x4, std::bit_cast<std::uint32_t>(0.5f)})).verdict ==
        Verdict::Applied);
  REQUIRE(w.effects.resolves.size() == 1);
  CHECK(w.effects.resolves[0].table == kTable);
  CHECK(w.effects.resolves[0].intensity == 0.5f);
  REQUIRE(w.effects.plays.size() == 1);
  CHECK(w.effects.plays[0].script == 0x3300011Du);

  // Unknown type and NaN payload bits reach the resolver untouched.
  CHECK(w.handle(protocol::PlayScriptType{0x50000042, 0xA5A5A5A5, 0x7FC01234}).verdict == Verdict::Ignored);
  REQUIRE(w.effects.resolves.size() == 2);
  CHECK(w.effects.resolves[1].type == 0xA5A5A5A5u);
  CHECK(std::bit_cast<std::uint32_t>(w.effects.resolves[1].intensity) == 0x7FC01234u);
  CHECK(w.effects.plays.size() == 1);

  SECTION("no table: nothing resolves") {
    w.handle(create(0x50000043, 1));
    CHECK(w.handle(protocol::PlayScriptType{0x50000043, 4, std::bit_cast<std::uint32_t>(1.0f)}).verdict ==
          Verdict::Ignored);
    CHECK(w.effects.resolves.size() == 2);
  }
}

// --- the dispatch gate and the trace ---------------------------------------------------------

TEST_CASE(
    "ACSmartBox::IsReadyToDispatchEvent 0x00559590 holds everything until PlayerCreate (SmartBox::HandleCreatePlayer "
    "0x00455110)",
    "[retail][sim]") {
  World w;
  CHECK(w.handle(create(kObject, 1)).verdict == Verdict::QueuedBeforePlayer);
  CHECK(w.handle(set_state(kObject, ps::Ethereal, 1, 1)).verdict == Verdict::QueuedBeforePlayer);
  CHECK(w.box.get_object(kObject) == nullptr);
  CHECK(w.box.queued_before_player() == 2);
  CHECK(w.handle(wire(protocol::PlayerCreate{kPlayer})).verdict == Verdict::Applied);
  REQUIRE(w.box.get_object(kObject) != nullptr);
  CHECK(w.object(kObject).state() == ps::Ethereal);
  CHECK(w.box.queued_before_player() == 0);
  CHECK(w.handle(protocol::PlayerCreate{0x50000009}).verdict == Verdict::RejectedLocalPlayer);
  CHECK(w.box.player_id() == kPlayer);
}

TEST_CASE("every handled message leaves one trace record with its verdict", "[sim][trace]") {
  World w;
  w.start(kPlayer);
  w.trace.records.clear();
  w.handle(create(kObject, 2));
  w.handle(set_state(kObject, 0, 2, 5));
  w.handle(set_state(kObject, 0, 2, 5));
  REQUIRE(w.trace.records.size() == 3);
  CHECK(w.trace.records[0].opcode == protocol::opcode::CreateObject);
  CHECK(w.trace.records[0].instance_ts == std::optional<std::uint16_t>{2});
  CHECK(w.trace.records[1].verdict == Verdict::Applied);
  CHECK(w.trace.records[1].channel_ts == std::optional<std::uint16_t>{5});
  CHECK(w.trace.records[2].verdict == Verdict::StaleTimestamp);
  CHECK(to_string(w.trace.records[2].verdict) == "stale-timestamp");
  CHECK(to_string(Verdict::QueuedFutureInstance) == "queued-future-instance");
  CHECK(w.trace.records[2].local_id == w.box.local_id(kObject));
  CHECK(w.box.stats().messages == 4);
}

TEST_CASE(
    "Without a collision cell (N4): a grounded server Position gives Contact and OnWalkable, without it nothing "
    "changes",
    "[sim][deviation]") {
  namespace ts = transient_state;
  World w;
  w.start(kPlayer);
  w.handle(create(kObject, 1));  // the default state has Gravity
  PhysicsObj& o = w.object(kObject);
  REQUIRE((o.transient_state() & (ts::Contact | ts::OnWalkable)) == 0);
  w.clock.set(core::Seconds{0.1});
  w.box.use_time();
  CHECK(o.acceleration().z == Approx(kGravity));  // airborne: falling

  // Not grounded: applied (stamp advanced) but nothing lands.
  w.handle(position(kObject, 1, 1, {1, 1, 1}));
  CHECK((o.transient_state() & ts::Contact) == 0);

  auto grounded = position(kObject, 1, 2, {2, 3, 4});
  grounded.position.flags = protocol::position_flag::IsGrounded;
  REQUIRE(w.handle(wire(grounded)).verdict == Verdict::Applied);
  CHECK((o.transient_state() & ts::Contact) != 0);
  CHECK((o.transient_state() & ts::OnWalkable) != 0);
  // CPhysicsObj::calc_acceleration 0x00510950: grounded, no Sledding: no gravity.
  CHECK(o.acceleration() == glm::vec3(0.0f));
  const float z = o.position().frame.origin.z;
  w.clock.set(core::Seconds{1.0});
  w.box.use_time();
  CHECK(o.position().frame.origin.z == z);  // it stays on the ground
}

TEST_CASE(
    "Without a collision cell (N4) for the local player: a grounded Position the server controls lands the player",
    "[sim][deviation]") {
  namespace ts = transient_state;
  World w;
  w.start(kPlayer);
  w.handle(create(kPlayer, 1));
  PhysicsObj& p = w.object(kPlayer);
  p.clear_transient_states();  // airborne (world entry stood it on the ground)
  REQUIRE((p.transient_state() & ts::OnWalkable) == 0);
  auto grounded = position(kPlayer, 1, 1, {5, 6, 7});
  grounded.position.flags = protocol::position_flag::IsGrounded;
  REQUIRE(w.handle(wire(grounded)).verdict == Verdict::Applied);
  CHECK((p.transient_state() & ts::Contact) != 0);
  CHECK((p.transient_state() & ts::OnWalkable) != 0);
  CHECK(p.acceleration() == glm::vec3(0.0f));
}

TEST_CASE("Without a collision cell (N4) at world entry: the local player stands where the server created it",
          "[sim][deviation]") {
  // Retail's placement transition puts the entering player on the ground;
  // without it the player fell from its CreateObject until the first grounded
  // Position (on GDLE a second later, five metres down).
  namespace ts = transient_state;
  for (const bool server_controls : {true, false}) {
    World w;
    w.controller.server_controls = server_controls;
    w.start(kPlayer);
    w.handle(create(kPlayer, 1));  // the default state has Gravity
    PhysicsObj& p = w.object(kPlayer);
    const float z = p.position().frame.origin.z;
    CHECK((p.transient_state() & ts::Contact) != 0);
    CHECK((p.transient_state() & ts::OnWalkable) != 0);
    CHECK(p.acceleration() == glm::vec3(0.0f));
    w.clock.set(core::Seconds{1.0});
    w.box.use_time();
    CHECK(p.position().frame.origin.z == z);
  }
  // Another object is not placed: a Gravity NPC created in the air falls (N4
  // lands it when a grounded Position says so).
  World w;
  w.start(kPlayer);
  w.handle(create(kObject, 1));
  CHECK((w.object(kObject).transient_state() & ts::Contact) == 0);
}

TEST_CASE(
    "Without a collision cell (N4) for the local player: a grounded Position keeps a client-controlled player where it "
    "stands",
    "[sim][deviation]") {
  // The live client's CommandInterpreter starts at autonomy 2 (the client
  // moves the player): the server Position is not applied to a player on the
  // ground (SmartBox::HandleReceivedPosition 0x00453FD0 only constrains it),
  // and the grounded rule holds all the same.
  namespace ts = transient_state;
  World w;
  w.controller.server_controls = false;
  w.start(kPlayer);
  w.handle(create(kPlayer, 1));
  PhysicsObj& p = w.object(kPlayer);
  const glm::vec3 at = p.position().frame.origin;
  auto grounded = position(kPlayer, 1, 1, {5, 6, 7});
  grounded.position.flags = protocol::position_flag::IsGrounded;
  REQUIRE(w.handle(wire(grounded)).verdict == Verdict::Applied);
  CHECK((p.transient_state() & ts::Contact) != 0);
  CHECK((p.transient_state() & ts::OnWalkable) != 0);
  CHECK(p.acceleration() == glm::vec3(0.0f));
  CHECK(p.position().frame.origin == at);  // the client's position, not the server's
  w.clock.set(core::Seconds{2.0});
  w.box.use_time();
  CHECK(p.position().frame.origin.z == at.z);  // it stays on the ground
}

TEST_CASE(
    "Without a collision cell (N4) for the local player: an airborne client-controlled player lands where a grounded "
    "Position says",
    "[sim][deviation]") {
  // Nothing but collision could land an airborne player (a jump, a fall); with
  // no transition yet, the server's grounded Position puts it back on the
  // ground, as the server-controlled path does. A Position without contact
  // leaves it falling.
  namespace ts = transient_state;
  World w;
  w.controller.server_controls = false;
  w.start(kPlayer);
  w.handle(create(kPlayer, 1));
  PhysicsObj& p = w.object(kPlayer);
  p.clear_transient_states();  // airborne
  REQUIRE((p.transient_state() & ts::OnWalkable) == 0);
  REQUIRE(p.acceleration().z == Approx(kGravity));  // falling
  REQUIRE(w.handle(wire(position(kPlayer, 1, 1, {5, 6, 7}))).verdict == Verdict::Applied);
  CHECK((p.transient_state() & ts::Contact) == 0);  // not grounded: still falling
  auto grounded = position(kPlayer, 1, 2, {5, 6, 7});
  grounded.position.flags = protocol::position_flag::IsGrounded;
  REQUIRE(w.handle(wire(grounded)).verdict == Verdict::Applied);
  CHECK(p.position().frame.origin == glm::vec3(5, 6, 7));
  CHECK((p.transient_state() & ts::Contact) != 0);
  CHECK((p.transient_state() & ts::OnWalkable) != 0);
  CHECK(p.acceleration() == glm::vec3(0.0f));
  CHECK(p.velocity().z == 0.0f);
}
