#include "dereth/dat/physics_script.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

constexpr Did kId = 0x33000D77;

PhysicsScriptHook entry(double t, HookPayload payload) {
  return {t, AnimationHook{HookDirection::Both, payload}};
}

PhysicsScript sample_script() {
  PhysicsScript s;
  s.id = kId;
  CreateParticleHook particle{0x3200071B, 0, Frame{{0, 0, 0.5F}, glm::quat(1, 0, 0, 0)}, 0};
  s.hooks = {
      entry(0.0, ScaleHook{1.5F, 0.25F}),
      entry(0.0, particle),
      entry(0.0, SoundTableHook{0x6B}),
      entry(0.5, ReplaceObjectHook{0, 0x01000ABC}),  // the one payload that needs a pad
      entry(1.25, CallPESHook{0x33000111, 0.0F}),
      entry(2.0, AnimationDoneHook{}),
  };
  return s;
}

void patch_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (std::size_t i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>((v >> (8 * i)) & 0xFFU);
}

}  // namespace

TEST_CASE("PhysicsScript: write then read a sorted script", "[dat][physics_script]") {
  const PhysicsScript s = sample_script();
  const auto bytes = write_physics_script(s);
  auto back = read_physics_script(bytes, kId);
  REQUIRE(back.has_value());
  CHECK(*back == s);
  CHECK(back->length() == 2.0);
  CHECK(write_physics_script(*back) == bytes);
}

TEST_CASE("PhysicsScript: empty script", "[dat][physics_script]") {
  PhysicsScript s;
  s.id = kId;
  const auto bytes = write_physics_script(s);
  CHECK(bytes.size() == 8);
  auto back = read_physics_script(bytes, kId);
  REQUIRE(back.has_value());
  CHECK(*back == s);
  CHECK(back->length() == 0.0);
}

TEST_CASE("PhysicsScript::UnPack 0x005218B0: the reader sorts entries by start time, the writer keeps struct order",
          "[dat][physics_script][retail][0x005218B0]") {
  PhysicsScript s;
  s.id = kId;
  s.hooks = {entry(2.0, SoundTableHook{1}), entry(0.5, SoundTableHook{2}), entry(1.0, SoundTableHook{3}),
             entry(0.0, SoundTableHook{4})};
  const auto bytes = write_physics_script(s);
  // Stored order on disk: the first entry's start time is 2.0.
  ByteReader r(bytes, "script");
  REQUIRE(r.skip(8, "header").has_value());
  CHECK(r.f64("t").value() == 2.0);

  auto back = read_physics_script(bytes, kId);
  REQUIRE(back.has_value());
  std::vector<std::uint32_t> sounds;
  std::vector<double> times;
  for (const auto& e : back->hooks) {
    times.push_back(e.start_time);
    sounds.push_back(std::get<SoundTableHook>(e.hook.payload).sound);
  }
  CHECK(times == std::vector<double>{0.0, 0.5, 1.0, 2.0});
  CHECK(sounds == std::vector<std::uint32_t>{4, 2, 3, 1});
  CHECK(back->length() == 2.0);  // the last start time once sorted
}

TEST_CASE("PhysicsScriptData::Sort 0x00521600 the comparator: -1 below, +1 otherwise, never 0",
          "[dat][physics_script][retail][0x00521600]") {
  // acclient.c 336265: result = -1; if (a >= b) result = 1.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto at = [](double t) { return entry(t, SoundTableHook{0}); };
  CHECK(physics_script_data_sort(at(0.0), at(1.0)) == -1);
  CHECK(physics_script_data_sort(at(1.0), at(0.0)) == 1);
  CHECK(physics_script_data_sort(at(0.5), at(0.5)) == 1);  // a tie is "greater", both ways round
  CHECK(physics_script_data_sort(at(-0.0), at(0.0)) == 1);
  CHECK(physics_script_data_sort(at(nan), at(0.0)) == -1);  // NaN: the >= is false
  CHECK(physics_script_data_sort(at(0.0), at(nan)) == -1);
}

TEST_CASE("PhysicsScript::UnPack's sort keeps equal start times in stored order (MSVCR70's qsort order is unknown)",
          "[dat][physics_script][deviation]") {
  PhysicsScript s;
  s.id = kId;
  for (std::uint32_t i = 0; i < 40; ++i) {
    // Times 1, 0, 1, 0, ...: every tie must come out in stored order.
    s.hooks.push_back(entry(i % 2 == 0 ? 1.0 : 0.0, SoundTableHook{i}));
  }
  auto back = read_physics_script(write_physics_script(s), kId).value();
  std::vector<std::uint32_t> sounds;
  for (const auto& e : back.hooks) sounds.push_back(std::get<SoundTableHook>(e.hook.payload).sound);
  std::vector<std::uint32_t> expected;
  for (std::uint32_t i = 1; i < 40; i += 2) expected.push_back(i);
  for (std::uint32_t i = 0; i < 40; i += 2) expected.push_back(i);
  CHECK(sounds == expected);
}

TEST_CASE("PhysicsScript::UnPack's sort puts NaN start times last, negatives first",
          "[dat][physics_script][deviation]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<PhysicsScriptHook> hooks = {entry(nan, SoundTableHook{1}), entry(1.0, SoundTableHook{2}),
                                          entry(-0.5, SoundTableHook{3}), entry(nan, SoundTableHook{4}),
                                          entry(0.0, SoundTableHook{5})};
  sort_hooks_by_start_time(hooks);
  std::vector<std::uint32_t> sounds;
  for (const auto& e : hooks) sounds.push_back(std::get<SoundTableHook>(e.hook.payload).sound);
  CHECK(sounds == std::vector<std::uint32_t>{3, 5, 2, 1, 4});
  CHECK(std::isnan(hooks.back().start_time));
}

TEST_CASE("PhysicsScript: every truncation is a clean error", "[dat][physics_script]") {
  const auto bytes = write_physics_script(sample_script());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto s = read_physics_script(std::span(bytes.data(), n), kId);
    REQUIRE_FALSE(s.has_value());
    CHECK((s.error().kind == ErrorKind::Truncated || s.error().kind == ErrorKind::TooLarge));
    CHECK(s.error().context == "DAT 0x33000D77 PhysicsScript");
  }
}

TEST_CASE("PhysicsScript: oversized count and trailing bytes are errors", "[dat][physics_script]") {
  const auto bytes = write_physics_script(sample_script());
  auto big = bytes;
  patch_u32(big, 4, 0x80000000);
  auto s = read_physics_script(big, kId);
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().kind == ErrorKind::TooLarge);
  CHECK(s.error().field == "num_hooks");
  CHECK(s.error().offset == 4);

  auto trailing = bytes;
  trailing.insert(trailing.end(), {0, 0, 0, 0});
  auto t = read_physics_script(trailing, kId);
  REQUIRE_FALSE(t.has_value());
  CHECK(t.error().kind == ErrorKind::Trailing);
}

TEST_CASE("PhysicsScript: JSON", "[dat][physics_script]") {
  PhysicsScript s;
  s.id = kId;
  s.hooks = {entry(0.5, SetLightHook{1})};
  dereth::core::JsonWriter j;
  write_json(j, s);
  CHECK(
      j.str() ==
      R"({"id":"0x33000D77","length":0.5,"hooks":[{"start_time":0.5,"hook":{"type":"SetLight","direction":"Both","lights_on":1}}]})");
}
