// Seed retail-projectile-vfx section 9 and spec/physics.md section 0: the
// fixed-quantum update loop.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include <glm/geometric.hpp>

#include "dereth/sim/object/physics.hpp"
#include "dereth/sim/object/physics_obj.hpp"

#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;
namespace ts = transient_state;

namespace {

// An object in kCell at `origin`, entered into the world at the clock's time,
// with a recording part array.
struct Body {
  Body(World& w, std::uint32_t guid, glm::vec3 origin = {10.0f, 10.0f, 10.0f}, std::uint32_t state = 0)
      : object(w.context, guid, LocalId{guid}) {
    auto p = std::make_unique<FakePartArray>(w.log);
    parts = p.get();
    object.set_part_array(std::move(p));
    object.set_state(state, false);
    object.enter_world(Position{kCell, core::Frame(origin, glm::quat(1, 0, 0, 0))});
  }
  PhysicsObj object;
  FakePartArray* parts = nullptr;
};

class CountingHook final : public PhysicsObjHook {
 public:
  CountingHook(int& runs, int finish_after, std::vector<int>* order = nullptr, int tag = 0)
      : runs_(&runs), finish_after_(finish_after), order_(order), tag_(tag) {}
  bool execute(PhysicsObj& /*owner*/) override {
    ++*runs_;
    if (order_ != nullptr) order_->push_back(tag_);
    return ++count_ >= finish_after_;
  }

 private:
  int* runs_;
  int finish_after_;
  std::vector<int>* order_;
  int tag_;
  int count_ = 0;
};

bool near(const glm::vec3& a, const glm::vec3& b, float eps = 1e-4f) {
  return glm::length(a - b) < eps;
}

}  // namespace

// --- update_object ------------------------------------------------------------------

TEST_CASE("CPhysicsObj::update_object 0x00515D10 runs 0.2 s catch-up quanta, then the remainder", "[retail][sim]") {
  World w;
  Body b(w, 1);
  w.clock.set(core::Seconds{0.5});
  b.object.update_object();
  REQUIRE(b.parts->quanta.size() == 3);
  CHECK(b.parts->quanta[0] == Approx(0.2f));
  CHECK(b.parts->quanta[1] == Approx(0.2f));
  CHECK(b.parts->quanta[2] == Approx(0.1f));
  CHECK(b.object.last_update_time().count() == Approx(0.5));
  CHECK(w.context.physics_time.count() == Approx(0.5));
}

TEST_CASE("CPhysicsObj::update_object 0x00515D10 up to MAX_QUANTUM runs whole, even at or below 1/30 s (the binary)",
          "[retail][sim]") {
  // acclient.c 323080: `if elapsed <= MAX_QUANTUM goto LABEL_21` runs the
  // whole elapsed time; only a remainder left by the catch-up loop is held
  // when at or below MIN_QUANTUM. The seed holds any remainder at or below
  // 1/30 s (docs/deviations.md, "Seed prose versus the binary").
  World w;
  Body b(w, 1);
  SECTION("exactly MIN_QUANTUM runs") {
    w.clock.set(kMinQuantum);
    b.object.update_object();
    REQUIRE(b.parts->quanta.size() == 1);
    CHECK(b.parts->quanta[0] == Approx(1.0f / 30.0f));
    CHECK(b.object.last_update_time() == kMinQuantum);
  }
  SECTION("below MIN_QUANTUM but above 0.0002 s runs") {
    w.clock.set(core::Seconds{0.01});
    b.object.update_object();
    REQUIRE(b.parts->quanta.size() == 1);
    CHECK(b.parts->quanta[0] == Approx(0.01f));
  }
  SECTION("a clock stepping at exactly 30 Hz updates the object every step") {
    for (int i = 1; i <= 30; ++i) {
      w.clock.set(core::Seconds{i / 30.0});
      b.object.update_object();
    }
    CHECK(b.parts->quanta.size() == 30);
    CHECK(b.object.last_update_time().count() == Approx(1.0));
  }
  SECTION("after catch-up, a remainder of exactly MIN_QUANTUM waits") {
    w.clock.set(kMaxQuantum + kMinQuantum);
    b.object.update_object();
    REQUIRE(b.parts->quanta.size() == 1);
    CHECK(b.parts->quanta[0] == Approx(0.2f));
    CHECK(b.object.last_update_time().count() == Approx(0.2));
  }
  SECTION("after catch-up, a small remainder waits") {
    w.clock.set(core::Seconds{0.22});
    b.object.update_object();
    REQUIRE(b.parts->quanta.size() == 1);
    CHECK(b.parts->quanta[0] == Approx(0.2f));
    CHECK(b.object.last_update_time().count() == Approx(0.2));
    w.clock.set(core::Seconds{0.25});
    b.object.update_object();
    REQUIRE(b.parts->quanta.size() == 2);
    CHECK(b.parts->quanta[1] == Approx(0.05f));
  }
  SECTION("exactly MAX_QUANTUM runs whole") {
    w.clock.set(kMaxQuantum);
    b.object.update_object();
    REQUIRE(b.parts->quanta.size() == 1);
    CHECK(b.parts->quanta[0] == Approx(0.2f));
  }
  SECTION("a 2 s gap is still simulated") {
    w.clock.set(core::Seconds{2.0});
    b.object.update_object();
    CHECK(b.parts->quanta.size() == 10);
  }
}

