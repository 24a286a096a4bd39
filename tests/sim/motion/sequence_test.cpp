// Sequence (retail CSequence) and AnimSequenceNode (CSeqPrim):
// spec/physics.md section 1, RE canim/CSequence.c and canim/CSeqPrim.c.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <glm/gtc/constants.hpp>

#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/dat_part_array.hpp"

#include "motion/anim_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;

namespace {

constexpr std::uint32_t kLink = 0x03000010;   // 6 frames, hooks 100+f
constexpr std::uint32_t kCycle = 0x03000020;  // 10 frames, hooks 200+f
constexpr std::uint32_t kSteps = 0x03000030;  // 4 frames, pos frames +0.5 Y each
constexpr std::uint32_t kBoth = 0x03000040;   // 5 frames, hooks in both directions
constexpr std::uint32_t kBack = 0x03000050;   // 5 frames, Backward hooks only

struct Fixture {
  Fixture() {
    anims.add(make_animation(kLink, 6, 2, 100));
    anims.add(make_animation(kCycle, 10, 2, 200));
    anims.add(make_animation(kSteps, 4, 1, 0, dat::HookDirection::Forward, 0.5f));
    anims.add(make_animation(kBoth, 5, 1, 300, dat::HookDirection::Both));
    anims.add(make_animation(kBack, 5, 1, 400, dat::HookDirection::Backward));
    seq.set_animation_source(&anims);
    seq.set_object(&owner.object);
  }
  std::vector<std::uint32_t> staged() { return take_staged(owner.object); }

  Owner owner;
  MapAnimations anims;
  Sequence seq;
};

std::vector<std::uint32_t> range(std::uint32_t first, std::uint32_t last) {
  std::vector<std::uint32_t> v;
  for (std::uint32_t i = first; i <= last; ++i) v.push_back(i);
  return v;
}

std::vector<std::uint32_t> concat(std::initializer_list<std::vector<std::uint32_t>> parts) {
  std::vector<std::uint32_t> v;
  for (const auto& p : parts) v.insert(v.end(), p.begin(), p.end());
  return v;
}

}  // namespace

// --- AnimSequenceNode ------------------------------------------------------------------

TEST_CASE(
    "AnimSequenceNode::set_animation_id 0x00525D60 clamps the range against the frame count "
    "(AnimSequenceNode::AnimSequenceNode 0x00525F90)",
    "[retail][sim][anim]") {
  auto anim = std::make_shared<const dat::Animation>(make_animation(kCycle, 10));
  AnimSequenceNode node;
  SECTION("high -1 is the last frame") {
    node.set(anim_data(kCycle, 30.0f, 2, -1), anim);
    CHECK(node.low_frame() == 2);
    CHECK(node.high_frame() == 9);
  }
  SECTION("a low past the end and a high past the end clamp to the last frame") {
    node.set(anim_data(kCycle, 30.0f, 12, 40), anim);
    CHECK(node.low_frame() == 9);
    CHECK(node.high_frame() == 9);
  }
  SECTION("a negative low compares unsigned: it becomes the last frame too") {
    node.set(anim_data(kCycle, 30.0f, -3, 4), anim);
    CHECK(node.low_frame() == 9);
    CHECK(node.high_frame() == 9);  // low > high: high = low
  }
  SECTION("low above high raises high") {
    node.set(anim_data(kCycle, 30.0f, 7, 3), anim);
    CHECK(node.low_frame() == 7);
    CHECK(node.high_frame() == 7);
  }
  SECTION("the framerate is kept as given") {
    node.set(anim_data(kCycle, -12.5f), anim);
    CHECK(node.framerate() == -12.5f);
    CHECK(node.num_frames() == 10);
  }
}

