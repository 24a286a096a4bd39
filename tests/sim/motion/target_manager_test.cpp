// PORTAL/cphysobj/CTargetting: an object's watch on a target and the voyeurs
// that watch it (TargetManager and CPhysicsObj's side of it).
#include "dereth/sim/motion/target_manager.hpp"

#include <catch2/catch.hpp>

#include "motion/move_to_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;

namespace {

constexpr std::uint32_t kWatcher = 0x80000001;
constexpr std::uint32_t kTarget = 0x80000002;

}  // namespace

TEST_CASE(
    "TargetManager::SetTarget 0x0051AC30 asks the target for reports and hears at once (TargetManager::TargetManager "
    "0x0051A370, TargetManager::AddVoyeur 0x0051A830, TargetManager::SendVoyeurUpdate 0x0051A4F0, "
    "TargetManager::ClearTarget 0x0051A7E0, CPhysicsObj::set_target 0x0050ED30, CPhysicsObj::clear_target 0x0050ED90, "
    "CPhysicsObj::add_voyeur 0x0050EE00, CPhysicsObj::receive_target_update 0x0050EDE0, CPhysicsObj::GetObjectA "
    "0x0050F490)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& watcher = w.creature(kWatcher, {60, 60, kGroundZ});
  PhysicsObj& target = w.creature(kTarget, {64, 60, kGroundZ});
  CHECK(watcher.target_manager() == nullptr);  // made by the first set_target
  CHECK(PhysicsObj::get_object(w.context, kTarget) == &target);
  CHECK(PhysicsObj::get_object(w.context, 0x12345) == nullptr);
  watcher.set_target(0, kTarget, 0.5f, 2.0);
  REQUIRE(watcher.target_manager() != nullptr);
  const auto& info = watcher.target_manager()->target_info();
  REQUIRE(info.has_value());
  CHECK(info->object_id == kTarget);
  CHECK(info->radius == 0.5f);
  CHECK(info->quantum == 2.0);
  // AddVoyeur sent the target's position straight back (ReceiveUpdate).
  CHECK(info->status == target_status::Ok);
  CHECK(info->target_position.frame.origin == target.position().frame.origin);
  CHECK(info->interpolated_position.frame.origin == target.position().frame.origin);
  CHECK(near(info->interpolated_heading, {1, 0, 0}));
  CHECK(info->last_update_time == w.clock.now().count());
  REQUIRE(target.target_manager() != nullptr);
  const auto& voyeurs = target.target_manager()->voyeurs();
  REQUIRE(voyeurs.count(kWatcher) == 1);
  CHECK(voyeurs.at(kWatcher).radius == 0.5f);
  CHECK(voyeurs.at(kWatcher).quantum == 2.0);
  CHECK(voyeurs.at(kWatcher).last_sent_position.frame.origin == target.position().frame.origin);

  SECTION("a new target releases the old one") {
    PhysicsObj& other = w.creature(0x80000003, {60, 64, kGroundZ});
    watcher.set_target(0, other.id(), 0.5f, 0.0);
    CHECK(target.target_manager()->voyeurs().empty());
    CHECK(other.target_manager()->voyeurs().count(kWatcher) == 1);
  }
  SECTION("object 0 reports TimedOut at once and keeps no target") {
    watcher.set_target(0, 0, 0.5f, 0.0);
    CHECK_FALSE(watcher.target_manager()->target_info().has_value());
    CHECK(target.target_manager()->voyeurs().empty());
  }
  SECTION("ClearTarget 0x0051A7E0 removes the voyeur entry") {
    watcher.clear_target();
    CHECK_FALSE(watcher.target_manager()->target_info().has_value());
    CHECK(target.target_manager()->voyeurs().empty());
  }
}

