// Seed retail-projectile-vfx sections 8, 13 and 14, spec/physics.md 8.3, 8.4
// and 9: every hook sink (timed FPHooks, part render state, NoDraw, Ethereal,
// omega, lights, sound), the emitter hooks through the DAT, publishing, and the
// particles-then-scripts order of UpdateObjectInternal (decisions item 2).
#include <catch2/catch.hpp>

#include <numbers>
#include <set>
#include <utility>

#include <glm/gtc/quaternion.hpp>

#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/dat/physics_script.hpp"
#include "dereth/dat/setup.hpp"
#include "dereth/dat/sound_table.hpp"
#include "dereth/demo/demo_world.hpp"

#include "effects/fx_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::fxtest;
namespace ps = protocol::physics_state;
namespace ts = transient_state;
using dat::HookType;

namespace {

void run_hooks_at(FxWorld& w, PhysicsObj& obj, double physics_time) {
  w.context.physics_time = core::Seconds{physics_time};
  obj.process_hooks();
}

// A small portal DAT: a lit Setup, a sound table, an always-emitting
// emitter and a script that creates it.
constexpr std::uint32_t kLitSetup = 0x02000099;
constexpr std::uint32_t kTable = 0x20000099;
constexpr std::uint32_t kEager = 0x32000200;
constexpr std::uint32_t kEagerScript = 0x33000200;
// The real Hidden PES 0x33000331's shape: 14 CreateParticle hooks and one
// translucency hook, all at time zero (the translucency one ninth, stored;
// retail's sort runs it fourth).
constexpr std::uint32_t kHiddenShape = 0x33000201;
constexpr std::size_t kHiddenTransparentAt = 8;
constexpr std::size_t kHiddenTransparentRuns = 3;

dat::DatFile fx_dat() {
  dat::Setup setup;
  setup.id = kLitSetup;
  setup.parts = {0x01000020};
  dat::SetupPlacement placement;
  placement.frame.part_frames = {dat::Frame{}};
  setup.placement_frames = {placement};
  setup.lights = {dat::SetupLight{0, dat::Frame{{0, 1, 2}, glm::quat(1, 0, 0, 0)}, 0xFF204080u, 2.0f, 5.0f, 0.5f}};

  dat::SoundTable table;
  table.id = kTable;
  dat::SoundTableData three;
  three.hash_key = 0x10;
  three.entries = {dat::SoundEntry{0x0A000011, 0.1f, 1.0f, 0.7f}, dat::SoundEntry{0x0A000012, 0.2f, 1.0f, 0.7f},
                   dat::SoundEntry{0x0A000013, 0.3f, 1.0f, 0.7f}};
  dat::SoundTableData never;
  never.hash_key = 0x11;
  never.entries = {dat::SoundEntry{0x0A000014, 0.0f, 0.0f, 1.0f}};
  dat::SoundTableData silent;
  silent.hash_key = 0x12;
  silent.entries = {dat::SoundEntry{0, 0.0f, 1.0f, 1.0f}};
  table.root.children = {three, never, silent};

  dat::ParticleEmitterInfo eager;
  eager.id = kEager;
  eager.emitter_type = dat::EmitterType::BirthratePerSec;
  eager.particle_type = dat::ParticleType::Still;
  eager.gfx_obj_id = eager.hw_gfx_obj_id = 0x01000020;
  eager.birthrate = -1.0;  // a birth on every update
  eager.max_particles = 10;
  eager.initial_particles = 0;
  eager.lifespan = 100.0;

  dat::PhysicsScript script;
  script.id = kEagerScript;
  script.hooks = {{0.0, hook(dat::CreateParticleHook{kEager, kRootPart, dat::Frame{}, 0})}};

  dat::PhysicsScript hidden;
  hidden.id = kHiddenShape;
  for (std::uint32_t i = 0; i < 14; ++i) {
    if (hidden.hooks.size() == kHiddenTransparentAt)
      hidden.hooks.push_back({0.0, hook(dat::TransparentHook{0.0f, 1.0f, 0.0f})});
    hidden.hooks.push_back(
        {0.0, hook(dat::CreateParticleHook{kEager, kRootPart,
                                           dat::Frame{{0, 0, static_cast<float>(i)}, glm::quat(1, 0, 0, 0)}, 0})});
  }

  return make_dat({{kLitSetup, dat::write_setup(setup)},
                   {kHiddenShape, dat::write_physics_script(hidden)},
                   {kTable, dat::write_sound_table(table)},
                   {kEager, dat::write_particle_emitter_info(eager)},
                   {kEagerScript, dat::write_physics_script(script)}});
}

const dat::DatFile& fx_portal() {
  static const dat::DatFile file = fx_dat();
  return file;
}

}  // namespace

