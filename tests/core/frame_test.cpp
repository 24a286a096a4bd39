#include "dereth/core/frame.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "dereth/core/clock.hpp"

using dereth::core::Frame;

namespace {

constexpr float kPi = 3.14159265358979f;

void check_vec(const glm::vec3& actual, const glm::vec3& expected, float margin = 1e-5f) {
  INFO("actual (" << actual.x << ", " << actual.y << ", " << actual.z << ") expected (" << expected.x << ", "
                  << expected.y << ", " << expected.z << ")");
  CHECK(actual.x == Approx(expected.x).margin(margin));
  CHECK(actual.y == Approx(expected.y).margin(margin));
  CHECK(actual.z == Approx(expected.z).margin(margin));
}

// q and -q are the same rotation.
void check_same_rotation(const glm::quat& actual, const glm::quat& expected, float margin = 1e-5f) {
  const float dot = actual.w * expected.w + actual.x * expected.x + actual.y * expected.y + actual.z * expected.z;
  INFO("actual (" << actual.w << ", " << actual.x << ", " << actual.y << ", " << actual.z << ") expected ("
                  << expected.w << ", " << expected.x << ", " << expected.y << ", " << expected.z << ")");
  CHECK(std::fabs(dot) == Approx(1.0f).margin(margin));
}

void check_quat(const glm::quat& actual, const glm::quat& expected, float margin = 1e-6f) {
  CHECK(actual.w == Approx(expected.w).margin(margin));
  CHECK(actual.x == Approx(expected.x).margin(margin));
  CHECK(actual.y == Approx(expected.y).margin(margin));
  CHECK(actual.z == Approx(expected.z).margin(margin));
}

// The distance between two compass headings, across the 0/360 wrap.
float heading_difference(float a, float b) {
  const float d = std::fabs(a - b);
  return d > 180.0f ? 360.0f - d : d;
}

Frame sample_frame_a() {
  return Frame(glm::vec3(12.5f, -3.25f, 40.0f), glm::normalize(glm::quat(0.8f, 0.1f, -0.3f, 0.5f)));
}

Frame sample_frame_b() {
  return Frame(glm::vec3(-1.5f, 2.0f, 0.75f), glm::normalize(glm::quat(0.2f, -0.6f, 0.4f, 0.1f)));
}

}  // namespace