TEST_CASE("CPhysicsObj::update_object 0x00515D10 the 0.0002 s and 2 s rules resynchronise", "[retail][sim]") {
  World w;
  Body b(w, 1);
  b.object.set_velocity({1.0f, 0.0f, 0.0f}, false);
  SECTION("at or below 0.0002 s") {
    w.clock.set(core::Seconds{0.0001});
    b.object.update_object();
    CHECK(b.parts->quanta.empty());
    CHECK(b.object.last_update_time().count() == 0.0001);
  }
  SECTION("over 2 s is discarded") {
    w.clock.set(core::Seconds{2.5});
    b.object.update_object();
    CHECK(b.parts->quanta.empty());
    CHECK(b.object.last_update_time().count() == 2.5);
    CHECK(b.object.position().frame.origin == glm::vec3(10.0f));
  }
}

TEST_CASE("CPhysicsObj::update_object 0x00515D10 parented, out of the world or Frozen: no tick, Active cleared",
          "[retail][sim]") {
  World w;
  SECTION("out of the world") {
    PhysicsObj loose(w.context, 1, LocalId{1});
    loose.set_active(true);
    w.clock.set(core::Seconds{0.1});
    loose.update_object();
    CHECK((loose.transient_state() & ts::Active) == 0);
  }
  SECTION("Frozen") {
    Body b(w, 1, {10, 10, 10}, ps::Frozen);
    REQUIRE((b.object.transient_state() & ts::Active) != 0);
    w.clock.set(core::Seconds{0.1});
    b.object.update_object();
    CHECK((b.object.transient_state() & ts::Active) == 0);
    CHECK(b.parts->quanta.empty());
    CHECK(w.effects.particle_updates == 0);
  }
}

TEST_CASE(
    "CPhysicsObj::update_object 0x00515D10 objects beyond 96 m of the player go inactive "
    "(CPhysicsObj::UpdateObjectInternal 0x005156B0)",
    "[retail][sim]") {
  World w;
  Body player(w, 1, {10, 10, 10});
  Body far(w, 2, {10, 150, 10});
  Body close(w, 3, {10, 50, 10});
  w.context.player = &player.object;
  w.clock.set(core::Seconds{0.1});
  far.object.update_object();
  close.object.update_object();
  CHECK(far.object.player_distance() == Approx(140.0f));
  CHECK((far.object.transient_state() & ts::Active) == 0);
  CHECK(far.parts->quanta.empty());  // no physics, no animation
  CHECK((close.object.transient_state() & ts::Active) != 0);
  CHECK(close.parts->quanta.size() == 1);
  // The inactive object still updated its particles and scripts.
  CHECK(w.effects.particle_updates == 2);
  CHECK(w.effects.script_updates == 2);
}

// --- UpdateObjectInternal ---------------------------------------------------------------

TEST_CASE("CPhysicsObj::UpdateObjectInternal 0x005156B0 particles, then scripts, active or not", "[retail][sim]") {
  World w;
  Body b(w, 5);
  b.object.set_active(false);
  w.log.clear();
  b.object.update_object_internal(FloatSeconds{0.1f});
  CHECK(w.log == EventLog{"particles:5", "scripts:5"});
  b.object.set_active(true);
  w.log.clear();
  b.object.update_object_internal(FloatSeconds{0.1f});
  REQUIRE(w.log.size() >= 3);
  CHECK(w.log.front() == "part_update");
  CHECK(w.log[w.log.size() - 2] == "particles:5");
  CHECK(w.log.back() == "scripts:5");
}