TEST_CASE(
    "TargetManager::AddVoyeur 0x0051A830 a known voyeur only gets the new radius and quantum "
    "(TargetManager::RemoveVoyeur 0x0051AD90, CPhysicsObj::remove_voyeur 0x0050EE50)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& target = w.creature(kTarget, {64, 60, kGroundZ});
  // A voyeur that does not watch this object ignores the reports.
  target.add_voyeur(kWatcher, 1.0f, 0.5);
  REQUIRE(target.target_manager()->voyeurs().count(kWatcher) == 1);
  target.set_heading(90.0f, false);
  target.add_voyeur(kWatcher, 3.0f, 4.0);
  const TargettedVoyeurInfo& v = target.target_manager()->voyeurs().at(kWatcher);
  CHECK(v.radius == 3.0f);
  CHECK(v.quantum == 4.0);
  CHECK(v.last_sent_position.frame.get_heading() == Approx(0.0f).margin(1e-3));  // nothing re-sent
  CHECK(target.remove_voyeur(kWatcher));
  CHECK_FALSE(target.remove_voyeur(kWatcher));
  PhysicsObj& bare = w.creature(0x80000009, {50, 50, kGroundZ});
  CHECK_FALSE(bare.remove_voyeur(kWatcher));  // no TargetManager at all
}

TEST_CASE("TargetManager::ReceiveUpdate 0x0051A930 keeps reports about the target only", "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& watcher = w.creature(kWatcher, {60, 60, kGroundZ});
  const PhysicsObj& target = w.creature(kTarget, {64, 60, kGroundZ});
  watcher.set_target(0, kTarget, 0.5f, 0.0);
  TargetInfo report;
  report.object_id = 0x12345;  // not the target
  report.status = target_status::Ok;
  report.interpolated_position = spot({0, 0, 0});
  watcher.receive_target_update(report);
  CHECK(watcher.target_manager()->target_info()->interpolated_position.frame.origin == target.position().frame.origin);
  w.clock.advance(core::Seconds{3.0});
  report.object_id = kTarget;
  report.interpolated_position = watcher.position();  // on top of the watcher
  report.target_position = spot({61, 60, kGroundZ});
  report.velocity = {0, 2, 0};
  report.radius = 7.0f;
  report.quantum = 1.5;
  watcher.receive_target_update(report);
  const TargetInfo& info = *watcher.target_manager()->target_info();
  CHECK(info.interpolated_heading == glm::vec3(0, 0, 1));  // too small to normalise
  CHECK(info.velocity == glm::vec3(0, 2, 0));
  CHECK(info.radius == 7.0f);
  CHECK(info.quantum == 1.5);
  CHECK(info.last_update_time == w.clock.now().count());
  SECTION("an ExitWorld report ends the watch") {
    report.status = target_status::ExitWorld;
    watcher.receive_target_update(report);
    CHECK_FALSE(watcher.target_manager()->target_info().has_value());
  }
}

TEST_CASE(
    "TargetManager::HandleTargetting 0x0051AA90 checks voyeurs every half second (TargetManager::CheckAndUpdateVoyeur "
    "0x0051A650, TargetManager::GetInterpolatedPosition 0x0051A5E0)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& watcher = w.creature(kWatcher, {60, 60, kGroundZ});
  PhysicsObj& target = w.creature(kTarget, {64, 60, kGroundZ});
  watcher.set_target(0, kTarget, 0.5f, 0.0);
  TargetManager& tm = *target.target_manager();
  SECTION("GetInterpolatedPosition adds velocity times the quantum") {
    // A target standing still predicts where it stands.
    const Position p = tm.get_interpolated_position(3.0);
    CHECK(p.frame.origin == target.position().frame.origin);
  }
  SECTION("a move within the radius is not reported, beyond it is") {
    target.set_frame(core::Frame({64.4f, 60, kGroundZ}, glm::quat(1, 0, 0, 0)));
    w.context.physics_time = core::Seconds{100.0};
    tm.handle_targetting();
    CHECK(watcher.target_manager()->target_info()->target_position.frame.origin.x == 64.0f);
    CHECK(tm.last_update_time() == 100.0);
    target.set_frame(core::Frame({64.6f, 60, kGroundZ}, glm::quat(1, 0, 0, 0)));
    w.context.physics_time = core::Seconds{100.4};  // under half a second: nothing runs
    tm.handle_targetting();
    CHECK(watcher.target_manager()->target_info()->target_position.frame.origin.x == 64.0f);
    w.context.physics_time = core::Seconds{100.5};
    tm.handle_targetting();
    CHECK(watcher.target_manager()->target_info()->target_position.frame.origin.x == 64.6f);
    CHECK(tm.voyeurs().at(kWatcher).last_sent_position.frame.origin.x == 64.6f);
  }
  SECTION("an unanswered target times out after ten seconds") {
    PhysicsObj& loner = w.creature(0x80000005, {50, 50, kGroundZ});
    loner.set_target(0, 0x80000077, 0.5f, 0.0);  // nobody by that id
    TargetManager& mine = *loner.target_manager();
    CHECK(mine.target_info()->status == target_status::Undef);
    w.clock.advance(core::Seconds{10.0});
    w.context.physics_time = core::Seconds{50.0};
    mine.handle_targetting();
    CHECK(mine.target_info()->status == target_status::Undef);  // not past ten seconds yet
    w.clock.advance(core::Seconds{0.01});
    w.context.physics_time = core::Seconds{51.0};
    mine.handle_targetting();
    CHECK(mine.target_info()->status == target_status::TimedOut);
  }
}