TEST_CASE("Frame: default is the identity", "[frame]") {
  const Frame f;
  check_vec(f.origin, glm::vec3(0.0f));
  check_quat(f.orientation(), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  check_vec(f.right(), glm::vec3(1, 0, 0));
  check_vec(f.forward(), glm::vec3(0, 1, 0));
  check_vec(f.up(), glm::vec3(0, 0, 1));
}

TEST_CASE("Frame::set_rotate normalises and keeps the old orientation on invalid input", "[frame]") {
  Frame f;
  CHECK(f.set_rotate(glm::quat(2.0f, 0.0f, 0.0f, 2.0f)));
  const float h = std::sqrt(0.5f);
  check_quat(f.orientation(), glm::quat(h, 0.0f, 0.0f, h));
  const glm::quat before = f.orientation();

  CHECK_FALSE(f.set_rotate(glm::quat(0.0f, 0.0f, 0.0f, 0.0f)));
  CHECK(f.orientation() == before);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(f.set_rotate(glm::quat(nan, 0.0f, 0.0f, 0.0f)));
  CHECK(f.orientation() == before);
  const float inf = std::numeric_limits<float>::infinity();
  CHECK_FALSE(f.set_rotate(glm::quat(1.0f, inf, 0.0f, 0.0f)));
  CHECK(f.orientation() == before);
  // The cached matrix still matches the kept orientation.
  check_vec(f.forward(), glm::vec3(-1.0f, 0.0f, 0.0f));

  const Frame bad(glm::vec3(1, 2, 3), glm::quat(0.0f, 0.0f, 0.0f, 0.0f));
  check_quat(bad.orientation(), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
}

TEST_CASE("Frame::combine: origin = A.origin + R(A)*B.origin, q = A.q*B.q", "[frame]") {
  // A: at (10, 20, 0) facing east (heading 90).
  Frame a;
  a.origin = glm::vec3(10.0f, 20.0f, 0.0f);
  a.set_heading(90.0f);
  Frame b;
  b.origin = glm::vec3(0.0f, 2.0f, 1.0f);  // two metres ahead, one up, in A's space
  b.set_heading(90.0f);
  const Frame c = Frame::combine(a, b);
  check_vec(c.origin, glm::vec3(12.0f, 20.0f, 1.0f));
  CHECK(heading_difference(c.get_heading(), 180.0f) < 1e-3f);
  check_same_rotation(c.orientation(), a.orientation() * b.orientation());

  const Frame scaled = Frame::combine(a, b, glm::vec3(1.0f, 3.0f, 0.5f));
  check_vec(scaled.origin, glm::vec3(16.0f, 20.0f, 0.5f));
  check_same_rotation(scaled.orientation(), c.orientation());

  const Frame with_identity = Frame::combine(sample_frame_a(), Frame());
  check_vec(with_identity.origin, sample_frame_a().origin);
  check_same_rotation(with_identity.orientation(), sample_frame_a().orientation());
}

TEST_CASE("Frame::subtract1 undoes Frame::combine", "[frame]") {
  const Frame x = sample_frame_a();
  const Frame b = sample_frame_b();
  const Frame c = Frame::combine(x, b);
  const Frame back = Frame::subtract1(c, b);
  check_vec(back.origin, x.origin, 1e-4f);
  check_quat(back.orientation(), x.orientation(), 1e-5f);

  // And the other way round: combine(subtract1(C, B), B) == C.
  const Frame again = Frame::combine(Frame::subtract1(c, b), b);
  check_vec(again.origin, c.origin, 1e-4f);
  check_same_rotation(again.orientation(), c.orientation());
}

TEST_CASE("Frame: local/global conversions are inverse pairs", "[frame]") {
  const Frame f = sample_frame_a();
  const glm::vec3 points[] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {3.5f, -7.25f, 2.0f}, {-100.0f, 50.0f, 0.5f}};
  for (const auto& p : points) {
    check_vec(f.globaltolocal(f.localtoglobal(p)), p, 1e-4f);
    check_vec(f.localtoglobal(f.globaltolocal(p)), p, 1e-4f);
    check_vec(f.globaltolocalvec(f.localtoglobalvec(p)), p, 1e-4f);
    check_vec(f.localtoglobalvec(f.globaltolocalvec(p)), p, 1e-4f);
    // Points carry the origin; vectors do not.
    check_vec(f.localtoglobal(p) - f.origin, f.localtoglobalvec(p), 1e-4f);
  }
  // The matrix columns are the local axes in world space.
  check_vec(f.localtoglobalvec(glm::vec3(1, 0, 0)), f.right());
  check_vec(f.localtoglobalvec(glm::vec3(0, 1, 0)), f.forward());
  check_vec(f.localtoglobalvec(glm::vec3(0, 0, 1)), f.up());
  // The matrix agrees with rotating by the quaternion.
  check_vec(f.localtoglobalvec(glm::vec3(3.5f, -7.25f, 2.0f)), f.orientation() * glm::vec3(3.5f, -7.25f, 2.0f), 1e-4f);
}

TEST_CASE("Frame heading: set_heading/get_heading round trips and the yaw quaternion", "[frame]") {
  const float headings[] = {0.0f, 45.0f, 90.0f, 180.0f, 270.0f, 135.5f, 359.0f};
  for (const float h : headings) {
    INFO("heading " << h);
    Frame f;
    f.set_heading(h);
    CHECK(heading_difference(f.get_heading(), h) < 1e-3f);
    CHECK(f.get_heading() >= 0.0f);
    CHECK(f.get_heading() < 360.0f);
    // Yaw-only: q = (cos(h/2), 0, 0, -sin(h/2)), h in radians.
    const float r = h * kPi / 180.0f;
    check_same_rotation(f.orientation(), glm::quat(std::cos(r / 2.0f), 0.0f, 0.0f, -std::sin(r / 2.0f)), 1e-6f);
    CHECK(f.orientation().x == Approx(0.0f).margin(1e-6f));
    CHECK(f.orientation().y == Approx(0.0f).margin(1e-6f));
    // Forward is (sin h, cos h, 0).
    check_vec(f.forward(), glm::vec3(std::sin(r), std::cos(r), 0.0f));
  }

  // The exact quaternions of the compass points.
  const float h = std::sqrt(0.5f);
  Frame f;
  f.set_heading(90.0f);
  check_quat(f.orientation(), glm::quat(h, 0.0f, 0.0f, -h));
  check_vec(f.forward(), glm::vec3(1.0f, 0.0f, 0.0f));  // east
  f.set_heading(0.0f);
  check_quat(f.orientation(), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  f.set_heading(270.0f);
  check_same_rotation(f.orientation(), glm::quat(-h, 0.0f, 0.0f, -h));
  check_vec(f.forward(), glm::vec3(-1.0f, 0.0f, 0.0f));  // west
  f.set_heading(180.0f);
  check_same_rotation(f.orientation(), glm::quat(0.0f, 0.0f, 0.0f, 1.0f));
  check_vec(f.forward(), glm::vec3(0.0f, -1.0f, 0.0f));  // south

  // A frame built directly from the yaw quaternion reads back its heading.
  const float r45 = 45.0f * kPi / 180.0f;
  const Frame direct(glm::vec3(0.0f), glm::quat(std::cos(r45 / 2.0f), 0.0f, 0.0f, -std::sin(r45 / 2.0f)));
  CHECK(direct.get_heading() == Approx(45.0f).margin(1e-3f));
}

TEST_CASE("Frame::grotate about Z turns the compass heading", "[frame]") {
  Frame f;
  // Compass headings run clockwise seen from +Z: a negative turn about +Z.
  f.grotate(glm::vec3(0.0f, 0.0f, -kPi / 2.0f));
  CHECK(f.get_heading() == Approx(90.0f).margin(1e-3f));
  f.grotate(glm::vec3(0.0f, 0.0f, -kPi / 4.0f));
  CHECK(f.get_heading() == Approx(135.0f).margin(1e-3f));
  f.grotate(glm::vec3(0.0f, 0.0f, kPi));
  CHECK(f.get_heading() == Approx(315.0f).margin(1e-3f));

  Frame g;
  g.grotate(glm::vec3(0.0f, 0.0f, kPi / 2.0f));
  CHECK(g.get_heading() == Approx(270.0f).margin(1e-3f));
}

TEST_CASE("Frame::grotate ignores rotations below EPSILON", "[frame]") {
  Frame f = sample_frame_a();
  const glm::quat before = f.orientation();
  f.grotate(glm::vec3(0.0001f, 0.0001f, 0.0f));  // |w| ~ 0.000141 < 0.0002
  CHECK(f.orientation() == before);
  f.grotate(glm::vec3(0.0f, 0.0f, 0.001f));
  CHECK_FALSE(f.orientation() == before);
}

TEST_CASE("Frame::rotate is grotate of the local axis", "[frame]") {
  Frame local = sample_frame_a();
  Frame global = sample_frame_a();
  const glm::vec3 w(0.3f, -0.2f, 0.9f);
  local.rotate(w);
  global.grotate(global.localtoglobalvec(w));
  check_quat(local.orientation(), global.orientation());

  // A frame facing east, rotated about its own +X (right = south), pitches its nose up.
  Frame east;
  east.set_heading(90.0f);
  east.rotate(glm::vec3(kPi / 2.0f, 0.0f, 0.0f));
  check_vec(east.forward(), glm::vec3(0.0f, 0.0f, 1.0f));
}

TEST_CASE("Frame::interpolate_rotation slerps the shortest way and falls back to nlerp", "[frame]") {
  Frame from;
  Frame to;
  to.set_heading(90.0f);
  Frame f;
  f.origin = glm::vec3(1.0f, 2.0f, 3.0f);
  f.interpolate_rotation(from, to, 0.0f);
  check_same_rotation(f.orientation(), from.orientation());
  f.interpolate_rotation(from, to, 1.0f);
  check_same_rotation(f.orientation(), to.orientation());
  f.interpolate_rotation(from, to, 0.5f);
  CHECK(f.get_heading() == Approx(45.0f).margin(1e-3f));
  f.interpolate_rotation(from, to, 0.25f);
  CHECK(f.get_heading() == Approx(22.5f).margin(1e-3f));  // slerp: constant angular rate
  check_vec(f.origin, glm::vec3(1.0f, 2.0f, 3.0f));

  // The same rotation written as -q: the blend takes the short way.
  const glm::quat q = to.orientation();
  const glm::quat flipped(-q.w, -q.x, -q.y, -q.z);
  const glm::quat mid = dereth::core::interpolate_rotation(from.orientation(), flipped, 0.5f);
  Frame m(glm::vec3(0.0f), mid);
  CHECK(m.get_heading() == Approx(45.0f).margin(1e-3f));

  // Nearly equal rotations: nlerp, still unit length.
  Frame near_a;
  near_a.set_heading(10.0f);
  Frame near_b;
  near_b.set_heading(10.01f);
  const glm::quat n = dereth::core::interpolate_rotation(near_a.orientation(), near_b.orientation(), 0.5f);
  CHECK(glm::length(n) == Approx(1.0f).margin(1e-6f));
  CHECK(Frame(glm::vec3(0.0f), n).get_heading() == Approx(10.005f).margin(1e-3f));

  // t outside [0, 1] pushes a slerp weight out of range: weights (1 - t, t).
  const glm::quat e = dereth::core::interpolate_rotation(from.orientation(), to.orientation(), 1.5f);
  const glm::quat a = from.orientation();
  const glm::quat b = to.orientation();
  check_same_rotation(e, glm::normalize(glm::quat(-0.5f * a.w + 1.5f * b.w, -0.5f * a.x + 1.5f * b.x,
                                                  -0.5f * a.y + 1.5f * b.y, -0.5f * a.z + 1.5f * b.z)));
}

TEST_CASE("Frame::set_vector_heading 0x00535DB0 points local +Y along the full 3D vector", "[retail][frame]") {
  const glm::vec3 directions[] = {
      {1.0f, 2.0f, 3.0f}, {0.0f, 5.0f, -2.0f}, {-3.0f, -1.0f, 0.5f}, {4.0f, 0.0f, 0.0f}, {0.3f, -0.4f, -1.2f},
  };
  for (const auto& d : directions) {
    INFO("direction (" << d.x << ", " << d.y << ", " << d.z << ")");
    Frame f = sample_frame_a();
    const glm::vec3 origin = f.origin;
    f.set_vector_heading(d);
    const glm::vec3 n = glm::normalize(d);
    // Local +Y lands on the normalised vector: pitch included, not yaw-only.
    check_vec(f.localtoglobalvec(glm::vec3(0.0f, 1.0f, 0.0f)), n, 1e-5f);
    check_vec(f.origin, origin, 0.0f);
    CHECK(f.get_heading() == Approx(dereth::core::compass_heading(d)).margin(1e-3f));
    // No roll: local +X stays horizontal.
    CHECK(f.right().z == Approx(0.0f).margin(1e-6f));
  }

  // A vector with z != 0 gives a frame whose forward leaves the horizontal plane,
  // which a yaw-only rotation could never do.
  Frame f;
  f.set_vector_heading(glm::vec3(0.0f, 1.0f, 1.0f));
  const float h = std::sqrt(0.5f);
  check_vec(f.forward(), glm::vec3(0.0f, h, h), 1e-5f);
  CHECK(f.orientation().x != Approx(0.0f).margin(1e-3f));
}

TEST_CASE("Frame::set_vector_heading 0x00535DB0 ignores a tiny vector", "[retail][frame]") {
  Frame f = sample_frame_a();
  const glm::quat before = f.orientation();
  const glm::vec3 origin = f.origin;
  f.set_vector_heading(glm::vec3(0.0f, 0.0f, 0.0f));
  CHECK(f.orientation() == before);
  f.set_vector_heading(glm::vec3(0.0001f, 0.0001f, 0.0f));  // |d| < 0.0002
  CHECK(f.orientation() == before);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  f.set_vector_heading(glm::vec3(nan, 1.0f, 0.0f));
  CHECK(f.orientation() == before);
  CHECK(f.origin == origin);
}

TEST_CASE("Frame::set_heading keeps the forward axis's z", "[frame]") {
  Frame f;
  f.set_vector_heading(glm::vec3(0.0f, 1.0f, 1.0f));  // pitched up 45 degrees, facing north
  const float z = f.forward().z;
  f.set_heading(90.0f);
  CHECK(f.get_heading() == Approx(90.0f).margin(1e-3f));
  // The direction (sin h, cos h, z) = (1, 0, z) normalised.
  check_vec(f.forward(), glm::normalize(glm::vec3(1.0f, 0.0f, z)), 1e-5f);
}

TEST_CASE("compass_heading: 0 = north, 90 = east", "[frame]") {
  using dereth::core::compass_heading;
  CHECK(compass_heading(glm::vec3(0.0f, 1.0f, 0.0f)) == Approx(0.0f).margin(1e-4f));
  CHECK(compass_heading(glm::vec3(1.0f, 0.0f, 0.0f)) == Approx(90.0f).margin(1e-4f));
  CHECK(compass_heading(glm::vec3(0.0f, -1.0f, 0.0f)) == Approx(180.0f).margin(1e-4f));
  CHECK(compass_heading(glm::vec3(-1.0f, 0.0f, 0.0f)) == Approx(270.0f).margin(1e-4f));
  CHECK(compass_heading(glm::vec3(1.0f, 1.0f, 7.0f)) == Approx(45.0f).margin(1e-4f));
  const float slightly_west = compass_heading(glm::vec3(-1e-7f, 1.0f, 0.0f));
  CHECK(slightly_west >= 0.0f);
  CHECK(slightly_west < 360.0f);
}

namespace {

// Bit-for-bit equality (signed zeros and NaN payloads told apart).
template <typename T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

bool matrix_matches_orientation(const Frame& f) {
  return same_bits(f.matrix(), glm::mat3_cast(f.orientation()));
}

// Frame::combine as retail writes it, with nothing skipped: the result starts
// as the identity, origin = a.origin + R(a)*(b.origin*scale), q = a.q*b.q
// through set_rotate.
Frame reference_combine(const Frame& a, const Frame& b, const glm::vec3& scale) {
  Frame out;
  out.origin = a.origin + glm::mat3_cast(a.orientation()) * (b.origin * scale);
  out.set_rotate(a.orientation() * b.orientation());
  return out;
}

}  // namespace

TEST_CASE("Frame: the cached matrix is the orientation's, bit for bit, after every operation", "[frame]") {
  Frame f;
  CHECK(matrix_matches_orientation(f));
  f.set_rotate(glm::quat(0.8f, 0.1f, -0.3f, 0.5f));
  CHECK(matrix_matches_orientation(f));
  // The same orientation again, and a rejected one, keep the matrix.
  f.set_rotate(f.orientation());
  CHECK(matrix_matches_orientation(f));
  CHECK_FALSE(f.set_rotate(glm::quat(0.0f, 0.0f, 0.0f, 0.0f)));
  CHECK(matrix_matches_orientation(f));
  for (int i = 0; i < 200; ++i) {
    f.grotate(glm::vec3(0.0f, 0.0f, 0.0167f));
    REQUIRE(matrix_matches_orientation(f));
    f.rotate(glm::vec3(0.01f, -0.02f, 0.0f));
    REQUIRE(matrix_matches_orientation(f));
    f = Frame::combine(f, Frame());
    REQUIRE(matrix_matches_orientation(f));
    f = Frame::combine(f, sample_frame_b(), glm::vec3(1.0f, 2.0f, 0.5f));
    REQUIRE(matrix_matches_orientation(f));
  }
  f.set_heading(135.0f);
  CHECK(matrix_matches_orientation(f));
  f.set_vector_heading(glm::vec3(1.0f, 2.0f, 0.5f));
  CHECK(matrix_matches_orientation(f));
  f.interpolate_rotation(sample_frame_a(), sample_frame_b(), 0.3f);
  CHECK(matrix_matches_orientation(f));
  CHECK(matrix_matches_orientation(Frame::subtract1(sample_frame_a(), sample_frame_b())));
}

TEST_CASE("Frame::combine gives the full formula's bits: zero offsets, signed zeros, NaN and infinite origins",
          "[frame]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float coordinates[] = {12.5f, -3.25f, 0.0f, -0.0f, nan, inf, 1e-30f};
  const glm::vec3 offsets[] = {glm::vec3(0.0f), glm::vec3(-0.0f), glm::vec3(0.0f, -0.0f, 0.0f),
                               glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(-1.5f, 2.0f, 0.75f)};
  const glm::quat orientations[] = {glm::quat(1.0f, 0.0f, 0.0f, 0.0f), glm::quat(0.8f, 0.1f, -0.3f, 0.5f),
                                    glm::quat(0.0f, 0.0f, 0.0f, 1.0f), glm::quat(-0.0f, 1.0f, 0.0f, -0.0f)};
  const glm::vec3 scales[] = {glm::vec3(1.0f), glm::vec3(2.0f, 0.5f, -1.0f)};
  int cases = 0;
  for (const glm::quat& qa : orientations) {
    for (float x : coordinates) {
      for (float z : coordinates) {
        Frame a;
        a.set_rotate(qa);
        a.origin = glm::vec3(x, -2.0f, z);
        for (const glm::vec3& offset : offsets) {
          for (const glm::quat& qb : orientations) {
            Frame b;
            b.set_rotate(qb);
            b.origin = offset;
            for (const glm::vec3& scale : scales) {
              const Frame expected = reference_combine(a, b, scale);
              const Frame actual = scale == glm::vec3(1.0f) ? Frame::combine(a, b) : Frame::combine(a, b, scale);
              INFO("a (" << x << ", -2, " << z << ") offset (" << offset.x << ", " << offset.y << ", " << offset.z
                         << ")");
              REQUIRE(same_bits(actual.origin, expected.origin));
              REQUIRE(same_bits(actual.orientation(), expected.orientation()));
              REQUIRE(same_bits(actual.matrix(), expected.matrix()));
              ++cases;
            }
          }
        }
      }
    }
  }
  CHECK(cases == 4 * 7 * 7 * 5 * 4 * 2);
}

namespace {

// Frame::set_rotate's normalisation as retail writes it, with nothing
// skipped: length, the validity checks, 1 / length, four products.
bool reference_normalise(const glm::quat& q, glm::quat& out) {
  const float length = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  if (!(length > 0.0f) || !std::isfinite(length)) return false;
  const float inv = 1.0f / length;
  if (!std::isfinite(inv)) return false;
  out = glm::quat(q.w * inv, q.x * inv, q.y * inv, q.z * inv);
  return true;
}

}  // namespace

TEST_CASE("Frame::set_rotate gives the written-out normalisation's bits, a length of exactly 1 included", "[frame]") {
  // A spinning object's orientation goes through set_rotate twice a tick
  // (combine, then grotate), the second time already normalised: the
  // shortcut for a length of exactly 1 must give the formula's bits.
  std::uint32_t state = 12345u;
  const auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f * 2.0f - 1.0f;
  };
  int exact_length_one = 0;
  for (int i = 0; i < 20000; ++i) {
    glm::quat q(next(), next(), next(), next());
    if (i % 4 == 1) q.x = 0.0f;
    if (i % 4 == 2) q = glm::quat(q.w, -0.0f, 0.0f, q.z);  // yaw only, signed zeros
    glm::quat once;
    if (!reference_normalise(q, once)) continue;
    Frame f;
    REQUIRE(f.set_rotate(q));
    REQUIRE(same_bits(f.orientation(), once));
    // Normalising the normalised quaternion again, as the next tick does.
    glm::quat twice;
    REQUIRE(reference_normalise(once, twice));
    REQUIRE(f.set_rotate(once));
    REQUIRE(same_bits(f.orientation(), twice));
    REQUIRE(matrix_matches_orientation(f));
    const float length = std::sqrt(once.w * once.w + once.x * once.x + once.y * once.y + once.z * once.z);
    if (length == 1.0f) ++exact_length_one;
  }
  // The shortcut is exercised, and so is the full path.
  CHECK(exact_length_one > 1000);
  CHECK(exact_length_one < 19000);
}

TEST_CASE("Frame::combine with the identity offset gives glm's product bits for every sign of zero", "[frame]") {
  // Every orientation with components from {+0, -0, 0.5, -0.5} (the
  // all-zero ones are rejected by set_rotate): the identity offset's product
  // is a's orientation except where a holds a zero, whose sign the product's
  // sums decide.
  const float values[] = {0.0f, -0.0f, 0.5f, -0.5f};
  int cases = 0;
  for (float w : values) {
    for (float x : values) {
      for (float y : values) {
        for (float z : values) {
          Frame a;
          if (!a.set_rotate(glm::quat(w, x, y, z))) continue;
          a.origin = glm::vec3(3.0f, -0.0f, 40.0f);
          for (const Frame& b : {Frame(), Frame(glm::vec3(0.0f, 1.0f, 0.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f))}) {
            const Frame expected = reference_combine(a, b, glm::vec3(1.0f));
            const Frame actual = Frame::combine(a, b);
            INFO("q (" << w << ", " << x << ", " << y << ", " << z << ")");
            REQUIRE(same_bits(actual.origin, expected.origin));
            REQUIRE(same_bits(actual.orientation(), expected.orientation()));
            REQUIRE(same_bits(actual.matrix(), expected.matrix()));
            ++cases;
          }
        }
      }
    }
  }
  CHECK(cases == 2 * (4 * 4 * 4 * 4 - 16));
}

namespace {

// glm's product with nothing skipped, forced through memory so the compiler
// cannot fold the identity's terms away.
glm::quat reference_product(const glm::quat& a, const glm::quat& b) {
  volatile float bw = b.w;
  volatile float bx = b.x;
  volatile float by = b.y;
  volatile float bz = b.z;
  return a * glm::quat(bw, bx, by, bz);
}

// Bit for bit, except that a NaN matches any NaN: which operand's NaN an SSE
// sum passes on depends on the order the compiler gives the operands, and
// normalise rejects a quaternion with a NaN whatever its bits.
bool same_bits_or_nans(const glm::quat& a, const glm::quat& b) {
  for (int i = 0; i < 4; ++i) {
    if (std::isnan(a[i]) && std::isnan(b[i])) continue;
    if (!same_bits(a[i], b[i])) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("core::detail::product gives glm's product bits for every sign of zero, and NaN where glm has NaN",
          "[frame]") {
  // Every a with components from the list (9^4 = 6561), times the exact
  // identity (every addend beside a's own component a signed zero) and times an
  // identity with one signed zero or a w of -1 (the full product).
  const float inf = std::numeric_limits<float>::infinity();
  const float values[] = {
      0.0f, -0.0f, 0.5f, -0.75f, 1e-40f, -1e-40f, inf, -inf, std::numeric_limits<float>::quiet_NaN()};
  const glm::quat identities[] = {glm::quat(1.0f, 0.0f, 0.0f, 0.0f), glm::quat(1.0f, -0.0f, 0.0f, 0.0f),
                                  glm::quat(1.0f, 0.0f, 0.0f, -0.0f), glm::quat(-1.0f, 0.0f, 0.0f, 0.0f)};
  int cases = 0;
  int shortcut_zeros = 0;
  for (float w : values) {
    for (float x : values) {
      for (float y : values) {
        for (float z : values) {
          const glm::quat a(w, x, y, z);
          for (const glm::quat& b : identities) {
            const glm::quat expected = reference_product(a, b);
            const glm::quat actual = dereth::core::detail::product(a, b);
            INFO("a (" << w << ", " << x << ", " << y << ", " << z << ") b (" << b.w << ", " << b.x << ", " << b.y
                       << ", " << b.z << ")");
            REQUIRE(same_bits_or_nans(actual, expected));
            ++cases;
          }
          if ((w == 0.0f || x == 0.0f || y == 0.0f || z == 0.0f) && std::isfinite(w) && std::isfinite(x) &&
              std::isfinite(y) && std::isfinite(z)) {
            ++shortcut_zeros;
          }
        }
      }
    }
  }
  CHECK(cases == 9 * 9 * 9 * 9 * 4);
  // The written-out product against glm's for quaternions of every sign.
  std::uint32_t state = 777u;
  const auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f * 2.0f - 1.0f;
  };
  for (int i = 0; i < 5000; ++i) {
    const glm::quat p(next(), next(), next(), next());
    const glm::quat q(next(), i % 3 == 0 ? -0.0f : next(), next(), next());
    REQUIRE(same_bits(dereth::core::detail::product(p, q), reference_product(p, q)));
  }
  // 6^4 finite quaternions, 4^4 of them with no zero.
  CHECK(shortcut_zeros == 6 * 6 * 6 * 6 - 4 * 4 * 4 * 4);
}

TEST_CASE("Frame::combine_turned gives combine then grotate's bits, and the turn cache grotate's", "[frame]") {
  using dereth::core::TurnCache;
  const float inf = std::numeric_limits<float>::infinity();
  const glm::quat orientations[] = {glm::quat(1.0f, 0.0f, 0.0f, 0.0f),   glm::quat(0.8f, 0.1f, -0.3f, 0.5f),
                                    glm::quat(0.0f, 0.0f, 0.0f, 1.0f),   glm::quat(-0.0f, 1.0f, 0.0f, -0.0f),
                                    glm::quat(0.6f, -0.0f, 0.0f, -0.8f), glm::quat(0.9f, 0.0f, -0.0f, 0.1f)};
  const glm::vec3 offsets[] = {glm::vec3(0.0f), glm::vec3(-0.0f, 0.0f, -0.0f), glm::vec3(-1.5f, 2.0f, 0.75f)};
  const glm::quat offset_orientations[] = {glm::quat(1.0f, 0.0f, 0.0f, 0.0f), glm::quat(0.2f, -0.6f, 0.4f, 0.1f),
                                           glm::quat(inf, 0.0f, 0.0f, 0.0f)};
  // Turns below EPSILON, about Z, about a tilted axis, signed zeros, a NaN.
  const glm::vec3 turns[] = {glm::vec3(0.0f),
                             glm::vec3(0.0f, 0.0f, 1e-5f),
                             glm::vec3(0.0f, 0.0f, 0.5f / 30.0f),
                             glm::vec3(-0.0f, 0.0f, -0.0167f),
                             glm::vec3(0.3f, -0.2f, 0.1f),
                             glm::vec3(0.0f, std::numeric_limits<float>::quiet_NaN(), 0.0f)};
  int cases = 0;
  for (const glm::quat& qa : orientations) {
    for (const glm::vec3& offset : offsets) {
      for (const glm::quat& qb : offset_orientations) {
        Frame a;
        a.set_rotate(qa);
        a.origin = glm::vec3(12.5f, -0.0f, 40.0f);
        Frame b;
        b.set_rotate(qb);
        b.origin = offset;
        // One cache through every turn twice over: each turn misses and then
        // hits (the same bits again).
        TurnCache cache;
        for (int pass = 0; pass < 2; ++pass) {
          for (const glm::vec3& turn : turns) {
            for (int again = 0; again < 2; ++again) {
              Frame expected = Frame::combine(a, b);
              expected.grotate(turn);
              const Frame actual = Frame::combine_turned(a, b, turn, cache);
              REQUIRE(same_bits(actual.origin, expected.origin));
              REQUIRE(same_bits(actual.orientation(), expected.orientation()));
              REQUIRE(same_bits(actual.matrix(), expected.matrix()));
              REQUIRE(matrix_matches_orientation(actual));
              ++cases;
            }
          }
        }
      }
    }
  }
  CHECK(cases == 6 * 3 * 3 * 2 * 6 * 2);
}

TEST_CASE("Frame::combine_turned carries a spinning object tick after tick as combine and grotate do", "[frame]") {
  // An object spinning about Z (x = y = 0, the yaw-only case) for a minute
  // of 30 Hz ticks, with the identity offset: both ways keep the same bits
  // every tick, the cache hitting from the second tick on.
  Frame expected(glm::vec3(96.0f, 96.0f, 40.0f), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  Frame actual = expected;
  dereth::core::TurnCache cache;
  const glm::vec3 spin = glm::vec3(0.0f, 0.0f, 0.5f) * static_cast<float>(dereth::core::exact_frame_step(30.0));
  for (int tick = 0; tick < 1800; ++tick) {
    expected = Frame::combine(expected, Frame());
    expected.grotate(spin);
    actual = Frame::combine_turned(actual, Frame(), spin, cache);
    REQUIRE(same_bits(actual.orientation(), expected.orientation()));
    REQUIRE(same_bits(actual.matrix(), expected.matrix()));
    REQUIRE(same_bits(actual.origin, expected.origin));
  }
  // It turned: a minute at 0.5 rad/s.
  CHECK(std::fabs(expected.orientation().z) > 0.1f);
}

TEST_CASE("core::detail::normalise takes a length of 1 from the squared length: only 1.0f and the float above it",
          "[frame]") {
  // sqrtf is correctly rounded and increasing, so the squared lengths whose
  // root is exactly 1.0f are a run of floats; its ends are 1.0f and 0x3F800001.
  for (std::uint32_t bits = 0x3F7F0000u; bits <= 0x3F810000u; ++bits) {
    const float length_sq = std::bit_cast<float>(bits);
    volatile float operand = length_sq;
    const bool root_is_one = std::sqrt(static_cast<float>(operand)) == 1.0f;
    INFO("squared length bits 0x" << std::hex << bits);
    REQUIRE(root_is_one == (bits == 0x3F800000u || bits == 0x3F800001u));
  }
  // Quaternions whose squared length is each of those floats and their
  // neighbours, against the normalisation written out.
  int shortcut = 0;
  int divided = 0;
  std::uint32_t state = 4242u;
  const auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f * 2.0f - 1.0f;
  };
  for (int i = 0; i < 200000; ++i) {
    glm::quat q(next(), next(), next(), next());
    glm::quat once;
    if (!reference_normalise(q, once)) continue;
    glm::quat expected;
    REQUIRE(reference_normalise(once, expected));
    glm::quat actual;
    REQUIRE(dereth::core::detail::normalise(once, actual));
    REQUIRE(same_bits(actual, expected));
    const float length_sq = once.w * once.w + once.x * once.x + once.y * once.y + once.z * once.z;
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(length_sq);
    if (bits == 0x3F800001u) ++shortcut;
    if (bits == 0x3F7FFFFFu || bits == 0x3F800002u) ++divided;
  }
  // Both ends of the run, and the floats just outside it, occur.
  CHECK(shortcut > 100);
  CHECK(divided > 100);
}

TEST_CASE("core::detail::product and matrix_of give glm's bits for every sign, zero, infinity and NaN", "[frame]") {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 1e-40f, -3e-39f, 3e38f, inf, -inf, nan};
  std::uint32_t state = 99u;
  const auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f * 2.0f - 1.0f;
  };
  const auto pick = [&](int slot, int i) {
    // Mostly ordinary values; each slot sometimes a special one.
    state = state * 1664525u + 1013904223u;
    if (((state >> 20) + static_cast<std::uint32_t>(slot + i)) % 5 == 0) return specials[(state >> 8) % 10];
    return next();
  };
  int products = 0;
  int matrices = 0;
  for (int i = 0; i < 200000; ++i) {
    const glm::quat a(pick(0, i), pick(1, i), pick(2, i), pick(3, i));
    const glm::quat b(pick(4, i), pick(5, i), pick(6, i), pick(7, i));
    INFO("a (" << a.w << ", " << a.x << ", " << a.y << ", " << a.z << ") b (" << b.w << ", " << b.x << ", " << b.y
               << ", " << b.z << ")");
    REQUIRE(same_bits_or_nans(dereth::core::detail::product(a, b), reference_product(a, b)));
    ++products;
    glm::mat3 m(7.0f);
    dereth::core::detail::matrix_of(a, m);
    const glm::mat3 expected = glm::mat3_cast(a);
    for (int c = 0; c < 3; ++c) {
      for (int r = 0; r < 3; ++r) {
        if (std::isnan(m[c][r]) && std::isnan(expected[c][r])) continue;
        REQUIRE(same_bits(m[c][r], expected[c][r]));
      }
    }
    ++matrices;
  }
  CHECK(products == 200000);
  CHECK(matrices == 200000);
}
