// Seed retail-projectile-vfx sections 2 and 3: the constructor, InitDefaults,
// set_description, set_state and set_hidden.
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>

#include "dereth/sim/object/physics_obj.hpp"

#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace ps = protocol::physics_state;
using TI = protocol::TimestampIndex;

namespace {

constexpr std::uint32_t kTable = 0x3400002B;
constexpr std::uint32_t kOtherTable = 0x34000005;

FakePartArray& attach_parts(PhysicsObj& object, EventLog& log) {
  auto parts = std::make_unique<FakePartArray>(log);
  FakePartArray& ref = *parts;
  object.set_part_array(std::move(parts));
  return ref;
}

std::size_t count(const EventLog& log, const std::string& event) {
  return static_cast<std::size_t>(std::count(log.begin(), log.end(), event));
}

}  // namespace

TEST_CASE("CPhysicsObj::CPhysicsObj 0x005123F0 starts at 0x00400C08 without Hidden (0x00512508)", "[retail][sim]") {
  World w;
  PhysicsObj object(w.context, 0x50000042, LocalId{7});
  CHECK(object.state() == 0x00400C08u);
  CHECK(object.state() == (ps::EdgeSlide | ps::Lighting | ps::Gravity | ps::ReportCollisions));
  CHECK((object.state() & ps::Hidden) == 0);
  CHECK(object.transient_state() == 0u);
  CHECK(object.velocity() == glm::vec3(0.0f));
  CHECK(object.acceleration() == glm::vec3(0.0f));
  CHECK(object.omega() == glm::vec3(0.0f));
  CHECK(object.friction() == Approx(0.95f));
  CHECK(object.elasticity() == Approx(0.05f));
  CHECK(object.translucency() == 0.0f);
  CHECK(object.scale() == 1.0f);
  CHECK(object.physics_script_table_id() == 0u);
  CHECK(object.player_distance() == std::numeric_limits<float>::max());
  CHECK_FALSE(object.in_cell());
  for (std::uint16_t stamp : object.update_times()) CHECK(stamp == 0);
  CHECK(object.local_id() == LocalId{7});
  CHECK(object.id() == 0x50000042u);
}

TEST_CASE("CPhysicsObj::InitDefaults 0x005139D0 plays the Setup's direct script and installs its tables",
          "[retail][sim]") {
  World w;
  w.context.set_effects(&w.effects);
  PhysicsObj object(w.context, 1, LocalId{1});
  SetupDefaults setup;
  setup.default_script_id = 0x33000D77;
  setup.default_motion_table_id = 0x09000001;
  setup.default_sound_table_id = 0x20000012;
  setup.default_script_table_id = kTable;
  object.init_defaults(setup);
  // The default script is a direct DID: no table resolution.
  REQUIRE(w.effects.plays.size() == 1);
  CHECK(w.effects.plays[0].script == 0x33000D77u);
  CHECK(w.effects.resolves.empty());
  CHECK(object.motion_table_id() == 0x09000001u);
  CHECK(object.sound_table_id() == 0x20000012u);
  CHECK(object.physics_script_table_id() == kTable);
  // Not static: no HasDefault* bits, not registered for static animation.
  CHECK((object.state() & (ps::HasDefaultAnim | ps::HasDefaultScript)) == 0);
  CHECK(w.context.static_animating_objects.empty());
}

TEST_CASE("CPhysicsObj::InitDefaults 0x005139D0 zero Setup fields leave the current values", "[retail][sim]") {
  World w;
  PhysicsObj object(w.context, 1, LocalId{1});
  protocol::PhysicsDesc desc;
  desc.state = kInitialState;
  desc.physics_script_table_id = kOtherTable;
  desc.sound_table_id = 0x20000001;
  REQUIRE(object.set_description(desc, true));
  object.init_defaults(SetupDefaults{});
  CHECK(object.physics_script_table_id() == kOtherTable);
  CHECK(object.sound_table_id() == 0x20000001u);
  CHECK(w.effects.plays.empty());
}

