#include "dereth/dat/setup.hpp"

#include <catch2/catch.hpp>

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

constexpr Did kId = 0x02000124;

Frame frame_at(float x) {
  return Frame{{x, -x, x * 2.0F}, glm::quat(0.0F, 1.0F, 0.0F, 0.0F)};
}

Setup sample_setup() {
  Setup s;
  s.id = kId;
  s.flags = Setup::kHasParent | Setup::kHasDefaultScale | Setup::kHasPhysicsBsp;
  s.parts = {0x010008AB, 0x010008AC, 0x010008AD};
  s.parent_indices = {0xFFFFFFFF, 0, 1};
  s.default_scales = {{1, 1, 1}, {0.5F, 0.5F, 0.5F}, {2, 1, 1}};
  s.holding_locations = {{1, 2, frame_at(0.25F)}, {3, 0, frame_at(-1.0F)}};
  s.connection_points = {{7, 1, frame_at(4.0F)}};
  SetupPlacement def;
  def.key = 0;
  def.frame.part_frames = {Frame{}, frame_at(1.0F), frame_at(2.0F)};
  SetupPlacement flight;
  flight.key = 0x34;
  flight.frame.part_frames = {frame_at(3.0F), Frame{}, Frame{}};
  flight.frame.hooks = {{HookDirection::Both, ReplaceObjectHook{1, 0x01000123}},
                        {HookDirection::Forward, SoundTableHook{3}}};
  s.placement_frames = {def, flight};
  s.cyl_spheres = {CylSphere{{0, 0, 0}, 0.3F, 1.8F}};
  s.spheres = {Sphere{{0, -0.1475F, 0.439F}, 0.439F}, Sphere{{0, 0, 0}, 0.1F}};
  s.height = 1.8F;
  s.radius = 0.45F;
  s.step_up_height = 0.5F;
  s.step_down_height = 1.2F;
  s.sorting_sphere = Sphere{{0, 0, 0.9F}, 1.0F};
  s.selection_sphere = Sphere{{0, 0, 1.0F}, 1.1F};
  s.lights = {SetupLight{2, frame_at(0.5F), 0xFFFFCC00, 1.5F, 4.0F, 0.7F}};
  s.default_animation = 0x03000001;
  s.default_script = 0x33000D77;
  s.default_motion_table = 0x09000001;
  s.default_sound_table = 0x20000001;
  s.default_script_table = 0x3400002B;
  return s;
}

void patch_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (std::size_t i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>((v >> (8 * i)) & 0xFFU);
}

}  // namespace

TEST_CASE("Setup: write then read, every section present", "[dat][setup]") {
  const Setup s = sample_setup();
  const auto bytes = write_setup(s);
  auto back = read_setup(bytes, kId);
  REQUIRE(back.has_value());
  CHECK(*back == s);
  CHECK(write_setup(*back) == bytes);
}

TEST_CASE("Setup: the empty setup is 104 bytes and round-trips", "[dat][setup]") {
  Setup s;
  s.id = kId;
  const auto bytes = write_setup(s);
  // DID, flags, numParts, 3 location/placement counts, 2 sphere counts,
  // 4 floats, 2 spheres, numLights, 5 DIDs.
  CHECK(bytes.size() == 104);
  CHECK(read_setup(bytes, kId).value() == s);
}

TEST_CASE("Setup: per-part lists follow the flags", "[dat][setup]") {
  Setup s = sample_setup();
  SECTION("without parents or scales the lists are not on disk") {
    s.flags = 0;
    const auto bytes = write_setup(s);
    CHECK(bytes.size() == write_setup(sample_setup()).size() - 3 * 4 - 3 * 12);
    auto back = read_setup(bytes, kId).value();
    CHECK(back.parent_indices.empty());
    CHECK(back.default_scales.empty());
    back.parent_indices = s.parent_indices;
    back.default_scales = s.default_scales;
    CHECK(back == s);
  }
  SECTION("short lists are padded by the writer") {
    s.parent_indices.resize(1);
    s.default_scales.clear();
    auto back = read_setup(write_setup(s), kId).value();
    CHECK(back.parent_indices == std::vector<std::uint32_t>{0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF});
    CHECK(back.default_scales == std::vector<glm::vec3>(3, glm::vec3(1.0F)));
  }
}

TEST_CASE("Setup: step-up height precedes step-down on disk", "[dat][setup]") {
  Setup s;
  s.id = kId;
  s.step_up_height = 0.25F;
  s.step_down_height = 0.75F;
  const auto bytes = write_setup(s);
  ByteReader r(bytes, "setup");
  REQUIRE(r.skip(4 * 8 + 8, "to step heights").has_value());
  CHECK(r.f32("step_up").value() == 0.25F);
  CHECK(r.f32("step_down").value() == 0.75F);
}

TEST_CASE("Setup: every truncation is a clean error", "[dat][setup]") {
  const auto bytes = write_setup(sample_setup());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto s = read_setup(std::span(bytes.data(), n), kId);
    REQUIRE_FALSE(s.has_value());
    CHECK((s.error().kind == ErrorKind::Truncated || s.error().kind == ErrorKind::TooLarge));
  }
}

TEST_CASE("Setup: oversized counts and trailing bytes are errors", "[dat][setup]") {
  const auto bytes = write_setup(sample_setup());
  SECTION("num_parts") {
    auto b = bytes;
    patch_u32(b, 8, 0xFFFFFFF0);
    auto s = read_setup(b, kId);
    REQUIRE_FALSE(s.has_value());
    CHECK(s.error().kind == ErrorKind::TooLarge);
    CHECK(s.error().field == "num_parts");
    CHECK(s.error().offset == 8);
  }
  SECTION("num_holding_locations") {
    auto b = bytes;
    const std::size_t at = 12 + 3 * 4 + 3 * 4 + 3 * 12;
    patch_u32(b, at, 0x7FFFFFFF);
    auto s = read_setup(b, kId);
    REQUIRE_FALSE(s.has_value());
    CHECK(s.error().kind == ErrorKind::TooLarge);
    CHECK(s.error().offset == at);
    CHECK(s.error().context == "DAT 0x02000124 Setup");
  }
  SECTION("trailing") {
    auto b = bytes;
    b.push_back(0);
    auto s = read_setup(b, kId);
    REQUIRE_FALSE(s.has_value());
    CHECK(s.error().kind == ErrorKind::Trailing);
  }
}

TEST_CASE("Setup: JSON is one object with hex DIDs", "[dat][setup]") {
  Setup s;
  s.id = kId;
  s.parts = {0x010008AB};
  s.default_script_table = 0x3400002B;
  dereth::core::JsonWriter j;
  write_json(j, s);
  const std::string& out = j.str();
  CHECK(out.front() == '{');
  CHECK(out.back() == '}');
  CHECK(out.find(R"("id":"0x02000124")") != std::string::npos);
  CHECK(out.find(R"("parts":["0x010008AB"])") != std::string::npos);
  CHECK(out.find(R"("default_script_table":"0x3400002B")") != std::string::npos);
}
