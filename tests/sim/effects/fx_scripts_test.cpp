// Seed retail-projectile-vfx sections 5, 6, 7 and 11, spec/physics.md 8:
// ScriptManager, PhysicsScriptTable resolution, CallPES and the default-script
// hooks, and the seed asset chains from the demo DAT.
#include <catch2/catch.hpp>

#include <bit>
#include <limits>

#include "dereth/dat/physics_script.hpp"
#include "dereth/dat/physics_script_table.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/sim/effects/script_manager.hpp"

#include "effects/fx_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::fxtest;
namespace ps = protocol::physics_state;
using dat::HookType;

namespace {

// A script whose hooks are SoundTweaked hooks naming wave `id*0x100 + i`, so
// the order they run in is visible.
std::shared_ptr<const dat::PhysicsScript> make_script(std::uint32_t id, std::vector<double> times) {
  auto s = std::make_shared<dat::PhysicsScript>();
  s->id = id;
  std::uint32_t i = 0;
  for (double t : times) {
    s->hooks.push_back({t, hook(dat::SoundTweakedHook{id * 0x100 + i++, 1.0f, 0.5f, 1.0f})});
  }
  return s;
}

std::uint32_t wave_of(const dat::AnimationHook& h) {
  return std::get<dat::SoundTweakedHook>(h.payload).wave;
}

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

core::Seconds s(double v) {
  return core::Seconds{v};
}

// The table's lookup with "no script" as the invalid DID 0 the physics
// object passes on (as Effects::resolve_script does).
std::uint32_t script_of(const dat::PhysicsScriptTable& table, std::uint32_t type, float intensity) {
  return table.get_script(type, intensity).value_or(0);
}

}  // namespace

// --- ScriptManager -----------------------------------------------------------------------

TEST_CASE(
    "ScriptManager::AddScriptInternal 0x0051B310 starts now when empty, else at tail start + tail length, "
    "duplicates kept",
    "[retail][fx]") {
  ScriptManager m;
  const auto a = make_script(1, {0.1, 0.5});  // length 0.5
  const auto b = make_script(2, {0.0, 0.3});  // length 0.3
  REQUIRE(m.add_script_internal(a, s(10.0)));
  CHECK(m.queue().front().start_time.count() == 10.0);
  CHECK(m.hook_index() == -1);
  CHECK(m.next_hook_time().count() == Approx(10.1));
  // The tail decides, not the clock: a later "now" does not move the start.
  REQUIRE(m.add_script_internal(b, s(20.0)));
  CHECK(m.queue()[1].start_time.count() == Approx(10.5));
  // The same script again is appended, not merged.
  REQUIRE(m.add_script_internal(a, s(30.0)));
  REQUIRE(m.size() == 3);
  CHECK(m.queue()[2].start_time.count() == Approx(10.8));
  CHECK(m.queue()[2].script == a);
  // Appending does not move the head's next hook.
  CHECK(m.next_hook_time().count() == Approx(10.1));
  CHECK_FALSE(m.add_script_internal(nullptr, s(0.0)));
  CHECK(m.size() == 3);
}

TEST_CASE("ScriptManager::NextHook 0x0051B3F0 walks the current script and arms the next hook time", "[retail][fx]") {
  ScriptManager m;
  const auto a = make_script(1, {0.1, 0.5});
  const auto b = make_script(2, {0.2, 0.3});
  m.add_script_internal(a, s(10.0));
  m.add_script_internal(b, s(0.0));  // starts at 10.5

  const dat::AnimationHook* h = m.next_hook();
  REQUIRE(h != nullptr);
  CHECK(wave_of(*h) == 0x100);
  CHECK(m.hook_index() == 0);
  CHECK(m.next_hook_time().count() == Approx(10.5));  // a's second hook
  h = m.next_hook();
  REQUIRE(h != nullptr);
  CHECK(wave_of(*h) == 0x101);
  // The last hook of `a`: the next script's first hook is next.
  CHECK(m.next_hook_time().count() == Approx(10.7));
  CHECK(m.next_hook() == nullptr);
  CHECK(m.hook_index() == 2);

  ScriptManager single;
  single.add_script_internal(make_script(3, {0.0}), s(1.0));
  REQUIRE(single.next_hook() != nullptr);
  // Nothing follows: -1.0, so the script is popped on the same update.
  CHECK(single.next_hook_time().count() == -1.0);
}