// --- timed hooks -----------------------------------------------------------------------

TEST_CASE(
    "FPHook::Execute 0x0051BAA0: TransparentHook 0x00526C30 / SetTranslucency2 0x0050FB50 ramps on the "
    "physics timer and is removed at the end (CPhysicsObj::process_fp_hook 0x005135C0)",
    "[retail][fx][hooks]") {
  FxWorld w;
  w.at(1.0);
  FxParts* parts = nullptr;
  auto obj = w.make(0x70000200, {10, 10, 0}, 1, &parts);
  w.effects.execute_hook(*obj, hook(dat::TransparentHook{0.2f, 1.0f, 0.5f}));
  CHECK(obj->hook_count() == 1);
  CHECK(obj->translucency() == 0.0f);  // nothing until the hook runs
  run_hooks_at(w, *obj, 1.0);          // no time has passed: the start value
  CHECK(obj->translucency() == Approx(0.2f));
  run_hooks_at(w, *obj, 1.25);
  CHECK(obj->translucency() == Approx(0.6f));
  CHECK(obj->hook_count() == 1);
  run_hooks_at(w, *obj, 1.5);
  CHECK(obj->translucency() == Approx(1.0f));
  CHECK(parts->translucency == Approx(1.0f));
  CHECK(obj->hook_count() == 0);
}

TEST_CASE(
    "CPhysicsObj::SetTranslucencyInternal 0x0050F960 never goes below the described translucency "
    "(CPhysicsObj::SetTranslucency2 0x0050FB50)",
    "[retail][fx][hooks]") {
  FxWorld w;
  auto obj = w.make(0x70000201);
  protocol::PhysicsDesc desc;
  desc.state = obj->state();
  desc.translucency = 0.3f;
  obj->set_description(desc, false);
  w.effects.execute_hook(*obj, hook(dat::TransparentHook{0.0f, 0.1f, 0.0f}));  // immediate
  CHECK(obj->hook_count() == 0);
  CHECK(obj->translucency() == Approx(0.3f));
  w.effects.execute_hook(*obj, hook(dat::TransparentHook{0.0f, 0.6f, 0.0001f}));  // under EPSILON: immediate
  CHECK(obj->translucency() == Approx(0.6f));
}

TEST_CASE(
    "ScaleHook 0x00526E40 / CPhysicsObj::SetScale 0x005136A0 ramps from the current scale, "
    "SetScaleStatic 0x00511BB0 applies it",
    "[retail][fx][hooks]") {
  FxWorld w;
  w.at(0.0);
  FxParts* parts = nullptr;
  auto obj = w.make(0x70000202, {10, 10, 0}, 1, &parts);
  obj->set_scale_static(1.5f);
  w.effects.execute_hook(*obj, hook(dat::ScaleHook{3.5f, 1.0f}));
  REQUIRE(obj->hook_count() == 1);
  run_hooks_at(w, *obj, 0.5);
  CHECK(obj->scale() == Approx(2.5f));
  CHECK(parts->scale.y == Approx(2.5f));
  run_hooks_at(w, *obj, 2.0);
  CHECK(obj->scale() == Approx(3.5f));
  CHECK(obj->hook_count() == 0);
  w.effects.execute_hook(*obj, hook(dat::ScaleHook{0.5f, 0.0f}));
  CHECK(obj->scale() == 0.5f);
  CHECK(obj->hook_count() == 0);
}