TEST_CASE("CPhysicsObj::UpdateObjectInternal 0x005156B0 an active object with no cell returns before particles",
          "[retail][sim]") {
  World w;
  PhysicsObj loose(w.context, 1, LocalId{1});
  REQUIRE(loose.set_active(true));
  loose.update_object_internal(FloatSeconds{0.1f});
  CHECK(w.effects.particle_updates == 0);
  CHECK(w.effects.script_updates == 0);
}

TEST_CASE(
    "CPhysicsObj::UpdateObjectInternal 0x005156B0 without physics spheres keeps the origin and takes the rotation",
    "[retail][sim]") {
  // acclient.c 322718: with no spheres the candidate's origin is replaced by
  // the committed one before set_frame; the seeds say the whole frame.
  World w;
  Body b(w, 1);
  REQUIRE(b.parts->num_spheres() == 0);
  b.object.set_velocity({1.0f, 0.0f, 0.0f}, false);
  b.object.set_omega({0.0f, 0.0f, 1.0f}, false);
  const glm::quat before = b.object.position().frame.orientation();
  b.object.update_object_internal(FloatSeconds{0.1f});
  CHECK(near(b.object.position().frame.origin, {10.0f, 10.0f, 10.0f}));  // did not move
  CHECK(b.object.position().frame.orientation() != before);              // but turned
  CHECK(b.object.cached_velocity() == glm::vec3(0.0f));

  SECTION("with no part array at all (no DAT data, docs/deviations.md N1) the whole frame is committed") {
    PhysicsObj bare(w.context, 2, LocalId{2});
    bare.enter_world(Position{kCell, core::Frame({10.0f, 10.0f, 10.0f}, glm::quat(1, 0, 0, 0))});
    bare.set_active(true);
    bare.set_velocity({1.0f, 0.0f, 0.0f}, false);
    bare.update_object_internal(FloatSeconds{0.1f});
    CHECK(bare.position().frame.origin.x == Approx(10.1f));  // moved (and fell a little: default Gravity)
  }
}

TEST_CASE(
    "CPhysicsObj::UpdateObjectInternal 0x005156B0 AlignPath heads along the full 3D movement vector "
    "(Frame::set_vector_heading 0x00535DB0)",
    "[retail][sim]") {
  World w;
  Body b(w, 1, {10, 10, 10}, ps::AlignPath);
  b.parts->sphere_count = 1;
  b.object.set_velocity({0.0f, 3.0f, 4.0f}, false);
  b.object.update_object_internal(FloatSeconds{0.1f});
  const glm::vec3 forward = b.object.position().frame.forward();
  CHECK(near(forward, {0.0f, 0.6f, 0.8f}, 1e-3f));  // pitched up, not yaw-only
  CHECK(near(b.object.cached_velocity(), {0.0f, 3.0f, 4.0f}, 1e-3f));

  SECTION("Sledding without AlignPath heads along the velocity's compass heading") {
    Body sled(w, 2, {10, 10, 10}, ps::Sledding);
    sled.parts->sphere_count = 1;
    sled.object.set_velocity({2.0f, 0.0f, 0.0f}, false);
    sled.object.update_object_internal(FloatSeconds{0.1f});
    CHECK(sled.object.get_heading() == Approx(90.0f).margin(0.01));
  }
  SECTION("no movement: the orientation and origin stay, cached velocity zero") {
    Body still(w, 3, {10, 10, 10}, ps::AlignPath);
    still.parts->sphere_count = 1;
    still.object.update_object_internal(FloatSeconds{0.1f});
    CHECK(near(still.object.position().frame.forward(), {0.0f, 1.0f, 0.0f}));
    CHECK(still.object.cached_velocity() == glm::vec3(0.0f));
  }
}

// --- UpdatePositionInternal -------------------------------------------------------------