TEST_CASE("ScriptManager::UpdateScripts 0x0051B480 runs every due hook in order in one long frame", "[retail][fx]") {
  ScriptManager m;
  m.add_script_internal(make_script(1, {0.1, 0.5}), s(10.0));
  m.add_script_internal(make_script(2, {0.0, 0.3}), s(10.0));  // 10.5 .. 10.8
  std::vector<std::uint32_t> ran;
  const auto run = [&](const dat::AnimationHook& h) { ran.push_back(wave_of(h)); };

  m.update_scripts(s(10.05), run);  // nothing due yet
  CHECK(ran.empty());
  m.update_scripts(s(10.1), run);  // equality is due
  CHECK(ran == std::vector<std::uint32_t>{0x100});
  // A long frame: every due hook of both scripts, in order, popping the first.
  m.update_scripts(s(100.0), run);
  CHECK(ran == std::vector<std::uint32_t>{0x100, 0x101, 0x200, 0x201});
  CHECK(m.empty());
  CHECK(m.next_hook_time().count() == -1.0);

  SECTION("a hook that queues a script on the same owner runs it in the same frame") {
    ScriptManager q;
    q.add_script_internal(make_script(1, {0.0, 0.2}), s(0.0));
    const auto extra = make_script(5, {0.0, 0.1});
    std::vector<std::uint32_t> order;
    q.update_scripts(s(5.0), [&](const dat::AnimationHook& h) {
      order.push_back(wave_of(h));
      if (wave_of(h) == 0x100) q.add_script_internal(extra, s(5.0));  // starts at 0.2, the tail's end
    });
    CHECK(order == std::vector<std::uint32_t>{0x100, 0x101, 0x500, 0x501});
    CHECK(q.empty());
  }
  SECTION("a finished script stays at the head until the next script's first hook is due") {
    ScriptManager q;
    q.add_script_internal(make_script(1, {0.0}), s(0.0));
    q.add_script_internal(make_script(2, {1.0}), s(0.0));  // starts at 0.0, hook at 1.0
    std::vector<std::uint32_t> order;
    q.update_scripts(s(0.5), [&](const dat::AnimationHook& h) { order.push_back(wave_of(h)); });
    CHECK(order == std::vector<std::uint32_t>{0x100});
    CHECK(q.size() == 2);
    q.update_scripts(s(1.0), [&](const dat::AnimationHook& h) { order.push_back(wave_of(h)); });
    CHECK(order == std::vector<std::uint32_t>{0x100, 0x200});
    CHECK(q.empty());
  }
}

TEST_CASE("ScriptManager::AddScript 0x0051B3A0 queues a loaded script and refuses a missing one", "[retail][fx]") {
  FxWorld w;
  w.at(3.0);
  auto obj = w.make(0x70000001);
  CHECK(w.effects.play_script(*obj, 0x33000719));
  CHECK_FALSE(w.effects.play_script(*obj, 0x33FFFFFF));  // not in the DAT
  const ScriptManager* m = w.effects.script_manager(obj->local_id());
  REQUIRE(m != nullptr);
  CHECK(m->size() == 1);
  REQUIRE(w.trace.enqueued.size() == 1);
  CHECK(w.trace.enqueued[0].script == 0x33000719);
  CHECK(w.trace.enqueued[0].start == 3.0);
  // Without a DAT nothing loads.
  FxWorld none(nullptr);
  auto other = none.make(0x70000002);
  CHECK_FALSE(none.effects.play_script(*other, 0x33000719));
  CHECK(none.effects.script_manager(other->local_id()) == nullptr);
}

// --- PhysicsScriptTable resolution ----------------------------------------------------