TEST_CASE("AnimSequenceNode::get_starting_frame 0x00525C80 and get_ending_frame 0x00525CB0 follow the framerate sign",
          "[retail][sim][anim]") {
  auto anim = std::make_shared<const dat::Animation>(make_animation(kCycle, 10));
  AnimSequenceNode forward;
  forward.set(anim_data(kCycle, 30.0f, 2, 6), anim);
  CHECK(forward.get_starting_frame() == 2.0);
  CHECK(forward.get_ending_frame() == 7.0 - 0.00019999999);
  AnimSequenceNode reverse;
  reverse.set(anim_data(kCycle, -30.0f, 2, 6), anim);
  CHECK(reverse.get_starting_frame() == 7.0 - 0.00019999999);
  CHECK(reverse.get_ending_frame() == 2.0);
}

TEST_CASE("AnimSequenceNode::multiply_framerate 0x00525BE0 swaps low and high for a negative multiplier",
          "[retail][sim][anim]") {
  auto anim = std::make_shared<const dat::Animation>(make_animation(kCycle, 10));
  AnimSequenceNode node;
  node.set(anim_data(kCycle, 30.0f, 2, 6), anim);
  node.multiply_framerate(0.5f);
  CHECK(node.framerate() == 15.0f);
  CHECK(node.low_frame() == 2);
  node.multiply_framerate(-2.0f);
  CHECK(node.framerate() == -30.0f);
  CHECK(node.low_frame() == 6);  // the retail quirk
  CHECK(node.high_frame() == 2);
}

TEST_CASE("AnimSequenceNode::get_part_frame 0x00525C40 and get_pos_frame 0x00525C10 are null out of range",
          "[retail][sim][anim]") {
  auto steps =
      std::make_shared<const dat::Animation>(make_animation(kSteps, 4, 1, 0, dat::HookDirection::Forward, 0.5f));
  auto plain = std::make_shared<const dat::Animation>(make_animation(kCycle, 10));
  AnimSequenceNode node;
  node.set(anim_data(kSteps), steps);
  REQUIRE(node.get_part_frame(3) != nullptr);
  CHECK(node.get_part_frame(3)->part_frames[0].origin.x == 3.0f);
  CHECK(node.get_part_frame(4) == nullptr);
  CHECK(node.get_part_frame(-1) == nullptr);
  REQUIRE(node.get_pos_frame(0) != nullptr);
  CHECK(node.get_pos_frame(0)->origin.y == 0.5f);
  CHECK(node.get_pos_frame(4) == nullptr);
  AnimSequenceNode no_pos;
  no_pos.set(anim_data(kCycle), plain);
  CHECK(no_pos.get_pos_frame(0) == nullptr);  // no pos frames at all
}

// --- list operations ---------------------------------------------------------------------

TEST_CASE(
    "CSequence::append_animation 0x00525510 moves first_cyclic to every new tail (AnimSequenceNode::GetNext "
    "0x00525DE0, AnimSequenceNode::GetPrev 0x00525DF0)",
    "[retail][sim][anim]") {
  Fixture f;
  f.seq.append_animation(anim_data(kLink));
  REQUIRE(f.seq.size() == 1);
  CHECK(f.seq.curr_anim() == f.seq.head());
  CHECK(f.seq.first_cyclic() == f.seq.head());
  CHECK(f.seq.frame_number() == 0.0);
  f.seq.append_animation(anim_data(kCycle, 30.0f, 3));
  REQUIRE(f.seq.size() == 2);
  CHECK(f.seq.first_cyclic() == f.seq.tail());
  CHECK(f.seq.first_cyclic()->anim_id() == kCycle);
  CHECK(f.seq.curr_anim() == f.seq.head());  // the cursor stays where it was
  CHECK(f.seq.head()->next() == f.seq.tail());
  CHECK(f.seq.tail()->prev() == f.seq.head());
  CHECK(f.seq.head()->prev() == nullptr);
  CHECK(f.seq.tail()->next() == nullptr);
  SECTION("a missing animation is discarded") {
    f.seq.append_animation(anim_data(0x03DEAD00));
    CHECK(f.seq.size() == 2);
    CHECK(f.seq.first_cyclic()->anim_id() == kCycle);
  }
  SECTION("the first node of an empty list starts the cursor at its starting frame") {
    Sequence s;
    s.set_animation_source(&f.anims);
    s.append_animation(anim_data(kCycle, -10.0f, 1, 4));
    CHECK(s.frame_number() == 5.0 - 0.00019999999);
  }
}

