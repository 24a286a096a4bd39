// Hostile message sequences: retail behaviour, no crash, bounded memory.
#include <catch2/catch.hpp>

#include <functional>

#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;
using TI = protocol::TimestampIndex;

namespace {
constexpr std::uint32_t kPlayer = 0x50000001;
constexpr std::uint32_t kObject = 0x70000010;
}  // namespace

TEST_CASE(
    "hostile: deleting the player at every Instance leaves the player in place (SmartBox::HandleDeleteObject "
    "0x00451EA0)",
    "[retail][sim][hostile]") {
  World w;
  w.start(kPlayer);
  w.handle(create(kPlayer, 0x10));
  for (std::uint32_t i = 0; i <= 0xFFFF; i += 0x101) {
    CHECK(w.handle(protocol::DeleteObject{kPlayer, static_cast<std::uint16_t>(i)}).verdict ==
          Verdict::RejectedLocalPlayer);
  }
  REQUIRE(w.box.player() != nullptr);
  CHECK(w.box.player() == w.box.get_object(kPlayer));
  CHECK(w.box.objects().pending_total() == 0);
  // The player still ticks.
  w.clock.set(core::Seconds{0.1});
  w.box.use_time();
  CHECK(w.parts(kPlayer).quanta.size() == 1);
}

TEST_CASE("hostile: a stale generation never touches the live one (0x00454C80)", "[retail][sim][hostile]") {
  World w;
  w.start(kPlayer);
  auto live = create(kObject, 0x0100);
  set_stamp(live, TI::State, 5);
  w.handle(live);
  auto stale = create(kObject, 0x00FF, ps::Ethereal, {99, 99, 99});
  set_stamp(stale, TI::State, 6);
  CHECK(w.handle(stale).verdict == Verdict::StaleGeneration);
  CHECK(w.handle(protocol::SetState{kObject, ps::Ethereal, 0x00FF, 7}).verdict == Verdict::WrongInstance);
  CHECK(w.handle(protocol::DeleteObject{kObject, 0x00FF}).verdict == Verdict::WrongInstance);
  CHECK(w.handle(position(kObject, 0x00FF, 1, {99, 99, 99})).verdict == Verdict::WrongInstance);
  const PhysicsObj& object = w.object(kObject);
  CHECK(object.instance() == 0x0100);
  CHECK(object.update_time(TI::State) == 5);
  CHECK((object.state() & ps::Ethereal) == 0);
  CHECK(object.position().frame.origin == glm::vec3(10, 20, 30));
  CHECK(w.box.objects().pending_total() == 0);
}

TEST_CASE("hostile: Instance and channel stamps wrapping at 0x8000 (SmartBox::DoSetState 0x004520D0)",
          "[retail][sim][hostile]") {
  World w;
  w.start(kPlayer);
  w.handle(create(kObject, 0x0000));
  // 0x8000 from 0x0000: the numerically lower (live) stamp is the newer one,
  // so an Instance of 0x8000 is an older generation.
  CHECK(w.handle(create(kObject, 0x8000)).verdict == Verdict::StaleGeneration);
  CHECK(w.handle(protocol::SetState{kObject, 0, 0x8000, 1}).verdict == Verdict::WrongInstance);
  // 0x7FFF is the newest Instance still ahead.
  CHECK(w.handle(create(kObject, 0x7FFF)).verdict == Verdict::NewGeneration);
  CHECK(w.object(kObject).instance() == 0x7FFF);
  // And from 0x7FFF, 0xFFFF is exactly half a cycle ahead: older again.
  CHECK(w.handle(create(kObject, 0xFFFF)).verdict == Verdict::StaleGeneration);

  // A channel stamp walking round the cycle in steps just under half of it
  // is newer every time; one step of exactly half a cycle is not.
  std::uint16_t stamp = 0;
  int applied = 0;
  for (int i = 0; i < 13; ++i) {
    stamp = static_cast<std::uint16_t>(stamp + 0x7FFF);
    applied += w.handle(protocol::SetState{kObject, 0, 0x7FFF, stamp}).verdict == Verdict::Applied ? 1 : 0;
  }
  CHECK(applied == 13);
  CHECK(w.object(kObject).update_time(TI::State) == stamp);
  const auto half = static_cast<std::uint16_t>(stamp + 0x8000);
  CHECK(w.handle(protocol::SetState{kObject, ps::Ethereal, 0x7FFF, half}).verdict == Verdict::StaleTimestamp);
  CHECK(w.object(kObject).update_time(TI::State) == stamp);
}

