// spec/dat-format.md section 4, spec/physics.md section 7, seed
// retail-projectile-vfx sections 8 and 14: particles, emitters and the
// particle manager, against hand-computed values.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include <glm/gtc/quaternion.hpp>

#include "dereth/sim/effects/particle.hpp"
#include "dereth/sim/effects/particle_emitter.hpp"
#include "dereth/sim/effects/particle_manager.hpp"

#include "effects/fx_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::fxtest;
using dat::EmitterType;
using dat::ParticleType;

namespace {

constexpr std::uint32_t kInfo = 0x32000100;
const float kHalfPi = std::numbers::pi_v<float> / 2.0f;

// A deterministic emitter record: every min equals its max and nothing is
// randomised, so particles are born exactly where the test says.
std::shared_ptr<dat::ParticleEmitterInfo> info(ParticleType type, EmitterType emitter = EmitterType::BirthratePerSec) {
  auto i = std::make_shared<dat::ParticleEmitterInfo>();
  i->id = kInfo;
  i->emitter_type = emitter;
  i->particle_type = type;
  i->gfx_obj_id = 0x01000020;
  i->hw_gfx_obj_id = 0x01000020;
  i->birthrate = 1000.0;  // no births unless a test asks
  i->max_particles = 8;
  i->initial_particles = 1;
  i->lifespan = 10.0;
  i->offset_dir = {0, 0, 1};
  i->a = {1, 0, 0};
  i->b = {0, 1, 0};
  i->c = {0, 0, 1};
  return i;
}

ParticleClock at(double now, double physics) {
  return ParticleClock{core::Seconds{now}, core::Seconds{physics}};
}
ParticleClock at(double t) {
  return at(t, t);
}

// A particle at rest at the origin with the values of the hand computations.
Particle sample() {
  Particle p;
  p.birthtime = 0.0;
  p.lifespan = 2.0;
  p.offset = {0.1f, 0.2f, 0.3f};
  p.a = {1.0f, 0.0f, 2.0f};
  p.b = {0.0f, 1.0f, -2.0f};
  p.c = {0.5f, 0.25f, 2.0f};
  p.start_scale = 1.0f;
  p.final_scale = 0.5f;
  p.start_trans = 0.0f;
  p.final_trans = 1.0f;
  return p;
}

const core::Frame kParent({1.0f, 2.0f, 3.0f}, glm::quat(1, 0, 0, 0));

glm::vec3 update_origin(ParticleType type, const core::Frame& parent = kParent) {
  Particle p = sample();
  p.update(type, false, parent, core::Seconds{0.5});
  return p.frame.origin;
}

}  // namespace

// --- Particle::Update -------------------------------------------------------------------

TEST_CASE("Particle::Update 0x0051C290 places each particle type by its closed form (t = 0.5)",
          "[retail][fx][particles]") {
  // P = (1,2,3), offset (0.1,0.2,0.3), a (1,0,2), b (0,1,-2), c (0.5,0.25,2).
  CHECK(near(update_origin(ParticleType::Still), {1.1f, 2.2f, 3.3f}));
  // P + o + a t
  CHECK(near(update_origin(ParticleType::LocalVelocity), {1.6f, 2.2f, 4.3f}));
  CHECK(near(update_origin(ParticleType::GlobalVelocity), {1.6f, 2.2f, 4.3f}));
  // + b t^2 / 2 = (0, 0.125, -0.25)
  for (ParticleType t : {ParticleType::ParabolicLVGA, ParticleType::ParabolicLVLA, ParticleType::ParabolicGVGA}) {
    CHECK(near(update_origin(t), {1.6f, 2.325f, 4.05f}));
  }
  // Swarm: + (cos(b.x t) c.x, sin(b.y t) c.y, cos(b.z t) c.z)
  CHECK(near(update_origin(ParticleType::Swarm),
             {1.6f + 0.5f, 2.2f + std::sin(0.5f) * 0.25f, 4.3f + std::cos(-1.0f) * 2.0f}));
  // Explode: (t b + c a.x) t, plus a.z t on z only = (0.25, 0.375, 0.5 + 1)
  CHECK(near(update_origin(ParticleType::Explode), {1.35f, 2.575f, 4.8f}));
  // Implode: cos(a.x t) c + t^2 b (no 1/2)
  const float k = std::cos(0.5f);
  CHECK(
      near(update_origin(ParticleType::Implode), {1.1f + k * 0.5f, 2.2f + k * 0.25f + 0.25f, 3.3f + k * 2.0f - 0.5f}));
  // An unknown type leaves the part where it was.
  CHECK(near(update_origin(static_cast<ParticleType>(13)), {0.0f, 0.0f, 0.0f}));
}

TEST_CASE(
    "Particle::Update 0x0051C290 types 4, 9 and 11 copy the parent orientation and turn by c t about local "
    "axes",
    "[retail][fx][particles]") {
  const glm::vec3 w{0.25f, 0.125f, 1.0f};  // c * t
  const glm::quat spin = glm::angleAxis(glm::length(w), glm::normalize(w));
  for (ParticleType t : {ParticleType::ParabolicLVGAGR, ParticleType::ParabolicLVLALR, ParticleType::ParabolicGVGAGR}) {
    Particle p = sample();
    p.update(t, false, kParent, core::Seconds{0.5});
    CHECK(near(p.frame.origin, {1.6f, 2.325f, 4.05f}));
    CHECK(near(p.frame.localtoglobalvec({1, 0, 0}), spin * glm::vec3(1, 0, 0)));
    CHECK(near(p.frame.localtoglobalvec({0, 1, 0}), spin * glm::vec3(0, 1, 0)));
  }
  // With a turned parent the spin is about the particle's own (turned) axes.
  const glm::quat yaw = glm::angleAxis(kHalfPi, glm::vec3(0, 0, 1));
  const core::Frame turned({1.0f, 2.0f, 3.0f}, yaw);
  Particle p = sample();
  p.update(ParticleType::ParabolicLVLALR, false, turned, core::Seconds{0.5});
  const glm::quat expected = yaw * spin;
  CHECK(near(p.frame.localtoglobalvec({1, 0, 0}), expected * glm::vec3(1, 0, 0)));
  CHECK(near(p.frame.localtoglobalvec({0, 0, 1}), expected * glm::vec3(0, 0, 1)));
}