TEST_CASE(
    "TransparentPartHook 0x00526CC0, LuminousHook 0x00526D60, LuminousPartHook 0x00526D30, DiffuseHook "
    "0x00526E00, DiffusePartHook 0x00526D80 reach the part array at once or through an FPHook "
    "(CPhysicsObj::SetPartTranslucency 0x00511730, CPhysicsObj::SetLuminosity 0x00511890, "
    "CPhysicsObj::SetPartLuminosity 0x005117E0, CPhysicsObj::SetDiffusion 0x005119E0, "
    "CPhysicsObj::SetPartDiffusion 0x00511930, CPhysicsObj::process_fp_hook 0x005135C0)",
    "[retail][fx][hooks]") {
  FxWorld w;
  w.at(0.0);
  FxParts* parts = nullptr;
  auto obj = w.make(0x70000203, {10, 10, 0}, 3, &parts);
  w.effects.execute_hook(*obj, hook(dat::TransparentPartHook{1, 0.0f, 0.75f, 0.0f}));
  w.effects.execute_hook(*obj, hook(dat::LuminousHook{0.0f, 0.25f, 0.0f}));
  w.effects.execute_hook(*obj, hook(dat::DiffuseHook{0.0f, 0.5f, 0.0f}));
  w.effects.execute_hook(*obj, hook(dat::LuminousPartHook{2, 0.0f, 1.0f, 0.0f}));
  w.effects.execute_hook(*obj, hook(dat::DiffusePartHook{0, 1.0f, 0.0f, 0.0f}));
  REQUIRE(parts->calls.size() == 5);
  CHECK((parts->calls[0].what == "translucency" && parts->calls[0].part == 1 && parts->calls[0].value == 0.75f));
  CHECK((parts->calls[1].what == "luminosity" && parts->calls[1].part == PartArray::kAllParts &&
         parts->calls[1].value == 0.25f));
  CHECK((parts->calls[2].what == "diffusion" && parts->calls[2].part == PartArray::kAllParts &&
         parts->calls[2].value == 0.5f));
  CHECK((parts->calls[3].what == "luminosity" && parts->calls[3].part == 2 && parts->calls[3].value == 1.0f));
  CHECK((parts->calls[4].what == "diffusion" && parts->calls[4].part == 0 && parts->calls[4].value == 0.0f));
  CHECK(obj->hook_count() == 0);
  // Ramped: each becomes a timed hook that writes its interpolated value.
  parts->calls.clear();
  w.effects.execute_hook(*obj, hook(dat::LuminousPartHook{2, 0.0f, 1.0f, 2.0f}));
  w.effects.execute_hook(*obj, hook(dat::DiffuseHook{1.0f, 0.0f, 2.0f}));
  w.effects.execute_hook(*obj, hook(dat::TransparentPartHook{0, 0.0f, 0.5f, 2.0f}));
  CHECK(obj->hook_count() == 3);
  CHECK(parts->calls.empty());
  run_hooks_at(w, *obj, 1.0);
  REQUIRE(parts->calls.size() == 3);
  // Head first: the newest hook runs first.
  CHECK((parts->calls[0].what == "translucency" && parts->calls[0].part == 0 && parts->calls[0].value == 0.25f));
  CHECK((parts->calls[1].what == "diffusion" && parts->calls[1].part == PartArray::kAllParts &&
         parts->calls[1].value == 0.5f));
  CHECK((parts->calls[2].what == "luminosity" && parts->calls[2].part == 2 && parts->calls[2].value == 0.5f));
  // Without a part array the part hooks do nothing (and do not crash).
  auto bare = w.make(0x70000204);
  w.effects.execute_hook(*bare, hook(dat::LuminousPartHook{2, 0.0f, 1.0f, 0.0f}));
  CHECK(bare->hook_count() == 0);
}

// --- state hooks -----------------------------------------------------------------------

TEST_CASE("NoDrawHook 0x00526BE0 drives CPhysicsObj::set_nodraw 0x0050FCA0", "[retail][fx][hooks]") {
  FxWorld w;
  FxParts* parts = nullptr;
  auto obj = w.make(0x70000210, {10, 10, 0}, 1, &parts);
  w.effects.execute_hook(*obj, hook(dat::NoDrawHook{1}));
  CHECK((obj->state() & ps::NoDraw) != 0);
  w.effects.execute_hook(*obj, hook(dat::NoDrawHook{0}));
  CHECK((obj->state() & ps::NoDraw) == 0);
  CHECK(parts->no_draw_calls == std::vector<bool>{true, false});
}

