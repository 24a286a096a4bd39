// DatPartArray (retail CPartArray), parenting and the hidden pose rule:
// spec/physics.md section 3, seeds portal-completion section 1 and
// retail-projectile-vfx section 14; RE cphysobj/CPartArray.c,
// cphysobj/CPhysicsObj.c.
#include "dereth/sim/object/dat_part_array.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>

#include <glm/gtc/constants.hpp>

#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/snapshot_builder.hpp"

#include "alloc_counter.hpp"
#include "motion/anim_support.hpp"

// Heap allocations are counted by the program's operator new
// (alloc_counter.hpp, fx_alloc_test.cpp).

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace mc = motion_command;
namespace ps = protocol::physics_state;
namespace ts = transient_state;

namespace {

constexpr std::uint32_t kSetup = 0x02000042;
constexpr std::uint32_t kTable = 0x09000042;
constexpr std::uint32_t kIdle = 0x03000001;     // 10 frames, 2 parts
constexpr std::uint32_t kLink = 0x03000002;     // 4 frames, 2 parts
constexpr std::uint32_t kDefault = 0x03000003;  // the Setup's default animation
constexpr std::uint32_t kHand = 1;              // holding location
constexpr std::uint32_t kCell = 0xA9B40021;     // an outdoor cell

dat::Setup make_setup(bool default_scales = true) {
  dat::Setup s;
  s.id = kSetup;
  s.flags = dat::Setup::kAllowFreeHeading;
  s.parts = {0x01000011, 0x01000012};
  if (default_scales) {
    s.flags |= dat::Setup::kHasDefaultScale;
    s.default_scales = {glm::vec3(1.0f), glm::vec3(0.5f, 2.0f, 1.0f)};
  }
  // Part 1 holds things 0.25 m below its origin.
  s.holding_locations = {
      dat::SetupLocation{static_cast<std::int32_t>(kHand), 1, dat::Frame{{0, 0, -0.25f}, {1, 0, 0, 0}}}};
  dat::SetupPlacement def;
  def.key = 0;
  def.frame.part_frames = {dat::Frame{{0, 0, 1}, {1, 0, 0, 0}}, dat::Frame{{0, 0, 2}, {1, 0, 0, 0}}};
  dat::SetupPlacement resting;
  resting.key = placement::Resting;
  resting.frame.part_frames = {dat::Frame{{0, 0, 0.5f}, {1, 0, 0, 0}}, dat::Frame{{0, 0, 0.75f}, {1, 0, 0, 0}}};
  s.placement_frames = {def, resting};
  s.spheres = {dat::Sphere{{0, 0, 0.5f}, 0.5f}};
  return s;
}

dat::MotionTable make_table() {
  dat::MotionTable t;
  t.id = kTable;
  t.default_style = mc::NonCombat;
  t.style_defaults = {{mc::NonCombat, mc::Ready}};
  dat::MotionData idle;
  idle.anims = {dat::AnimData{kIdle, 0, -1, 30.0f}};
  dat::MotionData walk;
  walk.anims = {dat::AnimData{kIdle, 0, -1, 30.0f}};
  walk.flags = dat::MotionData::kHasVelocity;
  walk.velocity = {0.0f, 3.0f, 0.0f};
  dat::MotionData link;
  link.anims = {dat::AnimData{kLink, 0, -1, 10.0f}};
  t.cycles = {{(mc::NonCombat << 16) | 3u, idle}, {(mc::NonCombat << 16) | 5u, walk}};
  t.links = {{(mc::NonCombat << 16) | 3u, {{mc::LifestoneRecall, link}}}};
  return t;
}

class MapTables final : public MotionTableSource {
 public:
  std::shared_ptr<const MotionTable> get_motion_table(std::uint32_t did) override {
    auto it = tables.find(did);
    return it != tables.end() ? it->second : nullptr;
  }
  std::map<std::uint32_t, std::shared_ptr<const MotionTable>> tables;
};

struct Assets {
  Assets() {
    anims.add(make_animation(kIdle, 10, 2));
    // The link's part 0 sits at z = 10 + f so its pose is told apart.
    dat::Animation link = make_animation(kLink, 4, 2);
    for (auto& frame : link.frames) frame.part_frames[0].origin.z = 10.0f + frame.part_frames[0].origin.x;
    anims.add(std::move(link));
    anims.add(make_animation(kDefault, 3, 2));
    tables.tables[kTable] = std::make_shared<const MotionTable>(std::make_shared<const dat::MotionTable>(make_table()));
  }
  std::unique_ptr<DatPartArray> make(PhysicsObj& owner, dat::Setup setup = make_setup()) {
    return std::make_unique<DatPartArray>(owner, std::make_shared<const dat::Setup>(std::move(setup)), &anims, &tables);
  }
  MapAnimations anims;
  MapTables tables;
};

// An object with a DatPartArray, in a cell.
struct Body {
  Body(Assets& assets, SimContext& context, std::uint32_t guid, dat::Setup setup = make_setup())
      : object(context, guid, LocalId{guid}) {
    auto p = assets.make(object, std::move(setup));
    parts = p.get();
    object.set_part_array(std::move(p));
  }
  PhysicsObj object;
  DatPartArray* parts = nullptr;
};

struct World2 {
  World2() : context(clock) {}
  core::ManualClock clock;
  SimContext context;
  Assets assets;
};

bool same_rotation(const glm::quat& a, const glm::quat& b) {
  return std::fabs(std::fabs(glm::dot(a, b)) - 1.0f) < 1e-5f;
}

}  // namespace