TEST_CASE("CPhysicsObj::InitDefaults 0x005139D0 static objects get HasDefaultAnim/Script and animate statically",
          "[retail][sim]") {
  World w;
  PhysicsObj object(w.context, 1, LocalId{1});
  object.set_state(ps::Static, false);
  SetupDefaults setup;
  setup.default_anim_id = 0x03000001;
  setup.default_script_id = 0x33000001;
  object.init_defaults(setup);
  CHECK((object.state() & ps::HasDefaultAnim) != 0);
  CHECK((object.state() & ps::HasDefaultScript) != 0);
  REQUIRE(w.context.static_animating_objects.size() == 1);
  CHECK(w.context.static_animating_objects[0] == &object);

  PhysicsObj only_anim(w.context, 2, LocalId{2});
  only_anim.set_state(ps::Static, false);
  SetupDefaults anim_only;
  anim_only.default_anim_id = 0x03000001;
  only_anim.init_defaults(anim_only);
  CHECK((only_anim.state() & ps::HasDefaultAnim) != 0);
  CHECK((only_anim.state() & ps::HasDefaultScript) == 0);
  CHECK(w.context.static_animating_objects.size() == 2);
}

TEST_CASE("CPhysicsObj::set_description 0x00514F40 the network PeTable overrides the Setup table even when absent",
          "[retail][sim]") {
  World w;
  w.effects.add_entry(kTable, script_type::Hidden, 1.0f, 0x33000331);
  w.effects.add_entry(kOtherTable, script_type::Hidden, 1.0f, 0x330002F3);

  SECTION("absent: no table at all afterwards") {
    PhysicsObj object(w.context, 1, LocalId{1});
    SetupDefaults setup;
    setup.default_script_table_id = kTable;
    object.init_defaults(setup);
    REQUIRE(object.physics_script_table_id() == kTable);
    protocol::PhysicsDesc desc;
    desc.state = kInitialState;
    REQUIRE(object.set_description(desc, true));
    CHECK(object.physics_script_table_id() == 0u);
    object.set_hidden(true, false);
    CHECK(w.effects.resolves.empty());  // no fallback to the Setup table
    CHECK(w.effects.plays.empty());
  }
  SECTION("present: the network table") {
    PhysicsObj object(w.context, 1, LocalId{1});
    SetupDefaults setup;
    setup.default_script_table_id = kTable;
    object.init_defaults(setup);
    protocol::PhysicsDesc desc;
    desc.state = kInitialState;
    desc.physics_script_table_id = kOtherTable;
    REQUIRE(object.set_description(desc, true));
    CHECK(object.physics_script_table_id() == kOtherTable);
    object.set_hidden(true, false);
    REQUIRE(w.effects.plays.size() == 1);
    CHECK(w.effects.plays[0].script == 0x330002F3u);
  }
}

TEST_CASE("CPhysicsObj::set_description 0x00514F40 unpacks the acceleration but does not install it", "[retail][sim]") {
  World w;
  PhysicsObj object(w.context, 1, LocalId{1});
  protocol::PhysicsDesc desc;
  desc.state = 0;  // Gravity clear
  desc.acceleration = protocol::Vec3{1.0f, 2.0f, 3.0f};
  desc.velocity = protocol::Vec3{4.0f, 5.0f, 6.0f};
  desc.omega = protocol::Vec3{0.0f, 0.0f, 1.5f};
  REQUIRE(object.set_description(desc, true));
  CHECK(object.acceleration() == glm::vec3(0.0f));
  CHECK(object.velocity() == glm::vec3(4.0f, 5.0f, 6.0f));
  CHECK(object.omega() == glm::vec3(0.0f, 0.0f, 1.5f));
  // A velocity makes a non-static object active.
  CHECK((object.transient_state() & transient_state::Active) != 0);
}

