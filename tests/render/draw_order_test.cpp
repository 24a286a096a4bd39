#include "dereth/render/draw_order.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dereth/dat/gfx_obj_degrade_info.hpp"
#include "dereth/dat/surface.hpp"

using namespace dereth;
using render::AlphaClass;
using render::DegradeLevel;
using render::DegradeSettings;
namespace st = dat::surface_type;

namespace {

bool close(const glm::vec3& a, const glm::vec3& b, float eps = 1e-5F) {
  return std::abs(a.x - b.x) <= eps && std::abs(a.y - b.y) <= eps && std::abs(a.z - b.z) <= eps;
}

constexpr float kHalfRoot2 = 0.70710678F;

}  // namespace

TEST_CASE("CShadowPart::insertion_sort 0x006B5130 orders a cell's parts farthest first, ties in their order",
          "[retail]") {
  const std::vector<float> distances = {3.0F, 10.0F, 5.0F, 10.0F, 1.0F};
  CHECK(render::back_to_front(distances) == std::vector<std::size_t>{1, 3, 2, 0, 4});
  // Already back to front: unchanged; nearest first: reversed.
  CHECK(render::back_to_front(std::vector<float>{9.0F, 4.0F, 2.0F}) == std::vector<std::size_t>{0, 1, 2});
  CHECK(render::back_to_front(std::vector<float>{2.0F, 4.0F, 9.0F}) == std::vector<std::size_t>{2, 1, 0});
  // All equal: the visiting order stands (a part's batches stay together).
  CHECK(render::back_to_front(std::vector<float>{7.0F, 7.0F, 7.0F, 7.0F}) == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(render::back_to_front(std::vector<float>{}).empty());
  CHECK(render::back_to_front(std::vector<float>{5.0F}) == std::vector<std::size_t>{0});
  // A NaN distance compares as retail's FPU does ("<=" false: it is passed
  // over as if farther), and nothing is lost.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(render::back_to_front(std::vector<float>{nan, 2.0F, 8.0F}) == std::vector<std::size_t>{2, 1, 0});
  CHECK(render::back_to_front(std::vector<float>{2.0F, nan, 8.0F, 2.0F}) == std::vector<std::size_t>{2, 0, 3, 1});
  // Thousands of keys with many ties (a frame's particles): a permutation,
  // farthest first, equal keys in their order: the insertion sort's result.
  std::vector<float> many(5000);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = static_cast<float>((i * 7919U) % 211U) * 0.5F;
  const auto order = render::back_to_front(many);
  REQUIRE(order.size() == many.size());
  std::vector<bool> seen(many.size(), false);
  for (const std::size_t i : order) seen.at(i) = true;
  CHECK(std::all_of(seen.begin(), seen.end(), [](bool b) { return b; }));
  bool ordered = true;
  for (std::size_t k = 1; k < order.size(); ++k) {
    const float a = many[order[k - 1]];
    const float b = many[order[k]];
    if (a < b || (a == b && order[k - 1] > order[k])) ordered = false;
  }
  CHECK(ordered);
}

TEST_CASE("GfxObjDegradeInfo::get_degrade 0x0051E4B0 picks the level by distance past 50 m and deg_mul", "[retail]") {
  dat::GfxObjDegradeInfo info;
  info.id = 0x11000001;
  info.degrades = {dat::GfxObjDegrade{0x01000001, 2, 0.0F, 10.0F, 30.0F},
                   dat::GfxObjDegrade{0x01000002, 1, 20.0F, 40.0F, 80.0F}};
  // deg_mul 1: a level holds while (distance - 50) < ideal + (max - ideal).
  const DegradeSettings most{1.0F, 50.0F};
  CHECK(render::get_degrade(info, 0.0F, most) == DegradeLevel{0, 2});
  CHECK(render::get_degrade(info, 70.0F, most) == DegradeLevel{0, 2});   // 20 < 30
  CHECK(render::get_degrade(info, 80.0F, most) == DegradeLevel{1, 1});   // 30 >= 30: next level
  CHECK(render::get_degrade(info, 129.0F, most) == DegradeLevel{1, 1});  // 79 < 80
  CHECK(render::get_degrade(info, 500.0F, most) == DegradeLevel{1, 1});  // past the last: the last
  CHECK(render::get_degrade(info, -70.0F, most) == DegradeLevel{0, 2});  // |distance|
  // deg_mul 0: the ideal distance is the edge.
  const DegradeSettings middle{0.0F, 50.0F};
  CHECK(render::get_degrade(info, 59.0F, middle) == DegradeLevel{0, 2});
  CHECK(render::get_degrade(info, 61.0F, middle) == DegradeLevel{1, 1});
  // deg_mul -1: ideal + (ideal - min) * -1 = min is the edge, and a 0 edge is passed at once.
  const DegradeSettings least{-1.0F, 50.0F};
  CHECK(render::get_degrade(info, 10.0F, least) == DegradeLevel{1, 1});  // 0 <= 0 passes level 0; 0 < 20
  // No s_rDegradeDistance: distances count from the viewer.
  CHECK(render::get_degrade(info, 25.0F, DegradeSettings{1.0F, 0.0F}) == DegradeLevel{0, 2});
  CHECK(render::get_degrade(info, 35.0F, DegradeSettings{1.0F, 0.0F}) == DegradeLevel{1, 1});
  // NaN distances read as the nearest; no levels is mode 1 (retail would read before its array).
  CHECK(render::get_degrade(info, std::numeric_limits<float>::quiet_NaN(), most) == DegradeLevel{0, 2});
  CHECK(render::get_degrade(dat::GfxObjDegradeInfo{}, 10.0F, most) == DegradeLevel{0, 1});
}

TEST_CASE("CPhysicsPart::UpdateViewerDistance 0x0050E030 measures to the scaled sort centre in the part frame",
          "[retail]") {
  // A part at (10, 20, 0) turned 90 degrees left (local +Y to world -X), sort
  // centre (0, 1, 0) scaled by 2: the centre is at (8, 20, 0).
  const core::Frame part({10.0F, 20.0F, 0.0F}, glm::angleAxis(glm::radians(90.0F), glm::vec3(0, 0, 1)));
  const auto vd = render::viewer_distance({5.0F, 16.0F, 0.0F}, part, {0.0F, 1.0F, 0.0F}, glm::vec3(2.0F));
  CHECK(vd.distance == Approx(5.0F));
  CHECK(close(vd.heading, {0.6F, 0.8F, 0.0F}));
  // At the centre (within 0.0002 m) the heading is +Z.
  const auto at = render::viewer_distance({8.0F, 20.0F, 0.0F}, part, {0.0F, 1.0F, 0.0F}, glm::vec3(2.0F));
  CHECK(at.distance == Approx(0.0F).margin(1e-5));
  CHECK(at.heading == glm::vec3(0.0F, 0.0F, 1.0F));
}

TEST_CASE(
    "CPhysicsPart::calc_draw_frame 0x0050DFA0 keeps the frame for mode 1 and turns it to the viewer for 2..5 "
    "(Frame::rotate_around_axis_to_vector 0x00535A40)",
    "[retail]") {
  const core::Frame posed({1.0F, 2.0F, 3.0F}, glm::angleAxis(0.3F, glm::normalize(glm::vec3(1, 2, 3))));
  const glm::vec3 heading = glm::normalize(glm::vec3(1.0F, 1.0F, 0.5F));
  SECTION("mode 1 and unknown modes: the part's own frame") {
    for (const std::uint32_t mode : {1U, 0U, 6U, 0xFFFFFFFFU}) {
      const core::Frame f = render::calc_draw_frame(posed, mode, heading);
      CHECK(f.orientation() == posed.orientation());
      CHECK(f.origin == posed.origin);
    }
  }
  SECTION("mode 2: local +Y along the viewer heading (Frame::set_vector_heading), origin kept") {
    const core::Frame f = render::calc_draw_frame(posed, 2, heading);
    CHECK(close(f.forward(), heading));
    CHECK(f.origin == posed.origin);
  }
  const core::Frame identity;
  SECTION("mode 5: about local Z, local +Y to the heading's level part, Z kept") {
    const core::Frame f = render::calc_draw_frame(identity, 5, heading);
    CHECK(close(f.forward(), {kHalfRoot2, kHalfRoot2, 0.0F}));
    CHECK(close(f.up(), {0.0F, 0.0F, 1.0F}));
    CHECK(close(f.right(), {kHalfRoot2, -kHalfRoot2, 0.0F}));  // Y x Z
  }
  SECTION("mode 3: about local X, local +Z to the heading's part across X") {
    const core::Frame f = render::calc_draw_frame(identity, 3, glm::normalize(glm::vec3(0.0F, 1.0F, 1.0F)));
    CHECK(close(f.right(), {1.0F, 0.0F, 0.0F}));
    CHECK(close(f.up(), {0.0F, kHalfRoot2, kHalfRoot2}));
    CHECK(close(f.forward(), {0.0F, kHalfRoot2, -kHalfRoot2}));  // Z x X
  }
  SECTION("mode 4: about local Y; a heading along Y itself falls back to local X and changes nothing") {
    const core::Frame f = render::calc_draw_frame(identity, 4, {0.0F, 1.0F, 0.0F});
    CHECK(close(f.right(), {1.0F, 0.0F, 0.0F}));
    CHECK(close(f.forward(), {0.0F, 1.0F, 0.0F}));
    CHECK(close(f.up(), {0.0F, 0.0F, 1.0F}));
    const core::Frame g = render::calc_draw_frame(identity, 4, glm::normalize(glm::vec3(0.0F, 1.0F, 1.0F)));
    CHECK(close(g.right(), {0.0F, 0.0F, 1.0F}));  // X to the heading's part across Y
    CHECK(close(g.up(), {-1.0F, 0.0F, 0.0F}));    // X x Y
  }
  SECTION("Frame::rotate_around_axis_to_vector ignores an axis outside 0..2") {
    core::Frame f = posed;
    render::rotate_around_axis_to_vector(f, 3, heading);
    CHECK(f.orientation() == posed.orientation());
  }
}

TEST_CASE("D3DPolyRender::ConstructMesh 0x0059DFA0 and DrawMesh 0x0059D4A0 send surfaces to the clip or alpha list",
          "[retail]") {
  CHECK(render::alpha_class(st::kBase1Image, false) == AlphaClass::Opaque);
  CHECK(render::alpha_class(st::kBase1Solid, false) == AlphaClass::Opaque);
  CHECK(render::alpha_class(st::kBase1Image | st::kAlpha, false) == AlphaClass::Alpha);
  CHECK(render::alpha_class(st::kBase1Image | st::kInvAlpha, false) == AlphaClass::Alpha);
  CHECK(render::alpha_class(st::kBase1Image | st::kAdditive, false) == AlphaClass::Alpha);
  CHECK(render::alpha_class(st::kBase1ClipMap, false) == AlphaClass::Clip);
  // Alpha, InvAlpha and Additive are tested before ClipMap: the demo's additive clip-mapped glow is an alpha draw.
  CHECK(render::alpha_class(st::kBase1ClipMap | st::kAdditive, false) == AlphaClass::Alpha);
  CHECK(render::alpha_class(st::kBase1Image | st::kTranslucent, false) == AlphaClass::Alpha);
  CHECK(render::alpha_class(st::kBase1ClipMap | st::kTranslucent, false) == AlphaClass::Clip);
  // A part whose material carries alpha delays an otherwise opaque surface to the alpha list.
  CHECK(render::alpha_class(st::kBase1Image, true) == AlphaClass::Alpha);
  CHECK(render::alpha_class(st::kBase1ClipMap, true) == AlphaClass::Clip);
}