TEST_CASE(
    "PhysicsScriptTable::GetScript 0x00521E40 / PhysicsScriptTableData::GetScript 0x00521A20 stored order, "
    "equality, NaN and infinities (the unordered compare at 0x00521A3B)",
    "[retail][fx]") {
  dat::PhysicsScriptTable t;
  t.id = 0x34000099;
  // Deliberately unsorted: the lookup walks stored order and never sorts.
  t.entries = {dat::PhysicsScriptTableEntry{7, {{1.0f, 0x33000001}, {0.5f, 0x33000002}}},
               dat::PhysicsScriptTableEntry{8, {{0.25f, 0x33000003}}},
               dat::PhysicsScriptTableEntry{7, {{9.0f, 0x33000004}}}};
  CHECK(script_of(t, 7, 0.3f) == 0x33000001);  // first entry with 0.3 <= mod, not the closest
  CHECK(script_of(t, 7, 1.0f) == 0x33000001);  // equality matches
  CHECK(script_of(t, 7, 1.5f) == 0);           // above every threshold of the first list
  // 0x00521A3B: `test ah, 0x41; jnp`: NaN sets both tested flags, is never
  // "less or equal", and falls off the end: no script.
  CHECK(script_of(t, 7, kNaN) == 0);
  CHECK(script_of(t, 7, kInf) == 0);
  CHECK(script_of(t, 7, -kInf) == 0x33000001);
  CHECK(script_of(t, 8, 0.25f) == 0x33000003);
  CHECK(script_of(t, 8, 0.2500001f) == 0);
  CHECK(script_of(t, 9, 0.0f) == 0);  // exact type only
}

TEST_CASE(
    "PhysicsScriptTable::GetScript 0x00521E40: the flame table at every seed intensity (demo DAT) "
    "(PhysicsScriptTableData::GetScript 0x00521A20)",
    "[retail][fx][seed]") {
  FxWorld w;
  const std::uint32_t table = 0x34000005;
  struct Row {
    float intensity;
    std::uint32_t launch;
    std::uint32_t explode;
    std::uint32_t collision;
  };
  const Row rows[] = {
      {0.0f, 0x3300011B, 0x3300011E, 0x33000109},
      {0.25f, 0x3300011C, 0x3300012B, 0x33000109},
      {0.5f, 0x3300011C, 0x3300012B, 0x33000109},
      {0.75f, 0x3300011D, 0x33000120, 0x33000109},
      {1.0f, 0x3300011D, 0x33000120, 0x33000109},
      {1.5f, 0, 0, 0},
      {kNaN, 0, 0, 0},
      {kInf, 0, 0, 0},
      {-kInf, 0x3300011B, 0x3300011E, 0x33000109},
  };
  for (const Row& r : rows) {
    INFO("intensity " << r.intensity);
    CHECK(w.effects.resolve_script(table, demo::play_script::Launch, r.intensity) == r.launch);
    CHECK(w.effects.resolve_script(table, demo::play_script::Explode, r.intensity) == r.explode);
    CHECK(w.effects.resolve_script(table, demo::play_script::ProjectileCollision, r.intensity) == r.collision);
  }
  // The trace keeps the intensity's bits, NaN payload included.
  const float payload_nan = std::bit_cast<float>(0x7FC01234u);
  CHECK(w.effects.resolve_script(table, demo::play_script::Launch, payload_nan) == 0);
  REQUIRE(!w.trace.resolved.empty());
  CHECK(w.trace.resolved.back().intensity_bits == 0x7FC01234u);
  CHECK(w.trace.resolved.back().table == table);
  CHECK(w.trace.resolved.back().chosen == 0);
}