TEST_CASE("CPhysicsObj::set_description 0x00514F40 copies all nine stamps and the scalar fields", "[retail][sim]") {
  World w;
  PhysicsObj object(w.context, 1, LocalId{1});
  protocol::PhysicsDesc desc;
  desc.state = kInitialState;
  for (std::size_t i = 0; i < protocol::kTimestampCount; ++i) {
    desc.timestamps[i] = static_cast<std::uint16_t>(0x1000 + i * 0x1111);
  }
  desc.object_scale = 2.5f;
  desc.friction = 0.5f;
  desc.elasticity = 0.5f;  // above the 0.1 maximum
  desc.translucency = 0.25f;
  desc.default_script_type = 0x58;
  desc.default_script_intensity = 0.75f;
  desc.sound_table_id = 0x20000007;
  auto& parts = attach_parts(object, w.log);
  REQUIRE(object.set_description(desc, true));
  for (std::size_t i = 0; i < protocol::kTimestampCount; ++i) {
    CHECK(object.update_times()[i] == desc.timestamps[i]);
  }
  CHECK(object.scale() == 2.5f);
  CHECK(parts.scale == glm::vec3(2.5f));
  CHECK(object.friction() == 0.5f);
  CHECK(object.elasticity() == Approx(0.1f));
  CHECK(object.translucency() == 0.25f);
  CHECK(parts.translucency == 0.25f);
  CHECK(object.default_script_type() == 0x58u);
  CHECK(object.default_script_intensity() == 0.75f);
  CHECK(object.sound_table_id() == 0x20000007u);

  SECTION("friction outside [0, 1] keeps the old value, negative elasticity becomes 0") {
    protocol::PhysicsDesc bad = desc;
    bad.friction = 1.5f;
    bad.elasticity = -1.0f;
    bad.translucency = 0.0f;  // zero is stored as the original only
    REQUIRE(object.set_description(bad, true));
    CHECK(object.friction() == 0.5f);
    CHECK(object.elasticity() == 0.0f);
    CHECK(object.translucency() == 0.25f);
    CHECK(object.translucency_original() == 0.0f);
  }
}

TEST_CASE("CPhysicsObj::set_description 0x00514F40 movement buffer or placement frame", "[retail][sim]") {
  World w;
  PhysicsObj object(w.context, 9, LocalId{1});
  auto& parts = attach_parts(object, w.log);
  SECTION("no movement: the AnimationFrame placement") {
    protocol::PhysicsDesc desc;
    desc.state = kInitialState;
    desc.animation_frame = 0x65;
    REQUIRE(object.set_description(desc, true));
    REQUIRE_FALSE(parts.placements.empty());
    CHECK(parts.placements.back() == 0x65u);
  }
  SECTION("movement: unpacked through the movement manager, no placement") {
    protocol::MovementData data;
    data.current_style = 0x3D;
    data.payload = protocol::InterpretedMovement{};
    protocol::PhysicsDesc desc;
    desc.state = kInitialState;
    desc.motion_table_id = 0x09000001;
    desc.movement = protocol::MovementBuffer{protocol::encode_movement_buffer(data), 1u};
    REQUIRE(object.set_description(desc, true));
    CHECK(parts.placements.empty());
    CHECK(object.last_move_was_autonomous());
    REQUIRE(w.factory.movement_managers.count(9) == 1);
    const auto& unpacked = w.factory.movement_managers.at(9)->unpacked;
    REQUIRE(unpacked.size() == 1);
    CHECK(unpacked[0].first == 0x3D);
    CHECK(unpacked[0].second);
  }
  SECTION("a part array that refuses the motion table refuses the description") {
    parts.accept_motion_table = false;
    protocol::PhysicsDesc desc;
    desc.state = 0;
    desc.velocity = protocol::Vec3{1, 0, 0};
    CHECK_FALSE(object.set_description(desc, true));
    CHECK(object.state() == kInitialState);
    CHECK(object.velocity() == glm::vec3(0.0f));
  }
}