TEST_CASE(
    "Particle::Update 0x0051C290 types 4, 9 and 11 turn to Frame::rotate's orientation bit for bit, without the "
    "matrix",
    "[retail][fx][particles]") {
  // The particle turns its quaternion itself (it keeps no rotation matrix);
  // the result must equal a copied parent frame turned by Frame::rotate, to
  // the last bit, over random parents and spins, tiny spins (under EPSILON:
  // the parent's orientation unchanged) and large ones.
  core::Rng rng(35);
  const auto random_vec = [&](float r) {
    return glm::vec3(rng.uniform(-r, r), rng.uniform(-r, r), rng.uniform(-r, r));
  };
  int checked = 0;
  for (int i = 0; i < 3000; ++i) {
    const glm::vec3 axis = random_vec(1.0f);
    const glm::quat q(rng.uniform(-1.0f, 1.0f), axis.x, axis.y, axis.z);
    const core::Frame parent(random_vec(100.0f), q);
    Particle p = sample();
    const float reach = i % 3 == 0 ? 1e-4f : (i % 3 == 1 ? 4.0f : 400.0f);
    p.c = random_vec(reach);
    const double t = static_cast<double>(rng.uniform(0.0f, 3.0f));
    for (ParticleType type :
         {ParticleType::ParabolicLVGAGR, ParticleType::ParabolicLVLALR, ParticleType::ParabolicGVGAGR}) {
      Particle turned = p;
      turned.update(type, false, parent, core::Seconds{t});
      core::Frame expected = parent;
      expected.rotate(glm::vec3(glm::dvec3(p.c) * t));
      const glm::quat got = turned.frame.orientation();
      const glm::quat want = expected.orientation();
      REQUIRE(float_bits(got.w) == float_bits(want.w));
      REQUIRE(float_bits(got.x) == float_bits(want.x));
      REQUIRE(float_bits(got.y) == float_bits(want.y));
      REQUIRE(float_bits(got.z) == float_bits(want.z));
      ++checked;
    }
  }
  CHECK(checked == 9000);
}

TEST_CASE("Particle::Update 0x0051C290 ages, interpolates scale and translucency, and accumulates persistent age",
          "[retail][fx][particles]") {
  Particle p = sample();
  p.update(ParticleType::Still, false, kParent, core::Seconds{0.5});
  CHECK(p.lifetime == Approx(0.5));
  CHECK(p.scale == Approx(0.875f));        // 1 + (0.5 - 1) * 0.25
  CHECK(p.translucency == Approx(0.25f));  // 0 + (1 - 0) * 0.25
  p.update(ParticleType::Still, false, kParent, core::Seconds{3.0});
  CHECK(p.scale == Approx(0.5f));  // past the lifespan: k = 1
  CHECK(p.translucency == Approx(1.0f));

  Particle q = sample();
  q.lifetime = 0.2;
  q.update(ParticleType::Still, true, kParent, core::Seconds{0.5});
  CHECK(q.lifetime == Approx(0.7));  // 0.2 + (0.5 - 0)
  CHECK(q.birthtime == Approx(0.5));
}

// --- Particle::Init ----------------------------------------------------------------------