TEST_CASE(
    "seed 11.2 chain: the flame Launch at 0.25 plays 0x3300011C: trail emitter, scale ramp, launch sound "
    "(CPhysicsObj::play_script 0x00513260, ScriptManager::UpdateScripts 0x0051B480)",
    "[retail][fx][seed]") {
  FxWorld w;
  w.at(1.0);
  FxParts* parts = nullptr;
  auto bolt = w.make(0x70000010, {10, 10, 5}, 1, &parts);
  bolt->init_defaults(SetupDefaults{0, 0, demo::kHumanSoundTable, 0x34000005, 0});
  CHECK(bolt->play_script(demo::play_script::Launch, 0.25f));
  REQUIRE(w.trace.enqueued.size() == 1);
  CHECK(w.trace.enqueued[0].script == 0x3300011C);
  CHECK(w.trace.enqueued[0].start == 1.0);
  w.effects.update_scripts(*bolt);
  // Hooks at 0 in stored order: CreateParticle, Scale, SoundTable.
  REQUIRE(w.trace.hooks.size() == 3);
  CHECK(w.trace.hooks[0].type == HookType::CreateParticle);
  CHECK(w.trace.hooks[1].type == HookType::Scale);
  CHECK(w.trace.hooks[2].type == HookType::SoundTable);
  REQUIRE(w.trace.emitters.size() == 1);
  CHECK(w.trace.emitters[0].info == 0x32000010);
  CHECK(w.trace.emitters[0].id == kFirstAnonymousEmitterId);
  CHECK(w.trace.emitters[0].event == EmitterEvent::Created);
  CHECK(bolt->hook_count() == 1);  // Scale(1.25 over 0.2 s) ramps through an FPHook
  REQUIRE(w.effects.sound_events().size() == 1);
  CHECK(w.effects.sound_events()[0].wave_id == 0x0A000001);
  CHECK(w.effects.sound_events()[0].sound_type == 0x51);
  CHECK(w.effects.sound_events()[0].volume == Approx(0.9f));
  CHECK(w.effects.script_manager(bolt->local_id())->empty());
}

TEST_CASE(
    "seed 11.2 chain: the arrow table 0x3400002B has no Launch: nothing resolves, nothing queues "
    "(CPhysicsObj::play_script 0x00513260, PhysicsScriptTable::GetScript 0x00521E40)",
    "[retail][fx][seed]") {
  FxWorld w;
  auto arrow = w.make(0x70000020);
  arrow->init_defaults(SetupDefaults{0, 0, 0, 0x3400002B, 0});
  CHECK_FALSE(arrow->play_script(demo::play_script::Launch, 1.0f));
  CHECK_FALSE(arrow->play_script(demo::play_script::Explode, 1.0f));
  REQUIRE(w.trace.resolved.size() == 2);
  CHECK(w.trace.resolved[0].chosen == 0);
  CHECK(w.trace.resolved[1].chosen == 0);
  CHECK(w.trace.enqueued.empty());
  CHECK(w.effects.script_manager(arrow->local_id()) == nullptr);
  // Its Create entry does resolve.
  CHECK(arrow->play_script(demo::play_script::Create, 1.0f));
  REQUIRE(w.trace.enqueued.size() == 1);
  CHECK(w.trace.enqueued[0].script == 0x33000719);
}