TEST_CASE("CPhysicsObj::UpdatePositionInternal 0x00512C30 Hidden skips animation and physics, not offsets or hooks",
          "[retail][sim]") {
  World w;
  Body b(w, 1, {10, 10, 10}, ps::Hidden);
  auto manager = std::make_unique<FakePositionManager>(b.object);
  manager->offset_per_quantum = {1.0f, 0.0f, 0.0f};
  FakePositionManager* pm = manager.get();
  b.object.set_position_manager(std::move(manager));
  b.object.set_velocity({0.0f, 0.0f, 5.0f}, false);
  int runs = 0;
  b.object.add_hook_at_head(std::make_unique<CountingHook>(runs, 100));
  core::Frame out;
  b.object.update_position_internal(FloatSeconds{0.1f}, out);
  CHECK(b.parts->quanta.empty());                  // no animation
  CHECK(pm->adjusts == 1);                         // PositionManager offset applied
  CHECK(near(out.origin, {11.0f, 10.0f, 10.0f}));  // ... and no velocity integration
  CHECK(b.object.velocity() == glm::vec3(0, 0, 5));
  CHECK(runs == 1);  // timed hooks still run

  SECTION("visible: animation and physics run too") {
    b.object.set_state(0, false);
    b.object.update_position_internal(FloatSeconds{0.1f}, out);
    CHECK(b.parts->quanta.size() == 1);
    CHECK(near(out.origin, {11.0f, 10.0f, 10.5f}));
    CHECK(runs == 2);
  }
}

TEST_CASE("CPhysicsObj::UpdatePositionInternal 0x00512C30 root motion is scaled on walkable ground, zero off it",
          "[retail][sim]") {
  World w;
  Body b(w, 1);
  protocol::PhysicsDesc desc;
  desc.state = 0;
  desc.object_scale = 2.0f;
  REQUIRE(b.object.set_description(desc, false));
  b.parts->root_motion = {0.0f, 1.0f, 0.0f};
  core::Frame out;
  b.object.update_position_internal(FloatSeconds{0.1f}, out);
  CHECK(near(out.origin, {10.0f, 10.0f, 10.0f}));  // airborne: no root motion
  b.object.set_transient_state(ts::OnWalkable | ts::Active);
  b.object.update_position_internal(FloatSeconds{0.1f}, out);
  CHECK(near(out.origin, {10.0f, 12.0f, 10.0f}));
}

TEST_CASE(
    "CPhysicsObj::UpdateObjectInternal 0x005156B0 an object without parts commits UpdatePositionInternal and "
    "UpdatePhysicsInternal's frame bit for bit",
    "[retail][sim]") {
  // An object with no part array, position manager or hooks has its frame
  // built in place. The same object stepped by the retail order on a copy
  // (combine with the identity offset, then UpdatePhysicsInternal: velocity,
  // origin, grotate) must give the same bits, tick after tick: in the air,
  // under gravity, and on walkable ground with friction and a scale.
  World w;
  const auto bits_equal = [](const auto& a, const auto& b) { return std::memcmp(&a, &b, sizeof(a)) == 0; };
  for (int variant = 0; variant < 3; ++variant) {
    INFO("variant " << variant);
    const auto guid = static_cast<std::uint32_t>(20 + 2 * variant);
    PhysicsObj moving(w.context, guid, LocalId{guid});
    PhysicsObj reference(w.context, guid + 1, LocalId{guid + 1});
    for (PhysicsObj* o : {&moving, &reference}) {
      o->set_state(variant == 1 ? ps::Gravity : 0u, false);
      if (variant == 2) o->set_scale_static(1.5f);
      REQUIRE(o->enter_world(Position{kCell, core::Frame({10.5f, 12.0f, 0.0f}, glm::quat(0.9f, 0.0f, -0.0f, 0.43f))}));
      o->set_velocity({1.5f, -0.25f, variant == 2 ? 0.0f : 0.75f}, false);
      o->set_omega(variant == 0 ? glm::vec3(0.0f, 0.0f, 0.5f) : glm::vec3(0.3f, -0.2f, 0.9f), false);
      o->set_contact_plane(Plane{{0.0f, 0.0f, 1.0f}, 0.0f});
      o->set_transient_state(variant == 2 ? (ts::Contact | ts::OnWalkable | ts::Active) : ts::Active);
      o->calc_acceleration();
    }
    core::Frame expected = reference.position().frame;
    for (int tick = 0; tick < 300; ++tick) {
      const FloatSeconds quantum{tick % 3 == 0 ? 1.0f / 30.0f : 0.0333f + static_cast<float>(tick) * 1e-5f};
      // On walkable ground with no movement manager the tick deactivates the
      // object (UpdateObjectInternal's own rule); it is woken each tick here.
      moving.set_transient_state(moving.transient_state() | ts::Active);
      moving.update_object_internal(quantum);
      core::Frame offset;
      offset.origin *= variant == 2 ? 1.5f : 0.0f;  // the root motion's scale: the object's on walkable ground
      core::Frame candidate = core::Frame::combine(expected, offset);
      reference.update_physics_internal(quantum, candidate);
      expected = candidate;
      INFO("tick " << tick);
      REQUIRE(bits_equal(moving.position().frame.origin, expected.origin));
      REQUIRE(bits_equal(moving.position().frame.orientation(), expected.orientation()));
      REQUIRE(bits_equal(moving.position().frame.matrix(), expected.matrix()));
      REQUIRE(bits_equal(moving.velocity(), reference.velocity()));
    }
    // The frame moved, and turned where omega survived calc_acceleration
    // (on walkable ground it is cleared).
    CHECK_FALSE(near(moving.position().frame.origin, {10.5f, 12.0f, 0.0f}, 0.1f));
    if (variant != 2) CHECK(moving.position().frame.orientation() != glm::quat(0.9f, 0.0f, -0.0f, 0.43f));
  }
}