TEST_CASE("EtherealHook 0x00526BC0 drives CPhysicsObj::set_ethereal 0x00511C40", "[retail][fx][hooks]") {
  FxWorld w;
  auto obj = w.make(0x70000211);
  obj->set_transient_state(obj->transient_state() | ts::CheckEthereal);
  w.effects.execute_hook(*obj, hook(dat::EtherealHook{1}));
  CHECK((obj->state() & ps::Ethereal) != 0);
  CHECK((obj->transient_state() & ts::CheckEthereal) == 0);
  w.effects.execute_hook(*obj, hook(dat::EtherealHook{0}));
  CHECK((obj->state() & ps::Ethereal) == 0);
  CHECK((obj->transient_state() & ts::CheckEthereal) == 0);
}

TEST_CASE("SetOmegaHook 0x00526F30 sets the object's angular velocity (CPhysicsObj::set_omega 0x0050F6D0)",
          "[retail][fx][hooks]") {
  FxWorld w;
  auto obj = w.make(0x70000212);
  w.effects.execute_hook(*obj, hook(dat::SetOmegaHook{{0.0f, 0.0f, 1.5f}}));
  CHECK(obj->omega() == glm::vec3(0.0f, 0.0f, 1.5f));
}

TEST_CASE("ReplaceObjectHook swaps the part's GfxObj through the part array", "[fx][hooks]") {
  FxWorld w;
  FxParts* parts = nullptr;
  auto obj = w.make(0x70000213, {10, 10, 0}, 2, &parts);
  w.effects.execute_hook(*obj, hook(dat::ReplaceObjectHook{1, 0x01000777}));
  REQUIRE(parts->replaced.size() == 1);
  CHECK(parts->replaced[0] == std::pair<std::uint32_t, std::uint32_t>{1, 0x01000777});
}

TEST_CASE(
    "SetLightHook 0x00526FD0 and the Lighting state bit drive the same state (CPhysicsObj::set_lights "
    "0x0050FCF0, set_state 0x00514DD0): the part array's InitLights and DestroyLights",
    "[retail][fx][hooks]") {
  FxWorld w(&fx_portal());
  FxParts* parts = nullptr;
  auto obj = w.make(0x70000220, {10, 10, 0}, 1, &parts);
  w.effects.execute_hook(*obj, hook(dat::SetLightHook{0}));
  CHECK((obj->state() & ps::Lighting) == 0);
  CHECK(parts->lights_off == 1);
  w.effects.execute_hook(*obj, hook(dat::SetLightHook{1}));
  CHECK((obj->state() & ps::Lighting) != 0);
  CHECK(parts->lights_on == 1);
  // The state bit, cleared by a SetState, turns the same lights off.
  obj->set_state(obj->state() & ~ps::Lighting, false);
  CHECK(parts->lights_off == 2);
  // The effects publish no lights of their own: the part array poses them
  // (CPartArray::InitLights, dat_part_array_test).
  RenderSnapshot snapshot;
  w.effects.publish(snapshot);
  CHECK(snapshot.lights.empty());
}

// --- sound -----------------------------------------------------------------------------

TEST_CASE("SoundManager::GetSound 0x00550680 picks floor((n - 1) * U(0,1)): the last of several entries never plays",
          "[retail][fx][sound]") {
  auto bytes = fx_portal().read(kTable);
  REQUIRE(bytes);
  auto table = dat::read_sound_table(*bytes, kTable);
  REQUIRE(table);
  core::Rng rng(17);
  std::set<std::uint32_t> picked;
  for (int i = 0; i < 400; ++i) {
    core::Rng copy = rng;
    const auto entry = Effects::get_sound(*table, 0x10, rng);
    REQUIRE(entry);
    const auto expected = static_cast<std::size_t>(2.0 * static_cast<double>(copy.uniform(0.0f, 1.0f)));
    CHECK(entry->wave == 0x0A000011 + expected);
    picked.insert(entry->wave);
  }
  CHECK(picked == std::set<std::uint32_t>{0x0A000011, 0x0A000012});
  CHECK_FALSE(Effects::get_sound(*table, 0x12, rng));  // a zero wave plays nothing
  CHECK_FALSE(Effects::get_sound(*table, 0x99, rng));  // no list for that sound
}

