// The spinning particle types' turn (types 4, 9 and 11), staged and taken
// several particles at a time by SpinBatch on every path the CPU has (AVX,
// SSE2, one lane at a time), against core::Frame::rotate (the path the
// particles took before, one particle at a time) and core::sincos bit for bit.
#include "dereth/sim/effects/particle_spin.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dereth/core/sincos.hpp"
#include "dereth/sim/effects/particle.hpp"
#include "dereth/sim/effects/particle_emitter.hpp"
#include "dereth/sim/effects/particle_manager.hpp"

#include "effects/fx_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::fxtest;
using dat::ParticleType;

namespace {

bool same_bits(const glm::quat& a, const glm::quat& b) {
  return float_bits(a.w) == float_bits(b.w) && float_bits(a.x) == float_bits(b.x) &&
         float_bits(a.y) == float_bits(b.y) && float_bits(a.z) == float_bits(b.z);
}

// Frame::rotate on a copy of the parent: the orientation it leaves.
glm::quat rotate_copy(const core::Frame& parent, const glm::vec3& axis_angle) {
  core::Frame turned = parent;
  turned.rotate(axis_angle);
  return turned.orientation();
}

const char* path_name(SpinPath path) {
  switch (path) {
    case SpinPath::Scalar: return "scalar";
    case SpinPath::Sse2: return "sse2";
    case SpinPath::Avx: return "avx";
  }
  return "?";
}

// Every path this build and CPU can run.
std::vector<SpinPath> available_paths() {
  std::vector<SpinPath> out;
  for (SpinPath path : {SpinPath::Scalar, SpinPath::Sse2, SpinPath::Avx}) {
    if (spin_path_available(path)) out.push_back(path);
  }
  return out;
}

}  // namespace

TEST_CASE("SpinBatch runs on the widest path the CPU has, and one lane at a time is always there", "[fx][particles]") {
  CHECK(spin_path_available(SpinPath::Scalar));
  CHECK(spin_path_available(best_spin_path()));
  for (SpinPath path : available_paths()) CHECK(path <= best_spin_path());
#if (defined(__x86_64__) || defined(_M_X64)) && !defined(DERETH_SPIN_SCALAR)
  CHECK(spin_path_available(SpinPath::Sse2));
#endif
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(DERETH_SPIN_SCALAR) && \
    !defined(DERETH_SPIN_NO_AVX)
  CHECK(spin_path_available(SpinPath::Avx) == (__builtin_cpu_supports("avx") != 0));
#endif
}

TEST_CASE("spin_sincos gives core::sincos's bits on every path, lane for lane", "[fx][particles]") {
  // Zeros of both signs, the smallest subnormals, tiny and huge, NaN and the
  // infinities, the 2^20 limit and its neighbours, floats at multiples of
  // pi/4 and pi/2 (quadrant edges); then seeded random floats of every
  // magnitude, a stride through every float's bits, and every float in
  // ranges around quadrant edges and at the half angles a particle takes.
  std::vector<float> x{0.0f,
                       -0.0f,
                       std::numeric_limits<float>::denorm_min(),
                       -std::numeric_limits<float>::denorm_min(),
                       std::numeric_limits<float>::min(),
                       1e-30f,
                       -1e-20f,
                       1e-8f,
                       0.5f,
                       -0.5f,
                       1.0f,
                       3.0e19f,
                       -1e30f,
                       std::numeric_limits<float>::max(),
                       std::numeric_limits<float>::quiet_NaN(),
                       -std::numeric_limits<float>::quiet_NaN(),
                       std::numeric_limits<float>::infinity(),
                       -std::numeric_limits<float>::infinity(),
                       0x1p20f,
                       -0x1p20f};
  for (const float edge : {0x1p20f, -0x1p20f}) {
    float below = edge;
    float above = edge;
    for (int k = 0; k < 8; ++k) {
      below = std::nextafter(below, 0.0f);
      above = std::nextafter(above, edge * 2.0f);
      x.push_back(below);
      x.push_back(above);
    }
  }
  for (int k = -64; k <= 64; ++k) {
    const auto edge = static_cast<float>(k * 0.78539816339744830962);
    float up = edge;
    float down = edge;
    for (int j = 0; j < 16; ++j) {
      x.push_back(up);
      x.push_back(down);
      up = std::nextafter(up, std::numeric_limits<float>::infinity());
      down = std::nextafter(down, -std::numeric_limits<float>::infinity());
    }
  }
  std::mt19937 rng(35);
  std::uniform_int_distribution<std::uint32_t> any_bits;
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (int i = 0; i < 200000; ++i) {
    x.push_back(unit(rng) * std::ldexp(1.0f, static_cast<int>(i % 24) - 2));  // to 2^21
    x.push_back(std::bit_cast<float>(any_bits(rng)));
  }
  for (std::uint64_t b = 0; b <= 0xffffffffu; b += 4093)
    x.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(b)));
  // Every float within 2^17 steps of pi/4 and pi/2 (where the reduction
  // changes quadrant), and every float in [1, 1 + 2^-6) (half angles of a
  // turn near 2 radians).
  for (const float centre : {0.78539816f, 1.5707964f, 3.1415927f, 100.53096f}) {
    const std::uint32_t c = std::bit_cast<std::uint32_t>(centre);
    for (std::uint32_t b = c - (1u << 17); b < c + (1u << 17); ++b) x.push_back(std::bit_cast<float>(b));
  }
  for (std::uint32_t b = std::bit_cast<std::uint32_t>(1.0f); b < std::bit_cast<std::uint32_t>(1.015625f); ++b) {
    x.push_back(std::bit_cast<float>(b));
  }
  // An odd count, so every path also runs its tail of fewer than a group.
  if (x.size() % 2 == 0) x.push_back(0.25f);
  const std::size_t n = x.size();
  std::vector<float> s(n);
  std::vector<float> c(n);
  for (SpinPath path : available_paths()) {
    std::fill(s.begin(), s.end(), 7.0f);
    std::fill(c.begin(), c.end(), 7.0f);
    spin_sincos(path, x.data(), s.data(), c.data(), n);
    std::size_t differing = 0;
    std::string first;
    for (std::size_t i = 0; i < n; ++i) {
      const core::SinCos want = core::sincos(x[i]);
      if (float_bits(s[i]) != float_bits(want.sin) || float_bits(c[i]) != float_bits(want.cos)) {
        if (differing++ == 0) first = std::to_string(std::bit_cast<std::uint32_t>(x[i]));
      }
    }
    INFO(path_name(path) << ": " << n << " inputs, first differing input bits " << first);
    CHECK(differing == 0);
  }
}