// --- UpdatePhysicsInternal ----------------------------------------------------------------

TEST_CASE("CPhysicsObj::UpdatePhysicsInternal 0x00510700 integrates position, then velocity", "[retail][sim]") {
  World w;
  Body b(w, 1, {0, 0, 0}, ps::Gravity);
  b.object.calc_acceleration();
  b.object.set_velocity({1.0f, 2.0f, 0.0f}, false);
  core::Frame frame;
  b.object.update_physics_internal(FloatSeconds{0.1f}, frame);
  CHECK(near(frame.origin, {0.1f, 0.2f, -0.049f}));
  CHECK(near(b.object.velocity(), {1.0f, 2.0f, -0.98f}));
}

TEST_CASE(
    "CPhysicsObj::UpdatePhysicsInternal 0x00510700 the 50 m/s clamp catches a speed gravity built up "
    "(CPhysicsObj::calc_acceleration 0x00510950)",
    "[retail][sim]") {
  // set_velocity clamps its argument, so only acceleration can carry the
  // speed past 50 m/s; the next update clamps before it moves the frame.
  World w;
  Body b(w, 1, {0, 0, 0}, ps::Gravity);
  b.object.set_velocity({0.0f, 0.0f, -49.5f}, false);
  b.object.calc_acceleration();
  REQUIRE(b.object.acceleration().z == Approx(-9.8f));
  core::Frame first;
  b.object.update_physics_internal(FloatSeconds{0.2f}, first);
  CHECK(b.object.velocity().z == Approx(-51.46f));  // past the limit: the clamp comes before the acceleration
  core::Frame second;
  b.object.update_physics_internal(FloatSeconds{0.1f}, second);
  // Clamped to 50 first: -50 * 0.1 - 0.5 * 9.8 * 0.01 (unclamped it would be -5.195).
  CHECK(second.origin.z == Approx(-5.049f));
  CHECK(b.object.velocity().z == Approx(-50.98f));
}

TEST_CASE(
    "CPhysicsObj::UpdatePhysicsInternal 0x00510700 the near-stop test uses the speed before friction "
    "(CPhysicsObj::calc_friction 0x0050EE70)",
    "[retail][sim]") {
  World w;
  Body b(w, 1, {0, 0, 0}, 0);
  b.object.set_contact_plane(Plane{{0.0f, 0.0f, 1.0f}, 0.0f});
  b.object.set_transient_state(ts::Contact | ts::OnWalkable | ts::Active);
  SECTION("0.26 m/s: friction slows it below 0.25 m/s but it keeps moving") {
    b.object.set_velocity({0.26f, 0.0f, 0.0f}, false);
    core::Frame frame;
    b.object.update_physics_internal(FloatSeconds{0.2f}, frame);
    const float expected = 0.26f * static_cast<float>(std::pow(1.0 - 0.95, 0.2));
    CHECK(expected < 0.25f);
    CHECK(b.object.velocity().x == Approx(expected));
    CHECK(frame.origin.x == Approx(expected * 0.2f));
  }
  SECTION("just above 0.25 m/s before friction, within EPSILON: stopped") {
    b.object.set_velocity({0.2503f, 0.0f, 0.0f}, false);
    core::Frame frame;
    b.object.update_physics_internal(FloatSeconds{0.2f}, frame);
    CHECK(b.object.velocity() == glm::vec3(0.0f));
    CHECK(frame.origin == glm::vec3(0.0f));
  }
  SECTION("the stop applies in the air too (no friction there)") {
    b.object.set_transient_state(ts::Active);
    b.object.set_velocity({0.0f, 0.25f, 0.0f}, false);
    core::Frame frame;
    b.object.update_physics_internal(FloatSeconds{0.2f}, frame);
    CHECK(b.object.velocity() == glm::vec3(0.0f));
  }
}