// --- creation ---------------------------------------------------------------------------

TEST_CASE(
    "CPartArray::CreateSetup 0x005195A0 makes the parts (InitParts 0x00517F40) and poses from Resting "
    "(CPartArray::SetPlacementFrame 0x005193D0, CPartArray::HasAnims 0x00517D40, CPartArray::GetNumSphere 0x00518060, "
    "CPartArray::AllowsFreeHeading 0x005180C0)",
    "[retail][sim][anim]") {
  World2 w;
  Body b(w.assets, w.context, 1);
  REQUIRE(b.parts->num_parts() == 2);
  CHECK(b.parts->parts()[0].gfx_obj == 0x01000011u);
  CHECK(b.parts->parts()[1].gfxobj_scale == glm::vec3(0.5f, 2.0f, 1.0f));  // the default scale
  CHECK(b.parts->sequence().placement_frame_id() == placement::Resting);
  CHECK(b.parts->num_spheres() == 1);
  CHECK(b.parts->allows_free_heading());
  CHECK_FALSE(b.parts->has_anims());
  b.parts->set_frame(core::Frame{});
  CHECK(near(b.parts->parts()[1].frame.origin, {0, 0, 0.75f}));
}

TEST_CASE("CPartArray::InitDefaults 0x00518980 loops the Setup's default animation at 30 fps", "[retail][sim][anim]") {
  World2 w;
  dat::Setup setup = make_setup();
  setup.default_animation = kDefault;
  Body b(w.assets, w.context, 1, setup);
  REQUIRE(b.parts->has_anims());
  const AnimSequenceNode* node = b.parts->sequence().first_cyclic();
  REQUIRE(node != nullptr);
  CHECK(node->anim_id() == kDefault);
  CHECK(node->framerate() == 30.0f);
  CHECK(node->low_frame() == 0);
  CHECK(node->high_frame() == 2);
}

TEST_CASE("CPartArray::SetPlacementFrame 0x005193D0 falls back to placement 0, else none", "[retail][sim][anim]") {
  World2 w;
  Body b(w.assets, w.context, 1);
  CHECK(b.parts->set_placement_frame(0x34));
  CHECK(b.parts->sequence().placement_frame_id() == 0);
  b.parts->set_frame(core::Frame{});
  CHECK(near(b.parts->parts()[0].frame.origin, {0, 0, 1}));
  dat::Setup bare = make_setup();
  bare.placement_frames.clear();
  Body none(w.assets, w.context, 2, bare);
  CHECK_FALSE(none.parts->set_placement_frame(placement::Resting));
  CHECK(none.parts->sequence().placement_frame() == nullptr);
}

