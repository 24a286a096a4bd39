#include "dereth/dat/physics_script.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "dereth/dat/msvcr70_qsort.hpp"

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

std::vector<std::uint32_t> sounds_of(const std::vector<PhysicsScriptHook>& hooks) {
  std::vector<std::uint32_t> out;
  for (const auto& e : hooks) out.push_back(std::get<SoundTableHook>(e.hook.payload).sound);
  return out;
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
          "[dat][physics_script][retail]") {
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
          "[dat][physics_script][retail]") {
  // acclient.c 336265: result = -1; if (a >= b) result = 1.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto at = [](double t) { return entry(t, SoundTableHook{0}); };
  CHECK(physics_script_data_sort(at(0.0), at(1.0)) == -1);
  CHECK(physics_script_data_sort(at(1.0), at(0.0)) == 1);
  CHECK(physics_script_data_sort(at(0.5), at(0.5)) == 1);  // a tie is "greater", both ways round
  CHECK(physics_script_data_sort(at(-0.0), at(0.0)) == 1);
  CHECK(physics_script_data_sort(at(nan), at(0.0)) == -1);  // NaN: the >= is false
  CHECK(physics_script_data_sort(at(0.0), at(nan)) == -1);

  SECTION("through the reader's sort, a tie's +1 moves equal times: nine hooks at t = 0") {
    // The partition path (more than 8): the median-of-three swaps and the
    // partition loop see "greater" for every tie. A comparator answering 0
    // for ties would leave these nine in stored order.
    PhysicsScript s;
    s.id = kId;
    for (std::uint32_t i = 0; i < 9; ++i) s.hooks.push_back(entry(0.0, SoundTableHook{i}));
    const auto back = read_physics_script(write_physics_script(s), kId).value();
    CHECK(sounds_of(back.hooks) == std::vector<std::uint32_t>{8, 4, 2, 3, 1, 5, 6, 7, 0});

    std::vector<PhysicsScriptHook> three_way = s.hooks;
    msvcr70_qsort(std::span<PhysicsScriptHook>(three_way), [](const PhysicsScriptHook& a, const PhysicsScriptHook& b) {
      return a.start_time < b.start_time ? -1 : (b.start_time < a.start_time ? 1 : 0);
    });
    CHECK(sounds_of(three_way) == std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8});
  }
  SECTION("through the reader's sort, NaN's -1 both ways round places the NaN hooks") {
    // Five hooks: the selection sort. Round by round (the greatest to the
    // end): NaN(1) compares below nothing and stays the maximum, 1.0 next,
    // and so on; NaN(4) ends first.
    const double nan2 = std::numeric_limits<double>::quiet_NaN();
    PhysicsScript s;
    s.id = kId;
    s.hooks = {entry(nan2, SoundTableHook{1}), entry(1.0, SoundTableHook{2}), entry(-0.5, SoundTableHook{3}),
               entry(nan2, SoundTableHook{4}), entry(0.0, SoundTableHook{5})};
    const auto back = read_physics_script(write_physics_script(s), kId).value();
    CHECK(sounds_of(back.hooks) == std::vector<std::uint32_t>{4, 3, 5, 2, 1});
    CHECK(std::isnan(back.hooks.front().start_time));
    CHECK(std::isnan(back.hooks.back().start_time));
    CHECK(std::isnan(back.length()));  // the last hook's start time

    // "-1 when below, else +1" (NaN giving +1) would order them otherwise.
    std::vector<PhysicsScriptHook> other = s.hooks;
    msvcr70_qsort(std::span<PhysicsScriptHook>(other), [](const PhysicsScriptHook& a, const PhysicsScriptHook& b) {
      return a.start_time < b.start_time ? -1 : 1;
    });
    CHECK(sounds_of(other) == std::vector<std::uint32_t>{1, 3, 2, 4, 5});
  }
}