TEST_CASE(
    "CPhysicsObj::calc_friction 0x0050EE70 sledding thresholds on the pre-friction speed "
    "(CPhysicsObj::UpdatePhysicsInternal 0x00510700)",
    "[retail][sim]") {
  World w;
  Body b(w, 1, {0, 0, 0}, ps::Sledding);
  protocol::PhysicsDesc desc;
  desc.state = ps::Sledding;
  desc.friction = 0.5f;
  REQUIRE(b.object.set_description(desc, false));
  b.object.set_transient_state(ts::Contact | ts::OnWalkable | ts::Active);
  const float slope = 0.5235988f;  // 30 degrees: steeper than 10
  b.object.set_contact_plane(Plane{{0.0f, std::sin(slope), std::cos(slope)}, 0.0f});
  SECTION("below 1.25 m/s the coefficient is 1: stopped") {
    b.object.set_velocity({1.2f, 0.0f, 0.0f}, false);
    b.object.calc_friction(FloatSeconds{0.1f}, 1.44f);
    CHECK(b.object.velocity() == glm::vec3(0.0f));
  }
  SECTION("below 2.5 m/s the object's friction") {
    b.object.set_velocity({2.0f, 0.0f, 0.0f}, false);
    b.object.calc_friction(FloatSeconds{0.1f}, 4.0f);
    CHECK(b.object.velocity().x == Approx(2.0f * std::pow(0.5f, 0.1f)));
  }
  SECTION("faster on a steep slope: 0.2") {
    b.object.set_velocity({3.0f, 0.0f, 0.0f}, false);
    b.object.calc_friction(FloatSeconds{0.1f}, 9.0f);
    CHECK(b.object.velocity().x == Approx(3.0f * std::pow(0.8f, 0.1f)));
  }
  SECTION("moving away from the plane: no friction") {
    b.object.set_contact_plane(Plane{{0.0f, 0.0f, 1.0f}, 0.0f});
    b.object.set_velocity({3.0f, 0.0f, 1.0f}, false);
    b.object.calc_friction(FloatSeconds{0.1f}, 10.0f);
    CHECK(b.object.velocity() == glm::vec3(3.0f, 0.0f, 1.0f));
  }
}

TEST_CASE("CPhysicsObj::UpdatePhysicsInternal 0x00510700 omega turns the frame about world axes", "[retail][sim]") {
  World w;
  Body b(w, 1, {0, 0, 0}, 0);
  b.object.set_omega({0.0f, 0.0f, 1.0f}, false);
  // A frame pitched 90 degrees about X: local Z is world -Y.
  const glm::quat pitched(std::cos(0.7853982f), std::sin(0.7853982f), 0.0f, 0.0f);
  core::Frame frame(glm::vec3(0.0f), pitched);
  core::Frame global = frame;
  global.grotate({0.0f, 0.0f, 0.5f});
  core::Frame local = frame;
  local.rotate({0.0f, 0.0f, 0.5f});
  REQUIRE_FALSE(near(global.forward(), local.forward(), 1e-3f));
  b.object.update_physics_internal(FloatSeconds{0.5f}, frame);
  CHECK(near(frame.forward(), global.forward()));
  CHECK(near(frame.up(), global.up()));
}

// --- calc_acceleration --------------------------------------------------------------------