TEST_CASE(
    "CPartArray::SetMotionTableID 0x005186E0 keeps the same table, drops for 0, and keeps a manager without data "
    "(MotionTableManager::GetMotionTableID 0x0051BC10)",
    "[retail][sim][anim]") {
  World2 w;
  Body b(w.assets, w.context, 1);
  REQUIRE(b.parts->set_motion_table_id(kTable));
  MotionTableManager* first = b.parts->motion_table_manager();
  REQUIRE(first != nullptr);
  CHECK(b.parts->set_motion_table_id(kTable));
  CHECK(b.parts->motion_table_manager() == first);
  CHECK(b.parts->set_motion_table_id(0));
  CHECK(b.parts->motion_table_manager() == nullptr);
  CHECK(b.parts->set_motion_table_id(0x09DEAD00));
  REQUIRE(b.parts->motion_table_manager() != nullptr);
  CHECK(b.parts->do_interpreted_motion(mc::WalkForward, MovementParameters{}) == movement_error::NoMotionTable);
}

// --- pose ---------------------------------------------------------------------------------

TEST_CASE(
    "CPartArray::UpdateParts 0x005190F0 scales only the animation origins by the object scale (CPartArray::SetFrame "
    "0x00519310)",
    "[retail][sim][anim]") {
  World2 w;
  Body b(w.assets, w.context, 1);
  b.parts->set_scale(glm::vec3(2.0f));
  b.parts->sequence().append_animation(anim_data(kIdle));
  b.parts->sequence().update(3.5 / 30.0, nullptr);  // frame 3: part p at (3, p, 0)
  const core::Frame object({10.0f, 20.0f, 30.0f}, glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 0, 1)));
  b.parts->set_frame(object);
  // R(90 deg about Z) * ((3, 1, 0) * 2) = (-2, 6, 0).
  CHECK(near(b.parts->parts()[1].frame.origin, {8.0f, 26.0f, 30.0f}));
  CHECK(same_rotation(b.parts->parts()[1].frame.orientation(), object.orientation()));
  // The Setup default scale is the mesh's, not the pose's.
  CHECK(b.parts->parts()[1].gfxobj_scale == glm::vec3(1.0f, 4.0f, 2.0f));
  SECTION("no animation frame: the parts keep their last pose") {
    Body bare(w.assets, w.context, 2, [] {
      dat::Setup s = make_setup();
      s.placement_frames.clear();
      return s;
    }());
    bare.parts->set_frame(object);
    const glm::vec3 before = bare.parts->parts()[0].frame.origin;
    bare.parts->update_parts(core::Frame({1, 1, 1}, {1, 0, 0, 0}));
    CHECK(bare.parts->parts()[0].frame.origin == before);
  }
  SECTION("an animation frame with fewer parts poses only those") {
    w.assets.anims.add(make_animation(0x03000077, 2, 1));
    b.parts->sequence().clear_animations();
    b.parts->sequence().append_animation(anim_data(0x03000077));
    const glm::vec3 part1 = b.parts->parts()[1].frame.origin;
    b.parts->set_frame(core::Frame{});
    CHECK(near(b.parts->parts()[0].frame.origin, {0, 0, 0}));
    CHECK(b.parts->parts()[1].frame.origin == part1);
  }
}

TEST_CASE("CPartArray::SetScaleInternal 0x00518A00 mesh scale = Setup default scale times object scale",
          "[retail][sim][anim]") {
  World2 w;
  Body with(w.assets, w.context, 1);
  with.parts->set_scale({3.0f, 3.0f, 3.0f});
  CHECK(with.parts->parts()[0].gfxobj_scale == glm::vec3(3.0f));
  CHECK(with.parts->parts()[1].gfxobj_scale == glm::vec3(1.5f, 6.0f, 3.0f));
  CHECK(with.parts->scale() == glm::vec3(3.0f));
  Body without(w.assets, w.context, 2, make_setup(false));
  without.parts->set_scale({0.5f, 0.5f, 0.5f});
  CHECK(without.parts->parts()[1].gfxobj_scale == glm::vec3(0.5f));
}

