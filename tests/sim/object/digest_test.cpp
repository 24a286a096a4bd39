// The digest and trace of headless runs (docs/trace.md): the hash covers
// every field it promises and nothing order-dependent slips in.
#include "dereth/sim/object/digest.hpp"

#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "dereth/sim/object/physics_obj.hpp"

#include "fakes.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;

namespace {
constexpr std::uint32_t kPlayer = 0x50000001;
constexpr std::uint32_t kObject = 0x70000010;
}  // namespace

TEST_CASE("FNV-1a 64 matches the published test vectors", "[sim][digest]") {
  Fnv1a64 empty;
  CHECK(empty.value() == 0xCBF29CE484222325ull);
  Fnv1a64 a;
  a.bytes("a", 1);
  CHECK(a.value() == 0xAF63DC4C8601EC8Cull);
  Fnv1a64 foobar;
  foobar.bytes("foobar", 6);
  CHECK(foobar.value() == 0x85944171F73967E8ull);
  // Floats go in by their bits: -0 and +0 differ, as do NaN payloads.
  Fnv1a64 plus_zero;
  plus_zero.f32(0.0f);
  Fnv1a64 minus_zero;
  minus_zero.f32(-0.0f);
  CHECK(plus_zero.value() != minus_zero.value());
}

TEST_CASE("world_digest moves with position, velocity, state and stamps", "[sim][digest]") {
  World w;
  w.start(kPlayer);
  REQUIRE(w.handle(create(kObject, 1)).verdict == Verdict::Applied);
  const std::uint64_t base = world_digest(w.box);
  PhysicsObj& o = w.object(kObject);

  SECTION("velocity") {
    o.set_velocity({1.0f, 0.0f, 0.0f}, false);
    CHECK(world_digest(w.box) != base);
  }
  SECTION("state") {
    o.set_state(o.state() | protocol::physics_state::Ethereal, false);
    CHECK(world_digest(w.box) != base);
  }
  SECTION("a channel stamp") {
    o.set_update_time(protocol::TimestampIndex::Vector, 7);
    CHECK(world_digest(w.box) != base);
  }
  SECTION("position, through a tick that moves the object") {
    o.set_velocity({0.0f, 2.0f, 0.0f}, false);
    const std::uint64_t moving = world_digest(w.box);
    w.clock.set(core::Seconds{0.5});
    w.box.use_time();
    CHECK(world_digest(w.box) != moving);
  }
  SECTION("the same state hashes the same") {
    CHECK(world_digest(w.box) == base);
  }
}

TEST_CASE("write_digest_line writes tick, time, object count and hash", "[sim][digest]") {
  World w;
  w.start(kPlayer);
  w.handle(create(kObject, 1));
  std::ostringstream out;
  write_digest_line(out, 3, core::Seconds{0.1}, w.box);
  CHECK(out.str().rfind(R"({"tick":3,"time":0.1,"objects":1,"hash":"0x)", 0) == 0);
  CHECK(out.str().back() == '\n');
  const std::uint64_t effects = 0x0123456789ABCDEFull;
  std::ostringstream with_effects;
  write_digest_line(with_effects, 3, core::Seconds{0.1}, w.box, &effects);
  CHECK(with_effects.str().find(R"("effects":"0x0123456789ABCDEF"})") != std::string::npos);
}

TEST_CASE("JsonlTrace writes a verdict line per message and object lines per tick", "[sim][digest]") {
  World w;
  std::ostringstream out;
  JsonlTrace trace(out);
  w.box.set_trace_sink(&trace);
  w.handle(protocol::SetState{kObject, 0x10, 1, 1});  // before the player: held
  w.start(kPlayer);
  const std::string messages = out.str();
  CHECK(messages.find(R"("opcode":"0x0000F74B","name":"SetState","guid":"0x70000010","instance":1,)"
                      R"("channel_ts":1,"verdict":"queued-before-player","replayed":false,"local_id":0})") !=
        std::string::npos);
  // The replay of the held SetState once the player exists: no object yet.
  CHECK(messages.find(R"("verdict":"queued-for-absent-object","replayed":true)") != std::string::npos);

  w.handle(create(kObject, 1));
  out.str("");
  trace.write_tick(9, core::Seconds{0.3}, w.box);
  const std::string ticks = out.str();
  CHECK(ticks.find(R"({"kind":"object","tick":9,"time":0.3,"guid":"0x70000010","local_id":1,"instance":1,)") !=
        std::string::npos);
  CHECK(ticks.find(R"("timestamps":{"position":)") != std::string::npos);
  CHECK(ticks.find(R"("hidden":false,"parent":null})") != std::string::npos);
}