TEST_CASE("CPhysicsObj::calc_acceleration 0x00510950 every branch (Sledding test at 0x00510961)", "[retail][sim]") {
  World w;
  PhysicsObj o(w.context, 1, LocalId{1});
  o.set_omega({0.0f, 0.0f, 2.0f}, false);
  SECTION("Contact and OnWalkable without Sledding: no acceleration and no omega") {
    o.set_state(ps::Gravity, false);
    o.set_transient_state(ts::Contact | ts::OnWalkable);
    o.calc_acceleration();
    CHECK(o.acceleration() == glm::vec3(0.0f));
    CHECK(o.omega() == glm::vec3(0.0f));
  }
  SECTION("Sledding 0x00800000 on walkable contact keeps gravity and omega") {
    o.set_state(ps::Gravity | ps::Sledding, false);
    o.set_transient_state(ts::Contact | ts::OnWalkable);
    o.calc_acceleration();
    CHECK(o.acceleration() == glm::vec3(0.0f, 0.0f, -9.8f));
    CHECK(o.omega() == glm::vec3(0.0f, 0.0f, 2.0f));
  }
  SECTION("Gravity clear: no acceleration, omega kept") {
    o.set_state(0, false);
    o.calc_acceleration();
    CHECK(o.acceleration() == glm::vec3(0.0f));
    CHECK(o.omega() == glm::vec3(0.0f, 0.0f, 2.0f));
  }
  SECTION("Gravity, contact but not walkable: gravity") {
    o.set_state(ps::Gravity, false);
    o.set_transient_state(ts::Contact);
    o.calc_acceleration();
    CHECK(o.acceleration() == glm::vec3(0.0f, 0.0f, -9.8f));
  }
}

// --- get_object_info ------------------------------------------------------------------------

TEST_CASE("CPhysicsObj::get_object_info 0x00511CC0 missiles add PathClipped 0x8, never PerfectClip", "[retail][sim]") {
  World w;
  PhysicsObj o(w.context, 1, LocalId{1});
  o.set_state(ps::Missile, false);
  std::uint32_t info = o.get_object_info(false);
  CHECK((info & object_info_state::PathClipped) != 0);
  CHECK((info & object_info_state::PerfectClip) == 0);
  CHECK(info == object_info_state::PathClipped);

  o.set_state(ps::Missile | ps::EdgeSlide, false);
  info = o.get_object_info(false);
  CHECK(info == (object_info_state::PathClipped | object_info_state::EdgeSlide));

  o.set_state(0, false);
  CHECK(o.get_object_info(false) == 0u);

  SECTION("contact and walkable, unless moving off the plane or an admin move") {
    o.set_contact_plane(Plane{{0.0f, 0.0f, 1.0f}, 0.0f});
    o.set_transient_state(ts::Contact | ts::OnWalkable);
    CHECK(o.get_object_info(false) == (object_info_state::Contact | object_info_state::OnWalkable));
    CHECK(o.get_object_info(true) == 0u);
    o.set_velocity({0.0f, 0.0f, 1.0f}, false);
    CHECK(o.get_object_info(false) == 0u);
  }
  SECTION("a free-heading Setup adds FreeRotate") {
    auto parts = std::make_unique<FakePartArray>(w.log);
    parts->free_heading = true;
    o.set_part_array(std::move(parts));
    CHECK(o.get_object_info(false) == object_info_state::FreeRotate);
  }
}

// --- process_hooks ---------------------------------------------------------------------------

TEST_CASE("CPhysicsObj::process_hooks 0x00511550 runs timed hooks head first, removing finished ones",
          "[retail][sim]") {
  World w;
  PhysicsObj o(w.context, 1, LocalId{1});
  int runs_a = 0;
  int runs_b = 0;
  std::vector<int> order;
  o.add_hook_at_head(std::make_unique<CountingHook>(runs_a, 1, &order, 1));  // finishes at once
  o.add_hook_at_head(std::make_unique<CountingHook>(runs_b, 2, &order, 2));  // newest, runs first
  o.process_hooks();
  CHECK(order == std::vector<int>{2, 1});
  CHECK(o.hook_count() == 1);
  o.process_hooks();
  CHECK(runs_a == 1);
  CHECK(runs_b == 2);
  CHECK(o.hook_count() == 0);
}

// --- CPhysics::UseTime -------------------------------------------------------------------------

