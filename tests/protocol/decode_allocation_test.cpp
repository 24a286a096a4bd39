// Decoding without allocation (issue 35, section 1): the reader's errors are
// built only when reported, and a CreateObject decoded into storage that has
// held one of its shape allocates nothing. Allocations are counted by
// replacing the global operator new for this test program; the counter runs
// only inside an AllocationCount's scope.

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <span>
#include <vector>

#include "dereth/core/byte_reader.hpp"
#include "dereth/protocol/messages.hpp"

#include "fixtures.hpp"

namespace {

std::atomic<bool> g_counting{false};
std::atomic<std::uint64_t> g_allocations{0};

// Counts the operator new calls made while it lives.
class AllocationCount {
 public:
  AllocationCount() {
    g_allocations = 0;
    g_counting = true;
  }
  ~AllocationCount() { g_counting = false; }
  AllocationCount(const AllocationCount&) = delete;
  AllocationCount& operator=(const AllocationCount&) = delete;
  [[nodiscard]] std::uint64_t count() const { return g_allocations.load(); }
};

}  // namespace

// Not inlined: inlined into a caller, malloc and free look mismatched with
// new and delete to GCC's -Wmismatched-new-delete.
[[gnu::noinline]] void* operator new(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept {
  std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace p = dereth::protocol;
using dereth::core::ByteReader;
using dereth::core::ErrorKind;

TEST_CASE("Decoding without allocation: the counter sees an allocation", "[protocol][allocation]") {
  // The counter itself must work, or every zero below proves nothing.
  std::uint64_t n = 0;
  {
    AllocationCount count;
    auto* v = new std::vector<int>(100);
    n = count.count();
    delete v;
  }
  CHECK(n >= 2);
}

TEST_CASE("Decoding without allocation: a failed ByteReader read allocates nothing until it is reported",
          "[protocol][allocation][malformed]") {
  const std::vector<std::uint8_t> data{0xAA, 0xBB, 0xCC};
  ByteReader r(data, "F74B SetState");
  REQUIRE(r.u8("first").has_value());
  std::uint64_t allocations = 0;
  dereth::core::ReadResult<std::uint32_t> v;
  {
    AllocationCount count;
    v = r.u32("state");
    allocations = count.count();
  }
  REQUIRE_FALSE(v.has_value());
  CHECK(allocations == 0);
  CHECK(v.error().kind == ErrorKind::Truncated);
  CHECK(v.error().offset == 1);
  // Reported: the same sentence as before the error became a code.
  const dereth::core::Error reported = v.error();
  CHECK(reported.message() == "F74B SetState: state at offset 1: truncated (needs 4 bytes, 2 remain)");
  CHECK(reported.detail == "needs 4 bytes, 2 remain");
  CHECK(reported.field == "state");
  CHECK(reported.context == "F74B SetState");
}

TEST_CASE("Decoding without allocation: the reader's four sentences are the ones it always reported",
          "[protocol][allocation][malformed]") {
  const std::vector<std::uint8_t> data{0x10, 0x00, 'a', 'b', 0, 0, 0, 0};
  ByteReader r(data, "F745 CreateObject");
  CHECK(r.string16l_view("WeenieDesc.name").error().message() ==
        "F745 CreateObject: WeenieDesc.name at offset 2: too large (string length 16 exceeds the 6 bytes remaining)");
  CHECK(r.position() == 0);
  CHECK(r.checked_count(7, 2, "n").error().message() ==
        "F745 CreateObject: n at offset 0: too large (count 7 of 2-byte elements exceeds the 8 bytes remaining)");
  CHECK(r.expect_end().error().message() == "F745 CreateObject: end at offset 0: trailing bytes (8 bytes left unread)");
  REQUIRE(r.skip(7, "x").has_value());
  CHECK(r.u16("y").error().message() == "F745 CreateObject: y at offset 7: truncated (needs 2 bytes, 1 remain)");
}

TEST_CASE("Decoding without allocation: PlayScriptType F755 decodes without allocating", "[protocol][allocation]") {
  const auto bytes = p::encode(p::PlayScriptType{0x50000001, 0x4C, 0x3F800000});
  std::uint64_t allocations = 0;
  bool ok = false;
  {
    AllocationCount count;
    auto m = p::decode_play_script_type(bytes);
    ok = m.has_value() && m->script_type == 0x4C;
    allocations = count.count();
  }
  CHECK(ok);
  CHECK(allocations == 0);
}

TEST_CASE("Decoding without allocation: CreateObject F745 into storage of its shape allocates nothing",
          "[protocol][allocation]") {
  const auto door = dereth::test::retail_door_create_object();
  const auto projectile = p::encode(dereth::test::broad_projectile());
  for (const auto* bytes : {&door, &projectile}) {
    const auto expected = p::decode_create_object(*bytes);
    REQUIRE(expected.has_value());
    p::CreateObject scratch;
    REQUIRE(p::decode_create_object_into(*bytes, scratch).has_value());  // the first may size the lists
    std::uint64_t allocations = 0;
    bool ok = false;
    {
      AllocationCount count;
      ok = p::decode_create_object_into(*bytes, scratch).has_value();
      allocations = count.count();
    }
    CHECK(ok);
    CHECK(allocations == 0);
    CHECK(scratch == *expected);
  }
}

TEST_CASE("Decoding without allocation: decoding into used storage leaves nothing of the last message",
          "[protocol][allocation]") {
  // The projectile fills almost every PhysicsDesc field; the Door has few.
  // Each must come out as the value-returning decoder gives it, whatever
  // the storage held before.
  p::CreateObject full = dereth::test::broad_projectile();
  full.weenie.plural_name = "Force Bolts";
  full.weenie.house_restrictions = p::HouseRestrictions{0x10000002, 1, 0x50000004, 64, {{0x50000005, 1}}};
  full.weenie.cooldown_duration = 30.5;
  full.weenie.value = 1000;
  const auto many = p::encode(full);
  const auto door = dereth::test::retail_door_create_object();
  const auto want_many = p::decode_create_object(many);
  const auto want_door = p::decode_create_object(door);
  REQUIRE(want_many.has_value());
  REQUIRE(want_door.has_value());

  p::CreateObject scratch;
  REQUIRE(p::decode_create_object_into(many, scratch).has_value());
  CHECK(scratch == *want_many);
  REQUIRE(p::decode_create_object_into(door, scratch).has_value());
  CHECK(scratch == *want_door);
  CHECK_FALSE(scratch.physics.children.has_value());
  CHECK_FALSE(scratch.weenie.plural_name.has_value());
  CHECK_FALSE(scratch.weenie.house_restrictions.has_value());
  CHECK(scratch.model.palettes.empty());
  CHECK(p::encode(scratch) == door);
  REQUIRE(p::decode_create_object_into(many, scratch).has_value());
  CHECK(scratch == *want_many);

  p::UpdateObject update;
  auto as_update = many;
  as_update[0] = 0xDB;  // F7DB: the same layout
  REQUIRE(p::decode_update_object_into(as_update, update).has_value());
  CHECK(static_cast<const p::CreateObject&>(update) == *want_many);
}

TEST_CASE("Decoding without allocation: decoding into storage fails as the value-returning decoder does",
          "[protocol][allocation][malformed]") {
  const auto projectile = p::encode(dereth::test::broad_projectile());
  p::CreateObject scratch;
  for (std::size_t n = 0; n < projectile.size(); ++n) {
    const std::span<const std::uint8_t> cut(projectile.data(), n);
    const auto want = p::decode_create_object(cut);
    const auto got = p::decode_create_object_into(cut, scratch);
    INFO("prefix of " << n << " bytes");
    REQUIRE_FALSE(want.has_value());
    REQUIRE_FALSE(got.has_value());
    CHECK(got.error().message() == want.error().message());
  }
  auto wrong = projectile;
  wrong[0] = 0x46;
  CHECK(p::decode_create_object_into(wrong, scratch).error().message() ==
        "F745 CreateObject: opcode at offset 0: invalid (opcode 0xF746, expected 0xF745)");
}