TEST_CASE(
    "CPartArray::SetFrame 0x00519310 through CPhysicsObj::set_frame 0x00514090 poses the parts, publish_parts adds the "
    "block "
    "offset",
    "[retail][sim][anim]") {
  World2 w;
  Body b(w.assets, w.context, 1);
  b.object.set_scale_static(2.0f);
  b.parts->set_part_translucency(1, 0.25f);
  b.parts->set_part_no_draw(0, true);
  b.object.set_frame(core::Frame({5, 6, 0}, {1, 0, 0, 0}));
  CHECK(near(b.parts->parts()[0].frame.origin, {5, 6, 1.0f}));  // Resting z 0.5, scaled by 2
  std::vector<PartPose> poses;
  b.parts->publish_parts(core::Frame({192.0f + 5.0f, 6.0f, 0.0f}, {1, 0, 0, 0}), poses);
  REQUIRE(poses.size() == 2);
  CHECK(poses[0].gfx_obj == 0x01000011u);
  CHECK(near(poses[0].frame.origin, {197.0f, 6.0f, 1.0f}));
  CHECK(near(poses[1].frame.origin, {197.0f, 6.0f, 1.5f}));
  CHECK(poses[1].scale == glm::vec3(1.0f, 4.0f, 2.0f));
  CHECK(poses[0].no_draw);
  CHECK_FALSE(poses[1].no_draw);
  CHECK(poses[1].translucency == 0.25f);
  CHECK(poses[0].translucency == 0.0f);
}

TEST_CASE(
    "CPartArray per-part render state: SetTranslucencyInternal 0x00518340, SetPartTranslucencyInternal 0x00518380, "
    "SetPartLuminosityInternal 0x005183F0, SetPartDiffusionInternal 0x00518460, SetNoDrawInternal 0x00518300 "
    "(CPartArray::SetLuminosityInternal 0x005183B0, CPartArray::SetDiffusionInternal 0x00518420)",
    "[retail][sim][anim]") {
  World2 w;
  Body b(w.assets, w.context, 1);
  DatPartArray& p = *b.parts;
  p.set_translucency(0.5f);
  CHECK(p.parts()[0].translucency == 0.5f);
  CHECK(p.parts()[1].translucency == 0.5f);
  p.set_part_translucency(0, 0.9f);
  p.set_part_translucency(7, 0.1f);  // out of range: ignored
  CHECK(p.parts()[0].translucency == 0.9f);
  CHECK(p.parts()[1].translucency == 0.5f);
  p.set_part_luminosity(PartArray::kAllParts, 0.3f);
  p.set_part_luminosity(1, 0.7f);
  CHECK(p.parts()[0].luminosity == 0.3f);
  CHECK(p.parts()[1].luminosity == 0.7f);
  p.set_part_diffusion(0, 0.2f);
  CHECK(p.parts()[0].diffusion == 0.2f);
  CHECK(p.parts()[1].diffusion == 1.0f);
  p.replace_part_gfx(1, 0x01000099);
  p.replace_part_gfx(5, 0x01000098);
  CHECK(p.parts()[1].gfx_obj == 0x01000099u);
  p.set_no_draw(true);
  CHECK(p.parts()[0].no_draw);
  CHECK(p.parts()[1].no_draw);
  p.set_part_no_draw(1, false);
  CHECK_FALSE(p.parts()[1].no_draw);
}

// --- parenting ------------------------------------------------------------------------------

TEST_CASE(
    "CPhysicsObj::UpdateChild 0x00512D50 hangs a child from the parent's animated part, unscaled, parent first "
    "(CPhysicsObj::UpdateChildrenInternal 0x00513DA0, CPhysicsObj::set_parent 0x00515A90, CPhysicsObj::add_child "
    "0x0050F870)",
    "[retail][sim][anim]") {
  World2 w;
  Body parent(w.assets, w.context, 1);
  Body child(w.assets, w.context, 2);
  Body grandchild(w.assets, w.context, 3);
  parent.object.enter_world(Position{kCell, core::Frame({10, 10, 0}, {1, 0, 0, 0})});
  parent.object.set_scale_static(2.0f);
  REQUIRE(child.object.set_parent(parent.object, kHand));
  REQUIRE(grandchild.object.set_parent(child.object, kHand));
  REQUIRE(child.parts->holding_location(kHand).has_value());
  CHECK_FALSE(child.parts->holding_location(9).has_value());

  parent.parts->sequence().append_animation(anim_data(kIdle));
  parent.parts->sequence().update(4.5 / 30.0, nullptr);  // part 1 at (4, 1, 0) * 2
  parent.object.set_frame(parent.object.position().frame);
  // Parent part 1: (10, 10, 0) + (8, 2, 0). The holding frame (0, 0, -0.25)
  // is not scaled by the parent's scale.
  CHECK(near(parent.parts->parts()[1].frame.origin, {18, 12, 0}));
  CHECK(near(child.object.position().frame.origin, {18, 12, -0.25f}));
  // The child poses from its own Resting placement: part 1 at z + 0.75.
  CHECK(near(child.parts->parts()[1].frame.origin, {18, 12, 0.5f}));
  // The grandchild hangs from the child's part 1 as the child was just posed.
  CHECK(near(grandchild.object.position().frame.origin, {18, 12, 0.25f}));

  SECTION("a part index past the parts hangs from the object root") {
    PhysicsObj loose(w.context, 4, LocalId{4});
    parent.object.update_child(loose, 0xFFFFFFFFu, core::Frame({0, 0, 1}, {1, 0, 0, 0}));
    CHECK(near(loose.position().frame.origin, {10, 10, 1}));
  }
}