TEST_CASE(
    "CSequence::clear_animations 0x00524DC0, clear_physics 0x00524D50 and clear 0x005255B0 (CSequence::has_anims "
    "0x00524BD0)",
    "[retail][sim][anim]") {
  Fixture f;
  dat::AnimationFrame placement;
  f.seq.append_animation(anim_data(kLink));
  f.seq.append_animation(anim_data(kCycle));
  f.seq.set_velocity({1, 2, 3});
  f.seq.set_omega({0, 0, 1});
  f.seq.set_placement_frame(&placement, 0x65);
  f.seq.set_frame_number(2.5);
  CHECK(f.seq.has_anims());
  f.seq.clear_animations();
  CHECK_FALSE(f.seq.has_anims());
  CHECK(f.seq.size() == 0);
  CHECK(f.seq.curr_anim() == nullptr);
  CHECK(f.seq.first_cyclic() == nullptr);
  CHECK(f.seq.frame_number() == 0.0);
  CHECK(f.seq.velocity() == glm::vec3(1, 2, 3));  // physics untouched
  f.seq.clear_physics();
  CHECK(f.seq.velocity() == glm::vec3(0.0f));
  CHECK(f.seq.omega() == glm::vec3(0.0f));
  CHECK(f.seq.placement_frame() == &placement);
  f.seq.clear();
  CHECK(f.seq.placement_frame() == nullptr);
  CHECK(f.seq.placement_frame_id() == 0);
}

TEST_CASE("CSequence::remove_cyclic_anims 0x00524E40 backs the cursor off to the previous node's end",
          "[retail][sim][anim]") {
  Fixture f;
  f.seq.append_animation(anim_data(kLink));
  f.seq.append_animation(anim_data(kCycle));
  SECTION("cursor on the link: only the cycle goes, the tail becomes first_cyclic") {
    f.seq.remove_cyclic_anims();
    REQUIRE(f.seq.size() == 1);
    CHECK(f.seq.curr_anim() == f.seq.head());
    CHECK(f.seq.first_cyclic() == f.seq.head());
    CHECK(f.seq.frame_number() == 0.0);
  }
  SECTION("cursor on the cycle with nothing before it: no cursor, frame 0") {
    f.seq.update(7.5 / 30.0, nullptr);  // through the 6-frame link into the cycle
    REQUIRE(f.seq.curr_anim() == f.seq.first_cyclic());
    REQUIRE(f.seq.size() == 1);
    f.seq.remove_cyclic_anims();
    CHECK(f.seq.size() == 0);
    CHECK(f.seq.curr_anim() == nullptr);
    CHECK(f.seq.frame_number() == 0.0);
    CHECK(f.seq.first_cyclic() == nullptr);
  }
  SECTION("a multi-anim cycle: only the last node is cyclic, so only it goes") {
    f.seq.append_animation(anim_data(kSteps, -30.0f));
    f.seq.remove_cyclic_anims();
    REQUIRE(f.seq.size() == 2);
    CHECK(f.seq.first_cyclic()->anim_id() == kCycle);
  }
}

TEST_CASE("CSequence::remove_link_animations 0x00524BE0 removes the n links just before the cycle",
          "[retail][sim][anim]") {
  Fixture f;
  f.seq.append_animation(anim_data(kSteps));
  f.seq.append_animation(anim_data(kLink));
  f.seq.append_animation(anim_data(kCycle, 30.0f, 3));
  REQUIRE(f.seq.size() == 3);
  SECTION("one: the newest link goes, the cursor (on the first) stays") {
    f.seq.remove_link_animations(1);
    REQUIRE(f.seq.size() == 2);
    CHECK(f.seq.head()->anim_id() == kSteps);
    CHECK(f.seq.curr_anim() == f.seq.head());
  }
  SECTION("removing the node under the cursor puts it on the cycle's starting frame") {
    f.seq.remove_link_animations(2);
    REQUIRE(f.seq.size() == 1);
    CHECK(f.seq.curr_anim() == f.seq.first_cyclic());
    CHECK(f.seq.frame_number() == 3.0);
  }
  SECTION("more than there are stops at the cycle") {
    f.seq.remove_link_animations(10);
    CHECK(f.seq.size() == 1);
  }
  SECTION("zero removes nothing") {
    f.seq.remove_link_animations(0);
    CHECK(f.seq.size() == 3);
  }
}