TEST_CASE(
    "Frame::rotate 0x004525B0 and Frame::grotate 0x005357A0 SpinBatch leaves each staged parent's orientation "
    "bit for bit as Frame::rotate",
    "[retail][fx][particles]") {
  // Random parents and axis-angles from zero through under and around
  // EPSILON to thousands of radians, and the non-finite ones; batches of every
  // size from 1 past kLanes, so the padding of a partial group of four and
  // the flush of a full batch both run.
  core::Rng rng(3535);
  const auto random_vec = [&](float r) {
    return glm::vec3(rng.uniform(-r, r), rng.uniform(-r, r), rng.uniform(-r, r));
  };
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<glm::vec3> special{
      {0.0f, 0.0f, 0.0f},
      {-0.0f, 0.0f, -0.0f},
      {core::kEpsilon, 0.0f, 0.0f},
      {0.0f, std::nextafter(core::kEpsilon, 0.0f), 0.0f},
      {0.0f, 0.0f, 1e-30f},
      {nan, 0.0f, 0.0f},
      {0.0f, inf, 0.0f},
      {1e30f, 1e30f, 1e30f},
      {3.0e19f, 0.0f, 0.0f},
      {0.0f, 0.0f, 1e-20f},
      // Half angles at core::sincos's 2^20 limit, just under it, and over.
      {0x1p21f, 0.0f, 0.0f},
      {0.0f, -std::nextafter(0x1p21f, 0.0f), 0.0f},
      {0.0f, 0.0f, 0x1p22f},
      {-0.0f, -0.0f, -0.0f},
      {std::numeric_limits<float>::denorm_min(), 0.0f, 0.0f},
  };
  const std::vector<SpinPath> paths = available_paths();
  std::size_t checked = 0;
  std::size_t turned = 0;
  for (std::size_t size = 1; size <= SpinBatch::kLanes + 5; ++size) {
    for (int round = 0; round < 40; ++round) {
      std::vector<core::Frame> parents;
      std::vector<glm::vec3> spins;
      for (std::size_t i = 0; i < size; ++i) {
        const glm::vec3 axis = random_vec(1.0f);
        // Some parents are the identity (no matrix products to round).
        const glm::quat q =
            i % 5 == 0 ? glm::quat(1, 0, 0, 0) : glm::quat(rng.uniform(-1.0f, 1.0f), axis.x, axis.y, axis.z);
        parents.emplace_back(random_vec(100.0f), q);
        const int kind = static_cast<int>(rng.next_u32() % 6);
        const float reach = kind == 0 ? 1e-4f : (kind == 1 ? 4.0f : (kind == 2 ? 400.0f : 60.0f));
        spins.push_back(kind == 5 ? special[rng.next_u32() % special.size()] : random_vec(reach));
      }
      for (SpinPath path : paths) {
        std::vector<ParticlePose> poses(size);
        SpinBatch batch(nullptr, path);
        for (std::size_t i = 0; i < size; ++i) batch.add(parents[i], spins[i], poses[i]);
        batch.flush();
        CHECK(batch.size() == 0);
        // The same spins from one shared parent (a parent-local emitter's).
        std::vector<ParticlePose> shared_poses(size);
        SpinBatch shared_batch(&parents[0], path);
        for (std::size_t i = 0; i < size; ++i) shared_batch.add(parents[0], spins[i], shared_poses[i]);
        shared_batch.flush();
        for (std::size_t i = 0; i < size; ++i) {
          const glm::quat want = rotate_copy(parents[i], spins[i]);
          INFO(path_name(path) << " size " << size << " lane " << i << " spin " << spins[i].x << " " << spins[i].y
                               << " " << spins[i].z);
          REQUIRE(same_bits(poses[i].orientation(), want));
          REQUIRE(same_bits(shared_poses[i].orientation(), rotate_copy(parents[0], spins[i])));
          if (!same_bits(want, parents[i].orientation())) ++turned;
          ++checked;
        }
      }
    }
  }
  CHECK(checked == paths.size() * 40 * (SpinBatch::kLanes + 5) * (SpinBatch::kLanes + 6) / 2);
  CHECK(turned > checked / 2);  // most of them did turn
}