// --- the motion table through the part array ----------------------------------------------

TEST_CASE(
    "CPartArray::HandleEnterWorld 0x00517D70 removes the links through the MotionTableManager "
    "(MotionTableManager::HandleEnterWorld 0x0051BDD0, CPartArray::InitializeMotionTables 0x00517D10, "
    "CPartArray::DoInterpretedMotion 0x00518750)",
    "[retail][sim][anim]") {
  World2 w;
  Body b(w.assets, w.context, 1);
  SECTION("without a motion table it does nothing") {
    b.parts->sequence().append_animation(anim_data(kLink));
    b.parts->sequence().append_animation(anim_data(kIdle));
    b.parts->handle_enter_world();
    CHECK(b.parts->sequence().size() == 2);
  }
  SECTION("with one, the link under the cursor goes and the cycle starts") {
    REQUIRE(b.parts->set_motion_table_id(kTable));
    b.parts->initialize_motion_tables();
    REQUIRE(b.parts->do_interpreted_motion(mc::LifestoneRecall, MovementParameters{}) == 0);
    b.parts->sequence().update(1.5 / 10.0, nullptr);
    REQUIRE(b.parts->sequence().curr_anim()->anim_id() == kLink);
    b.parts->handle_enter_world();
    CHECK(b.parts->sequence().size() == 1);
    CHECK(b.parts->sequence().curr_anim()->anim_id() == kIdle);
    CHECK(b.parts->sequence().frame_number() == 0.0);
    CHECK(b.parts->motion_table_manager()->pending_animations().empty());
  }
}

TEST_CASE(
    "CPhysicsObj::Hook_AnimDone 0x0050FDA0 reaches MotionTableManager::AnimationDone through the part array "
    "(CPartArray::AnimationDone 0x00517D30, CPhysicsObj::MotionDone 0x0050FDB0, CPhysicsObj::CheckForCompletedMotions "
    "0x0050FE30, CPartArray::CheckForCompletedMotions 0x00517D50, CPhysicsObj::RemoveLinkAnimations 0x0050FE20)",
    "[retail][sim][anim]") {
  World2 w;
  Body b(w.assets, w.context, 1);
  REQUIRE(b.parts->set_motion_table_id(kTable));
  b.object.initialize_motion_tables();
  b.object.check_for_completed_motions();
  REQUIRE(b.parts->motion_table_manager()->pending_animations().empty());
  REQUIRE(b.object.do_interpreted_motion(mc::LifestoneRecall, MovementParameters{}) == 0);
  REQUIRE(b.parts->motion_table_manager()->pending_animations().size() == 1);
  core::Frame offset;
  b.parts->update(FloatSeconds{4.5f / 10.0f}, offset);  // the 4-frame link at 10 fps finishes
  REQUIRE(b.object.anim_hooks().size() == 1);
  b.object.process_hooks();  // AnimDoneHook -> hook_anim_done -> AnimationDone(true)
  CHECK(b.parts->motion_table_manager()->pending_animations().empty());
  CHECK(b.parts->motion_table_manager()->state().actions().empty());
  CHECK(b.object.stop_interpreted_motion(mc::WalkForward, MovementParameters{}) == movement_error::NoMtableData);
  // CPhysicsObj::RemoveLinkAnimations 0x0050FE20 is the part array's HandleEnterWorld.
  REQUIRE(b.object.do_interpreted_motion(mc::LifestoneRecall, MovementParameters{}) == 0);
  REQUIRE(b.parts->sequence().size() == 2);
  b.object.remove_link_animations();
  CHECK(b.parts->sequence().size() == 1);
  CHECK(b.parts->motion_table_manager()->pending_animations().empty());
  PhysicsObj bare(w.context, 9, LocalId{9});
  CHECK(bare.do_interpreted_motion(mc::WalkForward, MovementParameters{}) == 71u);
}