TEST_CASE("CSequence::remove_all_link_animations 0x00524CA0 leaves only the cycle, the cursor at its start",
          "[retail][sim][anim]") {
  Fixture f;
  SECTION("cursor on the final link before the cyclic tail") {
    f.seq.append_animation(anim_data(kLink));
    f.seq.append_animation(anim_data(kCycle, 30.0f, 4));
    f.seq.update(3.5 / 30.0, nullptr);
    REQUIRE(f.seq.curr_anim()->anim_id() == kLink);
    f.seq.remove_all_link_animations();
    REQUIRE(f.seq.size() == 1);
    CHECK(f.seq.curr_anim() == f.seq.first_cyclic());
    CHECK(f.seq.frame_number() == 4.0);  // first_cyclic's starting frame, not a frame of the link
  }
  SECTION("cursor on an earlier link: it ends on the cycle too") {
    f.seq.append_animation(anim_data(kSteps));
    f.seq.append_animation(anim_data(kLink));
    f.seq.append_animation(anim_data(kCycle, -30.0f, 2, 8));
    REQUIRE(f.seq.curr_anim()->anim_id() == kSteps);
    f.seq.remove_all_link_animations();
    REQUIRE(f.seq.size() == 1);
    CHECK(f.seq.curr_anim() == f.seq.first_cyclic());
    CHECK(f.seq.frame_number() == 9.0 - 0.00019999999);  // reversed cycle starts at high + 1 - EPS
  }
  SECTION("cursor already on the cycle keeps its frame") {
    f.seq.append_animation(anim_data(kLink));
    f.seq.append_animation(anim_data(kCycle));
    f.seq.update(8.5 / 30.0, nullptr);  // 6 link frames, then 2.5 into the cycle
    REQUIRE(f.seq.curr_anim()->anim_id() == kCycle);
    const double frame = f.seq.frame_number();
    f.seq.remove_all_link_animations();
    CHECK(f.seq.frame_number() == frame);
  }
  SECTION("no links: nothing changes") {
    f.seq.append_animation(anim_data(kCycle));
    f.seq.update(2.5 / 30.0, nullptr);
    f.seq.remove_all_link_animations();
    CHECK(f.seq.size() == 1);
    CHECK(std::floor(f.seq.frame_number()) == 2.0);
  }
  SECTION("an empty sequence") {
    f.seq.remove_all_link_animations();
    CHECK(f.seq.size() == 0);
  }
}

TEST_CASE("CSequence::apricot 0x00524B40 drops finished links from the head only", "[retail][sim][anim]") {
  Fixture f;
  f.seq.append_animation(anim_data(kLink));
  f.seq.append_animation(anim_data(kSteps));
  f.seq.append_animation(anim_data(kCycle));
  f.seq.apricot();
  CHECK(f.seq.size() == 3);           // the head is the cursor
  f.seq.update(7.5 / 30.0, nullptr);  // 6 link frames, 1.5 into kSteps
  CHECK(f.seq.curr_anim()->anim_id() == kSteps);
  CHECK(f.seq.size() == 2);  // update ran apricot: the finished link is gone
  CHECK(f.seq.head()->anim_id() == kSteps);
}