TEST_CASE(
    "seed 11.2 chain: Tusker Fist's Setup default script 0x33000D77 runs Scale, emitter 0x3200071B on part 0 "
    "and SoundTable at time zero (CPhysicsObj::InitDefaults 0x005139D0, ScriptManager::UpdateScripts 0x0051B480)",
    "[retail][fx][seed]") {
  FxWorld w;
  w.at(0.0);
  FxParts* parts = nullptr;
  auto fist = w.make(0x70000030, {20, 20, 2}, 1, &parts);
  // CPhysicsObj::InitDefaults plays the Setup's direct script (no table).
  fist->init_defaults(SetupDefaults{demo::kTuskerFistDefaultScript, 0, 0, 0, 0});
  REQUIRE(w.trace.enqueued.size() == 1);
  CHECK(w.trace.enqueued[0].script == demo::kTuskerFistDefaultScript);
  CHECK(w.trace.enqueued[0].start == 0.0);
  w.effects.update_scripts(*fist);
  REQUIRE(w.trace.hooks.size() == 3);
  CHECK(w.trace.hooks[0].type == HookType::Scale);
  CHECK(w.trace.hooks[1].type == HookType::CreateParticle);
  CHECK(w.trace.hooks[2].type == HookType::SoundTable);
  for (const auto& h : w.trace.hooks) CHECK(h.time == 0.0);
  // Scale 1.2 over 0 s: applied at once, no timed hook.
  CHECK(fist->scale() == Approx(1.2f));
  CHECK(parts->scale.x == Approx(1.2f));
  CHECK(fist->hook_count() == 0);
  const ParticleManager* pm = w.effects.particle_manager(fist->local_id());
  REQUIRE(pm != nullptr);
  REQUIRE(pm->get_num_emitters() == 1);
  const ParticleEmitter& e = *pm->emitters()[0];
  CHECK(e.info_id() == demo::kTuskerFistEmitter);
  CHECK(e.part_index() == 0);
  CHECK(e.num_particles() == 4);  // initial_particles of the demo record
  // Tusker Fist has no sound table: the SoundTable hook plays nothing.
  CHECK(w.effects.sound_events().empty());
}

TEST_CASE(
    "seed 11.3 chain: Hidden and UnHide at intensity 1 through table 0x34000004 play 0x33000331 then "
    "0x3300032F back to back (CPhysicsObj::set_hidden 0x00514C60, PhysicsScriptTable::GetScript 0x00521E40, "
    "ScriptManager::AddScriptInternal 0x0051B310)",
    "[retail][fx][seed]") {
  FxWorld w;
  w.at(2.0);
  auto human = w.make(0x50000001, {30, 30, 0}, 1);
  human->init_defaults(SetupDefaults{0, 0, demo::kHumanSoundTable, demo::kHumanScriptTable, 0});
  human->set_state(human->state() | ps::Hidden, true);
  human->set_state(human->state() & ~ps::Hidden, true);
  REQUIRE(w.trace.resolved.size() == 2);
  CHECK(w.trace.resolved[0].type == demo::play_script::Hidden);
  CHECK(w.trace.resolved[0].intensity_bits == float_bits(1.0f));
  CHECK(w.trace.resolved[0].chosen == demo::kHiddenScript);
  CHECK(w.trace.resolved[1].type == demo::play_script::UnHide);
  CHECK(w.trace.resolved[1].chosen == demo::kUnHideScript);
  REQUIRE(w.trace.enqueued.size() == 2);
  CHECK(w.trace.enqueued[0].start == 2.0);
  CHECK(w.trace.enqueued[1].start == Approx(2.8));  // after the Hidden script's 0.8 s
  w.at(10.0);
  w.effects.update_scripts(*human);
  std::vector<HookType> types;
  for (const auto& h : w.trace.hooks) types.push_back(h.type);
  CHECK(types == std::vector<HookType>{HookType::CreateParticle, HookType::SoundTable, HookType::Transparent,
                                       HookType::Transparent, HookType::CreateParticle, HookType::SoundTable});
  // Both CreateParticle hooks name no logical id: two anonymous swirls.
  const ParticleManager* pm = w.effects.particle_manager(human->local_id());
  REQUIRE(pm != nullptr);
  CHECK(pm->get_num_emitters() == 2);
  CHECK(w.effects.sound_events().size() == 2);
}

// --- CallPES and the default-script hooks -------------------------------------------

TEST_CASE("CPhysicsObj::CallPES 0x00511AF0 below 0.0002 s enqueues at once, only in a cell", "[retail][fx]") {
  FxWorld w;
  w.at(4.0);
  auto obj = w.make(0x70000040);
  obj->call_pes(0x33000719, 0.0001f);
  REQUIRE(w.trace.enqueued.size() == 1);
  CHECK(w.trace.enqueued[0].start == 4.0);
  CHECK(obj->hook_count() == 0);
  obj->leave_world();
  obj->call_pes(0x33000719, 0.0f);
  CHECK(w.trace.enqueued.size() == 1);
}