TEST_CASE(
    "Particle::Init 0x0051C930 rotates the hook origin and random offset by the start frame and sets a, b, c "
    "per type with retail's fall-through",
    "[retail][fx][particles]") {
  const glm::quat yaw = glm::angleAxis(kHalfPi, glm::vec3(0, 0, 1));  // x -> y, y -> -x
  const core::Frame start({5.0f, 6.0f, 7.0f}, yaw);
  const glm::vec3 ra{1, 0, 0}, rb{0, 1, 0}, rc{0, 0, 2};
  const glm::vec3 la{0, 1, 0}, lb{-1, 0, 0}, lc{0, 0, 2};  // local-to-global
  core::Rng rng(7);
  const auto init = [&](ParticleType type) {
    Particle p;
    p.init(start, {1, 0, 0}, {0, 0, 0.5f}, type, false, ra, rb, rc, 1.0f, 0.5f, 0.25f, 1.0f, 2.0, core::Seconds{4.0},
           rng);
    return p;
  };
  Particle still = init(ParticleType::Still);
  CHECK(near(still.offset, {0.0f, 1.0f, 0.5f}));
  CHECK(near(still.frame.origin, {5.0f, 7.0f, 7.5f}));  // placed at once
  CHECK(still.birthtime == 4.0);
  CHECK(still.lifetime == 0.0);
  CHECK(still.lifespan == 2.0);
  CHECK(still.scale == 1.0f);
  CHECK(still.translucency == 0.25f);
  CHECK(near(still.a, {0, 0, 0}));

  CHECK(near(init(ParticleType::LocalVelocity).a, la));
  Particle t3 = init(ParticleType::ParabolicLVGA);
  CHECK((near(t3.a, la) && near(t3.b, rb)));
  Particle t4 = init(ParticleType::ParabolicLVGAGR);
  CHECK((near(t4.a, la) && near(t4.b, rb) && near(t4.c, rc)));
  Particle t8 = init(ParticleType::ParabolicLVLA);
  CHECK((near(t8.a, la) && near(t8.b, lb)));
  Particle t9 = init(ParticleType::ParabolicLVLALR);
  CHECK((near(t9.a, la) && near(t9.b, lb) && near(t9.c, lc)));
  Particle t10 = init(ParticleType::ParabolicGVGA);
  CHECK((near(t10.a, ra) && near(t10.b, rb)));
  Particle t11 = init(ParticleType::ParabolicGVGAGR);
  CHECK((near(t11.a, ra) && near(t11.b, rb) && near(t11.c, rc)));
  CHECK(near(init(ParticleType::GlobalVelocity).a, ra));
  Particle swarm = init(ParticleType::Swarm);
  CHECK((near(swarm.a, la) && near(swarm.b, rb) && near(swarm.c, rc)));
  // Implode: offset times c component-wise, and c is that offset.
  Particle implode = init(ParticleType::Implode);
  CHECK(near(implode.offset, {0.0f, 0.0f, 1.0f}));
  CHECK(near(implode.c, {0.0f, 0.0f, 1.0f}));
  CHECK((near(implode.a, ra) && near(implode.b, rb)));

  // Explode draws a heading and a pitch in [-pi, pi) and normalises c.
  core::Rng copy = rng;
  const float heading = copy.uniform(-3.1415927f, 3.1415927f);
  const float pitch = copy.uniform(-3.1415927f, 3.1415927f);
  const glm::vec3 raw{std::cos(heading) * rc.x * std::cos(pitch), std::sin(heading) * rc.y * std::cos(pitch),
                      std::sin(pitch) * rc.z};
  Particle explode = init(ParticleType::Explode);
  CHECK(near(explode.c, glm::normalize(raw)));
  CHECK((near(explode.a, ra) && near(explode.b, rb)));
  CHECK(copy.next_u32() == rng.next_u32());
}

// --- ParticleEmitterInfo randomisers ----------------------------------------------------

TEST_CASE(
    "ParticleEmitterInfo::GetRandomLifespan 0x00517210, GetRandomStartScale 0x005170D0, GetRandomFinalScale "
    "0x00517120, GetRandomStartTrans 0x00517170, GetRandomFinalTrans 0x005171C0 add a U(-1,1) spread and clamp",
    "[retail][fx][particles]") {
  dat::ParticleEmitterInfo i;
  i.lifespan = 0.25;
  i.lifespan_rand = 1.0;
  i.start_scale = 2.0f;
  i.final_scale = 3.0f;
  i.scale_rand = 0.5f;
  i.start_trans = 0.5f;
  i.final_trans = 0.25f;
  i.trans_rand = 0.125f;
  core::Rng rng(11);
  for (int n = 0; n < 50; ++n) {
    core::Rng copy = rng;
    const double lifespan = static_cast<double>(copy.uniform(-1.0f, 1.0f)) * 1.0 + 0.25;
    CHECK(emitter_info::get_random_lifespan(i, rng) == Approx(lifespan < 0.0 ? 0.0 : lifespan));
    CHECK(emitter_info::get_random_start_scale(i, rng) == Approx(2.0f + copy.uniform(-1.0f, 1.0f) * 0.5f));
    CHECK(emitter_info::get_random_final_scale(i, rng) == Approx(3.0f + copy.uniform(-1.0f, 1.0f) * 0.5f));
    CHECK(emitter_info::get_random_start_trans(i, rng) == Approx(0.5f + copy.uniform(-1.0f, 1.0f) * 0.125f));
    CHECK(emitter_info::get_random_final_trans(i, rng) == Approx(0.25f + copy.uniform(-1.0f, 1.0f) * 0.125f));
  }
  // Clamps: scale to [0.1, 10], translucency to [0, 1], lifespan to >= 0.
  dat::ParticleEmitterInfo c;
  c.lifespan = -5.0;
  c.start_scale = 0.01f;
  c.final_scale = 40.0f;
  c.start_trans = -1.0f;
  c.final_trans = 3.0f;
  CHECK(emitter_info::get_random_lifespan(c, rng) == 0.0);
  CHECK(emitter_info::get_random_start_scale(c, rng) == 0.1f);
  CHECK(emitter_info::get_random_final_scale(c, rng) == 10.0f);
  CHECK(emitter_info::get_random_start_trans(c, rng) == 0.0f);
  CHECK(emitter_info::get_random_final_trans(c, rng) == 1.0f);
}