TEST_CASE(
    "Particle::Update 0x0051C290 an emitter's spinning particles, turned a batch at a time, carry Frame::rotate's "
    "orientation bit for bit (ParticleEmitter::UpdateParticles 0x0051D180)",
    "[retail][fx][particles]") {
  // 150 live particles (several batches and a partial one) of each spinning
  // type, released (each turns from its own birth frame) and parent-local
  // (all from the owner's frame), owner turned: after some ticks each
  // particle's orientation is the parent's turned by c * lifetime.
  for (const int variant : {0, 1, 2, 3}) {
    const bool parent_local = (variant & 1) != 0;
    // A persistent emitter's particles age by accumulation, a bounded one's
    // from their birth (the emitter's loop is compiled for each).
    const bool persistent = (variant & 2) != 0;
    for (ParticleType type :
         {ParticleType::ParabolicLVGAGR, ParticleType::ParabolicLVLALR, ParticleType::ParabolicGVGAGR}) {
      FxWorld w(&demo_portal(), 77);
      auto owner = w.make(0x70000201, {5, 6, 7});
      auto i = std::make_shared<dat::ParticleEmitterInfo>();
      i->id = 0x32000101;
      i->emitter_type = dat::EmitterType::BirthratePerSec;
      i->particle_type = type;
      i->gfx_obj_id = i->hw_gfx_obj_id = 0x01000020;
      i->birthrate = 0.01;
      i->max_particles = 150;
      i->initial_particles = 150;
      i->lifespan = 100.0;
      i->c = {0.3f, -1.0f, 2.0f};
      i->min_c = 0.5f;
      i->max_c = 3.0f;
      i->is_parent_local = parent_local ? 1 : 0;
      i->total_seconds = persistent ? 0.0 : 1000.0;
      ParticleManager m(owner->local_id());
      double now = 1.0;
      const auto turn_owner = [&](int tick) {
        const glm::quat q = glm::angleAxis(0.1f * static_cast<float>(tick), glm::normalize(glm::vec3(1, 2, 3)));
        owner->set_frame(core::Frame(owner->position().frame.origin, q));
      };
      turn_owner(0);
      const auto id =
          m.create_particle_emitter(*owner, i, i->id, kRootPart, dat::Frame{}, 0,
                                    ParticleClock{core::Seconds{now}, core::Seconds{now}}, w.context.rng, nullptr);
      const ParticleEmitter& e = *m.find(id);
      REQUIRE(e.persistent() == persistent);
      for (int tick = 1; tick <= 7; ++tick) {
        now += 0.37;
        turn_owner(tick);
        const_cast<ParticleEmitter&>(e).update_particles(*owner, ParticleClock{core::Seconds{now}, core::Seconds{now}},
                                                         w.context.rng, true);
      }
      const core::Frame live_frame = emitter_parent_frame(*owner, kRootPart);
      std::size_t checked = 0;
      for (std::size_t k = 0; k < e.particles().size(); ++k) {
        if (!e.live(k)) continue;
        const Particle& p = e.particles()[k];
        const core::Frame& parent = parent_local ? live_frame : p.start_frame;
        const glm::quat want = rotate_copy(parent, glm::vec3(glm::dvec3(p.c) * p.lifetime));
        REQUIRE(same_bits(p.frame.orientation(), want));
        ++checked;
      }
      CHECK(checked >= 150);
    }
  }
}