TEST_CASE(
    "SoundTableHook 0x00526AB0 / SoundManager::PlaySound 0x00550B70: the owner's table, its probability and "
    "volume (SoundManager::PlayProbability 0x005500E0)",
    "[retail][fx][sound]") {
  FxWorld w(&fx_portal());
  w.at(5.0);
  auto obj = w.make(0x70000230, {12, 13, 4});
  w.effects.execute_hook(*obj, hook(dat::SoundTableHook{0x10}));
  CHECK(w.effects.sound_events().empty());  // no sound table yet
  obj->init_defaults(SetupDefaults{0, 0, kTable, 0, 0});
  w.effects.execute_hook(*obj, hook(dat::SoundTableHook{0x10}));
  w.effects.execute_hook(*obj, hook(dat::SoundTableHook{0x11}));  // probability 0: never
  REQUIRE(w.effects.sound_events().size() == 1);
  const SoundEvent& e = w.effects.sound_events()[0];
  CHECK(e.owner == obj->local_id());
  CHECK((e.wave_id == 0x0A000011 || e.wave_id == 0x0A000012));
  CHECK(e.sound_type == 0x10);
  CHECK(e.volume == Approx(0.7f));
  CHECK(near(e.position, {12, 13, 4}));
  CHECK(e.time.count() == 5.0);
  // Publishing reads; the world forgets the tick's sounds once it has
  // published them (World::step), so each plays once.
  RenderSnapshot snap;
  std::as_const(w.effects).publish(snap);
  CHECK(snap.sounds.size() == 1);
  CHECK(w.effects.sound_events().size() == 1);
  w.effects.clear_sound_events();
  RenderSnapshot again;
  w.effects.publish(again);
  CHECK(again.sounds.empty());
}

TEST_CASE(
    "SoundHook 0x00526A20 and SoundTweakedHook 0x00526A80 play their wave directly (SoundManager::PlaySound "
    "0x00550730 / 0x005507A0)",
    "[retail][fx][sound]") {
  FxWorld w(&fx_portal());
  auto obj = w.make(0x70000231);
  w.effects.execute_hook(*obj, hook(dat::SoundHook{0x0A000021}));
  w.effects.execute_hook(*obj, hook(dat::SoundTweakedHook{0x0A000022, 0.0f, 0.9f, 0.5f}));  // probability 0
  w.effects.execute_hook(*obj, hook(dat::SoundTweakedHook{0x0A000023, 1.0f, 0.9f, 0.5f}));
  const auto& events = w.effects.sound_events();
  REQUIRE(events.size() == 2);
  CHECK(events[0].wave_id == 0x0A000021);
  CHECK(events[0].sound_type == 0);
  CHECK(events[0].volume == 1.0f);
  CHECK(events[1].wave_id == 0x0A000023);
  CHECK(events[1].volume == 0.5f);
  CHECK(events[1].priority == 0.9f);
}

TEST_CASE(
    "CPhysicsObj::play_sound 0x0050F460 (F750): needs a sound table, uses the message volume (SoundManager::PlaySoundA "
    "0x00550AF0)",
    "[retail][fx][sound]") {
  FxWorld w(&fx_portal());
  auto obj = w.make(0x70000232);
  CHECK_FALSE(w.effects.play_sound(*obj, 0x10, 0.25f));
  obj->init_defaults(SetupDefaults{0, 0, kTable, 0, 0});
  CHECK(w.effects.play_sound(*obj, 0x10, 0.25f));
  CHECK(w.effects.play_sound(*obj, 0x99, 0.25f));  // a table, but nothing for that sound
  REQUIRE(w.effects.sound_events().size() == 1);
  CHECK(w.effects.sound_events()[0].volume == 0.25f);
}

// --- emitter hooks, publishing and order ---------------------------------------------------

TEST_CASE(
    "CreateParticleHook 0x00526EC0 with a missing ParticleEmitterInfo creates nothing "
    "(CPhysicsObj::create_particle_emitter 0x0050F360)",
    "[retail][fx][particles]") {
  FxWorld w;
  auto obj = w.make(0x70000240);
  w.effects.execute_hook(*obj, hook(dat::CreateParticleHook{0x32FFFFFF, kRootPart, dat::Frame{}, 0}));
  const ParticleManager* pm = w.effects.particle_manager(obj->local_id());
  REQUIRE(pm != nullptr);
  CHECK(pm->get_num_emitters() == 0);
  CHECK(w.trace.emitters.empty());
  RenderSnapshot snap;
  w.effects.publish(snap);
  CHECK(snap.emitters.empty());
}