TEST_CASE("CSequence::multiply_cyclic_animation_fr 0x00524940 scales first_cyclic and after", "[retail][sim][anim]") {
  Fixture f;
  f.seq.append_animation(anim_data(kLink, 20.0f));
  f.seq.append_animation(anim_data(kCycle, 30.0f));
  f.seq.multiply_cyclic_animation_framerate(1.5f);
  CHECK(f.seq.head()->framerate() == 20.0f);
  CHECK(f.seq.tail()->framerate() == 45.0f);
}

TEST_CASE(
    "CSequence::set_velocity 0x00524880, set_omega 0x005248A0, combine_physics 0x005248C0, subtract_physics "
    "0x00524900",
    "[retail][sim][anim]") {
  Sequence s;
  s.set_velocity({1, 2, 3});
  s.set_omega({0, 0, 1});
  s.combine_physics({1, 0, 0}, {0, 0, 2});
  CHECK(s.velocity() == glm::vec3(2, 2, 3));
  CHECK(s.omega() == glm::vec3(0, 0, 3));
  s.subtract_physics({2, 2, 0}, {0, 0, 3});
  CHECK(s.velocity() == glm::vec3(0, 0, 3));
  CHECK(s.omega() == glm::vec3(0, 0, 0));
}

TEST_CASE(
    "CSequence::get_curr_animframe 0x00524970 samples floor(frame) with no interpolation, else the placement "
    "(CSequence::get_curr_frame_number 0x005249D0, CSequence::set_placement_frame 0x005249B0)",
    "[retail][sim][anim]") {
  Fixture f;
  dat::AnimationFrame placement;
  placement.part_frames.push_back(dat::Frame{{-1, 0, 0}, {1, 0, 0, 0}});
  f.seq.set_placement_frame(&placement, 0x65);
  CHECK(f.seq.get_curr_animframe() == &placement);
  f.seq.append_animation(anim_data(kCycle));
  f.seq.update(3.9 / 30.0, nullptr);
  CHECK(f.seq.get_curr_frame_number() == 3);
  REQUIRE(f.seq.get_curr_animframe() != nullptr);
  CHECK(f.seq.get_curr_animframe()->part_frames[0].origin.x == 3.0f);
}

// --- time -----------------------------------------------------------------------------

TEST_CASE(
    "CSequence::update_internal 0x005255D0 fires the hooks of every frame it leaves, forward (CSequence::update "
    "0x00525B80, CSequence::execute_hooks 0x00524830)",
    "[retail][sim][anim]") {
  Fixture f;
  f.seq.append_animation(anim_data(kCycle));
  f.seq.update(3.5 / 30.0, nullptr);
  CHECK(f.staged() == range(200, 202));  // frames 0, 1, 2 were left; 3 is current
  f.seq.update(0.4 / 30.0, nullptr);     // 3.5 -> 3.9: no boundary, no hook
  CHECK(f.staged().empty());
  SECTION("the high frame's hooks never fire; wrapping the cycle makes no AnimDone") {
    f.seq.update(7.0 / 30.0, nullptr);  // 3.9 -> 10.9: past high 9, wraps to 0.9
    CHECK(f.staged() == concat({range(203, 208)}));
    CHECK(std::floor(f.seq.frame_number()) == 0.0);
  }
  SECTION("a long frame fires every due hook, in order, across several wraps") {
    f.seq.update(1.0, nullptr);  // 3.9 + 30 frames: 3..8, then 0..8 twice, then 0..2
    CHECK(f.staged() == concat({range(203, 208), range(200, 208), range(200, 208), range(200, 202)}));
    CHECK(std::floor(f.seq.frame_number()) == 3.0);
  }
}

