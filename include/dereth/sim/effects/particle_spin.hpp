#pragma once
// The turn of the spinning particle types (4, 9 and 11), staged for a block
// of particles: Particle::Update 0x0051C290 copies the parent frame and calls
// Frame::rotate(c * t) on the copy (RE cgeometry/CFrame.c), which is grotate
// of the axis-angle turned into the world, then set_rotate's normalisation.
// SpinBatch gives each particle the orientation core::Frame::rotate leaves,
// bit for bit (the same float operations in the same order), but runs the
// float work four particles at a time; only the sine and cosine of each half
// angle are taken one particle at a time (libm's, as Frame::rotate takes them).
#include <array>
#include <cstddef>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/sim/effects/particle.hpp"

namespace dereth::sim {

class SpinBatch {
 public:
  // Particles staged before the batch turns them (a multiple of four).
  static constexpr std::size_t kLanes = 32;

  // Stages `out`'s orientation: parent's orientation turned by
  // `local_axis_angle` about parent's own axes (Frame::rotate on a copy of
  // parent). Turns the batch first when it is full. `out` must stay where it
  // is until the next flush.
  void add(const core::Frame& parent, const glm::vec3& local_axis_angle, ParticlePose& out) noexcept {
    if (count_ == kLanes) flush();
    const glm::mat3& m = parent.matrix();
    const glm::quat& q = parent.orientation();
    const std::size_t i = count_++;
    // Frame::localtoglobalvec: m * v.
    wx_[i] = m[0][0] * local_axis_angle.x + m[1][0] * local_axis_angle.y + m[2][0] * local_axis_angle.z;
    wy_[i] = m[0][1] * local_axis_angle.x + m[1][1] * local_axis_angle.y + m[2][1] * local_axis_angle.z;
    wz_[i] = m[0][2] * local_axis_angle.x + m[1][2] * local_axis_angle.y + m[2][2] * local_axis_angle.z;
    qw_[i] = q.w;
    qx_[i] = q.x;
    qy_[i] = q.y;
    qz_[i] = q.z;
    out_[i] = &out;
  }

  // Turns every staged particle and empties the batch.
  void flush() noexcept;

  [[nodiscard]] std::size_t size() const noexcept { return count_; }

 private:
  std::size_t count_ = 0;
  // The axis-angle in world axes and the parent orientation, one lane a particle.
  alignas(16) std::array<float, kLanes> wx_;
  alignas(16) std::array<float, kLanes> wy_;
  alignas(16) std::array<float, kLanes> wz_;
  alignas(16) std::array<float, kLanes> qw_;
  alignas(16) std::array<float, kLanes> qx_;
  alignas(16) std::array<float, kLanes> qy_;
  alignas(16) std::array<float, kLanes> qz_;
  std::array<ParticlePose*, kLanes> out_;
};

}  // namespace dereth::sim