TEST_CASE(
    "CPhysicsObj::CallPES 0x00511AF0 with a pause: a random delay from 0 up to (not including) the pause at the head "
    "of the hooks, "
    "kept until it runs (CPhysicsObj::CallPESInternal 0x00511AC0, FPHook::Execute 0x0051BAA0)",
    "[retail][fx]") {
  FxWorld w(&demo_portal(), 99);
  w.at(1.0);
  auto obj = w.make(0x70000041);
  // An older timed hook that records, each time it runs, how many scripts
  // have been queued so far.
  struct Probe final : PhysicsObjHook {
    explicit Probe(FxWorld& world) : w(&world) {}
    bool execute(PhysicsObj&) override {
      seen.push_back(w->trace.enqueued.size());
      return false;
    }
    FxWorld* w;
    std::vector<std::size_t> seen;
  };
  auto probe = std::make_unique<Probe>(w);
  Probe* p = probe.get();
  obj->add_hook_at_head(std::move(probe));

  core::Rng copy(99);
  const float delay = copy.uniform(0.0f, 2.0f);
  obj->call_pes(0x33000719, 2.0f);
  CHECK(obj->hook_count() == 2);
  CHECK(w.trace.enqueued.empty());

  w.context.physics_time = core::Seconds{1.0 + delay * 0.5};
  obj->process_hooks();
  CHECK(obj->hook_count() == 2);  // not due: kept
  CHECK(w.trace.enqueued.empty());
  w.context.physics_time = core::Seconds{1.0 + static_cast<double>(delay) + 0.001};
  obj->process_hooks();
  // Due: the script is queued before the older hook runs (the CallPES hook is
  // at the head), and the CallPES hook is gone.
  REQUIRE(w.trace.enqueued.size() == 1);
  CHECK(w.trace.enqueued[0].script == 0x33000719);
  CHECK(p->seen == std::vector<std::size_t>{0, 1});
  CHECK(obj->hook_count() == 1);
}

TEST_CASE(
    "CPhysicsObj::CallPES 0x00511AF0 two delayed calls due together run newest first (each is added at the head) "
    "(CPhysicsObj::process_hooks 0x00511550)",
    "[retail][fx]") {
  FxWorld w(&demo_portal(), 7);
  w.at(1.0);
  auto obj = w.make(0x70000043);
  obj->call_pes(demo::kUnHideScript, 0.5f);  // the older call
  obj->call_pes(demo::kHiddenScript, 0.5f);  // the newer call, now at the head
  REQUIRE(obj->hook_count() == 2);
  CHECK(w.trace.enqueued.empty());
  w.context.physics_time = core::Seconds{2.0};  // past both delays (each under 0.5 s)
  obj->process_hooks();
  REQUIRE(w.trace.enqueued.size() == 2);
  CHECK(w.trace.enqueued[0].script == demo::kHiddenScript);
  CHECK(w.trace.enqueued[1].script == demo::kUnHideScript);
  CHECK(obj->hook_count() == 0);
}

TEST_CASE("CPhysicsObj::CallPESInternal 0x00511AC0 enqueues only at value >= 1 and in a cell", "[retail][fx]") {
  FxWorld w;
  auto obj = w.make(0x70000042);
  obj->call_pes_internal(0x33000719, 0.99f);
  CHECK(w.trace.enqueued.empty());
  obj->call_pes_internal(0x33000719, 1.0f);
  CHECK(w.trace.enqueued.size() == 1);
  obj->leave_world();
  obj->call_pes_internal(0x33000719, 1.0f);
  CHECK(w.trace.enqueued.size() == 1);
}