TEST_CASE(
    "CPartArray::HandleMovement 0x00517D60 (MotionTableManager::UseTime 0x0051CB00) completes zero-link motions, "
    "HandleExitWorld 0x00517D90 drains the queue (MotionTableManager::HandleExitWorld 0x0051BDA0)",
    "[retail][sim][anim]") {
  World2 w;
  Body b(w.assets, w.context, 1);
  REQUIRE(b.parts->set_motion_table_id(kTable));
  b.parts->initialize_motion_tables();
  REQUIRE(b.parts->do_interpreted_motion(mc::LifestoneRecall, MovementParameters{}) == 0);
  REQUIRE(b.parts->motion_table_manager()->pending_animations().size() == 2);
  b.parts->handle_movement();  // Ready (0 links) completes; the recall waits for its AnimDone
  CHECK(b.parts->motion_table_manager()->pending_animations() == std::vector<AnimNode>{{mc::LifestoneRecall, 1}});
  b.parts->handle_exit_world();
  CHECK(b.parts->motion_table_manager()->pending_animations().empty());
  CHECK(b.parts->sequence().size() == 2);  // exit keeps the links
}

// --- the hidden pose rule (seed portal-completion section 1) ---------------------------------

TEST_CASE(
    "CPhysicsObj::set_hidden 0x00514C60 samples the post-link cyclic pose without advancing time "
    "(CPartArray::HandleEnterWorld 0x00517D70, MotionTableManager::HandleEnterWorld 0x0051BDD0, "
    "CSequence::remove_all_link_animations 0x00524CA0, CPhysicsObj::UpdateObjectInternal 0x005156B0, "
    "CPhysicsObj::UpdatePositionInternal 0x00512C30)",
    "[retail][sim][anim]") {
  World2 w;
  Body b(w.assets, w.context, 1);
  REQUIRE(b.parts->set_motion_table_id(kTable));
  b.object.initialize_motion_tables();
  b.object.set_state(b.object.state() & ~ps::Gravity, false);  // no falling: poses stay comparable
  b.object.enter_world(Position{kCell, core::Frame({10, 10, 0}, {1, 0, 0, 0})});
  REQUIRE(b.object.do_interpreted_motion(mc::LifestoneRecall, MovementParameters{}) == 0);
  // Mid-link: two ticks of 0.1 s at 10 fps put the link on frame 2.
  w.clock.set(core::Seconds{0.1});
  b.object.update_object();
  w.clock.set(core::Seconds{0.25});
  b.object.update_object();
  REQUIRE(b.parts->sequence().curr_anim()->anim_id() == kLink);
  CHECK(b.parts->sequence().get_curr_frame_number() == 2);
  CHECK(near(b.parts->parts()[0].frame.origin.z, 12.0f));  // the link's pose, z = 10 + frame

  b.object.set_state(b.object.state() | ps::Hidden, true);
  // The link is gone, the cursor is on the cycle's starting frame, and every
  // part shows that pose now, before any tick.
  CHECK(b.parts->sequence().size() == 1);
  CHECK(b.parts->sequence().curr_anim()->anim_id() == kIdle);
  CHECK(b.parts->sequence().frame_number() == 0.0);
  CHECK(near(b.parts->parts()[0].frame.origin, {10.0f, 10.0f, 0.0f}));
  CHECK(near(b.parts->parts()[1].frame.origin, {10.0f, 11.0f, 0.0f}));

  // Hidden objects do not advance animation time; their pose is still
  // composed on every commit.
  w.clock.set(core::Seconds{0.5});
  b.object.update_object();
  w.clock.set(core::Seconds{0.75});
  b.object.update_object();
  CHECK(b.parts->sequence().frame_number() == 0.0);
  CHECK(near(b.parts->parts()[0].frame.origin, {10.0f, 10.0f, 0.0f}));

  SECTION("unhidden, time runs again") {
    b.object.set_state(b.object.state() & ~ps::Hidden, true);
    w.clock.set(core::Seconds{0.85});
    b.object.update_object();
    CHECK(b.parts->sequence().frame_number() > 0.0);
  }
}