TEST_CASE("hostile: packets for a future Instance are held, never adopted (0x00454C80)", "[retail][sim][hostile]") {
  World w;
  w.start(kPlayer);
  auto live = create(kObject, 3);
  set_stamp(live, TI::Position, 10);
  w.handle(live);
  CHECK(w.handle(protocol::SetState{kObject, ps::Ethereal, 4, 50}).verdict == Verdict::QueuedFutureInstance);
  CHECK(w.handle(protocol::VectorUpdate{kObject, {5, 0, 0}, {0, 0, 0}, 4, 50}).verdict ==
        Verdict::QueuedFutureInstance);
  CHECK(w.handle(position(kObject, 4, 50, {1, 1, 1})).verdict == Verdict::QueuedFutureInstance);
  CHECK(w.handle(protocol::PickupEvent{kObject, 4, 50}).verdict == Verdict::QueuedFutureInstance);
  CHECK(w.handle(protocol::DeleteObject{kObject, 4}).verdict == Verdict::QueuedFutureInstance);
  const PhysicsObj& object = w.object(kObject);
  CHECK(object.instance() == 3);
  CHECK((object.state() & ps::Ethereal) == 0);
  CHECK(object.velocity() == glm::vec3(0.0f));
  CHECK(object.update_time(TI::Position) == 10);
  CHECK(object.update_time(TI::State) == 0);
  CHECK(object.in_cell());
  CHECK(w.box.objects().pending_count(kObject) == 5);

  // Generation 3 keeps running with them held; generation 4 replaces it and,
  // as in retail, what was held on 3 goes with 3.
  w.clock.set(core::Seconds{0.1});
  w.box.use_time();
  CHECK(w.handle(create(kObject, 4)).verdict == Verdict::NewGeneration);
  CHECK(w.box.objects().stats().discarded_with_generation == 5);
  CHECK(w.box.objects().pending_total() == 0);
  REQUIRE(w.box.get_object(kObject) != nullptr);
  CHECK(w.object(kObject).instance() == 4);
}

TEST_CASE(
    "hostile: 10,000 queued blobs for an absent object stay bounded and counted (SmartBox::HandlePlayScriptID "
    "0x00452020, CObjectMaint::QueueBlobForObject 0x005092D0)",
    "[retail][sim][hostile]") {
  World w;
  w.start(kPlayer);
  std::size_t queued = 0;
  std::size_t dropped = 0;
  for (std::uint32_t i = 0; i < 10000; ++i) {
    const Verdict v = w.handle(protocol::PlayScriptId{kObject, 0x33000000 + i}).verdict;
    queued += v == Verdict::QueuedForAbsentObject ? 1 : 0;
    dropped += v == Verdict::DroppedQueueFull ? 1u : 0u;
  }
  CHECK(queued == ObjectMaint::kMaxQueuedPerObject);
  CHECK(dropped == 10000 - ObjectMaint::kMaxQueuedPerObject);
  CHECK(w.box.objects().pending_count(kObject) == ObjectMaint::kMaxQueuedPerObject);
  CHECK(w.box.objects().stats().dropped_full == dropped);
  CHECK(w.box.objects().null_object_count() == 1);

  // The object appears: the held prefix plays, in order.
  w.handle(create(kObject, 1));
  REQUIRE(w.effects.plays.size() == ObjectMaint::kMaxQueuedPerObject);
  for (std::size_t i = 0; i < w.effects.plays.size(); ++i) {
    CHECK(w.effects.plays[i].script == 0x33000000 + i);
  }
  CHECK(w.box.objects().pending_total() == 0);
}

TEST_CASE("hostile: the total pending cap holds across many absent GUIDs (CObjectMaint::QueueBlobForObject 0x005092D0)",
          "[retail][sim][hostile]") {
  World w;
  w.start(kPlayer);
  std::size_t dropped = 0;
  for (std::uint32_t guid = 0; guid < 20000; ++guid) {
    dropped += w.handle(protocol::PlayScriptId{0x60000000 + guid, 1}).verdict == Verdict::DroppedQueueFull ? 1u : 0u;
  }
  CHECK(w.box.objects().pending_total() == ObjectMaint::kMaxQueuedTotal);
  CHECK(dropped == 20000 - ObjectMaint::kMaxQueuedTotal);
  CHECK(w.box.objects().null_object_count() == ObjectMaint::kMaxQueuedTotal);
}