TEST_CASE("CPhysics::UseTime 0x00509950 ticks every object at most every 1/30 s", "[retail][sim]") {
  World w;
  w.start();
  w.handle(create(0x70000001, 1));
  w.handle(create(0x70000002, 1));
  Physics& physics = w.box.physics();
  w.clock.set(core::Seconds{0.02});
  CHECK_FALSE(physics.use_time());
  CHECK(w.effects.particle_updates == 0);
  w.clock.set(core::Seconds{0.04});
  CHECK(physics.use_time());
  CHECK(physics.tick_count() == 1);
  CHECK(w.parts(0x70000001).quanta.size() == 1);
  CHECK(w.parts(0x70000002).quanta.size() == 1);
  w.clock.set(core::Seconds{0.06});
  CHECK_FALSE(physics.use_time());  // only 0.02 s since the last tick
  CHECK(w.parts(0x70000001).quanta.size() == 1);
  w.clock.set(core::Seconds{0.01});
  CHECK_FALSE(physics.use_time());  // the clock went back: resync only
  CHECK(physics.last_update().count() == 0.01);
  w.clock.set(core::Seconds{0.1});
  CHECK(physics.use_time());
  CHECK(physics.tick_count() == 2);
  // Objects tick in local-id order.
  const auto& objects = w.box.objects().objects();
  REQUIRE(objects.size() == 2);
  CHECK(objects[0]->local_id() < objects[1]->local_id());
}

TEST_CASE(
    "CPhysicsObj::set_frame 0x00514090 its IsValidExceptForHeading fix-up has nothing to fix: no frame holds a NaN "
    "heading",
    "[sim]") {
  // Retail zeroes the quaternion of a frame whose origin is sound and whose
  // quaternion has a NaN (Frame::IsValid false, IsValidExceptForHeading
  // true). core::Frame never holds one: every writer of its orientation goes
  // through Frame::set_rotate, which keeps the old orientation when the new
  // one is not valid (as retail's set_rotate does), so the branch is kept out
  // (docs/deviations.md).
  World w;
  Body b(w, 1);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const core::Frame bad(glm::vec3(12.0f, 13.0f, 14.0f), glm::quat(nan, 0.0f, 0.0f, 1.0f));
  CHECK(bad.orientation() == glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  core::Frame turned = b.object.position().frame;
  turned.grotate(glm::vec3(0.0f, 0.0f, nan));
  CHECK(turned.orientation() == b.object.position().frame.orientation());
  b.object.set_frame(bad);
  CHECK(b.object.position().frame.origin == glm::vec3(12.0f, 13.0f, 14.0f));
  CHECK(b.object.position().frame.orientation() == glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  CHECK(b.parts->set_frames > 0);
}

TEST_CASE(
    "Without collision cells (N3) a held item's cell follows its holder, as SetPositionInternal 0x00515330 carries "
    "the children's",
    "[retail][sim]") {
  World w;
  Body holder(w, 1, {190.0f, 10.0f, 10.0f});
  holder.parts->sphere_list = {dat::Sphere{glm::vec3(0.0f, 0.0f, 0.5f), 0.5f}};
  holder.parts->sphere_count = 1;
  holder.parts->holding[1] = HoldingLocation{0, core::Frame(glm::vec3(0.3f, 0.0f, 1.0f), glm::quat(1, 0, 0, 0))};
  Body item(w, 2);
  REQUIRE(item.object.set_parent(holder.object, 1));
  const auto drawn_in_hand = [&] {
    const glm::vec3 hand = global_frame(holder.object.position()).origin + glm::vec3(0.3f, 0.0f, 1.0f);
    CHECK(near(global_frame(item.object.position()).origin, hand, 1e-3f));
  };
  SECTION("walking over the east seam") {
    holder.object.set_velocity(glm::vec3(6.0f, 0.0f, 0.0f), false);
    holder.object.update_object_internal(FloatSeconds(0.5f));  // 190 -> 193
    REQUIRE(holder.object.position().objcell_id == 0xAAB40001u);
    CHECK(item.object.position().objcell_id == 0xAAB40001u);
    drawn_in_hand();
  }
  SECTION("teleported to another landblock") {
    REQUIRE(holder.object.move_or_teleport(Position{0xA8B30008, core::Frame(glm::vec3(5.0f, 170.0f, 20.0f), {})}, 1,
                                           false, glm::vec3(0.0f)));
    REQUIRE(holder.object.position().objcell_id == 0xA8B30008u);
    CHECK(item.object.position().objcell_id == 0xA8B30008u);
    drawn_in_hand();
  }
}