TEST_CASE(
    "CPartArray::Update 0x00517DB0 root motion moves the object by the scaled offset on walkable ground "
    "(CPhysicsObj::UpdatePositionInternal 0x00512C30)",
    "[retail][sim][anim]") {
  World2 w;
  Body b(w.assets, w.context, 1);
  REQUIRE(b.parts->set_motion_table_id(kTable));
  b.object.initialize_motion_tables();
  b.object.enter_world(Position{kCell, core::Frame({10, 10, 0}, {1, 0, 0, 0})});
  b.object.set_scale_static(2.0f);
  // Any movement manager keeps a still object on walkable ground active.
  b.object.set_movement_manager(std::make_unique<MovementManager>());
  REQUIRE(b.object.do_interpreted_motion(mc::WalkForward, MovementParameters{}) == 0);
  b.object.set_transient_state(b.object.transient_state() | ts::Contact | ts::OnWalkable);
  b.object.calc_acceleration();
  w.clock.set(core::Seconds{0.1});
  b.object.update_object();  // 3 frames of 1/30 s at 3 m/s, times scale 2
  CHECK(near(b.object.position().frame.origin, {10.0f, 10.6f, 0.0f}));
  SECTION("off walkable ground the animation does not move the object") {
    b.object.set_transient_state(b.object.transient_state() & ~ts::OnWalkable);
    b.object.set_state(b.object.state() & ~ps::Gravity, false);
    b.object.calc_acceleration();
    w.clock.set(core::Seconds{0.2});
    b.object.update_object();
    CHECK(near(b.object.position().frame.origin, {10.0f, 10.6f, 0.0f}));
  }
}

TEST_CASE("steady-state animation allocates nothing per tick", "[sim][anim]") {
  World2 w;
  Body b(w.assets, w.context, 1);
  REQUIRE(b.parts->set_motion_table_id(kTable));
  b.object.initialize_motion_tables();
  b.object.enter_world(Position{kCell, core::Frame({10, 10, 0}, {1, 0, 0, 0})});
  b.object.set_transient_state(b.object.transient_state() | ts::Contact | ts::OnWalkable);
  b.object.calc_acceleration();
  b.object.set_movement_manager(std::make_unique<MovementManager>());
  REQUIRE(b.object.do_interpreted_motion(mc::WalkForward, MovementParameters{}) == 0);
  std::vector<PartPose> poses;
  double t = 0.0;
  const auto tick = [&] {
    t += 1.0 / 30.0;
    w.clock.set(core::Seconds{t});
    b.object.update_object();
    b.parts->publish_parts(b.object.position().frame, poses);
  };
  for (int i = 0; i < 60; ++i) tick();  // warm up: links done, vectors sized
  // The counter itself works: an allocation while armed is seen.
  start_counting_allocations();
  auto probe = std::make_unique<std::vector<int>>(64);
  const long probe_allocations = stop_counting_allocations();
  probe.reset();
  start_counting_allocations();
  for (int i = 0; i < 300; ++i) tick();
  const long allocations = stop_counting_allocations();
  if (kCountingAllocations) {
    REQUIRE(probe_allocations >= 1);  // the counter itself works
    CHECK(allocations == 0);
  } else {
    WARN("allocations are not counted under AddressSanitizer");
  }
  CHECK(b.object.position().frame.origin.y > 20.0f);  // it did walk
}

// --- DatObjectFactory -------------------------------------------------------------------------