TEST_CASE(
    "DefaultScriptHook 0x00526C10 / CPhysicsObj::play_default_script 0x005132B0 resolves the owner's default "
    "type and intensity",
    "[retail][fx]") {
  FxWorld w;
  auto obj = w.make(0x70000050);
  protocol::PhysicsDesc desc;
  desc.state = obj->state();
  desc.physics_script_table_id = 0x34000005;
  desc.default_script_type = demo::play_script::Explode;
  desc.default_script_intensity = 0.5f;
  obj->set_description(desc, false);
  w.effects.execute_hook(*obj, hook(dat::DefaultScriptHook{}));
  REQUIRE(w.trace.resolved.size() == 1);
  CHECK(w.trace.resolved[0].owner == obj->local_id());
  CHECK(w.trace.resolved[0].type == demo::play_script::Explode);
  CHECK(w.trace.resolved[0].chosen == 0x3300012B);
  REQUIRE(w.trace.enqueued.size() == 1);
  CHECK(w.trace.enqueued[0].owner == obj->local_id());
  // Out of the world: nothing resolves, and retail reports success.
  obj->leave_world();
  CHECK(w.effects.play_default_script(*obj));
  CHECK(w.trace.resolved.size() == 1);
}

TEST_CASE(
    "DefaultScriptPartHook 0x00526C00 / CPhysicsObj::play_default_script 0x00513300 plays the attached child's "
    "own default through the child's table",
    "[retail][fx]") {
  FxWorld w;
  FxParts* parts = nullptr;
  auto parent = w.make(0x50000002, {40, 40, 0}, 3, &parts);
  parts->holding[1] = HoldingLocation{2, core::Frame{}};
  protocol::PhysicsDesc pd;
  pd.state = parent->state();
  pd.physics_script_table_id = 0x34000005;
  pd.default_script_type = demo::play_script::Launch;
  pd.default_script_intensity = 0.0f;
  parent->set_description(pd, false);

  auto child = std::make_unique<PhysicsObj>(w.context, 0x70000051, LocalId{0x70000051});
  protocol::PhysicsDesc cd;
  cd.state = child->state();
  cd.physics_script_table_id = demo::kHumanScriptTable;
  cd.default_script_type = demo::play_script::Hidden;
  cd.default_script_intensity = 1.0f;
  child->set_description(cd, false);
  REQUIRE(child->set_parent(*parent, 1));  // holding location 1 hangs from part 2

  w.effects.execute_hook(*parent, hook(dat::DefaultScriptPartHook{2}));
  REQUIRE(w.trace.resolved.size() == 1);
  CHECK(w.trace.resolved[0].owner == child->local_id());
  CHECK(w.trace.resolved[0].table == demo::kHumanScriptTable);
  CHECK(w.trace.resolved[0].chosen == demo::kHiddenScript);
  REQUIRE(w.trace.enqueued.size() == 1);
  CHECK(w.trace.enqueued[0].owner == child->local_id());
  CHECK(w.effects.script_manager(parent->local_id()) == nullptr);
  // No child at that part: nothing.
  CHECK_FALSE(w.effects.play_default_script(*parent, 0));
  CHECK(w.trace.resolved.size() == 1);
  child->unset_parent();
}

TEST_CASE(
    "CPhysicsObj::UpdateObjectInternal 0x005156B0: a long frame fires every due script hook in order "
    "(ScriptManager::UpdateScripts 0x0051B480)",
    "[retail][fx]") {
  dat::PhysicsScript script;
  script.id = 0x33000500;
  for (std::uint32_t i = 0; i < 5; ++i) {
    script.hooks.push_back({0.1 * i, hook(dat::SoundTweakedHook{0x0A000100 + i, 1.0f, 0.0f, 1.0f})});
  }
  const auto portal = make_dat({{script.id, dat::write_physics_script(script)}});
  FxWorld w(&portal);
  w.at(0.0);
  auto obj = w.make(0x70000060);
  obj->set_state(obj->state() & ~ps::Gravity, false);
  REQUIRE(w.effects.play_script(*obj, script.id));
  w.clock.set(core::Seconds{1.0});  // one frame of a whole second
  obj->update_object();
  const auto& sounds = w.effects.sound_events();
  REQUIRE(sounds.size() == 5);
  for (std::uint32_t i = 0; i < 5; ++i) CHECK(sounds[i].wave_id == 0x0A000100 + i);
  CHECK(w.effects.script_manager(obj->local_id())->empty());
}