TEST_CASE(
    "ParticleEmitterInfo::GetRandomOffset 0x005174A0 draws z, y, x, removes the offset_dir part, scales into "
    "[min, max], GetRandomA 0x00517610, GetRandomB 0x00517670, GetRandomC 0x005176D0",
    "[retail][fx][particles]") {
  dat::ParticleEmitterInfo i;
  i.offset_dir = {0, 0, 1};
  i.min_offset = 0.5f;
  i.max_offset = 1.5f;
  i.a = {1, 2, 3};
  i.min_a = 2.0f;
  i.max_a = 4.0f;
  i.b = {0, -1, 0};
  i.min_b = 0.5f;
  i.max_b = 0.5f;
  i.c = {2, 0, 0};
  i.min_c = 0.0f;
  i.max_c = 1.0f;
  core::Rng rng(3);
  for (int n = 0; n < 50; ++n) {
    core::Rng copy = rng;
    const float z = copy.uniform(-1.0f, 1.0f);
    const float y = copy.uniform(-1.0f, 1.0f);
    const float x = copy.uniform(-1.0f, 1.0f);
    (void)z;  // removed: it lies along offset_dir
    const float magnitude = (1.5f - 0.5f) * copy.uniform(0.0f, 1.0f) + 0.5f;
    const glm::vec3 expected = glm::normalize(glm::vec3(x, y, 0.0f)) * magnitude;
    const glm::vec3 got = emitter_info::get_random_offset(i, rng);
    CHECK(near(got, expected, 1e-5f));
    CHECK(got.z == Approx(0.0f).margin(1e-6));
    CHECK(glm::length(got) >= 0.5f - 1e-5f);
    CHECK(glm::length(got) <= 1.5f + 1e-5f);
    CHECK(near(emitter_info::get_random_a(i, rng), glm::vec3(1, 2, 3) * ((4.0f - 2.0f) * copy.uniform(0, 1) + 2.0f)));
    CHECK(near(emitter_info::get_random_b(i, rng), {0.0f, -0.5f, 0.0f}));
    (void)copy.uniform(0, 1);
    CHECK(near(emitter_info::get_random_c(i, rng), glm::vec3(2, 0, 0) * copy.uniform(0, 1)));
  }
  // Offsets between 0 and 0: the direction is drawn and scaled to nothing.
  dat::ParticleEmitterInfo along = i;
  along.offset_dir = {0, 0, 0};
  along.min_offset = along.max_offset = 0.0f;
  CHECK(glm::length(emitter_info::get_random_offset(along, rng)) == 0.0f);
}

TEST_CASE("ParticleEmitterInfo::ShouldEmitParticle 0x00517420: caps, seconds between births, metres between births",
          "[retail][fx][particles]") {
  auto i = info(ParticleType::Still);
  i->birthrate = 0.5;
  i->max_particles = 4;
  const auto now = core::Seconds{2.0};
  const glm::vec3 none{0.0f};
  CHECK(emitter_info::should_emit_particle(*i, 0, 0, none, core::Seconds{1.4}, now));
  CHECK_FALSE(emitter_info::should_emit_particle(*i, 0, 0, none, core::Seconds{1.5}, now));  // strictly greater
  CHECK_FALSE(emitter_info::should_emit_particle(*i, 4, 0, none, core::Seconds{0.0}, now));  // every slot full
  i->total_particles = 3;
  CHECK_FALSE(emitter_info::should_emit_particle(*i, 0, 3, none, core::Seconds{0.0}, now));  // total reached
  CHECK(emitter_info::should_emit_particle(*i, 0, 2, none, core::Seconds{0.0}, now));
  i->total_particles = -1;  // <= 0: no total
  CHECK(emitter_info::should_emit_particle(*i, 0, 100, none, core::Seconds{0.0}, now));
  // Per metre: farther than birthrate since the last birth; time is ignored.
  i->emitter_type = EmitterType::BirthratePerMeter;
  CHECK_FALSE(emitter_info::should_emit_particle(*i, 0, 0, {0.3f, 0.4f, 0.0f}, core::Seconds{-100.0}, now));
  CHECK(emitter_info::should_emit_particle(*i, 0, 0, {0.3f, 0.41f, 0.0f}, now, now));
  // Bit 1 wins over bit 2; neither bit: never.
  i->emitter_type = static_cast<EmitterType>(3);
  CHECK_FALSE(emitter_info::should_emit_particle(*i, 0, 0, {9.0f, 0.0f, 0.0f}, now, now));
  i->emitter_type = EmitterType::Unknown;
  CHECK_FALSE(emitter_info::should_emit_particle(*i, 0, 0, {9.0f, 0.0f, 0.0f}, core::Seconds{-9.0}, now));
}

// --- ParticleEmitter ---------------------------------------------------------------------

TEST_CASE(
    "ParticleEmitter::SetInfo 0x0051CE90 and SetParenting 0x0051C190 refuse what retail cannot build "
    "(CPhysicsObj::add_child 0x0050F8F0)",
    "[retail][fx][particles]") {
  FxWorld w;
  FxParts* parts = nullptr;
  auto owner = w.make(0x70000100, {10, 10, 0}, 2, &parts);
  ParticleEmitter e(owner->local_id(), core::Seconds{0.0});
  CHECK_FALSE(e.set_info(nullptr, kInfo));
  auto no_hw = info(ParticleType::Still);
  no_hw->hw_gfx_obj_id = 0;  // the software GfxObj alone is not enough
  CHECK_FALSE(e.set_info(no_hw, kInfo));
  auto no_slots = info(ParticleType::Still);
  no_slots->max_particles = 0;
  CHECK_FALSE(e.set_info(no_slots, kInfo));
  auto huge = info(ParticleType::Still);
  huge->max_particles = kMaxParticlesPerEmitter + 1;
  CHECK_FALSE(e.set_info(huge, kInfo));
  REQUIRE(e.set_info(info(ParticleType::Still), kInfo));
  CHECK(e.particles().size() == 8);
  CHECK(e.last_emit_offset() == glm::vec3(0.0f));
  CHECK(e.set_parenting(*owner, kRootPart, dat::Frame{}));
  CHECK(e.set_parenting(*owner, 1, dat::Frame{}));
  CHECK_FALSE(e.set_parenting(*owner, 2, dat::Frame{}));  // only parts 0 and 1
  auto bare = w.make(0x70000101);
  CHECK_FALSE(e.set_parenting(*bare, 0, dat::Frame{}));  // no part array, no parts
  CHECK(e.set_parenting(*bare, kRootPart, dat::Frame{}));
}