TEST_CASE("DatObjectFactory reads the demo humanoid and treats missing or malformed records as absent", "[sim][anim]") {
  dat::RecordCache records(&demo_portal());
  DatObjectFactory factory(records);
  const auto defaults = factory.setup_defaults(demo::kHumanSetup);
  REQUIRE(defaults.has_value());
  CHECK(defaults->default_motion_table_id == demo::kHumanMotionTable);
  CHECK(defaults->default_script_table_id == demo::kHumanScriptTable);
  CHECK_FALSE(factory.setup_defaults(0x02DEAD00).has_value());
  Owner owner;
  CHECK(factory.make_part_array(owner.object, 0x02DEAD00) == nullptr);
  auto parts = factory.make_part_array(owner.object, demo::kHumanSetup);
  REQUIRE(parts != nullptr);
  CHECK(parts->num_parts() == 6);
  CHECK(factory.get_animation(0x03DEAD00) == nullptr);
  CHECK(factory.get_motion_table(0x09DEAD00) == nullptr);
  const std::size_t cached = records.size();
  CHECK(factory.get_animation(0x03DEAD00) == nullptr);  // absence is cached
  CHECK(records.size() == cached);

  SECTION("a truncated Setup and a truncated MotionTable are refused, not crashed on") {
    dat::DatWriter writer;
    auto setup_bytes = dat::write_setup(make_setup());
    setup_bytes.resize(setup_bytes.size() / 2);
    writer.add(kSetup, setup_bytes);
    auto table_bytes = dat::write_motion_table(make_table());
    table_bytes.resize(10);
    writer.add(kTable, table_bytes);
    auto bytes = writer.build();
    REQUIRE(bytes.has_value());
    auto file = dat::DatFile::from_bytes(std::move(*bytes), "broken.dat");
    REQUIRE(file.has_value());
    dat::RecordCache broken_records(&*file);
    DatObjectFactory broken(broken_records);
    CHECK_FALSE(broken.setup_defaults(kSetup).has_value());
    CHECK(broken.make_part_array(owner.object, kSetup) == nullptr);
    CHECK(broken.get_motion_table(kTable) == nullptr);
    // Each is read once and listed once, for the QA report.
    REQUIRE(broken_records.missing().size() == 2);
    CHECK(broken_records.missing()[0].kind == "Setup");
    CHECK(broken_records.missing()[1].kind == "MotionTable");
  }
}

TEST_CASE("CPartArray::SetSetupID 0x00519330 turns the Setup's lights on, posed from the object's world frame",
          "[retail][sim][anim][lights]") {
  // SetSetupID calls InitLights for every object, whatever its state; the
  // Lighting state bit and SetLightHook destroy and re-make them
  // (fx_hooks_test); the snapshot builder publishes them with the parts.
  dat::Setup lit = make_setup();
  lit.lights = {dat::SetupLight{0, dat::Frame{{0, 1, 2}, glm::quat(1, 0, 0, 0)}, 0xFF204080u, 2.0f, 5.0f, 0.5f}};
  World2 w;
  Body b(w.assets, w.context, 7, lit);
  const glm::quat yaw = glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 0, 1));
  const core::Frame world({10, 10, 0}, yaw);
  std::vector<LightSnapshot> lights;
  CHECK(b.parts->lights_on());  // on from the Setup (SetSetupID), before any SetState or hook
  b.parts->publish_lights(world, LocalId{7}, lights);
  REQUIRE(lights.size() == 1);
  CHECK(lights[0].owner == LocalId{7});
  CHECK(near(lights[0].position, {9.0f, 10.0f, 2.0f}));  // (10, 10, 0) + R(90 deg) (0, 1, 2)
  CHECK(lights[0].color.r == Approx(0x20 / 255.0f));
  CHECK(lights[0].color.g == Approx(0x40 / 255.0f));
  CHECK(lights[0].color.b == Approx(0x80 / 255.0f));
  CHECK(lights[0].color.a == Approx(1.0f));
  CHECK(lights[0].intensity == 2.0f);
  CHECK(lights[0].falloff == 5.0f);
  CHECK(lights[0].cone_angle == 0.5f);
  // The Lighting bit set and then cleared by SetState destroys them.
  b.object.set_state(b.object.state() | protocol::physics_state::Lighting, false);
  CHECK(b.parts->lights_on());
  b.object.set_state(b.object.state() & ~protocol::physics_state::Lighting, false);
  CHECK_FALSE(b.parts->lights_on());
  lights.clear();
  b.parts->publish_lights(world, LocalId{7}, lights);
  CHECK(lights.empty());
}