TEST_CASE("PhysicsScript::UnPack 0x005218B0 the Hidden PES shape: 15 hooks at t = 0 come out in MSVCR70's qsort order",
          "[dat][physics_script][retail]") {
  // Seed portal-completion: Hidden PES 0x33000331 holds fourteen
  // CreateParticle hooks and one translucency hook, all at time zero. By
  // hand: the median of three puts stored 14, 7 and 0 at 0, 7 and 14; the
  // first partition leaves [0, 0] and [2, 14], and so on down to a final
  // selection sort of seven, which keeps ties in place.
  PhysicsScript s;
  s.id = kId;
  for (std::uint32_t i = 0; i < 15; ++i) s.hooks.push_back(entry(0.0, SoundTableHook{i}));
  const auto back = read_physics_script(write_physics_script(s), kId).value();
  CHECK(sounds_of(back.hooks) == std::vector<std::uint32_t>{14, 7, 0, 8, 2, 9, 4, 10, 3, 5, 1, 11, 12, 13, 6});
  CHECK(back.length() == 0.0);
}

TEST_CASE("PhysicsScript::UnPack 0x005218B0 ties at two times across several partitions",
          "[dat][physics_script][retail]") {
  PhysicsScript s;
  s.id = kId;
  for (std::uint32_t i = 0; i < 40; ++i) {
    // Times 1, 0, 1, 0, ...
    s.hooks.push_back(entry(i % 2 == 0 ? 1.0 : 0.0, SoundTableHook{i}));
  }
  const auto back = read_physics_script(write_physics_script(s), kId).value();
  const std::vector<std::uint32_t> expected = {19, 29, 39, 11, 37, 27, 35, 13, 33, 25, 31, 15, 5,  7,
                                               9,  3,  23, 17, 21, 1,  20, 0,  30, 18, 8,  16, 32, 14,
                                               6,  12, 34, 10, 4,  28, 22, 26, 36, 2,  38, 24};
  CHECK(sounds_of(back.hooks) == expected);
  for (std::size_t i = 0; i < back.hooks.size(); ++i) {
    INFO("hook " << i);
    CHECK(back.hooks[i].start_time == (i < 20 ? 0.0 : 1.0));
  }
}

TEST_CASE("msvcr70_qsort sorts like any sort where keys are distinct, at every size", "[dat][physics_script]") {
  // A fixed pseudo-random sequence (a linear congruential generator), sizes
  // 0 to 200: the selection path, the partition path and the stack.
  std::uint32_t state = 12345;
  for (std::size_t n = 0; n <= 200; ++n) {
    std::vector<int> v(n);
    for (std::size_t i = 0; i < n; ++i) {
      state = state * 1103515245U + 12345U;
      v[i] = static_cast<int>(i) * 1000 + static_cast<int>((state >> 16) % 1000U);
    }
    // Shuffle by the same generator (Fisher-Yates).
    for (std::size_t i = n; i > 1; --i) {
      state = state * 1103515245U + 12345U;
      std::swap(v[i - 1], v[(state >> 16) % i]);
    }
    std::vector<int> expected = v;
    std::sort(expected.begin(), expected.end());
    int calls = 0;
    msvcr70_qsort(std::span<int>(v), [&](const int& a, const int& b) {
      ++calls;
      return a < b ? -1 : (a > b ? 1 : 0);
    });
    INFO("n = " << n);
    CHECK(v == expected);
    if (n < 2) CHECK(calls == 0);
  }
}

TEST_CASE("msvcr70_qsort never compares an element with itself (the VC7 runtime's own rule)", "[dat][physics_script]") {
  for (std::size_t n : {2U, 8U, 9U, 15U, 64U, 257U}) {
    std::vector<int> v(n, 7);
    for (std::size_t i = 0; i < n; i += 3) v[i] = static_cast<int>(i);
    bool same = false;
    msvcr70_qsort(std::span<int>(v), [&](const int& a, const int& b) {
      if (&a == &b) same = true;
      return a >= b ? 1 : -1;
    });
    INFO("n = " << n);
    CHECK_FALSE(same);
    CHECK(std::is_sorted(v.begin(), v.end()));
  }
}

TEST_CASE("msvcr70_qsort stays in bounds with a comparator that answers at random", "[dat][physics_script]") {
  // An inconsistent comparator (as NaN makes PhysicsScriptData::Sort) must
  // still end, touch only the range, and keep every element.
  std::uint32_t state = 99;
  for (std::size_t n : {9U, 10U, 33U, 100U, 1000U}) {
    std::vector<int> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<int>(i);
    msvcr70_qsort(std::span<int>(v), [&](const int&, const int&) {
      state = state * 1103515245U + 12345U;
      return static_cast<int>((state >> 16) % 3U) - 1;
    });
    std::vector<int> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < n; ++i) CHECK(sorted[i] == static_cast<int>(i));
  }
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