TEST_CASE(
    "TargetManager::SetTargetQuantum 0x0051A4A0 renews the voyeur entry (CPhysicsObj::set_target_quantum 0x0050EDA0, "
    "CPhysicsObj::get_target_quantum 0x0050EDC0)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& watcher = w.creature(kWatcher, {60, 60, kGroundZ});
  PhysicsObj& target = w.creature(kTarget, {64, 60, kGroundZ});
  CHECK(watcher.get_target_quantum() == 0.0);
  watcher.set_target_quantum(3.0);  // no TargetManager: nothing
  CHECK(watcher.target_manager() == nullptr);
  watcher.set_target(0, kTarget, 0.5f, 0.0);
  watcher.set_target_quantum(2.5);
  CHECK(watcher.get_target_quantum() == 2.5);
  CHECK(target.target_manager()->voyeurs().at(kWatcher).quantum == 2.5);
}

TEST_CASE(
    "TargetManager::NotifyVoyeurOfEvent 0x0051A6F0 a deleted or teleported target tells its voyeurs "
    "(CPhysicsObj::exit_world 0x00514E60, CPhysicsObj::teleport_hook 0x00514ED0)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& watcher = w.creature(kWatcher, {60, 60, kGroundZ});
  PhysicsObj& target = w.creature(kTarget, {64, 60, kGroundZ});
  watcher.set_target(0, kTarget, 0.5f, 0.0);
  SECTION("the target leaves the world: the watcher's target ends") {
    w.maint.delete_object(kTarget);
    CHECK_FALSE(watcher.target_manager()->target_info().has_value());
  }
  SECTION("the target teleports: the watcher hears Teleported") {
    target.teleport_hook(true);
    REQUIRE(watcher.target_manager()->target_info().has_value());
    CHECK(watcher.target_manager()->target_info()->status == target_status::Teleported);
  }
  SECTION("the watcher leaves the world: the target forgets it") {
    w.maint.delete_object(kWatcher);
    CHECK(target.target_manager()->voyeurs().empty());
  }
}

TEST_CASE(
    "TargetManager::GetInterpolatedPosition 0x0051A5E0 predicts a walking target by its velocity "
    "(TargetManager::CheckAndUpdateVoyeur 0x0051A650)",
    "[retail][sim]") {
  MoveToWorld w;
  PhysicsObj& watcher = w.creature(kWatcher, {60, 40, kGroundZ});
  PhysicsObj& target = w.creature(kTarget, {60, 60, kGroundZ});
  watcher.set_target(0, kTarget, 0.5f, 2.0);
  // The target walks north on its own MoveTo.
  MoveToWorld::manager(target).make_move_to_manager().move_to_position(spot({60, 80, kGroundZ}), MovementParameters{});
  w.run(20);
  const glm::vec3 v = target.cached_velocity();
  REQUIRE(v.y > 2.0f);
  const Position p = target.target_manager()->get_interpolated_position(2.0);
  CHECK(near(p.frame.origin, target.position().frame.origin + 2.0f * v));
  // The watcher has heard the predicted position (its quantum is 2 s).
  const TargetInfo& info = *watcher.target_manager()->target_info();
  CHECK(info.interpolated_position.frame.origin.y > info.target_position.frame.origin.y + 2.0f);
  CHECK(info.velocity.y > 2.0f);
}