TEST_CASE("ParticleEmitter::InitEnd 0x0051D400 emits initial_particles, not total_particles",
          "[retail][fx][particles]") {
  FxWorld w;
  auto owner = w.make(0x70000102);
  auto i = info(ParticleType::Still);
  i->initial_particles = 3;
  i->total_particles = 10;
  i->max_particles = 20;
  ParticleManager m(owner->local_id());
  const auto id =
      m.create_particle_emitter(*owner, i, kInfo, kRootPart, dat::Frame{}, 0, at(2.5), w.context.rng, nullptr);
  REQUIRE(id != 0);
  const ParticleEmitter& e = *m.find(id);
  CHECK(e.num_particles() == 3);
  CHECK(e.total_emitted() == 3);
  CHECK(e.creation_time().count() == 2.5);
}

TEST_CASE(
    "ParticleEmitter::EmitParticle 0x0051D010 draws lifespan, final and start translucency, final and start "
    "scale, C, B, A, offset in that order into the first free slot",
    "[retail][fx][particles]") {
  FxWorld w(&demo_portal(), 21);
  auto owner = w.make(0x70000103, {0, 0, 0});
  auto i = info(ParticleType::ParabolicGVGAGR);  // a, b, c kept as drawn
  i->initial_particles = 0;
  i->lifespan = 1.0;
  i->lifespan_rand = 0.5;
  i->final_trans = 0.5f;
  i->start_trans = 0.5f;
  i->trans_rand = 0.25f;
  i->final_scale = 2.0f;
  i->start_scale = 1.0f;
  i->scale_rand = 0.5f;
  i->c = {1, 0, 0};
  i->min_c = 1.0f;
  i->max_c = 2.0f;
  i->b = {0, 1, 0};
  i->min_b = 1.0f;
  i->max_b = 3.0f;
  i->a = {0, 0, 1};
  i->min_a = 2.0f;
  i->max_a = 5.0f;
  i->min_offset = 0.1f;
  i->max_offset = 0.3f;
  ParticleManager m(owner->local_id());
  const auto clock = at(1.0);
  const auto id =
      m.create_particle_emitter(*owner, i, kInfo, kRootPart, dat::Frame{}, 0, clock, w.context.rng, nullptr);
  ParticleEmitter& e = const_cast<ParticleEmitter&>(*m.find(id));
  core::Rng copy = w.context.rng;
  const double lifespan = emitter_info::get_random_lifespan(*i, copy);
  const float final_trans = emitter_info::get_random_final_trans(*i, copy);
  const float start_trans = emitter_info::get_random_start_trans(*i, copy);
  const float final_scale = emitter_info::get_random_final_scale(*i, copy);
  const float start_scale = emitter_info::get_random_start_scale(*i, copy);
  const glm::vec3 c = emitter_info::get_random_c(*i, copy);
  const glm::vec3 b = emitter_info::get_random_b(*i, copy);
  const glm::vec3 a = emitter_info::get_random_a(*i, copy);
  const glm::vec3 offset = emitter_info::get_random_offset(*i, copy);
  e.emit_particle(*owner, clock, w.context.rng);
  REQUIRE(e.live(0));
  const Particle& p = e.particles()[0];
  CHECK(p.lifespan == lifespan);
  CHECK(p.final_trans == final_trans);
  CHECK(p.start_trans == start_trans);
  CHECK(p.final_scale == final_scale);
  CHECK(p.start_scale == start_scale);
  CHECK(p.c == c);
  CHECK(p.b == b);
  CHECK(p.a == a);
  CHECK(near(p.offset, offset));
  CHECK(copy.next_u32() == w.context.rng.next_u32());
  CHECK(e.num_particles() == 1);
  CHECK(e.last_emit_time().count() == 1.0);
  // The next birth takes the next slot; a freed slot is reused first.
  e.emit_particle(*owner, clock, w.context.rng);
  CHECK(e.live(1));
}

TEST_CASE("ParticleEmitter::KillParticle 0x0051C1E0 frees a slot once lifetime reaches lifespan",
          "[retail][fx][particles]") {
  FxWorld w;
  auto owner = w.make(0x70000104);
  auto i = info(ParticleType::Still);
  i->lifespan = 0.5;
  i->initial_particles = 2;
  ParticleManager m(owner->local_id());
  const auto id =
      m.create_particle_emitter(*owner, i, kInfo, kRootPart, dat::Frame{}, 0, at(0.0), w.context.rng, nullptr);
  auto& e = const_cast<ParticleEmitter&>(*m.find(id));
  CHECK_FALSE(e.kill_particle(0));
  m.update_particles(*owner, at(0.5), w.context.rng, true, nullptr);  // lifetime 0.5 == lifespan
  CHECK_FALSE(e.live(0));
  CHECK_FALSE(e.live(1));
  CHECK(e.num_particles() == 0);
  e.emit_particle(*owner, at(0.5), w.context.rng);
  CHECK(e.live(0));
}