TEST_CASE(
    "hostile: an absent GUID's held messages expire 25 s after the last one (CObjectMaint::UseTime 0x005089B0, "
    "CObjectMaint::AddObjectToBeDestroyed 0x00508F70)",
    "[retail][sim][hostile]") {
  World w;
  w.start(kPlayer);
  w.handle(protocol::PlayScriptId{kObject, 1});
  w.clock.set(core::Seconds{10.0});
  w.handle(protocol::PlayScriptId{kObject, 2});  // restarts the 25 s
  w.clock.set(core::Seconds{30.0});
  w.box.use_time();
  CHECK(w.box.objects().pending_count(kObject) == 2);
  w.clock.set(core::Seconds{35.5});
  w.box.use_time();
  CHECK(w.box.objects().pending_count(kObject) == 0);
  CHECK(w.box.objects().stats().expired == 2);
  w.handle(create(kObject, 1));
  CHECK(w.effects.plays.empty());
}

TEST_CASE("hostile: messages before PlayerCreate are bounded (ACSmartBox::IsReadyToDispatchEvent 0x00559590)",
          "[retail][sim][hostile]") {
  World w;
  std::size_t dropped = 0;
  for (std::uint32_t i = 0; i < SmartBox::kMaxQueuedBeforePlayer + 100; ++i) {
    dropped +=
        w.handle(protocol::SetState{kObject, 0, 1, static_cast<std::uint16_t>(i)}).verdict == Verdict::DroppedQueueFull
            ? 1u
            : 0u;
  }
  CHECK(dropped == 100);
  CHECK(w.box.queued_before_player() == SmartBox::kMaxQueuedBeforePlayer);
  CHECK(w.box.stats().dropped_before_player == 100);
}

TEST_CASE(
    "hostile: a long chain of children waiting on parents replays without recursion (SmartBox::ProcessObjectNetBlobs "
    "0x00454B20)",
    "[retail][sim][hostile]") {
  World w;
  w.factory.holding[1] = HoldingLocation{0, core::Frame{}};
  w.start(kPlayer);
  // Object i+1 is the parent of object i; only the last one is ever created
  // directly, so every other create waits on its parent's GUID.
  constexpr std::uint32_t kChain = 2000;
  for (std::uint32_t i = 0; i < kChain; ++i) {
    auto child = create(0x71000000 + i, 1);
    child.physics.position.reset();
    child.physics.parent = protocol::ParentLink{0x71000000 + i + 1, 1};
    CHECK(w.handle(child).verdict == Verdict::QueuedForAbsentObject);
  }
  w.handle(create(0x71000000 + kChain, 1));
  CHECK(w.box.objects().object_count() == kChain + 1);
  const PhysicsObj* bottom = w.box.get_object(0x71000000);
  REQUIRE(bottom != nullptr);
  REQUIRE(bottom->parent() != nullptr);
  CHECK(bottom->parent()->id() == 0x71000001u);
}

TEST_CASE("hostile: a CreateObject naming itself as parent (0x00454C80)", "[retail][sim][hostile]") {
  World w;
  w.start(kPlayer);
  w.handle(create(kObject, 1));
  auto self = create(kObject, 2);
  self.physics.parent = protocol::ParentLink{kObject, 1};
  CHECK(w.handle(self).verdict == Verdict::NewGeneration);
  REQUIRE(w.box.get_object(kObject) != nullptr);
  CHECK(w.object(kObject).parent() == nullptr);
}

TEST_CASE("the same message stream gives the same state twice", "[sim][determinism]") {
  auto run = [](World& w) {
    w.start(kPlayer);
    w.handle(create(kPlayer, 1, kInitialState, {50, 50, 0}));
    for (std::uint32_t i = 0; i < 20; ++i) {
      auto m = create(0x70000000 + i, 1, kInitialState, {static_cast<float>(i), 40, 5});
      m.physics.velocity = protocol::Vec3{1.0f + static_cast<float>(i) * 0.1f, 0.5f, 2.0f};
      w.handle(m);
    }
    for (int tick = 1; tick <= 90; ++tick) {
      w.clock.set(core::Seconds{tick / 30.0 + 0.001 * (tick % 7)});
      if (tick % 10 == 0) {
        w.handle(protocol::VectorUpdate{0x70000003, {0, 3, 0}, {0, 0, 1}, 1, static_cast<std::uint16_t>(tick)});
      }
      w.box.use_time();
    }
  };
  World a;
  World b;
  run(a);
  run(b);
  const auto& oa = a.box.objects().objects();
  const auto& ob = b.box.objects().objects();
  REQUIRE(oa.size() == ob.size());
  bool moved = false;
  for (std::size_t i = 0; i < oa.size(); ++i) {
    CHECK(oa[i]->position().frame.origin == ob[i]->position().frame.origin);
    CHECK(oa[i]->position().frame.orientation() == ob[i]->position().frame.orientation());
    CHECK(oa[i]->velocity() == ob[i]->velocity());
    CHECK(oa[i]->update_times() == ob[i]->update_times());
    moved = moved || oa[i]->velocity() != glm::vec3(0.0f);
  }
  CHECK(moved);
}
