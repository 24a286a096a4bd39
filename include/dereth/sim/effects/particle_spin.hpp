#pragma once
// The turn of the spinning particle types (4, 9 and 11), staged for a block
// of particles: Particle::Update 0x0051C290 copies the parent frame and calls
// Frame::rotate(c * t) on the copy (RE cgeometry/CFrame.c), which is grotate
// of the axis-angle turned into the world, then set_rotate's normalisation.
// SpinBatch gives each particle the orientation core::Frame::rotate leaves,
// bit for bit (the same float operations in the same order), but runs the
// float work several particles at a time, the sine and cosine of each half
// angle included (the lanes of Frame::rotate's core::sincos). The lanes run on
// the widest path the CPU has, chosen at run time: AVX (eight float lanes a
// step, four doubles for the sines; never FMA, whose fused products would
// change bits), SSE2 (four lanes, core::sincos4), or one lane at a time.
#include <array>
#include <cstddef>
#include <cstdint>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/sim/effects/particle.hpp"

namespace dereth::sim {

// Where SpinBatch runs its lanes. Every path gives the same bits.
enum class SpinPath : std::uint8_t {
  Scalar,  // one lane at a time: core::Frame's own steps
  Sse2,    // four float lanes, core::sincos4
  Avx,     // eight float lanes; the sines four doubles a step (AVX without FMA)
};

// Whether this build and CPU can run `path` (AVX also needs the OS to save
// its registers, which __builtin_cpu_supports checks).
[[nodiscard]] bool spin_path_available(SpinPath path) noexcept;
// The widest available path, detected once.
[[nodiscard]] SpinPath best_spin_path() noexcept;
// s[i], c[i] = core::sincos(x[i]) for i < n, taken on `path` as SpinBatch
// takes its half angles (tests compare each path with core::sincos).
// `path` must be available; the arrays may not overlap x.
void spin_sincos(SpinPath path, const float* x, float* s, float* c, std::size_t n) noexcept;

class SpinBatch {
 public:
  // Particles staged before the batch turns them (a multiple of four).
  static constexpr std::size_t kLanes = 32;
  static_assert(kLanes % 8 == 0);

  SpinBatch() noexcept = default;
  // A batch on a given path (tests; `path` must be available).
  SpinBatch(const core::Frame* shared_parent, SpinPath path) noexcept : shared_(shared_parent), path_(path) {}
  // A batch whose particles all turn from `shared_parent` (a parent-local
  // emitter's live frame): its matrix product and orientation are applied to
  // four lanes at once, not staged per particle. The frame must outlive the
  // batch's last flush.
  explicit SpinBatch(const core::Frame* shared_parent) noexcept : shared_(shared_parent) {}
  SpinBatch(const SpinBatch&) = delete;
  SpinBatch& operator=(const SpinBatch&) = delete;

  // Stages `out`'s orientation: parent's orientation turned by
  // `local_axis_angle` about parent's own axes (Frame::rotate on a copy of
  // parent; with a shared parent, `parent` must be that frame). Turns the
  // batch first when it is full. `out` must stay where it is until the next
  // flush.
  void add(const core::Frame& parent, const glm::vec3& local_axis_angle, ParticlePose& out) noexcept {
    if (count_ == kLanes) flush();
    const std::size_t i = count_++;
    out_[i] = &out;
    if (shared_ != nullptr) {
      wx_[i] = local_axis_angle.x;
      wy_[i] = local_axis_angle.y;
      wz_[i] = local_axis_angle.z;
      return;
    }
    const glm::mat3& m = parent.matrix();
    const glm::quat& q = parent.orientation();
    // Frame::localtoglobalvec: m * v.
    wx_[i] = m[0][0] * local_axis_angle.x + m[1][0] * local_axis_angle.y + m[2][0] * local_axis_angle.z;
    wy_[i] = m[0][1] * local_axis_angle.x + m[1][1] * local_axis_angle.y + m[2][1] * local_axis_angle.z;
    wz_[i] = m[0][2] * local_axis_angle.x + m[1][2] * local_axis_angle.y + m[2][2] * local_axis_angle.z;
    qw_[i] = q.w;
    qx_[i] = q.x;
    qy_[i] = q.y;
    qz_[i] = q.z;
  }

  // Turns every staged particle and empties the batch.
  void flush() noexcept;

  [[nodiscard]] std::size_t size() const noexcept { return count_; }

 private:
  friend struct SpinKernels;

  const core::Frame* shared_ = nullptr;
  SpinPath path_ = best_spin_path();
  std::size_t count_ = 0;
  // The axis-angle in world axes (with a shared parent: in its axes) and the
  // parent orientation (unused with a shared parent), one lane a particle.
  alignas(32) std::array<float, kLanes> wx_;
  alignas(32) std::array<float, kLanes> wy_;
  alignas(32) std::array<float, kLanes> wz_;
  alignas(32) std::array<float, kLanes> qw_;
  alignas(32) std::array<float, kLanes> qx_;
  alignas(32) std::array<float, kLanes> qy_;
  alignas(32) std::array<float, kLanes> qz_;
  std::array<ParticlePose*, kLanes> out_;
};

}  // namespace dereth::sim