TEST_CASE("ParticleEmitter::StopEmitter 0x0051C230 stops after total_seconds (physics timer) or total_particles",
          "[retail][fx][particles]") {
  FxWorld w;
  auto owner = w.make(0x70000105);
  auto timed = info(ParticleType::Still);
  timed->total_seconds = 0.5;
  ParticleEmitter e(owner->local_id(), core::Seconds{0.0});
  REQUIRE(e.set_info(timed, kInfo));
  REQUIRE(e.set_parenting(*owner, kRootPart, dat::Frame{}));
  REQUIRE(e.init_end(*owner, at(0.0), w.context.rng));
  CHECK_FALSE(e.stop_emitter(at(9.0, 0.5)));  // creation + 0.5 < 0.5 is false
  CHECK(e.stop_emitter(at(0.0, 0.51)));       // the physics timer decides
  auto counted = info(ParticleType::Still);
  counted->total_particles = 2;
  counted->initial_particles = 2;
  ParticleEmitter f(owner->local_id(), core::Seconds{0.0});
  REQUIRE(f.set_info(counted, kInfo));
  REQUIRE(f.set_parenting(*owner, kRootPart, dat::Frame{}));
  REQUIRE(f.init_end(*owner, at(0.0), w.context.rng));
  CHECK(f.stop_emitter(at(0.0)));
}

TEST_CASE(
    "ParticleEmitter::UpdateParticles 0x0051D180: parent-local particles follow the owner, world-released ones "
    "keep their birth point, new births follow the anchor (Particle::Update 0x0051C290)",
    "[retail][fx][particles]") {
  FxWorld w;
  auto owner = w.make(0x70000106, {10, 10, 0});
  auto world = info(ParticleType::Still);
  auto local = info(ParticleType::Still);
  local->is_parent_local = 1;
  ParticleManager m(owner->local_id());
  const dat::Frame offset{{0, 0, 1}, glm::quat(1, 0, 0, 0)};
  const auto wid =
      m.create_particle_emitter(*owner, world, kInfo, kRootPart, offset, 0, at(0.0), w.context.rng, nullptr);
  const auto lid =
      m.create_particle_emitter(*owner, local, kInfo, kRootPart, offset, 0, at(0.0), w.context.rng, nullptr);
  owner->set_frame(core::Frame({20, 10, 0}, glm::quat(1, 0, 0, 0)));
  m.update_particles(*owner, at(0.1), w.context.rng, true, nullptr);
  CHECK(near(m.find(wid)->particles()[0].frame.origin, {10, 10, 1}));
  CHECK(near(m.find(lid)->particles()[0].frame.origin, {20, 10, 1}));
  // A new birth of the world emitter starts at the moved anchor.
  auto& e = const_cast<ParticleEmitter&>(*m.find(wid));
  e.emit_particle(*owner, at(0.1), w.context.rng);
  CHECK(near(e.particles()[1].frame.origin, {20, 10, 1}));
  CHECK(near(e.anchor(*owner), {20, 10, 1}));
}

TEST_CASE(
    "Particle::Init 0x0051C930: the emitter anchor is the hook offset origin through the part frame, the "
    "offset quaternion is kept but not applied (ParticleEmitter::SetParenting 0x0051C190)",
    "[retail][fx][particles]") {
  FxWorld w;
  FxParts* parts = nullptr;
  auto owner = w.make(0x70000107, {10, 10, 0}, 1, &parts);
  const glm::quat yaw = glm::angleAxis(kHalfPi, glm::vec3(0, 0, 1));
  parts->part_frames[0] = core::Frame({12, 10, 1}, yaw);  // the posed part
  const glm::quat flip = glm::angleAxis(std::numbers::pi_v<float>, glm::vec3(1, 0, 0));
  const dat::Frame offset{{1, 0, 0}, flip};
  ParticleManager m(owner->local_id());
  const auto still = m.create_particle_emitter(*owner, info(ParticleType::Still), kInfo, 0, offset, 0, at(0.0),
                                               w.context.rng, nullptr);
  const auto spun = m.create_particle_emitter(*owner, info(ParticleType::ParabolicLVGAGR), kInfo, 0, offset, 0, at(0.0),
                                              w.context.rng, nullptr);
  const ParticleEmitter& e = *m.find(still);
  CHECK(near(e.particles()[0].frame.origin, {12, 11, 1}));  // (12,10,1) + yaw * (1,0,0)
  CHECK(near(e.anchor(*owner), {12, 11, 1}));
  CHECK(e.parent_offset().orientation == flip);  // retained
  // The particle's orientation is the part's, untouched by the offset's flip.
  const Particle& p = m.find(spun)->particles()[0];
  CHECK(near(p.frame.localtoglobalvec({0, 0, 1}), {0, 0, 1}));
  CHECK(near(p.frame.localtoglobalvec({1, 0, 0}), {0, 1, 0}));
  // The root (part -1) anchor uses the object's frame.
  const auto root = m.create_particle_emitter(*owner, info(ParticleType::Still), kInfo, kRootPart, offset, 0, at(0.0),
                                              w.context.rng, nullptr);
  CHECK(near(m.find(root)->particles()[0].frame.origin, {11, 10, 0}));
}