TEST_CASE(
    "CSequence::update_internal 0x005255D0 plays negative framerates backwards, firing high..low+1 "
    "(CSequence::execute_hooks 0x00524830)",
    "[retail][sim][anim]") {
  Fixture f;
  f.seq.append_animation(anim_data(kBoth, -30.0f));  // starts at 5 - EPS, floor 4
  f.seq.update(2.5 / 30.0, nullptr);                 // 4.9998 -> 2.4998
  CHECK(f.staged() == std::vector<std::uint32_t>{304, 303});
  f.seq.update(2.0 / 30.0, nullptr);  // -> 0.4998: frame 2, 1 left
  CHECK(f.staged() == std::vector<std::uint32_t>{302, 301});
  f.seq.update(1.0 / 30.0, nullptr);  // past low 0: clamps, wraps to 4.9998 - remainder
  CHECK(f.staged().empty());          // frame 0 (low) never fires backwards
  CHECK(f.seq.curr_anim()->anim_id() == kBoth);
}

TEST_CASE(
    "CSequence::execute_hooks 0x00524830 fires Both and the matching direction only (CSequence::set_object 0x00524820)",
    "[retail][sim][anim]") {
  Fixture f;
  SECTION("Backward hooks stay silent in forward play") {
    f.seq.append_animation(anim_data(kBack, 30.0f));
    f.seq.update(3.5 / 30.0, nullptr);
    CHECK(f.staged().empty());
  }
  SECTION("Backward hooks fire in backward play") {
    f.seq.append_animation(anim_data(kBack, -30.0f));
    f.seq.update(1.5 / 30.0, nullptr);
    CHECK(f.staged() == std::vector<std::uint32_t>{404});
  }
  SECTION("Both fires forward") {
    f.seq.append_animation(anim_data(kBoth, 30.0f));
    f.seq.update(2.5 / 30.0, nullptr);
    CHECK(f.staged() == std::vector<std::uint32_t>{300, 301});
  }
  SECTION("without an owner nothing is staged") {
    Sequence s;
    s.set_animation_source(&f.anims);
    s.append_animation(anim_data(kCycle));
    s.update(3.5 / 30.0, nullptr);
    CHECK(f.owner.object.anim_hooks().empty());
  }
}

TEST_CASE(
    "CSequence::update_internal 0x005255D0 stages AnimDone when a link finishes and carries the overshoot "
    "(CSequence::advance_to_next_animation 0x005252B0)",
    "[retail][sim][anim]") {
  Fixture f;
  f.seq.append_animation(anim_data(kLink));
  f.seq.append_animation(anim_data(kCycle));
  f.seq.update(8.25 / 30.0, nullptr);
  // Link frames 0..4 fire (5 is its high frame), AnimDone, then 2.25 frames
  // of the cycle: frames 0 and 1.
  CHECK(f.staged() == concat({range(100, 104), {kAnimDone}, range(200, 201)}));
  CHECK(f.seq.curr_anim()->anim_id() == kCycle);
  CHECK(std::fabs(f.seq.frame_number() - 2.25) < 1e-4);
  CHECK(f.seq.size() == 1);  // apricot dropped the link
}

TEST_CASE("CSequence::apply_physics 0x00524AB0 moves by |dt| with the sign of its third argument, rotating locally",
          "[retail][sim][anim]") {
  Sequence s;
  s.set_velocity({0.0f, 2.0f, 0.0f});
  core::Frame frame;
  s.apply_physics(frame, 0.5, -1.0);
  CHECK(near(frame.origin, {0.0f, -1.0f, 0.0f}));
  s.apply_physics(frame, -0.5, 1.0);
  CHECK(near(frame.origin, {0.0f, 0.0f, 0.0f}));
  // Omega is local: a frame turned 90 degrees about Z rotates about its own Z.
  s.set_velocity({0.0f, 0.0f, 0.0f});
  s.set_omega({1.0f, 0.0f, 0.0f});
  core::Frame turned({0, 0, 0}, glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 0, 1)));
  s.apply_physics(turned, 0.5, 1.0);
  // Local +X is world +Y: the result is a rotation of 0.5 rad about world +Y after the turn.
  const glm::quat expected =
      glm::angleAxis(0.5f, glm::vec3(0, 1, 0)) * glm::angleAxis(glm::half_pi<float>(), glm::vec3(0, 0, 1));
  CHECK(std::fabs(std::fabs(glm::dot(turned.orientation(), expected)) - 1.0f) < 1e-5f);
}