TEST_CASE(
    "seed 11.4: blocking script 0x33000AEA run twice creates its logical emitter once "
    "(CreateBlockingParticleHook 0x00526EF0) (ParticleManager::CreateBlockingParticleEmitter 0x0051B8A0)",
    "[retail][fx][seed]") {
  FxWorld w;
  w.at(0.0);
  auto obj = w.make(0x70000241);
  REQUIRE(w.effects.play_script(*obj, demo::kFirstBlockingScript));
  REQUIRE(w.effects.play_script(*obj, demo::kFirstBlockingScript));
  w.at(1.0);
  w.effects.update_scripts(*obj);
  REQUIRE(w.trace.emitters.size() == 2);
  CHECK(w.trace.emitters[0].event == EmitterEvent::Created);
  CHECK(w.trace.emitters[0].id == 1);
  CHECK(w.trace.emitters[1].event == EmitterEvent::SuppressedByBlocking);
  CHECK(w.effects.particle_manager(obj->local_id())->get_num_emitters() == 1);
}

TEST_CASE(
    "DestroyParticleHook 0x00526F10 and StopParticleHook 0x00526F20 through the owner "
    "(CPhysicsObj::destroy_particle_emitter 0x0050F400, stop_particle_emitter 0x0050F420)",
    "[retail][fx][particles]") {
  FxWorld w;
  auto obj = w.make(0x70000242);
  // No manager yet: nothing to stop or destroy.
  CHECK_FALSE(w.effects.stop_particle_emitter(*obj, 3));
  w.effects.execute_hook(*obj, hook(dat::CreateParticleHook{0x32000001, kRootPart, dat::Frame{}, 3}));
  w.effects.execute_hook(*obj, hook(dat::StopParticleHook{3}));
  const ParticleManager* pm = w.effects.particle_manager(obj->local_id());
  REQUIRE(pm->find(3) != nullptr);
  CHECK(pm->find(3)->stopped());
  w.effects.execute_hook(*obj, hook(dat::DestroyParticleHook{3}));
  CHECK(pm->find(3) == nullptr);
  std::vector<EmitterEvent> events;
  for (const auto& e : w.trace.emitters) events.push_back(e.event);
  CHECK(events == std::vector<EmitterEvent>{EmitterEvent::Created, EmitterEvent::Stopped, EmitterEvent::Destroyed});
}

TEST_CASE(
    "publish: drawable emitters in owner then creation order with world positions, a Hidden owner's emitters "
    "are not drawn",
    "[fx][particles]") {
  FxWorld w;
  w.at(0.0);
  auto second = w.make(0x70000251, {50, 50, 0});
  auto first = w.make(0x70000250, {20, 20, 0});
  w.effects.execute_hook(*second, hook(dat::CreateParticleHook{0x32000001, kRootPart, dat::Frame{}, 0}));
  w.effects.execute_hook(*first, hook(dat::CreateParticleHook{0x32000002, kRootPart, dat::Frame{}, 9}));
  w.effects.execute_hook(*first, hook(dat::CreateParticleHook{0x32000001, kRootPart, dat::Frame{}, 0}));
  RenderSnapshot snap;
  w.effects.publish(snap);
  REQUIRE(snap.emitters.size() == 3);
  CHECK(snap.emitters[0].owner == first->local_id());
  CHECK(snap.emitters[0].emitter_info_id == 0x32000002);
  CHECK(snap.emitters[0].logical_id == 9);
  CHECK_FALSE(snap.emitters[0].world_space);  // 0x32000002 is the demo's parent-local type 2
  CHECK(snap.emitters[1].owner == first->local_id());
  CHECK(snap.emitters[1].logical_id == 0);
  CHECK(snap.emitters[1].world_space);
  CHECK(snap.emitters[1].gfx_obj == 0x01000020);
  CHECK(snap.emitters[2].owner == second->local_id());
  REQUIRE(snap.emitters[1].particles.size() == 4);  // the demo records' initial particles
  for (const auto& p : snap.emitters[1].particles) {
    CHECK(glm::length(p.position - glm::vec3(20, 20, 0)) <= 0.2f + 1e-4f);  // within max_offset of the anchor
    CHECK(p.alpha == Approx(1.0f));
  }
  // CPhysicsObj::set_hidden 0x00514C60 sets NoDraw on every child, emitters included.
  first->set_state(first->state() | ps::Hidden, false);
  w.effects.update_particles(*first);
  RenderSnapshot hidden;
  w.effects.publish(hidden);
  REQUIRE(hidden.emitters.size() == 1);
  CHECK(hidden.emitters[0].owner == second->local_id());
  // An emitter made while hidden is drawn (its parenting does not copy NoDraw).
  w.effects.execute_hook(*first, hook(dat::CreateParticleHook{0x32000001, kRootPart, dat::Frame{}, 0}));
  RenderSnapshot later;
  w.effects.publish(later);
  CHECK(later.emitters.size() == 2);
  first->set_state(first->state() & ~ps::Hidden, false);
  w.effects.update_particles(*first);
  RenderSnapshot shown;
  w.effects.publish(shown);
  CHECK(shown.emitters.size() == 4);
}