TEST_CASE(
    "CPhysicsObj::set_description 0x00514F40 a Hidden state plays PS_Hidden through the new table "
    "(CPhysicsObj::set_hidden 0x00514C60)",
    "[retail][sim]") {
  World w;
  w.effects.add_entry(kTable, script_type::Hidden, 1.0f, 0x33000331);
  PhysicsObj object(w.context, 1, LocalId{3});
  protocol::PhysicsDesc desc;
  desc.state = kInitialState | ps::Hidden;
  desc.physics_script_table_id = kTable;
  REQUIRE(object.set_description(desc, true));
  REQUIRE(w.effects.resolves.size() == 1);
  CHECK(w.effects.resolves[0].table == kTable);
  CHECK(w.effects.resolves[0].type == script_type::Hidden);
  CHECK(w.effects.resolves[0].intensity == 1.0f);
  REQUIRE(w.effects.plays.size() == 1);
  CHECK(w.effects.plays[0].script == 0x33000331u);
  CHECK(w.effects.plays[0].owner == LocalId{3});
}

TEST_CASE(
    "CPhysicsObj::set_state 0x00514DD0 applies Lighting, then NoDraw, then Hidden (then CPartArray::HandleEnterWorld "
    "0x00517D70)",
    "[retail][sim]") {
  World w;
  w.effects.add_entry(kTable, script_type::Hidden, 1.0f, 0x33000331);
  PhysicsObj object(w.context, 1, LocalId{1});
  protocol::PhysicsDesc desc;
  desc.state = kInitialState;
  desc.physics_script_table_id = kTable;
  attach_parts(object, w.log);
  REQUIRE(object.set_description(desc, true));
  w.log.clear();

  // Lighting off, NoDraw on, Hidden on, all at once.
  const std::uint32_t next = (kInitialState & ~ps::Lighting) | ps::NoDraw | ps::Hidden;
  object.set_state(next, true);
  const EventLog expected = {"destroy_lights", "no_draw:1", "resolve", "play_script", "enter_world"};
  CHECK(w.log == expected);
  CHECK((object.state() & ps::Lighting) == 0);
  CHECK((object.state() & ps::NoDraw) != 0);
  CHECK((object.state() & ps::Hidden) != 0);

  SECTION("unchanged bits cause no side effect") {
    w.log.clear();
    object.set_state(object.state(), true);
    CHECK(w.log.empty());
  }
  SECTION("Lighting back on initialises the lights") {
    w.log.clear();
    object.set_state(object.state() | ps::Lighting, true);
    CHECK(w.log == EventLog{"init_lights"});
  }
}