TEST_CASE(
    "CSequence::update 0x00525B80 root motion: pos frames and frame-quantised velocity (CSequence::update_internal "
    "0x005255D0)",
    "[retail][sim][anim]") {
  Fixture f;
  SECTION("velocity moves one frame's worth per boundary crossed, nothing in between") {
    f.seq.append_animation(anim_data(kCycle, 10.0f));
    f.seq.set_velocity({0.0f, 3.0f, 0.0f});
    core::Frame offset;
    f.seq.update(0.05, &offset);  // 0 -> 0.5: no boundary
    CHECK(near(offset.origin, {0, 0, 0}));
    f.seq.update(0.08, &offset);  // -> 1.3: one boundary, 1/10 s of velocity
    CHECK(near(offset.origin, {0.0f, 0.3f, 0.0f}));
  }
  SECTION("an empty sequence applies its physics for the whole quantum") {
    f.seq.set_velocity({0.0f, 3.0f, 0.0f});
    core::Frame offset;
    f.seq.update(0.05, &offset);
    CHECK(near(offset.origin, {0.0f, 0.15f, 0.0f}));
  }
  SECTION("framerate 0 applies the real quantum too") {
    f.seq.append_animation(anim_data(kCycle, 0.0f));
    f.seq.set_velocity({1.0f, 0.0f, 0.0f});
    core::Frame offset;
    f.seq.update(0.05, &offset);
    CHECK(near(offset.origin, {0.05f, 0.0f, 0.0f}));
  }
  SECTION("pos frames compose once per frame left") {
    f.seq.append_animation(anim_data(kSteps, 10.0f, 0, 2));  // frames 0..2 loop
    core::Frame offset;
    f.seq.update(0.25, &offset);  // 0 -> 2.5: frames 0, 1 left
    CHECK(near(offset.origin, {0.0f, 1.0f, 0.0f}));
  }
}

TEST_CASE(
    "CSequence::advance_to_next_animation 0x005252B0 applies the entry frame's delta on entry and again on leaving",
    "[retail][sim][anim]") {
  Fixture f;
  f.seq.append_animation(anim_data(kSteps, 10.0f, 0, 1));  // a 2-frame cycle with +0.5 per frame
  core::Frame offset;
  f.seq.update(0.35, &offset);
  // 0 -> 3.5 clamps at high 1: frame 0 is left (+0.5); the high frame's delta
  // is never applied. Wrap: entry into frame 0 (+0.5), then 1.5 frames of the
  // remainder leave frame 0 again (+0.5).
  CHECK(near(offset.origin, {0.0f, 1.5f, 0.0f}));
  SECTION("reverse play subtracts the deltas") {
    Fixture r;
    r.seq.append_animation(anim_data(kSteps, -10.0f, 0, 3));
    core::Frame back;
    r.seq.update(0.25, &back);  // 3.9998 -> 1.4998: frames 3, 2 left (-1.0)
    CHECK(near(back.origin, {0.0f, -1.0f, 0.0f}));
  }
}

TEST_CASE("CSequence::update_internal 0x005255D0 survives hostile framerates", "[retail][sim][anim]") {
  Fixture f;
  SECTION("NaN moves nothing") {
    f.seq.append_animation(anim_data(kCycle, std::nanf("")));
    f.seq.update(0.1, nullptr);
    CHECK(f.seq.frame_number() == 0.0);
  }
  SECTION("an enormous framerate on a one-frame cycle ends") {
    f.seq.append_animation(anim_data(kCycle, 1.0e30f, 0, 0));
    f.seq.update(0.2, nullptr);
    CHECK(f.seq.curr_anim() != nullptr);
  }
  SECTION("infinity ends") {
    f.seq.append_animation(anim_data(kCycle, std::numeric_limits<float>::infinity()));
    f.seq.update(0.2, nullptr);
    CHECK(f.seq.curr_anim() != nullptr);
  }
}

// --- the recall (seed retail-projectile-vfx section 11.3) -------------------------------