TEST_CASE(
    "publish: a particle carries its part's orientation, spun by c*t for types 4, 9 and 11 (Particle::Update "
    "0x0051C290), the identity for the others",
    "[retail][fx][particles]") {
  FxWorld w;
  w.at(0.0);
  auto obj = w.make(0x70000252, {30, 30, 0});
  const std::uint32_t spinning = 0x32000004;   // the demo's type 4, ParabolicLVGAGR: c about local +Z
  const std::uint32_t parabolic = 0x32000003;  // type 3, ParabolicLVGA: the update writes only the origin
  w.effects.execute_hook(*obj, hook(dat::CreateParticleHook{spinning, kRootPart, dat::Frame{}, 0}));
  w.effects.execute_hook(*obj, hook(dat::CreateParticleHook{parabolic, kRootPart, dat::Frame{}, 0}));
  w.at(0.5);
  w.effects.update_particles(*obj);
  RenderSnapshot snap;
  w.effects.publish(snap);
  REQUIRE(snap.emitters.size() == 2);
  const ParticleManager* pm = w.effects.particle_manager(obj->local_id());
  REQUIRE(pm != nullptr);
  for (std::size_t e = 0; e < 2; ++e) {
    const EmitterSnapshot& out = snap.emitters[e];
    const ParticleEmitter& emitter = *pm->emitters()[e];
    std::vector<const Particle*> live;
    for (std::size_t i = 0; i < emitter.particles().size(); ++i) {
      if (emitter.live(i)) live.push_back(&emitter.particles()[i]);
    }
    REQUIRE(out.particles.size() == live.size());
    REQUIRE_FALSE(live.empty());
    for (std::size_t i = 0; i < live.size(); ++i) {
      const Particle& p = *live[i];
      const glm::quat q = out.particles[i].orientation;
      CHECK(q == p.frame.orientation());
      CHECK(out.particles[i].scale == p.scale);                        // the scale ramp
      CHECK(out.particles[i].alpha == Approx(1.0f - p.translucency));  // the translucency ramp
      if (out.emitter_info_id == spinning) {
        // The owner is unturned, so the part is turned about +Z by |c| * lifetime.
        INFO("particle " << i << " lifetime " << p.lifetime);
        CHECK(2.0 * std::acos(std::min(1.0, static_cast<double>(std::abs(q.w)))) ==
              Approx(static_cast<double>(glm::length(p.c)) * p.lifetime).margin(1e-3));
        if (p.lifetime > 0.1) CHECK(std::abs(q.w) < 0.999f);  // turned by at least 0.05 rad
        CHECK(std::abs(q.x) < 1e-5f);
        CHECK(std::abs(q.y) < 1e-5f);
      } else {
        CHECK(q == glm::quat(1, 0, 0, 0));
      }
    }
  }
}

