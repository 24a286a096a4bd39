#pragma once
// ParticleEmitterInfo (0x32) (spec/dat-format.md 3.6): 176 bytes, wire order
// below (the in-memory retail struct order differs; never use it for the wire).
// The 2013 client builds particles only from hw_gfx_obj_id.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

// Any i32 is kept as stored; named values are the ones retail implements.
enum class EmitterType : std::int32_t {
  Unknown = 0,
  BirthratePerSec = 1,    // birthrate = seconds between births
  BirthratePerMeter = 2,  // birthrate = metres travelled between births
};

// LV/GV = local/global velocity A; GA/LA = global/local acceleration B;
// GR/LR = global/local rotation C.
enum class ParticleType : std::int32_t {
  Unknown = 0,
  Still = 1,
  LocalVelocity = 2,
  ParabolicLVGA = 3,
  ParabolicLVGAGR = 4,
  Swarm = 5,
  Explode = 6,
  Implode = 7,
  ParabolicLVLA = 8,
  ParabolicLVLALR = 9,
  ParabolicGVGA = 10,
  ParabolicGVGAGR = 11,
  GlobalVelocity = 12,
};

// "BirthratePerSec", or "" for a value without a name.
[[nodiscard]] std::string_view emitter_type_name(EmitterType type) noexcept;
[[nodiscard]] std::string_view particle_type_name(ParticleType type) noexcept;

// Defaults are retail's constructor: min/max A/B/C and start/final scale 1,
// everything else 0.
struct ParticleEmitterInfo {
  Did id = 0;
  std::uint32_t unknown = 0;  // retail Pack writes 0
  EmitterType emitter_type = EmitterType::Unknown;
  ParticleType particle_type = ParticleType::Unknown;
  Did gfx_obj_id = 0;     // software
  Did hw_gfx_obj_id = 0;  // hardware: the one the 2013 client uses
  double birthrate = 0;
  std::int32_t max_particles = 0;
  std::int32_t initial_particles = 0;
  std::int32_t total_particles = 0;
  double total_seconds = 0;
  double lifespan = 0;
  double lifespan_rand = 0;
  glm::vec3 offset_dir{0.0F};
  float min_offset = 0;
  float max_offset = 0;
  glm::vec3 a{0.0F};
  float min_a = 1;
  float max_a = 1;
  glm::vec3 b{0.0F};
  float min_b = 1;
  float max_b = 1;
  glm::vec3 c{0.0F};
  float min_c = 1;
  float max_c = 1;
  float start_scale = 1;
  float final_scale = 1;
  float scale_rand = 0;
  float start_trans = 0;
  float final_trans = 0;
  float trans_rand = 0;
  std::uint32_t is_parent_local = 0;  // bool, kept as stored

  static constexpr std::size_t kRecordSize = 176;

  bool operator==(const ParticleEmitterInfo&) const = default;
};

Result<ParticleEmitterInfo> read_particle_emitter_info(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_particle_emitter_info(const ParticleEmitterInfo& info);
void write_json(core::JsonWriter& j, const ParticleEmitterInfo& info);

}  // namespace dereth::dat