TEST_CASE(
    "ParticleEmitter::UpdateParticles 0x0051D180 gives at most one birth per update, catch-up quanta mix the "
    "frame clock and the physics timer (ParticleEmitter::ShouldEmitParticle 0x0051C8B0)",
    "[retail][fx][particles]") {
  FxWorld w;
  auto owner = w.make(0x70000108);
  auto i = info(ParticleType::Still);
  i->initial_particles = 0;
  i->birthrate = 0.5;
  ParticleManager m(owner->local_id());
  const auto id =
      m.create_particle_emitter(*owner, i, kInfo, kRootPart, dat::Frame{}, 0, at(0.0), w.context.rng, nullptr);
  const ParticleEmitter& e = *m.find(id);
  // One 1 s frame stepped as five 0.2 s quanta: now stays 1.0, the physics
  // timer advances, and each birth stamps the physics time.
  for (int q = 1; q <= 5; ++q) {
    m.update_particles(*owner, at(1.0, 0.2 * q), w.context.rng, true, nullptr);
  }
  CHECK(e.total_emitted() == 3);  // at 0.2, 0.4 and 0.6
  CHECK(e.last_emit_time().count() == Approx(0.6));
  // Birthrate 0 and a long gap still give one birth per update.
  i->birthrate = 0.0;
  m.update_particles(*owner, at(50.0), w.context.rng, true, nullptr);
  CHECK(e.total_emitted() == 4);
}

TEST_CASE(
    "ParticleEmitter::ShouldEmitParticle 0x0051C8B0: a per-metre emitter gives birth when its anchor moved "
    "farther than birthrate (ParticleEmitter::RecordParticleEmission 0x0051C870)",
    "[retail][fx][particles]") {
  FxWorld w;
  auto owner = w.make(0x70000109, {10, 10, 0});
  auto i = info(ParticleType::Still, EmitterType::BirthratePerMeter);
  i->birthrate = 0.25;
  ParticleManager m(owner->local_id());
  const auto id =
      m.create_particle_emitter(*owner, i, kInfo, kRootPart, dat::Frame{}, 0, at(0.0), w.context.rng, nullptr);
  const ParticleEmitter& e = *m.find(id);
  CHECK(near(e.last_emit_offset(), {10, 10, 0}));  // the initial particle
  owner->set_frame(core::Frame({10.2f, 10, 0}, glm::quat(1, 0, 0, 0)));
  m.update_particles(*owner, at(0.1), w.context.rng, true, nullptr);
  CHECK(e.total_emitted() == 1);
  owner->set_frame(core::Frame({10.3f, 10, 0}, glm::quat(1, 0, 0, 0)));
  m.update_particles(*owner, at(0.2), w.context.rng, true, nullptr);
  CHECK(e.total_emitted() == 2);
  CHECK(near(e.last_emit_offset(), {10.3f, 10, 0}));
}

TEST_CASE(
    "ParticleEmitter::UpdateParticles 0x0051D180 out of range: finite emitters age and count phantom births, "
    "infinite ones freeze (ParticleEmitter::RecordParticleEmission 0x0051C870)",
    "[retail][fx][particles]") {
  FxWorld w;
  auto owner = w.make(0x7000010A);
  auto finite = info(ParticleType::LocalVelocity);
  finite->total_seconds = 100.0;
  finite->lifespan = 1.0;
  finite->birthrate = 0.0;
  ParticleEmitter e(owner->local_id(), core::Seconds{0.0});
  REQUIRE(e.set_info(finite, kInfo));
  REQUIRE(e.set_parenting(*owner, kRootPart, dat::Frame{}));
  REQUIRE(e.init_end(*owner, at(0.0), w.context.rng));
  const glm::vec3 born = e.particles()[0].frame.origin;
  CHECK(e.update_particles(*owner, at(0.5), w.context.rng, false));
  CHECK(e.no_draw());
  CHECK(e.degraded_out());
  CHECK(e.particles()[0].lifetime == Approx(0.5));
  CHECK(e.particles()[0].frame.origin == born);  // aged, not moved
  CHECK(e.num_particles() == 2);                 // a counted birth without a particle
  CHECK(e.total_emitted() == 2);
  CHECK(e.update_particles(*owner, at(1.0), w.context.rng, false));
  CHECK_FALSE(e.live(0));  // died of age
  // Back in range: drawn again.
  CHECK(e.update_particles(*owner, at(1.1), w.context.rng, true));
  CHECK_FALSE(e.no_draw());
  CHECK_FALSE(e.degraded_out());

  auto infinite = info(ParticleType::Still);
  ParticleEmitter f(owner->local_id(), core::Seconds{0.0});
  REQUIRE(f.set_info(infinite, kInfo));
  REQUIRE(f.set_parenting(*owner, kRootPart, dat::Frame{}));
  REQUIRE(f.init_end(*owner, at(0.0), w.context.rng));
  CHECK(f.update_particles(*owner, at(3.0), w.context.rng, false));
  CHECK(f.particles()[0].birthtime == 3.0);
  CHECK(f.particles()[0].lifetime == 0.0);
  CHECK(f.total_emitted() == 1);
}

// --- ParticleManager ----------------------------------------------------------------------

namespace {
struct Events final : EmitterEventSink {
  void on_emitter(LocalId, std::uint32_t info_id, std::uint32_t id, EmitterEvent event) override {
    seen.push_back({info_id, id, event});
  }
  struct E {
    std::uint32_t info;
    std::uint32_t id;
    EmitterEvent event;
  };
  std::vector<E> seen;
};
}  // namespace