TEST_CASE(
    "CSequence::update 0x00525B80 stages the recall's frame-16 CreateParticle hook when frame 16 is left "
    "(CSequence::update_internal 0x005255D0, CSequence::execute_hooks 0x00524830)",
    "[retail][sim][anim]") {
  dat::RecordCache records(&demo_portal());
  DatObjectFactory factory(records);
  Owner owner;
  owner.context.set_factory(&factory);
  auto parts = factory.make_part_array(owner.object, demo::kHumanSetup);
  REQUIRE(parts);
  auto* dat_parts = dynamic_cast<DatPartArray*>(parts.get());
  REQUIRE(dat_parts != nullptr);
  REQUIRE(dat_parts->set_motion_table_id(demo::kHumanMotionTable));
  dat_parts->initialize_motion_tables();
  MovementParameters params;
  REQUIRE(dat_parts->do_interpreted_motion(demo::motion::Recall, params) == 0);
  Sequence& seq = dat_parts->sequence();
  REQUIRE(seq.curr_anim() != nullptr);
  REQUIRE(seq.curr_anim()->anim_id() == demo::kRecallAnimation);
  CHECK(seq.curr_anim()->framerate() == demo::kRecallFramerate);
  (void)take_staged(owner.object);

  // 30 Hz quanta: frame 16 is left when the cursor passes 17, at
  // 17 / 9.96 = 1.7068 s, i.e. in quantum 52 (1.7333 s), not quantum 51.
  const double quantum = static_cast<double>(1.0f / 30.0f);
  int fired_at = -1;
  for (int tick = 1; tick <= 60 && fired_at < 0; ++tick) {
    seq.update(quantum, nullptr);
    for (const auto& hook : owner.object.anim_hooks()) {
      const auto* h = dynamic_cast<const DatAnimHook*>(hook.get());
      if (h == nullptr) continue;
      if (const auto* p = std::get_if<dat::CreateParticleHook>(&h->hook().payload)) {
        fired_at = tick;
        CHECK(p->emitter_info == demo::kRecallEmitter);
        CHECK(p->emitter_id == demo::kRecallEmitterLogicalId);
        CHECK(p->part_index == 0xFFFFFFFFu);
      }
    }
    if (fired_at < 0) CHECK(seq.get_curr_frame_number() <= 16);
    owner.object.process_hooks();
  }
  CHECK(fired_at == 52);
  CHECK(seq.get_curr_frame_number() == 17);
}

TEST_CASE(
    "CSequence::update 0x00525B80 the recall link holds its final frame until its boundary, then AnimDone "
    "(CSequence::advance_to_next_animation 0x005252B0)",
    "[retail][sim][anim]") {
  dat::RecordCache records(&demo_portal());
  DatObjectFactory factory(records);
  const auto table = factory.get_motion_table(demo::kHumanMotionTable);
  REQUIRE(table);
  const dat::MotionData* ready = table->cycle(0x003D0003);
  REQUIRE(ready != nullptr);
  Owner owner;
  Sequence seq;
  seq.set_animation_source(&factory);
  seq.set_object(&owner.object);
  seq.append_animation(anim_data(demo::kRecallAnimation, demo::kRecallFramerate));
  seq.append_animation(ready->anims.at(0));
  const double boundary = 120.0 / static_cast<double>(demo::kRecallFramerate);
  seq.update(boundary - 0.01, nullptr);
  CHECK(seq.curr_anim()->anim_id() == demo::kRecallAnimation);
  CHECK(seq.get_curr_frame_number() == 119);  // the final authored frame, not yet Ready
  auto staged = take_staged(owner.object);
  CHECK(std::count(staged.begin(), staged.end(), kAnimDone) == 0);
  seq.update(0.02, nullptr);
  CHECK(seq.curr_anim()->anim_id() == ready->anims.at(0).anim_id);
  staged = take_staged(owner.object);
  CHECK(std::count(staged.begin(), staged.end(), kAnimDone) == 1);
}