TEST_CASE(
    "CPhysicsObj::UpdateObjectInternal 0x005156B0: particles, then scripts: an emitter from an animation hook "
    "updates this tick, one from a script hook next tick (CPhysicsObj::process_hooks 0x00511550)",
    "[retail][fx][particles]") {
  FxWorld w(&fx_portal());
  w.at(1.0);
  auto anim = w.make(0x70000260);
  auto scripted = w.make(0x70000261);
  anim->add_anim_hook(std::make_unique<DatAnimHook>(hook(dat::CreateParticleHook{kEager, kRootPart, dat::Frame{}, 0})));
  REQUIRE(w.effects.play_script(*scripted, kEagerScript));
  w.context.physics_time = core::Seconds{1.0};
  anim->update_object_internal(FloatSeconds{0.05f});
  scripted->update_object_internal(FloatSeconds{0.05f});
  const auto emitted = [&](const PhysicsObj& o) {
    const ParticleManager* pm = w.effects.particle_manager(o.local_id());
    REQUIRE(pm != nullptr);
    REQUIRE(pm->get_num_emitters() == 1);
    return pm->emitters()[0]->total_emitted();
  };
  CHECK(emitted(*anim) == 1);
  CHECK(emitted(*scripted) == 0);
  scripted->update_object_internal(FloatSeconds{0.05f});
  CHECK(emitted(*scripted) == 1);
  std::vector<std::string> hooks;
  for (const auto& line : w.trace.log) {
    if (line.rfind("hook:", 0) == 0) hooks.push_back(line);
  }
  CHECK(hooks == std::vector<std::string>{"hook:CreateParticle", "hook:CreateParticle"});
}

TEST_CASE("Effects::object_destroyed drops the owner's scripts and emitters", "[fx]") {
  FxWorld w;
  auto obj = w.make(0x70000270);
  REQUIRE(w.effects.play_script(*obj, 0x33000719));
  w.effects.execute_hook(*obj, hook(dat::CreateParticleHook{0x32000001, kRootPart, dat::Frame{}, 0}));
  w.effects.object_destroyed(*obj);
  CHECK(w.effects.script_manager(obj->local_id()) == nullptr);
  CHECK(w.effects.particle_manager(obj->local_id()) == nullptr);
  CHECK(w.trace.emitters.back().event == EmitterEvent::Destroyed);
  RenderSnapshot snap;
  w.effects.publish(snap);
  CHECK(snap.emitters.empty());
}

TEST_CASE("Effects without a DAT resolves nothing and creates nothing", "[fx]") {
  FxWorld w(nullptr);
  auto obj = w.make(0x70000280);
  CHECK(w.effects.resolve_script(0x34000005, demo::play_script::Launch, 0.0f) == 0);
  w.effects.execute_hook(*obj, hook(dat::CreateParticleHook{0x32000001, kRootPart, dat::Frame{}, 0}));
  CHECK(w.effects.particle_manager(obj->local_id())->get_num_emitters() == 0);
  CHECK_FALSE(w.effects.play_sound(*obj, 1, 1.0f));
}

TEST_CASE(
    "PhysicsScript::UnPack 0x005218B0 a Hidden-shaped script (14 CreateParticle and one translucency hook at t = 0) "
    "runs its hooks in MSVCR70's qsort order",
    "[fx][retail]") {
  // PhysicsScript::UnPack sorts with MSVCR70's qsort and
  // PhysicsScriptData::Sort (a tie compares "greater"): the fifteen hooks
  // stored 0..14 run as 14, 7, 0, 8, 2, 9, 4, 10, 3, 5, 1, 11, 12, 13, 6
  // (tests/dat/physics_script_test.cpp), so the translucency hook, stored
  // ninth, runs fourth and the anonymous emitters are made in that order.
  FxWorld w(&fx_portal());
  w.at(2.0);
  auto obj = w.make(0x70000270);
  REQUIRE(w.effects.play_script(*obj, kHiddenShape));
  w.context.physics_time = core::Seconds{2.0};
  obj->update_object_internal(FloatSeconds{0.01f});
  std::vector<std::string> order;
  for (const auto& line : w.trace.log) {
    if (line.rfind("hook:", 0) == 0) order.push_back(line);
  }
  REQUIRE(order.size() == 15);
  for (std::size_t i = 0; i < order.size(); ++i) {
    INFO("hook " << i << ": " << order[i]);
    CHECK((order[i].find("Transparent") != std::string::npos) == (i == kHiddenTransparentRuns));
  }
  const ParticleManager* pm = w.effects.particle_manager(obj->local_id());
  REQUIRE(pm != nullptr);
  REQUIRE(pm->get_num_emitters() == 14);
  // The k-th stored CreateParticle sits k metres up.
  const std::vector<float> heights = {13, 7, 0, 2, 8, 4, 9, 3, 5, 1, 10, 11, 12, 6};
  for (std::size_t k = 0; k < 14; ++k) {
    INFO("emitter " << k);
    CHECK(pm->emitters()[k]->parent_offset().origin.z == Approx(heights[k]));
  }
}