TEST_CASE(
    "ParticleManager::CreateParticleEmitter 0x0051B6C0: a non-zero id replaces the live emitter, zero makes an "
    "anonymous one, ParticleManager::GetNumEmitters 0x0051B580",
    "[retail][fx][particles]") {
  FxWorld w;
  auto owner = w.make(0x70000110);
  ParticleManager m(owner->local_id());
  Events ev;
  CHECK(m.create_particle_emitter(*owner, info(ParticleType::Still), 0x32000001, kRootPart, dat::Frame{}, 5, at(0),
                                  w.context.rng, &ev) == 5);
  CHECK(m.create_particle_emitter(*owner, info(ParticleType::Still), 0x32000002, kRootPart, dat::Frame{}, 5, at(0),
                                  w.context.rng, &ev) == 5);
  CHECK(m.get_num_emitters() == 1);
  CHECK(m.find(5)->info_id() == 0x32000002);
  CHECK(m.create_particle_emitter(*owner, info(ParticleType::Still), 0x32000003, kRootPart, dat::Frame{}, 0, at(0),
                                  w.context.rng, &ev) == kFirstAnonymousEmitterId);
  CHECK(m.create_particle_emitter(*owner, info(ParticleType::Still), 0x32000003, kRootPart, dat::Frame{}, 0, at(0),
                                  w.context.rng, &ev) == kFirstAnonymousEmitterId + 1);
  CHECK(m.get_num_emitters() == 3);
  CHECK(m.find(kFirstAnonymousEmitterId)->logical_id() == 0);
  REQUIRE(ev.seen.size() == 4);
  CHECK(ev.seen[0].event == EmitterEvent::Created);
  CHECK(ev.seen[1].event == EmitterEvent::Replaced);
  CHECK(ev.seen[1].info == 0x32000002);
  // A replacement whose record is missing still removes the live emitter.
  CHECK(m.create_particle_emitter(*owner, nullptr, 0x32FFFFFF, kRootPart, dat::Frame{}, 5, at(0), w.context.rng, &ev) ==
        0);
  CHECK(m.find(5) == nullptr);
  CHECK(ev.seen.back().event == EmitterEvent::Destroyed);
  CHECK(ev.seen.back().info == 0x32000002);
  CHECK(m.get_num_emitters() == 2);
}

TEST_CASE("ParticleManager::CreateBlockingParticleEmitter 0x0051B8A0 does nothing while the id is live",
          "[retail][fx][particles]") {
  FxWorld w;
  auto owner = w.make(0x70000111);
  ParticleManager m(owner->local_id());
  Events ev;
  CHECK(m.create_blocking_particle_emitter(*owner, info(ParticleType::Still), 0x32000001, kRootPart, dat::Frame{}, 1,
                                           at(0), w.context.rng, &ev) == 1);
  CHECK(m.create_blocking_particle_emitter(*owner, info(ParticleType::Still), 0x32000002, kRootPart, dat::Frame{}, 1,
                                           at(0), w.context.rng, &ev) == 0);
  CHECK(m.find(1)->info_id() == 0x32000001);  // the old one lives on
  CHECK(ev.seen.back().event == EmitterEvent::SuppressedByBlocking);
  // Zero is never blocked.
  CHECK(m.create_blocking_particle_emitter(*owner, info(ParticleType::Still), 0x32000002, kRootPart, dat::Frame{}, 0,
                                           at(0), w.context.rng, &ev) == kFirstAnonymousEmitterId);
  CHECK(m.get_num_emitters() == 2);
}

TEST_CASE(
    "ParticleManager::StopParticleEmitter 0x0051B7B0 keeps the id until natural retirement, "
    "ParticleManager::UpdateParticles 0x0051B800 retires it, DestroyParticleEmitter 0x0051B770 frees it at once",
    "[retail][fx][particles]") {
  FxWorld w;
  auto owner = w.make(0x70000112);
  ParticleManager m(owner->local_id());
  Events ev;
  auto i = info(ParticleType::Still);
  i->lifespan = 0.5;
  REQUIRE(m.create_particle_emitter(*owner, i, kInfo, kRootPart, dat::Frame{}, 7, at(0), w.context.rng, &ev) == 7);
  CHECK(m.stop_particle_emitter(7, &ev));
  CHECK_FALSE(m.stop_particle_emitter(0, &ev));
  CHECK_FALSE(m.stop_particle_emitter(8, &ev));
  m.update_particles(*owner, at(0.3), w.context.rng, true, &ev);
  REQUIRE(m.find(7) != nullptr);  // stopped, but a particle lives
  CHECK(m.create_blocking_particle_emitter(*owner, i, kInfo, kRootPart, dat::Frame{}, 7, at(0.3), w.context.rng, &ev) ==
        0);
  CHECK(m.find(7)->total_emitted() == 1);  // no births after the stop
  m.update_particles(*owner, at(0.6), w.context.rng, true, &ev);
  CHECK(m.find(7) == nullptr);
  CHECK(ev.seen.back().event == EmitterEvent::Retired);
  CHECK(m.create_blocking_particle_emitter(*owner, i, kInfo, kRootPart, dat::Frame{}, 7, at(0.6), w.context.rng, &ev) ==
        7);
  CHECK(m.destroy_particle_emitter(7, &ev));
  CHECK(m.find(7) == nullptr);
  CHECK(ev.seen.back().event == EmitterEvent::Destroyed);
  CHECK_FALSE(m.destroy_particle_emitter(7, &ev));
  CHECK_FALSE(m.destroy_particle_emitter(0, &ev));
  // A finite emitter retires on its own once stopped and empty.
  auto burst = info(ParticleType::Still);
  burst->total_particles = 1;
  burst->lifespan = 0.1;
  const auto bid =
      m.create_particle_emitter(*owner, burst, kInfo, kRootPart, dat::Frame{}, 0, at(1.0), w.context.rng, &ev);
  m.update_particles(*owner, at(1.05), w.context.rng, true, &ev);  // stops: total reached
  CHECK(m.find(bid)->stopped());
  m.update_particles(*owner, at(1.2), w.context.rng, true, &ev);
  CHECK(m.find(bid) == nullptr);
  CHECK(m.get_num_emitters() == 0);
}
