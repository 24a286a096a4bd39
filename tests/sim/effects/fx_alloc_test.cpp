// Steady-state particle and script updates allocate nothing (the later
// benchmark runs 100 emitters of 200 particles per tick), and the effects
// trace records a whole chain in order.
//
// This file replaces the global operator new/delete for the test program, so
// it can count allocations while a flag is set; outside that window the
// replacement only forwards to malloc/free.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <new>

#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/demo/demo_world.hpp"

#include "alloc_counter.hpp"
#include "effects/fx_support.hpp"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};

#if DERETH_COUNT_ALLOCATIONS
void* counted_alloc(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
#endif
}  // namespace

namespace dereth::sim::test {
void start_counting_allocations() noexcept {
  g_allocations = 0;
  g_counting = true;
}
long stop_counting_allocations() noexcept {
  g_counting = false;
  return g_allocations.load();
}
}  // namespace dereth::sim::test

#if DERETH_COUNT_ALLOCATIONS
void* operator new(std::size_t n) {
  return counted_alloc(n);
}
void* operator new[](std::size_t n) {
  return counted_alloc(n);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
#endif  // DERETH_COUNT_ALLOCATIONS

using dereth::sim::test::kCountingAllocations;
using dereth::sim::test::start_counting_allocations;
using dereth::sim::test::stop_counting_allocations;
using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::fxtest;

namespace {

constexpr std::uint32_t kDense = 0x32000300;

// 200 slots per emitter, nearly all live: every update ages every particle,
// kills the ones whose time is up and gives at most one birth.
dat::DatFile dense_dat() {
  dat::ParticleEmitterInfo e;
  e.id = kDense;
  e.emitter_type = dat::EmitterType::BirthratePerSec;
  e.particle_type = dat::ParticleType::ParabolicLVGAGR;
  e.gfx_obj_id = e.hw_gfx_obj_id = 0x01000020;
  e.birthrate = 0.0;
  e.max_particles = 200;
  e.initial_particles = 200;
  e.lifespan = 10.0;
  e.lifespan_rand = 9.5;  // 0.5 .. 19.5 s: some die and are reborn every tick
  e.offset_dir = {0, 0, 1};
  e.max_offset = 0.5f;
  e.a = {0, 0, 1};
  e.b = {0, 0, -1};
  e.c = {0, 0, 3};
  e.is_parent_local = 1;
  return make_dat({{kDense, dat::write_particle_emitter_info(e)}});
}

}  // namespace

TEST_CASE(
    "ParticleManager::UpdateParticles 0x0051B800 and ScriptManager::UpdateScripts 0x0051B480 allocate nothing "
    "in steady state (100 emitters x 200 particles) (ParticleEmitter::UpdateParticles 0x0051D180)",
    "[retail][fx][alloc]") {
  const dat::DatFile portal = dense_dat();
  FxWorld w(&portal);
  w.effects.set_trace_sink(nullptr);
  w.at(0.0);
  std::vector<std::unique_ptr<PhysicsObj>> owners;
  for (std::uint32_t i = 0; i < 10; ++i) {
    owners.push_back(w.make(0x70001000 + i, {10.0f + static_cast<float>(i), 10.0f, 0.0f}));
    for (int k = 0; k < 10; ++k) {
      w.effects.create_particle_emitter(*owners.back(), kDense, kRootPart, dat::Frame{}, 0);
    }
  }
  const auto tick = [&](int n) {
    w.at(n / 30.0);
    for (auto& o : owners) {
      o->set_frame(core::Frame({o->position().frame.origin.x, 10.0f + static_cast<float>(n) * 0.01f, 0.0f},
                               glm::quat(1, 0, 0, 0)));
      w.effects.update_particles(*o);
      w.effects.update_scripts(*o);
    }
  };
  for (int n = 1; n <= 60; ++n) tick(n);  // warm up: every slot has died and been reborn
  std::size_t live = 0;
  for (auto& o : owners) {
    for (const auto& e : w.effects.particle_manager(o->local_id())->emitters()) {
      live += static_cast<std::size_t>(e->num_particles());
    }
  }
  CHECK(live > 15000);
  start_counting_allocations();
  const auto start = std::chrono::steady_clock::now();
  for (int n = 61; n <= 90; ++n) tick(n);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  const long allocations = stop_counting_allocations();
  if (kCountingAllocations) {
    CHECK(allocations == 0);
  } else {
    WARN("allocations are not counted under AddressSanitizer");
  }
  const double ms_per_tick = std::chrono::duration<double, std::milli>(elapsed).count() / 30.0;
  WARN("steady-state ms/tick for 100 emitters x 200 slots: " << ms_per_tick);
  // The emitters all survived (infinite emitters never retire).
  std::size_t count = 0;
  for (auto& o : owners) count += w.effects.particle_manager(o->local_id())->get_num_emitters();
  CHECK(count == 100);
}

TEST_CASE(
    "EffectsTraceSink records a typed script's chain in order: resolve, enqueue, hooks, emitter "
    "(CPhysicsObj::play_script 0x00513260, PhysicsScriptTable::GetScript 0x00521E40, ScriptManager::AddScriptInternal "
    "0x0051B310, ScriptManager::UpdateScripts 0x0051B480)",
    "[retail][fx][trace]") {
  FxWorld w;
  w.at(0.5);
  auto bolt = w.make(0x70001100, {10, 10, 1}, 1);
  bolt->init_defaults(SetupDefaults{0, 0, demo::kHumanSoundTable, 0x34000005, 0});
  REQUIRE(bolt->play_script(demo::play_script::Explode, 0.75f));  // 0x33000120
  w.at(0.6);
  w.effects.update_scripts(*bolt);
  CHECK(w.trace.log ==
        std::vector<std::string>{"resolved", "enqueued",
                                 // 0x33000120: burst and sound at 0, a type-6 emitter at 0.05, a type-7 at 0.1
                                 "hook:CreateParticle", "emitter:created", "hook:SoundTable", "hook:CreateParticle",
                                 "emitter:created", "hook:CreateParticle", "emitter:created"});
  REQUIRE(w.trace.emitters.size() == 3);
  CHECK(w.trace.emitters[0].info == 0x32000020);
  CHECK(w.trace.emitters[1].info == 0x32000006);
  CHECK(w.trace.emitters[2].info == 0x32000007);
  CHECK(w.trace.enqueued[0].start == 0.5);
  for (const auto& h : w.trace.hooks) CHECK(h.time == 0.6);
}