TEST_CASE("CPhysicsObj::set_hidden 0x00514C60 hiding: PS_Hidden at intensity 1, children NoDraw, collision flags",
          "[retail][sim]") {
  World w;
  w.effects.add_entry(kTable, script_type::Hidden, 1.0f, 0x33000331);
  w.effects.add_entry(kTable, script_type::UnHide, 1.0f, 0x3300032F);
  PhysicsObj parent(w.context, 1, LocalId{1});
  PhysicsObj child(w.context, 2, LocalId{2});
  auto& parent_parts = attach_parts(parent, w.log);
  parent_parts.holding[1] = HoldingLocation{0, core::Frame{}};
  protocol::PhysicsDesc desc;
  desc.state = kInitialState;
  desc.physics_script_table_id = kTable;
  REQUIRE(parent.set_description(desc, true));
  REQUIRE(child.set_parent(parent, 1));
  REQUIRE((parent.state() & ps::ReportCollisions) != 0);

  parent.set_hidden(true, false);
  CHECK((parent.state() & ps::Hidden) != 0);
  REQUIRE(w.effects.resolves.size() == 1);
  CHECK(w.effects.resolves[0].type == script_type::Hidden);
  CHECK(w.effects.resolves[0].intensity == 1.0f);
  REQUIRE(w.effects.plays.size() == 1);
  CHECK(w.effects.plays[0].script == 0x33000331u);
  CHECK((child.state() & ps::NoDraw) != 0);
  CHECK((parent.state() & ps::ReportCollisions) == 0);
  CHECK((parent.state() & ps::IgnoreCollisions) != 0);

  SECTION("unhiding: PS_UnHide at 1, children drawn unconditionally, collision flags back") {
    child.set_nodraw(true, false);  // NoDraw of its own: cleared anyway
    parent.set_hidden(false, false);
    CHECK((parent.state() & ps::Hidden) == 0);
    REQUIRE(w.effects.resolves.size() == 2);
    CHECK(w.effects.resolves[1].type == script_type::UnHide);
    CHECK(w.effects.resolves[1].intensity == 1.0f);
    REQUIRE(w.effects.plays.size() == 2);
    CHECK(w.effects.plays[1].script == 0x3300032Fu);
    CHECK((child.state() & ps::NoDraw) == 0);
    CHECK((parent.state() & ps::IgnoreCollisions) == 0);
    CHECK((parent.state() & ps::ReportCollisions) != 0);
  }
  SECTION("Hidden is not destruction: the object keeps its table and scripts") {
    CHECK(parent.physics_script_table_id() == kTable);
    CHECK(parent.children().size() == 1);
  }
}

TEST_CASE("CPhysicsObj::set_hidden 0x00514C60 without a table resolves nothing", "[retail][sim]") {
  World w;
  PhysicsObj object(w.context, 1, LocalId{1});
  object.set_hidden(true, false);
  object.set_hidden(false, false);
  CHECK(w.effects.resolves.empty());
  CHECK(w.effects.plays.empty());
  CHECK((object.state() & ps::ReportCollisions) != 0);
}

TEST_CASE("CPhysicsObj::set_hidden 0x00514C60 a script the table does not hold plays nothing", "[retail][sim]") {
  World w;
  w.effects.add_entry(kTable, script_type::Hidden, 0.5f, 0x33000331);  // threshold below intensity 1
  PhysicsObj object(w.context, 1, LocalId{1});
  protocol::PhysicsDesc desc;
  desc.state = kInitialState;
  desc.physics_script_table_id = kTable;
  REQUIRE(object.set_description(desc, true));
  object.set_hidden(true, false);
  CHECK(w.effects.resolves.size() == 1);
  CHECK(w.effects.plays.empty());
}

TEST_CASE("CPhysicsObj::set_hidden 0x00514C60 an initially visible CreateObject makes no UnHide (0x00454C80)",
          "[retail][sim]") {
  World w;
  w.effects.add_entry(kTable, script_type::Hidden, 1.0f, 0x33000331);
  w.effects.add_entry(kTable, script_type::UnHide, 1.0f, 0x3300032F);
  w.start();
  auto visible = create(0x70000001, 1);
  visible.physics.physics_script_table_id = kTable;
  REQUIRE(w.handle(visible).verdict == Verdict::Applied);
  CHECK(w.effects.resolves.empty());
  CHECK(w.effects.plays.empty());

  auto hidden = create(0x70000002, 1, kInitialState | ps::Hidden);
  hidden.physics.physics_script_table_id = kTable;
  REQUIRE(w.handle(hidden).verdict == Verdict::Applied);
  REQUIRE(w.effects.plays.size() == 1);
  CHECK(w.effects.plays[0].script == 0x33000331u);

  // The real transition Hidden -> visible is what plays UnHide.
  protocol::SetState show{0x70000002, kInitialState, 1, 1};
  REQUIRE(w.handle(show).verdict == Verdict::Applied);
  REQUIRE(w.effects.plays.size() == 2);
  CHECK(w.effects.plays[1].script == 0x3300032Fu);
  CHECK(count(w.log, "play_script") == 2);
}
